// createInformer over the in-memory ListWatcher: synced(), handlers and their replay, the
// events() iterator, the relist's diff as events, the stop, option checks, and a property: after
// any run of watch events, watch ends, failures and relists, the store is what a plain map fed
// the same events and lists holds, and the emitted events replayed onto an empty map give it too.
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createInformer, type Informer, type InformerOptions } from "../../../src/client/informer/informer.js";
import type { InformerEvent } from "../../../src/client/informer/store.js";
import { IngressSchema, create, decode, encode, type Ingress } from "../../../src/networking/index.js";
import {
  FakeListWatcher,
  Gone,
  NetworkDown,
  errorStatus,
  drainSoon,
  flushTurns,
  flushUntil,
  soon,
} from "../../support/client/fake-list-watcher.js";
import { propertyRuns } from "../../support/property-runs.js";

function ingress(
  namespace: string,
  name: string,
  resourceVersion: string,
  labels: Record<string, string> = {},
): Ingress {
  // As the API server sends it (through the codec once), so that a compact store's copy is equal to it.
  return decode(encode(create(IngressSchema, { metadata: { namespace, name, resourceVersion, labels } }))) as Ingress;
}

const key = (o: Ingress): string => `${o.metadata?.namespace}/${o.metadata?.name}`;
const describeEvent = (e: InformerEvent<Ingress>): string =>
  e.type === "delete"
    ? `delete ${key(e.object)}@${e.object.metadata?.resourceVersion}${e.finalStateUnknown ? " unknown" : ""}`
    : `${e.type} ${key(e.object)}@${e.object.metadata?.resourceVersion}`;

type Logged = { level: "info" | "warn"; message: string; fields: Record<string, string | number> | undefined };

/** A fresh fake, an informer over it (not started), its log and every event its handlers saw. */
function setupInformer(options: InformerOptions<Ingress> = {}) {
  const fake = new FakeListWatcher<Ingress>();
  const logs: Logged[] = [];
  const informer = createInformer(fake, {
    minBackoffMs: 100,
    maxBackoffMs: 800,
    log: (level, message, fields) => logs.push({ level, message, fields }),
    ...options,
  });
  current.push(informer);
  const seen: InformerEvent<Ingress>[] = [];
  informer.on("add", (e) => seen.push(e));
  informer.on("update", (e) => seen.push(e));
  informer.on("delete", (e) => seen.push(e));
  return {
    fake,
    informer,
    logs,
    seen,
    watchOpen: (n: number) => flushUntil(() => fake.watches[n]?.waiting === true, `watch ${n} open and waiting`),
  };
}

let current: Informer<Ingress>[] = [];
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(async () => {
  await soon(Promise.all(current.map((i) => i.stop())), "every informer stopped");
  current = [];
  vi.useRealTimers();
});

