// client.svms and client.nodes against the reference server on 127.0.0.1: list (all pages),
// count, find with filters, get by uuid with fields, and the typed error of an unknown uuid.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STORAGE_PATHS, StorageApiError, StorageProtocolError } from "../../../src/storage/index.js";
import { DEFAULT_INVENTORY, SERVER_ERROR_CODES, seedUuid } from "../../../src/storage/server/index.js";
import { apiError, startLoopback, thrown, type Loopback } from "../../support/storage/integration-harness.js";

let loop: Loopback;
beforeAll(async () => {
  loop = await startLoopback("svms-nodes-Pa55");
});
afterAll(() => loop.close());

describe("client.svms", () => {
  it("lists the seeded SVMs with their uuids and links", async () => {
    expect(loop.server.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const svms = await loop.client.svms.all({ fields: "*" });
    expect(svms).toEqual(
      DEFAULT_INVENTORY.svms.map((s) => ({
        uuid: s.uuid,
        name: s.name,
        _links: { self: { href: `/api/svm/svms/${s.uuid}` } },
      })),
    );
    expect(await loop.client.svms.count()).toBe(2);
    expect(loop.client.svms.path).toBe(DEFAULT_STORAGE_PATHS.svms);
  });

  it("follows the pages of max_records, and filters", async () => {
    const paged = await loop.client.svms.all({ max_records: 1 });
    expect(paged.map((s) => s.name)).toEqual(["svm1", "svm2"]);
    expect((await loop.client.svms.all({ name: "svm2" })).map((s) => s.uuid)).toEqual([seedUuid("b", 2)]);
    expect(await loop.client.svms.find({ name: "svm1" })).toMatchObject({ uuid: seedUuid("b", 1), name: "svm1" });
    expect(await loop.client.svms.find({ name: "nope" })).toBeUndefined();
    expect(await thrown(() => loop.client.svms.find({ name: "svm*" }))).toBeInstanceOf(StorageProtocolError);
  });

  it("gets one by uuid, and an unknown uuid is a StorageApiError with the status and the API's code", async () => {
    expect(await loop.client.svms.get(seedUuid("b", 2))).toMatchObject({ uuid: seedUuid("b", 2), name: "svm2" });
    // The keys (uuid, name) and the self link come with any fields asked.
    expect(Object.keys(await loop.client.svms.get(seedUuid("b", 1), { fields: "name" })).sort()).toEqual([
      "_links",
      "name",
      "uuid",
    ]);
    const missing = seedUuid("b", 9);
    const e = await apiError(() => loop.client.svms.get(missing));
    expect([e.status, e.code, e.target]).toEqual([404, SERVER_ERROR_CODES.NOT_FOUND, "uuid"]);
    expect(e.request).toBe(`GET /api/svm/svms/${missing}`);
    // An unknown field is the API's 400, typed the same way.
    const bad = await apiError(() => loop.client.svms.all({ fields: "nope" }));
    expect(bad.status).toBe(400);
    expect(bad).toBeInstanceOf(StorageApiError);
  });
});

describe("client.nodes", () => {
  it("lists the seeded nodes, with model when asked", async () => {
    expect((await loop.client.nodes.all()).map((n) => n.name)).toEqual(["node1", "node2"]);
    expect(await loop.client.nodes.all({ fields: "name,model" })).toEqual([
      expect.objectContaining({ name: "node1", model: "sim" }),
      expect.objectContaining({ name: "node2", model: "sim" }),
    ]);
    expect(await loop.client.nodes.count({ name: "node2" })).toBe(1);
  });

  it("gets one by uuid, whose uuid a clone token takes", async () => {
    const node = await loop.client.nodes.find({ name: "node2" });
    expect(node?.uuid).toBe(seedUuid("a", 2));
    const got = await loop.client.nodes.get(node!.uuid!);
    expect(got).toMatchObject({
      name: "node2",
      model: "sim",
      _links: { self: { href: `/api/cluster/nodes/${node!.uuid}` } },
    });
    const token = await loop.client.cloneTokens.create({ node: { uuid: node!.uuid! }, reserve_size: "4K" });
    expect(token.record?.node?.name).toBe("node2");
    const e = await apiError(() => loop.client.nodes.get(seedUuid("a", 7)));
    expect([e.status, e.code]).toEqual([404, SERVER_ERROR_CODES.NOT_FOUND]);
  });

  it("without codecs, the records come back as the server sent them", async () => {
    expect(await loop.raw.nodes.get(seedUuid("a", 1), { fields: "model" })).toEqual({
      uuid: seedUuid("a", 1),
      name: "node1",
      model: "sim",
      _links: { self: { href: `/api/cluster/nodes/${seedUuid("a", 1)}` } },
    });
  });

  it("a custom path is used as given", async () => {
    const { StorageClient } = await import("../../../src/storage/index.js");
    const c = new StorageClient({
      baseUrl: loop.server.url,
      username: "u",
      password: "p",
      allowInsecureHttp: true,
      paths: { nodes: "/api/x/nodes", svms: "/api/x/svms" },
    });
    expect([c.nodes.path, c.svms.path, c.nodes.instancePath("a/b")]).toEqual([
      "/api/x/nodes",
      "/api/x/svms",
      "/api/x/nodes/a%2Fb",
    ]);
    c.close();
  });
});
