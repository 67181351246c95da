// The reference server's caches (src/storage/server/caches.ts) over real HTTP on loopback:
// created, changed and deleted through jobs, and return_timeout.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});
const CACHES = "/api/storage/cache/caches";

describe("caches and jobs", () => {
  const origin = [{ volume: { name: "vol1" }, svm: { name: "svm1" } }];

  it("creates a cache through a job (queued → running → success) with defaults", async () => {
    const r = await h.call("POST", CACHES, { name: "c1", svm: { name: "svm1" }, origins: origin, path: "/Cache1" });
    expect(r.status).toBe(202);
    const href = r.body.job._links.self.href as string;
    expect(href).toBe(`/api/cluster/jobs/${r.body.job.uuid}`);
    expect((await h.call("GET", href)).body).toMatchObject({
      state: "queued",
      description: "POST /api/storage/cache/caches",
    });
    expect((await h.call("GET", CACHES)).body.num_records).toBe(0);
    h.clock.advance(1000);
    expect((await h.call("GET", href)).body.state).toBe("running");
    h.clock.advance(1000);
    const job = (await h.call("GET", href)).body;
    expect(job).toMatchObject({ state: "success", message: "success", code: 0 });
    const list = await h.call("GET", CACHES);
    expect(list.body.records).toHaveLength(1);
    expect(Object.keys(list.body.records[0]).sort()).toEqual(["_links", "name", "uuid"]);
    const one = await h.call("GET", list.body.records[0]._links.self.href);
    expect(one.body).toMatchObject({
      name: "c1",
      path: "/Cache1",
      size: 10 * 1024 ** 3,
      guarantee: { type: "none" },
      writeback: { enabled: false },
      relative_size: { enabled: false, percentage: 10 },
      atime_scrub: { enabled: false, period: 30 },
      cifs_change_notify: { enabled: false },
      dr_cache: false,
      use_tiered_aggregate: false,
      global_file_locking_enabled: false,
      override_encryption: false,
      origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" }, state: "online", size: 100 * 1024 ** 3 }],
    });
    expect(one.body.prepopulate).toBeUndefined();
    expect(one.body.is_disconnected_mode_off_for_locks).toBeUndefined();
    const listed = await h.call("GET", `${CACHES}?fields=path,origins.state`);
    expect(listed.body.records[0]).toMatchObject({ path: "/Cache1", origins: [{ state: "online" }] });
    expect(listed.body.records[0].size).toBeUndefined();
    expect((await h.call("GET", `${CACHES}?fields=**`)).body.records[0].size).toBe(10 * 1024 ** 3);
    // Jobs vanish 300 s after they end.
    h.clock.advance(300_000);
    expect((await h.call("GET", href)).status).toBe(404);
  });

  it("enforces path rules (unique case-insensitively per SVM, leading / and no trailing /)", async () => {
    const post = (b: object) => h.call("POST", CACHES, { svm: { name: "svm1" }, origins: origin, ...b });
    expect(errorOf(await post({ name: "c2", path: "/cache1" }))).toMatchObject({ target: "path" });
    expect((await post({ name: "c2", path: "/cache1" })).status).toBe(409);
    expect((await post({ name: "c2", path: "/VOL1" })).status).toBe(409);
    expect(errorOf(await post({ name: "c2", path: "cache2" }))).toMatchObject({ code: "2", target: "path" });
    expect(errorOf(await post({ name: "c2", path: "/cache2/" }))).toMatchObject({ code: "2", target: "path" });
    expect((await post({ name: "c1" })).status).toBe(409);
    const other = await h.call("POST", CACHES, { name: "c1", svm: { name: "svm2" }, origins: origin, path: "/cache1" });
    expect(other.status).toBe(202); // another SVM's namespace
    expect(
      errorOf(await post({ name: "c3", origins: [{ volume: { name: "fg1" }, svm: { name: "svm1" } }] })).target,
    ).toBe("origins[0].volume");
    expect(errorOf(await post({ name: "c3", origins: [{ volume: { name: "vol1" } }] })).target).toBe(
      "origins[0].svm.name",
    );
    expect(errorOf(await post({ name: "c3", size: "1G", aggregates: [{ name: "aggr1" }] })).code).toBe("262197");
    expect(errorOf(await post({ name: "c3", guarantee: { type: "thick" } })).target).toBe("guarantee.type");
    expect(errorOf(await post({ name: "c3", prepopulate: { dir_paths: ["rel"] } })).target).toBe(
      "prepopulate.dir_paths[0]",
    );
  });

  it("fails the job for an offline origin; return_timeout waits for the job", async () => {
    const r = await h.call("POST", CACHES, {
      name: "c9",
      svm: { name: "svm1" },
      origins: [{ volume: { name: "vol_offline" }, svm: { name: "svm1" } }],
    });
    const job = await h.finish(r.body.job._links.self.href);
    expect(job.state).toBe("failure");
    expect(job.error.message).toMatch(/offline/);
    const waited = await h.call("POST", `${CACHES}?return_timeout=15`, {
      name: "c4",
      svm: { name: "svm1" },
      origins: origin,
      aggregates: [{ name: "aggr1" }, { name: "aggr2" }],
    });
    expect(waited.status).toBe(201);
    const c4 = (await h.call("GET", `${CACHES}?name=c4&fields=**`)).body.records[0];
    expect(c4).toMatchObject({ constituents_per_aggregate: 4, size: 10 * 1024 ** 3 });
    const failed = await h.call("POST", `${CACHES}?return_timeout=15`, {
      name: "c10",
      svm: { name: "svm1" },
      origins: [{ volume: { name: "vol_offline" }, svm: { name: "svm1" } }],
    });
    expect(failed.status).toBe(400);
    // PATCH and DELETE through jobs; prepopulate recurse defaults to true.
    const href = c4._links.self.href;
    const p = await h.call("PATCH", `${href}?return_timeout=10`, {
      writeback: { enabled: true },
      prepopulate: { dir_paths: ["/a"] },
    });
    expect(p.status).toBe(200);
    expect((await h.call("GET", href)).body.writeback).toEqual({ enabled: true });
    expect(errorOf(await h.call("PATCH", href, { path: "/x" })).code).toBe("262196");
    const d = await h.call("DELETE", href);
    expect(d.status).toBe(202);
    await h.finish(d.body.job._links.self.href);
    expect((await h.call("GET", href)).status).toBe(404);
  });

  it("lists jobs and cancels one still running", async () => {
    const r = await h.call("POST", CACHES, { name: "c5", svm: { name: "svm1" }, origins: origin });
    const href = r.body.job._links.self.href;
    expect((await h.call("PATCH", `${href}?action=cancel`)).status).toBe(200);
    expect((await h.call("GET", href)).body.state).toBe("failure");
    expect((await h.call("PATCH", `${href}?action=cancel`)).status).toBe(409);
    const list = await h.call("GET", "/api/cluster/jobs?fields=state");
    expect(
      list.body.records.some(
        (j: { uuid: string; state: string }) => j.uuid === r.body.job.uuid && j.state === "failure",
      ),
    ).toBe(true);
  });
});
