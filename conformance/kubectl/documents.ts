// The documents of the real-world corpora (bench/corpus/ and test/fixtures/real-world/), split as
// kubectl splits a file (a `---` line starts a YAML document; a .json file is one value), and
// mutated copies of the networking ones with errors planted (conformance/campaign/mutate.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { splitYamlDocuments, type JsonObject } from "../../src/networking/index.js";
import { mutate } from "../campaign/mutate.js";
import { createRng } from "../campaign/rng.js";

/** The kinds `clusterwire validate` checks; every other kind it skips. */
export const NETWORKING_KINDS = new Set(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]);

export interface CorpusDocument {
  /** `<corpus>/<file>#<document>`, with `~<n>` for the n-th mutant of it. */
  readonly id: string;
  /** The text kubectl and clusterwire are given. */
  readonly text: string;
  /** .yaml or .json: the name of the file written for it. */
  readonly extension: ".yaml" | ".json";
  /** apiVersion/kind when the text parses to an object with them. */
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly namespace?: string;
  /** A networking.k8s.io/v1 kind clusterwire validates. */
  readonly networking: boolean;
  /** For a mutant: what was changed. */
  readonly mutation?: string;
  /** Always in the golden selection (when kubectl and clusterwire agree), whatever kubectl answers. */
  readonly pinned?: boolean;
}

