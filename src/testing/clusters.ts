// fast-check arbitraries for NetworkPolicy engine inputs: random clusters
// (namespaces, pods, valid NetworkPolicies) and connections into them.
//
// The vocabularies are deliberately tiny (three label keys, three values, four
// namespaces, a handful of ports and port names, two /24s of pod addresses)
// so that selectors, ipBlocks and named ports actually match something.
// Random choices are drawn as plans of picks and nat() indexes and then mapped
// onto the cluster, never with chain(), so counterexamples shrink towards
// small clusters and the first choice of every pick.
//
// Everything a policy can express is reachable: omitted and explicit
// policyTypes, `egress: []` vs `egress: [{}]`, absent / empty / listed peers and
// ports, podSelector / namespaceSelector / both / ipBlock peers, all four
// matchExpressions operators, the namespace name label, numeric, ranged and
// named ports, TCP / UDP / SCTP / omitted protocols, IPv4, IPv6, IPv4-mapped
// and leading-zero spellings, other-family ipBlocks, `except` blocks,
// hostNetwork pods, pods that share a node, and policies in a namespace that
// holds no pods or in none (so `default`). Every pod and policy is in a listed
// namespace, as the engine requires. Only fast-check, the public API and the
// address model are imported.

import fc from "fast-check";
import {
  DEFAULT_NAMESPACE,
  NAMESPACE_NAME_LABEL,
  fromJson,
  type ClusterNamespace,
  type ClusterPod,
  type ClusterPodPort,
  type Connection,
  type Endpoint,
  type JsonObject,
  type JsonValue,
  type NetworkPolicy,
  type Protocol,
} from "../networking/index.js";
import { familyBits, formatIPv4, formatIPv6, hostMask, parseAddress, parseNetwork, type Address } from "./addresses.js";

/**
 * A cluster snapshot in the shape `createPolicyEngine` takes; every pod and policy is in a listed namespace.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { arbCluster } from "clusterwire/testing";
 *
 * const [cluster] = fc.sample(arbCluster(), 1);
 * if (cluster) console.log(cluster.namespaces.length, cluster.pods.length, cluster.policies.length);
 * ```
 */
export interface GeneratedCluster {
  /** The namespaces, each with labels. */
  readonly namespaces: ClusterNamespace[];
  /** The pods, each in a listed namespace. */
  readonly pods: ClusterPod[];
  /** The NetworkPolicies, each in a listed namespace. */
  readonly policies: NetworkPolicy[];
}

/**
 * Two policy sets over the same namespaces and pods, for diff tests.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbClusterPair } from "clusterwire/testing";
 *
 * const [pair] = fc.sample(arbClusterPair(), 1);
 * if (pair) console.log(pair.policies.length, pair.otherPolicies.length);
 * ```
 */
export interface GeneratedClusterPair extends GeneratedCluster {
  /** Often an edit of `policies` (one removed, some added), sometimes unrelated. */
  readonly otherPolicies: NetworkPolicy[];
}

/**
 * Options of {@link arbCluster} and {@link arbClusterPair}: how big the clusters are.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { arbCluster } from "clusterwire/testing";
 *
 * const small = arbCluster({ maxNamespaces: 2, minPods: 2, maxPods: 4, maxPolicies: 2 });
 * ```
 */
export interface ClusterOptions {
  /** At most this many namespaces, 1..4 (default 3). */
  readonly maxNamespaces?: number;
  /** At least this many pods (default 2). */
  readonly minPods?: number;
  /** At most this many pods (default 7). */
  readonly maxPods?: number;
  /** At most this many policies (default 5). */
  readonly maxPolicies?: number;
}

