// StorageClient over HTTPS on loopback with a self-signed certificate generated at test time
// with openssl: the `tls` options (`ca`, `rejectUnauthorized`) served by the node:https transport.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { StorageClient, StorageNetworkError } from "../../../src/storage/index.js";
import type { StorageApiError } from "../../../src/storage/codecs/errors.js";
import {
  FAST_JOBS,
  apiError,
  jobAccepted,
  startServer,
  type Handler,
  type ScriptedServer,
} from "../../support/storage/client-test-server.js";
import { certProblem, makeCert } from "../../support/storage/cert.js";
import { eachNeeds } from "../../support/tools.js";

const PASSWORD = "tls-test-password";

const pem = makeCert();
const clients: StorageClient[] = [];
let server: ScriptedServer | undefined;

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});
afterAll(() => {
  pem?.dispose();
});

// Skipped only when openssl is missing or cannot make an EC self-signed certificate; under CI that fails.
describe("TLS options (self-signed certificate from openssl)", () => {
  eachNeeds("openssl", () => (pem === undefined ? certProblem() : undefined));
  let key = "";
  let cert = "";
  beforeAll(() => {
    key = pem?.key ?? "";
    cert = pem?.cert ?? "";
  });

  async function setup(
    handler: Handler,
    tls: ConstructorParameters<typeof StorageClient>[0]["tls"],
  ): Promise<{ client: StorageClient; srv: ScriptedServer }> {
    server = await startServer(handler, { https: { key, cert } });
    const client = new StorageClient({
      baseUrl: server.url,
      username: "admin",
      password: PASSWORD,
      jobs: FAST_JOBS,
      ...(tls === undefined ? {} : { tls }),
    });
    clients.push(client);
    return { client, srv: server };
  }

  it("trusts the server with tls.ca (string and bytes) and sends Basic auth", async () => {
    const { client, srv } = await setup(() => ({ json: { version: "9.2" } }), { ca: cert });
    expect(srv.url.startsWith("https://")).toBe(true);
    expect(await client.software.get()).toEqual({ version: "9.2" });
    expect(srv.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}`);
    const c2 = new StorageClient({
      baseUrl: srv.url,
      username: "admin",
      password: PASSWORD,
      tls: { ca: [new TextEncoder().encode(cert)] },
    });
    clients.push(c2);
    expect(await c2.software.get()).toEqual({ version: "9.2" });
  });

  it("refuses the self-signed certificate by default (global fetch and the built-in transport)", async () => {
    const { srv } = await setup(() => ({ json: {} }), undefined);
    const plain = new StorageClient({ baseUrl: srv.url, username: "admin", password: PASSWORD });
    const e1 = (await plain.software.get().catch((x: unknown) => x)) as StorageNetworkError;
    expect(e1).toBeInstanceOf(StorageNetworkError);
    expect(e1.message).toMatch(/self[- ]signed|certificate/i);
    expect(e1.message).not.toContain(PASSWORD);
    const strict = new StorageClient({
      baseUrl: srv.url,
      username: "admin",
      password: PASSWORD,
      tls: { rejectUnauthorized: true },
    });
    clients.push(strict);
    const e2 = (await strict.software.get().catch((x: unknown) => x)) as StorageNetworkError;
    expect(e2).toBeInstanceOf(StorageNetworkError);
    expect(e2.message).toMatch(/self[- ]signed|certificate/i);
    expect(srv.requests).toHaveLength(0);
  });

  it("accepts any certificate with rejectUnauthorized: false", async () => {
    const { client } = await setup(() => ({ json: { records: [{ uuid: "a" }] } }), { rejectUnauthorized: false });
    expect(await client.caches.all()).toEqual([{ uuid: "a" }]);
  });

  it("the built-in transport carries bodies, errors, paging, jobs and multipart", async () => {
    const { client, srv } = await setup(
      (r) => {
        if (r.path === "/api/storage/quota/rules" && r.method === "GET")
          return r.query.get("p") === null
            ? { json: { records: [{ uuid: "1" }], _links: { next: { href: "/api/storage/quota/rules?p=2" } } } }
            : { json: { records: [{ uuid: "2" }] } };
        if (r.path === "/api/bad") return apiError(400, "2", "invalid value", "uuid");
        if (r.path.startsWith("/api/cluster/jobs/")) return { json: { uuid: "j", state: "success" } };
        if (r.path === "/api/cluster/software/upload") return jobAccepted("j");
        return { status: 201, json: { records: [r.json] }, headers: { location: "/api/x/1" } };
      },
      { ca: cert },
    );
    expect((await client.quotaRules.all()).map((r) => r.uuid)).toEqual(["1", "2"]);
    const created = await client.cloneTokens.create({ node: { uuid: "n" }, reserve_size: "4K" });
    expect(created.record).toEqual({ node: { uuid: "n" }, reserve_size: 4096 });
    expect(created.location).toBe("/api/x/1");
    const e = (await client.request("GET", "/api/bad").catch((x: unknown) => x)) as StorageApiError;
    expect([e.status, e.code, e.target]).toEqual([400, "2", "uuid"]);
    await client.software.upload({ filename: "f.tgz", data: new Uint8Array([9, 8, 7]) });
    const up = srv.requests.find((r) => r.path === "/api/cluster/software/upload")!;
    expect(up.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(up.body.includes(Buffer.from([9, 8, 7]))).toBe(true);
  });

  it("the built-in transport honours abort and the request timeout", async () => {
    const ac = new AbortController();
    // The signal fires once the request has reached the server, which holds its answer back.
    const { client } = await setup(
      () => {
        ac.abort();
        return { delayMs: 400, json: {} };
      },
      { ca: cert },
    );
    const e = (await client.request("GET", "/api/slow", { signal: ac.signal }).catch((x: unknown) => x)) as Error;
    expect(e.name).toBe("AbortError");
    await expect(client.request("GET", "/api/slow", { timeoutMs: 30 })).rejects.toThrow(/no answer within 30 ms/);
  });
});
