import { describe, expect, it } from "vitest";
import { API_PREFIX, CLIENT_KINDS, kindFacts } from "../../src/client/kinds.js";
import { KINDS } from "../../src/networking/index.js";

describe("kindFacts", () => {
  it("states each kind's REST facts, with namespacing and type names as clusterwire/networking's KINDS", () => {
    expect(API_PREFIX).toBe("/apis/networking.k8s.io/v1");
    expect(CLIENT_KINDS).toEqual(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]);
    expect(CLIENT_KINDS.map(kindFacts)).toEqual([
      {
        kind: "Ingress",
        plural: "ingresses",
        namespaced: true,
        hasStatus: true,
        typeName: "k8s.io.api.networking.v1.Ingress",
        listTypeName: "k8s.io.api.networking.v1.IngressList",
      },
      {
        kind: "IngressClass",
        plural: "ingressclasses",
        namespaced: false,
        hasStatus: false,
        typeName: "k8s.io.api.networking.v1.IngressClass",
        listTypeName: "k8s.io.api.networking.v1.IngressClassList",
      },
      {
        kind: "NetworkPolicy",
        plural: "networkpolicies",
        namespaced: true,
        hasStatus: false,
        typeName: "k8s.io.api.networking.v1.NetworkPolicy",
        listTypeName: "k8s.io.api.networking.v1.NetworkPolicyList",
      },
      {
        kind: "IPAddress",
        plural: "ipaddresses",
        namespaced: false,
        hasStatus: false,
        typeName: "k8s.io.api.networking.v1.IPAddress",
        listTypeName: "k8s.io.api.networking.v1.IPAddressList",
      },
      {
        kind: "ServiceCIDR",
        plural: "servicecidrs",
        namespaced: false,
        hasStatus: true,
        typeName: "k8s.io.api.networking.v1.ServiceCIDR",
        listTypeName: "k8s.io.api.networking.v1.ServiceCIDRList",
      },
    ]);
  });

  it("serves every networking.k8s.io/v1 kind but the lists, and has status exactly where the message has a status field", () => {
    const kinds = KINDS.filter((k) => k.apiVersion === "networking.k8s.io/v1" && !k.list);
    expect(kinds.map((k) => k.kind).sort()).toEqual([...CLIENT_KINDS].sort());
    for (const k of kinds) {
      expect(kindFacts(k.kind).hasStatus, k.kind).toBe(k.desc.fields.some((f) => f.name === "status"));
    }
  });

  it("refuses any other kind with a RangeError naming the ones it serves", () => {
    for (const bad of ["IngressList", "Status", "Pod", "", "__proto__"]) {
      expect(() => kindFacts(bad), bad).toThrow(RangeError);
    }
    expect(() => kindFacts("Pod")).toThrow(
      'the client serves Ingress, IngressClass, NetworkPolicy, IPAddress, ServiceCIDR, not "Pod"',
    );
  });
});
