import { describe, expect, it } from "vitest";
import {
  INGRESS_CONTROLLER_KEY,
  ingressControllerKey,
  withIngressController,
} from "../../../src/connectivity/index.js";
import { type ConnectivityInput, EvaluatorInputError } from "../../../src/networking/index.js";

const input: ConnectivityInput = {
  namespaces: [{ name: "alpha" }, { name: "shop", labels: { team: "a" } }],
  workloads: [{ namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } }],
  policies: [],
};

describe("withIngressController", () => {
  it("adds the controller as the last workload and its namespace in name order, leaving the input as it was", () => {
    const before = structuredClone(input);
    const out = withIngressController(input);
    expect(out.workloads.at(-1)).toEqual({
      namespace: "ingress-controller",
      kind: "IngressController",
      name: "ingress-controller",
      labels: {},
      ports: [],
    });
    expect(out.workloads.slice(0, -1)).toEqual(input.workloads);
    expect(out.namespaces).toEqual([
      { name: "alpha" },
      { name: "ingress-controller" },
      { name: "shop", labels: { team: "a" } },
    ]);
    expect(out.policies).toBe(input.policies);
    expect(input).toEqual(before);
    const last = out.workloads.at(-1);
    expect(`${last?.namespace}/${last?.kind}/${last?.name}`).toBe(INGRESS_CONTROLLER_KEY);
  });

  it("runs in the namespace and with the labels asked for, keeping a namespace the input has", () => {
    const out = withIngressController(input, { namespace: "shop", labels: { __proto__: "x", app: "nginx" } as never });
    const controller = out.workloads.at(-1);
    expect(`${controller?.namespace}/${controller?.kind}/${controller?.name}`).toBe(ingressControllerKey("shop"));
    expect(Object.getPrototypeOf(controller?.labels)).toBe(Object.prototype);
    expect(controller?.labels).toEqual({ app: "nginx" });
    expect(out.namespaces).toEqual(input.namespaces);
    const own = withIngressController(input, { labels: JSON.parse('{"__proto__": "x"}') }).workloads.at(-1)?.labels;
    expect(Object.entries(own ?? {})).toEqual([["__proto__", "x"]]);
  });

  it("refuses a bad namespace, a label that is no string, and a second controller", () => {
    expect(() => withIngressController(input, { namespace: "" })).toThrow(EvaluatorInputError);
    expect(() => withIngressController(input, { labels: { a: 1 } as never })).toThrow(
      /controller\.labels\["a"\]: must be a string/,
    );
    expect(() => withIngressController(input, { labels: ["a"] as never })).toThrow(
      /controller\.labels: must be a map of strings/,
    );
    expect(() => withIngressController(withIngressController(input))).toThrow(
      /workloads: already has a workload ingress-controller\/IngressController\/ingress-controller/,
    );
    expect(() => withIngressController(null as never)).toThrow(EvaluatorInputError);
  });
});
