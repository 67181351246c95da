// Jobs (/api/cluster/jobs): job records and the answers of asynchronous calls.

import fc from "fast-check";
import { JOB_STATES, type AcceptedResponse, type Job } from "../../storage/index.js";
import type { StorageModelOptions } from "./options.js";
import { some, selfLink, halOrPlain, withNewer, interval, nodeName, CACHES, SVMS, NODES, JOBS } from "./shared.js";
import { arbStorageUuid, modelRef } from "./building-blocks.js";

const JOB_DESCRIPTIONS = [
  `POST ${CACHES}`,
  `DELETE ${CACHES}`,
  "PATCH /api/cluster/software",
  "POST /api/cluster/software/download",
  "DELETE /api/cluster/software/packages",
] as const;

/**
 * Job records (`GET /api/cluster/jobs/<uuid>`): `uuid`, `description` `<METHOD> <path>`,
 * `state`, `message`, integer `code`, `start_time`; a terminal state has `end_time` ≥
 * `start_time`; `success` has code 0 and no `error`; `failure` has a non-zero code and an
 * `error` whose string code is that code's digits; `_links.self` is `/api/cluster/jobs/<uuid>`.
 * `job.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbJobModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbJobModel({ newerServer: true }), 2));
 * ```
 */
export function arbJobModel(o: StorageModelOptions = {}): fc.Arbitrary<Job> {
  const failure = fc.constantFrom(
    { code: 262191, message: "The origin volume is offline." },
    { code: 2228331, message: "Copy of the file from the web server failed." },
    { code: 10551388, message: "Package delete operation timed out." },
  );
  const j = fc
    .tuple(
      arbStorageUuid(),
      fc.constantFrom(...JOB_STATES),
      fc.constantFrom(...JOB_DESCRIPTIONS),
      interval,
      failure,
      some({ svm: modelRef(SVMS), node: modelRef(NODES, nodeName) }),
    )
    .map(([uuid, state, description, times, fail, refs]): Job => {
      const ended = state === "success" || state === "failure";
      const outcome =
        state === "failure"
          ? { message: fail.message, code: fail.code, error: { code: String(fail.code), message: fail.message } }
          : {
              message:
                state === "success"
                  ? "success"
                  : state === "queued"
                    ? "Queued"
                    : state === "paused"
                      ? "Paused"
                      : "Running",
              code: 0,
            };
      return {
        uuid,
        description,
        state,
        ...outcome,
        start_time: times.start,
        ...(ended ? { end_time: times.end } : {}),
        ...refs,
        _links: selfLink(`${JOBS}/${uuid}`),
      };
    });
  return withNewer(halOrPlain(j), o);
}

/**
 * Answers of asynchronous calls: `{job: {uuid, _links}}`, or for a query-based change
 * `{num_records, jobs: [...]}` with `num_records` equal to the number of jobs. `job.decodeAccepted`
 * returns each unchanged and `job.hrefOf` finds `/api/cluster/jobs/<uuid>` for a single job.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbJobAcceptedModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbJobAcceptedModel(), 2));
 * ```
 */
export function arbJobAcceptedModel(): fc.Arbitrary<AcceptedResponse> {
  const ref = arbStorageUuid().map((uuid) => ({ uuid, _links: selfLink(`${JOBS}/${uuid}`) }));
  return fc.oneof(
    ref.map((job): AcceptedResponse => ({ job })),
    fc
      .uniqueArray(ref, { maxLength: 4, selector: (r) => r.uuid })
      .map((jobs): AcceptedResponse => ({ num_records: jobs.length, jobs })),
  );
}
