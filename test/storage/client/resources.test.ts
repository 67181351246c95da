// StorageClient per-resource methods over real HTTP: paths and verbs for clone tokens, caches,
// namespaces and quota rules, and the codec hook. The software API is in software-api.test.ts.
import { describe, expect, it } from "vitest";
import type { StorageClientOptions } from "../../../src/storage/index.js";
import { StorageCodecError } from "../../../src/storage/codecs/errors.js";
import {
  FAST_JOBS,
  jobAccepted,
  type Handler,
  type Recorded,
  clientFixture,
} from "../../support/storage/client-test-server.js";

const PASSWORD = "cluster-admin-pw";

const start = clientFixture(PASSWORD);
const setup = (handler: Handler, extra: Partial<StorageClientOptions> = {}) =>
  start(handler, { jobs: FAST_JOBS, ...extra });

const line = (r: Recorded): string => `${r.method} ${r.url}`;

describe("resources", () => {
  it("clone tokens: the two-key instance path, POST records, PATCH/DELETE with empty bodies", async () => {
    const { client, srv } = await setup((r) => {
      if (r.method === "POST")
        return {
          status: 201,
          json: {
            num_records: 1,
            records: [{ node: { name: "node1", uuid: "n1" }, uuid: "t1", reserve_size: 41943040 }],
          },
        };
      if (r.method === "GET" && r.path.endsWith("/t1"))
        return { json: { node: { uuid: "n1" }, uuid: "t1", expiry_time: { limit: "PT1H10M", left: "PT1H9M" } } };
      if (r.method === "GET") return { json: { records: [{ node: { uuid: "n1" }, uuid: "t1" }], num_records: 1 } };
      return { status: 200 };
    });
    const created = await client.cloneTokens.create({
      node: { uuid: "n1" },
      reserve_size: "40M",
      expiry_time: { limit: "4200" },
    });
    expect(created.record).toMatchObject({ uuid: "t1", reserve_size: 41943040 });
    expect(await client.cloneTokens.get({ nodeUuid: "n1", uuid: "t1" })).toMatchObject({
      expiry_time: { left: "PT1H9M" },
    });
    expect(await client.cloneTokens.all({ fields: "**" })).toHaveLength(1);
    const upd = await client.cloneTokens.update({ nodeUuid: "n1", uuid: "t1" }, { expiry_time: { limit: "7200" } });
    expect([upd.status, upd.body, upd.job]).toEqual([200, undefined, undefined]);
    await client.cloneTokens.delete({ nodeUuid: "n1", uuid: "t1" });
    expect(srv.requests.map(line)).toEqual([
      "POST /api/storage/file/clone/tokens",
      "GET /api/storage/file/clone/tokens/n1/t1",
      "GET /api/storage/file/clone/tokens?fields=**",
      "PATCH /api/storage/file/clone/tokens/n1/t1",
      "DELETE /api/storage/file/clone/tokens/n1/t1",
    ]);
    // The default codecs encode the body: "40M" goes on the wire as bytes.
    expect(srv.requests[0]!.json).toEqual({
      node: { uuid: "n1" },
      reserve_size: 41943040,
      expiry_time: { limit: "4200" },
    });
    expect(srv.requests[3]!.json).toEqual({ expiry_time: { limit: "7200" } });
    expect(srv.requests[4]!.body.length).toBe(0);
  });

  it("caches, namespaces and quota rules use the spec's paths for all five verbs", async () => {
    const { client, srv } = await setup((r) => {
      if (r.path.startsWith("/api/cluster/jobs/")) return { json: { uuid: "j", state: "success" } };
      if (r.method === "GET")
        return r.path.split("/").length > 4 &&
          !r.path.endsWith("caches") &&
          !r.path.endsWith("namespaces") &&
          !r.path.endsWith("rules")
          ? { json: { uuid: "x" } }
          : { json: { records: [] } };
      return jobAccepted("j");
    });
    for (const res of [client.caches, client.nvmeNamespaces, client.quotaRules] as const) {
      await (res as typeof client.caches).all({ "svm.name": "vs1" });
      await res.get("x", { fields: "*" });
      await res.update("x", {});
      await res.delete("x");
    }
    await client.caches.create({
      name: "c",
      svm: { uuid: "s" },
      origins: [{ svm: { name: "o" }, volume: { uuid: "v" } }],
      prepopulate: { dir_paths: ["/a"] },
    });
    await client.nvmeNamespaces.create({
      name: "/vol/v1/ns1",
      svm: { name: "vs1" },
      os_type: "linux",
      space: { size: "1G" },
    });
    await client.quotaRules.create({
      svm: { name: "vs1" },
      volume: { name: "v1" },
      type: "user",
      qtree: { name: "" },
      users: [{ name: "" }],
      user_mapping: "on",
    });
    const mutations = srv.requests.filter((r) => !r.path.startsWith("/api/cluster/jobs/")).map(line);
    expect(mutations).toEqual([
      "GET /api/storage/cache/caches?svm.name=vs1",
      "GET /api/storage/cache/caches/x?fields=*",
      "PATCH /api/storage/cache/caches/x",
      "DELETE /api/storage/cache/caches/x",
      "GET /api/storage/namespaces?svm.name=vs1",
      "GET /api/storage/namespaces/x?fields=*",
      "PATCH /api/storage/namespaces/x",
      "DELETE /api/storage/namespaces/x",
      "GET /api/storage/quota/rules?svm.name=vs1",
      "GET /api/storage/quota/rules/x?fields=*",
      "PATCH /api/storage/quota/rules/x",
      "DELETE /api/storage/quota/rules/x",
      "POST /api/storage/cache/caches",
      "POST /api/storage/namespaces",
      "POST /api/storage/quota/rules",
    ]);
  });

  it("routes bodies through the codec hook (encodePost, encodePatch, decode)", async () => {
    const calls: string[] = [];
    const { client, srv } = await setup(
      (r) =>
        r.method === "GET"
          ? { json: { records: [{ uuid: "n1", raw: true }] } }
          : { status: 201, json: { records: [{ uuid: "n2", raw: true }] } },
      {
        codecs: {
          nvmeNamespace: {
            encodePost: (input) => {
              calls.push("post");
              if (input.os_type === undefined) throw new StorageCodecError("os_type", "required unless cloning");
              return { ...input, encoded: "post" };
            },
            encodePatch: (input) => {
              calls.push("patch");
              return { ...input, encoded: "patch" };
            },
            decode: (json) => {
              calls.push("decode");
              return { ...(json as object), decoded: true } as never;
            },
          },
        },
      },
    );
    const created = await client.nvmeNamespaces.create({
      svm: { name: "vs1" },
      name: "/vol/v/ns",
      os_type: "linux",
      space: { size: 4096 },
    });
    expect(created.record).toEqual({ uuid: "n2", raw: true, decoded: true });
    expect(srv.requests[0]!.json).toMatchObject({ encoded: "post" });
    await client.nvmeNamespaces.update("n2", { comment: "hi" });
    expect(srv.requests[1]!.json).toEqual({ comment: "hi", encoded: "patch" });
    expect(await client.nvmeNamespaces.all()).toEqual([{ uuid: "n1", raw: true, decoded: true }]);
    // a codec refusal never reaches the wire
    await expect(client.nvmeNamespaces.create({ svm: { name: "vs1" }, name: "/vol/v/ns" })).rejects.toBeInstanceOf(
      StorageCodecError,
    );
    expect(srv.requests).toHaveLength(3);
    expect(calls).toEqual(["post", "decode", "patch", "decode", "post"]);
  });

  it("a refusal in update or delete rejects the promise they return, and nothing is sent", async () => {
    const { client, srv } = await setup(() => ({ status: 200, json: {} }));
    // Called without await: a refusal thrown before the promise exists would escape `.catch`.
    const update = client.caches.update("c1", { path: "/x" } as never).catch((e: unknown) => e);
    expect(await update).toBeInstanceOf(StorageCodecError);
    const del = client.caches.delete("\ud800").catch((e: unknown) => e);
    expect(await del).toBeInstanceOf(Error);
    expect(srv.requests).toHaveLength(0);
  });
});
