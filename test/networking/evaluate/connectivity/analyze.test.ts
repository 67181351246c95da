// The connectivity analysis: hand-worked cases, then the same answers as the policy engine on
// random clusters (src/testing's arbCluster). The engine judges pods with addresses, so the
// comparison gives it an input where no ipBlock can match a pod (ipBlock peers become selectors
// that match nothing, for workload pairs) and asks it about addresses with the policies as they are.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ClusterPod,
  type ClusterWorkload,
  type ConnectivityInput,
  EvaluatorInputError,
  type NetworkPolicy,
  type Protocol,
  analyzeConnectivity,
  connectionSetIncludes,
  createPolicyEngine,
  formatConnectionSet,
  fromJson,
  toJson,
} from "../../../../src/networking/index.js";
import { mentionedPorts } from "../../../../src/testing/clusters/connections.js";
import { type GeneratedCluster, arbCluster } from "../../../../src/testing/index.js";
import { propertyRuns } from "../../../support/property-runs.js";

function policy(namespace: string, name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { namespace, name },
    spec,
  } as never) as NetworkPolicy;
}

const web: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } };
const api: ClusterWorkload = {
  namespace: "shop",
  kind: "Deployment",
  name: "api",
  labels: { app: "api" },
  ports: [{ name: "http", containerPort: 8080 }],
};
const db: ClusterWorkload = {
  namespace: "data",
  kind: "StatefulSet",
  name: "db",
  labels: { app: "db" },
  ports: [{ name: "pg", containerPort: 5432 }],
};
const namespaces = [{ name: "shop" }, { name: "data", labels: { tier: "data" } }];

function text(lines: ReturnType<ReturnType<typeof analyzeConnectivity>["lines"]>): string[] {
  return lines.map((l) => `${l.from.key} => ${l.to.key} : ${formatConnectionSet(l.connections)}`);
}

