// verdict.ts declares what checkManifests says about each document, types only. Each shape is
// written out below as a Record over its keys, so the type checker refuses this file when a
// field is added or dropped; checkManifests is then held to produce only those fields (the
// required ones always), every status, and plain data that survives structured cloning and,
// but for bigint bad values, JSON.

import { describe, expect, it } from "vitest";
import { checkManifests } from "../../../src/networking/manifests/check-manifests.js";
import type {
  ManifestVerdict,
  ManifestWarning,
  TextPosition,
  VerdictFailure,
  VerdictFieldError,
  VerdictRefusal,
  VerdictStatus,
} from "../../../src/networking/manifests/verdict.js";

const VERDICT: Record<keyof ManifestVerdict, boolean> = {
  // true: always there.
  file: false,
  document: false,
  item: false,
  event: false,
  line: false,
  apiVersion: false,
  kind: false,
  namespace: false,
  name: false,
  generateName: false,
  unnamed: false,
  status: true,
  errors: true,
  refusals: true,
  warnings: true,
  failure: false,
  reason: false,
  response: false,
};
const FIELD_ERROR: Record<keyof VerdictFieldError, true> = {
  type: true,
  field: true,
  path: true,
  badValue: true,
  detail: true,
  message: true,
  position: true,
};
const REFUSAL: Record<keyof VerdictRefusal, true> = {
  code: true,
  reason: true,
  message: true,
  field: true,
  position: true,
};
const WARNING: Record<keyof ManifestWarning, true> = { message: true, field: true, position: true };
const FAILURE: Record<keyof VerdictFailure, true> = { message: true, field: true, position: true, offset: true };
const POSITION: Record<keyof TextPosition, true> = { line: true, column: true };
const STATUSES: Record<VerdictStatus, true> = { valid: true, invalid: true, skipped: true, error: true };

/** Documents of every status: valid, invalid with errors and a refusal, skipped, an error, List items. */
const TEXT = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: ok}
spec: {controller: example.com/lb}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: Bad_Name, resourceVersion: "3"}
spec: {controller: "", colour: red}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: x, namespace: web}
spec: [
---
apiVersion: v1
kind: List
items:
- apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {generateName: shop-}
  spec: {defaultBackend: {service: {name: s, port: {number: 80}}}}
- apiVersion: networking.k8s.io/v1
  kind: IngressClass
  metadata: {}
  spec: {controller: example.com/lb}
`;

const verdicts = checkManifests(TEXT, { file: "f.yaml", fieldValidation: "Warn" } as never);
const subset = (o: object, declared: object, what: string): void => {
  for (const k of Object.keys(o)) expect(Object.hasOwn(declared, k), `${what} has an undeclared field ${k}`).toBe(true);
};

describe("ManifestVerdict and its parts", () => {
  it("checkManifests gives one verdict per document or List item, of every status", () => {
    expect(verdicts.map((v) => v.status)).toEqual(["valid", "invalid", "skipped", "error", "valid", "invalid"]);
    expect(new Set(verdicts.map((v) => v.status))).toEqual(new Set(Object.keys(STATUSES)));
  });

  it("has only declared fields, and the required ones always", () => {
    const seen = new Set<string>();
    for (const v of verdicts) {
      subset(v, VERDICT, "a verdict");
      for (const [k, always] of Object.entries(VERDICT)) if (always) expect(Object.hasOwn(v, k), k).toBe(true);
      for (const k of Object.keys(v)) seen.add(k);
      for (const e of v.errors) {
        subset(e, FIELD_ERROR, "a field error");
        if (e.position !== undefined) expect(Object.keys(e.position).sort()).toEqual(Object.keys(POSITION).sort());
      }
      for (const r of v.refusals) subset(r, REFUSAL, "a refusal");
      for (const w of v.warnings) subset(w, WARNING, "a warning");
      if (v.failure !== undefined) subset(v.failure, FAILURE, "a failure");
    }
    // Every field but the event (which only a watch stream's reader sets) occurs in this text.
    expect([...seen].sort()).toEqual(
      Object.keys(VERDICT)
        .filter((k) => k !== "event")
        .sort(),
    );
  });

  it("each part carries what its comment says", () => {
    const invalid = verdicts[1]!;
    expect(invalid.errors.map((e) => e.field)).toEqual(["metadata.name", "spec.controller"]);
    expect(invalid.errors[0]!.message).toMatch(/^metadata\.name: Invalid value: "Bad_Name": /);
    expect(invalid.errors[0]!.position).toEqual({ line: 8, column: 18 });
    expect(invalid.refusals).toEqual([
      {
        code: 500,
        reason: "",
        message: "resourceVersion should not be set on objects to be created",
        field: "metadata.resourceVersion",
        position: { line: 8, column: 45 },
      },
    ]);
    expect(invalid.warnings.map((w) => w.field)).toEqual(["spec.colour"]);
    expect((invalid.response as { kind?: string }).kind).toBe("Status");
    expect(verdicts[2]!.reason).toBe("apps/v1 Deployment is not a networking.k8s.io/v1 kind");
    expect(verdicts[3]!.failure?.position).toEqual({ line: 19, column: 1 });
    expect([verdicts[4]!.item, verdicts[4]!.generateName, verdicts[4]!.namespace]).toEqual([0, "shop-", "default"]);
    expect([verdicts[5]!.item, verdicts[5]!.unnamed]).toEqual([1, true]);
  });

  it("is plain data: structured clones are equal, and JSON keeps it", () => {
    expect(structuredClone(verdicts)).toEqual(verdicts);
    expect(JSON.parse(JSON.stringify(verdicts))).toEqual(verdicts);
  });
});
