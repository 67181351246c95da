// A missing tool skips a test with its reason on a developer's machine and fails it under CI.
import { describe, expect, it } from "vitest";
import { inCi, type Skippable, skipWithout } from "./tools.js";

/** A test context whose skip records its note and throws, as vitest's does. */
function context(): Skippable & { notes: string[] } {
  const notes: string[] = [];
  return {
    notes,
    skip(note?: string): never {
      notes.push(note ?? "");
      throw new Error("skipped");
    },
  };
}

describe("inCi", () => {
  it("reads CI as set unless it is missing, empty, 0 or false", () => {
    expect([{}, { CI: "" }, { CI: "0" }, { CI: "false" }, { CI: "FALSE" }].map((env) => inCi(env))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([{ CI: "1" }, { CI: "true" }, { CI: "yes" }].map((env) => inCi(env))).toEqual([true, true, true]);
  });
});

describe("skipWithout", () => {
  it("skips with the tool and the problem as the note when CI is not set", () => {
    const ctx = context();
    expect(() => skipWithout(ctx, "openssl", "openssl is not installed", {})).toThrow("skipped");
    expect(ctx.notes).toEqual(["needs openssl: openssl is not installed"]);
  });

  it("fails, naming the tool, when CI is set", () => {
    const ctx = context();
    expect(() => skipWithout(ctx, "openssl", "openssl is not installed", { CI: "true" })).toThrow(
      "this test needs openssl, and openssl is not installed; CI is set, so it fails instead of being skipped",
    );
    expect(ctx.notes).toEqual([]);
  });
});
