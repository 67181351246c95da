// parseYamlDocuments: YAML 1.1 as go-yaml v2 reads it, as sigs.k8s.io/yaml YAMLToJSON uses it.

import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DecodeError } from "../../../../src/networking/model/errors.js";
import type { JsonValue } from "../../../../src/networking/model/json-value.js";
import { stringifyGoYaml } from "../../../../src/networking/text/yaml/emit.js";
import fc from "fast-check";
import {
  locateYamlPath,
  parseYamlDocuments,
  parseYamlDocumentsLocated,
  yamlLocator,
  type YamlReading,
} from "../../../../src/networking/text/yaml/parse.js";
import { propertyRuns } from "../../../support/property-runs.js";
import { decodeError } from "../../../support/errors.js";

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
    // biome-ignore lint/correctness/noPrecisionLoss: deliberate: the expected value is the float64 this very text denotes (2^64)
    ["18446744073709551616", 18446744073709551616], // past uint64: a float64
    // biome-ignore lint/correctness/noPrecisionLoss: deliberate: past int64, the text reads as the nearest float64 (-2^63)
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
    expect(decodeError(() => parseYamlDocuments("~: x\n")).reason).toMatch(/null/);
    expect(decodeError(() => parseYamlDocuments("? [a]\n: x\n")).reason).toMatch(/invalid map key/);
    expect(decodeError(() => parseYamlDocuments("18446744073709551615: x\n")).reason).toMatch(/uint64/);
  });

  it("reads multi-document streams and skips empty or null documents", () => {
    expect(parseYamlDocuments("a: 1\n---\n---\n~\n---\nnull\n---\n# only a comment\n---\nb: 2\n...\n")).toEqual([
      { a: 1 },
      { b: 2 },
    ]);
    expect(parseYamlDocuments("")).toEqual([]);
    expect(parseYamlDocuments("---\n''\n")).toEqual([""]);
    // kubectl's reader refuses a separator line with anything but a comment after `---`
    // (apimachinery's YAMLReader); read as one request body, it is YAML's own `---`.
    const sep = decodeError(() => parseYamlDocuments("a: 1\n--- ''\n"));
    expect([sep.reason, sep.line, sep.column]).toEqual(["invalid Yaml document separator: ''", 2, 1]);
    expect(parseYamlDocuments("--- ''\n", { reading: "server" })).toEqual([""]);
    // The server reads the first YAML document only, and nothing after it.
    expect(parseYamlDocuments("a: 1\n---\nb: 2\n", { reading: "server" })).toEqual([{ a: 1 }]);
    expect(parseYamlDocuments("a: 1\n---\n]]]\n", { reading: "server" })).toEqual([{ a: 1 }]);
  });

  it("reads a separator kubectl's reader keeps (nothing gathered before it) as a document start", () => {
    // Kept, the first `---` makes a byte-order mark after it content: a key starting U+FEFF (as
    // sigs.k8s.io/yaml reads it under apimachinery's YAMLReader); after a separator that ends a
    // document, the mark starts the next piece and is the stream's mark again.
    expect(parseYamlDocuments("---\n\ufeffa: 1\n")).toEqual([{ "\ufeffa": 1 }]);
    expect(parseYamlDocuments("x: 1\n---\n---\n\ufeffa: 1\n")).toEqual([{ x: 1 }, { "\ufeffa": 1 }]);
    expect(parseYamlDocuments("x: 1\n---\n\ufeffa: 1\n")).toEqual([{ x: 1 }, { a: 1 }]);
    // A lone CR ends no line for the splitter, so the kept line runs on; go-yaml breaks it at each CR.
    expect(parseYamlDocuments("--- # c\ra: 1\rb: 2")).toEqual([{ a: 1, b: 2 }]);
    // Dropped with the separator line that ends the document before it.
    expect(parseYamlDocuments("x: 1\n--- # c\ra: 1\r")).toEqual([{ x: 1 }]);
    // `---#` is a separator to the splitter but no document start to go-yaml: kept, it is content.
    expect(parseYamlDocuments("---#")).toEqual(["---#"]);
    const glued = decodeError(() => parseYamlDocuments("---# c\nkind: Ingress\n"));
    expect([glued.reason, glued.document, glued.line]).toEqual([
      "mapping values are not allowed in this context",
      1,
      2,
    ]);
    // A piece that the kept separator ends is the YAML document `---` alone: null, skipped.
    expect(parseYamlDocuments("---\n...\n---\na: 1\n")).toEqual([{ a: 1 }]);
  });

  it("expands anchors, aliases and merge keys", () => {
    expect(parseYamlDocuments("a: &x [1, 2]\nb: *x\n")).toEqual([{ a: [1, 2], b: [1, 2] }]);
    // go-yaml v2 applies entries in document order: a merge after an explicit
    // key replaces it, and in a merge sequence the earlier maps win.
    expect(
      parseYamlDocuments("base: &b {x: 1, v: 2}\nother: &o {z: 0}\nd:\n  v: 3\n  <<: [*b, *o, {x: 9, w: 4}]\n", {
        uniqueKeys: false,
      }),
    ).toEqual([{ base: { x: 1, v: 2 }, other: { z: 0 }, d: { v: 2, x: 1, z: 0, w: 4 } }]);
    expect(parseYamlDocuments("b: &b {v: 2, w: 1}\nd:\n  <<: *b\n  v: 3\n", { uniqueKeys: false })).toEqual([
      { b: { v: 2, w: 1 }, d: { v: 3, w: 1 } },
    ]);
    // Strict decoding rejects a key set twice, whether written or merged.
    // The mark is the merge that brings the key in, or the repeated key.
    const merged = decodeError(() => parseYamlDocuments("b: &b {v: 2}\nd:\n  v: 3\n  <<: *b\n"));
    expect([merged.reason, merged.line, merged.column]).toEqual(['key "v" already set in map', 4, 7]);
    const written = decodeError(() => parseYamlDocuments("b: &b {v: 2}\nd:\n  <<: *b\n  v: 3\n"));
    expect([written.reason, written.line, written.column]).toEqual(['key "v" already set in map', 4, 3]);
    expect(parseYamlDocuments("b: &b {v: 2}\nd:\n  <<: *b\n  w: 3\n")).toEqual([{ b: { v: 2 }, d: { v: 2, w: 3 } }]);
    expect(decodeError(() => parseYamlDocuments("a: 1\n<<: 2\n")).reason).toMatch(/map merge/);
  });

  it("returns objects that keep __proto__ as an own key and do not pollute prototypes", () => {
    const [doc] = parseYamlDocuments('__proto__: {polluted: true}\n"constructor": {prototype: {polluted: true}}\n');
    const obj = doc as { [k: string]: JsonValue };
    expect(Object.hasOwn(obj, "__proto__")).toBe(true);
    expect(Object.keys(obj)).toEqual(["__proto__", "constructor"]);
    // biome-ignore lint/suspicious/noProto: reading the own "__proto__" key is what this pollution test checks
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
    const e = decodeError(() => parseYamlDocuments("ok: 1\n---\na: [1, 2\nb: 3\n"));
    expect(e.format).toBe("yaml");
    expect(e.document).toBe(2);
    // go-yaml's mark: the `:` token where a `,` or `]` was expected (the plain scalar is "2 b").
    expect(e.line).toBe(4);
    expect(e.column).toBe(2);
    expect(e.offset).toBe(20);
    expect(e.reason).toBe("did not find expected ',' or ']'");
    expect(e.message).toContain("document 2, line 4, column 2");

    // Reported where the input ends, after the line break; the first document is 1.
    const u = decodeError(() => parseYamlDocuments('a: "unterminated\n'));
    expect([u.document, u.line, u.column]).toEqual([1, 2, 1]);
    expect(u.message).toMatch(/^yaml decode error at document 1, line 2, column 1: /);

    const tabs = decodeError(() => parseYamlDocuments("a:\n\t- b\n"));
    expect(tabs.line).toBe(2);
  });

  it("rejects what go-yaml's reader and directive parser reject", () => {
    const ctl = decodeError(() => parseYamlDocuments("a: 1\n---\nb: x\u0001y\n"));
    expect([ctl.reason, ctl.document, ctl.line, ctl.column]).toEqual(["control characters are not allowed", 2, 3, 5]);
    expect(decodeError(() => parseYamlDocuments("a: \ud800\n")).column).toBe(4);
    const v12 = decodeError(() => parseYamlDocuments("%YAML 1.2\n---\na: 1\n"));
    expect(v12.reason).toBe("found incompatible YAML document");
    const unknown = decodeError(() => parseYamlDocuments("%FOO bar\n---\na: 1\n"));
    expect(unknown.reason).toBe("found unknown directive name");
    const directives = "%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\na: !e!x yes\nb: on\n";
    expect(parseYamlDocuments(directives, { reading: "server" })).toEqual([{ a: "yes", b: true }]);
    // kubectl's reader cuts the directives off from their document at `---` (checked with go-yaml).
    expect(decodeError(() => parseYamlDocuments(directives)).reason).toBe("did not find expected <document start>");
    // Tab, CR, a leading BOM and characters beyond the BMP are fine.
    expect(parseYamlDocuments('\ufeffa: "\t\u{1F600}"\r\n')).toEqual([{ a: "\t\u{1F600}" }]);
  });

  it("rejects duplicate keys with the line of the duplicate (uniqueKeys, the default)", () => {
    const e = decodeError(() => parseYamlDocuments("a: 1\nb: 2\na: 3\n"));
    expect(e.reason).toBe('key "a" already set in map');
    expect([e.document, e.line, e.column]).toEqual([1, 3, 1]);
    expect(decodeError(() => parseYamlDocuments("a: 1\nb: 2\na: 3\n", { uniqueKeys: true })).line).toBe(3);
    // In a nested flow mapping of a later document.
    const nested = decodeError(() => parseYamlDocuments("x: 1\n---\nb: {c: 1, c: 2}\n"));
    expect([nested.document, nested.line, nested.column]).toEqual([2, 3, 11]);
    // Keys are compared after YAML 1.1 resolution: y and True are both the bool true.
    // go-yaml prints the key as Go's %#v does: a bool bare, a string quoted.
    expect(decodeError(() => parseYamlDocuments("y: 1\nTrue: 2\n")).reason).toBe("key true already set in map");
    // Keys are compared as Go map keys: the int 1 and the string "1" differ, so strict decoding
    // accepts both (which one JSON keeps is Go's map order, random).
    expect(parseYamlDocuments('1: a\n"1": b\n', { uniqueKeys: true })).toHaveLength(1);
  });

  it("onRepeatedKey: every repeat given, placed in the text, and the values those of uniqueKeys: false", () => {
    const texts = [
      "a: 1\nb: 2\na: 3\n---\nx: 1\n---\nb: {c: 1, c: 2}\nb: 4\n",
      "b: &b {v: 2}\nd:\n  v: 3\n  <<: *b\n",
      "b: &b {v: 2, w: 1}\nd:\n  <<: *b\n  v: 3\n",
      "a: 1\n",
    ];
    const found = texts.map((text) => {
      const repeats: DecodeError[] = [];
      const values = parseYamlDocuments(text, { onRepeatedKey: (e) => repeats.push(e) });
      expect(values, text).toEqual(parseYamlDocuments(text, { uniqueKeys: false }));
      return repeats.map((e) => [e.reason, e.document, e.line, e.column]);
    });
    expect(found).toEqual([
      [
        ['key "a" already set in map', 1, 3, 1],
        ['key "c" already set in map', 3, 7, 11],
        ['key "b" already set in map', 3, 8, 1],
      ],
      [['key "v" already set in map', 1, 4, 7]],
      [['key "v" already set in map', 1, 4, 3]],
      [],
    ]);
    // With uniqueKeys false there is nothing to report.
    const none: DecodeError[] = [];
    parseYamlDocuments(texts[0] ?? "", { uniqueKeys: false, onRepeatedKey: (e) => none.push(e) });
    expect(none).toEqual([]);
  });

  it("keeps the last of repeated keys with uniqueKeys: false (sigs.k8s.io/yaml YAMLToJSON)", () => {
    expect(parseYamlDocuments("a: 1\nb: 2\na: 3\n", { uniqueKeys: false })).toEqual([{ a: 3, b: 2 }]);
    expect(parseYamlDocuments("x: 1\n---\nb: {c: 1, c: 2}\nc: [1]\nc: {d: e}\n", { uniqueKeys: false })).toEqual([
      { x: 1 },
      { b: { c: 2 }, c: { d: "e" } },
    ]);
    // Every value is still resolved, as go-yaml's resolver does: a bad one fails though replaced.
    expect(decodeError(() => parseYamlDocuments("a: !!int x\na: 1\n", { uniqueKeys: false })).reason).toMatch(
      /cannot decode !!str `x` as a !!int/,
    );
    // The last explicit value also wins over a merge between the two.
    expect(parseYamlDocuments("b: &b {x: 1, w: 1}\nd:\n  x: 2\n  <<: *b\n  x: 3\n", { uniqueKeys: false })).toEqual([
      { b: { x: 1, w: 1 }, d: { x: 3, w: 1 } },
    ]);
  });

  it("rejects values JSON cannot represent and tags that do not fit", () => {
    expect(decodeError(() => parseYamlDocuments("a: .nan\n")).line).toBe(1);
    const tagged = decodeError(() => parseYamlDocuments("a: !!int abc\n"));
    expect(tagged.reason).toMatch(/cannot decode !!str `abc` as a !!int/);
    expect(decodeError(() => parseYamlDocuments("a: !!binary '%%%'\n")).reason).toMatch(/base64/);
  });

  it("rejects unknown and self-referencing aliases", () => {
    expect(decodeError(() => parseYamlDocuments("a: *nope\n")).line).toBe(1);
    expect(decodeError(() => parseYamlDocuments("a: &a [*a]\n"))).toBeInstanceOf(DecodeError);
  });

  it("limits nesting depth as go-yaml does (10,000 levels), or as asked, without overflowing the stack", () => {
    for (const text of [
      "[".repeat(10_001),
      "[".repeat(100_000) + "]".repeat(100_000),
      "- ".repeat(10_001) + "x\n",
      "{a: ".repeat(10_001) + "1" + "}".repeat(10_001),
    ]) {
      const e = decodeError(() => parseYamlDocuments(text));
      expect(e.reason).toBe("exceeded max depth of 10000");
      expect(e.line).toBe(1);
    }
    // Indentation nests block mappings 3,000 deep: read, or refused at a limit asked for.
    const indented = Array.from({ length: 3000 }, (_, i) => " ".repeat(i) + "k:").join("\n") + " x\n";
    expect(parseYamlDocuments(indented)).toHaveLength(1);
    expect(decodeError(() => parseYamlDocuments(indented, { maxDepth: 100 })).reason).toBe("nesting deeper than 100");
    expect(parseYamlDocuments("[".repeat(100) + "]".repeat(100), { maxDepth: 100 })).toHaveLength(1);
    expect(decodeError(() => parseYamlDocuments("[".repeat(101) + "]".repeat(101), { maxDepth: 100 })).column).toBe(
      101,
    );
    expect(parseYamlDocuments("[[[1]]]", { maxDepth: 3 })).toEqual([[[[1]]]]);
    expect(decodeError(() => parseYamlDocuments("[[[1]]]", { maxDepth: 2 })).column).toBe(3);
    // Aliases cannot be used to build depth past the limit either.
    const viaAlias = `a: &a ${"[".repeat(60)}${"]".repeat(60)}\nb: ${"[".repeat(60)}*a${"]".repeat(60)}\n`;
    expect(decodeError(() => parseYamlDocuments(viaAlias, { maxDepth: 100 })).reason).toMatch(/nesting/);
    expect(parseYamlDocuments(viaAlias)).toHaveLength(1);
  });

  it("stops an alias bomb with go-yaml's aliasing guard", () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = "abcdefghi";
    for (let i = 1; i < names.length; i++) {
      const prev = names[i - 1] ?? "a";
      lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    // The guard's error is the proof it fired before expanding 9^9 leaves; a hang would hit the test timeout.
    const e = decodeError(() => parseYamlDocuments(lines.join("\n") + "\n"));
    expect(e.reason).toBe("document contains excessive aliasing");
  });

  it("rejects non-string input with a DecodeError", () => {
    expect(decodeError(() => parseYamlDocuments(42 as unknown as string)).reason).toMatch(/not a string/);
  });
});

