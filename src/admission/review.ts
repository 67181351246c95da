// The AdmissionReview (admission.k8s.io/v1) a validating webhook receives and
// returns: its shapes, and the reading of a parsed request body into them.

/**
 * apiVersion of the only AdmissionReview version served.
 *
 * @example
 * ```ts
 * import { ADMISSION_API_VERSION, type AdmissionReviewResponse } from "clusterwire/admission";
 *
 * const answer: AdmissionReviewResponse = { apiVersion: ADMISSION_API_VERSION, kind: "AdmissionReview", response: { uid: "1", allowed: true } };
 * ```
 */
export const ADMISSION_API_VERSION = "admission.k8s.io/v1";

/**
 * The operations an AdmissionRequest names.
 *
 * @example
 * ```ts
 * import { type AdmissionOperation, readAdmissionReview } from "clusterwire/admission";
 *
 * const writes: readonly AdmissionOperation[] = ["CREATE", "UPDATE"];
 * const isWrite = (body: unknown): boolean => writes.includes(readAdmissionReview(body).operation);
 * ```
 */
export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
const OPERATIONS: ReadonlySet<string> = new Set(["CREATE", "UPDATE", "DELETE", "CONNECT"]);

/**
 * A metav1.GroupVersionKind, as the request names the object's kind.
 *
 * @example
 * ```ts
 * import { readAdmissionReview } from "clusterwire/admission";
 *
 * const { group, version, kind } = readAdmissionReview({
 *   apiVersion: "admission.k8s.io/v1",
 *   kind: "AdmissionReview",
 *   request: { uid: "1", kind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" }, operation: "DELETE" },
 * }).kind;
 * ```
 */
export interface GroupVersionKind {
  /** The API group; `""` for the core group. */
  readonly group: string;
  /** The version, e.g. `v1`. */
  readonly version: string;
  /** The kind, e.g. `Ingress`. */
  readonly kind: string;
}

/**
 * The parts of an AdmissionRequest the webhook reads; the rest of the body is ignored.
 *
 * @example
 * ```ts
 * import { readAdmissionReview } from "clusterwire/admission";
 *
 * const review = {
 *   apiVersion: "admission.k8s.io/v1",
 *   kind: "AdmissionReview",
 *   request: {
 *     uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
 *     kind: { group: "networking.k8s.io", version: "v1", kind: "IngressClass" },
 *     name: "nginx",
 *     operation: "CREATE",
 *     object: { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "Nginx" }, spec: { controller: "k8s.io/ingress-nginx" } },
 *   },
 * };
 * const request = readAdmissionReview(review);
 * console.log(request.operation, request.kind.kind, request.name, request.dryRun); // "CREATE" "IngressClass" "nginx" false
 * ```
 */
export interface AdmissionRequest {
  /** The request's id, which the response must echo. */
  readonly uid: string;
  /** The kind of `object` and `oldObject`, after the API server converted them to the version the webhook asked for. */
  readonly kind: GroupVersionKind;
  /** "" for the main resource; "status" for the status subresource. */
  readonly subResource: string;
  /** The object's name; `""` when the API server will generate it. */
  readonly name: string;
  /** "" for cluster-scoped kinds. */
  readonly namespace: string;
  /** What is being done to the object. */
  readonly operation: AdmissionOperation;
  /** The object as sent (JSON); null for DELETE. */
  readonly object: unknown;
  /** The stored object (JSON) for UPDATE and DELETE; null otherwise. */
  readonly oldObject: unknown;
  /** Whether the request is a dry run (nothing will be stored). */
  readonly dryRun: boolean;
}

/**
 * metav1.Status as JSON, as a webhook's response carries it.
 *
 * @example
 * ```ts
 * import { reviewAdmission } from "clusterwire/admission";
 *
 * const review = {
 *   apiVersion: "admission.k8s.io/v1",
 *   kind: "AdmissionReview",
 *   request: {
 *     uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
 *     kind: { group: "networking.k8s.io", version: "v1", kind: "IngressClass" },
 *     name: "nginx",
 *     operation: "CREATE",
 *     object: { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "Nginx" }, spec: { controller: "k8s.io/ingress-nginx" } },
 *   },
 * };
 * const status = reviewAdmission(review).response.status;
 * if (status) console.log(status.code, status.reason, status.message); // 422 "Invalid" ...
 * ```
 */
