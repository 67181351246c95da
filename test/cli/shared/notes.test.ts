import { describe, expect, it } from "vitest";
import { leftOutLines, skippedLines } from "../../../src/cli/shared/notes.js";
import { fromJson, validate, type NetworkPolicy, type SkippedObject } from "../../../src/networking/index.js";

// The lines route and reach print about inputs left out: notes on stderr, and the answer's own lines on stdout.

const broken = fromJson({
  apiVersion: "networking.k8s.io/v1",
  kind: "NetworkPolicy",
  metadata: { name: "broken", namespace: "ns" },
  spec: { podSelector: {}, ingress: [{ ports: [{ port: 70000 }, { port: 0 }] }] },
}) as NetworkPolicy;

const invalid: SkippedObject = { kind: "NetworkPolicy", name: "ns/broken", index: 0, errors: validate(broken) };
const duplicate = (kind: SkippedObject["kind"], name: string, badValue: string): SkippedObject => ({
  kind,
  name,
  index: 3,
  errors: [{ type: "FieldValueDuplicate", field: "metadata.name", path: ["metadata", "name"], badValue, detail: "" }],
});

describe("leftOutLines", () => {
  it("one line per object, with where it is and why, in the order given", () => {
    const lines = leftOutLines(
      [invalid, duplicate("Ingress", "shop/web", "web"), duplicate("IngressClass", "public", "public")],
      (s, i) => `file-${i}.yaml:${s.index}`,
    );
    expect(lines).toEqual([
      "left out: NetworkPolicy ns/broken (file-0.yaml:0): the API server would reject it (2 errors)",
      "left out: Ingress shop/web (file-1.yaml:3): an earlier Ingress has the same namespace/name",
      "left out: IngressClass public (file-2.yaml:3): an earlier IngressClass has the same name",
    ]);
  });

  it("counts one error in the singular, and calls only a duplicate metadata.name a duplicate", () => {
    const one: SkippedObject = { ...invalid, errors: invalid.errors.slice(0, 1) };
    expect(leftOutLines([one], () => "x")).toEqual([
      "left out: NetworkPolicy ns/broken (x): the API server would reject it (1 error)",
    ]);
    const elsewhere: SkippedObject = {
      ...invalid,
      errors: [
        { type: "FieldValueDuplicate", field: "spec.policyTypes[1]", path: [], badValue: "Ingress", detail: "" },
      ],
    };
    expect(leftOutLines([elsewhere], () => "x")[0]).toMatch(/the API server would reject it \(1 error\)$/);
  });

  it("nothing left out, no lines", () => {
    expect(leftOutLines([], () => "x")).toEqual([]);
  });
});

describe("skippedLines", () => {
  it("one line for one error, else a heading and the errors indented", () => {
    expect(skippedLines({ ...invalid, errors: invalid.errors.slice(0, 1) }, "x.yaml:7:5")).toEqual([
      "skipped NetworkPolicy ns/broken (x.yaml:7:5): spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ]);
    expect(skippedLines(invalid, "x.yaml:7:5")).toEqual([
      "skipped NetworkPolicy ns/broken (x.yaml:7:5): 2 errors",
      "  spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
      "  spec.ingress[0].ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive",
    ]);
  });
});
