// The catalogue form of the arbitrary quality checks: an entry per arbitrary (its contract and
// run options), a test per entry, and a check that a module's public arbitraries all have one.

import type fc from "fast-check";
import { expect, it } from "vitest";
import * as kit from "../../src/testing/index.js";
import { checkArbitraryQuality, type Contract } from "./quality.js";

export interface Entry {
  readonly name: string;
  readonly arb: fc.Arbitrary<unknown>;
  readonly contract: Contract<never>;
  readonly size?: (v: never) => number;
  readonly runs?: number;
  readonly seeds?: number[];
}

export const entry = <T>(
  name: string,
  arb: fc.Arbitrary<T>,
  contract: Contract<T>,
  extra: { size?: (v: T) => number; runs?: number; seeds?: number[] } = {},
): Entry => ({ name, arb, contract, ...extra }) as unknown as Entry;

/** One test per entry: the same values for the same seed, the contract, and shrinking within it. */
export function checkEntries(entries: readonly Entry[]): void {
  for (const e of entries) {
    it(e.name, () => {
      const options = {
        contract: e.contract,
        ...(e.size !== undefined ? { size: e.size } : {}),
        ...(e.runs !== undefined ? { runs: e.runs } : {}),
        ...(e.seeds !== undefined ? { shrinkSeeds: e.seeds } : {}),
      };
      checkArbitraryQuality(e.arb as fc.Arbitrary<never>, options);
    });
  }
}

/** The names (before any `(`) the entries cover. */
export function covered(entries: readonly Entry[]): Set<string> {
  return new Set(entries.map((e) => e.name.replace(/\(.*$/, "")));
}

/** Every arbitrary factory `module` exports that clusterwire/testing exports too has an entry (or is in `also`). */
export function expectCatalogued(module: object, entries: readonly Entry[], also: readonly string[] = []): void {
  const names = covered(entries);
  for (const name of also) names.add(name);
  const arbs = Object.keys(module).filter((k) => k.startsWith("arb") && k in kit);
  expect(arbs.length).toBeGreaterThan(0);
  expect(arbs.filter((k) => !names.has(k))).toEqual([]);
}
