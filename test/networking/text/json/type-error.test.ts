// Go's words for a JSON value of the wrong type, and the pieces from-json.ts gives them.
import { describe, expect, it } from "vitest";
import { FloatLiteral } from "../../../../src/networking/text/json/parse.js";
import {
  jsonKindOf,
  MAX_LITERAL,
  numberLiteral,
  unmarshalTypeError,
} from "../../../../src/networking/text/json/type-error.js";

describe("unmarshalTypeError", () => {
  it("a field, or a value without one", () => {
    expect(unmarshalTypeError("bool", "string", "ObjectMeta", "metadata.labels")).toBe(
      "json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string",
    );
    expect(unmarshalTypeError("number", "string", "", "kind")).toBe(
      "json: cannot unmarshal number into Go struct field .kind of type string",
    );
    expect(unmarshalTypeError("array", "int32", "", "")).toBe(
      "json: cannot unmarshal array into Go value of type int32",
    );
  });
});

describe("jsonKindOf", () => {
  it("names each JSON kind as Go does, and nothing for what JSON cannot hold", () => {
    const kinds = ["s", true, 1, 1n, new FloatLiteral(1.5, "1.5"), [], {}, null].map(jsonKindOf);
    expect(kinds).toEqual(["string", "bool", "number", "number", "number", "array", "object", "null"]);
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, undefined, () => 1]) expect(jsonKindOf(v)).toBeUndefined();
  });
});

describe("numberLiteral", () => {
  it("the text as written, an integer's digits, a JS number as JSON.stringify writes it", () => {
    expect(numberLiteral(new FloatLiteral(1.5, "1.50"))).toBe("1.50");
    expect(numberLiteral(99999999999999999999n)).toBe("99999999999999999999");
    expect(numberLiteral(1e22)).toBe("1e+22");
    expect(numberLiteral(1e-7)).toBe("1e-7");
  });

  it("says how long a literal past the limit is, instead of printing it", () => {
    expect(numberLiteral(10n ** BigInt(MAX_LITERAL - 1) - 1n)).toHaveLength(MAX_LITERAL - 1);
    expect(numberLiteral(-(10n ** 100_000n))).toBe(`-<more than ${MAX_LITERAL - 1} digits>`);
    const long = `0.${"0".repeat(2000)}1`;
    expect(numberLiteral(new FloatLiteral(0, long))).toBe(`${long.slice(0, 40)}...<${long.length} characters>`);
  });
});