describe("yamlLocator: one text, many paths", () => {
  const TEXTS = [
    "kind: Ingress\nspec:\n  rules:\n  - host: a\n    http: {paths: [{path: /x}]}\n",
    "a: 1\n---\n~\n---\nb: &x {c: [1, 2]}\nd: *x\n---\ne: [\n",
    "---\n# only a comment\n---\nkind: List\nitems:\n- {metadata: {name: a}}\n- {metadata: {name: b}}\n",
    "a: 1\n--- bad\nb: 2\n",
    "x: {y: 1\n",
    "",
  ];
  const query = fc.record({
    index: fc.integer({ min: -1, max: 3 }),
    path: fc.array(
      fc.oneof(
        fc.constantFrom(
          "kind",
          "spec",
          "rules",
          "host",
          "items",
          "metadata",
          "name",
          "a",
          "b",
          "c",
          "d",
          "e",
          "http",
          "paths",
        ),
        fc.integer({ min: 0, max: 2 }),
      ),
      { maxLength: 6 },
    ),
    atKey: fc.boolean(),
  });

  it("property: a locator asked paths in any order answers each as a fresh one, and as locateYamlPath", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TEXTS),
        fc.constantFrom<YamlReading>("kubectl", "server"),
        fc.array(query, { maxLength: 8 }),
        (text, reading, queries) => {
          const shared = yamlLocator(text, reading);
          for (const { index, path, atKey } of queries) {
            const fresh = yamlLocator(text, reading)(index, path, atKey);
            expect(shared(index, path, atKey)).toEqual(fresh);
            expect(locateYamlPath(text, index, path, { reading, atKey })).toEqual(fresh);
          }
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });

  it("places keys and values of later documents, skipping null ones, and gives {} past a broken one", () => {
    const at = yamlLocator(TEXTS[1] as string, "kubectl");
    expect(at(1, ["d", "c", 1], false)).toEqual({ line: 5, column: 15, offset: 29, document: 3 });
    expect(at(0, ["a"], true)).toEqual({ line: 1, column: 1, offset: 0, document: 1 });
    expect(at(2, [], false)).toEqual({});
  });
});

