// The v1 defaults as values (pkg/apis/networking/v1 defaulting): a NetworkPolicy without
// policyTypes is Ingress, plus Egress when it has egress rules; IngressClass parameters without
// a scope are Cluster-scoped.

import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  IngressClassParametersReferenceSchema,
  NetworkPolicySpecSchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { effectiveParametersScope, effectivePolicyTypes } from "../../../src/networking/validation/default-values.js";

describe("effectivePolicyTypes", () => {
  it("none given: Ingress, and Egress too when there are egress rules", () => {
    expect(effectivePolicyTypes(create(NetworkPolicySpecSchema))).toEqual(["Ingress"]);
    expect(effectivePolicyTypes(create(NetworkPolicySpecSchema, { ingress: [{}] }))).toEqual(["Ingress"]);
    expect(effectivePolicyTypes(create(NetworkPolicySpecSchema, { egress: [{}] }))).toEqual(["Ingress", "Egress"]);
  });

  it("given ones are kept as they are, even an empty egress list with Egress, or Egress alone with ingress rules", () => {
    const spec = create(NetworkPolicySpecSchema, { policyTypes: ["Egress"], ingress: [{}] });
    expect(effectivePolicyTypes(spec)).toBe(spec.policyTypes);
    expect(effectivePolicyTypes(create(NetworkPolicySpecSchema, { policyTypes: ["Egress", "Ingress"] }))).toEqual([
      "Egress",
      "Ingress",
    ]);
  });

  it("the defaults are frozen: a caller cannot change them for the next one", () => {
    const d = effectivePolicyTypes(create(NetworkPolicySpecSchema));
    expect(Object.isFrozen(d)).toBe(true);
    expect(Object.isFrozen(effectivePolicyTypes(create(NetworkPolicySpecSchema, { egress: [{}] })))).toBe(true);
  });
});

describe("effectiveParametersScope", () => {
  it("a missing scope is Cluster; a set one is kept, even an empty string", () => {
    expect(effectiveParametersScope(create(IngressClassParametersReferenceSchema, { kind: "K", name: "n" }))).toBe(
      "Cluster",
    );
    expect(effectiveParametersScope(create(IngressClassParametersReferenceSchema, { scope: "Namespace" }))).toBe(
      "Namespace",
    );
    expect(effectiveParametersScope(create(IngressClassParametersReferenceSchema, { scope: "Cluster" }))).toBe(
      "Cluster",
    );
    expect(effectiveParametersScope(create(IngressClassParametersReferenceSchema, { scope: "" }))).toBe("");
  });
});
