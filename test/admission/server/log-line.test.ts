import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REVIEW_VERDICTS, type AdmissionOutcome } from "../../../src/admission/admit.js";
import type { AdmissionRequest } from "../../../src/admission/review.js";
import { reviewLogFields, reviewLogLine } from "../../../src/admission/server/log-line.js";
import { propertyRuns } from "../../support/property-runs.js";

// The hand-written log line against the generic one: JSON.stringify of the same fields.

const generic = (time: string, request: AdmissionRequest, outcome: AdmissionOutcome, ms: number): string =>
  JSON.stringify({ time, level: "info", msg: "review", ...reviewLogFields(request, outcome, ms, false) });

// Any UTF-16 text, lone surrogates, quotes, backslashes and control characters included; often empty.
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom("a", '"', "\\", "\n", "\u0000", "\u001f", "\u007f", "\ud800", "\udc00", "é"),
    maxLength: 6,
  }),
  fc.constant(""),
);

const request: fc.Arbitrary<AdmissionRequest> = fc.record({
  uid: text,
  kind: fc.record({ group: text, version: text, kind: text }),
  subResource: text,
  name: text,
  namespace: text,
  operation: fc.constantFrom("CREATE", "UPDATE", "DELETE", "CONNECT"),
  object: fc.constant(null),
  oldObject: fc.constant(null),
  dryRun: fc.boolean(),
});

const outcome: fc.Arbitrary<AdmissionOutcome> = fc
  .record({
    uid: text,
    allowed: fc.boolean(),
    code: fc.option(fc.oneof(fc.integer(), fc.double()), { nil: undefined }),
    verdict: fc.constantFrom(...REVIEW_VERDICTS),
    kind: text,
    warnings: fc.array(text, { maxLength: 3 }),
    guard: fc.option(fc.constantFrom("strict" as const, "ingress-capture" as const), { nil: undefined }),
  })
  .map(({ uid, allowed, code, verdict, kind, warnings, guard }) => ({
    response: {
      uid,
      allowed,
      ...(code === undefined
        ? {}
        : {
            status: {
              kind: "Status",
              apiVersion: "v1",
              metadata: {},
              status: "Failure",
              message: "m",
              reason: "Invalid",
              code,
            } as const,
          }),
    },
    errors: [],
    verdict,
    kind,
    warnings,
    ...(guard === undefined ? {} : { guard }),
  }));

describe("reviewLogLine", () => {
  it("writes what JSON.stringify writes of the review's fields", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constant("2025-01-02T03:04:05.678Z"), text),
        request,
        outcome,
        fc.oneof(
          fc.double(),
          fc.integer({ min: 0, max: 10_000_000 }).map((us) => us / 1000),
        ),
        (time, req, out, ms) => {
          expect(reviewLogLine(time, req, out, ms)).toBe(generic(time, req, out, ms));
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it("leaves out the empty and undefined fields, as the generic line does", () => {
    const req: AdmissionRequest = {
      uid: "u-1",
      kind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" },
      subResource: "",
      name: "",
      namespace: "",
      operation: "CREATE",
      object: null,
      oldObject: null,
      dryRun: false,
    };
    const out: AdmissionOutcome = {
      response: { uid: "u-1", allowed: true },
      errors: [],
      verdict: "allowed",
      kind: "Ingress",
      warnings: [],
    };
    expect(reviewLogLine("t", req, out, 0.25)).toBe(
      '{"time":"t","level":"info","msg":"review","uid":"u-1","group":"networking.k8s.io","kind":"Ingress","operation":"CREATE","verdict":"allowed","allowed":true,"ms":0.25}',
    );
  });
});

describe("reviewLogFields", () => {
  it("adds the object and old object only when asked", () => {
    const req: AdmissionRequest = {
      uid: "u",
      kind: { group: "", version: "v1", kind: "Pod" },
      subResource: "",
      name: "p",
      namespace: "n",
      operation: "UPDATE",
      object: { a: 1 },
      oldObject: null,
      dryRun: true,
    };
    const out: AdmissionOutcome = {
      response: { uid: "u", allowed: true },
      errors: [],
      verdict: "ignored",
      kind: "Pod",
      warnings: [],
    };
    expect(reviewLogFields(req, out, 1, false)).not.toHaveProperty("object");
    const withObjects = reviewLogFields(req, out, 1, true);
    expect(withObjects["object"]).toEqual({ a: 1 });
    // A null old object (CREATE) is left out of the line.
    expect(JSON.stringify(withObjects)).not.toContain("oldObject");
  });
});
