// Field errors against apimachinery's own: GO_ERRORS holds field.Error's Error() and ErrorBody()
// for errors built with k8s.io/apimachinery v0.35.4's constructors (field.Invalid, Required,
// ...), and GO_QUOTE strconv.Quote, with which those messages quote strings (Go 1.26).

import { describe, expect, it } from "vitest";
import { FieldPath } from "../../../src/networking/model/path.js";
import {
  coveredByDeclarative,
  declarativeMerge,
  duplicate,
  type FieldError,
  formatFieldError,
  formatFieldErrorBody,
  forbidden,
  goJson,
  goJsonStrings,
  goQuote,
  goStringSlice,
  invalid,
  notSupported,
  required,
  tooLong,
} from "../../../src/networking/validation/field-error.js";

const host = FieldPath.root("spec").child("rules").index(0).child("host");

/** A field error of a type no constructor here makes, built as the API server would report it. */
function raw(
  type: FieldError["type"],
  path: (string | number)[],
  field: string,
  badValue: FieldError["badValue"],
  detail: string,
): FieldError {
  return { type, field, path, badValue, detail };
}

/** [the error, apimachinery's Error(), its ErrorBody()]. */
const GO_ERRORS: readonly (readonly [string, FieldError, string])[] = [
  [
    "Invalid, a string",
    invalid(host, "*", "a wildcard DNS-1123 subdomain must start with '*.'"),
    `spec.rules[0].host: Invalid value: "*": a wildcard DNS-1123 subdomain must start with '*.'`,
  ],
  [
    "Invalid, a string with escapes and no detail",
    invalid(host, "tab\there\u00a0\u{1F600}\u{E0001}", ""),
    'spec.rules[0].host: Invalid value: "tab\\there\\u00a0\u{1F600}\\U000e0001"',
  ],
  [
    "Invalid, an int64",
    invalid(host, -5n, "must be positive"),
    "spec.rules[0].host: Invalid value: -5: must be positive",
  ],
  ["Invalid, an int32", invalid(host, 70000, ""), "spec.rules[0].host: Invalid value: 70000"],
  ["Invalid, a bool", invalid(host, true, "x"), "spec.rules[0].host: Invalid value: true: x"],
  ["Invalid, nil", invalid(host, null, "nil value"), "spec.rules[0].host: Invalid value: null: nil value"],
  ["Required", required(host), "spec.rules[0].host: Required value"],
  ["Required with a detail", required(host, "must be set"), "spec.rules[0].host: Required value: must be set"],
  ["Forbidden", forbidden(host, "may not be set"), "spec.rules[0].host: Forbidden: may not be set"],
  ["TooLong", tooLong(host, 253), "spec.rules[0].host: Too long: may not be more than 253 bytes"],
  ["TooLong, one byte", tooLong(host, 1), "spec.rules[0].host: Too long: may not be more than 1 byte"],
  [
    "NotSupported",
    notSupported(host, "Foo", ["Exact", "Prefix", "ImplementationSpecific"]),
    'spec.rules[0].host: Unsupported value: "Foo": supported values: "Exact", "Prefix", "ImplementationSpecific"',
  ],
  ["NotSupported, no list", notSupported(host, "Foo", []), 'spec.rules[0].host: Unsupported value: "Foo"'],
  ["Duplicate", duplicate(FieldPath.root("metadata").child("name"), "a"), 'metadata.name: Duplicate value: "a"'],
  ["NotFound", raw("FieldValueNotFound", ["x"], "x", "y", ""), 'x: Not found: "y"'],
  [
    "TooMany",
    raw("FieldValueTooMany", ["spec", "x"], "spec.x", 5, "must have at most 4 items"),
    "spec.x: Too many: 5: must have at most 4 items",
  ],
  ["TypeInvalid", raw("FieldValueTypeInvalid", ["y"], "y", "z", "d"), 'y: Invalid value: "z": d'],
  [
    "Invalid, a []string rendered by encoding/json",
    invalid(
      FieldPath.root("spec").child("ingress").index(0).child("from").index(1),
      ["a", "<b>"],
      "list",
      goJson(["a", "<b>"]),
    ),
    'spec.ingress[0].from[1]: Invalid value: ["a","\\u003cb\\u003e"]: list',
  ],
];

