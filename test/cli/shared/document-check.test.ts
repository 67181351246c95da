import { describe, expect, it } from "vitest";
import { checkFile, type CheckSettings } from "../../../src/cli/shared/document-check.js";
import { NAMESPACE_MISMATCH } from "../../../src/networking/manifests/check-manifests.js";
import { kindSelector } from "../../../src/cli/validate/kind-selection.js";
import type { Refusal, Verdict } from "../../../src/cli/shared/verdict.js";
import {
  encodeJsonWatchEvent,
  formatFieldError,
  fromYaml,
  toJsonString,
  toStatus,
  validate,
} from "../../../src/networking/index.js";
import {
  NOT_MANIFEST,
  ingressClassYaml,
  netpolYaml,
  otherKindYaml,
  readText,
  resourceVersionRefusal,
  stream,
} from "../../support/cli/validate.js";

async function check(text: string, settings: CheckSettings = {}, name = "m.yaml"): Promise<Verdict[]> {
  const read = await readText(name, text);
  const checked = checkFile(name, read, settings);
  expect(checked.file).toBe(name);
  return [...checked.verdicts];
}

const BAD_CLASS = ingressClassYaml("Bad_Name", "nginx");
const WITH_RV = ingressClassYaml("edge", "example.com/a", '  resourceVersion: "7"\n');

describe("checkFile: verdicts", () => {
  it("a valid object: its identity, line, and no findings", async () => {
    expect(await check(netpolYaml("  podSelector: {}\n", "  name: web\n  namespace: shop\n"))).toEqual([
      {
        file: "m.yaml",
        document: 1,
        line: 1,
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        namespace: "shop",
        name: "web",
        status: "valid",
        errors: [],
        refusals: [],
        warnings: [],
      },
    ]);
  });

  it('the request namespace: the object\'s own, else "default", else --namespace; none for cluster-scoped kinds', async () => {
    const [own] = await check(netpolYaml("  podSelector: {}\n", "  name: web\n  namespace: shop\n"));
    const [fallback] = await check(netpolYaml());
    const [given] = await check(netpolYaml(), { namespace: "prod" });
    const [cluster] = await check(ingressClassYaml("edge"), { namespace: "prod" });
    expect([own?.namespace, fallback?.namespace, given?.namespace, cluster?.namespace]).toEqual([
      "shop",
      "default",
      "prod",
      undefined,
    ]);
    expect(given?.status).toBe("valid");
    expect(cluster?.status).toBe("valid");
  });

  it("keeps generateName for an object without a name, and marks one with neither", async () => {
    const [generated] = await check(netpolYaml("  podSelector: {}\n", "  generateName: web-\n"));
    const [nameless] = await check(netpolYaml("  podSelector: {}\n", "  labels: {}\n"));
    expect(generated).toMatchObject({ generateName: "web-", status: "valid" });
    expect(generated).not.toHaveProperty("name");
    expect(generated).not.toHaveProperty("unnamed");
    expect(nameless).toMatchObject({ unnamed: true, status: "invalid" });
    expect(nameless).not.toHaveProperty("name");
    expect(nameless?.errors.map((e) => e.field)).toContain("metadata.name");
  });

  it("an invalid object: the API server's field errors at their positions, and its 422 Status", async () => {
    const [v] = await check(BAD_CLASS);
    const obj = fromYaml(BAD_CLASS)[0]!;
    const expected = validate(obj, { namespace: "default" });
    expect(v?.status).toBe("invalid");
    expect(v?.errors.map((e) => e.message)).toEqual(expected.map(formatFieldError));
    expect(v?.errors.map((e) => [e.field, e.type, e.badValue, e.position])).toEqual([
      ["metadata.name", "FieldValueInvalid", "Bad_Name", { line: 4, column: 9 }],
      ["spec.controller", "FieldValueInvalid", "nginx", { line: 6, column: 15 }],
    ]);
    expect(v?.refusals).toEqual([]);
    expect(v?.response).toEqual(JSON.parse(toJsonString(toStatus(obj, expected))));
    expect(v?.response).toMatchObject({ kind: "Status", code: 422, reason: "Invalid" });
  });

  it("other kinds and kinds not selected are skipped, with the reason", async () => {
    const read = await readText("m.yaml", stream(otherKindYaml("apps/v1", "Deployment", "web", "shop"), netpolYaml()), {
      select: kindSelector([], ["NetworkPolicy"])!,
    });
    expect(checkFile("m.yaml", read, {}).verdicts).toEqual([
      {
        file: "m.yaml",
        document: 1,
        line: 1,
        apiVersion: "apps/v1",
        kind: "Deployment",
        namespace: "shop",
        name: "web",
        status: "skipped",
        errors: [],
        refusals: [],
        warnings: [],
        reason: "apps/v1 Deployment is not a networking.k8s.io/v1 kind",
      },
      {
        file: "m.yaml",
        document: 2,
        line: 7,
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        name: "web",
        status: "skipped",
        errors: [],
        refusals: [],
        warnings: [],
        reason: "not selected by --kinds or --skip-kinds",
      },
    ]);
  });

  it("a document that cannot be decoded is an error carrying the failure, the others still checked", async () => {
    const verdicts = await check(stream(ingressClassYaml("a"), netpolYaml("  podSelectr: {}\n"), BAD_CLASS));
    expect(verdicts.map((v) => v.status)).toEqual(["valid", "error", "invalid"]);
    expect(verdicts[1]).toMatchObject({
      kind: "NetworkPolicy",
      name: "web",
      failure: {
        message: 'strict decoding error: unknown field "spec.podSelectr"',
        position: { line: 13, column: 15 },
      },
    });
  });

  it("warnings ride along with the verdict", async () => {
    const read = await readText("m.yaml", netpolYaml("  podSelector: {}\n  extra: 1\n"), { fieldValidation: "Warn" });
    const [v] = checkFile("m.yaml", read, {}).verdicts;
    expect(v).toMatchObject({
      status: "valid",
      warnings: [{ field: "spec.extra", position: { line: 7, column: 10 } }],
    });
  });

  it("a file that is not a manifest: one skipped verdict with the note, or an error with --non-manifests error", async () => {
    const read = await readText("values.yaml", "replicas: 3\n");
    const note = NOT_MANIFEST;
    expect(checkFile("values.yaml", read, {}).verdicts).toEqual([
      { file: "values.yaml", status: "skipped", errors: [], refusals: [], warnings: [], reason: note },
    ]);
    expect(checkFile("values.yaml", read, { nonManifests: "error" }).verdicts).toEqual([
      { file: "values.yaml", status: "error", errors: [], refusals: [], warnings: [], failure: { message: note } },
    ]);
  });
});

