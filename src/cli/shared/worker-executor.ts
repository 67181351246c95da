import { Worker } from "node:worker_threads";
import type { Executor } from "./ordered-pool.js";

// An Executor backed by worker threads: each job goes to an idle worker.

interface Reply<O> {
  readonly id: number;
  readonly result?: O;
  readonly error?: string;
}

/**
 * Starts `size` workers from `url`, each given `workerData`. A job that
 * throws in a worker rejects with its stack; a worker that dies rejects its
 * job and is not replaced (the run then stops with that error).
 */
export function workerExecutor<I, O>(url: URL, size: number, workerData: unknown): Executor<I, O> {
  const idle: Worker[] = [];
  const queue: { id: number; input: I }[] = [];
  const waiting = new Map<number, { resolve: (o: O) => void; reject: (e: unknown) => void; worker?: Worker }>();
  let nextId = 0;
  let closed = false;
  const workers: Worker[] = [];
  const dispatch = (): void => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop() as Worker;
      const job = queue.shift() as { id: number; input: I };
      const entry = waiting.get(job.id);
      if (entry !== undefined) entry.worker = worker;
      worker.postMessage({ id: job.id, job: job.input });
    }
  };
  for (let i = 0; i < size; i++) {
    const worker = new Worker(url, { workerData });
    worker.on("message", (reply: Reply<O>) => {
      const entry = waiting.get(reply.id);
      waiting.delete(reply.id);
      idle.push(worker);
      if (entry !== undefined) {
        if (reply.error !== undefined) entry.reject(new Error(`worker: ${reply.error}`));
        else entry.resolve(reply.result as O);
      }
      dispatch();
    });
    const fail = (error: unknown): void => {
      for (const [id, entry] of waiting) {
        if (entry.worker === worker) {
          waiting.delete(id);
          entry.reject(error);
        }
      }
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!closed) fail(new Error(`worker thread exited with code ${code}`));
    });
    workers.push(worker);
    idle.push(worker);
  }
  return {
    run(input: I): Promise<O> {
      if (closed) return Promise.reject(new Error("executor closed"));
      const id = nextId++;
      const promise = new Promise<O>((resolve, reject) => waiting.set(id, { resolve, reject }));
      queue.push({ id, input });
      dispatch();
      return promise;
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
