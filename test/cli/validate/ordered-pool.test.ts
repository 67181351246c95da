import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runInOrder, type Executor } from "../../../src/cli/validate/ordered-pool.js";

/** Lets pending promise callbacks and the pool's loop run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * An executor whose jobs finish when the test says so, counting what the
 * pool started: running now, and started but not yet emitted.
 */
function manualExecutor(): Executor<number, string> & {
  readonly pending: Map<number, { resolve: (v: string) => void; reject: (e: unknown) => void }>;
  readonly started: number[];
  emitted: number;
  maxRunning: number;
  maxUnemitted: number;
} {
  const pending = new Map<number, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  const self = {
    pending,
    started: [] as number[],
    emitted: 0,
    maxRunning: 0,
    maxUnemitted: 0,
    run(input: number): Promise<string> {
      self.started.push(input);
      return new Promise<string>((resolve, reject) => {
        pending.set(input, {
          resolve: (v) => {
            pending.delete(input);
            resolve(v);
          },
          reject: (e) => {
            pending.delete(input);
            reject(e);
          },
        });
        self.maxRunning = Math.max(self.maxRunning, pending.size);
        self.maxUnemitted = Math.max(self.maxUnemitted, self.started.length - self.emitted);
      });
    },
    close: async () => {},
  };
  return self;
}

/** Inputs 0..n-1 from an async generator, counting how many the pool has pulled. */
function counted(n: number): { inputs: AsyncGenerator<number>; pulled: () => number } {
  let pulled = 0;
  async function* gen(): AsyncGenerator<number> {
    for (let i = 0; i < n; i++) {
      pulled++;
      yield i;
    }
  }
  return { inputs: gen(), pulled: () => pulled };
}

/**
 * Runs the pool to its end: each round lets it move, then `step` finishes
 * some of the running jobs (given oldest first). Bounded, so a pool that
 * stalls fails the test instead of hanging it.
 */
async function drive(
  ex: ReturnType<typeof manualExecutor>,
  done: Promise<void>,
  step: (running: number[]) => void,
): Promise<void> {
  let finished = false;
  const watched = done.then(
    () => {
      finished = true;
    },
    () => {
      finished = true;
    },
  );
  for (let round = 0; round < 2000 && !finished; round++) {
    await settle();
    step([...ex.pending.keys()].sort((a, b) => a - b));
  }
  await watched;
}

describe("runInOrder", () => {
  it("emits results in input order when jobs finish in reverse order", async () => {
    const ex = manualExecutor();
    const out: string[] = [];
    const done = runInOrder([0, 1, 2, 3, 4, 5, 6, 7], ex, { concurrency: 3 }, (o, i) => out.push(`${i}:${o}`));
    // Always finish the newest running job first.
    await drive(ex, done, (running) => {
      const newest = running.at(-1);
      if (newest !== undefined) ex.pending.get(newest)?.resolve(`r${newest}`);
    });
    await done;
    expect(out).toEqual(["0:r0", "1:r1", "2:r2", "3:r3", "4:r4", "5:r5", "6:r6", "7:r7"]);
    expect(ex.maxRunning).toBe(3);
  });

  it("over 300 inputs, keeps at most `window` jobs started but not emitted while the first one is slow", async () => {
    const ex = manualExecutor();
    const { inputs, pulled } = counted(300);
    const out: number[] = [];
    let maxPulledAhead = 0;
    const done = runInOrder(inputs, ex, { concurrency: 4, window: 10 }, (_, i) => {
      out.push(i);
      ex.emitted++;
    });
    // Finish every job but the oldest running one, until only that one is left.
    await drive(ex, done, (running) => {
      maxPulledAhead = Math.max(maxPulledAhead, pulled() - out.length);
      for (const k of running.length > 1 ? running.slice(1) : running) ex.pending.get(k)?.resolve("");
    });
    await done;
    expect(out).toEqual(Array.from({ length: 300 }, (_, i) => i));
    // The bound is reached (a slow head lets the window fill) and never passed.
    expect(ex.maxUnemitted).toBe(10);
    expect(maxPulledAhead).toBeLessThanOrEqual(10);
    expect(ex.maxRunning).toBeLessThanOrEqual(4);
  });

  it("the window defaults to four times the concurrency, and is never less than the concurrency", async () => {
    for (const [options, bound] of [
      [{ concurrency: 2 }, 8],
      [{ concurrency: 5, window: 1 }, 5],
    ] as const) {
      const ex = manualExecutor();
      const done = runInOrder(
        Array.from({ length: 40 }, (_, i) => i),
        ex,
        options,
        () => ex.emitted++,
      );
      await drive(ex, done, (running) => {
        for (const k of running.length > 1 ? running.slice(1) : running) ex.pending.get(k)?.resolve("");
      });
      await done;
      expect(ex.maxUnemitted, JSON.stringify(options)).toBe(bound);
    }
  });

  it("a failing job stops the run with its error, after the results before it are emitted", async () => {
    const ex = manualExecutor();
    const out: number[] = [];
    const done = runInOrder(
      Array.from({ length: 10 }, (_, i) => i),
      ex,
      { concurrency: 4 },
      (_, i) => out.push(i),
    );
    const failure = new Error("job 5 failed");
    // Later jobs finish first; job 5 fails.
    await drive(ex, done, (running) => {
      for (const k of running.reverse()) {
        if (k === 5) ex.pending.get(k)?.reject(failure);
        else ex.pending.get(k)?.resolve("");
      }
    });
    await expect(done).rejects.toBe(failure);
    expect(out).toEqual([0, 1, 2, 3, 4]);
  });

  it("takes a plain iterable, and an empty one emits nothing", async () => {
    const run = (x: number) => Promise.resolve(x * 2);
    const out: number[] = [];
    await runInOrder(new Set([3, 1, 2]), { run, close: async () => {} }, { concurrency: 2 }, (o) => out.push(o));
    expect(out).toEqual([6, 2, 4]);
    await runInOrder([], { run, close: async () => {} }, { concurrency: 2 }, () => out.push(-1));
    expect(out).toEqual([6, 2, 4]);
  });

  it("property: input order and the concurrency and window bounds hold whatever order jobs finish in", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.integer(), { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        async (s, inputs, concurrency, window) => {
          let running = 0;
          let started = 0;
          let emitted = 0;
          let maxRunning = 0;
          let maxUnemitted = 0;
          const executor: Executor<number, number> = {
            run: async (x) => {
              running++;
              started++;
              maxRunning = Math.max(maxRunning, running);
              maxUnemitted = Math.max(maxUnemitted, started - emitted);
              const v = await s.schedule(Promise.resolve(x * 2));
              running--;
              return v;
            },
            close: async () => {},
          };
          const out: number[] = [];
          const options = window === undefined ? { concurrency } : { concurrency, window };
          await s.waitFor(
            runInOrder(inputs, executor, options, (o) => {
              out.push(o);
              emitted++;
            }),
          );
          expect(out).toEqual(inputs.map((x) => x * 2));
          expect(maxRunning).toBeLessThanOrEqual(concurrency);
          expect(maxUnemitted).toBeLessThanOrEqual(Math.max(concurrency, window ?? concurrency * 4));
        },
      ),
      { numRuns: 200 },
    );
  });
});
