import { describe, expect, it } from "vitest";
import { summaryLine, textReporter, verdictLines } from "../../../src/cli/shared/report-text.js";
import { emptySummary, type Summary } from "../../../src/cli/shared/verdict.js";
import { resourceVersionRefusal } from "../../support/cli/validate.js";
import { verdict } from "../../support/verdicts.js";

const ID = { line: 3, kind: "Ingress", namespace: "shop", name: "web" } as const;
const FIELD_ERROR = {
  type: "FieldValueInvalid",
  field: "spec.rules[0].host",
  badValue: "A",
  detail: "d",
  message: 'spec.rules[0].host: Invalid value: "A": d',
  position: { line: 9, column: 13 },
} as const;
const RV = resourceVersionRefusal("metadata.resourceVersion", 6, 20);
const MISMATCH = {
  code: 400,
  reason: "BadRequest",
  message: "the namespace of the provided object does not match the namespace sent on the request",
  field: "metadata.namespace",
  position: { line: 5, column: 14 },
};

describe("verdictLines", () => {
  it("valid and skipped: one line each, none when quiet", () => {
    const ok = verdict("x.yaml", { status: "valid", ...ID });
    const skipped = verdict("x.yaml", { status: "skipped", line: 1, kind: "Service", name: "web", reason: "why" });
    expect(verdictLines(ok, false)).toEqual(["x.yaml:3 Ingress shop/web: ok"]);
    expect(verdictLines(skipped, false)).toEqual(["x.yaml:1 Service web: skipped: why"]);
    expect(verdictLines(ok, true)).toEqual([]);
    expect(verdictLines(skipped, true)).toEqual([]);
  });

  it("invalid: the refusals, worded by code, then each field error at its field, also when quiet", () => {
    const v = verdict("x.yaml", { status: "invalid", ...ID, errors: [FIELD_ERROR], refusals: [RV] });
    const expected = [
      "x.yaml:6:20 Ingress shop/web: refused (500): metadata.resourceVersion: resourceVersion should not be set on objects to be created",
      'x.yaml:9:13 Ingress shop/web: spec.rules[0].host: Invalid value: "A": d',
    ];
    expect(verdictLines(v, false)).toEqual(expected);
    expect(verdictLines(v, true)).toEqual(expected);
    // A 400 names its reason and, as the API server's message does, no field.
    expect(verdictLines(verdict("x.yaml", { status: "invalid", ...ID, refusals: [MISMATCH] }), false)).toEqual([
      "x.yaml:5:14 Ingress shop/web: BadRequest: the namespace of the provided object does not match the namespace sent on the request",
    ]);
  });

  it("error: at the failure's position, with its field; a whole-file error is led by the file alone", () => {
    const failure = { message: 'unknown field "x"', field: "spec.x", position: { line: 7, column: 5 } };
    expect(verdictLines(verdict("x.yaml", { status: "error", ...ID, failure }), true)).toEqual([
      'x.yaml:7:5 Ingress shop/web: error: spec.x: unknown field "x"',
    ]);
    expect(
      verdictLines(verdict("x.yaml", { status: "error", failure: { message: "cannot read: no such file" } }), false),
    ).toEqual(["x.yaml: error: cannot read: no such file"]);
  });

  it("warnings follow the verdict's line, and are kept when quiet", () => {
    const v = verdict("x.yaml", {
      status: "valid",
      ...ID,
      warnings: [
        { message: 'unknown field "spec.a"', field: "spec.a", position: { line: 8, column: 6 } },
        { message: "w" },
      ],
    });
    expect(verdictLines(v, false)).toEqual([
      "x.yaml:3 Ingress shop/web: ok",
      'x.yaml:8:6 Ingress shop/web: warning: unknown field "spec.a"',
      "x.yaml:3 Ingress shop/web: warning: w",
    ]);
    expect(verdictLines(v, true)).toEqual(verdictLines(v, false).slice(1));
  });
});

describe("summaryLine", () => {
  const s = (fields: Partial<Summary>): Summary => ({ ...emptySummary(), ...fields });

  it("counts documents, files and errors in the singular or plural, warnings only when there are some", () => {
    expect(summaryLine(s({ files: 1, documents: 1, valid: 1 }))).toBe(
      "Summary: 1 document in 1 file: 1 valid, 0 invalid, 0 skipped, 0 errors",
    );
    expect(
      summaryLine(s({ files: 12, documents: 57, valid: 40, invalid: 3, skipped: 12, errors: 1, warnings: 1 })),
    ).toBe("Summary: 57 documents in 12 files: 40 valid, 3 invalid, 12 skipped, 1 error, 1 warning");
    expect(summaryLine(s({ warnings: 4, problems: 9 }))).toBe(
      "Summary: 0 documents in 0 files: 0 valid, 0 invalid, 0 skipped, 0 errors, 4 warnings",
    );
  });
});

describe("textReporter", () => {
  const file = {
    file: "x.yaml",
    verdicts: [verdict("x.yaml", { status: "valid", ...ID }), verdict("x.yaml", { status: "skipped", reason: "r" })],
  };

  it("writes a line per verdict as each file comes, and the summary at the end", () => {
    const r = textReporter({ quiet: false });
    expect(r.start()).toBe("");
    expect(r.file(file)).toBe("x.yaml:3 Ingress shop/web: ok\nx.yaml: skipped: r\n");
    expect(r.end({ ...emptySummary(), files: 1, documents: 2, valid: 1, skipped: 1 })).toBe(
      "Summary: 2 documents in 1 file: 1 valid, 0 invalid, 1 skipped, 0 errors\n",
    );
  });

  it("quiet: nothing for a clean run, the summary when something needs fixing", () => {
    const r = textReporter({ quiet: true });
    expect(r.file(file)).toBe("");
    expect(r.end({ ...emptySummary(), files: 1, documents: 2, valid: 1, skipped: 1, warnings: 3 })).toBe("");
    expect(r.end({ ...emptySummary(), files: 1, documents: 1, invalid: 1 })).toMatch(/^Summary: .*1 invalid.*\n$/);
    expect(r.end({ ...emptySummary(), files: 1, documents: 1, errors: 1 })).toMatch(/^Summary: .*1 error\n$/);
  });
});
