// Concurrent writers against the reference server: racing creates of one name (one wins,
// the rest get the duplicate error), racing writes to one object (no acknowledged write
// lost), query-based bulk PATCH/DELETE racing with single writes and jobs (counts add up),
// and checks that span a job's lifetime (upload, package delete, cache delete).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, type JsonAnswer, start } from "../../support/storage/server-harness.js";

const N = 50;
const NS = "/api/storage/namespaces";
const RULES = "/api/storage/quota/rules";
const CACHES = "/api/storage/cache/caches";
const SW = "/api/cluster/software";

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(async () => {
  await h.close();
});

const statuses = (rs: readonly { status: number }[]): Record<number, number> => {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
};

/** Runs the clock until every job has ended; their final records, in order. */
async function finishJobs(uuids: readonly string[]): Promise<JsonAnswer[]> {
  const out: JsonAnswer[] = [];
  for (const uuid of uuids) out.push(await h.finish(`/api/cluster/jobs/${uuid}`));
  return out;
}

const namespace = (name: string, size = 4096): object => ({
  svm: { name: "svm1" },
  name,
  os_type: "linux",
  space: { size },
});
const cache = (name: string): object => ({
  name,
  svm: { name: "svm1" },
  origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
});

function upload(version: string): Promise<{ status: number; body: JsonAnswer }> {
  const raw = `--XYZ\r\nContent-Disposition: form-data; name="file"; filename="image_${version}.tgz"\r\n\r\nBIN\r\n--XYZ--\r\n`;
  return h.call("POST", `${SW}/upload`, undefined, {
    raw,
    headers: { "content-type": "multipart/form-data; boundary=XYZ" },
  });
}

