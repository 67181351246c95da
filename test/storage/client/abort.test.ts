// Waiting that an AbortSignal cuts short (src/storage/client/abort.ts): raceAbort settles with the
// promise or the signal's reason, whichever comes first, and lets go of the signal afterwards;
// sleep waits on a timer that an abort clears; systemClientClock is wall time and real timers.
// Timers are Vitest's fake ones, moved by hand: nothing here waits for real time.
import { afterEach, describe, expect, it, vi } from "vitest";
import { raceAbort, sleep, systemClientClock } from "../../../src/storage/client/abort.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** How a promise has settled so far, read after the pending jobs ran. */
async function stateOf(p: Promise<unknown>): Promise<"pending" | { value: unknown } | { error: unknown }> {
  let state: "pending" | { value: unknown } | { error: unknown } = "pending";
  p.then(
    (value) => {
      state = { value };
    },
    (error: unknown) => {
      state = { error };
    },
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return state;
}

describe("raceAbort", () => {
  it("settles as the promise does while the signal stays quiet", async () => {
    const ac = new AbortController();
    await expect(raceAbort(Promise.resolve("answer"), ac.signal)).resolves.toBe("answer");
    const failure = new Error("transport failed");
    await expect(raceAbort(Promise.reject(failure), ac.signal)).rejects.toBe(failure);
  });

  it("rejects with the signal's reason as soon as it aborts, though the promise never settles", async () => {
    const ac = new AbortController();
    const raced = raceAbort(new Promise<never>(() => {}), ac.signal);
    expect(await stateOf(raced)).toBe("pending");
    const reason = new Error("stop now");
    ac.abort(reason);
    expect(await stateOf(raced)).toEqual({ error: reason });
  });

  it("an already aborted signal rejects at once, and the promise's later failure is not left unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => void unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      const late = deferred<string>();
      const reason = new DOMException("aborted before", "AbortError");
      await expect(raceAbort(late.promise, AbortSignal.abort(reason))).rejects.toBe(reason);
      late.reject(new Error("failed after the abort"));
      // Unhandled rejections are reported after the microtask queue drains.
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("the first to come wins: a resolve before the abort keeps its value", async () => {
    const ac = new AbortController();
    const d = deferred<number>();
    const raced = raceAbort(d.promise, ac.signal);
    d.resolve(7);
    await expect(raced).resolves.toBe(7);
    ac.abort(new Error("too late"));
    expect(await stateOf(raced)).toEqual({ value: 7 });
  });

  it("removes its abort listener once the promise settles, so a long-lived signal collects none", async () => {
    const ac = new AbortController();
    const added = vi.spyOn(ac.signal, "addEventListener");
    const removed = vi.spyOn(ac.signal, "removeEventListener");
    for (let i = 0; i < 3; i++) await raceAbort(Promise.resolve(i), ac.signal);
    await raceAbort(Promise.reject(new Error("x")), ac.signal).catch(() => {});
    expect(added).toHaveBeenCalledTimes(4);
    expect(removed).toHaveBeenCalledTimes(4);
    expect(removed.mock.calls.map((c) => c[1])).toEqual(added.mock.calls.map((c) => c[1]));
  });
});

describe("sleep", () => {
  it("resolves once its time has passed, not before", async () => {
    vi.useFakeTimers();
    const slept = sleep(1_000, undefined);
    vi.advanceTimersByTime(999);
    expect(await stateOf(slept)).toBe("pending");
    vi.advanceTimersByTime(1);
    expect(await stateOf(slept)).toEqual({ value: undefined });
  });

  it("rejects with the reason of a signal already aborted, without starting a timer", async () => {
    vi.useFakeTimers();
    const reason = new Error("no wait");
    await expect(sleep(1_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("an abort while sleeping rejects with its reason at once and clears the timer", async () => {
    vi.useFakeTimers();
    const ac = new AbortController();
    const slept = sleep(60_000, ac.signal);
    expect(vi.getTimerCount()).toBe(1);
    const reason = new Error("cancelled");
    ac.abort(reason);
    expect(await stateOf(slept)).toEqual({ error: reason });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a sleep that ends lets go of the signal; a later abort changes nothing", async () => {
    vi.useFakeTimers();
    const ac = new AbortController();
    const removed = vi.spyOn(ac.signal, "removeEventListener");
    const slept = sleep(10, ac.signal);
    vi.advanceTimersByTime(10);
    await expect(slept).resolves.toBeUndefined();
    expect(removed).toHaveBeenCalledTimes(1);
    ac.abort(new Error("after the end"));
    expect(await stateOf(slept)).toEqual({ value: undefined });
  });
});

describe("systemClientClock", () => {
  it("reads wall-clock time and sleeps on real timers", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2026-03-01T12:00:00Z"));
    expect(systemClientClock.now()).toBe(Date.parse("2026-03-01T12:00:00Z"));
    const slept = systemClientClock.sleep(250, undefined);
    vi.advanceTimersByTime(250);
    await expect(slept).resolves.toBeUndefined();
    expect(systemClientClock.now()).toBe(Date.parse("2026-03-01T12:00:00.250Z"));
  });

  it("is frozen: the default of every client cannot be replaced in place", () => {
    expect(Object.isFrozen(systemClientClock)).toBe(true);
    expect(() => {
      (systemClientClock as { now: () => number }).now = () => 0;
    }).toThrow(TypeError);
  });
});
