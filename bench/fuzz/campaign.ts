import v8 from "node:v8";
import type { Corpus } from "./corpus.js";
import { inputRng, type Rng } from "./rng.js";
import { STRATEGIES, strategyKey, type Strategy } from "./strategies.js";
import { runTarget, type FuzzInput, type RunResult, type TargetName } from "./targets.js";

/*
 * The campaign: input `index` of a campaign with `seed` is a pure function of
 * the two (the strategy is drawn first, then the strategy draws the input),
 * so the set of inputs does not depend on how many workers share them, and a
 * worker that hangs or dies can be replaced and its input rebuilt.
 */

export interface Plan {
  readonly seed: number;
  readonly strategies: readonly Strategy[];
  /** Running sums of the weights, for picking a strategy. */
  readonly cumulative: readonly number[];
}

export function makePlan(seed: number, strategies: readonly Strategy[] = STRATEGIES): Plan {
  if (strategies.length === 0) throw new Error("no strategies selected");
  const cumulative: number[] = [];
  let sum = 0;
  for (const s of strategies) {
    sum += s.weight;
    cumulative.push(sum);
  }
  return { seed: seed >>> 0, strategies, cumulative };
}

/** The strategy for `index`, and the generator positioned to draw its input. */
export function strategyAt(plan: Plan, index: number): { strategy: Strategy; rng: Rng } {
  const rng = inputRng(plan.seed, index);
  const total = plan.cumulative[plan.cumulative.length - 1] as number;
  const x = rng.float() * total;
  let lo = 0;
  let hi = plan.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x < (plan.cumulative[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return { strategy: plan.strategies[lo] as Strategy, rng };
}

/** The strategy and input for `index`. */
export function inputAt(plan: Plan, corpus: Corpus, index: number): { strategy: Strategy; input: FuzzInput } {
  const { strategy, rng } = strategyAt(plan, index);
  return { strategy, input: strategy.generate(rng, corpus) };
}

/** Input `index` of `strategy` alone (the test suite runs each strategy this way). */
export function inputFor(strategy: Strategy, corpus: Corpus, seed: number, index: number): FuzzInput {
  const rng = inputRng(seed, index);
  rng.float(); // the draw inputAt spends on picking the strategy
  return strategy.generate(rng, corpus);
}

export type FailureKind = "crash" | "hang" | "memory" | "bad-error";

export interface Failure {
  readonly kind: FailureKind;
  readonly seed: number;
  readonly index: number;
  readonly strategy: string;
  readonly target: TargetName;
  readonly detail: string;
  readonly stack?: string;
  readonly input: FuzzInput;
}

export interface Limits {
  /** An input taking longer than this (twice in a row) is a hang. */
  readonly timeLimitMs: number;
  /** Heap plus external memory one input may add, in MiB. */
  readonly maxInputMb: number;
}

export const DEFAULT_LIMITS: Limits = { timeLimitMs: 2000, maxInputMb: 128 };

// ------------------------------------------------------------------ counts

export const COUNTS = ["inputs", "ok", "decodeError", "crash", "hang", "memory", "badError"] as const;
export type CountName = (typeof COUNTS)[number];

export interface Row {
  strategy: string;
  target: string;
  counts: Record<CountName, number>;
  maxMs: number;
}

/** Counts per strategy × decoder; plain data, so workers can post it. */
export class Stats {
  readonly rows = new Map<string, Row>();

  row(s: Strategy): Row {
    const key = strategyKey(s);
    let r = this.rows.get(key);
    if (r === undefined) {
      r = {
        strategy: s.name,
        target: s.target,
        counts: { inputs: 0, ok: 0, decodeError: 0, crash: 0, hang: 0, memory: 0, badError: 0 },
        maxMs: 0,
      };
      this.rows.set(key, r);
    }
    return r;
  }

  merge(rows: readonly Row[]): void {
    for (const src of rows) {
      const key = `${src.strategy}/${src.target}`;
      const r = this.rows.get(key);
      if (r === undefined) {
        this.rows.set(key, { strategy: src.strategy, target: src.target, counts: { ...src.counts }, maxMs: src.maxMs });
        continue;
      }
      for (const c of COUNTS) r.counts[c] += src.counts[c];
      r.maxMs = Math.max(r.maxMs, src.maxMs);
    }
  }

  total(name: CountName): number {
    let n = 0;
    for (const r of this.rows.values()) n += r.counts[name];
    return n;
  }

  failures(): number {
    return this.total("crash") + this.total("hang") + this.total("memory") + this.total("badError");
  }

  toRows(): Row[] {
    return [...this.rows.values()];
  }

  /** The report table, rows in strategy order. */
  table(order: readonly Strategy[] = STRATEGIES): string {
    const rank = new Map(order.map((s, i) => [strategyKey(s), i]));
    const rows = [...this.rows.entries()]
      .sort((a, b) => (rank.get(a[0]) ?? 1e9) - (rank.get(b[0]) ?? 1e9) || a[0].localeCompare(b[0]))
      .map(([, r]) => r);
    const head = [
      "strategy",
      "decoder",
      "inputs",
      "decoded OK",
      "DecodeError",
      "crash",
      "hang",
      "memory",
      "bad error",
      "max ms",
    ];
    const body = rows.map((r) => [r.strategy, r.target, ...COUNTS.map((c) => fmt(r.counts[c])), r.maxMs.toFixed(1)]);
    const totals = [
      "total",
      "",
      ...COUNTS.map((c) => fmt(this.total(c))),
      Math.max(0, ...rows.map((r) => r.maxMs)).toFixed(1),
    ];
    const all = [head, ...body, totals];
    const widths = head.map((_, i) => Math.max(...all.map((line) => (line[i] as string).length)));
    const line = (cells: readonly string[]): string =>
      cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
    const rule = widths.map((w) => "-".repeat(w)).join("  ");
    return [line(head), rule, ...body.map(line), rule, line(totals)].join("\n");
  }
}

export function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

// ------------------------------------------------------------------ running

/** Heap plus off-heap (ArrayBuffer) bytes in use. */
export function memoryInUse(): number {
  const h = v8.getHeapStatistics();
  return h.used_heap_size + h.external_memory;
}

interface Measured {
  readonly result: RunResult;
  readonly ms: number;
  readonly grewBytes: number;
}

/** Runs an input through a decoder; runTarget, or a stand-in in the harness's own tests. */
export type Runner = (target: TargetName, input: FuzzInput) => RunResult | Promise<RunResult>;

async function measure(run: Runner, target: TargetName, input: FuzzInput, now: () => number): Promise<Measured> {
  const before = memoryInUse();
  const t0 = now();
  const pending = run(target, input);
  const result = pending instanceof Promise ? await pending : pending;
  const ms = now() - t0;
  return { result, ms, grewBytes: memoryInUse() - before };
}

/** Runs one input and sorts the outcome into the stats; returns the failure, if any. */
export async function runOne(
  plan: Plan,
  strategy: Strategy,
  input: FuzzInput,
  index: number,
  stats: Stats,
  limits: Limits,
  run: Runner = runTarget,
  /** The clock runs are timed by; the harness's own tests pass one they move by hand. */
  now: () => number = () => performance.now(),
): Promise<Failure | undefined> {
  const row = stats.row(strategy);
  row.counts.inputs++;
  let m = await measure(run, strategy.target, input, now);
  // One retry before calling it a hang: a GC pause or a busy machine can stall one run.
  if (m.ms > limits.timeLimitMs) {
    const again = await measure(run, strategy.target, input, now);
    if (again.ms <= limits.timeLimitMs) m = again;
  }
  row.maxMs = Math.max(row.maxMs, m.ms);
  const fail = (kind: FailureKind, detail: string, stack?: string): Failure => {
    row.counts[kind === "bad-error" ? "badError" : kind]++;
    return {
      kind,
      seed: plan.seed,
      index,
      strategy: strategy.name,
      target: strategy.target,
      detail,
      ...(stack !== undefined ? { stack } : {}),
      input,
    };
  };
  if (m.ms > limits.timeLimitMs)
    return fail("hang", `took ${m.ms.toFixed(0)} ms (limit ${limits.timeLimitMs} ms), twice`);
  if (m.grewBytes > limits.maxInputMb * 1024 * 1024)
    return fail(
      "memory",
      `heap and buffers grew by ${(m.grewBytes / 1048576).toFixed(1)} MiB while decoding (limit ${limits.maxInputMb} MiB)`,
    );
  switch (m.result.verdict) {
    case "ok":
      row.counts.ok++;
      return undefined;
    case "decode-error":
      row.counts.decodeError++;
      return undefined;
    case "crash":
    case "bad-error": {
      const { detail, stack } = await withStack(run, strategy.target, input, m.result);
      return m.result.verdict === "crash"
        ? fail("crash", detail ?? "crash", stack)
        : fail("bad-error", detail ?? "DecodeError without a location", stack);
    }
  }
}

/**
 * Workers run with Error.stackTraceLimit = 0: capturing a stack for every
 * DecodeError was a tenth of the campaign's time. A failure is run once more
 * with stacks on, for the report.
 */
async function withStack(run: Runner, target: TargetName, input: FuzzInput, first: RunResult): Promise<RunResult> {
  if (Error.stackTraceLimit >= 10) return first;
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 20;
  try {
    const again = run(target, input);
    const r = again instanceof Promise ? await again : again;
    return r.verdict === first.verdict ? r : first;
  } finally {
    Error.stackTraceLimit = saved;
  }
}

/** Limits how many copies of the same failure are kept (all are counted). */
export class FailureSink {
  private readonly seen = new Map<string, number>();
  readonly kept: Failure[] = [];
  constructor(private readonly perSignature = 3) {}

  add(f: Failure): boolean {
    const sig = signature(f);
    const n = this.seen.get(sig) ?? 0;
    this.seen.set(sig, n + 1);
    if (n >= this.perSignature) return false;
    this.kept.push(f);
    return true;
  }

  take(): Failure[] {
    return this.kept.splice(0);
  }
}

/** Same kind, same decoder, same message modulo numbers: the same bug, most likely. */
export function signature(f: Failure): string {
  return `${f.kind}|${f.strategy}/${f.target}|${f.detail.replace(/\d+/g, "#").slice(0, 200)}`;
}

/**
 * Runs inputs [start, end) of the plan in this thread. `beat` is called with
 * each index before its input is built (a worker publishes it for the hang
 * watchdog).
 */
export async function runRange(
  plan: Plan,
  corpus: Corpus,
  start: number,
  end: number,
  stats: Stats,
  limits: Limits,
  failures: FailureSink,
  beat: (index: number) => void = () => {},
): Promise<void> {
  for (let i = start; i < end; i++) {
    beat(i);
    const { strategy, input } = inputAt(plan, corpus, i);
    const f = await runOne(plan, strategy, input, i, stats, limits);
    if (f !== undefined) failures.add(f);
  }
}
