import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { encode, fromJson } from "../../src/networking/index.js";
import { MAGIC, Sink, ld, parseDoc, tag, varint, type PbDoc } from "../../test/support/protobuf-wire.js";

/*
 * The seeds every mutation starts from: the upstream fixtures, plus lists,
 * a Status and watch events built from them. test/support/fixtures.ts resolves the
 * fixtures relative to its own URL, which is wrong once compiled to dist/,
 * so this searches upward instead.
 */

const FIXTURE_SUBDIR = join("shared", "testdata", "k8s-api");

/** Finds `shared/testdata/k8s-api` in `from` or any directory above it. */
export function findFixtureRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, FIXTURE_SUBDIR);
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no ${FIXTURE_SUBDIR} above ${from}; pass --fixtures DIR`);
    dir = up;
  }
}

export interface Corpus {
  readonly root: string;
  /** Enveloped protobuf objects (fixtures, after_roundtrip files, lists, a Status). */
  readonly pb: readonly Uint8Array[];
  /** Bare WatchEvent messages (frame bodies), one per pb seed and event type. */
  readonly watchFrames: readonly Uint8Array[];
  readonly json: readonly string[];
  /** JSON watch events, pretty and compact. */
  readonly jsonEvents: readonly string[];
  readonly yaml: readonly string[];
}

const NAME = /^networking\.k8s\.io\.v1\.([A-Za-z]+)(\.after_roundtrip)?\.(pb|json|yaml)$/;

const STATUS_JSON = JSON.stringify(
  {
    kind: "Status",
    apiVersion: "v1",
    metadata: { resourceVersion: "12" },
    status: "Failure",
    message: "too old resource version: 1 (2)",
    reason: "Expired",
    details: { name: "x", causes: [{ reason: "FieldValueInvalid", message: "m", field: "metadata.resourceVersion" }] },
    code: 410,
  },
  null,
  2,
);

export function loadCorpus(root: string = findFixtureRoot()): Corpus {
  const pb: Uint8Array[] = [];
  const json: string[] = [];
  const yaml: string[] = [];
  const head: { kind: string; pb: Uint8Array; json: string }[] = [];
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const folder of folders) {
    for (const file of readdirSync(join(root, folder)).sort()) {
      const m = NAME.exec(file);
      if (m === null) continue;
      const path = join(root, folder, file);
      if (m[3] === "pb") pb.push(new Uint8Array(readFileSync(path)));
      else if (m[3] === "json") json.push(readFileSync(path, "utf8"));
      else yaml.push(readFileSync(path, "utf8"));
      if (folder === "HEAD" && m[2] === undefined && m[3] === "pb") {
        const kind = m[1] as string;
        head.push({
          kind,
          pb: new Uint8Array(readFileSync(path)),
          json: readFileSync(join(root, folder, `networking.k8s.io.v1.${kind}.json`), "utf8"),
        });
      }
    }
  }
  if (pb.length === 0 || json.length === 0 || yaml.length === 0) throw new Error(`no fixtures under ${root}`);

  // Lists: the List kind of each HEAD fixture, with two items.
  for (const h of head) {
    const raw = rawOf(h.pb);
    pb.push(envelope(`${h.kind}List`, [...ld(1, [0x0a, 0x00]), ...ld(2, raw), ...ld(2, raw)]));
    json.push(
      `{"kind":"${h.kind}List","apiVersion":"networking.k8s.io/v1","metadata":{"resourceVersion":"7"},"items":[${h.json},${h.json}]}`,
    );
  }
  const status = encode(fromJson(STATUS_JSON));
  pb.push(status);
  json.push(STATUS_JSON);

  const watchFrames: Uint8Array[] = [];
  const jsonEvents: string[] = [];
  const types = ["ADDED", "MODIFIED", "DELETED", "BOOKMARK"];
  head.forEach((h, i) => {
    const type = types[i % types.length] as string;
    watchFrames.push(watchEvent(type, h.pb));
    jsonEvents.push(`{"type":"${type}","object":${compactJson(h.json)}}`);
    jsonEvents.push(`{"type": "${type}", "object": ${h.json}}`);
  });
  watchFrames.push(watchEvent("ERROR", status));
  jsonEvents.push(`{"type":"ERROR","object":${compactJson(STATUS_JSON)}}`);

  // Multi-document YAML: two objects in one stream.
  const docs = yaml.slice(0, 4);
  yaml.push(`${docs[0]}---\n${docs[1]}`, `---\n${docs[2]}...\n---\n${docs[3]}`);
  return { root, pb, watchFrames, json, jsonEvents, yaml };
}

/** The raw object bytes of a Go-written envelope (fixtures only: lengths fit 5 bytes). */
function rawOf(envelopeBytes: Uint8Array): Uint8Array {
  const doc = parseDoc(envelopeBytes);
  const raw = doc.fields.find((f) => f.no === 2);
  if (raw === undefined) throw new Error("fixture without raw");
  return envelopeBytes.subarray(raw.dataStart, raw.end);
}

export function typeMeta(kind: string, apiVersion = "networking.k8s.io/v1"): number[] {
  const enc = new TextEncoder();
  return [...ld(1, enc.encode(apiVersion)), ...ld(2, enc.encode(kind))];
}

/** A Go-shaped envelope around `raw`. */
export function envelope(
  kind: string,
  raw: Uint8Array | readonly number[],
  apiVersion = "networking.k8s.io/v1",
): Uint8Array {
  const out = new Sink();
  out.push(MAGIC);
  out.push(ld(1, typeMeta(kind, apiVersion)));
  out.push(tag(2, 2));
  out.push(varint(raw.length));
  out.push(raw);
  out.push([0x1a, 0x00, 0x22, 0x00]);
  return out.take();
}

/** A length-delimited field around a (possibly large) body. */
export function ldBytes(no: number, body: Uint8Array): Uint8Array {
  const out = new Sink();
  out.push(tag(no, 2));
  out.push(varint(body.length));
  out.push(body);
  return out.take();
}

/** A WatchEvent body: type, and object.raw holding an enveloped object. */
export function watchEvent(type: string, object: Uint8Array): Uint8Array {
  return Uint8Array.from([...ld(1, new TextEncoder().encode(type)), ...ld(2, ld(1, object))]);
}

/** A frame: 4-byte big-endian length, then the body. */
export function frame(body: Uint8Array, declared: number = body.length): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, declared >>> 0, false);
  out.set(body, 4);
  return out;
}

/** JSON text without the whitespace outside strings. */
export function compactJson(text: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== " " && ch !== "\n" && ch !== "\t" && ch !== "\r") out += ch;
  }
  return out;
}

const docs = new WeakMap<Uint8Array, PbDoc>();
/** The parsed tree of a seed, cached. */
export function docOf(bytes: Uint8Array): PbDoc {
  let d = docs.get(bytes);
  if (d === undefined) {
    d = parseDoc(bytes);
    docs.set(bytes, d);
  }
  return d;
}
