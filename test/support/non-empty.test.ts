import { describe, expect, it } from "vitest";
import { nonEmpty } from "./non-empty.js";

describe("nonEmpty", () => {
  it("returns the list when it holds enough items", () => {
    expect(nonEmpty(["a.pb"], "fixtures")).toEqual(["a.pb"]);
    expect(nonEmpty([1, 2, 3], "golden files", 3)).toEqual([1, 2, 3]);
  });

  it("throws, naming what was looked for, on an empty or short list", () => {
    expect(() => nonEmpty([], "fixtures in test/fixtures/x")).toThrow(
      "fixtures in test/fixtures/x: found 0 (expected at least one); is the folder missing or empty?",
    );
    expect(() => nonEmpty([1, 2], "golden files", 3)).toThrow("golden files: found 2 (expected at least 3)");
  });
});
