// The reference server over real HTTP on loopback: auth, errors, collections (fields,
// filters, paging), jobs with a manual clock, clone tokens, quota rules, namespaces, caches.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedUuid } from "../../../src/storage/server/index.js";
import { PASSWORD, USER, basic, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});

const NODE1 = seedUuid("a", 1);
const errorOf = (r: { body: any }) => r.body?.error as { message: string; code: string; target?: string };

describe("auth and transport", () => {
  it("listens on 127.0.0.1 with an ephemeral port", () => {
    expect(h.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("refuses missing and wrong credentials with 401 and the error body", async () => {
    for (const auth of [null, basic(USER, "wrong"), basic("root", PASSWORD), "Bearer abc", "Basic !!!"]) {
      const r = await h.call("GET", "/api/cluster/nodes", undefined, { auth });
      expect(r.status).toBe(401);
      expect(errorOf(r).code).toBe("6");
      expect(typeof errorOf(r).message).toBe("string");
      expect(r.headers.get("www-authenticate")).toMatch(/^Basic/);
    }
  });

  it("accepts the configured credentials", async () => {
    const r = await h.call("GET", "/api/cluster/nodes");
    expect(r.status).toBe(200);
    expect(r.body.num_records).toBe(2);
  });

  it("answers HAL when asked", async () => {
    const r = await h.call("GET", "/api/svm/svms", undefined, { headers: { accept: "application/hal+json" } });
    expect(r.headers.get("content-type")).toBe("application/hal+json");
  });
});

describe("inventory", () => {
  it("serves nodes, SVMs and volumes with qtrees", async () => {
    const svms = await h.call("GET", "/api/svm/svms");
    expect(svms.body.records.map((s: any) => s.name)).toEqual(["svm1", "svm2"]);
    const vols = await h.call("GET", "/api/storage/volumes?fields=qtrees,svm.name&name=vol1");
    expect(vols.body.records).toHaveLength(1);
    expect(vols.body.records[0].qtrees).toEqual([{ id: 1, name: "q1" }, { id: 2, name: "q2" }]);
    expect(vols.body.records[0].svm.name).toBe("svm1");
    const node = await h.call("GET", `/api/cluster/nodes/${NODE1}`);
    expect(node.body).toMatchObject({ uuid: NODE1, name: "node1" });
  });

  it("takes a configured inventory", async () => {
    const other = await start({ inventory: { nodes: [{ name: "n-a" }], svms: [{ name: "vs0" }], volumes: [{ name: "v0", svm: "vs0", qtrees: ["t"] }], aggregates: [], luns: [] } });
    try {
      const nodes = await other.call("GET", "/api/cluster/nodes");
      expect(nodes.body.records.map((n: any) => n.name)).toEqual(["n-a"]);
      const vols = await other.call("GET", "/api/storage/volumes?fields=**");
      expect(vols.body.records[0]).toMatchObject({ name: "v0", svm: { name: "vs0" }, qtrees: [{ id: 1, name: "t" }] });
    } finally {
      await other.close();
    }
  });
});

describe("bad requests", () => {
  it("inherited names are unknown fields, and no body, filter or field list reaches Object.prototype", async () => {
    const names = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];
    for (const name of names) {
      for (const raw of [`{"${name}":{"polluted":1}}`, `{"svm.${name}":{"polluted":1}}`, `{"svm":{"${name}":{"polluted":1}}}`]) {
        const r = await h.call("POST", "/api/storage/quota/rules", undefined, { raw, headers: { "content-type": "application/json" } });
        expect(r.status, raw).toBe(400);
      }
      const f = await h.call("GET", `/api/storage/namespaces?svm.${name}=x`);
      expect(f.status === 400 || (f.status === 200 && f.body.num_records === 0), `svm.${name}`).toBe(true);
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(typeof Object.prototype.toString).toBe("function");
    expect((await h.call("GET", "/api/cluster/nodes")).status).toBe(200);
  });

  it("an inventory with inherited names is refused with InventoryError, not a crash", async () => {
    for (const inventory of ['{"svms":[{"name":"a","__proto__":{"x":1}}]}', '{"svms":[{"name":"a","constructor":1}]}']) {
      await expect(start({ inventory: JSON.parse(inventory) })).rejects.toMatchObject({ name: "InventoryError" });
    }
  });

  it("refuses malformed JSON, non-objects, unknown fields, wrong types and bad enums", async () => {
    const cases: [unknown, string | undefined, number, string][] = [
      [undefined, "{not json", 400, "262186"],
      [[1, 2], undefined, 400, "262186"],
      [{ node: { uuid: NODE1 }, reserve_size: 4096, bogus: 1 }, undefined, 400, "262179"],
      [{ node: { uuid: NODE1 }, reserve_size: true }, undefined, 400, "2"],
      [{ node: { uuid: NODE1 }, reserve_size: "1.5G" }, undefined, 400, "2"],
      [{ node: { uuid: NODE1 }, reserve_size: 4096, expiry_time: { limit: 60 } }, undefined, 400, "2"],
      [{ node: { uuid: NODE1 }, reserve_size: 4096, expiry_time: { left: "PT1M" } }, undefined, 400, "262196"],
      [{ node: { uuid: NODE1 }, reserve_size: 4096, uuid: "x" }, undefined, 400, "262196"],
    ];
    for (const [body, raw, status, code] of cases) {
      const r = await h.call("POST", "/api/storage/file/clone/tokens", body, raw === undefined ? {} : { raw, headers: { "content-type": "application/json" } });
      expect(r.status, JSON.stringify(body ?? raw)).toBe(status);
      expect(errorOf(r).code, JSON.stringify(body ?? raw)).toBe(code);
    }
    const en = await h.call("POST", "/api/storage/quota/rules", { svm: { name: "svm1" }, volume: { name: "vol1" }, type: "nobody", qtree: { name: "" } });
    expect(en.status).toBe(400);
    expect(errorOf(en)).toMatchObject({ code: "2", target: "type" });
  });

  it("refuses oversized bodies with 413 and keeps serving", async () => {
    const big = JSON.stringify({ comment: "x".repeat(1024 * 1024 + 10) });
    const r = await h.call("POST", "/api/storage/namespaces", undefined, { raw: big, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(errorOf(r).code).toBe("262187");
    expect((await h.call("GET", "/api/cluster/nodes")).status).toBe(200);
  });

  it("answers 404 for unknown paths and 405 for wrong methods", async () => {
    const a = await h.call("GET", "/api/nothing/here");
    expect(a.status).toBe(404);
    expect(errorOf(a).code).toBe("4");
    const b = await h.call("DELETE", "/api/cluster/nodes");
    expect(b.status).toBe(405);
    expect(b.headers.get("allow")).toContain("GET");
    expect(errorOf(b).code).toBe("262188");
    const c = await h.call("GET", `/api/storage/namespaces/${seedUuid("f", 9)}`);
    expect(c.status).toBe(404);
  });

  it("refuses return_timeout outside 0..120 with 262197", async () => {
    for (const v of ["121", "600", "-1"]) {
      const r = await h.call("GET", `/api/storage/volumes?return_timeout=${v}`);
      expect(r.status).toBe(400);
      expect(errorOf(r)).toMatchObject({ code: "262197", target: "return_timeout" });
    }
    expect((await h.call("GET", "/api/storage/volumes?return_timeout=120")).status).toBe(200);
    expect((await h.call("GET", "/api/storage/volumes?return_timeout=0")).status).toBe(200);
  });

  it("refuses unknown filters and unknown fields", async () => {
    const a = await h.call("GET", "/api/storage/volumes?colour=red");
    expect(errorOf(a)).toMatchObject({ code: "262179", target: "colour" });
    const b = await h.call("GET", "/api/storage/volumes?fields=colour");
    expect(b.status).toBe(400);
    expect((await h.call("GET", "/api/storage/volumes?fields=colour&ignore_unknown_fields=true")).status).toBe(200);
  });

  it("survives a burst of garbage and still serves", async () => {
    const garbage = ["\u0000\u0001", "[", "null", "42", '"s"', "{\"a\":", "{}}", "\xff\xfe"];
    for (const g of garbage) {
      for (const path of ["/api/storage/namespaces", "/api/storage/quota/rules", "/api/storage/cache/caches", "/api/cluster/software/download"]) {
        const r = await h.call("POST", path, undefined, { raw: g, headers: { "content-type": "application/json" } });
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(typeof errorOf(r).code).toBe("string");
      }
    }
    const bad = await h.call("GET", "/api/storage/volumes/%E0%A4%A");
    expect(bad.status).toBe(400);
    expect((await h.call("GET", "/api/cluster/nodes")).status).toBe(200);
  });
});

describe("collections: fields, filters, paging", () => {
  it("pages with max_records and next links that carry the query", async () => {
    const seen: string[] = [];
    let href: string | undefined = "/api/storage/volumes?max_records=2&fields=size&svm.name=svm1";
    let pages = 0;
    while (href !== undefined) {
      const r = await h.call("GET", href);
      expect(r.status).toBe(200);
      expect(r.body.num_records).toBe(r.body.records.length);
      for (const rec of r.body.records) {
        expect(rec.size).toBeTypeOf("number");
        seen.push(rec.name);
      }
      const next: string | undefined = r.body._links.next?.href;
      if (next !== undefined) {
        expect(next.startsWith("/api/storage/volumes?")).toBe(true);
        expect(next).toContain("max_records=2");
        expect(next).toContain("svm.name=svm1");
      }
      href = next;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(["vol1", "vol2", "fg1", "vol_offline"]);
  });

  it("counts with return_records=false", async () => {
    const r = await h.call("GET", "/api/storage/volumes?return_records=false");
    expect(r.body).toMatchObject({ num_records: 5 });
    expect(r.body.records).toBeUndefined();
  });

  it("filters with =, *, |, ! and comparisons on dotted fields", async () => {
    const names = async (q: string) => (await h.call("GET", `/api/storage/volumes?${q}`)).body.records.map((r: any) => r.name);
    expect(await names("svm.name=svm2")).toEqual(["vol3"]);
    expect(await names("name=vol*")).toEqual(["vol1", "vol2", "vol3", "vol_offline"]);
    expect(await names("name=vol1|fg1")).toEqual(["vol1", "fg1"]);
    expect(await names("svm.name=!svm1")).toEqual(["vol3"]);
    expect(await names(`size=>${50 * 1024 ** 3}`)).toEqual(["vol1", "fg1"]);
    expect(await names("qtrees.name=q2")).toEqual(["vol1"]);
    expect(await names("nas.path=null")).toEqual(["fg1", "vol_offline"]);
  });

  it("orders with order_by", async () => {
    const r = await h.call("GET", "/api/storage/volumes?order_by=size%20desc&fields=size");
    expect(r.body.records.map((x: any) => x.name)).toEqual(["fg1", "vol1", "vol3", "vol2", "vol_offline"]);
  });
});

describe("clone tokens", () => {
  it("creates with the 4 KiB minimum, Size suffixes and the default limit, and counts down", async () => {
    const small = await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 }, reserve_size: 100 });
    expect(small.status).toBe(201);
    expect(small.body.num_records).toBe(1);
    expect(small.body.records[0]).toMatchObject({ node: { name: "node1" }, reserve_size: 4096 });
    const m = await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 }, reserve_size: "40M", expiry_time: { limit: "4200" } });
    expect(m.body.records[0].reserve_size).toBe(41943040);
    const href = m.body.records[0]._links.self.href as string;
    expect(href).toBe(`/api/storage/file/clone/tokens/${NODE1}/${m.body.records[0].uuid}`);
    let got = await h.call("GET", href);
    expect(got.body.expiry_time).toEqual({ limit: "PT1H10M", left: "PT1H10M" });
    h.clock.advance(600_000);
    got = await h.call("GET", href);
    expect(got.body.expiry_time.left).toBe("PT1H");
    const def = await h.call("GET", small.body.records[0]._links.self.href);
    expect(def.status).toBe(404); // the default 60 s lifetime has passed
  });

  it("patches the limit (lifetime restarts), deletes, and lets expired tokens disappear", async () => {
    const t = await h.call("POST", "/api/storage/file/clone/tokens?return_records=true", { node: { uuid: NODE1 }, reserve_size: "1G" });
    expect(t.body.records[0].expiry_time).toEqual({ limit: "PT1M", left: "PT1M" });
    const href = t.body.records[0]._links.self.href as string;
    h.clock.advance(30_000);
    const p = await h.call("PATCH", href, { expiry_time: { limit: "120" } });
    expect(p.status).toBe(200);
    expect((await h.call("GET", href)).body.expiry_time).toEqual({ limit: "PT2M", left: "PT2M" });
    expect((await h.call("PATCH", href, { reserve_size: 1 })).status).toBe(400);
    h.clock.advance(119_000);
    expect((await h.call("GET", href)).body.expiry_time.left).toBe("PT1S");
    h.clock.advance(1_000);
    expect((await h.call("GET", href)).status).toBe(404);
    const list = await h.call("GET", "/api/storage/file/clone/tokens");
    expect(list.body.records.map((r: any) => r.uuid)).not.toContain(t.body.records[0].uuid);
    const d = await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 }, reserve_size: 8192 });
    const dh = d.body.records[0]._links.self.href as string;
    expect((await h.call("DELETE", dh)).status).toBe(200);
    expect((await h.call("GET", dh)).status).toBe(404);
  });

  it("requires node.uuid and reserve_size, and a known node", async () => {
    expect(errorOf(await h.call("POST", "/api/storage/file/clone/tokens", { reserve_size: 1 }))).toMatchObject({ code: "262195", target: "node.uuid" });
    expect(errorOf(await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 } }))).toMatchObject({ target: "reserve_size" });
    expect(errorOf(await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: seedUuid("a", 9) }, reserve_size: 1 }))).toMatchObject({ code: "4", target: "node.uuid" });
    expect(errorOf(await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 }, reserve_size: 1, expiry_time: { limit: "0" } })).code).toBe("262197");
  });
});

