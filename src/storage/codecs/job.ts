// Jobs: /api/cluster/jobs/<uuid>, and the `{job}` / `{jobs}` answers of asynchronous calls.

import { arr, datetime, decodeBody, decodeErrorCode, enm, f, int, links, obj, str, type InferModel } from "./schema.js";

/**
 * The values the API defines for a job's `state`.
 *
 * @example
 * ```ts
 * import { JOB_STATES, type JobState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (JOB_STATES as readonly unknown[]).includes(value);
 * const first: JobState = JOB_STATES[0];
 * ```
 */
export const JOB_STATES = ["queued", "running", "paused", "success", "failure"] as const;
/**
 * A job's `state`: one of {@link JOB_STATES}.
 *
 * @example
 * ```ts
 * import { JOB_STATES, type JobState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (JOB_STATES as readonly unknown[]).includes(value);
 * const first: JobState = JOB_STATES[0];
 * ```
 */
export type JobState = (typeof JOB_STATES)[number];
/**
 * The states after which a job never changes.
 *
 * @example
 * ```ts
 * import { JOB_TERMINAL_STATES, type Job } from "clusterwire/storage";
 *
 * const finished = (job: Job): boolean => (JOB_TERMINAL_STATES as readonly unknown[]).includes(job.state);
 * ```
 */
export const JOB_TERMINAL_STATES = ["success", "failure"] as const;

/**
 * Whether a job state is terminal (`success` or `failure`).
 *
 * @example
 * ```ts
 * import { type StorageClient, isTerminalJobState } from "clusterwire/storage";
 *
 * const done = async (client: StorageClient, uuid: string): Promise<boolean> => isTerminalJobState((await client.getJob(uuid)).state);
 * ```
 */
export function isTerminalJobState(state: string | undefined): boolean {
  return state === "success" || state === "failure";
}

const ref = obj({ uuid: str, name: str, _links: f("G", links) });
const code = { decode: decodeErrorCode };

const jobSchema = obj({
  uuid: str,
  description: str,
  state: enm(JOB_STATES),
  message: str,
  code: int(),
  error: obj({
    code: f("G", str, code),
    message: str,
    arguments: arr(obj({ code: f("G", str, code), message: str })),
  }),
  start_time: datetime,
  end_time: datetime,
  node: ref,
  svm: ref,
  _links: links,
});

const jobRef = obj({ uuid: str, _links: links });
const acceptedSchema = obj({ job: jobRef, jobs: arr(jobRef), num_records: int(), _links: links });

/**
 * A job record, inferred from the schema. `code` is an integer; the embedded `error.code` a string of digits; `description` is `<METHOD> <request_path>`.
 *
 * @example
 * ```ts
 * import { type Job, job } from "clusterwire/storage";
 *
 * const record: Job = job.decode({ uuid: "00000000-0000-4000-8000-000000000001", state: "success", code: 0, message: "done" });
 * console.log(record.state, record.message);
 * ```
 */
export type Job = InferModel<typeof jobSchema>;

/**
 * `{uuid, _links.self.href}` as embedded in an asynchronous answer.
 *
 * @example
 * ```ts
 * import { type JobReference, type StorageClient } from "clusterwire/storage";
 *
 * const wait = (client: StorageClient, ref: JobReference) => client.waitForJob(ref.uuid!);
 * ```
 */
export type JobReference = InferModel<typeof jobRef>;

/**
 * The answer of an asynchronous POST/PATCH/DELETE: `job`, or `jobs` with
 * `num_records` (bulk). Other members (e.g. `records` with `return_records`) are
 * kept as given.
 *
 * @example
 * ```ts
 * import { type AcceptedResponse, type StorageClient } from "clusterwire/storage";
 *
 * const jobOf = async (client: StorageClient): Promise<string | undefined> => {
 *   const answer = await client.request<AcceptedResponse>("PATCH", "/api/cluster/software", { body: { version: "9.15.1" } });
 *   return answer?.job?.uuid;
 * };
 * ```
 */
export type AcceptedResponse = InferModel<typeof acceptedSchema>;

/**
 * The codec of jobs: decodes a job record.
 *
 * @example
 * ```ts
 * import { job } from "clusterwire/storage";
 *
 * console.log(job.decode({ uuid: "00000000-0000-4000-8000-000000000001", state: "running" }).state); // "running"
 * ```
 */
export const job = {
  /** A job record from `GET /api/cluster/jobs/<uuid>`. */
  decode(json: unknown): Job {
    return decodeBody(jobSchema, json);
  },
  /** An asynchronous answer `{job: {uuid, _links}}` (or bulk `{jobs: [...], num_records}`). */
  decodeAccepted(json: unknown): AcceptedResponse {
    return decodeBody(acceptedSchema, json);
  },
  /** The job path of an asynchronous answer (`/api/cluster/jobs/<uuid>`), or undefined when it has none. */
  hrefOf(accepted: AcceptedResponse): string | undefined {
    const j = accepted.job;
    if (j === undefined) return undefined;
    const href = j._links?.self?.href;
    if (href !== undefined) return href;
    return j.uuid === undefined ? undefined : `/api/cluster/jobs/${encodeURIComponent(j.uuid)}`;
  },
} as const;
