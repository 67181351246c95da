import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../../src/admission/server/json-depth.js";
import { propertyRuns } from "../../support/property-runs.js";

/** The nesting depth of a parsed JSON value, written plainly: the oracle. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === "object" && value !== null) return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

const bytes = (text: string): Buffer => Buffer.from(text, "utf8");

describe("nestsDeeperThan", () => {
  it("agrees with the depth of the parsed value, brackets and escapes in strings included", () => {
    const strings = fc.string({ unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", "a", "é") });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        strings,
        fc.integer(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(strings, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.nat({ max: 6 }), (value, limit) => {
        const text = JSON.stringify(value);
        // Small limits exercise the scan on small texts; the real limit skips texts no longer than it.
        const scanned = text.length > limit;
        expect(nestsDeeperThan(bytes(text), limit)).toBe(scanned && depthOf(value) > limit);
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it("holds Go's limit: 10,000 levels pass, 10,001 do not", () => {
    expect(MAX_JSON_DEPTH).toBe(10_000);
    const at = (n: number): Buffer => bytes(`${"[".repeat(n)}${"]".repeat(n)}`);
    expect(nestsDeeperThan(at(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(at(MAX_JSON_DEPTH + 1))).toBe(true);
    // Unclosed brackets count as they open: a truncated body is no way around the limit.
    expect(nestsDeeperThan(bytes("{".repeat(MAX_JSON_DEPTH + 1)))).toBe(true);
    // Brackets inside a string are text, however many.
    expect(nestsDeeperThan(bytes(JSON.stringify({ a: "[".repeat(3 * MAX_JSON_DEPTH) })))).toBe(false);
    expect(nestsDeeperThan(bytes(JSON.stringify({ a: `\\"${"[".repeat(3 * MAX_JSON_DEPTH)}` })))).toBe(false);
  });
});
