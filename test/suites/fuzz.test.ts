// A bounded slice of the fuzz campaign (npm run fuzz), run in-process with a
// fixed seed: every strategy's inputs must decode or raise a located
// DecodeError. Plus checks that the oracle itself catches what it must.

import { describe, expect, it } from "vitest";
import { DecodeError } from "../../src/networking/index.js";
import {
  FailureSink,
  Stats,
  inputAt,
  inputFor,
  makePlan,
  runOne,
  runRange,
  strategyAt,
  type Limits,
} from "../../bench/fuzz/campaign.js";
import { loadCorpus } from "../../bench/fuzz/corpus.js";
import { STRATEGIES, strategyKey, type Strategy } from "../../bench/fuzz/strategies.js";
import { classify, locationProblem, type FuzzInput } from "../../bench/fuzz/targets.js";

const SEED = 20251124;
const LIMITS: Limits = { timeLimitMs: 5000, maxInputMb: 128 };
const corpus = loadCorpus();

/** Inputs per strategy: by cost, so the whole slice stays within ~15 s on a loaded 2-core machine. */
function budget(s: Strategy): number {
  if (s.name === "large-event") return 4;
  if (s.target === "yaml") return s.name === "deep-nesting" ? 15 : 60;
  if (s.name === "deep-nesting") return 80;
  if (s.target === "watch-stream" || s.target === "json-watch-stream") return 150;
  if (s.target === "decode" || s.target === "watch-event") return 600;
  return 250;
}

describe(`fuzz slice, seed ${SEED}: only results or located DecodeErrors`, () => {
  for (const s of STRATEGIES) {
    const n = budget(s);
    it(`${strategyKey(s)} (${n} inputs)`, async () => {
      const plan = makePlan(SEED, [s]);
      const stats = new Stats();
      const failures = new FailureSink(3);
      for (let i = 0; i < n; i++) {
        const f = await runOne(plan, s, inputFor(s, corpus, SEED, i), i, stats, LIMITS);
        if (f !== undefined) failures.add(f);
      }
      expect(failures.kept.map((f) => `${f.kind} at input ${f.index}: ${f.detail}`)).toEqual([]);
      const row = stats.row(s);
      expect(row.counts.inputs).toBe(n);
      expect(row.counts.ok + row.counts.decodeError).toBe(n);
    });
  }

  it("the mixed schedule, as workers run it: 3,000 inputs", async () => {
    const stats = new Stats();
    const failures = new FailureSink(3);
    const seen: number[] = [];
    await runRange(makePlan(SEED), corpus, 1000, 4000, stats, LIMITS, failures, (i) => seen.push(i));
    expect(failures.kept.map((f) => `${f.kind} at input ${f.index} (${f.strategy}/${f.target}): ${f.detail}`)).toEqual(
      [],
    );
    expect(stats.total("inputs")).toBe(3000);
    expect(seen).toEqual(Array.from({ length: 3000 }, (_, k) => 1000 + k));
  });
});

describe("the campaign schedule", () => {
  it("draws strategies in proportion to their weights", () => {
    const plan = makePlan(SEED);
    const n = 200_000;
    const counts = new Map<Strategy, number>();
    for (let i = 0; i < n; i++) {
      const { strategy } = strategyAt(plan, i);
      counts.set(strategy, (counts.get(strategy) ?? 0) + 1);
    }
    const total = STRATEGIES.reduce((t, s) => t + s.weight, 0);
    for (const s of STRATEGIES) {
      const expected = (n * s.weight) / total;
      const got = counts.get(s) ?? 0;
      // Five standard deviations of a binomial count, so the test is not flaky.
      expect(Math.abs(got - expected), strategyKey(s)).toBeLessThanOrEqual(5 * Math.sqrt(expected) + 1);
    }
    // Protobuf decoding gets the largest share.
    const pb = STRATEGIES.filter((s) => s.target === "decode").reduce((t, s) => t + s.weight, 0);
    expect(pb / total).toBeGreaterThan(0.5);
  });

  it("input i is the same whatever ran before it, and differs between indexes and seeds", () => {
    const plan = makePlan(SEED);
    const key = (x: { strategy: Strategy; input: FuzzInput }): string =>
      `${strategyKey(x.strategy)} ${JSON.stringify(x.input.options)} ${serialise(x.input.data)}`;
    const forward = Array.from({ length: 40 }, (_, i) => key(inputAt(plan, corpus, i)));
    const backward = Array.from({ length: 40 }, (_, k) => key(inputAt(plan, corpus, 39 - k))).reverse();
    expect(backward).toEqual(forward);
    expect(new Set(forward).size).toBeGreaterThan(35);
    const other = Array.from({ length: 40 }, (_, i) => key(inputAt(makePlan(SEED + 1), corpus, i)));
    expect(other.filter((k, i) => k === forward[i]).length).toBeLessThan(5);
  });
});

