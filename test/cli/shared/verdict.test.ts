import { describe, expect, it } from "vitest";
import { addToSummary, describeVerdict, emptySummary } from "../../../src/cli/shared/verdict.js";
import { verdict } from "../../support/verdicts.js";

describe("describeVerdict", () => {
  it("FILE:LINE Kind ns/name, or FILE:LINE:COLUMN at a field's position", () => {
    const v = verdict("x.yaml", { status: "valid", line: 12, kind: "NetworkPolicy", namespace: "shop", name: "web" });
    expect(describeVerdict(v)).toBe("x.yaml:12 NetworkPolicy shop/web");
    expect(describeVerdict(v, { line: 14, column: 9 })).toBe("x.yaml:14:9 NetworkPolicy shop/web");
  });

  it("a cluster-scoped object has no namespace; a whole-file verdict is just the file", () => {
    expect(describeVerdict(verdict("x.yaml", { status: "valid", line: 3, kind: "IngressClass", name: "edge" }))).toBe(
      "x.yaml:3 IngressClass edge",
    );
    expect(describeVerdict(verdict("x.yaml", { status: "skipped" }))).toBe("x.yaml");
  });

  it("an object without a name by its generateName, or as having none", () => {
    const at = { status: "invalid", line: 1, kind: "Ingress", namespace: "shop" } as const;
    expect(describeVerdict(verdict("x.yaml", { ...at, generateName: "web-" }))).toBe(
      "x.yaml:1 Ingress shop/web-(generated)",
    );
    expect(describeVerdict(verdict("x.yaml", { ...at, unnamed: true }))).toBe("x.yaml:1 Ingress shop/(no name)");
    // A List has no name of its own.
    expect(describeVerdict(verdict("x.yaml", { status: "valid", line: 1, kind: "IngressList" }))).toBe(
      "x.yaml:1 IngressList",
    );
  });

  it("names a List item and a watch event (binary input has no lines)", () => {
    expect(
      describeVerdict(
        verdict("x.yaml", { status: "valid", document: 1, item: 2, line: 30, kind: "Ingress", name: "a" }),
      ),
    ).toBe("x.yaml:30 items[2] Ingress a");
    expect(
      describeVerdict(
        verdict("w.pb", {
          status: "valid",
          document: 3,
          event: "MODIFIED",
          kind: "Ingress",
          namespace: "s",
          name: "a",
        }),
      ),
    ).toBe("w.pb (event 3 MODIFIED) Ingress s/a");
  });
});

describe("addToSummary", () => {
  it("counts a file, its verdicts by status, problems (errors and refusals) and warnings", () => {
    const refusal = { code: 500, reason: "", message: "m" };
    const error = {
      type: "FieldValueRequired",
      field: "f",
      badValue: "",
      detail: "",
      message: "f: Required value",
    } as const;
    const s = addToSummary(
      addToSummary(emptySummary(), {
        file: "a",
        verdicts: [
          verdict("x.yaml", { status: "valid", warnings: [{ message: "w" }] }),
          verdict("x.yaml", { status: "invalid", errors: [error, error], refusals: [refusal] }),
          verdict("x.yaml", { status: "skipped" }),
        ],
      }),
      {
        file: "b",
        verdicts: [
          verdict("x.yaml", { status: "error" }),
          verdict("x.yaml", { status: "invalid", refusals: [refusal] }),
        ],
      },
    );
    expect(s).toEqual({
      files: 2,
      documents: 5,
      valid: 1,
      invalid: 2,
      skipped: 1,
      errors: 1,
      problems: 4,
      warnings: 1,
    });
    expect(addToSummary(emptySummary(), { file: "c", verdicts: [] })).toMatchObject({ files: 1, documents: 0 });
  });
});
