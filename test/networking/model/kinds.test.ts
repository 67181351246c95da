import { describe, expect, it } from "vitest";
import { KIND_NAMES } from "../../../src/networking/model/kind-names.js";
import { KINDS, kindOfTypeName, lookupKind } from "../../../src/networking/model/kinds.js";

describe("KINDS", () => {
  it("pairs every kind name with the schema of that type, in the same order", () => {
    expect(KINDS.map((k) => k.kind)).toEqual(KIND_NAMES.map((n) => n.kind));
    KINDS.forEach((k, i) => {
      expect(k.desc, k.kind).toBeDefined();
      expect(k.desc.typeName).toBe(KIND_NAMES[i]?.typeName);
    });
  });

  it("finds kinds by type name and by apiVersion/kind", () => {
    expect(kindOfTypeName("k8s.io.api.networking.v1.Ingress")?.namespaced).toBe(true);
    expect(lookupKind("networking.k8s.io/v1", "IngressClassList")?.list).toBe(true);
    expect(lookupKind("v1", "Status")?.desc.typeName).toBe("k8s.io.apimachinery.pkg.apis.meta.v1.Status");
    expect(lookupKind("networking.k8s.io/v1", "Service")).toBeUndefined();
  });
});