describe("racing creates", () => {
  it(`${N} creates of one namespace name: one 201, the rest 409 duplicate, one namespace`, async () => {
    const rs = await Promise.all(Array.from({ length: N }, () => h.call("POST", NS, namespace("/vol/vol1/race"))));
    expect(statuses(rs)).toEqual({ 201: 1, 409: N - 1 });
    for (const r of rs.filter((x) => x.status === 409))
      expect(r.body.error).toMatchObject({ code: "262190", target: "name" });
    const winner = rs.find((r) => r.status === 201)!.body.records[0].uuid;
    const list = await h.call("GET", `${NS}?name=/vol/vol1/race`);
    expect(list.body.records.map((r: { uuid: string }) => r.uuid)).toEqual([winner]);
  });

  it(`${N} creates of distinct objects all land, each once`, async () => {
    const [ns, tokens] = await Promise.all([
      Promise.all(Array.from({ length: N }, (_, i) => h.call("POST", NS, namespace(`/vol/vol1/d${i}`)))),
      Promise.all(
        Array.from({ length: N }, () =>
          h.call("POST", "/api/storage/file/clone/tokens", {
            node: { uuid: "00000000-0000-4000-8000-a00000000001" },
            reserve_size: 4096,
          }),
        ),
      ),
    ]);
    expect(statuses(ns)).toEqual({ 201: N });
    expect(statuses(tokens)).toEqual({ 201: N });
    expect(new Set(ns.map((r) => r.body.records[0].uuid)).size).toBe(N);
    expect((await h.call("GET", `${NS}?return_records=false`)).body.num_records).toBe(N);
    expect((await h.call("GET", "/api/storage/file/clone/tokens?return_records=false")).body.num_records).toBe(N);
  });

  it(`${N} quota rules: one per target, and exactly one default rule made on the side`, async () => {
    const user = (name: string): object => ({
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "user",
      qtree: { name: "" },
      users: [{ name }],
    });
    const same = await Promise.all(Array.from({ length: N }, () => h.call("POST", RULES, user("alice"))));
    expect(statuses(same)).toEqual({ 201: 1, 409: N - 1 });
    const distinct = await Promise.all(Array.from({ length: N }, (_, i) => h.call("POST", RULES, user(`u${i}`))));
    expect(statuses(distinct)).toEqual({ 201: N });
    const all = (await h.call("GET", `${RULES}?type=user&fields=users`)).body.records;
    const names = all.map((r: { users: { name: string }[] }) => r.users[0]!.name).sort();
    expect(names).toEqual(["", "alice", ...Array.from({ length: N }, (_, i) => `u${i}`)].sort());
  });

  it(`${N} creates of one cache name while jobs run: one accepted, one cache in the end`, async () => {
    const rs = await Promise.all(Array.from({ length: N }, () => h.call("POST", CACHES, cache("race"))));
    expect(statuses(rs)).toEqual({ 202: 1, 409: N - 1 });
    const [job] = await finishJobs([rs.find((r) => r.status === 202)!.body.job.uuid]);
    expect(job.state).toBe("success");
    expect((await h.call("GET", `${CACHES}?name=race&return_records=false`)).body.num_records).toBe(1);
    // Once visible, the name stays taken.
    expect((await h.call("POST", CACHES, cache("race"))).status).toBe(409);
  });

  it("uploads of one version: the first is accepted, the rest conflict at once, one package", async () => {
    const rs = await Promise.all(Array.from({ length: 10 }, () => upload("9.40.1")));
    expect(statuses(rs)).toEqual({ 202: 1, 409: 9 });
    for (const r of rs.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("2228327");
    const [job] = await finishJobs([rs.find((r) => r.status === 202)!.body.job.uuid]);
    expect(job.state).toBe("success");
    const pkgs = (await h.call("GET", `${SW}/packages`)).body.records.map((p: { version: string }) => p.version);
    expect(pkgs.filter((v: string) => v === "9.40.1")).toHaveLength(1);
    // The version is free again only if its upload job is cancelled before it ends.
    const again = await upload("9.41.1");
    expect((await h.call("PATCH", `/api/cluster/jobs/${again.body.job.uuid}?action=cancel`)).status).toBe(200);
    expect((await upload("9.41.1")).status).toBe(202);
  });

  it("an upload and a download of one version: one job succeeds, the other fails with 2228327", async () => {
    const [up, down] = await Promise.all([
      upload("9.42.1"),
      h.call("POST", `${SW}/download`, { url: "https://repo.example/image_9.42.1.tgz" }),
    ]);
    expect([up.status, down.status]).toEqual([202, 202]);
    const jobs = await finishJobs([up.body.job.uuid, down.body.job.uuid]);
    expect(jobs.map((j) => j.state).sort()).toEqual(["failure", "success"]);
    expect(jobs.find((j) => j.state === "failure").error.code).toBe("2228327");
    const pkgs = (await h.call("GET", `${SW}/packages`)).body.records.map((p: { version: string }) => p.version);
    expect(pkgs.filter((v: string) => v === "9.42.1")).toHaveLength(1);
  });
});

describe("racing writes to one object", () => {
  it(`${N} grow-only PATCHes: the final size is the largest acknowledged, with that write's comment`, async () => {
    const created = await h.call("POST", NS, namespace("/vol/vol1/grow", 1024 * 1024));
    const uuid = created.body.records[0].uuid;
    // Sizes in shuffled order, so some writes try to shrink the namespace and are refused.
    const sizes = Array.from({ length: N }, (_, i) => 1024 * 1024 + (((i * 37) % N) + 1) * 4096);
    const rs = await Promise.all(
      sizes.map((size, i) => h.call("PATCH", `${NS}/${uuid}`, { space: { size }, comment: `w${i}` })),
    );
    const acked = sizes.filter((_, i) => rs[i]!.status === 200);
    const refused = sizes.filter((_, i) => rs[i]!.status !== 200);
    for (const r of rs.filter((x) => x.status !== 200))
      expect(r.body.error).toMatchObject({ code: "262197", target: "space.size" });
    expect(acked.length).toBeGreaterThan(0);
    const final = (await h.call("GET", `${NS}/${uuid}?fields=space.size,comment`)).body;
    const max = Math.max(...acked);
    expect(final.space.size).toBe(max);
    expect(final.comment).toBe(`w${sizes.indexOf(max)}`);
    for (const size of refused) expect(size).toBeLessThan(max);
  });

  it(`${N} PATCHes of different fields of one quota rule: every field keeps its acknowledged value`, async () => {
    const rule = await h.call("POST", RULES, {
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "user",
      qtree: { name: "q1" },
      users: [{ name: "bob" }],
    });
    const uuid = rule.body.records[0].uuid;
    const fields = ["space.hard_limit", "space.soft_limit", "files.hard_limit", "files.soft_limit"] as const;
    // Per field, increasing values; hard limits far above soft ones so no pair conflicts.
    const writes = Array.from({ length: N }, (_, i) => {
      const field = fields[i % fields.length]!;
      const value = (field.endsWith("hard_limit") ? 1_000_000 : 2_000) + i;
      const [group, key] = field.split(".") as [string, string];
      return { field, value, body: { [group]: { [key]: value } } };
    });
    const rs = await Promise.all(writes.map((w) => h.call("PATCH", `${RULES}/${uuid}`, w.body)));
    expect(statuses(rs)).toEqual({ 200: N });
    const final = (await h.call("GET", `${RULES}/${uuid}`)).body;
    for (const field of fields) {
      const [group, key] = field.split(".") as [string, string];
      const candidates = writes
        .filter((w) => w.field === field)
        .map((w) => (field.startsWith("space") ? Math.max(1024, w.value) : w.value));
      // Some write to this field won; no field was reset by a write to another.
      expect(candidates).toContain(final[group][key]);
    }
  });
});

describe("bulk PATCH and DELETE racing with single writes", () => {
  it("namespaces: every deletion counted once, every comment from an acknowledged write", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `/vol/vol1/ns${i}`);
    const created = await Promise.all(names.map((n) => h.call("POST", NS, namespace(n))));
    const uuidOf = new Map(created.map((r) => [r.body.records[0].name as string, r.body.records[0].uuid as string]));
    const ops: Promise<{ kind: string; target: string; r: { status: number; body: JsonAnswer } }>[] = [];
    const op = (kind: string, target: string, p: Promise<{ status: number; body: JsonAnswer }>): void => {
      ops.push(p.then((r) => ({ kind, target, r })));
    };
    for (let j = 0; j < 10; j++)
      op("bulk-patch", `bulk${j}`, h.call("PATCH", `${NS}?name=/vol/vol1/ns*`, { comment: `bulk${j}` }));
    for (const n of names) op("patch", n, h.call("PATCH", `${NS}/${uuidOf.get(n)}`, { comment: `single:${n}` }));
    for (const n of names.slice(0, 5)) op("delete", n, h.call("DELETE", `${NS}/${uuidOf.get(n)}`));
    for (let j = 0; j < 2; j++) op("bulk-delete", "ns1*", h.call("DELETE", `${NS}?name=/vol/vol1/ns1*`));
    const done = await Promise.all(ops);
    for (const { kind, r } of done) {
      expect(r.status, kind).toBeLessThan(500);
      expect([200, 404], kind).toContain(r.status);
    }
    const deletedBySingle = done.filter((d) => d.kind === "delete" && d.r.status === 200).length;
    const deletedByBulk = done
      .filter((d) => d.kind === "bulk-delete")
      .reduce((n, d) => n + (d.r.body.num_records as number), 0);
    const left = (await h.call("GET", `${NS}?fields=name,comment&order_by=name`)).body.records as {
      name: string;
      comment?: string;
    }[];
    // Each namespace went away exactly once: the counts reported add up to what is gone.
    expect(deletedBySingle + deletedByBulk).toBe(names.length - left.length);
    const gone = names.filter((n) => !left.some((l) => l.name === n));
    expect(gone.sort()).toEqual([...new Set([...names.slice(0, 5), ...names.filter((n) => /ns1\d*$/.test(n))])].sort());
    const bulkOk = done.filter((d) => d.kind === "bulk-patch" && d.r.status === 200).map((d) => d.target);
    for (const l of left) {
      const singleOk = done.some((d) => d.kind === "patch" && d.target === l.name && d.r.status === 200);
      const allowed = [...bulkOk, ...(singleOk ? [`single:${l.name}`] : [])];
      expect(allowed, l.name).toContain(l.comment);
    }
    for (const d of done.filter((x) => x.kind === "bulk-patch")) {
      expect(d.r.body.num_records).toBeGreaterThanOrEqual(left.length);
      expect(d.r.body.num_records).toBeLessThanOrEqual(names.length);
    }
  });

  it("caches: bulk PATCH jobs, single and bulk DELETE jobs; each cache deleted by exactly one job", async () => {
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => h.call("POST", CACHES, cache(`c${i}`))));
    await finishJobs(made.map((r) => r.body.job.uuid));
    const list = (await h.call("GET", CACHES)).body.records as { uuid: string; name: string }[];
    expect(list).toHaveLength(10);
    const byName = new Map(list.map((c) => [c.name, c.uuid]));
    const calls = [
      ...Array.from({ length: 5 }, (_, j) =>
        h
          .call("PATCH", `${CACHES}?name=c*`, { writeback: { enabled: j % 2 === 0 } })
          .then((r) => ({ kind: "bulk-patch", r })),
      ),
      // c0..c4 twice each: one by uuid, one through a query naming it.
      ...["c0", "c1", "c2", "c3", "c4"].map((n) =>
        h.call("DELETE", `${CACHES}/${byName.get(n)}`).then((r) => ({ kind: "delete", r })),
      ),
      ...["c0", "c1", "c2", "c3", "c4"].map((n) =>
        h.call("DELETE", `${CACHES}?name=${n}`).then((r) => ({ kind: "bulk-delete", r })),
      ),
      h.call("DELETE", `${CACHES}/${byName.get("c5")}`).then((r) => ({ kind: "delete", r })),
    ];
    const done = await Promise.all(calls);
    for (const { r } of done) expect(r.status).toBe(202);
    const uuids = done.flatMap(({ r }) => (r.body.jobs ?? [r.body.job]).map((j: { uuid: string }) => j.uuid));
    const jobs = await finishJobs(uuids);
    for (const j of jobs) expect(["success", "failure"]).toContain(j.state);
    const deleteJobs = jobs.filter((j) => j.description.startsWith("DELETE"));
    const left = (await h.call("GET", CACHES)).body.records as { name: string }[];
    expect(left.map((c) => c.name).sort()).toEqual(["c6", "c7", "c8", "c9"]);
    // Six caches gone, six successful DELETE jobs; the duplicates failed with not found.
    expect(deleteJobs.filter((j) => j.state === "success")).toHaveLength(6);
    for (const j of deleteJobs.filter((x) => x.state === "failure")) expect(j.error.code).toBe("4");
    // A PATCH job either ran before its cache went away, or failed with not found.
    for (const j of jobs.filter((x) => x.description.startsWith("PATCH") && x.state === "failure"))
      expect(j.error.code).toBe("4");
  });
});

