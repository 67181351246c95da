// The tree `bench/validate-tree.ts` validates: copies of the real-world corpus
// (test/fixtures/real-world, see its SOURCES.md) laid out like many checked-out
// repositories, each copy with its objects renamed, and a seeded few files
// given one extra document in the middle that is invalid or does not decode.
// The same (corpus, files, seed) gives the same bytes, so runs compare.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative } from "node:path";
import { type Document, isMap, isScalar, isSeq, parseAllDocuments } from "yaml";
import { prng } from "./evaluator-inputs.js";
import { repoRoot } from "./fixtures.js";

/** Of all files written, how many get an invalid networking document, and how many one that does not decode. */
export const INVALID_FRACTION = 0.02;
export const UNDECODABLE_FRACTION = 0.01;

export function defaultCorpusDir(): string {
  return join(repoRoot(), "test", "fixtures", "real-world");
}

/** One corpus file, read once. */
interface CorpusFile {
  /** Path under the corpus folder, e.g. `ingress-nginx/deploy/static/provider/cloud/deploy.yaml`. */
  readonly path: string;
  readonly text: string;
  /** YAML (or JSON) that parses, so its names can be varied; templates and broken files are copied as they are. */
  readonly parses: boolean;
  /** A YAML file that can take an extra document in the middle. */
  readonly injectable: boolean;
}

/** Every file of the corpus but its Markdown, sorted by path. */
export function loadCorpus(dir: string): CorpusFile[] {
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : e.isFile() && extname(e.name) !== ".md" ? [join(d, e.name)] : [],
    );
  const files = walk(dir)
    .map((abs) => {
      const text = readFileSync(abs, "utf8");
      const ext = extname(abs).toLowerCase();
      const template = text.includes("{{");
      const parses = !template && parseAllDocuments(text).every((doc) => doc.errors.length === 0);
      return { path: relative(dir, abs), text, parses, injectable: parses && (ext === ".yaml" || ext === ".yml") };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.length === 0) throw new Error(`bench: no corpus files under ${dir}`);
  return files;
}

/** What was injected where, so a run's summary can be checked against it. */
export type Injection = "invalid" | "undecodable";

export interface Injected {
  /** Path under the tree's root. */
  readonly path: string;
  readonly what: Injection;
  /** Which document was put in, e.g. `Ingress host Bad_Host`. */
  readonly variant: string;
}

export interface TreeReport {
  readonly files: number;
  readonly bytes: number;
  /** Copies of the corpus the tree holds (the last one may be partial). */
  readonly copies: number;
  readonly injected: readonly Injected[];
}

export interface TreeOptions {
  readonly files: number;
  readonly seed: number;
  /** Defaults to test/fixtures/real-world. */
  readonly corpus?: string;
}