describe.each([false, true])("compact: %s", (compact) => {
  const setup = (options: InformerOptions<Ingress> = {}) => setupInformer({ compact, ...options });

  describe("synced()", () => {
    it("resolves after the first full list, once its adds have been handed out", async () => {
      const t = setup({ pageSize: 1 });
      t.fake.items = [ingress("web", "a", "1"), ingress("web", "b", "2")];
      t.fake.resourceVersion = "2";
      expect(t.informer.resourceVersion).toBe("");
      expect(t.informer.store.hasSynced).toBe(false);
      let addsWhenSynced = -1;
      const synced = t.informer.store.synced().then(() => {
        addsWhenSynced = t.seen.length;
      });
      expect(t.informer.start()).toBe(t.informer);
      await soon(synced, "synced");
      expect(addsWhenSynced).toBe(2);
      expect(t.seen.map(describeEvent)).toEqual(["add web/a@1", "add web/b@2"]);
      expect(t.informer.store.hasSynced).toBe(true);
      expect(t.informer.store.size).toBe(2);
      expect(t.informer.resourceVersion).toBe("2");
    });

    it("waits through failed lists, and stays resolved through later relists", async () => {
      const t = setup();
      t.fake.listErrors.push(new NetworkDown("down"));
      let done = false;
      const synced = t.informer.store.synced().then(() => {
        done = true;
      });
      t.informer.start();
      await flushTurns();
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(100);
      await soon(synced, "synced");
      await t.watchOpen(0);
      t.fake.watches[0]!.fail(new Gone("watch"));
      await t.watchOpen(1);
      expect(t.informer.store.hasSynced).toBe(true);
      await expect(soon(t.informer.store.synced(), "synced")).resolves.toBeUndefined();
    });

    it("rejects with an AbortError when the informer stops before the first list is in, started or not", async () => {
      const started = setup();
      started.fake.holdLists = true;
      started.informer.start();
      const pending = started.informer.store.synced();
      await flushUntil(() => started.fake.held.length === 1, "the list sent");
      await soon(started.informer.stop(), "stopped");
      await expect(pending).rejects.toMatchObject({ name: "AbortError" });
      expect(started.informer.store.hasSynced).toBe(false);

      const never = setup();
      await soon(never.informer.stop(), "stopped");
      await expect(soon(never.informer.store.synced(), "synced")).rejects.toThrow(
        "the informer stopped before its first list was in",
      );
      expect(never.fake.calls).toEqual([]);
    });
  });

  describe("handlers", () => {
    it("get each kind of event, typed, and stop getting them once unsubscribed", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1")];
      const updates: string[] = [];
      const deletes: string[] = [];
      const offUpdate = t.informer.on("update", (e) =>
        updates.push(`${e.old.metadata?.resourceVersion}->${e.object.metadata?.resourceVersion}`),
      );
      t.informer.on("delete", (e) => deletes.push(`${key(e.old)} ${e.finalStateUnknown}`));
      t.informer.start();
      await t.watchOpen(0);
      const w = t.fake.watches[0]!;
      w.push({ type: "MODIFIED", object: ingress("web", "a", "2") });
      await t.watchOpen(0);
      offUpdate();
      offUpdate();
      w.push({ type: "MODIFIED", object: ingress("web", "a", "3") });
      w.push({ type: "DELETED", object: ingress("web", "a", "4") });
      await t.watchOpen(0);
      expect(updates).toEqual(["1->2"]);
      expect(deletes).toEqual(["web/a false"]);
      expect(t.seen.map(describeEvent)).toEqual(["add web/a@1", "update web/a@2", "update web/a@3", "delete web/a@4"]);
    });

    it("that throw are logged as warnings; the other handlers, the store and the loop go on", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1")];
      t.informer.on("add", () => {
        throw new Error("handler bug");
      });
      const after: string[] = [];
      t.informer.on("add", (e) => after.push(key(e.object)));
      t.informer.start();
      await t.watchOpen(0);
      t.fake.watches[0]!.push({ type: "ADDED", object: ingress("web", "b", "2") });
      await t.watchOpen(0);
      expect(after).toEqual(["web/a", "web/b"]);
      expect(t.informer.store.size).toBe(2);
      const warnings = t.logs.filter((l) => l.level === "warn");
      expect(warnings).toEqual([
        {
          level: "warn",
          message: "a add handler threw",
          fields: { namespace: "web", name: "a", error: "Error: handler bug" },
        },
        {
          level: "warn",
          message: "a add handler threw",
          fields: { namespace: "web", name: "b", error: "Error: handler bug" },
        },
      ]);
      expect(t.informer.resourceVersion).toBe("2");
    });

    it("registered on a started informer first get the store as adds (only add handlers)", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1"), ingress("api", "b", "2")];
      t.informer.start();
      await soon(t.informer.store.synced(), "synced");
      const late: string[] = [];
      const lateUpdates: string[] = [];
      t.informer.on("add", (e) => late.push(describeEvent(e)));
      t.informer.on("update", (e) => lateUpdates.push(describeEvent(e)));
      expect(late.sort()).toEqual(["add api/b@2", "add web/a@1"]);
      expect(lateUpdates).toEqual([]);
      await t.watchOpen(0);
      t.fake.watches[0]!.push({ type: "ADDED", object: ingress("web", "c", "3") });
      await t.watchOpen(0);
      expect(late).toHaveLength(3);
      expect(late[2]).toBe("add web/c@3");
    });

    it("registered before the start are not called until there is something", async () => {
      const t = setup();
      const early: string[] = [];
      t.informer.on("add", (e) => early.push(key(e.object)));
      await flushTurns();
      expect(early).toEqual([]);
    });

    it("registered after the stop are never called", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1")];
      t.informer.start();
      await soon(t.informer.store.synced(), "synced");
      await soon(t.informer.stop(), "stopped");
      const calls: string[] = [];
      const off = t.informer.on("add", (e) => calls.push(key(e.object)));
      off();
      expect(calls).toEqual([]);
    });

    it("refuse an unknown event type and a handler that is not a function", () => {
      const t = setup();
      expect(() => t.informer.on("change" as "add", () => {})).toThrow(RangeError);
      expect(() => t.informer.on("add", "nope" as never)).toThrow(TypeError);
    });
  });

  describe("events()", () => {
    it("replays the store as adds, then yields the live events in order", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1")];
      t.informer.start();
      await t.watchOpen(0);
      const it = t.informer.events();
      const w = t.fake.watches[0]!;
      w.push({ type: "MODIFIED", object: ingress("web", "a", "2") });
      w.push({ type: "DELETED", object: ingress("web", "a", "3") });
      await t.watchOpen(0);
      const got: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await soon(it.next(), "next");
        if (r.done !== true) got.push(describeEvent(r.value));
      }
      expect(got).toEqual(["add web/a@1", "update web/a@2", "delete web/a@3"]);
      // An iterator made before the start has no replay: it sees the first list's adds as they come.
      const early = setup();
      early.fake.items = [ingress("x", "y", "5")];
      const earlyIt = early.informer.events();
      early.informer.start();
      expect(describeEvent((await soon(earlyIt.next(), "next")).value as InformerEvent<Ingress>)).toBe("add x/y@5");
    });

    it("resolves a waiting next() with the next event, and queues events nobody reads yet", async () => {
      const t = setup();
      t.informer.start();
      await t.watchOpen(0);
      const it = t.informer.events();
      const first = it.next();
      const second = it.next();
      const w = t.fake.watches[0]!;
      for (const n of ["a", "b", "c"]) w.push({ type: "ADDED", object: ingress("web", n, n === "a" ? "1" : "2") });
      await t.watchOpen(0);
      expect(describeEvent(((await soon(first, "first")) as IteratorYieldResult<InformerEvent<Ingress>>).value)).toBe(
        "add web/a@1",
      );
      expect(describeEvent(((await soon(second, "second")) as IteratorYieldResult<InformerEvent<Ingress>>).value)).toBe(
        "add web/b@2",
      );
      expect(
        describeEvent(((await soon(it.next(), "next")) as IteratorYieldResult<InformerEvent<Ingress>>).value),
      ).toBe("add web/c@2");
    });

    it("ends at once, quietly, when its signal aborts, and the informer goes on", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1")];
      t.informer.start();
      await t.watchOpen(0);
      const abort = new AbortController();
      const it = t.informer.events({ signal: abort.signal });
      expect(
        describeEvent(((await soon(it.next(), "the replay")) as IteratorYieldResult<InformerEvent<Ingress>>).value),
      ).toBe("add web/a@1");
      const waiting = it.next();
      await flushTurns(50);
      abort.abort();
      expect(await soon(waiting, "the end")).toEqual({ done: true, value: undefined });
      t.fake.watches[0]!.push({ type: "ADDED", object: ingress("web", "b", "2") });
      await t.watchOpen(0);
      expect(t.informer.store.size).toBe(2);
      const already = t.informer.events({ signal: AbortSignal.abort() });
      expect(await soon(already.next(), "the end")).toEqual({ done: true, value: undefined });
    });

    it("ends after the events queued before the stop have been read", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1"), ingress("web", "b", "1")];
      t.informer.start();
      await t.watchOpen(0);
      const it = t.informer.events();
      await soon(t.informer.stop(), "stopped");
      const got = (await drainSoon(it, "the events queued")).map(describeEvent);
      expect(got).toEqual(["add web/a@1", "add web/b@1"]);
      expect(await soon(t.informer.events().next(), "the end")).toEqual({ done: true, value: undefined });
    });

    it("ends a next() waiting when the informer stops", async () => {
      const t = setup();
      t.informer.start();
      await t.watchOpen(0);
      const it = t.informer.events();
      const waiting = it.next();
      await soon(t.informer.stop(), "stopped");
      expect(await soon(waiting, "the end")).toEqual({ done: true, value: undefined });
    });

    it("unsubscribes when the loop breaks out", async () => {
      const t = setup();
      t.fake.items = [ingress("web", "a", "1")];
      t.informer.start();
      await t.watchOpen(0);
      const it = t.informer.events();
      // What a for-await loop does on break: one event read, then return().
      expect((await soon(it.next(), "the replay")).done).toBe(false);
      expect(await soon(it.return!(), "returned")).toEqual({ done: true, value: undefined });
      t.fake.watches[0]!.push({ type: "ADDED", object: ingress("web", "b", "2") });
      await t.watchOpen(0);
      expect(await soon(it.next(), "next")).toEqual({ done: true, value: undefined });
      expect(it[Symbol.asyncIterator]()).toBe(it);
    });
  });

  describe("relists", () => {
    for (const via of ["HTTP 410", "ERROR 410", "resync"] as const) {
      it(`after ${via}: adds the new, updates the changed, deletes the missing with finalStateUnknown, keeps the unchanged`, async () => {
        const t = setup({ resyncMs: via === "resync" ? 60_000 : 0 });
        const keep = ingress("web", "keep", "1", { app: "x" });
        const change = ingress("web", "change", "1", { app: "x" });
        const drop = ingress("api", "drop", "1", { app: "x" });
        t.fake.items = [keep, change, drop];
        t.fake.resourceVersion = "1";
        t.informer.start();
        await t.watchOpen(0);
        const changed = ingress("web", "change", "9", { app: "y" });
        const added = ingress("", "added", "9");
        t.fake.items = [ingress("web", "keep", "1", { app: "x" }), changed, added];
        t.fake.resourceVersion = "9";
        t.seen.length = 0;
        if (via === "HTTP 410") t.fake.watches[0]!.fail(new Gone("watch"));
        else if (via === "ERROR 410")
          t.fake.watches[0]!.push({ type: "ERROR", object: errorStatus(410, "Expired", "too old") });
        else await vi.advanceTimersByTimeAsync(60_000);
        await t.watchOpen(1);
        expect(t.fake.lists).toHaveLength(2);
        expect(t.seen).toEqual([
          { type: "update", object: changed, old: change },
          { type: "add", object: added },
          { type: "delete", object: drop, old: drop, finalStateUnknown: true },
        ]);
        // The unchanged one stays as cached: the very object, or (compact) an equal copy.
        expect(t.informer.store.get("web", "keep")).toEqual(keep);
        if (!compact) expect(t.informer.store.get("web", "keep")).toBe(keep);
        expect(t.informer.store.byLabel("app", "x")).toEqual([keep]);
        expect(t.informer.store.byLabel("app", "y")).toEqual([changed]);
        expect(t.informer.resourceVersion).toBe("9");
        expect(t.fake.watches[1]?.options?.resourceVersion).toBe("9");
      });
    }
  });

  describe("stop()", () => {
    it("aborts the list in flight (its signal) and resolves; calling it again gives the same promise", async () => {
      const t = setup();
      t.fake.holdLists = true;
      t.informer.start();
      await flushUntil(() => t.fake.held.length === 1, "the list sent");
      const stopping = t.informer.stop();
      expect(t.informer.stop()).toBe(stopping);
      await stopping;
      expect(t.fake.lists[0]?.signal?.aborted).toBe(true);
      expect(t.fake.held[0]?.aborted).toBe(true);
    });

    it("aborts the open watch (its signal) and resolves; start() after it does nothing", async () => {
      const t = setup();
      t.informer.start();
      await t.watchOpen(0);
      await soon(t.informer.stop(), "stopped");
      expect(t.fake.watches[0]?.options?.signal?.aborted).toBe(true);
      expect(t.fake.watches[0]?.aborted).toBe(true);
      t.informer.start();
      await flushTurns();
      expect(t.fake.calls).toHaveLength(2);
    });

    it("happens when options.signal aborts, also when it was aborted before the informer was made", async () => {
      const abort = new AbortController();
      const t = setup({ signal: abort.signal });
      t.informer.start();
      await t.watchOpen(0);
      abort.abort();
      await flushUntil(() => t.fake.watches[0]!.aborted, "the watch aborted");
      await soon(t.informer.stop(), "stopped");

      const dead = setup({ signal: AbortSignal.abort() });
      dead.informer.start();
      await flushTurns();
      expect(dead.fake.calls).toEqual([]);
      await expect(soon(dead.informer.store.synced(), "synced")).rejects.toMatchObject({ name: "AbortError" });
    });

    it("start() twice starts once", async () => {
      const t = setup();
      t.informer.start();
      t.informer.start();
      await t.watchOpen(0);
      expect(t.fake.lists).toHaveLength(1);
      expect(t.fake.watches).toHaveLength(1);
    });
  });

  describe("the store through the informer", () => {
    it("answers get, list(namespace), byLabel and byIndex right through watch updates and deletes", async () => {
      const t = setup({
        indexes: { tier: (i) => (i.metadata?.labels["tier"] === undefined ? [] : [i.metadata.labels["tier"]]) },
      });
      t.fake.items = [ingress("web", "a", "1", { tier: "front" }), ingress("api", "b", "1", { tier: "back" })];
      t.informer.start();
      await t.watchOpen(0);
      const { store } = t.informer;
      expect(store.byIndex("tier", "front").map(key)).toEqual(["web/a"]);
      const w = t.fake.watches[0]!;
      w.push({ type: "MODIFIED", object: ingress("web", "a", "2", { tier: "back" }) });
      w.push({ type: "ADDED", object: ingress("web", "c", "3", { tier: "front" }) });
      w.push({ type: "DELETED", object: ingress("api", "b", "4", { tier: "back" }) });
      await t.watchOpen(0);
      expect(store.byIndex("tier", "back").map(key)).toEqual(["web/a"]);
      expect(store.byIndex("tier", "front").map(key)).toEqual(["web/c"]);
      expect(store.byLabel("tier").map(key).sort()).toEqual(["web/a", "web/c"]);
      expect(store.list("api")).toEqual([]);
      expect(store.list("web").map(key).sort()).toEqual(["web/a", "web/c"]);
      expect(store.get("web", "a")?.metadata?.resourceVersion).toBe("2");
      expect(store.get("api", "b")).toBeUndefined();
      expect(() => store.byIndex("nope", "x")).toThrow(RangeError);
    });

    it("logs an index function that throws, and keeps the object", async () => {
      const t = setup({
        indexes: {
          broken: () => {
            throw new Error("index bug");
          },
        },
      });
      t.fake.items = [ingress("web", "a", "1")];
      t.informer.start();
      await soon(t.informer.store.synced(), "synced");
      expect(t.informer.store.size).toBe(1);
      expect(t.logs.filter((l) => l.level === "warn")).toEqual([
        {
          level: "warn",
          message: "an index function threw; the object is not in that index",
          fields: { index: "broken", namespace: "web", name: "a", error: "Error: index bug" },
        },
      ]);
    });
  });
});

