// Small timing tools of the informer bench: a promise resolved from outside, and a run's wall
// time with the process's CPU time (user + system, every thread: GC helpers included).

/** A promise with its resolve and reject. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A rejection nobody awaits yet is not an unhandled one.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** One timed run. */
export interface Timed {
  readonly ms: number;
  /** CPU time of the whole process meanwhile (user + system), µs. */
  readonly cpuUs: number;
}

/** Times `run`: wall ms and the process's CPU µs. */
export async function timed(run: () => Promise<unknown>): Promise<Timed> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { ms, cpuUs: used.user + used.system };
}
