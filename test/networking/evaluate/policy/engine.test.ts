// The NetworkPolicy engine against the rule catalogue of ../shared/docs/semantics.md §1.2
// (restated for users in docs/network-policy.md):
// one block per rule E1..E15, the reason vocabulary and its selection order
// (§1.2.3), the verdict rule, the §1.2.4 example row by row, then truth
// tables, skipped policies, input errors and diffs. Every expected Decision is
// written from the document, policies and rule indexes included.

import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  createPolicyEngine,
  EvaluatorInputError,
  fromJson,
  validate,
  type ClusterNamespace,
  type ClusterPod,
  type ClusterPodPort,
  type Connection,
  type ConnectionChange,
  type Decision,
  type DirectionDecision,
  type Endpoint,
  type JsonObject,
  type NetworkPolicy,
  type PolicyEngine,
  type Protocol,
} from "../../../../src/networking/index.js";

// ---------------------------------------------------------------------------
// helpers

type Labels = Record<string, string>;

function ns(name: string, labels: Labels = { ns: name }): ClusterNamespace {
  return { name, labels };
}

interface PodOptions {
  readonly labels?: Labels;
  readonly ports?: readonly ClusterPodPort[];
  readonly hostIP?: string;
  readonly hostNetwork?: boolean;
}

/** A pod `ns/name`, labelled `pod=<name>` unless labels are given. */
function pod(key: string, ip: string, o: PodOptions = {}): ClusterPod {
  const [namespace, name] = key.split("/") as [string, string];
  return {
    namespace,
    name,
    ip,
    labels: o.labels ?? { pod: name },
    ...(o.ports !== undefined ? { ports: o.ports } : {}),
    ...(o.hostIP !== undefined ? { hostIP: o.hostIP } : {}),
    ...(o.hostNetwork !== undefined ? { hostNetwork: o.hostNetwork } : {}),
  };
}

const tcp = (name: string, containerPort: number): ClusterPodPort => ({ name, containerPort });
const udp = (name: string, containerPort: number): ClusterPodPort => ({ name, containerPort, protocol: "UDP" });

function asPolicy(o: JsonObject): NetworkPolicy {
  const m = fromJson({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", ...o });
  if (m.$typeName !== "k8s.io.api.networking.v1.NetworkPolicy") throw new Error(`not a NetworkPolicy: ${m.$typeName}`);
  return m;
}

/** A NetworkPolicy `ns/name` with the given spec, exactly as written (no defaults applied). */
function np(key: string, spec: JsonObject): NetworkPolicy {
  const [namespace, name] = key.split("/") as [string, string];
  return asPolicy({ metadata: { name, namespace }, spec });
}

const sel = (labels: Labels): JsonObject => ({ matchLabels: labels });
const podSel = (labels: Labels): JsonObject => ({ podSelector: sel(labels) });
const nsSel = (labels: Labels): JsonObject => ({ namespaceSelector: sel(labels) });
const block = (cidr: string, except?: string[]): JsonObject => ({ ipBlock: except ? { cidr, except } : { cidr } });

/** Policy `key` selecting `pod=<target>` with these ingress rules (no policyTypes: defaulted, E1). */
function ingressPolicy(key: string, target: string, ingress: JsonObject[]): NetworkPolicy {
  return np(key, { podSelector: sel({ pod: target }), ingress });
}

/** Policy `key` selecting `pod=<target>`, Egress only, with these egress rules. */
function egressPolicy(key: string, target: string, egress: JsonObject[]): NetworkPolicy {
  return np(key, { podSelector: sel({ pod: target }), policyTypes: ["Egress"], egress });
}

/** Deny everything, both directions, for every pod of a namespace. */
const denyAll = (namespace: string) =>
  np(`${namespace}/deny-all`, { podSelector: {}, policyTypes: ["Ingress", "Egress"] });

// The base cluster. Nodes: 192.168.0.1 (x/a, x/b), 192.168.0.2 (x/c, y/a, y/b,
// and the hostNetwork pod x/h, whose IP is that node's), 192.168.0.3 (z/b).
const NAMESPACES: readonly ClusterNamespace[] = [ns("x"), ns("y"), ns("z")];
const X_A = pod("x/a", "10.0.1.1", {
  hostIP: "192.168.0.1",
  ports: [tcp("http", 80), tcp("https", 443), udp("dns", 53)],
});
const X_B = pod("x/b", "10.0.1.2", { hostIP: "192.168.0.1", ports: [tcp("http", 8080)] });
const X_C = pod("x/c", "10.0.1.3", { hostIP: "192.168.0.2" });
const Y_A = pod("y/a", "10.0.2.1", { hostIP: "192.168.0.2", ports: [tcp("http", 8080)] });
const Y_B = pod("y/b", "10.0.2.2", { hostIP: "192.168.0.2" });
const Z_B = pod("z/b", "10.0.3.2", { hostIP: "192.168.0.3" });
const X_H = pod("x/h", "192.168.0.2", { hostNetwork: true, labels: { pod: "b" }, ports: [tcp("http", 80)] });
const PODS: readonly ClusterPod[] = [X_A, X_B, X_C, Y_A, Y_B, Z_B, X_H];

function engine(
  policies: readonly NetworkPolicy[],
  pods: readonly ClusterPod[] = PODS,
  namespaces: readonly ClusterNamespace[] = NAMESPACES,
): PolicyEngine {
  return createPolicyEngine({ namespaces, pods, policies });
}

/** `x/a` is a pod key (it has a slash); anything else is an address. */
const end = (s: string): Endpoint => (s.includes("/") ? { pod: s } : { ip: s });

function conn(from: string, to: string, port: number | string = 80, protocol?: Protocol): Connection {
  const c = { from: end(from), to: end(to), port };
  return protocol === undefined ? c : { ...c, protocol };
}

const NA: DirectionDecision = { verdict: "not-applicable", policies: [] };
const NI: DirectionDecision = { verdict: "not-isolated", policies: [] };
const SELF: DirectionDecision = { verdict: "self", policies: [] };
const NODE: DirectionDecision = { verdict: "node-local", policies: [] };

/** allowed-by-rule; each argument is [policy, ...matching rule indexes]. */
function byRule(...matches: [string, ...number[]][]): DirectionDecision {
  return { verdict: "allowed-by-rule", policies: matches.map(([policy, ...rules]) => ({ policy, rules })) };
}

function denied(...policies: string[]): DirectionDecision {
  return { verdict: "denied", policies: policies.map((policy) => ({ policy, rules: [] })) };
}

/**
 * Evaluates and compares the whole Decision. `port` is the expected numeric
 * port (the connection's own when numeric). The verdict block below checks
 * `allowed` with literals; here it follows §1.2.3's verdict rule.
 */
function expectDecision(
  e: PolicyEngine,
  c: Connection,
  egress: DirectionDecision,
  ingress: DirectionDecision,
  port: number = typeof c.port === "number" ? c.port : NaN,
): void {
  const expected: Decision = {
    allowed: egress.verdict !== "denied" && ingress.verdict !== "denied",
    protocol: c.protocol ?? "TCP",
    port,
    egress,
    ingress,
    skipped: e.skipped,
  };
  expect(e.evaluate(c), JSON.stringify(c)).toEqual(expected);
}

function inputError(f: () => unknown): EvaluatorInputError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(EvaluatorInputError);
    return err as EvaluatorInputError;
  }
  throw new Error("expected an EvaluatorInputError, nothing was thrown");
}

const expectInputError = (f: () => unknown, path: string) => expect(inputError(f).path).toBe(path);

// ---------------------------------------------------------------------------
// §1.2.2 rules

