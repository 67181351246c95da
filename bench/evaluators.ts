// The evaluator groups of `npm run bench`: NetworkPolicy truth tables and
// single decisions against the plainly written reference evaluator of the
// test suite, and Ingress route lookups with 10 and with 10,000 Ingresses
// (and against the reference router). Everything is measured in one run.
//
// The tasks of a group are compared with each other, so they are timed in
// interleaved rounds (a round of each task in turn, the order rotating), and
// each reports the median of its rounds with their spread: a burst of load
// on a shared machine then hits every task alike instead of one of them.
//
// The reference scans every policy for every pair, so it is timed on a
// seeded sample of pairs of the same cluster; a rate is a rate. Before any
// timing, the engine's answers are checked against the reference on that
// sample, and the router's against the reference router.

import { isDeepStrictEqual } from "node:util";
import { createPolicyEngine, createRouter, type Connection, type Router } from "../src/networking/index.js";
import { referenceEvaluate } from "../test/support/policy-reference.js";
import { referenceRoute } from "../test/support/router-reference.js";
import { benchCluster, benchIngresses, benchRequests, prng, type BenchCluster } from "./evaluator-inputs.js";
import { int, table } from "./text.js";

export interface EvaluatorResult {
  readonly group: "policy" | "route";
  readonly task: string;
  /** What one operation is: "pair decisions" or "lookups". */
  readonly unit: string;
  /** The median over the rounds of the operations per second. */
  readonly perSec: number;
  /** The spread of the rounds' rates: lowest, lower quartile, upper quartile, highest. */
  readonly perSecMin: number;
  readonly perSecP25: number;
  readonly perSecP75: number;
  readonly perSecMax: number;
  /** Milliseconds per call of the timed function, at the median rate. */
  readonly msPerCall: number;
  /** Calls of the timed function over all rounds, and the number of rounds. */
  readonly calls: number;
  readonly rounds: number;
}

export interface EvaluatorReport {
  readonly lines: string[];
  readonly results: EvaluatorResult[];
  /** The goals, and the peer ratios: `value` is a rate (per second) or a ratio. */
  readonly goals: {
    readonly name: string;
    readonly value: number;
    readonly kind: "rate" | "ratio";
    readonly goal: string;
    readonly met: boolean | null;
  }[];
}

/** A task to time: `fn` performs `units` operations per call. */
interface Task {
  readonly group: EvaluatorResult["group"];
  readonly task: string;
  readonly unit: string;
  readonly fn: () => unknown;
  readonly units: number;
}

/** Rounds per group; a task's rate is the median of its rounds. */
const ROUNDS = 15;

/** The value at quantile q of sorted values (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

/**
 * Times the tasks in interleaved rounds: every round runs each task for about
 * `roundMs` in turn, starting one task later than the round before, and a
 * round's rate is its operations over its time. A first, untimed round of a
 * quarter of the budget warms every task up the same way.
 */
function interleaved(tasks: readonly Task[], timeMs: number, progress: (msg: string) => void): EvaluatorResult[] {
  let sink: unknown;
  const roundMs = Math.max(timeMs / ROUNDS, 20);
  // A task whose one call outlasts a round (a whole truth table) takes part
  // in every second or third round only, so that it still gets five or more
  // rounds without tripling the group's time.
  const every = tasks.map((t) => {
    progress(`  warming up ${t.task}`);
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < timeMs / 4) {
      sink = t.fn();
      n++;
    }
    const callMs = (performance.now() - t0) / n;
    return Math.min(3, Math.max(1, Math.ceil(callMs / roundMs)));
  });
  const rates: number[][] = tasks.map(() => []);
  const calls = tasks.map(() => 0);
  for (let r = 0; r < ROUNDS; r++) {
    progress(`  round ${r + 1}/${ROUNDS} of ${tasks.map((t) => t.task.replace(/:.*/, "")).join(", ")}`);
    for (let k = 0; k < tasks.length; k++) {
      const i = (r + k) % tasks.length;
      if (r % every[i]! !== 0) continue;
      const t = tasks[i]!;
      let n = 0;
      const t0 = performance.now();
      let elapsed = 0;
      while (elapsed < roundMs) {
        sink = t.fn();
        n++;
        elapsed = performance.now() - t0;
      }
      rates[i]!.push((n * t.units * 1000) / elapsed);
      calls[i]! += n;
    }
  }
  if (sink === Symbol.for("never")) console.log("unreachable");
  return tasks.map((t, i) => {
    const sorted = [...rates[i]!].sort((a, b) => a - b);
    const perSec = quantile(sorted, 0.5);
    return {
      group: t.group,
      task: t.task,
      unit: t.unit,
      perSec,
      perSecMin: sorted[0]!,
      perSecP25: quantile(sorted, 0.25),
      perSecP75: quantile(sorted, 0.75),
      perSecMax: sorted[sorted.length - 1]!,
      msPerCall: (t.units * 1000) / perSec,
      calls: calls[i]!,
      rounds: sorted.length,
    };
  });
}

