// resolvePlain is go-yaml v2's reading of an untagged plain scalar. GO_RESOLVE holds what
// go.yaml.in/yaml/v2 v2.4.3 (the YAML library the API server and kubectl read with) gives for
// `v: <text>` unmarshalled into interface{}: the Go type and value (floats as
// strconv.FormatFloat(v, 'g', -1, 64)). go-yaml keeps a timestamp as its text there, so a "str"
// that is a timestamp is resolvePlain's "timestamp" kind.

import { describe, expect, it } from "vitest";
import { INT64_MAX, NULL, resolvePlain, UINT64_MAX } from "../../../../src/networking/text/yaml/resolve.js";
import { isGoTimestamp } from "../../../../src/networking/text/yaml/timestamp.js";

/** [text, Go type, Go value] (no value for null and strings, which is the text). */
type GoResult = readonly [string, "null" | "str" | "bool" | "int" | "uint" | "float", string?];

const GO_RESOLVE: readonly GoResult[] = [
  ["", "null"],
  ["~", "null"],
  ["null", "null"],
  ["Null", "null"],
  ["NULL", "null"],
  ["nULL", "str"],
  ["y", "bool", "true"],
  ["Y", "bool", "true"],
  ["yes", "bool", "true"],
  ["Yes", "bool", "true"],
  ["YES", "bool", "true"],
  ["yEs", "str"],
  ["n", "bool", "false"],
  ["no", "bool", "false"],
  ["true", "bool", "true"],
  ["True", "bool", "true"],
  ["TRUE", "bool", "true"],
  ["tRue", "str"],
  ["on", "bool", "true"],
  ["On", "bool", "true"],
  ["off", "bool", "false"],
  ["OFF", "bool", "false"],
  [".nan", "float", "NaN"],
  [".NaN", "float", "NaN"],
  [".NAN", "float", "NaN"],
  [".inf", "float", "+Inf"],
  ["+.inf", "float", "+Inf"],
  ["-.Inf", "float", "-Inf"],
  [".INF", "float", "+Inf"],
  ["-.inf", "float", "-Inf"],
  [".5", "float", "0.5"],
  [".5e3", "float", "500"],
  ["._5", "str"],
  [".5_0", "float", "0.5"],
  ["0", "int", "0"],
  ["-0", "int", "0"],
  ["+0", "int", "0"],
  ["1", "int", "1"],
  ["+1", "int", "1"],
  ["-1", "int", "-1"],
  ["012", "int", "10"],
  ["0o12", "int", "10"],
  ["0x1F", "int", "31"],
  ["0X1f", "int", "31"],
  ["0b101", "int", "5"],
  ["-0b101", "int", "-5"],
  ["+0b101", "int", "5"],
  ["0b", "str"],
  ["0x", "str"],
  ["1_000", "int", "1000"],
  ["1__0", "int", "10"],
  ["_1", "str"],
  ["9223372036854775807", "int", "9223372036854775807"],
  ["9223372036854775808", "uint", "9223372036854775808"],
  ["-9223372036854775808", "int", "-9223372036854775808"],
  ["-9223372036854775809", "float", "-9.223372036854776e+18"],
  ["18446744073709551615", "uint", "18446744073709551615"],
  ["18446744073709551616", "float", "1.8446744073709552e+19"],
  ["1.5", "float", "1.5"],
  ["-1.5", "float", "-1.5"],
  ["1e3", "float", "1000"],
  ["1E3", "float", "1000"],
  ["1e", "str"],
  ["1.", "float", "1"],
  ["+1.5e-3", "float", "0.0015"],
  ["1e400", "str"],
  ["-1e400", "str"],
  ["0x1p3", "str"],
  ["1:30", "str"],
  ["1:30:45", "str"],
  ["-1:30.5", "str"],
  ["190:20:30", "str"],
  ["2001-12-14", "str"],
  ["2001-12-14t21:59:43.10-05:00", "str"],
  ["2001-12-14 21:59:43.10", "str"],
  ["2001-12-15T02:59:43.1Z", "str"],
  ["2001-13-14", "str"],
  ["2001-1-1", "str"],
  ["12-12-12", "str"],
  ["abc", "str"],
  ["-abc", "str"],
  ["+", "str"],
  [".", "str"],
  ["..", "str"],
  ["0.", "float", "0"],
  ["1_0.5", "float", "10.5"],
  ["0b1_0", "int", "2"],
  ["09", "float", "9"],
  ["08.5", "float", "8.5"],
  ["0xg", "str"],
  ["1e1_0", "float", "1e+10"],
  ["NaN", "str"],
  ["Infinity", "str"],
  ["0o", "str"],
  ["-0x10", "int", "-16"],
  ["-0o17", "int", "-15"],
  ["0O17", "int", "15"],
  ["+0x10", "int", "16"],
  ["-0.0", "float", "-0"],
  ["+.5", "float", "0.5"],
  ["-.5", "float", "-0.5"],
  ["0.0", "float", "0"],
  ["1_", "int", "1"],
  ["0_1", "int", "1"],
  ["0x_1", "int", "1"],
  ["0b_1", "int", "1"],
  ["1e+3", "float", "1000"],
  ["+1e3", "float", "1000"],
  ["6.8523015e+5", "float", "685230.15"],
  ["685.230_15e+03", "float", "685230.15"],
  ["685_230.15", "float", "685230.15"],
  ["190:20:30.15", "str"],
  ["0o_7", "int", "7"],
  ["-.5e-1", "float", "-0.05"],
  ["._", "str"],
  [".e1", "str"],
  ["-0b11111111111111111111111111111111111111111111111111111111111111111", "str"],
  ["0b1111111111111111111111111111111111111111111111111111111111111111", "uint", "18446744073709551615"],
  ["0x8000000000000000", "uint", "9223372036854775808"],
  ["-0x8000000000000000", "int", "-9223372036854775808"],
  ["-0x8000000000000001", "str"],
  ["0777", "int", "511"],
  ["0888", "float", "888"],
  ["1.7976931348623157e308", "float", "1.7976931348623157e+308"],
  ["1.8e308", "str"],
  ["4.9e-324", "float", "5e-324"],
  ["1e-400", "float", "0"],
];

