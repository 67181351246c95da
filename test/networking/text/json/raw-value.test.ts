// sortDeep turns a parsed (or hand-built) value into the raw JSON Go keeps for a FieldsV1: Go
// decodes it into a map first, so keys come out sorted by their bytes and a repeated key keeps
// its last value; from a JS value it reads what JSON.stringify would write, refusing the rest.

import { describe, expect, it } from "vitest";
import { DuplicateKey, FloatLiteral, parseJsonText } from "../../../../src/networking/text/json/parse.js";
import { PathError } from "../../../../src/networking/text/json/path-error.js";
import { printGoJson, RawJson } from "../../../../src/networking/text/json/print.js";
import { toJsonString } from "../../../../src/networking/text/json/to-json.js";
import { fromYaml } from "../../../../src/networking/text/yaml/yaml.js";
import { MAX_RAW_DEPTH, sortDeep } from "../../../../src/networking/text/json/raw-value.js";

function pathError(f: () => unknown): PathError {
  try {
    f();
  } catch (e) {
    if (e instanceof PathError) return e;
    throw e;
  }
  throw new Error("no PathError");
}

/** `depth` arrays nested in one another. */
function nested(depth: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

describe("sortDeep", () => {
  it("sorts keys by their UTF-8 bytes, at every depth, and keeps list order", () => {
    const v = sortDeep(
      "json",
      { b: 1, a: { z: [3, 1, { y: 1, x: 2 }], "10": 1, "9": 2 }, "\u{1F600}": 1, "\uffff": 2 },
      0,
    );
    expect(printGoJson(v)).toBe('{"a":{"10":1,"9":2,"z":[3,1,{"x":2,"y":1}]},"b":1,"\uffff":2,"\u{1F600}":1}');
  });

  it("keys like array indexes keep Go's byte order, which a JS object would not (10 before 9)", () => {
    // sigs.k8s.io/yaml's YAMLToJSON of the same mapping, from Go.
    const go = '{"10":{"11":[{"0":2,"b":1}],"2":1},"4294967295":1,"9":{},"f:b":{}}';
    const v = { "f:b": {}, "9": {}, "10": { "2": 1, "11": [{ b: 1, "0": 2 }] }, "4294967295": 1 };
    const sorted = sortDeep("yaml", v, 0);
    expect(printGoJson(sorted)).toBe(go);
    expect(printGoJson(sorted, "  ")).toBe(
      [
        "{",
        '  "10": {',
        '    "11": [',
        "      {",
        '        "0": 2,',
        '        "b": 1',
        "      }",
        "    ],",
        '    "2": 1',
        "  },",
        '  "4294967295": 1,',
        '  "9": {},',
        '  "f:b": {}',
        "}",
      ].join("\n"),
    );
    expect(sorted).toBeInstanceOf(RawJson);
    expect(JSON.parse((sorted as RawJson).text)).toEqual(v);
    // Through the reader: a FieldsV1 read from YAML, written as JSON.
    const [o] = fromYaml(
      'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: a\n  managedFields:\n  - fieldsType: FieldsV1\n    fieldsV1: {"f:b": {}, "9": {}, "10": {}}\n',
    );
    expect(toJsonString(o!)).toContain('"fieldsV1":{"10":{},"9":{},"f:b":{}}');
  });

  it("a repeated key keeps its last value; a float literal keeps its spelling", () => {
    const parsed = parseJsonText('{"k":1,"f":1.50,"k":{"b":1,"a":2}}').value;
    expect(printGoJson(sortDeep("json", parsed, 0))).toBe('{"f":1.50,"k":{"a":2,"b":1}}');
    const lit = new FloatLiteral(1.5, "1.50");
    expect(sortDeep("json", lit, 0)).toBe(lit);
    expect(sortDeep("json", new DuplicateKey([1, 2, 3]), 0)).toBe(3);
  });

  it("scalars pass through; -0 is 0 from JSON (as JSON.stringify) but Go's -0 from YAML", () => {
    for (const v of ["s", true, false, null, 7, 2n ** 64n]) expect(sortDeep("json", v, 0)).toBe(v);
    expect(Object.is(sortDeep("json", -0, 0), 0)).toBe(true);
    expect(Object.is(sortDeep("yaml", -0, 0), -0)).toBe(true);
    expect(printGoJson(sortDeep("yaml", [-0], 0))).toBe("[-0]");
  });

  it("drops undefined members, as JSON.stringify does, and keeps __proto__ as a key", () => {
    const v = JSON.parse('{"__proto__":{"x":1},"a":1}') as Record<string, unknown>;
    v["gone"] = undefined;
    const out = sortDeep("json", v, 0) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(printGoJson(out as never)).toBe('{"__proto__":{"x":1},"a":1}');
    expect(sortDeep("json", Object.assign(Object.create(null), { b: 1 }), 0)).toEqual({ b: 1 });
  });

  it("refuses what JSON cannot hold, saying where", () => {
    const cases: [unknown, string, (string | number)[]][] = [
      [Number.NaN, "fieldsV1 cannot hold NaN: it is not JSON", []],
      [{ a: [1, Number.POSITIVE_INFINITY] }, "fieldsV1 cannot hold Infinity: it is not JSON", ["a", 1]],
      [[undefined], "fieldsV1 cannot hold undefined: it is not JSON", [0]],
      [{ f: () => 1 }, "fieldsV1 cannot hold a function: it is not JSON", ["f"]],
      [{ s: Symbol("x") }, "fieldsV1 cannot hold a symbol: it is not JSON", ["s"]],
      [{ d: new Date(0) }, "fieldsV1 cannot hold an object that is not a plain JSON object", ["d"]],
      [{ m: new Map() }, "fieldsV1 cannot hold an object that is not a plain JSON object", ["m"]],
    ];
    for (const [v, reason, path] of cases) {
      const e = pathError(() => sortDeep("json", v, 0));
      expect([e.reason, e.path]).toEqual([reason, path]);
    }
  });

  it(`nests up to ${MAX_RAW_DEPTH} levels below its start, and no further (so a cycle ends)`, () => {
    expect(MAX_RAW_DEPTH).toBe(100);
    expect(() => sortDeep("json", nested(MAX_RAW_DEPTH + 1), 0)).not.toThrow();
    expect(pathError(() => sortDeep("json", nested(MAX_RAW_DEPTH + 2), 0)).reason).toBe(
      `fieldsV1 nested deeper than ${MAX_RAW_DEPTH} (or cyclic)`,
    );
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    const e = pathError(() => sortDeep("json", cyclic, 0));
    expect(e.reason).toMatch(/or cyclic/);
    expect(e.path.every((s) => s === "self")).toBe(true);
  });
});
