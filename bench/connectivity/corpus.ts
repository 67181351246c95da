// The repository the connectivity scale case reads (issue 29: 2,000 workloads and 1,000
// NetworkPolicies, listed, then diffed): copies of the real manifests of test/fixtures/connectivity
// and of the test/fixtures/real-world files that hold workloads or policies (see their SOURCES.md),
// each copy in namespaces of its own. A copy keeps every byte of its files but the namespace names:
// metadata.namespace, Namespace objects, every other `namespace:` value (RoleBinding subjects,
// webhook services) and the namespace label values that namespaceSelectors and Namespace labels
// hold are renamed together, so selectors across namespaces keep meaning what they meant; an object
// with no namespace gets one inserted as the first key of its metadata. Copies are drawn (seeded)
// until the counts asked for are reached exactly: the last copies drop their surplus workload or
// policy documents. The diff case is the same repository with a tenth of the copies of the apps
// that have a later real revision (argo-cd, kubeshark, kubetail) replaced by that revision.
//
// Workloads and policies are counted here with the `yaml` package (kinds as the topology reader
// takes them), not with clusterwire.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Document, isMap, isPair, isScalar, isSeq, type Node, parseAllDocuments, visit } from "yaml";
import { prng } from "../evaluator-inputs.js";
import { repoRoot } from "../fixtures.js";

/** A manifest file as the topology reader takes it: its path as shown to users, and its text. */
export interface ManifestFile {
  readonly name: string;
  readonly text: string;
}

/** Kinds whose pod template (or spec, for Pod) makes one workload. */
export const WORKLOAD_KINDS: ReadonlySet<string> = new Set([
  "Pod",
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Job",
  "CronJob",
  "ReplicationController",
]);

/** Kinds that have no namespace: they get none inserted (and keep their names: the analysis ignores them). */
const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
  "IngressClass",
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
  "PriorityClass",
  "StorageClass",
  "PersistentVolume",
  "APIService",
  "RuntimeClass",
  "CSIDriver",
]);

/** Namespace names that mean "wherever the app is installed": they become the copy's home namespace. */
const HOME_ALIASES: ReadonlySet<string> = new Set(["default", "YOUR_NAMESPACE"]);

/** One file of an app: where it sits in a copy, and its fixture (under test/fixtures) at each revision. */
interface AppFile {
  readonly name: string;
  readonly base: string;
  readonly head?: string;
}

/** An app: files installed together, copied as a whole into namespaces of their own. */
interface App {
  readonly name: string;
  /** The namespace of objects that name none, `default` or `YOUR_NAMESPACE`, before the copy's number. */
  readonly home: string;
  readonly files: readonly AppFile[];
}

const CONNECTIVITY = "connectivity";
const REAL_WORLD = "real-world";

