// Targeted invalid objects: a valid object with exactly one violation
// applied, together with the single error (type and rendered field path) the
// API server reports for it, on create and as an update of itself.
//
// One file per kind holds its mutations (ingress.ts, ingress-class.ts, network-policy.ts,
// ip-address.ts, service-cidr.ts; metadata.ts the ones all kinds share); mutation.ts holds the
// types and the mutation() helper. This file puts them together, in a fixed order: seeded draws
// of arbTargetedInvalid() depend on the order of targetedMutations().

import fc from "fast-check";
import { DEFAULT_KUBERNETES_VERSION, type KubernetesVersion } from "../../networking/index.js";
import type { ValidatedKind } from "../valid-objects.js";
import { type ExpectedError, type TargetedInvalid, type Mutation, type Obj, ON_VALID_FOR } from "./mutation.js";
import { ingressMutations } from "./ingress.js";
import { ingressClassMutations } from "./ingress-class.js";
import { networkPolicyMutations } from "./network-policy.js";
import { ipAddressMutations } from "./ip-address.js";
import { serviceCidrMutations } from "./service-cidr.js";

export type { ExpectedError, ExpectedErrorType, Mutation, TargetedInvalid } from "./mutation.js";

// ------------------------------------------------------------ update to itself

/**
 * The errors a targeted invalid object yields when it is validated as an
 * update of itself (same object as `old`, resourceVersion and namespace set),
 * as a multiset. An update runs the generic registry's validateCommonFields
 * (ValidateObjectMetaAccessor with ValidatePathSegmentName as the name rule,
 * then ValidateObjectMetaAccessorUpdate) and then the strategy's ValidateUpdate:
 *
 * * labels and annotations are checked by ObjectMetaAccessor,
 *   ObjectMetaAccessorUpdate, and the strategy's ObjectMeta and ObjectMetaUpdate:
 *   four times;
 * * an empty name is Required twice (common ObjectMetaAccessor and the
 *   strategy's ObjectMeta); a bad name once, plus once per path-segment
 *   message (`/`, `%`, `.`, `..`) from the common check;
 * * the NetworkPolicy strategy appends ValidateNetworkPolicy and
 *   ValidateNetworkPolicyUpdate, which both validate the spec: spec errors
 *   twice. IPAddress and ServiceCIDR strategies also run create + update
 *   validation, but their update halves only add metadata and immutability;
 * * ratchets drop the error: an invalid TLS secretName
 *   (AllowInvalidSecretName), an invalid rule value under a wildcard host
 *   (AllowInvalidWildcardHostRule), a Service name that is a DNS-1123 label
 *   (relaxed service-name rule), an invalid value in spec.podSelector's
 *   matchExpressions (AllowInvalidLabelValueInSelector looks at the old
 *   top-level podSelector only), the class annotation (create-only), and an
 *   ipBlock CIDR string already present in the old object (1.33+;
 *   KEP-4858 `validOldCIDRs` accepts such values without any format check,
 *   and an unparseable one then skips the subset checks).
 *
 * ServiceCIDR is not covered: its 1.33+ update strategy is not pinned down
 * (up to 1.32 it ran ValidateServiceCIDR and ValidateServiceCIDRUpdate).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid, expectedOnSelfUpdate } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) => {
 *     const errors = validate(t.object, { old: t.object });
 *     return expectedOnSelfUpdate(t).every((want) => errors.some((e) => e.field === want.field));
 *   }),
 * );
 * ```
 */
