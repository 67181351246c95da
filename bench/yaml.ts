// The YAML group of `npm run bench` (`npm run bench:yaml` runs it alone):
// how many megabytes of YAML text per second clusterwire's fromYaml reads
// into typed networking objects, on real manifests and on one long
// multi-document stream, beside peers in the same run:
// - the `yaml` package's parseAllDocuments alone (its document trees, no
//   Kubernetes objects): what a general YAML parser costs on the same text;
// - JSON.parse of the same objects written as compact JSON, for scale (its
//   MB/s counts the JSON text's bytes).
//
// Inputs: the networking documents of the YAML files of examples/ and of
// bench/corpus/, as kubectl's split cuts them (the files also hold other
// kinds, which fromYaml refuses), each one that fromYaml reads in non-strict
// and strict mode; and a stream: all of them joined with `---` lines,
// repeated to about 256 KB, read in one call. Before timing,
// every input is checked: fromYaml reads it, and its objects are the JSON
// that JSON.parse is timed on; parseAllDocuments reads it without errors.
//
// Contenders of an input run in interleaved rounds (bench/rounds.ts); a rate
// is the median over the rounds. A YAML call lasts tens to hundreds of
// milliseconds, so on a machine shared with other busy processes every call
// is slowed alike and wall-clock rates measure the CPU share the process got
// as much as the code: each contender is therefore also timed in process CPU
// time (process.cpuUsage, user + system, all of the process's threads), in
// interleaved rounds of its own, which stays put when the machine is busy.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { fromYaml, splitYamlDocuments, toJson } from "../src/networking/index.js";
import { repoRoot } from "./fixtures.js";
import { rotation, runRounds, type RoundsPlan } from "./rounds.js";
import { median, roundRatio, spread } from "./stats.js";
import { fix, int, table } from "./text.js";
import { yamlFilesUnder } from "./yaml-differential/golden.js";

/** One set of YAML texts, read one after the other by each contender. */
interface YamlInput {
  readonly name: string;
  readonly texts: readonly string[];
  /** The objects of every text, as compact JSON text (JSON.parse's input). */
  readonly json: readonly string[];
  readonly documents: number;
}

export interface YamlResult {
  readonly input: string;
  readonly impl: string;
  /** UTF-8 bytes read per call of the contender (the whole input set). */
  readonly bytes: number;
  readonly documents: number;
  /** Median over the rounds; the quartiles and extremes of the rounds' rates. */
  readonly mbPerSec: number;
  readonly q1: number;
  readonly q3: number;
  readonly min: number;
  readonly max: number;
  readonly rounds: number;
  /** clusterwire fromYaml's MB/s over this contender's, the median of the per-round ratios (undefined for itself). */
  readonly fromYamlRatio?: number;
  /** MB read per second of process CPU time: the median over the CPU rounds. */
  readonly mbPerCpuSec: number;
}

export interface YamlReport {
  readonly lines: string[];
  readonly results: YamlResult[];
}

const utf8 = (texts: readonly string[]): number => texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

/** The size the synthetic stream is repeated up to. */
const STREAM_BYTES = 1 << 18;

function loadInputs(root: string): YamlInput[] {
  const readable = (text: string): string[] | undefined => {
    try {
      // Strict too, so that both fromYaml contenders do the same work on every input.
      fromYaml(text, { strict: true });
      const objects = fromYaml(text);
      return objects.length === 0 ? undefined : objects.map((o) => JSON.stringify(toJson(o)));
    } catch {
      return undefined;
    }
  };
  const build = (name: string, candidates: readonly string[]): YamlInput => {
    const texts: string[] = [];
    const json: string[] = [];
    for (const t of candidates) {
      const objects = readable(t);
      if (objects === undefined) continue;
      texts.push(t);
      json.push(...objects);
    }
    if (texts.length === 0) throw new Error(`bench: yaml: no input of ${name} reads`);
    return { name, texts, json, documents: json.length };
  };
  const documents = (files: readonly string[]): string[] =>
    files.flatMap((f) => splitYamlDocuments(readFileSync(f, "utf8")).map((d) => d.text));
  const examples = build(
    "examples/ documents",
    documents(yamlFilesUnder(join(root, "examples")).filter((f) => !f.includes(join("examples", "invalid")))),
  );
  const corpus = build("bench/corpus documents", documents(yamlFilesUnder(join(root, "bench", "corpus"))));
  const one = [...examples.texts, ...corpus.texts].map((t) => (t.endsWith("\n") ? t : `${t}\n`)).join("---\n");
  const copies = Math.max(1, Math.ceil(STREAM_BYTES / Buffer.byteLength(one)));
  const stream = build(`stream (${copies} × all of the above)`, [
    Array.from({ length: copies }, () => one).join("---\n"),
  ]);
  return [examples, corpus, stream];
}

/** Checks every contender reads what the others read; throws rather than time a broken path. */
function check(input: YamlInput): void {
  const read = input.texts.flatMap((t) => fromYaml(t).map((o) => JSON.stringify(toJson(o))));
  if (read.join("\n") !== input.json.join("\n")) throw new Error(`bench: yaml: ${input.name}: fromYaml is not stable`);
  for (const j of input.json) JSON.parse(j);
  for (const t of input.texts)
    for (const d of parseAllDocuments(t) as ReturnType<typeof parseAllDocuments> & unknown[])
      if ("errors" in d && d.errors.length > 0)
        throw new Error(`bench: yaml: ${input.name}: the yaml package refuses a text: ${d.errors[0]?.message}`);
}

