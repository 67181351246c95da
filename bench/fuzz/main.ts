import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import {
  DEFAULT_LIMITS,
  Stats,
  fmt,
  inputAt,
  makePlan,
  memoryInUse,
  type Failure,
  type FailureKind,
  type Limits,
  type Plan,
} from "./campaign.js";
import { findFixtureRoot, loadCorpus, type Corpus } from "./corpus.js";
import { formatFailure, parseFailure } from "./failure-file.js";
import { SLOT_WORDS, type FromWorker, type ToWorker, type WorkerInit } from "./protocol.js";
import { STRATEGIES, strategyKey, type Strategy } from "./strategies.js";
import { TARGETS, runTarget } from "./targets.js";

const USAGE = `Fuzz clusterwire's decoders: every input must decode or throw a located DecodeError,
in bounded time and memory.

usage: npm run fuzz -- [options]
       npm run fuzz -- --replay FILE [--replay FILE ...]

  --iterations N      inputs to decode in total (default 100000; 1e6, 10_000_000 work)
  --seed S            campaign seed, a 32-bit integer (default: random; always printed)
  --workers W         worker threads (default: available cores)
  --target NAME       only these decoders (repeat or comma-separate):
                      ${TARGETS.join(", ")}
  --strategy NAME     only these strategies (NAME or NAME/decoder; see --list)
  --time-limit-ms MS  an input taking longer is a hang (default ${DEFAULT_LIMITS.timeLimitMs});
                      a worker silent this long is killed and restarted
  --max-input-mb MB   heap + buffer growth one input may cause (default ${DEFAULT_LIMITS.maxInputMb})
  --max-growth-mb MB  retained heap growth over a worker's life that counts as a leak (default 96)
  --max-old-mb MB     V8 old-space limit of each worker (default 1024)
  --batch N           inputs per work unit handed to a worker (default 5000)
  --out DIR           where failing inputs are written (default fuzz-failures)
  --fixtures DIR      the upstream fixtures (default: shared/testdata/k8s-api above this file)
  --progress-ms MS    progress line interval (default 10000)
  --replay FILE       run the input saved in FILE again and report what it does
  --list              print the strategies and their weights
  -h, --help          this text

Exit status: 0 when every input decoded or raised a located DecodeError,
1 on any crash (non-DecodeError exception), hang, memory failure, or
DecodeError without a location; 2 on bad usage.`;

interface Args {
  iterations: number;
  seed: number;
  workers: number;
  strategies: Strategy[];
  limits: Limits;
  maxGrowthMb: number;
  maxOldMb: number;
  batch: number;
  out: string;
  fixtures: string;
  progressMs: number;
}

/** The command line, parsed; a usage error exits with status 2. */
function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        iterations: { type: "string", short: "n" },
        seed: { type: "string" },
        workers: { type: "string", short: "w" },
        target: { type: "string", multiple: true },
        strategy: { type: "string", multiple: true },
        "time-limit-ms": { type: "string" },
        "max-input-mb": { type: "string" },
        "max-growth-mb": { type: "string" },
        "max-old-mb": { type: "string" },
        batch: { type: "string" },
        out: { type: "string" },
        fixtures: { type: "string" },
        "progress-ms": { type: "string" },
        replay: { type: "string", multiple: true },
        list: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (e) {
    return usageError((e as Error).message);
  }
}

function main(): void {
  const v = parseCommandLine().values;
  if (v.help === true) {
    console.log(USAGE);
    return;
  }
  const strategies = select(v.target ?? [], v.strategy ?? []);
  if (v.list === true) {
    const total = strategies.reduce((n, s) => n + s.weight, 0);
    for (const s of strategies)
      console.log(`${strategyKey(s).padEnd(34)} ${((100 * s.weight) / total).toFixed(1).padStart(5)}%`);
    return;
  }
  const fixtures = v.fixtures !== undefined ? resolve(v.fixtures) : findFixtureRoot();
  const limits: Limits = {
    timeLimitMs: num(v["time-limit-ms"], DEFAULT_LIMITS.timeLimitMs, "--time-limit-ms"),
    maxInputMb: num(v["max-input-mb"], DEFAULT_LIMITS.maxInputMb, "--max-input-mb"),
  };
  if (v.replay !== undefined) {
    void replay(v.replay, limits);
    return;
  }
  const args: Args = {
    iterations: num(v.iterations, 100_000, "--iterations"),
    seed: v.seed !== undefined ? num(v.seed, 0, "--seed") >>> 0 : (Math.random() * 0x100000000) >>> 0,
    workers: Math.max(1, num(v.workers, availableParallelism(), "--workers")),
    strategies,
    limits,
    maxGrowthMb: num(v["max-growth-mb"], 96, "--max-growth-mb"),
    maxOldMb: num(v["max-old-mb"], 1024, "--max-old-mb"),
    batch: Math.max(1, num(v.batch, 5000, "--batch")),
    out: resolve(v.out ?? "fuzz-failures"),
    fixtures,
    progressMs: num(v["progress-ms"], 10_000, "--progress-ms"),
  };
  if (args.iterations > 0x7fffffff) usageError("--iterations must be below 2^31");
  new Campaign(args).start();
}

