import { NETWORKING_API_VERSION } from "../model/kind-names.js";
import { DecodeError, type DecodeFormat } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";
import { lookupKind, type NetworkingObject } from "../model/kinds.js";
import { renderPath } from "../model/path.js";
import type { WatchEventType } from "../model/watch-event.js";
import { fromJson, fromParsedYaml } from "../text/json/from-json.js";
import { DuplicateKey, locatePath, parseJsonText } from "../text/json/parse.js";
import { locateYamlPath, parseYamlDocuments, type YamlReading } from "../text/yaml/parse.js";
import { splitYamlDocuments } from "../text/yaml/split.js";
import type { ManifestWarning, TextPosition } from "./verdict.js";

// Reading a manifest text document by document, as kubectl reads a file it
// applies: each YAML document (or JSON value) on its own, so one bad document
// is reported without hiding the others; networking.k8s.io/v1 objects decoded,
// any other kind named and passed over, a v1 List read item by item.

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

/** The apiVersion and kind of kubectl's List, which it expands into its items. */
const LIST_API_VERSION = "v1";
const LIST_KIND = "List";

/**
 * Networking kinds under API versions no supported Kubernetes serves, and the
 * release that removed them.
 */
const REMOVED_KINDS: ReadonlyMap<string, string> = new Map([
  ["extensions/v1beta1/NetworkPolicy", "1.16"],
  ["extensions/v1beta1/Ingress", "1.22"],
  ["networking.k8s.io/v1beta1/Ingress", "1.22"],
  ["networking.k8s.io/v1beta1/IngressClass", "1.22"],
]);

/** The strict decoders' words for a field the schema lacks or a key given twice. */
const FIELD_PROBLEM = /^(unknown|duplicate) field "/;

/** What the JSON parser says when a value is followed by more text: the next value of a stream. */
const JSON_TRAILER = "unexpected text after the JSON value";

/** What a repeated key's warning adds in the kubectl reading: what kubectl does with it. */
const KUBECTL_SENDS_LAST = "kubectl sends the last value";

/** More unknown fields than this in one object are not listed one by one. */
const MAX_FIELD_PROBLEMS = 100;

/** The type meta and identity of a parsed document, read without decoding it. */
interface Identity {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

type Locate = (path: readonly (string | number)[]) => TextPosition | undefined;

/** The lines of the text (from, inclusive, to to, exclusive) whose document warnings an entry takes. */
type Span = readonly [number, number];

const ALL_LINES: Span = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];

/** Whether a warning is at a line of the span; one with no line belongs to every entry. */
function inSpan(w: ManifestWarning, span: Span): boolean {
  const line = w.position?.line;
  return line === undefined || (line >= span[0] && line < span[1]);
}

/** Where a document starts. */
interface At {
  readonly document: number;
  readonly line: number;
  readonly item?: number;
}

/**
 * Reads a YAML stream or JSON text of mixed kinds, giving each document its
 * own entry, in order, as `clusterwire validate` reads a file: a
 * networking.k8s.io/v1 object decoded (`object`), a document of another kind
 * named and passed over (`skipped`), or a document that cannot be read or
 * decoded (`error`, with its line and column; the documents after it are
 * still read). A v1 `List` gives one entry per item. Empty documents and
 * comments give no entry. Never throws for bad content.
 *
 * Fields are checked as kubectl's default `fieldValidation: "Strict"` has
 * the API server check them: an unknown field makes the document an error.
 * A repeated key does not, in the default kubectl reading: kubectl sends the
 * last value, so that value is decoded and each repeat is a warning of the
 * object at its line and column (`key "controller" already set in map;
 * kubectl sends the last value`). See {@link ReadManifestsOptions}.
 *
 * @example
 * import { readManifests } from "clusterwire/networking";
 * const text = `apiVersion: apps/v1
 * kind: Deployment
 * metadata: {name: web, namespace: shop}
 * ---
 * apiVersion: networking.k8s.io/v1
 * kind: IngressClass
 * metadata: {name: edge}
 * spec: {controller: example.com/ingress}
 * `;
 * for (const e of readManifests(text)) console.log(e.type, e.document, e.line);
 * // skipped 1 1
 * // object 2 5
 */
