// Query parameters (src/storage/client/query.ts): encodeQuery flattens nested objects to dotted
// names, joins arrays with `,`, percent-encodes all but the API's list and operator characters,
// and refuses `return_timeout` outside 0..120 s and a `max_records` that is not a positive
// integer before anything is sent; queryFilters is what of a query is a filter.
import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { StorageCodecError } from "../../../src/storage/codecs/errors.js";
import { type Query, type QueryObject, encodeQuery, queryFilters } from "../../../src/storage/client/query.js";
import { propertyRuns } from "../../support/property-runs.js";

/** The error `fn` throws, which must be a StorageCodecError. */
function codecError(fn: () => unknown): StorageCodecError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StorageCodecError) return e;
    throw e;
  }
  throw new Error("expected a StorageCodecError");
}

describe("encodeQuery", () => {
  it("is empty for no query and for one whose values are all undefined", () => {
    expect(encodeQuery(undefined)).toBe("");
    expect(encodeQuery({})).toBe("");
    expect(encodeQuery({ fields: undefined, svm: { name: undefined } })).toBe("");
  });

  it("writes scalars as text, arrays joined with `,`, nested objects as dotted names, in the order given", () => {
    expect(
      encodeQuery({
        fields: ["name", "uuid", "space.size"],
        svm: { name: "svm1", uuid: undefined },
        max_records: 10,
        return_records: false,
        space: { size: { hard_limit: ">1G" } },
        order_by: "size desc",
      }),
    ).toBe(
      "fields=name,uuid,space.size&svm.name=svm1&max_records=10&return_records=false&space.size.hard_limit=%3E1G&order_by=size%20desc",
    );
    // A dotted key as given, and the same filter written nested, encode alike.
    expect(encodeQuery({ "volume.name": "vol1" })).toBe(encodeQuery({ volume: { name: "vol1" } }));
    expect(encodeQuery({ ids: [1, 2, true] })).toBe("ids=1,2,true");
    expect(encodeQuery({ name: [] })).toBe("name=");
  });

  it("keeps the API's `,`, `|`, `:` and `*` readable and percent-encodes the rest, in names too", () => {
    expect(encodeQuery({ name: "vs1|vs2", "svm.name": "!null", comment: "a*b" })).toBe(
      "name=vs1|vs2&svm.name=!null&comment=a*b",
    );
    expect(encodeQuery({ create_time: ">=2026-01-01T00:00:00Z" })).toBe("create_time=%3E%3D2026-01-01T00:00:00Z");
    expect(encodeQuery({ "a&b": "c=d", "e f": "g+h#i/j?k" })).toBe("a%26b=c%3Dd&e%20f=g%2Bh%23i%2Fj%3Fk");
    expect(encodeQuery({ comment: "%41" })).toBe("comment=%2541");
  });

  it("encodes unicode as UTF-8", () => {
    expect(encodeQuery({ comment: "é" })).toBe("comment=%C3%A9");
    expect(encodeQuery({ "données.nom": "卷🙂" })).toBe("donn%C3%A9es.nom=%E5%8D%B7%F0%9F%99%82");
  });

  it("refuses a lone surrogate in a name or a value with a StorageCodecError naming the parameter", () => {
    for (const [query, name] of [
      [{ comment: "a\uD800" }, "comment"],
      [{ comment: "\uDC00b" }, "comment"],
      [{ svm: { name: ["ok", "x\uDBFFy"] } }, "svm.name"],
      [{ "bad\uD83D": "v" }, "bad\uD83D"],
    ] as const) {
      const e = codecError(() => encodeQuery(query));
      expect(e.path).toBe(name);
      expect(e.reason).toMatch(/lone surrogate/);
    }
    // A surrogate pair is one character, and is sent.
    expect(encodeQuery({ comment: "\uD83D\uDE42" })).toBe("comment=%F0%9F%99%82");
  });

  it("refuses return_timeout outside 0..120 whole seconds, naming it, and takes the edges", () => {
    expect(encodeQuery({ return_timeout: 0 })).toBe("return_timeout=0");
    expect(encodeQuery({ return_timeout: 120 })).toBe("return_timeout=120");
    for (const bad of [-1, 121, 600, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "15", true]) {
      const e = codecError(() => encodeQuery({ return_timeout: bad }));
      expect(e.path).toBe("return_timeout");
      expect(e.reason).toBe(`must be an integer number of seconds in 0..120, got ${JSON.stringify(bad)}`);
    }
  });

  it("refuses a max_records that is not a positive integer, naming it", () => {
    expect(encodeQuery({ max_records: 1 })).toBe("max_records=1");
    expect(encodeQuery({ max_records: 1_000_000 })).toBe("max_records=1000000");
    for (const bad of [0, -5, 2.5, Number.NaN, "10", false]) {
      const e = codecError(() => encodeQuery({ max_records: bad }));
      expect(e.path).toBe("max_records");
      expect(e.message).toBe(`max_records: must be a positive integer, got ${JSON.stringify(bad)}`);
    }
  });

  it("checks only the top-level control parameters: a nested one is a filter on that field", () => {
    expect(encodeQuery({ space: { return_timeout: 999 } })).toBe("space.return_timeout=999");
  });

  it("decodes back to the same pairs, for any names and values", () => {
    const text = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 6 }), (query) => {
        const encoded = encodeQuery(query);
        expect(encoded).toMatch(/^[A-Za-z0-9\-_.!~*'()%,|:=&]*$/);
        const decoded = [...new URLSearchParams(encoded)];
        expect(decoded).toEqual(Object.entries(query).map(([k, v]) => [k, String(v)]));
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe("queryFilters", () => {
  it("keeps the filters, flattened, and leaves out the control parameters", () => {
    expect(
      queryFilters({
        fields: "*",
        max_records: 5,
        return_records: true,
        return_timeout: 15,
        order_by: ["name", "size desc"],
        ignore_unknown_fields: true,
        svm: { name: "svm1" },
        "volume.name": "vol*",
        type: ["tree", "user"],
        comment: undefined,
      }),
    ).toEqual([
      ["svm.name", "svm1"],
      ["volume.name", "vol*"],
      ["type", "tree,user"],
    ]);
  });

  it("is empty for a query of control parameters only, so a bulk change can tell it matches everything", () => {
    expect(queryFilters({})).toEqual([]);
    expect(queryFilters({ fields: "**", return_timeout: 0, offset: undefined })).toEqual([]);
  });

  it("a control parameter's name nested under a field is a filter on that field", () => {
    expect(queryFilters({ svm: { fields: "x" } })).toEqual([["svm.fields", "x"]]);
  });
});

describe("the Query type", () => {
  it("takes the documented parameters with their types, and any other key as a filter", () => {
    expectTypeOf<{ fields: ["name", "uuid"]; max_records: 10; "svm.name": "svm1" }>().toMatchTypeOf<Query>();
    expectTypeOf<{ max_records: "10" }>().not.toMatchTypeOf<Query>();
    expectTypeOf<{ return_records: 1 }>().not.toMatchTypeOf<Query>();
    expectTypeOf<{ svm: { name: "svm1" } }>().toMatchTypeOf<QueryObject>();
    expectTypeOf<{ when: Date }>().not.toMatchTypeOf<QueryObject>();
  });
});
