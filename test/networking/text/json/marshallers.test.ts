// The JSON of the two messages whose Go types marshal themselves: IntOrString (a bare number
// or string, by its type; Go refuses any other type) and FieldsV1 (its raw bytes, embedded as
// JSON; a nil Raw is null).

import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { FieldsV1Schema } from "../../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { IntOrStringSchema } from "../../../../gen/k8s/io/apimachinery/pkg/util/intstr/intstr_pb.js";
import { EncodeError } from "../../../../src/networking/model/errors.js";
import { check, fieldsV1, intOrString } from "../../../../src/networking/text/json/marshallers.js";
import { printGoJson, RawJson } from "../../../../src/networking/text/json/print.js";

type Sub = Parameters<typeof intOrString>[0];
const ios = (init: Record<string, unknown>): Sub => create(IntOrStringSchema, init as never) as unknown as Sub;
const fv1 = (raw: unknown): Sub => create(FieldsV1Schema, { Raw: raw as Uint8Array }) as unknown as Sub;
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function encodeError(f: () => unknown): EncodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof EncodeError) return e;
    throw e;
  }
  throw new Error("no EncodeError");
}

describe("check", () => {
  it("does nothing without a reason, throws an EncodeError at the path with one", () => {
    expect(() => check(undefined)).not.toThrow();
    const e = encodeError(() => check("expected a string, got number 5", "strVal"));
    expect([e.path, e.reason]).toEqual(["strVal", "expected a string, got number 5"]);
    expect(encodeError(() => check("why")).path).toBe("");
  });
});

describe("intOrString", () => {
  it("type 0 is the int, type 1 the string; a missing message is Go's zero, the int 0", () => {
    expect(intOrString(ios({ type: 0n, intVal: 80, strVal: "ignored" }))).toBe(80);
    expect(intOrString(ios({ type: 1n, intVal: 5, strVal: "http" }))).toBe("http");
    expect(intOrString(ios({ type: 1n }))).toBe("");
    expect(intOrString(ios({}))).toBe(0);
    expect(intOrString(undefined)).toBe(0);
    expect(intOrString(ios({ intVal: -2147483648 }))).toBe(-2147483648);
  });

  it("any other type is refused, as Go refuses it", () => {
    for (const type of [2n, -1n, 2n ** 62n]) {
      const e = encodeError(() => intOrString(ios({ type })));
      expect([e.path, e.reason]).toEqual(["", `IntOrString has type ${type}; only 0 (int) and 1 (string) exist`]);
    }
  });

  it("a member of the wrong type is refused at its path", () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: 0 }, "type", "expected an int64 bigint, got number 0"],
      [{ type: 0n, intVal: "80" }, "intVal", "expected an int32, got a string"],
      [{ type: 0n, intVal: 2 ** 31 }, "intVal", "expected an int32, got number 2147483648"],
      [{ type: 1n, strVal: 5 }, "strVal", "expected a string, got number 5"],
    ];
    for (const [init, path, reason] of cases) {
      const e = encodeError(() => intOrString(ios(init)));
      expect([e.path, e.reason]).toEqual([path, reason]);
    }
  });
});

describe("fieldsV1", () => {
  it("no Raw, or an empty one, is null", () => {
    expect(fieldsV1(undefined)).toBeNull();
    expect(fieldsV1(create(FieldsV1Schema) as unknown as Sub)).toBeNull();
    expect(fieldsV1(fv1(new Uint8Array()))).toBeNull();
  });

  it("Raw JSON is embedded as it is, keeping key order, repeats and number spelling", () => {
    const text = ' {"f:metadata": {"f:labels": {}, "f:b": 1.50, "f:a": 1, "f:a": 2}} ';
    const got = fieldsV1(fv1(utf8(text)));
    expect(got).toBeInstanceOf(RawJson);
    expect((got as RawJson).text).toBe(text);
    expect(printGoJson(got!)).toBe('{"f:metadata":{"f:labels":{},"f:b":1.50,"f:a":1,"f:a":2}}');
    expect(printGoJson(fieldsV1(fv1(utf8('"<x>"')))!)).toBe('"\\u003cx\\u003e"');
  });

  it("refuses bytes that are not UTF-8, or not JSON, or not bytes", () => {
    expect(encodeError(() => fieldsV1(fv1(Uint8Array.of(0x7b, 0xff, 0x7d)))).reason).toBe(
      "fieldsV1 holds bytes that are not UTF-8 JSON",
    );
    const notJson = encodeError(() => fieldsV1(fv1(utf8("{"))));
    expect(notJson.path).toBe("");
    expect(notJson.reason).toMatch(/^fieldsV1 is not valid JSON: /);
    expect(encodeError(() => fieldsV1(fv1(utf8("{} {}")))).reason).toMatch(/^fieldsV1 is not valid JSON: /);
    const notBytes = encodeError(() => fieldsV1(fv1("{}")));
    expect([notBytes.path, notBytes.reason]).toEqual(["Raw", "expected a Uint8Array, got a string"]);
  });
});
