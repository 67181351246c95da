// clusterwire/client's informer against a real kube-apiserver (and etcd) on loopback, through the
// public client only: changes made with the client arrive as add/update/delete (with the old
// object); an etcd compaction behind a held watch makes it list again, and the store ends equal
// to a fresh list; a dropped connection is resumed from the last resourceVersion without a list;
// a rotated and revoked service-account token is followed (the informer's reconnects read the
// token file again, a plain call re-reads it after its 401); and 10,000 NetworkPolicies are
// listed in 20 pages and synced. Skipped when the control plane is not built (`npm run
// apiserver` builds it).
//
// The planes run with the watch cache off for IngressClasses only
// (--watch-cache-sizes=ingressclasses.networking.k8s.io#0): a watch resumed from a compacted
// resourceVersion then reaches etcd and gets an ERROR event with code 410. With the cache on (as
// for the other kinds here), the cache replays its history and no 410 comes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  type ClientObject,
  type ClusterCredentials,
  createClient,
  createInformer,
  type Informer,
  type InformerEvent,
  type InformerOptions,
  type ListWatcher,
  type ResourceClient,
} from "../../../src/client/index.js";
import { create, IngressClassSchema, IngressSchema, NetworkPolicySchema } from "../../../src/networking/index.js";
import { type ApiServerGate, startGate } from "../../support/apiserver/gate.js";
import { type DelayProxy, startDelayProxy } from "../../support/apiserver/delay-proxy.js";
import { createMany } from "../../support/controlplane/bulk.js";
import { compactEtcd } from "../../support/controlplane/etcd.js";
import { createNetworkingServiceAccount, mintRevocableToken } from "../../support/controlplane/service-accounts.js";
import {
  apiRequest,
  type ControlPlane,
  controlPlaneBuilt,
  DEFAULT_VERSION,
  startControlPlane,
} from "../../support/controlplane/start.js";

const VERSIONS_UNDER_TEST = [DEFAULT_VERSION, "v1.37.2"];
for (const version of VERSIONS_UNDER_TEST) {
  if (!controlPlaneBuilt(version)) {
    console.warn(
      `test/suites/apiserver/client-informer.test.ts: ${version} skipped, the control plane is not built; \`npm run apiserver\` builds it`,
    );
  }
}

const BULK = 10_000;
const PAGE = 500;

/** A log line of an informer. */
interface LogLine {
  readonly level: "info" | "warn";
  readonly message: string;
  readonly fields: Record<string, string | number>;
}

/** A ListWatcher that counts the lists and keeps the options of each watch. */
interface Counted<T> extends ListWatcher<T> {
  readonly lists: number;
  readonly watchFrom: readonly string[];
}

