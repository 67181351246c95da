import v8 from "node:v8";
import vm from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { FailureSink, Stats, inputAt, makePlan, memoryInUse, runRange } from "./campaign.js";
import { loadCorpus } from "./corpus.js";
import { SLOT_WORDS, type FromWorker, type ToWorker, type WorkerInit } from "./protocol.js";
import { STRATEGIES, strategyKey } from "./strategies.js";

/*
 * One fuzz worker: runs the index ranges the main thread hands it. Before
 * each input it publishes the index and bumps a counter in shared memory, so
 * the main thread can tell a worker stuck in one input (and which input) from
 * a busy one, without a message per input.
 */

const init = workerData as WorkerInit;
// No stacks for the millions of expected DecodeErrors; runOne re-runs a failure with them.
Error.stackTraceLimit = 0;
const port = parentPort;
if (port === null) throw new Error("worker.ts runs as a worker thread");

const selected = new Set(init.strategies);
const plan = makePlan(
  init.seed,
  STRATEGIES.filter((s) => selected.has(strategyKey(s))),
);
const corpus = loadCorpus(init.fixtureRoot);
const shared = new Int32Array(init.shared);
const at = init.slot * SLOT_WORDS;
const failures = new FailureSink(3);
const gc = exposeGc();
let baseline: number | undefined;

/** A full GC, so retained heap can be compared between batches (undefined if V8 refuses). */
function exposeGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === "function") return existing as () => void;
  try {
    v8.setFlagsFromString("--expose-gc");
    const fn = vm.runInNewContext("gc") as unknown;
    return typeof fn === "function" ? (fn as () => void) : undefined;
  } catch {
    return undefined;
  }
}

const beat = (index: number): void => {
  Atomics.store(shared, at, index);
  Atomics.add(shared, at + 1, 1);
};

port.on("message", (msg: ToWorker) => {
  void run(msg.start, msg.end);
});

async function run(start: number, end: number): Promise<void> {
  const stats = new Stats();
  await runRange(plan, corpus, start, end, stats, init.limits, failures, beat);
  Atomics.store(shared, at, -1);
  // Retained memory after a full GC must not creep up from batch to batch.
  let heapMb = memoryInUse() / 1048576;
  if (gc !== undefined) {
    gc();
    heapMb = memoryInUse() / 1048576;
    if (baseline === undefined) baseline = heapMb;
    else if (heapMb - baseline > init.maxGrowthMb) {
      const { strategy, input } = inputAt(plan, corpus, end - 1);
      stats.row(strategy).counts.memory++;
      failures.add({
        kind: "memory",
        seed: plan.seed,
        index: end - 1,
        strategy: strategy.name,
        target: strategy.target,
        detail: `retained heap grew from ${baseline.toFixed(1)} to ${heapMb.toFixed(1)} MiB by the end of inputs ${start}..${end - 1}`,
        input,
      });
      baseline = heapMb;
    }
  }
  const out: FromWorker = { type: "done", start, end, rows: stats.toRows(), failures: failures.take(), heapMb };
  port?.postMessage(out);
}

port.postMessage({ type: "ready" } satisfies FromWorker);
