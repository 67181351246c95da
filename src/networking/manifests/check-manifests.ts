import { create } from "@bufbuild/protobuf";
import {
  ListMetaSchema,
  StatusSchema,
  type Status,
} from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { DEFAULT_NAMESPACE } from "../model/constants.js";
import type { KubernetesVersion } from "../model/kubernetes-version.js";
import type { DecodeError } from "../model/errors.js";
import { kindOf, type NetworkingObject } from "../model/kinds.js";
import { renderPath } from "../model/path.js";
import { toJsonString } from "../text/json/to-json.js";
import { formatFieldError, type FieldError } from "../validation/field-error.js";
import { toStatus } from "../validation/status.js";
import { validate, type FeatureGates, type ValidateOptions } from "../validation/validate.js";
import type { ManifestEntry, ManifestError, ManifestObject, ReadManifestsOptions } from "./entries.js";
import { notManifestReason } from "./not-manifest.js";
import { readManifests } from "./read-manifests.js";
import type { ManifestVerdict, TextPosition, VerdictFailure, VerdictFieldError, VerdictRefusal } from "./verdict.js";

// From entries read to verdicts: each networking object validated as the API
// server would on create (or update), with the refusals it makes before and
// after validation.

/** The API server's words when the body names another namespace than the URL. */
export const NAMESPACE_MISMATCH =
  "the namespace of the provided object does not match the namespace sent on the request";

/** The storage layer's refusal of a create that carries a resourceVersion. */
export const RESOURCE_VERSION_ON_CREATE = "resourceVersion should not be set on objects to be created";

/**
 * Options of {@link checkManifests}: how the text is read (see
 * {@link ReadManifestsOptions}) and how each object is validated, as the
 * flags of `clusterwire validate`.
 *
 * @example
 * import type { CheckManifestsOptions } from "clusterwire/networking";
 *
 * const options: CheckManifestsOptions = { file: "deploy.yaml", namespace: "shop", featureGates: { StrictIPCIDRValidation: true } };
 */
export interface CheckManifestsOptions extends ReadManifestsOptions {
  /** The text's name for messages (a file path); formatVerdict starts each line with it. */
  readonly file?: string;
  /** Validate an update of this stored object (one input object of the same kind), not a create. */
  readonly old?: NetworkingObject;
  /** With `old`: validate an update through the /status subresource. */
  readonly subresource?: "status";
  /** Feature gates, as kube-apiserver's --feature-gates; each left out is as `version` has it. */
  readonly featureGates?: FeatureGates;
  /** The Kubernetes release to validate as (see ValidateOptions.version). */
  readonly version?: KubernetesVersion;
  /** The request namespace. Default: each object's own metadata.namespace, else "default". */
  readonly namespace?: string;
  /**
   * What a text that is no Kubernetes manifest (see {@link notManifestReason})
   * gives: one `skipped` verdict with the reason (default), or one `error`.
   */
  readonly nonManifests?: "skip" | "error";
}

/**
 * Checks each document of a manifest text of mixed kinds as
 * `clusterwire validate` does, giving one verdict per document, in order:
 * `valid` or `invalid` for networking.k8s.io/v1 objects (validated as the API
 * server validates a create, or an update with `old`; field errors and
 * refusals located at their line and column, warnings under
 * `fieldValidation: "Warn"`), `skipped` for other kinds, `error` for a
 * document that cannot be decoded. Instead of text, the entries of
 * {@link readManifests} (or entries built from another source, such as a
 * decoded watch stream) may be given.
 *
 * @example
 * import { checkManifests, formatVerdict } from "clusterwire/networking";
 * const text = `apiVersion: v1
 * kind: Service
 * metadata: {name: web, namespace: shop}
 * ---
 * apiVersion: networking.k8s.io/v1
 * kind: IngressClass
 * metadata: {name: edge}
 * spec: {controller: nginx}
 * `;
 * const verdicts = checkManifests(text, { file: "deploy.yaml" });
 * console.log(verdicts.map((v) => v.status)); // [ 'skipped', 'invalid' ]
 * for (const v of verdicts) console.log(formatVerdict(v));
 */
