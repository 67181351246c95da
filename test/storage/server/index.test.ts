// The reference server's entry point and request handling (src/storage/server/index.ts,
// http.ts, json.ts, values.ts) over real HTTP on loopback: auth, transport, bad requests,
// collections (fields, filters, paging), HTTPS, and password hygiene.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, seedUuid } from "../../../src/storage/server/index.js";
import { makeCert } from "../../support/storage/cert.js";
import { PASSWORD, USER, basic, errorOf, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});

const NODE1 = seedUuid("a", 1);

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

describe("bad requests", () => {
  it("inherited names are unknown fields, and no body, filter or field list reaches Object.prototype", async () => {
    const names = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];
    for (const name of names) {
      for (const raw of [
        `{"${name}":{"polluted":1}}`,
        `{"svm.${name}":{"polluted":1}}`,
        `{"svm":{"${name}":{"polluted":1}}}`,
      ]) {
        const r = await h.call("POST", "/api/storage/quota/rules", undefined, {
          raw,
          headers: { "content-type": "application/json" },
        });
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
    for (const inventory of [
      '{"svms":[{"name":"a","__proto__":{"x":1}}]}',
      '{"svms":[{"name":"a","constructor":1}]}',
    ]) {
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
      const r = await h.call(
        "POST",
        "/api/storage/file/clone/tokens",
        body,
        raw === undefined ? {} : { raw, headers: { "content-type": "application/json" } },
      );
      expect(r.status, JSON.stringify(body ?? raw)).toBe(status);
      expect(errorOf(r).code, JSON.stringify(body ?? raw)).toBe(code);
    }
    const en = await h.call("POST", "/api/storage/quota/rules", {
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "nobody",
      qtree: { name: "" },
    });
    expect(en.status).toBe(400);
    expect(errorOf(en)).toMatchObject({ code: "2", target: "type" });
  });

  it("refuses oversized bodies with 413 and keeps serving", async () => {
    const big = JSON.stringify({ comment: "x".repeat(1024 * 1024 + 10) });
    const r = await h.call("POST", "/api/storage/namespaces", undefined, {
      raw: big,
      headers: { "content-type": "application/json" },
    });
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
    const garbage = ["\u0000\u0001", "[", "null", "42", '"s"', '{"a":', "{}}", "\xff\xfe"];
    for (const g of garbage) {
      for (const path of [
        "/api/storage/namespaces",
        "/api/storage/quota/rules",
        "/api/storage/cache/caches",
        "/api/cluster/software/download",
      ]) {
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
    const names = async (q: string) =>
      (await h.call("GET", `/api/storage/volumes?${q}`)).body.records.map((r: { name: string }) => r.name);
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
    expect(r.body.records.map((x: { name: string }) => x.name)).toEqual(["fg1", "vol1", "vol3", "vol2", "vol_offline"]);
  });
});

describe("HTTPS and password hygiene", () => {
  it("serves HTTPS with the given key and certificate", async () => {
    const pem = makeCert();
    if (pem === undefined) throw new Error("openssl is needed to make a test certificate");
    const server = await createReferenceServer({ https: { key: pem.key, cert: pem.cert } });
    try {
      expect(server.url).toMatch(/^https:\/\//);
      const https = await import("node:https");
      const status = await new Promise<number>((resolve, reject) => {
        https
          .get(`${server.url}/api/cluster/nodes`, { rejectUnauthorized: false, auth: "admin:clusterwire" }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on("error", reject);
      });
      expect(status).toBe(200);
    } finally {
      await server.close();
      pem.dispose();
    }
  });

  it("never echoes or logs the Basic password or the download password", async () => {
    const bodies: string[] = [];
    const record = (r: { text: string }) => bodies.push(r.text);
    const secret = "Dl-pa55-SECRET";
    record(
      await h.call("GET", "/api/cluster/nodes", undefined, {
        auth: `Basic ${Buffer.from(`admin:${PASSWORD}x`).toString("base64")}`,
      }),
    );
    record(
      await h.call("POST", `/api/storage/file/clone/tokens`, { node: { uuid: PASSWORD }, reserve_size: PASSWORD }),
    );
    record(
      await h.call("POST", "/api/cluster/software/download", {
        url: "http://example.test/9.17.1_image.tgz",
        username: "u",
        password: secret,
      }),
    );
    record(
      await h.call("POST", "/api/cluster/software/download", {
        url: "http://example.test/x.tgz",
        password: { nested: secret },
      }),
    );
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
