// The job codec (src/storage/codecs/job.ts).

import { describe, expect, it } from "vitest";
import { isTerminalJobState, job } from "../../../src/storage/index.js";
import { expectCodecError } from "../../support/storage/codecs-helpers.js";

describe("job", () => {
  it("decodes a job record; the embedded error code stays a string", () => {
    const json = {
      uuid: "j1",
      description: "POST /api/storage/cache/caches",
      state: "failure",
      message: "failed",
      code: 10551807,
      error: { code: "10551807", message: "more than one file", arguments: [{ code: "1", message: "a" }] },
      start_time: "2024-01-01T00:00:00Z",
      end_time: "2024-01-01T00:00:01Z",
      node: { name: "node1" },
      svm: { name: "vs1", uuid: "s1" },
      _links: { self: { href: "/api/cluster/jobs/j1" } },
    };
    expect(job.decode(json)).toEqual(json);
    expect(job.decode({ error: { code: 42 } }).error).toEqual({ code: "42" });
    expect(job.decode({ state: "cancelled" }).state).toBe("cancelled");
    expectCodecError(() => job.decode({ code: "0" }), "code", /integer/);
    expectCodecError(() => job.decode({ error: { code: true } }), "error.code", /string/);
  });

  it("decodes asynchronous answers and finds the job path", () => {
    const accepted = job.decodeAccepted({ job: { uuid: "j1", _links: { self: { href: "/api/cluster/jobs/j1" } } } });
    expect(job.hrefOf(accepted)).toBe("/api/cluster/jobs/j1");
    expect(job.hrefOf(job.decodeAccepted({ job: { uuid: "j 2" } }))).toBe("/api/cluster/jobs/j%202");
    expect(job.hrefOf(job.decodeAccepted({}))).toBeUndefined();
    const bulk = job.decodeAccepted({ num_records: 2, jobs: [{ uuid: "a" }, { uuid: "b" }] });
    expect(bulk.jobs?.length).toBe(2);
    expect(job.decodeAccepted({ num_records: 1, records: [{ uuid: "x" }] })).toEqual({
      num_records: 1,
      records: [{ uuid: "x" }],
    });
    expectCodecError(() => job.decodeAccepted({ job: "j1" }), "job", /object/);
  });

  it("knows the terminal states", () => {
    expect(isTerminalJobState("success")).toBe(true);
    expect(isTerminalJobState("failure")).toBe(true);
    for (const s of ["queued", "running", "paused", undefined]) expect(isTerminalJobState(s)).toBe(false);
  });
});
