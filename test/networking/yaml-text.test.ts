import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "../../src/networking/model/errors.js";
import type { JsonValue } from "../../src/networking/model/json-value.js";
import { stringifyGoYaml } from "../../src/networking/text/yaml-emit.js";
import { parseYamlDocuments } from "../../src/networking/text/yaml-parse.js";

const FIXTURES = new URL("../../../shared/testdata/k8s-api/", import.meta.url);

/**
 * Test-only JSON reader that keeps integers beyond 2^53 exact (as bigint),
 * independent of the YAML code under test.
 */
function parseJsonExact(text: string): JsonValue {
  let i = 0;
  const ws = (): void => {
    while (/\s/.test(text[i] ?? "")) i++;
  };
  const value = (): JsonValue => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: { [k: string]: JsonValue } = {};
      ws();
      if (text[i] === "}") return i++, obj;
      for (;;) {
        ws();
        const k = value();
        if (typeof k !== "string") throw new Error(`bad key at ${i}`);
        ws();
        if (text[i++] !== ":") throw new Error(`expected : at ${i}`);
        Object.defineProperty(obj, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ",") i++;
        else if (text[i++] === "}") return obj;
        else throw new Error(`bad object at ${i}`);
      }
    }
    if (c === "[") {
      i++;
      const arr: JsonValue[] = [];
      ws();
      if (text[i] === "]") return i++, arr;
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i++] === "]") return arr;
        else throw new Error(`bad array at ${i}`);
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      if (!m) throw new Error(`bad string at ${i}`);
      i += m[0].length;
      return JSON.parse(m[0]) as string;
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)/.exec(text.slice(i));
    if (!m) throw new Error(`bad token at ${i}`);
    i += m[0].length;
    if (m[0] === "true" || m[0] === "false" || m[0] === "null") return JSON.parse(m[0]) as JsonValue;
    if (m[1] === undefined && m[2] === undefined) {
      const n = BigInt(m[0]);
      return Number.isSafeInteger(Number(n)) ? Number(n) : n;
    }
    return Number(m[0]);
  };
  const v = value();
  ws();
  if (i !== text.length) throw new Error(`trailing data at ${i}`);
  return v;
}

interface FixturePair {
  readonly name: string;
  readonly json: string;
  readonly yaml: string;
}

function fixturePairs(): FixturePair[] {
  const pairs: FixturePair[] = [];
  for (const folder of readdirSync(FIXTURES, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = new URL(`${folder.name}/`, FIXTURES);
    const files = new Set(readdirSync(dir));
    for (const f of [...files].sort()) {
      if (!f.endsWith(".json")) continue;
      const yamlName = f.replace(/\.json$/, ".yaml");
      if (!files.has(yamlName)) continue;
      pairs.push({
        name: `${folder.name}/${f.replace(/\.json$/, "")}`,
        json: readFileSync(new URL(f, dir), "utf8"),
        yaml: readFileSync(new URL(yamlName, dir), "utf8"),
      });
    }
  }
  return pairs;
}

const PAIRS = fixturePairs();

/** Asserts that `fn` throws a DecodeError and returns it. */
function decodeErrorOf(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return e as DecodeError;
  }
  throw new Error("expected a DecodeError");
}

describe("Kubernetes compatibility fixtures", () => {
  it("finds the fixtures (every folder, including after_roundtrip pairs)", () => {
    expect(fileURLToPath(FIXTURES)).toMatch(/shared[/\\]testdata[/\\]k8s-api[/\\]$/);
    expect(PAIRS.length).toBeGreaterThanOrEqual(30);
    expect(PAIRS.some((p) => p.name.includes("after_roundtrip"))).toBe(true);
    expect(new Set(PAIRS.map((p) => p.name.split("/")[0])).size).toBe(10);
  });

  describe.each(PAIRS.map((p) => [p.name, p] as const))("%s", (_name, pair) => {
    const expected = parseJsonExact(pair.json);

    it("stringifyGoYaml(json) equals the .yaml byte for byte", () => {
      expect(stringifyGoYaml(expected)).toBe(pair.yaml);
    });

    it("parseYamlDocuments(yaml) equals the .json value", () => {
      expect(parseYamlDocuments(pair.yaml)).toEqual([expected]);
    });

    it("parseYamlDocuments(json) equals the .json value (JSON is YAML, as JSONToYAML reads it)", () => {
      expect(parseYamlDocuments(pair.json)).toEqual([expected]);
    });
  });

  it("keeps int64 values beyond 2^53 exact (v1.19.0)", () => {
    const pair = PAIRS.find((p) => p.name === "v1.19.0/networking.k8s.io.v1.Ingress");
    const [doc] = parseYamlDocuments(pair?.yaml ?? "") as [{ metadata: { generation: unknown } }];
    expect(doc.metadata.generation).toBe(8071137005907523419n);
  });
});

