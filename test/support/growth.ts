// Complexity guards that do not depend on the machine's speed. A test that wants "this input
// costs linear time, not quadratic" runs the same work at two sizes and compares the two times
// with each other, never with a wall-clock budget: a slow or loaded machine slows both alike.
// Each size is timed a few times, the two sizes taking turns, and the fastest run of each counts,
// so a single GC pause or scheduler hiccup does not decide the verdict. A ratio over the limit is
// measured again (up to `attempts` times in all) before it fails: on a machine whose load changes
// from one moment to the next, linear code can overshoot once, while quadratic code overshoots the
// limit by factor^0.5 (4x at factor 16) every time.
import { expect } from "vitest";

export interface GrowthOptions {
  /** How many times larger the second input is. */
  readonly factor: number;
  /** Timed runs per size; the fastest counts. */
  readonly repeats?: number;
  /** Measurements before a ratio over the limit fails; any one within it passes. */
  readonly attempts?: number;
  /**
   * The largest time ratio accepted. The default, factor^1.5, sits halfway (on a log scale)
   * between linear growth (factor) and quadratic growth (factor^2): at factor 16, linear code
   * has 4x of headroom and quadratic code overshoots by 4x.
   */
  readonly maxRatio?: number;
}

/** Expects `run(size * factor)` to cost at most about `factor` times `run(size)`. */
export async function expectSubquadratic(
  label: string,
  run: (size: number) => unknown,
  size: number,
  options: GrowthOptions,
): Promise<void> {
  const { factor, repeats = 3, attempts = 5 } = options;
  const maxRatio = options.maxRatio ?? factor ** 1.5;
  const timed = async (n: number): Promise<number> => {
    const started = performance.now();
    await run(n);
    return performance.now() - started;
  };
  await run(size); // warm the JIT on the small input first
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < attempts; attempt++) {
    small = Number.POSITIVE_INFINITY;
    large = Number.POSITIVE_INFINITY;
    // Interleaved, so a change of load between the two sizes touches both.
    for (let i = 0; i < repeats; i++) {
      small = Math.min(small, await timed(size));
      large = Math.min(large, await timed(size * factor));
    }
    small = Math.max(small, 0.05); // under the timer's resolution, count 0.05 ms
    if (large / small < maxRatio) break;
  }
  expect(
    large / small,
    `${label}: ${small.toFixed(2)} ms at size ${size}, ${large.toFixed(2)} ms at size ${size * factor}` +
      ` (the fastest of ${repeats} runs each, in the last of ${attempts} measurements)`,
  ).toBeLessThan(maxRatio);
}
