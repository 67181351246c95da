// printGoJson against Go's encoding/json (Go 1.26; escaping as since Go 1.22): json.Marshal
// when the indent is empty, json.MarshalIndent(v, "", indent) otherwise. Go sorts a map's keys
// by their bytes; the values here are built with their keys already in that order (sortedKeys'
// job), or as GoMap where JavaScript would reorder integer-like keys. Embedded JSON (RawJson) is
// held to how Go writes a json.RawMessage: compacted, HTML characters escaped, or re-indented.

import { describe, expect, it } from "vitest";
import { DuplicateKey, FloatLiteral, parseJsonText } from "../../../../src/networking/text/json/parse.js";
import {
  GoMap,
  type PrintableValue,
  printGoJson,
  RawJson,
  sortedKeys,
} from "../../../../src/networking/text/json/print.js";

/** map[string]any{...} as Go writes it, compact and indented by two spaces and by a tab. */
const GO_MAP: Record<string, string> = {
  "": '{"":"empty","Z":-3,"a":"x","a\\u003cb":"\\u003c\\u003e\\u0026","b":1,"list":["x",null,true,false,{"y":[]}],"\u00e9":1.5,"\\u2028":"\\u2029","\ue000":{},"\ud83d\ude00":[]}',
  "  ": '{\n  "": "empty",\n  "Z": -3,\n  "a": "x",\n  "a\\u003cb": "\\u003c\\u003e\\u0026",\n  "b": 1,\n  "list": [\n    "x",\n    null,\n    true,\n    false,\n    {\n      "y": []\n    }\n  ],\n  "\u00e9": 1.5,\n  "\\u2028": "\\u2029",\n  "\ue000": {},\n  "\ud83d\ude00": []\n}',
  "\t": '{\n\t"": "empty",\n\t"Z": -3,\n\t"a": "x",\n\t"a\\u003cb": "\\u003c\\u003e\\u0026",\n\t"b": 1,\n\t"list": [\n\t\t"x",\n\t\tnull,\n\t\ttrue,\n\t\tfalse,\n\t\t{\n\t\t\t"y": []\n\t\t}\n\t],\n\t"\u00e9": 1.5,\n\t"\\u2028": "\\u2029",\n\t"\ue000": {},\n\t"\ud83d\ude00": []\n}',
};

/** map[string]string with integer-like and astral keys: compact and indented. */
const GO_STRING_MAP = [
  '{"1":"one","10":"ten","9":"nine","a":"\\u003c","\u00e9":"","\uffff":"y","\ud83d\ude00":"x"}',
  '{\n  "1": "one",\n  "10": "ten",\n  "9": "nine",\n  "a": "\\u003c",\n  "\u00e9": "",\n  "\uffff": "y",\n  "\ud83d\ude00": "x"\n}',
] as const;

/** []any of numbers: int64 limits, int32 minimum, zero, float -0, and floats either side of the %e switch. */
const GO_NUMBERS =
  "[9223372036854775807,-9223372036854775808,-2147483648,0,-0,1e+21,100000000000000000000,1e-7,0.000001,0.1,123456789.125,5e-324,1.7976931348623157e+308,9007199254740992]";

const GO_EMPTY_INDENTED = '{\n  "a": [],\n  "b": {},\n  "c": [\n    []\n  ]\n}';

/** [raw text, json.Marshal(json.RawMessage(raw)), MarshalIndent(raw, "", "  "), MarshalIndent(map{"k": raw}, "", "\t")]. */
const GO_RAW: readonly (readonly [string, string, string, string])[] = [
  [
    '{"b":1,"a":[1,2,{"c":"<&>"}]}',
    '{"b":1,"a":[1,2,{"c":"\\u003c\\u0026\\u003e"}]}',
    '{\n  "b": 1,\n  "a": [\n    1,\n    2,\n    {\n      "c": "\\u003c\\u0026\\u003e"\n    }\n  ]\n}',
    '{\n\t"k": {\n\t\t"b": 1,\n\t\t"a": [\n\t\t\t1,\n\t\t\t2,\n\t\t\t{\n\t\t\t\t"c": "\\u003c\\u0026\\u003e"\n\t\t\t}\n\t\t]\n\t}\n}',
  ],
  [
    ' { "f:metadata" : { "f:labels" : { } , "f:x" : [ ] } , "dup":1, "dup":2 } ',
    '{"f:metadata":{"f:labels":{},"f:x":[]},"dup":1,"dup":2}',
    '{\n  "f:metadata": {\n    "f:labels": {},\n    "f:x": []\n  },\n  "dup": 1,\n  "dup": 2\n}',
    '{\n\t"k": {\n\t\t"f:metadata": {\n\t\t\t"f:labels": {},\n\t\t\t"f:x": []\n\t\t},\n\t\t"dup": 1,\n\t\t"dup": 2\n\t}\n}',
  ],
  [
    '[\n  1.50 ,\t-0, 1e+2, true,false,null, "\\u003c\\n\\"", "\u2028\u2029"]',
    '[1.50,-0,1e+2,true,false,null,"\\u003c\\n\\"","\\u2028\\u2029"]',
    '[\n  1.50,\n  -0,\n  1e+2,\n  true,\n  false,\n  null,\n  "\\u003c\\n\\"",\n  "\\u2028\\u2029"\n]',
    '{\n\t"k": [\n\t\t1.50,\n\t\t-0,\n\t\t1e+2,\n\t\ttrue,\n\t\tfalse,\n\t\tnull,\n\t\t"\\u003c\\n\\"",\n\t\t"\\u2028\\u2029"\n\t]\n}',
  ],
  ["{}", "{}", "{}", '{\n\t"k": {}\n}'],
  ["[]", "[]", "[]", '{\n\t"k": []\n}'],
  ['"plain"', '"plain"', '"plain"', '{\n\t"k": "plain"\n}'],
  [
    '{"a":{"b":{"c":{}}}}',
    '{"a":{"b":{"c":{}}}}',
    '{\n  "a": {\n    "b": {\n      "c": {}\n    }\n  }\n}',
    '{\n\t"k": {\n\t\t"a": {\n\t\t\t"b": {\n\t\t\t\t"c": {}\n\t\t\t}\n\t\t}\n\t}\n}',
  ],
  [
    "[[],[[]],{}]",
    "[[],[[]],{}]",
    "[\n  [],\n  [\n    []\n  ],\n  {}\n]",
    '{\n\t"k": [\n\t\t[],\n\t\t[\n\t\t\t[]\n\t\t],\n\t\t{}\n\t]\n}',
  ],
];

