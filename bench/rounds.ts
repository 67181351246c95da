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
   * How a slice becomes a rate. "slice": all calls over the whole slice.
   * "trimmed": the same, leaving out the batches that took more than
   * TRIM_FACTOR times the slice's median batch: on a machine shared with
   * other busy processes, a slice is often descheduled for tens of
   * milliseconds, which would swing a ratio by 10×; an ordinary garbage
   * collection pause lengthens a batch far less and stays counted.
   */
  readonly rate: "slice" | "trimmed";
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

/** A batch longer than this many times the slice's median batch counts as interrupted (see RoundsPlan.rate). */
export const TRIM_FACTOR = 3;

/**
 * Calls per second of a slice from its batch durations (ms), each batch of
 * `batch` calls: all of them ("slice"), or those not interrupted ("trimmed").
 */
export function sliceRate(batchMs: readonly number[], batch: number, rate: RoundsPlan["rate"]): number {
  const cut = rate === "trimmed" ? TRIM_FACTOR * median(batchMs) : Number.POSITIVE_INFINITY;
  let calls = 0;
  let ms = 0;
  for (const b of batchMs) {
    if (b > cut) continue;
    calls += batch;
    ms += b;
  }
  return (calls * 1000) / Math.max(ms, 1e-6);
}

/** Runs `run` in batches of `batch` calls for `ms`; calls per second, by `rate`. */
function slice(run: () => unknown, batch: number, ms: number, rate: RoundsPlan["rate"]): number {
  const batches: number[] = [];
  const t0 = performance.now();
  let last = t0;
  do {
    for (let i = 0; i < batch; i++) sink = run();
    const now = performance.now();
    batches.push(now - last);
    last = now;
  } while (last - t0 < ms);
  return sliceRate(batches, batch, rate);
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