// Results go here so that no timed call can be optimised away.
let cpuSink: unknown;

/** MB per second of process CPU time of `run`, which reads `bytes` per call, over at least `minCpuMs`. */
function cpuRate(run: () => unknown, bytes: number, minCpuMs: number): number {
  const start = process.cpuUsage();
  let calls = 0;
  let usedMs = 0;
  do {
    cpuSink = run();
    calls++;
    const d = process.cpuUsage(start);
    usedMs = (d.user + d.system) / 1000;
  } while (usedMs < minCpuMs);
  return (calls * bytes) / (usedMs / 1000) / 1e6;
}

export function runYamlBench(options: {
  readonly timeMs: number;
  readonly rounds: number;
  readonly progress: (msg: string) => void;
}): YamlReport {
  const inputs = loadInputs(repoRoot());
  for (const input of inputs) check(input);
  const plan: RoundsPlan = {
    rounds: options.rounds,
    sliceMs: options.timeMs / options.rounds,
    warmupMs: Math.min(100, options.timeMs / 4),
    rate: "trimmed",
  };
  const contenders = (input: YamlInput) => [
    {
      name: "clusterwire fromYaml",
      bytes: utf8(input.texts),
      run: () => input.texts.map((t) => fromYaml(t)),
    },
    {
      name: "clusterwire fromYaml strict",
      bytes: utf8(input.texts),
      run: () => input.texts.map((t) => fromYaml(t, { strict: true })),
    },
    {
      name: "yaml parseAllDocuments",
      bytes: utf8(input.texts),
      run: () => input.texts.map((t) => parseAllDocuments(t)),
    },
    {
      name: "JSON.parse (same objects as JSON)",
      bytes: utf8(input.json),
      run: () => input.json.map((j) => JSON.parse(j) as unknown),
    },
  ];
  const groups = inputs.map(contenders);
  const rates = runRounds(groups, plan, options.progress);
  const cpu = groups.map((g) => g.map(() => [] as number[]));
  for (let round = 0; round < options.rounds; round++) {
    options.progress(`  yaml CPU round ${round + 1}/${options.rounds}`);
    groups.forEach((g, gi) => {
      for (const ci of rotation(g.length, round)) {
        const c = g[ci];
        if (c !== undefined) cpu[gi]?.[ci]?.push(cpuRate(c.run, c.bytes, plan.sliceMs));
      }
    });
  }
  if (cpuSink === undefined) throw new Error("bench: yaml: no call returned anything");
  const results: YamlResult[] = [];
  inputs.forEach((input, gi) => {
    const mbOf = (ci: number): number[] =>
      (rates[gi]?.[ci] ?? []).map((perSec) => (perSec * (groups[gi]?.[ci]?.bytes ?? 0)) / 1e6);
    groups[gi]?.forEach((c, ci) => {
      const mb = mbOf(ci);
      const s = spread(mb);
      results.push({
        input: input.name,
        impl: c.name,
        bytes: c.bytes,
        documents: input.documents,
        mbPerSec: median(mb),
        q1: s.q1,
        q3: s.q3,
        min: s.min,
        max: s.max,
        rounds: mb.length,
        ...(ci === 0 ? {} : { fromYamlRatio: roundRatio(mbOf(0), mb).median }),
        mbPerCpuSec: median(cpu[gi]?.[ci] ?? []),
      });
    });
  });
  return { lines: [], results };
}

export function yamlText(report: YamlReport): string[] {
  if (report.results.length === 0) return [];
  const pct = (x: number, m: number): string => `${x >= m ? "+" : ""}${(((x - m) / m) * 100).toFixed(0)}%`;
  const rows = report.results.map((r) => [
    r.input,
    r.impl,
    fix(r.mbPerSec, 2),
    fix(r.mbPerCpuSec, 2),
    `${pct(r.q1, r.mbPerSec)}..${pct(r.q3, r.mbPerSec)}`,
    `${pct(r.min, r.mbPerSec)}..${pct(r.max, r.mbPerSec)}`,
    r.fromYamlRatio === undefined
      ? ""
      : `${r.fromYamlRatio < 0.1 ? r.fromYamlRatio.toPrecision(2) : fix(r.fromYamlRatio, 2)}×`,
    int.format(r.bytes),
    String(r.documents),
    String(r.rounds),
  ]);
  return [
    "yaml: YAML text -> typed objects (fromYaml), MB/s of UTF-8 input",
    "Peers in the same rounds: the yaml package's parseAllDocuments alone (document trees, no Kubernetes objects),",
    "and JSON.parse of the same objects as compact JSON (MB/s of the JSON text), for scale. Inputs: the networking",
    "documents of examples/ and of bench/corpus/ as kubectl's split cuts them, each read in its own call, and one",
    "stream of all of them joined by `---` lines, repeated to about 256 KB, read in one call. MB/s is the median of the",
    "rounds; \"fromYaml ÷\" is clusterwire fromYaml's MB/s over the row's, the median of the per-round ratios.",
    "MB/CPU-s: MB per second of the process's CPU time (user + system), the median of as many interleaved rounds;",
    "on a busy shared machine a long YAML call is slowed throughout, so compare this column across runs.",
    "",
    table(
      [
        "input",
        "contender",
        "MB/s",
        "MB/CPU-s",
        "spread p25..p75",
        "min..max",
        "fromYaml ÷",
        "bytes",
        "docs",
        "rounds",
      ],
      rows,
      [false, false, true, true, true, true, true, true, true, true],
    ),
  ];
}
