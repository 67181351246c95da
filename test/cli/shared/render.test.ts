import { describe, expect, it } from "vitest";
import { jsonText } from "../../../src/cli/shared/render.js";

describe("jsonText", () => {
  it("writes a bigint as an exact JSON number, and otherwise as JSON.stringify does", () => {
    const value = { a: [1, "x", { b: null, c: true }], d: {}, e: [], f: -9007199254740993n, g: undefined, h: 1.5 };
    expect(jsonText(value)).toBe(
      JSON.stringify({ ...value, f: 0 }, null, 2).replace('"f": 0', '"f": -9007199254740993'),
    );
    expect(jsonText('a\u0000"')).toBe(JSON.stringify('a\u0000"'));
  });
});