describe("quota rules", () => {
  const base = { svm: { name: "svm1" }, volume: { name: "vol2" } };

  it("adds the default rule of the same type and applies the limit rules", async () => {
    const r = await h.call("POST", "/api/storage/quota/rules?return_records=true", {
      ...base, type: "user", users: [{ name: "jdoe" }], qtree: { name: "" },
      space: { hard_limit: "1M", soft_limit: 100 }, files: { hard_limit: 10, soft_limit: 5 }, user_mapping: "on",
    });
    expect(r.status).toBe(201);
    const rule = r.body.records[0];
    expect(rule).toMatchObject({ type: "user", users: [{ name: "jdoe" }], space: { hard_limit: 1048576, soft_limit: 1024 }, files: { hard_limit: 10, soft_limit: 5 }, user_mapping: true });
    const all = await h.call("GET", "/api/storage/quota/rules?volume.name=vol2&fields=**");
    expect(all.body.num_records).toBe(2);
    const def = all.body.records.find((x: any) => x.uuid !== rule.uuid);
    expect(def).toMatchObject({ type: "user", users: [{ name: "" }], qtree: { name: "" }, user_mapping: false });
    // A second explicit user rule does not add another default.
    await h.call("POST", "/api/storage/quota/rules", { ...base, type: "user", users: [{ id: "1001" }], qtree: { name: "" } });
    expect((await h.call("GET", "/api/storage/quota/rules?volume.name=vol2&type=user")).body.num_records).toBe(3);
    // Default collection records hold uuid, svm, volume, _links.
    const plain = await h.call("GET", "/api/storage/quota/rules?volume.name=vol2");
    expect(Object.keys(plain.body.records[0]).sort()).toEqual(["_links", "svm", "uuid", "volume"]);
  });

  it("adds a default tree rule for a qtree-scoped tree rule, and -1 means no limit", async () => {
    const r = await h.call("POST", "/api/storage/quota/rules?return_records=true", { svm: { name: "svm1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "q1" }, space: { hard_limit: -1, soft_limit: "10G" } });
    expect(r.status).toBe(201);
    expect(r.body.records[0].space).toEqual({ soft_limit: 10 * 1024 ** 3 });
    expect(r.body.records[0].qtree).toEqual({ id: 1, name: "q1" });
    const trees = await h.call("GET", "/api/storage/quota/rules?volume.name=vol1&type=tree&fields=qtree");
    expect(trees.body.records.map((x: any) => x.qtree.name).sort()).toEqual(["", "q1"]);
    // PATCH: -1 clears, small values are raised, user_mapping only on user rules.
    const href = r.body.records[0]._links.self.href;
    expect((await h.call("PATCH", href, { space: { soft_limit: -1, hard_limit: 5 } })).status).toBe(200);
    expect((await h.call("GET", href)).body.space).toEqual({ hard_limit: 1024 });
    expect(errorOf(await h.call("PATCH", href, { user_mapping: true })).target).toBe("user_mapping");
    expect(errorOf(await h.call("PATCH", href, { type: "user" })).code).toBe("262196");
    expect((await h.call("DELETE", href)).status).toBe(200);
    expect((await h.call("GET", href)).status).toBe(404);
  });

  it("enforces the type rules", async () => {
    const post = (b: object) => h.call("POST", "/api/storage/quota/rules", { svm: { name: "svm2" }, volume: { name: "vol3" }, ...b });
    expect(errorOf(await post({ type: "group", group: { name: "g" }, users: [{ name: "u" }], qtree: { name: "" } })).target).toBe("users");
    expect(errorOf(await post({ type: "tree", users: [{ name: "u" }], qtree: { name: "qa" } })).target).toBe("users");
    expect(errorOf(await post({ type: "tree", group: { name: "g" }, qtree: { name: "qa" } })).target).toBe("group");
    expect(errorOf(await post({ type: "user", qtree: { name: "" } })).target).toBe("users");
    expect(errorOf(await post({ type: "group", qtree: { name: "" } })).target).toBe("group");
    expect(errorOf(await post({ type: "tree" })).target).toBe("qtree.name");
    expect(errorOf(await post({ type: "user", users: [{ name: "a", id: "1" }], qtree: { name: "" } })).target).toBe("users[0]");
    expect(errorOf(await post({ type: "tree", qtree: { name: "nope" } })).code).toBe("4");
    expect(errorOf(await post({ type: "group", group: { name: "g" }, qtree: { name: "" }, user_mapping: true })).target).toBe("user_mapping");
    expect(errorOf(await post({ qtree: { name: "" } })).target).toBe("type");
    const ok = await post({ type: "user", users: [{ name: "a,b" }], qtree: { name: "qa" } });
    expect(ok.status).toBe(201);
    expect(ok.body.records[0].users).toEqual([{ name: "a" }, { name: "b" }]);
    expect((await post({ type: "user", users: [{ name: "b" }, { name: "a" }], qtree: { name: "qa" } })).status).toBe(409);
  });
});
