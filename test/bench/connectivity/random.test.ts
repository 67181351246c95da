import { describe, expect, it } from "vitest";
import { randomCases, scenarioOf, unsharedPods, unsharedPolicy } from "../../../bench/connectivity/random.js";
import { analyzeConnectivity, fromJson, type JsonValue, type NetworkPolicy } from "../../../src/networking/index.js";
import { scenarioInput } from "../../support/np-guard/scenario.js";

const policy = (spec: Record<string, unknown>): NetworkPolicy =>
  fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "p", namespace: "x" },
    spec,
  } as JsonValue) as NetworkPolicy;

describe("what np-guard does not share", () => {
  it("finds IPv6 blocks and named egress ports that can reach addresses", () => {
    expect(
      unsharedPolicy([policy({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "fd00::/8" } }] }] })]),
    ).toBe("an IPv6 ipBlock");
    expect(unsharedPolicy([policy({ podSelector: {}, egress: [{ ports: [{ port: "dns", protocol: "UDP" }] }] })])).toBe(
      "a named port in an egress rule that can reach addresses",
    );
    expect(
      unsharedPolicy([
        policy({ podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ports: [{ port: "dns" }] }] }),
      ]),
    ).toBe("a named port in an egress rule that can reach addresses");
  });

  it("lets through named egress ports towards selectors, numbered ports and IPv4 blocks", () => {
    expect(
      unsharedPolicy([
        policy({
          podSelector: {},
          ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ports: [{ port: "http" }] }],
          egress: [
            { to: [{ podSelector: {} }], ports: [{ port: "dns" }] },
            { to: [{ ipBlock: { cidr: "0.0.0.0/0" } }], ports: [{ port: 443 }] },
          ],
        }),
      ]),
    ).toBeUndefined();
  });

  it("finds a pod that names two ports alike", () => {
    const pod = (ports: { name?: string; containerPort: number }[]) => ({
      namespaces: [{ name: "x" }],
      pods: [{ namespace: "x", name: "a", ip: "10.0.0.1", ports }],
      policies: [],
    });
    expect(
      unsharedPods(
        pod([
          { name: "m", containerPort: 1 },
          { name: "m", containerPort: 2 },
        ]),
      ),
    ).toBe("a pod naming two ports alike");
    expect(
      unsharedPods(pod([{ name: "m", containerPort: 1 }, { containerPort: 2 }, { containerPort: 3 }])),
    ).toBeUndefined();
  });
});

describe("scenarioOf", () => {
  it("drops a namespace's own name label and makes colliding workloads Pods", () => {
    const s = scenarioOf(
      {
        namespaces: [{ name: "x", labels: { team: "t", "kubernetes.io/metadata.name": "other" } }],
        pods: [
          { namespace: "x", name: "web", ip: "10.0.0.1", labels: { app: "web" } },
          { namespace: "x", name: "api", ip: "10.0.0.2", labels: { app: "api" } },
          { namespace: "x", name: "api-1", ip: "10.0.0.3" },
        ],
        policies: [],
      },
      [policy({ podSelector: {} })],
    );
    expect(s.namespaces).toEqual([{ name: "x", labels: { team: "t" } }]);
    expect(s.workloads.map((w) => [w.kind, w.name])).toEqual([
      ["Pod", "web"],
      ["Pod", "api"],
      ["ReplicaSet", "api-1"],
    ]);
    expect(s.policies).toEqual([
      {
        kind: "NetworkPolicy",
        apiVersion: "networking.k8s.io/v1",
        metadata: { name: "p", namespace: "x" },
        spec: { podSelector: {} },
      },
    ]);
  });
});

describe("randomCases", () => {
  it("gives the same cases for a seed, each inside the shared semantics and valid for clusterwire", () => {
    const { cases } = randomCases(8, 42);
    expect(cases).toHaveLength(8);
    expect(randomCases(8, 42).cases).toEqual(cases);
    for (const c of cases) {
      for (const s of [c.before, c.after]) {
        const input = scenarioInput(s);
        expect(analyzeConnectivity(input).skipped).toEqual([]);
        expect(unsharedPolicy(input.policies)).toBeUndefined();
      }
    }
  });
});
