// The lint's view of an analysis: peers numbered workloads first, then segments; rules as bit
// sets; which policies isolate each workload; and refusals of an input that does not match.

import { describe, expect, it } from "vitest";
import { members } from "../../../src/connectivity/lint/bitset.js";
import { buildModel, policyKey } from "../../../src/connectivity/lint/model.js";
import {
  ALL_CONNECTIONS,
  analyzeConnectivity,
  type ConnectivityInput,
  EvaluatorInputError,
  formatConnectionSet,
  fromJson,
  type NetworkPolicy,
} from "../../../src/networking/index.js";

function np(namespace: string | undefined, name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: namespace === undefined ? { name } : { namespace, name },
    spec,
  } as never) as NetworkPolicy;
}

const input: ConnectivityInput = {
  namespaces: [{ name: "shop" }, { name: "default" }],
  workloads: [
    {
      namespace: "shop",
      kind: "Deployment",
      name: "web",
      labels: { app: "web" },
      ports: [{ name: "http", containerPort: 8080 }],
    },
    { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } },
    { namespace: "shop", kind: "DaemonSet", name: "agent", labels: { app: "agent" }, hostNetwork: true },
  ],
  policies: [
    np("shop", "web", {
      podSelector: { matchLabels: { app: "web" } },
      policyTypes: ["Ingress", "Egress"],
      ingress: [{ from: [{ podSelector: { matchLabels: { app: "api" } } }], ports: [{ port: "http" }] }, {}],
      egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }], ports: [{ port: 443 }] }],
    }),
    np("shop", "all", { podSelector: {}, policyTypes: ["Ingress"] }),
    np(undefined, "elsewhere", { podSelector: {} }),
  ],
};

describe("buildModel", () => {
  const analysis = analyzeConnectivity(input);
  const model = buildModel(analysis, input);

  it("numbers the workloads first, then the segments, split by family", () => {
    expect(model.workloadKeys).toEqual(["shop/Deployment/web", "shop/Deployment/api", "shop/DaemonSet/agent"]);
    expect(model.hostNetwork).toEqual([false, false, true]);
    expect(model.size).toBe(3 + analysis.segments.length);
    const v4 = members(model.ipv4).map((p) => analysis.segments[p - 3]!);
    const v6 = members(model.ipv6).map((p) => analysis.segments[p - 3]!);
    expect(v4.every((s) => s.family === 4) && v6.every((s) => s.family === 6)).toBe(true);
    expect(v4.length + v6.length).toBe(analysis.segments.length);
  });

  it("gives each rule its peers as bits, and its ports", () => {
    const web = model.policies[0]!;
    expect(web.key).toBe("shop/web");
    expect(web.selects).toEqual([0]);
    const [fromApi, open] = web.ingress!;
    expect(members(fromApi!.peers)).toEqual([1]);
    expect(fromApi!.named).toEqual([{ protocol: "TCP", name: "http" }]);
    expect(members(open!.peers)).toEqual([...Array(model.size).keys()]);
    expect(open!.ports).toEqual(ALL_CONNECTIONS);
    const [out] = web.egress!;
    const cidrs = members(out!.peers).flatMap((p) => analysis.segments[p - 3]!.cidrs);
    expect(cidrs).toEqual([
      "10.0.0.0/16",
      "10.2.0.0/15",
      "10.4.0.0/14",
      "10.8.0.0/13",
      "10.16.0.0/12",
      "10.32.0.0/11",
      "10.64.0.0/10",
      "10.128.0.0/9",
    ]);
    expect(formatConnectionSet(out!.ports)).toBe("TCP 443");
  });

  it("lists the policies that isolate each workload, per direction, and where named ports are", () => {
    expect(model.isolating.ingress).toEqual([[0, 1], [1], []]);
    expect(model.isolating.egress).toEqual([[0], [], []]);
    expect(model.namedPorts).toEqual({ ingress: true, egress: false });
    expect(model.policies[2]).toMatchObject({ key: "default/elsewhere", namespace: "default", selects: [] });
  });

  it("refuses an input the analysis was not made from", () => {
    expect(() => buildModel(analysis, { ...input, workloads: input.workloads.slice(0, 2) })).toThrow(
      EvaluatorInputError,
    );
    const renamed = input.workloads.map((w, i) => (i === 1 ? { ...w, name: "other" } : w));
    expect(() => buildModel(analysis, { ...input, workloads: renamed })).toThrow(
      /input\.workloads\[1\]: is shop\/Deployment\/other where the analysis has shop\/Deployment\/api/,
    );
    expect(() => buildModel(analysis, { ...input, policies: input.policies.slice(0, 1) })).toThrow(
      /input\.policies\[1\]/,
    );
  });
});

describe("policyKey", () => {
  it("puts a policy without a namespace in default", () => {
    expect(policyKey(np(undefined, "a", { podSelector: {} }))).toBe("default/a");
    expect(policyKey(np("shop", "a", { podSelector: {} }))).toBe("shop/a");
  });
});