export interface StatusJson {
  /** Always `"Status"`. */
  readonly kind: "Status";
  /** Always `"v1"`. */
  readonly apiVersion: "v1";
  /** Always empty. */
  readonly metadata: Record<string, never>;
  /** Always `"Failure"`: only denials carry a Status. */
  readonly status: "Failure";
  /** The whole message, as kubectl prints it. */
  readonly message: string;
  /** The machine-readable reason, e.g. `Invalid`, `Forbidden`, `BadRequest`. */
  readonly reason: string;
  /** The object the Status is about, and one cause per field error. */
  readonly details?: {
    readonly name: string;
    readonly group: string;
    readonly kind: string;
    readonly causes: readonly { readonly reason: string; readonly message: string; readonly field: string }[];
  };
  /** The HTTP status code the client sees, e.g. 422 or 403. */
  readonly code: number;
}

/**
 * The webhook's answer to one request: allowed or not, why, and the warnings.
 *
 * @example
 * ```ts
 * import { reviewAdmission } from "clusterwire/admission";
 *
 * const review = {
 *   apiVersion: "admission.k8s.io/v1",
 *   kind: "AdmissionReview",
 *   request: {
 *     uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
 *     kind: { group: "networking.k8s.io", version: "v1", kind: "IngressClass" },
 *     name: "nginx",
 *     operation: "CREATE",
 *     object: { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "Nginx" }, spec: { controller: "k8s.io/ingress-nginx" } },
 *   },
 * };
 * const { uid, allowed, status, warnings } = reviewAdmission(review).response;
 * ```
 */
export interface AdmissionResponse {
  /** The request's uid, echoed. */
  readonly uid: string;
  /** Whether the request may go on. */
  readonly allowed: boolean;
  /** Why a request is denied: the Status the API server would have returned. */
  readonly status?: StatusJson;
  /** Warnings the API server relays to the client (kubectl prints them). */
  readonly warnings?: readonly string[];
}

/**
 * The AdmissionReview body a webhook answers with.
 *
 * @example
 * ```ts
 * import { reviewAdmission } from "clusterwire/admission";
 *
 * const review = {
 *   apiVersion: "admission.k8s.io/v1",
 *   kind: "AdmissionReview",
 *   request: {
 *     uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
 *     kind: { group: "networking.k8s.io", version: "v1", kind: "IngressClass" },
 *     name: "nginx",
 *     operation: "CREATE",
 *     object: { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "Nginx" }, spec: { controller: "k8s.io/ingress-nginx" } },
 *   },
 * };
 * const body = JSON.stringify(reviewAdmission(review)); // send with content-type application/json
 * ```
 */
export interface AdmissionReviewResponse {
  /** Always `"admission.k8s.io/v1"`. */
  readonly apiVersion: typeof ADMISSION_API_VERSION;
  /** Always `"AdmissionReview"`. */
  readonly kind: "AdmissionReview";
  /** The answer. */
  readonly response: AdmissionResponse;
}

/**
 * A body that is not an AdmissionReview admission.k8s.io/v1 request with a
 * uid, kind and operation: there is nothing to answer it with, so a server
 * maps this to HTTP 400. `field` names the first part found wrong.
 *
 * @example
 * ```ts
 * import { AdmissionReviewError, readAdmissionReview } from "clusterwire/admission";
 *
 * try {
 *   readAdmissionReview({ apiVersion: "admission.k8s.io/v1beta1", kind: "AdmissionReview" });
 * } catch (e) {
 *   if (e instanceof AdmissionReviewError) console.log(400, e.field, e.reason); // 400 "apiVersion" ...
 * }
 * ```
 */
export class AdmissionReviewError extends Error {
  /** Always `"AdmissionReviewError"`. */
  override readonly name = "AdmissionReviewError";
  /** The first part of the body found wrong, e.g. `request.uid`. */
  readonly field: string;
  /** What is wrong with it. */
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
 *
 * @example
 * ```ts
 * import { admit, readAdmissionReview } from "clusterwire/admission";
 *
 * const review = {
 *   apiVersion: "admission.k8s.io/v1",
 *   kind: "AdmissionReview",
 *   request: {
 *     uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
 *     kind: { group: "networking.k8s.io", version: "v1", kind: "IngressClass" },
 *     name: "nginx",
 *     operation: "CREATE",
 *     object: { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "Nginx" }, spec: { controller: "k8s.io/ingress-nginx" } },
 *   },
 * };
 * const request = readAdmissionReview(review); // throws AdmissionReviewError for a body that is not one
 * console.log(admit(request).response.allowed); // false: "Nginx" is not a valid name
 * ```
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
