import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonText } from "../../../src/cli/shared/render.js";
import { propertyRuns } from "../../support/property-runs.js";

const RUNS = propertyRuns(200);

/** A JSON value with some integers made bigints, and JSON.stringify's text of it with those written exactly. */
const withBigints = fc.jsonValue().chain((v) =>
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((big) => {
    const mark = `__big${big}__`;
    const swap = (x: unknown): unknown => {
      if (Array.isArray(x)) return x.map(swap);
      if (x !== null && typeof x === "object") {
        const o: Record<string, unknown> = {};
        for (const [k, y] of Object.entries(x)) o[k] = swap(y);
        return o;
      }
      return x === 0 ? big : x;
    };
    const value = swap(v);
    const expected = JSON.stringify(value, (_, y: unknown) => (typeof y === "bigint" ? mark : y), 2).replaceAll(
      JSON.stringify(mark),
      big.toString(),
    );
    return { value, expected };
  }),
);

describe("jsonText", () => {
  it("writes a bigint as an exact JSON number, and otherwise as JSON.stringify does", () => {
    const value = { a: [1, "x", { b: null, c: true }], d: {}, e: [], f: -9007199254740993n, g: undefined, h: 1.5 };
    expect(jsonText(value)).toBe(
      JSON.stringify({ ...value, f: 0 }, null, 2).replace('"f": 0', '"f": -9007199254740993'),
    );
    expect(jsonText('a\u0000"')).toBe(JSON.stringify('a\u0000"'));
  });

  it("property: any JSON value, bigints included, is written as JSON.stringify(value, null, 2) writes it", () => {
    fc.assert(
      fc.property(withBigints, ({ value, expected }) => {
        expect(jsonText(value)).toBe(expected);
        // Nested under a pad, as the reporters write a result inside their document.
        expect(jsonText([value], "    ")).toBe(`[\n      ${expected.replaceAll("\n", "\n      ")}\n    ]`);
      }),
      { numRuns: RUNS },
    );
  });

  it("leaves out undefined and function members, writes them as null in arrays, and writes a hole as nothing", () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    expect(jsonText({ a: undefined, b: () => 1, c: [undefined, () => 1], d: sparse })).toBe(
      '{\n  "c": [\n    null,\n    null\n  ],\n  "d": [\n    1,\n,\n    3\n  ]\n}',
    );
    expect(jsonText({ a: undefined })).toBe("{}");
    expect(jsonText(Number.NaN)).toBe("null");
  });
});
