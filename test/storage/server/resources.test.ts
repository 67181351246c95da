// Namespaces, caches (through jobs), jobs and return_timeout, HTTPS, and password hygiene.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../../../src/storage/server/index.js";
import { PASSWORD, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});
const errorOf = (r: { body: any }) => r.body?.error as { message: string; code: string; target?: string };
const NS = "/api/storage/namespaces";
const CACHES = "/api/storage/cache/caches";

describe("namespaces", () => {
  it("creates with block_size defaults and full-path names, with default and expensive fields", async () => {
    const a = await h.call("POST", `${NS}?return_records=true`, { svm: { name: "svm1" }, name: "/vol/vol1/ns1", os_type: "linux", space: { size: "1G" } });
    expect(a.status).toBe(201);
    expect(a.body.records[0]).toMatchObject({ name: "/vol/vol1/ns1", os_type: "linux", space: { size: 1024 ** 3, block_size: 4096 }, enabled: true, location: { volume: { name: "vol1" }, namespace: "ns1" } });
    const v = await h.call("POST", NS, { svm: { name: "svm1" }, location: { volume: { name: "vol1" }, qtree: { name: "q1" }, namespace: "nsv" }, os_type: "vmware", space: { size: 1048576 } });
    expect(v.status).toBe(201);
    const vr = await h.call("GET", v.body.records[0]._links.self.href);
    expect(vr.body).toMatchObject({ name: "/vol/vol1/q1/nsv", space: { block_size: 512 }, location: { qtree: { name: "q1" } } });
    expect(vr.body.auto_delete).toBeUndefined();
    expect(vr.body.metric).toBeUndefined();
    expect(vr.body.status.mapped).toBeUndefined();
    const withExp = await h.call("GET", `${v.body.records[0]._links.self.href}?fields=auto_delete,status.mapped`);
    expect(withExp.body).toMatchObject({ auto_delete: false, status: { mapped: false } });
    const all = await h.call("GET", `${v.body.records[0]._links.self.href}?fields=**`);
    expect(all.body.metric.duration).toBe("PT15S");
    const list = await h.call("GET", `${NS}?svm.name=svm1`);
    expect(Object.keys(list.body.records[0]).sort()).toEqual(["_links", "name", "status", "svm", "uuid"]);
    expect(list.body.records[0].status).toEqual({ state: "online" });
    expect(list.body.records[0].svm).toEqual({ name: "svm1" });
  });

  it("return_records echoes the record without expensive fields, and the stored record keeps them", async () => {
    // Regression: the echo was trimmed through a shallow copy, deleting status.mapped from the stored namespace.
    const a = await h.call("POST", `${NS}?return_records=true`, { svm: { name: "svm1" }, name: "/vol/vol1/echoed", os_type: "linux", space: { size: "1M" } });
    expect(a.status).toBe(201);
    expect(a.body.records[0].status).toEqual({ state: "online", container_state: "online", read_only: false });
    expect(a.body.records[0].auto_delete).toBeUndefined();
    const href = a.body.records[0]._links.self.href as string;
    expect((await h.call("GET", `${href}?fields=status.mapped`)).body.status).toEqual({ mapped: false });
    expect((await h.call("GET", `${href}?fields=**`)).body.status.mapped).toBe(false);
    expect((await h.call("DELETE", href)).status).toBe(200);
  });

  it("enforces the create rules", async () => {
    const post = (b: object) => h.call("POST", NS, { svm: { name: "svm1" }, ...b });
    expect(errorOf(await post({ name: "/vol/vol1/x", space: { size: 4096 } })).target).toBe("os_type");
    expect(errorOf(await post({ name: "/vol/vol1/x", os_type: "linux" })).target).toBe("space.size");
    expect(errorOf(await post({ name: "x", os_type: "linux", space: { size: 4096 } })).target).toBe("location.volume.name");
    expect(errorOf(await post({ name: "/vol/vol1/x", os_type: "solaris", space: { size: 4096 } })).target).toBe("os_type");
    expect(errorOf(await post({ name: "/vol/vol1/x", os_type: "linux", space: { size: 4096, block_size: 1024 } })).target).toBe("space.block_size");
    expect(errorOf(await post({ name: "/vol/vol1/x", os_type: "linux", space: { size: 100 } })).code).toBe("262197");
    expect(errorOf(await post({ name: "/vol/vol3/x", os_type: "linux", space: { size: 4096 } })).code).toBe("4");
    expect(errorOf(await post({ name: "/vol/vol1/x", location: { volume: { name: "vol2" } }, os_type: "linux", space: { size: 4096 } })).target).toBe("location.volume");
    expect(errorOf(await post({ name: "/vol/vol1/x", os_type: "linux", space: { size: 4096 }, status: { state: "online" } })).code).toBe("262196");
    expect((await post({ name: "/vol/vol1/ns1", os_type: "linux", space: { size: 4096 } })).status).toBe(409);
    expect((await post({ "name": "/vol/vol1/dotted", "os_type": "windows", "space.size": 8192 })).status).toBe(201);
  });

  it("clones within the same volume only, without os_type, taking the source size", async () => {
    const src = (await h.call("GET", `${NS}?name=/vol/vol1/ns1`)).body.records[0];
    const c = await h.call("POST", `${NS}?return_records=true`, { svm: { name: "svm1" }, name: "/vol/vol1/ns1clone", clone: { source: { uuid: src.uuid } } });
    expect(c.status).toBe(201);
    expect(c.body.records[0]).toMatchObject({ os_type: "linux", space: { size: 1024 ** 3, block_size: 4096 } });
    expect(errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, name: "/vol/vol2/c2", clone: { source: { uuid: src.uuid } } })).target).toBe("clone.source");
    expect(errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, name: "/vol/vol1/c3", os_type: "linux", clone: { source: { name: "/vol/vol1/ns1" } } })).target).toBe("os_type");
    expect(errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, name: "/vol/vol1/c3", space: { size: 4096 }, clone: { source: { name: "/vol/vol1/ns1" } } })).target).toBe("space.size");
    const snap = await h.call("POST", NS, { svm: { name: "svm1" }, name: "/vol/vol1/c4", clone: { source: { name: "/vol/vol1/.snapshot/hourly.0/ns1" } } });
    expect(snap.status).toBe(201);
    expect(errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, name: "/vol/vol1/c5", clone: { source: { name: "/vol/vol1/ns1" } }, convert: { lun: { name: "/vol/vol1/lun1" } } })).target).toBe("convert");
  });

  it("converts a LUN under the rules", async () => {
    const ok = await h.call("POST", `${NS}?return_records=true`, { svm: { name: "svm1" }, convert: { lun: { name: "/vol/vol1/lun1" } } });
    expect(ok.status).toBe(201);
    expect(ok.body.records[0]).toMatchObject({ name: "/vol/vol1/lun1", os_type: "linux", space: { size: 1024 ** 3 } });
    expect((await h.call("GET", "/api/storage/luns?name=/vol/vol1/lun1")).body.num_records).toBe(0);
    expect(errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, convert: { lun: { name: "/vol/vol1/lun_mapped" } } })).target).toBe("convert.lun");
    expect(errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, convert: { lun: { name: "/vol/vol1/lun_hyperv" } } })).target).toBe("convert.lun");
    expect(errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, os_type: "linux", convert: { lun: { name: "/vol/vol1/lun_hyperv" } } })).target).toBe("os_type");
  });

  it("cannot be renamed or moved; PATCH grows, comments, overwrites from a clone", async () => {
    const ns = (await h.call("GET", `${NS}?name=/vol/vol1/ns1clone`)).body.records[0];
    const href = ns._links.self.href;
    expect(errorOf(await h.call("PATCH", href, { name: "/vol/vol1/renamed" }))).toMatchObject({ code: "262196", target: "name" });
    expect(errorOf(await h.call("PATCH", href, { location: { volume: { name: "vol2" } } }))).toMatchObject({ code: "262196", target: "location" });
    expect(errorOf(await h.call("PATCH", href, { svm: { name: "svm2" } })).target).toBe("svm");
    expect(errorOf(await h.call("PATCH", href, { space: { size: 4096 } })).code).toBe("262197");
    expect(errorOf(await h.call("PATCH", href, { os_type: "windows" })).code).toBe("262196");
    expect((await h.call("PATCH", href, { comment: "hello", auto_delete: true, space: { size: "2G" } })).status).toBe(200);
    const got = await h.call("GET", `${href}?fields=*,auto_delete`);
    expect(got.body).toMatchObject({ comment: "hello", auto_delete: true, space: { size: 2 * 1024 ** 3 } });
    const src = (await h.call("GET", `${NS}?name=/vol/vol1/ns1`)).body.records[0];
    expect((await h.call("PATCH", href, { clone: { source: { uuid: src.uuid } } })).status).toBe(200);
    const after = await h.call("GET", `${href}?fields=**`);
    expect(after.body).toMatchObject({ uuid: ns.uuid, auto_delete: true, space: { size: 1024 ** 3 } });
    expect((await h.call("DELETE", href)).status).toBe(200);
    expect((await h.call("GET", href)).status).toBe(404);
  });
});

