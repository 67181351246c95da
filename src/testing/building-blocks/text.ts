// The characters and strings the building blocks (names.ts, labels.ts, ports.ts, paths.ts) are
// made of. Everything in building-blocks/ is built with map() over records, tuples and nat()
// indexes, never chain(), so counterexamples shrink towards short values and index 0.

import fc from "fast-check";

export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const DIGIT = "0123456789";

/** One character from `set`; shrinks towards the first one. */
export function charOf(set: string): fc.Arbitrary<string> {
  return fc.constantFrom(...Array.from(set));
}

export function stringOf(set: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: charOf(set), minLength, maxLength });
}

/** Mostly short strings, sometimes close to `max` (fast-check's default size would never get there). */
export function lengthMix(set: string, min: number, max: number, shortMax = 12): fc.Arbitrary<string> {
  const short = stringOf(set, min, Math.min(max, Math.max(min, shortMax)));
  if (max <= shortMax) return short;
  return fc.oneof(
    { weight: 6, arbitrary: short },
    { weight: 1, arbitrary: stringOf(set, Math.max(min, max - 8), max) },
  );
}

export function fixLabelEdges(s: string): string {
  return s.replace(/^-/, "a").replace(/-$/, "z");
}
