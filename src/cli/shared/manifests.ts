import { readFile, readdir, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import {
  decode,
  decodeJsonWatchStream,
  decodeWatchStream,
  fromJson,
  fromYaml,
  kindOf,
  type NetworkingObject,
  type WatchEventType,
} from "../../networking/index.js";
import {
  CliError,
  EXIT_USAGE,
  asText,
  errnoMessage,
  hasMagic,
  readInput,
  usageError,
  type CliIO,
  type Input,
} from "./io.js";
import { failedVerdict, notManifestVerdict, skippedVerdict } from "./document-check.js";
import { readManifestFile } from "./document-reader.js";
import { verdictLines } from "./report-text.js";
import type { Verdict } from "./verdict.js";
import { MANIFEST_EXTENSIONS, MANIFEST_KINDS_TEXT, walkTree } from "./walk.js";
import type { ManifestFormat } from "./manifest-format.js";

// Finding and reading manifest files, shared by demo, validate, route and reach.

/** One object found in a manifest file, and where it came from. */
export interface DemoItem {
  /** The file as a path under the directory argument, e.g. `examples/ingress-shop.yaml`. */
  readonly file: string;
  /** The file's path relative to the directory that was walked (`invalid/bad.yaml`), when it came from a walk. */
  readonly relative?: string;
  /** 0-based YAML document or watch event index, when the file holds several. */
  readonly index?: number;
  readonly object: NetworkingObject;
  /** Set for objects read from a watch stream. */
  readonly event?: WatchEventType;
  /** For protobuf input: the bytes the object (or its whole watch frame) came from. */
  readonly original?: Uint8Array;
}

/**
 * Directories a walk never enters: node_modules; storage/, which holds
 * storage-API files (reference-server inventories such as
 * examples/storage/inventory.yaml); clusters/, which holds cluster
 * descriptions for `clusterwire reach` (examples/clusters/shop.yaml); and
 * demo/, which holds the main job's expected answers
 * (examples/demo/expected.yaml). None is a Kubernetes manifest.
 */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(["node_modules", "storage", "clusters", "demo"]);

/** Why a walk skipped a directory, for its note on stderr. */
export function skippedDirectoryReason(name: string): string {
  switch (name) {
    case "storage":
      return "storage-API files, not Kubernetes manifests";
    case "clusters":
      return "cluster descriptions for clusterwire reach, not Kubernetes manifests";
    case "demo":
      return "the expected answers of clusterwire demo, not Kubernetes manifests";
    default:
      return "not Kubernetes manifests";
  }
}

/** Manifest files under `dir` (absolute paths), sorted, skipping dot-directories and SKIPPED_DIRECTORIES. */
export async function walkManifests(dir: string, skipped?: string[]): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    const path = join(dir, e.name);
    if (e.isDirectory() && SKIPPED_DIRECTORIES.has(e.name)) {
      // Said, not silent: a user's own storage/ directory would otherwise vanish from a run.
      skipped?.push(path);
      continue;
    }
    if (e.isDirectory()) out.push(...(await walkManifests(path, skipped)));
    else if (e.isFile() && MANIFEST_EXTENSIONS.has(extname(e.name).toLowerCase())) out.push(path);
  }
  return out;
}

export interface LoadOptions {
  /** Reject unknown and duplicate fields in JSON and YAML (the API server's fieldValidation=Strict). */
  readonly strict: boolean;
  /** Path relative to the walked directory, recorded on each item. */
  readonly relative?: string;
}

/**
 * Decodes one manifest file into items. Codec errors propagate as
 * DecodeError; text that is not UTF-8 as CliError.
 */
export async function decodeManifest(input: Input, format: ManifestFormat, options: LoadOptions): Promise<DemoItem[]> {
  const file = input.name;
  const base = options.relative === undefined ? { file } : { file, relative: options.relative };
  switch (format) {
    case "pb":
      if (hasMagic(input.bytes)) return [{ ...base, object: decode(input.bytes), original: input.bytes }];
      return decodeProtobufWatchStream(base, input.bytes);
    case "json":
      return [{ ...base, object: fromJson(asText(input, "json"), { strict: options.strict }) }];
    case "jsonl": {
      const items: DemoItem[] = [];
      for await (const ev of decodeJsonWatchStream([input.bytes], { strict: options.strict })) {
        items.push({ ...base, index: items.length, object: ev.object, event: ev.type });
      }
      return items;
    }
    case "yaml": {
      const docs = fromYaml(asText(input, "yaml"), { strict: options.strict });
      return docs.map((object, index) => (docs.length > 1 ? { ...base, index, object } : { ...base, object }));
    }
  }
}

