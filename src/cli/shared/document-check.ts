import {
  ListMetaSchema,
  StatusSchema,
  create,
  formatFieldError,
  kindOf,
  lookupKind,
  NETWORKING_API_VERSION,
  toJsonString,
  toStatus,
  type FieldError,
  type NetworkingObject,
  type Status,
} from "../../networking/index.js";
import {
  renderField,
  type FailedDocument,
  type ObjectDocument,
  type OtherDocument,
  type ReadDocument,
  type ReadFile,
} from "./document-reader.js";
import { objectMeta, requestNamespace, validateObject, type ValidateSettings } from "./validation.js";
import type { FileVerdicts, Refusal, Verdict, VerdictFieldError } from "./verdict.js";

// From documents read to verdicts: each networking object validated as the
// API server would on create (or update), with the refusals it makes before
// and after validation.

export interface CheckSettings extends ValidateSettings {
  /** What a file that is not a manifest is: a note (skip, the default) or an error. */
  readonly nonManifests?: "skip" | "error";
}

/** The API server's words when the body names another namespace than the URL (handlers/rest.go). */
export const NAMESPACE_MISMATCH =
  "the namespace of the provided object does not match the namespace sent on the request";

/** The storage layer's refusal of a create that carries a resourceVersion (apiserver storage errors). */
export const RESOURCE_VERSION_ON_CREATE = "resourceVersion should not be set on objects to be created";

export function checkFile(file: string, read: ReadFile, settings: CheckSettings): FileVerdicts {
  if (read.notManifest !== undefined)
    return { file, verdicts: [notManifestVerdict(file, read.notManifest, settings.nonManifests ?? "skip")] };
  return { file, verdicts: read.documents.map((d) => checkDocument(file, d, settings)) };
}

/** The verdict on a whole file that is not a manifest: a skip with its note, or an error. */
export function notManifestVerdict(file: string, note: string, as: "skip" | "error"): Verdict {
  return as === "error"
    ? { file, status: "error", errors: [], refusals: [], warnings: [], failure: { message: note } }
    : { file, status: "skipped", errors: [], refusals: [], warnings: [], reason: note };
}

function where(file: string, d: ReadDocument): Pick<Verdict, "file" | "document" | "item" | "event" | "line"> {
  return {
    file,
    ...(d.document !== undefined ? { document: d.document } : {}),
    ...(d.item !== undefined ? { item: d.item } : {}),
    ...(d.event !== undefined ? { event: d.event } : {}),
    ...(d.line !== undefined ? { line: d.line } : {}),
  };
}

function identity(x: { apiVersion?: string; kind?: string; name?: string; namespace?: string }): Partial<Verdict> {
  return {
    ...(x.apiVersion !== undefined ? { apiVersion: x.apiVersion } : {}),
    ...(x.kind !== undefined ? { kind: x.kind } : {}),
    ...(x.namespace !== undefined ? { namespace: x.namespace } : {}),
    ...(x.name !== undefined ? { name: x.name } : {}),
  };
}

/** The verdict on a document that is not checked: another kind, or one not selected. */
export function skippedVerdict(file: string, d: OtherDocument): Verdict {
  const reason =
    d.apiVersion === NETWORKING_API_VERSION && lookupKind(d.apiVersion, d.kind) !== undefined
      ? "not selected by --kinds or --skip-kinds"
      : `${d.apiVersion} ${d.kind} is not a networking.k8s.io/v1 kind`;
  return { ...where(file, d), ...identity(d), status: "skipped", errors: [], refusals: [], warnings: [], reason };
}

/** The verdict on a document that cannot be decoded. */
export function failedVerdict(file: string, d: FailedDocument): Verdict {
  return {
    ...where(file, d),
    ...identity(d),
    status: "error",
    errors: [],
    refusals: [],
    warnings: [],
    failure: d.failure,
  };
}

function checkDocument(file: string, d: ReadDocument, settings: CheckSettings): Verdict {
  switch (d.type) {
    case "other":
      return skippedVerdict(file, d);
    case "failed":
      return failedVerdict(file, d);
    case "object":
      return checkObject(where(file, d), d, settings);
  }
}

