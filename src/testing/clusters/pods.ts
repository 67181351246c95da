// The pods and namespaces of a random cluster, drawn as plans of picks and nat() indexes and then
// built: names that restart in every namespace, container ports whose (name, protocol) pairs are
// unique, hostNetwork pods carrying their node's address, and pods that share a node.

import fc from "fast-check";
import type { ClusterNamespace, ClusterPod, ClusterPodPort, Protocol } from "../../networking/index.js";
import { nodeAddress, podAddress, renderAddress, type Spelling } from "./pod-addresses.js";
import { PORT_NAMES, PORT_NUMBERS, POD_NAMES, PROTOCOLS, chance, labelsArb } from "./vocabulary.js";

export interface PodPlan {
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

export const podPlanArb: fc.Arbitrary<PodPlan> = fc.record({
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

export function buildNamespaces(
  names: readonly string[],
  labels: readonly Record<string, string>[],
): ClusterNamespace[] {
  return names.map((name, i) => {
    const l = labels[i] ?? {};
    return Object.keys(l).length > 0 ? { name, labels: l } : { name };
  });
}

export function buildPods(namespaces: readonly ClusterNamespace[], plans: readonly PodPlan[]): ClusterPod[] {
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
