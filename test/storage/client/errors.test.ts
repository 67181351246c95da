// The errors the client adds to the codecs' (src/storage/client/errors.ts): a job that ended badly,
// a wait that ran out, a request without an answer, an answer the client cannot follow. Each is
// an Error with its own name, a message that says what happened, and the fields it documents.
import { describe, expect, it } from "vitest";
import {
  StorageJobError,
  StorageJobTimeoutError,
  StorageNetworkError,
  StorageProtocolError,
} from "../../../src/storage/client/errors.js";
import type { Job } from "../../../src/storage/codecs/job.js";

const UUID = "4ea7a442-86d1-11e0-ae1c-123478563412";

describe("StorageJobError", () => {
  it("carries the failed job's uuid, state, message, codes and description", () => {
    const job: Job = {
      uuid: UUID,
      description: "POST /api/storage/cache/caches",
      state: "failure",
      message: "Origin volume is offline.",
      code: 917927,
      error: { code: "917927", message: "Origin volume is offline." },
    };
    const e = new StorageJobError(UUID, job);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("StorageJobError");
    expect(e.message).toBe(
      `job ${UUID} (POST /api/storage/cache/caches) ended in state failure [917927]: Origin volume is offline.`,
    );
    expect(e).toMatchObject({
      uuid: UUID,
      state: "failure",
      jobMessage: "Origin volume is offline.",
      code: 917927,
      errorCode: "917927",
      description: "POST /api/storage/cache/caches",
    });
    expect(e.job).toBe(job);
    expect(String(e)).toBe(`StorageJobError: ${e.message}`);
  });

  it("falls back to the embedded error's message and code when the job has none of its own", () => {
    const e = new StorageJobError(UUID, {
      state: "failure",
      error: { code: "2228331", message: "Remote copy failed." },
    });
    expect(e.message).toBe(`job ${UUID} ended in state failure [2228331]: Remote copy failed.`);
    expect(e.jobMessage).toBe("Remote copy failed.");
    // `code` is the job's integer code only; the embedded string code is `errorCode`.
    expect(e.code).toBeUndefined();
    expect(e.errorCode).toBe("2228331");
    expect(e.description).toBeUndefined();
  });

  it("names other terminal states, and an unknown one when the job gives none", () => {
    expect(new StorageJobError(UUID, { state: "cancelled" }).message).toBe(`job ${UUID} ended in state cancelled`);
    const bare = new StorageJobError(UUID, {});
    expect(bare.state).toBe("unknown");
    expect(bare.jobMessage).toBe("");
    expect(bare.message).toBe(`job ${UUID} ended in state unknown`);
  });

  it("the uuid given wins over the record's (the record may lack one)", () => {
    const e = new StorageJobError("from-the-answer", { uuid: "other", state: "failure" });
    expect(e.uuid).toBe("from-the-answer");
    expect(e.message).toMatch(/^job from-the-answer /);
  });

  it("keeps unicode in the job's message as the server wrote it", () => {
    const e = new StorageJobError(UUID, { state: "failure", message: "Volume « données » ✗ 卷" });
    expect(e.jobMessage).toBe("Volume « données » ✗ 卷");
    expect(e.message.endsWith(": Volume « données » ✗ 卷")).toBe(true);
  });
});

describe("StorageJobTimeoutError", () => {
  it("says the job may still be running, with the last state and message read", () => {
    const last: Job = { uuid: UUID, state: "running", message: "Copying data" };
    const e = new StorageJobTimeoutError(UUID, 120_000, last);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(StorageJobError);
    expect(e.name).toBe("StorageJobTimeoutError");
    expect(e.message).toBe(
      `job ${UUID} still not finished after 120000 ms (last state running: Copying data); it may still be running on the cluster`,
    );
    expect(e).toMatchObject({ uuid: UUID, timeoutMs: 120_000 });
    expect(e.lastJob).toBe(last);
  });

  it("without a job record read, or one without a state, says only how long it waited", () => {
    const expected = `job ${UUID} still not finished after 5 ms; it may still be running on the cluster`;
    expect(new StorageJobTimeoutError(UUID, 5, undefined).message).toBe(expected);
    expect(new StorageJobTimeoutError(UUID, 5, { message: "no state" }).message).toBe(expected);
    expect(new StorageJobTimeoutError(UUID, 5, { state: "queued" }).message).toBe(
      `job ${UUID} still not finished after 5 ms (last state queued); it may still be running on the cluster`,
    );
  });
});

describe("StorageNetworkError", () => {
  it("names the request, and keeps the original error as cause when given one", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const e = new StorageNetworkError("GET /api/svm/svms", "network error: fetch failed", { cause });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("StorageNetworkError");
    expect(e.request).toBe("GET /api/svm/svms");
    expect(e.message).toBe("GET /api/svm/svms: network error: fetch failed");
    expect(e.cause).toBe(cause);
  });

  it("has no cause unless one is given (the client leaves out a cause that carries a secret)", () => {
    const e = new StorageNetworkError("GET /api/cluster/jobs/x", "no answer within 100 ms");
    expect(e.cause).toBeUndefined();
    expect("cause" in e).toBe(false);
    expect(e.message).toBe("GET /api/cluster/jobs/x: no answer within 100 ms");
  });
});

describe("StorageProtocolError", () => {
  it("names the request and what about the answer could not be followed", () => {
    const e = new StorageProtocolError("POST /api/storage/cache/caches", "HTTP 202 Accepted without a job in the body");
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(StorageNetworkError);
    expect(e.name).toBe("StorageProtocolError");
    expect(e.request).toBe("POST /api/storage/cache/caches");
    expect(e.message).toBe("POST /api/storage/cache/caches: HTTP 202 Accepted without a job in the body");
    expect("cause" in e).toBe(false);
  });
});

describe("all four", () => {
  it("are told apart by class and by name, and serialize their fields but not a stack", () => {
    const errors = [
      new StorageJobError(UUID, { state: "failure" }),
      new StorageJobTimeoutError(UUID, 1, undefined),
      new StorageNetworkError("GET /api/x", "m"),
      new StorageProtocolError("GET /api/x", "m"),
    ];
    expect(errors.map((e) => e.name)).toEqual([
      "StorageJobError",
      "StorageJobTimeoutError",
      "StorageNetworkError",
      "StorageProtocolError",
    ]);
    for (const e of errors) {
      // `name` is an own field: it survives minification, and JSON.stringify shows it.
      expect(Object.hasOwn(e, "name")).toBe(true);
      expect(JSON.parse(JSON.stringify(e))).toMatchObject({ name: e.name });
      expect(JSON.stringify(e)).not.toContain("at ");
    }
    expect(JSON.parse(JSON.stringify(errors[2]))).toEqual({ name: "StorageNetworkError", request: "GET /api/x" });
  });
});