describe("analyzeConnectivity", () => {
  it("lists every pair and the address space when nothing isolates", () => {
    const a = analyzeConnectivity({ namespaces, workloads: [web, api], policies: [] });
    expect(text(a.lines())).toEqual([
      "shop/Deployment/web => shop/Deployment/api : All connections",
      "shop/Deployment/web => 0.0.0.0/0,::/0 : All connections",
      "shop/Deployment/api => shop/Deployment/web : All connections",
      "shop/Deployment/api => 0.0.0.0/0,::/0 : All connections",
      "0.0.0.0/0,::/0 => shop/Deployment/web : All connections",
      "0.0.0.0/0,::/0 => shop/Deployment/api : All connections",
    ]);
    // The IPv6 space without the IPv4-mapped block ::ffff:0:0/96, which is IPv4.
    expect(a.segments.map((s) => `${s.first}-${s.last}`)).toEqual([
      "0.0.0.0-255.255.255.255",
      "::-::fffe:ffff:ffff",
      "::1:0:0:0-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ]);
  });

  it("meets egress with ingress, resolves named ports on the destination and names the policies", () => {
    const policies = [
      policy("data", "db", {
        podSelector: { matchLabels: { app: "db" } },
        ingress: [
          {
            from: [
              {
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "shop" } },
                podSelector: { matchLabels: { app: "api" } },
              },
            ],
            ports: [{ port: "pg" }, { port: 9000, endPort: 9010, protocol: "UDP" }],
          },
        ],
      }),
      policy("shop", "api-out", {
        podSelector: { matchLabels: { app: "api" } },
        policyTypes: ["Egress"],
        egress: [
          {
            to: [{ namespaceSelector: { matchLabels: { tier: "data" } } }],
            ports: [{ port: 5432 }, { protocol: "UDP", port: 9005 }],
          },
        ],
      }),
    ];
    const a = analyzeConnectivity({ namespaces, workloads: [web, api, db], policies });
    expect(formatConnectionSet(a.between("shop/Deployment/api", "data/StatefulSet/db"))).toBe("TCP 5432; UDP 9005");
    expect(formatConnectionSet(a.between("shop/Deployment/web", "data/StatefulSet/db"))).toBe("No connections");
    expect(formatConnectionSet(a.between("shop/Deployment/api", "shop/Deployment/web"))).toBe("No connections");
    expect(formatConnectionSet(a.between("shop/Deployment/api", "203.0.113.7"))).toBe("No connections");
    expect(formatConnectionSet(a.between("203.0.113.7", "data/StatefulSet/db"))).toBe("No connections");
    const why = a.explain("shop/Deployment/api", "data/StatefulSet/db");
    expect(why.egress).toMatchObject({
      verdict: "allowed-by-rule",
      isolatedBy: ["shop/api-out"],
      allowedBy: [{ policy: "shop/api-out", rules: [0] }],
    });
    expect(why.ingress).toMatchObject({
      verdict: "allowed-by-rule",
      isolatedBy: ["data/db"],
      allowedBy: [{ policy: "data/db", rules: [0] }],
    });
    expect(formatConnectionSet(why.ingress.connections)).toBe("TCP 5432; UDP 9000-9010");
    const denied = a.explain("shop/Deployment/web", "data/StatefulSet/db");
    expect(denied.egress.verdict).toBe("not-isolated");
    expect(denied.ingress).toMatchObject({ verdict: "denied", isolatedBy: ["data/db"], allowedBy: [] });
    expect(a.policies.map((p) => [p.key, p.selects])).toEqual([
      ["data/db", ["data/StatefulSet/db"]],
      ["shop/api-out", ["shop/Deployment/api"]],
    ]);
    expect(a.policies[0]!.ingress![0]).toMatchObject({
      workloads: ["shop/Deployment/api"],
      namedPorts: [{ protocol: "TCP", name: "pg" }],
    });
  });

  it("cuts the address space at ipBlock edges and groups segments per line", () => {
    const policies = [
      policy("shop", "egress", {
        podSelector: { matchLabels: { app: "web" } },
        policyTypes: ["Egress"],
        egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }], ports: [{ port: 443 }] }],
      }),
    ];
    const a = analyzeConnectivity({ namespaces, workloads: [web], policies });
    expect(text(a.lines().filter((l) => l.from.key === "shop/Deployment/web"))).toEqual([
      "shop/Deployment/web => 10.0.0.0/16,10.2.0.0/15,10.4.0.0/14,10.8.0.0/13,10.16.0.0/12,10.32.0.0/11,10.64.0.0/10,10.128.0.0/9 : TCP 443",
    ]);
    expect(formatConnectionSet(a.between("shop/Deployment/web", "10.1.2.3"))).toBe("No connections");
    expect(formatConnectionSet(a.between("shop/Deployment/web", "10.200.0.1"))).toBe("TCP 443");
    expect(a.explain("shop/Deployment/web", "10.200.0.1").to).toMatchObject({
      type: "external",
      key: "10.2.0.0/15,10.4.0.0/14,10.8.0.0/13,10.16.0.0/12,10.32.0.0/11,10.64.0.0/10,10.128.0.0/9",
    });
    expect(a.policies[0]!.egress![0]!.addresses.map((r) => `${r.first}-${r.last}`)).toEqual([
      "10.0.0.0-10.0.255.255",
      "10.2.0.0-10.255.255.255",
    ]);
  });

  it("never lets an ipBlock match a workload, and leaves hostNetwork workloads open and unselected", () => {
    const host: ClusterWorkload = {
      namespace: "shop",
      kind: "DaemonSet",
      name: "agent",
      labels: { app: "web" },
      hostNetwork: true,
    };
    const policies = [
      policy("shop", "all-v4", { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "0.0.0.0/0" } }] }] }),
      policy("shop", "web-only", {
        podSelector: {},
        ingress: [{ from: [{ podSelector: { matchLabels: { app: "web" } } }] }],
      }),
    ];
    const a = analyzeConnectivity({ namespaces, workloads: [web, api, host], policies });
    expect(formatConnectionSet(a.between("shop/Deployment/api", "shop/Deployment/web"))).toBe("No connections");
    expect(formatConnectionSet(a.between("shop/Deployment/web", "shop/Deployment/api"))).toBe("All connections");
    expect(formatConnectionSet(a.between("shop/DaemonSet/agent", "shop/Deployment/api"))).toBe("No connections");
    expect(formatConnectionSet(a.between("shop/Deployment/api", "shop/DaemonSet/agent"))).toBe("All connections");
    expect(formatConnectionSet(a.between("192.0.2.1", "shop/Deployment/api"))).toBe("All connections");
    expect(formatConnectionSet(a.between("2001:db8::1", "shop/Deployment/api"))).toBe("No connections");
    // Replicas of one workload are judged as any two pods: web's pods admit each other.
    expect(formatConnectionSet(a.between("shop/Deployment/web", "shop/Deployment/web"))).toBe("All connections");
    expect(formatConnectionSet(a.between("shop/Deployment/api", "shop/Deployment/api"))).toBe("No connections");
  });

  it("skips invalid and duplicate policies as the engine does", () => {
    const bad = policy("shop", "bad", { podSelector: { matchLabels: { "bad key!": "x" } } });
    const first = policy("shop", "dup", { podSelector: {} });
    const second = policy("shop", "dup", { podSelector: {}, ingress: [{}] });
    const a = analyzeConnectivity({ namespaces, workloads: [web, api], policies: [bad, first, second] });
    expect(a.skipped.map((s) => [s.name, s.index])).toEqual([
      ["shop/bad", 0],
      ["shop/dup", 2],
    ]);
    expect(formatConnectionSet(a.between("shop/Deployment/web", "shop/Deployment/api"))).toBe("No connections");
  });

  it("refuses input it cannot give a meaning to, naming where", () => {
    const errorOf = (f: () => unknown): [string, string] => {
      try {
        f();
      } catch (e) {
        if (e instanceof EvaluatorInputError) return [e.path, e.reason];
        throw e;
      }
      throw new Error("no error");
    };
    expect(
      errorOf(() => analyzeConnectivity({ namespaces, workloads: [{ ...web, namespace: "nope" }], policies: [] })),
    ).toEqual(["workloads[0].namespace", 'namespace "nope" is not listed in namespaces']);
    expect(errorOf(() => analyzeConnectivity({ namespaces, workloads: [web, web], policies: [] }))[0]).toBe(
      "workloads[1].name",
    );
    expect(
      errorOf(() =>
        analyzeConnectivity({ namespaces, workloads: [web], policies: [] }, { externalCuts: ["10.0.0.0/33"] }),
      )[0],
    ).toBe("options.externalCuts[0]");
    const a = analyzeConnectivity({ namespaces, workloads: [web], policies: [] });
    expect(errorOf(() => a.between("shop/web", "shop/Deployment/web"))).toEqual([
      "from",
      '"shop/web" is neither a workload (namespace/kind/name) of the input nor an IP address',
    ]);
    expect(errorOf(() => a.between("192.0.2.1", "192.0.2.2"))[0]).toBe("to");
  });

  it("keeps labels named __proto__ and constructor as labels, without touching prototypes", () => {
    const odd: ClusterWorkload = { ...web, labels: JSON.parse('{"__proto__": "x", "constructor": "y"}') };
    const p = policy("shop", "p", { podSelector: { matchLabels: { constructor: "y" } }, ingress: [] });
    const a = analyzeConnectivity({ namespaces, workloads: [odd, api], policies: [p] });
    expect(a.policies[0]!.selects).toEqual(["shop/Deployment/web"]);
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });
});

