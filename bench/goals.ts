// The codec and validation goals and how one bench run is held to them. Each
// goal is a ratio against a peer. Issue 30 states them per kind: the geometric
// mean of every group of inputs (each corpus kind, and the fixtures with the
// realistic objects) must reach the ratio, so the worst group decides the
// verdict. Issue 14's stricter reading, every single input, is reported beside
// it. Pure; tested in test/bench/goals.test.ts.

import { geomean } from "./stats.js";

export type GoalId =
  | "decode"
  | "encode"
  | "fromJson"
  | "fromJsonValue"
  | "toJsonString"
  | "pipelineJson"
  | "pipelineProtobuf"
  | "validate";

export interface GoalSpec {
  readonly id: GoalId;
  readonly measure: string;
  /** The ratio every input must reach. */
  readonly atLeast: number;
  readonly peer: string;
}

export const GOALS: readonly GoalSpec[] = [
  { id: "decode", measure: "decode", atLeast: 1.5, peer: "protobufjs static" },
  { id: "encode", measure: "encode", atLeast: 1.2, peer: "protobufjs static" },
  { id: "fromJson", measure: "fromJson (text)", atLeast: 0.5, peer: "JSON.parse" },
  { id: "fromJsonValue", measure: "fromJson (parsed value)", atLeast: 2, peer: "today (baseline file)" },
  { id: "toJsonString", measure: "toJsonString", atLeast: 0.6, peer: "JSON.stringify" },
  { id: "pipelineJson", measure: "JSON bytes -> validated object", atLeast: 1.5, peer: "kubernetes-models" },
  { id: "pipelineProtobuf", measure: "protobuf bytes -> validated object", atLeast: 4, peer: "kubernetes-models" },
  { id: "validate", measure: "validate, every kind", atLeast: 2, peer: "kubernetes-models" },
];

/** One input's ratio for a goal (clusterwire / peer: above 1 means clusterwire is faster). */
export interface GoalSample {
  readonly at: string;
  readonly ratio: number;
  /** The group the input is judged in: "corpus Ingress", "fixtures and realistic objects", ... */
  readonly group: string;
}

/** The geometric mean of one group's ratios. */
export interface GoalGroup {
  readonly group: string;
  readonly geomean: number;
  readonly inputs: number;
}

/** One row of the goals table. */
export interface GoalRow {
  readonly measure: string;
  readonly peer: string;
  /** "≥ 1.5×", or the evaluator's own wording. */
  readonly goal: string;
  /** The lowest group geometric mean (null: nothing measured); the verdict is judged on it. */
  readonly worstGroup: number | null;
  readonly worstGroupAt: string;
  /** Every group's geometric mean, lowest first. */
  readonly groups: readonly GoalGroup[];
  /** The lowest ratio over the inputs (null: nothing measured). */
  readonly worst: number | null;
  readonly worstAt: string;
  readonly geomean: number | null;
  readonly inputs: number;
  /** Whether the worst group reaches the goal; null when nothing was measured (a filter left it out). */
  readonly met: boolean | null;
  /** Whether every single input reaches it (issue 14's reading); null when nothing was measured. */
  readonly metOnEveryInput: boolean | null;
}

export function evaluateGoal(spec: GoalSpec, samples: readonly GoalSample[]): GoalRow {
  const base = { measure: spec.measure, peer: spec.peer, goal: `≥ ${spec.atLeast}×`, inputs: samples.length };
  if (samples.length === 0)
    return {
      ...base,
      worstGroup: null,
      worstGroupAt: "",
      groups: [],
      worst: null,
      worstAt: "",
      geomean: null,
      met: null,
      metOnEveryInput: null,
    };
  let worst = samples[0]!;
  for (const s of samples) if (s.ratio < worst.ratio) worst = s;
  const byGroup = new Map<string, number[]>();
  for (const s of samples) {
    const list = byGroup.get(s.group);
    if (list === undefined) byGroup.set(s.group, [s.ratio]);
    else list.push(s.ratio);
  }
  const groups = [...byGroup]
    .map(([group, ratios]) => ({ group, geomean: geomean(ratios), inputs: ratios.length }))
    .sort((a, b) => a.geomean - b.geomean);
  const lowest = groups[0]!;
  return {
    ...base,
    worstGroup: lowest.geomean,
    worstGroupAt: lowest.group,
    groups,
    worst: worst.ratio,
    worstAt: worst.at,
    geomean: geomean(samples.map((s) => s.ratio)),
    met: lowest.geomean >= spec.atLeast,
    metOnEveryInput: worst.ratio >= spec.atLeast,
  };
}

/** An evaluator goal as bench/evaluators.ts reports it. */
export interface EvaluatorGoal {
  readonly name: string;
  readonly value: number;
  readonly kind: "rate" | "ratio";
  readonly goal: string;
  readonly met: boolean | null;
}

/** An evaluator's goal line as a row of the same table: one measured value, so it is its own worst group and input. */
export function evaluatorGoalRow(g: EvaluatorGoal): GoalRow {
  return {
    measure: g.name,
    peer: g.kind === "rate" ? "(rate)" : "(ratio)",
    goal: g.goal,
    worstGroup: g.value,
    worstGroupAt: "",
    groups: [],
    worst: g.value,
    worstAt: "",
    geomean: null,
    inputs: 1,
    met: g.met,
    metOnEveryInput: g.met,
  };
}

/**
 * How much faster fromJson of a parsed value is than the baseline recorded
 * on today's code. Both runs time JSON.parse of the same text in the same
 * rounds, and the speed-up is taken relative to it, so a busier or quieter
 * machine than the baseline's does not count as a change of code:
 * (baseUs / baseJsonParseUs) / (nowUs / nowJsonParseUs).
 */
export function speedupVsBaseline(
  base: { readonly us: number; readonly jsonParseUs: number },
  now: { readonly us: number; readonly jsonParseUs: number },
): { normalised: number; raw: number } {
  return { normalised: base.us / base.jsonParseUs / (now.us / now.jsonParseUs), raw: base.us / now.us };
}
