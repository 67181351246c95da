// The v1 defaults as values, for validation and the policy engine, which read
// them without copying (or loading the schemas to copy) the object.

import type {
  IngressClassParametersReference,
  NetworkPolicySpec,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { isSet } from "./rules/presence.js";

/** policyTypes after defaulting: empty means Ingress, plus Egress when there are egress rules. */
export function effectivePolicyTypes(spec: NetworkPolicySpec): readonly string[] {
  if (spec.policyTypes.length > 0) return spec.policyTypes;
  return spec.egress.length > 0 ? DEFAULT_INGRESS_EGRESS : DEFAULT_INGRESS;
}
const DEFAULT_INGRESS: readonly string[] = Object.freeze(["Ingress"]);
const DEFAULT_INGRESS_EGRESS: readonly string[] = Object.freeze(["Ingress", "Egress"]);

/** IngressClass parameters scope after defaulting: a missing scope is Cluster (since 1.21). */
export function effectiveParametersScope(params: IngressClassParametersReference): string {
  const scope = params.scope;
  return isSet(params, "scope", scope, "") ? scope : "Cluster";
}
