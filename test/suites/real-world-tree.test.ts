import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, relative } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { injectDocument } from "../../bench/tree.js";
import { cli } from "../support/cli/harness.js";
import { parseSarif } from "../support/sarif.js";

// `clusterwire validate` over a tree of real manifests from well-known
// repositories (test/fixtures/real-world, see its SOURCES.md), with a broken
// document put in the middle of a few multi-document files. What every
// document should get is worked out here on its own, with the `yaml`
// package and JSON.parse, not with clusterwire's reader:
// - networking.k8s.io/v1 kinds are validated (valid or invalid);
// - the removed Ingress/NetworkPolicy API versions are errors;
// - every other kind is skipped, and named;
// - the broken document is an error at its line, and hides nothing.

const CORPUS = new URL("../fixtures/real-world/", import.meta.url);
const NETWORKING = new Set(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]);
const REMOVED = new Set([
  "extensions/v1beta1/Ingress",
  "extensions/v1beta1/NetworkPolicy",
  "networking.k8s.io/v1beta1/Ingress",
  "networking.k8s.io/v1beta1/IngressClass",
]);
/** A backend field removed in networking.k8s.io/v1: strict decoding refuses it. */
const BROKEN_DOC = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: legacy-backend
  namespace: shop
spec:
  defaultBackend:
    serviceName: web
    servicePort: 80
