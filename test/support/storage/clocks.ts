// Clocks for storage tests that must not race the machine: a stepped clock for the client's job
// polling (every sleep returns at once and moves time by exactly what was asked), and a gated
// clock for the reference server (a `return_timeout` wait lasts until the test releases it).
import type { StorageClientClock } from "../../../src/storage/index.js";
import type { ServerClock } from "../../../src/storage/server/index.js";

export interface SteppedClientClock extends StorageClientClock {
  /** Every sleep asked for, in order (ms). */
  readonly sleeps: number[];
  /** Time moved so far (ms). */
  elapsed(): number;
}

/**
 * A client clock whose `sleep` records the wait, moves time by it and returns at once. `onSleep`
 * runs inside each sleep (e.g. to abort a signal at the n-th one); an aborted signal rejects.
 */
export function steppedClientClock(onSleep?: (ms: number, index: number) => void): SteppedClientClock {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    elapsed: () => t,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      t += ms;
      onSleep?.(ms, sleeps.length - 1);
      signal?.throwIfAborted();
    },
  };
}

export interface GatedServerClock extends ServerClock {
  /** Resolves with the length of the first `sleep` the server starts. */
  readonly slept: Promise<number>;
  /** Ends every pending sleep, moving time by its length. */
  release(): void;
}

/** A server clock that moves only through `sleep`, and whose sleeps last until `release()`. */
export function gatedServerClock(startMs = Date.parse("2026-01-01T00:00:00.000Z")): GatedServerClock {
  let t = startMs;
  let first: ((ms: number) => void) | undefined;
  const slept = new Promise<number>((resolve) => (first = resolve));
  const pending: (() => void)[] = [];
  return {
    slept,
    now: () => t,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        first?.(ms);
        first = undefined;
        pending.push(() => {
          t += Math.max(0, ms);
          resolve();
        });
      }),
    release() {
      for (const done of pending.splice(0)) done();
    },
  };
}
