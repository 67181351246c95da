import { describe, expect, it } from "vitest";
import { checkManifests, readManifests } from "../../../src/networking/index.js";
import { NAMESPACE_MISMATCH, RESOURCE_VERSION_ON_CREATE } from "../../../src/networking/manifests/check-manifests.js";

const SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n";
const BAD_INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: promo
  namespace: shop
spec:
  rules:
    - host: deals.*.example.com
      http:
        paths:
          - path: deals
            pathType: Prefix
            backend:
              service:
                name: web
                port:
                  number: 80
`;
const CLASS = (meta = "") =>
  `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: edge\n${meta}spec:\n  controller: example.com/ingress\n`;

describe("checkManifests", () => {
  it("one verdict per document: other kinds skipped, an invalid Ingress with its errors at their line and column", () => {
    const verdicts = checkManifests(`${SERVICE}---\n${BAD_INGRESS}`, { file: "m.yaml" });
    expect(verdicts.map((v) => [v.status, v.document, v.line, v.kind, v.namespace, v.name])).toEqual([
      ["skipped", 1, 1, "Service", "shop", "web"],
      ["invalid", 2, 7, "Ingress", "shop", "promo"],
    ]);
    const [, ingress] = verdicts;
    expect(ingress?.file).toBe("m.yaml");
    expect(ingress?.errors.map((e) => [e.field, e.type, e.position])).toEqual([
      ["spec.rules[0].host", "FieldValueInvalid", { line: 14, column: 13 }],
      ["spec.rules[0].http.paths[0].path", "FieldValueInvalid", { line: 17, column: 19 }],
    ]);
    // The Status the API server would answer with.
    expect(ingress?.response).toMatchObject({ kind: "Status", code: 422, reason: "Invalid" });
  });

  it("a document that cannot be decoded is an error verdict; the others are still checked", () => {
    const verdicts = checkManifests(`${CLASS()}---\nkind: Ingress\nmetadata: [\n---\n${CLASS()}`);
    expect(verdicts.map((v) => [v.status, v.document, v.line])).toEqual([
      ["valid", 1, 1],
      ["error", 2, 8],
      ["valid", 3, 11],
    ]);
    expect(verdicts[1]).toMatchObject({ kind: "Ingress", failure: { position: { line: 10, column: 1 } } });
  });

  it("refusals: a namespace other than the request's, and a resourceVersion on create", () => {
    const [mismatch] = checkManifests(BAD_INGRESS, { namespace: "prod" });
    expect(mismatch).toMatchObject({
      status: "invalid",
      errors: [],
      refusals: [{ code: 400, reason: "BadRequest", message: NAMESPACE_MISMATCH, position: { line: 5, column: 14 } }],
    });
    const [rv] = checkManifests(CLASS('  resourceVersion: "7"\n'));
    expect(rv).toMatchObject({
      status: "invalid",
      refusals: [{ code: 500, reason: "", message: RESOURCE_VERSION_ON_CREATE, field: "metadata.resourceVersion" }],
    });
    // An update (with the stored object) carries its resourceVersion.
    const [stored] = readManifests(CLASS('  resourceVersion: "7"\n'));
    const old = stored?.type === "object" ? stored.object : undefined;
    expect(
      checkManifests(CLASS('  resourceVersion: "7"\n'), { ...(old !== undefined ? { old } : {}) })[0]?.status,
    ).toBe("valid");
  });

  it("warnings under fieldValidation Warn, located", () => {
    const [v] = checkManifests(CLASS().replace("spec:\n", "spec:\n  colour: red\n"), { fieldValidation: "Warn" });
    expect(v).toMatchObject({
      status: "valid",
      warnings: [{ message: 'unknown field "spec.colour"', field: "spec.colour", position: { line: 6, column: 11 } }],
    });
  });

  it("a text that is no manifest is one verdict about the whole text: skipped, or an error", () => {
    expect(checkManifests("# just a comment\n")).toEqual([
      {
        status: "skipped",
        errors: [],
        refusals: [],
        warnings: [],
        reason: "no documents: empty, or comments only",
      },
    ]);
    expect(checkManifests("replicas: 3\n", { file: "values.yaml", nonManifests: "error" })).toEqual([
      {
        file: "values.yaml",
        status: "error",
        errors: [],
        refusals: [],
        warnings: [],
        failure: { message: "no kind: not a Kubernetes manifest" },
      },
    ]);
  });

  it("takes entries already read, as readManifests gives them", () => {
    const text = `${SERVICE}---\n${BAD_INGRESS}`;
    expect(checkManifests(readManifests(text))).toEqual(checkManifests(text));
  });

  it("verdicts are plain data", () => {
    const verdicts = checkManifests(`${SERVICE}---\n${BAD_INGRESS}---\nkind: x\n  - [\n`);
    expect(structuredClone(verdicts)).toEqual(verdicts);
  });
});
