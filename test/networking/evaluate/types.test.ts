// The shape both evaluators share (src/networking/evaluate/types.ts): SkippedObject, an input
// the router or the policy engine left out. Each evaluator is held to it field for field: the
// kind, `namespace/name` (an IngressClass's bare name, `[i]` without a name), the input position
// and the API server's errors (or one duplicate-name error).

import { describe, expect, it } from "vitest";
import {
  createPolicyEngine,
  createRouter,
  fromJson,
  validate,
  type Ingress,
  type IngressClass,
  type JsonObject,
  type NetworkPolicy,
  type SkippedObject,
} from "../../../src/networking/index.js";

const V1 = "networking.k8s.io/v1";
const FIELDS = ["errors", "index", "kind", "name"];

const ingress = (metadata: JsonObject): Ingress =>
  fromJson({
    apiVersion: V1,
    kind: "Ingress",
    metadata,
    spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
  }) as Ingress;
const ingressClass = (name: string): IngressClass =>
  fromJson({
    apiVersion: V1,
    kind: "IngressClass",
    metadata: { name },
    spec: { controller: "example.com/ingress" },
  }) as IngressClass;
const policy = (metadata: JsonObject): NetworkPolicy =>
  fromJson({ apiVersion: V1, kind: "NetworkPolicy", metadata, spec: { podSelector: {} } }) as NetworkPolicy;

/** Each entry has exactly SkippedObject's fields. */
function expectShape(skipped: readonly SkippedObject[]): void {
  expect(skipped.length).toBeGreaterThan(0);
  for (const s of skipped) expect(Object.keys(s).sort()).toEqual(FIELDS);
}

describe("SkippedObject", () => {
  it("the router's: IngressClasses by bare name, Ingresses by namespace/name or [i], with validate()'s errors", () => {
    const badClass = ingressClass("Bad_Name");
    const nameless = ingress({ namespace: "web" });
    const router = createRouter({
      ingresses: [ingress({ name: "shop", namespace: "web" }), nameless],
      ingressClasses: [ingressClass("edge"), badClass],
      controller: "example.com/ingress",
    });
    expect(validate(badClass)).not.toEqual([]);
    expect(validate(nameless)).not.toEqual([]);
    expect(router.skipped).toEqual([
      { kind: "IngressClass", name: "Bad_Name", index: 1, errors: validate(badClass) },
      { kind: "Ingress", name: "[1]", index: 1, errors: validate(nameless) },
    ]);
    expectShape(router.skipped);
  });

  it("the engine's: NetworkPolicies by namespace/name or [i], with validate()'s errors", () => {
    const nameless = policy({ namespace: "web" });
    const engine = createPolicyEngine({
      namespaces: [{ name: "web" }],
      pods: [],
      policies: [policy({ name: "p", namespace: "web" }), nameless],
    });
    expect(validate(nameless)).not.toEqual([]);
    expect(engine.skipped).toEqual([{ kind: "NetworkPolicy", name: "[1]", index: 1, errors: validate(nameless) }]);
    expectShape(engine.skipped);
  });

  it("a name an earlier input holds: the later one left out with one FieldValueDuplicate, by both", () => {
    const router = createRouter({
      ingresses: [ingress({ name: "shop", namespace: "web" }), ingress({ name: "shop", namespace: "web" })],
    });
    const engine = createPolicyEngine({
      namespaces: [{ name: "web" }],
      pods: [],
      policies: [policy({ name: "p", namespace: "web" }), policy({ name: "p", namespace: "web" })],
    });
    for (const [skipped, kind, name] of [
      [router.skipped, "Ingress", "web/shop"],
      [engine.skipped, "NetworkPolicy", "web/p"],
    ] as const) {
      expectShape(skipped);
      expect(skipped.map((s) => [s.kind, s.name, s.index, s.errors.map((e) => e.type)])).toEqual([
        [kind, name, 1, ["FieldValueDuplicate"]],
      ]);
    }
  });
});
