// `npm run bench`: clusterwire's wire and JSON codecs against protobuf-es,
// protobufjs and the JSON built-ins, on every HEAD fixture kind and a
// realistic NetworkPolicy, in one run. See `--help`.

import { parseArgs } from "node:util";
import { equals, fromBinary, type DescMessage, type Message } from "@bufbuild/protobuf";
import { Bench, type Task } from "tinybench";
import { decode, encode, fromJson, toJsonString, type NetworkingObject } from "../src/networking/index.js";
import { loadInputs, type BenchInput } from "./fixtures.js";
import { protobufEs, protobufjsReflect } from "./peers.js";

const USAGE = `usage: node dist/bench/main.js [--time MS] [--filter TEXT] [--json]
  --time MS      measuring time per task in ms (default 500; warmup is half of it)
  --filter TEXT  only groups whose "operation:input" contains TEXT (case-insensitive),
                 e.g. --filter realistic, --filter decode:, --filter "encode:Ingress ("
  --json         print machine-readable results on stdout instead of tables`;

type Op = "decode" | "encode" | "toJson" | "fromJson";

const OP_TITLES: Record<Op, readonly string[]> = {
  decode: [
    "decode: envelope bytes -> typed object",
    "clusterwire reads the k8s\\0 + runtime.Unknown envelope; the peers get the bare object bytes,",
    "stripped from the envelope beforehand (not timed). protobufjs is reflection (Type.decode):",
    "static code needs protobufjs-cli, which is not installed.",
  ],
  encode: [
    "encode: typed object -> bytes",
    "clusterwire writes the full envelope with Go's field rules; protobuf-es toBinary and",
    "protobufjs Type.encode().finish() (reflection) write the bare object, each from its own decoded object.",
  ],
  toJson: [
    "toJson: typed object -> compact Kubernetes JSON text",
    "baseline: JSON.stringify of the same JSON already parsed into a plain object (no k8s rules).",
  ],
  fromJson: [
    "fromJson: compact Kubernetes JSON text -> typed object",
    "baseline: JSON.parse of the same text. JSON.parse is not a Kubernetes decoder: no types, no",
    "defaults, no validation; it bounds what any JSON-based decoder can reach.",
  ],
};

/** One implementation of one operation on one input. */
interface Candidate {
  readonly impl: string;
  readonly run: () => unknown;
  /** Bytes the operation reads or writes, for MB/s. */
  readonly bytes: number;
}

/** The implementations compared on one (operation, input); the first is clusterwire. */
interface Group {
  readonly op: Op;
  readonly input: BenchInput;
  readonly candidates: readonly Candidate[];
}

interface Measured {
  readonly op: Op;
  readonly input: string;
  readonly impl: string;
  readonly opsPerSec: number;
  readonly meanUs: number;
  readonly rmePct: number;
  readonly mbPerSec: number;
  readonly bytes: number;
  readonly batch: number;
  readonly samples: number;
}

interface InputReport {
  readonly name: string;
  readonly source: string;
  readonly envelopeBytes: number;
  readonly rawBytes: number;
  readonly jsonBytes: number;
  /** Whether each implementation's re-encode equals the input bytes (clusterwire must). */
  readonly reencodeIdentical: Record<string, boolean>;
}

// Results go here so no timed call can be optimised away.
let sink: unknown;

// ---------------------------------------------------------------- setup and checks