/** Every app the corpus copies (a List file is left out: its items cannot be trimmed one by one). */
export const APPS: readonly App[] = [
  {
    name: "argo-cd",
    home: "argocd",
    files: [
      {
        name: "manifests/ha/namespace-install.yaml",
        base: `${CONNECTIVITY}/argo-cd/e0fc424/manifests/ha/namespace-install.yaml`,
        head: `${CONNECTIVITY}/argo-cd/00127c2/manifests/ha/namespace-install.yaml`,
      },
    ],
  },
  {
    name: "kubeshark",
    home: "kubeshark",
    files: [
      {
        name: "manifests/complete.yaml",
        base: `${CONNECTIVITY}/kubeshark/1c883c7/manifests/complete.yaml`,
        head: `${CONNECTIVITY}/kubeshark/034de00/manifests/complete.yaml`,
      },
    ],
  },
  {
    name: "kubetail",
    home: "kubetail",
    files: [
      {
        name: "hack/tilt/kubetail.yaml",
        base: `${CONNECTIVITY}/kubetail/015ef10/hack/tilt/kubetail.yaml`,
        head: `${CONNECTIVITY}/kubetail/36d6299/hack/tilt/kubetail.yaml`,
      },
    ],
  },
  {
    name: "online-boutique",
    home: "onlineboutique",
    files: [
      "kustomize/base/frontend.yaml",
      "kustomize/components/network-policies/network-policy-deny-all.yaml",
      "kustomize/components/network-policies/network-policy-frontend.yaml",
      "kustomize/components/network-policies/network-policy-cartservice.yaml",
      "kustomize/components/network-policies/network-policy-checkoutservice.yaml",
      "kustomize/components/network-policies/network-policy-loadgenerator.yaml",
    ].map((name) => ({ name, base: `${REAL_WORLD}/microservices-demo/${name}` })),
  },
  realWorldApp("bookinfo", "bookinfo", "istio", ["samples/bookinfo/platform/kube/bookinfo.yaml"]),
  realWorldApp("star-wars", "star-wars", "cilium", ["examples/minikube/http-sw-app.yaml"]),
  realWorldApp("cilium-namespaces", "cilium-demo", "cilium", ["examples/policies/kubernetes/namespace/demo-pods.yaml"]),
  realWorldApp("ingress-nginx", "ingress-nginx", "ingress-nginx", ["deploy/static/provider/cloud/deploy.yaml"]),
  realWorldApp("http-svc", "http-svc", "ingress-nginx", ["docs/examples/http-svc.yaml"]),
  realWorldApp("multi-tls", "multi-tls", "ingress-nginx", ["docs/examples/multi-tls/multi-tls.yaml"]),
  realWorldApp("traefik-services", "traefik", "traefik", ["integration/fixtures/k8s/02-services.yml"]),
  realWorldApp("whoami", "whoami", "traefik", [
    "docs/content/reference/dynamic-configuration/kubernetes-whoami-svc.yml",
  ]),
  realWorldApp("echoheaders", "echoheaders", "kubernetes", ["test/e2e/testing-manifests/ingress/http/rc.yaml"]),
  realWorldApp(
    "kube-prometheus",
    "monitoring",
    "kube-prometheus",
    [
      "alertmanager-networkPolicy.yaml",
      "alertmanager-service.yaml",
      "blackboxExporter-networkPolicy.yaml",
      "grafana-networkPolicy.yaml",
      "grafana-service.yaml",
      "nodeExporter-networkPolicy.yaml",
      "prometheus-networkPolicy.yaml",
      "prometheusOperator-networkPolicy.yaml",
    ].map((f) => `manifests/${f}`),
  ),
  realWorldApp(
    "policy-examples",
    "policy-examples",
    "website",
    [
      "network-policy-allow-all-egress-deny-all-ingress.yaml",
      "network-policy-default-deny-ingress.yaml",
      "networkpolicy-multiport-egress.yaml",
      "networkpolicy.yaml",
      "nginx-policy.yaml",
    ].map((f) => `content/en/examples/service/networking/${f}`),
  ),
  realWorldApp("ai-starter-kit", "ai-starter-kit", "examples", [
    "ai/ai-starter-kit/helm-chart/ai-starter-kit/networkpolicy.yaml",
  ]),
];

function realWorldApp(name: string, home: string, repo: string, paths: readonly string[]): App {
  return { name, home, files: paths.map((path) => ({ name: path, base: `${REAL_WORLD}/${repo}/${path}` })) };
}

// ------------------------------------------------------------------ reading a source file once

/** A place in a source text whose namespace name a copy renames. */
interface ScalarSite {
  readonly doc: number;
  readonly start: number;
  readonly end: number;
  readonly value: string;
  /** `"`, `'` or empty (plain). */
  readonly quote: string;
}

/** Where an object without a namespace gets one: before the first key of its metadata. */
interface InsertSite {
  readonly doc: number;
  readonly at: number;
  /** For a block map, the indentation of its keys; undefined for a flow map. */
  readonly indent: string | undefined;
}

interface SourceDocument {
  /** The document's text, its `---` line included (not for the first document). */
  readonly start: number;
  readonly end: number;
  readonly workload: boolean;
  readonly policy: boolean;
}

