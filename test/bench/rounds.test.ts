// The interleaving of contenders (not their timing, which no test asserts).

import { describe, expect, it } from "vitest";
import { rotation, runRounds } from "../../bench/rounds.js";

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
      rate: "median-batch",
    });
    expect(rates.map((g) => g.map((c) => c.length))).toEqual([[3, 3], [3]]);
    for (const r of rates.flat(2)) expect(r).toBeGreaterThan(0);
    // After the warm-up (a, b, c), round 1 runs a b c, round 2 b a c, round 3 a b c.
    expect(order.join("")).toBe("abcabcbacabc");
  });
});
