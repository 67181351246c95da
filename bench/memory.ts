// `npm run bench:memory` (node --expose-gc): (a) the heap a decoded object
// keeps alive, clusterwire against protobufjs static code and protobuf-es,
// per fixture and per kind over the corpus; (b) protobuf and JSON watch
// streams of 100,000 events decoded in constant memory, fed incrementally,
// with heapUsed sampled after a full GC every 10,000 events. Exits 1 when a
// stream's heap grows with its events. `--json` prints the report as JSON.

import { parseArgs } from "node:util";
import type { DescMessage } from "@bufbuild/protobuf";
import {
  decode,
  decodeJsonWatchStream,
  decodeWatchStream,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  type WatchEvent,
  type WatchEventType,
} from "../src/networking/index.js";
import { loadCorpus } from "./corpus.js";
import { loadInputs } from "./fixtures.js";
import {
  growthOf,
  memoryText,
  type HeapSample,
  type MemoryReport,
  type RetainedRow,
  type WatchRow,
} from "./memory-report.js";
import { loadProtobufjsStatic, protobufEs, protobufjsStatic } from "./peers.js";

const GROWTH_LIMIT = 1024 * 1024;

const gcOrThrow = (): (() => void) => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== "function") throw new Error("bench:memory needs node --expose-gc");
  return gc;
};

// Keeps decoded arrays reachable until measured.
let keep: unknown[] = [];

function settledHeap(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Decodes `copies` objects, cycling through `inputs`, keeps them all, and divides the heap growth by `copies`. */
function retained(
  gc: () => void,
  inputs: readonly Uint8Array[],
  copies: number,
  dec: (b: Uint8Array) => unknown,
): number {
  for (const b of inputs) dec(b); // code and lazily built tables first, outside the measure
  keep = new Array<unknown>(copies).fill(null);
  const before = settledHeap(gc);
  for (let i = 0; i < copies; i++) keep[i] = dec(inputs[i % inputs.length]!);
  const after = settledHeap(gc);
  const per = (after - before) / copies;
  keep = [];
  return per;
}

interface RetainedInput {
  readonly input: string;
  readonly typeName: string;
  readonly desc: DescMessage;
  readonly envelopes: readonly Uint8Array[];
  readonly raws: readonly Uint8Array[];
}

function retainedRows(gc: () => void, inputs: readonly RetainedInput[], copies: number): RetainedRow[] {
  const rows: RetainedRow[] = [];
  for (const input of inputs) {
    const es = protobufEs(input.desc);
    const ps = protobufjsStatic(input.typeName);
    const impls: [string, readonly Uint8Array[], (b: Uint8Array) => unknown][] = [
      ["clusterwire", input.envelopes, (b) => decode(b)],
      [ps.name, input.raws, (b) => ps.decode(b)],
      [es.name, input.raws, (b) => es.decode(b)],
    ];
    for (const [impl, bytes, dec] of impls) {
      rows.push({
        input: input.input,
        objects: bytes.length,
        copies,
        impl,
        bytesPerObject: retained(gc, bytes, copies, dec),
      });
    }
  }
  return rows;
}

const TYPES: readonly WatchEventType[] = ["ADDED", "MODIFIED", "MODIFIED", "DELETED"];

/** The stream's chunks, made as they are read (nothing is kept): each event cut in two at a varying point. */
function* chunked<T extends Uint8Array | string>(events: number, pool: readonly T[]): Generator<T> {
  for (let i = 0; i < events; i++) {
    const frame = pool[i % pool.length]!;
    const cut = 1 + ((i * 7919) % (frame.length - 1));
    yield frame.slice(0, cut) as T;
    yield frame.slice(cut) as T;
  }
}

async function watchRow(
  gc: () => void,
  stream: string,
  decoded: AsyncIterable<WatchEvent>,
  events: number,
  every: number,
): Promise<WatchRow> {
  const samples: HeapSample[] = [];
  let n = 0;
  let names = 0;
  const t0 = performance.now();
  let gcMs = 0;
  for await (const ev of decoded) {
    n++;
    if ((ev.object as { metadata?: { name?: string } }).metadata?.name !== undefined) names++;
    if (n % every === 0) {
      const g0 = performance.now();
      samples.push({ events: n, heapUsed: settledHeap(gc) });
      gcMs += performance.now() - g0;
    }
  }
  if (n !== events || names !== events)
    throw new Error(`bench:memory: ${stream}: decoded ${n} events (${names} named) of ${events}`);
  const seconds = (performance.now() - t0 - gcMs) / 1000;
  return { stream, events, samples, growth: growthOf(samples, GROWTH_LIMIT), eventsPerSec: events / seconds };
}

export async function runMemory(quick: boolean): Promise<MemoryReport> {
  const gc = gcOrThrow();
  await loadProtobufjsStatic();
  const fixtures = loadInputs();
  const corpus = loadCorpus();
  const inputs: RetainedInput[] = fixtures.map((f) => ({
    input: f.name,
    typeName: f.desc.typeName,
    desc: f.desc,
    envelopes: [f.envelope],
    raws: [f.raw],
  }));
  for (const kind of [...new Set(corpus.objects.map((o) => o.kind))]) {
    const objs = corpus.objects.filter((o) => o.kind === kind);
    inputs.push({
      input: `corpus ${kind}`,
      typeName: objs[0]!.desc.typeName,
      desc: objs[0]!.desc,
      envelopes: objs.map((o) => o.envelope),
      raws: objs.map((o) => o.raw),
    });
  }
  const retainedResult = retainedRows(gc, inputs, quick ? 5_000 : 20_000);

  // Events of every kept object (the corpus, or the fixtures when it is empty), in turn.
  const objects = (
    corpus.objects.length > 0 ? corpus.objects.map((o) => o.envelope) : fixtures.map((f) => f.envelope)
  ).map((b) => decode(b));
  const events = 100_000;
  const every = 10_000;
  const pbPool = objects.map((object, i) => encodeWatchEvent({ type: TYPES[i % TYPES.length]!, object }));
  const jsonText = new TextEncoder();
  const jsonPool = objects.map((object, i) =>
    jsonText.encode(encodeJsonWatchEvent({ type: TYPES[i % TYPES.length]!, object })),
  );
  const watch: WatchRow[] = [
    await watchRow(gc, "protobuf (decodeWatchStream)", decodeWatchStream(chunked(events, pbPool)), events, every),
    await watchRow(gc, "JSON (decodeJsonWatchStream)", decodeJsonWatchStream(chunked(events, jsonPool)), events, every),
  ];
  return {
    node: process.version,
    retained: retainedResult,
    watch,
    growthLimitBytes: GROWTH_LIMIT,
    ok: watch.every((w) => !w.growth.grows),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { json: { type: "boolean", default: false }, quick: { type: "boolean", default: false } },
    strict: true,
  });
  const report = await runMemory(values.quick);
  console.log(values.json ? JSON.stringify(report, null, 2) : memoryText(report).join("\n"));
  if (!report.ok) {
    process.stderr.write("bench:memory: a watch stream's heap grows with the number of events\n");
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
