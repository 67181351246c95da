// analyze() against the library itself in Node: the errors are exactly what
// validate() returns for each decoded object (worded by formatFieldError),
// for every kind, each operation, and multi-document streams.
import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_FEATURE_GATES,
  formatFieldError,
  fromJson,
  fromYaml,
  toJsonString,
  validate,
  warnings,
  type NetworkingObject,
} from "../../src/networking/index.js";
import { analyze, isJsonText, oldFor, parsePath, readDocuments } from "../../src/playground/analyze.js";
import { propertyRuns } from "../support/property-runs.js";
import { nonEmpty } from "../support/non-empty.js";

const root = new URL("../../", import.meta.url);
const read = (p: string) => readFileSync(new URL(p, root), "utf8");
const FIXTURES = "../shared/testdata/k8s-api/v1.35.0/";

/** Every example and upstream fixture of every kind that decodes as a whole. */
const FILES = [
  ...nonEmpty(
    readdirSync(new URL("examples/", root)).filter((f) => /\.(ya?ml|json)$/.test(f) && f !== "shop-deploy.yaml"),
    "manifests in examples/",
  ).map((f) => `examples/${f}`),
  ...nonEmpty(readdirSync(new URL("examples/invalid/", root)), "examples/invalid/").map((f) => `examples/invalid/${f}`),
  ...["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"].flatMap((k) => [
    `${FIXTURES}networking.k8s.io.v1.${k}.yaml`,
    `${FIXTURES}networking.k8s.io.v1.${k}.json`,
  ]),
];

const CREATE = { operation: "create", namespace: "default", featureGates: DEFAULT_FEATURE_GATES, old: [] } as const;

function oracle(text: string, file: string): { objects: NetworkingObject[]; errors: string[] } {
  const objects = file.endsWith(".json") ? [fromJson(text)] : fromYaml(text);
  return { objects, errors: objects.flatMap((o) => validate(o).map(formatFieldError)) };
}