describe("the oracle", () => {
  const fake: Strategy = {
    name: "fake",
    target: "decode",
    weight: 1,
    generate: () => ({ data: new Uint8Array(0), options: {} }),
  };
  const input: FuzzInput = { data: new Uint8Array(0), options: {} };
  const plan = makePlan(1, [fake]);

  it("a non-DecodeError exception is a crash", async () => {
    const stats = new Stats();
    const f = await runOne(plan, fake, input, 0, stats, LIMITS, () =>
      classify(new TypeError("x is undefined"), "decode", 0),
    );
    expect(f?.kind).toBe("crash");
    expect(f?.detail).toContain("TypeError: x is undefined");
    expect(stats.row(fake).counts.crash).toBe(1);
    expect(stats.failures()).toBe(1);
  });

  it("a crash found with stack traces off (as in workers) is reported with its stack", async () => {
    const saved = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const thrower = (): never => {
        throw new RangeError("boom");
      };
      const f = await runOne(plan, fake, input, 0, new Stats(), LIMITS, () => {
        try {
          return thrower();
        } catch (e) {
          return classify(e, "decode", 0);
        }
      });
      expect(f?.kind).toBe("crash");
      expect(f?.stack).toMatch(/thrower/);
      expect(Error.stackTraceLimit).toBe(0);
    } finally {
      Error.stackTraceLimit = saved;
    }
  });

  it("an input over the time limit, twice, is a hang; once is not", async () => {
    const stats = new Stats();
    // A manual clock: a "slow" run moves it by 30 ms, so the verdict does not depend on the machine.
    let clock = 0;
    const now = (): number => clock;
    const slow = (): { verdict: "ok" } => {
      clock += 30;
      return { verdict: "ok" };
    };
    const limits = { timeLimitMs: 10, maxInputMb: 128 };
    const f = await runOne(plan, fake, input, 0, stats, limits, slow, now);
    expect(f?.kind).toBe("hang");
    expect(f?.detail).toBe("took 30 ms (limit 10 ms), twice");
    let calls = 0;
    const slowOnce = (): { verdict: "ok" } => (calls++ === 0 ? slow() : { verdict: "ok" });
    expect(await runOne(plan, fake, input, 1, stats, limits, slowOnce, now)).toBeUndefined();
    expect(calls).toBe(2);
    expect(stats.row(fake).counts).toMatchObject({ inputs: 2, hang: 1, ok: 1 });
  });

  it("an input that makes memory grow past the bound is a memory failure", async () => {
    const stats = new Stats();
    const kept: Uint8Array[] = [];
    const hog = (): { verdict: "ok" } => {
      kept.push(new Uint8Array(40 << 20).fill(1));
      return { verdict: "ok" };
    };
    const f = await runOne(plan, fake, input, 0, stats, { timeLimitMs: 5000, maxInputMb: 16 }, hog);
    expect(f?.kind).toBe("memory");
    expect(kept.length).toBe(1);
  });

  it("a DecodeError must say where, in range, in the decoder's format", () => {
    const pb = (where: object): DecodeError => new DecodeError("protobuf", "bad", where);
    expect(classify(pb({ offset: 3 }), "decode", 10).verdict).toBe("decode-error");
    expect(classify(pb({ offset: 10 }), "watch-stream", 10).verdict).toBe("decode-error");
    expect(classify(pb({}), "decode", 10).verdict).toBe("bad-error");
    expect(classify(pb({ offset: 11 }), "decode", 10).verdict).toBe("bad-error");
    expect(classify(pb({ offset: -1 }), "decode", 10).verdict).toBe("bad-error");
    expect(classify(pb({ offset: 3 }), "json", 10).verdict).toBe("bad-error");
    expect(classify(new DecodeError("json", "bad", { line: 2, column: 4 }), "json", 10).verdict).toBe("decode-error");
    expect(classify(new DecodeError("json", "bad", { path: "spec" }), "json", 10).verdict).toBe("bad-error");
    expect(classify(new DecodeError("yaml", "bad", { line: 0, column: 1 }), "yaml", 10).verdict).toBe("bad-error");
    expect(
      locationProblem(new DecodeError("yaml", "bad", { document: 1, line: 1, column: 1, offset: 0 }), "yaml", 0),
    ).toBeUndefined();
    expect(classify("a string", "yaml", 0).verdict).toBe("crash");
  });
});

function serialise(d: FuzzInput["data"]): string {
  if (typeof d === "string") return JSON.stringify(d);
  if (d instanceof Uint8Array) return Buffer.from(d).toString("hex");
  return d.map(serialise).join("|");
}