export function readManifests(text: string, options: ReadManifestsOptions = {}): ManifestEntry[] {
  if (typeof text !== "string") throw new TypeError(`readManifests: expected text, got ${typeof text}`);
  const reader = new TextReader(text, options);
  return (options.format ?? formatOfText(text)) === "json" ? reader.json() : reader.yaml();
}

/**
 * JSON when the first non-blank character opens an object or array, as the
 * CLI guesses a file without extension; but `{{` opens a template, never JSON.
 */
function formatOfText(text: string): "yaml" | "json" {
  const at = text.search(/\S/);
  const first = at < 0 ? undefined : text[at];
  if (first === "{" && text[at + 1] === "{") return "yaml";
  return first === "{" || first === "[" ? "json" : "yaml";
}

/** What a text that does not parse and holds template braces is. */
export const TEMPLATE_NOTE =
  "holds {{ }} and does not parse: a template, not a manifest (render it first, e.g. helm template)";

/** What a text with no document is. */
export const NO_DOCUMENTS_NOTE = "no documents: empty, or comments only";

/** What a text in which no document names a kind is. */
export const NO_KIND_NOTE = "no kind: not a Kubernetes manifest";

/**
 * Why the entries {@link readManifests} read from a text show it is no
 * Kubernetes manifest at all, or undefined when it is one: it has no
 * documents (empty, or comments only), no document names a kind (a
 * package.json, a Helm values file), or a document that does not parse
 * holds `{{ }}` (an unrendered template). `clusterwire validate` skips such
 * files with this note.
 *
 * @example
 * import { notManifestReason, readManifests } from "clusterwire/networking";
 * console.log(notManifestReason(readManifests('{"name": "my-app", "version": "1.0.0"}')));
 * // no kind: not a Kubernetes manifest
 */
export function notManifestReason(entries: readonly ManifestEntry[]): string | undefined {
  // A template is not a manifest until rendered, even where its kind can be read.
  if (entries.some((e) => e.type === "error" && e.template === true)) return TEMPLATE_NOTE;
  if (entries.length === 0) return NO_DOCUMENTS_NOTE;
  // A kind makes a manifest; an apiVersion alone does not (Helm's Chart.yaml has one).
  return entries.some((e) => e.type === "object" || e.kind !== undefined) ? undefined : NO_KIND_NOTE;
}

class TextReader {
  private document = 0;
  private yamlInput = false;
  private format: DecodeFormat = "json";
  /** Warnings of the YAML document being read (a repeated key, under Warn), for each object in it. */
  private chunkWarnings: ManifestWarning[] = [];
  private readonly mode: FieldValidation;
  /** Whether a repeated key is kubectl's to settle: it reads the text non-strictly, so the last value is sent. */
  private readonly kubectlReading: boolean;

  constructor(
    private readonly text: string,
    private readonly options: ReadManifestsOptions,
  ) {
    this.mode = options.fieldValidation ?? "Strict";
    this.kubectlReading = (options.reading ?? "kubectl") === "kubectl";
  }

