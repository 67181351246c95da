// The cluster software API (src/storage/client/software-api.ts): `client.software`'s requests
// over real HTTP to a scripted server (the profile, the PATCH flags, validate, the actions,
// packages, download with progress, upload and history), and, in-process against a recording
// ResourceCalls, how it builds each call: the flags through the codec before anything is sent,
// the progress callbacks while a download's job runs, and the secrets it adds.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CODECS,
  DEFAULT_STORAGE_PATHS,
  StorageClient,
  StorageJobError,
  type StorageClientOptions,
  type StorageCodecs,
} from "../../../src/storage/index.js";
import type { Job } from "../../../src/storage/codecs/job.js";
import type { SoftwareDownloadProgress } from "../../../src/storage/codecs/software-download.js";
import { StorageApiError, StorageCodecError } from "../../../src/storage/codecs/errors.js";
import type { MutationOptions, MutationResult } from "../../../src/storage/client/options.js";
import type { ResourceCalls } from "../../../src/storage/client/resource-calls.js";
import { SoftwareApi } from "../../../src/storage/client/software-api.js";
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

// ---- in-process: a ResourceCalls that records each call and answers from a script ----------

interface Call {
  readonly kind: "request" | "mutate" | "list" | "postFile";
  readonly method: string;
  readonly path: string;
  // biome-ignore lint/suspicious/noExplicitAny: the options of each call are read freely and checked by expect()
  readonly options: any;
}

interface Script {
  request?(method: string, path: string): unknown;
  mutate?(method: string, path: string, options: MutationOptions & { body?: unknown }): Promise<MutationResult>;
  records?: readonly unknown[];
}

const accepted = (job: Job | undefined, status = 202): MutationResult => ({
  status,
  body: job === undefined ? {} : { job: { uuid: job.uuid } },
  job,
  jobs: job === undefined ? [] : [job],
  location: undefined,
});

function recorder(script: Script = {}): ResourceCalls & { readonly calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    paths: DEFAULT_STORAGE_PATHS,
    async request<T>(method: string, path: string, options = {}) {
      calls.push({ kind: "request", method, path, options });
      return script.request?.(method, path) as T | undefined;
    },
    async *list<T>(path: string, query?: unknown, options: { decode?: (j: unknown) => T } = {}) {
      calls.push({ kind: "list", method: "GET", path, options: { query } });
      for (const r of script.records ?? []) yield options.decode === undefined ? (r as T) : options.decode(r);
    },
    async count() {
      return 0;
    },
    async mutate<T>(method: "POST" | "PATCH" | "DELETE", path: string, options = {}) {
      calls.push({ kind: "mutate", method, path, options });
      return ((await script.mutate?.(method, path, options)) ?? accepted(undefined, 200)) as MutationResult<T>;
    },
    async postFile(path: string, file: unknown, options = {}) {
      calls.push({ kind: "postFile", method: "POST", path, options: { ...options, file } });
      return accepted({ uuid: "ju", state: "success" });
    },
  };
}

