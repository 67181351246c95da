import { ScalarType } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containerMismatch, scalarMismatch } from "../../../src/networking/model/value-checks.js";
import { propertyRuns } from "../../support/property-runs.js";

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

describe("scalarMismatch", () => {
  it("accepts exactly the values of each scalar type", () => {
    const ok: [ScalarType, unknown][] = [
      [ScalarType.STRING, ""],
      [ScalarType.STRING, "\ud800"],
      [ScalarType.BYTES, new Uint8Array()],
      [ScalarType.BYTES, Buffer.from("x")], // a Buffer is a Uint8Array
      [ScalarType.INT32, 0],
      [ScalarType.INT32, -0],
      [ScalarType.INT32, INT32_MIN],
      [ScalarType.INT32, INT32_MAX],
      [ScalarType.INT64, 0n],
      [ScalarType.INT64, INT64_MIN],
      [ScalarType.INT64, INT64_MAX],
      [ScalarType.BOOL, false],
      [ScalarType.BOOL, true],
    ];
    for (const [t, v] of ok) expect(scalarMismatch(t, v), `${ScalarType[t]} ${String(v)}`).toBeUndefined();
  });

  it("refuses values of another type, or out of range, saying what it wanted and what it got", () => {
    const bad: [ScalarType, unknown, string][] = [
      [ScalarType.STRING, 5, "expected a string, got number 5"],
      [ScalarType.STRING, null, "expected a string, got null"],
      [ScalarType.STRING, undefined, "expected a string, got undefined"],
      [ScalarType.STRING, ["a"], "expected a string, got an array"],
      [ScalarType.STRING, new String("a"), "expected a string, got object"],
      [ScalarType.BYTES, "aGk=", "expected a Uint8Array, got a string"],
      [ScalarType.BYTES, [104, 105], "expected a Uint8Array, got an array"],
      [ScalarType.BYTES, new Uint16Array(2), "expected a Uint8Array, got object"],
      [ScalarType.INT32, 1.5, "expected an int32, got number 1.5"],
      [ScalarType.INT32, INT32_MAX + 1, "expected an int32, got number 2147483648"],
      [ScalarType.INT32, INT32_MIN - 1, "expected an int32, got number -2147483649"],
      [ScalarType.INT32, Number.NaN, "expected an int32, got number NaN"],
      [ScalarType.INT32, Number.POSITIVE_INFINITY, "expected an int32, got number Infinity"],
      [ScalarType.INT32, 80n, "expected an int32, got bigint 80"],
      [ScalarType.INT32, "80", "expected an int32, got a string"],
      [ScalarType.INT64, 5, "expected an int64 bigint, got number 5"],
      [ScalarType.INT64, INT64_MAX + 1n, "expected an int64 bigint, got bigint 9223372036854775808"],
      [ScalarType.INT64, INT64_MIN - 1n, "expected an int64 bigint, got bigint -9223372036854775809"],
      [ScalarType.INT64, "5", "expected an int64 bigint, got a string"],
      [ScalarType.BOOL, 0, "expected a boolean, got number 0"],
      [ScalarType.BOOL, "true", "expected a boolean, got a string"],
      [ScalarType.BOOL, {}, "expected a boolean, got object"],
      [ScalarType.BOOL, () => true, "expected a boolean, got function"],
      [ScalarType.BOOL, Symbol("x"), "expected a boolean, got symbol"],
    ];
    for (const [t, v, why] of bad) expect(scalarMismatch(t, v), why).toBe(why);
  });

  it("never repeats a string's contents: a misplaced value may be a secret", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 3 }), (secret) => {
        for (const t of [ScalarType.BYTES, ScalarType.INT32, ScalarType.INT64, ScalarType.BOOL]) {
          const why = scalarMismatch(t, secret);
          expect(why).toMatch(/, got a string$/);
          expect(why).not.toContain(secret);
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it("int32: any integer in range passes, any other number fails", () => {
    fc.assert(
      fc.property(fc.double(), (x) => {
        const inRange = Number.isInteger(x) && x >= INT32_MIN && x <= INT32_MAX;
        expect(scalarMismatch(ScalarType.INT32, x) === undefined).toBe(inRange);
      }),
      { numRuns: propertyRuns(300) },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MIN * 2n, max: INT64_MAX * 2n }), (x) => {
        const inRange = x >= INT64_MIN && x <= INT64_MAX;
        expect(scalarMismatch(ScalarType.INT64, x) === undefined).toBe(inRange);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it("scalar types these schemas never use are refused by name", () => {
    expect(scalarMismatch(ScalarType.DOUBLE, 1.5)).toBe("unsupported scalar type DOUBLE");
    expect(scalarMismatch(ScalarType.UINT64, 1n)).toBe("unsupported scalar type UINT64");
    expect(scalarMismatch(ScalarType.FLOAT, 0)).toBe("unsupported scalar type FLOAT");
  });
});

describe("containerMismatch", () => {
  it("a list is an array", () => {
    expect(containerMismatch("list", [])).toBeUndefined();
    expect(containerMismatch("list", ["a", 1])).toBeUndefined();
    expect(containerMismatch("list", {})).toBe("expected an array, got object");
    expect(containerMismatch("list", "a,b")).toBe("expected an array, got a string");
    expect(containerMismatch("list", new Uint8Array(1))).toBe("expected an array, got object");
    expect(containerMismatch("list", null)).toBe("expected an array, got null");
    expect(containerMismatch("list", undefined)).toBe("expected an array, got undefined");
  });

  it("a map or a message is an object that is neither an array, nor bytes, nor null", () => {
    for (const kind of ["map", "message"] as const) {
      const what = kind === "map" ? "a map object" : "a message";
      expect(containerMismatch(kind, {})).toBeUndefined();
      expect(containerMismatch(kind, Object.create(null))).toBeUndefined();
      expect(containerMismatch(kind, new Map())).toBeUndefined();
      expect(containerMismatch(kind, [])).toBe(`expected ${what}, got an array`);
      expect(containerMismatch(kind, new Uint8Array())).toBe(`expected ${what}, got object`);
      expect(containerMismatch(kind, null)).toBe(`expected ${what}, got null`);
      expect(containerMismatch(kind, "x")).toBe(`expected ${what}, got a string`);
      expect(containerMismatch(kind, 7)).toBe(`expected ${what}, got number 7`);
      expect(containerMismatch(kind, true)).toBe(`expected ${what}, got boolean true`);
    }
  });
});
