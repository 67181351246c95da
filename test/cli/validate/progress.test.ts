import { describe, expect, it } from "vitest";
import { progressLine } from "../../../src/cli/validate/progress.js";
import { memorySink } from "../../support/cli/validate.js";

/** A clock the test moves by hand. */
function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 5_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const ERASE = "\r\x1b[K";

/** A progress line on a terminal (or not), with a clock the test moves. */
function setup(isTTY = true) {
  const sink = memorySink(isTTY);
  const clock = fakeClock();
  return { sink, clock, p: progressLine(sink, clock.now) };
}

describe("progressLine", () => {
  it("on a terminal: nothing in the first second, then redrawn at most every 100 ms, erased at the end", () => {
    const { sink, clock, p } = setup();
    p.update("a");
    clock.advance(999);
    p.update("b");
    expect(sink.writes).toEqual([]);
    clock.advance(1);
    p.update("c");
    clock.advance(50);
    p.update("d");
    clock.advance(49);
    p.update("e");
    clock.advance(1);
    p.update("f");
    expect(sink.writes).toEqual([`${ERASE}c`, `${ERASE}f`]);
    p.done();
    expect(sink.writes.at(-1)).toBe(ERASE);
    expect(sink.writes).toHaveLength(3);
  });

  it("keeps the line to 100 characters so it does not wrap", () => {
    const { sink, clock, p } = setup();
    clock.advance(2_000);
    p.update("x".repeat(150));
    expect(sink.writes).toEqual([`${ERASE}${"x".repeat(100)}`]);
  });

  it("a run shorter than a second writes nothing, not even the erase", () => {
    const { sink, clock, p } = setup();
    p.update("a");
    clock.advance(500);
    p.update("b");
    p.done();
    expect(sink.writes).toEqual([]);
  });

  it("not a terminal: nothing at all", () => {
    const { sink, clock, p } = setup(false);
    clock.advance(10_000);
    p.update("a");
    p.done();
    expect(sink.writes).toEqual([]);
  });
});
