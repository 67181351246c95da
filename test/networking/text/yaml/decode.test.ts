/**
 * The decoder (src/networking/text/yaml/decode.ts) against go-yaml v2 + sigs.k8s.io/yaml. Every
 * expected value and error below was read from the Go libraries themselves
 * (sigs.k8s.io/yaml YAMLToJSON and YAMLToJSONStrict on the same text); the
 * positions are go-yaml's marks (its messages print only their line).
 */
import { describe, expect, it } from "vitest";
import { DecodeError, type JsonValue } from "../../../../src/networking/index.js";
import { NO_DEPTH_LIMIT, composeFirstDocument, type YamlNode } from "../../../../src/networking/text/yaml/compose.js";
import { decodeYamlNode, findChild, keyTextOf, yamlToJson } from "../../../../src/networking/text/yaml/decode.js";

const LAX = { maxDepth: NO_DEPTH_LIMIT, strict: false };
const STRICT = { maxDepth: NO_DEPTH_LIMIT, strict: true };

function decodeError(f: () => unknown): DecodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw new Error(`expected a DecodeError, got ${String(e)}`);
  }
  throw new Error("expected a DecodeError, got a value");
}

/** [YAML, YAMLToJSON's value, and whether YAMLToJSONStrict refuses it]; all from Go. */
const READ: readonly (readonly [string, JsonValue, boolean])[] = [
  ["", null, false],
  ["# only a comment\n", null, false],
  // Only the first document is read; what follows it is never parsed.
  ["a: 1\n---\n]]]\n", { a: 1 }, false],
  // An alias takes the anchor current when it is read; a later one replaces it.
  ["a: &x 1\nb: *x\nc: &x 2\nd: *x\n", { a: 1, b: 1, c: 2, d: 2 }, false],
  ["- &a b\n- *a\n- &a c\n- *a\n", ["b", "b", "c", "c"], false],
  // Tags: resolvable ones resolve the text, others leave it a string.
  [
    'a: !!str 12\nb: !!int "12"\nc: !!float 1\nd: !!binary aGk=\ne: ! 12\nf: !local 12\ng: !!merge x\nh: !!timestamp 2001-12-14\ni: !!bool "yes"\nj: !!null \'\'\n',
    { a: "12", b: 12, c: 1, d: "hi", e: "12", f: "12", g: "x", h: "2001-12-14", i: true, j: null },
    false,
  ],
  ["a: !!binary |\n  aGVs\n  bG8=\n", { a: "hello" }, false],
  ["a: !!str\n", { a: "" }, false],
  // Tags on collections are ignored.
  ["!!map {a: 1}\n", { a: 1 }, false],
  ["!!str [a]\n", ["a"], false],
  // Merge keys: in a sequence the first map wins; later entries, written or merged, replace earlier ones.
  ["b: &b {v: 2, w: 1}\nd:\n  <<: [*b, {v: 9, z: 0}]\n  w: 3\n", { b: { v: 2, w: 1 }, d: { v: 2, w: 3, z: 0 } }, true],
  ["d:\n  w: 3\n  <<: {w: 4}\n", { d: { w: 4 } }, true],
  ["a: &a {b: 1}\nc:\n  <<: *a\n  b: 2\n", { a: { b: 1 }, c: { b: 2 } }, true],
  ["x: &x {a: 1}\ny:\n  <<: *x\n  <<: {a: 2}\n", { x: { a: 1 }, true: { a: 2 } }, true],
  // A merge of an empty sequence merges nothing; the entries after it still count.
  ["a: {<<: [], d: 1}\n", { a: { d: 1 } }, false],
  ["m: &m {c: 6}\np: {<<: [*m], !!merge <<: [], c: 9}\n", { m: { c: 6 }, p: { c: 9 } }, true],
  // `<<` merges when plain (or tagged `!` or !!merge); quoted, it is a key.
  ["d:\n  ! <<: {a: 1}\n", { d: { a: 1 } }, false],
  ["d:\n  '<<': {a: 1}\n", { d: { "<<": { a: 1 } } }, false],
  ["d:\n  !!merge '<<': {a: 1}\n", { d: { a: 1 } }, false],
  // Non-string keys as sigs.k8s.io/yaml writes them (floats at 32-bit precision).
  [
    "1: a\n0.1: b\n1e20: c\ntrue: d\nno: e\n-0.0: f\n.inf: g\n",
    { "1": "a", "0.1": "b", "1e+20": "c", true: "d", false: "e", "-0": "f", ".inf": "g" },
    false,
  ],
  ["&k a: 1\n*k : 2\n", { a: 2 }, true],
  ["a: 1\na: 2\n", { a: 2 }, true],
  // Go map keys: the int 1 and the string "1" are different keys, so strict decoding accepts both.
  ['1: a\n"1": a\n', { "1": "a" }, false],
  // sigs.k8s.io/yaml and json.Marshal refuse only what survives: a bad key or NaN in a replaced value is gone.
  ["a: {~: 1}\na: 2\n", { a: 2 }, true],
  ["a: [.nan]\na: 1\n", { a: 1 }, true],
  ["a: {18446744073709551615: 1}\n<<: {a: 2}\n", { a: 2 }, true],
  // A float key is narrowed to float32 first: 1e40 is +Inf.
  ["1e40: v\n-1e40: w\n", { ".inf": "v", "-.inf": "w" }, false],
  // float32 4052885.25 lies halfway between 8-digit 4052885.2 and 4052885.3: Go takes the even digit.
  ["4052885.2: a\n4052885.75: b\n", { "4.0528852e+06": "a", "4.0528858e+06": "b" }, false],
  // !!int takes an integer beyond int64 (a uint64).
  ["a: !!int 18446744073709551615\n", { a: 18446744073709551615n }, false],
  ["a: !!timestamp 2001-12-14t21:59:43.123456789Z\n", { a: "2001-12-14t21:59:43.123456789Z" }, false],
  // Not Go 1.19's answer (the oracle's time.Parse refuses a 10th fractional digit) but the API
  // server's: Go 1.20+ ignores digits past nanoseconds, and Kubernetes is built with a newer Go.
  ["a: !!timestamp 2001-12-14t21:59:43.1234567891Z\n", { a: "2001-12-14t21:59:43.1234567891Z" }, false],
  // Integers beyond 2^53 stay exact.
  [
    "a: 9007199254740993\nb: -9223372036854775808\nc: 18446744073709551615\n",
    { a: 9007199254740993n, b: -9223372036854775808n, c: 18446744073709551615n },
    false,
  ],
];

