// The policy engine's public shapes (src/networking/evaluate/policy/types.ts) against what
// createPolicyEngine answers: PROTOCOLS is the Protocol type's values, and each answer (Decision,
// TruthTableResult, TruthMatrix, PolicyDiff) has exactly its documented fields and keeps the
// promises its documentation makes: TCP by default, a port name resolved to its number, a table
// whose keys are only its pods, a matrix that agrees with its own per-direction answers, and a
// diff over all three protocols by default.

import { describe, expect, it } from "vitest";
import {
  create,
  createPolicyEngine,
  fromJson,
  NetworkPolicySchema,
  PROTOCOLS as PUBLIC_PROTOCOLS,
  validate,
  type ClusterPod,
  type JsonObject,
  type NetworkPolicy,
  type Verdict,
} from "../../../../src/networking/index.js";
import { PROTOCOLS } from "../../../../src/networking/evaluate/policy/types.js";

const VERDICTS: readonly Verdict[] = [
  "not-applicable",
  "not-isolated",
  "allowed-by-rule",
  "denied",
  "node-local",
  "self",
];
const policy = (name: string, spec: JsonObject): NetworkPolicy =>
  fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name, namespace: "web" },
    spec,
  }) as NetworkPolicy;

const pods: ClusterPod[] = [
  { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
  { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
];
const denyIn = policy("deny-in", { podSelector: {}, policyTypes: ["Ingress"] });
const allowHttp = policy("allow-http", {
  podSelector: { matchLabels: { app: "b" } },
  ingress: [{ from: [{ podSelector: { matchLabels: { app: "a" } } }], ports: [{ port: "http" }] }],
});
const engine = createPolicyEngine({ namespaces: [{ name: "web" }], pods, policies: [denyIn, allowHttp] });
const open = createPolicyEngine({ namespaces: [{ name: "web" }], pods, policies: [] });

describe("Protocol and PROTOCOLS", () => {
  it("clusterwire/networking exports this very list, which holds exactly the values validate accepts for a NetworkPolicy port", () => {
    expect(PUBLIC_PROTOCOLS).toBe(PROTOCOLS);
    const policy = (protocol: string) =>
      create(NetworkPolicySchema, {
        metadata: { name: "p", namespace: "web" },
        spec: { podSelector: {}, policyTypes: ["Ingress"], ingress: [{ ports: [{ protocol }] }] },
      });
    for (const protocol of PROTOCOLS) expect(validate(policy(protocol)), protocol).toEqual([]);
    for (const protocol of ["ICMP", "tcp", ""]) {
      expect(
        validate(policy(protocol)).map((e) => e.field),
        protocol,
      ).toEqual(["spec.ingress[0].ports[0].protocol"]);
    }
  });

  it("PROTOCOLS is every protocol, frozen, and each is judged as given; none given is TCP", () => {
    expect(PROTOCOLS).toEqual(["TCP", "UDP", "SCTP"]);
    expect(Object.isFrozen(PROTOCOLS)).toBe(true);
    for (const protocol of PROTOCOLS)
      expect(engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, protocol, port: 8080 }).protocol).toBe(
        protocol,
      );
    expect(engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: 8080 }).protocol).toBe("TCP");
  });
});

describe("Decision", () => {
  it("has exactly its fields; a port name is answered as its number; allowed is both directions allowing", () => {
    const d = engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: "http" });
    expect(Object.keys(d).sort()).toEqual(["allowed", "egress", "ingress", "port", "protocol", "skipped"]);
    expect(d.port).toBe(8080);
    for (const direction of [d.egress, d.ingress])
      expect(Object.keys(direction).sort()).toEqual(["policies", "verdict"]);
    expect(d.ingress).toEqual({ verdict: "allowed-by-rule", policies: [{ policy: "web/allow-http", rules: [0] }] });
    expect(d.egress.verdict).toBe("not-isolated");
    expect(d.allowed).toBe(true);
    const denied = engine.evaluate({ from: { pod: "web/b" }, to: { pod: "web/a" }, port: 80 });
    expect(denied.ingress.verdict).toBe("denied");
    expect(denied.allowed).toBe(false);
  });

  it("every verdict given is one Verdict names", () => {
    const seen = new Set<string>();
    for (const from of [{ pod: "web/a" }, { pod: "web/b" }, { ip: "192.0.2.1" }])
      for (const to of [{ pod: "web/a" }, { pod: "web/b" }, { ip: "192.0.2.2" }]) {
        const d = engine.evaluate({ from, to, port: 8080 });
        seen.add(d.egress.verdict).add(d.ingress.verdict);
      }
    expect([...seen].filter((v) => !VERDICTS.includes(v as Verdict))).toEqual([]);
    expect(seen.size).toBeGreaterThan(3);
  });
});