export function checkManifests(
  input: string | readonly ManifestEntry[],
  options: CheckManifestsOptions = {},
): ManifestVerdict[] {
  const file = options.file !== undefined ? { file: options.file } : {};
  let entries: readonly ManifestEntry[];
  if (typeof input === "string") {
    entries = readManifests(input, options);
    const note = notManifestReason(entries);
    if (note !== undefined) {
      const none = { ...file, errors: [], refusals: [], warnings: [] };
      return [
        options.nonManifests === "error"
          ? { ...none, status: "error", failure: { message: note } }
          : { ...none, status: "skipped", reason: note },
      ];
    }
  } else {
    entries = input;
  }
  return entries.map((entry) => checkEntry(entry, options));
}

function checkEntry(entry: ManifestEntry, options: CheckManifestsOptions): ManifestVerdict {
  const at = {
    ...(options.file !== undefined ? { file: options.file } : {}),
    ...(entry.document !== undefined ? { document: entry.document } : {}),
    ...(entry.item !== undefined ? { item: entry.item } : {}),
    ...(entry.event !== undefined ? { event: entry.event } : {}),
  };
  const none = { errors: [], refusals: [], warnings: [] };
  switch (entry.type) {
    case "skipped":
      return {
        ...at,
        ...(entry.line !== undefined ? { line: entry.line } : {}),
        ...identity(entry),
        status: "skipped",
        ...none,
        reason: entry.reason,
      };
    case "error":
      return {
        ...at,
        ...(entry.documentLine !== undefined ? { line: entry.documentLine } : {}),
        ...identity(entry),
        status: "error",
        ...none,
        failure: failureOf(entry),
      };
    case "object":
      return checkObject({ ...at, ...(entry.line !== undefined ? { line: entry.line } : {}) }, entry, options);
  }
}

function identity(x: { apiVersion?: string; kind?: string; name?: string; namespace?: string }): {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
} {
  return {
    ...(x.apiVersion !== undefined ? { apiVersion: x.apiVersion } : {}),
    ...(x.kind !== undefined ? { kind: x.kind } : {}),
    ...(x.namespace !== undefined ? { namespace: x.namespace } : {}),
    ...(x.name !== undefined ? { name: x.name } : {}),
  };
}

/** The plain-data form of a decode error. */
function failureOf(entry: ManifestError): VerdictFailure {
  const e: DecodeError = entry.error;
  return {
    message: e.reason,
    ...(e.path !== undefined && e.path !== "" ? { field: e.path } : {}),
    ...(e.line !== undefined ? { position: { line: e.line, column: e.column ?? 1 } } : {}),
    // Where no line is known (protobuf, a watch stream), the offset says where.
    ...(e.line === undefined && e.offset !== undefined ? { offset: e.offset } : {}),
  };
}

function checkObject(
  at: Pick<ManifestVerdict, "file" | "document" | "item" | "event" | "line">,
  d: ManifestObject,
  options: CheckManifestsOptions,
): ManifestVerdict {
  const obj = d.object;
  const info = kindOf(obj);
  const meta = objectMeta(obj);
  const own = meta?.namespace ?? "";
  const namespace = info.namespaced && !info.list ? requestNamespace(obj, options.namespace) : undefined;
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
  const itemRefusals = info.list && "items" in obj ? listNamespaceRefusals(d, options.namespace) : [];
  if (itemRefusals.length > 0) {
    // kubectl sends a List's items one by one, so each item in another namespace is refused on its own.
    return {
      ...base,
      status: "invalid",
      errors: [],
      refusals: itemRefusals,
      response: refusalStatus(itemRefusals[0] as VerdictRefusal),
    };
  }
  if (info.namespaced && options.namespace !== undefined && own !== "" && own !== options.namespace) {
    // Refused before validation runs, so there are no field errors to show.
    const refusal = refusalAt(d, 400, "BadRequest", NAMESPACE_MISMATCH, ["metadata", "namespace"]);
    return { ...base, status: "invalid", errors: [], refusals: [refusal], response: refusalStatus(refusal) };
  }
  const fieldErrors = validateObject(obj, options);
  const errors = fieldErrors.map((e) => verdictError(e, d));
  // The storage layer refuses a create with a resourceVersion after validation passed.
  // Watch events are objects the server already stored, not requests to create them.
  const refusals = options.old === undefined && d.event === undefined ? resourceVersionRefusals(d) : [];
  const status = errors.length > 0 || refusals.length > 0 ? "invalid" : "valid";
  const response =
    fieldErrors.length > 0
      ? statusJson(toStatus(obj, fieldErrors))
      : refusals[0] !== undefined
        ? refusalStatus(refusals[0])
        : undefined;
  return { ...base, status, errors, refusals, ...(response !== undefined ? { response } : {}) };
}

