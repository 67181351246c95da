// The routing arbitraries (src/testing/routing.ts): Ingress sets and requests from small
// vocabularies. Held to fast-check's quality checks in the catalogue form (./catalogue.ts), and
// what they draw to what the module promises: sizes kept, every backend named apart, class lists
// only for the sizes that ask, requests that reach every host form.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromJson } from "../../src/networking/index.js";
import * as routing from "../../src/testing/routing.js";
import { propertyRuns } from "../support/property-runs.js";
import { checkEntries, entry, expectCatalogued, type Entry } from "./catalogue.js";
import { routable } from "./contracts.js";

const ENTRIES: Entry[] = [
  entry("arbRoutingInputJson", routing.arbRoutingInputJson(), (j) => routable(routing.toRouterInput(j)), { runs: 100 }),
  entry("arbRouterInput", routing.arbRouterInput(routing.LARGE_ROUTING), routable, {
    runs: 30,
    size: (input) => input.ingresses.length,
  }),
  entry("arbRouteRequest", routing.arbRouteRequest(), (r) => typeof r.host === "string" && typeof r.path === "string"),
];

describe("routing arbitraries pass fast-check's quality checks", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of routing.ts is in the catalogue above", () => {
    expectCatalogued(routing, ENTRIES);
  });
});

type J = Record<string, unknown>;

/** Every backend of an Ingress in JSON: its default, then each path's. */
function backends(ing: J): J[] {
  const spec = ing["spec"] as J;
  const rules = (spec["rules"] ?? []) as { http?: { paths: { backend: J }[] } }[];
  return [
    ...(spec["defaultBackend"] === undefined ? [] : [spec["defaultBackend"] as J]),
    ...rules.flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend)),
  ];
}

describe("what the routing arbitraries draw", () => {
  it("keeps the sizes' bounds, and names every backend apart", () => {
    for (const sizes of [routing.SMALL_ROUTING, routing.LARGE_ROUTING]) {
      fc.assert(
        fc.property(routing.arbRoutingInputJson(sizes), (j) => {
          expect(j.ingresses.length).toBeGreaterThanOrEqual(sizes.ingresses[0]);
          expect(j.ingresses.length).toBeLessThanOrEqual(sizes.ingresses[1]);
          if (!sizes.classes) expect(j.classes).toBeUndefined();
          const names = j.ingresses.flatMap((i) =>
            backends(i as J).map((b) => ((b["service"] ?? b["resource"]) as { name: string }).name),
          );
          expect(new Set(names).size).toBe(names.length);
          for (const ing of j.ingresses) {
            const meta = (ing as J)["metadata"] as J;
            expect(sizes.names).toContain(meta["name"]);
            const rules = ((ing as J)["spec"] as J)["rules"] as J[] | undefined;
            expect(rules?.length ?? 0).toBeLessThanOrEqual(sizes.rules[1]);
          }
        }),
        { numRuns: propertyRuns(20) },
      );
    }
    // The small sizes draw class lists, empty ones included, and none at all.
    const drawn = fc.sample(routing.arbRoutingInputJson(), { seed: 5, numRuns: 200 }).map((j) => j.classes?.length);
    expect(drawn).toContain(undefined);
    expect(drawn).toContain(0);
    expect(drawn.some((n) => n !== undefined && n > 0)).toBe(true);
  });

  it("toRouterInput decodes the JSON, and evaluates as ROUTING_CONTROLLER only when there is a class list", () => {
    const j = fc.sample(routing.arbRoutingInputJson(), { seed: 9, numRuns: 50 });
    const withClasses = j.find((x) => (x.classes?.length ?? 0) > 0);
    const without = j.find((x) => x.classes === undefined);
    if (withClasses === undefined || without === undefined) throw new Error("the sample lacks an input of each sort");
    const a = routing.toRouterInput(withClasses);
    expect(a.ingresses).toEqual(withClasses.ingresses.map((o) => fromJson(o)));
    expect(a.ingressClasses).toEqual(withClasses.classes?.map((o) => fromJson(o)));
    expect(a.controller).toBe(routing.ROUTING_CONTROLLER);
    expect(routing.toRouterInput(without)).toEqual({ ingresses: without.ingresses.map((o) => fromJson(o)) });
  });

  it("requests reach ports, upper case, IPv6 literals, queries and fragments, and sometimes an SNI or scheme", () => {
    const requests = fc.sample(routing.arbRouteRequest(), { seed: 2, numRuns: 400 });
    const some = (p: (r: (typeof requests)[number]) => boolean) => expect(requests.some(p)).toBe(true);
    some((r) => /:\d+$/.test(r.host));
    some((r) => r.host !== r.host.toLowerCase());
    some((r) => r.host.startsWith("["));
    some((r) => r.host === "");
    some((r) => r.path.includes("?"));
    some((r) => r.path.includes("#"));
    some((r) => r.sni !== undefined);
    some((r) => r.scheme !== undefined);
    // An IPv6 literal keeps its brackets whole: a port only ever follows the closing one.
    for (const r of requests) if (r.host.startsWith("[")) expect(r.host).toMatch(/^\[[0-9a-fA-F:]+\](:\d+)?$/);
  });
});
