// A user's test of their own admission webhook with clusterwire/testing.
//
// The team's webhook rejects bad Ingress paths early, so users get an answer
// before the API server's. It reimplements the path rules by hand, and it
// has a bug: it refuses "%2f" but lets "%2F" through, which the API server
// refuses (an encoded slash could smuggle a path past a prefix rule).
// propAdmissionAgreesWithValidate finds it: the targeted-invalid arbitraries
// put each path violation, upper-case %2F included, into otherwise valid
// Ingresses.
//
// In your own suite you would write `await fc.assert(property)` and watch it
// fail; here the failure is the point, so the test asserts it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject, NetworkingObject } from "clusterwire/networking";
import { propAdmissionAgreesWithValidate, type AdmissionVerdict } from "clusterwire/testing";

type Verdict = Exclude<AdmissionVerdict, boolean>;

const FORBIDDEN = ["//", "/./", "/../"];

interface IngressJson {
  spec?: { rules?: { http?: { paths?: { path?: string; pathType?: string }[] } }[] };
}

/**
 * The webhook's path check on the object as the AdmissionReview carries it
 * (JSON), with `encodedSlash` being what it takes for an encoded slash.
 */
function checkPaths(json: JsonObject, encodedSlash: (path: string) => boolean): Verdict {
  const errors: { type: string; field: string }[] = [];
  const ingress = json as IngressJson;
  ingress.spec?.rules?.forEach((rule, i) => {
    rule.http?.paths?.forEach((p, j) => {
      const at = `spec.rules[${i}].http.paths[${j}]`;
      const type = p.pathType;
      if (type === undefined) {
        errors.push({ type: "FieldValueRequired", field: `${at}.pathType` });
        return;
      }
      if (type !== "Exact" && type !== "Prefix" && type !== "ImplementationSpecific") {
        errors.push({ type: "FieldValueNotSupported", field: `${at}.pathType` });
        return;
      }
      const path = p.path ?? "";
      if (type === "ImplementationSpecific") {
        if (path !== "" && !path.startsWith("/")) errors.push({ type: "FieldValueInvalid", field: `${at}.path` });
        return;
      }
      const bad =
        !path.startsWith("/") ||
        FORBIDDEN.some((s) => path.includes(s)) ||
        encodedSlash(path) ||
        path.endsWith("/.") ||
        path.endsWith("/..");
      if (bad) errors.push({ type: "FieldValueInvalid", field: `${at}.path` });
    });
  });
  return { allowed: errors.length === 0, errors };
}

/** As shipped: only the lower-case spelling counts. */
const admitAsShipped = (_obj: NetworkingObject, json: JsonObject): Verdict =>
  checkPaths(json, (p) => p.includes("%2f"));

/** As fixed: percent-encoding is case-insensitive. */
const admitFixed = (_obj: NetworkingObject, json: JsonObject): Verdict =>
  checkPaths(json, (p) => p.toLowerCase().includes("%2f"));

// The webhook implements only the path rules, so only path violations are generated.
const options = { kinds: ["Ingress"], mutations: (m: string) => m.startsWith("ingress.path.") } as const;

describe("our Ingress path webhook agrees with the API server", () => {
  it("finds the planted bug: %2F is admitted", async () => {
    const result = await fc.check(propAdmissionAgreesWithValidate(admitAsShipped, options), {
      numRuns: 1000,
      seed: 2026,
    });
    expect(result.failed).toBe(true);
    const message = result.errorInstance instanceof Error ? result.errorInstance.message : "";
    expect(message).toContain("admitted an invalid object (ingress.path.bad-sequence");
    // fast-check shrinks the counterexample to a path with the upper-case spelling.
    const [counterexample] = result.counterexample ?? [];
    const paths = JSON.stringify(counterexample?.json);
    expect(paths).toContain("%2F");
  });

  it("the fixed webhook agrees", async () => {
    await fc.assert(propAdmissionAgreesWithValidate(admitFixed, options), { numRuns: 500 });
  });
});
