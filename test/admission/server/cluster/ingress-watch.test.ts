import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IngressCaptureIndex } from "../../../../src/admission/guards/ingress-capture.js";
import type { ClusterCredentials } from "../../../../src/client/index.js";
import { startIngressWatch, type IngressWatch } from "../../../../src/admission/server/cluster/ingress-watch.js";
import { fromJson, type Ingress, type JsonObject } from "../../../../src/networking/index.js";
import { startFakeApiServer, type FakeApiServer } from "../../../support/admission/fake-api-server.js";
import { hostIngress } from "../../../support/admission/ingresses.js";
import { skipWithout } from "../../../support/tools.js";
import { certProblem } from "../../../support/storage/cert.js";

/** Whether the index knows `ns/name` on `host`: a capturing probe from another namespace names it. */
function serves(index: IngressCaptureIndex, key: string, host: string): boolean {
  const probe = fromJson(hostIngress("probe-ns", "probe", host)) as Ingress;
  return index.check(probe).some((c) => c.victim === key);
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(
  watchOptions: { resyncMs?: number; watchSeconds?: number; requestTimeoutMs?: number } = {},
  credentials?: (fake: FakeApiServer) => ClusterCredentials,
  stalled = false,
): Promise<{ fake: FakeApiServer; index: IngressCaptureIndex; watch: IngressWatch; logs: string[] } | undefined> {
  const fake = await startFakeApiServer({ pageSize: 1000 });
  if (fake === undefined) return undefined;
  cleanup.push(() => fake.close());
  for (let i = 0; i < 5; i++) fake.apply(hostIngress(`ns-${i}`, "web", `app-${i}.example.com`));
  fake.stalled = stalled;
  const index = new IngressCaptureIndex();
  const logs: string[] = [];
  const watch = startIngressWatch(index, {
    credentials: credentials?.(fake) ?? {
      server: fake.url,
      ca: Buffer.from(fake.ca),
      token: fake.token,
      source: "test",
    },
    pageSize: 2,
    minBackoffMs: 10,
    maxBackoffMs: 100,
    requestTimeoutMs: 5_000,
    ...watchOptions,
    log: (level, msg, fields) => logs.push(JSON.stringify({ level, msg, ...fields })),
  });
  cleanup.push(() => watch.stop());
  return { fake, index, watch, logs };
}

const lists = (fake: FakeApiServer) => fake.requests.filter((r) => r.query.get("watch") === null);
const watchRequests = (fake: FakeApiServer) => fake.requests.filter((r) => r.query.get("watch") === "1");

describe("startIngressWatch against a fake API server (protobuf list and watch)", () => {
  it("lists page by page, syncs the index, then watches from the list's resourceVersion with bookmarks", async (t) => {
    const s = await setup();
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, index, watch } = s;
    await watch.synced;
    expect(index.synced).toBe(true);
    expect(index.size).toBe(5);
    const pages = lists(fake);
    expect(pages.map((r) => [r.query.get("limit"), r.query.get("continue") !== null])).toEqual([
      ["2", false],
      ["2", true],
      ["2", true],
    ]);
    expect(pages.every((r) => r.authorized && r.accept === "application/vnd.kubernetes.protobuf")).toBe(true);
    // The API server's audit log tells the guard's requests apart.
    expect(new Set(fake.requests.map((r) => r.userAgent))).toEqual(new Set(["clusterwire-webhook"]));
    await fake.until(() => fake.watches.open === 1, "the watch");
    const w = watchRequests(fake)[0]!;
    expect(w.query.get("resourceVersion")).toBe(String(fake.resourceVersion));
    expect(w.query.get("allowWatchBookmarks")).toBe("true");
    expect(Number(w.query.get("timeoutSeconds"))).toBeGreaterThan(0);
    expect(w.accept).toBe("application/vnd.kubernetes.protobuf;stream=watch");
  });

  it("applies ADDED, MODIFIED and DELETED events, and resumes from a BOOKMARK's resourceVersion after a dropped connection", async (t) => {
    const s = await setup();
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, index, watch } = s;
    await watch.synced;
    await fake.until(() => fake.watches.open === 1, "the watch");
    fake.apply(hostIngress("shop", "web", "shop.example.com"));
    await fake.until(() => serves(index, "shop/web", "shop.example.com"), "ADDED");
    fake.apply(hostIngress("shop", "web", "moved.example.com"));
    await fake.until(() => serves(index, "shop/web", "moved.example.com"), "MODIFIED");
    expect(serves(index, "shop/web", "shop.example.com")).toBe(false);
    fake.remove("ns-0", "web");
    await fake.until(() => index.size === 5 && !serves(index, "ns-0/web", "app-0.example.com"), "DELETED");
    fake.bookmark();
    const mark = fake.resourceVersion;
    await fake.until(() => watch.resourceVersion === String(mark), "the BOOKMARK");
    // Cut the connection: the client reconnects from the bookmark.
    fake.dropWatches();
    await fake.until(() => watchRequests(fake).length === 2 && fake.watches.open === 1, "the reconnect");
    expect(watchRequests(fake)[1]!.query.get("resourceVersion")).toBe(String(mark));
    expect(lists(fake)).toHaveLength(3);
    fake.apply(hostIngress("late", "web", "late.example.com"));
    await fake.until(() => serves(index, "late/web", "late.example.com"), "an event after the reconnect");
  });

  for (const how of ["event", "http"] as const) {
    it(`relists after an expired resourceVersion (${how === "event" ? "an ERROR event with a 410 Status" : "HTTP 410 on the next watch"})`, async (t) => {
      const s = await setup();
      if (s === undefined) return skipWithout(t, "openssl", certProblem());
      const { fake, index, watch, logs } = s;
      await watch.synced;
      await fake.until(() => fake.watches.open === 1, "the watch");
      // A change the watch never delivers: only a relist can learn it.
      fake.applySilently(hostIngress("missed", "web", "missed.example.com"));
      fake.expire(how);
      await fake.until(() => serves(index, "missed/web", "missed.example.com"), "the relist");
      expect(lists(fake).filter((r) => r.query.get("continue") === null)).toHaveLength(2);
      const why = how === "event" ? "ERROR event, code 410" : "HTTP 410";
      expect(
        logs
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .some(
            (l) =>
              l["resource"] === "ingresses" &&
              l["msg"] === `the watch's resourceVersion expired (${why}): listing again`,
          ),
      ).toBe(true);
      await fake.until(() => fake.watches.open === 1, "the new watch");
    });
  }

  it("relists every resync period", async (t) => {
    const s = await setup({ resyncMs: 300 });
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, index, watch } = s;
    await watch.synced;
    fake.applySilently(hostIngress("missed", "web", "missed.example.com"));
    await fake.until(() => serves(index, "missed/web", "missed.example.com"), "the resync");
    expect(lists(fake).filter((r) => r.query.get("continue") === null).length).toBeGreaterThanOrEqual(2);
  });

  it("reopens a watch the server ends, from the last resourceVersion", async (t) => {
    const s = await setup({ watchSeconds: 1 });
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, watch } = s;
    await watch.synced;
    await fake.until(() => fake.watches.open === 1, "the watch");
    fake.dropWatches();
    await fake.until(() => watchRequests(fake).length >= 2 && fake.watches.open === 1, "a second watch");
    expect(lists(fake)).toHaveLength(3);
  });

  it("retries with backoff while the token is refused, and reads a rotated token file again", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "clusterwire-token-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const tokenFile = join(dir, "token");
    writeFileSync(tokenFile, "stale\n");
    const s = await setup({}, (fake) => ({ server: fake.url, ca: Buffer.from(fake.ca), tokenFile, source: "test" }));
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, index, logs } = s;
    await fake.until(() => fake.requests.length >= 3, "retries");
    expect(index.synced).toBe(false);
    expect(fake.requests.every((r) => !r.authorized)).toBe(true);
    writeFileSync(tokenFile, `${fake.token}\n`);
    await fake.until(() => index.synced, "the sync with the rotated token");
    expect(logs.some((l) => l.includes("HTTP 401"))).toBe(true);
    // The token never reaches a log line.
    expect(logs.some((l) => l.includes(fake.token) || l.includes("stale"))).toBe(false);
  });

  it("gives up on a request that gets no answer within the timeout, and tries again", async (t) => {
    const s = await setup({ requestTimeoutMs: 100 }, undefined, true);
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, index, watch, logs } = s;
    await fake.until(() => fake.requests.length >= 2, "a second attempt");
    expect(index.synced).toBe(false);
    expect(logs.some((l) => l.includes("no response headers within 100 ms"))).toBe(true);
    fake.stalled = false;
    await watch.synced;
    expect(index.size).toBe(5);
  });

  it("by controller: lists and watches IngressClasses too, and is synced only when both lists are in", async (t) => {
    const fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    cleanup.push(() => fake.close());
    const cls = (name: string, controller: string): JsonObject => ({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name },
      spec: { controller },
    });
    const classed = (ns: string, name: string, host: string, className: string): JsonObject => {
      const o = hostIngress(ns, name, host) as { spec: Record<string, unknown> };
      o.spec["ingressClassName"] = className;
      return o as unknown as JsonObject;
    };
    fake.apply(cls("nginx", "k8s.io/ingress-nginx"));
    fake.apply(cls("nginx-internal", "k8s.io/other"));
    fake.apply(classed("shop", "web", "shop.example.com", "nginx"));
    const index = new IngressCaptureIndex({ byController: true });
    const logs: Record<string, unknown>[] = [];
    const watch = startIngressWatch(index, {
      credentials: { server: fake.url, ca: Buffer.from(fake.ca), token: fake.token, source: "test" },
      minBackoffMs: 10,
      maxBackoffMs: 100,
      log: (level, msg, fields) => logs.push({ level, msg, ...fields }),
    });
    cleanup.push(() => watch.stop());
    await watch.synced;
    expect(index.synced).toBe(true);
    // Each informer's lines say which resource they are about.
    const listed = logs.filter((l) => l["msg"] === "listed");
    expect(listed.map((l) => [l["resource"], l["count"]]).sort()).toEqual([
      ["ingressclasses", 2],
      ["ingresses", 1],
    ]);
    const paths = new Set(fake.requests.map((r) => r.path));
    expect(paths).toEqual(
      new Set(["/apis/networking.k8s.io/v1/ingresses", "/apis/networking.k8s.io/v1/ingressclasses"]),
    );
    const grab = fromJson(classed("evil", "grab", "shop.example.com", "nginx-internal")) as Ingress;
    expect(index.check(grab)).toEqual([]);
    // A MODIFIED IngressClass hands nginx-internal to the same controller: now the two compete.
    fake.apply(cls("nginx-internal", "k8s.io/ingress-nginx"));
    await fake.until(() => index.check(grab).length === 1, "the class event");
    fake.remove("", "nginx-internal", "IngressClass");
    await fake.until(() => index.check(grab).length === 0, "the class deletion");
  });

  it("stops: the watch connection closes and no request follows", async (t) => {
    const s = await setup();
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, watch } = s;
    await watch.synced;
    await fake.until(() => fake.watches.open === 1, "the watch");
    await watch.stop();
    await fake.until(() => fake.watches.open === 0, "the watch to close");
    const seen = fake.requests.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.requests.length).toBe(seen);
  });

  it("stopped before the first list: synced stays pending (never rejects), and stop resolves", async (t) => {
    const s = await setup({}, undefined, true);
    if (s === undefined) return skipWithout(t, "openssl", certProblem());
    const { fake, index, watch } = s;
    await fake.until(() => fake.requests.length >= 1, "the first list");
    await watch.stop();
    const settled = await Promise.race([
      watch.synced.then(
        () => "resolved",
        () => "rejected",
      ),
      new Promise((resolve) => setImmediate(() => resolve("pending"))),
    ]);
    expect(settled).toBe("pending");
    expect(index.synced).toBe(false);
  });

  it("refuses options out of range with a RangeError, before any request", async (t) => {
    const fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    cleanup.push(() => fake.close());
    const credentials = { server: fake.url, ca: Buffer.from(fake.ca), token: fake.token, source: "test" };
    for (const bad of [{ pageSize: 0 }, { minBackoffMs: 100, maxBackoffMs: 10 }, { requestTimeoutMs: -1 }]) {
      expect(() => startIngressWatch(new IngressCaptureIndex(), { credentials, ...bad }), JSON.stringify(bad)).toThrow(
        RangeError,
      );
    }
    expect(fake.requests).toEqual([]);
  });
});