describe("SoftwareApi in-process", () => {
  it("update puts the flags in the query through the codec, over the query given, and the body through encodePatch", async () => {
    const calls = recorder();
    const api = new SoftwareApi(calls, DEFAULT_CODECS);
    await api.update(
      { version: "9.15.1" },
      { skipWarnings: true, stabilizeMinutes: 60, query: { skip_warnings: false, return_timeout: 5 } },
    );
    const [patch] = calls.calls;
    expect(patch).toMatchObject({ kind: "mutate", method: "PATCH", path: "/api/cluster/software" });
    expect(patch?.options.body).toEqual({ version: "9.15.1" });
    // The codec writes the flags as strings; a flag given as an option wins over the same in `query`.
    expect(patch?.options.query).toEqual({ skip_warnings: "true", return_timeout: 5, stabilize_minutes: "60" });
  });

  it("a flag the codec refuses fails before anything is sent; without codecs it goes as given", async () => {
    const calls = recorder();
    const api = new SoftwareApi(calls, DEFAULT_CODECS);
    for (const bad of [
      { stabilizeMinutes: 0 },
      { stabilizeMinutes: 61 },
      { nodesToUpdate: [] },
      { nodesToUpdate: ["a,b"] },
    ]) {
      await expect(api.install("9.15.1", bad)).rejects.toBeInstanceOf(StorageCodecError);
    }
    await expect(api.update({ version: "" })).rejects.toBeInstanceOf(StorageCodecError);
    expect(calls.calls).toEqual([]);
    const raw = recorder();
    await new SoftwareApi(raw, {}).install("9.15.1", { stabilizeMinutes: 0, estimateOnly: true });
    expect(raw.calls[0]?.options.query).toEqual({ stabilize_minutes: 0, estimate_only: true });
  });

  it("validate asks validate_only=true, then reads the profile with only the signal of the call", async () => {
    const calls = recorder({
      mutate: async () => accepted({ uuid: "jv", state: "success" }),
      request: () => ({
        state: "completed",
        validation_results: [{ update_check: "Manual checks", status: "warning", issue: { message: "m" } }],
        unknown_member: 1,
      }),
    });
    const ac = new AbortController();
    const v = await new SoftwareApi(calls, DEFAULT_CODECS).validate("9.15.1", {
      signal: ac.signal,
      timeoutMs: 10,
      query: { return_timeout: 0 },
    });
    expect(v).toMatchObject({ ok: true, errors: [], job: { uuid: "jv", state: "success" } });
    expect(v.warnings.map((w) => w.update_check)).toEqual(["Manual checks"]);
    expect(calls.calls.map((c) => `${c.kind} ${c.method} ${c.path}`)).toEqual([
      "mutate PATCH /api/cluster/software",
      "request GET /api/cluster/software",
    ]);
    expect(calls.calls[0]?.options.query).toEqual({ return_timeout: 0, validate_only: true });
    expect(calls.calls[1]?.options).toEqual({ signal: ac.signal });
  });

  it("validate lets any failure but a job's through, and a failed job without error entries too", async () => {
    const refused = new StorageApiError({ status: 400, code: "10551325", message: "no package", request: "PATCH /x" });
    const calls = recorder({
      mutate: async () => {
        throw refused;
      },
    });
    await expect(new SoftwareApi(calls, {}).validate("0.0")).rejects.toBe(refused);
    expect(calls.calls.map((c) => c.kind)).toEqual(["mutate"]);
    const failed = new StorageJobError("jv", { uuid: "jv", state: "failure", message: "internal" });
    const noEntries = recorder({
      mutate: async () => {
        throw failed;
      },
      request: () => ({ state: "failed", validation_results: [{ update_check: "w", status: "warning" }] }),
    });
    await expect(new SoftwareApi(noEntries, {}).validate("9.2")).rejects.toBe(failed);
  });

  it("pause, resume and cancel send an empty body and their own action over any action in the query", async () => {
    const calls = recorder();
    const api = new SoftwareApi(calls, DEFAULT_CODECS);
    await api.pause({ query: { action: "cancel", return_timeout: 1 } });
    await api.resume();
    await api.cancel({ wait: false });
    expect(calls.calls.map((c) => [c.method, c.path, c.options.query, c.options.body])).toEqual([
      ["PATCH", "/api/cluster/software", { action: "pause", return_timeout: 1 }, {}],
      ["PATCH", "/api/cluster/software", { action: "resume" }, {}],
      ["PATCH", "/api/cluster/software", { action: "cancel" }, {}],
    ]);
    expect(calls.calls[2]?.options.wait).toBe(false);
  });

  it("download adds the remote password to the call's secrets and checks the request before sending", async () => {
    const calls = recorder({ request: () => ({ state: "success", message: "done", code: 0 }) });
    const api = new SoftwareApi(calls, DEFAULT_CODECS);
    const res = await api.download(
      { url: "https://images.example/9.15.1.tgz", username: "u", password: "remote-pw" },
      { secrets: ["other-secret"], wait: false },
    );
    expect(calls.calls[0]).toMatchObject({ kind: "mutate", method: "POST", path: "/api/cluster/software/download" });
    expect(calls.calls[0]?.options.secrets).toEqual(["other-secret", "remote-pw"]);
    expect(calls.calls[0]?.options.wait).toBe(false);
    expect(res.progress).toEqual({ state: "success", message: "done", code: 0 });
    const before = calls.calls.length;
    await expect(api.download({ url: "file:///etc/passwd" })).rejects.toBeInstanceOf(StorageCodecError);
    await expect(api.download({ url: "https://x.example/p.tgz", password: 7 } as never)).rejects.toBeInstanceOf(
      StorageCodecError,
    );
    expect(calls.calls.length).toBe(before);
  });

  it("download reports progress after each poll of a running job, then once with the final job", async () => {
    const progress: SoftwareDownloadProgress[] = [
      { state: "running", message: "10%", code: 10551382 },
      { state: "running", message: "60%", code: 10551382 },
      { state: "success", message: "Package download completed", code: 0 },
    ];
    let reads = 0;
    const polled: (string | undefined)[] = [];
    const calls = recorder({
      request: () => progress[Math.min(reads++, progress.length - 1)],
      // The client polls the job: here its onPoll sees queued, running, then success.
      mutate: async (_m, _p, options) => {
        const wait = options.wait;
        if (typeof wait !== "object") throw new Error("expected wait options");
        for (const state of ["queued", "running"] as const) await wait.onPoll?.({ uuid: "jd", state });
        const final: Job = { uuid: "jd", state: "success" };
        await wait.onPoll?.(final);
        return accepted(final);
      },
    });
    const seen: [string | undefined, string | undefined][] = [];
    const res = await new SoftwareApi(calls, DEFAULT_CODECS).download(
      { url: "https://images.example/p.tgz" },
      {
        wait: { onPoll: (j) => void polled.push(j.state) },
        onProgress: (p, job) => void seen.push([p.message, job?.state]),
      },
    );
    // The caller's own onPoll still sees every job record.
    expect(polled).toEqual(["queued", "running", "success"]);
    expect(seen).toEqual([
      ["10%", "queued"],
      ["60%", "running"],
      ["Package download completed", "success"],
    ]);
    expect(res.progress.state).toBe("success");
    expect(res.job?.state).toBe("success");
  });

  it("downloadProgress and get decode through their codecs, or hand back the JSON without", async () => {
    const calls = recorder({
      request: (_m, path) =>
        path.endsWith("/download")
          ? { state: "running", password: "must-not-come-back", extra: 1 }
          : { version: "9.14.1", state: "some_future_state" },
    });
    const decoded = new SoftwareApi(calls, DEFAULT_CODECS);
    expect(await decoded.downloadProgress()).not.toHaveProperty("password");
    expect((await decoded.get()).state).toBe("some_future_state");
    const raw = new SoftwareApi(calls, {});
    expect(await raw.downloadProgress()).toEqual({ state: "running", password: "must-not-come-back", extra: 1 });
    await raw.get({ fields: "version" }, { timeoutMs: 5 });
    expect(calls.calls.at(-1)?.options).toEqual({ query: { fields: "version" }, timeoutMs: 5 });
  });

  it("upload posts the file at the upload path; packages and history live at their paths", async () => {
    const paths = { ...DEFAULT_STORAGE_PATHS, softwareUpload: "/x/upload", softwarePackages: "/x/packages" };
    const calls = { ...recorder({ records: [{ version: "9.15.1", create_time: "2026-01-01T00:00:00Z" }] }), paths };
    const codecs: StorageCodecs = { softwarePackage: DEFAULT_CODECS.softwarePackage! };
    const api = new SoftwareApi(calls, codecs);
    const file = { filename: "9.15.1.tgz", data: new Uint8Array([1]) };
    await api.upload(file, { wait: false });
    expect(calls.calls[0]).toMatchObject({ kind: "postFile", path: "/x/upload", options: { wait: false, file } });
    expect(api.packages.path).toBe("/x/packages");
    expect(api.packages.instancePath("9.15.1/P2")).toBe("/x/packages/9.15.1%2FP2");
    expect(api.history.path).toBe("/api/cluster/software/history");
    expect(await api.packages.all()).toEqual([{ version: "9.15.1", create_time: "2026-01-01T00:00:00Z" }]);
  });
});
