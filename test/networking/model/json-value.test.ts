// json-value.ts declares types only: JsonValue and JsonObject. What they allow is checked by
// the type checker (`npm run typecheck` compiles this file: each @ts-expect-error must be an
// error); what they promise about values is checked here on the values the readers produce.

import { create } from "@bufbuild/protobuf";
import { describe, expect, expectTypeOf, it } from "vitest";
import { IngressSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { JsonObject, JsonValue } from "../../../src/networking/model/json-value.js";
import { toJson } from "../../../src/networking/text/json/to-json.js";
import { parseYamlDocuments } from "../../../src/networking/text/yaml/parse.js";

/** Whether `v` is a JsonValue as the type describes it, every object key an own data property. */
function isJsonValue(v: unknown, depth = 0): v is JsonValue {
  if (depth > 100) return false;
  if (v === null) return true;
  switch (typeof v) {
    case "boolean":
    case "string":
    case "bigint":
      return true;
    case "number":
      return Number.isFinite(v);
    case "object":
      if (Array.isArray(v)) return v.every((x) => isJsonValue(x, depth + 1));
      return Reflect.ownKeys(v).every((k) => {
        if (typeof k !== "string") return false;
        const d = Object.getOwnPropertyDescriptor(v, k);
        return d !== undefined && "value" in d && d.enumerable === true && isJsonValue(d.value, depth + 1);
      });
    default:
      return false;
  }
}

describe("JsonValue and JsonObject (types)", () => {
  it("admit every JSON shape, with int64 as bigint, nested to any depth", () => {
    const values: JsonValue[] = [null, true, 0, -1.5, 2n ** 63n, "", [], {}, [1, "a", [null, { b: [2n] }]]];
    const obj: JsonObject = { a: 1, b: { c: [true, null, "x", 9007199254740993n] } };
    expectTypeOf(obj).toMatchTypeOf<JsonValue>();
    expectTypeOf<JsonObject[string]>().toEqualTypeOf<JsonValue>();
    expectTypeOf<JsonValue[]>().toMatchTypeOf<JsonValue>();
    expect(values.every((v) => isJsonValue(v))).toBe(true);
    expect(isJsonValue(obj)).toBe(true);
  });

  it("refuse what JSON cannot hold", () => {
    // @ts-expect-error undefined is not JSON
    const u: JsonValue = undefined;
    // @ts-expect-error a function is not JSON
    const f: JsonValue = () => 1;
    // @ts-expect-error a symbol is not JSON
    const s: JsonValue = Symbol("x");
    // @ts-expect-error an object member must be JSON too
    const o: JsonObject = { a: undefined };
    // @ts-expect-error a list member must be JSON too
    const l: JsonValue = [1, () => 2];
    expect([u, f, s, o, l].some((v) => isJsonValue(v))).toBe(false);
  });
});

describe("JsonValue (values the readers produce)", () => {
  it("YAML: integers past 2^53 are bigint, small ones numbers; keys are own properties, __proto__ too", () => {
    const [doc] = parseYamlDocuments(
      "big: 9223372036854775807\nsmall: 42\nfloat: 1.5\n__proto__: {polluted: true}\nlist: [a, null, true]\n",
    );
    expect(isJsonValue(doc)).toBe(true);
    const o = doc as JsonObject;
    expect(o["big"]).toBe(9223372036854775807n);
    expect(o["small"]).toBe(42);
    expect(o["float"]).toBe(1.5);
    expect(Object.getOwnPropertyDescriptor(o, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("toJson: an object's JSON is a JsonObject, int64 fields as bigint", () => {
    const v = toJson(create(IngressSchema, { metadata: { name: "shop", generation: 2n ** 60n } }));
    expect(isJsonValue(v)).toBe(true);
    expect(((v as JsonObject)["metadata"] as JsonObject)["generation"]).toBe(2n ** 60n);
  });
});
