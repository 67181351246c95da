// The statistics the bench reports: medians and spreads of per-round rates,
// geometric means of ratios. Pure functions, tested in test/bench/stats.test.ts.

/** The value at quantile `q` (0..1) of `values`, interpolating linearly between ranks. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error("quantile of no values");
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile ${q} is outside 0..1`);
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (pos - lo);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** The geometric mean of positive values (ratios). */
export function geomean(values: readonly number[]): number {
  if (values.length === 0) throw new Error("geometric mean of no values");
  let sum = 0;
  for (const v of values) {
    if (!(v > 0)) throw new Error(`geometric mean of a non-positive value ${v}`);
    sum += Math.log(v);
  }
  return Math.exp(sum / values.length);
}

/** A median with its spread. */
export interface Spread {
  readonly median: number;
  readonly q1: number;
  readonly q3: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

export function spread(values: readonly number[]): Spread {
  return {
    median: median(values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
    n: values.length,
  };
}

/**
 * The ratio of two contenders measured in the same rounds: the median (and
 * spread) of the per-round ratios `a[i] / b[i]`, so a round slowed by the
 * machine slows both sides of its own ratio.
 */
export function roundRatio(a: readonly number[], b: readonly number[]): Spread {
  if (a.length !== b.length || a.length === 0)
    throw new Error(`per-round ratio needs two equal, non-empty series (got ${a.length} and ${b.length})`);
  return spread(a.map((x, i) => x / b[i]!));
}

/** Geometric mean, minimum and maximum of a set of ratios, with where the minimum and maximum were found. */
export interface RatioSummary {
  readonly geomean: number;
  readonly min: number;
  readonly minAt: string;
  readonly max: number;
  readonly maxAt: string;
  readonly n: number;
}

export function summarizeRatios(ratios: readonly { readonly at: string; readonly ratio: number }[]): RatioSummary {
  if (ratios.length === 0) throw new Error("no ratios to summarise");
  let lo = ratios[0]!;
  let hi = ratios[0]!;
  for (const r of ratios) {
    if (r.ratio < lo.ratio) lo = r;
    if (r.ratio > hi.ratio) hi = r;
  }
  return {
    geomean: geomean(ratios.map((r) => r.ratio)),
    min: lo.ratio,
    minAt: lo.at,
    max: hi.ratio,
    maxAt: hi.at,
    n: ratios.length,
  };
}
