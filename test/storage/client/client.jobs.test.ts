// StorageClient job handling over real HTTP: 202 + job, back-off polling, failure, timeout,
// abort, transient poll errors, and redaction of job messages.
import { describe, expect, it } from "vitest";
import { StorageJobError, StorageJobTimeoutError, StorageProtocolError } from "../../../src/storage/index.js";
import type { Job } from "../../../src/storage/codecs/job.js";
import { StorageApiError } from "../../../src/storage/codecs/errors.js";
import {
  FAST_JOBS,
  apiError,
  jobAccepted,
  type Handler,
  clientFixture,
} from "../../support/storage/client-test-server.js";
import { steppedClientClock, type SteppedClientClock } from "../../support/storage/clocks.js";

const PASSWORD = "hunter2-admin";

const start = clientFixture(PASSWORD);
const setup = (handler: Handler, jobs: object = FAST_JOBS, clock?: SteppedClientClock) =>
  start(handler, { jobs, ...(clock === undefined ? {} : { clock }) });

/** A job that is `running` for `polls` reads, then ends with `final`. */
function scriptedJob(uuid: string, polls: number, final: Partial<Job>): Handler {
  let reads = 0;
  return (r) => {
    if (r.path === `/api/cluster/jobs/${uuid}` && r.method === "GET") {
      reads++;
      if (reads <= polls)
        return { json: { uuid, state: reads === 1 ? "queued" : "running", message: `step ${reads}` } };
      return { json: { uuid, description: "POST /api/storage/cache/caches", code: 0, ...final } };
    }
    return jobAccepted(uuid);
  };
}