/** The YAML go-yaml writes for `{k: value}`. */
const one = (value: JsonValue): string => stringifyGoYaml({ k: value });

describe("stringifyGoYaml: scalars that resolve to non-strings are double-quoted", () => {
  it.each([
    // YAML 1.1 booleans in the case variants go-yaml's resolve table lists.
    "true", "True", "TRUE", "false", "yes", "Yes", "YES", "no", "No", "NO",
    "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N",
    // Nulls.
    "null", "Null", "NULL", "~", "",
    // Integers: decimal, signed, hex, octal both ways, binary, underscores, uint64.
    "1", "-1", "+1", "0", "-0", "0x1F", "0777", "0o17", "0b101", "1_000", "1_", "18446744073709551615",
    // Floats, including `08` (invalid octal, valid float) and special values.
    "1e3", "1.5", "1.", ".5", "-.5", "08", ".inf", "-.Inf", "+.INF", ".nan", ".NaN",
    // Base 60 (quoted for YAML 1.1 readers although go-yaml does not resolve it).
    "1:20", "190:20:30", "-1:20.5",
    // Timestamps in the layouts go-yaml tries (short month/day fields allowed).
    "2008-01-01T01:01:01Z", "2008-01-01t01:01:01Z", "2008-01-01T01:01:01.123+02:00",
    "2008-01-01", "2008-1-1", "2008-01-01 01:01:01", "2008-01-01   01:01:01.5", "2000-02-29",
  ])("%j", (s) => {
    expect(one(s)).toBe(`k: "${s}"\n`);
  });
});

describe("stringifyGoYaml: look-alikes go-yaml leaves plain", () => {
  it.each([
    "yEs", "tRue", "nULL", "0x", "0b", "1e999", "+", "-x", "--x", "a:b", ":x", "?x", "a#b",
    "it's", "a\"b", "x[y]", "a,b", "0x1G", "1.2.3", "1:60", "x1:20",
    // Not valid Go timestamps: day out of range, no zone after a time, zone without colon, 5-digit year.
    "2008-02-30", "2007-02-29", "2008-13-01", "2008-01-01T01:01:01", "2008-01-01T01:01:01+0200", "20080-01-01",
    "2008-01-01T25:00:00Z",
    "héllo wörld", "日本語", "\u00a0nbsp", "\uFFFD",
  ])("%j", (s) => {
    expect(one(s)).toBe(`k: ${s}\n`);
  });
});

describe("stringifyGoYaml: single quotes when plain would not read back", () => {
  it.each([
    [" lead", "' lead'"],
    ["trail ", "'trail '"],
    ["a: b", "'a: b'"],
    ["key:", "'key:'"],
    ["- x", "'- x'"],
    ["-", "'-'"],
    ["? x", "'? x'"],
    ["#x", "'#x'"],
    ["a #b", "'a #b'"],
    ["'", "''''"],
    ["'quoted' text", "'''quoted'' text'"],
    ['"', `'"'`],
    ["@x", "'@x'"],
    ["`x", "'`x'"],
    ["%x", "'%x'"],
    ["%", "'%'"],
    ["&a", "'&a'"],
    ["*a", "'*a'"],
    ["!tag", "'!tag'"],
    ["|", "'|'"],
    [">", "'>'"],
    ["[x", "'[x'"],
    ["{x}", "'{x}'"],
    [",x", "',x'"],
    ["---", "'---'"],
    ["...x", "'...x'"],
    // U+2028 is a YAML 1.1 line break to go-yaml: it is written raw and the next
    // line is indented. Derived from the v2 emitter source, not from running Go.
    ["a\u2028b", "'a\u2028  b'"],
  ])("%j", (s, expected) => {
    expect(one(s)).toBe(`k: ${expected}\n`);
  });
});

