import { describe, expect, it } from "vitest";
import { noPositionals, onlyInput } from "../../../src/cli/shared/command.js";
import { CliError, EXIT_USAGE } from "../../../src/cli/shared/io.js";

describe("noPositionals", () => {
  it("accepts none", () => {
    expect(() => noPositionals("storage serve", [])).not.toThrow();
  });

  it("refuses the first one as a usage error pointing at the command's help", () => {
    let caught: unknown;
    try {
      noPositionals("webhook certs", ["a b", "c"]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CliError);
    expect(caught).toMatchObject({
      message: 'unexpected argument "a b"; webhook certs takes only options',
      exitCode: EXIT_USAGE,
      help: "clusterwire webhook certs --help",
    });
  });
});

describe("onlyInput", () => {
  it("none means stdin, one is the input, more is a usage error", () => {
    expect(onlyInput("decode", [])).toBeUndefined();
    expect(onlyInput("decode", ["a.pb"])).toBe("a.pb");
    expect(() => onlyInput("decode", ["a.pb", "b.pb"])).toThrow("expected one input file, got 2: a.pb b.pb");
  });
});
