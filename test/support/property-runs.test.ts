// CLUSTERWIRE_PROPERTY_RUNS has one meaning: N runs for every property, in place of its default;
// unset keeps the default; anything else fails loudly, naming the variable.
import { describe, expect, it } from "vitest";
import { PROPERTY_RUNS_VARIABLE, parsePropertyRuns, propertyRuns } from "./property-runs.js";

describe("propertyRuns", () => {
  it("keeps the default when the variable is unset", () => {
    expect(propertyRuns(300, {})).toBe(300);
  });

  it("replaces every default with the variable's value, lower or higher", () => {
    expect(propertyRuns(300, { [PROPERTY_RUNS_VARIABLE]: "5" })).toBe(5);
    expect(propertyRuns(3, { [PROPERTY_RUNS_VARIABLE]: "5000" })).toBe(5000);
    expect(parsePropertyRuns("999999999")).toBe(999999999);
  });

  it.each(["", " ", "0", "-5", "1.5", "1e3", "abc", "10 ", "0x10", "07", "1000000000", "Infinity"])(
    "refuses %j with an error naming the variable",
    (value) => {
      expect(() => propertyRuns(300, { [PROPERTY_RUNS_VARIABLE]: value })).toThrow(
        new RegExp(`^${PROPERTY_RUNS_VARIABLE} must be a whole number of runs per property`),
      );
    },
  );

  it("refuses a default that is not a positive whole number", () => {
    expect(() => propertyRuns(0, {})).toThrow(RangeError);
    expect(() => propertyRuns(Number.NaN, {})).toThrow(RangeError);
  });
});
