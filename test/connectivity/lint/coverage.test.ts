// Whether rules admit what another admits, per selected workload: uniform ports, named ports on
// the subject (ingress) or on each destination (egress), unions of rules, a subject's own
// traffic set aside; and the ports open to a whole set of peers.

import { describe, expect, it } from "vitest";
import { emptyBits, members } from "../../../src/connectivity/lint/bitset.js";
import {
  type Admission,
  coveredFor,
  ingressPortsOn,
  portsOpenToAll,
  uncovered,
} from "../../../src/connectivity/lint/coverage.js";
import { buildModel, type LintModel } from "../../../src/connectivity/lint/model.js";
import {
  analyzeConnectivity,
  type ClusterWorkload,
  type ConnectivityInput,
  formatConnectionSet,
  fromJson,
  type NetworkPolicy,
} from "../../../src/networking/index.js";

function model(workloads: ClusterWorkload[], specs: object[]): LintModel {
  const policies = specs.map(
    (spec, i) =>
      fromJson({
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        metadata: { namespace: "ns", name: `p${i}` },
        spec,
      } as never) as NetworkPolicy,
  );
  const input: ConnectivityInput = { namespaces: [{ name: "ns" }], workloads, policies };
  return buildModel(analyzeConnectivity(input), input);
}

const w = (name: string, ports?: { name: string; containerPort: number }[]): ClusterWorkload => ({
  namespace: "ns",
  kind: "Deployment",
  name,
  labels: { app: name },
  ...(ports !== undefined ? { ports } : {}),
});
/** The peers `uncovered` finds, as a list. */
function missing(
  m: LintModel,
  target: Admission,
  family: Admission[],
  direction: "ingress" | "egress",
  subject: number,
): number[] {
  const out = emptyBits(m.size);
  uncovered(m, target, family, direction, subject, out);
  return members(out);
}

const app = (name: string) => ({ podSelector: { matchLabels: { app: name } } });

describe("uncovered and coveredFor", () => {
  it("finds the peers a union of rules covers that no single rule does", () => {
    const m = model(
      [w("a"), w("b"), w("c")],
      [
        {
          podSelector: app("c").podSelector,
          ingress: [
            { from: [app("a"), app("b")], ports: [{ port: 80 }] },
            { from: [app("a")], ports: [{ port: 80 }] },
            { from: [app("b")], ports: [{ port: 80 }, { port: 81 }] },
          ],
        },
      ],
    );
    const [both, onlyA, onlyB] = m.policies[0]!.ingress!;
    expect(missing(m, both!, [onlyA!], "ingress", 2)).toEqual([1]);
    expect(missing(m, both!, [onlyA!, onlyB!], "ingress", 2)).toEqual([]);
    expect(coveredFor(m, [both!], [onlyA!, onlyB!], "ingress", [2])).toBe(true);
    expect(coveredFor(m, [onlyB!], [both!], "ingress", [2])).toBe(false);
  });

  it("sets a subject's own traffic aside, for a lone subject only", () => {
    const m = model([w("a"), w("b")], [{ podSelector: {}, ingress: [{ from: [app("a")] }, { from: [app("b")] }] }]);
    const [fromA, fromB] = m.policies[0]!.ingress!;
    // From a to a is no connection; from a to b is.
    expect(coveredFor(m, [fromA!], [fromB!], "ingress", [0])).toBe(true);
    expect(coveredFor(m, [fromA!], [fromB!], "ingress", [1])).toBe(false);
    expect(coveredFor(m, [fromA!], [fromB!], "ingress", [0, 1])).toBe(false);
  });

  it("resolves ingress named ports on the subject", () => {
    const m = model(
      [w("a", [{ name: "http", containerPort: 8080 }]), w("b", [{ name: "http", containerPort: 9090 }]), w("c")],
      [
        {
          podSelector: {},
          ingress: [
            { from: [app("c")], ports: [{ port: "http" }] },
            { from: [app("c")], ports: [{ port: 8080 }] },
          ],
        },
      ],
    );
    const [named, numbered] = m.policies[0]!.ingress!;
    expect(coveredFor(m, [named!], [numbered!], "ingress", [0])).toBe(true);
    expect(coveredFor(m, [named!], [numbered!], "ingress", [1])).toBe(false);
    expect(coveredFor(m, [named!], [numbered!], "ingress", [0, 1])).toBe(false);
    // c declares no "http": nothing to admit there.
    expect(coveredFor(m, [named!], [], "ingress", [2])).toBe(true);
    expect(formatConnectionSet(ingressPortsOn(m, named!, 1))).toBe("TCP 9090");
  });

  it("resolves egress named ports on each destination, and towards addresses not at all", () => {
    const m = model(
      [w("a", [{ name: "http", containerPort: 8080 }]), w("b", [{ name: "http", containerPort: 9090 }]), w("c")],
      [
        {
          podSelector: app("c").podSelector,
          policyTypes: ["Egress"],
          egress: [
            { to: [app("a"), app("b"), { ipBlock: { cidr: "10.0.0.0/8" } }], ports: [{ port: "http" }] },
            { to: [app("a")], ports: [{ port: 8080 }] },
            { to: [app("b")], ports: [{ port: "http" }] },
          ],
        },
      ],
    );
    const [named, toA, toB] = m.policies[0]!.egress!;
    // The addresses get nothing from a named port, so a and b are all there is to cover.
    expect(missing(m, named!, [toA!], "egress", 2)).toEqual([1]);
    expect(coveredFor(m, [named!], [toA!, toB!], "egress", [2])).toBe(true);
    // And back: 8080 to a is what the named port gives a.
    expect(coveredFor(m, [toA!], [named!], "egress", [2])).toBe(true);
  });
});

describe("portsOpenToAll", () => {
  it("gives the ports on which the rules together admit every peer of a set", () => {
    const m = model(
      [w("a"), w("b"), w("c")],
      [
        {
          podSelector: app("c").podSelector,
          ingress: [
            { from: [app("a")], ports: [{ port: 80 }, { port: 443 }] },
            { from: [app("b")], ports: [{ port: 443 }, { port: 8000, endPort: 8080 }] },
            { from: [app("a"), app("b")], ports: [{ port: 8080, endPort: 9000 }] },
          ],
        },
      ],
    );
    const peers = m.ipv4.slice();
    peers.fill(0);
    peers[0] = 0b11; // a and b
    expect(formatConnectionSet(portsOpenToAll(m, peers, m.policies[0]!.ingress!, 2))).toBe("TCP 443,8080-9000");
  });
});