describe("parseYamlDocumentsLocated: the parse, and a locator over the trees it composed", () => {
  const REAL_WORLD = new URL("../../../fixtures/real-world/", import.meta.url);
  const realWorld = readdirSync(REAL_WORLD, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => readFileSync(new URL(f, REAL_WORLD), "utf8"));
  const FRAGMENTS = [
    "kind: Ingress\n",
    "metadata: {name: a, namespace: b}\n",
    "spec:\n  rules:\n  - host: a\n    http: {paths: [{path: /x}]}\n",
    "base: &b {name: x, port: 1}\n",
    "use: {<<: *b, port: 2}\n",
    "list: [*b, *b]\n",
    "a: 1\na: 2\n",
    "~\n",
    "---\n",
    "--- bad\n",
    "x: {y: 1\n",
    "- 1\n- [2, 3]\n",
    "k: !!int nope\n",
    "k: .nan\n",
    "? [a]\n: 1\n",
    "z: *missing\n",
    "# a comment\n",
    "  indented: wrong\n",
  ];
  const generated = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 8 }).map((parts) => parts.join(""));
  const segment = fc.oneof(
    fc.constantFrom(
      "kind",
      "metadata",
      "name",
      "spec",
      "rules",
      "host",
      "http",
      "paths",
      "use",
      "port",
      "list",
      "a",
      "k",
    ),
    fc.integer({ min: 0, max: 2 }),
  );
  const query = fc.record({
    index: fc.integer({ min: -1, max: 3 }),
    path: fc.array(segment, { maxLength: 5 }),
    atKey: fc.boolean(),
  });
  const options = fc.record({
    reading: fc.constantFrom<YamlReading>("kubectl", "server"),
    uniqueKeys: fc.boolean(),
    reportRepeats: fc.boolean(),
  });

  type Opts = { reading: YamlReading; uniqueKeys: boolean; reportRepeats: boolean };
  type Query = { index: number; path: (string | number)[]; atKey: boolean };

  /** What a parse gives: its values and the repeats it reported, or the error it threw. */
  function outcome(parse: (o: Parameters<typeof parseYamlDocuments>[1]) => JsonValue[], o: Opts) {
    const repeats: DecodeError[] = [];
    try {
      const values = parse({
        reading: o.reading,
        uniqueKeys: o.uniqueKeys,
        ...(o.reportRepeats ? { onRepeatedKey: (e: DecodeError) => repeats.push(e) } : {}),
      });
      return { values, repeats };
    } catch (e) {
      return { error: e, repeats };
    }
  }

  function holds(text: string, o: Opts, queries: readonly Query[]): void {
    let located: ReturnType<typeof parseYamlDocumentsLocated> | undefined;
    const got = outcome((p) => {
      located = parseYamlDocumentsLocated(text, p);
      return located.values;
    }, o);
    expect(got).toEqual(outcome((p) => parseYamlDocuments(text, p), o));
    if (located === undefined) return;
    const fresh = yamlLocator(text, o.reading);
    for (const { index, path, atKey } of queries)
      expect(located.locator(index, path, atKey)).toEqual(fresh(index, path, atKey));
  }

  it("property: on generated YAML, the same values, repeats and errors as parseYamlDocuments, and yamlLocator's answers", () => {
    fc.assert(
      fc.property(generated, options, fc.array(query, { maxLength: 6 }), (text, o, queries) => holds(text, o, queries)),
      { numRuns: propertyRuns(300) },
    );
  });

  it("property: on every real-world corpus file, the same as parseYamlDocuments and yamlLocator", () => {
    expect(realWorld.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.constantFrom(...realWorld), options, fc.array(query, { maxLength: 6 }), (text, o, queries) =>
        holds(text, o, queries),
      ),
      { numRuns: propertyRuns(200) },
    );
  });
});
