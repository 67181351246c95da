// StorageClient against the reference server over real HTTP on loopback: every resource of
// Area A end to end, through the client's default codecs. The server runs on a manual clock
// with instant jobs, so nothing here sleeps for real.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StorageJobError, parseDuration, type StorageClient } from "../../../src/storage/index.js";
import { seedUuid, type ManualClock, type ReferenceServer } from "../../../src/storage/server/index.js";
import {
  USER,
  apiError,
  codecError,
  startLoopback,
  thrown,
  type Loopback,
} from "../../support/storage/integration-harness.js";
import { encodeMultipart } from "../../../src/storage/client/transport.js";

const PASSWORD = "integration-Pa55";
const NODE1 = seedUuid("a", 1);
const NODE2 = seedUuid("a", 2);
const GiB = 1024 ** 3;
const STEP_MS = 1000;

let server: ReferenceServer;
let clock: ManualClock;
let client: StorageClient;
let raw: StorageClient;
let loop: Loopback;
const logs: string[] = [];

beforeAll(async () => {
  loop = await startLoopback(PASSWORD, { software: { stepMs: STEP_MS }, log: (l) => logs.push(l) });
  ({ server, clock, client, raw } = loop);
});
afterAll(() => loop.close());

// ---- clone tokens ---------------------------------------------------------------------------

