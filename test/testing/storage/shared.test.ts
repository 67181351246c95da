// The small pieces the storage arbitraries share (src/testing/storage/shared.ts): records with a
// prototype, references in three forms, links dropped for plain JSON, what a newer server may
// send, the inventory's volumes as bodies name them, and timestamps.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EPOCH_MAX,
  EPOCH_MIN,
  FUTURE_MEMBERS,
  FUTURE_VALUES,
  all,
  enumOf,
  halOrPlain,
  instant,
  interval,
  isEmpty,
  isoAt,
  maybe,
  need,
  nodeName,
  refTo,
  selfLink,
  some,
  targetVolumes,
  withNewer,
  withoutLinks,
} from "../../../src/testing/storage/shared.js";
import { propertyRuns } from "../../support/property-runs.js";

const draws = <T>(arb: fc.Arbitrary<T>, n = 200): T[] => fc.sample(arb, { seed: 3, numRuns: n });

describe("record builders", () => {
  it("all and some give objects with Object.prototype, some with its required keys always there", () => {
    for (const r of draws(all({ a: fc.nat(), b: fc.string() }), 30)) {
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      expect(Object.keys(r).sort()).toEqual(["a", "b"]);
    }
    const partial = draws(some({ a: fc.nat(), b: fc.nat(), c: fc.nat() }, ["a"]), 100);
    for (const r of partial) {
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      expect("a" in r).toBe(true);
    }
    expect(partial.some((r) => !("b" in r))).toBe(true);
    expect(partial.some((r) => "b" in r)).toBe(true);
    expect(new Set(draws(maybe(fc.constant(1)), 50))).toEqual(new Set([1, undefined]));
    expect([isEmpty({}), isEmpty({ a: undefined })]).toEqual([true, false]);
  });
});

describe("references and links", () => {
  it("refTo: by name, by uuid, or both; by name when there is no uuid", () => {
    const o = { name: "vol1", uuid: "u-1" };
    expect(refTo(o, "name")).toEqual({ name: "vol1" });
    expect(refTo(o, "uuid")).toEqual({ uuid: "u-1" });
    expect(refTo(o, "both")).toEqual({ name: "vol1", uuid: "u-1" });
    expect(refTo({ name: "vol2" }, "uuid")).toEqual({ name: "vol2" });
  });

  it("withoutLinks drops _links at every depth and keeps the rest; halOrPlain draws both", () => {
    const hal = { _links: selfLink("/x"), a: [{ _links: selfLink("/y"), b: 1 }], c: { d: null, _links: {} }, e: "s" };
    expect(withoutLinks(hal)).toEqual({ a: [{ b: 1 }], c: { d: null }, e: "s" });
    expect(withoutLinks("plain")).toBe("plain");
    expect(withoutLinks(null)).toBeNull();
    const drawn = draws(halOrPlain(fc.constant(hal)), 50);
    expect(drawn.some((v) => "_links" in v)).toBe(true);
    expect(drawn.some((v) => !("_links" in v))).toBe(true);
    expect(selfLink("/api/x")).toEqual({ self: { href: "/api/x" } });
  });
});

describe("what a newer server may send", () => {
  it("enumOf: the known values only, unless newerServer, which adds values no codec knows", () => {
    const known = ["online", "offline"] as const;
    expect(new Set(draws(enumOf(known)))).toEqual(new Set(known));
    const newer = new Set<string>(draws(enumOf(known, { newerServer: true })));
    for (const v of newer) expect([...known, ...FUTURE_VALUES]).toContain(v);
    expect([...newer].some((v) => (FUTURE_VALUES as readonly string[]).includes(v))).toBe(true);
  });

  it("withNewer: sometimes one member no codec knows, only with newerServer", () => {
    const base = fc.constant({ name: "x" });
    expect(new Set(draws(withNewer(base, {})).map((v) => JSON.stringify(v)))).toEqual(new Set(['{"name":"x"}']));
    const newer = draws(withNewer(base, { newerServer: true }));
    const extra = newer.flatMap((v) => Object.keys(v).filter((k) => k !== "name"));
    expect(extra.length).toBeGreaterThan(0);
    for (const k of extra) expect(FUTURE_MEMBERS).toContain(k);
    for (const v of newer) expect(Object.keys(v).length).toBeLessThanOrEqual(2);
  });
});

describe("the inventory", () => {
  it("need: the list, or an error naming the function and what is missing", () => {
    expect(need([1, 2], "volumes", "arbX")).toEqual([1, 2]);
    expect(() => need([], "volumes", "arbCachePost")).toThrow("arbCachePost: the targets hold no volumes");
    expect(() => need(undefined, "SVMs", "arbX")).toThrow("arbX: the targets hold no SVMs");
  });

  it("targetVolumes: each volume with its SVM's uuid, qtrees, and whether it is online and may be a cache origin", () => {
    const vols = targetVolumes({
      svms: [{ name: "svm1", uuid: "s-1" }],
      volumes: [
        { name: "a", svm: "svm1", uuid: "v-a", qtrees: ["q"], path: "/a" },
        { name: "b", svm: "svm2", state: "offline" },
        { name: "c", svm: "svm1", style: "flexgroup" },
      ],
    } as never);
    expect(vols).toEqual([
      {
        name: "a",
        uuid: "v-a",
        svm: { name: "svm1", uuid: "s-1" },
        qtrees: ["q"],
        path: "/a",
        online: true,
        origin: true,
      },
      {
        name: "b",
        uuid: undefined,
        svm: { name: "svm2", uuid: undefined },
        qtrees: [],
        path: undefined,
        online: false,
        origin: false,
      },
      {
        name: "c",
        uuid: undefined,
        svm: { name: "svm1", uuid: "s-1" },
        qtrees: [],
        path: undefined,
        online: true,
        origin: false,
      },
    ]);
    expect(targetVolumes({})).toEqual([]);
  });
});

describe("timestamps and names", () => {
  it("isoAt writes the instant at the offset, without fractions, Z for UTC", () => {
    expect(isoAt(0, 0)).toBe("1970-01-01T00:00:00Z");
    expect(isoAt(0, 330)).toBe("1970-01-01T05:30:00+05:30");
    expect(isoAt(0, -480)).toBe("1969-12-31T16:00:00-08:00");
    fc.assert(
      fc.property(instant, ([s, off]) => {
        const text = isoAt(s, off);
        expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
        expect(Date.parse(text) / 1000).toBe(s);
        expect(s >= EPOCH_MIN && s <= EPOCH_MAX).toBe(true);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it("interval ends no earlier than it starts, at the same offset; node names are CLUSTER-NN", () => {
    fc.assert(
      fc.property(interval, ({ start, end }) => {
        expect(Date.parse(end)).toBeGreaterThanOrEqual(Date.parse(start));
        expect(end.slice(19)).toBe(start.slice(19));
      }),
      { numRuns: propertyRuns(100) },
    );
    for (const n of draws(nodeName, 50)) expect(n).toMatch(/^(cluster1|prod|lab)-0[1-8]$/);
  });
});