describe("jobs", () => {
  it("polls /api/cluster/jobs/<uuid> until success and returns the final job", async () => {
    const { client, srv } = await setup(scriptedJob("j-1", 3, { state: "success", message: "success" }));
    const polled: (string | undefined)[] = [];
    const res = await client.caches.create(
      { name: "c1", svm: { name: "vs1" }, origins: [{ svm: { name: "vs0" }, volume: { name: "vol0" } }] },
      { wait: { ...FAST_JOBS, onPoll: (j) => void polled.push(j.state) } },
    );
    expect(res.status).toBe(202);
    expect(res.job).toMatchObject({ uuid: "j-1", state: "success", message: "success", code: 0 });
    expect(res.jobs).toHaveLength(1);
    expect(res.record).toBeUndefined();
    expect(polled).toEqual(["queued", "running", "running", "success"]);
    expect(srv.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/storage/cache/caches",
      "GET /api/cluster/jobs/j-1",
      "GET /api/cluster/jobs/j-1",
      "GET /api/cluster/jobs/j-1",
      "GET /api/cluster/jobs/j-1",
    ]);
  });

  it("spaces polls by initial * factor^n capped at max", async () => {
    // A stepped clock: the waits between polls are read exactly, however loaded the machine.
    const clock = steppedClientClock();
    let n = 0;
    const { client, srv } = await setup(
      () => {
        n++;
        return { json: { uuid: "j-t", state: n >= 5 ? "success" : "running" } };
      },
      FAST_JOBS,
      clock,
    );
    await client.waitForJob("j-t", { initialIntervalMs: 20, maxIntervalMs: 60, backoffFactor: 2, jitter: 0 });
    // one sleep between each two of the five polls: 20, 40, 60 (capped), 60
    expect(srv.requests).toHaveLength(5);
    expect(clock.sleeps).toEqual([20, 40, 60, 60]);
  });

  it("keeps each jittered interval within ±jitter of the back-off value", async () => {
    const clock = steppedClientClock();
    let n = 0;
    const { client } = await setup(
      () => ({ json: { uuid: "j-j", state: ++n >= 6 ? "success" : "running" } }),
      FAST_JOBS,
      clock,
    );
    await client.waitForJob("j-j", { initialIntervalMs: 100, maxIntervalMs: 400, backoffFactor: 2, jitter: 0.1 });
    const base = [100, 200, 400, 400, 400];
    expect(clock.sleeps).toHaveLength(base.length);
    clock.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(base[i]! * 0.9);
      expect(ms).toBeLessThanOrEqual(base[i]! * 1.1);
    });
  });

  it("raises StorageJobError with the job's message, code, error code and uuid on failure", async () => {
    const { client } = await setup(
      scriptedJob("j-f", 1, {
        state: "failure",
        message: "Origin volume not found",
        code: 917927,
        error: { code: "917927", message: "Origin volume not found" },
      }),
    );
    const e = await client.caches
      .create({ name: "c1", svm: { name: "vs1" }, origins: [{ svm: { name: "vs0" }, volume: { name: "nope" } }] })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StorageJobError);
    const je = e as StorageJobError;
    expect(je.uuid).toBe("j-f");
    expect(je.state).toBe("failure");
    expect(je.jobMessage).toBe("Origin volume not found");
    expect(je.code).toBe(917927);
    expect(je.errorCode).toBe("917927");
    expect(je.description).toBe("POST /api/storage/cache/caches");
    expect(je.message).toContain("j-f");
    expect(je.message).toContain("Origin volume not found");
    expect(je.job.state).toBe("failure");
  });

  it("treats other terminal states (cancelled, expired) as failures", async () => {
    const { client } = await setup(() => ({ json: { uuid: "j-c", state: "cancelled", message: "canceled by user" } }));
    await expect(client.waitForJob("j-c")).rejects.toBeInstanceOf(StorageJobError);
  });

  it("raises StorageJobTimeoutError (distinct from failure) after the total timeout", async () => {
    const clock = steppedClientClock();
    const { client, srv } = await setup(
      () => ({ json: { uuid: "j-slow", state: "running", message: "still going" } }),
      FAST_JOBS,
      clock,
    );
    const e = await client
      .waitForJob("j-slow", { timeoutMs: 120, initialIntervalMs: 10, maxIntervalMs: 30, jitter: 0 })
      .catch((x: unknown) => x);
    const took = clock.elapsed();
    expect(e).toBeInstanceOf(StorageJobTimeoutError);
    expect(e).not.toBeInstanceOf(StorageJobError);
    const te = e as StorageJobTimeoutError;
    expect(te.uuid).toBe("j-slow");
    expect(te.timeoutMs).toBe(120);
    expect(te.lastJob?.state).toBe("running");
    expect(te.message).toMatch(/still not finished after 120 ms \(last state running: still going\)/);
    // Sleeps 10, 14.1, 20, 28.3, 30 (capped), then the rest of the 120 ms: the last wait is cut to the deadline.
    expect(took).toBe(120);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(120);
    const r2 = Math.SQRT2;
    expect(clock.sleeps.slice(0, 4)).toEqual([10, 10 * r2, 10 * r2 * r2, 10 * r2 * r2 * r2]);
    expect(srv.requests.length).toBe(clock.sleeps.length + 1);
  });

  it("stops polling and rejects with the abort reason when the signal fires", async () => {
    const ac = new AbortController();
    // The signal fires during the third wait between polls: no timer decides when.
    const clock = steppedClientClock((_ms, i) => {
      if (i === 2) ac.abort();
    });
    const { client, srv } = await setup(
      (r) => (r.method === "DELETE" ? jobAccepted("j-a") : { json: { uuid: "j-a", state: "running" } }),
      FAST_JOBS,
      clock,
    );
    const e = await client.caches
      .delete("c-uuid", { signal: ac.signal, wait: { initialIntervalMs: 10, maxIntervalMs: 10 } })
      .catch((x: unknown) => x);
    expect((e as Error).name).toBe("AbortError");
    // the DELETE and three polls; the wait that saw the abort sent nothing after it
    expect(srv.requests.map((r) => r.method)).toEqual(["DELETE", "GET", "GET", "GET"]);
    expect(clock.sleeps).toHaveLength(3);
    // nothing is left pending that could send a poll later
    await new Promise((r) => setImmediate(r));
    expect(srv.requests).toHaveLength(4);
    // a signal aborted before the call never sends anything
    const before = srv.requests.length;
    await expect(client.waitForJob("j-a", { signal: AbortSignal.abort() })).rejects.toThrow();
    expect(srv.requests.length).toBe(before);
  });

  it("with wait:false returns the job reference without polling", async () => {
    const { client, srv } = await setup(() => jobAccepted("j-nw"));
    const res = await client.nvmeNamespaces.delete("ns-1", { wait: false, query: { return_timeout: 0 } });
    expect(res.job).toMatchObject({ uuid: "j-nw" });
    expect(res.job?.state).toBeUndefined();
    expect(srv.requests).toHaveLength(1);
    expect(srv.requests[0]!.url).toBe("/api/storage/namespaces/ns-1?return_timeout=0");
  });

  it("tolerates a few transient poll failures (HTTP 5xx) but not a 404", async () => {
    let n = 0;
    const { client } = await setup(() => {
      n++;
      if (n <= 2) return apiError(503, "", "busy");
      return { json: { uuid: "j-t", state: "success" } };
    });
    expect((await client.waitForJob("j-t")).state).toBe("success");
    const { client: c2 } = await setup(() => apiError(404, "4", "entry doesn't exist"));
    const e = await c2.waitForJob("gone").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StorageApiError);
    expect((e as StorageApiError).status).toBe(404);
  });

  it("gives up after maxPollErrors consecutive transient failures", async () => {
    const { client, srv } = await setup(() => apiError(500, "", "down"));
    await expect(client.waitForJob("j-x", { maxPollErrors: 2 })).rejects.toBeInstanceOf(StorageApiError);
    expect(srv.requests).toHaveLength(3);
  });

  it("waits for every job of a bulk answer (jobs[])", async () => {
    const { client, srv } = await setup((r) =>
      r.method === "PATCH"
        ? { status: 202, json: { jobs: [{ uuid: "a" }, { uuid: "b" }], num_records: 2 } }
        : { json: { uuid: r.path.split("/").pop(), state: "success" } },
    );
    const res = await client.mutate("PATCH", "/api/storage/quota/rules", {
      query: { "volume.name": "vol1" },
      body: { space: { hard_limit: 2048 } },
    });
    expect(res.jobs.map((j) => [j.uuid, j.state])).toEqual([
      ["a", "success"],
      ["b", "success"],
    ]);
    expect(srv.requests.map((r) => r.path)).toEqual([
      "/api/storage/quota/rules",
      "/api/cluster/jobs/a",
      "/api/cluster/jobs/b",
    ]);
  });

  it("refuses a 202 answer without a job", async () => {
    const { client } = await setup(() => ({ status: 202, json: {} }));
    await expect(client.caches.delete("x")).rejects.toBeInstanceOf(StorageProtocolError);
  });

  it("does not poll synchronous answers (200/201 with records)", async () => {
    const { client, srv } = await setup(() => ({
      status: 201,
      json: { num_records: 1, records: [{ uuid: "q1", type: "tree" }] },
      headers: { location: "/api/storage/quota/rules/q1" },
    }));
    const res = await client.quotaRules.create(
      { svm: { name: "vs1" }, volume: { name: "v1" }, type: "tree", qtree: { name: "q" } },
      { query: { return_records: true } },
    );
    expect(res.record).toEqual({ uuid: "q1", type: "tree" });
    expect(res.job).toBeUndefined();
    expect(res.location).toBe("/api/storage/quota/rules/q1");
    expect(srv.requests).toHaveLength(1);
  });

  it("redacts the client password from job errors", async () => {
    const { client } = await setup(
      scriptedJob("j-r", 0, { state: "failure", message: `auth with ${PASSWORD} failed` }),
    );
    const e = (await client.caches.delete("c").catch((x: unknown) => x)) as StorageJobError;
    expect(e).toBeInstanceOf(StorageJobError);
    expect(e.message).not.toContain(PASSWORD);
    expect(JSON.stringify(e.job)).not.toContain(PASSWORD);
    expect(e.jobMessage).toBe("auth with <redacted> failed");
  });

  it("validates the polling options", async () => {
    const { client } = await setup(() => ({ json: { uuid: "x", state: "success" } }));
    await expect(client.waitForJob("x", { timeoutMs: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(client.waitForJob("x", { initialIntervalMs: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(client.waitForJob("x", { backoffFactor: 0.5 })).rejects.toBeInstanceOf(RangeError);
  });
});
