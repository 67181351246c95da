// One job of clusterwire validate: a file read, decoded document by document and checked with the
// run's settings, as plain data a worker thread can send back; never a throw.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type FileJobSettings, validateBytes, validateFile } from "../../../src/cli/validate/file.js";
import { fromYaml } from "../../../src/networking/index.js";
import { ingressClassYaml, ingressYaml, netpolYaml, stream, tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("validate-file");
const SETTINGS: FileJobSettings = {
  fieldValidation: "Strict",
  nonManifests: "skip",
  featureGates: {},
  kinds: [],
  skipKinds: [],
};
const text = (s: string) => new TextEncoder().encode(s);
/** Each verdict's status and error messages. */
const outcome = async (name: string, s: string, settings: Partial<FileJobSettings> = {}) =>
  (await validateBytes(name, text(s), { ...SETTINGS, ...settings })).verdicts.map((v) => [
    v.status,
    ...v.errors.map((e) => e.message),
  ]);

const LEGACY_CIDR = netpolYaml("  podSelector: {}\n  ingress: [{from: [{ipBlock: {cidr: 010.0.0.0/8}}]}]\n");

describe("validateFile", () => {
  it("checks every document of the file, under its display name", async () => {
    const dir = tree({ "sub/a.yaml": stream(ingressClassYaml("a"), netpolYaml()) });
    const r = await validateFile({ path: join(dir, "sub/a.yaml"), display: "d/a.yaml" }, SETTINGS);
    expect(r.file).toBe("d/a.yaml");
    expect(r.verdicts.map((v) => [v.file, v.document, v.line, v.kind, v.name, v.status])).toEqual([
      ["d/a.yaml", 1, 1, "IngressClass", "a", "valid"],
      ["d/a.yaml", 2, 8, "NetworkPolicy", "web", "valid"],
    ]);
  });

  it("makes a file it cannot read one error verdict, not a throw", async () => {
    const dir = tree({ "d/x.yaml": "" });
    expect(await validateFile({ path: join(dir, "none.yaml"), display: "none.yaml" }, SETTINGS)).toEqual({
      file: "none.yaml",
      verdicts: [
        {
          file: "none.yaml",
          status: "error",
          errors: [],
          refusals: [],
          warnings: [],
          failure: { message: "cannot read: no such file or directory" },
        },
      ],
    });
    const r = await validateFile({ path: join(dir, "d"), display: "d" }, SETTINGS);
    expect(r.verdicts[0]?.failure).toEqual({ message: "cannot read: is a directory" });
  });
});

describe("validateBytes takes the run's settings", () => {
  it("kinds and skipKinds: the documents not selected are skipped", async () => {
    const both = stream(ingressClassYaml("a"), netpolYaml());
    expect(await outcome("a.yaml", both, { kinds: ["NetworkPolicy"] })).toEqual([["skipped"], ["valid"]]);
    expect(await outcome("a.yaml", both, { skipKinds: ["NetworkPolicy"] })).toEqual([["valid"], ["skipped"]]);
    const r = await validateBytes("a.yaml", text(both), { ...SETTINGS, kinds: ["Ingress"] });
    expect(r.verdicts.map((v) => v.reason)).toEqual([
      "not selected by --kinds or --skip-kinds",
      "not selected by --kinds or --skip-kinds",
    ]);
  });

  it("nonManifests: a file that is not a manifest is skipped, or an error", async () => {
    expect(await outcome("p.json", '{"name": "x"}')).toEqual([["skipped"]]);
    const r = await validateBytes("p.json", text('{"name": "x"}'), { ...SETTINGS, nonManifests: "error" });
    expect(r.verdicts.map((v) => [v.status, v.failure?.message])).toEqual([
      ["error", "no kind: not a Kubernetes manifest"],
    ]);
  });

  it("namespace: the request's namespace for a namespaced object without one", async () => {
    const r = await validateBytes("n.yaml", text(netpolYaml()), { ...SETTINGS, namespace: "shop" });
    expect(r.verdicts.map((v) => v.namespace)).toEqual(["shop"]);
    const d = await validateBytes("n.yaml", text(netpolYaml()), SETTINGS);
    expect(d.verdicts.map((v) => v.namespace)).toEqual(["default"]);
  });

  it("version and feature gates: the release's rules", async () => {
    const serviceName = ingressYaml({ service: "1abc" });
    expect(await outcome("i.yaml", serviceName)).toEqual([
      [
        "invalid",
        expect.stringMatching(
          /^spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.name: Invalid value: "1abc": a DNS-1035 label/,
        ),
      ],
    ]);
    expect(await outcome("i.yaml", serviceName, { version: "1.37" })).toEqual([["valid"]]);
    expect(await outcome("n.yaml", LEGACY_CIDR)).toEqual([["valid"]]);
    expect(await outcome("n.yaml", LEGACY_CIDR, { featureGates: { StrictIPCIDRValidation: true } })).toEqual([
      [
        "invalid",
        'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "010.0.0.0/8": must not have leading 0s in IP or prefix length',
      ],
    ]);
  });

  it("fieldValidation: an unknown field fails the document under Strict only", async () => {
    const typo = netpolYaml("  podSelector: {}\n  podSelectr: {}\n");
    expect((await outcome("n.yaml", typo))[0]?.[0]).toBe("error");
    expect(await outcome("n.yaml", typo, { fieldValidation: "Ignore" })).toEqual([["valid"]]);
  });

  it("an old object makes it an update, with the update's rules", async () => {
    const rv = '  resourceVersion: "7"\n';
    const old = fromYaml(ingressClassYaml("a", "example.com/old", rv))[0]!;
    const r = await validateBytes("a.yaml", text(ingressClassYaml("a", "example.com/new", rv)), SETTINGS, { old });
    expect(r.verdicts.map((v) => [v.status, ...v.errors.map((e) => `${e.type} ${e.field}`)])).toEqual([
      ["invalid", "FieldValueInvalid spec.controller"],
    ]);
    expect(await outcome("a.yaml", ingressClassYaml("a", "example.com/new"))).toEqual([["valid"]]);
  });
});
