// The corpus of real manifests under bench/corpus/ (provenance in its
// SOURCES.md): whole files as published, from which the bench takes every
// networking.k8s.io/v1 document that clusterwire decodes, round-trips and
// validates, and says how many it kept and why it dropped the others.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { DescMessage } from "@bufbuild/protobuf";
import {
  DecodeError,
  decode,
  encode,
  fromJson,
  fromYaml,
  kindOf,
  readEnvelope,
  splitYamlDocuments,
  toJsonString,
  validate,
  type NetworkingObject,
} from "../src/networking/index.js";
import { asReceived, repoRoot } from "./fixtures.js";

export const corpusDir = (): string => resolve(repoRoot(), "bench", "corpus");

/** One object the bench measures. */
export interface CorpusObject {
  /** `<file under bench/corpus>#<document>` (1-based), with `.<item>` for a List's items. */
  readonly id: string;
  readonly kind: string;
  readonly desc: DescMessage;
  /** The API server body: `k8s\0` + runtime.Unknown + object (clusterwire's encode). */
  readonly envelope: Uint8Array;
  /** The object bytes alone (what the protobuf peers read). */
  readonly raw: Uint8Array;
  /** Compact Kubernetes JSON (clusterwire's toJsonString). */
  readonly json: string;
}

/** A networking.k8s.io/v1 document (or List item) the bench leaves out, and why. */
export interface CorpusDrop {
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
}

export interface Corpus {
  /** Every manifest file read, relative to bench/corpus, sorted. */
  readonly files: readonly string[];
  readonly objects: readonly CorpusObject[];
  readonly dropped: readonly CorpusDrop[];
  /** Documents of other kinds or API versions (Services, CRDs, v1beta1 Ingresses...), not counted as dropped. */
  readonly otherDocuments: number;
}

const MANIFEST = /\.(ya?ml|json)$/;
// A document that names networking.k8s.io/v1 (not v1beta1 or v1alpha1) anywhere, in block or flow style.
const MENTIONS_V1 = /networking\.k8s\.io\/v1(?![\w.])/;
// What fromJson and fromYaml say of a document whose apiVersion/kind is not one of theirs.
const NOT_OURS = /^(unsupported apiVersion\/kind|Object 'Kind' is missing|Object 'apiVersion' is missing)/;

/** Manifest files under `dir`, relative to it, sorted. */
export function corpusFiles(dir: string = corpusDir()): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (MANIFEST.test(name)) out.push(relative(dir, path).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Why clusterwire does not take `obj` as a valid object that round-trips,
 * or undefined when it does.
 */
function refusal(obj: NetworkingObject): string | undefined {
  const errors = validate(obj);
  if (errors.length > 0) {
    const e = errors[0]!;
    return `validate: ${e.field}: ${e.type}${errors.length > 1 ? ` (+${errors.length - 1} more)` : ""}`;
  }
  const envelope = encode(obj);
  if (Buffer.compare(encode(decode(envelope)), envelope) !== 0) return "encode(decode(pb)) differs from pb";
  if (Buffer.compare(encode(fromJson(toJsonString(obj))), envelope) !== 0)
    return "encode(fromJson(toJsonString)) differs from pb";
  return undefined;
}

/** Reads the corpus. Never throws for a bad document: it is dropped with its reason. */
export function loadCorpus(dir: string = corpusDir()): Corpus {
  const files = corpusFiles(dir);
  const objects: CorpusObject[] = [];
  const dropped: CorpusDrop[] = [];
  const seen = new Map<string, string>();
  let otherDocuments = 0;
  const take = (id: string, obj: NetworkingObject): void => {
    const info = kindOf(obj);
    if (info.list) {
      const items = (obj as { items?: readonly NetworkingObject[] }).items ?? [];
      for (const [i, item] of items.entries()) take(`${id}.${i + 1}`, item);
      return;
    }
    const why = refusal(obj);
    if (why !== undefined) {
      dropped.push({ id, kind: info.kind, reason: why });
      return;
    }
    const json = asReceived(toJsonString(obj));
    const first = seen.get(json);
    if (first !== undefined) {
      dropped.push({ id, kind: info.kind, reason: `duplicate of ${first}` });
      return;
    }
    seen.set(json, id);
    const envelope = encode(obj);
    const env = readEnvelope(envelope);
    objects.push({
      id,
      kind: info.kind,
      desc: info.desc,
      envelope,
      raw: envelope.slice(env.rawStart, env.rawEnd),
      json,
    });
  };
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    const docs = file.endsWith(".json") ? [{ text }] : splitYamlDocuments(text);
    docs.forEach((doc, i) => {
      const id = `${file}#${i + 1}`;
      let decoded: NetworkingObject[];
      try {
        decoded = file.endsWith(".json") ? [fromJson(doc.text)] : fromYaml(doc.text);
      } catch (e) {
        // Every networking.k8s.io/v1 kind is clusterwire's, so "not ours" means another kind or version,
        // as does a document that fails to parse and never names the group.
        const ours = !(e instanceof DecodeError) || (!NOT_OURS.test(e.reason) && MENTIONS_V1.test(doc.text));
        if (!ours) {
          otherDocuments++;
          return;
        }
        const kind = /^\s*"?kind"?\s*:\s*["']?(\w+)/m.exec(doc.text)?.[1] ?? "?";
        dropped.push({
          id,
          kind,
          reason: `${e instanceof DecodeError ? "decode" : "threw"}: ${messageOf(e).split("\n")[0]}`,
        });
        return;
      }
      for (const obj of decoded) take(id, obj);
    });
  }
  return { files, objects, dropped, otherDocuments };
}

/** Kept objects per kind, in first-seen order. */
export function countByKind(items: readonly { readonly kind: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) out[it.kind] = (out[it.kind] ?? 0) + 1;
  return out;
}

/** Why documents were dropped, grouped: "validate: metadata.name: FieldValueRequired" -> count. */
export function dropReasons(dropped: readonly CorpusDrop[]): { reason: string; kind: string; count: number }[] {
  const counts = new Map<string, { reason: string; kind: string; count: number }>();
  for (const d of dropped) {
    const reason = d.reason.startsWith("duplicate of ") ? "duplicate of an earlier document" : d.reason;
    const key = `${d.kind}\n${reason}`;
    const entry = counts.get(key) ?? { reason, kind: d.kind, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}
