import { Worker } from "node:worker_threads";
import type { Executor } from "./ordered-pool.js";

// An Executor backed by worker threads and, optionally, the main thread as
// one more lane. Each worker is kept a few jobs ahead, so it never waits for
// a round trip to the main thread between two files (measured: about a fifth
// faster per file than one job at a time). With a main lane, a job no worker
// has room for is checked on the main thread, one at a time, each after the
// workers have been topped up, so the main thread's own (synchronous) checks
// do not leave the workers idle.

interface Reply<O> {
  /** Sent once, when the worker has loaded its code; then it has no id. */
  readonly ready?: true;
  readonly id: number;
  readonly result?: O;
  readonly error?: string;
}

/** Jobs sent to one worker before it has answered them. */
export const JOBS_PER_WORKER = 4;

/** The main thread as a lane of a workerExecutor. */
export interface MainLane<I, O> {
  /** Runs one job on the main thread. */
  readonly run: (input: I) => Promise<O>;
  /** What to post to a worker for `input`, or undefined when it can only run on the main thread. */
  readonly toWorker: (input: I) => unknown;
}

interface Slot {
  readonly worker: Worker;
  inFlight: number;
  /** Whether it may be given jobs: with a main lane, only once it says it has loaded. */
  ready: boolean;
}

interface Job<I, O> {
  readonly input: I;
  readonly resolve: (o: O) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * Starts `size` workers from `url`, each given `workerData`. A job that
 * throws in a worker rejects with its stack; a worker that dies rejects the
 * jobs it held (the run then stops with that error). With `main`, jobs no
 * worker has room for run on the main thread instead of waiting.
 */
export function workerExecutor<I, O>(
  url: URL,
  size: number,
  workerData: unknown,
  main?: MainLane<I, O>,
): Executor<I, O> {
  const slots: Slot[] = [];
  // Jobs given to no lane yet, in the order they came.
  const queue: Job<I, O>[] = [];
  const waiting = new Map<number, Job<I, O> & { readonly slot: Slot }>();
  let nextId = 0;
  let closed = false;
  // The main lane: a job running on it, or a turn of it scheduled.
  let mainBusy = false;
  const roomiest = (): Slot | undefined => {
    // The least busy worker that still has room.
    let best: Slot | undefined;
    for (const s of slots)
      if (s.ready && s.inFlight < JOBS_PER_WORKER && (best === undefined || s.inFlight < best.inFlight)) best = s;
    return best;
  };
  const feedWorkers = (): void => {
    for (let i = 0; i < queue.length; ) {
      const slot = roomiest();
      if (slot === undefined) return;
      const job = queue[i] as Job<I, O>;
      const message = main === undefined ? job.input : main.toWorker(job.input);
      if (message === undefined) {
        i++;
        continue;
      }
      queue.splice(i, 1);
      const id = nextId++;
      waiting.set(id, { ...job, slot });
      slot.inFlight++;
      slot.worker.postMessage({ id, job: message });
    }
  };
  // One job on the main thread per turn of the event loop (setImmediate), so
  // the workers' answers are taken, and the workers given new jobs, between two.
  const mainTurn = (): void => {
    if (closed || main === undefined) return;
    feedWorkers();
    const job = queue.shift();
    if (job === undefined) {
      mainBusy = false;
      return;
    }
    main
      .run(job.input)
      .then(job.resolve, job.reject)
      .finally(() => {
        mainBusy = false;
        dispatch();
      });
  };
  const dispatch = (): void => {
    feedWorkers();
    if (main !== undefined && !mainBusy && queue.length > 0) {
      mainBusy = true;
      setImmediate(mainTurn);
    }
  };
  for (let i = 0; i < size; i++) {
    // With a main lane, a worker is given jobs only once it has loaded its code:
    // jobs held by a worker still starting would hold back the output in order
    // while the main thread could have checked them.
    const slot: Slot = { worker: new Worker(url, { workerData }), inFlight: 0, ready: main === undefined };
    slot.worker.on("message", (reply: Reply<O>) => {
      if (reply.ready === true) {
        slot.ready = true;
        dispatch();
        return;
      }
      const entry = waiting.get(reply.id);
      waiting.delete(reply.id);
      slot.inFlight--;
      if (entry !== undefined) {
        if (reply.error !== undefined) entry.reject(new Error(`worker: ${reply.error}`));
        else entry.resolve(reply.result as O);
      }
      dispatch();
    });
    const fail = (error: unknown): void => {
      for (const [id, entry] of waiting) {
        if (entry.slot === slot) {
          waiting.delete(id);
          entry.reject(error);
        }
      }
      // A dead worker takes no more jobs.
      slot.inFlight = Number.POSITIVE_INFINITY;
    };
    slot.worker.on("error", fail);
    slot.worker.on("exit", (code) => {
      if (!closed) fail(new Error(`worker thread exited with code ${code}`));
    });
    slots.push(slot);
  }
  return {
    run(input: I): Promise<O> {
      if (closed) return Promise.reject(new Error("executor closed"));
      const promise = new Promise<O>((resolve, reject) => queue.push({ input, resolve, reject }));
      dispatch();
      return promise;
    },
    async close(): Promise<void> {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("executor closed"));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
