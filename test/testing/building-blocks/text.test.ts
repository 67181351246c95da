// The characters and strings the building blocks are made of (src/testing/building-blocks/text.ts):
// strings only of their set and within their lengths, shrinking towards the set's first
// character, mostly short but sometimes near the longest, and labels without a dash at an edge.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DIGIT,
  LOWER,
  UPPER,
  charOf,
  fixLabelEdges,
  lengthMix,
  stringOf,
} from "../../../src/testing/building-blocks/text.js";
import { checkArbitraryQuality } from "../quality.js";

const only = (set: string) => (s: string) => Array.from(s).every((c) => set.includes(c));

describe("building blocks: characters and strings", () => {
  it("the sets are the ASCII letters and digits", () => {
    expect([LOWER, UPPER, DIGIT]).toEqual(["abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"]);
  });

  it("charOf: one character of the set, shrinking to the first", () => {
    expect(new Set(fc.sample(charOf("xyz"), { seed: 1, numRuns: 200 }))).toEqual(new Set(["x", "y", "z"]));
    const [shrunk] = fc.check(
      fc.property(charOf("xyz"), (c) => c === "q"),
      { seed: 1 },
    ).counterexample ?? [undefined];
    expect(shrunk).toBe("x");
  });

  it("stringOf: only the set's characters, within the lengths", () => {
    checkArbitraryQuality(stringOf(LOWER + "-", 2, 9), {
      contract: (s) => s.length >= 2 && s.length <= 9 && only(LOWER + "-")(s),
    });
  });

  it("lengthMix: mostly short, sometimes within 8 of the longest, never past it", () => {
    const sample = fc.sample(lengthMix(DIGIT, 1, 63), { seed: 3, numRuns: 700 });
    expect(sample.every((s) => s.length >= 1 && s.length <= 63 && only(DIGIT)(s))).toBe(true);
    const long = sample.filter((s) => s.length > 12);
    expect(long.length).toBeGreaterThan(0);
    expect(long.every((s) => s.length >= 55)).toBe(true);
    expect(long.length).toBeLessThan(sample.length / 2);
    // A short maximum: short strings only.
    expect(fc.sample(lengthMix(DIGIT, 1, 5), { seed: 3, numRuns: 100 }).every((s) => s.length <= 5)).toBe(true);
  });

  it("fixLabelEdges: a dash at the start becomes a, at the end z, inside it stays", () => {
    expect(["-ab-", "a-b", "-", "--"].map(fixLabelEdges)).toEqual(["aabz", "a-b", "a", "az"]);
  });
});
