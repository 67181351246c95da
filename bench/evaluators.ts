// The evaluator groups of `npm run bench`: NetworkPolicy truth tables and
// single decisions against the plainly written reference evaluator of the
// test suite, and Ingress route lookups with 10 and with 10,000 Ingresses
// (and against the reference router). Everything is measured in one run.
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
import { int } from "./text.js";

export interface EvaluatorResult {
  readonly group: "policy" | "route";
  readonly task: string;
  /** What one operation is: "pair decisions" or "lookups". */
  readonly unit: string;
  readonly perSec: number;
  /** Milliseconds per call of the timed function. */
  readonly msPerCall: number;
  readonly calls: number;
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

/** Times `fn` (which performs `units` operations per call) for about `timeMs`; the median of the batches. */
function rate(fn: () => unknown, units: number, timeMs: number): { perSec: number; msPerCall: number; calls: number } {
  let sink: unknown;
  // Warm up the same way for everybody: a quarter of the budget.
  for (const t0 = performance.now(); performance.now() - t0 < timeMs / 4; ) sink = fn();
  const samples: number[] = [];
  let calls = 0;
  const t0 = performance.now();
  do {
    const s = performance.now();
    sink = fn();
    samples.push(performance.now() - s);
    calls++;
  } while (performance.now() - t0 < timeMs || samples.length < 5);
  samples.sort((a, b) => a - b);
  const median = samples[samples.length >> 1]!;
  if (sink === Symbol.for("never")) console.log("unreachable");
  return { perSec: (units * 1000) / median, msPerCall: median, calls };
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
  const add = (
    group: EvaluatorResult["group"],
    task: string,
    unit: string,
    fn: () => unknown,
    units: number,
    budget = timeMs,
  ): EvaluatorResult => {
    options.progress(`  ${task}`);
    const r = { group, task, unit, ...rate(fn, units, budget) };
    results.push(r);
    return r;
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
    const matrix = add(
      "policy",
      "truth-table: engine.matrix()",
      "pair decisions",
      () => engine.matrix({ protocol: "TCP", port: 8080 }),
      n * n,
    );
    const table = add(
      "policy",
      "truth-table: engine.truthTable(), every row read",
      "pair decisions",
      () => {
        const t = engine.truthTable({ protocol: "TCP", port: 8080 });
        let k = 0;
        for (const from in t) k += t[from]![engine.pods[0]!] === "allow" ? 1 : 0;
        return k;
      },
      n * n,
      timeMs / 2,
    );
    let cursor = 0;
    const batch = 1000;
    const single = add(
      "policy",
      "evaluate: engine.evaluate(), with reasons",
      "pair decisions",
      () => {
        for (let k = 0; k < batch; k++) engine.evaluate(pairs[cursor++ % pairs.length]!);
      },
      batch,
    );
    let refCursor = 0;
    const refBatch = 20;
    const reference = add(
      "policy",
      "evaluate: reference evaluator",
      "pair decisions",
      () => {
        for (let k = 0; k < refBatch; k++) referenceEvaluate(cluster, pairs[refCursor++ % pairs.length]!);
      },
      refBatch,
    );
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
    const measured = routers.map(({ count, router, reqs }) => {
      let cursor = 0;
      const batch = 4096;
      return add(
        "route",
        `route: router.route(), ${int.format(count)} Ingresses`,
        "lookups",
        () => {
          for (let k = 0; k < batch; k++) router.route(reqs[cursor++ & (requests - 1)]!);
        },
        batch,
      );
    });
    // The same 10,000-Ingress index, asked only for the hosts of the 10-Ingress
    // set: what is left of the slowdown once the working set fits in cache.
    const hot = routers[0]!.reqs;
    let hotCursor = 0;
    const bigRouter = routers[1]!.router;
    const hotResult = add(
      "route",
      "route: router.route(), 10,000 Ingresses, requests for 10 hosts",
      "lookups",
      () => {
        for (let k = 0; k < 4096; k++) bigRouter.route(hot[hotCursor++ & (requests - 1)]!);
      },
      4096,
    );
    const ingresses10k = benchIngresses(10_000);
    const reqs10k = routers[1]!.reqs;
    let refCursor = 0;
    const reference = add(
      "route",
      "route: reference router, 10,000 Ingresses",
      "lookups",
      () => referenceRoute({ ingresses: ingresses10k }, reqs10k[refCursor++ & (requests - 1)]!),
      1,
      timeMs / 2,
    );
    const [small, large] = measured as [EvaluatorResult, EvaluatorResult];
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
        name: "route slowdown, 10 → 10,000 Ingresses",
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
  const rows = report.results.map((r) => [
    r.task,
    int.format(r.perSec),
    r.unit,
    r.msPerCall < 0.01 ? r.msPerCall.toExponential(2) : r.msPerCall.toFixed(2),
    String(r.calls),
  ]);
  const widths = ["task", "per second", "unit", "ms/call", "calls"].map((h, i) =>
    Math.max(h.length, ...rows.map((r) => r[i]!.length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 1 || i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  out.push(
    line(["task", "per second", "unit", "ms/call", "calls"]),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
  );
  out.push("", "Evaluator goals (issue 4):");
  for (const g of report.goals) {
    const value = g.kind === "rate" ? `${int.format(g.value)}/s` : `${g.value.toFixed(g.value >= 10 ? 0 : 2)}×`;
    const verdict = g.met === null ? "" : g.met ? "  met" : "  NOT met";
    out.push(`  ${g.name.padEnd(46)} ${value.padStart(16)}   goal ${g.goal}${verdict}`);
  }
  return out;
}
