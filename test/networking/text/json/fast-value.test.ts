// The generated value readers (plugin/emit-json.ts) through json-fast-value.ts
// against the generic decoder, which is the specification: fromJson of an
// already parsed value must give exactly what the generic decoder gives,
// value or error (reason, path), on fixtures, real manifests, generated
// objects, mutated documents and JS values JSON text cannot hold.

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromJson, toJson, type JsonValue } from "../../../../src/networking/index.js";
import { genericFromJson, type FromJsonOptions } from "../../../../src/networking/text/json/from-json.js";
import { fastFromJsonValue } from "../../../../src/networking/text/json/fast-value.js";
import { arbObject } from "../../../../src/testing/index.js";
import { decodeOutcome } from "../../../support/errors.js";
import { arbMutation, fixtureJsonTexts, mutate, realWorldJsonTexts } from "../../../support/json-inputs.js";

/** fromJson and the generic decoder agree on `value`; returns whether the fast path took it. */
function agree(value: unknown, options: FromJsonOptions = {}): boolean {
  const fast = decodeOutcome(() => fromJson(value as JsonValue, options));
  const generic = decodeOutcome(() => genericFromJson(value as JsonValue, options));
  if (!isDeepStrictEqual(fast, generic)) expect(fast).toEqual(generic);
  expect(isDeepStrictEqual(fast, generic)).toBe(true);
  return fastFromJsonValue(value, options.strict === true) !== undefined;
}

const HEAD = { kind: "NetworkPolicy", apiVersion: "networking.k8s.io/v1" };

describe("fromJson(value): the generated value readers equal the generic decoder", () => {
  it("takes the fixtures and real manifests, and reads what the generic decoder reads", () => {
    let taken = 0;
    const texts = [...fixtureJsonTexts(), ...realWorldJsonTexts()];
    for (const [name, text] of texts) {
      const value = JSON.parse(text) as unknown;
      if (agree(value)) taken++;
      agree(value, { strict: true });
      expect(name).toBeTruthy();
    }
    // Only the oldest fixtures' int64s past 2^53, which JSON.parse rounds, and invalid real manifests are left.
    expect(taken).toBeGreaterThan(texts.length * 0.85);
  });

  it("agrees on generated objects (toJson's values, bigints included)", () => {
    fc.assert(
      fc.property(arbObject({ json: true, maxDepth: 6 }), (o) => {
        expect(agree(toJson(o))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("agrees on mutated documents", () => {
    const texts = [...fixtureJsonTexts().filter(([n]) => n.startsWith("HEAD/")), ...realWorldJsonTexts().slice(0, 20)];
    let taken = 0;
    let given = 0;
    fc.assert(
      fc.property(fc.nat(texts.length - 1), arbMutation, fc.boolean(), (i, m, strict) => {
        let value: unknown;
        try {
          value = JSON.parse(mutate((texts[i] as [string, string])[1], m));
        } catch {
          return;
        }
        if (agree(value, { strict })) taken++;
        else given++;
      }),
      { numRuns: 500 },
    );
    expect(taken).toBeGreaterThan(20);
    expect(given).toBeGreaterThan(10);
  });

  it("leaves JS values JSON text cannot hold to the generic decoder, which gives its error or value", () => {
    class Box {
      name = "x";
    }
    const cyclic: Record<string, unknown> = { ...HEAD, metadata: { name: "a" } };
    (cyclic["metadata"] as Record<string, unknown>)["labels"] = cyclic;
    const cases: unknown[] = [
      { ...HEAD, metadata: new Box() },
      { ...HEAD, metadata: { generation: 2 ** 60 } },
      { ...HEAD, metadata: { generation: 1.5 } },
      { ...HEAD, metadata: { generation: Number.NaN } },
      { ...HEAD, metadata: { generation: 5n, deletionGracePeriodSeconds: 2n ** 64n } },
      { ...HEAD, spec: { ingress: [{ ports: [{ port: 80n, endPort: 90n }] }] } },
      { ...HEAD, spec: { ingress: [{ ports: [{ port: -0, endPort: -0 }] }] } },
      { ...HEAD, metadata: { name: undefined, labels: { a: undefined, b: null } } },
      { ...HEAD, metadata: { labels: { "\ud800": "x", "\udc00": "y" } } },
      { ...HEAD, metadata: { labels: { "\ud800": "x" }, name: "\ud800\ud83d\ude00" } },
      { ...HEAD, metadata: { finalizers: Object.assign(new Array<string>(3), { 0: "a", 2: "b" }) } }, // a hole
      { ...HEAD, metadata: { managedFields: [{ fieldsV1: { b: [1, { d: null, c: "<&>" }], a: -0 } }] } },
      { ...HEAD, metadata: { managedFields: [{ fieldsV1: { a: Number.POSITIVE_INFINITY } }] } },
      { ...HEAD, metadata: { managedFields: [{ fieldsV1: "raw" }, { fieldsV1: 5 }, { fieldsV1: [] }] } },
      { ...HEAD, metadata: { managedFields: [{ fieldsV1: { b: 1, "10": 2, "9": 3, "4294967295": 4, "01": 5 } }] } },
      {
        ...HEAD,
        metadata: { managedFields: [{ fieldsV1: { "f:a": { é: [true, 12n, 1e21, "\ud800"], u: undefined } } }] },
      },
      { ...HEAD, metadata: { managedFields: [{ fieldsV1: JSON.parse(`${"[".repeat(101)}${"]".repeat(101)}`) }] } },
      { ...HEAD, metadata: { managedFields: [{ fieldsV1: JSON.parse(`${"[".repeat(100)}${"]".repeat(100)}`) }] } },
      { ...HEAD, metadata: { managedFields: [{ fieldsV1: { a: [1, undefined] } }, { fieldsV1: { a: new Box() } }] } },
      { ...HEAD, metadata: { creationTimestamp: "2024-01-01T00:00:00+02:00", deletionTimestamp: null } },
      { ...HEAD, metadata: { creationTimestamp: new Date(0) } },
      JSON.parse(`{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1","__proto__":{"a":1}}`),
      JSON.parse(
        `{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1","metadata":{"labels":{"__proto__":"x"}}}`,
      ),
      Object.assign(Object.create(null) as object, HEAD),
      { apiVersion: "networking.k8s.io/v1" },
      { ...HEAD, kind: 5 },
      cyclic,
      [],
      null,
    ];
    for (const value of cases) {
      agree(value);
      agree(value, { strict: true });
    }
    expect(fastFromJsonValue({ ...HEAD, metadata: new Box() }, false)).toBeUndefined();
    expect(fastFromJsonValue({ ...HEAD, unknownField: 1 }, true)).toBeUndefined();
    expect(fastFromJsonValue({ ...HEAD, unknownField: 1 }, false)).toBeDefined();
  });
});