function counted<T>(source: ListWatcher<T>): Counted<T> {
  let lists = 0;
  const watchFrom: string[] = [];
  return {
    get lists() {
      return lists;
    },
    watchFrom,
    list(options) {
      lists++;
      return source.list(options);
    },
    watch(options) {
      watchFrom.push(options?.resourceVersion ?? "");
      return source.watch(options);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it is true; throws naming `what` after `timeoutMs`. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** The next event of `events`, or a failure naming `what` after `timeoutMs`. */
async function next<T>(
  events: AsyncIterator<InformerEvent<T>>,
  what: string,
  timeoutMs = 30_000,
): Promise<InformerEvent<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no event within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const result = await Promise.race([events.next(), timeout]);
    if (result.done === true) throw new Error(`${what}: the events ended`);
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

/** namespace/name@resourceVersion of each object, sorted: what a store and a list are compared by. */
const keys = (objects: readonly ClientObject[]): string[] =>
  objects
    .map((o) => `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}@${o.metadata?.resourceVersion ?? ""}`)
    .sort();

const nameOf = (event: InformerEvent<ClientObject>): string => event.object.metadata?.name ?? "";

const ingress = (namespace: string, name: string, labels: Record<string, string>) =>
  create(IngressSchema, {
    metadata: { name, namespace, labels },
    spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
  });
const ingressClass = (name: string) =>
  create(IngressClassSchema, { metadata: { name, labels: { tier: "a" } }, spec: { controller: "example.com/lb" } });
const policyJson = (namespace: string, name: string) => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "NetworkPolicy",
  metadata: { name, namespace, labels: { app: "bulk" } },
  spec: { podSelector: { matchLabels: { app: name } }, policyTypes: ["Ingress"] },
});

for (const version of VERSIONS_UNDER_TEST) {
  describe.skipIf(!controlPlaneBuilt(version))(
    `clusterwire/client's informer against kube-apiserver ${version}`,
    () => {
      let plane: ControlPlane;
      let admin: Client;
      let dir = "";
      const cleanup: (() => unknown)[] = [];

      const credentials = (server = plane.url): ClusterCredentials => ({
        server,
        ca: Buffer.from(plane.caPem),
        token: plane.token,
        source: "test",
      });
      /** A client of `credentials`, closed after the test. */
      const clientOf = (c: ClusterCredentials, format: "protobuf" | "json" = "protobuf"): Client => {
        const made = createClient({ credentials: c, format });
        cleanup.push(() => made.close());
        return made;
      };
      /** A started informer over a counted `source`, its log kept; stopped after the test. */
      function informerOf<T extends ClientObject>(
        source: ResourceClient<T>,
        options: InformerOptions<T> = {},
      ): { informer: Informer<T>; source: Counted<T>; logs: LogLine[] } {
        const logs: LogLine[] = [];
        const c = counted(source);
        const informer = createInformer(c, {
          minBackoffMs: 50,
          maxBackoffMs: 1_000,
          ...options,
          log: (level, message, fields = {}) => logs.push({ level, message, fields }),
        });
        cleanup.push(() => informer.stop());
        return { informer, source: c, logs };
      }
      const namespace = async (name: string) => {
        const made = await apiRequest(plane, "POST", "/api/v1/namespaces", {
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name },
        });
        expect(made.status, made.body).toBe(201);
      };

      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), "clusterwire-informer-"));
        plane = await startControlPlane({
          version,
          apiserverFlags: ["--watch-cache-sizes=ingressclasses.networking.k8s.io#0"],
        });
        admin = createClient({ credentials: credentials() });
      }, 120_000);
      afterEach(async () => {
        for (const f of cleanup.splice(0).reverse()) await f();
      }, 30_000);
      afterAll(async () => {
        admin?.close();
        await plane?.stop();
        if (dir !== "") rmSync(dir, { recursive: true, force: true });
      }, 60_000);

      for (const format of ["protobuf", "json"] as const) {
        it(`${format}: creates, updates and deletes through the client arrive as add, update (with old) and delete (with old); store and byLabel follow`, async () => {
          const ns = `crud-${format}`;
          await namespace(ns);
          const client = clientOf(credentials(), format);
          const { informer } = informerOf(client.ingresses, { namespace: ns });
          const events = informer.events();
          informer.start();
          await informer.store.synced();
          expect(informer.store.size).toBe(0);

          const made = await client.ingresses.create(ingress(ns, "shop", { app: "shop", tier: "front" }));
          const added = await next(events, "the add");
          expect(added.type).toBe("add");
          expect(nameOf(added)).toBe("shop");
          expect(added.object.metadata?.resourceVersion).toBe(made.metadata?.resourceVersion);
          expect(informer.store.get(ns, "shop")).toBe(added.object);
          expect(informer.store.byLabel("tier", "front").map((o) => o.metadata?.name)).toEqual(["shop"]);

          made.metadata!.labels = { app: "shop", tier: "back" };
          const updated = await client.ingresses.update(made);
          const update = await next(events, "the update");
          if (update.type !== "update") throw new Error(`expected an update, got ${update.type}`);
          expect(update.object.metadata?.resourceVersion).toBe(updated.metadata?.resourceVersion);
          expect(update.old).toBe(added.object);
          expect(update.old.metadata?.labels).toEqual({ app: "shop", tier: "front" });
          expect(informer.store.byLabel("tier", "front")).toEqual([]);
          expect(informer.store.byLabel("tier", "back").map((o) => o.metadata?.name)).toEqual(["shop"]);
          expect(informer.store.byLabel("app").map((o) => o.metadata?.name)).toEqual(["shop"]);

          await client.ingresses.create(ingress(ns, "cart", { app: "cart" }));
          expect(nameOf(await next(events, "the second add"))).toBe("cart");
          expect(keys(informer.store.list(ns))).toEqual(
            keys((await client.ingresses.listAll({ namespace: ns })).items),
          );

          await client.ingresses.delete("shop", { namespace: ns });
          const deleted = await next(events, "the delete");
          if (deleted.type !== "delete") throw new Error(`expected a delete, got ${deleted.type}`);
          expect(nameOf(deleted)).toBe("shop");
          expect(deleted.finalStateUnknown).toBe(false);
          expect(deleted.old).toBe(update.object);
          expect(informer.store.get(ns, "shop")).toBeUndefined();
          expect(informer.store.byLabel("tier")).toEqual([]);
          expect(informer.store.list(ns).map((o) => o.metadata?.name)).toEqual(["cart"]);
        }, 60_000);
      }

      it("relists after etcd is compacted behind a held watch (ERROR 410), and ends with the store equal to a fresh list", async () => {
        const gate: ApiServerGate = await startGate(plane);
        cleanup.push(() => gate.close());
        for (const name of ["kept", "gone"]) await admin.ingressClasses.create(ingressClass(name));
        const client = clientOf(credentials(gate.url));
        const { informer, source, logs } = informerOf(client.ingressClasses);
        const seen: InformerEvent<ClientObject>[] = [];
        for (const type of ["add", "update", "delete"] as const) informer.on(type, (e) => seen.push(e));
        informer.start();
        await informer.store.synced();
        expect(informer.store.list().map((o) => o.metadata?.name)).toEqual(expect.arrayContaining(["kept", "gone"]));
        // The watch is live once an event made after the list arrives through it.
        await admin.ingressClasses.create(ingressClass("live"));
        await until(() => informer.store.get("", "live") !== undefined, "the live event");
        const watchesBefore = source.watchFrom.length;

        // Hold the gate and cut the watch: its reopening waits in the gate, from the last resourceVersion.
        gate.hold();
        expect(gate.cutWatches()).toBe(1);
        await until(() => source.watchFrom.length > watchesBefore && gate.waiting > 0, "the held reopening");
        const resumeFrom = source.watchFrom.at(-1) ?? "";
        expect(resumeFrom).toBe(informer.resourceVersion);

        // Meanwhile: an add, an update and a delete, and etcd compacted past them all.
        await admin.ingressClasses.create(ingressClass("gap"));
        const kept = await admin.ingressClasses.get("kept");
        kept.metadata!.labels = { tier: "b" };
        await admin.ingressClasses.update(kept);
        await admin.ingressClasses.delete("gone");
        const { revision } = await compactEtcd(plane);
        expect(revision).toBeGreaterThan(Number(resumeFrom));
        const listsBefore = source.lists;
        const seenBefore = seen.length;
        gate.release();

        await until(() => logs.filter((l) => l.message === "listed").length >= 2, "the relist");
        const expired = logs.filter((l) => l.message.startsWith("the watch's resourceVersion expired"));
        console.info(
          `[${version}] resumed from ${resumeFrom}, compacted at ${revision}: ${source.lists - listsBefore} list(s) after the release; ` +
            `log: ${logs.map((l) => l.message).join(" | ")}`,
        );
        expect(expired.length).toBeGreaterThanOrEqual(1);
        expect(expired[0]?.fields["resourceVersion"]).toBe(resumeFrom);
        expect(source.lists).toBeGreaterThan(listsBefore);
        // The relist's diff: the add, the update with its old object, the delete the watch never told.
        const diff = seen.slice(seenBefore).map((e) => {
          const extra = e.type === "delete" ? ` finalStateUnknown=${String(e.finalStateUnknown)}` : "";
          const old = e.type === "add" ? "" : ` old tier=${e.old.metadata?.labels["tier"] ?? ""}`;
          return `${e.type} ${nameOf(e)}${old}${extra}`;
        });
        expect(diff.sort()).toEqual([
          "add gap",
          "delete gone old tier=a finalStateUnknown=true",
          "update kept old tier=a",
        ]);
        const fresh = await admin.ingressClasses.listAll();
        expect(keys(informer.store.list())).toEqual(keys(fresh.items));
        expect(informer.store.get("", "kept")?.metadata?.labels).toEqual({ tier: "b" });
        // And it watches again: a later change arrives.
        await admin.ingressClasses.create(ingressClass("after"));
        await until(() => informer.store.get("", "after") !== undefined, "an event after the relist");
      }, 90_000);

      it("resumes a dropped connection from its last resourceVersion without listing again", async () => {
        const ns = "dropped";
        await namespace(ns);
        const proxy: DelayProxy = await startDelayProxy(plane.url);
        cleanup.push(() => proxy.close());
        await admin.ingresses.create(ingress(ns, "first", { app: "a" }));
        const client = clientOf(credentials(proxy.url));
        const { informer, source, logs } = informerOf(client.ingresses, { namespace: ns });
        const events = informer.events();
        informer.start();
        await informer.store.synced();
        expect(nameOf(await next(events, "the listed add"))).toBe("first");
        await admin.ingresses.create(ingress(ns, "live", { app: "a" }));
        expect(nameOf(await next(events, "the live add"))).toBe("live");
        const watchesBefore = source.watchFrom.length;

        expect(await proxy.cut()).toBeGreaterThanOrEqual(1);
        // Nothing reaches the informer now until it reconnects: this is where it must resume from.
        const rvAtCut = informer.resourceVersion;
        await admin.ingresses.create(ingress(ns, "after-cut", { app: "a" }));
        const after = await next(events, "the add made after the cut");
        expect(nameOf(after)).toBe("after-cut");
        expect(after.type).toBe("add");

        expect(source.watchFrom.length).toBeGreaterThan(watchesBefore);
        expect(source.watchFrom[watchesBefore]).toBe(rvAtCut);
        expect(source.lists).toBe(1);
        expect(logs.filter((l) => l.message === "listed")).toHaveLength(1);
        expect(logs.some((l) => l.level === "warn" && l.message === "the watch failed; trying again")).toBe(true);
        expect(keys(informer.store.list(ns))).toEqual(keys((await admin.ingresses.listAll({ namespace: ns })).items));
      }, 60_000);

      it("follows a rotated token: after the old one is revoked, the informer's reconnects and a plain call use the new one", async () => {
        const ns = "rotation";
        const account = await createNetworkingServiceAccount(plane, ns, "watcher");
        const a = await mintRevocableToken(plane, account);
        const b = await mintRevocableToken(plane, account);
        // One file per reader: the token cache is per file, so the plain client's stays stale.
        const informerFile = join(dir, "informer-token");
        const clientFile = join(dir, "client-token");
        for (const f of [informerFile, clientFile]) writeFileSync(f, a.token);
        const base = { server: plane.url, ca: Buffer.from(plane.caPem), source: "test" };
        const watcher = clientOf({ ...base, tokenFile: informerFile, tokenRefreshMs: 200 });
        const plain = clientOf({ ...base, tokenFile: clientFile });
        const { informer, source, logs } = informerOf(watcher.networkPolicies, {
          namespace: ns,
          watchSeconds: 1,
          maxBackoffMs: 200,
        });
        const events = informer.events();
        informer.start();
        await informer.store.synced();
        expect((await plain.networkPolicies.list({ namespace: ns })).items).toEqual([]);
        await admin.networkPolicies.create(
          create(NetworkPolicySchema, { metadata: { name: "before", namespace: ns } }),
        );
        expect(nameOf(await next(events, "the add before the rotation"))).toBe("before");

        for (const f of [informerFile, clientFile]) writeFileSync(f, b.token);
        const revokedMs = await a.revoke();
        // A watch opened after the revocation: it can only have authenticated with b.
        const watches = source.watchFrom.length;
        await until(() => source.watchFrom.length > watches, "a watch after the revocation");
        await admin.networkPolicies.create(create(NetworkPolicySchema, { metadata: { name: "after", namespace: ns } }));
        const after = await next(events, "the add after the revocation");
        expect([after.type, nameOf(after)]).toEqual(["add", "after"]);
        // The plain client still holds a (read a minute ago at most): its 401 makes it read the file again.
        const listed = await plain.networkPolicies.list({ namespace: ns });
        expect(listed.items.map((p) => p.metadata?.name).sort()).toEqual(["after", "before"]);
        console.info(
          `[${version}] token revoked after ${revokedMs} ms; ${source.watchFrom.length} watches, ${source.lists} list(s); ` +
            `${logs.filter((l) => l.level === "warn").length} warn line(s)`,
        );
        expect(source.lists).toBe(1);
      }, 90_000);

      it(`lists ${BULK.toLocaleString("en")} NetworkPolicies in pages of ${PAGE}, and an informer syncs them all`, async () => {
        const ns = "bulk";
        await namespace(ns);
        const path = `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`;
        const made = await createMany(
          plane,
          Array.from({ length: BULK }, (_, i) => ({ path, body: policyJson(ns, `policy-${i}`) })),
          { concurrency: 32 },
        );
        expect(made.resourceVersions.filter((rv) => rv !== "")).toHaveLength(BULK);

        const started = performance.now();
        let pages = 0;
        let token = "";
        const remaining: number[] = [];
        do {
          const page = await admin.networkPolicies.list({
            namespace: ns,
            limit: PAGE,
            ...(token === "" ? {} : { continue: token }),
          });
          pages++;
          expect(page.items.length).toBe(PAGE);
          remaining.push(page.remainingItemCount ?? 0);
          token = page.continue;
        } while (token !== "");
        const listMs = performance.now() - started;
        expect(pages).toBe(BULK / PAGE);
        expect(remaining.at(0)).toBe(BULK - PAGE);
        expect(remaining.at(-1)).toBe(0);

        const all = await admin.networkPolicies.listAll({ namespace: ns, limit: PAGE });
        expect(all.items).toHaveLength(BULK);
        expect(new Set(all.items.map((p) => p.metadata?.name)).size).toBe(BULK);
        expect(Number(all.resourceVersion)).toBeGreaterThanOrEqual(Number(made.maxResourceVersion));

        const syncStarted = performance.now();
        const { informer, source } = informerOf(admin.networkPolicies, { namespace: ns, pageSize: PAGE });
        informer.start();
        await informer.store.synced();
        const syncMs = performance.now() - syncStarted;
        expect(informer.store.size).toBe(BULK);
        expect(source.lists).toBe(BULK / PAGE);
        expect(informer.store.byLabel("app", "bulk")).toHaveLength(BULK);
        expect(keys(informer.store.list(ns))).toEqual(keys(all.items));
        console.info(
          `[${version}] created ${BULK} NetworkPolicies in ${made.seconds.toFixed(1)} s (${made.retried} retried 429s); ` +
            `listed in ${pages} pages in ${Math.round(listMs)} ms; informer synced in ${Math.round(syncMs)} ms`,
        );
      }, 240_000);
    },
  );
}
