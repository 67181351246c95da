// The watch-stream memory verdict: a steady rise fails, noise does not.

import { describe, expect, it } from "vitest";
import { growthOf, type HeapSample } from "../../bench/memory-report.js";

const samples = (heap: (i: number) => number): HeapSample[] =>
  Array.from({ length: 10 }, (_, i) => ({ events: (i + 1) * 10_000, heapUsed: heap(i) }));

const MiB = 1024 * 1024;

describe("growthOf", () => {
  it("fails a leak of 16 bytes per event (about 1.4 MiB over 90,000 events)", () => {
    const g = growthOf(
      samples((i) => 20 * MiB + i * 10_000 * 16),
      MiB,
    );
    expect(g.bytesPerEvent).toBeCloseTo(16, 9);
    expect(g.grows).toBe(true);
  });

  it("passes a flat heap with GC noise of ±300 KiB", () => {
    const noise = [0, 300, -250, 120, -300, 280, -100, 50, -200, 10];
    const g = growthOf(
      samples((i) => 20 * MiB + noise[i]! * 1024),
      MiB,
    );
    expect(g.grows).toBe(false);
    expect(Math.abs(g.fittedGrowth)).toBeLessThan(MiB);
  });

  it("judges the fitted line, not one late spike", () => {
    const g = growthOf(
      samples((i) => 20 * MiB + (i === 9 ? 1.5 * MiB : 0)),
      MiB,
    );
    expect(g.rawGrowth).toBe(1.5 * MiB);
    expect(g.grows).toBe(false);
  });

  it("needs at least two samples at different event counts", () => {
    expect(() => growthOf([{ events: 1, heapUsed: 1 }], MiB)).toThrow(/two samples/);
    expect(() =>
      growthOf(
        [
          { events: 1, heapUsed: 1 },
          { events: 1, heapUsed: 2 },
        ],
        MiB,
      ),
    ).toThrow(/different/);
  });
});
