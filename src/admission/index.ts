// Public API of clusterwire's validating admission webhook core (no I/O).
export {
  ADMISSION_VERDICTS,
  WARNING_BUDGET,
  admit,
  reviewAdmission,
  type AdmissionGuards,
  type AdmissionOutcome,
  type AdmissionVerdict,
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
