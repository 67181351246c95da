import { describe, expect, it } from "vitest";
import { expectSubquadratic } from "./growth.js";

// The guard has teeth: it passes linear work and fails quadratic work, comparing the two sizes
// with each other only (no wall-clock budget), so it holds on a fast or a slow machine.
let sink = 0;
const spin = (iterations: number): void => {
  let x = sink;
  for (let i = 0; i < iterations; i++) x = (x * 31 + i) | 0;
  sink = x;
};

describe("expectSubquadratic", () => {
  it("passes work that grows linearly", async () => {
    await expectSubquadratic("linear", (n) => spin(n * 2000), 200, { factor: 16 });
  });

  it("fails work that grows quadratically, after measuring again", async () => {
    let runs = 0;
    const quadratic = (n: number): void => {
      runs++;
      spin(n * n);
    };
    await expect(expectSubquadratic("quadratic", quadratic, 250, { factor: 16 })).rejects.toThrow(/quadratic: /);
    // One warm-up, then 5 attempts of 3 runs at each size.
    expect(runs).toBe(1 + 5 * 3 * 2);
  });
});
