// Waiting that an AbortSignal can cut short: a promise raced against the signal, a sleep, and
// the clock job polling reads (replaceable, so tests can step time instead of sleeping).

/**
 * The time source of job polling: `now()` for the total timeout, `sleep()` between polls.
 *
 * @example
 * ```ts
 * import { StorageClient, type StorageClientClock } from "clusterwire/storage";
 *
 * // A clock for tests: sleeping moves time on at once, so job polling never waits.
 * let now = 0;
 * const clock: StorageClientClock = { now: () => now, sleep: async (ms) => void (now += ms) };
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", clock });
 * ```
 */
export interface StorageClientClock {
  /** Milliseconds; only differences are used. */
  now(): number;
  /** Waits `ms` milliseconds of this clock's time; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/** `p`, or the signal's reason as soon as it aborts: a transport that ignores the signal cannot hang a call. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => {});
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Wall-clock time and real timers: the default.
 *
 * @example
 * ```ts
 * import { StorageClient, systemClientClock } from "clusterwire/storage";
 *
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", clock: systemClientClock });
 * ```
 */
export const systemClientClock: StorageClientClock = Object.freeze({ now: () => Date.now(), sleep });
