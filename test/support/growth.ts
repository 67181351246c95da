// Complexity guards that do not depend on the machine's speed. A test that wants "this input
// costs linear time, not quadratic" runs the same work at two sizes and compares the two times
// with each other, never with a wall-clock budget: a slow or loaded machine slows both alike.
// Each size is timed a few times and the fastest run counts, so a single GC pause or scheduler
// hiccup does not decide the verdict.
import { expect } from "vitest";

export interface GrowthOptions {
  /** How many times larger the second input is. */
  readonly factor: number;
  /** Timed runs per size; the fastest counts. */
  readonly repeats?: number;
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
  const { factor, repeats = 3 } = options;
  const maxRatio = options.maxRatio ?? factor ** 1.5;
  const fastest = async (n: number): Promise<number> => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < repeats; i++) {
      const started = performance.now();
      await run(n);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  await run(size); // warm the JIT on the small input first
  const small = Math.max(await fastest(size), 0.05); // under the timer's resolution, count 0.05 ms
  const large = await fastest(size * factor);
  expect(
    large / small,
    `${label}: ${small.toFixed(2)} ms at size ${size}, ${large.toFixed(2)} ms at size ${size * factor}`,
  ).toBeLessThan(maxRatio);
}