function goFloat(text: string): number {
  return text === "+Inf" ? Number.POSITIVE_INFINITY : text === "-Inf" ? Number.NEGATIVE_INFINITY : Number(text);
}

describe("resolvePlain (go-yaml v2 resolve)", () => {
  it.each(GO_RESOLVE.map(([text, kind, value]) => [text, kind, value ?? ""] as const))("%j", (text, kind, value) => {
    const got = resolvePlain(text);
    switch (kind) {
      case "null":
        expect(got).toEqual({ kind: "null" });
        break;
      case "str":
        expect(got).toEqual({ kind: isGoTimestamp(text) ? "timestamp" : "str", text });
        break;
      case "bool":
        expect(got).toEqual({ kind: "bool", value: value === "true" });
        break;
      case "int":
      case "uint":
        expect(got).toEqual({ kind, value: BigInt(value) });
        break;
      case "float":
        expect(got.kind).toBe("float");
        expect((got as { value: number }).value).toBe(goFloat(value));
        break;
    }
  });

  it("-0.0 is the float -0, -0 the int 0", () => {
    expect(Object.is((resolvePlain("-0.0") as { value: number }).value, -0)).toBe(true);
    expect(resolvePlain("-0")).toEqual({ kind: "int", value: 0n });
  });

  it("timestamps are recognised (and left as text for the caller)", () => {
    expect(resolvePlain("2001-12-14")).toEqual({ kind: "timestamp", text: "2001-12-14" });
    expect(resolvePlain("2001-12-14t21:59:43.10-05:00")).toEqual({
      kind: "timestamp",
      text: "2001-12-14t21:59:43.10-05:00",
    });
  });

  it("null is one shared value; int64 and uint64 limits are exported exactly", () => {
    expect(resolvePlain("~")).toBe(NULL);
    expect(resolvePlain("")).toBe(NULL);
    expect(INT64_MAX).toBe(2n ** 63n - 1n);
    expect(UINT64_MAX).toBe(2n ** 64n - 1n);
    expect(resolvePlain(String(INT64_MAX))).toEqual({ kind: "int", value: INT64_MAX });
    expect(resolvePlain(String(INT64_MAX + 1n))).toEqual({ kind: "uint", value: INT64_MAX + 1n });
  });

  it("text that starts with anything but a digit, sign, dot or a y/n/t/f/o/~ letter is a string at once", () => {
    for (const text of ["abc", "ABC", "Yes!", "x1", "@1", "_1", "\u0661", " 1", "1 "]) {
      const got = resolvePlain(text);
      expect(got.kind === "str" || got.kind === "bool", text).toBe(true);
      if (got.kind === "str") expect(got.text).toBe(text);
    }
    expect(resolvePlain("Yes")).toEqual({ kind: "bool", value: true });
  });
});
