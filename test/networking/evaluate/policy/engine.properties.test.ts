// The NetworkPolicy engine against the plainly written reference of
// policy-reference.ts on random clusters (cluster-arbitraries.ts): single
// decisions with their explanations, truth tables, packed matrices, diffs and
// input errors. The reference itself is pinned to ../shared/docs/semantics.md §1.2.4 and a
// few single rules first, so it is not only checked against the engine.
//
// CLUSTERWIRE_PROPERTY_RUNS=N sets every property's run count to N (test/support/property-runs.ts; defaults
// keep the file at a few seconds).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createPolicyEngine,
  EvaluatorInputError,
  fromJson,
  toJson,
  validate,
  type ClusterNamespace,
  type ClusterPod,
  type Connection,
  type Decision,
  type NetworkPolicy,
  type PolicyEngine,
  type Protocol,
  type TruthTable,
  type TruthTableResult,
} from "../../../../src/networking/index.js";
import { arbCluster, arbClusterPair, arbConnection, type GeneratedCluster } from "../../../../src/testing/index.js";
import { mentionedPorts } from "../../../../src/testing/clusters/connections.js";
import {
  referenceEvaluate,
  referenceSkipped,
  referenceTruthTable,
  type ReferenceCluster,
} from "../../../support/policy-reference.js";
import { propertyRuns } from "../../../support/property-runs.js";

const PROTOCOLS: readonly Protocol[] = ["TCP", "UDP", "SCTP"];

function policy(namespace: string, name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { namespace, name },
    spec,
  } as never) as NetworkPolicy;
}

const policyJson = (ps: readonly NetworkPolicy[]) =>
  ps.map((p) => {
    const j = toJson(p) as { metadata?: unknown; spec?: unknown };
    return { metadata: j.metadata, spec: j.spec };
  });

/** Runs the check; on failure the message carries the cluster (and a second policy set) as JSON. */
function explained(cluster: ReferenceCluster, check: () => void, otherPolicies?: readonly NetworkPolicy[]): void {
  try {
    check();
  } catch (e) {
    if (e instanceof Error) {
      const shown = {
        namespaces: cluster.namespaces,
        pods: cluster.pods,
        policies: policyJson(cluster.policies),
        ...(otherPolicies !== undefined ? { otherPolicies: policyJson(otherPolicies) } : {}),
      };
      e.message = `${e.message}\ncluster: ${JSON.stringify(shown, null, 1)}`;
    }
    throw e;
  }
}

function keyOf(p: ClusterPod): string {
  return `${p.namespace}/${p.name}`;
}

type Outcome = { readonly value: Decision } | { readonly error: string; readonly path: string };

function outcome(f: () => Decision): Outcome {
  try {
    return { value: f() };
  } catch (e) {
    if (e instanceof EvaluatorInputError) return { error: e.name, path: e.path };
    throw e;
  }
}

// ------------------------------------------------------------------ the reference, pinned to the doc