describe("analyze", () => {
  it.each(FILES)("%s: the errors are validate()'s, in order", (file) => {
    const text = read(file);
    const want = oracle(text, file);
    const got = analyze(text, CREATE);
    expect(got.problems).toEqual([]);
    expect(got.objects.length).toBe(want.objects.length);
    expect(got.errors.map((e) => formatFieldError(e.error))).toEqual(want.errors);
  });

  it("finds errors in the invalid examples (the check above can fail)", () => {
    const all = FILES.filter((f) => f.includes("invalid")).flatMap((f) => analyze(read(f), CREATE).errors);
    expect(all.length).toBeGreaterThanOrEqual(11);
  });

  it("every error's path parses back from its rendered field", () => {
    for (const file of FILES) {
      for (const e of analyze(read(file), CREATE).errors) expect(parsePath(e.error.field)).toEqual(e.error.path);
    }
  });

  it("reports a broken document where it is, in the whole stream, and still reads the others", () => {
    const good = read("examples/ingressclass-public.yaml");
    const text = `${good}---\nkind: Ingress\napiVersion: networking.k8s.io/v1\nspec: [unclosed\n---\n${good}`;
    const got = analyze(text, CREATE);
    expect(got.objects.length).toBe(2);
    expect(got.problems.length).toBe(1);
    const p = got.problems[0]!;
    expect(p.message).toMatch(/^yaml decode error/);
    // The problem sits inside the broken document (after its separator, before the next).
    const firstSep = text.indexOf("\n---\n");
    expect(p.range.from).toBeGreaterThan(firstSep);
    expect(p.range.from).toBeLessThanOrEqual(text.indexOf("\n---\n", firstSep + 1) + 1);
  });

  it("reads JSON with fromJson, and its decode errors with line and column", () => {
    expect(isJsonText('  {"kind": "Ingress"}')).toBe(true);
    expect(isJsonText("kind: Ingress")).toBe(false);
    const { problems } = readDocuments(
      '{\n  "apiVersion": "networking.k8s.io/v1",\n  "kind": "Ingress",\n  "spec": 3\n}',
    );
    expect(problems.length).toBe(1);
    expect(problems[0]!.message).toMatch(/^json decode error at line 4/);
  });

  it("update and status validate against the old object of the same kind and name", () => {
    const stored = read("examples/ingressclass-public.yaml");
    const changed = stored.replace("controller: k8s.io/ingress-nginx", "controller: example.com/other");
    const old = fromYaml(stored);
    const want = validate(fromYaml(changed)[0]!, { old: old[0]! }).map(formatFieldError);
    expect(want.length).toBeGreaterThan(0); // the controller is immutable
    const got = analyze(changed, { ...CREATE, operation: "update", old });
    expect(got.errors.map((e) => formatFieldError(e.error))).toEqual(want);
    expect(analyze(changed, CREATE).errors).toEqual([]);
    // IngressClass has no status subresource: a problem, not a crash.
    const status = analyze(changed, { ...CREATE, operation: "status", old });
    expect(status.problems.length).toBe(1);
    // Another name beside the stored name: two objects, and only one old one to pair.
    const renamed = changed.replace("name: nginx-public", "name: other");
    const both = analyze(`${changed}---\n${renamed}`, { ...CREATE, operation: "update", old });
    expect(both.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/old object pane has no IngressClass named "other"/),
    ]);
    expect(both.errors.map((e) => formatFieldError(e.error))).toEqual(want);
    // No old object of that kind: said, not guessed.
    const none = analyze(changed, { ...CREATE, operation: "update", old: [] });
    expect(none.problems[0]!.message).toMatch(/old object pane has no IngressClass/);
  });

  it("a rename is paired with the only old object of its kind, and metadata.name is immutable", () => {
    const stored = read("examples/ingressclass-public.yaml");
    const renamed = stored.replace("name: nginx-public", "name: renamed");
    expect(renamed).not.toBe(stored);
    const old = fromYaml(stored);
    const want = validate(fromYaml(renamed)[0]!, { old: old[0]! }).map(formatFieldError);
    expect(want).toContain('metadata.name: Invalid value: "renamed": field is immutable');
    const got = analyze(renamed, { ...CREATE, operation: "update", old });
    expect(got.problems).toEqual([]);
    expect(got.errors.map((e) => formatFieldError(e.error))).toEqual(want);
    // The error sits on the name's line in the text.
    const name = got.errors.find((e) => e.error.field === "metadata.name")!;
    const line = renamed.slice(renamed.lastIndexOf("\n", name.range.from) + 1, renamed.indexOf("\n", name.range.from));
    expect(line.trim()).toBe("name: renamed");
    // oldFor: by name first; else the only one of the kind when the editor has one of that kind too.
    const [a, b] = [fromYaml(stored)[0]!, fromYaml(renamed)[0]!];
    const ingress = fromYaml(read("examples/ingress-shop.yaml"))[0]!;
    expect(oldFor(b, [b], [a])).toBe(a);
    expect(oldFor(b, [b], [ingress, a])).toBe(a);
    expect(oldFor(b, [b], [a, b])).toBe(b);
    expect(oldFor(b, [a, b], [a])).toBeUndefined();
    expect(oldFor(b, [b], [a, a])).toBeUndefined();
    expect(oldFor(b, [b], [ingress])).toBeUndefined();
    // The same for status.
    const ingressRenamed = read("examples/ingress-shop.yaml").replace(/^( {2}name: ).*$/m, "$1moved");
    const st = analyze(ingressRenamed, { ...CREATE, operation: "status", old: [ingress] });
    expect(st.problems).toEqual([]);
    expect(st.errors.map((e) => formatFieldError(e.error))).toEqual(
      validate(fromYaml(ingressRenamed)[0]!, { old: ingress, subresource: "status" }).map(formatFieldError),
    );
    expect(st.errors.map((e) => e.error.field)).toContain("metadata.name");
  });

  it("status validates an Ingress status update against the old object", () => {
    const stored = read("examples/ingress-shop.yaml");
    const old = fromYaml(stored);
    const withStatus = `${stored.trimEnd()}\nstatus:\n  loadBalancer:\n    ingress:\n      - ip: 300.1.2.3\n`;
    const want = validate(fromYaml(withStatus)[0]!, { old: old[0]!, subresource: "status" }).map(formatFieldError);
    expect(want.length).toBeGreaterThan(0);
    const got = analyze(withStatus, { ...CREATE, operation: "status", old });
    expect(got.errors.map((e) => formatFieldError(e.error))).toEqual(want);
  });

  it("takes the namespace and the feature gates", () => {
    const text = read("examples/ingress-shop.yaml").replace(/^ {2}namespace: .*\n/m, "");
    for (const ns of ["default", "Not_A_Namespace"]) {
      const want = validate(fromYaml(text)[0]!, { namespace: ns }).map(formatFieldError);
      expect(analyze(text, { ...CREATE, namespace: ns }).errors.map((e) => formatFieldError(e.error))).toEqual(want);
    }
    const ip =
      "apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata:\n  name: 10.0.0.1\nspec:\n  parentRef:\n    resource: services\n    name: a\n    namespace: b\n";
    const strict = { StrictIPCIDRValidation: true, RelaxedServiceNameValidation: false };
    const policy = `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: p\nspec:\n  podSelector: {}\n  ingress:\n    - from:\n        - ipBlock:\n            cidr: 10.0.0.1/8\n`;
    for (const t of [ip, policy]) {
      for (const g of [DEFAULT_FEATURE_GATES, strict]) {
        const want = validate(fromYaml(t)[0]!, { featureGates: g }).map(formatFieldError);
        expect(analyze(t, { ...CREATE, featureGates: g }).errors.map((e) => formatFieldError(e.error))).toEqual(want);
      }
    }
    const loose = validate(fromYaml(policy)[0]!).length;
    const tight = validate(fromYaml(policy)[0]!, { featureGates: strict }).length;
    expect(tight).toBeGreaterThan(loose);
  });

  it("lists warnings() of admitted objects, placed at their field", () => {
    const text = read("examples/ingress-shop.yaml")
      .replace(/^ {2}ingressClassName: .*\n/m, "")
      .replace(/^ {2}annotations:\n/m, "  annotations:\n    kubernetes.io/ingress.class: nginx\n");
    const want = warnings(fromYaml(text)[0]!);
    expect(want.length).toBeGreaterThan(0);
    const got = analyze(text, CREATE);
    expect(got.warnings.map((w) => w.message)).toEqual(want);
    expect(text.slice(got.warnings[0]!.range.from).startsWith("annotations:")).toBe(true);
  });
});

describe("analyze on any text", () => {
  const RUNS = propertyRuns(100);
  const base = read("examples/invalid/netpol-bad-rules.yaml");
  const json = JSON.stringify(JSON.parse(toJsonString(fromYaml(read("examples/ingress-shop.yaml"))[0]!)), null, 2);

  it("never throws, for every operation: what it cannot read is a problem", () => {
    const old = fromYaml(read("examples/ingress-shop.yaml"));
    const edited = fc
      .tuple(fc.constantFrom(base, json), fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 8 }))
      .map(([t, at, len, insert]) => {
        const i = at % (t.length + 1);
        return t.slice(0, i) + insert + t.slice(i + len);
      });
    fc.assert(
      fc.property(fc.oneof(edited, fc.string()), fc.constantFrom("create", "update", "status"), (text, operation) => {
        const a = analyze(text, { ...CREATE, operation: operation as "create", old });
        for (const r of [...a.errors, ...a.warnings, ...a.problems].map((x) => x.range)) {
          expect(r.from).toBeGreaterThanOrEqual(0);
          expect(r.to).toBeLessThanOrEqual(text.length);
          expect(r.from).toBeLessThanOrEqual(r.to);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
