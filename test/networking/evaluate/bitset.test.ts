// The bit sets the policy engine keeps its pod sets in, held to a plain reference: a Set of
// the members.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Bits,
  forEachBit,
  fullBits,
  hasBit,
  isEmpty,
  orAndInto,
  orInto,
  popcount32,
  setBit,
  wordCount,
} from "../../../src/networking/evaluate/bitset.js";
import { propertyRuns } from "../../support/property-runs.js";

function fromSet(members: Iterable<number>, n: number): Bits {
  const b = new Uint32Array(wordCount(n));
  for (const i of members) setBit(b, i);
  return b;
}

function toList(b: Bits): number[] {
  const out: number[] = [];
  forEachBit(b, (i) => out.push(i));
  return out;
}

/** A size and a set of members below it. */
const sized = fc
  .integer({ min: 0, max: 200 })
  .chain((n) =>
    fc.tuple(fc.constant(n), fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, n - 1) }), { maxLength: n })),
  );

describe("bit sets", () => {
  it("wordCount: 32 members to a word", () => {
    expect([0, 1, 31, 32, 33, 64, 65].map(wordCount)).toEqual([0, 1, 1, 1, 2, 2, 3]);
  });

  it("fullBits holds exactly 0..n-1, whatever the word count", () => {
    for (const n of [0, 1, 31, 32, 33, 63, 64, 65, 100]) {
      const b = fullBits(n);
      expect(b.length).toBe(wordCount(n));
      expect(toList(b)).toEqual(Array.from({ length: n }, (_, i) => i));
    }
    // A row of a wider matrix: extra words stay empty.
    expect(Array.from(fullBits(33, 4))).toEqual([0xffffffff, 1, 0, 0]);
  });

  it("setBit, hasBit and forEachBit (in increasing order) agree with a Set", () => {
    fc.assert(
      fc.property(sized, ([n, members]) => {
        const b = fromSet(members, n);
        const want = [...new Set(members)].sort((x, y) => x - y);
        let same = true;
        for (let i = 0; i < n; i++) same &&= hasBit(b, i) === members.includes(i);
        return JSON.stringify(toList(b)) === JSON.stringify(want) && same && isEmpty(b) === (want.length === 0);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it("orInto is union and orAndInto adds an intersection, as with Sets", () => {
    fc.assert(
      fc.property(sized, sized, sized, ([n, a], [, b], [, c]) => {
        const inRange = (xs: number[]) => xs.filter((x) => x < n);
        const [sa, sb, sc] = [inRange(a), inRange(b), inRange(c)];
        const sorted = (xs: Iterable<number>) => JSON.stringify([...new Set(xs)].sort((x, y) => x - y));
        const union = fromSet(sa, n);
        orInto(union, fromSet(sb, n));
        const acc = fromSet(sa, n);
        orAndInto(acc, fromSet(sb, n), fromSet(sc, n));
        return (
          JSON.stringify(toList(union)) === sorted([...sa, ...sb]) &&
          JSON.stringify(toList(acc)) === sorted([...sa, ...sb.filter((x) => sc.includes(x))])
        );
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it("popcount32 counts the set bits of a 32-bit word", () => {
    expect([0, 1, 0xffffffff, 0x80000000, 0x55555555, -1].map(popcount32)).toEqual([0, 1, 32, 1, 16, 32]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        (x) => popcount32(x) === x.toString(2).replace(/0/g, "").length,
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it("the top bit of a word is member 31 of it (no sign trouble)", () => {
    const b = new Uint32Array(2);
    setBit(b, 31);
    setBit(b, 63);
    expect(Array.from(b)).toEqual([0x80000000, 0x80000000]);
    expect(toList(b)).toEqual([31, 63]);
    expect(hasBit(b, 31) && hasBit(b, 63) && !hasBit(b, 30)).toBe(true);
  });
});