const setup = setupInformer;

describe("options", () => {
  it("are passed to the list and the watch", async () => {
    const t = setup({
      namespace: "web",
      labelSelector: "app=shop",
      fieldSelector: "x=y",
      pageSize: 7,
      watchSeconds: 9,
    });
    t.informer.start();
    await t.watchOpen(0);
    expect(t.fake.lists[0]).toMatchObject({
      namespace: "web",
      labelSelector: "app=shop",
      fieldSelector: "x=y",
      limit: 7,
    });
    expect(t.fake.watches[0]?.options).toMatchObject({
      namespace: "web",
      labelSelector: "app=shop",
      fieldSelector: "x=y",
      timeoutSeconds: 9,
      allowWatchBookmarks: true,
    });
  });

  it("default to pages of 500, watches of 300 s, no resync and a backoff from 250 ms to 30 s", async () => {
    const fake = new FakeListWatcher<Ingress>();
    const logs: Logged[] = [];
    const informer = createInformer(fake, { log: (level, message, fields) => logs.push({ level, message, fields }) });
    current.push(informer);
    fake.listErrors.push(...Array.from({ length: 9 }, () => new NetworkDown("down")));
    informer.start();
    const waits = (): unknown[] => logs.filter((l) => l.level === "warn").map((l) => l.fields?.["retryInMs"]);
    for (let i = 1; i <= 9; i++) {
      await flushUntil(() => waits().length === i, `failure ${i}`);
      await vi.advanceTimersByTimeAsync(Number(waits()[i - 1]));
    }
    expect(waits()).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    await flushUntil(() => fake.watches[0]?.waiting === true, "watch open");
    expect(fake.lists[0]?.limit).toBe(500);
    expect(fake.watches[0]?.options?.timeoutSeconds).toBe(300);
    await vi.advanceTimersByTimeAsync(24 * 3600_000);
    expect(fake.lists).toHaveLength(10);
  });

  it("out of range are a RangeError, of the wrong type a TypeError, before anything is sent", () => {
    const fake = new FakeListWatcher<Ingress>();
    for (const bad of [
      { pageSize: 0 },
      { pageSize: 1.5 },
      { resyncMs: -1 },
      { watchSeconds: 0 },
      { minBackoffMs: 0 },
      { minBackoffMs: 500, maxBackoffMs: 100 },
      { maxBackoffMs: 2 ** 31 },
      { pageSize: Number.NaN },
      { pageSize: "5" as unknown as number },
    ])
      expect(() => createInformer(fake, bad), JSON.stringify(bad)).toThrow(RangeError);
    expect(() => createInformer(fake, { namespace: 5 as unknown as string })).toThrow(TypeError);
    expect(() => createInformer(fake, { indexes: { x: "no" as never } })).toThrow(TypeError);
    expect(() => createInformer(fake, { log: "no" as never })).toThrow(TypeError);
    expect(() => createInformer(fake, { compact: "yes" as never })).toThrow(
      new TypeError("createInformer: compact must be a boolean, got string"),
    );
    expect(() => createInformer({} as never)).toThrow(TypeError);
    expect(() => createInformer(null as never)).toThrow(TypeError);
    expect(fake.calls).toEqual([]);
    // A minimum above the default maximum raises the default maximum with it.
    expect(() => createInformer(fake, { minBackoffMs: 60_000 })).not.toThrow();
  });

  it("log: by default warnings go to console.warn and the rest nowhere; a log that throws is survived", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const fake = new FakeListWatcher<Ingress>();
      fake.items = [ingress("web", "a", "1")];
      const informer = createInformer(fake);
      current.push(informer);
      informer.on("add", () => {
        throw new Error("handler bug");
      });
      informer.start();
      await soon(informer.store.synced(), "synced");
      expect(warn.mock.calls).toEqual([
        ["clusterwire informer: a add handler threw", { namespace: "web", name: "a", error: "Error: handler bug" }],
      ]);
    } finally {
      warn.mockRestore();
    }
    const t = setup({
      log: () => {
        throw new Error("log bug");
      },
    });
    t.fake.items = [ingress("web", "a", "1")];
    t.informer.start();
    await soon(t.informer.store.synced(), "synced");
    expect(t.informer.store.size).toBe(1);
  });
});

