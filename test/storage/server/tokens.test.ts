// The reference server's clone tokens (src/storage/server/tokens.ts) over real HTTP on loopback, on a manual clock.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedUuid } from "../../../src/storage/server/index.js";
import { errorOf, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});

const NODE1 = seedUuid("a", 1);

describe("clone tokens", () => {
  it("creates with the 4 KiB minimum, Size suffixes and the default limit, and counts down", async () => {
    const small = await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 }, reserve_size: 100 });
    expect(small.status).toBe(201);
    expect(small.body.num_records).toBe(1);
    expect(small.body.records[0]).toMatchObject({ node: { name: "node1" }, reserve_size: 4096 });
    const m = await h.call("POST", "/api/storage/file/clone/tokens", {
      node: { uuid: NODE1 },
      reserve_size: "40M",
      expiry_time: { limit: "4200" },
    });
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
    const t = await h.call("POST", "/api/storage/file/clone/tokens?return_records=true", {
      node: { uuid: NODE1 },
      reserve_size: "1G",
    });
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
    expect(list.body.records.map((r: { uuid: string }) => r.uuid)).not.toContain(t.body.records[0].uuid);
    const d = await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 }, reserve_size: 8192 });
    const dh = d.body.records[0]._links.self.href as string;
    expect((await h.call("DELETE", dh)).status).toBe(200);
    expect((await h.call("GET", dh)).status).toBe(404);
  });

  it("requires node.uuid and reserve_size, and a known node", async () => {
    expect(errorOf(await h.call("POST", "/api/storage/file/clone/tokens", { reserve_size: 1 }))).toMatchObject({
      code: "262195",
      target: "node.uuid",
    });
    expect(errorOf(await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: NODE1 } }))).toMatchObject({
      target: "reserve_size",
    });
    expect(
      errorOf(
        await h.call("POST", "/api/storage/file/clone/tokens", { node: { uuid: seedUuid("a", 9) }, reserve_size: 1 }),
      ),
    ).toMatchObject({ code: "4", target: "node.uuid" });
    expect(
      errorOf(
        await h.call("POST", "/api/storage/file/clone/tokens", {
          node: { uuid: NODE1 },
          reserve_size: 1,
          expiry_time: { limit: "0" },
        }),
      ).code,
    ).toBe("262197");
  });
});
