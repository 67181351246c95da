// The pods and namespaces of a random cluster (src/testing/clusters/pods.ts), built from plans:
// names restart in every namespace, a hostNetwork pod carries its node's address, a pod may take
// another's IP as its hostIP, and a (name, protocol) pair names one container port at most.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPolicyEngine } from "../../../src/networking/index.js";
import { buildNamespaces, buildPods, podPlanArb, type PodPlan } from "../../../src/testing/clusters/pods.js";

const plan = (fields: Partial<PodPlan> = {}): PodPlan => ({
  ns: 0,
  labels: {},
  family: 4,
  subnet: 0,
  host: 5,
  node: 0,
  hostNetwork: false,
  withHostIP: false,
  hostIPOfPod: undefined,
  spelling: "plain",
  ports: [],
  ...fields,
});

describe("buildNamespaces", () => {
  it("each name with its labels, none when they are empty", () => {
    expect(buildNamespaces(["x", "y", "z"], [{ team: "a" }, {}])).toEqual([
      { name: "x", labels: { team: "a" } },
      { name: "y" },
      { name: "z" },
    ]);
  });
});

describe("buildPods", () => {
  const namespaces = buildNamespaces(["x", "y"], []);

  it("names restart in every namespace; the namespace index wraps", () => {
    const pods = buildPods(namespaces, [plan(), plan({ ns: 1 }), plan({ ns: 2 }), plan({ ns: 3 })]);
    expect(pods.map((p) => `${p.namespace}/${p.name}`)).toEqual(["x/a", "y/a", "x/b", "y/b"]);
  });

  it("addresses: the pod's own, its node's as hostIP, and for a hostNetwork pod the node's as both", () => {
    const [own, withNode, host, v6, mapped] = buildPods(namespaces, [
      plan({ subnet: 1, host: 7 }),
      plan({ node: 2, withHostIP: true }),
      plan({ node: 1, hostNetwork: true, withHostIP: true }),
      plan({ family: 6, subnet: 1, host: 7, spelling: "zeros" }),
      plan({ spelling: "mapped" }),
    ]);
    expect(own).toEqual({ namespace: "x", name: "a", ip: "10.0.1.7" });
    expect(withNode).toMatchObject({ ip: "10.0.0.5", hostIP: "10.1.0.3" });
    expect(host).toMatchObject({ ip: "10.1.0.2", hostIP: "10.1.0.2", hostNetwork: true });
    expect(v6?.ip).toBe("fd00::1:7");
    expect(mapped?.ip).toBe("::ffff:10.0.0.5");
  });

  it("hostIPOfPod: another pod's IP as hostIP, unless that is itself or a hostNetwork pod", () => {
    const pods = buildPods(namespaces, [
      plan({ host: 1, hostIPOfPod: 1 }),
      plan({ host: 2, hostIPOfPod: 1 }),
      plan({ host: 3, hostIPOfPod: 3 }),
      plan({ hostNetwork: true }),
    ]);
    expect(pods.map((p) => p.hostIP)).toEqual(["10.0.0.2", undefined, undefined, undefined]);
  });

  it("a (name, protocol) pair names one port; unnamed ports all kept; TCP when none is given", () => {
    const [pod] = buildPods(namespaces, [
      plan({
        ports: [
          { name: "http", containerPort: 80, protocol: undefined },
          { name: "http", containerPort: 81, protocol: "TCP" },
          { name: "http", containerPort: 82, protocol: "UDP" },
          { name: undefined, containerPort: 83, protocol: undefined },
          { name: undefined, containerPort: 84, protocol: "SCTP" },
        ],
      }),
    ]);
    expect(pod?.ports).toEqual([
      { name: "http", containerPort: 80 },
      { name: "http", containerPort: 82, protocol: "UDP" },
      { containerPort: 83 },
      { containerPort: 84, protocol: "SCTP" },
    ]);
  });

  it("pods built from drawn plans are ones the engine takes", () => {
    const all = buildNamespaces(["default", "x", "y", "z"], []);
    for (const plans of fc.sample(fc.array(podPlanArb, { maxLength: 8 }), { seed: 4, numRuns: 200 })) {
      const pods = buildPods(all, plans);
      expect(createPolicyEngine({ namespaces: all, pods, policies: [] }).pods).toHaveLength(pods.length);
    }
  });
});
