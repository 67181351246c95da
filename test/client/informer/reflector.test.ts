// The list-then-watch loop against the in-memory ListWatcher: pages and continue tokens, the
// watch's options, reopening from the last resourceVersion, relisting on 410 and on the resync,
// the backoff, and the stop. The clock is vitest's fake one: waits are stepped, never slept.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Reflector, errorText, isExpired, type ReflectorOptions } from "../../../src/client/informer/reflector.js";
import type { ClientWatchEvent } from "../../../src/client/types.js";
import { IngressSchema, create, type Ingress } from "../../../src/networking/index.js";
import {
  FakeListWatcher,
  Gone,
  NetworkDown,
  errorStatus,
  flushTurns,
  flushUntil,
  soon,
} from "../../support/client/fake-list-watcher.js";

function ingress(namespace: string, name: string, resourceVersion: string): Ingress {
  return create(IngressSchema, { metadata: { namespace, name, resourceVersion } });
}

function bookmark(resourceVersion: string): Ingress {
  return create(IngressSchema, { metadata: { resourceVersion } });
}

type Logged = { level: "info" | "warn"; message: string; fields: Record<string, string | number> | undefined };

/** A reflector over a fresh fake, its sink's record, its log and its stop. */
function setup(options: Partial<Omit<ReflectorOptions, "signal" | "log">> = {}) {
  const fake = new FakeListWatcher<Ingress>();
  const abort = new AbortController();
  const logs: Logged[] = [];
  const replaced: { items: Ingress[]; resourceVersion: string }[] = [];
  const applied: { type: string; object: Ingress }[] = [];
  const reflector = new Reflector<Ingress>(
    fake,
    {
      pageSize: 500,
      resyncMs: 0,
      watchSeconds: 300,
      minBackoffMs: 100,
      maxBackoffMs: 800,
      ...options,
      signal: abort.signal,
      log: (level, message, fields) => logs.push({ level, message, fields }),
    },
    {
      replace: (items, resourceVersion) => replaced.push({ items, resourceVersion }),
      apply: (type, object) => applied.push({ type, object }),
    },
  );
  let done: Promise<void> | undefined;
  return {
    fake,
    abort,
    logs,
    replaced,
    applied,
    reflector,
    run(): Promise<void> {
      done = reflector.run();
      return done;
    },
    async stop(): Promise<void> {
      abort.abort();
      await soon(done ?? Promise.resolve(), "the reflector stopped");
    },
    /** Resolves once watch number `n` (0-based) exists and waits for an event. */
    watchOpen(n: number): Promise<void> {
      return flushUntil(() => fake.watches[n]?.waiting === true, `watch ${n} open and waiting`);
    },
  };
}

let current: ReturnType<typeof setup> | undefined;
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(async () => {
  await current?.stop();
  current = undefined;
  vi.useRealTimers();
});

/**
 * A watch that ignores its signal: each next() waits until the test answers it with `deliver`;
 * `returned` counts the return() calls.
 */