// ---------------------------------------------------------------------------- the property

const NAMESPACES = ["", "a", "b"] as const;
const NAMES = ["x", "y", "z"] as const;
const LABEL_KEYS = ["app", "tier"] as const;
const LABEL_VALUES = ["1", "2"] as const;

const labelsArb = fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), {
  maxKeys: 2,
  noNullPrototype: true,
});
const placeArb = fc.record({ namespace: fc.constantFrom(...NAMESPACES), name: fc.constantFrom(...NAMES) });

/** One object a list returns: where, its labels, and whether it is unchanged since the informer saw it. */
type ItemSpec = { place: { namespace: string; name: string }; labels: Record<string, string>; same: boolean };

type Step =
  | {
      readonly op: "event";
      readonly type: "ADDED" | "MODIFIED" | "DELETED";
      readonly place: { namespace: string; name: string };
      readonly labels: Record<string, string>;
    }
  | { readonly op: "bookmark" }
  | { readonly op: "end" }
  | { readonly op: "cut" }
  | {
      readonly op: "relist";
      readonly via: "gone" | "error410" | "resync";
      readonly items: readonly ItemSpec[];
      readonly listFailures: number;
      readonly expireContinue: boolean;
    };

const itemsArb = fc.uniqueArray(fc.record({ place: placeArb, labels: labelsArb, same: fc.boolean() }), {
  maxLength: 7,
  selector: (i) => `${i.place.namespace}/${i.place.name}`,
});

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("event" as const),
      type: fc.constantFrom("ADDED" as const, "MODIFIED" as const, "DELETED" as const),
      place: placeArb,
      labels: labelsArb,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: "bookmark" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "end" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "cut" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("relist" as const),
      via: fc.constantFrom("gone" as const, "error410" as const, "resync" as const),
      items: itemsArb,
      listFailures: fc.integer({ min: 0, max: 2 }),
      expireContinue: fc.boolean(),
    }),
  },
);

