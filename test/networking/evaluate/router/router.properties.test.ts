// Differential properties: the indexed router (src/networking/evaluate/router/router.ts) and
// the brute-force reference (router-reference.ts) must agree on every request.
// Inputs come from clusterwire/testing's routing arbitraries, whose small
// vocabularies make hosts, wildcards and paths collide, prefix each other and
// tie on every R7 key; a second property makes tiers large enough for the
// router's map-based lookup.
//
// CLUSTERWIRE_PROPERTY_RUNS=N sets every property's run count to N (test/support/property-runs.ts; defaults
// keep the file well under 15 s).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRouter, type RouteRequest } from "../../../../src/networking/index.js";
import {
  arbRouteRequest,
  arbRoutingInputJson,
  LARGE_ROUTING,
  SMALL_ROUTING,
  toRouterInput,
  type RoutingInputJson,
  type RoutingSizes,
} from "../../../../src/testing/index.js";
import { referenceRoute, referenceScope, type ReferenceInput } from "../../../support/router-reference.js";
import { propertyRuns } from "../../../support/property-runs.js";

type J = Record<string, unknown>;

// ------------------------------------------------------------------ property

/** How many inputs had something skipped, so a property can show it was tested. */
let withSkipped = 0;

function agree(j: RoutingInputJson, requests: readonly RouteRequest[]): void {
  const input: ReferenceInput = toRouterInput(j);
  const router = createRouter(input);
  const scope = referenceScope(input);
  expect(router.inScope).toEqual(scope.inScope);
  expect(router.outOfScope.map((o) => o.ingress)).toEqual(scope.outOfScope);
  expect(router.skipped.filter((s) => s.kind === "Ingress").map((s) => s.index)).toEqual(scope.skipped);
  // Every skipped object with its reason, IngressClasses first.
  expect(router.skipped).toEqual(scope.skippedObjects);
  if (router.skipped.length > 0) withSkipped++;
  for (const req of requests) {
    const want = referenceRoute(input, req);
    const got = router.route(req);
    // Routes carry the skipped objects too.
    expect(got, JSON.stringify(req)).toEqual(want);
    // R11: the very backend object of the input.
    expect(got?.backend, JSON.stringify(req)).toBe(want?.backend);
    expect(router.resolve(req), JSON.stringify(req)).toEqual({ route: want, skipped: scope.skippedObjects });
  }
}

/** The most paths any one rule host has across the input, in-scope or not. */
function largestTier(j: RoutingInputJson): number {
  const count = new Map<string, number>();
  for (const ing of j.ingresses) {
    for (const r of ((ing["spec"] as J)["rules"] ?? []) as { host?: string; http?: { paths: unknown[] } }[]) {
      const host = r.host ?? "";
      count.set(host, (count.get(host) ?? 0) + (r.http?.paths.length ?? 0));
    }
  }
  return Math.max(0, ...count.values());
}

describe("router agrees with the brute-force reference", () => {
  it("small inputs: colliding hosts, paths, classes and R7 ties", () => {
    const before = withSkipped;
    fc.assert(
      fc.property(
        arbRoutingInputJson(SMALL_ROUTING),
        fc.array(arbRouteRequest(), { minLength: 1, maxLength: 12 }),
        agree,
      ),
      { numRuns: propertyRuns(600) },
    );
    // Duplicate names among the small vocabularies make skipped objects common.
    expect(withSkipped - before).toBeGreaterThan(0);
  });

  it("large tiers", () => {
    let large = 0;
    let total = 0;
    fc.assert(
      fc.property(
        arbRoutingInputJson(LARGE_ROUTING),
        fc.array(arbRouteRequest(), { minLength: 1, maxLength: 20 }),
        (j, requests) => {
          total++;
          if (largestTier(j) > 30) large++;
          agree(j, requests);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
    // The property only means something if most inputs really have big tiers.
    expect(large / total).toBeGreaterThan(0.8);
  });

  it("Ingresses without creationTimestamp rank after every dated one", () => {
    // 1970-01-01 is a real timestamp (the oldest here), not a missing one.
    const sizes: RoutingSizes = {
      ...SMALL_ROUTING,
      timestamps: [...SMALL_ROUTING.timestamps, "1970-01-01T00:00:00Z", undefined, undefined],
    };
    fc.assert(
      fc.property(arbRoutingInputJson(sizes), fc.array(arbRouteRequest(), { minLength: 1, maxLength: 12 }), agree),
      { numRuns: propertyRuns(300) },
    );
  });
});
