// The any-shape arbitraries (src/testing/any-shape.ts): every message and List the API has, with
// values Go can hold. Held to fast-check's quality checks (./quality.ts) in the catalogue form
// (./catalogue.ts), and what they draw to the promises of the module's header.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  IngressSchema,
  IngressSpecSchema,
  KINDS,
  NETWORKING_API_VERSION,
  encode,
  type IngressSpec,
  type NetworkingObject,
} from "../../src/networking/index.js";
import * as anyShape from "../../src/testing/any-shape.js";
import { propertyRuns } from "../support/property-runs.js";
import { checkEntries, entry, expectCatalogued, type Entry } from "./catalogue.js";
import { jsonStable, wireStable } from "./contracts.js";

const INT32 = 2 ** 31;
const INT64 = 2n ** 63n;

const ENTRIES: Entry[] = [
  entry(
    "arbString",
    anyShape.arbString(),
    (s) => typeof s === "string" && Buffer.from(s, "utf8").toString("utf8") === s,
  ),
  entry("arbInt32", anyShape.arbInt32(), (n) => Number.isInteger(n) && n >= -INT32 && n < INT32, { size: Math.abs }),
  entry("arbInt64", anyShape.arbInt64(), (n) => typeof n === "bigint" && n >= -INT64 && n < INT64, {
    size: (n) => Number(n < 0n ? -n : n),
  }),
  entry("arbFieldsV1Text", anyShape.arbFieldsV1Text(), (t) => {
    const v: unknown = JSON.parse(t);
    return v !== null && typeof v === "object" && !Array.isArray(v) && JSON.stringify(v) === t;
  }),
  entry("arbObject", anyShape.arbObject(), wireStable, { runs: 100, size: (o) => encode(o).length, seeds: [1, 2] }),
  entry(
    "arbMessage(IngressSpec)",
    anyShape.arbMessage<IngressSpec>(IngressSpecSchema),
    (m) => equals(IngressSpecSchema, fromBinary(IngressSpecSchema, toBinary(IngressSpecSchema, m)), m),
    {
      size: (m) => toBinary(IngressSpecSchema, m).length,
    },
  ),
  entry(
    "arbObject({ json: true })",
    anyShape.arbObject({ json: true }),
    (o) => wireStable(o) !== false && jsonStable(o) !== false,
    {
      runs: 100,
      seeds: [1, 2],
      size: (o) => encode(o).length,
    },
  ),
  ...anyShape.NETWORKING_KINDS.filter((k) => k.endsWith("List")).map((k) =>
    entry(`arbObjectOf(${k})`, anyShape.arbObjectOf(k), (o) => wireStable(o) !== false && o.$typeName.endsWith(k), {
      runs: 30,
      size: (o) => encode(o).length,
      seeds: [1],
    }),
  ),
];

describe("any-shape arbitraries pass fast-check's quality checks", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of any-shape.ts is in the catalogue above", () => {
    expectCatalogued(anyShape, ENTRIES);
  });
});

type Node = { readonly $typeName?: string } & Record<string, unknown>;

/** Every message in `value`, nested ones included. */
function messages(value: unknown, out: Node[] = []): Node[] {
  if (Array.isArray(value)) for (const v of value) messages(v, out);
  else if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    if ("$typeName" in value) out.push(value as Node);
    for (const v of Object.values(value)) messages(v, out);
  }
  return out;
}

