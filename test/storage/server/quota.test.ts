// The reference server's quota rules (src/storage/server/quota.ts) over real HTTP on loopback.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});

describe("quota rules", () => {
  const base = { svm: { name: "svm1" }, volume: { name: "vol2" } };

  it("adds the default rule of the same type and applies the limit rules", async () => {
    const r = await h.call("POST", "/api/storage/quota/rules?return_records=true", {
      ...base,
      type: "user",
      users: [{ name: "jdoe" }],
      qtree: { name: "" },
      space: { hard_limit: "1M", soft_limit: 100 },
      files: { hard_limit: 10, soft_limit: 5 },
      user_mapping: "on",
    });
    expect(r.status).toBe(201);
    const rule = r.body.records[0];
    expect(rule).toMatchObject({
      type: "user",
      users: [{ name: "jdoe" }],
      space: { hard_limit: 1048576, soft_limit: 1024 },
      files: { hard_limit: 10, soft_limit: 5 },
      user_mapping: true,
    });
    const all = await h.call("GET", "/api/storage/quota/rules?volume.name=vol2&fields=**");
    expect(all.body.num_records).toBe(2);
    const def = all.body.records.find((x: { uuid: string }) => x.uuid !== rule.uuid);
    expect(def).toMatchObject({ type: "user", users: [{ name: "" }], qtree: { name: "" }, user_mapping: false });
    // A second explicit user rule does not add another default.
    await h.call("POST", "/api/storage/quota/rules", {
      ...base,
      type: "user",
      users: [{ id: "1001" }],
      qtree: { name: "" },
    });
    expect((await h.call("GET", "/api/storage/quota/rules?volume.name=vol2&type=user")).body.num_records).toBe(3);
    // Default collection records hold uuid, svm, volume, _links.
    const plain = await h.call("GET", "/api/storage/quota/rules?volume.name=vol2");
    expect(Object.keys(plain.body.records[0]).sort()).toEqual(["_links", "svm", "uuid", "volume"]);
  });

  it("adds a default tree rule for a qtree-scoped tree rule, and -1 means no limit", async () => {
    const r = await h.call("POST", "/api/storage/quota/rules?return_records=true", {
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "tree",
      qtree: { name: "q1" },
      space: { hard_limit: -1, soft_limit: "10G" },
    });
    expect(r.status).toBe(201);
    expect(r.body.records[0].space).toEqual({ soft_limit: 10 * 1024 ** 3 });
    expect(r.body.records[0].qtree).toEqual({ id: 1, name: "q1" });
    const trees = await h.call("GET", "/api/storage/quota/rules?volume.name=vol1&type=tree&fields=qtree");
    expect(trees.body.records.map((x: { qtree: { name: string } }) => x.qtree.name).sort()).toEqual(["", "q1"]);
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
    const post = (b: object) =>
      h.call("POST", "/api/storage/quota/rules", { svm: { name: "svm2" }, volume: { name: "vol3" }, ...b });
    expect(
      errorOf(await post({ type: "group", group: { name: "g" }, users: [{ name: "u" }], qtree: { name: "" } })).target,
    ).toBe("users");
    expect(errorOf(await post({ type: "tree", users: [{ name: "u" }], qtree: { name: "qa" } })).target).toBe("users");
    expect(errorOf(await post({ type: "tree", group: { name: "g" }, qtree: { name: "qa" } })).target).toBe("group");
    expect(errorOf(await post({ type: "user", qtree: { name: "" } })).target).toBe("users");
    expect(errorOf(await post({ type: "group", qtree: { name: "" } })).target).toBe("group");
    expect(errorOf(await post({ type: "tree" })).target).toBe("qtree.name");
    expect(errorOf(await post({ type: "user", users: [{ name: "a", id: "1" }], qtree: { name: "" } })).target).toBe(
      "users[0]",
    );
    expect(errorOf(await post({ type: "tree", qtree: { name: "nope" } })).code).toBe("4");
    expect(
      errorOf(await post({ type: "group", group: { name: "g" }, qtree: { name: "" }, user_mapping: true })).target,
    ).toBe("user_mapping");
    expect(errorOf(await post({ qtree: { name: "" } })).target).toBe("type");
    const ok = await post({ type: "user", users: [{ name: "a,b" }], qtree: { name: "qa" } });
    expect(ok.status).toBe(201);
    expect(ok.body.records[0].users).toEqual([{ name: "a" }, { name: "b" }]);
    expect((await post({ type: "user", users: [{ name: "b" }, { name: "a" }], qtree: { name: "qa" } })).status).toBe(
      409,
    );
  });
});