const NAMESPACE_NAMES = ["default", "x", "y", "z"] as const;
/** Names selectors may ask for: the namespaces plus one that never exists. */
const NAME_VALUES = [...NAMESPACE_NAMES, "w"];
/** A namespace only policies live in: listed, without labels, holding no pods. */
const POLICY_ONLY_NAMESPACE = "v";
const LABEL_KEYS = ["app", "tier", "team"];
const LABEL_VALUES = ["a", "b", "c"];
const POD_NAMES = "abcdefghijklmnopqrstuvwxyz";
const PORT_NAMES = ["http", "dns", "metrics"];
/** What rules may name: the pod vocabulary plus a name no pod declares. */
const RULE_PORT_NAMES = [...PORT_NAMES, "nope"];
const PORT_NUMBERS = [80, 53, 81, 443, 8080];
const POLICY_NAMES = ["web", "allow", "deny", "db", "zeta"];
const PROTOCOLS: readonly (Protocol | undefined)[] = [undefined, "TCP", "UDP", "SCTP"];
const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;
const V4_PREFIXES = [32, 24, 28, 16, 0, 30, 8, 23, 31];
const V6_PREFIXES = [128, 112, 64, 120, 0, 48, 127];
/** Addresses outside every pod and node range. */
const OUTSIDE_V4 = 0xcb007100n; // 203.0.113.0
const OUTSIDE_V6 = 0x20010db8n << 96n; // 2001:db8::

/** `true` with the given percentage; shrinks to false. */
const chance = (percent: number): fc.Arbitrary<boolean> =>
  fc.integer({ min: 0, max: 99 }).map((n) => n >= 100 - percent);

// ------------------------------------------------------------------ addresses

type Spelling = "plain" | "mapped" | "zeros";

/** IPv4 plainly, IPv4-mapped (`::ffff:a.b.c.d`) or with zero-padded octets (read as decimal). */
function renderV4(v: bigint, spelling: Spelling = "plain"): string {
  if (spelling === "zeros")
    return formatIPv4(v)
      .split(".")
      .map((o) => o.padStart(3, "0"))
      .join(".");
  return spelling === "mapped" ? `::ffff:${formatIPv4(v)}` : formatIPv4(v);
}

function renderAddress(a: Address, spelling: Spelling = "plain"): string {
  return a.family === 4 ? renderV4(a.value, spelling) : formatIPv6(a.value);
}

function podAddress(family: 4 | 6, subnet: number, host: number): Address {
  // 10.0.<subnet>.<host> and fd00::<subnet>:<host>
  return family === 4
    ? { family, value: (10n << 24n) | (BigInt(subnet) << 8n) | BigInt(host) }
    : { family, value: (0xfd00n << 112n) | (BigInt(subnet) << 16n) | BigInt(host) };
}

function nodeAddress(family: 4 | 6, node: number): Address {
  // 10.1.0.<n+1> and fd00:1::<n+1>
  return family === 4
    ? { family, value: (10n << 24n) | (1n << 16n) | BigInt(node + 1) }
    : { family, value: (0xfd00n << 112n) | (1n << 96n) | BigInt(node + 1) };
}

// ------------------------------------------------------------------ pods and namespaces

interface PodPlan {
  readonly ns: number;
  readonly labels: Record<string, string>;
  readonly family: 4 | 6;
  readonly subnet: number;
  readonly host: number;
  readonly node: number;
  readonly hostNetwork: boolean;
  readonly withHostIP: boolean;
  /** Take another pod's IP as hostIP: a pod source with the node's address is still not the node (E11). */
  readonly hostIPOfPod: number | undefined;
  readonly spelling: Spelling;
  readonly ports: readonly { name: string | undefined; containerPort: number; protocol: Protocol | undefined }[];
}

const labelsArb = (): fc.Arbitrary<Record<string, string>> =>
  fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), { maxKeys: 3 });

