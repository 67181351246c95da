// Query-based PATCH and DELETE on collections (the spec: "Deleting or patching a collection by
// query applies to all records matching the query"; ../shared/docs/storage-api.md §1.4 Bulk), client against
// the reference server over loopback, for every resource that supports it: clone tokens,
// caches (one job per matching cache, `jobs[]`), NVMe namespaces and quota rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StorageClient } from "../../../src/storage/index.js";
import { seedUuid } from "../../../src/storage/server/index.js";
import { apiError, codecError, startLoopback, type Loopback } from "../../support/storage/integration-harness.js";
import { start } from "../../support/storage/server-harness.js";

const PASSWORD = "bulk-Pa55word";
const NODE1 = seedUuid("a", 1);
const NODE2 = seedUuid("a", 2);
const GiB = 1024 ** 3;

let client: StorageClient;
let raw: StorageClient;
let loop: Loopback;

beforeAll(async () => {
  loop = await startLoopback(PASSWORD);
  ({ client, raw } = loop);
});
afterAll(() => loop.close());

describe("clone tokens by query", () => {
  it("patches and deletes every token matching the query, synchronously", async () => {
    for (const node of [NODE1, NODE1, NODE2])
      await client.cloneTokens.create({ node: { uuid: node }, reserve_size: "1M" });
    const p = await client.cloneTokens.updateMatching({ node: { uuid: NODE1 } }, { expiry_time: { limit: "PT2H" } });
    expect(p).toMatchObject({ status: 200, numRecords: 2, jobs: [] });
    const limits = (await client.cloneTokens.all({ fields: "node.name,expiry_time.limit" })).map(
      (t) => `${t.node?.name} ${t.expiry_time?.limit}`,
    );
    expect(limits.sort()).toEqual(["node1 PT2H", "node1 PT2H", "node2 PT1M"]);

    const d = await client.cloneTokens.deleteMatching({ node: { name: "node2" } });
    expect(d).toMatchObject({ status: 200, numRecords: 1 });
    expect(await client.cloneTokens.count()).toBe(2);
  });

  it("routes the body through the PATCH codec, and the server refuses what the codec would", async () => {
    expect(
      (
        await codecError(() =>
          client.cloneTokens.updateMatching({ node: { name: "node1" } }, { reserve_size: "1M" } as never),
        )
      ).path,
    ).toBe("reserve_size");
    const e = await apiError(() =>
      raw.cloneTokens.updateMatching({ node: { name: "node1" } }, { reserve_size: 1 } as never),
    );
    expect(e.status).toBe(400);
    expect(e.target).toBe("reserve_size");
  });

  it("refuses a query without filters unless { all: true }", async () => {
    for (const query of [{}, { fields: "*" }, { return_timeout: 5, max_records: 2 }]) {
      const e = await codecError(() => client.cloneTokens.deleteMatching(query));
      expect(e.path).toBe("query");
      expect(e.message).toMatch(/all: true/);
    }
    expect(
      (await codecError(() => client.cloneTokens.updateMatching({}, { expiry_time: { limit: "PT1M" } }))).path,
    ).toBe("query");
    expect(await client.cloneTokens.count()).toBe(2);

    const d = await client.cloneTokens.deleteMatching({}, { all: true });
    expect(d.numRecords).toBe(2);
    expect(await client.cloneTokens.count()).toBe(0);
  });
});

