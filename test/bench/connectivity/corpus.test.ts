// The connectivity scale corpus (bench/connectivity/corpus.ts): exactly the workloads and policies
// asked for, every file YAML that parses, the same files for the same seed, copies that differ
// from the real manifests only in namespace names, and a diff case that moves a tenth of the
// argo-cd, kubeshark and kubetail copies to their later revision. Small and medium corpora are parsed whole
// with the yaml package; the 2,000/1,000 one (8 MB, which the yaml package takes about 15 s to
// parse) is counted line by line, by a counter checked against the yaml count on the medium one.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import {
  APPS,
  countManifests,
  generateCorpus,
  generateCorpusDiff,
  readSource,
  type ManifestFile,
  rewriteNamespaces,
  WORKLOAD_KINDS,
} from "../../../bench/connectivity/corpus.js";
import { repoRoot } from "../../../bench/fixtures.js";
import { nonEmpty } from "../../support/non-empty.js";
import { propertyRuns } from "../../support/property-runs.js";

const fixtures = join(repoRoot(), "test", "fixtures");

/** Every object of the files, parsed with the yaml package; fails on a document that does not parse. */
function objects(files: readonly ManifestFile[]): { file: string; value: Record<string, unknown> }[] {
  return files.flatMap((file) =>
    parseAllDocuments(file.text).flatMap((doc) => {
      expect(doc.errors, file.name).toEqual([]);
      const value = doc.toJS() as Record<string, unknown> | null;
      return value === null ? [] : [{ file: file.name, value }];
    }),
  );
}

const metadataOf = (o: Record<string, unknown>): Record<string, unknown> =>
  (o.metadata ?? {}) as Record<string, unknown>;

/** `namespace/kind/name` of every namespaced object, to find two copies landing on one object. */
function objectKeys(files: readonly ManifestFile[]): string[] {
  return objects(files)
    .filter(({ value }) => metadataOf(value).namespace !== undefined)
    .map(
      ({ value }) => `${String(metadataOf(value).namespace)}/${String(value.kind)}/${String(metadataOf(value).name)}`,
    );
}

