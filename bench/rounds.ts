// Interleaved rounds: every contender of a group runs for a short slice, in
// an order that rotates from round to round, so that a slow spell of the
// shared machine lands on all contenders of the group rather than on one.
// A group's rates are then compared round by round (stats.roundRatio).

import { median } from "./stats.js";

/** One implementation measured in a group. */
export interface Contender {
  readonly name: string;
  readonly run: () => unknown;
}

export interface RoundsPlan {
  readonly rounds: number;
  /** How long each contender runs in each round. */
  readonly sliceMs: number;
  /** How long each contender runs once before the rounds (not measured). */
  readonly warmupMs: number;
  /**
   * How a slice becomes a rate. "slice": all calls over the whole slice, so
   * garbage collection and a descheduled spell count, as they do for a user;
   * for slices long enough to average them out. "median-batch": the median of
   * the slice's ~20 batches, which keeps a short slice that the shared machine
   * interrupted from swinging a ratio by 10×, and leaves out pauses that fall
   * in fewer than half of the batches.
   */
  readonly rate: "slice" | "median-batch";
}

// Results go here so no timed call can be optimised away.
let sink: unknown;

/** Whether the sink ever held a given value: read once at the end so the sink stays live. */
export const sinkIs = (v: unknown): boolean => sink === v;

/** Calls per timer read, so that a batch lasts about `targetMs` (timer reads then cost well under 1 %). */
function calibrate(run: () => unknown, warmupMs: number, targetMs: number): number {
  let calls = 0;
  const t0 = performance.now();
  let dt = 0;
  do {
    sink = run();
    calls++;
    dt = performance.now() - t0;
  } while (dt < warmupMs);
  return Math.max(1, Math.floor((targetMs * calls) / dt));
}

/** Runs `run` in batches of `batch` calls for `ms`; calls per second, by `rate`. */
function slice(run: () => unknown, batch: number, ms: number, rate: RoundsPlan["rate"]): number {
  let calls = 0;
  const t0 = performance.now();
  let dt = 0;
  const batches: number[] = [];
  let last = t0;
  do {
    for (let i = 0; i < batch; i++) sink = run();
    calls += batch;
    const now = performance.now();
    if (rate === "median-batch") batches.push(now - last);
    last = now;
    dt = now - t0;
  } while (dt < ms);
  return rate === "slice" ? (calls * 1000) / dt : (batch * 1000) / Math.max(median(batches), 1e-6);
}

/** The order contenders run in, in round `round`: rotated by one each round. */
export function rotation(n: number, round: number): number[] {
  return Array.from({ length: n }, (_, i) => (i + round) % n);
}

/**
 * Runs every group in `plan.rounds` rounds. Returns, per group and per
 * contender, the calls per second it made in each round.
 */
export function runRounds(
  groups: readonly (readonly Contender[])[],
  plan: RoundsPlan,
  progress: (msg: string) => void = () => {},
): number[][][] {
  const batches = groups.map((g) => g.map((c) => calibrate(c.run, plan.warmupMs, plan.sliceMs / 20)));
  const rates = groups.map((g) => g.map(() => [] as number[]));
  for (let round = 0; round < plan.rounds; round++) {
    progress(`  round ${round + 1}/${plan.rounds}`);
    for (let gi = 0; gi < groups.length; gi++) {
      const group = groups[gi]!;
      for (const ci of rotation(group.length, round)) {
        rates[gi]![ci]!.push(slice(group[ci]!.run, batches[gi]![ci]!, plan.sliceMs, plan.rate));
      }
    }
  }
  return rates;
}