describe("E1 defaulting", () => {
  it("a missing spec.podSelector selects every pod of the policy's namespace", () => {
    const e = engine([np("x/p", {})]);
    expectDecision(e, conn("y/a", "x/a"), NI, denied("x/p"));
    expectDecision(e, conn("y/a", "x/c"), NI, denied("x/p"));
    // policyTypes defaulted to Ingress only: egress stays open
    expectDecision(e, conn("x/a", "y/a"), NI, NI);
  });

  it("no policyTypes and only ingress rules: Ingress only", () => {
    const e = engine([ingressPolicy("x/p", "a", [{ from: [podSel({ pod: "b" })] }])]);
    expectDecision(e, conn("x/b", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/a", "y/a"), NI, NI);
    expectDecision(e, conn("x/c", "x/a"), NI, denied("x/p"));
  });

  it("egress: [] adds nothing: Ingress only", () => {
    const e = engine([np("x/p", { podSelector: {}, egress: [] })]);
    expectDecision(e, conn("x/a", "y/a"), NI, NI);
    expectDecision(e, conn("x/a", "203.0.113.9"), NI, NA);
    expectDecision(e, conn("y/a", "x/a"), NI, denied("x/p"));
  });

  it("egress: [{}] adds Egress, and Ingress stays (closed, no ingress rules)", () => {
    const e = engine([np("x/p", { podSelector: {}, egress: [{}] })]);
    expectDecision(e, conn("x/a", "y/a"), byRule(["x/p", 0]), NI);
    expectDecision(e, conn("x/a", "203.0.113.9", 9, "UDP"), byRule(["x/p", 0]), NA);
    expectDecision(e, conn("y/a", "x/a"), NI, denied("x/p"));
  });

  it("egress-only rules without policyTypes also close ingress", () => {
    const e = engine([np("x/p", { podSelector: sel({ pod: "a" }), egress: [{ to: [block("10.0.0.0/8")] }] })]);
    expectDecision(e, conn("x/a", "y/a"), byRule(["x/p", 0]), NI);
    expectDecision(e, conn("x/a", "203.0.113.9"), denied("x/p"), NA);
    expectDecision(e, conn("y/a", "x/a"), NI, denied("x/p"));
    expectDecision(e, conn("x/b", "x/a"), NI, denied("x/p"));
  });

  it("policyTypes: [] is the same as missing", () => {
    const e = engine([np("x/p", { podSelector: {}, policyTypes: [], egress: [{ to: [nsSel({ ns: "y" })] }] })]);
    expectDecision(e, conn("x/a", "y/a"), byRule(["x/p", 0]), NI);
    expectDecision(e, conn("x/a", "z/b"), denied("x/p"), NI);
    expectDecision(e, conn("y/a", "x/a"), NI, denied("x/p"));
  });

  it("explicit policyTypes are kept: Egress alone leaves ingress open", () => {
    const e = engine([np("x/p", { podSelector: {}, policyTypes: ["Egress"] })]);
    expectDecision(e, conn("y/a", "x/a"), NI, NI);
    expectDecision(e, conn("x/a", "y/a"), denied("x/p"), NI);
  });

  it("explicit policyTypes: [Ingress] ignores egress rules", () => {
    const e = engine([np("x/p", { podSelector: {}, policyTypes: ["Ingress"], ingress: [{}], egress: [{}] })]);
    expectDecision(e, conn("x/a", "y/a"), NI, NI);
    expectDecision(e, conn("y/a", "x/a"), NI, byRule(["x/p", 0]));
  });

  it("a ports entry without protocol is TCP", () => {
    const e = engine([ingressPolicy("x/p", "a", [{ ports: [{ port: 80 }] }])]);
    expectDecision(e, conn("x/b", "x/a", 80), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/b", "x/a", 80, "TCP"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/b", "x/a", 80, "UDP"), NI, denied("x/p"));
    expectDecision(e, conn("x/b", "x/a", 80, "SCTP"), NI, denied("x/p"));
  });

  it("an explicit protocol is kept", () => {
    const e = engine([ingressPolicy("x/p", "a", [{ ports: [{ protocol: "UDP", port: 53 }] }])]);
    expectDecision(e, conn("x/b", "x/a", 53, "UDP"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/b", "x/a", 53), NI, denied("x/p"));
  });
});

describe("E2 namespace name label", () => {
  const byName = (name: string) =>
    ingressPolicy("x/p", "a", [{ from: [nsSel({ "kubernetes.io/metadata.name": name })] }]);

  it("every namespace carries kubernetes.io/metadata.name=<name>", () => {
    const e = engine([byName("y")]);
    expectDecision(e, conn("y/b", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("y/a", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("z/b", "x/a"), NI, denied("x/p"));
    expectDecision(e, conn("x/b", "x/a"), NI, denied("x/p"));
  });

  it("also when the namespace is listed without labels", () => {
    const e = engine([byName("y")], PODS, [{ name: "x" }, { name: "y" }, { name: "z" }]);
    expectDecision(e, conn("y/b", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("z/b", "x/a"), NI, denied("x/p"));
  });

  it("the name label carries the namespace's own name even if the listed labels say otherwise", () => {
    const namespaces = [ns("x"), ns("y", { "kubernetes.io/metadata.name": "z" }), ns("z")];
    const e = engine([byName("y")], PODS, namespaces);
    expectDecision(e, conn("y/b", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("z/b", "x/a"), NI, denied("x/p"));
  });

  it("the name label works in matchExpressions", () => {
    const e = engine([
      ingressPolicy("x/p", "a", [
        {
          from: [
            {
              namespaceSelector: {
                matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["x"] }],
              },
            },
          ],
        },
      ]),
    ]);
    expectDecision(e, conn("y/b", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("z/b", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/b", "x/a"), NI, denied("x/p"));
  });
});

describe("E3 isolation", () => {
  it("a policy isolates only pods of its own namespace", () => {
    const e = engine([np("y/p", { podSelector: {}, policyTypes: ["Ingress", "Egress"] })]);
    expectDecision(e, conn("x/b", "x/a"), NI, NI);
    expectDecision(e, conn("x/a", "y/a"), NI, denied("y/p"));
    expectDecision(e, conn("y/a", "x/a"), denied("y/p"), NI);
  });

  it("a podSelector matching the labels of pods in other namespaces does not isolate them", () => {
    const e = engine([np("y/p", { podSelector: sel({ pod: "a" }) })]);
    expectDecision(e, conn("x/b", "x/a"), NI, NI);
    expectDecision(e, conn("x/b", "y/a"), NI, denied("y/p"));
  });

  it("a policy in a listed namespace without pods is accepted and isolates nothing", () => {
    const e = engine([np("w/p", { podSelector: {}, policyTypes: ["Ingress", "Egress"] })], PODS, [
      ...NAMESPACES,
      ns("w"),
    ]);
    expect(e.skipped).toEqual([]);
    expectDecision(e, conn("x/b", "x/a"), NI, NI);
    expectDecision(e, conn("y/a", "z/b"), NI, NI);
  });

  it("a policy without namespace is in default", () => {
    const pods = [pod("default/d", "10.0.9.1"), pod("x/a", "10.0.1.1")];
    const noNs = asPolicy({ metadata: { name: "p" }, spec: { podSelector: {} } });
    const e = engine([noNs], pods, [ns("default"), ns("x")]);
    expectDecision(e, conn("x/a", "default/d"), NI, denied("default/p"));
    expectDecision(e, conn("default/d", "x/a"), NI, NI);
  });

  it("a podSelector that selects nothing isolates nothing", () => {
    const e = engine([np("x/p", { podSelector: sel({ pod: "nobody" }), policyTypes: ["Ingress", "Egress"] })]);
    expectDecision(e, conn("y/a", "x/a"), NI, NI);
    expectDecision(e, conn("x/a", "y/a"), NI, NI);
  });

  it("policies are a pure union: either policy's rule admits", () => {
    const p1 = ingressPolicy("x/p1", "a", [{ from: [podSel({ pod: "b" })] }]);
    const p2 = ingressPolicy("x/p2", "a", [{ from: [nsSel({ ns: "y" })] }]);
    const e = engine([p1, p2]);
    expectDecision(e, conn("x/b", "x/a"), NI, byRule(["x/p1", 0]));
    expectDecision(e, conn("y/a", "x/a"), NI, byRule(["x/p2", 0]));
    expectDecision(e, conn("z/b", "x/a"), NI, denied("x/p1", "x/p2"));
    // order is irrelevant to verdicts; the lists follow input order
    const r = engine([p2, p1]);
    expectDecision(r, conn("x/b", "x/a"), NI, byRule(["x/p1", 0]));
    expectDecision(r, conn("y/a", "x/a"), NI, byRule(["x/p2", 0]));
    expectDecision(r, conn("z/b", "x/a"), NI, denied("x/p2", "x/p1"));
  });

  it("every policy and rule that matches is listed", () => {
    const p1 = ingressPolicy("x/p1", "a", [{ from: [podSel({ pod: "b" })] }]);
    const p3 = np("x/p3", { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }, { from: [podSel({ pod: "b" })] }] });
    const e = engine([p1, p3]);
    expectDecision(e, conn("x/b", "x/a", 80), NI, byRule(["x/p1", 0], ["x/p3", 0, 1]));
    expectDecision(e, conn("x/b", "x/a", 81), NI, byRule(["x/p1", 0], ["x/p3", 1]));
    expectDecision(e, conn("y/a", "x/a", 80), NI, byRule(["x/p3", 0]));
    expectDecision(e, conn("y/a", "x/a", 81), NI, denied("x/p1", "x/p3"));
    expectDecision(e, conn("y/a", "x/c", 81), NI, denied("x/p3"));
  });

  it("denied lists every policy isolating that pod in that direction, in input order", () => {
    const e = engine([
      egressPolicy("x/e", "a", []),
      ingressPolicy("x/i1", "a", [{ from: [podSel({ pod: "c" })] }]),
      np("y/any", { podSelector: {} }),
      np("x/i2", { podSelector: {}, ingress: [{ ports: [{ port: 443 }] }] }),
    ]);
    expectDecision(e, conn("x/b", "x/a", 80), NI, denied("x/i1", "x/i2"));
    expectDecision(e, conn("x/a", "y/a", 80), denied("x/e"), denied("y/any"));
    expectDecision(e, conn("x/b", "x/a", 443), NI, byRule(["x/i2", 0]));
    expectDecision(e, conn("x/c", "x/a", 80), NI, byRule(["x/i1", 0]));
  });
});

describe("E4 both directions", () => {
  it("the source's egress denies although the destination admits", () => {
    const e = engine([egressPolicy("x/e", "a", []), np("y/i", { podSelector: {}, ingress: [{}] })]);
    expectDecision(e, conn("x/a", "y/a"), denied("x/e"), byRule(["y/i", 0]));
  });

  it("the destination's ingress denies although the source's egress admits", () => {
    const e = engine([egressPolicy("x/e", "a", [{}]), np("y/i", { podSelector: {} })]);
    expectDecision(e, conn("x/a", "y/a"), byRule(["x/e", 0]), denied("y/i"));
  });

  it("allowed when both checks pass", () => {
    const e = engine([
      egressPolicy("x/e", "a", [{ to: [nsSel({ ns: "y" })] }]),
      np("y/i", { podSelector: {}, ingress: [{ from: [nsSel({ ns: "x" })] }] }),
    ]);
    expectDecision(e, conn("x/a", "y/a"), byRule(["x/e", 0]), byRule(["y/i", 0]));
    expectDecision(e, conn("x/b", "y/a"), NI, byRule(["y/i", 0]));
    expectDecision(e, conn("x/a", "z/b"), denied("x/e"), NI);
  });

  it("a hostNetwork end is not checked", () => {
    const e = engine([denyAll("x")]);
    // x/h (node 192.168.0.2) to z/b (node 192.168.0.3): no node-local involved
    expectDecision(e, conn("x/h", "z/b"), NA, NI);
    expectDecision(e, conn("y/a", "x/h"), NI, NA);
    expectDecision(e, conn("x/h", "x/a"), NA, denied("x/deny-all"));
    expectDecision(e, conn("x/a", "x/h"), denied("x/deny-all"), NA);
  });
});

describe("E5 rule matching", () => {
  it("an empty rule admits everything, addresses and hostNetwork pods included", () => {
    const e = engine([ingressPolicy("x/p", "a", [{}])]);
    expectDecision(e, conn("203.0.113.9", "x/a", 5353, "UDP"), NA, byRule(["x/p", 0]));
    expectDecision(e, conn("z/b", "x/a", 9, "SCTP"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/h", "x/a", 65535), NA, byRule(["x/p", 0]));
    expectDecision(e, conn("2001:db8::1", "x/a", 1), NA, byRule(["x/p", 0]));
  });

  it("an empty or absent rule list admits nothing once isolated", () => {
    const e = engine([np("x/p", { podSelector: sel({ pod: "a" }), policyTypes: ["Ingress"], ingress: [] })]);
    expectDecision(e, conn("x/b", "x/a"), NI, denied("x/p"));
    expectDecision(e, conn("203.0.113.9", "x/a"), NA, denied("x/p"));
  });

  it("a rule with peers and no ports admits every port and protocol of those peers", () => {
    const e = engine([ingressPolicy("x/p", "a", [{ from: [podSel({ pod: "b" })] }])]);
    expectDecision(e, conn("x/b", "x/a", 9999, "UDP"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/b", "x/a", 1, "SCTP"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/c", "x/a", 80), NI, denied("x/p"));
  });

  it("a rule with ports and no peers admits any peer, addresses included", () => {
    const e = engine([ingressPolicy("x/p", "a", [{ ports: [{ port: 443 }] }])]);
    expectDecision(e, conn("203.0.113.9", "x/a", 443), NA, byRule(["x/p", 0]));
    expectDecision(e, conn("z/b", "x/a", 443), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("z/b", "x/a", 80), NI, denied("x/p"));
  });

  it("peers and ports must both match", () => {
    const e = engine([ingressPolicy("x/p", "a", [{ from: [podSel({ pod: "b" })], ports: [{ port: 80 }] }])]);
    expectDecision(e, conn("x/b", "x/a", 80), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/b", "x/a", 81), NI, denied("x/p"));
    expectDecision(e, conn("x/c", "x/a", 80), NI, denied("x/p"));
  });

  it("all matching ingress rules are reported, ascending, and only those", () => {
    const e = engine([
      ingressPolicy("x/p", "a", [
        { from: [nsSel({ ns: "y" })] },
        { ports: [{ port: 80 }] },
        { from: [podSel({ pod: "b" })] },
      ]),
    ]);
    expectDecision(e, conn("x/b", "x/a", 80), NI, byRule(["x/p", 1, 2]));
    expectDecision(e, conn("y/a", "x/a", 80), NI, byRule(["x/p", 0, 1]));
    expectDecision(e, conn("y/a", "x/a", 81), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/c", "x/a", 80), NI, byRule(["x/p", 1]));
    expectDecision(e, conn("x/c", "x/a", 81), NI, denied("x/p"));
  });

  it("egress rules are indexed in spec.egress", () => {
    const e = engine([
      egressPolicy("x/p", "a", [
        { to: [podSel({ pod: "b" })] },
        { ports: [{ protocol: "UDP", port: 53 }] },
        { to: [podSel({ pod: "b" })], ports: [{ protocol: "UDP" }] },
      ]),
    ]);
    expectDecision(e, conn("x/a", "x/b", 80), byRule(["x/p", 0]), NI);
    expectDecision(e, conn("x/a", "x/b", 53, "UDP"), byRule(["x/p", 0, 1, 2]), NI);
    expectDecision(e, conn("x/a", "203.0.113.53", 53, "UDP"), byRule(["x/p", 1]), NA);
    expectDecision(e, conn("x/a", "y/a", 80), denied("x/p"), NI);
  });
});

describe("E6 peers", () => {
  const withPeers = (...peers: JsonObject[]) => engine([ingressPolicy("x/p", "a", [{ from: peers }])]);
  const yes = byRule(["x/p", 0]);
  const no = denied("x/p");

  it("podSelector alone is scoped to the policy's namespace", () => {
    const e = withPeers(podSel({ pod: "b" }));
    expectDecision(e, conn("x/b", "x/a"), NI, yes);
    expectDecision(e, conn("y/b", "x/a"), NI, no);
    expectDecision(e, conn("z/b", "x/a"), NI, no);
  });

  it("namespaceSelector alone admits all pods of matching namespaces", () => {
    const e = withPeers(nsSel({ ns: "y" }));
    expectDecision(e, conn("y/a", "x/a"), NI, yes);
    expectDecision(e, conn("y/b", "x/a"), NI, yes);
    expectDecision(e, conn("x/b", "x/a"), NI, no);
    expectDecision(e, conn("z/b", "x/a"), NI, no);
  });

  it("both selectors in one peer are ANDed", () => {
    const e = withPeers({ ...podSel({ pod: "b" }), ...nsSel({ ns: "y" }) });
    expectDecision(e, conn("y/b", "x/a"), NI, yes);
    expectDecision(e, conn("y/a", "x/a"), NI, no);
    expectDecision(e, conn("x/b", "x/a"), NI, no);
    expectDecision(e, conn("z/b", "x/a"), NI, no);
  });

  it("two peers are ORed", () => {
    const e = withPeers(podSel({ pod: "b" }), nsSel({ ns: "y" }));
    expectDecision(e, conn("x/b", "x/a"), NI, yes);
    expectDecision(e, conn("y/a", "x/a"), NI, yes);
    expectDecision(e, conn("y/b", "x/a"), NI, yes);
    expectDecision(e, conn("z/b", "x/a"), NI, no);
    expectDecision(e, conn("x/c", "x/a"), NI, no);
  });

  it("an empty podSelector alone admits every pod of the policy's namespace", () => {
    const e = withPeers({ podSelector: {} });
    expectDecision(e, conn("x/b", "x/a"), NI, yes);
    expectDecision(e, conn("x/c", "x/a"), NI, yes);
    expectDecision(e, conn("y/a", "x/a"), NI, no);
  });

  it("an empty namespaceSelector alone admits every pod of every namespace", () => {
    const e = withPeers({ namespaceSelector: {} });
    expectDecision(e, conn("y/a", "x/a"), NI, yes);
    expectDecision(e, conn("z/b", "x/a"), NI, yes);
    expectDecision(e, conn("x/c", "x/a"), NI, yes);
    expectDecision(e, conn("203.0.113.9", "x/a"), NA, no);
  });

  it("an empty namespaceSelector with a podSelector admits matching pods anywhere", () => {
    const e = withPeers({ namespaceSelector: {}, ...podSel({ pod: "b" }) });
    expectDecision(e, conn("x/b", "x/a"), NI, yes);
    expectDecision(e, conn("y/b", "x/a"), NI, yes);
    expectDecision(e, conn("z/b", "x/a"), NI, yes);
    expectDecision(e, conn("y/a", "x/a"), NI, no);
  });

  it("selectors never match addresses", () => {
    const e = withPeers({ podSelector: {} }, { namespaceSelector: {} }, { podSelector: {}, namespaceSelector: {} });
    expectDecision(e, conn("203.0.113.9", "x/a"), NA, no);
    expectDecision(e, conn("10.0.1.99", "x/a"), NA, no);
    expectDecision(e, conn("192.168.0.3", "x/a"), NA, no);
  });

  it("selectors never match hostNetwork pods", () => {
    // x/h is in x, labelled pod=b, on another node than x/a
    const e = withPeers(
      { podSelector: {} },
      { namespaceSelector: {} },
      { ...podSel({ pod: "b" }), namespaceSelector: {} },
      podSel({ pod: "b" }),
    );
    expectDecision(e, conn("x/h", "x/a"), NA, no);
    expectDecision(e, conn("x/b", "x/a"), NI, yes);
  });

  it("egress peers follow the same rules", () => {
    const e = engine([egressPolicy("x/q", "a", [{ to: [podSel({ pod: "b" })] }])]);
    expectDecision(e, conn("x/a", "x/b"), byRule(["x/q", 0]), NI);
    expectDecision(e, conn("x/a", "y/b"), denied("x/q"), NI);
    expectDecision(e, conn("x/a", "x/h"), denied("x/q"), NA);
    expectDecision(e, conn("x/a", "203.0.113.9"), denied("x/q"), NA);
  });
});

describe("E7 ipBlock", () => {
  const withBlocks = (...peers: JsonObject[]) => engine([ingressPolicy("x/p", "a", [{ from: peers }])]);
  const yes = byRule(["x/p", 0]);
  const no = denied("x/p");

  it("matches pods by their IP", () => {
    const e = withBlocks(block("10.0.2.0/24"));
    expectDecision(e, conn("y/a", "x/a"), NI, yes);
    expectDecision(e, conn("y/b", "x/a"), NI, yes);
    expectDecision(e, conn("x/b", "x/a"), NI, no);
  });

  it("matches addresses inside the cidr only", () => {
    const e = withBlocks(block("10.0.2.0/24"));
    expectDecision(e, conn("10.0.2.200", "x/a"), NA, yes);
    expectDecision(e, conn("10.0.3.1", "x/a"), NA, no);
    expectDecision(e, conn("10.0.1.255", "x/a"), NA, no);
  });

  it("except blocks are excluded, pods included", () => {
    const e = withBlocks(block("10.0.2.0/24", ["10.0.2.0/31"]));
    expectDecision(e, conn("y/a", "x/a"), NI, no); // 10.0.2.1
    expectDecision(e, conn("y/b", "x/a"), NI, yes); // 10.0.2.2
    expectDecision(e, conn("10.0.2.0", "x/a"), NA, no);
    expectDecision(e, conn("10.0.2.255", "x/a"), NA, yes);
  });

  it("except boundaries", () => {
    const e = withBlocks(block("10.0.2.0/24", ["10.0.2.128/25"]));
    expectDecision(e, conn("10.0.2.127", "x/a"), NA, yes);
    expectDecision(e, conn("10.0.2.128", "x/a"), NA, no);
    expectDecision(e, conn("10.0.2.255", "x/a"), NA, no);
  });

  it("matches hostNetwork pods by their node IP", () => {
    const e = withBlocks(block("192.168.0.2/32"));
    expectDecision(e, conn("x/h", "x/a"), NA, yes);
    const other = withBlocks(block("192.168.0.3/32"));
    expectDecision(other, conn("x/h", "x/a"), NA, no);
    const out = engine([egressPolicy("x/q", "a", [{ to: [block("192.168.0.0/24")] }])]);
    expectDecision(out, conn("x/a", "x/h"), byRule(["x/q", 0]), NA);
    expectDecision(out, conn("x/a", "x/b"), denied("x/q"), NI);
  });

  it("an IPv4 0.0.0.0/0 does not cover IPv6 addresses", () => {
    const e = withBlocks(block("0.0.0.0/0"));
    expectDecision(e, conn("203.0.113.9", "x/a"), NA, yes);
    expectDecision(e, conn("y/a", "x/a"), NI, yes);
    expectDecision(e, conn("2001:db8::1", "x/a"), NA, no);
  });

  it("an IPv6 ::/0 does not cover IPv4 addresses or pods", () => {
    const e = withBlocks(block("::/0"));
    expectDecision(e, conn("2001:db8::1", "x/a"), NA, yes);
    expectDecision(e, conn("203.0.113.9", "x/a"), NA, no);
    expectDecision(e, conn("y/a", "x/a"), NI, no);
  });

  it("IPv6 pods, cidr and except", () => {
    const pods = [pod("x/a", "fd00:1::1"), pod("x/b", "fd00:1::2"), pod("y/a", "fd00:2::1")];
    const e = engine([ingressPolicy("x/p", "a", [{ from: [block("fd00::/16", ["fd00:1::/64"])] }])], pods);
    expectDecision(e, conn("y/a", "x/a"), NI, yes);
    expectDecision(e, conn("x/b", "x/a"), NI, no);
    expectDecision(e, conn("fd00:3::9", "x/a"), NA, yes);
    expectDecision(e, conn("10.0.2.1", "x/a"), NA, no);
  });

  // The doc is silent on IPv4-mapped IPv6; the project parses IPs as Go's net
  // package does (../shared/docs/validation-rules.md: sloppy parsing, mapped forms allowed),
  // where ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
  it("an IPv4-mapped IPv6 address is its IPv4 address", () => {
    const v4 = withBlocks(block("10.0.2.0/24"));
    expectDecision(v4, conn("::ffff:10.0.2.200", "x/a"), NA, yes);
    expectDecision(v4, conn("::ffff:10.0.3.200", "x/a"), NA, no);
    const v6 = withBlocks(block("::/0"));
    expectDecision(v6, conn("::ffff:10.0.2.200", "x/a"), NA, no);
    const mappedCidr = withBlocks(block("::ffff:10.0.2.0/120"));
    expectDecision(mappedCidr, conn("10.0.2.200", "x/a"), NA, yes);
    expectDecision(mappedCidr, conn("y/a", "x/a"), NI, yes);
    expectDecision(mappedCidr, conn("10.0.3.1", "x/a"), NA, no);
  });

  it("a second policy re-allows what another policy's except excluded (pure union)", () => {
    const e = engine([
      ingressPolicy("x/p1", "a", [{ from: [block("10.0.2.0/24", ["10.0.2.0/30"])] }]),
      ingressPolicy("x/p2", "a", [{ from: [block("10.0.2.1/32")] }]),
    ]);
    expectDecision(e, conn("y/a", "x/a"), NI, byRule(["x/p2", 0])); // 10.0.2.1: excepted by p1
    expectDecision(e, conn("y/b", "x/a"), NI, denied("x/p1", "x/p2")); // 10.0.2.2
    expectDecision(e, conn("10.0.2.9", "x/a"), NA, byRule(["x/p1", 0]));
  });

  it("a second peer of the same rule re-allows an excepted address", () => {
    const e = withBlocks(block("10.0.2.0/24", ["10.0.2.0/30"]), block("10.0.2.1/32"));
    expectDecision(e, conn("y/a", "x/a"), NI, yes);
    expectDecision(e, conn("y/b", "x/a"), NI, no);
  });
});

describe("E8 ports", () => {
  const withPorts = (...ports: JsonObject[]) => engine([ingressPolicy("x/p", "a", [{ ports }])]);
  const yes = byRule(["x/p", 0]);
  const no = denied("x/p");

  it("the entry's protocol must equal the connection's", () => {
    const e = withPorts({ protocol: "UDP", port: 53 });
    expectDecision(e, conn("x/b", "x/a", 53, "UDP"), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 53, "TCP"), NI, no);
    expectDecision(e, conn("x/b", "x/a", 53, "SCTP"), NI, no);
  });

  it("no port: every port of that protocol", () => {
    const e = withPorts({ protocol: "SCTP" });
    expectDecision(e, conn("x/b", "x/a", 1, "SCTP"), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 65535, "SCTP"), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 1, "TCP"), NI, no);
    const t = withPorts({});
    expectDecision(t, conn("x/b", "x/a", 12345), NI, yes);
    expectDecision(t, conn("x/b", "x/a", 12345, "UDP"), NI, no);
  });

  it("a numeric port matches that port only", () => {
    const e = withPorts({ port: 80 });
    expectDecision(e, conn("x/b", "x/a", 79), NI, no);
    expectDecision(e, conn("x/b", "x/a", 80), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 81), NI, no);
  });

  it("port..endPort is inclusive at both ends", () => {
    const e = withPorts({ port: 8000, endPort: 8010 });
    expectDecision(e, conn("x/b", "x/a", 7999), NI, no);
    expectDecision(e, conn("x/b", "x/a", 8000), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 8005), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 8010), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 8011), NI, no);
    expectDecision(e, conn("x/b", "x/a", 8005, "UDP"), NI, no);
    const one = withPorts({ port: 8000, endPort: 8000 });
    expectDecision(one, conn("x/b", "x/a", 8000), NI, yes);
    expectDecision(one, conn("x/b", "x/a", 8001), NI, no);
    const top = withPorts({ port: 65534, endPort: 65535 });
    expectDecision(top, conn("x/b", "x/a", 65535), NI, yes);
    expectDecision(top, conn("x/b", "x/a", 65533), NI, no);
  });

  it("several entries are ORed", () => {
    const e = withPorts({ port: 80 }, { protocol: "UDP", port: 53 });
    expectDecision(e, conn("x/b", "x/a", 80), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 53, "UDP"), NI, yes);
    expectDecision(e, conn("x/b", "x/a", 53), NI, no);
    expectDecision(e, conn("x/b", "x/a", 80, "UDP"), NI, no);
  });

  it("a named port in an ingress rule is the destination's own container port", () => {
    // x/a: http=80, x/b: http=8080, x/c: no ports
    const e = engine([np("x/p", { podSelector: {}, ingress: [{ ports: [{ port: "http" }] }] })]);
    expectDecision(e, conn("y/a", "x/a", 80), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("y/a", "x/a", 8080), NI, denied("x/p"));
    expectDecision(e, conn("y/a", "x/b", 8080), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("y/a", "x/b", 80), NI, denied("x/p"));
    expectDecision(e, conn("y/a", "x/c", 80), NI, denied("x/p"));
    const s = withPorts({ port: "https" });
    expectDecision(s, conn("x/b", "x/a", 443), NI, yes);
    expectDecision(s, conn("x/b", "x/a", 80), NI, no);
  });

  it("a named port of another protocol does not match", () => {
    // x/a declares dns=53/UDP and http=80/TCP
    const tcpDns = withPorts({ port: "dns" });
    expectDecision(tcpDns, conn("x/b", "x/a", 53, "UDP"), NI, no);
    expectDecision(tcpDns, conn("x/b", "x/a", 53, "TCP"), NI, no);
    const udpDns = withPorts({ port: "dns", protocol: "UDP" });
    expectDecision(udpDns, conn("x/b", "x/a", 53, "UDP"), NI, yes);
    const udpHttp = withPorts({ port: "http", protocol: "UDP" });
    expectDecision(udpHttp, conn("x/b", "x/a", 80, "UDP"), NI, no);
    expectDecision(udpHttp, conn("x/b", "x/a", 80, "TCP"), NI, no);
  });

  it("a named port in an egress rule is resolved on the destination, never on an address", () => {
    const e = engine([egressPolicy("x/q", "a", [{ ports: [{ port: "http" }] }])]);
    expectDecision(e, conn("x/a", "x/b", 8080), byRule(["x/q", 0]), NI);
    expectDecision(e, conn("x/a", "x/b", 80), denied("x/q"), NI); // 80 is the source's http
    expectDecision(e, conn("x/a", "y/a", 8080), byRule(["x/q", 0]), NI);
    expectDecision(e, conn("x/a", "x/h", 80), byRule(["x/q", 0]), NA); // hostNetwork pods count
    expectDecision(e, conn("x/a", "x/c", 80), denied("x/q"), NI);
    expectDecision(e, conn("x/a", "203.0.113.9", 80), denied("x/q"), NA);
    expectDecision(e, conn("x/a", "192.168.0.2", 80), denied("x/q"), NA); // x/h's IP as an address (E15)
  });
});

describe("E9 connection port given as a name", () => {
  it("is resolved on the destination pod to its containerPort", () => {
    const e = engine([ingressPolicy("x/p", "a", [{ ports: [{ port: 443 }] }])]);
    expectDecision(e, conn("x/b", "x/a", "https"), NI, byRule(["x/p", 0]), 443);
    expectDecision(e, conn("x/b", "x/a", "http"), NI, denied("x/p"), 80);
    expectDecision(e, conn("x/a", "x/b", "http"), NI, NI, 8080);
  });

  it("is resolved by name and protocol", () => {
    const m = pod("x/m", "10.0.1.7", { ports: [tcp("metrics", 9090), udp("metrics", 9091)] });
    const e = engine([], [X_A, m]);
    expectDecision(e, conn("x/a", "x/m", "metrics"), NI, NI, 9090);
    expectDecision(e, conn("x/a", "x/m", "metrics", "TCP"), NI, NI, 9090);
    expectDecision(e, conn("x/a", "x/m", "metrics", "UDP"), NI, NI, 9091);
    expectDecision(e, conn("x/m", "x/a", "dns", "UDP"), NI, NI, 53);
    expectInputError(() => e.evaluate(conn("x/m", "x/a", "dns")), "connection.port");
    expectInputError(() => e.evaluate(conn("x/a", "x/m", "metrics", "SCTP")), "connection.port");
  });

  it("is resolved on the destination, not the source", () => {
    const e = engine([]);
    expectInputError(() => e.evaluate(conn("x/a", "x/c", "http")), "connection.port");
  });

  it("resolves on a hostNetwork destination", () => {
    const e = engine([denyAll("y")]);
    expectDecision(e, conn("z/b", "x/h", "http"), NI, NA, 80);
  });

  it("is an input error with an address destination, even a hostNetwork pod's IP", () => {
    const e = engine([]);
    expectInputError(() => e.evaluate(conn("x/a", "203.0.113.9", "http")), "connection.port");
    expectInputError(() => e.evaluate(conn("x/a", "192.168.0.2", "http")), "connection.port");
  });
});

describe("E10 label selectors", () => {
  const pods = [
    pod("x/t", "10.0.1.10"),
    pod("x/a", "10.0.1.1", { labels: { pod: "a", tier: "web" } }),
    pod("x/b", "10.0.1.2", { labels: { pod: "b", tier: "db" } }),
    pod("x/c", "10.0.1.3", { labels: { pod: "c" } }),
    pod("x/d", "10.0.1.4", { labels: { pod: "d", tier: "" } }),
    pod("x/e", "10.0.1.5", { labels: { pod: "e", tier: "web" } }),
  ];
  /** Which of x/a..x/e a podSelector peer admits into x/t. */
  function admits(selector: JsonObject, expected: Record<string, boolean>) {
    const e = engine([ingressPolicy("x/p", "t", [{ from: [{ podSelector: selector }] }])], pods);
    for (const [src, ok] of Object.entries(expected)) {
      expectDecision(e, conn(`x/${src}`, "x/t"), NI, ok ? byRule(["x/p", 0]) : denied("x/p"));
    }
  }
  const expr = (key: string, operator: string, values?: string[]): JsonObject =>
    values ? { key, operator, values } : { key, operator };

  it("In: key present and value listed", () => {
    admits(
      { matchExpressions: [expr("tier", "In", ["web", "api"])] },
      { a: true, b: false, c: false, d: false, e: true },
    );
  });

  it("NotIn: key missing or value not listed", () => {
    admits({ matchExpressions: [expr("tier", "NotIn", ["web"])] }, { a: false, b: true, c: true, d: true, e: false });
  });

  it("Exists: key present, empty value included", () => {
    admits({ matchExpressions: [expr("tier", "Exists")] }, { a: true, b: true, c: false, d: true, e: true });
  });

  it("DoesNotExist: key missing", () => {
    admits({ matchExpressions: [expr("tier", "DoesNotExist")] }, { a: false, b: false, c: true, d: false, e: false });
  });

  it("a key nobody has: NotIn and DoesNotExist match everyone, In and Exists no one", () => {
    const all = { a: true, b: true, c: true, d: true, e: true };
    const none = { a: false, b: false, c: false, d: false, e: false };
    admits({ matchExpressions: [expr("zone", "NotIn", ["eu"])] }, all);
    admits({ matchExpressions: [expr("zone", "DoesNotExist")] }, all);
    admits({ matchExpressions: [expr("zone", "In", ["eu"])] }, none);
    admits({ matchExpressions: [expr("zone", "Exists")] }, none);
  });

  it("matchLabels and all matchExpressions are ANDed", () => {
    admits(
      { matchLabels: { tier: "web" }, matchExpressions: [expr("pod", "NotIn", ["a"])] },
      { a: false, b: false, c: false, d: false, e: true },
    );
    admits(
      { matchExpressions: [expr("tier", "Exists"), expr("pod", "In", ["b", "c"])] },
      { a: false, b: true, c: false, d: false, e: false },
    );
  });

  it("an empty selector matches everything", () => {
    admits({}, { a: true, b: true, c: true, d: true, e: true });
  });

  it("spec.podSelector with expressions picks the isolated pods", () => {
    const e = engine([np("x/q", { podSelector: { matchExpressions: [expr("tier", "DoesNotExist")] } })], pods);
    expectDecision(e, conn("x/a", "x/c"), NI, denied("x/q"));
    expectDecision(e, conn("x/a", "x/t"), NI, denied("x/q"));
    expectDecision(e, conn("x/c", "x/a"), NI, NI);
    expectDecision(e, conn("x/c", "x/d"), NI, NI);
  });
});

describe("E11 node-local", () => {
  const nodeMate = pod("y/n", "192.168.0.1"); // a normal pod that happens to carry x/a's node IP
  const hostNet1 = pod("y/h1", "192.168.0.1", { hostNetwork: true });
  const noHost = pod("x/nohost", "10.0.1.9");
  const pods = [...PODS, nodeMate, hostNet1, noHost];

  it("an address equal to the destination's hostIP skips the ingress check", () => {
    const e = engine([denyAll("x")], pods);
    expectDecision(e, conn("192.168.0.1", "x/a", 443), NA, NODE);
    expectDecision(e, conn("192.168.0.2", "x/a", 443), NA, denied("x/deny-all"));
  });

  it("a hostNetwork pod on the destination's node skips it too", () => {
    const e = engine([denyAll("x")], pods);
    expectDecision(e, conn("x/h", "x/c"), NA, NODE);
    expectDecision(e, conn("y/h1", "x/a"), NA, NODE);
    expectDecision(e, conn("x/h", "x/a"), NA, denied("x/deny-all"));
  });

  it("a normal pod with the node's IP is not node-local", () => {
    const e = engine([denyAll("x")], pods);
    expectDecision(e, conn("y/n", "x/a"), NI, denied("x/deny-all"));
  });

  it("is reported when the destination is not isolated", () => {
    const e = engine([], pods);
    expectDecision(e, conn("192.168.0.1", "x/a"), NA, NODE);
    expectDecision(e, conn("x/h", "y/a"), NA, NODE);
  });

  it("egress to the node gets no exception", () => {
    const e = engine([denyAll("x")], pods);
    expectDecision(e, conn("x/a", "192.168.0.1"), denied("x/deny-all"), NA);
    expectDecision(e, conn("x/a", "y/h1"), denied("x/deny-all"), NA);
  });

  it("a pod without hostIP has no node", () => {
    const e = engine([denyAll("x")], pods);
    expectDecision(e, conn("192.168.0.1", "x/nohost"), NA, denied("x/deny-all"));
  });

  it("a hostNetwork pod's hostIP, when given, is its ip", () => {
    const h = pod("x/h", "192.168.0.2", { hostNetwork: true, hostIP: "192.168.0.2" });
    const e = engine([denyAll("x")], [X_C, h]);
    expectDecision(e, conn("x/h", "x/c"), NA, NODE);
  });
});

describe("E12 hostNetwork pods", () => {
  it("are never selected by spec.podSelector, so never isolated", () => {
    const e = engine([
      denyAll("x"),
      np("x/b-only", { podSelector: sel({ pod: "b" }), policyTypes: ["Ingress", "Egress"] }),
    ]);
    expectDecision(e, conn("x/h", "z/b"), NA, NI);
    expectDecision(e, conn("z/b", "x/h"), NI, NA);
    expectDecision(e, conn("x/h", "x/b"), NA, denied("x/deny-all", "x/b-only"));
  });

  it("are never matched by peer selectors", () => {
    const e = engine([np("z/p", { podSelector: {}, ingress: [{ from: [{ namespaceSelector: {} }] }] })]);
    expectDecision(e, conn("x/h", "z/b"), NA, denied("z/p"));
    expectDecision(e, conn("y/a", "z/b"), NI, byRule(["z/p", 0]));
  });

  it("carry their node IP, which an ipBlock matches", () => {
    const e = engine([np("z/p", { podSelector: {}, ingress: [{ from: [block("192.168.0.0/30")] }] })]);
    expectDecision(e, conn("x/h", "z/b"), NA, byRule(["z/p", 0]));
    expectDecision(e, conn("y/a", "z/b"), NI, denied("z/p"));
  });
});

describe("E13 self traffic", () => {
  it("is allowed even when the pod is isolated both ways", () => {
    const e = engine([denyAll("x")]);
    expectDecision(e, conn("x/a", "x/a", 80), SELF, SELF);
    expectDecision(e, conn("x/a", "x/a", 9, "UDP"), SELF, SELF);
    expectDecision(e, conn("x/a", "x/a", "https"), SELF, SELF, 443);
  });

  it("names no policy even when a rule would match", () => {
    const e = engine([np("x/p", { podSelector: {}, ingress: [{}], egress: [{}] })]);
    expectDecision(e, conn("x/b", "x/b"), SELF, SELF);
  });

  it("is self without any policy", () => {
    expectDecision(engine([]), conn("y/a", "y/a", 8080), SELF, SELF);
  });
});

describe("E14 address to address", () => {
  it("is allowed, both ends not-applicable", () => {
    const e = engine([denyAll("x"), denyAll("y"), denyAll("z")]);
    expectDecision(e, conn("203.0.113.9", "198.51.100.7"), NA, NA);
    expectDecision(e, conn("192.168.0.2", "192.168.0.1", 22, "UDP"), NA, NA);
    expectDecision(e, conn("2001:db8::1", "2001:db8::2", 443, "SCTP"), NA, NA);
  });
});

describe("E15 addresses are not pods", () => {
  it("an address equal to a hostNetwork pod's IP is still an address", () => {
    const e = engine([egressPolicy("x/q", "a", [{ ports: [{ port: "http" }] }])]);
    expectDecision(e, conn("x/a", "x/h", 80), byRule(["x/q", 0]), NA);
    expectDecision(e, conn("x/a", "192.168.0.2", 80), denied("x/q"), NA);
  });

  it("an address source is matched by ipBlocks only", () => {
    const e = engine([
      ingressPolicy("x/p", "a", [{ from: [{ namespaceSelector: {} }] }, { from: [block("10.0.5.0/24")] }]),
    ]);
    expectDecision(e, conn("10.0.5.5", "x/a"), NA, byRule(["x/p", 1]));
    expectDecision(e, conn("10.0.6.5", "x/a"), NA, denied("x/p"));
    expectDecision(e, conn("y/b", "x/a"), NI, byRule(["x/p", 0]));
  });
});

// ---------------------------------------------------------------------------
// §1.2.3

describe("reason vocabulary and selection order", () => {
  it("not-applicable: an address end, and a hostNetwork pod end", () => {
    const e = engine([denyAll("x"), denyAll("z")]);
    expectDecision(e, conn("203.0.113.9", "z/b"), NA, denied("z/deny-all"));
    expectDecision(e, conn("z/b", "203.0.113.9"), denied("z/deny-all"), NA);
    expectDecision(e, conn("x/h", "y/b"), NA, NODE);
    expectDecision(e, conn("y/b", "x/h"), NI, NA);
  });

  it("not-isolated in both directions", () => {
    expectDecision(engine([]), conn("x/a", "y/a"), NI, NI);
  });

  it("allowed-by-rule in both directions", () => {
    const e = engine([np("x/p", { podSelector: {}, ingress: [{}], egress: [{}] })]);
    expectDecision(e, conn("x/a", "x/b"), byRule(["x/p", 0]), byRule(["x/p", 0]));
  });

  it("denied in both directions", () => {
    const e = engine([denyAll("x")]);
    expectDecision(e, conn("x/a", "x/b"), denied("x/deny-all"), denied("x/deny-all"));
  });

  it("node-local and self", () => {
    const e = engine([]);
    expectDecision(e, conn("192.168.0.1", "x/b"), NA, NODE);
    expectDecision(e, conn("x/b", "x/b"), SELF, SELF);
  });

  it("not-applicable before self: a hostNetwork pod talking to itself", () => {
    const e = engine([denyAll("x")]);
    expectDecision(e, conn("x/h", "x/h"), NA, NA);
    expectDecision(e, conn("x/h", "x/h", "http"), NA, NA, 80);
  });

  it("not-applicable before node-local: the node's address to a hostNetwork pod", () => {
    const e = engine([denyAll("x")]);
    expectDecision(e, conn("192.168.0.2", "x/h"), NA, NA);
  });

  it("self before node-local: a pod whose IP is its own hostIP", () => {
    const s = pod("x/s", "192.168.0.9", { hostIP: "192.168.0.9" });
    const e = engine([denyAll("x")], [s]);
    expectDecision(e, conn("x/s", "x/s"), SELF, SELF);
    expectDecision(e, conn("192.168.0.9", "x/s"), NA, NODE);
  });

  it("self before not-isolated and before denied", () => {
    expectDecision(engine([]), conn("x/a", "x/a"), SELF, SELF);
    expectDecision(engine([denyAll("x")]), conn("x/a", "x/a"), SELF, SELF);
  });

  it("node-local before not-isolated, denied and allowed-by-rule", () => {
    expectDecision(engine([]), conn("192.168.0.1", "x/a"), NA, NODE);
    expectDecision(engine([denyAll("x")]), conn("192.168.0.1", "x/a"), NA, NODE);
    expectDecision(engine([np("x/p", { podSelector: {}, ingress: [{}] })]), conn("192.168.0.1", "x/a"), NA, NODE);
    expectDecision(engine([np("x/p", { podSelector: {}, ingress: [{}] })]), conn("x/h", "x/c"), NA, NODE);
  });

  it("not-isolated before rules: a policy of the other direction only", () => {
    const e = engine([np("x/p", { podSelector: {}, policyTypes: ["Ingress"], ingress: [{}] })]);
    expectDecision(e, conn("x/a", "x/b"), NI, byRule(["x/p", 0]));
  });
});

describe("verdict rule", () => {
  const d = (allowed: boolean, egress: DirectionDecision, ingress: DirectionDecision, port = 80): Decision => ({
    allowed,
    protocol: "TCP",
    port,
    egress,
    ingress,
    skipped: [],
  });

  it("deny iff at least one direction is denied", () => {
    const e = engine([
      egressPolicy("x/e", "a", [{ to: [nsSel({ ns: "y" })] }]),
      np("y/i", { podSelector: sel({ pod: "a" }) }),
      np("z/i", { podSelector: {}, ingress: [{}] }),
    ]);
    expect(e.evaluate(conn("x/a", "y/b"))).toEqual(d(true, byRule(["x/e", 0]), NI));
    expect(e.evaluate(conn("x/a", "y/a"))).toEqual(d(false, byRule(["x/e", 0]), denied("y/i")));
    expect(e.evaluate(conn("x/a", "z/b"))).toEqual(d(false, denied("x/e"), byRule(["z/i", 0])));
    expect(e.evaluate(conn("x/b", "y/a"))).toEqual(d(false, NI, denied("y/i")));
    expect(e.evaluate(conn("x/a", "203.0.113.9"))).toEqual(d(false, denied("x/e"), NA));
    expect(e.evaluate(conn("x/b", "z/b"))).toEqual(d(true, NI, byRule(["z/i", 0])));
    expect(e.evaluate(conn("192.168.0.2", "y/a"))).toEqual(d(true, NA, NODE));
    expect(e.evaluate(conn("x/a", "x/a"))).toEqual(d(true, SELF, SELF));
    expect(e.evaluate(conn("203.0.113.9", "x/h"))).toEqual(d(true, NA, NA));
  });

  it("both directions denied", () => {
    const e = engine([denyAll("x"), denyAll("y")]);
    expect(e.evaluate(conn("x/a", "y/a", 443))).toEqual(d(false, denied("x/deny-all"), denied("y/deny-all"), 443));
  });
});

describe("§1.2.4 example", () => {
  const e = createPolicyEngine({
    namespaces: [ns("x"), ns("y")],
    pods: [
      pod("x/a", "10.1.0.1", { hostIP: "10.0.0.1" }),
      pod("x/b", "10.1.0.2", { hostIP: "10.0.0.2" }),
      pod("y/b", "10.1.0.3", { hostIP: "10.0.0.2" }),
    ],
    policies: [
      np("x/allow-b", {
        podSelector: sel({ pod: "a" }),
        ingress: [{ from: [podSel({ pod: "b" })], ports: [{ port: 80 }] }],
      }),
    ],
  });
  const rows: [string, Connection, Decision][] = [
    [
      "x/b → x/a, TCP 80",
      conn("x/b", "x/a", 80, "TCP"),
      { allowed: true, protocol: "TCP", port: 80, egress: NI, ingress: byRule(["x/allow-b", 0]), skipped: [] },
    ],
    [
      "y/b → x/a, TCP 80",
      conn("y/b", "x/a", 80, "TCP"),
      { allowed: false, protocol: "TCP", port: 80, egress: NI, ingress: denied("x/allow-b"), skipped: [] },
    ],
    [
      "x/b → x/a, UDP 80",
      conn("x/b", "x/a", 80, "UDP"),
      { allowed: false, protocol: "UDP", port: 80, egress: NI, ingress: denied("x/allow-b"), skipped: [] },
    ],
    [
      "x/a's node IP → x/a, TCP 443",
      conn("10.0.0.1", "x/a", 443, "TCP"),
      { allowed: true, protocol: "TCP", port: 443, egress: NA, ingress: NODE, skipped: [] },
    ],
    [
      "x/a → x/a, TCP 80",
      conn("x/a", "x/a", 80, "TCP"),
      { allowed: true, protocol: "TCP", port: 80, egress: SELF, ingress: SELF, skipped: [] },
    ],
    [
      "x/a → 203.0.113.9, TCP 443",
      conn("x/a", "203.0.113.9", 443, "TCP"),
      { allowed: true, protocol: "TCP", port: 443, egress: NI, ingress: NA, skipped: [] },
    ],
  ];
  it.each(rows)("%s", (_, c, expected) => {
    expect(e.evaluate(c)).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------
// truth tables

describe("truthTable and matrix", () => {
  const pods = [pod("x/a", "10.0.1.1"), pod("x/b", "10.0.1.2"), pod("y/a", "10.0.2.1")];
  const policies = [
    ingressPolicy("x/p", "a", [{ from: [podSel({ pod: "b" })], ports: [{ port: 80 }] }]),
    np("y/q", {
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [{ to: [nsSel({ ns: "x" })], ports: [{ port: 443 }] }],
    }),
  ];
  const e = engine(policies, pods);

  it("pods in input order", () => {
    expect(e.pods).toEqual(["x/a", "x/b", "y/a"]);
  });

  it("TCP 80, diagonal included", () => {
    const expected = {
      "x/a": { "x/a": "allow", "x/b": "allow", "y/a": "allow" },
      "x/b": { "x/a": "allow", "x/b": "allow", "y/a": "allow" },
      "y/a": { "x/a": "deny", "x/b": "deny", "y/a": "allow" },
    };
    expect(e.truthTable({ port: 80 })).toEqual(expected);
    expect(e.truthTable({ protocol: "TCP", port: 80 })).toEqual(expected);
  });

  it("TCP 443", () => {
    expect(e.truthTable({ protocol: "TCP", port: 443 })).toEqual({
      "x/a": { "x/a": "allow", "x/b": "allow", "y/a": "allow" },
      "x/b": { "x/a": "deny", "x/b": "allow", "y/a": "allow" },
      "y/a": { "x/a": "deny", "x/b": "allow", "y/a": "allow" },
    });
  });

  it("UDP 80", () => {
    expect(e.truthTable({ protocol: "UDP", port: 80 })).toEqual({
      "x/a": { "x/a": "allow", "x/b": "allow", "y/a": "allow" },
      "x/b": { "x/a": "deny", "x/b": "allow", "y/a": "allow" },
      "y/a": { "x/a": "deny", "x/b": "deny", "y/a": "allow" },
    });
  });

  it("matrix counts match the tables", () => {
    const m80 = e.matrix({ port: 80 });
    expect([m80.protocol, m80.port, m80.countAllowed()]).toEqual(["TCP", 80, 7]);
    const m443 = e.matrix({ protocol: "TCP", port: 443 });
    expect([m443.protocol, m443.port, m443.countAllowed()]).toEqual(["TCP", 443, 7]);
    const u80 = e.matrix({ protocol: "UDP", port: 80 });
    expect([u80.protocol, u80.port, u80.countAllowed()]).toEqual(["UDP", 80, 6]);
  });

  it("matrix agrees with truthTable and evaluate, per direction, on a cluster with hostNetwork and node-local pairs", () => {
    const big = engine([
      denyAll("z"),
      ingressPolicy("x/p", "a", [{ from: [podSel({ pod: "b" })], ports: [{ port: 80 }] }]),
      egressPolicy("y/q", "a", [{ to: [block("10.0.1.0/24")] }]),
      np("y/r", { podSelector: sel({ pod: "b" }), ingress: [{ from: [block("192.168.0.0/24")] }] }),
    ]);
    for (const protocol of ["TCP", "UDP"] as const) {
      for (const port of [80, 443, 8080]) {
        const m = big.matrix({ protocol, port });
        const t = big.truthTable({ protocol, port });
        expect(m.pods).toEqual(big.pods);
        expect(m.pods).toEqual(PODS.map((p) => `${p.namespace}/${p.name}`));
        expect(Object.keys(t)).toEqual([...m.pods]);
        let count = 0;
        m.pods.forEach((from, i) => {
          expect(Object.keys(t[from] ?? {})).toEqual([...m.pods]);
          m.pods.forEach((to, j) => {
            const d = big.evaluate({ from: { pod: from }, to: { pod: to }, protocol, port });
            const cell = `${from}->${to} ${protocol}/${port}`;
            expect(m.allowed(i, j), cell).toBe(d.allowed);
            expect(t[from]?.[to], cell).toBe(d.allowed ? "allow" : "deny");
            expect(m.egressAllowed(i, j), cell).toBe(d.egress.verdict !== "denied");
            expect(m.ingressAllowed(i, j), cell).toBe(d.ingress.verdict !== "denied");
            if (d.allowed) count++;
          });
        });
        expect(m.countAllowed()).toBe(count);
      }
    }
    // spot checks against the doc, so the loop above can't pass on a uniformly wrong engine
    const m = big.matrix({ port: 80 });
    const at = (k: string) => m.pods.indexOf(k);
    expect(m.allowed(at("x/h"), at("y/b"))).toBe(true); // node-local (and the ipBlock)
    expect(m.ingressAllowed(at("x/h"), at("z/b"))).toBe(false); // z isolated, not the node
    expect(m.egressAllowed(at("y/a"), at("x/a"))).toBe(true); // ipBlock 10.0.1.0/24
    expect(m.egressAllowed(at("y/a"), at("y/b"))).toBe(false);
    expect(m.allowed(at("z/b"), at("z/b"))).toBe(true); // self
    expect(m.egressAllowed(at("z/b"), at("z/b"))).toBe(true);
    expect(m.allowed(at("x/b"), at("x/a"))).toBe(true);
    expect(m.allowed(at("x/c"), at("x/a"))).toBe(false);
  });
});

describe("truthTable with a port name", () => {
  // Ingress to every pod of x on TCP 80 only. x/a's "http" is 80, x/b's is 8080, so
  // "http" opens x/a and not x/b; y/a ("http" 8080) and the hostNetwork x/h are not isolated.
  const e = engine([np("x/web", { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] })]);
  const http = e.truthTable({ port: "http" });

  it("resolves the name on each destination: a column per pod that declares it", () => {
    expect(http.unresolved).toEqual(["x/c", "y/b", "z/b"]);
    expect(Object.keys(http)).toEqual(e.pods); // every pod is still a source
    expect(http["y/b"]).toEqual({ "x/a": "allow", "x/b": "deny", "y/a": "allow", "x/h": "allow" });
    expect(http["x/b"]).toEqual({ "x/a": "allow", "x/b": "allow", "y/a": "allow", "x/h": "allow" }); // self
    expect(http["x/c"]?.["x/c"]).toBeUndefined(); // no column, not even the diagonal
    expect(http.skipped).toEqual([]);
    expect(Object.keys(JSON.parse(JSON.stringify(http)) as object)).toEqual(e.pods);
  });

  it("every cell is evaluate() with the name, and the numeric table at the destination's own port", () => {
    const byPort = new Map([80, 8080].map((port) => [port, e.truthTable({ port })]));
    for (const from of e.pods) {
      for (const to of Object.keys(http[from] ?? {})) {
        const d = e.evaluate({ from: { pod: from }, to: { pod: to }, port: "http" });
        expect(http[from]?.[to], `${from} -> ${to}`).toBe(d.allowed ? "allow" : "deny");
        expect(http[from]?.[to], `${from} -> ${to}`).toBe(byPort.get(d.port)?.[from]?.[to]);
      }
    }
  });

  it("resolves by name and protocol", () => {
    const dns = e.truthTable({ protocol: "UDP", port: "dns" });
    expect(dns.unresolved).toEqual(["x/b", "x/c", "y/a", "y/b", "z/b", "x/h"]);
    // UDP 53 is not TCP 80: x/a is isolated and nothing but itself gets in.
    expect(e.pods.map((from) => dns[from]?.["x/a"])).toEqual(["allow", "deny", "deny", "deny", "deny", "deny", "deny"]);
    expect(inputError(() => e.truthTable({ port: "dns" })).path).toBe("query.port");
  });

  it("a name no pod declares for the protocol is an input error, as in evaluate", () => {
    const err = inputError(() => e.truthTable({ port: "nope" }));
    expect(err.path).toBe("query.port");
    expect(err.reason).toBe('no pod declares a TCP port named "nope", so the table would have no column');
    expect(inputError(() => e.truthTable({ port: "" })).path).toBe("query.port");
  });

  it("matrix() takes numbers only, and says to use truthTable", () => {
    const err = inputError(() => e.matrix({ port: "http" as unknown as number }));
    expect(err.path).toBe("query.port");
    expect(err.reason).toMatch(/use truthTable$/);
  });
});

// ---------------------------------------------------------------------------
// skipped policies and input errors

describe("skipped policies", () => {
  it("a policy validate() rejects is listed and isolates nothing", () => {
    const good = np("x/good", { podSelector: sel({ pod: "nobody" }) });
    const emptyPeer = np("x/bad", { podSelector: {}, policyTypes: ["Ingress", "Egress"], ingress: [{ from: [{}] }] });
    const badCidr = np("y/cidr", { podSelector: {}, ingress: [{ from: [block("10.0.0.0/33")] }] });
    const noName = asPolicy({ metadata: { namespace: "z" }, spec: { podSelector: {} } });
    const policies = [good, emptyPeer, badCidr, noName];
    for (const p of policies.slice(1)) expect(validate(p).length).toBeGreaterThan(0);
    const e = engine(policies);
    expect(e.skipped).toEqual([
      { kind: "NetworkPolicy", name: "x/bad", index: 1, errors: validate(emptyPeer) },
      { kind: "NetworkPolicy", name: "y/cidr", index: 2, errors: validate(badCidr) },
      { kind: "NetworkPolicy", name: "[3]", index: 3, errors: validate(noName) },
    ]);
    expectDecision(e, conn("x/b", "x/a"), NI, NI);
    expectDecision(e, conn("x/a", "y/a"), NI, NI);
    expectDecision(e, conn("x/a", "z/b"), NI, NI);
  });

  it("nothing is skipped when every policy is valid", () => {
    expect(engine([denyAll("x"), np("y/p", {})]).skipped).toEqual([]);
  });

  it("a second policy with the same namespace/name is skipped as a duplicate, whatever it says", () => {
    const first = ingressPolicy("x/p", "a", [{ from: [podSel({ pod: "b" })] }]);
    const second = np("x/p", { podSelector: {}, policyTypes: ["Ingress", "Egress"] });
    const e = engine([first, second]);
    expect(e.skipped).toEqual([
      {
        kind: "NetworkPolicy",
        name: "x/p",
        index: 1,
        errors: [
          {
            type: "FieldValueDuplicate",
            field: "metadata.name",
            path: ["metadata", "name"],
            badValue: "p",
            detail: "",
          },
        ],
      },
    ]);
    expectDecision(e, conn("x/b", "x/a"), NI, byRule(["x/p", 0]));
    expectDecision(e, conn("x/a", "x/b"), NI, NI);
  });
});

describe("every answer carries the skipped policies", () => {
  // Taken, the invalid policy would isolate all of x both ways; skipped, nothing is isolated.
  const invalid = np("x/broken", {
    podSelector: {},
    policyTypes: ["Ingress", "Egress"],
    ingress: [{ ports: [{ port: 70000 }] }],
  });
  const valid = ingressPolicy("y/p", "a", [{ ports: [{ port: 80 }] }]);
  const e = engine([valid, invalid]);
  const without = engine([valid]);
  const expected = [{ kind: "NetworkPolicy", name: "x/broken", index: 1, errors: validate(invalid) }];

  it("the engine lists the policy, with the API server's errors", () => {
    expect(validate(invalid).map((x) => x.field)).toEqual(["spec.ingress[0].ports[0].port"]);
    expect(e.skipped).toEqual(expected);
  });

  it("every decision carries the list, and is the decision without the policy", () => {
    for (const c of [conn("x/b", "x/a"), conn("x/a", "y/a", 443), conn("203.0.113.9", "x/c"), conn("x/a", "x/a")]) {
      const d = e.evaluate(c);
      expect(d.skipped, JSON.stringify(c)).toEqual(expected);
      expect(d.skipped).toBe(e.skipped);
      expect({ ...d, skipped: [] }).toEqual(without.evaluate(c));
    }
    expect(without.evaluate(conn("x/b", "x/a")).skipped).toEqual([]);
  });

  it("a truth table carries it (and the unresolved pods) without adding keys", () => {
    const t = e.truthTable({ port: 443 });
    expect(t.skipped).toEqual(expected);
    expect(t.unresolved).toEqual([]);
    expect(Object.keys(t)).toEqual(e.pods);
    expect(t).toEqual(without.truthTable({ port: 443 }));
    expect(JSON.parse(JSON.stringify(t))).toEqual(without.truthTable({ port: 443 }));
    expect(t["y/a"]?.["x/a"]).toBe("allow");
    expect(t["x/a"]?.["y/a"]).toBe("deny");
    expect(without.truthTable({ port: 443 }).skipped).toEqual([]);
  });

  it("node's inspector shows the skipped policies with the table", () => {
    expect(inspect(e.truthTable({ port: 80 }), { depth: 4 })).toContain("x/broken");
    expect(inspect(without.truthTable({ port: 80 }))).not.toContain("skipped");
  });

  it("a matrix carries it", () => {
    const m = e.matrix({ protocol: "UDP", port: 53 });
    expect(m.skipped).toEqual(expected);
    expect(m.countAllowed()).toBe(without.matrix({ protocol: "UDP", port: 53 }).countAllowed());
  });

  it("a diff carries each side's list", () => {
    const fixed = np("x/broken", { podSelector: {}, policyTypes: ["Ingress", "Egress"] });
    const d = e.diff(engine([valid, fixed]), { protocols: ["TCP"], ports: [80] });
    expect(d.skipped).toEqual({ before: expected, after: [] });
    expect(d.changes.length).toBeGreaterThan(0);
    expect(e.diff(e).skipped).toEqual({ before: expected, after: expected });
  });
});

describe("input errors", () => {
  const build =
    (pods: ClusterPod[], namespaces: ClusterNamespace[] = [ns("x")]) =>
    () =>
      createPolicyEngine({ namespaces, pods, policies: [] });

  it("a duplicate pod", () => {
    // the doc names no exact path for duplicates; the second entry is the culprit
    expect(inputError(build([pod("x/a", "10.0.1.1"), pod("x/a", "10.0.1.2")])).path).toMatch(/^pods\[1\](\.name)?$/);
  });

  it("a duplicate namespace", () => {
    expect(inputError(build([], [ns("x"), ns("x")])).path).toMatch(/^namespaces\[1\](\.name)?$/);
  });

  it("a pod in an unlisted namespace", () => {
    expectInputError(build([pod("x/a", "10.0.1.1"), pod("q/a", "10.0.1.2")]), "pods[1].namespace");
  });

  describe("a policy in an unlisted namespace, as a pod there", () => {
    const refused = (policies: NetworkPolicy[], namespaces = NAMESPACES) =>
      inputError(() => createPolicyEngine({ namespaces, pods: PODS, policies }));

    it("is refused at its metadata.namespace, naming the namespace", () => {
      const err = refused([denyAll("x"), np("w/p", { podSelector: {} })]);
      expect(err.path).toBe("policies[1].metadata.namespace");
      expect(err.reason).toBe('namespace "w" is not listed in namespaces');
    });

    it("without a namespace it is in default, which must be listed", () => {
      const noNs = asPolicy({ metadata: { name: "p" }, spec: { podSelector: {} } });
      const err = refused([noNs]);
      expect(err.path).toBe("policies[0].metadata.namespace");
      expect(err.reason).toBe(
        'namespace "default" (a policy without a namespace is in default) is not listed in namespaces',
      );
      expect(engine([noNs], PODS, [...NAMESPACES, ns("default")]).skipped).toEqual([]);
    });

    it("is refused even when the API server would reject it too: the namespace comes first", () => {
      const bad = np("w/bad", { podSelector: {}, ingress: [{ from: [{}] }] });
      expect(validate(bad).length).toBeGreaterThan(0);
      expect(refused([bad]).path).toBe("policies[0].metadata.namespace");
      // Listed, the same policy is only skipped.
      expect(engine([bad], PODS, [...NAMESPACES, ns("w")]).skipped.map((s) => s.name)).toEqual(["w/bad"]);
    });

    it("is refused whatever its selectors, while peers may name unlisted namespaces freely", () => {
      // A namespaceSelector for a namespace that is not listed just matches nothing.
      const e = engine([ingressPolicy("x/p", "a", [{ from: [nsSel({ ns: "w" })] }])]);
      expectDecision(e, conn("y/a", "x/a"), NI, denied("x/p"));
      expect(refused([np("w/p", { podSelector: sel({ pod: "nobody" }) })]).path).toBe("policies[0].metadata.namespace");
    });
  });

  it("bad IPs", () => {
    expectInputError(build([pod("x/a", "10.0.1.1"), pod("x/b", "10.0.1.256")]), "pods[1].ip");
    expectInputError(build([pod("x/a", "")]), "pods[0].ip");
    expectInputError(build([pod("x/a", "10.0.1.1/32")]), "pods[0].ip");
    expectInputError(build([pod("x/a", "10.0.1.1", { hostIP: "node-1" })]), "pods[0].hostIP");
  });

  it("a hostNetwork pod whose hostIP is not its ip", () => {
    expectInputError(
      build([pod("x/h", "192.168.0.2", { hostNetwork: true, hostIP: "192.168.0.1" })]),
      "pods[0].hostIP",
    );
  });

  it("container ports outside 1..65535 or not integers", () => {
    for (const containerPort of [0, 65536, 1.5]) {
      expectInputError(
        build([pod("x/a", "10.0.1.1", { ports: [tcp("http", 80), tcp("bad", containerPort)] })]),
        "pods[0].ports[1].containerPort",
      );
    }
  });

  it("unknown pods and bad addresses in a connection", () => {
    const e = engine([]);
    expectInputError(() => e.evaluate(conn("x/a", "x/nope")), "connection.to.pod");
    expectInputError(() => e.evaluate(conn("q/a", "x/a")), "connection.from.pod");
    expectInputError(() => e.evaluate(conn("1.2.3", "x/a")), "connection.from.ip");
    expectInputError(() => e.evaluate(conn("x/a", "not-an-ip")), "connection.to.ip");
  });

  it("connection ports outside 1..65535 or not integers", () => {
    const e = engine([]);
    for (const port of [0, 65536, 1.5, -80])
      expectInputError(() => e.evaluate(conn("x/b", "x/a", port)), "connection.port");
    expectDecision(e, conn("x/b", "x/a", 1), NI, NI);
    expectDecision(e, conn("x/b", "x/a", 65535), NI, NI);
  });

  it("connection port names that do not resolve", () => {
    const e = engine([]);
    expectInputError(() => e.evaluate(conn("x/b", "x/a", "nope")), "connection.port");
    expectInputError(() => e.evaluate(conn("x/b", "x/a", "http", "UDP")), "connection.port");
    expectInputError(() => e.evaluate(conn("x/b", "203.0.113.9", "http")), "connection.port");
  });
});

// ---------------------------------------------------------------------------
// diff

describe("diff", () => {
  const change = (
    from: string,
    to: string,
    protocol: Protocol,
    lo: number,
    hi: number,
    before: "allow" | "deny",
    after: "allow" | "deny",
  ): ConnectionChange => ({
    from,
    to,
    protocol,
    ports: { from: lo, to: hi },
    before,
    after,
  });
  const web = (key: string, ip: string, hostIP: string) =>
    pod(key, ip, { hostIP, ports: [tcp("http", 80), tcp("https", 443)] });
  // input order is also lexicographic, so "sorted by from, to" is unambiguous
  const pods = [
    web("x/a", "10.0.1.1", "192.168.0.1"),
    web("x/b", "10.0.1.2", "192.168.0.2"),
    pod("x/h", "192.168.0.2", { hostNetwork: true }),
    web("y/a", "10.0.2.1", "192.168.0.1"),
  ];
  const cluster = (...policies: NetworkPolicy[]) => engine(policies, pods);
  const defaultDeny = np("x/default-deny", { podSelector: {}, policyTypes: ["Ingress"] });

  it("adding a default-deny policy lists exactly the connections that become deny", () => {
    const d = cluster().diff(cluster(defaultDeny), { protocols: ["TCP"] });
    // not x/a→x/a (self), not x/h→x/b (node-local), nothing into x/h or y/a
    expect(d.changes).toEqual([
      change("x/a", "x/b", "TCP", 1, 65535, "allow", "deny"),
      change("x/b", "x/a", "TCP", 1, 65535, "allow", "deny"),
      change("x/h", "x/a", "TCP", 1, 65535, "allow", "deny"),
      change("y/a", "x/a", "TCP", 1, 65535, "allow", "deny"),
      change("y/a", "x/b", "TCP", 1, 65535, "allow", "deny"),
    ]);
    expect(d.addedPods).toEqual([]);
    expect(d.removedPods).toEqual([]);
  });

  it("all three protocols by default, sorted by from, to, protocol, port", () => {
    const d = cluster().diff(cluster(defaultDeny));
    const pairs = ["x/a x/b", "x/b x/a", "x/h x/a", "y/a x/a", "y/a x/b"];
    for (const protocol of ["TCP", "UDP", "SCTP"] as const) {
      expect(d.changes.filter((c) => c.protocol === protocol)).toEqual(
        pairs.map((p) => {
          const [from, to] = p.split(" ") as [string, string];
          return change(from, to, protocol, 1, 65535, "allow", "deny");
        }),
      );
    }
    expect(d.changes.length).toBe(15);
    expect(d.changes.map((c) => `${c.from} ${c.to}`)).toEqual(pairs.flatMap((p) => [p, p, p]));
  });

  it("the reverse diff swaps before and after", () => {
    const d = cluster(defaultDeny).diff(cluster(), { protocols: ["UDP"] });
    expect(d.changes).toEqual([
      change("x/a", "x/b", "UDP", 1, 65535, "deny", "allow"),
      change("x/b", "x/a", "UDP", 1, 65535, "deny", "allow"),
      change("x/h", "x/a", "UDP", 1, 65535, "deny", "allow"),
      change("y/a", "x/a", "UDP", 1, 65535, "deny", "allow"),
      change("y/a", "x/b", "UDP", 1, 65535, "deny", "allow"),
    ]);
  });

  it("allowing port 80 only: the ranges around it change, 80 does not", () => {
    const allow80 = ingressPolicy("x/allow-80", "a", [{ ports: [{ port: 80 }] }]);
    const d = cluster().diff(cluster(allow80), { protocols: ["TCP", "UDP"] });
    const expected: ConnectionChange[] = [];
    for (const from of ["x/b", "x/h", "y/a"]) {
      expected.push(
        change(from, "x/a", "TCP", 1, 79, "allow", "deny"),
        change(from, "x/a", "TCP", 81, 65535, "allow", "deny"),
        change(from, "x/a", "UDP", 1, 65535, "allow", "deny"),
      );
    }
    const tcpOnly = (cs: readonly ConnectionChange[]) => cs.filter((c) => c.protocol === "TCP");
    expect(tcpOnly(d.changes)).toEqual(tcpOnly(expected));
    expect(d.changes.filter((c) => c.protocol === "UDP")).toEqual(expected.filter((c) => c.protocol === "UDP"));
    expect(d.changes.length).toBe(9);
  });

  it("1..79 / 80 / 81..65535 when port 80 flips one way and the rest the other", () => {
    const only80 = ingressPolicy("x/only-80", "a", [{ from: [podSel({ pod: "b" })], ports: [{ port: 80 }] }]);
    const all80not = ingressPolicy("x/not-80", "a", [
      {
        from: [podSel({ pod: "b" })],
        ports: [
          { port: 1, endPort: 79 },
          { port: 81, endPort: 65535 },
        ],
      },
    ]);
    const d = cluster(only80).diff(cluster(all80not), { protocols: ["TCP"] });
    expect(d.changes).toEqual([
      change("x/b", "x/a", "TCP", 1, 79, "deny", "allow"),
      change("x/b", "x/a", "TCP", 80, 80, "allow", "deny"),
      change("x/b", "x/a", "TCP", 81, 65535, "deny", "allow"),
    ]);
  });

  it("moving a rule from port 80 to 443", () => {
    const a = ingressPolicy("x/web", "a", [{ ports: [{ port: 80 }] }]);
    const b = ingressPolicy("x/web", "a", [{ ports: [{ port: 443 }] }]);
    const d = cluster(a).diff(cluster(b), { protocols: ["TCP"] });
    const expected: ConnectionChange[] = [];
    for (const from of ["x/b", "x/h", "y/a"]) {
      expected.push(
        change(from, "x/a", "TCP", 80, 80, "allow", "deny"),
        change(from, "x/a", "TCP", 443, 443, "deny", "allow"),
      );
    }
    expect(d.changes).toEqual(expected);
  });

  it("a named port in the rule splits at the destination's containerPort", () => {
    const named = np("x/named", { podSelector: {}, ingress: [{ ports: [{ port: "https" }] }] });
    const d = cluster(named).diff(cluster(), { protocols: ["TCP"] });
    const expected: ConnectionChange[] = [];
    for (const [from, to] of [
      ["x/a", "x/b"],
      ["x/b", "x/a"],
      ["x/h", "x/a"],
      ["y/a", "x/a"],
      ["y/a", "x/b"],
    ] as const) {
      expected.push(
        change(from, to, "TCP", 1, 442, "deny", "allow"),
        change(from, to, "TCP", 444, 65535, "deny", "allow"),
      );
    }
    expect(d.changes).toEqual(expected);
  });

  it("options.ports compares only those ports", () => {
    const allow80 = ingressPolicy("x/allow-80", "a", [{ ports: [{ port: 80 }] }]);
    const d = cluster().diff(cluster(allow80), { protocols: ["TCP"], ports: [80, 443, 1000] });
    const expected: ConnectionChange[] = [];
    for (const from of ["x/b", "x/h", "y/a"]) {
      expected.push(
        change(from, "x/a", "TCP", 443, 443, "allow", "deny"),
        change(from, "x/a", "TCP", 1000, 1000, "allow", "deny"),
      );
    }
    expect(d.changes).toEqual(expected);
  });

  it("an engine compared with an equivalent one has no changes", () => {
    const d = cluster(defaultDeny).diff(cluster(np("x/other-name", { podSelector: {} })));
    expect(d).toEqual({ changes: [], addedPods: [], removedPods: [], skipped: { before: [], after: [] } });
  });

  it("pods present on one side only are listed, not compared", () => {
    const before = engine([], [pod("x/a", "10.0.1.1"), pod("x/b", "10.0.1.2"), pod("y/a", "10.0.2.1")]);
    const after = engine([defaultDeny], [pod("x/a", "10.0.1.1"), pod("x/b", "10.0.1.2"), pod("z/c", "10.0.3.3")]);
    const d = before.diff(after, { protocols: ["TCP"] });
    expect(d.removedPods).toEqual(["y/a"]);
    expect(d.addedPods).toEqual(["z/c"]);
    expect(d.changes).toEqual([
      change("x/a", "x/b", "TCP", 1, 65535, "allow", "deny"),
      change("x/b", "x/a", "TCP", 1, 65535, "allow", "deny"),
    ]);
  });
});
