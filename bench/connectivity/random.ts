// Random clusters for np-guard's differential campaign (`npm run bench:np-guard -- --random N`):
// clusterwire/testing's arbClusterPair (namespaces with labels, pods with named ports, two valid
// policy sets), made into scenarios both analyzers read the same way:
// - each pod is a workload of a kind picked from its position (a Pod when np-guard's invented
//   pod names `NAME-1`, `NAME-2` would collide with another pod's name);
// - hostNetwork is dropped (np-guard takes no notice of it: its own test shows that difference);
// - a Namespace object carries no `kubernetes.io/metadata.name` label of its own (the API server
//   overwrites it, np-guard keeps it);
// - a cluster with an IPv6 ipBlock (np-guard misreads it), an egress rule with a named port that
//   can reach addresses (np-guard fails the run) or a pod that names two ports alike (np-guard
//   takes the first of the name whatever its protocol) is passed over.
import fc from "fast-check";
import type { NetworkPolicy } from "../../src/networking/index.js";
import { toJson } from "../../src/networking/index.js";
import { arbClusterPair, type GeneratedCluster } from "../../src/testing/index.js";
import { WORKLOAD_KINDS, type Scenario } from "../../test/support/np-guard/scenario.js";

const NAME_LABEL = "kubernetes.io/metadata.name";

/** Why np-guard cannot take these policies as clusterwire does, or undefined. */
export function unsharedPolicy(policies: readonly NetworkPolicy[]): string | undefined {
  for (const p of policies) {
    const spec = p.spec;
    for (const rule of [...(spec?.ingress ?? []).map((r) => r.from), ...(spec?.egress ?? []).map((r) => r.to)])
      for (const peer of rule) if (peer.ipBlock?.cidr.includes(":") === true) return "an IPv6 ipBlock";
    for (const rule of spec?.egress ?? []) {
      const named = rule.ports.some((port) => port.port?.type === 1n);
      if (named && (rule.to.length === 0 || rule.to.some((peer) => peer.ipBlock !== undefined)))
        return "a named port in an egress rule that can reach addresses";
    }
  }
  return undefined;
}

/** Why np-guard cannot take these pods as clusterwire does, or undefined. */
export function unsharedPods(cluster: GeneratedCluster): string | undefined {
  for (const pod of cluster.pods) {
    const names = (pod.ports ?? []).flatMap((p) => (p.name === undefined ? [] : [p.name]));
    if (new Set(names).size < names.length) return "a pod naming two ports alike";
  }
  return undefined;
}

/** The scenario of a generated cluster, with the given policies. */
export function scenarioOf(cluster: GeneratedCluster, policies: readonly NetworkPolicy[]): Scenario {
  const names = new Set(cluster.pods.map((p) => `${p.namespace}/${p.name}`));
  return {
    namespaces: cluster.namespaces.map((n) => {
      const labels = Object.fromEntries(Object.entries(n.labels ?? {}).filter(([k]) => k !== NAME_LABEL));
      return { name: n.name, labels };
    }),
    workloads: cluster.pods.map((pod, i) => {
      const wanted = WORKLOAD_KINDS[i % WORKLOAD_KINDS.length] ?? "Pod";
      const collides = names.has(`${pod.namespace}/${pod.name}-1`) || names.has(`${pod.namespace}/${pod.name}-2`);
      return {
        namespace: pod.namespace,
        kind: collides ? "Pod" : wanted,
        name: pod.name,
        labels: pod.labels ?? {},
        ...(pod.ports === undefined ? {} : { ports: pod.ports }),
        replicas: 1 + (i % 3),
      };
    }),
    policies: policies.map((p) => toJson(p) as Record<string, unknown>),
  };
}

/** One case of the campaign: a cluster before and after a change of its policies. */
export interface RandomCase {
  readonly before: Scenario;
  readonly after: Scenario;
}

/**
 * `count` cases from `seed`, passing over generated clusters that fall outside the shared
 * semantics; `passedOver` counts them by reason.
 */
export function randomCases(count: number, seed: number): { cases: RandomCase[]; passedOver: Map<string, number> } {
  const cases: RandomCase[] = [];
  const passedOver = new Map<string, number>();
  let round = 0;
  while (cases.length < count) {
    const batch = fc.sample(arbClusterPair({ maxPods: 8, maxPolicies: 5 }), {
      seed: seed + round * 7919,
      numRuns: count,
    });
    round++;
    for (const pair of batch) {
      if (cases.length >= count) break;
      const why = unsharedPods(pair) ?? unsharedPolicy(pair.policies) ?? unsharedPolicy(pair.otherPolicies);
      if (why !== undefined) {
        passedOver.set(why, (passedOver.get(why) ?? 0) + 1);
        continue;
      }
      cases.push({ before: scenarioOf(pair, pair.policies), after: scenarioOf(pair, pair.otherPolicies) });
    }
    if (round > 100) throw new Error(`only ${cases.length} of ${count} generated clusters fit np-guard's semantics`);
  }
  return { cases, passedOver };
}
