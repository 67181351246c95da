import { describe, expect, it } from "vitest";
import { rawDifference, renderParsed, sameNumber } from "../../../bench/yaml-differential/raw-value.js";
import type { JsonValue } from "../../../src/networking/index.js";
import { parseJsonText } from "../../../src/networking/text/json/parse.js";

// Go's side is JSON text as json.Marshal writes it (these literals are what
// sigs.k8s.io/yaml YAMLToJSON printed for `a: 9007199254740993`, `b: 1e20`,
// `c: 3.0`, `d: -0.0`, `e: -0`, `f: 0.1`), read with clusterwire's exact parser.
const go = (json: string) => parseJsonText(json, { maxDepth: 1000 }).value;

describe("rawDifference", () => {
  it("compares integers beyond 2^53 exactly, as bigints", () => {
    expect(rawDifference(9007199254740993n, go("9007199254740993"))).toBeUndefined();
    expect(rawDifference(9007199254740992n, go("9007199254740993"))).toBe("number");
    // A double of ours where Go kept an int64 shows, though it reads as the same double.
    expect(rawDifference(9007199254740992, go("9007199254740993"))).toBe("number");
    expect(rawDifference(-(2n ** 63n), go("-9223372036854775808"))).toBeUndefined();
  });

  it("compares Go's doubles by value, whether or not json.Marshal wrote a fraction", () => {
    // 1e20 and 3.0 are floats in go-yaml; json.Marshal writes them without a fraction.
    expect(rawDifference(1e20, go("100000000000000000000"))).toBeUndefined();
    expect(rawDifference(3, go("3"))).toBeUndefined();
    expect(rawDifference(0.1, go("0.1"))).toBeUndefined();
    expect(rawDifference(0.1, go("1e-1"))).toBeUndefined();
    expect(rawDifference(0.30000000000000004, go("0.3"))).toBe("number");
    expect(rawDifference(1e21, go("1e+21"))).toBeUndefined();
    expect(rawDifference(123456789012345680000, go("123456789012345680000"))).toBeUndefined();
  });

  it("tells -0 from 0, as Go writes them differently", () => {
    expect(rawDifference(-0, go("-0"))).toBeUndefined();
    expect(rawDifference(0, go("-0"))).toBe("number");
    expect(rawDifference(0, go("0"))).toBeUndefined();
    expect(rawDifference(-0, go("0"))).toBe("number");
  });

  it("never equates a number and a string, or a bigint and a fraction", () => {
    expect(rawDifference("1", go("1"))).toBe("type-string-number");
    expect(rawDifference(1, go('"1"'))).toBe("type-number-string");
    expect(rawDifference(2n ** 60n, go("1152921504606846976.5"))).toBe("number");
    expect(rawDifference(null, go("false"))).toBe("type-null-boolean");
    expect(rawDifference(true, go("false"))).toBe("boolean");
  });

  it("compares objects as sets of keys and arrays in order", () => {
    const ours: JsonValue = { b: [1, "x"], a: { c: null } };
    expect(rawDifference(ours, go('{"a":{"c":null},"b":[1,"x"]}'))).toBeUndefined();
    expect(rawDifference(ours, go('{"a":{"c":null},"b":["x",1]}'))).toBe("type-number-string");
    expect(rawDifference(ours, go('{"a":{"c":null},"b":[1]}'))).toBe("array-length");
    expect(rawDifference(ours, go('{"a":{"c":null},"b":[1,"x"],"d":1}'))).toBe("keys-missing");
    expect(rawDifference(ours, go('{"b":[1,"x"]}'))).toBe("keys-extra");
    expect(rawDifference({ a: "x \n" }, go('{"a":"x"}'))).toBe("trailing-whitespace");
    expect(rawDifference({ a: "x y" }, go('{"a":"x\\ny"}'))).toBe("whitespace");
    expect(rawDifference({ a: "x<y" }, go('{"a":"x\\u003cy"}'))).toBeUndefined();
  });

  it("does not take inherited names for keys", () => {
    expect(rawDifference({}, go('{"constructor":1}'))).toBe("keys-missing");
    expect(rawDifference(JSON.parse('{"__proto__":1}') as JsonValue, go("{}"))).toBe("keys-extra");
  });
});

describe("sameNumber", () => {
  it("compares a double of ours at or beyond 2^53 with Go's integer digits", () => {
    // YAMLToJSON wrote `1152921504606846976.0` (a float) as 1152921504606847000 and the
    // int 1152921504606846976 as itself: a double of ours is only Go's float.
    expect(sameNumber(2 ** 60, 1152921504606847000n)).toBe(true);
    expect(sameNumber(2 ** 60, 2n ** 60n)).toBe(false);
    expect(sameNumber(1.5, 1)).toBe(false);
  });
});

describe("renderParsed", () => {
  it("writes numbers as Go wrote them and keys sorted", () => {
    expect(renderParsed(go('{"b":-0,"a":[1e+21,9007199254740993,0.5]}'))).toBe(
      '{"a":[1e+21,9007199254740993,0.5],"b":-0}',
    );
  });
});
