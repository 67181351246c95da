import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { expandInputs, type InputEntry } from "../shared/inputs.js";
import { CliError, STDIN_NAME, readInput, type CliIO, type Input } from "../shared/io.js";
import { runInOrder, type Executor } from "./ordered-pool.js";
import { progressLine } from "./progress.js";
import type { Reporter } from "../shared/reporter.js";
import { validateBytes, validateFile, type FileJob, type FileJobSettings } from "./file.js";
import { addToSummary, emptySummary, fileError, type FileVerdicts, type Summary } from "../shared/verdict.js";
import type { WalkOptions } from "../shared/walk.js";
import { JOBS_PER_WORKER, workerExecutor } from "./worker-executor.js";

// A whole `clusterwire validate` run: the inputs walked lazily, files checked
// on the main thread and on worker threads beside it when there are enough of
// them, and each file's verdicts written in input order as soon as they are known.

export interface RunOptions {
  /** Threads that check files: the main thread and jobs - 1 workers (1: the main thread alone); default: defaultJobs(). */
  readonly jobs?: number;
  /** The worker entry point; default: worker.js next to this module (absent when running from source). */
  readonly workerUrl?: URL;
  /** Fewer files than this are checked on the main thread, as starting workers would cost more. */
  readonly workerThreshold?: number;
}

export interface RunResult {
  readonly summary: Summary;
  /** Inputs that gave nothing to check: a path that cannot be read, an empty directory, empty stdin. */
  readonly missing: number;
}

const DEFAULT_WORKER_THRESHOLD = 64;
const MAX_DEFAULT_JOBS = 8;

function defaultJobs(): number {
  // Measured (issue 30, 2 CPUs, Node 20, alternating runs; the machine was not
  // idle): --jobs 2, the main thread and one worker, took 1.0x to 1.1x the wall
  // time of one thread on 10,000 files and 1.35x to 1.5x on 1,000, with about
  // 1.4x the CPU time (docs/performance.md, "Worker threads"):
  // the worker loads and warms up its own copy of the code, and one thread
  // already keeps more than one CPU busy (garbage collector, compiler). So auto
  // checks on one thread below 3 CPUs, and from 3 up on one thread per CPU, the
  // main thread included, at most 8 (the same workers as before, plus the main
  // thread; not measured here).
  const cpus = availableParallelism();
  return cpus >= 3 ? Math.min(cpus, MAX_DEFAULT_JOBS) : 1;
}

export async function runValidation(
  io: CliIO,
  paths: readonly string[],
  walk: WalkOptions,
  settings: FileJobSettings,
  reporter: Reporter,
  options: RunOptions = {},
): Promise<RunResult> {
  let missing = 0;
  const notes: string[] = [];
  async function* jobs(): AsyncGenerator<InputEntry> {
    for await (const entry of expandInputs(io, paths, walk, (n) => notes.push(n))) {
      if (entry.type === "missing") missing++;
      yield entry;
    }
  }

  const inline = async (job: InputEntry): Promise<FileVerdicts> => {
    switch (job.type) {
      case "file":
        return validateFile(job, settings);
      case "stdin": {
        let input: Input;
        try {
          input = await readInput(io, "-");
        } catch (e) {
          if (!(e instanceof CliError)) throw e;
          missing++;
          return fileError(STDIN_NAME, e.message.replace(`${STDIN_NAME}: `, ""));
        }
        // Empty standard input is most likely a pipeline that failed upstream, not a clean run.
        if (input.bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) {
          missing++;
          return fileError(STDIN_NAME, "no input: standard input is empty");
        }
        return validateBytes(STDIN_NAME, input.bytes, settings);
      }
      case "missing":
        return fileError(job.display, job.message);
    }
  };

  // Look ahead: a small run is done on this thread, as starting workers costs more than it saves.
  const source = jobs();
  const ahead: InputEntry[] = [];
  const threshold = options.workerThreshold ?? DEFAULT_WORKER_THRESHOLD;
  const threads = options.jobs ?? defaultJobs();
  const url = options.workerUrl ?? new URL("./worker.js", import.meta.url);
  const useWorkers = threads > 1 && existsSync(fileURLToPath(url));
  let exhausted = false;
  if (useWorkers) {
    while (ahead.length < threshold) {
      const next = await source.next();
      if (next.done === true) {
        exhausted = true;
        break;
      }
      ahead.push(next.value);
    }
  }
  async function* all(): AsyncGenerator<InputEntry> {
    yield* ahead;
    if (!exhausted) yield* source;
  }
  // --jobs N: the main thread is one of the N lanes, beside N - 1 workers.
  const pooled = useWorkers && !exhausted;
  const executor: Executor<InputEntry, FileVerdicts> = pooled
    ? workerExecutor<InputEntry, FileVerdicts>(url, threads - 1, settings, {
        run: inline,
        toWorker: (job): FileJob | undefined =>
          job.type === "file" ? { path: job.path, display: job.display } : undefined,
      })
    : { run: inline, close: async () => undefined };

  const progress = progressLine(io.stderr);
  let summary = emptySummary();
  const out = outputBuffer(io);
  out.write(reporter.start());
  try {
    // Without workers a few files are still read at once, so reading overlaps checking.
    await runInOrder(all(), executor, { concurrency: pooled ? threads * JOBS_PER_WORKER : 4 }, (result) => {
      summary = addToSummary(summary, result);
      out.write(reporter.file(result));
      progress.update(
        `validating: ${summary.files} files, ${summary.documents} documents, ${summary.invalid} invalid, ${summary.errors} errors`,
      );
    });
  } finally {
    out.flush();
    progress.done();
    await executor.close();
  }
  io.stdout.write(reporter.end(summary));
  for (const n of notes) io.stderr.write(`clusterwire: ${n}\n`);
  return { summary, missing };
}

/** Output gathered before a write this large (UTF-16 units). */
const OUTPUT_CHUNK = 1 << 16;

/**
 * stdout, written in chunks of about 64 KiB rather than once per file, unless
 * it is a terminal (where each file shows as soon as it is checked).
 * Hand-written for speed: stdout to a pipe or file is written synchronously,
 * one system call per write, and the writes of a file at a time took about a
 * twentieth of the main thread of a run over 10,000 files with workers (CPU
 * profile, output piped). The bytes and their order are the same.
 */
function outputBuffer(io: CliIO): { write(text: string): void; flush(): void } {
  if (io.stdout.isTTY === true) return { write: (text) => void io.stdout.write(text), flush: () => undefined };
  let pending = "";
  const flush = (): void => {
    if (pending === "") return;
    io.stdout.write(pending);
    pending = "";
  };
  return {
    write(text) {
      pending += text;
      if (pending.length >= OUTPUT_CHUNK) flush();
    },
    flush,
  };
}