describe("caches and jobs", () => {
  const origin = [{ volume: { name: "vol1" }, svm: { name: "svm1" } }];

  it("creates a cache through a job (queued → running → success) with defaults", async () => {
    const r = await h.call("POST", CACHES, { name: "c1", svm: { name: "svm1" }, origins: origin, path: "/Cache1" });
    expect(r.status).toBe(202);
    const href = r.body.job._links.self.href as string;
    expect(href).toBe(`/api/cluster/jobs/${r.body.job.uuid}`);
    expect((await h.call("GET", href)).body).toMatchObject({ state: "queued", description: "POST /api/storage/cache/caches" });
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
      name: "c1", path: "/Cache1", size: 10 * 1024 ** 3, guarantee: { type: "none" },
      writeback: { enabled: false }, relative_size: { enabled: false, percentage: 10 }, atime_scrub: { enabled: false, period: 30 },
      cifs_change_notify: { enabled: false }, dr_cache: false, use_tiered_aggregate: false, global_file_locking_enabled: false, override_encryption: false,
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
    expect(errorOf(await post({ name: "c3", origins: [{ volume: { name: "fg1" }, svm: { name: "svm1" } }] })).target).toBe("origins[0].volume");
    expect(errorOf(await post({ name: "c3", origins: [{ volume: { name: "vol1" } }] })).target).toBe("origins[0].svm.name");
    expect(errorOf(await post({ name: "c3", size: "1G", aggregates: [{ name: "aggr1" }] })).code).toBe("262197");
    expect(errorOf(await post({ name: "c3", guarantee: { type: "thick" } })).target).toBe("guarantee.type");
    expect(errorOf(await post({ name: "c3", prepopulate: { dir_paths: ["rel"] } })).target).toBe("prepopulate.dir_paths[0]");
  });

  it("fails the job for an offline origin; return_timeout waits for the job", async () => {
    const r = await h.call("POST", CACHES, { name: "c9", svm: { name: "svm1" }, origins: [{ volume: { name: "vol_offline" }, svm: { name: "svm1" } }] });
    const job = await h.finish(r.body.job._links.self.href);
    expect(job.state).toBe("failure");
    expect(job.error.message).toMatch(/offline/);
    const waited = await h.call("POST", `${CACHES}?return_timeout=15`, { name: "c4", svm: { name: "svm1" }, origins: origin, aggregates: [{ name: "aggr1" }, { name: "aggr2" }] });
    expect(waited.status).toBe(201);
    const c4 = (await h.call("GET", `${CACHES}?name=c4&fields=**`)).body.records[0];
    expect(c4).toMatchObject({ constituents_per_aggregate: 4, size: 10 * 1024 ** 3 });
    const failed = await h.call("POST", `${CACHES}?return_timeout=15`, { name: "c10", svm: { name: "svm1" }, origins: [{ volume: { name: "vol_offline" }, svm: { name: "svm1" } }] });
    expect(failed.status).toBe(400);
    // PATCH and DELETE through jobs; prepopulate recurse defaults to true.
    const href = c4._links.self.href;
    const p = await h.call("PATCH", `${href}?return_timeout=10`, { writeback: { enabled: true }, prepopulate: { dir_paths: ["/a"] } });
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
    expect(list.body.records.some((j: any) => j.uuid === r.body.job.uuid && j.state === "failure")).toBe(true);
  });
});