describe("reference evaluator: ../shared/docs/semantics.md §1.2.4", () => {
  const namespaces: ClusterNamespace[] = [{ name: "x" }, { name: "y" }];
  const pods: ClusterPod[] = [
    { namespace: "x", name: "a", labels: { pod: "a" }, ip: "10.0.0.1", hostIP: "192.168.1.10" },
    { namespace: "x", name: "b", labels: { pod: "b" }, ip: "10.0.0.2", hostIP: "192.168.1.11" },
    { namespace: "y", name: "b", labels: { pod: "b" }, ip: "10.0.1.2", hostIP: "192.168.1.11" },
  ];
  const policies = [
    policy("x", "allow-b", {
      podSelector: { matchLabels: { pod: "a" } },
      ingress: [{ from: [{ podSelector: { matchLabels: { pod: "b" } } }], ports: [{ port: 80 }] }],
    }),
  ];
  const cluster = { namespaces, pods, policies };
  const allowedBy = { verdict: "allowed-by-rule", policies: [{ policy: "x/allow-b", rules: [0] }] };
  const denied = { verdict: "denied", policies: [{ policy: "x/allow-b", rules: [] }] };
  const plain = (verdict: string) => ({ verdict, policies: [] });

  const rows: [string, Connection, Decision][] = [
    [
      "x/b → x/a, TCP 80",
      { from: { pod: "x/b" }, to: { pod: "x/a" }, protocol: "TCP", port: 80 },
      {
        allowed: true,
        protocol: "TCP",
        port: 80,
        egress: plain("not-isolated"),
        ingress: allowedBy,
        skipped: [],
      } as Decision,
    ],
    [
      "y/b → x/a, TCP 80 (podSelector alone is scoped to x)",
      { from: { pod: "y/b" }, to: { pod: "x/a" }, protocol: "TCP", port: 80 },
      {
        allowed: false,
        protocol: "TCP",
        port: 80,
        egress: plain("not-isolated"),
        ingress: denied,
        skipped: [],
      } as Decision,
    ],
    [
      "x/b → x/a, UDP 80 (protocol defaulted to TCP)",
      { from: { pod: "x/b" }, to: { pod: "x/a" }, protocol: "UDP", port: 80 },
      {
        allowed: false,
        protocol: "UDP",
        port: 80,
        egress: plain("not-isolated"),
        ingress: denied,
        skipped: [],
      } as Decision,
    ],
    [
      "x/a's node IP → x/a, TCP 443",
      { from: { ip: "192.168.1.10" }, to: { pod: "x/a" }, port: 443 },
      {
        allowed: true,
        protocol: "TCP",
        port: 443,
        egress: plain("not-applicable"),
        ingress: plain("node-local"),
        skipped: [],
      } as Decision,
    ],
    [
      "x/a → x/a, TCP 80",
      { from: { pod: "x/a" }, to: { pod: "x/a" }, protocol: "TCP", port: 80 },
      {
        allowed: true,
        protocol: "TCP",
        port: 80,
        egress: plain("self"),
        ingress: plain("self"),
        skipped: [],
      } as Decision,
    ],
    [
      "x/a → 203.0.113.9, TCP 443",
      { from: { pod: "x/a" }, to: { ip: "203.0.113.9" }, protocol: "TCP", port: 443 },
      {
        allowed: true,
        protocol: "TCP",
        port: 443,
        egress: plain("not-isolated"),
        ingress: plain("not-applicable"),
        skipped: [],
      } as Decision,
    ],
  ];

  for (const [name, connection, want] of rows) {
    it(name, () => {
      expect(referenceEvaluate(cluster, connection)).toStrictEqual(want);
      expect(createPolicyEngine(cluster).evaluate(connection)).toStrictEqual(want);
    });
  }

  it("the truth table at TCP 80 denies only y/b → x/a", () => {
    expect(referenceTruthTable(cluster, { port: 80 })).toStrictEqual({
      "x/a": { "x/a": "allow", "x/b": "allow", "y/b": "allow" },
      "x/b": { "x/a": "allow", "x/b": "allow", "y/b": "allow" },
      "y/b": { "x/a": "deny", "x/b": "allow", "y/b": "allow" },
    });
  });

  it("a port name resolves on each destination; pods without it get no column", () => {
    const named = {
      ...cluster,
      pods: [
        { ...pods[0]!, ports: [{ name: "web", containerPort: 80 }] },
        { ...pods[1]!, ports: [{ name: "web", containerPort: 8080 }] },
        pods[2]!,
      ],
    };
    const t = referenceTruthTable(named, { port: "web" });
    // x/a's web is 80, which admits x/b only; x/b's web is 8080 and x/b is not isolated.
    expect(t).toStrictEqual({
      "x/a": { "x/a": "allow", "x/b": "allow" },
      "x/b": { "x/a": "allow", "x/b": "allow" },
      "y/b": { "x/a": "deny", "x/b": "allow" },
    });
    expect([t.unresolved, t.skipped]).toStrictEqual([["y/b"], []]);
    expect(() => referenceTruthTable(named, { protocol: "UDP", port: "web" })).toThrow(EvaluatorInputError);
  });

  it("a policy validate() rejects takes no part, and every answer lists it", () => {
    const broken = policy("x", "broken", { podSelector: {}, ingress: [{ ports: [{ port: 70000 }] }] });
    const spoiled = { ...cluster, policies: [broken, ...policies] };
    const skipped = [{ kind: "NetworkPolicy", name: "x/broken", index: 0, errors: validate(broken) }];
    expect(referenceSkipped(spoiled)).toStrictEqual(skipped);
    const c: Connection = { from: { pod: "x/b" }, to: { pod: "x/a" }, port: 80 };
    expect(referenceEvaluate(spoiled, c)).toStrictEqual({ ...referenceEvaluate(cluster, c), skipped });
    expect(referenceTruthTable(spoiled, { port: 80 }).skipped).toStrictEqual(skipped);
  });
});