/** [input, strconv.Quote(input)]. */
const GO_QUOTE: readonly (readonly [string, string])[] = [
  ["\u0000", '"\\x00"'],
  ["\u0001", '"\\x01"'],
  ["\u0002", '"\\x02"'],
  ["\u0003", '"\\x03"'],
  ["\u0004", '"\\x04"'],
  ["\u0005", '"\\x05"'],
  ["\u0006", '"\\x06"'],
  ["\u0007", '"\\a"'],
  ["\u0008", '"\\b"'],
  ["\u0009", '"\\t"'],
  ["\u000a", '"\\n"'],
  ["\u000b", '"\\v"'],
  ["\u000c", '"\\f"'],
  ["\u000d", '"\\r"'],
  ["\u000e", '"\\x0e"'],
  ["\u000f", '"\\x0f"'],
  ["\u0010", '"\\x10"'],
  ["\u0011", '"\\x11"'],
  ["\u0012", '"\\x12"'],
  ["\u0013", '"\\x13"'],
  ["\u0014", '"\\x14"'],
  ["\u0015", '"\\x15"'],
  ["\u0016", '"\\x16"'],
  ["\u0017", '"\\x17"'],
  ["\u0018", '"\\x18"'],
  ["\u0019", '"\\x19"'],
  ["\u001a", '"\\x1a"'],
  ["\u001b", '"\\x1b"'],
  ["\u001c", '"\\x1c"'],
  ["\u001d", '"\\x1d"'],
  ["\u001e", '"\\x1e"'],
  ["\u001f", '"\\x1f"'],
  ["\u0022", '"\\""'],
  ["&", '"&"'],
  ["<", '"<"'],
  [">", '">"'],
  ["\u005c", '"\\\\"'],
  ["\u007f", '"\\x7f"'],
  ["\u0080", '"\\u0080"'],
  ["\u0085", '"\\u0085"'],
  ["\u009f", '"\\u009f"'],
  ["\u00a0", '"\\u00a0"'],
  ["\u00ad", '"\\u00ad"'],
  ["\u00e9", '"\u00e9"'],
  ["\u2028", '"\\u2028"'],
  ["\u2029", '"\\u2029"'],
  ["\u200b", '"\\u200b"'],
  ["\u200e", '"\\u200e"'],
  ["\u2060", '"\\u2060"'],
  ["\u3000", '"\\u3000"'],
  ["\ufeff", '"\\ufeff"'],
  ["\ufffd", '"\ufffd"'],
  ["\ufffe", '"\\ufffe"'],
  ["\uffff", '"\\uffff"'],
  ["\ue000", '"\\ue000"'],
  ["\uf8ff", '"\\uf8ff"'],
  ["\u0301", '"\u0301"'],
  ["\u4e2d", '"\u4e2d"'],
  ["\u1680", '"\\u1680"'],
  ["\u061c", '"\\u061c"'],
  ["\u00b7", '"\u00b7"'],
  ["\u0378", '"\\u0378"'],
  ["\ud83d\ude00", '"\ud83d\ude00"'],
  ["\udb40\udc01", '"\\U000e0001"'],
  ["\udbff\udfff", '"\\U0010ffff"'],
  ["\ud800\udc00", '"\ud800\udc00"'],
  ["\udb80\udc00", '"\\U000f0000"'],
  ["<script>&amp;</script>", '"<script>&amp;</script>"'],
  ["h\u00e9llo w\u00f6rld\u0009\u0022quoted\u0022\u005c", '"h\u00e9llo w\u00f6rld\\t\\"quoted\\"\\\\"'],
  ["a\u2028b\u2029c\u0000d\u001fe", '"a\\u2028b\\u2029c\\x00d\\x1fe"'],
];

/** The printable ASCII characters strconv.Quote writes as they are (all but `"` and `\`). */
const GO_QUOTE_PLAIN = " !#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";

describe("formatFieldError and formatFieldErrorBody (field.Error's Error() and ErrorBody())", () => {
  it.each(GO_ERRORS)("%s", (_what, e, go) => {
    expect(formatFieldError(e)).toBe(go);
    expect(formatFieldErrorBody(e)).toBe(go.slice(`${e.field}: `.length));
  });

  it("an internal error prints its type text and detail only", () => {
    expect(formatFieldErrorBody(raw("InternalError", ["a"], "a", "x", "boom"))).toBe("Internal error: boom");
  });

  it("without a Go rendering, a structured value prints as JSON (int64 as digits)", () => {
    const e = invalid(host, { a: [1n, "<"] }, "d");
    expect(formatFieldErrorBody(e)).toBe('Invalid value: {"a":["1","<"]}: d');
  });
});

