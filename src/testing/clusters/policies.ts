// The NetworkPolicies of a random cluster, drawn as plans and built against its pods: every
// policy passes validate(), and everything a policy can express is reachable (omitted and
// explicit policyTypes, `egress: []` vs `egress: [{}]`, absent / empty / listed peers and ports,
// every peer kind and matchExpressions operator, the namespace name label, numeric, ranged and
// named ports, every protocol or none, ipBlocks anchored on the pods and nodes in both families
// and spellings, `except` blocks, and policies in a namespace without pods or in none).

import fc from "fast-check";
import {
  NAMESPACE_NAME_LABEL,
  fromJson,
  type ClusterNamespace,
  type ClusterPod,
  type JsonObject,
  type JsonValue,
  type NetworkPolicy,
  type Protocol,
} from "../../networking/index.js";
import { familyBits, hostMask, parseAddress } from "../addresses.js";
import { OUTSIDE_V4, OUTSIDE_V6, renderAddress, renderV4 } from "./pod-addresses.js";
import {
  LABEL_KEYS,
  LABEL_VALUES,
  NAME_VALUES,
  OPERATORS,
  POLICY_NAMES,
  POLICY_ONLY_NAMESPACE,
  PORT_NUMBERS,
  PROTOCOLS,
  RULE_PORT_NAMES,
  V4_PREFIXES,
  V6_PREFIXES,
  chance,
  labelsArb,
} from "./vocabulary.js";

interface ExprPlan {
  readonly key: string;
  readonly op: (typeof OPERATORS)[number];
  readonly values: readonly string[];
}
export interface SelectorPlan {
  readonly labels: Record<string, string>;
  readonly exprs: readonly ExprPlan[];
}
export interface BlockPlan {
  readonly family: 4 | 6 | "mapped";
  readonly anchor: number;
  readonly prefix: number;
  readonly hostBits: boolean;
  /** Write an IPv6 cidr in capitals. */
  readonly upper: boolean;
  readonly excepts:
    | readonly { readonly anchor: number; readonly extra: number; readonly sibling: boolean }[]
    | undefined;
}
type PeerPlan =
  | { readonly kind: "pod"; readonly pod: SelectorPlan }
  | { readonly kind: "ns"; readonly ns: SelectorPlan }
  | { readonly kind: "both"; readonly pod: SelectorPlan; readonly ns: SelectorPlan }
  | { readonly kind: "ipBlock"; readonly block: BlockPlan };
export type PortPlan =
  | { readonly kind: "any"; readonly protocol: Protocol | undefined }
  | { readonly kind: "number"; readonly protocol: Protocol | undefined; readonly port: number }
  | { readonly kind: "range"; readonly protocol: Protocol | undefined; readonly port: number; readonly span: number }
  | { readonly kind: "named"; readonly protocol: Protocol | undefined; readonly name: string };
export interface RulePlan {
  readonly peers: readonly PeerPlan[] | undefined;
  readonly ports: readonly PortPlan[] | undefined;
}
export interface PolicyPlan {
  /** Name stem; the position is appended, so input order and name order differ. */
  readonly name: string;
  /** A namespace that holds pods (mostly), one that holds none, or none at all ("default"). */
  readonly ns: { readonly where: "pods" | "podless" | "omitted"; readonly index: number };
  readonly podSelector: SelectorPlan | "absent";
  readonly policyTypes: readonly string[] | undefined;
  readonly ingress: readonly RulePlan[] | undefined;
  readonly egress: readonly RulePlan[] | undefined;
}

/** An absent list or a list of up to `max` (possibly none). */
const optionalList = <T>(arb: fc.Arbitrary<T>, max: number): fc.Arbitrary<readonly T[] | undefined> =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: fc.array(arb, { maxLength: max }), weight: 3 },
  );

function exprArb(key: fc.Arbitrary<string>, values: readonly string[]): fc.Arbitrary<ExprPlan> {
  return fc
    .record({
      key,
      op: fc.constantFrom(...OPERATORS),
      values: fc.subarray([...values], { minLength: 1, maxLength: 2 }),
    })
    .map((e) => (e.op === "Exists" || e.op === "DoesNotExist" ? { ...e, values: [] } : e));
}

/** Pod selectors: `{}` a third of the time, else labels and expressions over the pod vocabulary. */
const podSelectorArb: fc.Arbitrary<SelectorPlan> = fc.oneof(
  fc.constant({ labels: {}, exprs: [] }),
  fc.record({
    labels: labelsArb(),
    exprs: fc.array(exprArb(fc.constantFrom(...LABEL_KEYS), LABEL_VALUES), { maxLength: 2 }),
  }),
);

