// The bench's statistics: medians, spreads and per-round ratios, on numbers
// worked out by hand (no timing involved).

import { describe, expect, it } from "vitest";
import { geomean, median, quantile, roundRatio, spread, summarizeRatios } from "../../bench/stats.js";

describe("quantile and median", () => {
  it("interpolates between ranks, whatever the input order", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([10, 20, 30, 40, 50], 0.25)).toBe(20);
    expect(quantile([1, 2], 0.75)).toBe(1.75);
    expect(quantile([7], 0.9)).toBe(7);
  });

  it("refuses no values and quantiles outside 0..1", () => {
    expect(() => median([])).toThrow(/no values/);
    expect(() => quantile([1], 1.5)).toThrow(/outside/);
    expect(() => quantile([1], Number.NaN)).toThrow(/outside/);
  });

  it("does not reorder its argument", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe("geomean", () => {
  it("is the n-th root of the product", () => {
    expect(geomean([1, 4])).toBeCloseTo(2, 12);
    expect(geomean([0.5, 2, 8])).toBeCloseTo(2, 12);
  });

  it("refuses non-positive ratios and no ratios", () => {
    expect(() => geomean([1, 0])).toThrow(/non-positive/);
    expect(() => geomean([])).toThrow(/no values/);
  });
});

describe("spread", () => {
  it("gives the median, quartiles and extremes", () => {
    expect(spread([1, 2, 3, 4, 5])).toEqual({ median: 3, q1: 2, q3: 4, min: 1, max: 5, n: 5 });
  });
});

describe("roundRatio", () => {
  it("is the median of the per-round ratios, not the ratio of the medians", () => {
    // Round 2 was slow for both contenders: per-round ratios are 2, 2, 1.
    const a = [200, 20, 100];
    const b = [100, 10, 100];
    expect(roundRatio(a, b).median).toBe(2);
    expect(median(a) / median(b)).toBe(1);
    expect(roundRatio(a, b)).toMatchObject({ min: 1, max: 2, n: 3 });
  });

  it("needs two equal, non-empty series", () => {
    expect(() => roundRatio([1, 2], [1])).toThrow(/equal/);
    expect(() => roundRatio([], [])).toThrow(/equal/);
  });
});

describe("summarizeRatios", () => {
  it("names where the lowest and highest ratios were found", () => {
    const s = summarizeRatios([
      { at: "a", ratio: 2 },
      { at: "b", ratio: 0.5 },
      { at: "c", ratio: 1 },
    ]);
    expect(s).toEqual({ geomean: 1, min: 0.5, minAt: "b", max: 2, maxAt: "a", n: 3 });
  });
});
