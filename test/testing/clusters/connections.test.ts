// Connections into a cluster (src/testing/clusters/connections.ts): drawn connections start and
// end in the cluster and always evaluate; the ports worth testing are the ones the pods and
// rules mention and their neighbours; the addresses worth using are nodes, ipBlock edges and
// outside addresses, never a pod's own IP.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPolicyEngine, fromJson, type ClusterPod, type NetworkPolicy } from "../../../src/networking/index.js";
import { arbCluster } from "../../../src/testing/clusters/cluster.js";
import * as connections from "../../../src/testing/clusters/connections.js";
import { expectCatalogued } from "../catalogue.js";
import { checkArbitraryQuality } from "../quality.js";

const pods: ClusterPod[] = [
  { namespace: "x", name: "a", ip: "10.0.0.5", hostIP: "10.1.0.1", ports: [{ name: "http", containerPort: 8080 }] },
  { namespace: "x", name: "n", ip: "10.1.0.2", hostNetwork: true },
];
const policy = fromJson({
  apiVersion: "networking.k8s.io/v1",
  kind: "NetworkPolicy",
  metadata: { name: "p", namespace: "x" },
  spec: {
    podSelector: {},
    ingress: [
      { ports: [{ port: 443 }, { port: 1000, endPort: 1010 }, { port: "http" }] },
      { from: [{ ipBlock: { cidr: "10.0.0.4/30", except: ["10.0.0.6/31"] } }] },
    ],
  },
}) as NetworkPolicy;

describe("connections", () => {
  it("arbConnection: connections into the cluster they were drawn for, always evaluable", () => {
    const arb = arbCluster().chain((c) =>
      fc.tuple(fc.constant(c), fc.array(connections.arbConnection(c), { minLength: 1, maxLength: 5 })),
    );
    checkArbitraryQuality(arb, {
      contract: ([c, conns]) => {
        const engine = createPolicyEngine(c);
        const pods = new Set(c.pods.map((p) => `${p.namespace}/${p.name}`));
        for (const conn of conns) {
          for (const end of [conn.from, conn.to]) if ("pod" in end) expect(pods.has(end.pod)).toBe(true);
          // Named ports always resolve, so evaluate never refuses the input.
          engine.evaluate(conn);
        }
      },
      runs: 60,
    });
  });

  it("every arbitrary of connections.ts is checked above", () => {
    expectCatalogued(connections, [], ["arbConnection"]);
  });

  it("mentionedPorts: container ports, each rule port and its neighbours, range ends and just past them, and 80", () => {
    expect(connections.mentionedPorts({ pods, policies: [policy] })).toEqual([
      80, 442, 443, 444, 999, 1000, 1010, 1011, 8080,
    ]);
    expect(connections.mentionedPorts({ pods: [], policies: [] })).toEqual([80]);
  });

  it("addressCandidates: node IPs (also IPv4-mapped), ipBlock edges, outside addresses, never a pod's own IP", () => {
    const candidates = connections.addressCandidates({ pods, policies: [policy] });
    // 10.0.0.5, the second address of the cidr, is pod x/a's; 10.0.0.7 ends both the cidr and the except.
    expect(candidates).toEqual([
      "10.1.0.1",
      "::ffff:10.1.0.1",
      "10.1.0.2",
      "::ffff:10.1.0.2",
      "10.0.0.4",
      "10.0.0.7",
      "10.0.0.6",
      "203.0.113.9",
      "2001:db8::9",
    ]);
    expect(candidates).not.toContain("10.0.0.5");
  });
});
