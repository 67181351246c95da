import type { DecodeError } from "../model/errors.js";
import type { NetworkingObject } from "../model/kinds.js";
import type { WatchEventType } from "../model/watch-event.js";
import type { YamlReading } from "../text/yaml/parse.js";
import { nameOf, type Identity } from "./identity.js";
import type { ManifestWarning, TextPosition } from "./verdict.js";

// What readManifests (read-manifests.ts) gives for each document of a text, and its options:
// the entry types, and how an error or a skipped entry is built from where a document starts
// and what could be read of its identity.

/**
 * How unknown and repeated fields are treated, as the API server's
 * `fieldValidation` query parameter: `Strict` refuses the object (kubectl's
 * default), `Warn` decodes it with a warning per field, `Ignore` drops them.
 * In {@link readManifests}' default kubectl reading a repeated key is never
 * refused: kubectl sends its last value (see {@link ReadManifestsOptions}).
 *
 * @example
 * import type { FieldValidation } from "clusterwire/networking";
 *
 * const mode: FieldValidation = "Warn";
 */
export type FieldValidation = "Strict" | "Warn" | "Ignore";

/** Where an entry sits in its text. Entries read by readManifests always have `document` and `line`. */
interface EntryPlace {
  /** 1-based number of the document (YAML document, JSON value, or watch event) in the text. */
  readonly document?: number;
  /** 0-based index in a v1 List's items, for entries expanded from one. */
  readonly item?: number;
  /** 1-based line where the document (or List item) starts. */
  readonly line?: number;
  /** For objects of a watch stream (built by the caller): the event type. */
  readonly event?: WatchEventType;
}

/**
 * A networking.k8s.io/v1 object, decoded.
 *
 * @example
 * import { readManifests } from "clusterwire/networking";
 * const [entry] = readManifests("apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: edge\nspec:\n  controller: example.com/ingress\n");
 * if (entry?.type === "object") console.log(entry.object.$typeName, entry.locate(["spec", "controller"]));
 */
export interface ManifestObject extends EntryPlace {
  /** Always `"object"`: the document is a networking.k8s.io/v1 object. */
  readonly type: "object";
  /** The decoded object. */
  readonly object: NetworkingObject;
  /**
   * Unknown fields under `fieldValidation: "Warn"`, and repeated keys under
   * `"Strict"` and `"Warn"` (in the kubectl reading, the last value decoded;
   * in the server reading, under `"Warn"` only); empty under `"Ignore"`.
   */
  readonly warnings: readonly ManifestWarning[];
  /** Where the value at a JSON field path (keys and list indexes) sits in the text, when it can be found. */
  readonly locate: (path: readonly (string | number)[]) => TextPosition | undefined;
}

/**
 * A document passed over: another kind than networking.k8s.io/v1's (a
 * Deployment, a Service), or a networking kind the `select` option left out.
 *
 * @example
 * import { readManifests } from "clusterwire/networking";
 * const [entry] = readManifests("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n");
 * // { type: "skipped", document: 1, line: 1, apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web", reason: "..." }
 */
export interface ManifestSkipped extends EntryPlace {
  /** Always `"skipped"`: the document is of another kind. */
  readonly type: "skipped";
  /** The document's apiVersion. */
  readonly apiVersion: string;
  /** The document's kind. */
  readonly kind: string;
  /** Its metadata.namespace, when it has one. */
  readonly namespace?: string;
  /** Its metadata.name, when it has one. */
  readonly name?: string;
  /** Why, e.g. "apps/v1 Deployment is not a networking.k8s.io/v1 kind". */
  readonly reason: string;
}

/**
 * A document that cannot be read or decoded, with where the problem is and
 * what could be read of the document's identity.
 *
 * @example
 * import { readManifests } from "clusterwire/networking";
 * const [entry] = readManifests("kind: Ingress\nmetadata: [\n");
 * if (entry?.type === "error") console.log(`${entry.line}:${entry.column} ${entry.error.reason}`);
 */
