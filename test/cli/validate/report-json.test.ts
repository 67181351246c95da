import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RESULT_JSON_KEYS, jsonReporter, verdictJson } from "../../../src/cli/validate/report-json.js";
import { emptySummary, type FileVerdicts } from "../../../src/cli/shared/verdict.js";
import { cli } from "../../support/cli/harness.js";
import {
  NOT_MANIFEST,
  RESULT_KEYS,
  ingressClassYaml,
  netpolYaml,
  otherKindYaml,
  tempTrees,
  wholeFileResult,
} from "../../support/cli/validate.js";
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
  it("has the same keys in the same order for every status, null (or an empty list) where a value does not apply", () => {
    for (const v of [valid, skipped, warned, invalid, failed]) expect(Object.keys(verdictJson(v))).toEqual(RESULT_KEYS);
    expect(RESULT_JSON_KEYS).toEqual(RESULT_KEYS);
    expect(verdictJson(skipped)).toEqual(wholeFileResult("x.yaml", { status: "skipped", reason: NOT_MANIFEST }));
    expect(verdictJson(valid)).toMatchObject({ item: null, event: null, error: null, reason: null, response: null });
    expect(verdictJson(invalid)).toMatchObject({ item: 2, response: { kind: "Status", code: 500 }, error: null });
    expect(verdictJson(failed)).toMatchObject({ event: "ADDED", error: { message: "bad", offset: 7 }, response: null });
    // An object named by generateName: name stays null, generateName holds its prefix.
    const generated = verdictJson(verdict("x.yaml", { status: "valid", generateName: "web-" }));
    expect(Object.keys(generated)).toEqual(RESULT_KEYS);
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

describe("validate -o json over the examples and every kind of verdict", () => {
  const tree = tempTrees("report-json");

  it("gives every result the same keys, in the same order: valid, invalid, skipped, error, watch events, List items and whole-file notes", async () => {
    const extra = tree({
      // A decode error, a List of two items, an object named by generateName, a skipped kind.
      "bad.yaml": netpolYaml("  podSelectr: {}\n"),
      "list.yaml": `apiVersion: v1\nkind: List\nitems:\n- ${ingressClassYaml("a").replaceAll("\n", "\n  ").trimEnd()}\n- ${ingressClassYaml("b").replaceAll("\n", "\n  ").trimEnd()}\n`,
      "generated.yaml": netpolYaml("  podSelector: {}\n", "  generateName: web-\n  namespace: shop\n"),
      "deploy.yaml": otherKindYaml("apps/v1", "Deployment", "web", "shop"),
      "values.yaml": "replicas: 2\n",
      "unreadable.yaml": new Uint8Array([0xff, 0xfe, 0x00, 0x01]),
    });
    const r = await cli(["validate", "-o", "json", "examples/", extra, join(extra, "no-such.yaml")]);
    expect(r.code).toBe(2);
    const doc = parse(r.stdout) as { documents: Record<string, unknown>[] };
    const seen = new Set<string>();
    for (const result of doc.documents) {
      expect(Object.keys(result), JSON.stringify(result)).toEqual(RESULT_KEYS);
      seen.add(String(result["status"]));
      if (result["document"] === null) seen.add(`${String(result["status"])} file`);
      if (result["item"] !== null) seen.add("item");
      if (result["event"] !== null) seen.add("event");
      if (result["generateName"] !== null) seen.add("generateName");
      if (result["reason"] !== null) seen.add("reason");
      if (result["response"] !== null) seen.add("response");
      if (result["error"] !== null) seen.add("error key");
      // Lists are lists, never null.
      for (const list of ["errors", "refusals", "warnings"]) expect(Array.isArray(result[list])).toBe(true);
    }
    // The help lists the keys, in order.
    const help = (await cli(["validate", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain(` ${RESULT_KEYS.join(" ")};`);
    // Every kind of result was met, so the check above covered them all.
    for (const kind of [
      "valid",
      "invalid",
      "skipped",
      "error",
      "skipped file",
      "error file",
      "item",
      "event",
      "generateName",
      "reason",
      "response",
      "error key",
    ])
      expect(seen, kind).toContain(kind);
  });
});
