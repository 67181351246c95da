// `npm run bench:validate-tree`: `clusterwire validate` on a whole repository
// tree, as a user runs it. Builds a seeded tree of real-world manifests (see
// bench/tree.ts) in a temporary folder, runs the CLI on it as a child process
// for each --jobs value, and prints wall time, files/s, documents/s and the
// child's peak RSS, on a large tree and a small one, with the ratios between
// runs. See `--help`.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "./fixtures.js";
import { fix, int, ratioText, table } from "./text.js";
import { defaultCorpusDir, generateTree, type TreeReport } from "./tree.js";
import type { Summary } from "../src/cli/shared/verdict.js";

const USAGE = `usage: node dist/bench/validate-tree.js [options]
  --files N            files in the tree (default 10000)
  --small N            also run on a tree of N files, to show peak memory does not
                       grow with the tree (default 1000; 0 to skip)
  --jobs LIST          values for the CLI's --jobs, comma-separated (default 1,auto;
                       auto passes no --jobs, so the CLI picks, as users run it)
  --runs N             runs of each (tree, jobs) pair; wall time is the median
                       (default 3)
  --seed N             seed of the tree: same seed, same bytes (default 13)
  --corpus DIR         files to copy (default test/fixtures/real-world)
  --cli FILE           the CLI to run (default dist/src/cli/main.js of this checkout;
                       another checkout's, to compare two builds on the same tree)
  --generate-only DIR  write the tree into DIR (created; must be empty), say what
                       was written, and stop
  --keep               keep the temporary trees, and print where they are
  --json               print machine-readable results on stdout instead of tables`;

const SUMMARY_FIELDS = [
  "files",
  "documents",
  "valid",
  "invalid",
  "skipped",
  "errors",
  "problems",
  "warnings",
] as const satisfies readonly (keyof Summary)[];

interface Measured {
  readonly treeFiles: number;
  readonly jobs: string;
  readonly runs: number;
  /** Median over the runs, in ms, from spawn to exit (Node's start-up included). */
  readonly wallMs: number;
  readonly filesPerSec: number;
  readonly documentsPerSec: number;
  /** The largest peak RSS over the runs, in bytes; null when the child did not report it. */
  readonly peakRssBytes: number | null;
  readonly exitCode: number;
  readonly summary: Summary;
}

interface Ratio {
  readonly what: string;
  readonly ratio: number;
}

// ---------------------------------------------------------------- the child

/**
 * Loaded into the child with --require: writes the process's peak RSS (KiB,
 * threads included, so worker threads count) to a file when it exits.
 */
const PRELOAD = `"use strict";
const { isMainThread } = require("node:worker_threads");
const file = process.env.CLUSTERWIRE_BENCH_RSS_FILE;
if (isMainThread && file) {
  process.on("exit", () => {
    try {
      require("node:fs").writeFileSync(file, String(process.resourceUsage().maxRSS));
    } catch {}
  });
}
`;

interface ChildRun {
  readonly exitCode: number;
  readonly wallMs: number;
  readonly maxRssKiB: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runChild(args: readonly string[], env: NodeJS.ProcessEnv): Promise<ChildRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const wallMs = performance.now() - started;
      const rssFile = env["CLUSTERWIRE_BENCH_RSS_FILE"];
      const rss = rssFile !== undefined && existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8")) : Number.NaN;
      resolvePromise({
        exitCode: code ?? (signal !== null ? 128 : -1),
        wallMs,
        maxRssKiB: Number.isFinite(rss) ? rss : null,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}

const firstLines = (text: string, n: number): string => text.trim().split("\n").slice(0, n).join("\n");

/** The summary of the CLI's JSON output, or an error that says why there is none. */
function summaryOf(run: ChildRun, command: string): Summary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    parsed = undefined;
  }
  const summary = (parsed as { summary?: Record<string, unknown> } | undefined)?.summary;
  const missing = SUMMARY_FIELDS.filter((f) => typeof summary?.[f] !== "number");
  if (summary !== undefined && missing.length === 0) return summary as unknown as Summary;
  const rewrite =
    "This bench is written for the rewritten `clusterwire validate`: a --jobs option, and -o json output " +
    `with a "summary" object of ${SUMMARY_FIELDS.join(", ")}. Build a checkout that has it (npm run build).`;
  if (run.exitCode === 2 && summary === undefined) {
    throw new Error(
      `bench: the CLI refused the command line (exit 2, usage error):\n  ${command}\n${firstLines(run.stderr, 4)}\n${rewrite}`,
    );
  }
  if (summary === undefined) {
    throw new Error(
      `bench: the CLI exited ${run.exitCode} without JSON output on stdout:\n  ${command}\n${firstLines(run.stderr, 4)}`,
    );
  }
  throw new Error(`bench: the CLI's JSON summary lacks ${missing.join(", ")}:\n  ${command}\n${rewrite}`);
}

