import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { KIND_NAMES } from "../../../src/networking/model/kind-names.js";
import { KINDS, kindOf, kindOfTypeName, lookupKind } from "../../../src/networking/model/kinds.js";
import { fromYaml } from "../../../src/networking/text/yaml/yaml.js";

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

describe("KindInfo printed and serialised", () => {
  const [ingress] = fromYaml("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n");

  it("console.log shows the kind's facts on one line, not its schema", () => {
    expect(inspect(kindOf(ingress!))).toBe(
      "KindInfo { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', namespaced: true }",
    );
    expect(inspect(lookupKind("networking.k8s.io/v1", "IngressClassList"))).toBe(
      "KindInfo { kind: 'IngressClassList', apiVersion: 'networking.k8s.io/v1', namespaced: false, list: true }",
    );
    // Nested in another value, too.
    expect(inspect({ info: kindOf(ingress!) })).not.toMatch(/desc|typeName|fields/);
  });

  it("JSON.stringify gives the same facts", () => {
    expect(JSON.parse(JSON.stringify(kindOf(ingress!)))).toEqual({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      namespaced: true,
    });
    expect(JSON.parse(JSON.stringify(KINDS.filter((k) => k.list).map((k) => k.kind)))).toContain("IngressList");
    expect(JSON.parse(JSON.stringify(lookupKind("networking.k8s.io/v1", "IngressList")))).toMatchObject({ list: true });
  });

  it("keeps its fields as they were: own, enumerable, the schema included", () => {
    const info = kindOf(ingress!);
    expect(Object.keys(info)).toEqual(["apiVersion", "kind", "desc", "list", "namespaced"]);
    expect(info.desc.typeName).toBe("k8s.io.api.networking.v1.Ingress");
    expect(Object.isFrozen(info)).toBe(true);
  });

  it("the model layer names no Node module: the inspect key is the global symbol", () => {
    const source = readFileSync(new URL("../../../src/networking/model/kinds.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/from "node:/);
    expect(Symbol.for("nodejs.util.inspect.custom")).toBe(inspect.custom);
  });
});
