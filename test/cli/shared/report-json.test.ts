import { describe, expect, it } from "vitest";
import { jsonReporter, verdictJson } from "../../../src/cli/shared/report-json.js";
import { emptySummary, type FileVerdicts } from "../../../src/cli/shared/verdict.js";
import { NOT_MANIFEST, RESULT_KEYS, wholeFileResult } from "../../support/cli/validate.js";
import { render, verdict } from "../../support/verdicts.js";

const valid = verdict("x.yaml", {
  status: "valid",
  document: 1,
  line: 1,
  apiVersion: "networking.k8s.io/v1",
  kind: "IngressClass",
  name: "a",
});
const skipped = verdict("x.yaml", { status: "skipped", reason: NOT_MANIFEST });
const warned = verdict("x.yaml", { status: "valid", document: 2, line: 9, warnings: [{ message: "w" }] });
const invalid = verdict("x.yaml", {
  status: "invalid",
  document: 1,
  item: 2,
  line: 4,
  kind: "Ingress",
  namespace: "shop",
  name: "b",
  refusals: [{ code: 500, reason: "", message: "m" }],
  response: { kind: "Status", code: 500 },
});
const failed = verdict("x.yaml", {
  status: "error",
  file: "w.pb",
  document: 3,
  event: "ADDED",
  failure: { message: "bad", offset: 7 },
});

/** The output is one JSON document. */
const parse = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

describe("verdictJson", () => {
  it("has the fixed keys, null where unknown, and item, event, error, reason and response only when set", () => {
    expect(Object.keys(verdictJson(valid))).toEqual(RESULT_KEYS);
    expect(verdictJson(skipped)).toEqual(wholeFileResult("x.yaml", { status: "skipped", reason: NOT_MANIFEST }));
    expect(Object.keys(verdictJson(invalid))).toEqual([
      ...RESULT_KEYS.slice(0, 2),
      "item",
      ...RESULT_KEYS.slice(2),
      "response",
    ]);
    expect(Object.keys(verdictJson(failed))).toEqual([
      ...RESULT_KEYS.slice(0, 2),
      "event",
      ...RESULT_KEYS.slice(2),
      "error",
    ]);
    expect(verdictJson(failed)).toMatchObject({ event: "ADDED", error: { message: "bad", offset: 7 } });
    // An object named by generateName: name stays null, generateName follows it.
    const generated = verdictJson(verdict("x.yaml", { status: "valid", generateName: "web-" }));
    expect(Object.keys(generated)).toEqual([...RESULT_KEYS.slice(0, 7), "generateName", ...RESULT_KEYS.slice(7)]);
    expect(generated).toMatchObject({ name: null, generateName: "web-" });
  });
});

describe("jsonReporter", () => {
  const files: FileVerdicts[] = [
    { file: "x.yaml", verdicts: [valid, warned] },
    { file: "y.yaml", verdicts: [invalid, skipped] },
    { file: "w.pb", verdicts: [failed] },
  ];

  it("one JSON document: a result per verdict in order, and the summary", () => {
    const text = render(jsonReporter({ quiet: false }), files);
    const doc = parse(text);
    expect(Object.keys(doc)).toEqual(["documents", "summary"]);
    expect(doc.documents).toEqual([valid, warned, invalid, skipped, failed].map(verdictJson));
    expect(doc.summary).toEqual({
      files: 3,
      documents: 5,
      valid: 2,
      invalid: 1,
      skipped: 1,
      errors: 1,
      problems: 1,
      warnings: 1,
    });
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("quiet: leaves out valid and skipped results without warnings, still counting them", () => {
    const doc = parse(render(jsonReporter({ quiet: true }), files));
    expect(doc.documents).toEqual([warned, invalid, failed].map(verdictJson));
    expect(doc.summary).toMatchObject({ documents: 5, valid: 2, skipped: 1 });
    const clean = parse(render(jsonReporter({ quiet: true }), [{ file: "x.yaml", verdicts: [valid, skipped] }]));
    expect(clean.documents).toEqual([]);
  });

  it("zero files: an empty list and a zero summary", () => {
    const doc = parse(render(jsonReporter({ quiet: false }), []));
    expect(doc).toEqual({ documents: [], summary: emptySummary() });
    const empty = parse(render(jsonReporter({ quiet: false }), [{ file: "x.yaml", verdicts: [] }]));
    expect(empty.documents).toEqual([]);
  });

  it("writes an int64 bad value as an exact JSON number", () => {
    const big = verdict("x.yaml", {
      status: "invalid",
      errors: [{ type: "FieldValueInvalid", field: "f", badValue: 9007199254740993n, detail: "d", message: "m" }],
    });
    const r = jsonReporter({ quiet: false });
    expect(r.start() + r.file({ file: "x.yaml", verdicts: [big] })).toContain('"badValue": 9007199254740993,');
  });
});