export function expectedOnSelfUpdate(t: TargetedInvalid): ExpectedError[] {
  const e = t.expected;
  const json = t.json as Obj;
  const times = (n: number): ExpectedError[] => Array.from({ length: n }, () => e);
  if (t.mutation === "ingress.tls.secretName" || t.mutation === "ingress.class-annotation-mismatch") return [];
  if (t.kind === "Ingress") {
    const m = /^spec\.rules\[(\d+)\]\.http/.exec(e.field);
    const host = m === null ? undefined : (json["spec"]?.["rules"]?.[Number(m[1])]?.["host"] as string | undefined);
    if (host?.includes("*")) return [];
    if (
      t.mutation === "ingress.backend.service-name" &&
      e.field.endsWith(".service.name") &&
      relaxedServiceNameAdmits(t)
    )
      return [];
  }
  if (e.field === "metadata.labels" || e.field === "metadata.annotations") return times(4);
  if (e.field === "metadata.name") {
    const name = (json["metadata"]?.["name"] as string | undefined) ?? "";
    if (name === "") return times(2);
    const segment = name === "." || name === ".." ? 1 : ["/", "%"].filter((c) => name.includes(c)).length;
    return times(1 + segment);
  }
  if (t.kind === "NetworkPolicy" && e.field.startsWith("spec")) {
    if (t.mutation === "networkpolicy.selector.value" && e.field.startsWith("spec.podSelector.")) return [];
    if (
      t.mutation === "networkpolicy.ipBlock.cidr-invalid" ||
      t.mutation === "networkpolicy.ipBlock.except-unparseable"
    )
      return [];
    return times(2);
  }
  return times(1);
}

/** The backend object at a rendered path like `spec.rules[0].http.paths[1].backend`. */
function backendAt(json: Obj, field: string): Obj | undefined {
  let cur: unknown = json;
  for (const part of field.split(/\.|(?=\[)/)) {
    if (cur === null || typeof cur !== "object") return undefined;
    const idx = /^\[(\d+)\]$/.exec(part);
    cur = idx === null ? (cur as Obj)[part] : (cur as unknown[])[Number(idx[1])];
  }
  return cur !== null && typeof cur === "object" ? (cur as Obj) : undefined;
}

// ------------------------------------------------------------ all mutations

let mutationsCache: readonly Mutation[] | undefined;

/**
 * Every targeted mutation, for all five kinds.
 *
 * @example
 * ```ts
 * import { targetedMutations } from "clusterwire/testing";
 *
 * console.log(targetedMutations().length, targetedMutations().map((m) => m.name).slice(0, 5));
 * ```
 */
export function targetedMutations(): readonly Mutation[] {
  mutationsCache ??= [
    ...ingressMutations(),
    ...ingressClassMutations(),
    ...networkPolicyMutations(),
    ...ipAddressMutations(),
    ...serviceCidrMutations(),
  ];
  return mutationsCache;
}

/**
 * Options of {@link arbTargetedInvalid}.
 *
 * @example
 * ```ts
 * import type { TargetedInvalidOptions } from "clusterwire/testing";
 *
 * const options: TargetedInvalidOptions = { version: "1.37" };
 * ```
 */
export interface TargetedInvalidOptions {
  /**
   * The release the objects must be invalid for (default 1.35, the
   * validator's default). From 1.37 a backend Service name may be any
   * DNS-1123 label (RelaxedServiceName, on by default), so a name such as
   * `1abc` is drawn only for 1.35.
   */
  readonly version?: KubernetesVersion;
}

/**
 * A valid object of `kind` (or any kind) with exactly one violation, and the one error it yields
 * under `options.version` (default 1.35).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress", { version: "1.37" }), (t) =>
 *     validate(t.object, { version: "1.37" }).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export function arbTargetedInvalid(
  kind?: ValidatedKind,
  options: TargetedInvalidOptions = {},
): fc.Arbitrary<TargetedInvalid> {
  const ms = targetedMutations().filter((m) => kind === undefined || m.kind === kind);
  const version = options.version ?? DEFAULT_KUBERNETES_VERSION;
  // The default release keeps each mutation's own arbitrary, so seeded draws stay as they were.
  return fc.oneof(
    ...ms.map((m) =>
      version === DEFAULT_KUBERNETES_VERSION ? m.arbitrary : (ON_VALID_FOR.get(m)?.(version) ?? m.arbitrary),
    ),
  );
}

/** Whether the service-name mutation of `t` drew a name the relaxed (1.37) rule accepts. */
function relaxedServiceNameAdmits(t: TargetedInvalid): boolean {
  const field = t.expected.field;
  const name = backendAt(t.json as Obj, field.slice(0, -".service.name".length))?.["service"]?.["name"];
  return typeof name === "string" && name.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
}
