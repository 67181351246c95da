// The errors StorageClient adds to the codecs' StorageApiError and StorageCodecError: a job
// that failed or timed out, a request without an HTTP answer, an answer the client cannot follow.

import type { Job } from "../codecs/job.js";

/** An asynchronous job that ended in `failure` (or another non-success terminal state). */
export class StorageJobError extends Error {
  override readonly name = "StorageJobError";
  readonly uuid: string;
  /** The job's terminal state (`failure`, or e.g. `cancelled` / `expired` from other servers). */
  readonly state: string;
  /** The job's `message` (redacted). */
  readonly jobMessage: string;
  /** The job's integer `code`, when given. */
  readonly code: number | undefined;
  /** The job's `error.code` (a digit string), when given. */
  readonly errorCode: string | undefined;
  /** The job's `description` (`<METHOD> <path>`), when given. */
  readonly description: string | undefined;
  /** The final job record (redacted). */
  readonly job: Job;

  constructor(uuid: string, job: Job) {
    const state = job.state ?? "unknown";
    const message = job.message ?? job.error?.message ?? "";
    const code = job.code ?? job.error?.code;
    const what = job.description === undefined ? `job ${uuid}` : `job ${uuid} (${job.description})`;
    super(
      `${what} ended in state ${state}${code === undefined ? "" : ` [${code}]`}${message === "" ? "" : `: ${message}`}`,
    );
    this.uuid = uuid;
    this.state = state;
    this.jobMessage = message;
    this.code = job.code;
    this.errorCode = job.error?.code;
    this.description = job.description;
    this.job = job;
  }
}

/** Waiting for a job took longer than the total timeout. The job may still be running server-side. */
export class StorageJobTimeoutError extends Error {
  override readonly name = "StorageJobTimeoutError";
  readonly uuid: string;
  readonly timeoutMs: number;
  /** The last job record read, if any (redacted). */
  readonly lastJob: Job | undefined;

  constructor(uuid: string, timeoutMs: number, lastJob: Job | undefined) {
    const state =
      lastJob?.state === undefined
        ? ""
        : ` (last state ${lastJob.state}${lastJob.message === undefined ? "" : `: ${lastJob.message}`})`;
    super(`job ${uuid} still not finished after ${timeoutMs} ms${state}; it may still be running on the cluster`);
    this.uuid = uuid;
    this.timeoutMs = timeoutMs;
    this.lastJob = lastJob;
  }
}

/** The request never got an HTTP answer: connection, TLS or timeout failure. `cause` holds the original. */
export class StorageNetworkError extends Error {
  override readonly name = "StorageNetworkError";
  /** The request, as `METHOD /api/path`. */
  readonly request: string;
  constructor(request: string, message: string, options?: { cause?: unknown }) {
    super(`${request}: ${message}`, options);
    this.request = request;
  }
}

/** The server answered something the client cannot follow: a non-JSON success body, a repeated or foreign next link, a 202 without a job. */
export class StorageProtocolError extends Error {
  override readonly name = "StorageProtocolError";
  readonly request: string;
  constructor(request: string, message: string) {
    super(`${request}: ${message}`);
    this.request = request;
  }
}
