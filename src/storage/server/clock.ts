// Time for the reference server. Everything time-dependent (job progress, clone-token
// lifetimes, upgrade progress, job retention) reads `now()`; waiting (`return_timeout`)
// goes through `sleep()`. A manual clock lets tests move time without sleeping.

/**
 * The time the reference server runs on: job progress, token lifetimes and waits all read it.
 *
 * @example
 * ```ts
 * import { createReferenceServer, type ServerClock } from "clusterwire/storage/server";
 *
 * const fixed: ServerClock = { now: () => Date.parse("2026-01-01T00:00:00Z"), sleep: async () => {} };
 * const server = await createReferenceServer({ clock: fixed });
 * console.log(server.clock.now());
 * await server.close();
 * ```
 */
export interface ServerClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/**
 * The real clock: `Date.now()` and `setTimeout`. The server's default.
 *
 * @example
 * ```ts
 * import { createReferenceServer, systemClock } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ clock: systemClock });
 * console.log(server.clock === systemClock); // true
 * await server.close();
 * ```
 */
export const systemClock: ServerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/**
 * A clock that moves only when told to; its `sleep` advances it instantly.
 *
 * @example
 * ```ts
 * import { createManualClock, createReferenceServer } from "clusterwire/storage/server";
 *
 * const clock = createManualClock();
 * const server = await createReferenceServer({ clock, jobDurationMs: 100 });
 * clock.advance(100); // every job started so far has now ended
 * await server.close();
 * ```
 */
export interface ManualClock extends ServerClock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to `ms` milliseconds since the epoch. */
  set(ms: number): void;
}

/**
 * A {@link ManualClock} starting at `startMs` (default 2026-01-01T00:00:00Z), for tests that move time without
 * waiting.
 *
 * @example
 * ```ts
 * import { createManualClock } from "clusterwire/storage/server";
 *
 * const clock = createManualClock();
 * clock.advance(60_000);
 * console.log(new Date(clock.now()).toISOString()); // "2026-01-01T00:01:00.000Z"
 * ```
 */
export function createManualClock(startMs = Date.parse("2026-01-01T00:00:00.000Z")): ManualClock {
  let t = startMs;
  return {
    now: () => t,
    sleep: async (ms) => {
      t += Math.max(0, ms);
    },
    advance: (ms) => {
      t += Math.max(0, ms);
    },
    set: (ms) => {
      t = ms;
    },
  };
}

/** An ISO 8601 timestamp with offset, without milliseconds (upstream drops them). */
export const isoTime = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
