// The lint's bit sets against plain Sets of numbers, across word edges.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  andNot,
  andNotInto,
  clearBits,
  emptyBits,
  fullBits,
  hasBit,
  intersects,
  isEmptyBits,
  isSubset,
  members,
  onlyMember,
  orInto,
  setBit,
} from "../../../src/connectivity/lint/bitset.js";
import { propertyRuns } from "../../support/property-runs.js";

const of = (size: number, list: readonly number[]) => {
  const bits = emptyBits(size);
  for (const i of list) setBit(bits, i);
  return bits;
};

describe("bit sets", () => {
  it("holds what was set, across word edges", () => {
    const bits = of(70, [0, 31, 32, 63, 64, 69]);
    expect(members(bits)).toEqual([0, 31, 32, 63, 64, 69]);
    expect(hasBit(bits, 31)).toBe(true);
    expect(hasBit(bits, 30)).toBe(false);
    expect(isEmptyBits(emptyBits(70))).toBe(true);
  });

  it("fills exactly the members 0..size-1", () => {
    expect(members(fullBits(33))).toEqual([...Array(33).keys()]);
    expect(members(fullBits(32))).toEqual([...Array(32).keys()]);
    expect(members(fullBits(0))).toEqual([]);
  });

  it("tells one member from none and from several", () => {
    expect(onlyMember(of(100, []))).toBe(-1);
    expect(onlyMember(of(100, [77]))).toBe(77);
    expect(onlyMember(of(100, [3, 77]))).toBe(-2);
    expect(onlyMember(of(100, [3, 4]))).toBe(-2);
  });

  it("agrees with Sets of numbers", () => {
    const arb = fc
      .integer({ min: 1, max: 130 })
      .chain((size) =>
        fc.tuple(
          fc.constant(size),
          fc.uniqueArray(fc.nat(size - 1), { maxLength: size }),
          fc.uniqueArray(fc.nat(size - 1), { maxLength: size }),
        ),
      );
    fc.assert(
      fc.property(arb, ([size, a, b]) => {
        const sa = new Set(a);
        const sb = new Set(b);
        const union = of(size, a);
        orInto(union, of(size, b));
        expect(members(union)).toEqual([...new Set([...a, ...b])].sort((x, y) => x - y));
        expect(members(andNot(of(size, a), of(size, b)))).toEqual(a.filter((x) => !sb.has(x)).sort((x, y) => x - y));
        expect(isSubset(of(size, a), of(size, b))).toBe(a.every((x) => sb.has(x)));
        expect(onlyMember(of(size, a))).toBe(sa.size === 0 ? -1 : sa.size === 1 ? a[0] : -2);
        expect(intersects(of(size, a), of(size, b))).toBe(a.some((x) => sb.has(x)));
        const into = of(size, b);
        andNotInto(into, of(size, a), of(size, b));
        expect(members(into)).toEqual(members(andNot(of(size, a), of(size, b))));
        clearBits(into);
        expect(isEmptyBits(into)).toBe(true);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
