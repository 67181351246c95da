// The client layer's plain-object test (src/storage/client/objects.ts): what counts as a JSON
// object when the client reads an answer, a job reference or an error body.
import { describe, expect, it } from "vitest";
import { isObject } from "../../../src/storage/client/objects.js";

describe("isObject", () => {
  it("is true for objects, parsed JSON objects included, whatever their prototype", () => {
    const accepted: unknown[] = [
      {},
      { job: { uuid: "x" } },
      JSON.parse('{"__proto__": {"state": "success"}}'),
      Object.create(null),
      new (class Record {})(),
      new Date(0),
    ];
    for (const [i, v] of accepted.entries()) expect(isObject(v), `accepted[${i}]`).toBe(true);
  });

  it("is false for null, arrays and every other kind of value", () => {
    const refused: unknown[] = [
      null,
      undefined,
      [],
      [{}],
      JSON.parse("[1]"),
      "{}",
      "",
      0,
      Number.NaN,
      true,
      10n,
      Symbol("x"),
      () => ({}),
    ];
    for (const [i, v] of refused.entries()) expect(isObject(v), `refused[${i}]`).toBe(false);
  });

  it("narrows to a record whose members can be read", () => {
    const body: unknown = JSON.parse('{"num_records": 2}');
    if (!isObject(body)) throw new Error("expected an object");
    expect(body["num_records"]).toBe(2);
    expect(body["missing"]).toBeUndefined();
  });
});
