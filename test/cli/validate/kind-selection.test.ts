import { describe, expect, it } from "vitest";
import { kindSelector, kindTokens, unknownKinds } from "../../../src/cli/validate/kind-selection.js";
import { KINDS } from "../../../src/networking/index.js";

const V1 = "networking.k8s.io/v1";

describe("kindTokens", () => {
  it("splits repeated, comma-separated values, trimming and dropping empty items", () => {
    expect(kindTokens(["Ingress, NetworkPolicy", "", " IngressClass ,,"])).toEqual([
      "Ingress",
      "NetworkPolicy",
      "IngressClass",
    ]);
    expect(kindTokens([])).toEqual([]);
  });
});

describe("unknownKinds", () => {
  it("accepts every networking kind by name or with its API version, Lists included, and not meta/v1 Status", () => {
    const networking = KINDS.filter((k) => k.apiVersion === "networking.k8s.io/v1");
    expect(networking.length).toBeGreaterThanOrEqual(10);
    expect(unknownKinds(networking.flatMap((k) => [k.kind, `${k.apiVersion}/${k.kind}`]))).toEqual([]);
    expect(unknownKinds(["Status", "v1/Status"])).toEqual(["Status", "v1/Status"]);
  });

  it("names what is not a kind: a plural, a wrong case, another API version, another group's kind", () => {
    expect(
      unknownKinds(["Ingresses", "ingress", "networking.k8s.io/v1beta1/Ingress", "apps/v1/Deployment", "Deployment"]),
    ).toEqual(["Ingresses", "ingress", "networking.k8s.io/v1beta1/Ingress", "apps/v1/Deployment", "Deployment"]);
  });
});

describe("kindSelector", () => {
  it("selects everything when neither flag is given", () => {
    expect(kindSelector([], [])).toBeUndefined();
  });

  it("--kinds Ingress selects Ingress and IngressList, nothing else", () => {
    const select = kindSelector(["Ingress"], [])!;
    expect(select(V1, "Ingress")).toBe(true);
    expect(select(V1, "IngressList")).toBe(true);
    expect(select(V1, "IngressClass")).toBe(false);
    expect(select(V1, "NetworkPolicy")).toBe(false);
  });

  it("with an API version, only that version matches", () => {
    const select = kindSelector([`${V1}/Ingress`], [])!;
    expect(select(V1, "Ingress")).toBe(true);
    expect(select(V1, "IngressList")).toBe(true);
    expect(select("networking.k8s.io/v1beta1", "Ingress")).toBe(false);
  });

  it("--skip-kinds leaves out a kind and its List, and wins over --kinds", () => {
    const skip = kindSelector([], ["NetworkPolicy"])!;
    expect(skip(V1, "NetworkPolicy")).toBe(false);
    expect(skip(V1, "NetworkPolicyList")).toBe(false);
    expect(skip(V1, "Ingress")).toBe(true);
    const both = kindSelector(["Ingress", "NetworkPolicy"], ["NetworkPolicy"])!;
    expect(both(V1, "Ingress")).toBe(true);
    expect(both(V1, "NetworkPolicy")).toBe(false);
  });

  it("a List kind named selects only that List", () => {
    const select = kindSelector(["IngressList"], [])!;
    expect(select(V1, "IngressList")).toBe(true);
    expect(select(V1, "Ingress")).toBe(false);
  });
});