// ------------------------------------------------------------------ against the policy engine

const NEVER = { podSelector: { matchLabels: { "clusterwire.test/never": "x" } } };

/** The policies with every ipBlock peer turned into a selector that matches no pod. */
function withoutBlocks(policies: readonly NetworkPolicy[]): NetworkPolicy[] {
  return policies.map((p) => {
    const j = toJson(p) as { spec?: { ingress?: { from?: object[] }[]; egress?: { to?: object[] }[] } };
    for (const r of j.spec?.ingress ?? []) if (r.from) r.from = r.from.map((x) => ("ipBlock" in x ? NEVER : x));
    for (const r of j.spec?.egress ?? []) if (r.to) r.to = r.to.map((x) => ("ipBlock" in x ? NEVER : x));
    return fromJson(j as never) as NetworkPolicy;
  });
}

function asInput(c: GeneratedCluster): ConnectivityInput {
  return {
    namespaces: c.namespaces,
    workloads: c.pods.map((p) => ({
      namespace: p.namespace,
      kind: "Pod",
      name: p.name,
      ...(p.labels ? { labels: p.labels } : {}),
      ...(p.ports ? { ports: p.ports } : {}),
      ...(p.hostNetwork ? { hostNetwork: true } : {}),
    })),
    policies: c.policies,
  };
}

