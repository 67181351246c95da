// The reference server's body checks (src/storage/server/values.ts): its own Size and duration
// readers, the small schema language of POST/PATCH bodies with the API's error codes and the
// field each refusal names, and dotted keys expanded into objects. The server shares no code with
// the codecs on purpose; the properties below hold the two Size and duration readers to each other.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDuration, parseSize } from "../../../src/storage/index.js";
import { HttpError } from "../../../src/storage/server/errors.js";
import type { Json } from "../../../src/storage/server/json.js";
import {
  arr,
  bool,
  expandDottedKeys,
  flag,
  formatDurationSeconds,
  int,
  num,
  obj,
  parseDurationSeconds,
  parseSizeValue,
  ref,
  size,
  str,
  sub,
  text,
  validate,
  validateBody,
} from "../../../src/storage/server/values.js";
import { propertyRuns } from "../../support/property-runs.js";

const GiB = 1024 ** 3;

function refusal(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  throw new Error("expected an HttpError");
}
const fields = (e: HttpError) => [e.status, e.code, e.target];

/** What the codecs' parseSize makes of a value: bytes, or undefined where it refuses it. */
const codecSize = (v: unknown): number | undefined => {
  try {
    return parseSize(v);
  } catch {
    return undefined;
  }
};

describe("parseSizeValue", () => {
  it("reads digits with an optional binary suffix, in any case", () => {
    expect(parseSizeValue("4096")).toBe(4096);
    expect(parseSizeValue("40M")).toBe(41_943_040);
    expect(parseSizeValue("1g")).toBe(GiB);
    expect(parseSizeValue("1mb")).toBe(1024 ** 2);
    expect(parseSizeValue("512B")).toBe(512);
    expect(parseSizeValue("2KB")).toBe(2048);
    expect(parseSizeValue("1T")).toBe(1024 ** 4);
    expect(parseSizeValue("7P")).toBe(7 * 1024 ** 5);
    expect(parseSizeValue(0)).toBe(0);
    expect(parseSizeValue(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("refuses anything else, and any size past 2^53 - 1 rather than rounding it", () => {
    for (const v of [
      "8P",
      "1.5G",
      "10KiB",
      "10X",
      "1E",
      "G",
      "B",
      "",
      " 1G",
      "1G ",
      "1_000",
      "+1",
      "-5",
      "١٢",
      12.5,
      -2,
      Number.MAX_SAFE_INTEGER + 1,
      Number.NaN,
      true,
      null,
      ["1G"],
    ])
      expect(parseSizeValue(v), JSON.stringify(v)).toBeUndefined();
  });

  it("takes -1 (unlimited) only when allowed", () => {
    expect(parseSizeValue(-1)).toBeUndefined();
    expect(parseSizeValue("-1")).toBeUndefined();
    expect(parseSizeValue(-1, true)).toBe(-1);
    expect(parseSizeValue("-1", true)).toBe(-1);
    expect(parseSizeValue(-2, true)).toBeUndefined();
  });

  it("agrees with the codecs' parseSize on every value", () => {
    const suffix = fc.constantFrom("", "b", "B", "k", "K", "KB", "mb", "G", "gb", "T", "P", "pb", "X", "iB", "E");
    const value = fc.oneof(
      fc.tuple(fc.stringMatching(/^[0-9]{1,17}$/), suffix).map(([d, s]) => d + s),
      fc.string({ maxLength: 6 }),
      fc.integer({ min: -3, max: 2 ** 40 }),
      fc.double(),
    );
    fc.assert(
      fc.property(value, (v) => {
        // As JSON writes them: -0 and 0 are one size.
        expect(JSON.stringify(parseSizeValue(v)), String(v)).toBe(JSON.stringify(codecSize(v)));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe("durations", () => {
  it("formatDurationSeconds writes P[nD][T[nH][nM][nS]], with PT0S for nothing", () => {
    const cases: [number, string][] = [
      [0, "PT0S"],
      [59, "PT59S"],
      [60, "PT1M"],
      [3_600, "PT1H"],
      [3_661, "PT1H1M1S"],
      [86_400, "P1D"],
      [86_401, "P1DT1S"],
      [90_061, "P1DT1H1M1S"],
      [59.9, "PT59S"],
      [-5, "PT0S"],
    ];
    for (const [seconds, iso] of cases) expect(formatDurationSeconds(seconds), String(seconds)).toBe(iso);
  });

  it("parseDurationSeconds reads integer D, H, M, S parts, not normalised, and refuses the rest", () => {
    expect(parseDurationSeconds("PT1H10M")).toBe(4_200);
    expect(parseDurationSeconds("PT90M")).toBe(5_400);
    expect(parseDurationSeconds("P1D")).toBe(86_400);
    expect(parseDurationSeconds("P2DT3S")).toBe(172_803);
    expect(parseDurationSeconds("PT0S")).toBe(0);
    for (const v of ["P", "PT", "P1DT", "T1H", "1H10M", "P1M", "P1Y", "P1W", "PT1.5S", "pt1h", "PT1H ", "PT-1S"])
      expect(parseDurationSeconds(v), v).toBeUndefined();
  });

  it("reads back what it writes, and agrees with the codecs' parseDuration", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (seconds) => {
        const iso = formatDurationSeconds(seconds);
        expect(parseDurationSeconds(iso)).toBe(seconds);
        expect(parseDuration(iso)).toBe(seconds);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe("validate", () => {
  it("strings: the type, an enum and a length limit", () => {
    expect(validate("linux", str({ enum: ["linux", "vmware"] }), "os_type")).toBe("linux");
    const wrongType = refusal(() => validate(5, str(), "comment"));
    expect([...fields(wrongType), wrongType.message]).toEqual([
      400,
      "2",
      "comment",
      'Field "comment" must be a string, not number.',
    ]);
    expect(refusal(() => validate("aix", str({ enum: ["linux", "vmware"] }), "os_type")).message).toBe(
      'Field "os_type" must be one of linux, vmware.',
    );
    expect(validate("é".repeat(3), str({ maxLength: 3 }), "c")).toBe("ééé");
    expect(fields(refusal(() => validate("abcd", str({ maxLength: 3 }), "c")))).toEqual([400, "262197", "c"]);
  });

  it("booleans: strict, or with on/off/true/false in any case when lenient", () => {
    expect(validate(false, bool, "a")).toBe(false);
    expect(refusal(() => validate("true", bool, "a")).message).toBe('Field "a" must be a boolean, not string.');
    const lenient = { t: "boolean", lenient: true } as const;
    expect(["on", "ON", "true", "off", "False"].map((v) => validate(v, lenient, "user_mapping"))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(refusal(() => validate("yes", lenient, "user_mapping")).code).toBe("2");
    expect(refusal(() => validate(null, bool, "a")).message).toBe('Field "a" must be a boolean, not null.');
  });

  it("integers: safe integers, within the range", () => {
    expect(validate(60, int(1, 60), "m")).toBe(60);
    expect(validate(-7, int(), "m")).toBe(-7);
    for (const v of [1.5, 2 ** 53, "5"])
      expect(fields(refusal(() => validate(v, int(1, 60), "m")))).toEqual([400, "2", "m"]);
    const low = refusal(() => validate(0, int(1, 60), "m"));
    expect([low.code, low.message]).toEqual(["262197", 'Field "m" must be in the range 1..60.']);
    expect(refusal(() => validate(5, int(undefined, 4), "m")).message).toBe('Field "m" must be in the range -inf..4.');
  });

  it("sizes: normalised to bytes; -1 only where allowed", () => {
    expect(validate("1G", size(), "space.size")).toBe(GiB);
    expect(validate(-1, size(true), "space.hard_limit")).toBe(-1);
    expect(fields(refusal(() => validate(-1, size(), "space.size")))).toEqual([400, "2", "space.size"]);
  });

  it("seconds: a string of digits", () => {
    expect(validate("3600", { t: "seconds" }, "expiry_time.limit")).toBe(3_600);
    for (const v of [3_600, "1e3", "-1", "12345678901", ""])
      expect(refusal(() => validate(v, { t: "seconds" }, "expiry_time.limit")).code).toBe("2");
  });

  it("arrays and objects: each element and member checked, with its path", () => {
    const schema = obj({ origins: arr(obj({ volume: ref(), svm: ref() })) });
    expect(validate({ origins: [{ volume: { name: "v" } }] }, schema, "")).toEqual({
      origins: [{ volume: { name: "v" } }],
    });
    const deep = refusal(() => validate({ origins: [{ volume: { name: 1 } }] }, schema, ""));
    expect(fields(deep)).toEqual([400, "2", "origins[0].volume.name"]);
    expect(refusal(() => validate({ origins: {} }, schema, "")).message).toBe(
      'Field "origins" must be an array, not object.',
    );
    expect(refusal(() => validate([], schema, "")).message).toBe('Field "body" must be an object, not array.');
  });

  it("an unknown member is an unexpected argument; a known one the operation refuses is not allowed", () => {
    const schema = obj({ comment: str() }, ["uuid", "space"]);
    expect(fields(refusal(() => validate({ colour: "red" }, schema, "")))).toEqual([400, "262179", "colour"]);
    expect(fields(refusal(() => validate({ uuid: "x" }, schema, "")))).toEqual([400, "262196", "uuid"]);
    expect(fields(refusal(() => validate({ svm: { _links: {} } }, obj({ svm: ref() }), "")))).toEqual([
      400,
      "262196",
      "svm._links",
    ]);
    expect(fields(refusal(() => validate({ svm: { node: {} } }, obj({ svm: ref("node") }), "")))).toEqual([
      400,
      "262196",
      "svm.node",
    ]);
    expect(fields(refusal(() => validate({ svm: { other: 1 } }, obj({ svm: ref("node") }), "")))).toEqual([
      400,
      "262179",
      "svm.other",
    ]);
  });

  it("inherited names are unknown members, not fields", () => {
    const schema = obj({ comment: str() });
    for (const body of ['{"constructor": 1}', '{"toString": "x"}', '{"__proto__": {}}', '{"hasOwnProperty": 1}']) {
      expect(refusal(() => validate(JSON.parse(body) as Json, schema, "")).code, body).toBe("262179");
    }
  });
});

describe("expandDottedKeys", () => {
  it("expands dotted names into objects, merging with members given nested", () => {
    expect(expandDottedKeys({ "space.block_size": 512, space: { size: "1G" }, "svm.name": "svm1" })).toEqual({
      space: { block_size: 512, size: "1G" },
      svm: { name: "svm1" },
    });
    expect(expandDottedKeys({ origins: [{ "volume.name": "v" }] })).toEqual({ origins: [{ volume: { name: "v" } }] });
    expect(expandDottedKeys("x")).toBe("x");
  });

  it("refuses a member given twice, in two spellings", () => {
    const twice = refusal(() => expandDottedKeys({ space: { size: 1 }, "space.size": 2 }));
    expect([...fields(twice), twice.message]).toEqual([400, "2", "space.size", 'Field "space.size" is given twice.']);
    expect(refusal(() => expandDottedKeys({ space: 1, "space.size": 2 })).target).toBe("space");
    expect(refusal(() => expandDottedKeys({ "space.size": 2, space: { size: 1 } })).target).toBe("space.size");
    expect(refusal(() => expandDottedKeys({ origins: [{ volume: { name: "a" }, "volume.name": "b" }] })).target).toBe(
      "origins[0].volume.name",
    );
  });

  it("refuses empty segments, __proto__ segments and keys of more than 64 segments", () => {
    for (const key of ["a..b", ".a", "a.", "__proto__.polluted", "svm.__proto__"]) {
      expect(fields(refusal(() => expandDottedKeys({ [key]: 1 })))).toEqual([400, "262179", key]);
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const deepest = Array.from({ length: 64 }, () => "a").join(".");
    expect(() => expandDottedKeys({ [deepest]: 1 })).not.toThrow();
    expect(refusal(() => expandDottedKeys({ [`${deepest}.a`]: 1 })).code).toBe("262179");
  });
});

describe("validateBody", () => {
  it("takes a JSON object, dotted keys expanded, and refuses any other top-level value", () => {
    const schema = obj({ space: obj({ size: size() }) });
    expect(validateBody({ "space.size": "4K" }, schema)).toEqual({ space: { size: 4096 } });
    for (const body of [[], "x", 1, null, true] as Json[]) {
      const e = refusal(() => validateBody(body, schema));
      expect([...fields(e), e.message]).toEqual([400, "262186", "body", "The request body must be a JSON object."]);
    }
  });
});

describe("accessors", () => {
  it("read a member of the expected type, else undefined", () => {
    const o = { s: "x", n: 5, b: false, o: { a: 1 }, arr: [1] };
    expect([text(o, "s"), text(o, "n"), text(undefined, "s")]).toEqual(["x", undefined, undefined]);
    expect([num(o, "n"), num(o, "s")]).toEqual([5, undefined]);
    expect([flag(o, "b"), flag(o, "s")]).toEqual([false, undefined]);
    expect([sub(o, "o"), sub(o, "arr"), sub(o, "s")]).toEqual([{ a: 1 }, undefined, undefined]);
  });
});
