// The table of lint warnings, the annotation's parsing, and how silencing picks warnings.

import { describe, expect, it } from "vitest";
import {
  LINT_IGNORE_ANNOTATION,
  LINT_RULES,
  lintRule,
  parseLintIgnore,
  silencer,
} from "../../../src/connectivity/lint/rules.js";
import { EvaluatorInputError } from "../../../src/networking/index.js";

describe("LINT_RULES", () => {
  it("lists CW1001 to CW1006 in order, each with a distinct kebab-case name and how to silence it", () => {
    expect(LINT_RULES.map((r) => r.id)).toEqual(["CW1001", "CW1002", "CW1003", "CW1004", "CW1005", "CW1006"]);
    expect(new Set(LINT_RULES.map((r) => r.name)).size).toBe(LINT_RULES.length);
    for (const r of LINT_RULES) {
      expect(r.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(r.silence).toContain(`${LINT_IGNORE_ANNOTATION}: "${r.id}"`);
      expect(r.silence).toContain(`--lint-ignore ${r.id}`);
      expect(r.summary.endsWith(".")).toBe(true);
    }
    expect(LINT_RULES.map((r) => r.silencedOn)).toEqual([
      "NetworkPolicy",
      "NetworkPolicy",
      "NetworkPolicy",
      "Namespace",
      "workload",
      "workload",
    ]);
  });
});

describe("lintRule", () => {
  it("finds a rule by id or by name, in any case", () => {
    expect(lintRule("CW1003")?.name).toBe("policy-redundant");
    expect(lintRule("cw1003")?.name).toBe("policy-redundant");
    expect(lintRule(" Exposed-To-Internet ")?.id).toBe("CW1006");
    expect(lintRule("CW1007")).toBeUndefined();
    expect(lintRule("")).toBeUndefined();
  });
});

describe("parseLintIgnore", () => {
  it("splits at commas and white space", () => {
    expect(parseLintIgnore("CW1002,CW1003")).toEqual(["CW1002", "CW1003"]);
    expect(parseLintIgnore(" CW1002 ,\n rule-shadowed  CW1006,")).toEqual(["CW1002", "rule-shadowed", "CW1006"]);
    expect(parseLintIgnore("")).toEqual([]);
  });
});

describe("silencer", () => {
  it("silences nothing without options", () => {
    expect(silencer(undefined)("CW1001", "shop/a")).toBe(false);
  });

  it("silences ids and names everywhere", () => {
    const silenced = silencer({ ignore: { ids: ["CW1001", "rule-shadowed"] } });
    expect(silenced("CW1001", "shop/a")).toBe(true);
    expect(silenced("CW1002", "shop/b")).toBe(true);
    expect(silenced("CW1003", "shop/a")).toBe(false);
  });

  it("silences per object only that object's ids", () => {
    const silenced = silencer({
      ignore: { perObject: new Map([["shop/a", ["CW1002", "policy-redundant", "no-such-id"]]]) },
    });
    expect(silenced("CW1002", "shop/a")).toBe(true);
    expect(silenced("CW1003", "shop/a")).toBe(true);
    expect(silenced("CW1001", "shop/a")).toBe(false);
    expect(silenced("CW1002", "shop/b")).toBe(false);
  });

  it("refuses an unknown id given for every object, naming where it is", () => {
    const make = () => silencer({ ignore: { ids: ["CW1001", "CW1099"] } });
    expect(make).toThrow(EvaluatorInputError);
    expect(make).toThrow(/ignore\.ids\[1\]: "CW1099" is no lint id/);
  });
});