/**
 * Validates one object as the API server would on create (or update, with
 * `old`). Without an explicit namespace the request goes to the object's own
 * namespace, as kubectl sends it.
 */
function validateObject(obj: NetworkingObject, options: CheckManifestsOptions): FieldError[] {
  const settings: ValidateOptions = {
    namespace: requestNamespace(obj, options.namespace),
    ...(options.old !== undefined ? { old: options.old } : {}),
    ...(options.subresource !== undefined ? { subresource: options.subresource } : {}),
    ...(options.featureGates !== undefined ? { featureGates: options.featureGates } : {}),
    ...(options.version !== undefined ? { version: options.version } : {}),
  };
  return validate(obj, settings);
}

/** The namespace option, else the object's metadata.namespace, else "default" (kubectl's rule). */
function requestNamespace(obj: NetworkingObject, given: string | undefined): string {
  if (given !== undefined) return given;
  const own = objectMeta(obj)?.namespace ?? "";
  return own === "" ? DEFAULT_NAMESPACE : own;
}

/** The object's metadata, for a kind that has one (not a List). */
function objectMeta(obj: NetworkingObject): { name: string; namespace: string; generateName: string } | undefined {
  if ("items" in obj || !("metadata" in obj) || obj.metadata === undefined || !("generateName" in obj.metadata))
    return undefined;
  return obj.metadata;
}

function verdictError(e: FieldError, d: ManifestObject): VerdictFieldError {
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

function positioned(d: ManifestObject, path: readonly (string | number)[]): { position?: TextPosition } {
  const position = d.locate(path);
  return position !== undefined ? { position } : {};
}

/** A refusal about the field at `path`, located in the text. */
function refusalAt(
  d: ManifestObject,
  code: number,
  reason: string,
  message: string,
  path: readonly (string | number)[],
): VerdictRefusal {
  return { code, reason, message, field: renderPath(path), ...positioned(d, path) };
}

/** The object, or each item of a List (kubectl sends them one by one), with the path its fields sit under. */
function requestObjects(obj: NetworkingObject): [NetworkingObject, (string | number)[]][] {
  return "items" in obj ? obj.items.map((o, i) => [o as NetworkingObject, ["items", i]]) : [[obj, []]];
}

/** metadata.resourceVersion set on an object to create. */
function resourceVersionRefusals(d: ManifestObject): VerdictRefusal[] {
  return requestObjects(d.object).flatMap(([item, prefix]) => {
    const meta =
      objectMeta(item) === undefined ? undefined : (item as { metadata?: { resourceVersion?: string } }).metadata;
    if ((meta?.resourceVersion ?? "") === "") return [];
    return [refusalAt(d, 500, "", RESOURCE_VERSION_ON_CREATE, [...prefix, "metadata", "resourceVersion"])];
  });
}

/** The namespace refusal for each item of a networking List whose namespace is not the request's. */
function listNamespaceRefusals(d: ManifestObject, namespace: string | undefined): VerdictRefusal[] {
  if (namespace === undefined || !("items" in d.object)) return [];
  return requestObjects(d.object).flatMap(([item, prefix]) => {
    const own = objectMeta(item)?.namespace ?? "";
    if (!kindOf(item).namespaced || own === "" || own === namespace) return [];
    return [refusalAt(d, 400, "BadRequest", NAMESPACE_MISMATCH, [...prefix, "metadata", "namespace"])];
  });
}

/** The Status body for a refusal: 400 BadRequest, or the 500 the API server makes of a plain storage error. */
function refusalStatus(r: VerdictRefusal): unknown {
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