describe("stringifyGoYaml: double quotes for characters libyaml will not print", () => {
  it.each([
    ["tab\there", '"tab\\there"'],
    ["a\u0001b", '"a\\x01b"'],
    ["\u0000", '"\\0"'],
    ["\u0007\u0008\u000b\u000c\r\u001b", '"\\a\\b\\v\\f\\r\\e"'],
    ["\u007f", '"\\x7F"'],
    ["\u0085", '"\\N"'],
    ["\u009f", '"\\x9F"'],
    ["a\ufeff", '"a\\uFEFF"'],
    // go-yaml's BOM check reads the first character of the value instead of
    // the current one, so a leading BOM escapes everything after it as well.
    ["\ufeffb o", '"\\uFEFF\\x62\\x20\\x6F"'],
    ["\uffff", '"\\uFFFF"'],
    // Everything above the BMP is escaped, so emoji are never written raw.
    ["\u{1F600}", '"\\U0001F600"'],
    ["é\u{1F600}", '"é\\U0001F600"'],
    // Once double-quoted, quotes and backslashes are escaped too.
    ['\t"\\', '"\\t\\"\\\\"'],
    // Lone surrogates cannot exist in Go strings; its JSON decoder makes them U+FFFD.
    ["\ud800", "\uFFFD"],
  ])("%j", (s, expected) => {
    expect(one(s)).toBe(`k: ${expected}\n`);
  });
});

describe("stringifyGoYaml: multi-line strings", () => {
  it.each([
    ["multi\nline", "|-\n  multi\n  line\n"],
    ["trailing\n", "|\n  trailing\n"],
    ["keep\n\n", "|+\n  keep\n\n"],
    ["\nlead", "|2-\n\n  lead\n"],
    [" lead\nx", "|2-\n   lead\n  x\n"],
    ["a\n b", "|-\n  a\n   b\n"],
    ["a\n\nb", "|-\n  a\n\n  b\n"],
    ["\n", "|2+\n\n"],
    // A space before a break or a non-printable character rules out block style.
    ["a \nb", '"a \\nb"\n'],
    ["a\tb\nc", '"a\\tb\\nc"\n'],
    ["a\r\nb", '"a\\r\\nb"\n'],
  ])("%j", (s, expected) => {
    expect(one(s)).toBe(`k: ${expected}`);
  });

  it("follows the nesting indentation", () => {
    expect(stringifyGoYaml({ a: { b: ["x\ny"] } })).toBe("a:\n  b:\n  - |-\n    x\n    y\n");
  });

  it("writes a multi-line key as an explicit `?` key", () => {
    expect(stringifyGoYaml({ "a\nb": "v" })).toBe("? |-\n  a\n  b\n: v\n");
  });
});