/** The plain model: key -> the resourceVersion and labels the informer should hold. */
type Model = Map<string, { resourceVersion: string; labels: Record<string, string> }>;

function storeAsModel(informer: Informer<Ingress>): Model {
  const out: Model = new Map();
  for (const o of informer.store.list())
    out.set(key(o), { resourceVersion: o.metadata?.resourceVersion ?? "", labels: { ...o.metadata?.labels } });
  return out;
}

function sortedModel(model: Model): [string, { resourceVersion: string; labels: Record<string, string> }][] {
  return [...model].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Runs the timers and the microtask queue until `condition` holds (the backoff here is 1 ms). */
async function drive(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (condition()) return;
    await flushTurns(200);
    if (condition()) return;
    await vi.advanceTimersByTimeAsync(1);
  }
  await flushUntil(condition, what);
}

describe.each([false, true])("compact: %s", (compact) => {
  describe("the store and the events follow the watch and the relists (property)", () => {
    it("equals a plain map fed the same events and lists, and the emitted events replayed give the same map", async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(itemsArb, fc.array(stepArb, { maxLength: 25 }), async (initial, steps) => {
          runs++;
          const RESYNC = 10_000;
          const fake = new FakeListWatcher<Ingress>();
          const informer = createInformer(fake, {
            pageSize: 2,
            resyncMs: RESYNC,
            minBackoffMs: 1,
            maxBackoffMs: 1,
            indexes: { app: (o) => (o.metadata?.labels["app"] === undefined ? [] : [o.metadata.labels["app"]]) },
            log: () => {},
            compact,
          });
          current.push(informer);
          const emitted: InformerEvent<Ingress>[] = [];
          informer.on("add", (e) => emitted.push(e));
          informer.on("update", (e) => emitted.push(e));
          informer.on("delete", (e) => emitted.push(e));
          const iterated = informer.events();

          let rv = 0;
          const nextRv = (): string => String(++rv);
          const model: Model = new Map();
          let listedAt = Date.now();
          const relist = (items: readonly ItemSpec[]): Model => {
            const objects: Ingress[] = [];
            const next: Model = new Map();
            for (const { place, labels, same } of items) {
              const k = `${place.namespace}/${place.name}`;
              const old = model.get(k);
              // "same": the object did not change since the informer saw it (a fresh decode of it).
              const entry = same && old !== undefined ? old : { resourceVersion: nextRv(), labels };
              next.set(k, entry);
              objects.push(ingress(place.namespace, place.name, entry.resourceVersion, entry.labels));
            }
            fake.items = objects;
            fake.resourceVersion = nextRv();
            return next;
          };

          const initialModel = relist(initial);
          informer.start();
          await drive(() => fake.watches[0]?.waiting === true, "the first watch");
          listedAt = Date.now();
          for (const [k, v] of initialModel) model.set(k, v);
          const check = (): void => {
            expect(sortedModel(storeAsModel(informer))).toEqual(sortedModel(model));
            expect(informer.store.size).toBe(model.size);
            for (const namespace of NAMESPACES)
              expect(informer.store.list(namespace).map(key).sort()).toEqual(
                [...model.keys()].filter((k) => k.startsWith(`${namespace}/`)).sort(),
              );
            for (const label of LABEL_KEYS) {
              expect(informer.store.byLabel(label).map(key).sort()).toEqual(
                [...model]
                  .filter(([, v]) => v.labels[label] !== undefined)
                  .map(([k]) => k)
                  .sort(),
              );
              for (const value of LABEL_VALUES)
                expect(informer.store.byLabel(label, value).map(key).sort()).toEqual(
                  [...model]
                    .filter(([, v]) => v.labels[label] === value)
                    .map(([k]) => k)
                    .sort(),
                );
            }
            for (const value of LABEL_VALUES)
              expect(informer.store.byIndex("app", value).map(key).sort()).toEqual(
                [...model]
                  .filter(([, v]) => v.labels["app"] === value)
                  .map(([k]) => k)
                  .sort(),
              );
            expect(informer.resourceVersion).toBe(String(rv));
          };
          check();

          for (const step of steps) {
            const w = fake.lastWatch!;
            const watches = fake.watches.length;
            const lists = fake.lists.length;
            if (step.op === "event") {
              const k = `${step.place.namespace}/${step.place.name}`;
              const resourceVersion = nextRv();
              w.push({
                type: step.type,
                object: ingress(step.place.namespace, step.place.name, resourceVersion, step.labels),
              });
              if (step.type === "DELETED") model.delete(k);
              else model.set(k, { resourceVersion, labels: step.labels });
              await flushUntil(() => w.waiting, "the event read");
            } else if (step.op === "bookmark") {
              w.push({ type: "BOOKMARK", object: create(IngressSchema, { metadata: { resourceVersion: nextRv() } }) });
              await flushUntil(() => w.waiting, "the bookmark read");
            } else if (step.op === "end" || step.op === "cut") {
              if (step.op === "end") w.end();
              else w.fail(new NetworkDown("cut"));
              await drive(() => fake.watches.length > watches && fake.lastWatch!.waiting, "the watch reopened");
              // Reopened from the last resourceVersion seen, unless the resync came due meanwhile.
              if (fake.lists.length === lists) expect(fake.lastWatch?.options?.resourceVersion).toBe(String(rv));
            } else {
              const next = relist(step.items);
              for (let i = 0; i < step.listFailures; i++) fake.listErrors.push(new NetworkDown("list down"));
              fake.expireContinueTokens = step.expireContinue ? 1 : 0;
              if (step.via === "gone") w.fail(new Gone("watch"));
              else if (step.via === "error410")
                w.push({ type: "ERROR", object: errorStatus(410, "Expired", "too old") });
              else await vi.advanceTimersByTimeAsync(Math.max(0, listedAt + RESYNC - Date.now()));
              await drive(
                () => fake.lists.length > lists && fake.watches.length > watches && fake.lastWatch!.waiting,
                "relisted and watching",
              );
              expect(fake.lastWatch?.options?.resourceVersion).toBe(fake.resourceVersion);
              listedAt = Date.now();
              model.clear();
              for (const [k, v] of next) model.set(k, v);
            }
            // A resync may come due while a backoff is waited out: the list it makes is of the
            // same objects the model holds (the fake lists what the last relist step set, and the
            // events since are in the model) only when nothing happened since; so the steps keep
            // well inside the resync period, and this checks it did not happen unasked.
            if (step.op !== "relist") expect(fake.lists.length).toBe(lists);
            check();
          }

          await soon(informer.stop(), "stopped");
          // Replay what was emitted onto an empty map: each add of a key not there, each update and
          // delete of the object there (as `old`), and the result is the store.
          for (const [what, events] of [
            ["handlers", emitted],
            ["events()", await drainSoon(iterated, "events()")],
          ] as const) {
            const replayed = new Map<string, Ingress>();
            for (const e of events) {
              const k = key(e.object);
              if (e.type === "add") {
                expect(replayed.has(k), `${what}: add of ${k} already there`).toBe(false);
                replayed.set(k, e.object);
              } else {
                // The very object, or (compact: decoded from the cached bytes) an equal one.
                if (compact)
                  expect(replayed.get(k), `${what}: ${e.type} of ${k}: old is the object there`).toEqual(e.old);
                else expect(replayed.get(k), `${what}: ${e.type} of ${k}: old is the object there`).toBe(e.old);
                if (e.type === "update") {
                  expect(e.object.metadata?.resourceVersion).not.toBe(e.old.metadata?.resourceVersion);
                  replayed.set(k, e.object);
                } else {
                  if (e.finalStateUnknown) expect(e.object).toBe(e.old);
                  replayed.delete(k);
                }
              }
            }
            const stored = new Map(informer.store.list().map((o) => [key(o), o] as const));
            expect([...replayed.keys()].sort(), what).toEqual([...stored.keys()].sort());
            for (const [k, o] of stored)
              if (compact) expect(replayed.get(k), `${what}: ${k}`).toEqual(o);
              else expect(replayed.get(k), `${what}: ${k}`).toBe(o);
          }
          expect(emitted.length).toBeGreaterThanOrEqual(initial.length);
        }),
        { numRuns: propertyRuns(60) },
      );
      expect(runs).toBeGreaterThan(0);
    });
  });
});
