import type { WatchEventType } from "../model/watch-event.js";
import type { BadValue, FieldErrorType } from "../validation/field-error.js";

// What checkManifests says about each document: plain data (structured-clone
// safe, JSON-serialisable but for bigint bad values), rendered by formatVerdict.

/**
 * A 1-based line and column in a text, columns counted in UTF-16 units as
 * editors count them.
 *
 * @example
 * import type { TextPosition } from "clusterwire/networking";
 *
 * const at: TextPosition = { line: 12, column: 9 };
 */
export interface TextPosition {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/**
 * What a document is, as `clusterwire validate` judges it:
 * - `valid`: a networking.k8s.io/v1 object the API server would accept;
 * - `invalid`: one it would refuse (field errors, or a create-time refusal);
 * - `skipped`: a document of another kind, one not selected, or a text that is not a manifest;
 * - `error`: a document that cannot be read or decoded.
 *
 * @example
 * import type { VerdictStatus } from "clusterwire/networking";
 *
 * const failed = (status: VerdictStatus) => status === "invalid" || status === "error";
 */
export type VerdictStatus = "valid" | "invalid" | "skipped" | "error";

/**
 * One field error, as validation reports it, with where its field sits in the
 * text when that is known.
 *
 * @example
 * import type { VerdictFieldError } from "clusterwire/networking";
 *
 * const e: VerdictFieldError = {
 *   type: "FieldValueRequired",
 *   field: "spec.controller",
 *   path: ["spec", "controller"],
 *   badValue: "",
 *   detail: "",
 *   message: "spec.controller: Required value",
 *   position: { line: 5, column: 3 },
 * };
 */
export interface VerdictFieldError {
  /** The kind of error, as apimachinery names it. */
  readonly type: FieldErrorType;
  /** The field path, as Kubernetes renders it (`spec.rules[0].host`). */
  readonly field: string;
  /** The same path, structured: field names and list indexes. */
  readonly path?: readonly (string | number)[];
  /** The offending value, or `""` where the API server reports none. */
  readonly badValue: BadValue;
  /** The explanation, as the API server words it; may be empty. */
  readonly detail: string;
  /** As the API server prints it: `spec.rules[0].host: Invalid value: "x": ...`. */
  readonly message: string;
  /** Where the field sits in the text, when known. */
  readonly position?: TextPosition;
}

/**
 * A refusal the API server makes on create that is not field validation: a
 * metadata.namespace other than the request's (400 BadRequest, before
 * validation), or a metadata.resourceVersion set on an object to create
 * (refused by the storage layer after validation: code 500, reason "").
 *
 * @example
 * import type { VerdictRefusal } from "clusterwire/networking";
 *
 * const r: VerdictRefusal = {
 *   code: 400,
 *   reason: "BadRequest",
 *   message: "the namespace of the provided object does not match the namespace sent on the request",
 *   field: "metadata.namespace",
 * };
 */
export interface VerdictRefusal {
  /** The HTTP status code of the refusal. */
  readonly code: number;
  /** The Status reason: "BadRequest", or "" (unknown). */
  readonly reason: string;
  /** The API server's message. */
  readonly message: string;
  /** The field the refusal is about, e.g. metadata.resourceVersion. */
  readonly field?: string;
  /** Where the refused field sits in the text, when known. */
  readonly position?: TextPosition;
}

/**
 * A warning the API server would return with a successful response: an
 * unknown or repeated field under `fieldValidation: "Warn"`.
 *
 * @example
 * import type { ManifestWarning } from "clusterwire/networking";
 *
 * const w: ManifestWarning = { message: 'unknown field "spec.colour"', field: "spec.colour" };
 */
export interface ManifestWarning {
  /** The warning, as the API server words it. */
  readonly message: string;
  /** The field the warning is about, when it names one. */
  readonly field?: string;
  /** Where that field sits in the text, when known. */
  readonly position?: TextPosition;
}

/**
 * Why a document could not be decoded: the plain-data form of a DecodeError.
 *
 * @example
 * import type { VerdictFailure } from "clusterwire/networking";
 *
 * const f: VerdictFailure = { message: "mapping values are not allowed in this context", position: { line: 9, column: 8 } };
 */
export interface VerdictFailure {
  /** The decoder's message. */
  readonly message: string;
  /** The field path the decoder blamed, when it named one. */
  readonly field?: string;
  /** Where decoding failed in the text, when known. */
  readonly position?: TextPosition;
  /** Byte or character offset, where no line is known (protobuf, a watch stream). */
  readonly offset?: number;
}

/**
 * The verdict on one document of a manifest text, as `clusterwire validate`
 * gives it (its `-o json` results have these fields).
 *
 * @example
 * import { checkManifests } from "clusterwire/networking";
 * const [v] = checkManifests("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n");
 * // v.status === "skipped", v.kind === "Service", v.name === "web", v.line === 1
 */
export interface ManifestVerdict {
  /** The name the text was given (the `file` option), for messages. */
  readonly file?: string;
  /**
   * 1-based document (YAML document, JSON value, watch event) number;
   * undefined for a verdict about the whole text (not a manifest).
   */
  readonly document?: number;
  /** 0-based index in a List's items, for documents expanded from one. */
  readonly item?: number;
  /** Watch event type, for objects read from a watch stream. */
  readonly event?: WatchEventType;
  /** Line where the document (or List item) starts. */
  readonly line?: number;
  /** The document's apiVersion, when it has one. */
  readonly apiVersion?: string;
  /** The document's kind, when it has one. */
  readonly kind?: string;
  /** The request namespace for namespaced kinds (the object's own, the `namespace` option, or "default"). */
  readonly namespace?: string;
  /** The object's metadata.name, when it has one. */
  readonly name?: string;
  /** metadata.generateName, for an object that has no name but asks the server to make one. */
  readonly generateName?: string;
  /** Set for an object that has neither name nor generateName (which validation reports). */
  readonly unnamed?: boolean;
  /** The verdict. */
  readonly status: VerdictStatus;
  /** For status `invalid`: the field errors (empty otherwise). */
  readonly errors: readonly VerdictFieldError[];
  /** For status `invalid`: the create-time refusals that are not field errors. */
  readonly refusals: readonly VerdictRefusal[];
  /** The warnings the API server would send with an accepted object. */
  readonly warnings: readonly ManifestWarning[];
  /** For status `error`. */
  readonly failure?: VerdictFailure;
  /** For status `skipped`: why, e.g. "apps/v1 Deployment is not a networking.k8s.io/v1 kind". */
  readonly reason?: string;
  /** For status `invalid`: the response body (a meta/v1 Status as JSON) the API server would send. */
  readonly response?: unknown;
}
