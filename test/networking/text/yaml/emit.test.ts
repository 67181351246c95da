// stringifyGoYaml: go-yaml v2's emitter, as sigs.k8s.io/yaml JSONToYAML uses it.

import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../../../src/networking/model/json-value.js";
import { stringifyGoYaml } from "../../../../src/networking/text/yaml/emit.js";
import { decodeError } from "../../../support/errors.js";

const one = (value: JsonValue): string => stringifyGoYaml({ k: value });

describe("stringifyGoYaml: scalars that resolve to non-strings are double-quoted", () => {
  it.each([
    // YAML 1.1 booleans in the case variants go-yaml's resolve table lists.
    "true",
    "True",
    "TRUE",
    "false",
    "yes",
    "Yes",
    "YES",
    "no",
    "No",
    "NO",
    "on",
    "On",
    "ON",
    "off",
    "Off",
    "OFF",
    "y",
    "Y",
    "n",
    "N",
    // Nulls.
    "null",
    "Null",
    "NULL",
    "~",
    "",
    // Integers: decimal, signed, hex, octal both ways, binary, underscores, uint64.
    "1",
    "-1",
    "+1",
    "0",
    "-0",
    "0x1F",
    "0777",
    "0o17",
    "0b101",
    "1_000",
    "1_",
    "18446744073709551615",
    // Floats, including `08` (invalid octal, valid float) and special values.
    "1e3",
    "1.5",
    "1.",
    ".5",
    "-.5",
    "08",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    // Base 60 (quoted for YAML 1.1 readers although go-yaml does not resolve it).
    "1:20",
    "190:20:30",
    "-1:20.5",
    // Timestamps in the layouts go-yaml tries (short month/day fields allowed).
    "2008-01-01T01:01:01Z",
    "2008-01-01t01:01:01Z",
    "2008-01-01T01:01:01.123+02:00",
    "2008-01-01",
    "2008-1-1",
    "2008-01-01 01:01:01",
    "2008-01-01   01:01:01.5",
    "2000-02-29",
  ])("%j", (s) => {
    expect(one(s)).toBe(`k: "${s}"\n`);
  });
});

describe("stringifyGoYaml: look-alikes go-yaml leaves plain", () => {
  it.each([
    "yEs",
    "tRue",
    "nULL",
    "0x",
    "0b",
    "1e999",
    "+",
    "-x",
    "--x",
    "a:b",
    ":x",
    "?x",
    "a#b",
    "it's",
    'a"b',
    "x[y]",
    "a,b",
    "0x1G",
    "1.2.3",
    "1:60",
    "x1:20",
    // Not valid Go timestamps: day out of range, no zone after a time, zone without colon, 5-digit year.
    "2008-02-30",
    "2007-02-29",
    "2008-13-01",
    "2008-01-01T01:01:01",
    "2008-01-01T01:01:01+0200",
    "20080-01-01",
    "2008-01-01T25:00:00Z",
    "héllo wörld",
    "日本語",
    "\u00a0nbsp",
    "\uFFFD",
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
      "",
      ".1",
      ".2",
      ".a",
      "1",
      "2",
      "a!10",
      "a/0001",
      "a/002",
      "a/3",
      "a/10",
      "a/11",
      "a/0012",
      "a/100",
      "a~10",
      "ab/1",
      "b/1",
      "b/01",
      "b/2",
      "b/02",
      "b/3",
      "b/03",
      "b1",
      "b01",
      "b3",
      "c2.10",
      "c10.2",
      "d1",
      "d7",
      "d7abc",
      "d12",
      "d12a",
      "e2b",
      "e4b",
      "e21a",
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
    expect(decodeError(() => stringifyGoYaml(cyclic)).reason).toMatch(/cyclic/);
    expect(decodeError(() => stringifyGoYaml({ f: (() => 1) as unknown as JsonValue })).path).toBe("f");
  });

  it("skips object properties that are undefined, as JSON.stringify does", () => {
    expect(stringifyGoYaml({ a: 1, b: undefined as unknown as JsonValue })).toBe("a: 1\n");
  });
});
