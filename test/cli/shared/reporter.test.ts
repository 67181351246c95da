// What the streaming reporters (junit, sarif) share: where a verdict sits in its file, its
// problems in order, which line numbers count, and text safe for XML and JSON.
import { describe, expect, it } from "vitest";
import { documentLabel, knownNumber, problems, wellFormed } from "../../../src/cli/shared/reporter.js";
import type { Verdict } from "../../../src/cli/shared/verdict.js";

const base: Verdict = { file: "a.yaml", status: "invalid", errors: [], refusals: [], warnings: [] };

describe("documentLabel", () => {
  it("names the document, the watch event or the whole file, and the List item under it", () => {
    expect(documentLabel(base)).toBe("whole file");
    expect(documentLabel({ ...base, document: 2 })).toBe("document 2");
    expect(documentLabel({ ...base, document: 2, item: 0 })).toBe("document 2 items[0]");
    expect(documentLabel({ ...base, document: 3, event: "MODIFIED" })).toBe("event 3 MODIFIED");
    expect(documentLabel({ ...base, event: "ADDED" })).toBe("event 0 ADDED");
    expect(documentLabel({ ...base, item: 4 })).toBe("whole file items[4]");
  });
});

describe("problems", () => {
  it("lists the field errors, then the refusals, each with its field and position when known", () => {
    const v: Verdict = {
      ...base,
      errors: [
        {
          type: "FieldValueInvalid",
          field: "spec.rules[0].host",
          badValue: "A",
          detail: "bad",
          message: 'spec.rules[0].host: Invalid value: "A": bad',
          position: { line: 7, column: 13 },
        },
        { type: "FieldValueRequired", field: "spec", badValue: "", detail: "", message: "spec: Required value" },
      ],
      refusals: [
        { code: 500, reason: "", message: "resourceVersion should not be set", field: "metadata.resourceVersion" },
        { code: 400, reason: "BadRequest", message: "no", position: { line: 1, column: 1 } },
      ],
    };
    expect(problems(v)).toEqual([
      {
        type: "FieldValueInvalid",
        message: 'spec.rules[0].host: Invalid value: "A": bad',
        field: "spec.rules[0].host",
        position: { line: 7, column: 13 },
      },
      { type: "FieldValueRequired", message: "spec: Required value", field: "spec" },
      { type: "refusal", message: "resourceVersion should not be set", field: "metadata.resourceVersion" },
      { type: "refusal", message: "no", position: { line: 1, column: 1 } },
    ]);
    // No key is present with an undefined value: the reporters test for presence.
    expect(Object.keys(problems(v)[3] ?? {})).toEqual(["type", "message", "position"]);
    expect(problems(base)).toEqual([]);
  });
});

describe("knownNumber", () => {
  it("is a positive safe integer", () => {
    for (const n of [1, 2, 1e6, Number.MAX_SAFE_INTEGER]) expect(knownNumber(n)).toBe(true);
    for (const n of [undefined, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(knownNumber(n)).toBe(false);
  });
});

describe("wellFormed", () => {
  it("replaces each lone surrogate with U+FFFD and keeps pairs", () => {
    expect(wellFormed("a\ud800b")).toBe("a\ufffdb");
    expect(wellFormed("\udc00x")).toBe("\ufffdx");
    expect(wellFormed("x\ud83d")).toBe("x\ufffd");
    expect(wellFormed("\udc00\ud800")).toBe("\ufffd\ufffd");
    expect(wellFormed("😀 é")).toBe("😀 é");
    expect(wellFormed("\ud83d\ude00\ud83d")).toBe("😀\ufffd");
    expect(wellFormed("")).toBe("");
  });
});