describe("checks repeated when a job ends", () => {
  it("racing deletes of one package: one job deletes it, the others fail with 10551325", async () => {
    const rs = await Promise.all(Array.from({ length: 10 }, () => h.call("DELETE", `${SW}/packages/9.15.1`)));
    expect(statuses(rs)).toEqual({ 202: 10 });
    const jobs = await finishJobs(rs.map((r) => r.body.job.uuid));
    expect(jobs.filter((j) => j.state === "success")).toHaveLength(1);
    for (const j of jobs.filter((x) => x.state === "failure")) expect(j.error.code).toBe("10551325");
    expect((await h.call("GET", `${SW}/packages/9.15.1`)).status).toBe(404);
  });

  it("a validation started while a delete of its package is pending makes the delete fail", async () => {
    const del = await h.call("DELETE", `${SW}/packages/9.15.1`);
    expect(del.status).toBe(202);
    const validate = await h.call("PATCH", `${SW}?validate_only=true`, { version: "9.15.1" });
    expect(validate.status).toBe(202);
    const [delJob, valJob] = await finishJobs([del.body.job.uuid, validate.body.job.uuid]);
    expect(delJob.state).toBe("failure");
    expect(delJob.error.code).toBe("10551346");
    expect(valJob.state).toBe("success");
    expect((await h.call("GET", `${SW}/packages/9.15.1`)).status).toBe(200);
  });
});
