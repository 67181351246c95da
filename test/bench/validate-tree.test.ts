// The tree bench/validate-tree.ts measures on: seeded (same seed, same bytes),
// as many files as asked, the injected documents really invalid or really
// undecodable, and the renaming light enough that every other networking
// document keeps its verdict. No timings here.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { DecodeError, fromYaml, validate } from "../../src/networking/index.js";
import {
  defaultCorpusDir,
  generateTree,
  INVALID_FRACTION,
  injectDocument,
  loadCorpus,
  renameObjects,
  UNDECODABLE_FRACTION,
} from "../../bench/tree.js";

const work = mkdtempSync(join(tmpdir(), "clusterwire-tree-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();

/** Every file of a tree, path -> text. */
const contents = (dir: string): Map<string, string> =>
  new Map(filesUnder(dir).map((f) => [relative(dir, f), readFileSync(f, "utf8")]));

const NETWORKING_KINDS = new Set(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]);

/** What clusterwire says of each networking.k8s.io/v1 document of a YAML text, by document index. */
function verdicts(text: string): Map<number, string> {
  const out = new Map<number, string>();
  parseAllDocuments(text).forEach((doc, i) => {
    if (doc.errors.length > 0) return;
    const value = doc.toJS() as { apiVersion?: unknown; kind?: unknown } | null;
    if (value?.apiVersion !== "networking.k8s.io/v1" || !NETWORKING_KINDS.has(String(value.kind))) return;
    const [start, , end] = doc.range;
    try {
      const errors = fromYaml(text.slice(start, end), { strict: true }).flatMap((o) => validate(o));
      out.set(i, errors.map((e) => `${e.type} ${e.field}`).join("; ") || "valid");
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      out.set(i, "does not decode");
    }
  });
  return out;
}

const FILES = 260;
const tree = join(work, "tree");
const report = generateTree(tree, { files: FILES, seed: 7 });
const corpus = loadCorpus(defaultCorpusDir());

describe("the generated tree", () => {
  it("has the files asked for, in nested copies of the corpus", () => {
    const written = filesUnder(tree);
    expect(written).toHaveLength(FILES);
    expect(report.files).toBe(FILES);
    expect(report.copies).toBe(Math.ceil(FILES / corpus.length));
    const first = relative(tree, written[0]!).split("/");
    expect(first.slice(0, 3).join("/")).toMatch(/^org-\d+\/team-\d+\/repo-\d+$/);
  });

  it("is the same for the same seed, and differs for another", () => {
    const again = join(work, "again");
    const other = join(work, "other");
    expect(generateTree(again, { files: FILES, seed: 7 })).toEqual(report);
    expect(contents(again)).toEqual(contents(tree));
    generateTree(other, { files: FILES, seed: 8 });
    expect(contents(other)).not.toEqual(contents(tree));
  });

  it("puts an invalid document in 2% of the files and an undecodable one in 1%, each in a YAML file", () => {
    const invalid = report.injected.filter((i) => i.what === "invalid");
    const undecodable = report.injected.filter((i) => i.what === "undecodable");
    expect(invalid).toHaveLength(Math.round(FILES * INVALID_FRACTION));
    expect(undecodable).toHaveLength(Math.round(FILES * UNDECODABLE_FRACTION));
    expect(new Set(report.injected.map((i) => i.path)).size).toBe(report.injected.length);
    for (const i of report.injected) expect(i.path).toMatch(/\.ya?ml$/);
  });

  it("injects documents clusterwire refuses as the API server would: invalid ones validate with errors, the others do not decode", () => {
    for (const injected of report.injected) {
      const text = readFileSync(join(tree, injected.path), "utf8");
      const docs = parseAllDocuments(text);
      const at = docs.findIndex((d) => text.slice(d.range[0], d.range[2]).includes(`bench-${injected.what}-`));
      expect(at, injected.path).toBeGreaterThan(-1);
      const found = verdicts(text).get(at);
      if (injected.what === "invalid") {
        expect(found, `${injected.path}: ${injected.variant}`).toMatch(/^Field/);
      } else if (docs[at]?.errors.length === 0) {
        expect(found, `${injected.path}: ${injected.variant}`).toBe("does not decode");
      } else {
        // Broken indentation: the YAML parser itself refuses that document, and only it.
        expect(docs.filter((d) => d.errors.length > 0)).toHaveLength(1);
        expect(() => fromYaml(text, { strict: true }), injected.path).toThrow(DecodeError);
      }
    }
  });

  it("renames objects without changing any verdict of the corpus's own networking documents", () => {
    const injected = new Set(report.injected.map((i) => i.path));
    const sources = new Map(corpus.map((f) => [f.path, f]));
    let compared = 0;
    for (const [path, text] of contents(tree)) {
      const source = sources.get(path.split("/").slice(3).join("/"));
      expect(source, path).toBeDefined();
      if (source === undefined || injected.has(path) || !source.parses || !/\.ya?ml$/.test(path)) continue;
      const before = verdicts(source.text);
      expect(verdicts(text), path).toEqual(before);
      compared += before.size;
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe("renameObjects", () => {
  it("suffixes metadata.name and metadata.namespace, keeping quotes, comments and layout", () => {
    const text = '# kept\nkind: NetworkPolicy\nmetadata:\n  name: "web"  # note\n  namespace: shop\nspec: {}\n';
    expect(renameObjects(text, 3)).toBe(
      '# kept\nkind: NetworkPolicy\nmetadata:\n  name: "web-c3"  # note\n  namespace: shop-c3\nspec: {}\n',
    );
  });

  it("renames a List's items, in every document, and leaves an empty name empty", () => {
    const text = "kind: List\nitems:\n- metadata:\n    name: a\n---\nmetadata:\n  name: ''\n";
    expect(renameObjects(text, 1)).toBe(
      "kind: List\nitems:\n- metadata:\n    name: a-c1\n---\nmetadata:\n  name: ''\n",
    );
  });

  it("keeps JSON JSON", () => {
    const text = '{\n  "kind": "Namespace",\n  "metadata": {"name": "dev"}\n}\n';
    expect(JSON.parse(renameObjects(text, 2))).toEqual({ kind: "Namespace", metadata: { name: "dev-c2" } });
  });
});

describe("injectDocument", () => {
  const doc = "kind: X\n";

  it("goes before the middle --- of a stream", () => {
    expect(injectDocument("a: 1\n---\nb: 2\n---\nc: 3\n", doc)).toBe("a: 1\n---\nb: 2\n---\nkind: X\n---\nc: 3\n");
    expect(injectDocument("a: 1\n--- \nb: 2\n", doc)).toBe("a: 1\n---\nkind: X\n--- \nb: 2\n");
  });

  it("goes after a lone document, with or without its final newline", () => {
    expect(injectDocument("a: 1\n", doc)).toBe("a: 1\n---\nkind: X\n");
    expect(injectDocument("a: 1", doc)).toBe("a: 1\n---\nkind: X\n");
  });

  it("does not take a --- inside a line for a document marker", () => {
    expect(injectDocument("a: '---'\nb: x---\n", doc)).toBe("a: '---'\nb: x---\n---\nkind: X\n");
  });
});
