// The informer's store on its own: lookups by namespace and name, by label and by the caller's
// indexes stay right through adds, updates, deletes and relists; a relist's diff; synced().
import { describe, expect, it } from "vitest";
import { ObjectStore } from "../../../src/client/informer/store.js";
import { IngressSchema, create, type Ingress } from "../../../src/networking/index.js";

function ingress(
  namespace: string,
  name: string,
  resourceVersion: string,
  labels: Record<string, string> = {},
  className = "",
): Ingress {
  return create(IngressSchema, {
    metadata: { namespace, name, resourceVersion, labels },
    spec: className === "" ? {} : { ingressClassName: className },
  });
}

const names = (objects: readonly Ingress[]): string[] =>
  objects.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`).sort();

function classIndexed() {
  return new ObjectStore<Ingress>({
    className: (i) => (i.spec?.ingressClassName ? [i.spec.ingressClassName] : []),
    hosts: (i) => (i.spec?.rules ?? []).map((r) => r.host),
  });
}

describe("lookups", () => {
  it("finds objects by namespace and name, by namespace, and all of them", () => {
    const store = classIndexed();
    const a = ingress("web", "a", "1");
    const b = ingress("web", "b", "2");
    const c = ingress("api", "a", "3");
    const d = ingress("", "cluster-wide", "4");
    for (const o of [a, b, c, d]) store.apply("ADDED", o);
    expect(store.get("web", "a")).toBe(a);
    expect(store.get("api", "a")).toBe(c);
    expect(store.get("", "cluster-wide")).toBe(d);
    expect(store.get("web", "c")).toBeUndefined();
    expect(store.get("nowhere", "a")).toBeUndefined();
    expect(names(store.list("web"))).toEqual(["web/a", "web/b"]);
    expect(names(store.list(""))).toEqual(["/cluster-wide"]);
    expect(store.list("nowhere")).toEqual([]);
    expect(names(store.list())).toEqual(["/cluster-wide", "api/a", "web/a", "web/b"]);
    expect(store.size).toBe(4);
  });

  it('keeps an object without metadata under namespace "" and name ""', () => {
    const store = new ObjectStore<Ingress>();
    const bare = create(IngressSchema, {});
    store.apply("ADDED", bare);
    expect(store.get("", "")).toBe(bare);
    expect(store.byLabel("app")).toEqual([]);
  });

  it("finds objects by label key, and by key and value, through updates and deletes", () => {
    const store = new ObjectStore<Ingress>();
    store.apply("ADDED", ingress("web", "a", "1", { app: "shop", tier: "front" }));
    store.apply("ADDED", ingress("web", "b", "2", { app: "shop" }));
    store.apply("ADDED", ingress("api", "c", "3", { app: "cart" }));
    expect(names(store.byLabel("app"))).toEqual(["api/c", "web/a", "web/b"]);
    expect(names(store.byLabel("app", "shop"))).toEqual(["web/a", "web/b"]);
    expect(names(store.byLabel("tier", "front"))).toEqual(["web/a"]);
    expect(store.byLabel("app", "")).toEqual([]);
    expect(store.byLabel("missing")).toEqual([]);
    // a's labels change: the old ones no longer find it.
    store.apply("MODIFIED", ingress("web", "a", "4", { app: "cart" }));
    expect(names(store.byLabel("app", "shop"))).toEqual(["web/b"]);
    expect(names(store.byLabel("app", "cart"))).toEqual(["api/c", "web/a"]);
    expect(store.byLabel("tier")).toEqual([]);
    store.apply("DELETED", ingress("web", "b", "5", { app: "shop" }));
    expect(store.byLabel("app", "shop")).toEqual([]);
    expect(names(store.byLabel("app"))).toEqual(["api/c", "web/a"]);
  });

  it("finds the object as it is now through updates that keep its labels and index values, or reorder them", () => {
    const store = classIndexed();
    store.apply("ADDED", ingress("web", "a", "1", { app: "shop", tier: "front" }, "nginx"));
    store.apply("ADDED", ingress("web", "b", "1", { app: "shop" }, "nginx"));
    const a2 = ingress("web", "a", "2", { app: "shop", tier: "front" }, "nginx");
    store.apply("MODIFIED", a2);
    expect(store.byLabel("tier", "front")).toEqual([a2]);
    expect(store.byLabel("app", "shop")).toContain(a2);
    expect(store.byIndex("className", "nginx")).toContain(a2);
    // The same pairs in another order, then one label fewer, then one more.
    const a3 = ingress("web", "a", "3", { tier: "front", app: "shop" }, "nginx");
    store.replace([a3, store.get("web", "b")!]);
    expect(store.byLabel("tier", "front")).toEqual([a3]);
    expect(names(store.byLabel("app", "shop"))).toEqual(["web/a", "web/b"]);
    const a4 = ingress("web", "a", "4", { tier: "front" }, "nginx");
    store.apply("MODIFIED", a4);
    expect(names(store.byLabel("app", "shop"))).toEqual(["web/b"]);
    expect(store.byLabel("tier")).toEqual([a4]);
    const a5 = ingress("web", "a", "5", { tier: "front", app: "cart" }, "nginx");
    store.apply("MODIFIED", a5);
    expect(store.byLabel("app", "cart")).toEqual([a5]);
    expect(names(store.byIndex("className", "nginx"))).toEqual(["web/a", "web/b"]);
    expect(store.byIndex("className", "nginx")).toContain(a5);
    expect(store.size).toBe(2);
  });

  it("indexes by the label values the object had when it went in, whatever happens to the object later", () => {
    const store = new ObjectStore<Ingress>();
    const a = ingress("web", "a", "1", { app: "shop" });
    store.apply("ADDED", a);
    a.metadata!.labels["app"] = "changed-behind-its-back";
    store.apply("DELETED", a);
    expect(store.byLabel("app", "shop")).toEqual([]);
    expect(store.byLabel("app")).toEqual([]);
  });

  it("finds objects by the caller's indexes through updates, deletes and relists", () => {
    const store = classIndexed();
    const a = ingress("web", "a", "1", {}, "nginx");
    store.apply("ADDED", a);
    store.apply("ADDED", ingress("web", "b", "1", {}, "nginx"));
    store.apply("ADDED", ingress("web", "c", "1"));
    expect(names(store.byIndex("className", "nginx"))).toEqual(["web/a", "web/b"]);
    store.apply("MODIFIED", ingress("web", "a", "2", {}, "haproxy"));
    expect(names(store.byIndex("className", "nginx"))).toEqual(["web/b"]);
    expect(names(store.byIndex("className", "haproxy"))).toEqual(["web/a"]);
    store.apply("DELETED", ingress("web", "b", "3", {}, "nginx"));
    expect(store.byIndex("className", "nginx")).toEqual([]);
    store.replace([ingress("web", "c", "4", {}, "nginx")]);
    expect(names(store.byIndex("className", "nginx"))).toEqual(["web/c"]);
    expect(store.byIndex("className", "haproxy")).toEqual([]);
    expect(store.byIndex("hosts", "x")).toEqual([]);
  });

  it("indexes an object under each distinct value its function gives", () => {
    const store = classIndexed();
    const multi = create(IngressSchema, {
      metadata: { namespace: "web", name: "multi", resourceVersion: "1" },
      spec: { rules: [{ host: "a.example" }, { host: "b.example" }, { host: "a.example" }] },
    });
    store.apply("ADDED", multi);
    expect(store.byIndex("hosts", "a.example")).toEqual([multi]);
    expect(store.byIndex("hosts", "b.example")).toEqual([multi]);
    store.apply("DELETED", multi);
    expect(store.byIndex("hosts", "a.example")).toEqual([]);
  });

  it("refuses an unknown index with a RangeError naming the ones there are", () => {
    expect(() => classIndexed().byIndex("nope", "x")).toThrow(
      new RangeError('byIndex: no index "nope"; the informer\'s indexes are: "className", "hosts"'),
    );
    expect(() => new ObjectStore<Ingress>().byIndex("nope", "x")).toThrow(/indexes are: \(none\)/);
  });

  it("reports an index function that throws or gives no string array, and leaves the object out of that index only", () => {
    const reported: string[] = [];
    const store = new ObjectStore<Ingress>(
      {
        boom: (i) => {
          if (i.metadata?.name === "bad") throw new Error("index bug");
          return ["ok"];
        },
        shape: (i) => (i.metadata?.name === "bad" ? ([1] as unknown as string[]) : ["ok"]),
      },
      (index, namespace, name, error) => reported.push(`${index} ${namespace}/${name}: ${String(error)}`),
    );
    const bad = ingress("web", "bad", "1", { app: "x" });
    const good = ingress("web", "good", "1");
    store.apply("ADDED", bad);
    store.apply("ADDED", good);
    expect(reported).toEqual([
      "boom web/bad: Error: index bug",
      "shape web/bad: TypeError: the index function returned an array holding a non-string, not an array of strings",
    ]);
    expect(store.get("web", "bad")).toBe(bad);
    expect(store.byLabel("app", "x")).toEqual([bad]);
    expect(store.byIndex("boom", "ok")).toEqual([good]);
    expect(store.byIndex("shape", "ok")).toEqual([good]);
    store.apply("DELETED", bad);
    expect(store.size).toBe(1);
  });
});

describe("the events of each change", () => {
  it("ADDED of a new object is an add; ADDED or MODIFIED of a cached one an update with the cached one as old", () => {
    const store = new ObjectStore<Ingress>();
    const a1 = ingress("web", "a", "1");
    const a2 = ingress("web", "a", "2");
    const a3 = ingress("web", "a", "3");
    expect(store.apply("ADDED", a1)).toEqual({ type: "add", object: a1 });
    const update = store.apply("MODIFIED", a2);
    expect(update).toEqual({ type: "update", object: a2, old: a1 });
    expect(update?.type === "update" && update.old).toBe(a1);
    expect(store.apply("ADDED", a3)).toEqual({ type: "update", object: a3, old: a2 });
    expect(store.get("web", "a")).toBe(a3);
    expect(store.size).toBe(1);
  });

  it("MODIFIED of an object not cached is an add", () => {
    const store = new ObjectStore<Ingress>();
    const a = ingress("web", "a", "5");
    expect(store.apply("MODIFIED", a)).toEqual({ type: "add", object: a });
  });

  it("DELETED is a delete with the event's object and the cached one as old; of an object not cached, nothing", () => {
    const store = new ObjectStore<Ingress>();
    const cached = ingress("web", "a", "1");
    const final = ingress("web", "a", "2");
    store.apply("ADDED", cached);
    const event = store.apply("DELETED", final);
    expect(event).toEqual({ type: "delete", object: final, old: cached, finalStateUnknown: false });
    expect(event?.object).toBe(final);
    expect(store.get("web", "a")).toBeUndefined();
    expect(store.size).toBe(0);
    expect(store.apply("DELETED", final)).toBeUndefined();
  });

  it("a relist adds the new, updates those whose resourceVersion changed, keeps the rest as cached and deletes the missing with finalStateUnknown", () => {
    const store = new ObjectStore<Ingress>();
    const same = ingress("web", "same", "1", { k: "v" });
    const changed = ingress("web", "changed", "1");
    const gone = ingress("api", "gone", "1", { k: "v" });
    for (const o of [same, changed, gone]) store.apply("ADDED", o);
    const sameAgain = ingress("web", "same", "1", { k: "v" });
    const changedNow = ingress("web", "changed", "7");
    const fresh = ingress("", "fresh", "8");
    const events = store.replace([sameAgain, changedNow, fresh]);
    expect(events).toEqual([
      { type: "update", object: changedNow, old: changed },
      { type: "add", object: fresh },
      { type: "delete", object: gone, old: gone, finalStateUnknown: true },
    ]);
    expect(store.get("web", "same")).toBe(same);
    expect(store.get("web", "changed")).toBe(changedNow);
    expect(store.get("api", "gone")).toBeUndefined();
    expect(names(store.byLabel("k", "v"))).toEqual(["web/same"]);
    expect(store.size).toBe(3);
    expect(store.replace([])).toEqual([
      { type: "delete", object: same, old: same, finalStateUnknown: true },
      { type: "delete", object: changedNow, old: changedNow, finalStateUnknown: true },
      { type: "delete", object: fresh, old: fresh, finalStateUnknown: true },
    ]);
    expect(store.size).toBe(0);
    expect(store.list()).toEqual([]);
  });
});

describe("synced()", () => {
  it("resolves once marked, and hasSynced stays true", async () => {
    const store = new ObjectStore<Ingress>();
    expect(store.view.hasSynced).toBe(false);
    store.markSynced();
    expect(store.view.hasSynced).toBe(true);
    await expect(store.view.synced()).resolves.toBeUndefined();
    store.abandon(new Error("too late"));
    await expect(store.view.synced()).resolves.toBeUndefined();
    store.markSynced();
    expect(store.view.hasSynced).toBe(true);
  });

  it("rejects with the reason when abandoned first, and is no unhandled rejection when nobody asks", async () => {
    const asked = new ObjectStore<Ingress>();
    const reason = new Error("stopped");
    asked.abandon(reason);
    await expect(asked.view.synced()).rejects.toBe(reason);
    asked.markSynced();
    await expect(asked.view.synced()).rejects.toBe(reason);
    // Never asked: vitest fails the file on an unhandled rejection.
    new ObjectStore<Ingress>().abandon(new Error("nobody listens"));
  });
});

describe("the view", () => {
  it("shows the store's contents and has no way to change them", () => {
    const store = classIndexed();
    const a = ingress("web", "a", "1", { app: "shop" }, "nginx");
    store.apply("ADDED", a);
    const view = store.view;
    expect(view.get("web", "a")).toBe(a);
    expect(view.list()).toEqual([a]);
    expect(view.list("web")).toEqual([a]);
    expect(view.byLabel("app")).toEqual([a]);
    expect(view.byLabel("app", "shop")).toEqual([a]);
    expect(view.byIndex("className", "nginx")).toEqual([a]);
    expect(view.size).toBe(1);
    expect(Object.keys(view).sort()).toEqual(["byIndex", "byLabel", "get", "hasSynced", "list", "size", "synced"]);
    store.apply("DELETED", a);
    expect(view.size).toBe(0);
  });

  it("hands out a fresh array each time", () => {
    const store = new ObjectStore<Ingress>();
    store.apply("ADDED", ingress("web", "a", "1", { app: "x" }));
    const listed = store.view.list();
    listed.length = 0;
    expect(store.view.list()).toHaveLength(1);
    const labelled = store.view.byLabel("app", "x");
    labelled.pop();
    expect(store.view.byLabel("app", "x")).toHaveLength(1);
  });
});