const podPlanArb: fc.Arbitrary<PodPlan> = fc.record({
  ns: fc.nat(3),
  labels: labelsArb(),
  family: fc.oneof(
    { arbitrary: fc.constant(4 as const), weight: 3 },
    { arbitrary: fc.constant(6 as const), weight: 1 },
  ),
  subnet: fc.nat(1),
  host: fc.nat(31),
  node: fc.nat(2),
  hostNetwork: chance(15),
  withHostIP: chance(75),
  hostIPOfPod: fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: fc.nat(), weight: 1 }),
  spelling: fc.oneof(
    { arbitrary: fc.constant<Spelling>("plain"), weight: 8 },
    { arbitrary: fc.constant<Spelling>("mapped"), weight: 1 },
    { arbitrary: fc.constant<Spelling>("zeros"), weight: 1 },
  ),
  ports: fc.array(
    fc.record({
      name: fc.constantFrom(undefined, ...PORT_NAMES),
      containerPort: fc.constantFrom(...PORT_NUMBERS),
      protocol: fc.constantFrom(...PROTOCOLS),
    }),
    { maxLength: 3 },
  ),
});

function buildNamespaces(names: readonly string[], labels: readonly Record<string, string>[]): ClusterNamespace[] {
  return names.map((name, i) => {
    const l = labels[i] ?? {};
    return Object.keys(l).length > 0 ? { name, labels: l } : { name };
  });
}

function buildPods(namespaces: readonly ClusterNamespace[], plans: readonly PodPlan[]): ClusterPod[] {
  const pods = plans.map(buildPod(namespaces, new Map()));
  return pods.map((pod, i) => {
    const k = plans[i]!.hostIPOfPod;
    if (k === undefined || pod.hostNetwork === true) return pod;
    const other = pods[k % pods.length]!;
    if (other === pod || other.hostNetwork === true) return pod;
    return { ...pod, hostIP: other.ip };
  });
}

function buildPod(namespaces: readonly ClusterNamespace[], used: Map<string, number>): (p: PodPlan) => ClusterPod {
  return (p) => {
    const ns = namespaces[p.ns % namespaces.length]!.name;
    const n = used.get(ns) ?? 0;
    used.set(ns, n + 1);
    // Names restart in every namespace, so x/a and y/a both exist.
    const name = n < POD_NAMES.length ? POD_NAMES[n]! : `p${n}`;
    const node = nodeAddress(p.family, p.node);
    const spelling = p.family === 4 ? p.spelling : "plain";
    // E12: a hostNetwork pod carries its node's address.
    const ip = renderAddress(p.hostNetwork ? node : podAddress(p.family, p.subnet, p.host), spelling);
    const ports: ClusterPodPort[] = [];
    const seen = new Set<string>();
    for (const d of p.ports) {
      // A (name, protocol) pair names at most one port, so E9 resolution is unambiguous.
      const id = `${d.name}/${d.protocol ?? "TCP"}`;
      if (d.name !== undefined && seen.has(id)) continue;
      seen.add(id);
      ports.push({
        ...(d.name !== undefined ? { name: d.name } : {}),
        containerPort: d.containerPort,
        ...(d.protocol !== undefined ? { protocol: d.protocol } : {}),
      });
    }
    return {
      namespace: ns,
      name,
      ...(Object.keys(p.labels).length > 0 ? { labels: p.labels } : {}),
      ip,
      ...(ports.length > 0 ? { ports } : {}),
      ...(p.withHostIP ? { hostIP: p.hostNetwork ? ip : renderAddress(node) } : {}),
      ...(p.hostNetwork ? { hostNetwork: true } : {}),
    };
  };
}

// ------------------------------------------------------------------ policies