describe("what the any-shape arbitraries draw", () => {
  it("NETWORKING_KINDS: the five kinds and their Lists, not Status", () => {
    expect([...anyShape.NETWORKING_KINDS].sort()).toEqual(
      KINDS.filter((k) => k.apiVersion === NETWORKING_API_VERSION)
        .map((k) => k.kind)
        .sort(),
    );
    expect([...anyShape.NETWORKING_KINDS].sort()).toEqual(
      ["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"].flatMap((k) => [k, `${k}List`]).sort(),
    );
    expect(new Set(anyShape.TRICKY_STRINGS).size).toBe(anyShape.TRICKY_STRINGS.length);
  });

  it("arbObjectOf: one arbitrary per kind and options, and an error for a kind it does not know", () => {
    expect(anyShape.arbObjectOf("Ingress")).toBe(anyShape.arbObjectOf("Ingress"));
    expect(anyShape.arbObjectOf("Ingress", { json: true })).not.toBe(anyShape.arbObjectOf("Ingress"));
    expect(() => anyShape.arbObjectOf("Pod")).toThrow("arbitraries: unknown kind Pod");
    expect(() => anyShape.arbObjectOf("Status")).toThrow("arbitraries: unknown kind Status");
    const kinds = new Set(fc.sample(anyShape.arbObject(), { seed: 3, numRuns: 60 }).map((o) => o.$typeName));
    expect(kinds.size).toBeGreaterThan(5);
  });

  it("times, IntOrStrings and FieldsV1 are values Go can hold; with json, none that JSON loses", () => {
    const check = (o: NetworkingObject, json: boolean): void => {
      for (const m of messages(o)) {
        if (m.$typeName === anyShape.TIME_TYPE) {
          const seconds = m["seconds"] as bigint;
          expect(seconds >= anyShape.GO_ZERO_SECONDS && seconds <= anyShape.MAX_TIME_SECONDS).toBe(true);
          expect(m["nanos"] ?? 0).toBe(0);
        } else if (m.$typeName === anyShape.INT_OR_STRING_TYPE) {
          expect(m["type"] === 0n ? m["strVal"] : m["intVal"]).toBe(m["type"] === 0n ? "" : 0);
          expect([0n, 1n]).toContain(m["type"]);
        } else if (m.$typeName === anyShape.FIELDS_V1_TYPE) {
          const raw = m["Raw"] as Uint8Array | undefined;
          if (json) expect(raw?.length ?? 0).toBeGreaterThan(0);
          if (raw !== undefined && raw.length > 0) {
            const text = new TextDecoder().decode(raw);
            expect(JSON.stringify(JSON.parse(text))).toBe(text);
          }
        }
      }
      if (json) {
        // A pointer time holding the zero time would come back from JSON as nil.
        const meta = (o as { metadata?: Node }).metadata;
        const deletion = meta?.["deletionTimestamp"] as Node | undefined;
        if (deletion !== undefined) expect(deletion["seconds"]).not.toBe(anyShape.GO_ZERO_SECONDS);
      }
    };
    fc.assert(
      fc.property(anyShape.arbObject(), (o) => check(o, false)),
      { numRuns: propertyRuns(40) },
    );
    fc.assert(
      fc.property(anyShape.arbObject({ json: true }), (o) => check(o, true)),
      { numRuns: propertyRuns(40) },
    );
  });

  it("maxDepth: past it, lists are empty and Go's non-pointer structs are their zero values", () => {
    fc.assert(
      fc.property(anyShape.arbObjectOf("IngressList", { maxDepth: 0 }), (o) => {
        expect((o as unknown as { items: unknown[] }).items).toEqual([]);
      }),
      { numRuns: propertyRuns(20) },
    );
    const items = fc
      .sample(anyShape.arbObjectOf("IngressList", { maxDepth: 1 }), { seed: 1, numRuns: 20 })
      .flatMap((o) => (o as unknown as { items: NetworkingObject[] }).items);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items)
      expect(encode({ ...item, $typeName: IngressSchema.typeName } as never)).toEqual(
        encode(anyShape.goZero(IngressSchema) as never),
      );
  });

  it("goZero: a Go zero struct, its non-pointer structs present and its pointers absent", () => {
    const zero = anyShape.goZero(IngressSchema) as unknown as Node;
    expect(Object.keys(zero).sort()).toEqual(["$typeName", "metadata", "spec", "status"]);
    const spec = zero["spec"] as Node;
    expect(Object.hasOwn(spec, "defaultBackend")).toBe(false);
    expect(Object.hasOwn(spec, "ingressClassName")).toBe(false);
    expect((zero["status"] as Node)["loadBalancer"]).toBeDefined();
  });
});