  /**
   * A stream of JSON values, each an object or a List of them: one for a
   * usual file, several when they are concatenated, as kubectl's decoder
   * reads them one after another. Unlike kubectl's YAMLOrJSONDecoder, a JSON
   * error before a second value does not switch to YAML (docs/json-yaml.md).
   */
  json(): ManifestEntry[] {
    const out: ManifestEntry[] = [];
    const text = this.text;
    // Found once: a position is then a binary search, where a scan from the start for each
    // document made a JSON stream of n documents take n * n steps (32,000 took 10 s).
    const starts = lineStarts(text);
    let start = text.search(/\S/);
    while (start >= 0 && start < text.length) {
      let end = text.length;
      let value: JsonValue;
      const document = ++this.document;
      const line = positionIn(starts, start).line;
      try {
        // Parsed once without decoding, to learn the kind; bigints and repeated keys survive as the decoder sees them.
        value = parseJsonText(text.slice(start)).value as JsonValue;
      } catch (e) {
        const next =
          e instanceof DecodeError && e.reason === JSON_TRAILER && e.offset !== undefined ? start + e.offset : -1;
        try {
          if (next < 0) throw e;
          end = next;
          value = parseJsonText(text.slice(start, end)).value as JsonValue;
        } catch (inner) {
          if (!(inner instanceof DecodeError)) throw inner;
          const offset = inner.offset !== undefined ? start + inner.offset : start;
          const at = positionIn(starts, offset);
          const error = new DecodeError("json", inner.reason, {
            ...at,
            offset,
            document,
            ...(inner.path !== undefined && inner.path !== "" ? { path: inner.path } : {}),
            ...(inner.segments !== undefined ? { segments: inner.segments } : {}),
          });
          // As with broken YAML: a "kind" member says the text was meant to be a manifest.
          out.push(errorEntry({ document, line }, identityFromJsonText(text.slice(start)), error));
          return out;
        }
      }
      const base = start;
      const slice = text.slice(start, end);
      const locate = (path: readonly (string | number)[]): TextPosition =>
        positionIn(starts, base + locatePath(slice, path));
      out.push(...this.classify(value, { document, line }, locate, []));
      const rest = text.slice(end).search(/\S/);
      start = rest < 0 ? -1 : end + rest;
    }
    return out;
  }

  yaml(): ManifestEntry[] {
    this.yamlInput = true;
    this.format = "yaml";
    const out: ManifestEntry[] = [];
    if (this.options.reading === "server") {
      // One request body: the raw text, its first document only.
      this.readChunk(this.text, 1, 0, "server", out);
      return out;
    }
    for (const chunk of splitYamlDocuments(this.text)) {
      this.readChunk(chunk.text, chunk.line, chunk.offset, "kubectl", out);
      if (chunk.separatorError !== undefined) {
        const e = chunk.separatorError;
        const document = ++this.document;
        const line = e.line ?? chunk.line;
        out.push(
          errorEntry(
            { document, line },
            {},
            new DecodeError("yaml", e.reason, {
              line,
              column: e.column ?? 1,
              ...(e.offset !== undefined ? { offset: e.offset } : {}),
              document,
            }),
          ),
        );
      }
    }
    return out;
  }

  private readChunk(text: string, line: number, offset: number, reading: YamlReading, out: ManifestEntry[]): void {
    if (text.trim() === "") return;
    let values: JsonValue[];
    this.chunkWarnings = [];
    try {
      values = this.parseChunk(text, line, offset, reading);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      const document = ++this.document;
      // Even when the YAML is broken, a kind written near the top says what the document was meant to be.
      const identity = identityFromText(text);
      const entry = errorEntry({ document, line }, identity, shifted(e, line, offset, document));
      out.push(/\{\{.*\}\}/.test(text) ? { ...entry, template: true } : entry);
      return;
    }
    values.forEach((value, index) => {
      const document = ++this.document;
      const locate = (path: readonly (string | number)[]): TextPosition | undefined => {
        const w = locateYamlPath(text, index, path, { reading });
        return w.line === undefined ? undefined : { line: w.line + line - 1, column: w.column ?? 1 };
      };
      const start = values.length === 1 ? firstContentLine(text, line) : (locate([])?.line ?? line);
      out.push(...this.classify(value, { document, line: start }, locate, []));
    });
  }

