// The reference server's namespaces (src/storage/server/namespaces.ts) over real HTTP on loopback.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});
const NS = "/api/storage/namespaces";

describe("namespaces", () => {
  it("creates with block_size defaults and full-path names, with default and expensive fields", async () => {
    const a = await h.call("POST", `${NS}?return_records=true`, {
      svm: { name: "svm1" },
      name: "/vol/vol1/ns1",
      os_type: "linux",
      space: { size: "1G" },
    });
    expect(a.status).toBe(201);
    expect(a.body.records[0]).toMatchObject({
      name: "/vol/vol1/ns1",
      os_type: "linux",
      space: { size: 1024 ** 3, block_size: 4096 },
      enabled: true,
      location: { volume: { name: "vol1" }, namespace: "ns1" },
    });
    const v = await h.call("POST", NS, {
      svm: { name: "svm1" },
      location: { volume: { name: "vol1" }, qtree: { name: "q1" }, namespace: "nsv" },
      os_type: "vmware",
      space: { size: 1048576 },
    });
    expect(v.status).toBe(201);
    const vr = await h.call("GET", v.body.records[0]._links.self.href);
    expect(vr.body).toMatchObject({
      name: "/vol/vol1/q1/nsv",
      space: { block_size: 512 },
      location: { qtree: { name: "q1" } },
    });
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
    const a = await h.call("POST", `${NS}?return_records=true`, {
      svm: { name: "svm1" },
      name: "/vol/vol1/echoed",
      os_type: "linux",
      space: { size: "1M" },
    });
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
    expect(errorOf(await post({ name: "x", os_type: "linux", space: { size: 4096 } })).target).toBe(
      "location.volume.name",
    );
    expect(errorOf(await post({ name: "/vol/vol1/x", os_type: "solaris", space: { size: 4096 } })).target).toBe(
      "os_type",
    );
    expect(
      errorOf(await post({ name: "/vol/vol1/x", os_type: "linux", space: { size: 4096, block_size: 1024 } })).target,
    ).toBe("space.block_size");
    expect(errorOf(await post({ name: "/vol/vol1/x", os_type: "linux", space: { size: 100 } })).code).toBe("262197");
    expect(errorOf(await post({ name: "/vol/vol3/x", os_type: "linux", space: { size: 4096 } })).code).toBe("4");
    expect(
      errorOf(
        await post({
          name: "/vol/vol1/x",
          location: { volume: { name: "vol2" } },
          os_type: "linux",
          space: { size: 4096 },
        }),
      ).target,
    ).toBe("location.volume");
    expect(
      errorOf(await post({ name: "/vol/vol1/x", os_type: "linux", space: { size: 4096 }, status: { state: "online" } }))
        .code,
    ).toBe("262196");
    expect((await post({ name: "/vol/vol1/ns1", os_type: "linux", space: { size: 4096 } })).status).toBe(409);
    expect((await post({ name: "/vol/vol1/dotted", os_type: "windows", "space.size": 8192 })).status).toBe(201);
  });

  it("clones within the same volume only, without os_type, taking the source size", async () => {
    const src = (await h.call("GET", `${NS}?name=/vol/vol1/ns1`)).body.records[0];
    const c = await h.call("POST", `${NS}?return_records=true`, {
      svm: { name: "svm1" },
      name: "/vol/vol1/ns1clone",
      clone: { source: { uuid: src.uuid } },
    });
    expect(c.status).toBe(201);
    expect(c.body.records[0]).toMatchObject({ os_type: "linux", space: { size: 1024 ** 3, block_size: 4096 } });
    expect(
      errorOf(
        await h.call("POST", NS, {
          svm: { name: "svm1" },
          name: "/vol/vol2/c2",
          clone: { source: { uuid: src.uuid } },
        }),
      ).target,
    ).toBe("clone.source");
    expect(
      errorOf(
        await h.call("POST", NS, {
          svm: { name: "svm1" },
          name: "/vol/vol1/c3",
          os_type: "linux",
          clone: { source: { name: "/vol/vol1/ns1" } },
        }),
      ).target,
    ).toBe("os_type");
    expect(
      errorOf(
        await h.call("POST", NS, {
          svm: { name: "svm1" },
          name: "/vol/vol1/c3",
          space: { size: 4096 },
          clone: { source: { name: "/vol/vol1/ns1" } },
        }),
      ).target,
    ).toBe("space.size");
    const snap = await h.call("POST", NS, {
      svm: { name: "svm1" },
      name: "/vol/vol1/c4",
      clone: { source: { name: "/vol/vol1/.snapshot/hourly.0/ns1" } },
    });
    expect(snap.status).toBe(201);
    expect(
      errorOf(
        await h.call("POST", NS, {
          svm: { name: "svm1" },
          name: "/vol/vol1/c5",
          clone: { source: { name: "/vol/vol1/ns1" } },
          convert: { lun: { name: "/vol/vol1/lun1" } },
        }),
      ).target,
    ).toBe("convert");
  });

  it("converts a LUN under the rules", async () => {
    const ok = await h.call("POST", `${NS}?return_records=true`, {
      svm: { name: "svm1" },
      convert: { lun: { name: "/vol/vol1/lun1" } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.records[0]).toMatchObject({ name: "/vol/vol1/lun1", os_type: "linux", space: { size: 1024 ** 3 } });
    expect((await h.call("GET", "/api/storage/luns?name=/vol/vol1/lun1")).body.num_records).toBe(0);
    expect(
      errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, convert: { lun: { name: "/vol/vol1/lun_mapped" } } }))
        .target,
    ).toBe("convert.lun");
    expect(
      errorOf(await h.call("POST", NS, { svm: { name: "svm1" }, convert: { lun: { name: "/vol/vol1/lun_hyperv" } } }))
        .target,
    ).toBe("convert.lun");
    expect(
      errorOf(
        await h.call("POST", NS, {
          svm: { name: "svm1" },
          os_type: "linux",
          convert: { lun: { name: "/vol/vol1/lun_hyperv" } },
        }),
      ).target,
    ).toBe("os_type");
  });

  it("cannot be renamed or moved; PATCH grows, comments, overwrites from a clone", async () => {
    const ns = (await h.call("GET", `${NS}?name=/vol/vol1/ns1clone`)).body.records[0];
    const href = ns._links.self.href;
    expect(errorOf(await h.call("PATCH", href, { name: "/vol/vol1/renamed" }))).toMatchObject({
      code: "262196",
      target: "name",
    });
    expect(errorOf(await h.call("PATCH", href, { location: { volume: { name: "vol2" } } }))).toMatchObject({
      code: "262196",
      target: "location",
    });
    expect(errorOf(await h.call("PATCH", href, { svm: { name: "svm2" } })).target).toBe("svm");
    expect(errorOf(await h.call("PATCH", href, { space: { size: 4096 } })).code).toBe("262197");
    expect(errorOf(await h.call("PATCH", href, { os_type: "windows" })).code).toBe("262196");
    expect((await h.call("PATCH", href, { comment: "hello", auto_delete: true, space: { size: "2G" } })).status).toBe(
      200,
    );
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