/** Namespace selectors: like pod selectors, or by the E2 name label. */
const nsSelectorArb: fc.Arbitrary<SelectorPlan> = fc.oneof(
  fc.constant({ labels: {}, exprs: [] }),
  fc.record({
    labels: labelsArb(),
    exprs: fc.array(exprArb(fc.constantFrom(...LABEL_KEYS), LABEL_VALUES), { maxLength: 2 }),
  }),
  fc.record({
    labels: fc.oneof(
      fc.constant({}),
      fc.constantFrom(...NAME_VALUES).map((v) => ({ [NAMESPACE_NAME_LABEL]: v })),
    ),
    exprs: fc.array(exprArb(fc.constant(NAMESPACE_NAME_LABEL), NAME_VALUES), { maxLength: 1 }),
  }),
);

const blockArb: fc.Arbitrary<BlockPlan> = fc.record({
  family: fc.oneof(
    { arbitrary: fc.constant(4 as const), weight: 6 },
    { arbitrary: fc.constant(6 as const), weight: 3 },
    { arbitrary: fc.constant("mapped" as const), weight: 1 },
  ),
  anchor: fc.nat(20),
  prefix: fc.nat(8),
  hostBits: chance(20),
  upper: chance(15),
  excepts: optionalList(fc.record({ anchor: fc.nat(20), extra: fc.nat(40), sibling: fc.boolean() }), 2),
});

const peerArb: fc.Arbitrary<PeerPlan> = fc.oneof(
  podSelectorArb.map((pod) => ({ kind: "pod" as const, pod })),
  nsSelectorArb.map((ns) => ({ kind: "ns" as const, ns })),
  fc.record({ pod: podSelectorArb, ns: nsSelectorArb }).map((b) => ({ kind: "both" as const, ...b })),
  blockArb.map((block) => ({ kind: "ipBlock" as const, block })),
);

const portNumberArb = fc.oneof(
  { arbitrary: fc.constantFrom(...PORT_NUMBERS), weight: 4 },
  { arbitrary: fc.integer({ min: 1, max: 65535 }), weight: 1 },
);

const portPlanArb: fc.Arbitrary<PortPlan> = fc.oneof(
  fc.record({ kind: fc.constant("any" as const), protocol: fc.constantFrom(...PROTOCOLS) }),
  fc.record({ kind: fc.constant("number" as const), protocol: fc.constantFrom(...PROTOCOLS), port: portNumberArb }),
  fc.record({
    kind: fc.constant("range" as const),
    protocol: fc.constantFrom(...PROTOCOLS),
    port: portNumberArb,
    span: fc.oneof(fc.constantFrom(0, 1, 10, 400), fc.nat(70000)),
  }),
  fc.record({
    kind: fc.constant("named" as const),
    protocol: fc.constantFrom(...PROTOCOLS),
    name: fc.constantFrom(...RULE_PORT_NAMES),
  }),
);

const rulePlanArb: fc.Arbitrary<RulePlan> = fc.record({
  peers: optionalList(peerArb, 3),
  ports: optionalList(portPlanArb, 3),
});

export const policyPlanArb: fc.Arbitrary<PolicyPlan> = fc.record({
  name: fc.constantFrom(...POLICY_NAMES),
  ns: fc.record({
    where: fc.oneof(
      { arbitrary: fc.constant("pods" as const), weight: 8 },
      { arbitrary: fc.constant("podless" as const), weight: 1 },
      { arbitrary: fc.constant("omitted" as const), weight: 1 },
    ),
    index: fc.nat(),
  }),
  podSelector: fc.oneof(
    { arbitrary: podSelectorArb, weight: 4 },
    { arbitrary: fc.constant("absent" as const), weight: 1 },
  ),
  policyTypes: fc.constantFrom<readonly string[] | undefined>(
    undefined,
    [],
    ["Ingress"],
    ["Egress"],
    ["Ingress", "Egress"],
    ["Egress", "Ingress"],
    ["Ingress", "Ingress"],
  ),
  ingress: optionalList(rulePlanArb, 3),
  egress: optionalList(rulePlanArb, 3),
});

/** What policies are built against. */
export interface PolicyContext {
  readonly namespaces: readonly ClusterNamespace[];
  readonly pods: readonly ClusterPod[];
  readonly anchors: Anchors;
}

/** The addresses ipBlocks are anchored on, so that they cover pods and nodes. */
export interface Anchors {
  readonly v4: readonly bigint[];
  readonly v6: readonly bigint[];
}

export function anchorsOf(pods: readonly ClusterPod[]): Anchors {
  const v4: bigint[] = [];
  const v6: bigint[] = [];
  for (const p of pods) {
    for (const text of [p.ip, p.hostIP]) {
      const a = text === undefined ? null : parseAddress(text);
      if (a !== null) (a.family === 4 ? v4 : v6).push(a.value);
    }
  }
  v4.push(OUTSIDE_V4);
  v6.push(OUTSIDE_V6);
  return { v4, v6 };
}