/** The one refusal a verdict carries, and the Status body the API server answers it with. */
function expectRefused(v: Verdict | undefined, refusal: Refusal): void {
  expect(v?.refusals).toEqual([refusal]);
  const reason = refusal.reason === "" ? {} : { reason: refusal.reason };
  const status = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: refusal.message };
  expect(v?.response).toEqual({ ...status, ...reason, code: refusal.code });
}

describe("checkFile: create-time refusals", () => {
  it('metadata.resourceVersion on create: refused with 500 and reason "", as the storage layer does', async () => {
    const [v] = await check(WITH_RV);
    expect(v).toMatchObject({ status: "invalid", errors: [] });
    expectRefused(v, resourceVersionRefusal("metadata.resourceVersion", 5, 20));
  });

  it("field errors and the resourceVersion refusal together: the response is the 422 of the field errors", async () => {
    const [v] = await check(ingressClassYaml("edge", "nginx", '  resourceVersion: "7"\n'));
    expect(v?.errors).toHaveLength(1);
    expect(v?.refusals.map((r) => r.code)).toEqual([500]);
    expect(v?.response).toMatchObject({ code: 422 });
  });

  it("no resourceVersion refusal for an update (--old) nor for a watch event, which is already stored", async () => {
    const [update] = await check(WITH_RV, { old: fromYaml(WITH_RV)[0]! });
    expect(update).toMatchObject({ status: "valid", refusals: [] });
    const event = encodeJsonWatchEvent({ type: "ADDED", object: fromYaml(WITH_RV)[0]! });
    const [watched] = await check(event, {}, "w.jsonl");
    expect(watched).toMatchObject({ status: "valid", event: "ADDED", refusals: [] });
  });

  it("a networking List: one refusal per item that carries a resourceVersion, at the item's field", async () => {
    const list = [
      "apiVersion: networking.k8s.io/v1",
      "kind: NetworkPolicyList",
      "metadata: {}",
      "items:",
      "  - metadata:",
      "      name: a",
      "    spec:",
      "      podSelector: {}",
      "  - metadata:",
      "      name: b",
      '      resourceVersion: "3"',
      "    spec:",
      "      podSelector: {}",
      "",
    ].join("\n");
    const [v] = await check(list);
    expectRefused(v, resourceVersionRefusal("items[1].metadata.resourceVersion", 11, 24));
  });

  it("a namespace other than the request's: 400 BadRequest before validation, so no field errors", async () => {
    const bad = netpolYaml("  podSelector: {}\n  policyTypes: [Bogus]\n", "  name: web\n  namespace: shop\n");
    expect((await check(bad))[0]?.errors).not.toEqual([]);
    const [v] = await check(bad, { namespace: "prod" });
    expect(v).toMatchObject({ status: "invalid", namespace: "prod", errors: [] });
    expectRefused(v, {
      code: 400,
      reason: "BadRequest",
      message: NAMESPACE_MISMATCH,
      field: "metadata.namespace",
      position: { line: 5, column: 14 },
    });
    // The same namespace, or none in the object, is no mismatch.
    expect((await check(bad.replace("shop", "prod"), { namespace: "prod" }))[0]?.refusals).toEqual([]);
    expect((await check(netpolYaml(), { namespace: "prod" }))[0]?.status).toBe("valid");
  });
});
