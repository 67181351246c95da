// The interleaving of contenders (not their timing, which no test asserts).

import { describe, expect, it } from "vitest";
import { TRIM_FACTOR, rotation, runRounds, sliceRate } from "../../bench/rounds.js";

describe("rotation", () => {
  it("starts each round one contender later, so each runs first in turn", () => {
    expect(rotation(3, 0)).toEqual([0, 1, 2]);
    expect(rotation(3, 1)).toEqual([1, 2, 0]);
    expect(rotation(3, 2)).toEqual([2, 0, 1]);
    expect(rotation(3, 3)).toEqual([0, 1, 2]);
  });

  it("runs every contender once per round", () => {
    for (let n = 1; n < 6; n++)
      for (let r = 0; r < 7; r++) expect([...rotation(n, r)].sort()).toEqual([...Array(n).keys()]);
  });
});

describe("runRounds", () => {
  it("gives one positive rate per contender and round, in the rotating order", () => {
    const order: string[] = [];
    let last = "";
    const contender = (name: string) => ({
      name,
      run: () => {
        if (last !== name) order.push(name);
        last = name;
        return name;
      },
    });
    const rates = runRounds([[contender("a"), contender("b")], [contender("c")]], {
      rounds: 3,
      sliceMs: 0.2,
      warmupMs: 0.1,
      rate: "trimmed",
    });
    expect(rates.map((g) => g.map((c) => c.length))).toEqual([[3, 3], [3]]);
    for (const r of rates.flat(2)) expect(r).toBeGreaterThan(0);
    // After the warm-up (a, b, c), round 1 runs a b c, round 2 b a c, round 3 a b c.
    expect(order.join("")).toBe("abcabcbacabc");
  });
});

describe("sliceRate", () => {
  it("counts every batch for 'slice'", () => {
    // 4 batches of 10 calls in 1 + 1 + 1 + 7 ms: 40 calls in 10 ms.
    expect(sliceRate([1, 1, 1, 7], 10, "slice")).toBeCloseTo(4000, 9);
  });

  it("leaves out a batch the process was descheduled in for 'trimmed'", () => {
    // The 7 ms batch is over TRIM_FACTOR × the median (1 ms): 30 calls in 3 ms.
    expect(TRIM_FACTOR).toBeLessThan(7);
    expect(sliceRate([1, 1, 1, 7], 10, "trimmed")).toBeCloseTo(10_000, 9);
  });

  it("keeps a batch lengthened by less than TRIM_FACTOR (a GC pause)", () => {
    expect(sliceRate([1, 1, 1, 2], 10, "trimmed")).toBeCloseTo(8000, 9);
  });
});
