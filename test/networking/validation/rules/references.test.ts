import { describe, expect, it } from "vitest";
import { FieldPath } from "../../../../src/networking/model/path.js";
import {
  declarativeMerge,
  type FieldError,
  formatFieldError,
} from "../../../../src/networking/validation/field-error.js";
import { validateApiGroup, validateRequiredSegment } from "../../../../src/networking/validation/rules/references.js";

const backend = FieldPath.root("spec").child("defaultBackend").child("resource");

function segment(value: string, declarative = false): FieldError[] {
  const out: FieldError[] = [];
  validateRequiredSegment(value, backend, "kind", out, declarative);
  return out;
}

function apiGroup(value: string): FieldError[] {
  const out: FieldError[] = [];
  validateApiGroup(value, backend, "apiGroup", out);
  return out;
}

describe("validateRequiredSegment (a kind, resource or name in a REST path)", () => {
  it("accepts any other non-empty name, adding nothing", () => {
    for (const v of ["Service", "services", "a.b", "...", ".a", "with space", "ü"]) expect(segment(v), v).toEqual([]);
  });

  it("an empty value is required, at the field's path", () => {
    expect(segment("").map(formatFieldError)).toEqual(["spec.defaultBackend.resource.kind: Required value"]);
  });

  it("'.' and '..' and names with '/' or '%' are invalid, one error per reason", () => {
    expect(segment(".").map(formatFieldError)).toEqual([
      `spec.defaultBackend.resource.kind: Invalid value: ".": may not be '.'`,
    ]);
    expect(segment("..").map(formatFieldError)).toEqual([
      `spec.defaultBackend.resource.kind: Invalid value: "..": may not be '..'`,
    ]);
    expect(segment("a/b%c").map(formatFieldError)).toEqual([
      `spec.defaultBackend.resource.kind: Invalid value: "a/b%c": may not contain '/'`,
      `spec.defaultBackend.resource.kind: Invalid value: "a/b%c": may not contain '%'`,
    ]);
  });

  it("appends to what the list already holds", () => {
    const out: FieldError[] = [];
    validateRequiredSegment("", backend, "kind", out);
    validateRequiredSegment("a/b", backend, "name", out);
    expect(out.map((e) => e.field)).toEqual(["spec.defaultBackend.resource.kind", "spec.defaultBackend.resource.name"]);
  });

  it("declarative: only the Required error is marked as declarative validation's (reported last from 1.36)", () => {
    const required = segment("", true);
    const other = segment("a/b", true);
    const plain = FieldPath.root("metadata").child("name");
    const first: FieldError = {
      type: "FieldValueRequired",
      field: "metadata.name",
      path: plain.segments(),
      badValue: "",
      detail: "",
    };
    expect(declarativeMerge([...required, first], true)).toEqual([first, ...required]);
    expect(declarativeMerge([...other, first], true)).toEqual([...other, first]);
  });
});

describe("validateApiGroup (a DNS-1123 subdomain)", () => {
  it("accepts a subdomain", () => {
    for (const v of ["networking.k8s.io", "example.com", "a", "a-b.c"]) expect(apiGroup(v), v).toEqual([]);
  });

  it("refuses anything else, the empty group included, with the API server's message", () => {
    const msg =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    for (const v of ["", "Example.com", "-a", "a_b", "a..b"]) {
      expect(apiGroup(v).map(formatFieldError), v).toEqual([
        `spec.defaultBackend.resource.apiGroup: Invalid value: ${JSON.stringify(v)}: ${msg}`,
      ]);
    }
    expect(apiGroup("a".repeat(254)).map((e) => e.detail)).toEqual(["must be no more than 253 characters"]);
  });
});
