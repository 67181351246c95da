// The reference server's JSON machinery (src/storage/server/json.ts), in-process: the strict body
// parser (UTF-8 without BOM, no repeated key, at most 64 levels), dotted paths over own members
// only, `fields` projection with `*`, `**` and expensive fields, the filter grammar (`|`, `!`,
// `null`, `*`, comparisons) with its linear wildcard matcher, and `order_by`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../../src/storage/server/errors.js";
import {
  type FieldPolicy,
  type JsonObject,
  MAX_JSON_DEPTH,
  clone,
  compact,
  globMatch,
  isKnownPath,
  isObject,
  matchesFilter,
  omit,
  parseFields,
  parseFilter,
  parseJsonBody,
  parseOrderBy,
  pick,
  project,
  sortRecords,
  valuesAt,
} from "../../../src/storage/server/json.js";
import { propertyRuns } from "../../support/property-runs.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function refusal(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  throw new Error("expected an HttpError");
}

/** The refusal of a body, as [status, code, target, message]. */
const bodyRefusal = (raw: Uint8Array | string) => {
  const e = refusal(() => parseJsonBody(typeof raw === "string" ? bytes(raw) : raw));
  return [e.status, e.code, e.target, e.message];
};

const nested = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

describe("parseJsonBody", () => {
  it("parses a JSON body, unicode included", () => {
    expect(parseJsonBody(bytes('{"comment": "données ✓ 卷🙂", "n": [1, 2.5, null, true]}'))).toEqual({
      comment: "données ✓ 卷🙂",
      n: [1, 2.5, null, true],
    });
    expect(parseJsonBody(bytes('"just a string"'))).toBe("just a string");
  });

  it("refuses bytes that are not UTF-8, and a byte-order mark", () => {
    const notUtf8 = "The request body is not valid UTF-8.";
    expect(bodyRefusal(Uint8Array.from([0x7b, 0xff, 0x7d]))).toEqual([400, "262186", "body", notUtf8]);
    expect(bodyRefusal(Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22]))[3]).toBe(notUtf8);
    expect(bodyRefusal(Uint8Array.from([0x22, 0xc0, 0xaf, 0x22]))[3]).toBe(notUtf8);
    expect(bodyRefusal(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toEqual([
      400,
      "262186",
      "body",
      "The request body is not valid JSON.",
    ]);
  });

  it("refuses what is not JSON", () => {
    for (const raw of ["", "{", "{'a': 1}", '{"a": 1,}', '{"a": NaN}', "{}{}", '{"a": 0x10}', "undefined"]) {
      expect(bodyRefusal(raw), raw).toEqual([400, "262186", "body", "The request body is not valid JSON."]);
    }
  });

  it("refuses a key given twice in one object, however it is spelled, at any depth", () => {
    const twice = [400, "262186", "body", "The request body gives the same key twice in one object."];
    for (const raw of [
      '{"comment": "a", "comment": "b"}',
      '{"comment": "a", "\\u0063omment": "b"}',
      '{"é": 1, "\\u00e9": 2}',
      '{"space": {"size": 1, "size" : 2}}',
      '{"records": [{"a": 1}, {"b": 1, "b": 2}]}',
      '{"__proto__": {}, "__proto__": {}}',
    ])
      expect(bodyRefusal(raw), raw).toEqual(twice);
  });

  it("a key repeated in sibling objects, or a string that looks like a key, is no repeat", () => {
    expect(parseJsonBody(bytes('{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 3}, {"x": 4}]}'))).toMatchObject({
      c: [{ x: 3 }, { x: 4 }],
    });
    expect(parseJsonBody(bytes('{"a": "a", "b": ["a", "a"], "c": "\\"a\\": {[", "d": "}}]]"}'))).toEqual({
      a: "a",
      b: ["a", "a"],
      c: '"a": {[',
      d: "}}]]",
    });
  });

  it("takes 64 levels of nesting and refuses 65, objects and arrays alike", () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(() => parseJsonBody(bytes(nested(64)))).not.toThrow();
    expect(bodyRefusal(nested(65))).toEqual([
      400,
      "262186",
      "body",
      "The request body is nested deeper than 64 levels.",
    ]);
    expect(bodyRefusal(`${"[".repeat(65)}${"]".repeat(65)}`)[3]).toMatch(/deeper than 64/);
    expect(bodyRefusal(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)[3]).toMatch(/deeper than 64/);
  });

  it("keeps a __proto__ key an own member, and pollutes nothing", () => {
    const body = parseJsonBody(bytes('{"__proto__": {"polluted": true}}')) as JsonObject;
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("small helpers", () => {
  it("isObject, clone and compact", () => {
    expect([isObject({}), isObject([]), isObject(null), isObject("x")]).toEqual([true, false, false, false]);
    const original: JsonObject = { a: { b: [1] } };
    const copy = clone(original);
    (copy["a"] as { b: number[] }).b.push(2);
    expect(original).toEqual({ a: { b: [1] } });
    expect(compact({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
  });
});

describe("valuesAt", () => {
  const record: JsonObject = {
    name: "c1",
    svm: { name: "svm2" },
    origins: [{ volume: { name: "vol1" } }, { volume: { name: "vol3" } }, { svm: {} }],
    size: 0,
  };

  it("reads the values at a dotted path, through arrays", () => {
    expect(valuesAt(record, ["svm", "name"])).toEqual(["svm2"]);
    expect(valuesAt(record, ["origins", "volume", "name"])).toEqual(["vol1", "vol3"]);
    expect(valuesAt(record, ["size"])).toEqual([0]);
    expect(valuesAt(record, ["svm", "uuid"])).toEqual([]);
    expect(valuesAt(record, ["name", "length"])).toEqual([]);
    expect(valuesAt(undefined, ["a"])).toEqual([]);
  });

  it("follows own members only: no path reaches an inherited object", () => {
    expect(valuesAt(record, ["constructor"])).toEqual([]);
    expect(valuesAt(record, ["svm", "__proto__"])).toEqual([]);
    expect(valuesAt(record, ["svm", "constructor", "name"])).toEqual([]);
    expect(valuesAt(record, ["name", "toString"])).toEqual([]);
  });
});

describe("pick and omit", () => {
  const record: JsonObject = {
    uuid: "u",
    space: { size: 10, used: 5, guarantee: { type: "volume" } },
    origins: [{ volume: { name: "v1", uuid: "x" } }, { svm: { name: "s" } }],
  };

  it("pick keeps the subtrees at the paths, element by element through arrays, and copies them", () => {
    expect(pick(record, ["space.size", "space.guarantee"])).toEqual({
      space: { size: 10, guarantee: { type: "volume" } },
    });
    expect(pick(record, ["origins.volume.name"])).toEqual({ origins: [{ volume: { name: "v1" } }, {}] });
    expect(pick(record, ["space", "space.size"])).toEqual({ space: record["space"] });
    expect(pick(record, ["nothing.here"])).toEqual({});
    const picked = pick(record, ["space"]);
    (picked["space"] as JsonObject)["size"] = 99;
    expect((record["space"] as JsonObject)["size"]).toBe(10);
  });

  it("omit drops the paths, and parents left empty, from a copy", () => {
    expect(omit(record, ["space.used", "space.guarantee.type", "origins.volume.uuid"])).toEqual({
      uuid: "u",
      space: { size: 10 },
      origins: [{ volume: { name: "v1" } }, { svm: { name: "s" } }],
    });
    expect(omit(record, ["space.size", "space.used", "space.guarantee"])).toEqual({
      uuid: "u",
      origins: record["origins"],
    });
    expect((record["space"] as JsonObject)["used"]).toBe(5);
    expect(omit(record, ["constructor.name", "__proto__.x"])).toEqual(record);
  });
});

const POLICY: FieldPolicy = {
  known: ["uuid", "name", "size", "comment", "svm.name", "svm.uuid", "metric.iops", "statistics.latency"],
  expensive: ["metric", "statistics"],
  collectionDefault: ["name"],
  instanceIncludesExpensive: false,
  keys: ["uuid"],
};
const RECORD: JsonObject = {
  uuid: "u1",
  name: "ns1",
  size: 4096,
  comment: "c",
  svm: { name: "svm1", uuid: "s1" },
  metric: { iops: 5 },
  statistics: { latency: 1 },
  _links: { self: { href: "/api/x/u1" } },
};

describe("fields", () => {
  it("isKnownPath: a readable field, a parent of one, or a path inside one", () => {
    for (const p of ["name", "svm", "svm.name", "metric", "svm.name.first"])
      expect(isKnownPath(POLICY, p), p).toBe(true);
    for (const p of ["", "colour", "sv", "svm..name", ".name", "name.", "constructor"])
      expect(isKnownPath(POLICY, p), p).toBe(false);
  });

  it("parseFields splits the list, and refuses an unknown field unless told to ignore it", () => {
    expect(parseFields(undefined, POLICY, false)).toBeUndefined();
    expect(parseFields("  ", POLICY, false)).toBeUndefined();
    expect(parseFields(" name, svm.name,,*,** ", POLICY, false)).toEqual(["name", "svm.name", "*", "**"]);
    const e = refusal(() => parseFields("name,colour", POLICY, false));
    expect([e.status, e.code, e.target, e.message]).toEqual([
      400,
      "262179",
      "fields",
      'Unknown field "colour" in "fields".',
    ]);
    expect(parseFields("name,colour", POLICY, true)).toEqual(["name", "colour"]);
  });

  it("project: a collection gives keys, links and its defaults; an instance all but the expensive fields", () => {
    expect(project(RECORD, POLICY, undefined, "collection")).toEqual({
      uuid: "u1",
      name: "ns1",
      _links: RECORD["_links"],
    });
    const instance = project(RECORD, POLICY, undefined, "instance");
    expect(Object.keys(instance).sort()).toEqual(["_links", "comment", "name", "size", "svm", "uuid"]);
    expect(project(RECORD, { ...POLICY, instanceIncludesExpensive: true }, undefined, "instance")).toEqual(RECORD);
    // A filter's field comes along with the records it matched.
    expect(project(RECORD, POLICY, undefined, "collection", ["svm.name"])).toMatchObject({ svm: { name: "svm1" } });
    // "all": everything but the expensive fields.
    expect(project(RECORD, { ...POLICY, collectionDefault: "all" }, undefined, "collection")).toEqual(instance);
  });

  it("project with fields: the named ones, `*` for all but the expensive ones, `**` for everything", () => {
    expect(project(RECORD, POLICY, ["size"], "instance")).toEqual({ uuid: "u1", size: 4096, _links: RECORD["_links"] });
    const star = project(RECORD, POLICY, ["*"], "collection");
    expect(star).not.toHaveProperty("metric");
    expect(star).toMatchObject({ comment: "c", svm: { uuid: "s1" } });
    expect(project(RECORD, POLICY, ["*", "metric.iops"], "collection")).toMatchObject({ metric: { iops: 5 } });
    expect(project(RECORD, POLICY, ["**"], "collection")).toEqual(RECORD);
  });
});

describe("filters", () => {
  const rec: JsonObject = {
    name: "vol1",
    size: 100,
    state: "online",
    comment: null,
    origins: [{ volume: { name: "a1" } }, { volume: { name: "b2" } }],
  };
  const matches = (path: string, value: string, r: JsonObject = rec): boolean =>
    matchesFilter(r, parseFilter(path, value));

  it("parseFilter splits the alternatives at `|`", () => {
    expect(parseFilter("name", "a|b*|!c")).toEqual({ path: "name", alternatives: ["a", "b*", "!c"] });
  });

  it("an exact value matches case-sensitively; `|` lists alternatives, any of which may match", () => {
    expect(matches("name", "vol1")).toBe(true);
    expect(matches("name", "VOL1")).toBe(false);
    expect(matches("name", "x|vol1")).toBe(true);
    expect(matches("size", "100")).toBe(true);
  });

  it("`null` matches a missing or null value, `!` negates, and an even run of `!` does not", () => {
    expect(matches("comment", "null")).toBe(true);
    expect(matches("missing", "null")).toBe(true);
    expect(matches("name", "null")).toBe(false);
    expect(matches("name", "!null")).toBe(true);
    expect(matches("name", "!vol1")).toBe(false);
    expect(matches("name", "!!vol1")).toBe(true);
    expect(matches("name", `${"!".repeat(12_000)}vol1`)).toBe(true);
    expect(matches("name", `${"!".repeat(12_001)}vol1`)).toBe(false);
  });

  it("compares numbers as numbers and other values as text", () => {
    expect(matches("size", ">99")).toBe(true);
    expect(matches("size", "<=100")).toBe(true);
    expect(matches("size", "<100")).toBe(false);
    expect(matches("size", ">=1e3")).toBe(false);
    // "100" > "99" as numbers, though not as text.
    expect(matches("size", ">99")).toBe(true);
    expect(matches("name", ">vol")).toBe(true);
    expect(matches("name", "<vol")).toBe(false);
  });

  it("`*` stands for any run of characters", () => {
    expect(matches("name", "v*1")).toBe(true);
    expect(matches("name", "*")).toBe(true);
    expect(matches("name", "vol*2")).toBe(false);
    expect(matches("missing", "*")).toBe(false);
  });

  it("inside an array any element may match, and `!` means that none does", () => {
    expect(matches("origins.volume.name", "b2")).toBe(true);
    expect(matches("origins.volume.name", "!b2")).toBe(false);
    expect(matches("origins.volume.name", "!c3")).toBe(true);
    expect(matches("origins.volume.name", "a*")).toBe(true);
  });
});

describe("globMatch", () => {
  it("the wildcard matcher means what the regular expression meant", () => {
    const reference = (pattern: string, text: string): boolean =>
      new RegExp(
        `^${pattern
          .split("*")
          .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
        "s",
      ).test(text);
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "*", ".", "\n"), maxLength: 8 }),
        fc.string({ unit: fc.constantFrom("a", "b", ".", "\n"), maxLength: 10 }),
        (pattern, text) => {
          expect(globMatch(pattern, text)).toBe(reference(pattern, text));
        },
      ),
      { numRuns: propertyRuns(2_000) },
    );
    expect(globMatch(`${"*a".repeat(5_000)}*b`, "a".repeat(10_000))).toBe(false);
  });

  it("matches whole texts: literal characters, empty patterns and runs of stars", () => {
    expect(globMatch("", "")).toBe(true);
    expect(globMatch("", "a")).toBe(false);
    expect(globMatch("***", "")).toBe(true);
    expect(globMatch("a*", "abc")).toBe(true);
    expect(globMatch("*c", "abc")).toBe(true);
    expect(globMatch("a*c", "ac")).toBe(true);
    expect(globMatch("a*c", "abd")).toBe(false);
    expect(globMatch("a.c", "abc")).toBe(false);
    expect(globMatch("卷*", "卷🙂")).toBe(true);
  });
});

describe("order_by", () => {
  it("parseOrderBy reads `field [asc|desc]` items and refuses anything else", () => {
    expect(parseOrderBy(" size desc, name ,svm.name asc", POLICY)).toEqual([
      { path: "size", desc: true },
      { path: "name", desc: false },
      { path: "svm.name", desc: false },
    ]);
    for (const bad of ["colour", "name sideways", "name desc asc", "\u0000"]) {
      const e = refusal(() => parseOrderBy(bad, POLICY));
      expect([e.status, e.code, e.target], bad).toEqual([400, "2", "order_by"]);
    }
  });

  it("sortRecords sorts by each key in turn, numbers as numbers, missing values first", () => {
    const records: JsonObject[] = [
      { name: "b", size: 10 },
      { name: "a", size: 9 },
      { name: "c" },
      { name: "a", size: 100 },
    ];
    const names = (rs: JsonObject[]) => rs.map((r) => `${r["name"]}${r["size"] ?? ""}`);
    expect(names(sortRecords(records, [{ path: "size", desc: false }]))).toEqual(["c", "a9", "b10", "a100"]);
    expect(names(sortRecords(records, [{ path: "size", desc: true }]))).toEqual(["a100", "b10", "a9", "c"]);
    expect(
      names(
        sortRecords(records, [
          { path: "name", desc: false },
          { path: "size", desc: true },
        ]),
      ),
    ).toEqual(["a100", "a9", "b10", "c"]);
    // A copy is sorted; without an order the records come back as they were.
    expect(names(records)).toEqual(["b10", "a9", "c", "a100"]);
    expect(sortRecords(records, [])).toBe(records);
  });
});