function samplePairs(c: BenchCluster, n: number, seed: number): Connection[] {
  const rnd = prng(seed);
  const keys = c.pods.map((p) => `${p.namespace}/${p.name}`);
  const out: Connection[] = [];
  for (let i = 0; i < n; i++) {
    const from = keys[Math.floor(rnd() * keys.length)]!;
    const to = keys[Math.floor(rnd() * keys.length)]!;
    out.push({ from: { pod: from }, to: { pod: to }, protocol: "TCP", port: 8080 });
  }
  return out;
}

export function runEvaluatorBench(options: {
  timeMs: number;
  wanted: (task: string) => boolean;
  progress: (msg: string) => void;
}): EvaluatorReport {
  const results: EvaluatorResult[] = [];
  const lines: string[] = [];
  const goals: EvaluatorReport["goals"] = [];
  const timeMs = Math.max(options.timeMs, 200) * 2;
  // Times a group's tasks together and returns their results in the same order.
  const run = (tasks: readonly Task[]): EvaluatorResult[] => {
    const measured = interleaved(tasks, timeMs, options.progress);
    results.push(...measured);
    return measured;
  };

  if (options.wanted("truth-table") || options.wanted("evaluate")) {
    const shape = { namespaces: 200, pods: 2000, policies: 500 };
    const cluster = benchCluster(shape);
    const t0 = performance.now();
    const engine = createPolicyEngine(cluster);
    const buildMs = performance.now() - t0;
    if (engine.skipped.length > 0)
      throw new Error(
        `bench: the engine skipped ${engine.skipped.length} bench policies: ${engine.skipped[0]!.errors[0]?.detail}`,
      );
    const n = engine.pods.length;
    const pairs = samplePairs(cluster, 4000, 11);
    const m = engine.matrix({ protocol: "TCP", port: 8080 });
    let allowed = 0;
    // The reference is the oracle: every sampled pair must agree, explanations included.
    for (const c of pairs) {
      const want = referenceEvaluate(cluster, c);
      const got = engine.evaluate(c);
      if (!isDeepStrictEqual(got, want))
        throw new Error(`bench: engine and reference disagree on ${JSON.stringify(c)}`);
      const i = engine.pods.indexOf((c.from as { pod: string }).pod);
      const j = engine.pods.indexOf((c.to as { pod: string }).pod);
      if (m.allowed(i, j) !== want.allowed)
        throw new Error(`bench: matrix and reference disagree on ${JSON.stringify(c)}`);
      if (want.allowed) allowed++;
    }
    lines.push(
      "",
      "policy: NetworkPolicy decisions, TCP 8080",
      `Cluster: ${shape.namespaces} namespaces, ${n} pods (5% hostNetwork, 10% IPv6), ${cluster.policies.length} policies; engine built in ${buildMs.toFixed(0)} ms (not timed below).`,
      `Checked before timing: engine.evaluate deep-equals the reference on ${pairs.length} sampled pairs (${allowed} allowed), and matrix() agrees.`,
      `The reference evaluator (test/support/policy-reference.ts) scans every policy per pair; it is timed on the sampled pairs.`,
    );
    let cursor = 0;
    const batch = 1000;
    let refCursor = 0;
    const refBatch = 20;
    const [matrix, table, single, reference] = run([
      {
        group: "policy",
        task: "truth-table: engine.matrix()",
        unit: "pair decisions",
        fn: () => engine.matrix({ protocol: "TCP", port: 8080 }),
        units: n * n,
      },
      {
        group: "policy",
        task: "truth-table: engine.truthTable(), every row read",
        unit: "pair decisions",
        fn: () => {
          const t = engine.truthTable({ protocol: "TCP", port: 8080 });
          let k = 0;
          for (const from in t) k += t[from]![engine.pods[0]!] === "allow" ? 1 : 0;
          return k;
        },
        units: n * n,
      },
      {
        group: "policy",
        task: "evaluate: engine.evaluate(), with reasons",
        unit: "pair decisions",
        fn: () => {
          for (let k = 0; k < batch; k++) engine.evaluate(pairs[cursor++ % pairs.length]!);
        },
        units: batch,
      },
      {
        group: "policy",
        task: "evaluate: reference evaluator",
        unit: "pair decisions",
        fn: () => {
          for (let k = 0; k < refBatch; k++) referenceEvaluate(cluster, pairs[refCursor++ % pairs.length]!);
        },
        units: refBatch,
      },
    ]) as [EvaluatorResult, EvaluatorResult, EvaluatorResult, EvaluatorResult];
    const vsRef = matrix.perSec / reference.perSec;
    goals.push(
      {
        name: "truth table pair decisions (matrix)",
        value: matrix.perSec,
        kind: "rate",
        goal: "≥ 20,000,000/s",
        met: matrix.perSec >= 20e6,
      },
      { name: "truth table (matrix) / reference", value: vsRef, kind: "ratio", goal: "≥ 100×", met: vsRef >= 100 },
      {
        name: "truth table (string-keyed rows) / reference",
        value: table.perSec / reference.perSec,
        kind: "ratio",
        goal: "-",
        met: null,
      },
      { name: "evaluate() / reference", value: single.perSec / reference.perSec, kind: "ratio", goal: "-", met: null },
    );
  }

  if (options.wanted("route")) {
    const requests = 4096;
    const routers: { count: number; router: Router; reqs: { host: string; path: string }[] }[] = [];
    for (const count of [10, 10_000]) {
      const ingresses = benchIngresses(count);
      const t0 = performance.now();
      const router = createRouter({ ingresses });
      const buildMs = performance.now() - t0;
      const reqs = benchRequests(count, requests);
      // Same answers as the brute-force reference router, before timing.
      for (const r of reqs.slice(0, count === 10 ? requests : 300)) {
        if (!isDeepStrictEqual(router.route(r), referenceRoute({ ingresses }, r))) {
          throw new Error(`bench: router and reference disagree on ${JSON.stringify(r)} with ${count} Ingresses`);
        }
      }
      routers.push({ count, router, reqs });
      lines.push(
        `route: ${int.format(count)} Ingresses (4 paths each, every tenth host a wildcard) compiled in ${buildMs.toFixed(0)} ms.`,
      );
    }
    const batch = 4096;
    const lookups = ({ count, router, reqs }: (typeof routers)[number]): Task => {
      let cursor = 0;
      return {
        group: "route",
        task: `route: router.route(), ${int.format(count)} Ingresses`,
        unit: "lookups",
        fn: () => {
          for (let k = 0; k < batch; k++) router.route(reqs[cursor++ & (requests - 1)]!);
        },
        units: batch,
      };
    };
    // The same 10,000-Ingress index, asked only for the hosts of the 10-Ingress
    // set: what is left of the slowdown once the working set fits in cache.
    const hot = routers[0]!.reqs;
    let hotCursor = 0;
    const bigRouter = routers[1]!.router;
    const ingresses10k = benchIngresses(10_000);
    const reqs10k = routers[1]!.reqs;
    let refCursor = 0;
    const [small, large, hotResult] = run([
      lookups(routers[0]!),
      lookups(routers[1]!),
      {
        group: "route",
        task: "route: router.route(), 10,000 Ingresses, requests for 10 hosts",
        unit: "lookups",
        fn: () => {
          for (let k = 0; k < batch; k++) bigRouter.route(hot[hotCursor++ & (requests - 1)]!);
        },
        units: batch,
      },
    ]) as [EvaluatorResult, EvaluatorResult, EvaluatorResult];
    // The reference takes tens of milliseconds a lookup and leaves much
    // garbage behind: in the same rounds, its collections would land in the
    // router's rounds. It only gives a ratio for information, so it runs apart.
    const [reference] = run([
      {
        group: "route",
        task: "route: reference router, 10,000 Ingresses",
        unit: "lookups",
        fn: () => referenceRoute({ ingresses: ingresses10k }, reqs10k[refCursor++ & (requests - 1)]!),
        units: 1,
      },
    ]) as [EvaluatorResult];
    goals.push(
      {
        name: "route lookups, 10 Ingresses",
        value: small.perSec,
        kind: "rate",
        goal: "≥ 2,000,000/s",
        met: small.perSec >= 2e6,
      },
      {
        name: "route lookups, 10,000 Ingresses",
        value: large.perSec,
        kind: "rate",
        goal: "≥ 2,000,000/s",
        met: large.perSec >= 2e6,
      },
      {
        name: "route slowdown, 10 → 10,000 Ingresses (medians)",
        value: small.perSec / large.perSec,
        kind: "ratio",
        goal: "< 1.5×",
        met: small.perSec / large.perSec < 1.5,
      },
      {
        name: "  the same, requests for 10 hosts only",
        value: small.perSec / hotResult.perSec,
        kind: "ratio",
        goal: "-",
        met: null,
      },
      {
        name: "router / reference router, 10,000 Ingresses",
        value: large.perSec / reference.perSec,
        kind: "ratio",
        goal: "-",
        met: null,
      },
    );
  }
  return { lines, results, goals };
}

