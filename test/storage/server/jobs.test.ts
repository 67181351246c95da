// The reference server's jobs (src/storage/server/jobs.ts) on a manual clock: queued, running after
// a fifth of their time, then success or failure when due, the work running exactly then; failed
// work gives the job its code and message (an unexpected error only "Internal error."); cancel ends
// a job not yet ended; ended jobs vanish 300 s later.
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../../src/storage/server/clock.js";
import { HttpError } from "../../../src/storage/server/errors.js";
import { JOB_RETENTION_MS, JobStore, jobHref, jobRef } from "../../../src/storage/server/jobs.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function setup(durationMs = 1_000) {
  const clock = createManualClock();
  return { clock, jobs: new JobStore(clock, durationMs) };
}

describe("JobStore", () => {
  it("creates a queued job with a v4 uuid, its description, start time and self link", () => {
    const { jobs } = setup();
    const { uuid } = jobs.create("POST /api/storage/cache/caches", () => {}, { svm: { name: "svm2" } });
    expect(uuid).toMatch(UUID_V4);
    expect(jobs.record(uuid)).toEqual({
      uuid,
      description: "POST /api/storage/cache/caches",
      state: "queued",
      message: "Queued",
      code: 0,
      start_time: "2026-01-01T00:00:00Z",
      svm: { name: "svm2" },
      _links: { self: { href: `/api/cluster/jobs/${uuid}` } },
    });
    expect(jobs.create("x", () => {}).uuid).not.toBe(uuid);
  });

  it("is running from a fifth of its time, and succeeds when due, running its work exactly then", () => {
    const { clock, jobs } = setup(1_000);
    let ran = 0;
    const { uuid } = jobs.create("work", () => void ran++);
    clock.advance(199);
    jobs.tick();
    expect(jobs.state(uuid)).toBe("queued");
    clock.advance(1);
    jobs.tick();
    expect(jobs.record(uuid)).toMatchObject({ state: "running", message: "Running" });
    expect(ran).toBe(0);
    clock.advance(799);
    jobs.tick();
    expect(jobs.state(uuid)).toBe("running");
    clock.advance(1);
    jobs.tick();
    expect(jobs.record(uuid)).toMatchObject({ state: "success", message: "success", code: 0 });
    expect(ran).toBe(1);
    jobs.tick();
    expect(ran).toBe(1);
  });

  it("ends at its due time however late the tick that completes it", () => {
    const { clock, jobs } = setup(2_000);
    const { uuid } = jobs.create("late", () => {});
    clock.advance(60_000);
    jobs.tick();
    expect(jobs.record(uuid)).toMatchObject({ state: "success", end_time: "2026-01-01T00:00:02Z" });
  });

  it("completes due jobs in due order within one tick", () => {
    const { clock, jobs } = setup(1_000);
    const order: string[] = [];
    jobs.create("slow", () => void order.push("slow"), { durationMs: 300 });
    jobs.create("fast", () => void order.push("fast"), { durationMs: 100 });
    jobs.create("default", () => void order.push("default"));
    clock.advance(1_000);
    jobs.tick();
    expect(order).toEqual(["fast", "slow", "default"]);
  });

  it("a job's own duration overrides the store's; a negative one is due at once", () => {
    const { jobs } = setup(1_000);
    const now = jobs.create("now", () => {}, { durationMs: -5 });
    expect(jobs.remainingMs(now.uuid)).toBe(0);
    jobs.tick();
    expect(jobs.state(now.uuid)).toBe("success");
  });

  it("work that refuses with an HttpError fails the job with that code and message", () => {
    const { clock, jobs } = setup(10);
    const { uuid } = jobs.create("POST /api/storage/cache/caches", () => {
      throw new HttpError(409, "262191", "The origin volume is offline.", "origins");
    });
    clock.advance(10);
    jobs.tick();
    expect(jobs.record(uuid)).toMatchObject({
      state: "failure",
      message: "The origin volume is offline.",
      code: 262191,
      error: { code: "262191", message: "The origin volume is offline." },
      end_time: "2026-01-01T00:00:00Z",
    });
    expect(jobs.error(uuid)).toEqual({ code: "262191", message: "The origin volume is offline." });
    // A job's error has no target.
    expect(jobs.record(uuid)?.["error"]).not.toHaveProperty("target");
  });

  it("any other failure of the work is an internal error that says nothing of it", () => {
    const { clock, jobs } = setup(10);
    const { uuid } = jobs.create("x", () => {
      throw new TypeError("secret-detail s3cret");
    });
    clock.advance(10);
    jobs.tick();
    expect(jobs.record(uuid)).toMatchObject({
      state: "failure",
      message: "Internal error.",
      code: 1,
      error: { code: "1", message: "Internal error." },
    });
    expect(JSON.stringify(jobs.records())).not.toContain("s3cret");
  });

  it("remainingMs counts down to the due time, and is 0 once ended or for an unknown job", () => {
    const { clock, jobs } = setup(1_000);
    const { uuid } = jobs.create("x", () => {});
    expect(jobs.remainingMs(uuid)).toBe(1_000);
    clock.advance(400);
    expect(jobs.remainingMs(uuid)).toBe(600);
    clock.advance(2_000);
    expect(jobs.remainingMs(uuid)).toBe(0);
    jobs.tick();
    expect(jobs.remainingMs(uuid)).toBe(0);
    expect(jobs.remainingMs("nope")).toBe(0);
  });

  it("cancel ends a job not yet ended, whose work then never runs; an ended or unknown job is not cancelled", () => {
    const { clock, jobs } = setup(1_000);
    let ran = false;
    const { uuid } = jobs.create("x", () => {
      ran = true;
    });
    clock.advance(300);
    expect(jobs.cancel(uuid)).toBe(true);
    expect(jobs.record(uuid)).toMatchObject({
      state: "failure",
      message: "Job canceled by user.",
      code: 262191,
      error: { code: "262191", message: "Job canceled by user." },
      end_time: "2026-01-01T00:00:00Z",
    });
    clock.advance(10_000);
    jobs.tick();
    expect(ran).toBe(false);
    expect(jobs.cancel(uuid)).toBe(false);
    expect(jobs.cancel("nope")).toBe(false);
    const done = jobs.create("y", () => {}, { durationMs: 0 });
    jobs.tick();
    expect(jobs.cancel(done.uuid)).toBe(false);
    expect(jobs.state(done.uuid)).toBe("success");
  });

  it("forgets a job 300 s after it ended, not before", () => {
    expect(JOB_RETENTION_MS).toBe(300_000);
    const { clock, jobs } = setup(1_000);
    const { uuid } = jobs.create("x", () => {});
    const running = jobs.create("y", () => {}, { durationMs: 10 * JOB_RETENTION_MS });
    clock.advance(1_000 + JOB_RETENTION_MS - 1);
    jobs.tick();
    expect(jobs.state(uuid)).toBe("success");
    clock.advance(1);
    jobs.tick();
    expect(jobs.record(uuid)).toBeUndefined();
    expect([jobs.state(uuid), jobs.error(uuid)]).toEqual([undefined, undefined]);
    // One not yet ended is kept however old.
    expect(jobs.state(running.uuid)).toBe("queued");
    expect(jobs.records().map((r) => r["uuid"])).toEqual([running.uuid]);
  });
});

describe("job links", () => {
  it("point at /api/cluster/jobs/<uuid>", () => {
    expect(jobHref("abc")).toBe("/api/cluster/jobs/abc");
    expect(jobRef("abc")).toEqual({ uuid: "abc", _links: { self: { href: "/api/cluster/jobs/abc" } } });
  });
});