function deafWatch() {
  const pending: ((result: IteratorResult<ClientWatchEvent<Ingress>>) => void)[] = [];
  const w = {
    pending,
    returned: 0,
    deliver(event: ClientWatchEvent<Ingress>): void {
      pending.shift()?.({ done: false, value: event });
    },
    iterable: {
      [Symbol.asyncIterator]: (): AsyncIterator<ClientWatchEvent<Ingress>> => ({
        next: () => new Promise((resolve) => pending.push(resolve)),
        return: () => {
          w.returned++;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    },
  };
  return w;
}

function start(options: Partial<Omit<ReflectorOptions, "signal" | "log">> = {}) {
  current = setup(options);
  return current;
}

describe("listing", () => {
  it("lists in pages of pageSize, following continue tokens, with the namespace and selectors", async () => {
    const t = start({ pageSize: 2, namespace: "web", labelSelector: "app=shop", fieldSelector: "metadata.name!=x" });
    t.fake.items = ["a", "b", "c", "d", "e"].map((n, i) => ingress("web", n, String(10 + i)));
    t.fake.resourceVersion = "20";
    void t.run();
    await t.watchOpen(0);
    const lists = t.fake.lists;
    expect(lists).toHaveLength(3);
    for (const options of lists) {
      expect(options).toMatchObject({ namespace: "web", labelSelector: "app=shop", fieldSelector: "metadata.name!=x" });
      expect(options?.limit).toBe(2);
      expect(options?.signal).toBeInstanceOf(AbortSignal);
    }
    expect(lists[0]).not.toHaveProperty("continue");
    expect(lists[1]?.continue).toBe("s1:2");
    expect(lists[2]?.continue).toBe("s1:4");
    expect(t.replaced).toHaveLength(1);
    expect(t.replaced[0]?.items.map((i) => i.metadata?.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(t.replaced[0]?.resourceVersion).toBe("20");
    expect(t.reflector.resourceVersion).toBe("20");
  });

  it("leaves out the namespace and selectors it was not given", async () => {
    const t = start();
    void t.run();
    await t.watchOpen(0);
    const listed = t.fake.lists[0] ?? {};
    const watched = t.fake.watches[0]?.options ?? {};
    for (const key of ["namespace", "labelSelector", "fieldSelector", "continue", "resourceVersion"])
      expect(listed).not.toHaveProperty(key);
    for (const key of ["namespace", "labelSelector", "fieldSelector"]) expect(watched).not.toHaveProperty(key);
  });

  it("starts the list over when a continue token expired (410), without waiting", async () => {
    const t = start({ pageSize: 2 });
    t.fake.items = ["a", "b", "c", "d", "e"].map((n) => ingress("", n, "5"));
    t.fake.expireContinueTokens = 1;
    void t.run();
    await t.watchOpen(0);
    expect(t.fake.lists.map((o) => o?.continue ?? "")).toEqual(["", "s1:2", "", "s2:2", "s2:4"]);
    expect(t.replaced).toHaveLength(1);
    expect(t.replaced[0]?.items.map((i) => i.metadata?.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(t.logs.some((l) => l.level === "info" && /continue token expired/.test(l.message))).toBe(true);
  });

  it("takes a second expiry in the same list as a failure: the backoff, then the list from the start", async () => {
    const t = start({ pageSize: 2 });
    t.fake.items = ["a", "b", "c"].map((n) => ingress("", n, "5"));
    t.fake.expireContinueTokens = 2;
    void t.run();
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the failure logged");
    expect(t.fake.lists.map((o) => o?.continue ?? "")).toEqual(["", "s1:2", "", "s2:2"]);
    expect(t.logs.find((l) => l.level === "warn")?.fields).toMatchObject({
      retryInMs: 100,
      error: "Gone: list with a continue token: HTTP 410 Expired",
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(t.fake.lists).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    await t.watchOpen(0);
    expect(t.fake.lists.map((o) => o?.continue ?? "")).toEqual(["", "s1:2", "", "s2:2", "", "s3:2"]);
    expect(t.replaced).toHaveLength(1);
  });

  it("takes a 410 on the first page (no continue token) as a failure, not a restart", async () => {
    const t = start();
    t.fake.listErrors.push(new Gone("list"));
    void t.run();
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the failure logged");
    await flushTurns();
    expect(t.fake.lists).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    await t.watchOpen(0);
    expect(t.fake.lists).toHaveLength(2);
  });

  it("takes a list that returns no ListPage as a failure", async () => {
    const t = start();
    const list = vi.spyOn(t.fake, "list").mockResolvedValueOnce({} as never);
    void t.run();
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the failure logged");
    expect(t.logs.find((l) => l.level === "warn")?.fields?.["error"]).toMatch(/not a ListPage/);
    list.mockRestore();
    await vi.advanceTimersByTimeAsync(100);
    await t.watchOpen(0);
  });
});

describe("watching", () => {
  it("watches from the list's resourceVersion with bookmarks, timeoutSeconds and a signal", async () => {
    const t = start({ watchSeconds: 42, namespace: "web", labelSelector: "a=b", fieldSelector: "c=d" });
    t.fake.resourceVersion = "777";
    void t.run();
    await t.watchOpen(0);
    const options = t.fake.watches[0]?.options;
    expect(options).toMatchObject({
      namespace: "web",
      labelSelector: "a=b",
      fieldSelector: "c=d",
      resourceVersion: "777",
      allowWatchBookmarks: true,
      timeoutSeconds: 42,
    });
    expect(options?.signal?.aborted).toBe(false);
  });

  it("hands ADDED, MODIFIED and DELETED to the sink, and moves the resourceVersion on with each event and bookmark", async () => {
    const t = start();
    void t.run();
    await t.watchOpen(0);
    const w = t.fake.watches[0]!;
    const a = ingress("web", "a", "11");
    w.push({ type: "ADDED", object: a });
    await t.watchOpen(0);
    expect(t.reflector.resourceVersion).toBe("11");
    w.push({ type: "MODIFIED", object: ingress("web", "a", "12") });
    w.push({ type: "BOOKMARK", object: bookmark("15") });
    await t.watchOpen(0);
    expect(t.reflector.resourceVersion).toBe("15");
    w.push({ type: "DELETED", object: ingress("web", "a", "16") });
    await t.watchOpen(0);
    expect(t.applied.map((e) => `${e.type} ${e.object.metadata?.resourceVersion}`)).toEqual([
      "ADDED 11",
      "MODIFIED 12",
      "DELETED 16",
    ]);
    expect(t.applied[0]?.object).toBe(a);
    expect(t.reflector.resourceVersion).toBe("16");
  });

  it("reopens a watch that ended after events at once, from the last resourceVersion (a bookmark's), without listing", async () => {
    const t = start();
    void t.run();
    await t.watchOpen(0);
    const w = t.fake.watches[0]!;
    w.push({ type: "ADDED", object: ingress("web", "a", "11") });
    w.push({ type: "BOOKMARK", object: bookmark("19") });
    w.end();
    await t.watchOpen(1);
    expect(t.fake.watches[1]?.options?.resourceVersion).toBe("19");
    expect(t.fake.lists).toHaveLength(1);
    expect(t.replaced).toHaveLength(1);
  });

  it("reopens a watch that ended without events after the backoff, doubling it while they stay empty", async () => {
    const t = start();
    t.fake.resourceVersion = "3";
    void t.run();
    await t.watchOpen(0);
    t.fake.watches[0]!.end();
    await flushTurns();
    expect(t.fake.watches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(t.fake.watches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await t.watchOpen(1);
    t.fake.watches[1]!.end();
    await vi.advanceTimersByTimeAsync(199);
    expect(t.fake.watches).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await t.watchOpen(2);
    expect(t.fake.watches.map((w) => w.options?.resourceVersion)).toEqual(["3", "3", "3"]);
    expect(t.fake.lists).toHaveLength(1);
    expect(t.logs.filter((l) => /ended without events/.test(l.message)).map((l) => l.level)).toEqual(["info", "info"]);
  });

  it("lists again at once on an HTTP 410 from the watch, then watches from the new list's resourceVersion", async () => {
    const t = start();
    t.fake.resourceVersion = "10";
    void t.run();
    await t.watchOpen(0);
    t.fake.items = [ingress("web", "b", "30")];
    t.fake.resourceVersion = "30";
    t.fake.watches[0]!.fail(new Gone("watch"));
    await t.watchOpen(1);
    expect(t.fake.lists).toHaveLength(2);
    expect(t.replaced.map((r) => r.resourceVersion)).toEqual(["10", "30"]);
    expect(t.fake.watches[1]?.options?.resourceVersion).toBe("30");
    expect(t.logs.some((l) => /expired \(HTTP 410\)/.test(l.message))).toBe(true);
  });

  it("lists again when watch() itself throws a 410", async () => {
    const t = start();
    void t.run();
    await t.watchOpen(0);
    const watch = vi.spyOn(t.fake, "watch").mockImplementationOnce(() => {
      throw new Gone("watch");
    });
    t.fake.watches[0]!.end();
    await vi.advanceTimersByTimeAsync(100);
    await t.watchOpen(1);
    expect(watch).toHaveBeenCalledTimes(2);
    expect(t.fake.lists).toHaveLength(2);
    watch.mockRestore();
  });

  it("lists again at once on an ERROR event with code 410, closing the stream", async () => {
    const t = start();
    void t.run();
    await t.watchOpen(0);
    const w = t.fake.watches[0]!;
    w.push({ type: "ADDED", object: ingress("web", "a", "11") });
    w.push({ type: "ERROR", object: errorStatus(410, "Expired", "too old resource version: 11 (40)") });
    await t.watchOpen(1);
    expect(w.returned).toBe(true);
    expect(t.fake.lists).toHaveLength(2);
    expect(t.replaced).toHaveLength(2);
    expect(t.logs.some((l) => /ERROR event, code 410/.test(l.message))).toBe(true);
  });

  it("takes an ERROR event with another code as a failure: the backoff, then the watch again from the same resourceVersion", async () => {
    const t = start();
    t.fake.resourceVersion = "8";
    void t.run();
    await t.watchOpen(0);
    const w = t.fake.watches[0]!;
    w.push({ type: "ERROR", object: errorStatus(500, "InternalError", "etcd is unhappy") });
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the failure logged");
    expect(t.logs.find((l) => l.level === "warn")?.fields).toMatchObject({
      retryInMs: 100,
      error: "WatchErrorEvent: ERROR event: code 500 InternalError: etcd is unhappy",
    });
    expect(w.returned).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    await t.watchOpen(1);
    expect(t.fake.watches[1]?.options?.resourceVersion).toBe("8");
    expect(t.fake.lists).toHaveLength(1);
  });

  it("takes an event of an unknown type as a failure", async () => {
    const t = start();
    void t.run();
    await t.watchOpen(0);
    t.fake.watches[0]!.push({ type: "SURPRISE", object: ingress("", "a", "1") } as never);
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the failure logged");
    expect(t.logs.find((l) => l.level === "warn")?.fields?.["error"]).toMatch(/"SURPRISE"/);
    expect(t.applied).toEqual([]);
  });

  it("retries a watch cut by the network from the last resourceVersion, after the backoff, without listing", async () => {
    const t = start();
    void t.run();
    await t.watchOpen(0);
    const w = t.fake.watches[0]!;
    w.push({ type: "MODIFIED", object: ingress("web", "a", "41") });
    w.fail(new NetworkDown("socket hang up"));
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the failure logged");
    expect(w.returned).toBe(false);
    await vi.advanceTimersByTimeAsync(99);
    expect(t.fake.watches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await t.watchOpen(1);
    expect(t.fake.watches[1]?.options?.resourceVersion).toBe("41");
    expect(t.fake.lists).toHaveLength(1);
  });
});

describe("the backoff", () => {
  /** The retryInMs of each failure logged so far. */
  const waits = (t: ReturnType<typeof setup>) =>
    t.logs.filter((l) => l.level === "warn").map((l) => l.fields?.["retryInMs"]);

  it("doubles from min to max while a step fails, waits exactly that long, and resets after a list and after a watch that delivered", async () => {
    const t = start({ minBackoffMs: 100, maxBackoffMs: 800 });
    for (let i = 0; i < 6; i++) t.fake.listErrors.push(new NetworkDown(`down ${i}`));
    void t.run();
    const expected = [100, 200, 400, 800, 800, 800];
    for (const [i, wait] of expected.entries()) {
      await flushUntil(() => waits(t).length === i + 1, `failure ${i + 1}`);
      expect(waits(t)[i]).toBe(wait);
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(t.fake.lists).toHaveLength(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      await flushUntil(() => t.fake.lists.length === i + 2, `list ${i + 2}`);
    }
    await t.watchOpen(0);
    // After a successful list: back to the minimum.
    t.fake.watches[0]!.fail(new NetworkDown("cut"));
    await flushUntil(() => waits(t).length === 7, "the watch's failure");
    await vi.advanceTimersByTimeAsync(100);
    await t.watchOpen(1);
    t.fake.watches[1]!.fail(new NetworkDown("cut again"));
    await flushUntil(() => waits(t).length === 8, "the second watch failure");
    await vi.advanceTimersByTimeAsync(200);
    await t.watchOpen(2);
    // A watch that delivered something resets it too.
    t.fake.watches[2]!.push({ type: "BOOKMARK", object: bookmark("50") });
    t.fake.watches[2]!.fail(new NetworkDown("cut after a bookmark"));
    await flushUntil(() => waits(t).length === 9, "the third watch failure");
    expect(waits(t)).toEqual([...expected, 100, 200, 100]);
    await vi.advanceTimersByTimeAsync(100);
    await t.watchOpen(3);
    expect(t.fake.watches[3]?.options?.resourceVersion).toBe("50");
  });

  it("retries a watch whose first next() throws (the request failed) with the backoff", async () => {
    const t = start();
    t.fake.watchErrors.push(new NetworkDown("ECONNREFUSED"), new NetworkDown("ECONNREFUSED"));
    void t.run();
    await flushUntil(() => waits(t).length === 1, "first failure");
    await vi.advanceTimersByTimeAsync(100);
    await flushUntil(() => waits(t).length === 2, "second failure");
    await vi.advanceTimersByTimeAsync(200);
    await t.watchOpen(2);
    expect(waits(t)).toEqual([100, 200]);
    expect(t.logs.find((l) => l.level === "warn")?.fields?.["error"]).toBe("NetworkDown: ECONNREFUSED");
  });
});

describe("the resync", () => {
  it("cuts the open watch and lists again resyncMs after each list", async () => {
    const t = start({ resyncMs: 1_000 });
    void t.run();
    await t.watchOpen(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(t.fake.lists).toHaveLength(1);
    expect(t.fake.watches[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await t.watchOpen(1);
    expect(t.fake.watches[0]?.options?.signal?.aborted).toBe(true);
    expect(t.fake.lists).toHaveLength(2);
    expect(t.logs.some((l) => l.message === "resync: listing again")).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await t.watchOpen(2);
    expect(t.fake.lists).toHaveLength(3);
  });

  it("lists again instead of watching when the resync time passed during a backoff", async () => {
    const t = start({ resyncMs: 150, minBackoffMs: 200, maxBackoffMs: 200 });
    t.fake.watchErrors.push(new NetworkDown("refused"));
    void t.run();
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the watch's failure");
    await vi.advanceTimersByTimeAsync(200);
    await t.watchOpen(1);
    expect(t.fake.lists).toHaveLength(2);
  });

  it("cuts a watch that ignores its signal, and takes nothing it yields after the cut", async () => {
    const t = start({ resyncMs: 1_000 });
    const deaf = deafWatch();
    const watch = vi.spyOn(t.fake, "watch").mockReturnValueOnce(deaf.iterable);
    void t.run();
    await flushUntil(() => deaf.pending.length === 1, "watching");
    deaf.deliver({ type: "ADDED", object: ingress("web", "early", "11") });
    await flushUntil(() => deaf.pending.length === 1, "the next event asked for");
    await vi.advanceTimersByTimeAsync(1_000);
    await flushUntil(() => watch.mock.calls.length === 2, "watching again after the relist");
    expect(t.fake.lists).toHaveLength(2);
    expect(deaf.returned).toBe(1);
    deaf.deliver({ type: "ADDED", object: ingress("web", "late", "12") });
    await flushTurns();
    expect(t.applied.map((a) => a.object.metadata?.name)).toEqual(["early"]);
    expect(t.reflector.resourceVersion).not.toBe("12");
  });

  it("never lists again by itself when resyncMs is 0", async () => {
    const t = start({ resyncMs: 0 });
    void t.run();
    await t.watchOpen(0);
    await vi.advanceTimersByTimeAsync(24 * 3600_000);
    expect(t.fake.lists).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("the stop", () => {
  it("aborts a list in flight and resolves", async () => {
    const t = start();
    t.fake.holdLists = true;
    const done = t.run();
    await flushUntil(() => t.fake.held.length === 1, "the list sent");
    t.abort.abort();
    await soon(done, "the loop ended");
    expect(t.fake.held[0]?.aborted).toBe(true);
    expect(t.fake.lists[0]?.signal?.aborted).toBe(true);
    expect(t.logs.filter((l) => l.level === "warn")).toEqual([]);
  });

  it("aborts the open watch and resolves", async () => {
    const t = start();
    const done = t.run();
    await t.watchOpen(0);
    t.abort.abort();
    await soon(done, "the loop ended");
    expect(t.fake.watches[0]?.aborted).toBe(true);
    expect(t.fake.watches).toHaveLength(1);
    expect(t.logs.filter((l) => l.level === "warn")).toEqual([]);
  });

  it("does not wait out the backoff", async () => {
    const t = start({ minBackoffMs: 30_000, maxBackoffMs: 30_000 });
    t.fake.listErrors.push(new NetworkDown("down"));
    const done = t.run();
    await flushUntil(() => t.logs.some((l) => l.level === "warn"), "the failure logged");
    t.abort.abort();
    await soon(done, "the loop ended");
    expect(vi.getTimerCount()).toBe(0);
    expect(t.fake.lists).toHaveLength(1);
  });

  it("resolves even when the source ignores the signal", async () => {
    const t = start();
    const list = vi.spyOn(t.fake, "list").mockReturnValue(new Promise(() => {}));
    const done = t.run();
    await flushUntil(() => list.mock.calls.length === 1, "listed");
    t.abort.abort();
    await soon(done, "the loop ended");
  });

  it("resolves even when the watch ignores the signal, and takes nothing it yields after the stop", async () => {
    const t = start();
    const deaf = deafWatch();
    vi.spyOn(t.fake, "watch").mockReturnValue(deaf.iterable);
    const done = t.run();
    await flushUntil(() => deaf.pending.length === 1, "watching");
    t.abort.abort();
    await soon(done, "the loop ended");
    expect(deaf.returned).toBe(1);
    deaf.deliver({ type: "ADDED", object: ingress("web", "late", "12") });
    await flushTurns();
    expect(t.applied).toEqual([]);
    expect(t.reflector.resourceVersion).not.toBe("12");
  });

  it("resolves at once when stopped before it ran", async () => {
    const t = start();
    t.abort.abort();
    await soon(t.run(), "the loop ended");
    expect(t.fake.calls).toEqual([]);
  });
});

describe("isExpired", () => {
  it("is true for anything thrown with a numeric status of 410, and only that", () => {
    expect(isExpired(new Gone("x"))).toBe(true);
    expect(isExpired({ status: 410 })).toBe(true);
    expect(isExpired(Object.assign(new Error("gone"), { status: 410 }))).toBe(true);
    for (const other of [
      { status: "410" },
      { status: 404 },
      { code: 410 },
      null,
      undefined,
      410,
      "HTTP 410",
      new Error("410"),
    ])
      expect(isExpired(other)).toBe(false);
  });
});

describe("errorText", () => {
  it("says what was thrown in one line", () => {
    expect(errorText(new NetworkDown("socket hang up"))).toBe("NetworkDown: socket hang up");
    expect(errorText(new TypeError(""))).toBe("TypeError");
    expect(errorText({ status: 410 })).toBe("a thrown Object (status 410)");
    expect(errorText(Object.create(null))).toBe("a thrown object");
    expect(errorText("plain")).toBe("plain");
  });
});
