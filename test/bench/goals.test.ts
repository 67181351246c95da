// How one bench run is held to the goals: the worst group decides (issue 30), and
// whether every input reaches the goal (issue 14) is reported beside it.

import { describe, expect, it } from "vitest";
import { GOALS, evaluateGoal, evaluatorGoalRow, speedupVsBaseline, type GoalSpec } from "../../bench/goals.js";

const decode = GOALS.find((g) => g.id === "decode") as GoalSpec;

describe("evaluateGoal", () => {
  it("is missed when one group's geometric mean misses, even if the overall mean is above the goal", () => {
    const row = evaluateGoal(decode, [
      { at: "big", ratio: 4, group: "corpus Ingress" },
      { at: "small", ratio: 1.4, group: "corpus IngressClass" },
    ]);
    expect(row.geomean).toBeGreaterThan(decode.atLeast);
    expect(row).toMatchObject({
      worstGroup: 1.4,
      worstGroupAt: "corpus IngressClass",
      worst: 1.4,
      worstAt: "small",
      inputs: 2,
      met: false,
      metOnEveryInput: false,
    });
  });

  it("is met on a group whose mean reaches the goal although one of its inputs does not", () => {
    const row = evaluateGoal(decode, [
      { at: "a", ratio: 1.2, group: "corpus Ingress" },
      { at: "b", ratio: 3, group: "corpus Ingress" },
      { at: "c", ratio: 1.6, group: "fixtures and realistic objects" },
    ]);
    expect(row.met).toBe(true);
    expect(row.metOnEveryInput).toBe(false);
    expect(row.worstGroupAt).toBe("fixtures and realistic objects");
    expect(row.groups.map((g) => [g.group, g.inputs])).toEqual([
      ["fixtures and realistic objects", 1],
      ["corpus Ingress", 2],
    ]);
    expect(row.groups[1]?.geomean).toBeCloseTo(Math.sqrt(3.6), 12);
  });

  it("is met when every input reaches the goal, the worst exactly", () => {
    const row = evaluateGoal(decode, [
      { at: "a", ratio: 1.5, group: "g" },
      { at: "b", ratio: 2, group: "g" },
    ]);
    expect(row).toMatchObject({ worst: 1.5, worstAt: "a", met: true, metOnEveryInput: true, goal: "≥ 1.5×" });
  });

  it("says 'not measured' (null) rather than met when no input was measured", () => {
    expect(evaluateGoal(decode, [])).toMatchObject({
      worst: null,
      worstGroup: null,
      geomean: null,
      inputs: 0,
      met: null,
      metOnEveryInput: null,
    });
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
    ).toMatchObject({ worst: 2.5e6, worstGroup: 2.5e6, goal: "≥ 2M/s", met: true, metOnEveryInput: true, inputs: 1 });
  });
});