export function evaluatorText(report: EvaluatorReport): string[] {
  if (report.results.length === 0) return [];
  const out = [...report.lines, ""];
  out.push(
    `Each group's tasks are timed in ${ROUNDS} interleaved rounds (a task whose one call outlasts a round joins`,
    'every second or third); "per second" is the median of its rounds, "spread" their quartiles (p25..p75)',
    "and extremes, as a percentage of the median.",
    "",
  );
  const pct = (x: number, median: number): string =>
    `${x >= median ? "+" : ""}${(((x - median) / median) * 100).toFixed(0)}%`;
  const rows = report.results.map((r) => [
    r.task,
    int.format(r.perSec),
    `${pct(r.perSecP25, r.perSec)}..${pct(r.perSecP75, r.perSec)}`,
    `${pct(r.perSecMin, r.perSec)}..${pct(r.perSecMax, r.perSec)}`,
    r.unit,
    r.msPerCall < 0.01 ? r.msPerCall.toExponential(2) : r.msPerCall.toFixed(2),
    String(r.calls),
    String(r.rounds),
  ]);
  out.push(
    table(["task", "per second", "spread p25..p75", "min..max", "unit", "ms/call", "calls", "rounds"], rows, [
      false,
      true,
      true,
      true,
      false,
      true,
      true,
      true,
    ]),
  );
  out.push("", "Evaluator goals (issue 4; the route goals are issue 14's, on the medians):");
  for (const g of report.goals) {
    const value = g.kind === "rate" ? `${int.format(g.value)}/s` : `${g.value.toFixed(g.value >= 10 ? 0 : 2)}×`;
    const verdict = g.met === null ? "" : g.met ? "  met" : "  NOT met";
    out.push(`  ${g.name.padEnd(46)} ${value.padStart(16)}   goal ${g.goal}${verdict}`);
  }
  return out;
}
