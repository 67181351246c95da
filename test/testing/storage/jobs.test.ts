// The storage arbitraries of clusterwire/testing for jobs (src/testing/storage/jobs.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import { describe, expect, it } from "vitest";
import { isTerminalJobState, job } from "../../../src/storage/index.js";
import { arbJobAcceptedModel, arbJobModel } from "../../../src/testing/storage/index.js";
import { checkArbitraryQuality } from "../quality.js";
import { asJson, decodesUnchanged } from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbJobModel and arbJobAcceptedModel", () => {
    checkArbitraryQuality(arbJobModel(), {
      contract: (j) => {
        decodesUnchanged(job.decode, j);
        expect(j.description).toMatch(/^(?:GET|POST|PATCH|DELETE) \/api\//);
        expect(j.end_time !== undefined).toBe(isTerminalJobState(j.state));
        if (j.end_time !== undefined) expect(Date.parse(j.end_time)).toBeGreaterThanOrEqual(Date.parse(j.start_time!));
        if (j.state === "failure") {
          expect(j.code).not.toBe(0);
          expect(j.error?.code).toBe(String(j.code));
        } else {
          expect(j.code).toBe(0);
          expect(j.error).toBeUndefined();
        }
        if (j._links !== undefined) expect(j._links.self?.href).toBe(`/api/cluster/jobs/${j.uuid}`);
      },
    });
    checkArbitraryQuality(arbJobAcceptedModel(), {
      contract: (a) => {
        expect(job.decodeAccepted(asJson(a))).toStrictEqual(a);
        if (a.job !== undefined) expect(job.hrefOf(a)).toBe(`/api/cluster/jobs/${a.job.uuid}`);
        else expect(a.num_records).toBe(a.jobs?.length);
      },
    });
  });
});