  /**
   * Parses one document. In the kubectl reading a repeated key is a warning,
   * each one named, the last value winning: kubectl reads YAML non-strictly
   * and sends that value, so the API server never sees the repeat. Read as
   * one request body, a repeated key is the server's strict decoding error
   * under Strict, and under Warn a warning (go-yaml stops at the first, so
   * only that one is named).
   */
  private parseChunk(text: string, line: number, offset: number, reading: YamlReading): JsonValue[] {
    if (this.mode === "Ignore") return parseYamlDocuments(text, { uniqueKeys: false, reading });
    if (this.kubectlReading) {
      const onRepeatedKey = (e: DecodeError): void => {
        const moved = shifted(e, line, offset, undefined);
        this.chunkWarnings.push({
          message: `${moved.reason}; ${KUBECTL_SENDS_LAST}`,
          ...(moved.line !== undefined ? { position: { line: moved.line, column: moved.column ?? 1 } } : {}),
        });
      };
      return parseYamlDocuments(text, { uniqueKeys: true, reading, onRepeatedKey });
    }
    try {
      return parseYamlDocuments(text, { uniqueKeys: true, reading });
    } catch (e) {
      if (this.mode === "Strict" || !(e instanceof DecodeError) || !/ already set in map$/.test(e.reason)) throw e;
      const values = parseYamlDocuments(text, { uniqueKeys: false, reading });
      const moved = shifted(e, line, offset, undefined);
      this.chunkWarnings.push({
        message: moved.reason,
        ...(moved.line !== undefined ? { position: { line: moved.line, column: moved.column ?? 1 } } : {}),
      });
      return values;
    }
  }

  /**
   * Turns one parsed document into entries: a networking object decoded,
   * another kind named, a v1 List expanded into its items.
   */
  private classify(
    value: JsonValue,
    at: At,
    locate: Locate,
    prefix: readonly (string | number)[],
    span: Span = ALL_LINES,
  ): ManifestEntry[] {
    const id = identityOf(value);
    if (prefix.length === 0 && id.apiVersion === LIST_API_VERSION && id.kind === LIST_KIND && isObject(value)) {
      const items = value.items;
      if (Array.isArray(items)) {
        const lines = items.map((_, i) => locate(["items", i])?.line ?? at.line);
        return items.flatMap((item, i) => {
          const path = ["items", i];
          const itemAt: At = { ...at, item: i, line: lines[i] ?? at.line };
          // A warning of the document goes to the item whose lines hold it: the first takes those before it, the last those after it.
          const from = i === 0 ? Number.NEGATIVE_INFINITY : (lines[i] ?? at.line);
          const to = i === items.length - 1 ? Number.POSITIVE_INFINITY : (lines[i + 1] ?? at.line);
          return this.classify(item, itemAt, (p) => locate([...path, ...p]), path, [from, to]);
        });
      }
    }
    // Only networking.k8s.io/v1 kinds are checked; the decoder also knows meta/v1 Status, which is no object to create.
    const known =
      id.apiVersion === NETWORKING_API_VERSION &&
      id.kind !== undefined &&
      lookupKind(id.apiVersion, id.kind) !== undefined;
    if (known && this.options.select !== undefined && !this.options.select(id.apiVersion ?? "", id.kind ?? "")) {
      return [skipped(at, id, this.options.notSelected ?? "not selected")];
    }
    const removed =
      id.apiVersion !== undefined && id.kind !== undefined
        ? REMOVED_KINDS.get(`${id.apiVersion}/${id.kind}`)
        : undefined;
    if (removed !== undefined) {
      // Not another kind to pass over: no API server still serves it, so it is refused as kubectl would be.
      const message = `no matches for kind ${JSON.stringify(id.kind)} in version ${JSON.stringify(id.apiVersion)}: removed in Kubernetes ${removed}; use ${NETWORKING_API_VERSION}`;
      return [this.failed(at, id, message, ["apiVersion"], locate)];
    }
    // A kind networking.k8s.io/v1 does not have falls through to the decoder, which refuses it as the API server would.
    if (
      !known &&
      id.apiVersion !== undefined &&
      id.apiVersion !== "" &&
      id.apiVersion !== NETWORKING_API_VERSION &&
      id.kind !== undefined &&
      id.kind !== ""
    ) {
      return [skipped(at, id, `${id.apiVersion} ${id.kind} is not a ${NETWORKING_API_VERSION} kind`)];
    }
    return [this.decode(value, at, locate, id, span)];
  }

