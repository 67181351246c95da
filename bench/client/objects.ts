// The objects the informer bench stores in a real control plane: the Ingresses and NetworkPolicies
// of the repository's real-world manifests (bench/corpus/ and test/fixtures/real-world/, each
// kept only if clusterwire decodes, round-trips and validates it: bench/corpus.ts), repeated
// round-robin up to N per kind, each copy made unique by its name (the original's with "-<i>")
// and spread over a number of namespaces. Only what a user writes is kept of each original:
// name, labels, annotations and spec; the server fills in the rest.

import { resolve } from "node:path";
import type { JsonObject } from "../../src/networking/index.js";
import { loadCorpus } from "../corpus.js";
import { repoRoot } from "../fixtures.js";

/** The kinds the bench measures. */
export const BENCH_KINDS = ["Ingress", "NetworkPolicy"] as const;
export type BenchKind = (typeof BENCH_KINDS)[number];

/** The collection name of each kind under /apis/networking.k8s.io/v1. */
export const PLURALS: Readonly<Record<BenchKind, string>> = { Ingress: "ingresses", NetworkPolicy: "networkpolicies" };

/** One real manifest the copies are made from. */
export interface Template {
  /** `<folder>/<file>#<document>` as bench/corpus.ts names it. */
  readonly id: string;
  readonly kind: BenchKind;
  /** Its compact Kubernetes JSON, parsed. */
  readonly json: JsonObject;
}

/** One object to create. */
export interface BenchObject {
  readonly kind: BenchKind;
  readonly namespace: string;
  readonly name: string;
  /** The namespaced collection to POST it to. */
  readonly path: string;
  /** The path of the object itself (for a PATCH). */
  readonly objectPath: string;
  readonly body: JsonObject;
  /** The template it copies. */
  readonly template: string;
}

/** Where the real-world manifests are. */
export function templateDirs(root: string = repoRoot()): { readonly label: string; readonly dir: string }[] {
  return [
    { label: "bench/corpus", dir: resolve(root, "bench", "corpus") },
    { label: "test/fixtures/real-world", dir: resolve(root, "test", "fixtures", "real-world") },
  ];
}

const isKind = (kind: string): kind is BenchKind => (BENCH_KINDS as readonly string[]).includes(kind);

/**
 * The Ingresses and NetworkPolicies of the manifests under `dirs`, each distinct JSON once (the
 * two folders share some files), in the order found.
 */
export function loadTemplates(dirs = templateDirs()): Template[] {
  const seen = new Set<string>();
  const out: Template[] = [];
  for (const { label, dir } of dirs) {
    for (const o of loadCorpus(dir).objects) {
      if (!isKind(o.kind) || seen.has(o.json)) continue;
      seen.add(o.json);
      out.push({ id: `${label}/${o.id}`, kind: o.kind, json: JSON.parse(o.json) as JsonObject });
    }
  }
  return out;
}

/** The longest object name the API server takes for these kinds (a DNS subdomain). */
const MAX_NAME = 253;

/**
 * `base` with "-<i>" appended, cut so the whole stays a DNS subdomain of at most 253 characters
 * (a cut base loses its trailing dots and dashes, so it still ends in a letter or digit).
 */
export function uniqueName(base: string, i: number): string {
  if (!Number.isInteger(i) || i < 0) throw new RangeError(`copy number ${i}`);
  const suffix = `-${i}`;
  const kept = base.slice(0, MAX_NAME - suffix.length).replace(/[-.]+$/, "");
  return `${kept === "" ? "object" : kept}${suffix}`;
}

/** The namespace of copy `i` when copies are spread over `namespaces` of them. */
export function namespaceFor(i: number, namespaces: number): string {
  return `bench-${i % namespaces}`;
}

/** The namespaces benchObjects spreads `count` copies over. */
export function benchNamespaces(count: number, namespaces: number): string[] {
  return Array.from({ length: Math.min(count, namespaces) }, (_, i) => namespaceFor(i, namespaces));
}

/** What of a manifest's metadata a user writes; the server owns the rest. */
const USER_METADATA = ["labels", "annotations"] as const;

/**
 * `count` copies of the `kind` templates, round-robin, copy i named uniqueName(name, i) in
 * namespaceFor(i, namespaces). Throws when there is no template of the kind.
 */
export function benchObjects(
  templates: readonly Template[],
  kind: BenchKind,
  count: number,
  namespaces: number,
): BenchObject[] {
  const mine = templates.filter((t) => t.kind === kind);
  if (mine.length === 0) throw new Error(`no ${kind} among the real-world manifests`);
  const plural = PLURALS[kind];
  return Array.from({ length: count }, (_, i) => {
    const t = mine[i % mine.length]!;
    const meta = (t.json["metadata"] ?? {}) as JsonObject;
    const name = uniqueName(typeof meta["name"] === "string" ? meta["name"] : "", i);
    const namespace = namespaceFor(i, namespaces);
    const metadata: JsonObject = { name, namespace };
    for (const key of USER_METADATA) if (meta[key] !== undefined) metadata[key] = meta[key];
    const body: JsonObject = { apiVersion: "networking.k8s.io/v1", kind, metadata };
    if (t.json["spec"] !== undefined) body["spec"] = t.json["spec"];
    const collection = `/apis/networking.k8s.io/v1/namespaces/${namespace}/${plural}`;
    return { kind, namespace, name, path: collection, objectPath: `${collection}/${name}`, body, template: t.id };
  });
}
