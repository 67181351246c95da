// The informer's tests are only as good as the fake source they run against: its pages,
// continue tokens, expiries, failures and watches behave as the tests assume.
import { describe, expect, it } from "vitest";
import { IngressSchema, create, type Ingress } from "../../../src/networking/index.js";
import { FakeListWatcher, Gone, NetworkDown, drainSoon, flushTurns, flushUntil, soon } from "./fake-list-watcher.js";

const ingress = (name: string): Ingress => create(IngressSchema, { metadata: { name, resourceVersion: "1" } });

async function drain<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("FakeListWatcher lists", () => {
  it("serves pages of a snapshot taken at the first page, and records each call's options", async () => {
    const fake = new FakeListWatcher<Ingress>();
    fake.items = ["a", "b", "c"].map(ingress);
    fake.resourceVersion = "9";
    const first = await fake.list({ limit: 2 });
    expect(first.items.map((i) => i.metadata?.name)).toEqual(["a", "b"]);
    expect(first).toMatchObject({ resourceVersion: "9", continue: "s1:2", remainingItemCount: 1 });
    fake.items = [];
    fake.resourceVersion = "10";
    const second = await fake.list({ limit: 2, continue: first.continue });
    expect(second.items.map((i) => i.metadata?.name)).toEqual(["c"]);
    expect(second).toEqual({ items: second.items, resourceVersion: "9", continue: "" });
    expect(fake.calls.map((c) => [c.method, c.options])).toEqual([
      ["list", { limit: 2 }],
      ["list", { limit: 2, continue: "s1:2" }],
    ]);
    expect((await fake.list()).items).toEqual([]);
  });

  it("expires continue tokens, fails lists in order, and refuses a token it never gave", async () => {
    const fake = new FakeListWatcher<Ingress>();
    fake.items = ["a", "b"].map(ingress);
    const { continue: token } = await fake.list({ limit: 1 });
    fake.expireContinueTokens = 1;
    const expired = await fake.list({ limit: 1, continue: token }).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(Gone);
    expect((expired as Gone).status).toBe(410);
    expect((await fake.list({ limit: 1, continue: token })).items).toHaveLength(1);
    fake.listErrors.push(new NetworkDown("one"), new NetworkDown("two"));
    await expect(fake.list()).rejects.toThrow("one");
    await expect(fake.list()).rejects.toThrow("two");
    await expect(fake.list({ continue: "s99:1" })).rejects.toThrow(/unknown continue token/);
  });

  it("holds lists until their signal aborts", async () => {
    const fake = new FakeListWatcher<Ingress>();
    fake.holdLists = true;
    const abort = new AbortController();
    const pending = fake.list({ signal: abort.signal });
    await flushTurns(50);
    expect(fake.held[0]?.aborted).toBe(false);
    abort.abort();
    await expect(pending).rejects.toThrow("aborted");
    expect(fake.held[0]?.aborted).toBe(true);
  });
});

describe("FakeListWatcher watches", () => {
  it("delivers pushed events in order and ends when told", async () => {
    const fake = new FakeListWatcher<Ingress>();
    const w = fake.watch({ resourceVersion: "5" });
    const watch = fake.watches[0]!;
    expect(watch.options).toEqual({ resourceVersion: "5" });
    const a = ingress("a");
    watch.push({ type: "ADDED", object: a });
    watch.push({ type: "DELETED", object: a });
    watch.end();
    expect(await drain(w)).toEqual([
      { type: "ADDED", object: a },
      { type: "DELETED", object: a },
    ]);
    expect(watch.done).toBe(true);
    expect(watch.returned).toBe(false);
  });

  it("says when the reader waits, fails when told, and fails the first next() of a watch given an error", async () => {
    const fake = new FakeListWatcher<Ingress>();
    fake.watchErrors.push(new NetworkDown("refused"));
    await expect(drain(fake.watch())).rejects.toThrow("refused");
    const w = fake.watch();
    const watch = fake.watches[1]!;
    const reading = drain(w);
    await flushUntil(() => watch.waiting, "the reader waits");
    watch.fail(new Gone("watch"));
    await expect(reading).rejects.toBeInstanceOf(Gone);
    expect(watch.waiting).toBe(false);
  });

  it("ends quietly when its signal aborts, and records a reader that breaks out", async () => {
    const fake = new FakeListWatcher<Ingress>();
    const abort = new AbortController();
    const reading = drain(fake.watch({ signal: abort.signal }));
    await flushUntil(() => fake.watches[0]!.waiting, "the reader waits");
    abort.abort();
    expect(await reading).toEqual([]);
    expect(fake.watches[0]?.aborted).toBe(true);

    const w = fake.watch();
    fake.watches[1]!.push({ type: "ADDED", object: ingress("x") });
    for await (const _ of w) break;
    expect(fake.watches[1]?.returned).toBe(true);
  });
});

describe("flushUntil", () => {
  it("returns once the condition holds, and throws naming what never happened", async () => {
    let flag = false;
    void Promise.resolve().then(() => {
      flag = true;
    });
    await flushUntil(() => flag, "the flag");
    await expect(flushUntil(() => false, "the impossible", 10)).rejects.toThrow(
      "never happened (after 10 microtask turns): the impossible",
    );
  });
});

describe("soon and drainSoon", () => {
  it("give a promise's value or rejection, and fail at once on one that never settles", async () => {
    expect(await soon(Promise.resolve(7), "seven")).toBe(7);
    const error = new Error("no");
    await expect(soon(Promise.reject(error), "a rejection")).rejects.toBe(error);
    await expect(soon(new Promise(() => {}), "forever", 10)).rejects.toThrow(
      "never happened (after 10 microtask turns): forever",
    );
  });

  it("read an iterator to its end, and fail on one that stalls", async () => {
    async function* two() {
      yield 1;
      yield 2;
    }
    expect(await drainSoon(two(), "two")).toEqual([1, 2]);
    const stalled: AsyncIterator<number> = { next: () => new Promise(() => {}) };
    await expect(drainSoon(stalled, "stalled")).rejects.toThrow("stalled: item 1 or the end");
  });
});