describe("reference evaluator: single rules", () => {
  const namespaces: ClusterNamespace[] = [{ name: "x", labels: { team: "t" } }, { name: "y" }];
  const pods: ClusterPod[] = [
    {
      namespace: "x",
      name: "a",
      ip: "10.0.0.1",
      hostIP: "10.1.0.1",
      ports: [{ name: "dns", containerPort: 53, protocol: "UDP" }],
    },
    { namespace: "y", name: "b", ip: "fd00::2", hostIP: "fd00:1::1" },
    { namespace: "y", name: "node", ip: "10.1.0.1", hostNetwork: true },
  ];
  const evaluate = (policies: NetworkPolicy[], c: Connection) => referenceEvaluate({ namespaces, pods, policies }, c);

  it("E1: egress: [] adds no Egress type, egress: [{}] does", () => {
    const c: Connection = { from: { pod: "x/a" }, to: { pod: "y/b" }, port: 80 };
    expect(evaluate([policy("x", "p", { egress: [] })], c).egress.verdict).toBe("not-isolated");
    expect(evaluate([policy("x", "p", { egress: [{}] })], c).egress).toStrictEqual({
      verdict: "allowed-by-rule",
      policies: [{ policy: "x/p", rules: [0] }],
    });
    // The Ingress type is always there: an egress-only policy without policyTypes closes ingress too.
    expect(
      evaluate([policy("x", "p", { egress: [{}] })], { from: { pod: "y/b" }, to: { pod: "x/a" }, port: 80 }).ingress,
    ).toStrictEqual({
      verdict: "denied",
      policies: [{ policy: "x/p", rules: [] }],
    });
  });

  it("E7: an IPv4 0.0.0.0/0 does not cover an IPv6 pod; ::/0 does", () => {
    const to = (cidr: string) => [
      policy("x", "p", { policyTypes: ["Egress"], egress: [{ to: [{ ipBlock: { cidr } }] }] }),
    ];
    const c: Connection = { from: { pod: "x/a" }, to: { pod: "y/b" }, port: 80 };
    expect(evaluate(to("0.0.0.0/0"), c).allowed).toBe(false);
    expect(evaluate(to("::/0"), c).allowed).toBe(true);
    expect(evaluate(to("::/0"), { ...c, to: { ip: "203.0.113.9" } }).allowed).toBe(false);
  });

  it("E7: except blocks are cut out; IPv4-mapped networks are IPv4", () => {
    const block = (ipBlock: object) => [policy("x", "p", { policyTypes: ["Egress"], egress: [{ to: [{ ipBlock }] }] })];
    const c = (ip: string): Connection => ({ from: { pod: "x/a" }, to: { ip }, port: 80 });
    const p = block({ cidr: "203.0.113.0/24", except: ["203.0.113.8/29"] });
    expect(evaluate(p, c("203.0.113.7")).allowed).toBe(true);
    expect(evaluate(p, c("203.0.113.9")).allowed).toBe(false);
    expect(evaluate(p, c("203.0.113.16")).allowed).toBe(true);
    expect(evaluate(block({ cidr: "::ffff:203.0.113.0/120" }), c("203.0.113.9")).allowed).toBe(true);
    expect(evaluate(block({ cidr: "203.0.113.0/24" }), c("::ffff:203.0.113.9")).allowed).toBe(true);
    expect(evaluate(block({ cidr: "203.000.113.000/24" }), c("203.0.113.9")).allowed).toBe(true);
  });

  it("E8/E9: named ports resolve by name and protocol, also in egress rules", () => {
    const p = [policy("y", "p", { policyTypes: ["Egress"], egress: [{ ports: [{ port: "dns", protocol: "UDP" }] }] })];
    expect(evaluate(p, { from: { pod: "y/b" }, to: { pod: "x/a" }, protocol: "UDP", port: "dns" })).toMatchObject({
      allowed: true,
      port: 53,
      egress: { verdict: "allowed-by-rule" },
    });
    expect(evaluate(p, { from: { pod: "y/b" }, to: { pod: "x/a" }, protocol: "UDP", port: 54 }).allowed).toBe(false);
    expect(evaluate(p, { from: { pod: "y/b" }, to: { ip: "10.9.9.9" }, protocol: "UDP", port: 53 }).allowed).toBe(
      false,
    );
    expect(() => evaluate(p, { from: { pod: "y/b" }, to: { pod: "x/a" }, port: "dns" })).toThrow(EvaluatorInputError);
    expect(() => evaluate(p, { from: { pod: "y/b" }, to: { ip: "10.9.9.9" }, protocol: "UDP", port: "dns" })).toThrow(
      EvaluatorInputError,
    );
  });

  it("E6/E10/E12: selectors see neither hostNetwork pods nor addresses; NotIn holds on a missing key", () => {
    const p = [
      policy("x", "p", {
        ingress: [
          { from: [{ namespaceSelector: { matchExpressions: [{ key: "team", operator: "NotIn", values: ["t"] }] } }] },
        ],
      }),
    ];
    expect(evaluate(p, { from: { pod: "y/b" }, to: { pod: "x/a" }, port: 80 }).ingress.verdict).toBe("allowed-by-rule");
    expect(evaluate(p, { from: { pod: "y/node" }, to: { pod: "y/b" }, port: 80 }).ingress.verdict).toBe("not-isolated");
    // y/node carries x/a's node IP: node-local, whatever the rules say (E11).
    expect(evaluate(p, { from: { pod: "y/node" }, to: { pod: "x/a" }, port: 80 }).ingress.verdict).toBe("node-local");
    expect(evaluate(p, { from: { ip: "10.9.9.9" }, to: { pod: "x/a" }, port: 80 }).ingress.verdict).toBe("denied");
  });

  it("E11: egress to the node gets no exception; E12: an ipBlock covers a hostNetwork pod", () => {
    const p = [policy("x", "p", { policyTypes: ["Egress"], egress: [{ to: [{ ipBlock: { cidr: "10.1.0.0/24" } }] }] })];
    expect(
      evaluate([policy("x", "p", { policyTypes: ["Egress"] })], {
        from: { pod: "x/a" },
        to: { ip: "10.1.0.1" },
        port: 80,
      }).allowed,
    ).toBe(false);
    expect(evaluate(p, { from: { pod: "x/a" }, to: { pod: "y/node" }, port: 80 })).toStrictEqual({
      allowed: true,
      protocol: "TCP",
      port: 80,
      egress: { verdict: "allowed-by-rule", policies: [{ policy: "x/p", rules: [0] }] },
      ingress: { verdict: "not-applicable", policies: [] },
      skipped: [],
    });
  });
});

