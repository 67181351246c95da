// Connections into a random cluster (or any cluster): pods and addresses worth connecting, port
// numbers worth testing, and port names the destination declares.

import fc from "fast-check";
import type { ClusterPod, Connection, Endpoint, NetworkPolicy } from "../../networking/index.js";
import { hostMask, parseAddress, parseNetwork, type Address } from "../addresses.js";
import { OUTSIDE_V4, OUTSIDE_V6, renderAddress, type Spelling } from "./pod-addresses.js";
import { PROTOCOLS } from "./vocabulary.js";

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
