// The NetworkPolicies of a random cluster (src/testing/clusters/policies.ts): plans turned into
// JSON and built against the cluster's pods; every drawn policy passes validate(), ipBlocks are
// anchored on the pods, nodes and the outside addresses, and an absent podSelector stays absent.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatFieldError, validate, type ClusterPod } from "../../../src/networking/index.js";
import { parseNetwork } from "../../../src/testing/addresses.js";
import {
  anchorsOf,
  blockJson,
  buildPolicy,
  policyPlanArb,
  portJson,
  selectorJson,
  type PolicyPlan,
} from "../../../src/testing/clusters/policies.js";

const pods: ClusterPod[] = [
  { namespace: "x", name: "a", ip: "10.0.0.5", hostIP: "10.1.0.1" },
  { namespace: "y", name: "a", ip: "fd00::5" },
];
const anchors = anchorsOf(pods);
const cluster = { namespaces: [{ name: "x" }, { name: "y" }], pods, anchors };
const plan = (fields: Partial<PolicyPlan> = {}): PolicyPlan => ({
  name: "web",
  ns: { where: "pods", index: 1 },
  podSelector: { labels: {}, exprs: [] },
  policyTypes: undefined,
  ingress: undefined,
  egress: undefined,
  ...fields,
});

describe("the JSON of a plan", () => {
  it("anchorsOf: every pod's and node's address by family, and the outside ones", () => {
    expect(anchors).toEqual({
      v4: [0x0a000005n, 0x0a010001n, 0xcb007100n],
      v6: [(0xfd00n << 112n) | 5n, 0x20010db8n << 96n],
    });
  });

  it("selectorJson: {} for an empty selector; labels and expressions, no values for Exists", () => {
    expect(selectorJson({ labels: {}, exprs: [] })).toEqual({});
    expect(
      selectorJson({
        labels: { app: "a" },
        exprs: [
          { key: "tier", op: "In", values: ["b"] },
          { key: "team", op: "Exists", values: [] },
        ],
      }),
    ).toEqual({
      matchLabels: { app: "a" },
      matchExpressions: [
        { key: "tier", operator: "In", values: ["b"] },
        { key: "team", operator: "Exists" },
      ],
    });
  });

  it("portJson: no port, a number, a range capped at 65535, or a name; the protocol only when given", () => {
    expect(portJson({ kind: "any", protocol: undefined })).toEqual({});
    expect(portJson({ kind: "number", protocol: "UDP", port: 53 })).toEqual({ protocol: "UDP", port: 53 });
    expect(portJson({ kind: "range", protocol: undefined, port: 65000, span: 70000 })).toEqual({
      port: 65000,
      endPort: 65535,
    });
    expect(portJson({ kind: "named", protocol: "TCP", name: "http" })).toEqual({ protocol: "TCP", port: "http" });
  });

  it("blockJson: a cidr over an anchor, host bits or upper case on request, excepts strictly inside", () => {
    const block = { family: 4 as const, anchor: 0, prefix: 1, hostBits: false, upper: false, excepts: undefined };
    expect(blockJson(block, anchors)).toEqual({ cidr: "10.0.0.0/24" });
    expect(blockJson({ ...block, hostBits: true }, anchors)).toEqual({ cidr: "10.0.0.5/24" });
    expect(blockJson({ ...block, family: "mapped" }, anchors)).toEqual({ cidr: "::ffff:10.0.0.0/120" });
    expect(blockJson({ ...block, family: 6, prefix: 2, upper: true }, anchors)).toEqual({ cidr: "FD00::/64" });
    const withExcepts = blockJson(
      {
        ...block,
        excepts: [
          { anchor: 0, extra: 0, sibling: false },
          { anchor: 0, extra: 7, sibling: true },
        ],
      },
      anchors,
    );
    expect(withExcepts).toEqual({ cidr: "10.0.0.0/24", except: ["10.0.0.0/25", "10.0.0.4/32"] });
    // A /32 holds nothing strictly inside it: the except list is empty.
    expect(blockJson({ ...block, prefix: 0, excepts: [{ anchor: 0, extra: 0, sibling: false }] }, anchors)).toEqual({
      cidr: "10.0.0.5/32",
      except: [],
    });
    const cidr = parseNetwork(withExcepts["cidr"] as string)!;
    for (const e of withExcepts["except"] as string[]) expect(parseNetwork(e)!.prefix).toBeGreaterThan(cidr.prefix);
  });
});

describe("buildPolicy", () => {
  it("its namespace: a pod's by index, the pod-less one, or none; an absent podSelector stays absent", () => {
    expect(buildPolicy(plan(), "web-0", cluster).metadata?.namespace).toBe("y");
    expect(buildPolicy(plan({ ns: { where: "podless", index: 0 } }), "web-0", cluster).metadata?.namespace).toBe("v");
    expect(buildPolicy(plan({ ns: { where: "omitted", index: 0 } }), "web-0", cluster).metadata?.namespace).toBe("");
    expect(buildPolicy(plan(), "web-0", cluster).spec?.podSelector).toBeDefined();
    expect(buildPolicy(plan({ podSelector: "absent" }), "web-0", cluster).spec?.podSelector).toBeUndefined();
  });

  it("every drawn plan builds a policy validate() accepts", () => {
    const plans = fc.sample(policyPlanArb, { seed: 6, numRuns: 300 });
    for (const [i, p] of plans.entries()) {
      const policy = buildPolicy(p, `${p.name}-${i}`, cluster);
      expect(validate(policy).map(formatFieldError), JSON.stringify(p)).toEqual([]);
    }
  });
});