describe("stringifyGoYaml: folding at width 80 (go-yaml v2.4 default)", () => {
  // Ten columns per word plus its space, which keeps the arithmetic checkable:
  // go-yaml breaks at the first single space found once the column exceeds 80.
  const words = (n: number): string => Array.from({ length: n }, () => "abcdefghi").join(" ");

  it("folds a long plain value; continuation lines are indented by 2", () => {
    // "description: " is 13 columns: after 7 words the column is 82 > 80.
    // Continuation lines start at 2: after 8 words the column is 81 > 80.
    expect(stringifyGoYaml({ description: words(20) })).toBe(
      `description: ${words(7)}\n  ${words(8)}\n  ${words(5)}\n`,
    );
  });

  it("never breaks a long value without spaces", () => {
    const s = "x".repeat(200);
    expect(one(s)).toBe(`k: ${s}\n`);
  });

  it("does not break at a run of spaces", () => {
    // After 7 words the next space is followed by another, so no break there;
    // the next single space comes after "abcdefghi" at column 93.
    const s = `${words(7)}  ${words(3)}`;
    expect(stringifyGoYaml({ description: s })).toBe(`description: ${words(7)}  abcdefghi\n  ${words(2)}\n`);
  });

  it("folds single-quoted values", () => {
    // "description: '" + leading space: after 7 words the column is 84.
    expect(stringifyGoYaml({ description: ` ${words(20)}` })).toBe(
      `description: ' ${words(7)}\n  ${words(8)}\n  ${words(5)}'\n`,
    );
  });

  it("folds double-quoted values, escaping a space that starts the next line", () => {
    // "description: \"\\t" is 16 columns: after 7 words the column is 85.
    expect(stringifyGoYaml({ description: `\t${words(20)}` })).toBe(
      `description: "\\t${words(7)}\n  ${words(8)}\n  ${words(5)}"\n`,
    );
    expect(stringifyGoYaml({ description: `\t${words(7)}  ${words(2)}` })).toBe(
      `description: "\\t${words(7)}\n  \\ ${words(2)}"\n`,
    );
  });

  it("uses an explicit key for keys over 128 bytes, folding it like a value", () => {
    const long = words(15); // 149 bytes
    expect(stringifyGoYaml({ [long]: "v" })).toBe(`? ${words(8)}\n  ${words(7)}\n: v\n`);
    const exactly128 = "k".repeat(128);
    expect(stringifyGoYaml({ [exactly128]: "v" })).toBe(`${exactly128}: v\n`);
    const multibyte = "é".repeat(65); // 130 bytes, 65 characters
    expect(stringifyGoYaml({ [multibyte]: "v" })).toBe(`? ${multibyte}\n: v\n`);
  });

  it("does not fold simple keys", () => {
    const key = words(12); // 119 bytes, simple key
    expect(stringifyGoYaml({ [key]: "v" })).toBe(`${key}: v\n`);
  });
});

describe("stringifyGoYaml: numbers, booleans, null, collections", () => {
  it.each<[JsonValue, string]>([
    [1, "1"],
    [-5, "-5"],
    [0, "0"],
    [-0, "0"], // JSON "-0" reads back as the Go int 0
    [1.5, "1.5"],
    [123456.7, "123456.7"],
    // Go's shortest %g switches to exponent form at 1e6 and below 1e-4.
    [1234567.5, "1.2345675e+06"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1e21, "1e+21"],
    [2 ** 60, "1152921504606846976"],
    [8071137005907523419n, "8071137005907523419"],
    [-4955867275792137171n, "-4955867275792137171"],
    [2n ** 63n, "9223372036854775808"], // uint64
    [2n ** 64n - 1n, "18446744073709551615"],
    [2n ** 64n, "1.8446744073709552e+19"], // beyond uint64: a float64
    [-(2n ** 63n), "-9223372036854775808"],
    [-(2n ** 63n) - 1n, "-9.223372036854776e+18"],
    [Number.NaN, ".nan"],
    [Number.POSITIVE_INFINITY, ".inf"],
    [true, "true"],
    [false, "false"],
    [null, "null"],
    [{}, "{}"],
    [[], "[]"],
  ])("%s", (v, expected) => {
    expect(one(v)).toBe(`k: ${expected}\n`);
  });

  it("writes root scalars and empty collections", () => {
    expect(stringifyGoYaml(null)).toBe("null\n");
    expect(stringifyGoYaml("x")).toBe("x\n");
    expect(stringifyGoYaml("true")).toBe('"true"\n');
    expect(stringifyGoYaml("multi\nline")).toBe("|-\n  multi\n  line\n");
    expect(stringifyGoYaml({})).toBe("{}\n");
    expect(stringifyGoYaml([])).toBe("[]\n");
    expect(stringifyGoYaml([[], {}])).toBe("- []\n- {}\n");
  });

  it("does not indent sequences under a key; indents nested ones", () => {
    expect(stringifyGoYaml({ a: [{ b: 1, c: [1, 2] }], d: [[1, 2], 3], e: { f: [] } })).toBe(
      "a:\n- b: 1\n  c:\n  - 1\n  - 2\nd:\n- - 1\n  - 2\n- 3\ne:\n  f: []\n",
    );
  });

  it("sorts keys like go-yaml v2 (letters after other characters, digit runs by value), not by bytes", () => {
    const keys = ["b", "a10", "a9", "_x", "Zed", "a", "a:b", "a1", "~"];
    const obj = Object.fromEntries(keys.map((k) => [k, 1]));
    expect(stringifyGoYaml(obj)).toBe('_x: 1\n"~": 1\nZed: 1\na: 1\na:b: 1\na1: 1\na9: 1\na10: 1\nb: 1\n');
  });

  it("orders keys as go-yaml's own sort test expects", () => {
    // String keys of TestSortedOutput in go-yaml (encode_test.go), in the expected order.
    const order = [
      "", ".1", ".2", ".a", "1", "2", "a!10", "a/0001", "a/002", "a/3", "a/10", "a/11", "a/0012", "a/100", "a~10",
      "ab/1", "b/1", "b/01", "b/2", "b/02", "b/3", "b/03", "b1", "b01", "b3", "c2.10", "c10.2", "d1", "d7", "d7abc",
      "d12", "d12a", "e2b", "e4b", "e21a",
    ];
    const shuffled = [...order].reverse();
    const text = stringifyGoYaml(Object.fromEntries(shuffled.map((k) => [k, 1])));
    const keys = text
      .trimEnd()
      .split("\n")
      .map((line) => line.slice(0, line.lastIndexOf(":")).replace(/^"(.*)"$/, "$1"));
    expect(keys).toEqual(order);
  });

  it("rejects values JSON cannot hold", () => {
    const cyclic: { [k: string]: JsonValue } = {};
    cyclic["self"] = cyclic;
    expect(decodeErrorOf(() => stringifyGoYaml(cyclic)).reason).toMatch(/cyclic/);
    expect(decodeErrorOf(() => stringifyGoYaml({ f: (() => 1) as unknown as JsonValue })).path).toBe("f");
  });

  it("skips object properties that are undefined, as JSON.stringify does", () => {
    expect(stringifyGoYaml({ a: 1, b: undefined as unknown as JsonValue })).toBe("a: 1\n");
  });
});