/** Documents the API server decodes but refuses; `{name}` is replaced. */
const INVALID_DOCS: readonly { readonly variant: string; readonly text: string }[] = [
  {
    variant: "Ingress host Bad_Host",
    text: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {name}
spec:
  rules:
  - host: Bad_Host
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
`,
  },
  {
    variant: "NetworkPolicy port 70000",
    text: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {name}
spec:
  podSelector:
    matchLabels:
      app: web
  ingress:
  - ports:
    - protocol: TCP
      port: 70000
`,
  },
  {
    variant: "NetworkPolicy except outside its cidr",
    text: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {name}
spec:
  podSelector: {}
  policyTypes:
  - Egress
  egress:
  - to:
    - ipBlock:
        cidr: 10.0.0.0/8
        except:
        - 192.168.0.0/16
`,
  },
];

/** Documents that do not decode, each an error for its own document only. */
const UNDECODABLE_DOCS: readonly { readonly variant: string; readonly text: string }[] = [
  {
    variant: "Ingress backend with the old serviceName field",
    text: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {name}
spec:
  rules:
  - host: example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          serviceName: web
          servicePort: 80
`,
  },
  {
    variant: "NetworkPolicy with broken indentation",
    text: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {name}
   namespace: default
spec:
  podSelector: {}
`,
  },
];

/**
 * A copy's objects get this suffix on metadata.name and metadata.namespace
 * (copy 0 keeps the corpus's names): enough to make each copy's objects its
 * own, while every name keeps its verdict (an empty one stays empty).
 */
function suffixed(value: string, copy: number): string {
  return `${value}-c${copy}`;
}

/** Replaces a scalar's source text, keeping its quoting; undefined when it is not a plain or simply quoted string. */
function renamedScalar(source: string, value: string, copy: number): string | undefined {
  const next = suffixed(value, copy);
  const quote = source[0];
  if (quote === '"' || quote === "'") return /["'\\]/.test(value) ? undefined : `${quote}${next}${quote}`;
  return source === value ? next : undefined;
}

/** Text edits that rename the metadata of every object in one parsed document (and of a List's items). */
function renameEdits(text: string, doc: Document.Parsed, copy: number): [number, number, string][] {
  const edits: [number, number, string][] = [];
  const objects: unknown[] = [doc.contents];
  const items = isMap(doc.contents) ? doc.contents.get("items", true) : undefined;
  if (isSeq(items)) objects.push(...items.items.filter(isMap));
  for (const obj of objects) {
    if (!isMap(obj)) continue;
    const metadata = obj.get("metadata", true);
    if (!isMap(metadata)) continue;
    for (const key of ["name", "namespace"]) {
      const node = metadata.get(key, true);
      if (!isScalar(node) || typeof node.value !== "string" || node.value === "" || node.range == null) continue;
      const [start, end] = node.range;
      const replacement = renamedScalar(text.slice(start, end), node.value, copy);
      if (replacement !== undefined) edits.push([start, end, replacement]);
    }
  }
  return edits;
}

/** The file's text with every object renamed for the given copy. */
export function renameObjects(text: string, copy: number): string {
  const edits = parseAllDocuments(text).flatMap((doc) => renameEdits(text, doc, copy));
  let out = text;
  for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0])) {
    out = out.slice(0, start) + replacement + out.slice(end);
  }
  return out;
}

/**
 * Puts one document in the middle of a YAML stream: before its middle `---`
 * line, or after its only document when it has none.
 */
export function injectDocument(text: string, doc: string): string {
  const markers = [...text.matchAll(/^---(?=[ \t]|\r?\n|$)/gm)].map((m) => m.index);
  const at = markers[Math.floor(markers.length / 2)];
  if (at !== undefined) return `${text.slice(0, at)}---\n${doc}${text.slice(at)}`;
  return `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}---\n${doc}`;
}

/** The directory of copy `copy`, nested like checked-out repositories of many teams. */
function copyDir(copy: number): string {
  return join(`org-${copy % 8}`, `team-${Math.floor(copy / 8) % 8}`, `repo-${copy}`);
}

/** Fisher-Yates with the bench's seeded PRNG. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Writes `options.files` files under `root` (which should be empty): whole
 * copies of the corpus, each in its own order so a partial last copy is a
 * fair sample, then the injections, on distinct files that can take them.
 */
export function generateTree(root: string, options: TreeOptions): TreeReport {
  const { files, seed } = options;
  if (!Number.isInteger(files) || files < 1) throw new Error(`bench: --files must be a positive integer, got ${files}`);
  const corpus = loadCorpus(options.corpus ?? defaultCorpusDir());
  const random = prng(seed);
  const plan: { path: string; source: CorpusFile; copy: number }[] = [];
  for (let copy = 0; plan.length < files; copy++) {
    for (const source of shuffled(corpus, random)) {
      if (plan.length === files) break;
      plan.push({ path: join(copyDir(copy), source.path), source, copy });
    }
  }
  const injectable = shuffled(
    plan.map((_, i) => i).filter((i) => plan[i]!.source.injectable),
    random,
  );
  const wanted = (fraction: number): number => Math.round(files * fraction);
  const invalid = new Set(injectable.slice(0, wanted(INVALID_FRACTION)));
  const undecodable = new Set(injectable.slice(invalid.size, invalid.size + wanted(UNDECODABLE_FRACTION)));

  const injected: Injected[] = [];
  let bytes = 0;
  const made = new Set<string>();
  plan.forEach(({ path, source, copy }, i) => {
    let text = copy === 0 || !source.parses ? source.text : renameObjects(source.text, copy);
    const what: Injection | undefined = invalid.has(i) ? "invalid" : undecodable.has(i) ? "undecodable" : undefined;
    if (what !== undefined) {
      const docs = what === "invalid" ? INVALID_DOCS : UNDECODABLE_DOCS;
      const doc = docs[Math.floor(random() * docs.length)]!;
      text = injectDocument(text, doc.text.replace("{name}", `bench-${what}-${i}`));
      injected.push({ path, what, variant: doc.variant });
    }
    const abs = join(root, path);
    const dir = dirname(abs);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
  });
  return { files: plan.length, bytes, copies: (plan.at(-1)?.copy ?? 0) + 1, injected };
}