export function selectorJson(s: SelectorPlan): JsonObject {
  const out: JsonObject = {};
  if (Object.keys(s.labels).length > 0) out["matchLabels"] = { ...s.labels };
  if (s.exprs.length > 0) {
    out["matchExpressions"] = s.exprs.map((e) => ({
      key: e.key,
      operator: e.op,
      ...(e.values.length > 0 ? { values: [...e.values] } : {}),
    }));
  }
  return out;
}

export function blockJson(b: BlockPlan, anchors: Anchors): JsonObject {
  const family = b.family === 6 ? 6 : 4;
  const pool = family === 4 ? anchors.v4 : anchors.v6;
  const prefixes = family === 4 ? V4_PREFIXES : V6_PREFIXES;
  const w = familyBits(family);
  const anchor = pool[b.anchor % pool.length]!;
  const prefix = prefixes[b.prefix % prefixes.length]!;
  const network = anchor & ~hostMask(family, prefix);
  const written = b.hostBits ? anchor : network;
  if (b.family === "mapped") {
    // The legacy parser accepts ::ffff:a.b.c.d/(96+n) as an IPv4 network of n bits.
    return { cidr: `${renderV4(written, "mapped")}/${96 + prefix}` };
  }
  const text = renderAddress({ family, value: written });
  const out: JsonObject = { cidr: `${b.upper ? text.toUpperCase() : text}/${prefix}` };
  if (b.excepts === undefined) return out;
  const except: string[] = [];
  if (prefix < w) {
    // Validation wants each except strictly inside the cidr: longer prefix, same network.
    const inside = pool.filter((a) => (a & ~hostMask(family, prefix)) === network);
    for (const e of b.excepts) {
      const bits = prefix + 1 + (e.extra % (w - prefix));
      let base = inside[e.anchor % inside.length]! & ~hostMask(family, bits);
      // The sibling of a pod's block: inside the cidr but holding no anchor of it.
      if (e.sibling) base ^= 1n << BigInt(w - bits);
      except.push(`${renderAddress({ family, value: base })}/${bits}`);
    }
  }
  out["except"] = except;
  return out;
}

export function portJson(p: PortPlan): JsonObject {
  const out: JsonObject = p.protocol === undefined ? {} : { protocol: p.protocol };
  switch (p.kind) {
    case "any":
      return out;
    case "number":
      return { ...out, port: p.port };
    case "range":
      return { ...out, port: p.port, endPort: Math.min(65535, p.port + p.span) };
    case "named":
      return { ...out, port: p.name };
  }
}

function ruleJson(r: RulePlan, peerField: "from" | "to", anchors: Anchors): JsonObject {
  const out: JsonObject = {};
  if (r.peers !== undefined) {
    out[peerField] = r.peers.map((peer): JsonValue => {
      switch (peer.kind) {
        case "pod":
          return { podSelector: selectorJson(peer.pod) };
        case "ns":
          return { namespaceSelector: selectorJson(peer.ns) };
        case "both":
          return { podSelector: selectorJson(peer.pod), namespaceSelector: selectorJson(peer.ns) };
        case "ipBlock":
          return { ipBlock: blockJson(peer.block, anchors) };
      }
      throw new Error(`unknown peer plan ${JSON.stringify(peer satisfies never)}`);
    });
  }
  if (r.ports !== undefined) out["ports"] = r.ports.map(portJson);
  return out;
}

export function buildPolicy(plan: PolicyPlan, name: string, cluster: PolicyContext): NetworkPolicy {
  const { where, index } = plan.ns;
  const homes = cluster.pods.length > 0 ? cluster.pods.map((p) => p.namespace) : cluster.namespaces.map((n) => n.name);
  const ns =
    where === "omitted" ? undefined : where === "podless" ? POLICY_ONLY_NAMESPACE : homes[index % homes.length]!;
  const anchors = cluster.anchors;
  const spec: JsonObject = {};
  if (plan.podSelector !== "absent") spec["podSelector"] = selectorJson(plan.podSelector);
  if (plan.policyTypes !== undefined) spec["policyTypes"] = [...plan.policyTypes];
  if (plan.ingress !== undefined) spec["ingress"] = plan.ingress.map((r) => ruleJson(r, "from", anchors));
  if (plan.egress !== undefined) spec["egress"] = plan.egress.map((r) => ruleJson(r, "to", anchors));
  const policy = fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: ns === undefined ? { name } : { name, namespace: ns },
    spec,
  }) as NetworkPolicy;
  // The JSON decoder fills in the non-pointer podSelector; take it out again to test E1.
  if (plan.podSelector === "absent" && policy.spec !== undefined)
    delete (policy.spec as { podSelector?: unknown }).podSelector;
  return policy;
}