describe("HTTPS and password hygiene", () => {
  it("serves HTTPS with the given key and certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cw-tls-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-days", "1", "-subj", "/CN=127.0.0.1"], { stdio: "ignore" });
    const server = await createReferenceServer({ https: { key: readFileSync(join(dir, "k.pem")), cert: readFileSync(join(dir, "c.pem")) } });
    try {
      expect(server.url).toMatch(/^https:\/\//);
      const https = await import("node:https");
      const status = await new Promise<number>((resolve, reject) => {
        https.get(`${server.url}/api/cluster/nodes`, { rejectUnauthorized: false, auth: "admin:clusterwire" }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on("error", reject);
      });
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("never echoes or logs the Basic password or the download password", async () => {
    const bodies: string[] = [];
    const record = (r: { text: string }) => bodies.push(r.text);
    const secret = "Dl-pa55-SECRET";
    record(await h.call("GET", "/api/cluster/nodes", undefined, { auth: `Basic ${Buffer.from(`admin:${PASSWORD}x`).toString("base64")}` }));
    record(await h.call("POST", `/api/storage/file/clone/tokens`, { node: { uuid: PASSWORD }, reserve_size: PASSWORD }));
    record(await h.call("POST", "/api/cluster/software/download", { url: "http://example.test/9.17.1_image.tgz", username: "u", password: secret }));
    record(await h.call("POST", "/api/cluster/software/download", { url: "http://example.test/x.tgz", password: { nested: secret } }));
    record(await h.call("POST", "/api/cluster/software/download", { url: "not a url", password: secret }));
    record(await h.call("GET", `/api/storage/volumes?name=${PASSWORD}`));
    record(await h.call("GET", `/api/storage/volumes?${PASSWORD}=1`));
    record(await h.call("GET", "/api/cluster/software/download"));
    record(await h.call("GET", "/api/cluster/jobs?fields=**"));
    h.clock.advance(5000);
    record(await h.call("GET", "/api/cluster/software/download"));
    record(await h.call("GET", "/api/cluster/jobs?fields=**"));
    const everything = [...bodies, ...h.logs].join("\n");
    expect(h.logs.length).toBeGreaterThan(5);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(Buffer.from(`admin:${PASSWORD}`).toString("base64"));
  });
});