// ---------------------------------------------------------------- measuring

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const sameSummary = (a: Summary, b: Summary): boolean => SUMMARY_FIELDS.every((f) => a[f] === b[f]);

async function measure(
  cli: string,
  tree: string,
  treeFiles: number,
  jobs: string,
  runs: number,
  work: string,
  progress: (msg: string) => void,
): Promise<Measured> {
  const preload = join(work, "peak-rss.cjs");
  if (!existsSync(preload)) writeFileSync(preload, PRELOAD);
  const cliArgs = ["validate", "-o", "json", ...(jobs === "auto" ? [] : ["--jobs", jobs]), tree];
  const command = `node ${[cli, ...cliArgs].join(" ")}`;
  const walls: number[] = [];
  let peak: number | null = null;
  let first: { summary: Summary; exitCode: number } | undefined;
  for (let r = 0; r < runs; r++) {
    progress(`validate --jobs ${jobs}, ${treeFiles} files, run ${r + 1}/${runs}`);
    const rssFile = join(work, `rss-${treeFiles}-${jobs}-${r}`);
    const run = await runChild(["--require", preload, cli, ...cliArgs], {
      ...process.env,
      CLUSTERWIRE_BENCH_RSS_FILE: rssFile,
    });
    const summary = summaryOf(run, command);
    if (first === undefined) first = { summary, exitCode: run.exitCode };
    else if (!sameSummary(first.summary, summary) || first.exitCode !== run.exitCode) {
      throw new Error(`bench: two runs of the same command disagree:\n  ${command}`);
    }
    walls.push(run.wallMs);
    if (run.maxRssKiB !== null) peak = Math.max(peak ?? 0, run.maxRssKiB * 1024);
  }
  if (first === undefined) throw new Error("bench: --runs must be at least 1");
  const wallMs = median(walls);
  return {
    treeFiles,
    jobs,
    runs,
    wallMs,
    filesPerSec: first.summary.files / (wallMs / 1000),
    documentsPerSec: first.summary.documents / (wallMs / 1000),
    peakRssBytes: peak,
    exitCode: first.exitCode,
    summary: first.summary,
  };
}