/** No node-local traffic: the analysis does not know nodes. */
const podsWithoutNodes = (pods: readonly ClusterPod[]): ClusterPod[] => pods.map(({ hostIP: _h, ...p }) => p);

describe("analyzeConnectivity against createPolicyEngine", () => {
  it("gives every workload pair, and every address, the engine's verdict on every mentioned port", () => {
    let checked = 0;
    fc.assert(
      fc.property(arbCluster({ maxPods: 6, maxPolicies: 5 }), (c) => {
        const a = analyzeConnectivity(asInput(c));
        const pods = podsWithoutNodes(c.pods);
        const pairs = createPolicyEngine({ namespaces: c.namespaces, pods, policies: withoutBlocks(c.policies) });
        const real = createPolicyEngine({ namespaces: c.namespaces, pods, policies: c.policies });
        const ports = [...new Set([1, 65535, ...mentionedPorts(c)])];
        const keys = c.pods.map((p) => `${p.namespace}/Pod/${p.name}`);
        const probes = a.segments.flatMap((s) => [s.first, s.last]);
        for (const protocol of ["TCP", "UDP", "SCTP"] as Protocol[]) {
          for (const port of ports) {
            c.pods.forEach((from, i) => {
              c.pods.forEach((to, j) => {
                if (i === j) return;
                const engine = pairs.evaluate({
                  from: { pod: `${from.namespace}/${from.name}` },
                  to: { pod: `${to.namespace}/${to.name}` },
                  protocol,
                  port,
                });
                expect(
                  connectionSetIncludes(a.between(keys[i]!, keys[j]!), protocol, port),
                  `${keys[i]} -> ${keys[j]} ${protocol} ${port}`,
                ).toBe(engine.allowed);
                checked++;
              });
              for (const ip of probes) {
                const out = real.evaluate({
                  from: { pod: `${from.namespace}/${from.name}` },
                  to: { ip },
                  protocol,
                  port,
                });
                expect(connectionSetIncludes(a.between(keys[i]!, ip), protocol, port), `${keys[i]} -> ${ip}`).toBe(
                  out.allowed,
                );
                if (from.hostNetwork) continue; // the engine would judge the node's own traffic
                const inn = real.evaluate({
                  from: { ip },
                  to: { pod: `${from.namespace}/${from.name}` },
                  protocol,
                  port,
                });
                expect(connectionSetIncludes(a.between(ip, keys[i]!), protocol, port), `${ip} -> ${keys[i]}`).toBe(
                  inn.allowed,
                );
              }
            });
          }
        }
        // lines() lists exactly the non-empty pairs and address groups.
        for (const line of a.lines()) {
          const probe = (p: typeof line.from) => (p.type === "workload" ? p.key : p.ranges[0]!.first);
          expect(a.between(probe(line.from), probe(line.to))).toEqual(line.connections);
        }
      }),
      { numRuns: propertyRuns(25) },
    );
    expect(checked).toBeGreaterThan(100);
  });
});