function checkObject(at: Pick<Verdict, "file">, d: ObjectDocument, settings: CheckSettings): Verdict {
  const obj = d.object;
  const info = kindOf(obj);
  const meta = objectMeta(obj);
  const own = meta?.namespace ?? "";
  const namespace = info.namespaced && !info.list ? requestNamespace(obj, settings.namespace) : undefined;
  const name = meta !== undefined && meta.name !== "" ? meta.name : undefined;
  const generateName =
    meta !== undefined && meta.name === "" && meta.generateName !== "" ? meta.generateName : undefined;
  const base = {
    ...at,
    apiVersion: info.apiVersion,
    kind: info.kind,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(generateName !== undefined ? { generateName } : {}),
    ...(meta !== undefined && name === undefined && generateName === undefined ? { unnamed: true } : {}),
    warnings: d.warnings,
  };
  const itemRefusals = info.list && "items" in obj ? listNamespaceRefusals(d, settings.namespace) : [];
  if (itemRefusals.length > 0) {
    // kubectl sends a List's items one by one, so each item in another namespace is refused on its own.
    return {
      ...base,
      status: "invalid",
      errors: [],
      refusals: itemRefusals,
      response: refusalStatus(itemRefusals[0] as Refusal),
    };
  }
  if (info.namespaced && settings.namespace !== undefined && own !== "" && own !== settings.namespace) {
    // Refused before validation runs, so there are no field errors to show.
    const refusal = refusalAt(d, 400, "BadRequest", NAMESPACE_MISMATCH, ["metadata", "namespace"]);
    return { ...base, status: "invalid", errors: [], refusals: [refusal], response: refusalStatus(refusal) };
  }
  const fieldErrors = validateObject(obj, settings);
  const errors = fieldErrors.map((e) => verdictError(e, d));
  // The storage layer refuses a create with a resourceVersion after validation passed.
  // Watch events are objects the server already stored, not requests to create them.
  const refusals = settings.old === undefined && d.event === undefined ? resourceVersionRefusals(d) : [];
  const status = errors.length > 0 || refusals.length > 0 ? "invalid" : "valid";
  const response =
    fieldErrors.length > 0
      ? statusJson(toStatus(obj, fieldErrors))
      : refusals[0] !== undefined
        ? refusalStatus(refusals[0])
        : undefined;
  return { ...base, status, errors, refusals, ...(response !== undefined ? { response } : {}) };
}

function verdictError(e: FieldError, d: ObjectDocument): VerdictFieldError {
  return {
    type: e.type,
    field: e.field,
    path: e.path,
    badValue: e.badValue,
    detail: e.detail,
    message: formatFieldError(e),
    ...positioned(d, e.path),
  };
}

function positioned(d: ObjectDocument, path: readonly (string | number)[]): { position?: Position } {
  const position = d.locate(path);
  return position !== undefined ? { position } : {};
}

type Position = NonNullable<VerdictFieldError["position"]>;

/** A refusal about the field at `path`, located in the file. */
function refusalAt(
  d: ObjectDocument,
  code: number,
  reason: string,
  message: string,
  path: readonly (string | number)[],
): Refusal {
  return { code, reason, message, field: renderField(path), ...positioned(d, path) };
}

/** The object, or each item of a List (kubectl sends them one by one), with the path its fields sit under. */
function requestObjects(obj: NetworkingObject): [NetworkingObject, (string | number)[]][] {
  return "items" in obj ? obj.items.map((o, i) => [o as NetworkingObject, ["items", i]]) : [[obj, []]];
}

/** metadata.resourceVersion set on an object to create. */
function resourceVersionRefusals(d: ObjectDocument): Refusal[] {
  return requestObjects(d.object).flatMap(([item, prefix]) => {
    const meta =
      objectMeta(item) === undefined ? undefined : (item as { metadata?: { resourceVersion?: string } }).metadata;
    if ((meta?.resourceVersion ?? "") === "") return [];
    return [refusalAt(d, 500, "", RESOURCE_VERSION_ON_CREATE, [...prefix, "metadata", "resourceVersion"])];
  });
}

/** The namespace refusal for each item of a networking List whose namespace is not the request's. */
function listNamespaceRefusals(d: ObjectDocument, namespace: string | undefined): Refusal[] {
  if (namespace === undefined || !("items" in d.object)) return [];
  return requestObjects(d.object).flatMap(([item, prefix]) => {
    const own = objectMeta(item)?.namespace ?? "";
    if (!kindOf(item).namespaced || own === "" || own === namespace) return [];
    return [refusalAt(d, 400, "BadRequest", NAMESPACE_MISMATCH, [...prefix, "metadata", "namespace"])];
  });
}

/** The Status body for a refusal: 400 BadRequest, or the 500 the API server makes of a plain storage error. */
function refusalStatus(r: Refusal): unknown {
  return statusJson(
    create(StatusSchema, {
      metadata: create(ListMetaSchema),
      status: "Failure",
      message: r.message,
      reason: r.reason,
      code: r.code,
    }),
  );
}

function statusJson(s: Status): unknown {
  return JSON.parse(toJsonString(s)) as unknown;
}
