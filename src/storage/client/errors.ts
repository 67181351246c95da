// The errors StorageClient adds to the codecs' StorageApiError and StorageCodecError: a job
// that failed or timed out, a request without an HTTP answer, an answer the client cannot follow.

import type { Job } from "../codecs/job.js";

/**
 * An asynchronous job that ended in `failure` (or another non-success terminal state).
 *
 * @example
 * ```ts
 * import { StorageClient, StorageJobError } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * try {
 *   await client.caches.create({ name: "c3", svm: { name: "svm2" }, origins: [{ volume: { name: "vol_offline" }, svm: { name: "svm1" } }] });
 * } catch (e) {
 *   if (e instanceof StorageJobError) console.log(e.uuid, e.state, e.jobMessage);
 *   else throw e;
 * }
 * client.close();
 * await server.close();
 * ```
 */
export class StorageJobError extends Error {
  /** Always `"StorageJobError"`. */
  override readonly name = "StorageJobError";
  /** The job's uuid. */
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

/**
 * Waiting for a job took longer than the total timeout. The job may still be running server-side.
 *
 * @example
 * ```ts
 * import { StorageClient, StorageJobTimeoutError } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * try {
 *   await client.caches.create(
 *     { name: "c4", svm: { name: "svm2" }, origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }] },
 *     { wait: { timeoutMs: 1 } },
 *   );
 * } catch (e) {
 *   if (e instanceof StorageJobTimeoutError) console.log(`job ${e.uuid} still running after ${e.timeoutMs} ms`);
 * }
 * client.close();
 * await server.close();
 * ```
 */
export class StorageJobTimeoutError extends Error {
  /** Always `"StorageJobTimeoutError"`. */
  override readonly name = "StorageJobTimeoutError";
  /** The job's uuid. */
  readonly uuid: string;
  /** How long was waited, in ms. */
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

/**
 * The request never got an HTTP answer: connection, TLS or timeout failure. `cause` holds the original.
 *
 * @example
 * ```ts
 * import { StorageClient, StorageNetworkError } from "clusterwire/storage";
 *
 * const client = new StorageClient({ baseUrl: "http://127.0.0.1:9", username: "admin", password: "x", allowInsecureHttp: true });
 * try {
 *   await client.svms.all();
 * } catch (e) {
 *   if (e instanceof StorageNetworkError) console.log(e.request, e.message); // "GET /api/svm/svms" ...
 * }
 * ```
 */
export class StorageNetworkError extends Error {
  /** Always `"StorageNetworkError"`. */
  override readonly name = "StorageNetworkError";
  /** The request, as `METHOD /api/path`. */
  readonly request: string;
  constructor(request: string, message: string, options?: { cause?: unknown }) {
    super(`${request}: ${message}`, options);
    this.request = request;
  }
}

/**
 * The server answered something the client cannot follow: a non-JSON success body, a repeated or foreign next link, a 202 without a job.
 *
 * @example
 * ```ts
 * import { StorageProtocolError, type StorageClient } from "clusterwire/storage";
 *
 * const names = async (client: StorageClient): Promise<string[]> => {
 *   try {
 *     return (await client.svms.all()).map((s) => s.name ?? "");
 *   } catch (e) {
 *     if (e instanceof StorageProtocolError) throw new Error(`not a storage API at ${client.baseUrl}: ${e.message}`);
 *     throw e;
 *   }
 * };
 * ```
 */
export class StorageProtocolError extends Error {
  /** Always `"StorageProtocolError"`. */
  override readonly name = "StorageProtocolError";
  /** The request, as `METHOD /api/path`. */
  readonly request: string;
  constructor(request: string, message: string) {
    super(`${request}: ${message}`);
    this.request = request;
  }
}