`;

interface Expected {
  readonly kind: string;
  readonly name: string | null;
  readonly status: "checked" | "skipped" | "error";
}

interface Result {
  readonly file: string;
  readonly document: number | null;
  readonly line: number | null;
  readonly kind: string | null;
  readonly name: string | null;
  readonly status: string;
  readonly errors: readonly { readonly position?: { readonly line: number } }[];
  readonly error?: { readonly message: string; readonly position?: { readonly line: number } };
}

interface Summary {
  readonly documents: number;
  readonly valid: number;
  readonly invalid: number;
  readonly skipped: number;
  readonly errors: number;
}

let root: string;
let tree: string;
/** Expected verdicts by file (path under the tree), for files that are manifests. */
const expected = new Map<string, Expected[]>();
/** Files that are not manifests: no document has a kind, or an unrendered template. */
const notManifests = new Set<string>();
/** Files given the broken document, and the line it starts on. */
const injected = new Map<string, number>();

/** Files a repository walk reads: dot-directories (.github) are not manifests and are never entered. */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith("."))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .filter((f) => [".yaml", ".yml", ".json"].includes(extname(f)));
}

function classify(doc: unknown): Expected[] {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return [];
  const o = doc as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown }; items?: unknown };
  const kind = typeof o.kind === "string" ? o.kind : "";
  const apiVersion = typeof o.apiVersion === "string" ? o.apiVersion : "";
  const name = typeof o.metadata?.name === "string" && o.metadata.name !== "" ? o.metadata.name : null;
  if (apiVersion === "v1" && kind === "List" && Array.isArray(o.items)) return o.items.flatMap(classify);
  const networking =
    apiVersion === "networking.k8s.io/v1" && (NETWORKING.has(kind) || NETWORKING.has(kind.replace(/List$/, "")));
  const status = networking ? "checked" : REMOVED.has(`${apiVersion}/${kind}`) ? "error" : "skipped";
  return [{ kind, name: networking && kind.endsWith("List") ? null : name, status }];
}

/** The documents of a file as kubectl would read them, by the `yaml` package or JSON.parse. */
function documentsOf(text: string, json: boolean): unknown[] {
  if (!json)
    return parseAllDocuments(text)
      .map((d) => d.toJS() as unknown)
      .filter((d) => d !== null && d !== undefined);
  // A JSON file may hold several values one after another (kubectl's test data does).
  const out: unknown[] = [];
  let rest = text.trim();
  while (rest !== "") {
    let end = rest.length;
    for (;;) {
      try {
        out.push(JSON.parse(rest.slice(0, end)));
        break;
      } catch {
        // Try the text up to the previous closing brace (one before the one just tried).
        end = rest.lastIndexOf("}", end - 2) + 1;
        if (end <= 0) return [];
      }
    }
    rest = rest.slice(end).trim();
  }
  return out;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "clusterwire-real-world-"));
  tree = join(root, "tree");
  cpSync(CORPUS, tree, { recursive: true });
  for (const abs of walk(tree)) {
    const file = relative(root, abs);
    let text = readFileSync(abs, "utf8");
    if (text.includes("{{")) {
      notManifests.add(file);
      continue;
    }
    // Every multi-document YAML file with an even number on its length takes the broken document: a fixed, spread sample.
    if (extname(abs) !== ".json" && /^---[ \t]*$/m.test(text) && text.length % 2 === 0) {
      text = injectDocument(text, BROKEN_DOC);
      writeFileSync(abs, text);
      const at = text.indexOf(BROKEN_DOC);
      injected.set(file, text.slice(0, at).split("\n").length);
    }
    const docs = documentsOf(text, extname(abs) === ".json").flatMap(classify);
    const kinds = documentsOf(text, extname(abs) === ".json").some(
      (d) => d !== null && typeof d === "object" && typeof (d as { kind?: unknown }).kind === "string",
    );
    if (!kinds) notManifests.add(file);
    else
      expected.set(
        file,
        docs.map((d) => (injected.has(file) && d.name === "legacy-backend" ? { ...d, status: "error" } : d)),
      );
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(format: string): Promise<{ code: number; stdout: string }> {
  const r = await cli(["validate", "-o", format, "--jobs", "1", "tree"], { cwd: root });
  expect(r.stderr).toBe("");
  return r;
}

describe("validate over a tree of real manifests", () => {
  it("gives every document its verdict: networking kinds checked, others skipped and named, the broken one an error that hides nothing", async () => {
    expect(injected.size).toBeGreaterThanOrEqual(3);
    const r = await run("json");
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { documents: Result[]; summary: Summary };
    const byFile = new Map<string, Result[]>();
    for (const d of out.documents) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
    expect(new Set(byFile.keys())).toEqual(new Set([...expected.keys(), ...notManifests]));
    for (const file of notManifests) {
      expect(
        byFile.get(file)?.map((d) => [d.document, d.status]),
        file,
      ).toEqual([[null, "skipped"]]);
    }
    let networking = 0;
    for (const [file, want] of expected) {
      const got = byFile.get(file) ?? [];
      expect(
        got.map((d) => ({
          kind: d.kind,
          name: d.name,
          status: d.status === "valid" || d.status === "invalid" ? "checked" : d.status,
        })),
        file,
      ).toEqual(want);
      networking += want.filter((w) => w.status === "checked").length;
      // Documents are numbered in order and each starts on a later line.
      const lines = got.map((d) => d.line ?? 0);
      expect(lines, file).toEqual([...lines].sort((a, b) => a - b));
    }
    // The corpus holds 48 networking.k8s.io/v1 objects (SOURCES.md); the injected ones are errors, not checked.
    expect(networking).toBe(48);
    for (const [file, line] of injected) {
      const broken = byFile.get(file)?.find((d) => d.name === "legacy-backend");
      expect(broken?.status, file).toBe("error");
      expect(broken?.line, file).toBe(line);
      expect(broken?.error?.message).toBe(
        'strict decoding error: unknown field "spec.defaultBackend.serviceName", unknown field "spec.defaultBackend.servicePort"',
      );
      expect(broken?.error?.position?.line).toBe(line + 7);
    }
    const s = out.summary;
    expect(s.documents).toBe(out.documents.length);
    expect(s.valid + s.invalid + s.skipped + s.errors).toBe(s.documents);
    expect(s.valid).toBe(42);
    expect(s.invalid).toBe(6);
  });

  it("writes JUnit XML that parses, with a test case per document", async () => {
    const json = JSON.parse((await run("json")).stdout) as { summary: Record<string, number> };
    const r = await run("junit");
    expect(XMLValidator.validate(r.stdout)).toBe(true);
    const xml = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === "testsuite" || name === "testcase",
    }).parse(r.stdout) as {
      testsuites: {
        testsuite: {
          "@_name": string;
          "@_failures": string;
          testcase: { failure?: unknown; error?: unknown; skipped?: unknown }[];
        }[];
      };
    };
    const suites = xml.testsuites.testsuite;
    const cases = suites.flatMap((s) => s.testcase);
    expect(suites).toHaveLength(expected.size + notManifests.size);
    expect(cases).toHaveLength(json.summary.documents ?? -1);
    expect(cases.filter((c) => c.failure !== undefined)).toHaveLength(json.summary.invalid ?? -1);
    expect(cases.filter((c) => c.error !== undefined)).toHaveLength(json.summary.errors ?? -1);
    expect(cases.filter((c) => c.skipped !== undefined)).toHaveLength(json.summary.skipped ?? -1);
  });

  it("writes SARIF that the 2.1.0 schema accepts, a result per problem at its file and line", async () => {
    const json = JSON.parse((await run("json")).stdout) as { documents: Result[]; summary: Record<string, number> };
    const log = parseSarif((await run("sarif")).stdout);
    const results = log.runs[0]?.results ?? [];
    expect(results).toHaveLength(
      (json.summary.problems ?? 0) + (json.summary.errors ?? 0) + (json.summary.warnings ?? 0),
    );
    for (const [file, line] of injected) {
      const hit = results.find(
        (x) =>
          x.ruleId === "decode-error" &&
          x.locations[0]?.physicalLocation.artifactLocation.uri === file.split("/").map(encodeURIComponent).join("/"),
      );
      expect(hit?.locations[0]?.physicalLocation.region?.startLine, file).toBe(line + 7);
    }
  });
});