/** The Go map's value, its keys inserted in Go's (byte) order. */
function goMapValue(): PrintableValue {
  const value: Record<string, PrintableValue> = {
    b: 1,
    a: "x",
    "\u00e9": 1.5,
    "\u{1F600}": [],
    "\ue000": {},
    Z: -3,
    "": "empty",
    "a<b": "<>&",
    list: ["x", null, true, false, { y: [] }],
    "\u2028": "\u2029",
  };
  const ordered: Record<string, PrintableValue> = {};
  for (const k of sortedKeys(value)) ordered[k] = value[k] as PrintableValue;
  return ordered;
}

const raw = (text: string): RawJson => new RawJson(text, parseJsonText(text).value);

describe("printGoJson", () => {
  it.each(Object.entries(GO_MAP))("a map, indent %j", (indent, go) => {
    expect(printGoJson(goMapValue(), indent)).toBe(go);
  });

  it("a GoMap keeps its entries' order, which a JavaScript object cannot for integer-like keys", () => {
    const entries: [string, string][] = [
      ["1", "one"],
      ["10", "ten"],
      ["9", "nine"],
      ["a", "<"],
      ["\u00e9", ""],
      ["\uffff", "y"],
      ["\u{1F600}", "x"],
    ];
    expect(printGoJson(new GoMap(entries))).toBe(GO_STRING_MAP[0]);
    expect(printGoJson(new GoMap(entries), "  ")).toBe(GO_STRING_MAP[1]);
    expect(printGoJson(new GoMap([]), "  ")).toBe("{}");
    // The same entries as an object come out in another order.
    expect(printGoJson(Object.fromEntries(entries))).not.toBe(GO_STRING_MAP[0]);
  });

  it("numbers: int64 as bigint, float -0, and JavaScript's number text where it is Go's", () => {
    const nums: PrintableValue = [
      2n ** 63n - 1n,
      -(2n ** 63n),
      -2147483648,
      0,
      -0,
      1e21,
      1e20,
      1e-7,
      1e-6,
      0.1,
      123456789.125,
      5e-324,
      Number.MAX_VALUE,
      2 ** 53, // Go was given 9007199254740993.0, which is this float64
    ];
    expect(printGoJson(nums)).toBe(GO_NUMBERS);
  });

  it("empty lists and objects stay on their line when indented", () => {
    expect(printGoJson({ a: [], b: {}, c: [[]] }, "  ")).toBe(GO_EMPTY_INDENTED);
    expect(printGoJson([])).toBe("[]");
    expect(printGoJson({}, "  ")).toBe("{}");
  });

  it.each(GO_RAW)("embedded JSON %j: compacted, and re-indented at its depth", (text, compact, indented, nested) => {
    expect(printGoJson(raw(text))).toBe(compact);
    expect(printGoJson(raw(text), "  ")).toBe(indented);
    expect(printGoJson({ k: raw(text) }, "\t")).toBe(nested);
  });

  it("a repeated key prints once per value, where it stood; a float keeps its spelling", () => {
    const value = { a: new DuplicateKey([1, { b: 2 }]), c: new FloatLiteral(1.5, "1.50") } as unknown as PrintableValue;
    expect(printGoJson(value)).toBe('{"a":1,"a":{"b":2},"c":1.50}');
    expect(printGoJson(value, " ")).toBe('{\n "a": 1,\n "a": {\n  "b": 2\n },\n "c": 1.50\n}');
    expect(printGoJson(parseJsonText('{"x":1,"x":2,"y":1e+2}').value)).toBe('{"x":1,"x":2,"y":1e+2}');
  });

  it("refuses what JSON cannot hold", () => {
    expect(() => printGoJson(Number.NaN)).toThrow(TypeError);
    expect(() => printGoJson([Number.POSITIVE_INFINITY])).toThrow("cannot print Infinity as JSON");
    expect(() => printGoJson(new DuplicateKey([1]) as unknown as PrintableValue)).toThrow(TypeError);
  });
});

describe("sortedKeys", () => {
  it("orders an object's keys by their UTF-8 bytes, as Go orders a map's", () => {
    expect(sortedKeys({ b: 1, a: 1, "9": 1, "10": 1, "\uffff": 1, "\u{1F600}": 1, Z: 1 })).toEqual([
      "10",
      "9",
      "Z",
      "a",
      "b",
      "\uffff",
      "\u{1F600}",
    ]);
    expect(sortedKeys({})).toEqual([]);
  });
});