const CORPORA = [
  ["bench/corpus", "bench"],
  ["test/fixtures/real-world", "real-world"],
] as const;
const MANIFEST = /\.(ya?ml|json)$/;

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (MANIFEST.test(name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

function parsed(text: string, json: boolean): unknown {
  try {
    return json ? JSON.parse(text) : parse(text, { version: "1.1", uniqueKeys: false, maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

/** What a document is: its apiVersion, kind and namespace, read from `value` (parsed from `text` when not given). */
export function describeDocument(
  id: string,
  text: string,
  extension: ".yaml" | ".json",
  value: unknown = parsed(text, extension === ".json"),
): CorpusDocument {
  const obj =
    value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  // A text that does not parse (but for a template) is still judged by what its lines say it is.
  const line = (key: string) =>
    value === undefined && !text.includes("{{")
      ? new RegExp(`^${key}:\\s*["']?([\\w./-]+)["']?\\s*$`, "m").exec(text)?.[1]
      : undefined;
  const apiVersion = typeof obj["apiVersion"] === "string" ? obj["apiVersion"] : line("apiVersion");
  const kind = typeof obj["kind"] === "string" ? obj["kind"] : line("kind");
  const metadata = obj["metadata"] as Record<string, unknown> | undefined;
  const namespace = typeof metadata?.["namespace"] === "string" ? metadata["namespace"] : undefined;
  return {
    id,
    text,
    extension,
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    networking: apiVersion === "networking.k8s.io/v1" && kind !== undefined && NETWORKING_KINDS.has(kind),
  };
}

/** Every document of the corpora under `root`, in file order. Comment-only documents are left out, as kubectl leaves them. */
export function corpusDocuments(root: string): CorpusDocument[] {
  const out: CorpusDocument[] = [];
  for (const [dir, name] of CORPORA) {
    for (const path of files(join(root, dir))) {
      const text = readFileSync(path, "utf8");
      const file = `${name}/${relative(join(root, dir), path).split("\\").join("/")}`;
      if (path.endsWith(".json")) {
        out.push(describeDocument(`${file}#1`, text, ".json", parsed(text, true)));
        continue;
      }
      let n = 0;
      for (const doc of splitYamlDocuments(text)) {
        n++;
        const value = parsed(doc.text, false);
        // A document of comments or blank lines only: kubectl sends nothing for it.
        if (value === null || (value === undefined && doc.text.split("\n").every((l) => /^\s*(#.*)?$/.test(l))))
          continue;
        if (doc.text.trim() === "" || doc.text.trim() === "---") continue;
        out.push(describeDocument(`${file}#${n}`, doc.text, ".yaml", value));
      }
    }
  }
  return out;
}

/**
 * `perDocument` mutants of each networking document (seeded), as JSON. The namespace is kept:
 * kubectl would refuse an unknown one before any validation (NotFound).
 */
export function mutants(documents: readonly CorpusDocument[], perDocument: number, seed: number): CorpusDocument[] {
  const rng = createRng(seed);
  const out: CorpusDocument[] = [];
  for (const doc of documents) {
    if (!doc.networking) continue;
    const json = parsed(doc.text, doc.extension === ".json");
    if (json === undefined) continue;
    const original = JSON.parse(JSON.stringify(json)) as JsonObject;
    for (let i = 1; i <= perDocument; i++) {
      const m = mutate(original, rng);
      const metadata = m.json["metadata"];
      if (metadata !== null && typeof metadata === "object" && !Array.isArray(metadata)) {
        if (doc.namespace !== undefined) metadata["namespace"] = doc.namespace;
        else delete metadata["namespace"];
      }
      const text = `${JSON.stringify(m.json)}\n`;
      out.push({ ...describeDocument(`${doc.id}~${i}`, text, ".json", m.json), mutation: m.how });
    }
  }
  return out;
}

const ic = (meta: string, spec: string): string =>
  `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n${meta}spec:\n${spec}`;

/**
 * Documents with a key given twice in one mapping. kubectl reads a file non-strictly (YAML and
 * JSON) and sends the last value, so the API server never sees the repeat: the verdict is the
 * last value's. clusterwire warns of each repeat, and must not let it change the verdict.
 */
const REPEATED_KEYS: readonly (readonly [string, ".yaml" | ".json", string])[] = [
  [
    "last-valid",
    ".yaml",
    ic("  name: repeated-last-valid\n", '  controller: "c d"\n  controller: example.com/ingress\n'),
  ],
  [
    "last-invalid",
    ".yaml",
    ic("  name: repeated-first\n  name: repeated-last\n", '  controller: example.com/ingress\n  controller: "c d"\n'),
  ],
  [
    "mapping",
    ".yaml",
    ic('  name: repeated-mapping\n  labels: {tier: "a b", tier: edge}\n', "  controller: example.com/a\n").replace(
      "spec:\n",
      'spec: {controller: "c d"}\nspec:\n',
    ),
  ],
  [
    "unknown-too",
    ".yaml",
    ic("  name: repeated-unknown\n", "  controller: example.com/a\n  controller: example.com/b\n  controllr: x\n"),
  ],
  [
    "stream",
    ".yaml",
    `${ic("  name: repeated-stream-a\n", '  controller: "c d"\n  controller: example.com/a\n')}---\n${ic("  name: repeated-stream-b\n", '  controller: example.com/b\n  controller: "c d"\n')}`,
  ],
  [
    "list",
    ".yaml",
    "apiVersion: v1\nkind: List\nitems:\n- apiVersion: networking.k8s.io/v1\n  kind: IngressClass\n  metadata:\n    name: repeated-list-a\n    labels:\n      app: one\n      app: two\n  spec:\n    controller: example.com/a\n- apiVersion: networking.k8s.io/v1\n  kind: NetworkPolicy\n  metadata:\n    name: repeated-list-b\n  spec:\n    podSelector: {}\n    ingress:\n    - ports:\n      - port: 80\n        port: 70000\n",
  ],
  [
    "json-last-valid",
    ".json",
    '{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"repeated-first","name":"repeated-json"},"spec":{"controller":"c d","controller":"example.com/ingress"}}\n',
  ],
  [
    "json-last-invalid",
    ".json",
    '{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"repeated-json-port"},"spec":{"podSelector":{},"ingress":[{"ports":[{"port":80,"port":70000}]}]}}\n',
  ],
  [
    "json-values",
    ".json",
    '{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"repeated-json-a"},"spec":{"controller":"c d","controller":"example.com/a"}}\n{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"repeated-json-b"},"spec":{"controller":"example.com/b","controller":"c d"}}\n',
  ],
];

/** The repeated-key documents, pinned in the golden selection. */
export function repeatedKeyDocuments(): CorpusDocument[] {
  return REPEATED_KEYS.map(([name, extension, text]) => ({
    ...describeDocument(`repeated-keys/${name}#1`, text, extension),
    networking: true,
    pinned: true,
  }));
}
