import { describe, expect, it } from "vitest";
import { PathError } from "../../../../src/networking/text/json/path-error.js";

describe("PathError", () => {
  it("starts with the reason and no path, unless given one", () => {
    const e = new PathError("expected a string");
    expect(e.reason).toBe("expected a string");
    expect(e.path).toEqual([]);
    expect(e.occurrences).toEqual([]);
    const at = new PathError("bad", ["spec", 0]);
    expect(at.path).toEqual(["spec", 0]);
    expect(at.occurrences).toEqual([undefined, undefined]);
    expect(new PathError("bad", ["a"], [2]).occurrences).toEqual([2]);
  });

  it("prefix() puts segments in front while unwinding, each with its occurrence", () => {
    const e = new PathError("expected a string", ["host"]);
    e.prefix(0);
    e.prefix("rules", 2);
    e.prefix("spec");
    expect(e.path).toEqual(["spec", "rules", 0, "host"]);
    expect(e.occurrences).toEqual([undefined, 2, undefined, undefined]);
    expect(e.path).toHaveLength(e.occurrences.length);
  });

  it("is not an Error: it is caught and turned into a DecodeError by the reader", () => {
    expect(new PathError("x")).not.toBeInstanceOf(Error);
  });
});