describe("TruthTableResult", () => {
  it("keys are exactly the pods, each row every pod; skipped and unresolved are there but not enumerable", () => {
    const table = engine.truthTable({ port: 8080 });
    expect(Object.keys(table)).toEqual(engine.pods);
    for (const row of Object.values(table)) expect(Object.keys(row)).toEqual(engine.pods);
    for (const key of ["skipped", "unresolved"] as const) {
      expect(Object.getOwnPropertyDescriptor(table, key)?.enumerable).toBe(false);
      expect(table[key]).toEqual([]);
    }
    expect(JSON.parse(JSON.stringify(table))).toEqual({
      "web/a": { "web/a": "allow", "web/b": "allow" },
      "web/b": { "web/a": "deny", "web/b": "allow" },
    });
  });

  it("a port name: the pods that lack it are unresolved, their columns left out, their rows kept", () => {
    const table = engine.truthTable({ protocol: "TCP", port: "http" });
    expect(table.unresolved).toEqual(["web/a"]);
    expect(Object.keys(table)).toEqual(["web/a", "web/b"]);
    for (const row of Object.values(table)) expect(Object.keys(row)).toEqual(["web/b"]);
  });
});

describe("TruthMatrix", () => {
  it("echoes its query, indexes the pods, and each cell is its two directions together", () => {
    const m = engine.matrix({ port: 8080 });
    expect(m.pods).toEqual(engine.pods);
    expect([m.protocol, m.port]).toEqual(["TCP", 8080]);
    let allowed = 0;
    for (let from = 0; from < m.pods.length; from++)
      for (let to = 0; to < m.pods.length; to++) {
        expect(m.allowed(from, to)).toBe(m.egressAllowed(from, to) && m.ingressAllowed(from, to));
        const d = engine.evaluate({ from: { pod: m.pods[from]! }, to: { pod: m.pods[to]! }, port: 8080 });
        expect(m.allowed(from, to)).toBe(d.allowed);
        if (m.allowed(from, to)) allowed++;
      }
    expect(m.countAllowed()).toBe(allowed);
    expect(m.skipped).toEqual([]);
  });
});

describe("PolicyDiff and ConnectionChange", () => {
  it("all three protocols by default, each change an inclusive port range with its before and after", () => {
    const diff = open.diff(createPolicyEngine({ namespaces: [{ name: "web" }], pods, policies: [denyIn] }));
    expect(Object.keys(diff).sort()).toEqual(["addedPods", "changes", "removedPods", "skipped"]);
    expect(diff.skipped).toEqual({ before: [], after: [] });
    expect([diff.addedPods, diff.removedPods]).toEqual([[], []]);
    const fields = ["after", "before", "from", "ports", "protocol", "to"];
    for (const c of diff.changes) expect(Object.keys(c).sort()).toEqual(fields);
    // Self traffic is always allowed (E13): only the pairs of two pods change.
    const pairs = [
      ["web/a", "web/b"],
      ["web/b", "web/a"],
    ];
    expect(diff.changes.map((c) => [c.from, c.to, c.protocol, c.ports, c.before, c.after])).toEqual(
      pairs.flatMap(([from, to]) => PROTOCOLS.map((p) => [from, to, p, { from: 1, to: 65535 }, "allow", "deny"])),
    );
  });

  it("options: only the protocols and ports asked for", () => {
    const diff = open.diff(createPolicyEngine({ namespaces: [{ name: "web" }], pods, policies: [denyIn] }), {
      protocols: ["UDP"],
      ports: [53],
    });
    expect(new Set(diff.changes.map((c) => c.protocol))).toEqual(new Set(["UDP"]));
    for (const c of diff.changes) expect(c.ports).toEqual({ from: 53, to: 53 });
  });
});