function usageError(message: string): never {
  console.error(`fuzz: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** A count such as 100000, 1e6 or 10_000_000. */
function num(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const n = Number(text.replace(/_/g, ""));
  if (!Number.isFinite(n) || n < 0 || !Number.isInteger(n))
    usageError(`${flag} wants a non-negative integer, got ${JSON.stringify(text)}`);
  return n;
}

function select(targets: readonly string[], names: readonly string[]): Strategy[] {
  const wantTargets = new Set(targets.flatMap((t) => t.split(",")).filter((t) => t !== ""));
  for (const t of wantTargets)
    if (!(TARGETS as readonly string[]).includes(t))
      usageError(`unknown --target ${JSON.stringify(t)}; one of ${TARGETS.join(", ")}`);
  const wantNames = new Set(names.flatMap((n) => n.split(",")).filter((n) => n !== ""));
  for (const n of wantNames)
    if (!STRATEGIES.some((s) => s.name === n || strategyKey(s) === n))
      usageError(`unknown --strategy ${JSON.stringify(n)}; see --list`);
  const out = STRATEGIES.filter(
    (s) =>
      (wantTargets.size === 0 || wantTargets.has(s.target)) &&
      (wantNames.size === 0 || wantNames.has(s.name) || wantNames.has(strategyKey(s))),
  );
  if (out.length === 0) usageError("no strategy matches the --target/--strategy selection");
  return out;
}

// ------------------------------------------------------------------ the campaign

interface Slot {
  worker: Worker;
  /** The range being run, if any. */
  range: [number, number] | undefined;
  /** Index whose stall or death this worker checks by running it alone, first thing. */
  confirming: { index: number; kind: FailureKind; detail: string } | undefined;
  beats: number;
  lastChange: number;
  /** Set when the main thread terminates the worker on purpose. */
  killed: boolean;
}

class Campaign {
  private readonly plan: Plan;
  private readonly corpus: Corpus;
  private readonly stats = new Stats();
  private readonly shared: Int32Array;
  private readonly slots: Slot[] = [];
  private readonly pending: [number, number][] = [];
  private readonly written: string[] = [];
  private readonly notes: string[] = [];
  private readonly started = performance.now();
  private next = 0;
  private harnessDeaths = 0;
  private finished = false;
  private watchdog: NodeJS.Timeout | undefined;
  private progress: NodeJS.Timeout | undefined;

  constructor(private readonly args: Args) {
    this.plan = makePlan(args.seed, args.strategies);
    this.corpus = loadCorpus(args.fixtures);
    this.shared = new Int32Array(new SharedArrayBuffer(4 * SLOT_WORDS * args.workers));
  }

  start(): void {
    const a = this.args;
    console.log(
      `clusterwire fuzz: seed ${a.seed}, ${fmt(a.iterations)} inputs, ${a.workers} worker${a.workers === 1 ? "" : "s"}`,
    );
    console.log(
      `  ${a.strategies.length} strategies over ${new Set(a.strategies.map((s) => s.target)).size} decoders; time limit ${a.limits.timeLimitMs} ms/input; fixtures ${a.fixtures}`,
    );
    console.log(`  replay an input with: npm run fuzz -- --replay FILE; rerun this campaign with: --seed ${a.seed}`);
    for (let i = 0; i < a.workers; i++) this.slots.push(this.spawn(i));
    this.watchdog = setInterval(() => this.checkStalls(), Math.max(20, Math.min(250, a.limits.timeLimitMs / 4)));
    this.progress = setInterval(() => this.printProgress(), a.progressMs);
  }

  private spawn(i: number): Slot {
    const a = this.args;
    const init: WorkerInit = {
      seed: a.seed,
      strategies: a.strategies.map(strategyKey),
      fixtureRoot: a.fixtures,
      limits: a.limits,
      maxGrowthMb: a.maxGrowthMb,
      shared: this.shared.buffer as SharedArrayBuffer,
      slot: i,
    };
    Atomics.store(this.shared, i * SLOT_WORDS, -1);
    const worker = new Worker(new URL("./worker.js", import.meta.url), {
      workerData: init,
      resourceLimits: { maxOldGenerationSizeMb: a.maxOldMb, maxYoungGenerationSizeMb: 64 },
    });
    const slot: Slot = {
      worker,
      range: undefined,
      confirming: undefined,
      beats: 0,
      lastChange: performance.now(),
      killed: false,
    };
    worker.on("message", (m: FromWorker) => this.onMessage(i, slot, m));
    worker.on("error", (e: Error & { code?: string }) =>
      this.onDeath(i, slot, e.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crash", `${e.name}: ${e.message}`),
    );
    worker.on("exit", (code) => {
      if (!slot.killed && !this.finished) this.onDeath(i, slot, "crash", `worker exited with code ${code}`);
    });
    return slot;
  }

  private onMessage(i: number, slot: Slot, m: FromWorker): void {
    if (slot !== this.slots[i] || slot.killed) return;
    if (m.type === "done") {
      this.stats.merge(m.rows);
      for (const f of m.failures) this.record(f);
      if (slot.confirming !== undefined && m.start === slot.confirming.index && m.end === m.start + 1) {
        // It ran alone to completion: the stall was the machine, not the input.
        const c = slot.confirming;
        if (c.kind === "hang") this.notes.push(`input ${c.index} stalled once but ran within the limit when repeated`);
        // A worker that died must not go unreported, even if the input alone is fine (memory may have piled up across inputs).
        else this.failure(c.kind, c.index, `${c.detail}; run alone, the input does not fail`, false);
        slot.confirming = undefined;
      }
      slot.range = undefined;
    }
    this.assign(i, slot);
  }

  private assign(i: number, slot: Slot): void {
    const c = slot.confirming;
    const r: [number, number] | undefined =
      c !== undefined ? [c.index, c.index + 1] : (this.pending.shift() ?? this.fresh());
    if (r === undefined) {
      slot.range = undefined;
      this.maybeFinish();
      return;
    }
    slot.range = r;
    slot.lastChange = performance.now();
    slot.beats = Atomics.load(this.shared, i * SLOT_WORDS + 1);
    slot.worker.postMessage({ type: "run", start: r[0], end: r[1] } satisfies ToWorker);
  }

  private fresh(): [number, number] | undefined {
    if (this.next >= this.args.iterations) return undefined;
    const start = this.next;
    this.next = Math.min(this.args.iterations, start + this.args.batch);
    return [start, this.next];
  }

  /** Kills a worker that has not started a new input for longer than the time limit. */
  private checkStalls(): void {
    const now = performance.now();
    this.slots.forEach((slot, i) => {
      if (slot.range === undefined || slot.killed) return;
      const beats = Atomics.load(this.shared, i * SLOT_WORDS + 1);
      if (beats !== slot.beats) {
        slot.beats = beats;
        slot.lastChange = now;
        return;
      }
      if (now - slot.lastChange <= this.args.limits.timeLimitMs) return;
      const index = Atomics.load(this.shared, i * SLOT_WORDS);
      this.replace(
        i,
        slot,
        "hang",
        index,
        `no progress for ${(now - slot.lastChange).toFixed(0)} ms (limit ${this.args.limits.timeLimitMs} ms)`,
      );
    });
  }

  private onDeath(i: number, slot: Slot, kind: FailureKind, detail: string): void {
    if (slot !== this.slots[i] || slot.killed || this.finished) return;
    const index = Atomics.load(this.shared, i * SLOT_WORDS);
    if (slot.range === undefined || index < 0) {
      // Died between inputs: a harness problem, not an input's. Give up rather than respawn forever.
      console.error(`worker ${i} died outside an input: ${detail}`);
      process.exitCode = 1;
      if (++this.harnessDeaths >= 3) {
        console.error("fuzz: workers keep dying outside any input; stopping");
        process.exit(1);
      }
      this.replace(i, slot, kind, -1, detail);
      return;
    }
    this.replace(i, slot, kind, index, detail);
  }

  /**
   * Terminates the worker and starts a fresh one. The inputs of its range
   * other than `index` are run again (its counts died with it); `index` runs
   * alone first, to confirm the failure before it is recorded.
   */
  private replace(i: number, slot: Slot, kind: FailureKind, index: number, detail: string): void {
    slot.killed = true;
    void slot.worker.terminate();
    const range = slot.range;
    const wasConfirming = slot.confirming;
    const fresh = this.spawn(i);
    this.slots[i] = fresh;
    if (range !== undefined && index >= range[0] && index < range[1]) {
      if (index > range[0]) this.pending.unshift([range[0], index]);
      if (index + 1 < range[1]) this.pending.unshift([index + 1, range[1]]);
      if (wasConfirming !== undefined && wasConfirming.index === index) {
        this.failure(kind, index, `${detail} (and again when run alone)`);
      } else {
        // Recorded only if it happens again; the fresh worker runs it alone first.
        fresh.confirming = { index, kind, detail };
      }
    } else if (range !== undefined) {
      this.pending.unshift(range);
    }
    // The fresh worker asks for work (assign) once it is ready.
  }

  /** Records a failure found by the main thread (a hang or a dead worker), rebuilding its input. */
  private failure(kind: FailureKind, index: number, detail: string, countInput = true): void {
    const { strategy, input } = inputAt(this.plan, this.corpus, index);
    const row = this.stats.row(strategy);
    if (countInput) row.counts.inputs++;
    row.counts[kind === "bad-error" ? "badError" : kind]++;
    this.record({ kind, seed: this.plan.seed, index, strategy: strategy.name, target: strategy.target, detail, input });
  }

  private record(f: Failure): void {
    console.log(`FAILURE ${f.kind} at input ${f.index} (${f.strategy}/${f.target}): ${f.detail}`);
    if (this.written.length >= 200) return;
    mkdirSync(this.args.out, { recursive: true });
    const file = join(this.args.out, `${f.seed}-${f.index}-${f.strategy}-${f.target}-${f.kind}.txt`);
    writeFileSync(file, formatFailure(f));
    this.written.push(file);
  }

  private printProgress(): void {
    const s = (performance.now() - this.started) / 1000;
    const done = this.stats.total("inputs");
    console.log(
      `[${s.toFixed(0).padStart(5)}s] ${fmt(done)}/${fmt(this.args.iterations)} (${((100 * done) / Math.max(1, this.args.iterations)).toFixed(1)}%)  ` +
        `${fmt(Math.round(done / s))}/s  ok ${fmt(this.stats.total("ok"))}  DecodeError ${fmt(this.stats.total("decodeError"))}  failures ${fmt(this.stats.failures())}`,
    );
  }

  private maybeFinish(): void {
    if (this.finished || this.pending.length > 0 || this.next < this.args.iterations) return;
    if (this.slots.some((s) => s.range !== undefined || s.confirming !== undefined)) return;
    this.finished = true;
    if (this.watchdog !== undefined) clearInterval(this.watchdog);
    if (this.progress !== undefined) clearInterval(this.progress);
    for (const s of this.slots) {
      s.killed = true;
      void s.worker.terminate();
    }
    const secs = (performance.now() - this.started) / 1000;
    const total = this.stats.total("inputs");
    console.log("");
    console.log(this.stats.table(this.args.strategies));
    console.log("");
    console.log(
      `seed ${this.args.seed}: ${fmt(total)} inputs in ${secs.toFixed(1)} s wall time, ${fmt(Math.round(total / secs))} inputs/s on ${this.args.workers} worker${this.args.workers === 1 ? "" : "s"}`,
    );
    for (const n of this.notes) console.log(`note: ${n}`);
    const failures = this.stats.failures();
    if (failures > 0) {
      console.log(`${fmt(failures)} failure${failures === 1 ? "" : "s"}; inputs written to:`);
      for (const f of this.written) console.log(`  ${f}`);
      process.exitCode = 1;
    } else {
      console.log("no crashes, hangs, memory failures or unlocated DecodeErrors");
    }
  }
}

// ------------------------------------------------------------------ replay

async function replay(files: readonly string[], limits: Limits): Promise<void> {
  let failed = false;
  for (const file of files) {
    const { target, input, header } = parseFailure(readFileSync(file, "utf8"));
    const before = memoryInUse();
    const t0 = performance.now();
    const r = await runTarget(target, input);
    const ms = performance.now() - t0;
    const grewMb = (memoryInUse() - before) / 1048576;
    let verdict: string = r.verdict;
    if (r.verdict === "crash" || r.verdict === "bad-error") failed = true;
    else if (ms > limits.timeLimitMs) {
      verdict = `hang (over ${limits.timeLimitMs} ms)`;
      failed = true;
    } else if (grewMb > limits.maxInputMb) {
      verdict = `memory (grew ${grewMb.toFixed(1)} MiB)`;
      failed = true;
    }
    console.log(
      `${file}: ${target}, recorded as ${header["kind"] ?? "?"} (${header["strategy"] ?? "?"}, seed ${header["seed"] ?? "?"}, index ${header["index"] ?? "?"})`,
    );
    console.log(`  -> ${verdict} in ${ms.toFixed(1)} ms${r.detail !== undefined ? `: ${r.detail}` : ""}`);
    if (r.stack !== undefined && (r.verdict === "crash" || r.verdict === "bad-error")) console.log(r.stack);
  }
  process.exitCode = failed ? 1 : 0;
}

main();