async function decodeProtobufWatchStream(
  base: { file: string; relative?: string },
  bytes: Uint8Array,
): Promise<DemoItem[]> {
  const items: DemoItem[] = [];
  let at = 0;
  for await (const ev of decodeWatchStream([bytes])) {
    // The decoder checked the framing, so the length prefix can be trusted here.
    const len = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    items.push({
      ...base,
      index: items.length,
      object: ev.object,
      event: ev.type,
      original: bytes.subarray(at, at + 4 + len),
    });
    at += 4 + len;
  }
  return items;
}

// ------------------------------------------------------------------ reading the manifests

/** One object read from the inputs, and where it came from. */
export interface SourcedObject {
  readonly object: NetworkingObject;
  /** `FILE`, `FILE (document N)` or `FILE items[i]`, for messages. */
  readonly source: string;
}

export interface LoadedObjects {
  readonly objects: readonly SourcedObject[];
  /** Objects of watch streams, which are ignored: a stream is history, not a set of objects. */
  readonly watchEvents: readonly string[];
}

/**
 * Reads manifests from files, directories (walked as validate walks them)
 * and stdin, strictly, document by document as validate reads them: other
 * kinds and files that are not manifests are passed over with validate's
 * skip notes (unless quiet), and List kinds are expanded into their items.
 * Every document that cannot be read or decoded is reported, then the whole
 * load fails with exit 2: an answer built on part of the inputs could be wrong.
 */
export async function loadManifestObjects(
  io: CliIO,
  paths: readonly string[],
  command: string,
  quiet: boolean,
): Promise<LoadedObjects> {
  if (paths.filter((p) => p === "-").length > 1) throw usageError("- (standard input) can be given only once", command);
  const objects: SourcedObject[] = [];
  const watchEvents: string[] = [];
  const failures: string[] = [];
  const note = (v: Verdict): void => {
    if (!quiet) for (const line of verdictLines(v, false)) io.stderr.write(`clusterwire: ${line}\n`);
  };
  const loadFile = async (file: string, abs?: string): Promise<void> => {
    let input: Input;
    try {
      input =
        abs === undefined ? await readInput(io, file) : { name: file, bytes: new Uint8Array(await readFile(abs)) };
    } catch (e) {
      failures.push(e instanceof CliError ? e.message : `${file}: cannot read: ${errnoMessage(e)}`);
      return;
    }
    const read = await readManifestFile(input, { fieldValidation: "Strict" });
    if (read.notManifest !== undefined) {
      note(notManifestVerdict(input.name, read.notManifest, "skip"));
      return;
    }
    const several = read.documents.length > 1;
    for (const d of read.documents) {
      if (d.type === "other") {
        note(skippedVerdict(input.name, d));
        continue;
      }
      if (d.type === "failed") {
        failures.push(verdictLines(failedVerdict(input.name, d), false).join("; "));
        continue;
      }
      const where =
        d.event !== undefined
          ? `${input.name} (event ${d.document ?? 0})`
          : several && d.document !== undefined
            ? `${input.name} (document ${d.document})`
            : input.name;
      if (d.event !== undefined) {
        watchEvents.push(where);
        continue;
      }
      const info = kindOf(d.object);
      if (info.list && "items" in d.object) {
        d.object.items.forEach((o, i) => {
          objects.push({ object: o as NetworkingObject, source: `${where} items[${i}]` });
        });
      } else {
        objects.push({ object: d.object, source: d.item !== undefined ? `${where} items[${d.item}]` : where });
      }
    }
  };
  for (const path of paths) {
    if (path === "-") {
      await loadFile(path);
      continue;
    }
    const abs = resolve(io.cwd ?? process.cwd(), path);
    let isDir: boolean;
    try {
      isDir = (await stat(abs)).isDirectory();
    } catch (e) {
      failures.push(`${path}: cannot read: ${errnoMessage(e)}`);
      continue;
    }
    if (!isDir) {
      await loadFile(path);
      continue;
    }
    let found = 0;
    try {
      for await (const f of walkTree(abs, path, {}, (d, e) =>
        failures.push(`${d}: cannot read directory: ${errnoMessage(e)}`),
      )) {
        found++;
        await loadFile(f.display, f.path);
      }
    } catch (e) {
      failures.push(`${path}: cannot read directory: ${errnoMessage(e)}`);
      continue;
    }
    if (found === 0) failures.push(`${path}: no ${MANIFEST_KINDS_TEXT} files found`);
  }
  if (failures.length > 0) {
    for (const f of failures.slice(0, -1)) io.stderr.write(`clusterwire: ${f}\n`);
    throw new CliError(failures.at(-1) ?? "", EXIT_USAGE);
  }
  return { objects, watchEvents };
}
