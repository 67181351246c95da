// Quality checks for fast-check arbitraries, the ones fast-check holds its own
// arbitraries to: the same values for the same seed, every value within the
// arbitrary's contract, and shrinking that stays within the contract and makes
// counterexamples smaller.
//
// CLUSTERWIRE_PROPERTY_RUNS=N sets the contract checks' run counts to N (test/support/property-runs.ts).
// The shrinking check is bounded by a number of property calls, not by time, so it checks the
// same values on every machine and a failure replays from its seed.

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { expect } from "vitest";
import { propertyRuns } from "../support/property-runs.js";

/**
 * A contract: returns normally (nothing, or true) for a value within it, and throws or
 * returns false for one outside it. Any result but `false` counts as holding.
 */
export type Contract<T> = (value: T) => unknown;

export interface QualityOptions<T> {
  readonly contract: Contract<T>;
  /** A size that shrinking should reduce; default: the length of the value printed as JSON. */
  readonly size?: (value: T) => number;
  /** Runs for the contract check; default 200. */
  readonly runs?: number;
  /** Seeds for the shrinking check; default 3 of them. */
  readonly shrinkSeeds?: readonly number[];
  /** Property calls for each shrinking seed, after which the smallest counterexample so far counts; default 200. */
  readonly shrinkCalls?: number;
}

/** The length of a value printed as JSON, with bigints and byte arrays spelled out. */
export function jsonSize(value: unknown): number {
  return (
    JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v === "bigint") return v.toString();
      if (v instanceof Uint8Array) return Array.from(v);
      return v;
    }) ?? ""
  ).length;
}

function holds<T>(contract: Contract<T>, value: T): boolean {
  try {
    return contract(value) !== false;
  } catch {
    return false;
  }
}

/** Two samples with one seed are deep-equal; another seed gives other values. */
export function checkSameValuesForSameSeed<T>(arb: fc.Arbitrary<T>, seed = 42, numRuns = 30): void {
  const a = fc.sample(arb, { seed, numRuns });
  const b = fc.sample(arb, { seed, numRuns });
  expect(isDeepStrictEqual(a, b), "two samples with the same seed differ").toBe(true);
  const c = fc.sample(arb, { seed: seed + 1, numRuns });
  const distinct = new Set(a.map(jsonSize)).size + new Set(c.map(jsonSize)).size;
  // A constant arbitrary would be fine for determinism but useless; every
  // arbitrary checked here has more than one value.
  expect(distinct > 2 || !isDeepStrictEqual(a, c), "the arbitrary produced the same values for two seeds").toBe(true);
}

/** Every generated value satisfies the contract. */
export function checkContract<T>(arb: fc.Arbitrary<T>, contract: Contract<T>, numRuns = 200): void {
  fc.assert(
    fc.property(arb, (v) => contract(v) !== false),
    { numRuns: propertyRuns(numRuns) },
  );
}

/** Property calls per shrinking seed by default: enough for every arbitrary here to shrink (see checkShrinking). */
export const SHRINK_CALLS = 200;

/**
 * Shrinking: a property that fails for every value larger than the median
 * size of a sample. fast-check shrinks each counterexample; every value it
 * tries on the way must stay within the contract, and the last counterexample
 * must be smaller than the first. (Single steps may grow: a constant shrinks towards the first of its
 * list, which can be the longer one.)
 *
 * Big values offer thousands of shrink candidates near the median, so each seed's run stops after
 * `calls` calls of the property (generation and shrinking together), and the smallest
 * counterexample so far counts. A count, unlike a time limit, checks the same values on every
 * machine: the slow arbitraries (clusters, routing inputs) got as few as 50 calls in a second on a
 * loaded two-core machine, and the fast ones spent the second on candidates that no longer shrank
 * (arbObject reaches the median plus one within 200 calls, as it did within a second).
 */
export function checkShrinking<T>(
  arb: fc.Arbitrary<T>,
  contract: Contract<T>,
  size: (v: T) => number = jsonSize,
  seeds: readonly number[] = [1, 2, 3],
  calls = SHRINK_CALLS,
): void {
  const sizes = fc
    .sample(arb, { seed: 7, numRuns: 200 })
    .map(size)
    .sort((x, y) => x - y);
  const threshold = sizes[Math.floor(sizes.length / 2)] ?? 0;
  // Values at or below the median pass; there must be larger ones to shrink.
  expect(sizes[sizes.length - 1]! > threshold, "the arbitrary's values all have one size").toBe(true);
  let shrunkSomewhere = false;
  for (const seed of seeds) {
    // Every value the run sees, shrink candidates that pass included, must
    // stay within the contract.
    const broken: T[] = [];
    let called = 0;
    const details = fc.check(
      fc.property(arb, (v) => {
        // An interrupting precondition failure ends the run where it is, counterexample kept.
        if (++called > calls) throw new fc.PreconditionFailure(true);
        if (!holds(contract, v)) broken.push(v);
        return size(v) <= threshold;
      }),
      { seed, numRuns: 500, verbose: fc.VerbosityLevel.Verbose },
    );
    expect(
      broken.map((v) => fc.stringify(v)),
      "values seen while shrinking broke the contract",
    ).toEqual([]);
    if (!details.failed) continue;
    const chain = details.failures as unknown as [T][];
    expect(chain.length).toBeGreaterThan(0);
    const first = size(chain[0]![0]);
    const last = size(chain[chain.length - 1]![0]);
    expect(last).toBeGreaterThan(threshold);
    if (last < first) shrunkSomewhere = true;
  }
  expect(shrunkSomewhere, "no counterexample got smaller under shrinking").toBe(true);
}

/** All three checks. */
export function checkArbitraryQuality<T>(arb: fc.Arbitrary<T>, options: QualityOptions<T>): void {
  checkSameValuesForSameSeed(arb);
  checkContract(arb, options.contract, options.runs ?? 200);
  checkShrinking(
    arb,
    options.contract,
    options.size ?? jsonSize,
    options.shrinkSeeds ?? [1, 2, 3],
    options.shrinkCalls ?? SHRINK_CALLS,
  );
}