describe("parseYamlDocuments: YAML 1.1 resolution as go-yaml v2 does it", () => {
  it.each<[string, JsonValue]>([
    ["yes", true],
    ["Off", false],
    ["y", true],
    ["N", false],
    ["TRUE", true],
    ["~", null],
    ["null", null],
    ["", null],
    ["0777", 511],
    ["0o17", 15],
    ["0x1F", 31],
    ["0b101", 5],
    ["-0b101", -5],
    ["1_000", 1000],
    ["+12", 12],
    ["-0", 0],
    ["1.5", 1.5],
    ["1e3", 1000],
    [".5", 0.5],
    ["08", 8],
    ["9007199254740993", 9007199254740993n],
    ["9223372036854775807", 9223372036854775807n],
    ["18446744073709551615", 18446744073709551615n],
    ["18446744073709551616", 18446744073709551616], // past uint64: a float64
    ["-9223372036854775809", -9223372036854775809],
    // Strings, including unquoted timestamps (go-yaml keeps their text).
    ["2008-01-01T01:01:01Z", "2008-01-01T01:01:01Z"],
    ["2001-12-14 21:59:43.10 -5", "2001-12-14 21:59:43.10 -5"],
    ["1:20", "1:20"],
    ["1e999", "1e999"],
    ["yEs", "yEs"],
    ['"true"', "true"],
    ["'123'", "123"],
    ["!!str 123", "123"],
    ["!!int '12'", 12],
    ["!!float 1", 1],
    ["!!binary aGVsbG8=", "hello"],
    ["!custom x", "x"],
    ["! 12", "12"],
  ])("v: %s", (text, expected) => {
    expect(parseYamlDocuments(`v: ${text}\n`)).toEqual([{ v: expected }]);
  });

  it("converts non-string keys the way Go does", () => {
    expect(parseYamlDocuments("1: a\ntrue: b\n1.5: c\n0x10: d\n3.14159265358979: e\n2008-01-01: f\n")).toEqual([
      // Float keys are formatted at 32-bit precision by sigs.k8s.io/yaml.
      { "1": "a", true: "b", "1.5": "c", "16": "d", "3.1415927": "e", "2008-01-01": "f" },
    ]);
    // YAML 1.1: an unquoted y/n key is a bool, so it becomes "true"/"false".
    expect(parseYamlDocuments("y: 1\nn: 0\n")).toEqual([{ true: 1, false: 0 }]);
    expect(decodeErrorOf(() => parseYamlDocuments("~: x\n")).reason).toMatch(/null/);
    expect(decodeErrorOf(() => parseYamlDocuments("? [a]\n: x\n")).reason).toMatch(/invalid map key/);
    expect(decodeErrorOf(() => parseYamlDocuments("18446744073709551615: x\n")).reason).toMatch(/uint64/);
  });

  it("reads multi-document streams and skips empty or null documents", () => {
    expect(parseYamlDocuments("a: 1\n---\n---\n~\n--- null\n---\n# only a comment\n---\nb: 2\n...\n")).toEqual([
      { a: 1 },
      { b: 2 },
    ]);
    expect(parseYamlDocuments("")).toEqual([]);
    expect(parseYamlDocuments("--- ''\n")).toEqual([""]);
  });

  it("expands anchors, aliases and merge keys", () => {
    expect(parseYamlDocuments("a: &x [1, 2]\nb: *x\n")).toEqual([{ a: [1, 2], b: [1, 2] }]);
    // go-yaml v2 applies entries in document order: a merge after an explicit
    // key replaces it, and in a merge sequence the earlier maps win.
    expect(
      parseYamlDocuments("base: &b {x: 1, v: 2}\nother: &o {z: 0}\nd:\n  v: 3\n  <<: [*b, *o, {x: 9, w: 4}]\n", { uniqueKeys: false }),
    ).toEqual([{ base: { x: 1, v: 2 }, other: { z: 0 }, d: { v: 2, x: 1, z: 0, w: 4 } }]);
    expect(parseYamlDocuments("b: &b {v: 2, w: 1}\nd:\n  <<: *b\n  v: 3\n", { uniqueKeys: false })).toEqual([{ b: { v: 2, w: 1 }, d: { v: 3, w: 1 } }]);
    // Strict decoding rejects a key set twice, whether written or merged.
    expect(decodeErrorOf(() => parseYamlDocuments("b: &b {v: 2}\nd:\n  v: 3\n  <<: *b\n")).reason).toMatch(/already set/);
    expect(decodeErrorOf(() => parseYamlDocuments("b: &b {v: 2}\nd:\n  <<: *b\n  v: 3\n")).reason).toMatch(/already defined/);
    expect(parseYamlDocuments("b: &b {v: 2}\nd:\n  <<: *b\n  w: 3\n")).toEqual([{ b: { v: 2 }, d: { v: 2, w: 3 } }]);
    expect(decodeErrorOf(() => parseYamlDocuments("a: 1\n<<: 2\n")).reason).toMatch(/map merge/);
  });

  it("returns objects that keep __proto__ as an own key and do not pollute prototypes", () => {
    const [doc] = parseYamlDocuments('__proto__: {polluted: true}\n"constructor": {prototype: {polluted: true}}\n');
    const obj = doc as { [k: string]: JsonValue };
    expect(Object.prototype.hasOwnProperty.call(obj, "__proto__")).toBe(true);
    expect(Object.keys(obj)).toEqual(["__proto__", "constructor"]);
    expect(obj["__proto__"]).toEqual({ polluted: true });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
    expect(stringifyGoYaml(doc ?? null)).toBe(
      "__proto__:\n  polluted: true\nconstructor:\n  prototype:\n    polluted: true\n",
    );
  });
});