/** Workloads and policies counted from the text alone: `---` lines cut documents, the first `kind:` line names one. */
function countByLines(files: readonly ManifestFile[]): { workloads: number; policies: number } {
  let workloads = 0;
  let policies = 0;
  for (const file of files) {
    for (const doc of file.text.split(/^---[ \t]*$/m)) {
      const kind = /^[ \t]*kind:[ \t]*["']?([A-Za-z]+)/m.exec(doc)?.[1];
      const apiVersion = /^[ \t]*apiVersion:[ \t]*["']?([\w./-]+)/m.exec(doc)?.[1];
      if (kind !== undefined && WORKLOAD_KINDS.has(kind)) workloads++;
      if (kind === "NetworkPolicy" && apiVersion === "networking.k8s.io/v1") policies++;
    }
  }
  return { workloads, policies };
}

/** The app and copy number of a generated file: `argo-cd-0012/manifests/...`. */
function copyOf(name: string): { app: (typeof APPS)[number]; number: string; path: string } {
  const match = /^(.+)-(\d{4})\/(.+)$/.exec(name);
  const app = APPS.find((a) => a.name === match?.[1]);
  if (match === null || app === undefined) throw new Error(`not a copy's file: ${name}`);
  return { app, number: match[2] as string, path: match[3] as string };
}

/**
 * A copy's line, when it is the source's line with its value (a namespace name) renamed: the
 * value after `key: ` or `- `, quotes kept, `-NNNN` appended (or the home namespace).
 */
function renamedLine(source: string, copy: string, home: string, number: string): boolean {
  const match = /^(.*?(?::|-)[ \t]+)(["']?)([\w.-]+)\2([ \t,]*)$/.exec(source);
  if (match === null) return false;
  const [, before, quote, value, after] = match;
  const to = [home, `${value}-${number}`];
  return to.some((name) => copy === `${before}${quote}${name}${quote}${after}`);
}

/**
 * Checks a whole copy against its source line by line: equal lines, inserted `namespace: <home>`
 * lines (or `namespace: <home>, ` inside a flow map), and lines whose namespace value was renamed.
 */
function expectOnlyNamespacesChanged(source: string, copy: string, home: string, number: string, what: string): void {
  const from = source.split("\n");
  const to = copy.split("\n");
  let i = 0;
  for (let j = 0; j < to.length; j++) {
    const line = to[j] as string;
    const original = from[i];
    if (line === original) {
      i++;
      continue;
    }
    const unflowed = line.replace(`namespace: ${home}, `, "");
    if (original !== undefined && (unflowed === original || renamedLine(original, unflowed, home, number))) {
      i++;
      continue;
    }
    if (new RegExp(`^[ \\t]*namespace: ${home}$`).test(line)) continue;
    throw new Error(`${what}: line ${j + 1} ${JSON.stringify(line)} is not ${JSON.stringify(original)} renamed`);
  }
  expect(i, `${what}: every source line is in the copy`).toBe(from.length);
}

describe("rewriteNamespaces", () => {
  const rename = new Map([
    ["default", "shop-0001"],
    ["team", "team-0001"],
  ]);

  it("renames metadata.namespace, keeping quotes, and leaves other namespaces alone", () => {
    const text = [
      "kind: Deployment",
      "metadata:",
      "  name: a",
      '  namespace: "team"',
      "---",
      "kind: Service",
      "metadata:",
      "  name: b",
      "  namespace: kube-system",
      "",
    ].join("\n");
    expect(rewriteNamespaces(text, rename, "shop-0001")).toBe(text.replace('"team"', '"team-0001"'));
  });

  it("inserts the home namespace as the first key of a block or flow metadata, not for cluster-scoped kinds", () => {
    const text = [
      "kind: Pod",
      "metadata:",
      "    labels: {app: x}",
      "    name: p",
      "---",
      "{kind: NetworkPolicy, metadata: {name: deny}, spec: {podSelector: {}}}",
      "---",
      "kind: ClusterRole",
      "metadata:",
      "  name: reader",
      "",
    ].join("\n");
    expect(rewriteNamespaces(text, rename, "shop-0001")).toBe(
      [
        "kind: Pod",
        "metadata:",
        "    namespace: shop-0001",
        "    labels: {app: x}",
        "    name: p",
        "---",
        "{kind: NetworkPolicy, metadata: {namespace: shop-0001, name: deny}, spec: {podSelector: {}}}",
        "---",
        "kind: ClusterRole",
        "metadata:",
        "  name: reader",
        "",
      ].join("\n"),
    );
  });

  it("renames Namespace objects, their label values, namespaceSelector values and other namespace fields together", () => {
    const text = [
      "kind: Namespace",
      "metadata:",
      "  name: team",
      "  labels:",
      "    kubernetes.io/metadata.name: team",
      "    tier: backend",
      "---",
      "kind: NetworkPolicy",
      "metadata:",
      "  name: from-team",
      "  namespace: default",
      "spec:",
      "  podSelector: {}",
      "  ingress:",
      "  - from:",
      "    - namespaceSelector:",
      "        matchLabels:",
      "          kubernetes.io/metadata.name: team",
      "    - namespaceSelector:",
      "        matchExpressions:",
      "        - key: kubernetes.io/metadata.name",
      "          operator: In",
      "          values: [team, 'default', kube-system]",
      "---",
      "kind: RoleBinding",
      "metadata:",
      "  name: rb",
      "  namespace: team",
      "subjects:",
      "- kind: ServiceAccount",
      "  name: sa",
      "  namespace: default",
      "",
    ].join("\n");
    const out = rewriteNamespaces(text, rename, "shop-0001");
    expect(out).toBe(
      text
        .replace("  name: team\n", "  name: team-0001\n")
        .replaceAll("kubernetes.io/metadata.name: team\n", "kubernetes.io/metadata.name: team-0001\n")
        .replace("  namespace: default\nspec", "  namespace: shop-0001\nspec")
        .replace("[team, 'default', kube-system]", "[team-0001, 'shop-0001', kube-system]")
        .replace("  namespace: team\nsubjects", "  namespace: team-0001\nsubjects")
        .replace("  namespace: default\n", "  namespace: shop-0001\n"),
    );
  });
});

describe("the apps the corpus copies", () => {
  const listed = APPS.flatMap((app) => app.files.flatMap((f) => (f.head === undefined ? [f.base] : [f.base, f.head])));

  it("are files of test/fixtures that exist", () => {
    for (const path of nonEmpty(listed, "APPS' files"))
      expect(readFileSync(join(fixtures, path), "utf8").length).toBeGreaterThan(0);
  });

  it("include every manifest of test/fixtures/connectivity", () => {
    const dir = join(fixtures, "connectivity");
    const walk = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)],
      );
    const manifests = walk(dir)
      .filter((f) => !f.endsWith(".md"))
      .map((f) => `connectivity/${relative(dir, f)}`);
    for (const path of nonEmpty(manifests, "test/fixtures/connectivity")) expect(listed).toContain(path);
  });
});

describe("generateCorpus", () => {
  it("gives exactly the workloads and policies asked for, in files that parse, with no object twice", () => {
    fc.assert(
      fc.property(fc.nat(40), fc.nat(40), fc.integer(), (workloads, policies, seed) => {
        const files = generateCorpus({ workloads, policies, seed });
        const counts = countManifests(files);
        expect([counts.workloads, counts.policies]).toEqual([workloads, policies]);
        const keys = objectKeys(files);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: propertyRuns(6) },
    );
  });

  it("refuses counts that are not whole numbers", () => {
    expect(() => generateCorpus({ workloads: -1, policies: 1, seed: 1 })).toThrow(/workloads/);
    expect(() => generateCorpus({ workloads: 1, policies: 1.5, seed: 1 })).toThrow(/policies/);
  });

  describe("a medium corpus", () => {
    const options = { workloads: 200, policies: 100, seed: 29 };
    const files = generateCorpus(options);

    it("has the counts asked for, by the yaml package and by lines", () => {
      const counts = countManifests(files);
      expect([counts.workloads, counts.policies]).toEqual([200, 100]);
      expect(countByLines(files)).toEqual({ workloads: 200, policies: 100 });
    });

    it("copies every app, each file under its copy's folder", () => {
      const apps = new Set(files.map((f) => copyOf(f.name).app.name));
      expect([...apps].sort()).toEqual(APPS.map((a) => a.name).sort());
    });

    it("puts every namespaced object in a namespace of its own copy", () => {
      for (const { file, value } of objects(files)) {
        const namespace = metadataOf(value).namespace;
        if (value.kind === "Namespace" || value.kind === "ClusterRole" || value.kind === "ClusterRoleBinding") continue;
        if (value.kind === "IngressClass" || value.kind === "ValidatingWebhookConfiguration") continue;
        expect(namespace, `${file} ${String(value.kind)}`).toMatch(new RegExp(`-${copyOf(file).number}$`));
      }
    });

    it("keeps every byte of the real manifests but namespace names, in copies that keep all their documents", () => {
      const whole = files.filter((f) => {
        const { app, path } = copyOf(f.name);
        const source = app.files.find((s) => s.name === path);
        return (
          source !== undefined &&
          parseAllDocuments(f.text).length ===
            parseAllDocuments(readFileSync(join(fixtures, source.base), "utf8")).length
        );
      });
      for (const file of nonEmpty(whole, "whole copies", 20)) {
        const { app, number, path } = copyOf(file.name);
        const source = app.files.find((s) => s.name === path);
        if (source === undefined) throw new Error(file.name);
        const text = readFileSync(join(fixtures, source.base), "utf8");
        expectOnlyNamespacesChanged(text, file.text, `${app.home}-${number}`, number, file.name);
      }
    });
  });

  describe("the scale corpus", () => {
    const options = { workloads: 2000, policies: 1000, seed: 1 };
    const files = generateCorpus(options);

    it("has 2,000 workloads and 1,000 policies", () => {
      expect(countByLines(files)).toEqual({ workloads: 2000, policies: 1000 });
    });

    it("gives the same files for the same seed, and others for another", () => {
      expect(generateCorpus(options)).toEqual(files);
      expect(generateCorpus({ ...options, seed: 2 })).not.toEqual(files);
    });

    it("names each file once", () => {
      expect(new Set(files.map((f) => f.name)).size).toBe(files.length);
    });
  });
});

describe("generateCorpusDiff", () => {
  const options = { workloads: 2000, policies: 1000, seed: 1 };
  const diff = generateCorpusDiff(options);
  const heads = new Map(diff.head.map((f) => [f.name, f.text]));

  it("starts from the corpus generateCorpus gives", () => {
    expect(diff.base).toEqual(generateCorpus(options));
  });

  it("moves a tenth of the copies of apps with a later revision, and only them, to it", () => {
    const copies = new Set(
      diff.base
        .map((f) => copyOf(f.name))
        .filter((c) => c.app.files.some((s) => s.head !== undefined))
        .map((c) => `${c.app.name}-${c.number}`),
    );
    expect(diff.changedNamespaces.length).toBeGreaterThanOrEqual(Math.floor((copies.size - 2) / 10));
    expect(diff.changedNamespaces.length).toBeLessThanOrEqual(Math.ceil(copies.size / 10));
    expect(diff.head.map((f) => f.name)).toEqual(diff.base.map((f) => f.name));
    const changed = diff.base.filter((f) => heads.get(f.name) !== f.text).map((f) => f.name);
    expect(changed).toEqual(diff.changedFiles);
    expect(nonEmpty(changed, "changed files").map((name) => `${copyOf(name).app.home}-${copyOf(name).number}`)).toEqual(
      diff.changedNamespaces,
    );
  });

  it("gives each changed file the later revision's text with the copy's namespaces", () => {
    for (const name of nonEmpty([...diff.changedFiles], "changed files")) {
      const { app, number, path } = copyOf(name);
      const source = app.files.find((s) => s.name === path);
      if (source?.head === undefined) throw new Error(name);
      const home = `${app.home}-${number}`;
      // The home aliases become the copy's home; any other namespace either revision names (kubetail's
      // later revision moves to kubetail-system) keeps its name with the copy's number.
      const rename = new Map<string, string>();
      for (const s of [source.base, source.head])
        for (const ns of readSource(readFileSync(join(fixtures, s), "utf8"), s).namespaces)
          rename.set(ns, `${ns}-${number}`);
      rename.set("default", home);
      rename.set("YOUR_NAMESPACE", home);
      const expected = rewriteNamespaces(readFileSync(join(fixtures, source.head), "utf8"), rename, home);
      expect(heads.get(name), name).toBe(expected);
    }
  });

  it("counts the head's policies with kubeshark's added one, and its workloads with kubetail's", () => {
    const kubeshark = diff.changedNamespaces.filter((ns) => ns.startsWith("kubeshark-")).length;
    // Seeded, so always the same: this seed moves some kubetail copies, which the count must see.
    const kubetail = nonEmpty(
      diff.changedNamespaces.filter((ns) => ns.startsWith("kubetail-")),
      "changed kubetail copies",
    ).length;
    expect(countByLines(diff.head)).toEqual({ workloads: 2000 + kubetail, policies: 1000 + kubeshark });
  });
});