/** [YAML, go-yaml's problem, where our mark is: line, column (1-based)]; the problems are Go's. */
const REFUSED: readonly (readonly [string, string | RegExp, number, number])[] = [
  ["a: *x\nb: &x 1\n", "unknown anchor 'x' referenced", 1, 4],
  ["a: &a [*a]\n", "anchor 'a' value contains itself", 1, 8],
  ["a: !!null x\n", "cannot decode !!str `x` as a !!null", 1, 4],
  ["a: !!float 18446744073709551615\n", "cannot decode !!int `18446744073709551615` as a !!float", 1, 4],
  ["a: !!int 1.5\n", "cannot decode !!float `1.5` as a !!int", 1, 4],
  ["a: !!binary '%%'\n", "!!binary value contains invalid base64 data", 1, 4],
  ["d:\n  <<: [{a: 1}, 2]\n", "map merge requires map or sequence of maps as the value", 2, 7],
  ["d:\n  <<: 2\n", "map merge requires map or sequence of maps as the value", 2, 7],
  ["{!!merge <<: [], !!merge <<}\n", "map merge requires map or sequence of maps as the value", 1, 28],
  // sigs.k8s.io/yaml refuses these keys ("Unsupported map key of type ..."); go-yaml refuses collections as keys.
  ["~: a\n", /unsupported map key: null/, 1, 1],
  ["18446744073709551615: a\n", /unsupported map key of type uint64/, 1, 1],
  ["[a]: b\n", /invalid map key/, 1, 1],
  ["? {a: 1}\n: b\n", /invalid map key/, 1, 3],
  // json.Marshal refuses NaN and infinities; sigs.k8s.io/yaml a bad key, wherever it survives.
  ["a: .nan\n", /JSON cannot represent the float \.nan/, 1, 4],
  ["x: &x {~: 1}\na: *x\n", /unsupported map key: null/, 1, 8],
  ["- [1, {~: 1}]\n", /unsupported map key: null/, 1, 8],
  ["a: !!float 9223372036854775809\n", "cannot decode !!int `9223372036854775809` as a !!float", 1, 4],
];

