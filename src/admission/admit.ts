// The verdict of a validating webhook on one AdmissionRequest, with no I/O:
// decode the object as the API server would, validate it as the API server's
// strategy would, and answer with the Status the API server would return.

import {
  DecodeError,
  NETWORKING_API_VERSION,
  apiWarnings,
  fromJson,
  lookupKind,
  toJson,
  toStatus,
  validate,
  type ApiWarning,
  type FeatureGates,
  type KubernetesVersion,
  type FieldError,
  type Ingress,
  type KindInfo,
  type NetworkingObject,
  type ObjectMeta,
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
import type { IngressCaptureIndex } from "./guards/ingress-capture.js";
import { INGRESS_CAPTURE_GUARD, captureDenial } from "./guards/ingress-capture-status.js";

const NETWORKING_GROUP = "networking.k8s.io";
const NETWORKING_VERSION = "v1";

// The kinds whose status subresource has its own update strategy.
const STATUS_SUBRESOURCE = new Set(["Ingress", "ServiceCIDR"]);

/**
 * The API server relays at most this many characters of warnings to a client
 * (apiserver endpoints/filters/warning.go, truncateAtTotalRunes): past it, it
 * cuts them short and drops the rest. A response carries whole warnings up to
 * this budget, so a large object with many warnings cannot make the answer
 * many times its own size; the outcome keeps them all.
 *
 * @example
 * ```ts
 * import { WARNING_BUDGET } from "clusterwire/admission";
 *
 * const fits = (warnings: readonly string[]): boolean => warnings.join("").length <= WARNING_BUDGET;
 * ```
 */
export const WARNING_BUDGET = 4 * 1024;

/**
 * The guards beyond the API server's own rules.
 *
 * @example
 * ```ts
 * import { type GuardName, admit, readAdmissionReview } from "clusterwire/admission";
 *
 * const refusedBy = (body: unknown): GuardName | undefined => admit(readAdmissionReview(body), { guards: { strict: true } }).guard;
 * ```
 */
export type GuardName = "strict" | typeof INGRESS_CAPTURE_GUARD;

/**
 * Guards beyond the API server, each named and off by default.
 *
 * @example
 * ```ts
 * import { type AdmissionGuards, IngressCaptureIndex, reviewAdmission } from "clusterwire/admission";
 *
 * const guards: AdmissionGuards = { strict: true, ingressCapture: new IngressCaptureIndex() };
 * const answer = (body: unknown) => reviewAdmission(body, { guards });
 * ```
 */
export interface AdmissionGuards {
  /**
   * "strict": refuse what the API server would admit with warnings
   * (non-canonical CIDRs and IPs, the deprecated Ingress class annotation),
   * with a 403 Forbidden Status that names the guard and carries each warning.
   * An UPDATE is refused only for warnings the stored object does not draw
   * already, so objects stored before can still be updated.
   */
  readonly strict?: boolean;
  /**
   * "ingress-capture" (on when given the cluster's Ingresses): refuse a valid
   * Ingress that would take requests an Ingress in another namespace serves,
   * by the router's precedence rules, with a 403 naming the victim and both rules.
   */
  readonly ingressCapture?: IngressCaptureIndex;
}

/**
 * Options of {@link admit} and {@link reviewAdmission}: feature gates and guards.
 *
 * @example
 * ```ts
 * import { type AdmitOptions, reviewAdmission } from "clusterwire/admission";
 *
 * const options: AdmitOptions = { featureGates: { StrictIPCIDRValidation: true }, guards: { strict: true } };
 * const answer = (body: unknown) => reviewAdmission(body, options);
 * ```
 */
export interface AdmitOptions {
  /** The API server's feature gates that change validation; default as a default kube-apiserver of `version` has them. */
  readonly featureGates?: FeatureGates;
  /** The Kubernetes release whose API server to follow (messages, default gates); default 1.35. */
  readonly version?: KubernetesVersion;
  /** Guards beyond the API server; none is on by default. */
  readonly guards?: AdmissionGuards;
}

/**
 * The verdict on one review, the same word in the outcome, the webhook's log
 * line (`"verdict"`) and its metrics (`clusterwire_admission_reviews_total{verdict}`):
 * - `allowed`: checked and admitted (perhaps with warnings);
 * - `denied`: refused with the API server's own 422 Invalid;
 * - `guarded`: valid, but refused by the guard named in `guard`;
 * - `guard_not_ready`: refused with 503 by a guard that has not yet learned the cluster;
 * - `bad_request`: an object that cannot be decoded, refused with 400 BadRequest;
 * - `ignored`: a kind, operation or subresource the webhook does not check, admitted untouched.
 *
 * @example
 * import { type AdmissionRequest, admit } from "clusterwire/admission";
 *
 * declare const request: AdmissionRequest;
 * const outcome = admit(request);
 * if (outcome.verdict === "denied") console.log(outcome.errors.map((e) => e.field));
 */
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

/**
 * Every {@link ReviewVerdict}, in a fixed order.
 *
 * @example
 * import { REVIEW_VERDICTS } from "clusterwire/admission";
 *
 * REVIEW_VERDICTS.includes("allowed"); // true
 */
export const REVIEW_VERDICTS = ["allowed", "denied", "guarded", "guard_not_ready", "bad_request", "ignored"] as const;

/**
 * What the webhook decided, and why: the response plus the field errors behind a 422 denial.
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
 * const outcome = admit(readAdmissionReview(review));
 * console.log(outcome.response.allowed, outcome.errors.length, outcome.warnings); // false 1 []
 * ```
 */
export interface AdmissionOutcome {
  /** The AdmissionResponse to send back, in an {@link AdmissionReviewResponse}. */
  readonly response: AdmissionResponse;
  /** The field errors behind a 422 denial; empty otherwise. */
  readonly errors: readonly FieldError[];
  /** What was decided, in the words of the webhook's log lines and its metrics' `verdict` label. */
  readonly verdict: ReviewVerdict;
  /** The kind the request named, for logs and metrics. */
  readonly kind: string;
  /**
   * Every warning the API server would send with the object (in order); the
   * response carries those that fit in {@link WARNING_BUDGET}. Empty for a
   * denial by validation: the API server only warns about objects it accepts.
   */
  readonly warnings: readonly string[];
  /** The guard that refused the request, when the verdict is "guarded" or "guard_not_ready". */
  readonly guard?: GuardName;
}

/**
 * Answers a parsed request body: an AdmissionReview admission.k8s.io/v1 in,
 * the AdmissionReview to send back out. Throws AdmissionReviewError (HTTP 400)
 * for a body that is not an AdmissionReview request.
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
 * const answer = reviewAdmission(review);
 * console.log(answer.response.allowed, answer.response.status?.code); // false 422
 * ```
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
 * An accepted object carries the API server's warnings in
 * `response.warnings`; `options.guards` may refuse beyond the API server.
 * `dryRun` changes nothing: the verdict has no side effects to skip.
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
 * const { response, errors } = admit(readAdmissionReview(review));
 * console.log(response.allowed, errors[0]?.field); // false "metadata.name"
 * ```
 */
export function admit(request: AdmissionRequest, options: AdmitOptions = {}): AdmissionOutcome {
  const uid = request.uid;
  const { group, version, kind } = request.kind;
  const allow = (): AdmissionOutcome => ({
    response: { uid, allowed: true },
    errors: [],
    verdict: "ignored",
    kind,
    warnings: [],
  });
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
  if (options.version !== undefined) validateOptions.version = options.version;
  if (request.namespace !== "") validateOptions.namespace = request.namespace;
  if (request.operation === "UPDATE") {
    const old = decodeObject(request.oldObject, info, "oldObject");
    if (typeof old === "string") return badRequest(uid, kind, old);
    validateOptions.old = old;
    if (status) validateOptions.subresource = "status";
  }
  const errors = validate(object, validateOptions);
  if (errors.length > 0) {
    // The API server adds its warnings only after validation passed (rest.BeforeCreate / BeforeUpdate).
    const status = statusJson(object, errors);
    return { response: { uid, allowed: false, status }, errors, verdict: "denied", kind, warnings: [] };
  }
  const warned = apiWarnings(object, validateOptions);
  const all = warned.map((w) => w.text);
  const texts = withinBudget(warned).map((w) => w.text);
  const sent = texts.length === 0 ? {} : { warnings: texts };
  const capture = options.guards?.ingressCapture;
  if (capture !== undefined && kind === "Ingress" && !status) {
    const denial = captureDenial(capture, object as Ingress, request.namespace, request.name);
    if (denial !== undefined) {
      const response = { uid, allowed: false, status: denial, ...sent };
      // A guard that has not learned the cluster yet answers 503: not a refusal of the object.
      const verdict = denial.code === 503 ? "guard_not_ready" : "guarded";
      return { response, errors, verdict, kind, warnings: all, guard: INGRESS_CAPTURE_GUARD };
    }
  }
  if (warned.length === 0) return { response: { uid, allowed: true }, errors, verdict: "allowed", kind, warnings: [] };
  const refused = options.guards?.strict === true ? introduced(warned, validateOptions) : [];
  if (refused.length > 0) {
    const listed = withinBudget(refused);
    const status = strictStatus(object, info, listed, refused.length - listed.length);
    return {
      response: { uid, allowed: false, status, ...sent },
      errors,
      verdict: "guarded",
      kind,
      warnings: all,
      guard: "strict",
    };
  }
  return { response: { uid, allowed: true, ...sent }, errors, verdict: "allowed", kind, warnings: all };
}

/**
 * The warnings strict mode refuses: on CREATE all of them; on UPDATE those
 * whose message (the text after its path) the stored object does not draw
 * already. So an object stored before strict mode was on can still be updated
 * (a label, or a finalizer removed while it is being deleted) as long as the
 * update brings no new warning; moving a value to another index is not new.
 * The same ratchet the API server's validation applies to old IPs and CIDRs
 * (KEP-4858's validOldCIDRs), applied to warnings.
 */
function introduced(warned: readonly ApiWarning[], options: ValidateOptions): readonly ApiWarning[] {
  const old = options.old;
  if (old === undefined) return warned;
  const stored = apiWarnings(old, options.subresource === "status" ? { old, subresource: "status" } : { old });
  if (stored.length === 0) return warned;
  const seen = new Set(stored.map(messageOf));
  return warned.filter((w) => !seen.has(messageOf(w)));
}

function messageOf(w: ApiWarning): string {
  return w.text.startsWith(`${w.field}: `) ? w.text.slice(w.field.length + 2) : w.text;
}

/** The leading warnings whose text fits in WARNING_BUDGET characters (always at least one). */
function withinBudget(warned: readonly ApiWarning[]): readonly ApiWarning[] {
  let total = 0;
  for (let i = 0; i < warned.length; i++) {
    total += warned[i]!.text.length;
    if (total >= WARNING_BUDGET) return warned.slice(0, i + 1);
  }
  return warned;
}

/**
 * The strict guard's denial. 403 Forbidden, not the API server's 422 Invalid:
 * the API server itself would accept the object, so nothing in it is invalid;
 * a guard refusing it is a policy decision, the way a policy engine's denial
 * reads ("Error from server (Forbidden)" in kubectl). The message names the
 * guard and lists each warning, and each becomes a FieldValueForbidden cause
 * at its field, its message the warning as the API server words it. Warnings
 * past the budget are counted in the message, not listed.
 */
function strictStatus(object: NetworkingObject, info: KindInfo, sent: readonly ApiWarning[], more: number): StatusJson {
  const name = (object as { metadata?: ObjectMeta }).metadata?.name ?? "";
  const listed = sent.length === 1 && more === 0 ? sent[0]!.text : `[${sent.map((w) => w.text).join(", ")}]`;
  const rest = more === 0 ? "" : ` (and ${more} more)`;
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `${info.kind}.${NETWORKING_GROUP} ${JSON.stringify(name)} is forbidden: guard "strict" refuses what the API server would admit with warnings: ${listed}${rest}`,
    reason: "Forbidden",
    details: {
      name,
      group: NETWORKING_GROUP,
      kind: info.kind,
      causes: sent.map((w) => ({ reason: "FieldValueForbidden", message: w.text, field: w.field })),
    },
    code: 403,
  };
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
  return { response: { uid, allowed: false, status }, errors: [], verdict: "bad_request", kind, warnings: [] };
}

// The 422 Status, as the API server writes it (Go's JSON of metav1.Status), as a value: toJson
// gives the same keys in the same order as parsing toJsonString's text, in a quarter of the time
// (measured on the bench mix's denials), and the server serializes it once, with the response.
function statusJson(object: NetworkingObject, errors: readonly FieldError[]): StatusJson {
  return toJson(toStatus(object, errors)) as unknown as StatusJson;
}