  /** Decodes a networking object under the field validation asked for. */
  private decode(value: JsonValue, at: At, locate: Locate, id: Identity, span: Span): ManifestEntry {
    const mode = this.mode;
    const problems: { message: string; path: readonly (string | number)[] }[] = [];
    // Repeated JSON keys in the kubectl reading: kubectl's non-strict decoder sends the last value.
    const repeats: { message: string; path: readonly (string | number)[] }[] = [];
    // The decoder stops at the first unknown or repeated field. To report them
    // all, as the API server does, each one found is removed from a copy of the
    // value and decoding is tried again; bounded, since each pass removes one
    // and the passes stop at MAX_FIELD_PROBLEMS.
    let current = value;
    const listed = (): string => problems.map((p) => p.message).join(", ");
    for (;;) {
      try {
        const strict = mode !== "Ignore";
        // YAML integers and floats follow go-yaml's rules, so a YAML value has its own entry point.
        // fromJson reads a string as JSON text: a parsed string goes back to its text.
        const object = this.yamlInput
          ? fromParsedYaml(current, { strict })
          : fromJson(typeof current === "string" ? JSON.stringify(current) : current, { strict });
        if (problems.length > 0 && mode === "Strict") {
          return this.failed(at, id, `strict decoding error: ${listed()}`, problems[0]?.path ?? [], locate);
        }
        const located = (p: { message: string; path: readonly (string | number)[] }): ManifestWarning => ({
          message: p.message,
          ...fieldAt(p.path, locate),
        });
        const chunk = this.chunkWarnings.filter((w) => inSpan(w, span));
        const warnings =
          mode === "Warn"
            ? [...chunk, ...repeats.map(located), ...problems.map(located)]
            : [...chunk, ...repeats.map(located)];
        return { type: "object", ...at, object, warnings, locate };
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        const path = e.segments ?? [];
        if (!FIELD_PROBLEM.test(e.reason) || path.length === 0) return this.failed(at, id, e.reason, path, locate);
        const message = `${e.reason.slice(0, e.reason.indexOf(" "))} field ${JSON.stringify(renderPath(path))}`;
        if (this.kubectlReading && e.reason.startsWith("duplicate")) {
          repeats.push({ message: `${message}; ${KUBECTL_SENDS_LAST}`, path });
        } else problems.push({ message, path });
        if (problems.length + repeats.length === MAX_FIELD_PROBLEMS) {
          // Past this many the object is not what its kind describes; even under Warn it is refused.
          const all = [...problems, ...repeats];
          const message = `strict decoding error: ${all.map((p) => p.message).join(", ")}, and more`;
          return this.failed(at, id, message, all[0]?.path ?? [], locate);
        }
        current = without(current, path, e.reason.startsWith("unknown"));
      }
    }
  }

  /** An error about the field at `path` of a parsed document, located in the text. */
  private failed(
    at: At,
    id: Identity,
    reason: string,
    path: readonly (string | number)[],
    locate: Locate,
  ): ManifestError {
    const field = fieldAt(path, locate);
    const error = new DecodeError(this.format, reason, {
      document: at.document,
      ...(field.position !== undefined ? field.position : {}),
      ...(field.field !== undefined ? { path: field.field, segments: path } : {}),
    });
    return errorEntry(at, id, error);
  }
}

