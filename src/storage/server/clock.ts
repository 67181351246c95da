// Time for the reference server. Everything time-dependent (job progress, clone-token
// lifetimes, upgrade progress, job retention) reads `now()`; waiting (`return_timeout`)
// goes through `sleep()`. A manual clock lets tests move time without sleeping.

export interface ServerClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: ServerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/** A clock that moves only when told to; its `sleep` advances it instantly. */
export interface ManualClock extends ServerClock {
  advance(ms: number): void;
  set(ms: number): void;
}

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
