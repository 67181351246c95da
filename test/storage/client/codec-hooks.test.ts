// StorageClient with the real codecs of clusterwire/storage plugged into its codec hooks: the
// hook types accept every codec, bodies are encoded before they leave, refusals never reach
// the wire, and answers are decoded.
import { afterEach, describe, expect, it } from "vitest";
import { StorageClient, type StorageCodecs } from "../../../src/storage/index.js";
import {
  StorageCodecError,
  cache,
  cloneToken,
  job,
  nvmeNamespace,
  quotaRule,
  software,
  softwareDownload,
  softwareHistory,
  softwarePackage,
} from "../../../src/storage/index.js";
import {
  FAST_JOBS,
  jobAccepted,
  startServer,
  type Handler,
  type ScriptedServer,
} from "../../support/storage/client-test-server.js";

// Type-level: every codec fits its hook.
const codecs: StorageCodecs = {
  cloneToken,
  cache,
  nvmeNamespace,
  quotaRule,
  software,
  softwarePackage,
  softwareDownload,
  softwareHistory,
  job,
};

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: Handler): Promise<{ client: StorageClient; srv: ScriptedServer }> {
  server = await startServer(handler);
  return {
    client: new StorageClient({
      baseUrl: server.url,
      username: "admin",
      password: "pw-codecs",
      allowInsecureHttp: true,
      jobs: FAST_JOBS,
      codecs,
    }),
    srv: server,
  };
}

describe("client + codecs", () => {
  it("encodes a clone-token POST (sizes to bytes) and decodes the answer", async () => {
    const { client, srv } = await setup(() => ({
      status: 201,
      json: { num_records: 1, records: [{ node: { name: "node1", uuid: "n1" }, uuid: "t1", reserve_size: 41943040 }] },
    }));
    const res = await client.cloneTokens.create({ node: { uuid: "n1" }, reserve_size: "40M" });
    expect(srv.requests[0]!.json).toMatchObject({ node: { uuid: "n1" }, reserve_size: 41943040 });
    expect(res.record).toMatchObject({ uuid: "t1", reserve_size: 41943040 });
  });

  it("a codec refusal never reaches the wire", async () => {
    const { client, srv } = await setup(() => ({ status: 201, json: {} }));
    await expect(client.cloneTokens.create({ node: { uuid: "n1" }, reserve_size: "1.5G" })).rejects.toBeInstanceOf(
      StorageCodecError,
    );
    expect(srv.requests).toHaveLength(0);
  });

  it("decodes jobs through the job codec while polling", async () => {
    const { client } = await setup((r) =>
      r.method === "DELETE"
        ? jobAccepted("j1")
        : { json: { uuid: "j1", state: "success", message: "success", code: 0 } },
    );
    const res = await client.caches.delete("c1");
    expect(res.job).toMatchObject({ uuid: "j1", state: "success", code: 0 });
  });
});