function fail(input: BenchInput, what: string): never {
  throw new Error(`bench: ${input.name}: ${what}; refusing to measure a broken path`);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function nameOf(obj: unknown): unknown {
  return (obj as { metadata?: { name?: unknown } } | null)?.metadata?.name;
}

function sameValues(desc: DescMessage, a: Message, b: Message): boolean {
  return equals(desc, a as never, b as never);
}

/** Decodes each input with every implementation, checks they agree, and builds the groups. */
function prepare(input: BenchInput): { groups: Group[]; report: InputReport } {
  const { desc, envelope, raw, json } = input;
  const es = protobufEs(desc);
  const pj = protobufjsReflect(desc.typeName);

  const cwObj: NetworkingObject = decode(envelope);
  const cwName = nameOf(cwObj);
  if (typeof cwName !== "string") fail(input, "clusterwire decoded no metadata.name");
  if (!bytesEqual(encode(cwObj), envelope)) fail(input, "clusterwire encode(decode(pb)) differs from the input bytes");
  if (input.fixtureJson !== undefined && toJsonString(cwObj, 2).trimEnd() !== input.fixtureJson.trimEnd()) {
    fail(input, "clusterwire toJsonString(decode(pb), 2) differs from the fixture .json");
  }
  if (!bytesEqual(encode(fromJson(json)), envelope)) fail(input, "clusterwire encode(fromJson(json)) differs from the input bytes");

  const esMsg = es.decode(raw);
  if (nameOf(esMsg) !== cwName || !sameValues(desc, esMsg, cwObj)) fail(input, "protobuf-es decoded different field values");
  const esOut = es.encode(esMsg);
  if (!sameValues(desc, fromBinary(desc, esOut), cwObj)) fail(input, "protobuf-es toBinary lost field values");

  const pjMsg = pj.decode(raw);
  if (nameOf(pjMsg) !== cwName) fail(input, "protobufjs decoded a different metadata.name");
  const pjOut = pj.encode(pjMsg);
  // Read protobufjs's output back with protobuf-es: equal values mean it decoded and encoded every field.
  if (!sameValues(desc, fromBinary(desc, pjOut), cwObj)) fail(input, "protobufjs decoded or encoded different field values");

  const plain: unknown = JSON.parse(json);
  if (nameOf(plain) !== cwName) fail(input, "JSON.parse gave a different metadata.name");
  const stringified = JSON.stringify(plain);

  const jsonBytes = Buffer.byteLength(json);
  const groups: Group[] = [
    {
      op: "decode",
      input,
      candidates: [
        { impl: "clusterwire", run: () => decode(envelope), bytes: envelope.length },
        { impl: es.name, run: () => es.decode(raw), bytes: raw.length },
        { impl: pj.name, run: () => pj.decode(raw), bytes: raw.length },
      ],
    },
    {
      op: "encode",
      input,
      candidates: [
        { impl: "clusterwire", run: () => encode(cwObj), bytes: envelope.length },
        { impl: es.name, run: () => es.encode(esMsg), bytes: esOut.length },
        { impl: pj.name, run: () => pj.encode(pjMsg), bytes: pjOut.length },
      ],
    },
    {
      op: "toJson",
      input,
      candidates: [
        { impl: "clusterwire", run: () => toJsonString(cwObj), bytes: jsonBytes },
        { impl: "JSON.stringify", run: () => JSON.stringify(plain), bytes: Buffer.byteLength(stringified) },
      ],
    },
    {
      op: "fromJson",
      input,
      candidates: [
        { impl: "clusterwire", run: () => fromJson(json), bytes: jsonBytes },
        { impl: "JSON.parse", run: () => JSON.parse(json) as unknown, bytes: jsonBytes },
      ],
    },
  ];
  const report: InputReport = {
    name: input.name,
    source: input.source,
    envelopeBytes: envelope.length,
    rawBytes: raw.length,
    jsonBytes,
    reencodeIdentical: { clusterwire: true, [es.name]: bytesEqual(esOut, raw), [pj.name]: bytesEqual(pjOut, raw) },
  };
  return { groups, report };
}

// ---------------------------------------------------------------- measuring

// Each tinybench sample runs the operation `batch` times so that a sample lasts
// about this long and the timer's own cost stays well under 1 %.
const SAMPLE_TARGET_MS = 0.05;

function batchSize(run: () => unknown): number {
  // Warm up first: cold code would look slow and give too small a batch.
  for (const t0 = performance.now(); performance.now() - t0 < 10; ) sink = run();
  for (let reps = 1; ; reps *= 2) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) sink = run();
    const dt = performance.now() - t0;
    if (dt >= 5 || reps >= 1 << 20) return Math.max(1, Math.round((SAMPLE_TARGET_MS * reps) / Math.max(dt, 1e-6)));
  }
}

async function measure(groups: readonly Group[], timeMs: number, progress: (msg: string) => void): Promise<Measured[]> {
  const bench = new Bench({ time: timeMs, warmupTime: timeMs / 2, throws: true });
  const plan: { task: string; group: Group; candidate: Candidate; batch: number }[] = [];
  for (const group of groups) {
    for (const candidate of group.candidates) {
      const batch = batchSize(candidate.run);
      const run = candidate.run;
      const task = `${group.op}:${group.input.name}:${candidate.impl}`;
      bench.add(task, () => {
        for (let i = 0; i < batch; i++) sink = run();
      });
      plan.push({ task, group, candidate, batch });
    }
  }
  let done = 0;
  bench.addEventListener("cycle", () => progress(`  ${++done}/${plan.length}`));
  const tasks = await bench.run();
  const byName = new Map<string, Task>(tasks.map((t) => [t.name, t]));
  return plan.map(({ task, group, candidate, batch }) => {
    const result = byName.get(task)?.result;
    if (result === undefined || result.state !== "completed") {
      throw new Error(`bench: task ${task} did not complete (${result?.state ?? "missing"})`);
    }
    const meanMs = result.latency.mean / batch;
    const opsPerSec = 1000 / meanMs;
    return {
      op: group.op,
      input: group.input.name,
      impl: candidate.impl,
      opsPerSec,
      meanUs: meanMs * 1000,
      rmePct: result.latency.rme,
      mbPerSec: (candidate.bytes * opsPerSec) / 1e6,
      bytes: candidate.bytes,
      batch,
      samples: result.latency.samplesCount,
    };
  });
}

// ---------------------------------------------------------------- reporting

interface Ratio {
  readonly op: Op;
  readonly input: string;
  readonly peer: string;
  /** clusterwire ops/s divided by the peer's: above 1 means clusterwire is faster. */
  readonly ratio: number;
}

