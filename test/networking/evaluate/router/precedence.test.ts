// The router's precedence rules (src/networking/evaluate/router/precedence.ts), which the
// router and the ingress-capture guard share: each rule on the cases docs/ingress-routing.md
// names, and the lookup by key against a plain scan of the paths in R7 order.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PathIndex,
  betterPath,
  compareRank,
  creationTime,
  identifyIngress,
  ingressClassOf,
  pathShape,
  ruleTier,
  wildcardKey,
  type RankedPath,
} from "../../../../src/networking/evaluate/router/precedence.js";
import { fromJson, type Ingress, type JsonObject } from "../../../../src/networking/index.js";
import { propertyRuns } from "../../../support/property-runs.js";

const ingress = (metadata: JsonObject, spec: JsonObject = {}): Ingress =>
  fromJson({ apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata, spec }) as Ingress;

describe("host tiers (R4)", () => {
  it("a rule joins the precise, wildcard or host-less tier; a request host reaches the wildcard of its parent", () => {
    expect(ruleTier("shop.example.com")).toEqual({ kind: "precise", key: "shop.example.com" });
    expect(ruleTier("*.example.com")).toEqual({ kind: "wildcard", key: "example.com" });
    expect(ruleTier("")).toEqual({ kind: "host-less", key: "" });
    expect(wildcardKey("a.b.example.com")).toBe("b.example.com");
    expect(wildcardKey("localhost")).toBeUndefined();
    expect(wildcardKey(".example.com")).toBeUndefined();
  });
});

describe("classes (R2's order)", () => {
  it("ingressClassName first, even empty; then the annotation; else none", () => {
    const annotations = { "kubernetes.io/ingress.class": "b" };
    expect(ingressClassOf(ingress({ name: "x", annotations }, { ingressClassName: "a" }))).toEqual({
      name: "a",
      via: "ingressClassName",
    });
    expect(ingressClassOf(ingress({ name: "x", annotations }))).toEqual({ name: "b", via: "annotation" });
    expect(ingressClassOf(ingress({ name: "x" }))).toBeUndefined();
  });
});

describe("ordering Ingresses (R7.3, R7.4)", () => {
  it("older first, no timestamp last, then namespace/name", () => {
    const at = (key: string, created?: string) => {
      const [namespace, name] = key.split("/") as [string, string];
      const ing = ingress(
        created === undefined ? { name, namespace } : { name, namespace, creationTimestamp: created },
      );
      return { key: identifyIngress(ing.metadata).key, time: creationTime(ing) };
    };
    const list = [
      at("a/none"),
      at("z/new", "2025-01-01T00:00:00Z"),
      at("b/old", "2020-01-01T00:00:00Z"),
      at("a/old", "2020-01-01T00:00:00Z"),
    ];
    expect(list.sort(compareRank).map((x) => x.key)).toEqual(["a/old", "b/old", "z/new", "a/none"]);
  });

  it("names an Ingress namespace/name; a generateName-only object by its prefix", () => {
    expect(identifyIngress(ingress({ generateName: "web-" }).metadata)).toEqual({
      name: "web-",
      namespace: "default",
      key: "default/web-",
    });
    expect(identifyIngress(ingress({ name: "x" }).metadata, "shop").key).toBe("shop/x");
  });
});

describe("paths (R6, R7)", () => {
  it("reads a path's length, type and key", () => {
    expect(pathShape("Prefix", "/foo/")).toEqual({ length: 5, exact: false, key: "/foo" });
    expect(pathShape("Prefix", "/")).toEqual({ length: 1, exact: false, key: "" });
    expect(pathShape("ImplementationSpecific", "")).toEqual({ length: 1, exact: false, key: "" });
    expect(pathShape("Exact", "/foo/")).toEqual({ length: 5, exact: true, key: "/foo/" });
  });

  it("orders by length as written, Exact first, then rank, rule and path index", () => {
    const p = (type: string, path: string, rank = 0, rule = 0, index = 0): RankedPath => ({
      rank,
      rule,
      path: index,
      ...pathShape(type, path),
    });
    expect(betterPath(p("Prefix", "/foo/bar/"), p("Exact", "/foo/bar"))).toBe(true);
    expect(betterPath(p("Exact", "/foo", 9), p("Prefix", "/foo", 0))).toBe(true);
    expect(betterPath(p("Prefix", "/foo", 0), p("Prefix", "/foo", 1))).toBe(true);
    expect(betterPath(p("Prefix", "/foo", 0, 1), p("Prefix", "/foo", 0, 0))).toBe(false);
    expect(betterPath(p("Prefix", "/foo", 0, 0, 0), p("Prefix", "/foo", 0, 0, 1))).toBe(true);
  });

  it("PathIndex.best is the first matching path in R7 order", () => {
    const segment = fc.constantFrom("a", "b", "ab", "");
    const pathArb = fc.array(segment, { minLength: 0, maxLength: 3 }).map((s) => `/${s.join("/")}`);
    const entry = fc.record({
      type: fc.constantFrom("Exact", "Prefix", "ImplementationSpecific"),
      path: pathArb,
      rank: fc.nat(3),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.array(pathArb, { maxLength: 8 }), (entries, requests) => {
        const paths: RankedPath[] = entries.map((e, i) => ({
          rank: e.rank,
          rule: 0,
          path: i,
          ...pathShape(e.type, e.path),
        }));
        const index = new PathIndex();
        for (const c of paths) index.add(c);
        const ordered = [...paths].sort((a, b) => (betterPath(a, b) ? -1 : betterPath(b, a) ? 1 : 0));
        for (const r of requests) {
          const scan = ordered.find((c) =>
            c.exact ? r === c.key : c.key === "" || r === c.key || r.startsWith(`${c.key}/`),
          );
          expect(index.best(r)).toBe(scan);
        }
        expect(index.longest).toBe(Math.max(0, ...paths.map((c) => c.key.length)));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
