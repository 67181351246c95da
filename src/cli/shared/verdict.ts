import type { BadValue, FieldErrorType } from "../../networking/index.js";

// What `clusterwire validate` says about each document it reads: the data
// every output format (text, json, junit, sarif) is rendered from. Verdicts
// are plain data (structured-clone safe), so worker threads can send them.

/**
 * - `valid`: a networking.k8s.io/v1 object the API server would accept;
 * - `invalid`: one it would refuse (field errors, or a create-time refusal);
 * - `skipped`: a document of another kind, not selected, or not a manifest;
 * - `error`: a document or file that cannot be read or decoded.
 */
export type DocumentStatus = "valid" | "invalid" | "skipped" | "error";

/** Where something sits in its file: 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** One field error (apimachinery field.Error), with where its field sits in the file when that is known. */
export interface VerdictFieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  /** The same path, structured: field names and list indexes. */
  readonly path?: readonly (string | number)[];
  readonly badValue: BadValue;
  readonly detail: string;
  /** As the API server prints it: `spec.rules[0].host: Invalid value: "x": ...`. */
  readonly message: string;
  readonly position?: Position;
}

/**
 * A refusal the API server makes on create that is not field validation:
 * the namespace mismatch (400 BadRequest, before validation) and a set
 * metadata.resourceVersion (refused by the storage layer after validation,
 * 500 with reason "" as apiserver's ErrorToAPIStatus writes it).
 */
export interface Refusal {
  readonly code: number;
  /** metav1.StatusReason: "BadRequest", or "" (StatusReasonUnknown). */
  readonly reason: string;
  readonly message: string;
  /** The field the refusal is about, e.g. metadata.resourceVersion. */
  readonly field?: string;
  readonly position?: Position;
}

/** A warning the API server would return with a successful response (fieldValidation=Warn). */
export interface Warning {
  readonly message: string;
  readonly field?: string;
  readonly position?: Position;
}

/** Why a document or file could not be decoded. */
export interface DecodeFailure {
  readonly message: string;
  /** The field path the decoder blamed, when it named one. */
  readonly field?: string;
  readonly position?: Position;
  /** Byte offset, where no line is known: protobuf, or a watch stream. */
  readonly offset?: number;
}

export interface Verdict {
  /** The path as the user gave it, or under the directory they gave. */
  readonly file: string;
  /**
   * 1-based document (YAML) or event (watch stream) number in the file;
   * undefined for a verdict about the whole file (unreadable, not a manifest).
   */
  readonly document?: number;
  /** 0-based index in a v1 List's items, for documents expanded from one. */
  readonly item?: number;
  /** Watch event type, for objects read from a watch stream. */
  readonly event?: string;
  /** Line where the document (or List item) starts. */
  readonly line?: number;
  readonly apiVersion?: string;
  readonly kind?: string;
  /** The request namespace for namespaced kinds (the object's own, --namespace, or "default"). */
  readonly namespace?: string;
  readonly name?: string;
  /** metadata.generateName, for an object that has no name but asks the server to make one. */
  readonly generateName?: string;
  /** Set for an object that has neither name nor generateName (which validation reports). */
  readonly unnamed?: boolean;
  readonly status: DocumentStatus;
  readonly errors: readonly VerdictFieldError[];
  readonly refusals: readonly Refusal[];
  readonly warnings: readonly Warning[];
  /** For status `error`. */
  readonly failure?: DecodeFailure;
  /** For status `skipped`: why, e.g. "apps/v1 Deployment is not a networking.k8s.io/v1 kind". */
  readonly reason?: string;
  /**
   * For status `invalid`: the response body (a meta/v1 Status as JSON) the
   * API server would send.
   */
  readonly response?: unknown;
}

/** The verdicts of one file, in document order; a file is reported whole, in input order. */
export interface FileVerdicts {
  readonly file: string;
  readonly verdicts: readonly Verdict[];
}

export interface Summary {
  /** Files read (or attempted). */
  readonly files: number;
  /** Verdicts, i.e. documents (plus whole-file verdicts). */
  readonly documents: number;
  readonly valid: number;
  readonly invalid: number;
  readonly skipped: number;
  readonly errors: number;
  /** Field errors and refusals over all invalid documents. */
  readonly problems: number;
  readonly warnings: number;
}

/** The verdicts of a file that could not be read at all: one error about the whole file. */
export function fileError(file: string, message: string): FileVerdicts {
  return { file, verdicts: [{ file, status: "error", errors: [], refusals: [], warnings: [], failure: { message } }] };
}

export function emptySummary(): Summary {
  return { files: 0, documents: 0, valid: 0, invalid: 0, skipped: 0, errors: 0, problems: 0, warnings: 0 };
}

/** Adds one file's verdicts to a summary. */
export function addToSummary(s: Summary, file: FileVerdicts): Summary {
  let { valid, invalid, skipped, errors, problems, warnings } = s;
  for (const v of file.verdicts) {
    if (v.status === "valid") valid++;
    else if (v.status === "invalid") invalid++;
    else if (v.status === "skipped") skipped++;
    else errors++;
    problems += v.errors.length + v.refusals.length;
    warnings += v.warnings.length;
  }
  return {
    files: s.files + 1,
    documents: s.documents + file.verdicts.length,
    valid,
    invalid,
    skipped,
    errors,
    problems,
    warnings,
  };
}

/**
 * How a verdict names its document in messages, compiler style so editors
 * can jump to it: `examples/x.yaml:12 NetworkPolicy shop/web`, or with `at`
 * (a field's position) `examples/x.yaml:14:9 NetworkPolicy shop/web`.
 * Binary input has no lines: `watch.pb (event 3 MODIFIED) Ingress shop/web`.
 */
export function describeVerdict(v: Verdict, at?: Position): string {
  const where = at !== undefined ? `:${at.line}:${at.column}` : v.line !== undefined ? `:${v.line}` : "";
  const event = v.event !== undefined ? ` (event ${v.document ?? 0} ${v.event})` : "";
  const item = v.item !== undefined ? ` items[${v.item}]` : "";
  const label = objectLabel(v);
  return `${v.file}${where}${event}${item}${label === "" ? "" : ` ${label}`}`;
}

/**
 * `Ingress shop/web`, `IngressClass nginx` (cluster-scoped), `Ingress
 * shop/web-(generated)` (generateName), `Ingress shop/(no name)`, `Ingress`
 * (a List, or nothing read), or "" (nothing known).
 */
export function objectLabel(v: Verdict): string {
  const shown =
    v.name ??
    (v.generateName !== undefined ? `${v.generateName}(generated)` : v.unnamed === true ? "(no name)" : undefined);
  const name = shown === undefined ? undefined : v.namespace === undefined ? shown : `${v.namespace}/${shown}`;
  if (v.kind === undefined) return name ?? "";
  return name === undefined ? v.kind : `${v.kind} ${name}`;
}