/** A source file parsed once: its documents, the sites a copy edits, and the namespaces it names. */
export interface SourceFile {
  readonly text: string;
  readonly documents: readonly SourceDocument[];
  readonly scalars: readonly ScalarSite[];
  readonly inserts: readonly InsertSite[];
  /** metadata.namespace of its objects and the names of its Namespace objects. */
  readonly namespaces: ReadonlySet<string>;
}

const stringOf = (node: unknown): string | undefined =>
  isScalar(node) && typeof node.value === "string" ? node.value : undefined;

/** The site of a string scalar, when its source is the plain or simply quoted value. */
function scalarSite(text: string, doc: number, node: unknown): ScalarSite | undefined {
  if (!isScalar(node) || typeof node.value !== "string" || node.range == null) return undefined;
  const [start, end] = node.range;
  const source = text.slice(start, end);
  const value = node.value;
  if (source === value) return { doc, start, end, value, quote: "" };
  const quote = source[0] ?? "";
  if ((quote === '"' || quote === "'") && source === `${quote}${value}${quote}`)
    return { doc, start, end, value, quote };
  return undefined;
}

/** Label values of a namespaceSelector: matchLabels values and matchExpressions values. */
function selectorValues(selector: unknown): unknown[] {
  if (!isMap(selector)) return [];
  const out: unknown[] = [];
  const labels = selector.get("matchLabels", true);
  if (isMap(labels)) out.push(...labels.items.map((pair) => pair.value));
  const expressions = selector.get("matchExpressions", true);
  if (isSeq(expressions)) {
    for (const expression of expressions.items) {
      const values = isMap(expression) ? expression.get("values", true) : undefined;
      if (isSeq(values)) out.push(...values.items);
    }
  }
  return out;
}

/** Parses a manifest file once; throws when it does not parse, or holds a List or a template. */
export function readSource(text: string, what: string): SourceFile {
  if (text.includes("{{")) throw new Error(`${what}: a template, not a manifest`);
  const documents: SourceDocument[] = [];
  const scalars: ScalarSite[] = [];
  const inserts: InsertSite[] = [];
  const namespaces = new Set<string>();
  parseAllDocuments(text).forEach((parsed: Document.Parsed, doc) => {
    if (parsed.errors.length > 0)
      throw new Error(`${what}: document ${doc + 1} does not parse: ${parsed.errors[0]?.message}`);
    const [start, , end] = parsed.range;
    const contents = parsed.contents;
    const kind = isMap(contents) ? stringOf(contents.get("kind", true)) : undefined;
    const apiVersion = isMap(contents) ? stringOf(contents.get("apiVersion", true)) : undefined;
    if (kind === "List" || kind?.endsWith("List"))
      throw new Error(`${what}: a List, whose items cannot be trimmed one by one`);
    documents.push({
      start,
      end,
      workload: kind !== undefined && WORKLOAD_KINDS.has(kind),
      policy: kind === "NetworkPolicy" && apiVersion === "networking.k8s.io/v1",
    });
    if (!isMap(contents) || kind === undefined) return;
    const metadata = contents.get("metadata", true);
    if (!isMap(metadata)) return;
    const own = stringOf(metadata.get("namespace", true));
    if (own !== undefined) namespaces.add(own);
    if (kind === "Namespace") {
      const name = metadata.get("name", true);
      const site = scalarSite(text, doc, name);
      if (site !== undefined) {
        namespaces.add(site.value);
        scalars.push(site);
      }
      const labels = metadata.get("labels", true);
      if (isMap(labels)) {
        for (const pair of labels.items) {
          const label = scalarSite(text, doc, pair.value);
          if (label !== undefined) scalars.push(label);
        }
      }
    } else if (own === undefined && !CLUSTER_SCOPED.has(kind)) {
      const first = metadata.items[0];
      const key = first?.key as Node | undefined;
      if (key?.range != null) {
        const at = key.range[0];
        const lineStart = text.lastIndexOf("\n", at - 1) + 1;
        const before = text.slice(lineStart, at);
        inserts.push({ doc, at, indent: metadata.flow || !/^[ \t]*$/.test(before) ? undefined : before });
      }
    }
    visit(parsed, {
      Pair(_, pair) {
        if (!isPair(pair)) return;
        const key = stringOf(pair.key);
        if (key === "namespace") {
          const site = scalarSite(text, doc, pair.value);
          if (site !== undefined) scalars.push(site);
        } else if (key === "namespaceSelector") {
          for (const value of selectorValues(pair.value)) {
            const site = scalarSite(text, doc, value);
            if (site !== undefined) scalars.push(site);
          }
        }
      },
    });
  });
  // One edit per place (a Namespace's labels and a namespaceSelector never overlap, but be sure).
  const unique = [...new Map(scalars.map((s) => [s.start, s])).values()];
  return { text, documents, scalars: unique, inserts, namespaces };
}

