// The Executor on worker threads, with a small worker written here (plain JavaScript, so no build):
// jobs spread to the least busy worker, at most JOBS_PER_WORKER ahead of each; a worker's error
// reply rejects its job; a worker that dies rejects the jobs it held and takes no more.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JOBS_PER_WORKER, workerExecutor } from "../../../src/cli/validate/worker-executor.js";
import { tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("worker-executor");

/** Answers each job with its input, its thread and workerData; `fail` as an error reply, `exit` and `crash` kill it. */
const WORKER = `
import { parentPort, threadId, workerData } from "node:worker_threads";
parentPort.on("message", ({ id, job }) => {
  if (job.exit !== undefined) process.exit(job.exit);
  if (job.crash !== undefined) throw new Error(job.crash);
  if (job.fail !== undefined) parentPort.postMessage({ id, error: job.fail });
  else parentPort.postMessage({ id, result: { n: job.n, threadId, data: workerData } });
});
`;

interface Job {
  readonly n?: number;
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
