// The AdmissionReview (admission.k8s.io/v1) a validating webhook receives and
// returns: its shapes, and the reading of a parsed request body into them.

/** apiVersion of the only AdmissionReview version served. */
export const ADMISSION_API_VERSION = "admission.k8s.io/v1";

/** The operations an AdmissionRequest names. */
export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
const OPERATIONS: ReadonlySet<string> = new Set(["CREATE", "UPDATE", "DELETE", "CONNECT"]);

/** A metav1.GroupVersionKind, as the request names the object's kind. */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The parts of an AdmissionRequest the webhook reads; the rest of the body is ignored. */
export interface AdmissionRequest {
  readonly uid: string;
  /** The kind of `object` and `oldObject`, after the API server converted them to the version the webhook asked for. */
  readonly kind: GroupVersionKind;
  /** "" for the main resource; "status" for the status subresource. */
  readonly subResource: string;
  readonly name: string;
  /** "" for cluster-scoped kinds. */
  readonly namespace: string;
  readonly operation: AdmissionOperation;
  /** The object as sent (JSON); null for DELETE. */
  readonly object: unknown;
  /** The stored object (JSON) for UPDATE and DELETE; null otherwise. */
  readonly oldObject: unknown;
  readonly dryRun: boolean;
}

/** metav1.Status as JSON, as a webhook's response carries it. */
export interface StatusJson {
  readonly kind: "Status";
  readonly apiVersion: "v1";
  readonly metadata: Record<string, never>;
  readonly status: "Failure";
  readonly message: string;
  readonly reason: string;
  readonly details?: {
    readonly name: string;
    readonly group: string;
    readonly kind: string;
    readonly causes: readonly { readonly reason: string; readonly message: string; readonly field: string }[];
  };
  readonly code: number;
}

export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  /** Why a request is denied: the Status the API server would have returned. */
  readonly status?: StatusJson;
  readonly warnings?: readonly string[];
}

/** The AdmissionReview body a webhook answers with. */
export interface AdmissionReviewResponse {
  readonly apiVersion: typeof ADMISSION_API_VERSION;
  readonly kind: "AdmissionReview";
  readonly response: AdmissionResponse;
}

/**
 * A body that is not an AdmissionReview admission.k8s.io/v1 request with a
 * uid, kind and operation: there is nothing to answer it with, so a server
 * maps this to HTTP 400. `field` names the first part found wrong.
 */
export class AdmissionReviewError extends Error {
  override readonly name = "AdmissionReviewError";
  readonly field: string;
  readonly reason: string;

  constructor(field: string, reason: string) {
    super(`not an AdmissionReview: ${field}: ${reason}`);
    this.field = field;
    this.reason = reason;
  }
}

/**
 * Reads a parsed request body as an AdmissionReview request. Throws
 * {@link AdmissionReviewError} when it is not one; the object itself is not
 * looked at here (a bad object is answered with a denial, not refused).
 */
export function readAdmissionReview(body: unknown): AdmissionRequest {
  const review = record(body, "(body)");
  const apiVersion = review["apiVersion"];
  if (apiVersion !== ADMISSION_API_VERSION) {
    throw new AdmissionReviewError(
      "apiVersion",
      `must be ${JSON.stringify(ADMISSION_API_VERSION)}, got ${show(apiVersion)}`,
    );
  }
  if (review["kind"] !== "AdmissionReview") {
    throw new AdmissionReviewError("kind", `must be "AdmissionReview", got ${show(review["kind"])}`);
  }
  const request = record(review["request"], "request");
  const uid = request["uid"];
  if (typeof uid !== "string" || uid === "")
    throw new AdmissionReviewError("request.uid", "must be a non-empty string");
  const kindValue = record(request["kind"], "request.kind");
  const kind: GroupVersionKind = {
    group: string(kindValue, "group", "request.kind.group"),
    version: string(kindValue, "version", "request.kind.version"),
    kind: string(kindValue, "kind", "request.kind.kind"),
  };
  if (kind.kind === "") throw new AdmissionReviewError("request.kind.kind", "must not be empty");
  const operation = request["operation"];
  if (typeof operation !== "string" || !OPERATIONS.has(operation)) {
    throw new AdmissionReviewError(
      "request.operation",
      `must be one of CREATE, UPDATE, DELETE, CONNECT, got ${show(operation)}`,
    );
  }
  const dryRun = request["dryRun"];
  if (dryRun !== undefined && dryRun !== null && typeof dryRun !== "boolean") {
    throw new AdmissionReviewError("request.dryRun", `must be a boolean, got ${show(dryRun)}`);
  }
  return {
    uid,
    kind,
    subResource: string(request, "subResource", "request.subResource"),
    name: string(request, "name", "request.name"),
    namespace: string(request, "namespace", "request.namespace"),
    operation: operation as AdmissionOperation,
    object: request["object"] ?? null,
    oldObject: request["oldObject"] ?? null,
    dryRun: dryRun === true,
  };
}

function record(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new AdmissionReviewError(field, `must be an object, got ${show(v)}`);
  }
  return v as Record<string, unknown>;
}

// An optional string member: absent and null read as "", as Go's decoder leaves them.
function string(o: Record<string, unknown>, key: string, field: string): string {
  if (!Object.hasOwn(o, key)) return "";
  const v = o[key];
  if (v === null || v === undefined) return "";
  if (typeof v !== "string") throw new AdmissionReviewError(field, `must be a string, got ${show(v)}`);
  return v;
}

function show(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return JSON.stringify(v.length > 64 ? `${v.slice(0, 64)}...` : v);
  return String(v);
}