export interface ManifestError extends EntryPlace {
  /** Always `"error"`: the document could not be read or decoded. */
  readonly type: "error";
  /** Where the error is: the error's own line, or else the line where the document starts. */
  readonly line?: number;
  /** The error's column, or 1 where only the document is known. */
  readonly column?: number;
  /** The line where the document (or List item) starts. */
  readonly documentLine?: number;
  /** The decoder's error; its line and column, when set, are those of the whole text. */
  readonly error: DecodeError;
  /** The document's apiVersion, when it could be read. */
  readonly apiVersion?: string;
  /** The document's kind, when it could be read. */
  readonly kind?: string;
  /** The document's metadata.namespace, when it could be read. */
  readonly namespace?: string;
  /** The document's metadata.name, when it could be read. */
  readonly name?: string;
  /** Set when the document does not parse and holds `{{ }}`: most likely a template not yet rendered. */
  readonly template?: boolean;
}

/**
 * One result of {@link readManifests}: a decoded object, a skipped document,
 * or an error. Switch on `type`.
 *
 * @example
 * import { readManifests, type ManifestEntry } from "clusterwire/networking";
 * const names = (e: ManifestEntry) => (e.type === "skipped" ? `${e.kind} ${e.name ?? ""}` : e.type);
 * console.log(readManifests("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n").map(names));
 */
export type ManifestEntry = ManifestObject | ManifestSkipped | ManifestError;

/**
 * Options of {@link readManifests}.
 *
 * @example
 * import type { ReadManifestsOptions } from "clusterwire/networking";
 *
 * const options: ReadManifestsOptions = { format: "yaml", fieldValidation: "Warn", select: (_v, kind) => kind === "Ingress" };
 */
export interface ReadManifestsOptions {
  /**
   * `"yaml"` or `"json"` (a JSON value, a v1 List, or several values one
   * after another). Default: JSON when the first non-blank character is `{`
   * or `[` (but not `{{`, a template), else YAML. kubectl takes `{` only for
   * JSON, and falls back to YAML where this does not (docs/json-yaml.md).
   */
  readonly format?: "yaml" | "json";
  /** How unknown and repeated fields are treated. Default `"Strict"`, as kubectl sends objects. */
  readonly fieldValidation?: FieldValidation;
  /**
   * How the text is read: `"kubectl"` (default) as `kubectl apply -f` reads
   * a file: a YAML stream split into documents at `---` lines, and a key
   * repeated in one mapping or JSON object (which kubectl's non-strict
   * reading settles, sending the last value, before the API server sees it)
   * decoded with its last value and a warning per repeat, under `"Strict"`
   * as under `"Warn"`. `"server"` reads the text as one request body, as the
   * API server does: YAML's first document only, and a repeated key refused
   * under `"Strict"` (a warning under `"Warn"`).
   */
  readonly reading?: YamlReading;
  /** Networking kinds to decode; the others become skipped entries. Default: every kind. */
  readonly select?: (apiVersion: string, kind: string) => boolean;
  /** The reason given on a networking kind that `select` leaves out. Default "not selected". */
  readonly notSelected?: string;
}

/** Where a document starts. */
export interface At {
  readonly document: number;
  readonly line: number;
  readonly item?: number;
}

export function errorEntry(at: At, id: Identity, error: DecodeError): ManifestError {
  return {
    type: "error",
    document: at.document,
    ...(at.item !== undefined ? { item: at.item } : {}),
    line: error.line ?? at.line,
    column: error.line !== undefined ? (error.column ?? 1) : 1,
    documentLine: at.line,
    error,
    ...(id.apiVersion !== undefined ? { apiVersion: id.apiVersion } : {}),
    ...(id.kind !== undefined ? { kind: id.kind } : {}),
    ...nameOf(id),
  };
}

export function skipped(at: At, id: Identity, reason: string): ManifestSkipped {
  return {
    type: "skipped",
    ...at,
    apiVersion: id.apiVersion ?? "",
    kind: id.kind ?? "",
    ...nameOf(id),
    reason,
  };
}
