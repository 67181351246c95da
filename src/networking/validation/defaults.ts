// The v1 defaulting the API server applies before validation
// (pkg/apis/networking/v1 defaults): NetworkPolicy protocols and policyTypes,
// IngressClass parameter scope. Ingress has no v1 defaults.

import { clone, create } from "@bufbuild/protobuf";
import {
  NetworkPolicySpecSchema,
  type IngressClass,
  type NetworkPolicy,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { kindOf, type NetworkingObject } from "../model/kinds.js";
import { effectiveParametersScope, effectivePolicyTypes } from "./default-values.js";

/**
 * Returns a defaulted deep copy; the input is not modified. List kinds have
 * each item defaulted.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, applyDefaults, create } from "clusterwire/networking";
 *
 * const policy = create(NetworkPolicySchema, { metadata: { name: "deny", namespace: "web" }, spec: { podSelector: {} } });
 * console.log(applyDefaults(policy).spec?.policyTypes); // [ "Ingress" ]
 * ```
 */
export function applyDefaults<T extends NetworkingObject>(obj: T): T {
  const info = kindOf(obj);
  const copy = clone(info.desc, obj) as T;
  defaultInPlace(copy);
  return copy;
}

function defaultInPlace(obj: NetworkingObject): void {
  const info = kindOf(obj);
  if (info.list) {
    for (const item of (obj as { items: NetworkingObject[] }).items) defaultInPlace(item);
    return;
  }
  if (info.kind === "NetworkPolicy") defaultNetworkPolicy(obj as NetworkPolicy);
  else if (info.kind === "IngressClass") defaultIngressClass(obj as IngressClass);
}

function defaultNetworkPolicy(np: NetworkPolicy): void {
  // Go's spec is a struct, not a pointer: defaulting sees an empty one.
  np.spec ??= create(NetworkPolicySpecSchema);
  const spec = np.spec;
  for (const rule of spec.ingress) for (const p of rule.ports) if (!Object.hasOwn(p, "protocol")) p.protocol = "TCP";
  for (const rule of spec.egress) for (const p of rule.ports) if (!Object.hasOwn(p, "protocol")) p.protocol = "TCP";
  if (spec.policyTypes.length === 0) spec.policyTypes = [...effectivePolicyTypes(spec)];
}

function defaultIngressClass(ic: IngressClass): void {
  const params = ic.spec?.parameters;
  if (params !== undefined) params.scope = effectiveParametersScope(params);
}