describe("caches by query", () => {
  const names = ["bulk_a", "bulk_b", "bulk_c"] as const;

  it("patches each matching cache through its own job and waits for all of them", async () => {
    await client.caches.create({
      name: "bulk_a",
      svm: { name: "svm1" },
      origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
    });
    await client.caches.create({
      name: "bulk_b",
      svm: { name: "svm1" },
      origins: [{ svm: { name: "svm1" }, volume: { name: "vol2" } }],
    });
    await client.caches.create({
      name: "bulk_c",
      svm: { name: "svm2" },
      origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
    });

    const p = await client.caches.updateMatching(
      { svm: { name: "svm1" }, name: "bulk_*" },
      { writeback: { enabled: true }, prepopulate: { dir_paths: ["/d"] } },
    );
    expect(p.status).toBe(202);
    expect(p.numRecords).toBe(2);
    expect(p.jobs).toHaveLength(2);
    for (const job of p.jobs) {
      expect(job.state).toBe("success");
      expect(job.description).toMatch(/^PATCH \/api\/storage\/cache\/caches\/[0-9a-f-]{36}$/);
    }
    const got = await client.caches.all({ name: "bulk_*", fields: "name,writeback.enabled", order_by: "name" });
    expect(got.map((c) => `${c.name} ${String(c.writeback?.enabled)}`)).toEqual([
      "bulk_a true",
      "bulk_b true",
      "bulk_c false",
    ]);
  });

  it("with return_timeout the server waits for the jobs and answers 200", async () => {
    const p = await client.caches.updateMatching(
      { name: "bulk_c" },
      { atime_scrub: { enabled: true } },
      { query: { return_timeout: 5 } },
    );
    expect(p).toMatchObject({ status: 200, numRecords: 1 });
    expect(p.jobs.map((j) => j.state)).toEqual(["success"]);
    expect((await client.caches.find({ name: "bulk_c" }))?.atime_scrub).toEqual({ enabled: true, period: 30 });
  });

  it("without wait, returns the job references of the answer", async () => {
    const p = await client.caches.updateMatching(
      { name: "bulk_a|bulk_b" },
      { cifs_change_notify: { enabled: true } },
      { wait: false },
    );
    expect(p.status).toBe(202);
    expect(p.jobs).toHaveLength(2);
    for (const j of p.jobs) expect(j._links?.self?.href).toBe(`/api/cluster/jobs/${j.uuid}`);
    for (const j of p.jobs) expect((await client.waitForJob(j.uuid!)).state).toBe("success");
  });

  it("refuses a bad body before any job starts: the codec, and the server for raw bodies", async () => {
    expect(
      (await codecError(() => client.caches.updateMatching({ name: "bulk_*" }, { path: "/x" } as never))).path,
    ).toBe("path");
    const e = await apiError(() =>
      raw.caches.updateMatching({ name: "bulk_*" }, { prepopulate: { dir_paths: ["relative"] } }),
    );
    expect(e.status).toBe(400);
    expect(e.target).toBe("prepopulate.dir_paths[0]");
    // An unknown filter is the server's 400.
    const f = await apiError(() => client.caches.deleteMatching({ colour: "red" }));
    expect(f.status).toBe(400);
    expect(f.target).toBe("colour");
    expect(await client.caches.count({ name: "bulk_*" })).toBe(3);
  });

  it("deletes every matching cache through jobs; nothing matching is a 200 without jobs", async () => {
    const d = await client.caches.deleteMatching({ "svm.name": "svm1", name: "bulk_*" });
    expect(d).toMatchObject({ status: 202, numRecords: 2 });
    expect(d.jobs.map((j) => j.state)).toEqual(["success", "success"]);
    expect((await client.caches.all({ name: "bulk_*" })).map((c) => c.name)).toEqual([names[2]]);

    const none = await client.caches.deleteMatching({ name: "nothing_*" });
    expect(none).toMatchObject({ status: 200, numRecords: 0, jobs: [] });
    expect(none.body).toEqual({ num_records: 0, jobs: [] });
  });
});

describe("NVMe namespaces by query", () => {
  it("patches every matching namespace, all or nothing", async () => {
    for (const [name, size] of [
      ["/vol/vol1/bulk1", "1G"],
      ["/vol/vol1/bulk2", "2G"],
      ["/vol/vol2/bulk3", "1G"],
    ] as const) {
      await client.nvmeNamespaces.create({ svm: { name: "svm1" }, name, os_type: "linux", space: { size } });
    }
    const q = { "location.volume.name": "vol1", name: "/vol/vol1/bulk*" };
    const p = await client.nvmeNamespaces.updateMatching(q, { comment: "db", auto_delete: true });
    expect(p).toMatchObject({ status: 200, numRecords: 2, jobs: [] });
    const got = await client.nvmeNamespaces.all({
      name: "/vol/*/bulk*",
      fields: "name,comment,auto_delete",
      order_by: "name",
    });
    expect(got.map((n) => [n.name, n.comment, n.auto_delete])).toEqual([
      ["/vol/vol1/bulk1", "db", true],
      ["/vol/vol1/bulk2", "db", true],
      ["/vol/vol2/bulk3", undefined, false],
    ]);

    // Growing to 1.5 GiB would shrink bulk2: the whole request is refused, bulk1 keeps its size.
    const e = await apiError(() => client.nvmeNamespaces.updateMatching(q, { space: { size: "1536M" } }));
    expect(e.status).toBe(400);
    expect(e.target).toBe("space.size");
    expect((await client.nvmeNamespaces.find({ name: "/vol/vol1/bulk1", fields: "space.size" }))?.space?.size).toBe(
      GiB,
    );

    // Renaming is refused by the codec, and by the server for a raw body.
    expect(
      (await codecError(() => client.nvmeNamespaces.updateMatching(q, { name: "/vol/vol1/x" } as never))).path,
    ).toBe("name");
    expect((await apiError(() => raw.nvmeNamespaces.updateMatching(q, { name: "/vol/vol1/x" } as never))).target).toBe(
      "name",
    );
  });

  it("deletes every matching namespace", async () => {
    const d = await client.nvmeNamespaces.deleteMatching({ name: "/vol/*/bulk*" });
    expect(d).toMatchObject({ status: 200, numRecords: 3 });
    expect(await client.nvmeNamespaces.count({ name: "/vol/*/bulk*" })).toBe(0);
  });
});

