// The informer's store on its own: lookups by namespace and name, by label and by the caller's
// indexes stay right through adds, updates, deletes and relists; a relist's diff; synced().
// Each behaviour is checked on the default store and on the compact one (protobuf bytes, decoded
// on each read), where lookups give equal objects rather than the very ones that went in.
import { describe, expect, it } from "vitest";
import { ObjectStore } from "../../../src/client/informer/store.js";
import { FieldsV1Schema, IngressSchema, create, decode, encode, type Ingress } from "../../../src/networking/index.js";

/** `object` as the API server sends it: through the protobuf codec once (every field Go writes is set). */
const wire = (object: Ingress): Ingress => decode(encode(object)) as Ingress;

function ingress(
  namespace: string,
  name: string,
  resourceVersion: string,
  labels: Record<string, string> = {},
  className = "",
): Ingress {
  return wire(
    create(IngressSchema, {
      metadata: { namespace, name, resourceVersion, labels },
      spec: className === "" ? {} : { ingressClassName: className },
    }),
  );
}

const names = (objects: readonly Ingress[]): string[] =>
  objects.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`).sort();

describe.each([false, true])("compact: %s", (compact) => {
  const newStore = (...args: ConstructorParameters<typeof ObjectStore<Ingress>>) =>
    new ObjectStore<Ingress>(args[0], args[1], compact);

  /** What the store gives back for `expected`: that very object, or (compact) an equal new one. */
  function expectHeld(actual: Ingress | undefined | false, expected: Ingress): void {
    expect(actual).toEqual(expected);
    if (compact) expect(actual).not.toBe(expected);
    else expect(actual).toBe(expected);
  }

  function classIndexed() {
    return newStore({
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
      expectHeld(store.get("web", "a"), a);
      expectHeld(store.get("api", "a"), c);
      expectHeld(store.get("", "cluster-wide"), d);
      expect(store.get("web", "c")).toBeUndefined();
      expect(store.get("nowhere", "a")).toBeUndefined();
      expect(names(store.list("web"))).toEqual(["web/a", "web/b"]);
      expect(names(store.list(""))).toEqual(["/cluster-wide"]);
      expect(store.list("nowhere")).toEqual([]);
      expect(names(store.list())).toEqual(["/cluster-wide", "api/a", "web/a", "web/b"]);
      expect(store.size).toBe(4);
    });

    it('keeps an object without metadata under namespace "" and name ""', () => {
      const store = newStore();
      const bare = wire(create(IngressSchema, {}));
      store.apply("ADDED", bare);
      expectHeld(store.get("", ""), bare);
      expect(store.byLabel("app")).toEqual([]);
    });

    it("finds objects by label key, and by key and value, through updates and deletes", () => {
      const store = newStore();
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
      expect(store.byLabel("app", "shop")).toContainEqual(a2);
      expect(store.byIndex("className", "nginx")).toContainEqual(a2);
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
      expect(store.byIndex("className", "nginx")).toContainEqual(a5);
      expect(store.size).toBe(2);
    });

    it("indexes by the label values the object had when it went in, whatever happens to the object later", () => {
      const store = newStore();
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
      const multi = wire(
        create(IngressSchema, {
          metadata: { namespace: "web", name: "multi", resourceVersion: "1" },
          spec: { rules: [{ host: "a.example" }, { host: "b.example" }, { host: "a.example" }] },
        }),
      );
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
      expect(() => newStore().byIndex("nope", "x")).toThrow(/indexes are: \(none\)/);
    });

    it("reports an index function that throws or gives no string array, and leaves the object out of that index only", () => {
      const reported: string[] = [];
      const store = newStore(
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
      expectHeld(store.get("web", "bad"), bad);
      expect(store.byLabel("app", "x")).toEqual([bad]);
      expect(store.byIndex("boom", "ok")).toEqual([good]);
      expect(store.byIndex("shape", "ok")).toEqual([good]);
      store.apply("DELETED", bad);
      expect(store.size).toBe(1);
    });
  });

  describe("the events of each change", () => {
    it("ADDED of a new object is an add; ADDED or MODIFIED of a cached one an update with the cached one as old", () => {
      const store = newStore();
      const a1 = ingress("web", "a", "1");
      const a2 = ingress("web", "a", "2");
      const a3 = ingress("web", "a", "3");
      expect(store.apply("ADDED", a1)).toEqual({ type: "add", object: a1 });
      const update = store.apply("MODIFIED", a2);
      expect(update).toEqual({ type: "update", object: a2, old: a1 });
      expectHeld(update?.type === "update" && update.old, a1);
      expect(store.apply("ADDED", a3)).toEqual({ type: "update", object: a3, old: a2 });
      expectHeld(store.get("web", "a"), a3);
      expect(store.size).toBe(1);
    });

    it("MODIFIED of an object not cached is an add", () => {
      const store = newStore();
      const a = ingress("web", "a", "5");
      expect(store.apply("MODIFIED", a)).toEqual({ type: "add", object: a });
    });

    it("DELETED is a delete with the event's object and the cached one as old; of an object not cached, nothing", () => {
      const store = newStore();
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
      const store = newStore();
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
      expectHeld(store.get("web", "same"), same);
      expectHeld(store.get("web", "changed"), changedNow);
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

  describe("the view", () => {
    it("shows the store's contents and has no way to change them", () => {
      const store = classIndexed();
      const a = ingress("web", "a", "1", { app: "shop" }, "nginx");
      store.apply("ADDED", a);
      const view = store.view;
      expect(view.get("web", "a")).toEqual(a);
      if (compact) expect(view.get("web", "a")).not.toBe(view.get("web", "a"));
      else expect(view.get("web", "a")).toBe(a);
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
      const store = newStore();
      store.apply("ADDED", ingress("web", "a", "1", { app: "x" }));
      const listed = store.view.list();
      listed.length = 0;
      expect(store.view.list()).toHaveLength(1);
      const labelled = store.view.byLabel("app", "x");
      labelled.pop();
      expect(store.view.byLabel("app", "x")).toHaveLength(1);
    });
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

describe("the compact store", () => {
  const compactStore = () =>
    new ObjectStore<Ingress>(
      { className: (i) => (i.spec?.ingressClassName ? [i.spec.ingressClassName] : []) },
      () => {},
      true,
    );

  it("gives a new, equal object on each read, which a caller's change does not reach", () => {
    const store = compactStore();
    const a = ingress("web", "a", "1", { app: "shop" }, "nginx");
    store.apply("ADDED", a);
    const first = store.get("web", "a")!;
    const again = store.get("web", "a")!;
    expect(first).toEqual(a);
    expect(again).toEqual(a);
    expect(again).not.toBe(first);
    expect(store.list()[0]).not.toBe(first);
    first.metadata!.labels["app"] = "changed";
    a.metadata!.name = "renamed after it went in";
    expect(store.get("web", "a")).toEqual(ingress("web", "a", "1", { app: "shop" }, "nginx"));
    expect(names(store.byLabel("app", "shop"))).toEqual(["web/a"]);
  });

  it("keeps every field of a real object through the bytes", () => {
    const store = compactStore();
    const full = wire(
      create(IngressSchema, {
        metadata: {
          namespace: "web",
          name: "full",
          resourceVersion: "9",
          uid: "0b4c5d1e-1111-2222-3333-444455556666",
          labels: { app: "shop" },
          annotations: { note: "x" },
          managedFields: [
            {
              manager: "kubectl",
              operation: "Apply",
              fieldsV1: create(FieldsV1Schema, { Raw: new TextEncoder().encode('{"f:spec":{}}') }),
            },
          ],
        },
        spec: {
          ingressClassName: "nginx",
          rules: [
            {
              host: "shop.example",
              ingressRuleValue: {
                http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "shop" } } }] },
              },
            },
          ],
        },
      }),
    );
    store.apply("ADDED", full);
    expect(store.get("web", "full")).toEqual(full);
    expect(store.byIndex("className", "nginx")).toEqual([full]);
  });

  it("decodes an update's and a delete's old only when read, as the object cached then, the same object on each read", () => {
    const store = compactStore();
    const a1 = ingress("web", "a", "1", { app: "shop" });
    const a2 = ingress("web", "a", "2", { app: "cart" });
    const a3 = ingress("web", "a", "3");
    store.apply("ADDED", a1);
    const update = store.apply("MODIFIED", a2)!;
    const deleted = store.apply("DELETED", a3)!;
    // Read after later changes: still the objects as they were cached at each event.
    for (const [event, old] of [
      [update, a1],
      [deleted, a2],
    ] as const) {
      expect(Object.keys(event)).toEqual(
        event.type === "delete" ? ["type", "object", "old", "finalStateUnknown"] : ["type", "object", "old"],
      );
      expect(typeof Object.getOwnPropertyDescriptor(event, "old")?.get).toBe("function");
      if (event.type === "add") throw new Error("an update or delete expected");
      const read = event.old;
      expect(read).toEqual(old);
      expect(read).not.toBe(old);
      expect(event.old).toBe(read);
      expect({ ...event }).toEqual({ ...event, old });
    }
    expect(update.object).toBe(a2);
    expect(deleted.object).toBe(a3);
    expect(deleted).toMatchObject({ finalStateUnknown: false });
  });

  it("has a relist's finalStateUnknown delete carry one decoded object as both object and old", () => {
    const store = compactStore();
    const gone = ingress("web", "gone", "1");
    store.apply("ADDED", gone);
    const [event, ...more] = store.replace([]);
    expect(more).toEqual([]);
    expect(event).toEqual({ type: "delete", object: gone, old: gone, finalStateUnknown: true });
    expect(event?.type === "delete" && event.old).toBe(event?.object);
  });
});
