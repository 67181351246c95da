// How one bench run is held to the goals of issue 14: the worst input decides.

import { describe, expect, it } from "vitest";
import { GOALS, evaluateGoal, evaluatorGoalRow, speedupVsBaseline, type GoalSpec } from "../../bench/goals.js";

const decode = GOALS.find((g) => g.id === "decode") as GoalSpec;

describe("evaluateGoal", () => {
  it("is missed when one input misses, even if the geometric mean is above the goal", () => {
    const row = evaluateGoal(decode, [
      { at: "big", ratio: 4 },
      { at: "small", ratio: 1.4 },
    ]);
    expect(row.geomean).toBeGreaterThan(decode.atLeast);
    expect(row).toMatchObject({ worst: 1.4, worstAt: "small", inputs: 2, met: false });
  });

  it("is met when every input reaches the goal, the worst exactly", () => {
    const row = evaluateGoal(decode, [
      { at: "a", ratio: 1.5 },
      { at: "b", ratio: 2 },
    ]);
    expect(row).toMatchObject({ worst: 1.5, worstAt: "a", met: true, goal: "≥ 1.5×" });
  });

  it("says 'not measured' (null) rather than met when no input was measured", () => {
    expect(evaluateGoal(decode, [])).toMatchObject({ worst: null, geomean: null, inputs: 0, met: null });
  });
});

describe("GOALS", () => {
  it("lists each measure of issue 14 once, with its threshold", () => {
    expect(Object.fromEntries(GOALS.map((g) => [g.id, g.atLeast]))).toEqual({
      decode: 1.5,
      encode: 1.2,
      fromJson: 0.5,
      fromJsonValue: 2,
      toJsonString: 0.6,
      pipelineJson: 1.5,
      pipelineProtobuf: 4,
      validate: 2,
    });
  });
});

describe("speedupVsBaseline", () => {
  it("cancels a machine that is uniformly slower than the baseline's", () => {
    // Twice as slow everywhere, same code: no speed-up once normalised.
    expect(speedupVsBaseline({ us: 10, jsonParseUs: 5 }, { us: 20, jsonParseUs: 10 })).toEqual({
      normalised: 1,
      raw: 0.5,
    });
    // Code twice as fast, same machine.
    expect(speedupVsBaseline({ us: 10, jsonParseUs: 5 }, { us: 5, jsonParseUs: 5 }).normalised).toBe(2);
  });
});

describe("evaluatorGoalRow", () => {
  it("carries an evaluator goal into the table as its own worst input", () => {
    expect(
      evaluatorGoalRow({
        name: "route lookups, 10,000 Ingresses",
        value: 2.5e6,
        kind: "rate",
        goal: "≥ 2M/s",
        met: true,
      }),
    ).toMatchObject({ worst: 2.5e6, goal: "≥ 2M/s", met: true, inputs: 1 });
  });
});