/**
 * The text of one copy of a source file: every scalar whose value `rename` maps is replaced (its
 * quotes kept), `home` is inserted as the namespace of each namespaced object that has none, and
 * the documents `keep` rejects are cut out. Undefined when every document is cut out.
 */
export function copyText(
  source: SourceFile,
  rename: ReadonlyMap<string, string>,
  home: string,
  keep: (doc: number) => boolean = () => true,
): string | undefined {
  const { text, documents } = source;
  if (documents.length > 0 && documents.every((_, i) => !keep(i))) return undefined;
  const edits: [number, number, string][] = [];
  documents.forEach((document, i) => {
    if (keep(i)) return;
    const next = documents[i + 1];
    // The first document has no `---` of its own: cut up to the next one's, which then opens the stream.
    edits.push(i === 0 && next !== undefined ? [document.start, next.start, ""] : [document.start, document.end, ""]);
  });
  for (const site of source.scalars) {
    const to = rename.get(site.value);
    if (to !== undefined && keep(site.doc)) edits.push([site.start, site.end, `${site.quote}${to}${site.quote}`]);
  }
  for (const site of source.inserts) {
    if (!keep(site.doc)) continue;
    const line = site.indent === undefined ? `namespace: ${home}, ` : `namespace: ${home}\n${site.indent}`;
    edits.push([site.at, site.at, line]);
  }
  // Left to right: cuts and renames never overlap, and an insert sits at a key, outside both.
  edits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const parts: string[] = [];
  let at = 0;
  for (const [start, end, replacement] of edits) {
    if (start < at) throw new Error("bench: overlapping edits");
    parts.push(text.slice(at, start), replacement);
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * `text` with its namespaces renamed as `rename` says, and `home` inserted where an object has none
 * (one copy, nothing cut): what the corpus does to each file, for tests and one-off use.
 */
export function rewriteNamespaces(text: string, rename: ReadonlyMap<string, string>, home: string): string {
  return copyText(readSource(text, "text"), rename, home) ?? text;
}

// ------------------------------------------------------------------ the plan

interface LoadedFile {
  readonly name: string;
  readonly base: SourceFile;
  readonly head: SourceFile | undefined;
}

interface LoadedApp {
  readonly app: App;
  readonly files: readonly LoadedFile[];
  /** Namespaces the app's objects name, at either revision, plus the home aliases. */
  readonly owned: ReadonlySet<string>;
  readonly workloads: number;
  readonly policies: number;
}

const sourceCache = new Map<string, SourceFile>();

function loadSource(fixture: string): SourceFile {
  let source = sourceCache.get(fixture);
  if (source === undefined) {
    const path = join(repoRoot(), "test", "fixtures", fixture);
    source = readSource(readFileSync(path, "utf8"), path);
    sourceCache.set(fixture, source);
  }
  return source;
}

function loadApp(app: App): LoadedApp {
  const files = app.files.map((f) => ({
    name: f.name,
    base: loadSource(f.base),
    head: f.head === undefined ? undefined : loadSource(f.head),
  }));
  const owned = new Set(HOME_ALIASES);
  for (const f of files) for (const s of [f.base, f.head]) for (const ns of s?.namespaces ?? []) owned.add(ns);
  let workloads = 0;
  let policies = 0;
  for (const f of files) {
    for (const d of f.base.documents) {
      if (d.workload) workloads++;
      if (d.policy) policies++;
    }
  }
  return { app, files, owned, workloads, policies };
}

/** One copy of an app: its number, and which of its base documents it keeps (by file, then document). */
interface Copy {
  readonly app: LoadedApp;
  readonly number: number;
  readonly keep: readonly (readonly boolean[])[];
  readonly whole: boolean;
}

export interface CorpusOptions {
  /** Workload documents (Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController). */
  readonly workloads: number;
  /** networking.k8s.io/v1 NetworkPolicy documents. */
  readonly policies: number;
  readonly seed: number;
}

const suffix = (n: number): string => String(n).padStart(4, "0");

/** The namespace names of copy `n` of an app: home aliases to its home, any other to itself numbered. */
function renaming(app: LoadedApp, n: number): { rename: Map<string, string>; home: string } {
  const home = `${app.app.home}-${suffix(n)}`;
  const rename = new Map<string, string>();
  for (const ns of app.owned) rename.set(ns, HOME_ALIASES.has(ns) ? home : `${ns}-${suffix(n)}`);
  return { rename, home };
}

/**
 * Draws copies until the counts are reached: each draw favours the apps that move the count lagging
 * behind its target (workload-heavy apps while workloads lag, policy-heavy ones otherwise), and a
 * copy keeps only the workload and policy documents still wanted.
 */
function plan(options: CorpusOptions, random: () => number): Copy[] {
  const { workloads: wantW, policies: wantP } = options;
  for (const [what, n] of [
    ["workloads", wantW],
    ["policies", wantP],
  ] as const) {
    if (!Number.isInteger(n) || n < 0) throw new Error(`bench: ${what} must be a whole number, got ${n}`);
  }
  const apps = APPS.map(loadApp);
  const copies: Copy[] = [];
  let w = 0;
  let p = 0;
  while (w < wantW || p < wantP) {
    const candidates = apps.filter((a) => (w < wantW && a.workloads > 0) || (p < wantP && a.policies > 0));
    const share = (a: LoadedApp, kind: "w" | "p"): number =>
      kind === "w" ? (wantW === 0 ? 0 : a.workloads / wantW) : wantP === 0 ? 0 : a.policies / wantP;
    const workloadsLag = (wantW === 0 ? 1 : w / wantW) < (wantP === 0 ? 1 : p / wantP);
    // An app whose shares are equal (kubetail: 2 workloads and 1 policy against a 2:1 target) moves
    // both counts alike, so it is favoured either way; with strict comparisons it was never drawn.
    const favoured = candidates.filter((a) =>
      workloadsLag ? share(a, "w") >= share(a, "p") : share(a, "p") >= share(a, "w"),
    );
    const pool = favoured.length > 0 ? favoured : candidates;
    const app = pool[Math.floor(random() * pool.length)];
    if (app === undefined) throw new Error("bench: no app holds the workloads or policies asked for");
    const keep = app.files.map((f) =>
      f.base.documents.map((d) => {
        if (d.workload) {
          if (w === wantW) return false;
          w++;
        } else if (d.policy) {
          if (p === wantP) return false;
          p++;
        }
        return true;
      }),
    );
    copies.push({ app, number: copies.length, keep, whole: keep.every((file) => file.every(Boolean)) });
  }
  return copies;
}

/** The files of one copy, at the base revision or (when `head`) at the later one. */
function copyFiles(copy: Copy, head: boolean): ManifestFile[] {
  const { rename, home } = renaming(copy.app, copy.number);
  const dir = `${copy.app.app.name}-${suffix(copy.number)}`;
  const out: ManifestFile[] = [];
  copy.app.files.forEach((file, i) => {
    const source = head && file.head !== undefined ? file.head : file.base;
    const keep = source === file.base ? (doc: number) => copy.keep[i]?.[doc] === true : () => true;
    const text = copyText(source, rename, home, keep);
    if (text !== undefined) out.push({ name: `${dir}/${file.name}`, text });
  });
  return out;
}

/**
 * A repository of exactly `workloads` workloads and `policies` NetworkPolicies, made of copies of
 * real apps in namespaces of their own. The same options give the same files.
 */
export function generateCorpus(options: CorpusOptions): ManifestFile[] {
  return plan(options, prng(options.seed)).flatMap((copy) => copyFiles(copy, false));
}

export interface CorpusDiffOptions extends CorpusOptions {
  /** Of the whole copies of apps with a later revision, the fraction that moves to it (default 0.1). */
  readonly changedFraction?: number;
}

export interface CorpusDiff {
  /** The corpus generateCorpus gives for the same options. */
  readonly base: readonly ManifestFile[];
  /** The same files, but those of the changed copies at their app's later revision. */
  readonly head: readonly ManifestFile[];
  /** The home namespace of each changed copy, in copy order. */
  readonly changedNamespaces: readonly string[];
  /** Names of the files whose text differs between base and head. */
  readonly changedFiles: readonly string[];
}

/**
 * The diff scale case: the corpus, and the same corpus after a real change, where a seeded tenth
 * (by default) of the whole copies of argo-cd, kubeshark and kubetail move to their later revision
 * (see test/fixtures/connectivity/SOURCES.md for what changes). The head's counts can differ from
 * the base's (kubeshark's later revision adds a policy, kubetail's a workload).
 */
export function generateCorpusDiff(options: CorpusDiffOptions): CorpusDiff {
  const fraction = options.changedFraction ?? 0.1;
  if (!(fraction >= 0 && fraction <= 1)) throw new Error(`bench: changedFraction must be in [0, 1], got ${fraction}`);
  const random = prng(options.seed);
  const copies = plan(options, random);
  const eligible = copies.filter((c) => c.whole && c.app.files.some((f) => f.head !== undefined));
  const chosen = new Set(shuffled(eligible, random).slice(0, Math.round(eligible.length * fraction)));
  const base: ManifestFile[] = [];
  const head: ManifestFile[] = [];
  const changedNamespaces: string[] = [];
  const changedFiles: string[] = [];
  for (const copy of copies) {
    const before = copyFiles(copy, false);
    base.push(...before);
    if (!chosen.has(copy)) {
      head.push(...before);
      continue;
    }
    const after = copyFiles(copy, true);
    head.push(...after);
    changedNamespaces.push(renaming(copy.app, copy.number).home);
    const old = new Map(before.map((f) => [f.name, f.text]));
    for (const f of after) if (old.get(f.name) !== f.text) changedFiles.push(f.name);
  }
  return { base, head, changedNamespaces, changedFiles };
}

/** Fisher-Yates with the bench's seeded PRNG. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// ------------------------------------------------------------------ counting and writing

export interface ManifestCounts {
  readonly workloads: number;
  readonly policies: number;
  /** Distinct namespaces named by metadata.namespace or Namespace objects. */
  readonly namespaces: number;
  readonly bytes: number;
}

/** Counts workloads and policies with the `yaml` package (as the corpus does), for reports and tests. */
export function countManifests(files: readonly ManifestFile[]): ManifestCounts {
  let workloads = 0;
  let policies = 0;
  let bytes = 0;
  const namespaces = new Set<string>();
  for (const file of files) {
    const source = readSource(file.text, file.name);
    bytes += Buffer.byteLength(file.text);
    for (const d of source.documents) {
      if (d.workload) workloads++;
      if (d.policy) policies++;
    }
    for (const ns of source.namespaces) namespaces.add(ns);
  }
  return { workloads, policies, namespaces: namespaces.size, bytes };
}

/** Writes the files under `root` (their names are relative paths), for tools that read a directory. */
export function writeManifestFiles(root: string, files: readonly ManifestFile[]): void {
  for (const file of files) {
    const path = join(root, file.name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
}
