import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { IPAddressSpecSchema, NetworkPolicySpecSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { sameValue } from "../../../src/networking/model/same-value.js";

describe("sameValue", () => {
  it("compares messages field by field, deep", () => {
    const a = create(NetworkPolicySpecSchema, {
      podSelector: { matchLabels: { app: "web" } },
      policyTypes: ["Ingress"],
    });
    const b = create(NetworkPolicySpecSchema, {
      podSelector: { matchLabels: { app: "web" } },
      policyTypes: ["Ingress"],
    });
    expect(sameValue(a, b)).toBe(true);
    b.podSelector!.matchLabels = { app: "api" };
    expect(sameValue(a, b)).toBe(false);
  });

  it("a field set to its default equals one left unset, as a Go value field does", () => {
    const a = create(IPAddressSpecSchema, { parentRef: { resource: "services", name: "x" } });
    const b = create(IPAddressSpecSchema, { parentRef: { resource: "services", name: "x", group: "" } });
    expect(sameValue(a, b)).toBe(true);
  });

  it("a missing message is not an empty one, as a nil pointer is not a zero struct", () => {
    expect(sameValue(create(IPAddressSpecSchema), create(IPAddressSpecSchema, { parentRef: {} }))).toBe(false);
    expect(sameValue(undefined, undefined)).toBe(true);
  });

  it("lists compare by length and order, maps by entries", () => {
    expect(sameValue(["a", "b"], ["b", "a"])).toBe(false);
    expect(sameValue(["a"], ["a", "a"])).toBe(false);
    expect(sameValue({ a: "1", b: "2" }, { b: "2", a: "1" })).toBe(true);
  });
});