describe("quota rules by query", () => {
  it("patches every matching rule (explicit and default), all or nothing, and deletes by query", async () => {
    await client.quotaRules.create({
      svm: { name: "svm2" },
      volume: { name: "vol3" },
      type: "tree",
      qtree: { name: "qa" },
      space: { hard_limit: "1G" },
    });
    await client.quotaRules.create({
      svm: { name: "svm2" },
      volume: { name: "vol3" },
      type: "user",
      qtree: { name: "" },
      users: [{ name: "bob" }],
    });
    // The tree rule and the user rule each added their volume-level default rule.
    expect(await client.quotaRules.count({ "volume.name": "vol3" })).toBe(4);

    const p = await client.quotaRules.updateMatching(
      { "volume.name": "vol3", type: "tree" },
      { space: { hard_limit: "2G", soft_limit: 100 } },
    );
    expect(p).toMatchObject({ status: 200, numRecords: 2 });
    const trees = await client.quotaRules.all({ "volume.name": "vol3", type: "tree", fields: "space" });
    expect(trees.map((r) => r.space)).toEqual([
      { hard_limit: 2 * GiB, soft_limit: 1024 },
      { hard_limit: 2 * GiB, soft_limit: 1024 },
    ]);

    // user_mapping is valid only on user rules: the query also matches tree rules, so nothing changes.
    const e = await apiError(() => client.quotaRules.updateMatching({ "volume.name": "vol3" }, { user_mapping: "on" }));
    expect(e.target).toBe("user_mapping");
    const users = await client.quotaRules.all({ "volume.name": "vol3", type: "user", fields: "user_mapping" });
    expect(users.map((r) => r.user_mapping)).toEqual([false, false]);
    expect(
      (await client.quotaRules.updateMatching({ "volume.name": "vol3", type: "user" }, { user_mapping: "on" }))
        .numRecords,
    ).toBe(2);

    const d = await client.quotaRules.deleteMatching({ volume: { name: "vol3" } });
    expect(d.numRecords).toBe(4);
    expect(await client.quotaRules.count({ "volume.name": "vol3" })).toBe(0);
  });
});

describe("the server's answer to a query-based change", () => {
  it("needs a filter, and answers caches with {num_records, jobs[]} that run on the clock", async () => {
    const h = await start();
    try {
      const noFilter = await h.call("DELETE", "/api/storage/quota/rules");
      expect(noFilter.status).toBe(400);
      expect(noFilter.body.error.target).toBe("query");
      expect(
        (await h.call("PATCH", "/api/storage/cache/caches?return_timeout=1", { writeback: { enabled: true } })).body
          .error.target,
      ).toBe("query");

      const created = await h.call("POST", "/api/storage/cache/caches", {
        name: "c1",
        svm: { name: "svm1" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
      });
      await h.finish(created.body.job._links.self.href);
      const p = await h.call("PATCH", "/api/storage/cache/caches?name=c*", { writeback: { enabled: true } });
      expect(p.status).toBe(202);
      expect(p.body).toEqual({
        num_records: 1,
        jobs: [
          { uuid: expect.any(String), _links: { self: { href: expect.stringMatching(/^\/api\/cluster\/jobs\//) } } },
        ],
      });
      expect((await h.finish(p.body.jobs[0]._links.self.href)).state).toBe("success");

      const del = await h.call("DELETE", "/api/storage/cache/caches?name=c1");
      expect(del.status).toBe(202);
      expect(del.body.num_records).toBe(1);
      expect((await h.call("GET", "/api/storage/cache/caches?name=c1")).body.num_records).toBe(1); // until the job ends
      expect((await h.finish(del.body.jobs[0]._links.self.href)).state).toBe("success");
      expect((await h.call("GET", "/api/storage/cache/caches?name=c1")).body.num_records).toBe(0);
    } finally {
      await h.close();
    }
  });
});
