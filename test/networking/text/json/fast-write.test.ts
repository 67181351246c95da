// The generated JSON writers (plugin/emit-json.ts) through json-fast-write.ts
// against the generic writer, which is the specification: the same text on
// the fixtures, real manifests and generated objects, and the same error
// (reason and path) on objects holding values of the wrong type.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EncodeError, create, toJsonString, type NetworkingObject } from "../../../../src/networking/index.js";
import {
  FieldsV1Schema,
  IntOrStringSchema,
  ManagedFieldsEntrySchema,
  ObjectMetaSchema,
  TimeSchema,
} from "../../../../src/networking/index.js";
import { genericFromJson } from "../../../../src/networking/text/json/from-json.js";
import { fastToJsonString, rfc3339UtcText } from "../../../../src/networking/text/json/fast-write.js";
import { formatRfc3339 } from "../../../../src/networking/model/time.js";
import { genericToJsonString } from "../../../../src/networking/text/json/to-json.js";
import { arbObject } from "../../../../src/testing/index.js";
import { fixtureJsonTexts, realWorldJsonTexts } from "../../../support/json-inputs.js";

function outcome(f: () => string): { text: string } | { error: { reason: string; path: string; message: string } } {
  try {
    return { text: f() };
  } catch (e) {
    if (!(e instanceof EncodeError)) throw e;
    return { error: { reason: e.reason, path: e.path, message: e.message } };
  }
}

function agree(o: NetworkingObject): boolean {
  expect(outcome(() => toJsonString(o))).toEqual(outcome(() => genericToJsonString(o)));
  return fastToJsonString(o) !== undefined;
}

describe("toJsonString: the generated writers equal the generic writer", () => {
  it("writes every fixture and real manifest as the generic writer does", () => {
    const texts = [...fixtureJsonTexts(), ...realWorldJsonTexts()];
    let read = 0;
    for (const [name, text] of texts) {
      let o: NetworkingObject;
      try {
        o = genericFromJson(text);
      } catch {
        continue; // a real manifest Kubernetes refuses
      }
      read++;
      expect(fastToJsonString(o), name).toBe(genericToJsonString(o));
    }
    expect(read).toBeGreaterThan(70);
  });

  it("writes generated objects as the generic writer does", () => {
    fc.assert(
      fc.property(arbObject({ maxDepth: 6 }), (o) => {
        expect(agree(o)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  const WRONG: readonly (() => unknown)[] = [
    () => undefined,
    () => null,
    () => "s",
    () => "",
    () => 0,
    () => -0,
    () => 1.5,
    () => 2 ** 31,
    () => 0n,
    () => 2n ** 63n,
    () => true,
    () => [],
    () => ["a", 1],
    () => [null],
    () => ({}),
    () => ({ a: 1 }),
    () => ({ "\ud800": "x", b: "<&>" }),
    () => new Uint8Array([0xff]),
    () => create(TimeSchema, { seconds: 5n }),
    () => create(TimeSchema, { seconds: -62135596800n }),
    () => ({ $typeName: "k8s.io.apimachinery.pkg.apis.meta.v1.Time", seconds: 1 }),
    () => create(IntOrStringSchema, { type: 2n }),
    () => create(IntOrStringSchema, { type: 1n, strVal: "http" }),
    () => create(IntOrStringSchema, { type: 0n, intVal: 2 ** 40 }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode('{"f:a":{}, "b" : [1,2]}') }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode("{not json") }),
    () => create(FieldsV1Schema, { Raw: new Uint8Array([0xc3]) }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode('{"f:a":{"k:{\\"x\\":\\"<&>\u2028\\"}":{}}}') }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode(`${"[".repeat(100)}${"]".repeat(100)}`) }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode(`${"[".repeat(101)}${"]".repeat(101)}`) }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode('{"a":}') }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode('"s\\u00e9\\ud800"') }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode("[1,2.50,-0,1e999]") }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode('{"é":{"a":1,"a":2}}') }),
    () => create(FieldsV1Schema, { Raw: new TextEncoder().encode("\ufeff{}") }),
  ];

  it("refuses values of the wrong type with the generic writer's error, wherever they are", () => {
    let refused = 0;
    fc.assert(
      fc.property(arbObject({ maxDepth: 5 }), fc.nat(), fc.nat(WRONG.length - 1), (o, at, w) => {
        // Every (container, property) of the object, messages and lists alike.
        const slots: [Record<string | number, unknown>, string | number][] = [];
        const walk = (c: Record<string | number, unknown>): void => {
          for (const k of Array.isArray(c) ? c.map((_, i) => i) : Object.keys(c)) {
            if (k === "$typeName") continue;
            slots.push([c, k]);
            const v = c[k];
            if (typeof v === "object" && v !== null && !(v instanceof Uint8Array))
              walk(v as Record<string | number, unknown>);
          }
        };
        walk(o as unknown as Record<string, unknown>);
        if (slots.length === 0) return;
        const [c, k] = slots[at % slots.length] as [Record<string | number, unknown>, string | number];
        c[k] = (WRONG[w] as () => unknown)();
        if (!agree(o)) refused++;
      }),
      { numRuns: 400 },
    );
    expect(refused).toBeGreaterThan(20);
  });

  it("writes FieldsV1 raw JSON as the generic writer does: compact as it is, or compacted, or refused", () => {
    const raws = [
      '{"f:a":{}}',
      '{"f:a": {}}',
      '{"f:a":{"k:{\\"x\\":\\"<&>\u2028\\"}":{}}}',
      `${"[".repeat(100)}${"]".repeat(100)}`,
      `${"[".repeat(101)}${"]".repeat(101)}`,
      '{"a":}',
      '"s\\u00e9\\ud800"',
      "[1,2.50,-0,1e999]",
      '{"é":{"a":1,"a":2}}',
      "\ufeff{}",
      "{}x",
      "",
    ];
    for (const raw of raws) {
      for (const bytes of [new TextEncoder().encode(raw), new Uint8Array([0x7b, 0xff, 0x7d])]) {
        const o = genericFromJson('{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"}');
        o.metadata = create(ObjectMetaSchema, {
          managedFields: [create(ManagedFieldsEntrySchema, { fieldsV1: create(FieldsV1Schema, { Raw: bytes }) })],
        });
        agree(o);
      }
    }
    const o = genericFromJson('{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"}');
    o.metadata = create(ObjectMetaSchema, {
      managedFields: [
        create(ManagedFieldsEntrySchema, {
          fieldsV1: create(FieldsV1Schema, { Raw: new TextEncoder().encode('{"f:a":{}}') }),
        }),
      ],
    });
    expect(fastToJsonString(o)).toContain('"fieldsV1":{"f:a":{}}');
  });
});

describe("rfc3339UtcText: four-digit years without bigint arithmetic", () => {
  it("equals formatRfc3339 wherever it answers, and answers for every four-digit year", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -62167219200n - 86400n * 3n, max: 253402300799n + 86400n * 3n }), (s) => {
        const fast = rfc3339UtcText(s);
        if (s >= -62167219200n && s <= 253402300799n) expect(fast).toBe(formatRfc3339(s));
        else expect(fast).toBeUndefined();
      }),
      { numRuns: 3000 },
    );
    for (const s of [-62167219200n, -62135596800n, -1n, 0n, 951782400n, 253402300799n])
      expect(rfc3339UtcText(s)).toBe(formatRfc3339(s));
  });
});
