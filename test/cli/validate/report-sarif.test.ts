import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { artifactLocation, sarifReporter } from "../../../src/cli/validate/report-sarif.js";
import type { FileVerdicts } from "../../../src/cli/shared/verdict.js";
import { FIELD_ERROR_TYPES } from "../../support/field-error-types.js";
import { parseSarif, type Result } from "../../support/sarif.js";
import { wellFormed } from "../../../src/cli/shared/reporter.js";
import { anyFiles, anyText, render, SAMPLE, verdict } from "../../support/verdicts.js";

function results(files: readonly FileVerdicts[]): readonly Result[] {
  return parseSarif(render(sarifReporter({ toolVersion: "1.2.3" }), files)).runs[0]?.results ?? [];
}

/** A result in brief: rule, level, text, where. */
function brief(r: Result): unknown[] {
  const l = r.locations[0];
  return [
    r.ruleId,
    r.level,
    r.message.text,
    l?.physicalLocation.artifactLocation.uri,
    l?.physicalLocation.region,
    l?.logicalLocations?.map((x) => `${x.kind}:${x.fullyQualifiedName}`),
    r.properties,
  ];
}

describe("sarifReporter", () => {
  it("writes one run with the tool, every rule, and the totals", () => {
    const log = parseSarif(render(sarifReporter({ toolVersion: "1.2.3" }), SAMPLE));
    expect(log.version).toBe("2.1.0");
    expect(log.$schema).toBe(
      "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
    );
    const run = log.runs[0];
    expect(run?.tool.driver.name).toBe("clusterwire");
    expect(run?.tool.driver.version).toBe("1.2.3");
    const ids = run?.tool.driver.rules.map((r) => r.id);
    const others = ["create-refused", "decode-error", "unknown-field-warning", "duplicate-field-warning", "warning"];
    expect([...(ids ?? [])].sort()).toEqual([...FIELD_ERROR_TYPES, ...others].sort());
    expect(run?.properties.summary).toEqual({
      files: 6,
      documents: 11,
      valid: 3,
      invalid: 4,
      skipped: 2,
      errors: 2,
      problems: 6,
      warnings: 2,
    });
  });

  it("gives each field error, refusal, decode failure and warning a result, located in file, object and field", () => {
    const shop = "deploy/shop.yaml";
    const ingress = ["resource:Ingress shop/web"];
    const at = (field: string) => [...ingress, `property:Ingress shop/web ${field}`];
    expect(results(SAMPLE).map(brief)).toEqual([
      [
        "FieldValueInvalid",
        "error",
        `spec.rules[0].host: Invalid value: "*": must start with '*.'`,
        shop,
        { startLine: 9, startColumn: 13 },
        at("spec.rules[0].host"),
        { document: 1 },
      ],
      [
        "FieldValueRequired",
        "error",
        "spec.rules[0].http.paths[0].backend: Required value",
        shop,
        { startLine: 12, startColumn: 11 },
        at("spec.rules[0].http.paths[0].backend"),
        { document: 1 },
      ],
      [
        "unknown-field-warning",
        "warning",
        'unknown field "spec.tls[0].hostz"',
        shop,
        { startLine: 16, startColumn: 7 },
        at("spec.tls[0].hostz"),
        { document: 1 },
      ],
      [
        "decode-error",
        "error",
        "yaml: line 43: mapping values are not allowed in this context",
        shop,
        { startLine: 43, startColumn: 7 },
        undefined,
        { document: 3 },
      ],
      // No position: the document's line.
      [
        "warning",
        "warning",
        "metadata.annotations: deprecated annotation",
        shop,
        { startLine: 50 },
        ["resource:IngressClass nginx"],
        { document: 4 },
      ],
      [
        "create-refused",
        "error",
        "the namespace of the provided object does not match the namespace sent on the request",
        "deploy/lists/ingress%20list.yaml",
        { startLine: 14 },
        ["resource:NetworkPolicy other/allow", "property:NetworkPolicy other/allow metadata.namespace"],
        { document: 1, item: 1 },
      ],
      // Binary input: no line, so no region; the event number says where.
      [
        "FieldValueNotSupported",
        "error",
        'spec.rules[0].http.paths[0].pathType: Unsupported value: "Any"',
        "captures/watch.pb",
        undefined,
        at("spec.rules[0].http.paths[0].pathType"),
        { document: 3, event: "MODIFIED" },
      ],
      [
        "create-refused",
        "error",
        "resourceVersion should not be set on objects to be created",
        "captures/watch.pb",
        undefined,
        at("metadata.resourceVersion"),
        { document: 3, event: "MODIFIED" },
      ],
      [
        "decode-error",
        "error",
        "proto: cannot parse invalid wire-format data",
        "captures/watch.pb",
        undefined,
        undefined,
        { document: 4, byteOffset: 1234 },
      ],
      [
        "FieldValueTooLong",
        "error",
        "metadata.name: Too long: may not be more than 253 bytes",
        "captures/w%C3%A4tch%20%F0%9F%98%80.json",
        { startLine: 2 },
        ["resource:IngressClass nginx", "property:IngressClass nginx metadata.name"],
        { document: 2, event: "DELETED" },
      ],
    ]);
    for (const r of results(SAMPLE)) {
      expect(r.locations[0]?.physicalLocation.artifactLocation.uriBaseId).toBe("%SRCROOT%");
    }
  });

  it("streams: the rules come before any result, each file writes only its own results, one a line", () => {
    const reporter = sarifReporter({ toolVersion: "1.2.3" });
    const start = reporter.start();
    expect(start).toContain('"rules": [');
    expect(start.endsWith('"results": [')).toBe(true);
    const chunks = SAMPLE.map((f) => reporter.file(f));
    expect(chunks.map((c) => c.split("\n").length - 1)).toEqual([5, 1, 3, 1, 0, 0]);
    expect(chunks.slice(1).every((c) => c === "" || c.startsWith(",\n"))).toBe(true);
    let longest = 0;
    for (let i = 0; i < 10_000; i++) {
      const file = `tree/${i}/ingress.yaml`;
      longest = Math.max(
        longest,
        reporter.file({ file, verdicts: SAMPLE[0]?.verdicts.map((v) => ({ ...v, file })) ?? [] }).length,
      );
    }
    expect(longest).toBeLessThan(4000);
    // No files, or files without results, still make a valid log.
    for (const files of [[], [SAMPLE[4], SAMPLE[5]]]) {
      expect(
        parseSarif(render(sarifReporter({ toolVersion: "1.2.3" }), files as FileVerdicts[])).runs[0]?.results,
      ).toEqual([]);
    }
  });

  it("takes a line or column that is not a positive integer as unknown", () => {
    const file = "a.yaml";
    const v = (position: { line: number; column: number }, line?: number): FileVerdicts => ({
      file,
      verdicts: [
        verdict(file, {
          ...(line === undefined ? {} : { line }),
          status: "error",
          failure: { message: "x", position },
        }),
      ],
    });
    const region = (f: FileVerdicts) => results([f])[0]?.locations[0]?.physicalLocation.region;
    expect(region(v({ line: 3, column: 0 }))).toEqual({ startLine: 3 });
    expect(region(v({ line: 0, column: 4 }, 2))).toEqual({ startLine: 2 });
    expect(region(v({ line: 1.5, column: 4 }))).toBeUndefined();
  });

  it("makes each path a relative URI under %SRCROOT%, percent-encoded, with forward slashes", () => {
    const rel = (uri: string) => ({ uri, uriBaseId: "%SRCROOT%" });
    expect(artifactLocation("deploy/shop.yaml", "/")).toEqual(rel("deploy/shop.yaml"));
    expect(artifactLocation("./deploy/a b.yaml", "/")).toEqual(rel("deploy/a%20b.yaml"));
    expect(artifactLocation("../up/ü 😀.yaml", "/")).toEqual(rel("../up/%C3%BC%20%F0%9F%98%80.yaml"));
    expect(artifactLocation("a:b/c?d#e%f.yaml", "/")).toEqual(rel("a%3Ab/c%3Fd%23e%25f.yaml"));
    expect(artifactLocation("x\\y.yaml", "/")).toEqual(rel("x%5Cy.yaml"));
    expect(artifactLocation("deploy\\win dows\\x.yaml", "\\")).toEqual(rel("deploy/win%20dows/x.yaml"));
    expect(artifactLocation("bad\ud800.yaml", "/")).toEqual(rel("bad%EF%BF%BD.yaml"));
    // Absolute paths cannot be relative to anything: file: URIs.
    expect(artifactLocation("/srv/repo/a b.yaml", "/")).toEqual({ uri: "file:///srv/repo/a%20b.yaml" });
    expect(artifactLocation("C:\\repo\\a.yaml", "\\")).toEqual({ uri: "file:///C:/repo/a.yaml" });
  });

  it("yields a schema-valid log for any input, with one result per problem, failure and warning", () => {
    fc.assert(
      fc.property(anyFiles, (files: FileVerdicts[]) => {
        const all = results(files);
        const expected = files.flatMap((f) =>
          f.verdicts.map(
            (v) => v.errors.length + v.refusals.length + v.warnings.length + (v.status === "error" ? 1 : 0),
          ),
        );
        expect(all).toHaveLength(expected.reduce((a, b) => a + b, 0));
      }),
      { numRuns: 300 },
    );
  });

  it("encodes any relative path so that decoding it gives the path back", () => {
    fc.assert(
      fc.property(anyText, (file) => {
        fc.pre(!file.startsWith("/") && !file.startsWith("./"));
        const { uri, uriBaseId } = artifactLocation(file, "/");
        expect(uriBaseId).toBe("%SRCROOT%");
        expect(uri).toMatch(/^(?:[A-Za-z0-9\-._~!$&'()*+,;=@/]|%[0-9A-F]{2})*$/);
        expect(uri.split("/").map(decodeURIComponent).join("/")).toBe(wellFormed(file));
      }),
      { numRuns: 500 },
    );
  });
});