describe("clone tokens", () => {
  it("creates with a Size suffix, counts the lifetime down, patches and deletes", async () => {
    const created = await client.cloneTokens.create({ node: { uuid: NODE1 }, reserve_size: "40M" });
    expect(created.status).toBe(201);
    expect(created.job).toBeUndefined();
    const rec = created.record!;
    expect(rec.reserve_size).toBe(41943040);
    expect(rec.node?.uuid).toBe(NODE1);
    expect(rec.node?.name).toBe("node1");
    expect(rec.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const key = { nodeUuid: NODE1, uuid: rec.uuid! };

    const fresh = await client.cloneTokens.get(key);
    expect(fresh.expiry_time?.limit).toBe("PT1M"); // the default "60"
    expect(parseDuration(fresh.expiry_time!.left!)).toBe(60);
    expect(fresh._links?.self?.href).toBe(`/api/storage/file/clone/tokens/${NODE1}/${rec.uuid}`);

    clock.advance(15_000);
    expect(parseDuration((await client.cloneTokens.get(key)).expiry_time!.left!)).toBe(45);

    const patched = await client.cloneTokens.update(key, { expiry_time: { limit: "PT1H10M" } });
    expect(patched.status).toBe(200);
    const after = await client.cloneTokens.get(key);
    expect(after.expiry_time?.limit).toBe("PT1H10M");
    expect(parseDuration(after.expiry_time!.left!)).toBe(4200);

    await client.cloneTokens.delete(key);
    const gone = await apiError(() => client.cloneTokens.get(key));
    expect(gone.status).toBe(404);
    expect(gone.code).toBe("4");
  });

  it("raises small reservations to 4 KiB and sends the limit as a string of seconds", async () => {
    const small = await client.cloneTokens.create({
      node: { uuid: NODE2 },
      reserve_size: 100,
      expiry_time: { limit: 30 },
    });
    expect(small.record?.reserve_size).toBe(4096);
    const token = await client.cloneTokens.get({ nodeUuid: NODE2, uuid: small.record!.uuid! });
    expect(token.expiry_time?.limit).toBe("PT30S");
    await client.cloneTokens.delete({ nodeUuid: NODE2, uuid: small.record!.uuid! });
  });

  it("a token vanishes when its lifetime ends: 404 as a StorageApiError", async () => {
    const t = (
      await client.cloneTokens.create({ node: { uuid: NODE1 }, reserve_size: "1M", expiry_time: { limit: 10 } })
    ).record!;
    const key = { nodeUuid: NODE1, uuid: t.uuid! };
    clock.advance(9_000);
    expect(parseDuration((await client.cloneTokens.get(key)).expiry_time!.left!)).toBe(1);
    clock.advance(1_000);
    const err = await apiError(() => client.cloneTokens.get(key));
    expect(err.status).toBe(404);
    expect(err.code).toBe("4");
    expect(err.request).toBe(`GET /api/storage/file/clone/tokens/${NODE1}/${t.uuid}`);
    const patch = await apiError(() => client.cloneTokens.update(key, { expiry_time: { limit: 60 } }));
    expect(patch.status).toBe(404);
  });

  it("refuses read-only and missing fields before sending; the server refuses them too", async () => {
    expect((await codecError(() => client.cloneTokens.create({ node: { uuid: NODE1 } } as never))).path).toBe(
      "reserve_size",
    );
    expect(
      (
        await codecError(() =>
          client.cloneTokens.create({
            node: { uuid: NODE1 },
            reserve_size: 4096,
            expiry_time: { left: "PT1M" },
          } as never),
        )
      ).path,
    ).toBe("expiry_time.left");
    const missing = await apiError(() => raw.cloneTokens.create({ node: { uuid: NODE1 } } as never));
    expect(missing.status).toBe(400);
    expect(missing.target).toBe("reserve_size");
    const ro = await apiError(() =>
      raw.cloneTokens.create({ node: { uuid: NODE1 }, reserve_size: 4096, expiry_time: { left: "PT1M" } } as never),
    );
    expect(ro.target).toBe("expiry_time.left");
    const unknownNode = await apiError(() =>
      client.cloneTokens.create({ node: { uuid: seedUuid("a", 9) }, reserve_size: 4096 }),
    );
    expect(unknownNode.code).toBe("4");
    expect(unknownNode.target).toBe("node.uuid");
  });
});

// ---- caches ---------------------------------------------------------------------------------

describe("caches", () => {
  let uuid: string;

  it("creates through a job; defaults are visible on GET; expensive fields only when asked in a list", async () => {
    const res = await client.caches.create({
      name: "cache1",
      svm: { name: "svm1" },
      origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
      path: "/Cache1",
    });
    expect(res.status).toBe(202);
    expect(res.job?.state).toBe("success");
    expect(res.job?.description).toBe("POST /api/storage/cache/caches");

    const listed = await client.caches.all({ name: "cache1" });
    expect(listed).toHaveLength(1);
    expect(Object.keys(listed[0]!).sort()).toEqual(["_links", "name", "uuid"]);
    uuid = listed[0]!.uuid!;

    const c = await client.caches.get(uuid);
    expect(c).toMatchObject({
      name: "cache1",
      svm: { name: "svm1" },
      path: "/Cache1",
      size: 10 * GiB, // 10 % of the 100 GiB origin beats 1 GiB × 4 constituents
      guarantee: { type: "none" },
      use_tiered_aggregate: false,
      dr_cache: false,
      global_file_locking_enabled: false,
      override_encryption: false,
      writeback: { enabled: false },
      relative_size: { enabled: false, percentage: 10 },
      atime_scrub: { enabled: false, period: 30 },
      cifs_change_notify: { enabled: false },
    });
    expect(c.origins?.[0]).toMatchObject({
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      state: "online",
      size: 100 * GiB,
    });
    expect(c.origins?.[0]?.create_time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(c.prepopulate).toBeUndefined();
    expect(c.is_disconnected_mode_off_for_locks).toBeUndefined();

    const withFields = await client.caches.all({
      name: "cache1",
      fields: ["path", "size", "guarantee.type", "origins.state"],
    });
    expect(withFields[0]).toMatchObject({ path: "/Cache1", size: 10 * GiB, guarantee: { type: "none" } });
    expect(withFields[0]?.origins?.[0]?.state).toBe("online");
    const all = await client.caches.all({ name: "cache1", fields: "**" });
    expect(all[0]?.aggregates?.[0]?.name).toBe("aggr1");
  });

  it("paths are unique case-insensitively per SVM: the server's 409 and code come through", async () => {
    const post = (name: string, path: string, svm = "svm1") =>
      client.caches.create({
        name,
        svm: { name: svm },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol2" } }],
        path,
      });
    const dup = await apiError(() => post("cache2", "/cache1"));
    expect(dup.status).toBe(409);
    expect(dup.code).toBe("262190");
    expect(dup.target).toBe("path");
    // A volume's junction path counts as well.
    expect((await apiError(() => post("cache2", "/VOL1"))).code).toBe("262190");
    // Another SVM has its own namespace.
    const other = await post("cache2", "/cache1", "svm2");
    expect(other.job?.state).toBe("success");
    // Path shape: refused by the codec before sending, and by the server.
    expect((await codecError(() => post("cache3", "/trailing/"))).path).toBe("path");
    expect((await codecError(() => post("cache3", "relative"))).path).toBe("path");
    const rawErr = await apiError(() =>
      raw.caches.create({
        name: "cache3",
        svm: { name: "svm1" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol2" } }],
        path: "/trailing/",
      }),
    );
    expect(rawErr.status).toBe(400);
    expect(rawErr.target).toBe("path");
  });

  it("fills sub-object defaults, refuses a grouped origin, and reports a failed create job", async () => {
    const r = await client.caches.create({
      name: "cache4",
      svm: { uuid: seedUuid("b", 1) },
      origins: [{ svm: { name: "svm1" }, volume: { uuid: seedUuid("d", 2) } }],
      aggregates: [{ name: "aggr2" }],
      relative_size: { enabled: true },
      atime_scrub: { enabled: true },
    });
    expect(r.job?.state).toBe("success");
    const [c] = await client.caches.all({ name: "cache4", fields: "*,size" });
    expect(c).toMatchObject({
      constituents_per_aggregate: 4,
      relative_size: { enabled: true, percentage: 10 },
      atime_scrub: { enabled: true, period: 30 },
      size: 4 * GiB, // 10 % of 20 GiB is below 1 GiB × 4 constituents
    });
    const grouped = await apiError(() =>
      client.caches.create({
        name: "cache5",
        svm: { name: "svm1" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "fg1" } }],
      }),
    );
    expect(grouped.status).toBe(400);
    const failed = await thrown(() =>
      client.caches.create({
        name: "cache6",
        svm: { name: "svm1" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol_offline" } }],
      }),
    );
    expect(failed).toBeInstanceOf(StorageJobError);
    expect((failed as StorageJobError).state).toBe("failure");
    expect((failed as StorageJobError).jobMessage).toMatch(/offline/);
    expect(await client.caches.all({ name: "cache6" })).toEqual([]);
    await client.caches.delete(c!.uuid!);
  });

  it("with return_timeout the server waits for the job: 201 when it ends in time", async () => {
    const r = await client.caches.create(
      { name: "cache7", svm: { name: "svm2" }, origins: [{ svm: { name: "svm2" }, volume: { name: "vol3" } }] },
      { query: { return_timeout: 15 } },
    );
    expect(r.status).toBe(201);
    expect(r.job?.state).toBe("success");
    const failed = await apiError(() =>
      client.caches.create(
        {
          name: "cache8",
          svm: { name: "svm1" },
          origins: [{ svm: { name: "svm1" }, volume: { name: "vol_offline" } }],
        },
        { query: { return_timeout: 15 } },
      ),
    );
    expect(failed.status).toBe(400);
    expect(failed.apiMessage).toMatch(/offline/);
    const [c] = await client.caches.all({ name: "cache7" });
    await client.caches.delete(c!.uuid!, { query: { return_timeout: 15 } });
    expect(await client.caches.all({ name: "cache7" })).toEqual([]);
  });

  it("patches and deletes through jobs", async () => {
    const p = await client.caches.update(uuid, { atime_scrub: { enabled: true }, writeback: { enabled: true } });
    expect(p.status).toBe(202);
    expect(p.job?.state).toBe("success");
    const c = await client.caches.get(uuid);
    expect(c.atime_scrub).toEqual({ enabled: true, period: 30 });
    expect(c.writeback).toEqual({ enabled: true });
    const pre = await client.caches.update(uuid, { prepopulate: { dir_paths: ["/data"] } });
    expect(pre.job?.state).toBe("success");
    expect((await codecError(() => client.caches.update(uuid, { path: "/x" } as never))).path).toBe("path");
    const rawPatch = await apiError(() => raw.caches.update(uuid, { path: "/x" } as never));
    expect(rawPatch.status).toBe(400);
    expect(rawPatch.target).toBe("path");

    const d = await client.caches.delete(uuid);
    expect(d.job?.state).toBe("success");
    expect((await apiError(() => client.caches.get(uuid))).status).toBe(404);
  });
});

// ---- namespaces -----------------------------------------------------------------------------

describe("NVMe namespaces", () => {
  let ns1: string;

  it("creates by full path and by location, with the block_size defaults", async () => {
    const a = await client.nvmeNamespaces.create({
      svm: { name: "svm1" },
      name: "/vol/vol1/ns1",
      os_type: "linux",
      space: { size: "1G" },
    });
    expect(a.status).toBe(201);
    ns1 = a.record!.uuid!;
    const got = await client.nvmeNamespaces.get(ns1);
    expect(got).toMatchObject({
      name: "/vol/vol1/ns1",
      os_type: "linux",
      space: { size: GiB, block_size: 4096 },
      enabled: true,
      status: { state: "online", container_state: "online" },
      location: { volume: { name: "vol1" }, namespace: "ns1" },
    });
    // Expensive fields only with `fields`.
    expect(got.auto_delete).toBeUndefined();
    expect(got.metric).toBeUndefined();

    const v = await client.nvmeNamespaces.create(
      {
        svm: { name: "svm1" },
        location: { volume: { name: "vol1" }, qtree: { name: "q1" }, namespace: "nsv" },
        os_type: "vmware",
        space: { size: "1M" },
      },
      { query: { return_records: true } },
    );
    expect(v.record).toMatchObject({ name: "/vol/vol1/q1/nsv", space: { size: 1048576, block_size: 512 } });

    // The server's own default, when the body leaves block_size out.
    const w = await raw.nvmeNamespaces.create({
      svm: { name: "svm1" },
      name: "/vol/vol1/nsw",
      os_type: "vmware",
      space: { size: 1048576 },
    });
    expect((await client.nvmeNamespaces.get(w.record!.uuid!)).space?.block_size).toBe(512);
  });

  it("returns expensive fields with fields=** and filters on dotted fields", async () => {
    const all = await client.nvmeNamespaces.get(ns1, { fields: "**" });
    expect(all.auto_delete).toBe(false);
    expect(all.status?.mapped).toBe(false);
    expect(all.metric?.duration).toBe("PT15S");
    expect(all.statistics?.status).toBe("ok");

    // Default records: svm.name, name, status.state, uuid, _links.
    const list = await client.nvmeNamespaces.all({ "svm.name": "svm1", "status.state": "online" });
    expect(list.map((n) => n.name).sort()).toEqual(["/vol/vol1/ns1", "/vol/vol1/nsw", "/vol/vol1/q1/nsv"]);
    expect(Object.keys(list[0]!).sort()).toEqual(["_links", "name", "status", "svm", "uuid"]);
    expect(list[0]?.svm).toEqual({ name: "svm1" });
    // A filtered field comes back in the records.
    const byVolume = await client.nvmeNamespaces.all({ "location.volume.name": "vol1", order_by: "name desc" });
    expect(byVolume.map((n) => n.name)).toEqual(["/vol/vol1/q1/nsv", "/vol/vol1/nsw", "/vol/vol1/ns1"]);
    expect(byVolume[0]?.location?.volume?.name).toBe("vol1");
    expect(await client.nvmeNamespaces.all({ os_type: "vmware", fields: "name" })).toHaveLength(2);
    expect(await client.nvmeNamespaces.all({ name: "/vol/vol1/q1/*" })).toHaveLength(1);
    expect(await client.nvmeNamespaces.count({ "svm.name": "svm2" })).toBe(0);
    const found = await client.nvmeNamespaces.find({ name: "/vol/vol1/ns1" });
    expect(found?.os_type).toBe("linux");
  });

  it("clones in the same volume (os_type and size from the source) and refuses another volume", async () => {
    const c = await client.nvmeNamespaces.create({
      svm: { name: "svm1" },
      name: "/vol/vol1/ns1clone",
      clone: { source: { name: "/vol/vol1/ns1" } },
    });
    const cl = await client.nvmeNamespaces.get(c.record!.uuid!);
    expect(cl).toMatchObject({ os_type: "linux", space: { size: GiB, block_size: 4096 } });

    const snap = await client.nvmeNamespaces.create({
      svm: { name: "svm1" },
      name: "/vol/vol1/fromsnap",
      clone: { source: { name: "/vol/vol1/.snapshot/daily/ns1" } },
    });
    expect(snap.status).toBe(201);

    const other = await apiError(() =>
      client.nvmeNamespaces.create({
        svm: { name: "svm1" },
        name: "/vol/vol2/elsewhere",
        clone: { source: { uuid: ns1 } },
      }),
    );
    expect(other.status).toBe(400);
    expect(other.code).toBe("262189");
    expect(other.target).toBe("clone.source");

    // os_type is forbidden when cloning: the codec refuses it; so does the server.
    const withOs = {
      svm: { name: "svm1" },
      name: "/vol/vol1/c2",
      os_type: "linux",
      clone: { source: { uuid: ns1 } },
    } as const;
    expect((await codecError(() => client.nvmeNamespaces.create(withOs))).path).toBe("os_type");
    expect((await apiError(() => raw.nvmeNamespaces.create(withOs))).target).toBe("os_type");

    // Overwrite as a clone (PATCH) from the same volume.
    const small = await client.nvmeNamespaces.create({
      svm: { name: "svm1" },
      name: "/vol/vol1/small",
      os_type: "linux",
      space: { size: "1M" },
    });
    await client.nvmeNamespaces.update(small.record!.uuid!, { clone: { source: { uuid: ns1 } } });
    expect((await client.nvmeNamespaces.get(small.record!.uuid!)).space?.size).toBe(GiB);
  });

  it("converts a LUN in place; os_type and size come from the LUN", async () => {
    const c = await client.nvmeNamespaces.create({
      svm: { name: "svm1" },
      convert: { lun: { name: "/vol/vol1/lun1" } },
    });
    expect(c.status).toBe(201);
    expect(await client.nvmeNamespaces.get(c.record!.uuid!)).toMatchObject({
      name: "/vol/vol1/lun1",
      os_type: "linux",
      space: { size: GiB },
    });
    expect(server.inventory.luns.map((l) => l.name)).not.toContain("/vol/vol1/lun1");
    const withOs = {
      svm: { name: "svm1" },
      os_type: "linux",
      convert: { lun: { name: "/vol/vol1/lun_mapped" } },
    } as const;
    expect((await codecError(() => client.nvmeNamespaces.create(withOs))).path).toBe("os_type");
    expect((await apiError(() => raw.nvmeNamespaces.create(withOs))).target).toBe("os_type");
    const mapped = await apiError(() =>
      client.nvmeNamespaces.create({ svm: { name: "svm1" }, convert: { lun: { name: "/vol/vol1/lun_mapped" } } }),
    );
    expect(mapped.status).toBe(400);
    expect(mapped.target).toBe("convert.lun");
    await client.nvmeNamespaces.delete(c.record!.uuid!);
  });

  it("cannot be renamed or moved: refused by the codec before sending, and by the server", async () => {
    const rename = await codecError(() => client.nvmeNamespaces.update(ns1, { name: "/vol/vol1/renamed" } as never));
    expect(rename.path).toBe("name");
    expect(rename.message).toMatch(/renamed/);
    expect(
      (await codecError(() => client.nvmeNamespaces.update(ns1, { location: { volume: { name: "vol2" } } } as never)))
        .path,
    ).toBe("location");
    const srv = await apiError(() => raw.nvmeNamespaces.update(ns1, { name: "/vol/vol1/renamed" } as never));
    expect(srv.status).toBe(400);
    expect(srv.target).toBe("name");
    const move = await apiError(() =>
      raw.nvmeNamespaces.update(ns1, { location: { volume: { name: "vol2" } } } as never),
    );
    expect(move.target).toBe("location");
    expect((await client.nvmeNamespaces.get(ns1)).name).toBe("/vol/vol1/ns1");
  });

  it("a missing volume is reported at the field that named it", async () => {
    const base = { svm: { name: "svm1" }, os_type: "linux", space: { size: 1048576 } } as const;
    const byPath = await apiError(() => raw.nvmeNamespaces.create({ ...base, name: "/vol/novol/ns" }));
    expect(byPath).toMatchObject({ status: 400, code: "4", target: "name" });
    expect(byPath.apiMessage).toBe('Volume "novol" in SVM "svm1" does not exist.');
    // vol3 exists, but in svm2.
    expect((await apiError(() => raw.nvmeNamespaces.create({ ...base, name: "/vol/vol3/q/ns" }))).target).toBe("name");
    const byName = await apiError(() =>
      raw.nvmeNamespaces.create({ ...base, name: "ns", location: { volume: { name: "novol" } } }),
    );
    expect(byName).toMatchObject({ status: 400, code: "4", target: "location.volume.name" });
    const byUuid = await apiError(() =>
      raw.nvmeNamespaces.create({ ...base, name: "ns", location: { volume: { uuid: seedUuid("d", 99) } } }),
    );
    expect(byUuid).toMatchObject({ status: 400, code: "4", target: "location.volume.uuid" });
    // Through the codecs too.
    expect((await apiError(() => client.nvmeNamespaces.create({ ...base, name: "/vol/novol/ns" }))).target).toBe(
      "name",
    );
  });

  it("patches comment and auto_delete, requires os_type and size, and deletes", async () => {
    await client.nvmeNamespaces.update(ns1, { comment: "db", auto_delete: true });
    const got = await client.nvmeNamespaces.get(ns1, { fields: "comment,auto_delete" });
    expect(got).toMatchObject({ comment: "db", auto_delete: true });
    expect(
      (
        await codecError(() =>
          client.nvmeNamespaces.create({ svm: { name: "svm1" }, name: "/vol/vol1/noos", space: { size: "1M" } }),
        )
      ).path,
    ).toBe("os_type");
    expect(
      (
        await apiError(() =>
          raw.nvmeNamespaces.create({ svm: { name: "svm1" }, name: "/vol/vol1/noos", space: { size: "1M" } }),
        )
      ).target,
    ).toBe("os_type");
    await client.nvmeNamespaces.delete(ns1);
    expect((await apiError(() => client.nvmeNamespaces.get(ns1))).status).toBe(404);
  });
});

// ---- quota rules ----------------------------------------------------------------------------

describe("quota rules", () => {
  it("creates a tree rule, rounds limits, and the default rule appears in the list", async () => {
    const r = await client.quotaRules.create({
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "tree",
      qtree: { name: "q1" },
      space: { hard_limit: "1G", soft_limit: 100 },
      files: { hard_limit: 10 },
    });
    expect(r.status).toBe(201);
    const rule = await client.quotaRules.get(r.record!.uuid!);
    expect(rule).toMatchObject({
      type: "tree",
      qtree: { name: "q1" },
      space: { hard_limit: GiB, soft_limit: 1024 },
      files: { hard_limit: 10 },
    });

    const list = await client.quotaRules.all({ "volume.name": "vol1", type: "tree", fields: "qtree.name,type" });
    expect(list.map((x) => x.qtree?.name).sort()).toEqual(["", "q1"]);
    // Default record fields: uuid, svm, volume, _links.
    const plain = await client.quotaRules.all({ "volume.name": "vol1" });
    expect(Object.keys(plain[0]!).sort()).toEqual(["_links", "svm", "uuid", "volume"]);
  });

  it("user rules: users required, user_mapping 'on' → true, -1 is unlimited and clears on PATCH", async () => {
    const r = await client.quotaRules.create({
      svm: { name: "svm1" },
      volume: { name: "vol2" },
      type: "user",
      qtree: { name: "" },
      users: [{ name: "alice" }],
      user_mapping: "on",
      space: { hard_limit: -1, soft_limit: "10M" },
    });
    const rule = await client.quotaRules.get(r.record!.uuid!);
    expect(rule.user_mapping).toBe(true);
    expect(rule.users).toEqual([{ name: "alice" }]);
    expect(rule.space).toEqual({ soft_limit: 10 * 1024 * 1024 });
    const defaults = await client.quotaRules.all({ "volume.name": "vol2", type: "user", fields: "users" });
    expect(defaults.map((x) => x.users?.[0]?.name).sort()).toEqual(["", "alice"]);

    await client.quotaRules.update(rule.uuid!, {
      space: { hard_limit: 512, soft_limit: 600 },
      files: { soft_limit: 5 },
    });
    expect((await client.quotaRules.get(rule.uuid!)).space).toEqual({ hard_limit: 1024, soft_limit: 1024 });
    await client.quotaRules.update(rule.uuid!, { space: { hard_limit: -1, soft_limit: -1 } });
    const cleared = await client.quotaRules.get(rule.uuid!);
    expect(cleared.space).toBeUndefined();
    expect(cleared.files).toEqual({ soft_limit: 5 });
  });

  it("enforces the type rules in the codec and on the server", async () => {
    const base = { svm: { name: "svm1" }, volume: { name: "vol1" }, qtree: { name: "q2" } } as const;
    expect((await codecError(() => client.quotaRules.create({ ...base, type: "user" }))).path).toBe("users");
    expect((await codecError(() => client.quotaRules.create({ ...base, type: "group" }))).path).toBe("group");
    expect(
      (await codecError(() => client.quotaRules.create({ ...base, type: "tree", users: [{ name: "bob" }] }))).path,
    ).toBe("users");
    expect(
      (
        await codecError(() =>
          client.quotaRules.create({ ...base, type: "group", group: { name: "g" }, user_mapping: true }),
        )
      ).path,
    ).toBe("user_mapping");
    const srv = await apiError(() => raw.quotaRules.create({ ...base, type: "tree", users: [{ name: "bob" }] }));
    expect(srv.status).toBe(400);
    expect(srv.target).toBe("users");
    expect((await apiError(() => raw.quotaRules.create({ ...base, type: "user" }))).target).toBe("users");
    expect((await apiError(() => raw.quotaRules.create({ ...base, type: "group" }))).target).toBe("group");
    const g = await client.quotaRules.create({ ...base, type: "group", group: { name: "staff" } });
    expect((await client.quotaRules.get(g.record!.uuid!)).group).toEqual({ name: "staff" });
    const dup = await apiError(() => client.quotaRules.create({ ...base, type: "group", group: { name: "staff" } }));
    expect(dup.status).toBe(409);
    // A group may be named by name and id together (the spec's name-xor-id rule is for users only).
    const both = await client.quotaRules.create({
      ...base,
      qtree: { name: "q1" },
      type: "group",
      group: { name: "wheel", id: "0" },
    });
    expect((await client.quotaRules.get(both.record!.uuid!)).group).toEqual({ name: "wheel", id: "0" });
    // Users: name xor id, by the codec and by the server.
    const bothUser = { ...base, type: "user", users: [{ name: "carol", id: "1001" }] } as never;
    expect((await codecError(() => client.quotaRules.create(bothUser))).path).toBe("users[0]");
    expect((await apiError(() => raw.quotaRules.create(bothUser))).target).toBe("users[0]");
    await client.quotaRules.delete(g.record!.uuid!);
    expect((await apiError(() => client.quotaRules.get(g.record!.uuid!))).status).toBe(404);
  });
});

// ---- software -------------------------------------------------------------------------------

describe("cluster software", () => {
  it("validates with warnings and errors", async () => {
    const profile = await client.software.get();
    expect(profile.version).toBe("9.14.1");

    const bad = await client.software.validate("9.16.1");
    expect(bad.ok).toBe(false);
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]).toMatchObject({
      update_check: "Disk status",
      status: "error",
      issue: { message: "Some disks are broken." },
    });
    expect(bad.profile.state).toBe("failed");

    const warn = await client.software.validate("9.15.1");
    expect(warn.ok).toBe(true);
    expect(warn.warnings).toHaveLength(1);
    expect(warn.warnings[0]?.action?.message).toBe("Review the upgrade documentation.");
    expect(warn.job?.state).toBe("success");

    // Installing a version whose validation failed, or with unacknowledged warnings, is refused.
    const refused = await apiError(() => client.software.install("9.16.1"));
    expect(refused.status).toBe(409);
    const warned = await apiError(() => client.software.install("9.15.1"));
    expect(warned.status).toBe(409);
    expect(warned.target).toBe("skip_warnings");
    const unknown = await apiError(() => client.software.install("9.99.1"));
    expect(unknown.code).toBe("10551325");
  });

  it("installs, pauses (pause_pending → paused_by_user), resumes and completes, with history", async () => {
    const started = await client.software.install("9.15.1", { skipWarnings: true });
    expect(started.job?.state).toBe("success");
    let p = await client.software.get();
    expect(p.state).toBe("in_progress");
    expect(p.pending_version).toBe("9.15.1");
    expect(p.update_details?.[0]).toMatchObject({ phase: "Pre-update checks", state: "in_progress" });

    expect((await client.software.pause()).job?.state).toBe("success");
    expect((await client.software.get()).state).toBe("pause_pending");
    clock.advance(STEP_MS);
    p = await client.software.get();
    expect(p.state).toBe("paused_by_user");
    // Pausing again is refused; resume only when paused.
    expect((await apiError(() => client.software.pause())).status).toBe(409);

    await client.software.resume();
    expect((await client.software.get()).state).toBe("in_progress");
    expect((await apiError(() => client.software.resume())).status).toBe(409);

    clock.advance(10 * STEP_MS);
    p = await client.software.get();
    expect(p.state).toBe("completed");
    expect(p.version).toBe("9.15.1");
    expect(p.status_details?.some((s) => s.state === "completed" && s.node?.name === "node1")).toBe(true);
    expect(p.nodes?.map((n) => n.version)).toEqual(["9.15.1", "9.15.1"]);

    const history = await client.software.history.all({ to_version: "9.15.1" });
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ from_version: "9.14.1", to_version: "9.15.1", state: "successful" });
    expect(history[0]?.node?.name).toMatch(/^node[12]$/);
  });

  it("estimates an update for a subset of nodes without installing", async () => {
    const r = await client.software.update(
      { version: "9.15.1" },
      { estimateOnly: true, nodesToUpdate: ["node1"], stabilizeMinutes: 8 },
    );
    expect(r.job?.state).toBe("success");
    const p = await client.software.get();
    expect(p.estimated_duration).toBe(3); // 3 steps of 1 s: pre-checks, node1, post-checks
    expect(p.version).toBe("9.15.1");
    // The codec refuses stabilize_minutes outside 1..60 before sending; the server refuses it too.
    expect(
      (
        await codecError(() =>
          client.software.update({ version: "9.15.1" }, { estimateOnly: true, stabilizeMinutes: 61 }),
        )
      ).path,
    ).toBe("stabilize_minutes");
    const range = await apiError(() =>
      raw.software.update({ version: "9.15.1" }, { estimateOnly: true, stabilizeMinutes: 61 }),
    );
    expect(range.code).toBe("262197");
    expect(range.target).toBe("stabilize_minutes");
    expect(
      (
        await apiError(() =>
          client.software.update({ version: "9.15.1" }, { estimateOnly: true, nodesToUpdate: ["node9"] }),
        )
      ).target,
    ).toBe("nodes_to_update");
  });

  it("uploads a single file; more than one file is refused with 10551807", async () => {
    const up = await client.software.upload({ filename: "image_9.17.1.tgz", data: new Uint8Array([1, 2, 3]) });
    expect(up.job?.state).toBe("success");
    expect((await client.software.packages.get("9.17.1")).version).toBe("9.17.1");

    // The client sends one file per call, so two files need a hand-built multipart body.
    const { body, contentType } = encodeMultipart([
      { field: "file", filename: "image_9.18.1.tgz", data: new Uint8Array([1]) },
      { field: "file", filename: "image_9.18.2.tgz", data: new Uint8Array([2]) },
    ]);
    const res = await fetch(`${server.url}/api/cluster/software/upload`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`,
        "content-type": contentType,
      },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("10551807");
  });

  it("cancels an install (cancel_pending → canceled)", async () => {
    expect((await client.software.validate("9.17.1")).ok).toBe(true);
    await client.software.install("9.17.1");
    expect((await client.software.get()).state).toBe("in_progress");
    await client.software.cancel();
    expect((await client.software.get()).state).toBe("cancel_pending");
    clock.advance(STEP_MS);
    const p = await client.software.get();
    expect(p.state).toBe("canceled");
    expect(p.version).toBe("9.15.1");
    expect((await apiError(() => client.software.cancel())).status).toBe(409);
  });

  it("lists, reads and deletes packages with the spec's codes", async () => {
    const versions = (await client.software.packages.all()).map((p) => p.version);
    expect(versions).toEqual(expect.arrayContaining(["9.15.1", "9.16.1", "9.17.1"]));
    const pkg = await client.software.packages.get("9.16.1");
    expect(pkg.create_time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(pkg._links?.self?.href).toBe("/api/cluster/software/packages/9.16.1");
    const del = await client.software.packages.delete("9.16.1");
    expect(del.job?.state).toBe("success");
    const again = await apiError(() => client.software.packages.delete("9.16.1"));
    expect(again.status).toBe(404);
    expect(again.code).toBe("10551325");
    expect((await apiError(() => client.software.packages.get("9.16.1"))).status).toBe(404);
  });

  it("downloads a package with progress; a failed download is a StorageJobError with the code", async () => {
    const before = await client.software.downloadProgress();
    expect(before.state).toBe("not_started");
    const seen: string[] = [];
    const res = await client.software.download(
      { url: "http://packages.example/image_9.18.1.tgz", username: "dl", password: "remote-secret" },
      { onProgress: (p) => void seen.push(String(p.state)) },
    );
    expect(res.job?.state).toBe("success");
    expect(res.progress).toMatchObject({ state: "success", code: 0 });
    expect(seen.at(-1)).toBe("success");
    expect((await client.software.packages.get("9.18.1")).version).toBe("9.18.1");

    const failed = await thrown(() => client.software.download({ url: "ftp://packages.example/readme.txt" }));
    expect(failed).toBeInstanceOf(StorageJobError);
    expect((failed as StorageJobError).code).toBe(2228331);
    expect((await client.software.downloadProgress()).state).toBe("failure");
    expect((await codecError(() => client.software.download({ url: "file:///etc/passwd" }))).path).toBe("url");
  });
});

// ---- collection conventions -----------------------------------------------------------------

describe("collections and query parameters", () => {
  it("pages with max_records through list(), following next links", async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        (await client.cloneTokens.create({ node: { uuid: NODE2 }, reserve_size: "1M", expiry_time: { limit: 3600 } }))
          .record!.uuid!,
      );
    }
    const pages: number[] = [];
    for await (const page of client.pages("/api/storage/file/clone/tokens", { "node.uuid": NODE2, max_records: 3 })) {
      pages.push(page.records?.length ?? 0);
    }
    expect(pages).toEqual([3, 3, 1]);
    const listed = await client.cloneTokens.all({ "node.uuid": NODE2, max_records: 2 });
    expect(listed.map((t) => t.uuid)).toEqual(made);
    expect(listed[0]?.reserve_size).toBe(1048576);
    expect(await client.cloneTokens.count({ "node.name": "node2" })).toBe(7);
  });

  it("return_timeout outside 0..120: the client refuses it, and the server answers 262197", async () => {
    const local = await codecError(() => client.nvmeNamespaces.all({ return_timeout: 600 }));
    expect(local.path).toBe("return_timeout");
    // Sent anyway (in the path, past the client's check): the server refuses it.
    const err = await apiError(() => client.request("GET", "/api/storage/namespaces?return_timeout=600"));
    expect(err.status).toBe(400);
    expect(err.code).toBe("262197");
    expect(err.target).toBe("return_timeout");
    expect(await client.nvmeNamespaces.all({ return_timeout: 120, "svm.name": "svm2" })).toEqual([]);
  });

  it("unknown filters and fields are the server's 400s; the server keeps serving", async () => {
    const e = await apiError(() => client.quotaRules.all({ "no.such.field": "x" }));
    expect(e.status).toBe(400);
    expect(e.target).toBe("no.such.field");
    expect((await apiError(() => client.quotaRules.all({ fields: "bogus" }))).status).toBe(400);
    expect(await client.quotaRules.count()).toBeGreaterThan(0);
  });

  it("the server's log has one line per request and no password", () => {
    expect(logs.length).toBeGreaterThan(50);
    expect(logs.every((l) => /^[A-Z]+ \/api\/\S* \d{3}$/.test(l))).toBe(true);
    expect(logs.some((l) => l.includes(PASSWORD))).toBe(false);
  });
});
