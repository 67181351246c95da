import { describe, expect, it } from "vitest";
import { setOwn } from "../../../src/networking/model/set-own.js";

describe("setOwn", () => {
  it('makes "__proto__" an own, enumerable, writable key and leaves the prototype alone', () => {
    const payload = { polluted: true };
    const obj: Record<string, unknown> = {};
    setOwn(obj, "__proto__", payload);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(obj, "__proto__")).toEqual({
      value: payload,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(Object.keys(obj)).toEqual(["__proto__"]);
    expect(JSON.stringify(obj)).toBe('{"__proto__":{"polluted":true}}');
    // Nothing leaked onto Object.prototype or into a fresh object.
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect("polluted" in obj).toBe(false);
  });

  it('a second "__proto__" replaces the first, still as an own key', () => {
    const obj: Record<string, unknown> = {};
    setOwn(obj, "__proto__", 1);
    setOwn(obj, "__proto__", 2);
    expect(Object.getOwnPropertyDescriptor(obj, "__proto__")?.value).toBe(2);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
  });

  it("works on prototype-less objects too", () => {
    const obj = Object.create(null) as Record<string, unknown>;
    setOwn(obj, "__proto__", "x");
    setOwn(obj, "constructor", "y");
    expect(Object.getPrototypeOf(obj)).toBeNull();
    expect({ ...obj }).toEqual(
      Object.fromEntries([
        ["__proto__", "x"],
        ["constructor", "y"],
      ]),
    );
  });

  it("assigns every other key as plain assignment does, in insertion order", () => {
    const obj: Record<string, unknown> = {};
    setOwn(obj, "b", 1);
    setOwn(obj, "constructor", 2);
    setOwn(obj, "", 3);
    setOwn(obj, "b", 4);
    expect(Object.entries(obj)).toEqual([
      ["b", 4],
      ["constructor", 2],
      ["", 3],
    ]);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
  });
});