describe("yamlToJson: YAMLToJSON's value, checked against go-yaml v2 + sigs.k8s.io/yaml", () => {
  it.each(READ)("%j", (text, want, strictRefuses) => {
    expect(yamlToJson(text, LAX)).toEqual(want);
    if (strictRefuses) expect(decodeError(() => yamlToJson(text, STRICT)).reason).toMatch(/already set in map$/);
    else expect(yamlToJson(text, STRICT)).toEqual(want);
  });

  it.each(REFUSED)("%j is refused", (text, problem, line, column) => {
    for (const options of [LAX, STRICT]) {
      const e = decodeError(() => yamlToJson(text, options));
      if (typeof problem === "string") expect(e.reason).toBe(problem);
      else expect(e.reason).toMatch(problem);
      expect([e.line, e.column]).toEqual([line, column]);
      expect(e.offset).toBeGreaterThanOrEqual(0);
    }
  });

  it("strict decoding names the repeated key as Go's %#v does, at the key or at the merge", () => {
    const bool = decodeError(() => yamlToJson("y: 1\nTrue: 2\n", STRICT));
    expect([bool.reason, bool.line, bool.column]).toEqual(["key true already set in map", 2, 1]);
    const str = decodeError(() => yamlToJson("a: 1\nb: 2\na: 3\n", STRICT));
    expect([str.reason, str.line, str.column]).toEqual(['key "a" already set in map', 3, 1]);
    const merged = decodeError(() => yamlToJson("b: &b {v: 2}\nd:\n  v: 3\n  <<: *b\n", STRICT));
    expect([merged.reason, merged.line, merged.column]).toEqual(['key "v" already set in map', 4, 7]);
    // NaN equals no key, not even itself: never a repeat (which value JSON keeps is Go's map order).
    expect(Object.keys(yamlToJson(".nan: a\n.nan: b\n", STRICT) as object)).toEqual([".nan"]);
  });

  it("resolves a value even when a later key replaces it, as go-yaml decodes every node", () => {
    expect(decodeError(() => yamlToJson("a: !!int x\na: 1\n", LAX)).reason).toBe("cannot decode !!str `x` as a !!int");
  });

  it("keeps __proto__ an own key without touching prototypes", () => {
    const v = yamlToJson("__proto__: {polluted: true}\n<<: {constructor: 1}\n", LAX) as Record<string, JsonValue>;
    expect(Object.keys(v)).toEqual(["__proto__", "constructor"]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe("findChild and keyTextOf: paths as decoding sees them", () => {
  it("follows aliases and merges, the later entry winning", () => {
    const text = "base: &b {p: 1, q: 2}\nd:\n  p: 0\n  <<: [*b, {z: 3}]\n  q: 9\n";
    const root = composeFirstDocument(text, NO_DEPTH_LIMIT) as YamlNode;
    const d = findChild(root, "d")?.value as YamlNode;
    // p: the merge after the written p wins; q: the written one after the merge; z: from the second map.
    expect(findChild(d, "p")?.value.start.offset).toBe(text.indexOf("1,"));
    expect(findChild(d, "q")?.value.start.offset).toBe(text.indexOf("9"));
    expect(findChild(d, "z")?.value.start.offset).toBe(text.indexOf("3}"));
    expect(yamlToJson(text, LAX)).toEqual({ base: { p: 1, q: 2 }, d: { p: 1, q: 9, z: 3 } });
    // `y` is the bool true in YAML 1.1, so its JSON key is "true".
    const y = composeFirstDocument("y: 1\n", NO_DEPTH_LIMIT) as YamlNode;
    expect(findChild(y, "y")).toBeUndefined();
    expect(findChild(y, "true")?.value.value).toBe("1");
  });

  it("matches keys by their JSON text", () => {
    const root = composeFirstDocument("1: a\nyes: b\n0.5: c\n~: d\n", NO_DEPTH_LIMIT) as YamlNode;
    expect(root.children.filter((_, i) => i % 2 === 0).map(keyTextOf)).toEqual(["1", "true", "0.5", undefined]);
    expect(findChild(root, "true")?.value.value).toBe("b");
    expect(findChild(root, 1)?.value.value).toBe("a");
  });
});

describe("limits: depth, aliasing, hostile input", () => {
  it("refuses a collection deeper than a maxDepth asked for, where it starts, through aliases too", () => {
    const e = decodeError(() => yamlToJson("[[[1]]]", { maxDepth: 2, strict: false }));
    expect([e.reason, e.line, e.column]).toEqual(["nesting deeper than 2", 1, 3]);
    expect(yamlToJson("[[[1]]]", { maxDepth: 3, strict: false })).toEqual([[[1]]]);
    // The anchored list is 2 deep, used 2 deep.
    const viaAlias = "a: &a [[1]]\nb: [[*a]]\n";
    expect(decodeError(() => yamlToJson(viaAlias, { maxDepth: 4, strict: false })).reason).toBe(
      "nesting deeper than 4",
    );
    expect(yamlToJson(viaAlias, { maxDepth: 5, strict: false })).toEqual({ a: [[1]], b: [[[[1]]]] });
  });

  /** The number of nested collections, following the first item or the key `a`. */
  const depthOf = (v: JsonValue): number => {
    let d = 0;
    for (let x: JsonValue | undefined = v; x !== null && x !== undefined && typeof x === "object"; d++)
      x = Array.isArray(x) ? x[0] : (x as Record<string, JsonValue>)["a"];
    return d;
  };

  it("reads 9,999 and 10,000 levels and refuses 10,001 exactly as go-yaml's scanner does (block and flow)", () => {
    // Go reads these three shapes at 9,999 and 10,000 levels, and at 10,001 says "exceeded max depth of 10000".
    const shapes: readonly (readonly [string, (n: number) => string])[] = [
      ["flow sequences", (n) => `${"[".repeat(n)}${"]".repeat(n)}`],
      ["flow mappings", (n) => `${"{a: ".repeat(n)}1${"}".repeat(n)}`],
      ["block sequences", (n) => `${"- ".repeat(n)}x\n`],
    ];
    for (const [name, text] of shapes) {
      for (const n of [9_999, 10_000]) expect(depthOf(yamlToJson(text(n), STRICT)), `${name} ${n}`).toBe(n);
      const e = decodeError(() => yamlToJson(text(10_001), LAX));
      expect(e.reason, name).toBe("exceeded max depth of 10000");
    }
    // go-yaml counts flow levels, not the block mapping around them: 10,001 collections read.
    expect(depthOf(yamlToJson(`a: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`, LAX))).toBe(10_001);
  });

  it("expands aliases and merges 10,000 levels deep without recursion", () => {
    const deep = `${"[".repeat(9_999)}${"]".repeat(9_999)}`;
    const v = yamlToJson(`a: &a ${deep}\nb: *a\nc: [*a, *a]\n`, STRICT) as Record<string, JsonValue>;
    expect(depthOf(v["b"] as JsonValue)).toBe(9_999);
    expect(depthOf((v["c"] as JsonValue[])[1] as JsonValue)).toBe(9_999);
    // 9,998 nested merges: each map merges the one inside it.
    const merges = `${"{<<: ".repeat(9_998)}{a: 1}${"}".repeat(9_998)}`;
    expect(yamlToJson(merges, STRICT)).toEqual({ a: 1 });
  });

  it("refuses 100,000-deep nesting with go-yaml's error, block or flow", () => {
    const n = 100_000;
    for (const text of [
      "[".repeat(n) + "]".repeat(n),
      "{a: ".repeat(n) + "1" + "}".repeat(n),
      "- ".repeat(n) + "x\n",
    ]) {
      expect(decodeError(() => yamlToJson(text, LAX)).reason).toBe("exceeded max depth of 10000");
    }
  });

  it("stops an alias bomb with go-yaml's aliasing guard", () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = "abcdefghi";
    for (let i = 1; i < names.length; i++) {
      lines.push(
        `${names[i]}: &${names[i]} [${Array(9)
          .fill(`*${names[i - 1]}`)
          .join(",")}]`,
      );
    }
    expect(decodeError(() => yamlToJson(`${lines.join("\n")}\n`, LAX)).reason).toBe(
      "document contains excessive aliasing",
    );
    // A modest expansion is fine.
    expect(yamlToJson(`${lines.slice(0, 3).join("\n")}\n`, LAX)).toHaveProperty("c");
  });

  it("reads a 1 MB line and 100,000 keys", () => {
    const long = "x".repeat(1 << 20);
    expect(yamlToJson(`a: ${long}\n`, LAX)).toEqual({ a: long });
    const many = Array.from({ length: 100_000 }, (_, i) => `k${i}: ${i}`).join("\n");
    const v = yamlToJson(many, STRICT) as Record<string, number>;
    expect(Object.keys(v)).toHaveLength(100_000);
    expect(v["k99999"]).toBe(99_999);
  });

  it("decodes an undefined root as null", () => {
    expect(decodeYamlNode(undefined, LAX)).toBeNull();
  });
});
