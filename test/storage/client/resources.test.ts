// StorageClient per-resource methods over real HTTP: paths and verbs for clone tokens, caches,
// namespaces and quota rules; the codec hook; the software profile, actions, packages,
// download with progress, multipart upload and history.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { StorageClient, StorageJobError, type StorageClientOptions } from "../../../src/storage/index.js";
import type { SoftwareDownloadProgress } from "../../../src/storage/codecs/software-download.js";
import { StorageApiError, StorageCodecError } from "../../../src/storage/codecs/errors.js";
import {
  FAST_JOBS,
  apiError,
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
});

describe("software", () => {
  it("reads the profile and installs with the PATCH query flags", async () => {
    const { client, srv } = await setup((r) => {
      if (r.path === "/api/cluster/software" && r.method === "GET")
        return { json: { version: "9.1", state: "completed" } };
      if (r.path.startsWith("/api/cluster/jobs/")) return { json: { uuid: "j", state: "success" } };
      return jobAccepted("j");
    });
    expect(await client.software.get({ return_timeout: 15 })).toEqual({ version: "9.1", state: "completed" });
    await client.software.install("9.2", {
      skipWarnings: true,
      stabilizeMinutes: 10,
      nodesToUpdate: ["node1", "node2"],
      estimateOnly: false,
    });
    const patch = srv.requests[1]!;
    expect(line(srv.requests[0]!)).toBe("GET /api/cluster/software?return_timeout=15");
    expect(patch.method).toBe("PATCH");
    expect(patch.path).toBe("/api/cluster/software");
    expect(patch.json).toEqual({ version: "9.2" });
    expect(Object.fromEntries(patch.query)).toEqual({
      skip_warnings: "true",
      stabilize_minutes: "10",
      estimate_only: "false",
      nodes_to_update: "node1,node2",
    });
  });

  it("pause, resume and cancel are PATCHes with ?action=", async () => {
    const { client, srv } = await setup((r) =>
      r.path.startsWith("/api/cluster/jobs/") ? { json: { uuid: "j", state: "success" } } : jobAccepted("j"),
    );
    await client.software.pause();
    await client.software.resume();
    await client.software.cancel({ query: { return_timeout: 0 } });
    const patches = srv.requests.filter((r) => r.method === "PATCH");
    expect(patches.map((r) => r.url)).toEqual([
      "/api/cluster/software?action=pause",
      "/api/cluster/software?action=resume",
      "/api/cluster/software?return_timeout=0&action=cancel",
    ]);
    expect(patches.every((r) => r.text === "{}")).toBe(true);
  });

  it("validate: ok with warnings", async () => {
    const { client, srv } = await setup((r) => {
      if (r.method === "PATCH") return jobAccepted("jv");
      if (r.path.startsWith("/api/cluster/jobs/")) return { json: { uuid: "jv", state: "success" } };
      return {
        json: {
          state: "completed",
          validation_results: [
            { update_check: "NFS mounts", status: "warning", issue: { message: "m" }, action: { message: "a" } },
          ],
        },
      };
    });
    const v = await client.software.validate("9.2");
    expect(v.ok).toBe(true);
    expect(v.warnings).toHaveLength(1);
    expect(v.errors).toHaveLength(0);
    expect(v.job?.state).toBe("success");
    expect(srv.requests[0]!.url).toBe("/api/cluster/software?validate_only=true");
    expect(srv.requests[0]!.json).toEqual({ version: "9.2" });
  });

  it("validate: a failure explained by error entries resolves with ok false; an unexplained one throws", async () => {
    let results: unknown[] = [{ update_check: "HA", status: "error", issue: { message: "HA off" } }];
    const { client } = await setup((r) => {
      if (r.method === "PATCH") return jobAccepted("jv");
      if (r.path.startsWith("/api/cluster/jobs/"))
        return { json: { uuid: "jv", state: "failure", message: "validation failed", code: 10551599 } };
      return { json: { state: "failed", validation_results: results } };
    });
    const v = await client.software.validate("9.2");
    expect(v.ok).toBe(false);
    expect(v.errors).toEqual(results);
    expect(v.job?.state).toBe("failure");
    results = [];
    await expect(client.software.validate("9.2")).rejects.toBeInstanceOf(StorageJobError);
  });

  it("packages: list, get, delete (async)", async () => {
    const { client, srv } = await setup((r) => {
      if (r.method === "DELETE") return jobAccepted("jd");
      if (r.path.startsWith("/api/cluster/jobs/")) return { json: { uuid: "jd", state: "success" } };
      if (r.path === "/api/cluster/software/packages")
        return { json: { records: [{ version: "9.2" }], num_records: 1 } };
      return { json: { version: "9.2", create_time: "2026-01-01T00:00:00Z" } };
    });
    expect(await client.software.packages.all()).toEqual([{ version: "9.2" }]);
    expect(await client.software.packages.get("9.2")).toMatchObject({ create_time: "2026-01-01T00:00:00Z" });
    expect((await client.software.packages.delete("9.2")).job?.state).toBe("success");
    expect(srv.requests.filter((r) => !r.path.startsWith("/api/cluster/jobs")).map(line)).toEqual([
      "GET /api/cluster/software/packages",
      "GET /api/cluster/software/packages/9.2",
      "DELETE /api/cluster/software/packages/9.2",
    ]);
  });

  it("package delete errors carry the spec's code", async () => {
    const { client } = await setup(() => apiError(400, "10551325", "Package does not exist on the system.", "version"));
    const e = (await client.software.packages.delete("0.0").catch((x: unknown) => x)) as StorageApiError;
    expect([e.status, e.code, e.target]).toEqual([400, "10551325", "version"]);
  });

  it("download: posts the request, reports progress while the job runs, returns the final progress", async () => {
    let polls = 0;
    const { client, srv } = await setup((r) => {
      if (r.method === "POST") return jobAccepted("jdl");
      if (r.path.startsWith("/api/cluster/jobs/")) {
        polls++;
        return { json: { uuid: "jdl", state: polls < 3 ? "running" : "success" } };
      }
      return {
        json:
          polls < 3
            ? { state: "running", message: `Package download in progress ${polls}`, code: 10551382 }
            : { state: "success", message: "Package download completed", code: 0 },
      };
    });
    const seen: SoftwareDownloadProgress[] = [];
    const res = await client.software.download(
      { url: "http://pkg.example/image.tgz", username: "u", password: "remote-pw" },
      { onProgress: (p) => void seen.push(p), query: { return_timeout: 0 } },
    );
    expect(res.progress).toMatchObject({ state: "success" });
    expect(res.job?.state).toBe("success");
    expect(seen.map((p) => p.state)).toEqual(["running", "running", "success"]);
    expect(srv.requests[0]!.url).toBe("/api/cluster/software/download?return_timeout=0");
    expect(srv.requests[0]!.json).toEqual({
      url: "http://pkg.example/image.tgz",
      username: "u",
      password: "remote-pw",
    });
    expect(srv.requests.filter((r) => r.path === "/api/cluster/software/download" && r.method === "GET")).toHaveLength(
      3,
    );
    expect(await client.software.downloadProgress()).toMatchObject({ state: "success" });
  });

  it("download: the remote password is scrubbed from API errors and job errors", async () => {
    const { client } = await setup(() =>
      apiError(400, "2228324", "Failed to access http://u:remote-secret-pw@pkg/x.tgz", "url"),
    );
    const e = (await client.software
      .download({ url: "http://pkg/x.tgz", username: "u", password: "remote-secret-pw" })
      .catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(StorageApiError);
    expect(e.message).not.toContain("remote-secret-pw");
    expect(inspect(e, { depth: 10 })).not.toContain("remote-secret-pw");
    const { client: c2 } = await setup((r) =>
      r.method === "POST"
        ? jobAccepted("jf")
        : { json: { uuid: "jf", state: "failure", message: "login with remote-secret-pw refused", code: 2228331 } },
    );
    const je = (await c2.software
      .download({ url: "ftp://pkg/x.tgz", password: "remote-secret-pw" })
      .catch((x: unknown) => x)) as StorageJobError;
    expect(je).toBeInstanceOf(StorageJobError);
    expect(je.code).toBe(2228331);
    expect(je.message).not.toContain("remote-secret-pw");
    expect(JSON.stringify(je.job)).not.toContain("remote-secret-pw");
  });

  it("upload: one multipart/form-data part named file, with the filename and bytes", async () => {
    const { client, srv } = await setup((r) =>
      r.method === "POST" ? jobAccepted("ju") : { json: { uuid: "ju", state: "success" } },
    );
    const data = new Uint8Array(300);
    for (let i = 0; i < data.length; i++) data[i] = i % 256;
    const res = await client.software.upload({ filename: 'image "9.2".tgz', data }, { query: { return_timeout: 0 } });
    expect(res.job?.state).toBe("success");
    const req = srv.requests[0]!;
    expect(req.url).toBe("/api/cluster/software/upload?return_timeout=0");
    const ct = req.headers["content-type"]!;
    const m = /^multipart\/form-data; boundary=(.+)$/.exec(ct);
    expect(m).not.toBeNull();
    const boundary = m![1]!;
    const body = req.body;
    const text = body.toString("latin1");
    const parts = text.split(`--${boundary}`);
    // preamble "", one part, and the closing "--\r\n"
    expect(parts).toHaveLength(3);
    expect(parts[0]).toBe("");
    expect(parts[2]).toBe("--\r\n");
    const part = parts[1]!;
    const headerEnd = part.indexOf("\r\n\r\n");
    const headers = part.slice(2, headerEnd).split("\r\n");
    expect(headers).toEqual([
      'Content-Disposition: form-data; name="file"; filename="image %229.2%22.tgz"',
      "Content-Type: application/octet-stream",
    ]);
    const payload = Buffer.from(part.slice(headerEnd + 4, -2), "latin1");
    expect(new Uint8Array(payload)).toEqual(data);
    expect(Number(req.headers["content-length"] ?? body.length)).toBe(body.length);
  });

  it("upload accepts a Blob; several-file refusal (10551807) surfaces as StorageApiError", async () => {
    const { client } = await setup(() =>
      apiError(400, "10551807", "The request contains more than one file; only a single file is supported."),
    );
    const e = (await client.software
      .upload({ filename: "a.tgz", data: new Blob([new Uint8Array([1, 2, 3])]) })
      .catch((x: unknown) => x)) as StorageApiError;
    expect(e).toBeInstanceOf(StorageApiError);
    expect(e.code).toBe("10551807");
    expect(e.request).toBe("POST /api/cluster/software/upload");
  });

  it("history: a paged read-only collection at the upstream path, overridable", async () => {
    const rec = {
      node: { name: "node1" },
      from_version: "9.1",
      to_version: "9.2",
      state: "successful",
      start_time: "2026-01-01T00:00:00Z",
      end_time: "2026-01-01T01:00:00Z",
    };
    const { client, srv } = await setup((r) =>
      r.query.get("p") === null
        ? { json: { records: [rec], _links: { next: { href: `${r.path}?p=2` } } } }
        : { json: { records: [{ ...rec, state: "skip_upgrade" }] } },
    );
    const got = await client.software.history.all({ state: "successful|skip_upgrade" });
    expect(got.map((h) => h.state)).toEqual(["successful", "skip_upgrade"]);
    expect(srv.requests[0]!.url).toBe("/api/cluster/software/history?state=successful|skip_upgrade");
    const c2 = new StorageClient({
      baseUrl: srv.url,
      username: "a",
      password: PASSWORD,
      allowInsecureHttp: true,
      paths: {
        softwareHistory: "/api/custom/history",
        softwareUpload: "/api/custom/upload",
        softwareDownload: "/api/custom/download",
      },
    });
    await c2.software.history.all();
    expect(srv.requests.at(-2)!.path).toBe("/api/custom/history");
  });
});
