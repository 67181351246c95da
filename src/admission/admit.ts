// The verdict of a validating webhook on one AdmissionRequest, with no I/O:
// decode the object as the API server would, validate it as the API server's
// strategy would, and answer with the Status the API server would return.

import {
  DecodeError,
  NETWORKING_API_VERSION,
  fromJson,
  lookupKind,
  toJson,
  toStatus,
  validate,
  type FeatureGates,
  type FieldError,
  type KindInfo,
  type NetworkingObject,
  type ValidateOptions,
} from "../networking/index.js";
import {
  ADMISSION_API_VERSION,
  readAdmissionReview,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReviewResponse,
  type StatusJson,
} from "./review.js";

const NETWORKING_GROUP = "networking.k8s.io";
const NETWORKING_VERSION = "v1";

// The kinds whose status subresource has its own update strategy.
const STATUS_SUBRESOURCE = new Set(["Ingress", "ServiceCIDR"]);

export interface AdmitOptions {
  /** The API server's feature gates that change validation; default as a default kube-apiserver has them. */
  readonly featureGates?: FeatureGates;
}

/** What the webhook decided, and why: the response plus the field errors behind a 422 denial. */
export interface AdmissionOutcome {
  readonly response: AdmissionResponse;
  /** The field errors behind a 422 denial; empty otherwise. */
  readonly errors: readonly FieldError[];
  /** "validated" (allowed or 422), "undecodable" (400) or "ignored" (a kind or operation not checked). */
  readonly verdict: "validated" | "undecodable" | "ignored";
  /** The kind the request named, for logs and metrics. */
  readonly kind: string;
}

/**
 * Answers a parsed request body: an AdmissionReview admission.k8s.io/v1 in,
 * the AdmissionReview to send back out. Throws AdmissionReviewError (HTTP 400)
 * for a body that is not an AdmissionReview request.
 */
export function reviewAdmission(body: unknown, options: AdmitOptions = {}): AdmissionReviewResponse {
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: "AdmissionReview",
    response: admit(readAdmissionReview(body), options).response,
  };
}

/**
 * Decides one request. CREATE and UPDATE (and UPDATE of the status
 * subresource) of every networking.k8s.io/v1 kind clusterwire validates are
 * checked; any other kind, operation or subresource is allowed untouched.
 * `dryRun` changes nothing: the verdict has no side effects to skip.
 */
export function admit(request: AdmissionRequest, options: AdmitOptions = {}): AdmissionOutcome {
  const uid = request.uid;
  const { group, version, kind } = request.kind;
  const allow = (): AdmissionOutcome => ({ response: { uid, allowed: true }, errors: [], verdict: "ignored", kind });
  if (group !== NETWORKING_GROUP) return allow();
  const info = lookupKind(NETWORKING_API_VERSION, kind);
  if (info === undefined || info.list) return allow();
  if (version !== NETWORKING_VERSION) {
    // The API server would have converted the object to v1 had the webhook's rules named v1 only.
    return badRequest(
      uid,
      kind,
      `no kind "${kind}" is registered for version "${group}/${version}"; this webhook serves networking.k8s.io/v1`,
    );
  }
  if (request.operation !== "CREATE" && request.operation !== "UPDATE") return allow();
  const status = request.subResource === "status";
  if (request.subResource !== "" && !(status && request.operation === "UPDATE" && STATUS_SUBRESOURCE.has(kind))) {
    return allow();
  }
  const object = decodeObject(request.object, info, "object");
  if (typeof object === "string") return badRequest(uid, kind, object);
  const validateOptions: { -readonly [K in keyof ValidateOptions]: ValidateOptions[K] } = {};
  if (options.featureGates !== undefined) validateOptions.featureGates = options.featureGates;
  if (request.namespace !== "") validateOptions.namespace = request.namespace;
  if (request.operation === "UPDATE") {
    const old = decodeObject(request.oldObject, info, "oldObject");
    if (typeof old === "string") return badRequest(uid, kind, old);
    validateOptions.old = old;
    if (status) validateOptions.subresource = "status";
  }
  const errors = validate(object, validateOptions);
  if (errors.length === 0) return { response: { uid, allowed: true }, errors, verdict: "validated", kind };
  return { response: { uid, allowed: false, status: statusJson(object, errors) }, errors, verdict: "validated", kind };
}

/**
 * The object as the API server's decoder would read it, or why it cannot be:
 * unknown fields are dropped (a newer API server may send fields this version
 * does not know), wrong types and a kind other than the request's refused.
 */
function decodeObject(value: unknown, info: KindInfo, member: "object" | "oldObject"): NetworkingObject | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `request.${member}: must be a ${info.kind} object`;
  }
  const own = value as Record<string, unknown>;
  const apiVersion = Object.hasOwn(own, "apiVersion") ? own["apiVersion"] : undefined;
  const kind = Object.hasOwn(own, "kind") ? own["kind"] : undefined;
  // The API server writes apiVersion and kind; a body without them is read as the request's kind.
  const typed =
    (apiVersion === undefined || apiVersion === "") && (kind === undefined || kind === "")
      ? { ...own, apiVersion: info.apiVersion, kind: info.kind }
      : own;
  if (typed["apiVersion"] !== info.apiVersion || typed["kind"] !== info.kind) {
    return `request.${member} is ${JSON.stringify(`${String(typed["apiVersion"])} ${String(typed["kind"])}`)}, but the request is for ${info.apiVersion} ${info.kind}`;
  }
  try {
    return fromJson(typed as Parameters<typeof fromJson>[0]);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return `${info.kind} in version "v1" cannot be handled as a ${info.kind}: request.${member}: ${e.message}`;
  }
}

function badRequest(uid: string, kind: string, message: string): AdmissionOutcome {
  const status: StatusJson = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason: "BadRequest",
    code: 400,
  };
  return { response: { uid, allowed: false, status }, errors: [], verdict: "undecodable", kind };
}

// The 422 Status, as the API server writes it (Go's JSON of metav1.Status), as a value: toJson
// gives the same keys in the same order as parsing toJsonString's text, in a quarter of the time
// (measured on the bench mix's denials), and the server serializes it once, with the response.
function statusJson(object: NetworkingObject, errors: readonly FieldError[]): StatusJson {
  return toJson(toStatus(object, errors)) as unknown as StatusJson;
}