describe("parseYamlDocuments: errors are DecodeError with a location", () => {
  it("reports syntax errors with 1-based line and column", () => {
    // DecodeError.document is 1-based: the error is in the second document.
    const e = decodeErrorOf(() => parseYamlDocuments("ok: 1\n---\na: [1, 2\nb: 3\n"));
    expect(e.format).toBe("yaml");
    expect(e.document).toBe(2);
    expect(e.line).toBe(4);
    expect(e.column).toBe(1);
    expect(e.offset).toBe(19);
    expect(e.message).toContain("document 2, line 4, column 1");

    // Reported where the input ends, after the line break; the first document is 1.
    const u = decodeErrorOf(() => parseYamlDocuments('a: "unterminated\n'));
    expect([u.document, u.line, u.column]).toEqual([1, 2, 1]);
    expect(u.message).toMatch(/^yaml decode error at document 1, line 2, column 1: /);

    const tabs = decodeErrorOf(() => parseYamlDocuments("a:\n\t- b\n"));
    expect(tabs.line).toBe(2);
  });

  it("rejects what go-yaml's reader and directive parser reject", () => {
    const ctl = decodeErrorOf(() => parseYamlDocuments("a: 1\n---\nb: x\u0001y\n"));
    expect([ctl.reason, ctl.document, ctl.line, ctl.column]).toEqual(["control characters are not allowed", 2, 3, 5]);
    expect(decodeErrorOf(() => parseYamlDocuments("a: \ud800\n")).column).toBe(4);
    const v12 = decodeErrorOf(() => parseYamlDocuments("%YAML 1.2\n---\na: 1\n"));
    expect(v12.reason).toBe("found incompatible YAML document");
    const unknown = decodeErrorOf(() => parseYamlDocuments("%FOO bar\n---\na: 1\n"));
    expect(unknown.reason).toBe("found unknown directive name");
    expect(parseYamlDocuments("%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\na: !e!x yes\nb: on\n")).toEqual([
      { a: "yes", b: true },
    ]);
    // Tab, CR, a leading BOM and characters beyond the BMP are fine.
    expect(parseYamlDocuments("\ufeffa: \"\t\u{1F600}\"\r\n")).toEqual([{ a: "\t\u{1F600}" }]);
  });

  it("rejects duplicate keys with the line of the duplicate (uniqueKeys, the default)", () => {
    const e = decodeErrorOf(() => parseYamlDocuments("a: 1\nb: 2\na: 3\n"));
    expect(e.reason).toMatch(/"a" already defined/);
    expect([e.document, e.line, e.column]).toEqual([1, 3, 1]);
    expect(decodeErrorOf(() => parseYamlDocuments("a: 1\nb: 2\na: 3\n", { uniqueKeys: true })).line).toBe(3);
    // In a nested flow mapping of a later document.
    const nested = decodeErrorOf(() => parseYamlDocuments("x: 1\n---\nb: {c: 1, c: 2}\n"));
    expect([nested.document, nested.line, nested.column]).toEqual([2, 3, 11]);
    // Keys are compared after YAML 1.1 resolution: y and True are both the bool true.
    expect(decodeErrorOf(() => parseYamlDocuments("y: 1\nTrue: 2\n")).reason).toMatch(/"true" already defined/);
  });

  it("keeps the last of repeated keys with uniqueKeys: false (sigs.k8s.io/yaml YAMLToJSON)", () => {
    expect(parseYamlDocuments("a: 1\nb: 2\na: 3\n", { uniqueKeys: false })).toEqual([{ a: 3, b: 2 }]);
    expect(parseYamlDocuments("x: 1\n---\nb: {c: 1, c: 2}\nc: [1]\nc: {d: e}\n", { uniqueKeys: false })).toEqual([{ x: 1 }, { b: { c: 2 }, c: { d: "e" } }]);
    // Every value is still resolved, as go-yaml's resolver does: a bad one fails though replaced.
    expect(decodeErrorOf(() => parseYamlDocuments("a: !!int x\na: 1\n", { uniqueKeys: false })).reason).toMatch(/cannot decode !!str `x` as a !!int/);
    // The last explicit value also wins over a merge between the two.
    expect(parseYamlDocuments("b: &b {x: 1, w: 1}\nd:\n  x: 2\n  <<: *b\n  x: 3\n", { uniqueKeys: false })).toEqual([{ b: { x: 1, w: 1 }, d: { x: 3, w: 1 } }]);
  });

  it("rejects values JSON cannot represent and tags that do not fit", () => {
    expect(decodeErrorOf(() => parseYamlDocuments("a: .nan\n")).line).toBe(1);
    const tagged = decodeErrorOf(() => parseYamlDocuments("a: !!int abc\n"));
    expect(tagged.reason).toMatch(/cannot decode !!str `abc` as a !!int/);
    expect(decodeErrorOf(() => parseYamlDocuments("a: !!binary '%%%'\n")).reason).toMatch(/base64/);
  });

  it("rejects unknown and self-referencing aliases", () => {
    expect(decodeErrorOf(() => parseYamlDocuments("a: *nope\n")).line).toBe(1);
    expect(decodeErrorOf(() => parseYamlDocuments("a: &a [*a]\n"))).toBeInstanceOf(DecodeError);
  });

  it("limits nesting depth without overflowing the stack", () => {
    for (const text of [
      "[".repeat(10_000),
      "[".repeat(100_000) + "]".repeat(100_000),
      "- ".repeat(10_000) + "x\n",
      "{a: ".repeat(10_000) + "1" + "}".repeat(10_000),
      Array.from({ length: 3000 }, (_, i) => " ".repeat(i) + "k:").join("\n") + " x\n",
    ]) {
      const e = decodeErrorOf(() => parseYamlDocuments(text));
      expect(e.reason).toMatch(/nesting deeper than 100/);
      expect(e.line).toBeGreaterThanOrEqual(1);
    }
    expect(parseYamlDocuments("[".repeat(100) + "]".repeat(100))).toHaveLength(1);
    expect(decodeErrorOf(() => parseYamlDocuments("[".repeat(101) + "]".repeat(101))).column).toBe(101);
    expect(parseYamlDocuments("[[[1]]]", { maxDepth: 3 })).toEqual([[[[1]]]]);
    expect(decodeErrorOf(() => parseYamlDocuments("[[[1]]]", { maxDepth: 2 })).column).toBe(3);
    // Aliases cannot be used to build depth past the limit either.
    const viaAlias = `a: &a ${"[".repeat(60)}${"]".repeat(60)}\nb: ${"[".repeat(60)}*a${"]".repeat(60)}\n`;
    expect(decodeErrorOf(() => parseYamlDocuments(viaAlias)).reason).toMatch(/nesting/);
  });

  it("stops an alias bomb quickly", () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = "abcdefghi";
    for (let i = 1; i < names.length; i++) {
      const prev = names[i - 1] ?? "a";
      lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    const started = Date.now();
    const e = decodeErrorOf(() => parseYamlDocuments(lines.join("\n") + "\n"));
    expect(e.reason).toMatch(/excessive aliasing/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("rejects non-string input with a DecodeError", () => {
    expect(decodeErrorOf(() => parseYamlDocuments(42 as unknown as string)).reason).toMatch(/not a string/);
  });
});

describe("properties", () => {
  // fast-check 4 has no fullUnicodeString(); unit "binary" is its replacement
  // (any code point, no lone surrogates).
  // U+2028/U+2029 are excluded: go-yaml treats them as YAML 1.1 line breaks and
  // writes them raw (with indentation after them) in quoted scalars, which the
  // YAML 1.2 lexer of the `yaml` package reads as ordinary characters.
  // "<<" is excluded: go-yaml writes it as a plain key that reads back as a merge key.
  const unicode = fc.string({ unit: "binary" }).filter((s) => !/[\u2028\u2029]/.test(s));
  const key = fc.oneof(fc.string(), unicode).filter((s) => s !== "<<");

  it("round-trips maps of strings", () => {
    fc.assert(
      fc.property(fc.dictionary(key, fc.oneof(fc.string(), unicode)), (v) => {
        expect(parseYamlDocuments(stringifyGoYaml(v))[0]).toEqual(v);
      }),
      { numRuns: 2000 },
    );
  });

  it("round-trips long strings and nested values", () => {
    const text = fc.oneof(
      unicode,
      fc.array(fc.constantFrom("word", " ", "  ", "\n", "\t", "é", "x".repeat(30), ": ", "#", "'", '"'), {
        maxLength: 60,
      }).map((parts) => parts.join("")),
    );
    const { value } = fc.letrec<{ value: JsonValue }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text,
        fc.boolean(),
        fc.constant(null),
        fc.integer(),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }).filter((b) => !Number.isSafeInteger(Number(b))),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(value, (v) => {
        const text = stringifyGoYaml(v);
        const back = parseYamlDocuments(text);
        // A null root is an empty document, which is skipped.
        expect(back).toEqual(v === null ? [] : [v]);
      }),
      { numRuns: 1000 },
    );
  });

  it("never throws anything but DecodeError on random text", () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          "-", ":", " ", "\n", "\t", "[", "]", "{", "}", ",", "&a", "*a", "!!int", "!x", "?", "|", ">", "#",
          "'", '"', "\\", "%YAML 1.1\n", "---", "...", "<<", "a", "1", "0x", "~", "\u2028", "\u{1F600}",
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), yamlish), (text) => {
        try {
          parseYamlDocuments(text);
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError);
          expect((e as DecodeError).line ?? 1).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
