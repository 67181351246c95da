// The informer bench's objects: real Ingresses and NetworkPolicies, copied with unique names
// that the API server takes, spread over namespaces, with only what a user writes kept.
import { describe, expect, it } from "vitest";
import {
  benchNamespaces,
  benchObjects,
  loadTemplates,
  namespaceFor,
  type Template,
  templateDirs,
  uniqueName,
} from "../../../bench/client/objects.js";
import { loadCorpus } from "../../../bench/corpus.js";
import { fromJson, validate } from "../../../src/networking/index.js";
import { nonEmpty } from "../../support/non-empty.js";

// A DNS-1123 subdomain, as the API server checks Ingress and NetworkPolicy names.
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

describe("uniqueName", () => {
  it("appends the copy number, cutting a long base so the whole stays a subdomain of at most 253", () => {
    expect(uniqueName("web", 0)).toBe("web-0");
    expect(uniqueName("a.b", 12)).toBe("a.b-12");
    const long = `${"a".repeat(240)}.${"b".repeat(12)}`;
    const name = uniqueName(long, 123456);
    expect(name).toHaveLength(253);
    expect(name).toMatch(SUBDOMAIN);
    // A cut that lands after a dot or dash drops it.
    const cut = uniqueName(`${"a".repeat(249)}.-bbbb`, 7);
    expect(cut).toBe(`${"a".repeat(249)}-7`);
    expect(cut).toMatch(SUBDOMAIN);
    expect(uniqueName("", 3)).toBe("object-3");
    expect(() => uniqueName("x", -1)).toThrow(RangeError);
  });
});

describe("namespaces", () => {
  it("spreads copies round-robin, and lists only the namespaces used", () => {
    expect([0, 1, 2, 3].map((i) => namespaceFor(i, 3))).toEqual(["bench-0", "bench-1", "bench-2", "bench-0"]);
    expect(benchNamespaces(2, 50)).toEqual(["bench-0", "bench-1"]);
    expect(benchNamespaces(10_000, 3)).toEqual(["bench-0", "bench-1", "bench-2"]);
  });
});

describe("loadTemplates and benchObjects", () => {
  const templates = loadTemplates();

  it("finds real Ingresses and NetworkPolicies in both folders, each JSON once", () => {
    // test/fixtures/real-world's are all in bench/corpus today; whichever folder has them, they count.
    const realWorld = loadCorpus(templateDirs()[1]!.dir).objects.filter(
      (o) => o.kind === "Ingress" || o.kind === "NetworkPolicy",
    );
    const have = new Set(templates.map((t) => JSON.stringify(t.json)));
    for (const o of nonEmpty(realWorld, "Ingresses and NetworkPolicies in test/fixtures/real-world")) {
      expect(have.has(o.json), o.id).toBe(true);
    }
    const ingresses = nonEmpty(
      templates.filter((t) => t.kind === "Ingress"),
      "Ingresses in bench/corpus and test/fixtures/real-world",
      100,
    );
    const policies = nonEmpty(
      templates.filter((t) => t.kind === "NetworkPolicy"),
      "NetworkPolicies in bench/corpus and test/fixtures/real-world",
      100,
    );
    expect(ingresses.length + policies.length).toBe(templates.length);
    expect(templates.every((t) => /^(bench\/corpus|test\/fixtures\/real-world)\//.test(t.id))).toBe(true);
    expect(new Set(templates.map((t) => JSON.stringify(t.json))).size).toBe(templates.length);
  });

  it("copies every template round-robin into unique, valid objects in their namespace's collection", () => {
    for (const kind of ["Ingress", "NetworkPolicy"] as const) {
      const mine = templates.filter((t) => t.kind === kind);
      const count = mine.length * 2 + 3;
      const objects = benchObjects(templates, kind, count, 7);
      expect(objects).toHaveLength(count);
      expect(new Set(objects.map((o) => `${o.namespace}/${o.name}`)).size).toBe(count);
      expect(objects[mine.length]!.template).toBe(mine[0]!.id);
      for (const [i, o] of objects.entries()) {
        const plural = kind === "Ingress" ? "ingresses" : "networkpolicies";
        expect(o.path).toBe(`/apis/networking.k8s.io/v1/namespaces/bench-${i % 7}/${plural}`);
        expect(o.objectPath).toBe(`${o.path}/${o.name}`);
        expect(o.name).toMatch(SUBDOMAIN);
        expect(o.name.endsWith(`-${i}`)).toBe(true);
        expect(validate(fromJson(o.body))).toEqual([]);
      }
    }
  });

  it("keeps name, namespace, labels, annotations and spec only", () => {
    const template: Template = {
      id: "t#1",
      kind: "NetworkPolicy",
      json: {
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        metadata: {
          name: "deny",
          namespace: "prod",
          labels: { app: "x" },
          annotations: { note: "y" },
          uid: "0f0c5a37-3d3e-4a54-9c1e-1b1d0f3f0a11",
          resourceVersion: "42",
          generation: 3,
        },
        spec: { podSelector: {} },
      },
    };
    expect(benchObjects([template], "NetworkPolicy", 1, 1)[0]!.body).toEqual({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "deny-0", namespace: "bench-0", labels: { app: "x" }, annotations: { note: "y" } },
      spec: { podSelector: {} },
    });
    expect(() => benchObjects([template], "Ingress", 1, 1)).toThrow(/no Ingress/);
  });
});
