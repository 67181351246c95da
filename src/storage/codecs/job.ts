// Jobs: /api/cluster/jobs/<uuid>, and the `{job}` / `{jobs}` answers of asynchronous calls.

import { arr, datetime, decodeBody, decodeErrorCode, enm, f, int, links, obj, str, type InferModel } from "./schema.js";

export const JOB_STATES = ["queued", "running", "paused", "success", "failure"] as const;
export type JobState = (typeof JOB_STATES)[number];
/** The states after which a job never changes. */
export const JOB_TERMINAL_STATES = ["success", "failure"] as const;

/** Whether a job state is terminal (`success` or `failure`). */
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

/** A job record, inferred from the schema. `code` is an integer; the embedded `error.code` a string of digits; `description` is `<METHOD> <request_path>`. */
export type Job = InferModel<typeof jobSchema>;

/** `{uuid, _links.self.href}` as embedded in an asynchronous answer. */
export type JobReference = InferModel<typeof jobRef>;

/**
 * The answer of an asynchronous POST/PATCH/DELETE: `job`, or `jobs` with
 * `num_records` (bulk). Other members (e.g. `records` with `return_records`) are
 * kept as given.
 */
export type AcceptedResponse = InferModel<typeof acceptedSchema>;

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
