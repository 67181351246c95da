// fast-check arbitraries for NetworkPolicy engine inputs: random clusters
// (namespaces, pods, valid NetworkPolicies) and connections into them. This
// file builds whole clusters; their parts are drawn by vocabulary.ts,
// pod-addresses.ts, pods.ts and policies.ts, and connections.ts draws the
// connections.
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
  type ClusterNamespace,
  type ClusterPod,
  type NetworkPolicy,
} from "../../networking/index.js";
import { buildNamespaces, buildPods, podPlanArb, type PodPlan } from "./pods.js";
import { anchorsOf, buildPolicy, policyPlanArb, type Anchors, type PolicyPlan } from "./policies.js";
import { NAMESPACE_NAMES, NAME_VALUES, chance, labelsArb } from "./vocabulary.js";

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
export function withPolicyHomes(
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