interface ExprPlan {
  readonly key: string;
  readonly op: (typeof OPERATORS)[number];
  readonly values: readonly string[];
}
interface SelectorPlan {
  readonly labels: Record<string, string>;
  readonly exprs: readonly ExprPlan[];
}
interface BlockPlan {
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
type PortPlan =
  | { readonly kind: "any"; readonly protocol: Protocol | undefined }
  | { readonly kind: "number"; readonly protocol: Protocol | undefined; readonly port: number }
  | { readonly kind: "range"; readonly protocol: Protocol | undefined; readonly port: number; readonly span: number }
  | { readonly kind: "named"; readonly protocol: Protocol | undefined; readonly name: string };
interface RulePlan {
  readonly peers: readonly PeerPlan[] | undefined;
  readonly ports: readonly PortPlan[] | undefined;
}
interface PolicyPlan {
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

const policyPlanArb: fc.Arbitrary<PolicyPlan> = fc.record({
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
interface PolicyContext {
  readonly namespaces: readonly ClusterNamespace[];
  readonly pods: readonly ClusterPod[];
  readonly anchors: Anchors;
}

/** The addresses ipBlocks are anchored on, so that they cover pods and nodes. */
interface Anchors {
  readonly v4: readonly bigint[];
  readonly v6: readonly bigint[];
}

function anchorsOf(pods: readonly ClusterPod[]): Anchors {
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

function selectorJson(s: SelectorPlan): JsonObject {
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

function blockJson(b: BlockPlan, anchors: Anchors): JsonObject {
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

function portJson(p: PortPlan): JsonObject {
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

function buildPolicy(plan: PolicyPlan, name: string, cluster: PolicyContext): NetworkPolicy {
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

// ------------------------------------------------------------------ clusters

const clusterPlanArb = (o: ClusterOptions) =>
  fc.record({
    namespaces: fc.subarray([...NAMESPACE_NAMES], {
      minLength: 1,
      maxLength: Math.max(1, Math.min(4, o.maxNamespaces ?? 3)),
    }),
    // Now and then a namespace lists a name label of its own, which E2 overrides.
    nsLabels: fc.array(
      fc
        .tuple(
          labelsArb(),
          fc.oneof(
            { arbitrary: fc.constant(undefined), weight: 9 },
            { arbitrary: fc.constantFrom(...NAME_VALUES), weight: 1 },
          ),
        )
        .map(([labels, name]) => (name === undefined ? labels : { ...labels, [NAMESPACE_NAME_LABEL]: name })),
      { minLength: 4, maxLength: 4 },
    ),
    pods: fc.array(podPlanArb, { minLength: Math.min(o.minPods ?? 2, o.maxPods ?? 7), maxLength: o.maxPods ?? 7 }),
    policies: fc.array(policyPlanArb, { maxLength: o.maxPolicies ?? 5 }),
  });

function buildCluster(plan: {
  namespaces: string[];
  nsLabels: Record<string, string>[];
  pods: PodPlan[];
  policies: PolicyPlan[];
}): GeneratedCluster & { anchors: Anchors } {
  const namespaces = buildNamespaces(plan.namespaces, plan.nsLabels);
  const pods = buildPods(namespaces, plan.pods);
  const anchors = anchorsOf(pods);
  const policies = plan.policies.map((p, i) => buildPolicy(p, `${p.name}-${i}`, { namespaces, pods, anchors }));
  return { namespaces: withPolicyHomes(namespaces, policies), pods, policies, anchors };
}

/**
 * The namespaces plus any a policy lives in that hold no pods, without
 * labels: the engine refuses a policy in a namespace it is not given, as it
 * refuses a pod there.
 */
function withPolicyHomes(
  namespaces: readonly ClusterNamespace[],
  policies: readonly NetworkPolicy[],
): ClusterNamespace[] {
  const out = [...namespaces];
  const listed = new Set(out.map((n) => n.name));
  for (const p of policies) {
    const name = p.metadata?.namespace || DEFAULT_NAMESPACE;
    if (listed.has(name)) continue;
    listed.add(name);
    out.push({ name });
  }
  return out;
}

/**
 * A random cluster whose policies all pass `validate()`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { arbCluster } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbCluster({ maxPods: 5 }), (cluster) => createPolicyEngine(cluster).pods.length === cluster.pods.length));
 * ```
 */
export function arbCluster(options: ClusterOptions = {}): fc.Arbitrary<GeneratedCluster> {
  return clusterPlanArb(options).map((plan) => {
    const { namespaces, pods, policies } = buildCluster(plan);
    return { namespaces, pods, policies };
  });
}

/**
 * A random cluster with a second policy set over the same namespaces and
 * pods: usually the first set with one policy removed and up to two added,
 * sometimes an unrelated set.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { arbClusterPair } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbClusterPair(), (pair) => {
 *     const before = createPolicyEngine(pair);
 *     const after = createPolicyEngine({ ...pair, policies: pair.otherPolicies });
 *     return before.diff(after).removedPods.length === 0;
 *   }),
 * );
 * ```
 */
export function arbClusterPair(options: ClusterOptions = {}): fc.Arbitrary<GeneratedClusterPair> {
  return fc
    .record({
      plan: clusterPlanArb(options),
      independent: chance(25),
      drop: fc.nat(),
      added: fc.array(policyPlanArb, { maxLength: options.maxPolicies ?? 5 }),
    })
    .map(({ plan, independent, drop, added }) => {
      const { namespaces, pods, policies, anchors } = buildCluster(plan);
      const fresh = added.map((p, i) => buildPolicy(p, `${p.name}-${100 + i}`, { namespaces, pods, anchors }));
      const kept = policies.filter((_, i) => policies.length === 0 || i !== drop % policies.length);
      const otherPolicies = independent ? fresh : [...kept, ...fresh.slice(0, 2)];
      return { namespaces: withPolicyHomes(namespaces, otherPolicies), pods, policies, otherPolicies };
    });
}

// ------------------------------------------------------------------ connections

/**
 * Cluster parts arbConnection and mentionedPorts look at.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { arbCluster, arbConnection } from "clusterwire/testing";
 *
 * const arb = arbCluster().chain((cluster) => fc.tuple(fc.constant(cluster), arbConnection(cluster)));
 * fc.assert(fc.property(arb, ([cluster, connection]) => typeof createPolicyEngine(cluster).evaluate(connection).allowed === "boolean"));
 * ```
 */
export interface ConnectionTarget {
  /** The pods connections may start and end at. */
  readonly pods: readonly ClusterPod[];
  /** The policies, whose ports and peers are worth testing. */
  readonly policies: readonly NetworkPolicy[];
}

/**
 * Port numbers worth testing on a cluster: declared container ports, every
 * numeric rule port and range end, the numbers just outside each range, and 80.
 */
export function mentionedPorts(cluster: ConnectionTarget): number[] {
  const out = new Set<number>([80]);
  const add = (n: number): void => {
    if (Number.isInteger(n) && n >= 1 && n <= 65535) out.add(n);
  };
  for (const p of cluster.pods) for (const d of p.ports ?? []) add(d.containerPort);
  for (const np of cluster.policies) {
    for (const r of [...(np.spec?.ingress ?? []), ...(np.spec?.egress ?? [])]) {
      for (const e of r.ports) {
        if (e.port === undefined || e.port.type !== 0n) continue;
        add(e.port.intVal);
        add(e.port.intVal - 1);
        if (Object.hasOwn(e, "endPort")) {
          add(e.endPort);
          add(e.endPort + 1);
        } else {
          add(e.port.intVal + 1);
        }
      }
    }
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Addresses worth using as `{ip}` endpoints: node IPs (also IPv4-mapped),
 * the first, second and last address of every ipBlock cidr and except, and
 * addresses outside everything. None is the IP of a non-hostNetwork pod (E15).
 */
export function addressCandidates(cluster: ConnectionTarget): string[] {
  const out: string[] = [];
  const add = (a: Address, spelling: Spelling = "plain"): void => {
    out.push(renderAddress(a, a.family === 4 ? spelling : "plain"));
  };
  for (const p of cluster.pods) {
    for (const text of [p.hostNetwork === true ? p.ip : undefined, p.hostIP]) {
      const a = text === undefined ? null : parseAddress(text);
      if (a === null) continue;
      add(a);
      add(a, "mapped");
    }
  }
  for (const np of cluster.policies) {
    for (const r of [...(np.spec?.ingress ?? []).map((x) => x.from), ...(np.spec?.egress ?? []).map((x) => x.to)]) {
      for (const peer of r) {
        if (peer.ipBlock === undefined) continue;
        for (const text of [peer.ipBlock.cidr, ...peer.ipBlock.except]) {
          const n = parseNetwork(text);
          if (n === null) continue;
          const last = n.address | hostMask(n.family, n.prefix);
          add({ family: n.family, value: n.address });
          if (last !== n.address) add({ family: n.family, value: n.address + 1n });
          add({ family: n.family, value: last });
        }
      }
    }
  }
  add({ family: 4, value: OUTSIDE_V4 | 9n });
  add({ family: 6, value: OUTSIDE_V6 | 9n });
  const podIPs = cluster.pods
    .filter((p) => p.hostNetwork !== true)
    .map((p) => parseAddress(p.ip))
    .filter((a): a is Address => a !== null);
  const seen = new Set<string>();
  return out.filter((text) => {
    const a = parseAddress(text)!;
    if (seen.has(text) || podIPs.some((p) => p.family === a.family && p.value === a.value)) return false;
    seen.add(text);
    return true;
  });
}

type EndpointPlan = { readonly kind: "pod" | "ip"; readonly index: number };
type PortChoice = { readonly kind: "mentioned" | "random" | "named"; readonly value: number };

/**
 * Connections into `cluster`: pod to pod, pod to address and address to pod
 * (and, rarely, address to address), any protocol or none, numeric ports the
 * cluster mentions or random ones, and port names the destination declares
 * for the connection's protocol (always resolvable).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { arbCluster, arbConnection } from "clusterwire/testing";
 *
 * const arb = arbCluster().chain((cluster) => fc.tuple(fc.constant(cluster), arbConnection(cluster)));
 * fc.assert(fc.property(arb, ([cluster, connection]) => typeof createPolicyEngine(cluster).evaluate(connection).allowed === "boolean"));
 * ```
 */
export function arbConnection(cluster: ConnectionTarget): fc.Arbitrary<Connection> {
  const keys = cluster.pods.map((p) => `${p.namespace}/${p.name}`);
  const addresses = addressCandidates(cluster);
  const ports = mentionedPorts(cluster);
  const endpointArb: fc.Arbitrary<EndpointPlan> =
    keys.length === 0
      ? fc.nat().map((index) => ({ kind: "ip" as const, index }))
      : fc.oneof(
          { arbitrary: fc.nat().map((index) => ({ kind: "pod" as const, index })), weight: 6 },
          { arbitrary: fc.nat().map((index) => ({ kind: "ip" as const, index })), weight: 1 },
        );
  const portArb: fc.Arbitrary<PortChoice> = fc.oneof(
    { arbitrary: fc.nat().map((value) => ({ kind: "mentioned" as const, value })), weight: 4 },
    { arbitrary: fc.integer({ min: 1, max: 65535 }).map((value) => ({ kind: "random" as const, value })), weight: 1 },
    { arbitrary: fc.nat().map((value) => ({ kind: "named" as const, value })), weight: 2 },
  );
  const endpoint = (e: EndpointPlan): Endpoint =>
    e.kind === "pod" ? { pod: keys[e.index % keys.length]! } : { ip: addresses[e.index % addresses.length]! };
  return fc
    .record({ from: endpointArb, to: endpointArb, protocol: fc.constantFrom(...PROTOCOLS), port: portArb })
    .map(({ from, to, protocol, port }): Connection => {
      const dst = to.kind === "pod" ? cluster.pods[to.index % keys.length] : undefined;
      const named = (dst?.ports ?? []).filter((d) => d.name !== undefined);
      if (port.kind === "named" && named.length > 0) {
        const d = named[port.value % named.length]!;
        const p = d.protocol ?? "TCP";
        // Keep an omitted protocol when it means the declared one (TCP).
        const proto = protocol === undefined && p === "TCP" ? undefined : p;
        return {
          from: endpoint(from),
          to: endpoint(to),
          ...(proto !== undefined ? { protocol: proto } : {}),
          port: d.name!,
        };
      }
      const n = port.kind === "random" ? port.value : ports[port.value % ports.length]!;
      return { from: endpoint(from), to: endpoint(to), ...(protocol !== undefined ? { protocol } : {}), port: n };
    });
}