// ------------------------------------------------------------------ engine against reference

describe("policy engine agrees with the reference", () => {
  const withConnections = arbCluster().chain((c) =>
    fc.tuple(fc.constant(c), fc.array(arbConnection(c), { minLength: 1, maxLength: 25 })),
  );

  it("evaluate() deep-equals the reference, explanations included", () => {
    fc.assert(
      fc.property(withConnections, ([cluster, connections]) => {
        explained(cluster, () => {
          const engine = createPolicyEngine(cluster);
          expect(engine.skipped).toStrictEqual([]);
          expect(engine.pods).toStrictEqual(cluster.pods.map(keyOf));
          for (const c of connections) {
            expect(engine.evaluate(c), JSON.stringify(c)).toStrictEqual(referenceEvaluate(cluster, c));
          }
        });
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  /** The ports a table is checked at: up to six the cluster mentions, and two anywhere. */
  const tablePoints = (cluster: GeneratedCluster) => {
    const mentioned = mentionedPorts(cluster);
    return fc.tuple(
      fc.shuffledSubarray(mentioned, { maxLength: Math.min(6, mentioned.length) }),
      fc.array(fc.integer({ min: 1, max: 65535 }), { maxLength: 2 }),
    );
  };

  it("truthTable() and matrix() match the reference for every protocol", () => {
    fc.assert(
      fc.property(
        arbCluster().chain((c) => fc.tuple(fc.constant(c), tablePoints(c))),
        ([cluster, [mentioned, random]]) => {
          explained(cluster, () => {
            const engine = createPolicyEngine(cluster);
            const keys = cluster.pods.map(keyOf);
            for (const port of [...mentioned, ...random]) {
              for (const protocol of PROTOCOLS) {
                const at = `${protocol} ${port}`;
                const want = referenceTruthTable(cluster, { protocol, port });
                expect(engine.truthTable({ protocol, port }), at).toStrictEqual(want);
                if (protocol === "TCP")
                  expect(engine.truthTable({ port }), `${at} (protocol omitted)`).toStrictEqual(want);

                const m = engine.matrix({ protocol, port });
                expect([m.pods, m.protocol, m.port]).toStrictEqual([keys, protocol, port]);
                let count = 0;
                keys.forEach((from, i) => {
                  keys.forEach((to, j) => {
                    const d = referenceEvaluate(cluster, { from: { pod: from }, to: { pod: to }, protocol, port });
                    const cell = `${at} ${from} → ${to}`;
                    expect(m.allowed(i, j), cell).toBe(want[from]![to] === "allow");
                    expect(m.egressAllowed(i, j), `${cell} egress`).toBe(d.egress.verdict !== "denied");
                    expect(m.ingressAllowed(i, j), `${cell} ingress`).toBe(d.ingress.verdict !== "denied");
                    if (d.allowed) count++;
                  });
                });
                expect(m.countAllowed(), at).toBe(count);
              }
            }
          });
        },
      ),
      { numRuns: propertyRuns(80) },
    );
  });

  /** The cells whose verdict differs between two reference tables. */
  function differing(before: TruthTable, after: TruthTable): string[] {
    const out: string[] = [];
    for (const [from, row] of Object.entries(before)) {
      for (const [to, cell] of Object.entries(row)) {
        const other = after[from]?.[to];
        if (other !== undefined && other !== cell) out.push(`${from} → ${to}: ${cell} → ${other}`);
      }
    }
    return out.sort();
  }

  it("diff() lists exactly the cells that differ between the reference tables", () => {
    fc.assert(
      fc.property(arbClusterPair(), fc.array(fc.integer({ min: 1, max: 65535 }), { maxLength: 2 }), (pair, random) => {
        const before: ReferenceCluster = { namespaces: pair.namespaces, pods: pair.pods, policies: pair.policies };
        const after: ReferenceCluster = { namespaces: pair.namespaces, pods: pair.pods, policies: pair.otherPolicies };
        explained(
          before,
          () => {
            const a: PolicyEngine = createPolicyEngine(before);
            const b: PolicyEngine = createPolicyEngine(after);
            expect([a.skipped, b.skipped]).toStrictEqual([[], []]);
            const diff = a.diff(b);
            expect([diff.removedPods, diff.addedPods]).toStrictEqual([[], []]);

            // Sorted by source and destination (in pod order), protocol (TCP, UDP, SCTP), then port.
            const podOrder = new Map(a.pods.map((k, i) => [k, i]));
            const rank = (ch: (typeof diff.changes)[number]) =>
              [podOrder.get(ch.from)!, podOrder.get(ch.to)!, PROTOCOLS.indexOf(ch.protocol), ch.ports.from] as const;
            for (let i = 1; i < diff.changes.length; i++) {
              const [x, y] = [rank(diff.changes[i - 1]!), rank(diff.changes[i]!)];
              const cmp = x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3];
              expect(cmp, `changes[${i - 1}] and [${i}] out of order`).toBeLessThan(0);
            }

            // One change per cell and port: ranges of the same cell and protocol never overlap.
            const byCell = new Map<string, { from: number; to: number }[]>();
            for (const ch of diff.changes) {
              expect(ch.ports.from, JSON.stringify(ch)).toBeLessThanOrEqual(ch.ports.to);
              expect(ch.before, JSON.stringify(ch)).not.toBe(ch.after);
              const k = `${ch.from} ${ch.to} ${ch.protocol}`;
              byCell.set(k, [...(byCell.get(k) ?? []), ch.ports]);
            }
            for (const [k, ranges] of byCell) {
              const sorted = [...ranges].sort((x, y) => x.from - y.from);
              for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.from, k).toBeGreaterThan(sorted[i - 1]!.to);
            }

            // Points: ports either side mentions, both ends of up to eight changes, random ports.
            const points = new Map<string, [Protocol, number]>();
            const addPoint = (protocol: Protocol, port: number) => points.set(`${protocol} ${port}`, [protocol, port]);
            for (const port of [...mentionedPorts(before), ...mentionedPorts(after)].slice(0, 6).concat(random)) {
              for (const protocol of PROTOCOLS) addPoint(protocol, port);
            }
            for (const ch of diff.changes.slice(0, 8)) {
              addPoint(ch.protocol, ch.ports.from);
              addPoint(ch.protocol, ch.ports.to);
            }
            for (const [protocol, port] of points.values()) {
              const want = differing(
                referenceTruthTable(before, { protocol, port }),
                referenceTruthTable(after, { protocol, port }),
              );
              const got = diff.changes
                .filter((ch) => ch.protocol === protocol && ch.ports.from <= port && port <= ch.ports.to)
                .map((ch) => `${ch.from} → ${ch.to}: ${ch.before} → ${ch.after}`)
                .sort();
              expect(got, `diff() at ${protocol} ${port}`).toStrictEqual(want);
              // Restricted to the point, every change must still hold there.
              const only = a.diff(b, { protocols: [protocol], ports: [port] });
              for (const ch of only.changes) {
                expect(ch.protocol).toBe(protocol);
                expect(ch.ports.from <= port && port <= ch.ports.to, JSON.stringify(ch)).toBe(true);
              }
              expect(
                only.changes.map((ch) => `${ch.from} → ${ch.to}: ${ch.before} → ${ch.after}`).sort(),
                `diff({ports: [${port}]}) at ${protocol}`,
              ).toStrictEqual(want);
            }
          },
          pair.otherPolicies,
        );
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it("input errors agree: both throw EvaluatorInputError at the same path", () => {
    const bad = (cluster: GeneratedCluster) => {
      const keys = cluster.pods.map(keyOf);
      const pod =
        keys.length > 0 ? fc.constantFrom(...keys).map((k) => ({ pod: k })) : fc.constant({ ip: "198.51.100.1" });
      return fc.oneof(
        // A name the destination does not declare for the protocol (E9), or a name to an address.
        fc.record({
          from: pod,
          to: fc.oneof(pod, fc.constant({ ip: "198.51.100.7" })),
          protocol: fc.constantFrom<Protocol>(...PROTOCOLS),
          port: fc.constantFrom("nope", "http", "dns", "metrics"),
        }),
        // Unknown pods, unparsable addresses, out-of-range port numbers.
        fc.record({
          from: fc.oneof(pod, fc.constantFrom({ pod: "nowhere/zz" }, { ip: "10.0.0.256" }, { ip: "fd00::1::2" })),
          to: fc.oneof(pod, fc.constantFrom({ pod: "x" }, { ip: "" })),
          port: fc.constantFrom<number | string>(0, 65536, 80.5, 80, ""),
        }),
      ) as fc.Arbitrary<Connection>;
    };
    fc.assert(
      fc.property(
        arbCluster().chain((c) => fc.tuple(fc.constant(c), fc.array(bad(c), { minLength: 1, maxLength: 10 }))),
        ([cluster, connections]) => {
          explained(cluster, () => {
            const engine = createPolicyEngine(cluster);
            for (const c of connections) {
              expect(
                outcome(() => engine.evaluate(c)),
                JSON.stringify(c),
              ).toStrictEqual(outcome(() => referenceEvaluate(cluster, c)));
            }
          });
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });
});

// ------------------------------------------------------------------ port names and skipped policies

/** What a table call gives: the cells and what the table says it left out, or the input error. */
function tableOutcome(f: () => TruthTableResult): unknown {
  try {
    const t = f();
    return { table: t, unresolved: t.unresolved, skipped: t.skipped };
  } catch (e) {
    if (e instanceof EvaluatorInputError) return { error: e.name, path: e.path };
    throw e;
  }
}

/** Port names worth a table: up to three the pods declare, and one none does. */
function namesOf(cluster: GeneratedCluster): fc.Arbitrary<string[]> {
  const declared = new Set<string>();
  for (const p of cluster.pods) for (const d of p.ports ?? []) if (d.name !== undefined) declared.add(d.name);
  const names = [...declared];
  return fc.shuffledSubarray(names, { maxLength: Math.min(3, names.length) }).map((n) => [...n, "nope"]);
}

/**
 * The cluster plus a policy that lets ingress into every pod of one pod's
 * namespace on one port only, so that where a name resolves to different
 * ports on different pods, their columns differ.
 */
function withPortGate(cluster: GeneratedCluster, gate: { at: number; port: number }): GeneratedCluster {
  const home = cluster.pods[gate.at % cluster.pods.length]?.namespace;
  if (home === undefined) return cluster;
  const only = policy(home, "port-gate", { podSelector: {}, ingress: [{ ports: [{ port: gate.port }] }] });
  return { ...cluster, policies: [...cluster.policies, only] };
}

describe("truthTable() with a port name agrees with the reference", () => {
  it("columns, cells, unresolved pods and input errors, for every protocol", () => {
    let partial = 0;
    fc.assert(
      fc.property(
        arbCluster().chain((c) =>
          fc.tuple(
            fc.constant(c),
            namesOf(c),
            fc.record({ at: fc.nat(), port: fc.constantFrom(...mentionedPorts(c)) }),
          ),
        ),
        ([generated, names, gate]) => {
          const cluster = withPortGate(generated, gate);
          explained(cluster, () => {
            const engine = createPolicyEngine(cluster);
            for (const port of names) {
              for (const protocol of PROTOCOLS) {
                const got = tableOutcome(() => engine.truthTable({ protocol, port }));
                expect(got, `${protocol} ${port}`).toStrictEqual(
                  tableOutcome(() => referenceTruthTable(cluster, { protocol, port })),
                );
                const unresolved = (got as { unresolved?: readonly string[] }).unresolved ?? [];
                if (unresolved.length > 0 && unresolved.length < cluster.pods.length) partial++;
              }
            }
          });
        },
      ),
      { numRuns: propertyRuns(200) },
    );
    // Tables with some columns and not others must occur, or the property says little.
    expect(partial).toBeGreaterThan(0);
  });
});

/** A policy the engine must leave out: invalid (port 70000), or a later one with an earlier one's name. */
interface Spoiler {
  readonly kind: "invalid" | "duplicate";
  readonly at: number;
  readonly pos: number;
}

const spoilerArb: fc.Arbitrary<Spoiler> = fc.record({
  kind: fc.constantFrom("invalid" as const, "duplicate" as const),
  at: fc.nat(),
  pos: fc.nat(),
});

/**
 * The cluster's policies plus spoilers. Each spoiler, if it were taken, would
 * isolate every pod of its namespace both ways, so using one shows.
 */
function spoil(cluster: GeneratedCluster, spoilers: readonly Spoiler[]): { policies: NetworkPolicy[]; count: number } {
  const policies = [...cluster.policies];
  let count = 0;
  const isolateAll = { podSelector: {}, policyTypes: ["Ingress", "Egress"] };
  spoilers.forEach((s, i) => {
    const original = cluster.policies[s.at % Math.max(1, cluster.policies.length)];
    if (s.kind === "duplicate" && original !== undefined) {
      // Appended, so it comes after the policy whose name it takes.
      const meta = original.metadata;
      policies.push(policy(meta?.namespace || "default", meta?.name ?? "", isolateAll));
    } else {
      const ns = cluster.namespaces[s.at % cluster.namespaces.length]!.name;
      const broken = policy(ns, `spoiled-${i}`, { ...isolateAll, ingress: [{ ports: [{ port: 70000 }] }] });
      policies.splice(s.pos % (policies.length + 1), 0, broken);
    }
    count++;
  });
  return { policies, count };
}

describe("skipped policies take no part, and every answer lists them", () => {
  it("decisions, tables, matrices and diffs match the reference and the cluster without them", () => {
    fc.assert(
      fc.property(
        arbCluster().chain((c) =>
          fc.tuple(
            fc.constant(c),
            fc.array(spoilerArb, { minLength: 1, maxLength: 3 }),
            fc.array(arbConnection(c), { minLength: 1, maxLength: 10 }),
            fc.constantFrom(...mentionedPorts(c)),
          ),
        ),
        ([cluster, spoilers, connections, port]) => {
          const { policies, count } = spoil(cluster, spoilers);
          const spoiled: GeneratedCluster = { ...cluster, policies };
          explained(spoiled, () => {
            const engine = createPolicyEngine(spoiled);
            const clean = createPolicyEngine(cluster);
            const skipped = referenceSkipped(spoiled);
            expect(skipped).toHaveLength(count);
            expect(engine.skipped).toStrictEqual(skipped);
            for (const c of connections) {
              const d = engine.evaluate(c);
              expect(d, JSON.stringify(c)).toStrictEqual(referenceEvaluate(spoiled, c));
              expect({ ...d, skipped: [] }, JSON.stringify(c)).toStrictEqual(clean.evaluate(c));
            }
            for (const protocol of PROTOCOLS) {
              const t = engine.truthTable({ protocol, port });
              expect(tableOutcome(() => t)).toStrictEqual(
                tableOutcome(() => referenceTruthTable(spoiled, { protocol, port })),
              );
              expect(t).toStrictEqual(clean.truthTable({ protocol, port }));
              const m = engine.matrix({ protocol, port });
              expect(m.skipped).toStrictEqual(skipped);
              expect(m.countAllowed()).toBe(clean.matrix({ protocol, port }).countAllowed());
            }
            const d = engine.diff(clean, { ports: [port] });
            expect(d.changes).toStrictEqual([]);
            expect(d.skipped).toStrictEqual({ before: skipped, after: [] });
          });
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });
});
