// applyDefaults: the v1 defaulting the API server applies before validation
// (pkg/apis/networking/v1): NetworkPolicy port protocols and policyTypes, IngressClass
// parameters' scope; Ingress, IPAddress and ServiceCIDR have no v1 defaults. The NetworkPolicy
// cases were in network-policy.test.ts ("§8 defaulting").

import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  IngressClassListSchema,
  IngressClassSchema,
  type IngressClass,
  IngressSchema,
  IPAddressSchema,
  type NetworkPolicy,
  NetworkPolicyListSchema,
  NetworkPolicySchema,
  ServiceCIDRSchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { EncodeError } from "../../../src/networking/model/errors.js";
import type { JsonObject } from "../../../src/networking/model/json-value.js";
import { fromJson } from "../../../src/networking/text/json/from-json.js";
import { toJson } from "../../../src/networking/text/json/to-json.js";
import { applyDefaults } from "../../../src/networking/validation/defaults.js";

function np(spec: JsonObject | undefined) {
  const o: JsonObject = {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "np", namespace: "default" },
  };
  if (spec !== undefined) o["spec"] = spec;
  return fromJson(o) as NetworkPolicy;
}
const port = (p: JsonObject): JsonObject => ({ ingress: [{ ports: [p] }] });

type J = Record<string, unknown>;
const specOf = (o: ReturnType<typeof np>): J => (toJson(o) as J)["spec"] as J;
const ports = (o: ReturnType<typeof np>, rule: "ingress" | "egress" = "ingress"): J[] =>
  (specOf(o)[rule] as J[])[0]!["ports"] as J[];

describe("applyDefaults: NetworkPolicy", () => {
  it("a nil protocol defaults to TCP in ingress and egress ports", () => {
    const o = applyDefaults(
      np({ ingress: [{ ports: [{ port: 80 }, { protocol: "UDP", port: 53 }] }], egress: [{ ports: [{}] }] }),
    );
    expect(ports(o).map((p) => p["protocol"])).toEqual(["TCP", "UDP"]);
    expect(ports(o, "egress")[0]!["protocol"]).toBe("TCP");
  });

  it('an explicit "" protocol is not defaulted', () => {
    const o = applyDefaults(np(port({ protocol: "", port: 80 })));
    expect(ports(o)[0]!["protocol"]).toBe("");
  });

  it("empty policyTypes become [Ingress]", () => {
    expect(specOf(applyDefaults(np({})))["policyTypes"]).toEqual(["Ingress"]);
    expect(specOf(applyDefaults(np({ policyTypes: [] })))["policyTypes"]).toEqual(["Ingress"]);
    expect(specOf(applyDefaults(np({ egress: [] })))["policyTypes"]).toEqual(["Ingress"]);
    expect(specOf(applyDefaults(np({ ingress: [{}] })))["policyTypes"]).toEqual(["Ingress"]);
  });

  it("empty policyTypes become [Ingress, Egress] when there are egress rules", () => {
    expect(specOf(applyDefaults(np({ egress: [{}] })))["policyTypes"]).toEqual(["Ingress", "Egress"]);
    expect(
      specOf(applyDefaults(np({ policyTypes: [], egress: [{ to: [{ podSelector: {} }] }] })))["policyTypes"],
    ).toEqual(["Ingress", "Egress"]);
  });

  it("non-empty policyTypes are kept as given", () => {
    expect(specOf(applyDefaults(np({ policyTypes: ["Egress"] })))["policyTypes"]).toEqual(["Egress"]);
    expect(specOf(applyDefaults(np({ policyTypes: ["Egress"], ingress: [{}] })))["policyTypes"]).toEqual(["Egress"]);
  });

  it("a policy without a spec gets Go's empty spec, then its defaults", () => {
    const d = applyDefaults(create(NetworkPolicySchema, { metadata: { name: "a" } }));
    expect(d.spec?.policyTypes).toEqual(["Ingress"]);
  });

  it("the input is not changed, and the copy shares nothing with it", () => {
    const o = np({ ingress: [{ ports: [{ port: 80 }] }], egress: [{}] });
    const before = JSON.stringify(toJson(o));
    const d = applyDefaults(o);
    expect(d).not.toBe(o);
    expect(JSON.stringify(toJson(o))).toBe(before);
    expect(specOf(o)["policyTypes"]).toBeUndefined();
    expect(d.spec).not.toBe(o.spec);
    expect(d.spec?.ingress[0]?.ports[0]).not.toBe(o.spec?.ingress[0]?.ports[0]);
  });
});

describe("applyDefaults: IngressClass", () => {
  it("parameters without a scope are Cluster-scoped; a given scope is kept; no parameters, nothing", () => {
    const ic = (parameters?: JsonObject) =>
      fromJson({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: "c" },
        spec: { controller: "example.com/lb", ...(parameters === undefined ? {} : { parameters }) },
      }) as IngressClass;
    expect(applyDefaults(ic({ kind: "K", name: "n" })).spec?.parameters?.scope).toBe("Cluster");
    expect(
      applyDefaults(ic({ kind: "K", name: "n", scope: "Namespace", namespace: "x" })).spec?.parameters?.scope,
    ).toBe("Namespace");
    const none = applyDefaults(ic());
    expect(none.spec?.parameters).toBeUndefined();
    expect(toJson(none)).toEqual(toJson(ic()));
  });
});

describe("applyDefaults: the other kinds, and lists", () => {
  it("Ingress, IPAddress and ServiceCIDR come back equal, as copies", () => {
    for (const o of [
      create(IngressSchema, { metadata: { name: "i" }, spec: { rules: [{ host: "a" }] } }),
      create(IPAddressSchema, { metadata: { name: "10.0.0.1" } }),
      create(ServiceCIDRSchema, { metadata: { name: "s" }, spec: { cidrs: ["10.0.0.0/24"] } }),
    ]) {
      const d = applyDefaults(o);
      expect(d).not.toBe(o);
      expect(d).toEqual(o);
    }
  });

  it("defaults each item of a list", () => {
    const list = create(NetworkPolicyListSchema, {
      items: [
        { metadata: { name: "a" }, spec: {} },
        { metadata: { name: "b" }, spec: { egress: [{}] } },
      ],
    });
    expect(applyDefaults(list).items.map((i) => i.spec?.policyTypes)).toEqual([["Ingress"], ["Ingress", "Egress"]]);
    expect(list.items.map((i) => i.spec?.policyTypes)).toEqual([[], []]);
    const classes = create(IngressClassListSchema, {
      items: [{ spec: { parameters: { kind: "K", name: "n" } } }],
    });
    expect(applyDefaults(classes).items[0]?.spec?.parameters?.scope).toBe("Cluster");
    expect(create(IngressClassSchema).spec).toBeUndefined();
  });

  it("throws for an object of no served kind", () => {
    expect(() => applyDefaults({ $typeName: "x" } as never)).toThrow(EncodeError);
  });
});
