// The Executor on worker threads, with a small worker written here (plain JavaScript, so no build):
// jobs spread to the least busy worker, at most JOBS_PER_WORKER ahead of each; a worker's error
// reply rejects its job; a worker that dies rejects the jobs it held and takes no more. With the
// main thread as a lane: results in order from both lanes, and a worker's failure stops the run.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runInOrder } from "../../../src/cli/validate/ordered-pool.js";
import { JOBS_PER_WORKER, workerExecutor } from "../../../src/cli/validate/worker-executor.js";
import { tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("worker-executor");

/** Answers each job with its input, its thread and workerData; `fail` as an error reply, `exit` and `crash` kill it. */
const WORKER = `
import { parentPort, threadId, workerData } from "node:worker_threads";
parentPort.postMessage({ ready: true });
parentPort.on("message", ({ id, job }) => {
  if (job.exit !== undefined) process.exit(job.exit);
  if (job.crash !== undefined) throw new Error(job.crash);
  if (job.fail !== undefined) parentPort.postMessage({ id, error: job.fail });
  else parentPort.postMessage({ id, result: { n: job.n, threadId, data: workerData } });
});
`;

interface Job {
  readonly n?: number;
  /** Only the main lane may run it. */
  readonly here?: boolean;
  readonly fail?: string;
  readonly exit?: number;
  readonly crash?: string;
}
interface Out {
  readonly n: number;
  readonly threadId: number;
  readonly data: unknown;
}

const url = pathToFileURL(join(tree({ "worker.mjs": WORKER }), "worker.mjs"));

afterEach(() => {
  vi.restoreAllMocks();
});

/** The result of each promise: its value, or `rejected: MESSAGE`. */
const settle = (ps: Promise<Out>[]) =>
  Promise.all(
    ps.map((p) =>
      p.then(
        (o) => o.n,
        (e: unknown) => `rejected: ${(e as Error).message}`,
      ),
    ),
  );

describe("workerExecutor", () => {
  it("gives each job to the least busy worker, at most JOBS_PER_WORKER ahead, and each result to its job", async () => {
    const posted = vi.spyOn(Worker.prototype, "postMessage");
    const ex = workerExecutor<Job, Out>(url, 2, { tag: "settings" });
    try {
      const jobs = Array.from({ length: 2 * JOBS_PER_WORKER + 3 }, (_, n) => ex.run({ n }));
      // Dispatch is synchronous: both workers are filled before any answer, alternately.
      expect(posted).toHaveBeenCalledTimes(2 * JOBS_PER_WORKER);
      const workers = posted.mock.contexts;
      for (let i = 0; i < 2 * JOBS_PER_WORKER; i++) {
        expect(posted.mock.calls[i]?.[0]).toEqual({ id: i, job: { n: i } });
        expect(workers[i]).toBe(workers[i % 2]);
      }
      expect(workers[0]).not.toBe(workers[1]);
      const out = await Promise.all(jobs);
      expect(out.map((o) => o.n)).toEqual(jobs.map((_, n) => n));
      // The rest went out as answers came back; every worker was given workerData.
      expect(posted).toHaveBeenCalledTimes(jobs.length);
      expect(new Set(out.map((o) => JSON.stringify(o.data)))).toEqual(new Set(['{"tag":"settings"}']));
      const threads = new Set(out.map((o) => o.threadId));
      expect(threads.size).toBe(2);
      expect(out.slice(0, 2 * JOBS_PER_WORKER).filter((o) => o.threadId === out[0]?.threadId)).toHaveLength(
        JOBS_PER_WORKER,
      );
    } finally {
      await ex.close();
    }
  });

  it("rejects a job the worker answers with an error, and goes on", async () => {
    const ex = workerExecutor<Job, Out>(url, 1, null);
    try {
      expect(await settle([ex.run({ n: 1 }), ex.run({ fail: "Error: bad file\n    at x" }), ex.run({ n: 3 })])).toEqual(
        [1, "rejected: worker: Error: bad file\n    at x", 3],
      );
    } finally {
      await ex.close();
    }
  });

  it("a worker that exits rejects the jobs it held, and the others take the later ones", async () => {
    const ex = workerExecutor<Job, Out>(url, 2, null);
    try {
      // exit and 3 go to the first worker, 2 to the second.
      const first = settle([ex.run({ exit: 7 }), ex.run({ n: 2 }), ex.run({ n: 3 })]);
      expect(await first).toEqual([
        "rejected: worker thread exited with code 7",
        2,
        "rejected: worker thread exited with code 7",
      ]);
      const later = await Promise.all(Array.from({ length: 2 * JOBS_PER_WORKER }, (_, n) => ex.run({ n })));
      expect(new Set(later.map((o) => o.threadId)).size).toBe(1);
    } finally {
      await ex.close();
    }
  });

  it("a worker that throws rejects the jobs it held with its error", async () => {
    const ex = workerExecutor<Job, Out>(url, 1, null);
    try {
      expect(await settle([ex.run({ crash: "uncaught in the worker" }), ex.run({ n: 2 })])).toEqual([
        "rejected: uncaught in the worker",
        "rejected: uncaught in the worker",
      ]);
    } finally {
      await ex.close();
    }
  });

  it("takes no job once closed, and closing stops the workers without rejecting anything", async () => {
    const ex = workerExecutor<Job, Out>(url, 2, null);
    expect((await ex.run({ n: 1 })).n).toBe(1);
    await ex.close();
    await expect(ex.run({ n: 2 })).rejects.toThrow("executor closed");
  });
});

/**
 * A workerExecutor of one worker with the main thread as a lane. The main lane
 * answers with data "main", and holds its first job until a worker job has
 * settled, so both lanes are sure to be used whatever the timing.
 */
function mixed(): { ex: ReturnType<typeof workerExecutor<Job, Out>>; main: Job[] } {
  let open: () => void = () => undefined;
  const workerSettled = new Promise<void>((resolve) => (open = resolve));
  const main: Job[] = [];
  const ex = workerExecutor<Job, Out>(url, 1, null, {
    run: async (job) => {
      main.push(job);
      if (main.length === 1) await workerSettled;
      return { n: job.n ?? -1, threadId: -1, data: "main" };
    },
    toWorker: (job) => (job.here === true ? undefined : job),
  });
  const run = ex.run.bind(ex);
  ex.run = (job) => {
    const p = run(job);
    p.then(
      (o) => o.data !== "main" && open(),
      () => open(),
    );
    return p;
  };
  return { ex, main };
}

describe("workerExecutor with the main thread as a lane", () => {
  it("runs jobs on both lanes, the ones no worker may take on the main thread, and runInOrder emits them in order", async () => {
    const { ex, main } = mixed();
    const jobs: Job[] = Array.from({ length: 40 }, (_, n) => (n % 7 === 3 ? { n, here: true } : { n }));
    const emitted: Out[] = [];
    try {
      await runInOrder(jobs, ex, { concurrency: 2 * JOBS_PER_WORKER }, (o) => void emitted.push(o));
    } finally {
      await ex.close();
    }
    expect(emitted.map((o) => o.n)).toEqual(jobs.map((_, n) => n));
    const onMain = emitted.filter((o) => o.data === "main");
    expect(onMain.length).toBeGreaterThan(0);
    expect(onMain.length).toBeLessThan(jobs.length);
    expect(onMain.map((o) => o.n)).toEqual(main.map((j) => j.n));
    for (const j of jobs) if (j.here === true) expect(main).toContainEqual(j);
  });

  it.each([
    [{ fail: "Error: bad file" }, "worker: Error: bad file"],
    [{ exit: 7 }, "worker thread exited with code 7"],
  ] as [Job, string][])("a worker's failure (%o) still stops the run with its error", async (failing, message) => {
    const { ex } = mixed();
    // The main lane holds the first job until the worker has settled one, so the
    // failing job (second) is the worker's.
    const jobs: Job[] = [{ n: 0 }, failing, ...Array.from({ length: 20 }, (_, n) => ({ n: n + 2 }))];
    const emitted: number[] = [];
    try {
      await expect(
        runInOrder(jobs, ex, { concurrency: 2 * JOBS_PER_WORKER }, (o) => void emitted.push(o.n)),
      ).rejects.toThrow(message);
    } finally {
      await ex.close();
    }
    expect(emitted).toEqual([0]);
  });
});
