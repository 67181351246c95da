// The reference server's time (src/storage/server/clock.ts): the system clock, a manual clock
// that moves only when told (its sleep moves it at once), and the API's timestamps, which drop
// milliseconds. Wall time is Vitest's fake timers here: nothing waits for real time.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createManualClock, isoTime, systemClock } from "../../../src/storage/server/clock.js";

afterEach(() => {
  vi.useRealTimers();
});

const START = Date.parse("2026-01-01T00:00:00.000Z");

describe("systemClock", () => {
  it("reads wall time", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2026-05-04T03:02:01.500Z"));
    expect(systemClock.now()).toBe(Date.parse("2026-05-04T03:02:01.500Z"));
  });

  it("sleeps on a real timer, a negative wait as none", async () => {
    vi.useFakeTimers();
    let woke = false;
    const slept = systemClock.sleep(1_000).then(() => {
      woke = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(woke).toBe(true);
    const negative = systemClock.sleep(-50);
    await vi.advanceTimersByTimeAsync(0);
    await expect(negative).resolves.toBeUndefined();
  });
});

describe("createManualClock", () => {
  it("starts at 2026-01-01T00:00:00Z unless told, and stands still", () => {
    const clock = createManualClock();
    expect(clock.now()).toBe(START);
    expect(clock.now()).toBe(START);
    expect(createManualClock(42).now()).toBe(42);
  });

  it("advance moves it forward; a negative step is ignored", () => {
    const clock = createManualClock();
    clock.advance(60_000);
    expect(new Date(clock.now()).toISOString()).toBe("2026-01-01T00:01:00.000Z");
    clock.advance(-5_000);
    expect(clock.now()).toBe(START + 60_000);
  });

  it("set puts it anywhere, backwards too", () => {
    const clock = createManualClock();
    clock.set(Date.parse("2025-12-31T23:59:59Z"));
    expect(clock.now()).toBe(Date.parse("2025-12-31T23:59:59Z"));
  });

  it("sleep moves it by the wait at once, without a timer; a negative wait is none", async () => {
    vi.useFakeTimers();
    const clock = createManualClock();
    await clock.sleep(15_000);
    expect(clock.now()).toBe(START + 15_000);
    expect(vi.getTimerCount()).toBe(0);
    await clock.sleep(-1);
    expect(clock.now()).toBe(START + 15_000);
  });

  it("each clock keeps its own time", () => {
    const a = createManualClock();
    const b = createManualClock();
    a.advance(1);
    expect([a.now() - START, b.now() - START]).toEqual([1, 0]);
  });
});

describe("isoTime", () => {
  it("writes UTC without milliseconds, as the API does", () => {
    expect(isoTime(START)).toBe("2026-01-01T00:00:00Z");
    expect(isoTime(START + 61_000)).toBe("2026-01-01T00:01:01Z");
  });

  it("drops the milliseconds rather than rounding them", () => {
    expect(isoTime(START + 999)).toBe("2026-01-01T00:00:00Z");
    expect(isoTime(START - 1)).toBe("2025-12-31T23:59:59Z");
    expect(isoTime(-1)).toBe("1969-12-31T23:59:59Z");
  });
});
