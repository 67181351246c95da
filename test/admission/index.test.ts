// The public surface of `clusterwire/admission` (src/admission/index.ts): exactly these names,
// each of this kind, so a public name dropped, renamed or added by accident fails here; and the
// entry point loads no I/O (the webhook's server is `clusterwire/admission/server`).
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as admission from "../../src/admission/index.js";
import type * as A from "../../src/admission/index.js";
import { reachableFrom } from "../support/reachable.js";

/** Every run-time export: name and typeof, sorted by name. */
const VALUES: readonly (readonly [string, string])[] = [
  ["ADMISSION_API_VERSION", "string"],
  ["AdmissionReviewError", "function"],
  ["INGRESS_CAPTURE_GUARD", "string"],
  ["IngressCaptureIndex", "function"],
  ["REVIEW_VERDICTS", "object"],
  ["WARNING_BUDGET", "number"],
  ["admit", "function"],
  ["captureDenial", "function"],
  ["readAdmissionReview", "function"],
  ["reviewAdmission", "function"],
];

describe("clusterwire/admission", () => {
  it("exports exactly these values, each of its kind", () => {
    const actual = Object.keys(admission)
      .sort()
      .map((name) => [name, typeof (admission as Record<string, unknown>)[name]]);
    expect(actual).toEqual(VALUES);
  });

  it("exports these types (checked by tsc: a missing one fails the type check)", () => {
    type Types = [
      A.AdmissionGuards,
      A.AdmissionOutcome,
      A.ReviewVerdict,
      A.AdmitOptions,
      A.GuardName,
      A.AdmissionOperation,
      A.AdmissionRequest,
      A.AdmissionResponse,
      A.AdmissionReviewResponse,
      A.GroupVersionKind,
      A.StatusJson,
      A.CaptureConflict,
      A.CaptureRuleRef,
      A.IngressCaptureIndexOptions,
    ];
    expectTypeOf<Types>().not.toBeAny();
    // Types whose values the entry point also exports stay tied to them.
    expectTypeOf<(typeof admission.REVIEW_VERDICTS)[number]>().toEqualTypeOf<A.ReviewVerdict>();
    expectTypeOf(admission.INGRESS_CAPTURE_GUARD).toMatchTypeOf<A.GuardName>();
  });

  it("loads no I/O: no node: module and nothing of the webhook server is reachable from it", () => {
    const { files, bare } = reachableFrom(fileURLToPath(new URL("../../src/admission/index.ts", import.meta.url)));
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => f.includes("/src/admission/server/"))).toEqual([]);
    expect(bare.filter((s) => s.startsWith("node:"))).toEqual([]);
  });

  it("its example decides an IngressClass as allowed", () => {
    const answer = admission.reviewAdmission({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: {
        uid: "1",
        kind: { group: "networking.k8s.io", version: "v1", kind: "IngressClass" },
        operation: "CREATE",
        object: {
          apiVersion: "networking.k8s.io/v1",
          kind: "IngressClass",
          metadata: { name: "nginx" },
          spec: { controller: "k8s.io/ingress-nginx" },
        },
      },
    });
    expect(answer.response.allowed).toBe(true);
    expect(answer.response.uid).toBe("1");
  });
});