describe("the constructors", () => {
  it("render the path and keep it structured", () => {
    const e = invalid(host, "x", "why");
    expect(e).toEqual({
      type: "FieldValueInvalid",
      field: "spec.rules[0].host",
      path: ["spec", "rules", 0, "host"],
      badValue: "x",
      detail: "why",
    });
    expect(required(host)).toMatchObject({ type: "FieldValueRequired", badValue: "", detail: "" });
    expect(forbidden(host, "no")).toMatchObject({ type: "FieldValueForbidden", badValue: "", detail: "no" });
    // A too-long value is never echoed.
    expect(tooLong(host, 63)).toMatchObject({ type: "FieldValueTooLong", badValue: "" });
    expect(duplicate(host, "a")).toMatchObject({ type: "FieldValueDuplicate", badValue: "a", detail: "" });
  });

  it("a Go rendering stays out of JSON and equality", () => {
    const plain = invalid(host, ["a"], "d");
    const rendered = invalid(host, ["a"], "d", '["a"]');
    expect(rendered).toEqual(plain);
    expect(JSON.stringify(rendered)).toBe(JSON.stringify(plain));
    expect(Object.keys(rendered)).toEqual(["type", "field", "path", "badValue", "detail"]);
  });

  it("notSupported with a named Go type prints the value as encoding/json does", () => {
    const e = notSupported(host, "Foo<", ["Exact"], goJson("Foo<"));
    expect(formatFieldErrorBody(e)).toBe('Unsupported value: "Foo\\u003c": supported values: "Exact"');
  });
});

describe("goQuote (strconv.Quote)", () => {
  it.each(GO_QUOTE)("%j", (input, go) => {
    expect(goQuote(input)).toBe(go);
  });

  it("printable ASCII but the quote and backslash is written as it is", () => {
    expect(goQuote(GO_QUOTE_PLAIN)).toBe(`"${GO_QUOTE_PLAIN}"`);
    expect(goQuote("")).toBe('""');
  });

  it("a lone surrogate, which Go text cannot hold, is U+FFFD", () => {
    expect(goQuote("a\ud800b")).toBe('"a\ufffdb"');
    expect(goQuote("\udc00")).toBe('"\ufffd"');
  });
});

describe("goJson, goJsonStrings, goStringSlice", () => {
  it("goJson is json.Marshal: keys in the order given, HTML characters escaped", () => {
    expect(goJson({ Group: "", Kind: "<K>", Name: "a&b" })).toBe(
      '{"Group":"","Kind":"\\u003cK\\u003e","Name":"a\\u0026b"}',
    );
    expect(goJson([1, true, null, [], {}])).toBe("[1,true,null,[],{}]");
    expect(goJson("\u2028")).toBe('"\\u2028"');
  });

  it("goJsonStrings: a nil (empty) slice is null", () => {
    expect(goJsonStrings([])).toBe("null");
    expect(goJsonStrings(["a", "b"])).toBe('["a","b"]');
  });

  it("goStringSlice is %#v of a string slice", () => {
    expect(goStringSlice("[]string", [])).toBe("[]string(nil)");
    expect(goStringSlice("[]string", ["a", "b\t"])).toBe('[]string{"a", "b\\t"}');
    expect(goStringSlice("[]v1.PolicyType", ["Ingress"])).toBe('[]v1.PolicyType{"Ingress"}');
  });
});

describe("declarativeMerge", () => {
  const a = invalid(host, "a", "x");
  const b = required(FieldPath.root("spec").child("b"));
  const marked = coveredByDeclarative(required(FieldPath.root("spec").child("c")));
  const rendered = coveredByDeclarative(invalid(FieldPath.root("spec").child("d"), ["v"], "bad"), '[]string{"v"}');

  it("drops an error whose text repeats an earlier one's", () => {
    expect(declarativeMerge([a, b, invalid(host, "a", "x")], true)).toEqual([a, b]);
  });

  it("moves the marked errors after the others, in their order", () => {
    expect(declarativeMerge([marked, a, rendered, b], true)).toEqual([a, b, marked, { ...rendered, badValue: null }]);
  });

  it("the moved error prints its value in the declarative rendering", () => {
    const merged = declarativeMerge([rendered], true);
    expect(formatFieldError(merged[0]!)).toBe('spec.d: Invalid value: []string{"v"}: bad');
    // The original keeps its own rendering.
    expect(formatFieldError(rendered)).toBe('spec.d: Invalid value: ["v"]: bad');
  });

  it("moves nothing when not asked (an update that leaves the spec as it was)", () => {
    expect(declarativeMerge([marked, a], false)).toEqual([marked, a]);
  });

  it("returns a new list and leaves its input alone", () => {
    const input = [marked, a];
    const out = declarativeMerge(input, true);
    expect(out).not.toBe(input);
    expect(input).toEqual([marked, a]);
  });
});
