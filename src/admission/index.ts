/**
 * The core of a validating admission webhook, without I/O: reads an AdmissionReview, decides
 * it as the API server's validation would (plus optional guards), and writes the answer.
 *
 * @example
 * ```ts
 * import { reviewAdmission } from "clusterwire/admission";
 *
 * const answer = reviewAdmission({
 *   apiVersion: "admission.k8s.io/v1",
 *   kind: "AdmissionReview",
 *   request: {
 *     uid: "1",
 *     kind: { group: "networking.k8s.io", version: "v1", kind: "IngressClass" },
 *     operation: "CREATE",
 *     object: { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "nginx" }, spec: { controller: "k8s.io/ingress-nginx" } },
 *   },
 * });
 * console.log(answer.response.allowed); // true
 * ```
 *
 * @packageDocumentation
 */
// Public API of clusterwire's validating admission webhook core (no I/O).
export {
  REVIEW_VERDICTS,
  WARNING_BUDGET,
  admit,
  reviewAdmission,
  type AdmissionGuards,
  type AdmissionOutcome,
  type ReviewVerdict,
  type AdmitOptions,
  type GuardName,
} from "./admit.js";
export {
  ADMISSION_API_VERSION,
  AdmissionReviewError,
  readAdmissionReview,
  type AdmissionOperation,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReviewResponse,
  type GroupVersionKind,
  type StatusJson,
} from "./review.js";
export {
  IngressCaptureIndex,
  type CaptureConflict,
  type CaptureRuleRef,
  type IngressCaptureIndexOptions,
} from "./guards/ingress-capture.js";
export { INGRESS_CAPTURE_GUARD, captureDenial } from "./guards/ingress-capture-status.js";
