// The capture guard's answer as the Status of a denial.
//
// Code and reason: 403 Forbidden, as the API server answers a request that a
// policy refuses (apierrors.NewForbidden: details name the resource,
// "ingresses"). Not 409 Conflict: clients retry a Conflict (client-go's
// RetryOnConflict), and a retry cannot succeed until the other Ingress moves.
// Not 422 Invalid: the object is valid; the webhook's 422 means exactly "the
// API server would refuse it too". While the guard has not yet listed the
// cluster's Ingresses it answers 503 ServiceUnavailable, fail-closed, as the
// webhook would be if it were down.

import type { Ingress } from "../../networking/index.js";
import type { StatusJson } from "../review.js";
import type { CaptureConflict, CaptureRuleRef, IngressCaptureIndex } from "./ingress-capture.js";

/**
 * The name a denial carries, in metrics and messages.
 *
 * @example
 * ```ts
 * import { INGRESS_CAPTURE_GUARD, type AdmissionOutcome } from "clusterwire/admission";
 *
 * const captured = (outcome: AdmissionOutcome): boolean => outcome.guard === INGRESS_CAPTURE_GUARD;
 * ```
 */
export const INGRESS_CAPTURE_GUARD = "ingress-capture" as const;

/** How many victims a message names before "and N more". */
const NAMED_VICTIMS = 3;

/**
 * The denial for `ingress`, or undefined when it takes nothing from another namespace.
 *
 * @example
 * ```ts
 * import { IngressCaptureIndex, captureDenial } from "clusterwire/admission";
 * import { IngressSchema, create } from "clusterwire/networking";
 *
 * const backend = (name: string) => ({ service: { name, port: { number: 80 } } });
 * const shop = create(IngressSchema, {
 *   metadata: { name: "shop", namespace: "web" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/", pathType: "Prefix", backend: backend("shop") }] } } }] },
 * });
 * const index = new IngressCaptureIndex();
 * index.replaceAll([shop]); // the cluster's Ingresses, from a list (then keep it current with set and remove)
 *
 * // Another namespace claims a longer path on the same host: it would take /cart from web/shop.
 * const candidate = create(IngressSchema, {
 *   metadata: { name: "grab", namespace: "other" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/cart", pathType: "Prefix", backend: backend("x") }] } } }] },
 * });
 * const status = captureDenial(index, candidate, "other", "grab");
 * console.log(status?.code, status?.message); // 403 ...
 * ```
 */
export function captureDenial(
  index: IngressCaptureIndex,
  ingress: Ingress,
  namespace: string,
  name: string,
): StatusJson | undefined {
  if (!index.synced) {
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `${INGRESS_CAPTURE_GUARD}: the webhook has not yet listed the cluster's Ingresses; try again shortly`,
      reason: "ServiceUnavailable",
      code: 503,
    };
  }
  const conflicts = index.check(ingress, namespace);
  if (conflicts.length === 0) return undefined;
  const shown = conflicts.slice(0, NAMED_VICTIMS).map(describe);
  const more = conflicts.length - shown.length;
  const message = `${INGRESS_CAPTURE_GUARD}: this Ingress would take requests that ${conflicts.length === 1 ? "an Ingress" : `${conflicts.length} Ingresses`} in other namespaces serve: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason: "Forbidden",
    details: {
      name: name || ingress.metadata?.name || "",
      group: "networking.k8s.io",
      kind: "ingresses",
      causes: conflicts.map((c) => ({
        reason: "FieldValueForbidden",
        field: field(c.candidateRule),
        message: describe(c),
      })),
    },
    code: 403,
  };
}

/** One conflict in words: the victim, both sides' rules and one request taken. */
export function describe(c: CaptureConflict): string {
  return `${field(c.candidateRule)}${written(c.candidateRule)} would take the request (Host ${JSON.stringify(c.request.host)}, path ${JSON.stringify(c.request.path)}) that Ingress ${c.victim} serves with its ${field(c.victimRule)}${written(c.victimRule)}`;
}

function field(r: CaptureRuleRef): string {
  if (r.rule === null) return "spec.defaultBackend";
  if (r.path === null) return `spec.rules[${r.rule}].host`;
  return `spec.rules[${r.rule}].http.paths[${r.path}]`;
}

function written(r: CaptureRuleRef): string {
  if (r.rule === null) return "";
  if (r.path === null) return ` (host ${JSON.stringify(r.host)})`;
  return ` (host ${JSON.stringify(r.host)}, path ${JSON.stringify(r.value)}, ${r.pathType})`;
}