function ratiosOf(results: readonly Measured[]): Ratio[] {
  const out: Ratio[] = [];
  for (const cw of results.filter((r) => r.impl === "clusterwire")) {
    for (const peer of results.filter((r) => r.op === cw.op && r.input === cw.input && r.impl !== "clusterwire")) {
      out.push({ op: cw.op, input: cw.input, peer: peer.impl, ratio: cw.opsPerSec / peer.opsPerSec });
    }
  }
  return out;
}

function geomeans(ratios: readonly Ratio[]): { op: Op; peer: string; ratio: number; inputs: number }[] {
  const keys = [...new Set(ratios.map((r) => `${r.op}\n${r.peer}`))];
  return keys.map((key) => {
    const [op, peer] = key.split("\n") as [Op, string];
    const rs = ratios.filter((r) => r.op === op && r.peer === peer);
    const ratio = Math.exp(rs.reduce((s, r) => s + Math.log(r.ratio), 0) / rs.length);
    return { op, peer, ratio, inputs: rs.length };
  });
}

const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const fix = (n: number, digits: number): string => n.toFixed(digits);
const ratioText = (r: number): string => `${r.toFixed(2)}×`;

function table(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: readonly boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (rightAligned[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function printText(reports: readonly InputReport[], results: readonly Measured[], ratios: readonly Ratio[], timeMs: number): void {
  const out: string[] = [];
  out.push(`clusterwire bench: Node ${process.version}, V8 ${process.versions.v8}, ${timeMs} ms per task (+${timeMs / 2} ms warmup)`);
  out.push("All implementations were checked to decode equal field values before timing.");
  out.push("");
  out.push(
    table(
      ["input", "source", "envelope B", "raw object B", "JSON B", "re-encode identical"],
      reports.map((r) => [
        r.name,
        r.source,
        int.format(r.envelopeBytes),
        int.format(r.rawBytes),
        int.format(r.jsonBytes),
        Object.entries(r.reencodeIdentical)
          .map(([impl, same]) => `${impl} ${same ? "yes" : "no"}`)
          .join(", "),
      ]),
      [false, false, true, true, true, false],
    ),
  );
  const ops = (Object.keys(OP_TITLES) as Op[]).filter((op) => results.some((r) => r.op === op));
  for (const op of ops) {
    out.push("", ...OP_TITLES[op]);
    const rows: string[][] = [];
    let last = "";
    for (const r of results.filter((x) => x.op === op)) {
      const ratio = ratios.find((x) => x.op === op && x.input === r.input && x.peer === r.impl);
      rows.push([
        r.input === last ? "" : r.input,
        r.impl,
        int.format(r.opsPerSec),
        fix(r.meanUs, 2),
        fix(r.mbPerSec, 1),
        `±${fix(r.rmePct, 1)}%`,
        ratio === undefined ? "" : `clusterwire/${r.impl} ${ratioText(ratio.ratio)}`,
      ]);
      last = r.input;
    }
    out.push(table(["input", "impl", "ops/s", "mean µs", "MB/s", "rme", "ratio"], rows, [false, false, true, true, true, true, false]));
  }
  out.push("", "Summary: geometric mean of clusterwire/peer ops/s over the inputs (above 1× = clusterwire faster)");
  out.push(
    table(
      ["operation", "peer", "inputs", "ratio"],
      geomeans(ratios).map((g) => [g.op, g.peer, String(g.inputs), `clusterwire/${g.peer} ${ratioText(g.ratio)}`]),
      [false, false, true, false],
    ),
  );
  console.log(out.join("\n"));
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      time: { type: "string" },
      filter: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const timeMs = values.time === undefined ? 500 : Number(values.time);
  if (!Number.isFinite(timeMs) || timeMs <= 0) throw new Error(`bench: --time must be a positive number of ms, got ${values.time}`);
  const filter = values.filter?.toLowerCase();
  const progress = (msg: string): void => {
    if (process.stderr.isTTY) process.stderr.write(`\r${msg}`);
  };

  const reports: InputReport[] = [];
  const groups: Group[] = [];
  for (const input of loadInputs()) {
    const prepared = prepare(input);
    const selected = prepared.groups.filter((g) => filter === undefined || `${g.op}:${g.input.name}`.toLowerCase().includes(filter));
    if (selected.length === 0) continue;
    reports.push(prepared.report);
    groups.push(...selected);
  }
  if (groups.length === 0) throw new Error(`bench: --filter ${JSON.stringify(values.filter)} matches nothing`);

  const tasks = groups.reduce((n, g) => n + g.candidates.length, 0);
  process.stderr.write(`bench: ${tasks} tasks, about ${Math.ceil((tasks * timeMs * 1.5) / 1000)} s\n`);
  const results = await measure(groups, timeMs, progress);
  progress("\r\x1b[K");
  const ratios = ratiosOf(results);
  if (values.json) {
    const meta = { node: process.version, v8: process.versions.v8, timeMs, warmupMs: timeMs / 2 };
    console.log(JSON.stringify({ meta, inputs: reports, results, ratios, summary: geomeans(ratios) }, null, 2));
  } else {
    printText(reports, results, ratios, timeMs);
  }
  if (sink === Symbol.for("never")) console.log("unreachable");
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