/** Speed-ups of each --jobs value over the first, per tree; and the large tree's peak RSS and throughput over the small one's. */
function ratiosOf(results: readonly Measured[], jobsList: readonly string[], sizes: readonly number[]): Ratio[] {
  const out: Ratio[] = [];
  const find = (files: number, jobs: string): Measured | undefined =>
    results.find((r) => r.treeFiles === files && r.jobs === jobs);
  const [base, ...others] = jobsList;
  for (const files of sizes) {
    const b = base === undefined ? undefined : find(files, base);
    for (const jobs of others) {
      const o = find(files, jobs);
      if (b !== undefined && o !== undefined)
        out.push({
          what: `${int.format(files)} files: wall time --jobs ${base} / --jobs ${jobs}`,
          ratio: b.wallMs / o.wallMs,
        });
    }
  }
  const [large, small] = sizes;
  if (large !== undefined && small !== undefined) {
    for (const jobs of jobsList) {
      const l = find(large, jobs);
      const s = find(small, jobs);
      if (l === undefined || s === undefined) continue;
      if (l.peakRssBytes !== null && s.peakRssBytes !== null)
        out.push({
          what: `--jobs ${jobs}: peak RSS ${int.format(large)} files / ${int.format(small)} files`,
          ratio: l.peakRssBytes / s.peakRssBytes,
        });
      out.push({
        what: `--jobs ${jobs}: documents/s ${int.format(large)} files / ${int.format(small)} files`,
        ratio: l.documentsPerSec / s.documentsPerSec,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------- output

const mib = (bytes: number): string => fix(bytes / (1024 * 1024), 1);

function injectedCounts(report: TreeReport): { invalid: number; undecodable: number } {
  return {
    invalid: report.injected.filter((i) => i.what === "invalid").length,
    undecodable: report.injected.filter((i) => i.what === "undecodable").length,
  };
}

function treeText(report: TreeReport, where: string): string {
  const { invalid, undecodable } = injectedCounts(report);
  return (
    `${int.format(report.files)} files, ${mib(report.bytes)} MiB, ${report.copies} copies of the corpus under ${where}; ` +
    `an invalid networking document put in ${invalid} files, one that does not decode in ${undecodable}`
  );
}

function printText(
  trees: readonly TreeReport[],
  results: readonly Measured[],
  ratios: readonly Ratio[],
  seed: number,
): void {
  const out: string[] = [];
  out.push(`clusterwire validate-tree bench: Node ${process.version}, seed ${seed}`);
  out.push("Wall time is the median of the runs, from spawn to exit (Node's start-up included); peak RSS is the");
  out.push("child's maxRSS (all its threads), the largest over the runs. Every run of a (tree, --jobs) pair gave");
  out.push("the same summary and exit status.");
  for (const t of trees) out.push(`  tree: ${treeText(t, "a temporary folder")}`);
  out.push("");
  out.push(
    table(
      ["tree files", "jobs", "runs", "wall s", "files/s", "documents/s", "peak RSS MiB", "exit"],
      results.map((r) => [
        int.format(r.treeFiles),
        r.jobs,
        String(r.runs),
        fix(r.wallMs / 1000, 2),
        int.format(r.filesPerSec),
        int.format(r.documentsPerSec),
        r.peakRssBytes === null ? "-" : mib(r.peakRssBytes),
        String(r.exitCode),
      ]),
      [true, false, true, true, true, true, true, true],
    ),
  );
  out.push("", "What the CLI found (from its JSON summary):");
  out.push(
    table(
      ["tree files", "jobs", ...SUMMARY_FIELDS],
      results.map((r) => [int.format(r.treeFiles), r.jobs, ...SUMMARY_FIELDS.map((f) => int.format(r.summary[f]))]),
      [true, false, ...SUMMARY_FIELDS.map(() => true)],
    ),
  );
  for (const t of trees) {
    const { invalid, undecodable } = injectedCounts(t);
    const mine = results.filter((r) => r.treeFiles === t.files);
    const first = mine[0];
    if (first === undefined) continue;
    if (mine.some((r) => !sameSummary(r.summary, first.summary)))
      out.push(`NOTE: ${int.format(t.files)} files: the --jobs values disagree on the summary (above).`);
    if (first.summary.invalid < invalid || first.summary.errors < undecodable)
      out.push(
        `NOTE: ${int.format(t.files)} files: fewer invalid documents or errors than were put in ` +
          `(${invalid} invalid, ${undecodable} undecodable).`,
      );
  }
  out.push("", "Ratios (wall time: above 1× means the second is faster; RSS: near 1× means memory does not grow;");
  out.push("documents/s: start-up weighs more on the small tree):");
  out.push(
    table(
      ["", "ratio"],
      ratios.map((r) => [r.what, ratioText(r.ratio)]),
      [false, true],
    ),
  );
  console.log(out.join("\n"));
}

// ---------------------------------------------------------------- main

function positiveInt(name: string, value: string | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1))
    throw new Error(`bench: --${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      files: { type: "string" },
      small: { type: "string" },
      jobs: { type: "string" },
      runs: { type: "string" },
      seed: { type: "string" },
      corpus: { type: "string" },
      cli: { type: "string" },
      "generate-only": { type: "string" },
      keep: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const files = positiveInt("files", values.files, 10_000);
  const small = positiveInt("small", values.small, 1_000, true);
  const runs = positiveInt("runs", values.runs, 3);
  const seed = positiveInt("seed", values.seed, 13, true);
  const corpus = values.corpus === undefined ? defaultCorpusDir() : resolve(values.corpus);
  const jobsList = (values.jobs ?? "1,auto").split(",").map((j) => j.trim());
  for (const j of jobsList) {
    if (j !== "auto" && !/^[1-9][0-9]*$/.test(j))
      throw new Error(`bench: --jobs takes positive integers and auto, comma-separated, got ${JSON.stringify(j)}`);
  }

  const only = values["generate-only"];
  if (only !== undefined) {
    const dir = resolve(only);
    mkdirSync(dir, { recursive: true });
    if (readdirSync(dir).length > 0) throw new Error(`bench: --generate-only ${dir} is not empty`);
    const report = generateTree(dir, { files, seed, corpus });
    console.log(values.json ? JSON.stringify(report, null, 2) : `wrote ${treeText(report, dir)}`);
    return;
  }

  const cli = values.cli === undefined ? join(repoRoot(), "dist", "src", "cli", "main.js") : resolve(values.cli);
  if (!existsSync(cli)) throw new Error(`bench: ${cli} not found; run npm run build first`);
  const progress = (msg: string): void => {
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${msg}`);
  };
  const sizes = small > 0 && small !== files ? [files, small] : [files];
  const work = mkdtempSync(join(tmpdir(), "clusterwire-bench-tree-"));
  const trees: TreeReport[] = [];
  const results: Measured[] = [];
  try {
    for (const size of sizes) {
      const root = join(work, `tree-${size}`);
      mkdirSync(root);
      progress(`writing a tree of ${size} files`);
      trees.push(generateTree(root, { files: size, seed, corpus }));
      for (const jobs of jobsList) results.push(await measure(cli, root, size, jobs, runs, work, progress));
      if (!values.keep) rmSync(root, { recursive: true, force: true });
    }
  } finally {
    progress("");
    if (values.keep) process.stderr.write(`bench: trees kept under ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
  const ratios = ratiosOf(results, jobsList, sizes);
  if (values.json) {
    const meta = { node: process.version, seed, runs, corpus, cli, jobs: jobsList };
    console.log(
      JSON.stringify(
        { meta, trees: trees.map((t) => ({ ...t, injected: injectedCounts(t) })), results, ratios },
        null,
        2,
      ),
    );
  } else {
    printText(trees, results, ratios, seed);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