function errorEntry(at: At, id: Identity, error: DecodeError): ManifestError {
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

function skipped(at: At, id: Identity, reason: string): ManifestSkipped {
  return {
    type: "skipped",
    ...at,
    apiVersion: id.apiVersion ?? "",
    kind: id.kind ?? "",
    ...nameOf(id),
    reason,
  };
}

/** A YAML error found in a document that starts at `line` and `offset` of the text, placed in the text. */
function shifted(e: DecodeError, line: number, offset: number, document: number | undefined): DecodeError {
  return new DecodeError("yaml", e.reason, {
    ...(e.line !== undefined ? { line: e.line + line - 1, column: e.column ?? 1 } : {}),
    ...(e.offset !== undefined ? { offset: e.offset + offset } : {}),
    ...(e.path !== undefined && e.path !== "" ? { path: e.path } : {}),
    ...(e.segments !== undefined ? { segments: e.segments } : {}),
    ...(document !== undefined ? { document } : {}),
  });
}

function fieldAt(path: readonly (string | number)[], locate: Locate): { field?: string; position?: TextPosition } {
  if (path.length === 0) return {};
  const position = locate(path);
  return { field: renderPath(path), ...(position !== undefined ? { position } : {}) };
}

/** A copy of `value` without the member at `path` (only the objects on the path are copied). */
function without(value: JsonValue, path: readonly (string | number)[], unknown: boolean): JsonValue {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(value) && typeof head === "number") {
    const copy = value.slice();
    if (rest.length === 0) copy.splice(head, 1);
    else copy[head] = without(value[head] as JsonValue, rest, unknown);
    return copy;
  }
  if (isObject(value)) {
    const copy = Object.assign(Object.create(null) as Record<string, JsonValue>, value);
    const key = String(head);
    // A repeated key keeps its last value, as the decoder would; an unknown one is dropped, however often written.
    if (rest.length === 0 && !unknown && value[key] instanceof DuplicateKey)
      copy[key] = unwrapDuplicate(value[key] as JsonValue);
    else if (rest.length === 0) delete copy[key];
    else copy[key] = without(unwrapDuplicate(value[key] as JsonValue), rest, unknown);
    return copy as JsonValue;
  }
  return value;
}

/** JSON text parsed by parseJsonText marks a repeated key with its values; the last one is the one decoded. */
function unwrapDuplicate(v: JsonValue): JsonValue {
  const d = v as unknown;
  return d instanceof DuplicateKey ? (d.values[d.values.length - 1] as JsonValue) : v;
}

function isObject(v: unknown): v is Record<string, JsonValue> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function stringAt(obj: Record<string, JsonValue>, key: string): string | undefined {
  const v = unwrapDuplicate(obj[key] as JsonValue);
  return typeof v === "string" ? v : undefined;
}

function identityOf(value: JsonValue): Identity {
  if (!isObject(value)) return {};
  const meta = unwrapDuplicate(value.metadata as JsonValue);
  const apiVersion = stringAt(value, "apiVersion");
  const kind = stringAt(value, "kind");
  const name = isObject(meta) ? stringAt(meta, "name") : undefined;
  const namespace = isObject(meta) ? stringAt(meta, "namespace") : undefined;
  return {
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
  };
}

function nameOf(id: Identity): { name?: string; namespace?: string } {
  return {
    ...(id.name !== undefined && id.name !== "" ? { name: id.name } : {}),
    ...(id.namespace !== undefined && id.namespace !== "" ? { namespace: id.namespace } : {}),
  };
}

/** `kind:` and `apiVersion:` written at the top level of a YAML document that does not parse. */
function identityFromText(text: string): Identity {
  const kind = /^kind:[ \t]*["']?([A-Za-z0-9]+)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
  const apiVersion = /^apiVersion:[ \t]*["']?([A-Za-z0-9./-]+)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}) };
}

/** `"kind"` and `"apiVersion"` string members written in JSON text that does not parse. */
function identityFromJsonText(text: string): Identity {
  const member = (key: string): string | undefined => {
    const quoted = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\\\n]|\\\\.)*")`).exec(text)?.[1];
    try {
      return quoted === undefined ? undefined : (JSON.parse(quoted) as string);
    } catch {
      return undefined;
    }
  };
  const kind = member("kind");
  const apiVersion = member("apiVersion");
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}) };
}

/**
 * The first line of a document that holds content (not blank, a comment, a
 * directive, or the `---` line kubectl's reader keeps at the start of a
 * stream): where the document starts for a reader, found without parsing. A
 * `---` line that runs on past a lone CR holds content after it.
 */
function firstContentLine(text: string, line: number): number {
  let n = line;
  for (const l of text.split("\n", 200)) {
    const separator = l.startsWith("---") && !/\r./.test(l);
    if (!/^\s*(#.*)?\r?$/.test(l) && !l.startsWith("%") && !separator) return n;
    n++;
  }
  return line;
}

/** The offset where each line of `text` starts (the first is 0). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line and column (in UTF-16 units, as editors count) of `offset`, by binary search over the line starts. */
function positionIn(starts: readonly number[], offset: number): TextPosition {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}
