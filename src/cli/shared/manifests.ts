import { readdir, stat } from "node:fs/promises";
import { extname, join, relative, resolve } from "node:path";
import {
  DecodeError,
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
  STDIN_NAME,
  asText,
  detectFormat,
  errnoMessage,
  hasMagic,
  readInput,
  usageError,
  type CliIO,
  type Input,
} from "./io.js";

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

export const MANIFEST_EXTENSIONS: ReadonlySet<string> = new Set([".yaml", ".yml", ".json", ".pb", ".jsonl"]);

/** What `walkManifests` picks up, for messages. */
export const MANIFEST_KINDS_TEXT = ".yaml, .yml, .json, .jsonl or .pb";

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

/**
 * How a manifest is read:
 * - `pb`: one k8s\0 object, or (without the magic) a protobuf watch stream;
 * - `jsonl`: a JSON watch stream;
 * - `json`: one JSON object (a List kind counts as one);
 * - `yaml`: a YAML stream, one object per non-empty document.
 */
export type ManifestFormat = "pb" | "jsonl" | "json" | "yaml";

/**
 * Picks how to read a manifest: the k8s\0 magic first, then the extension,
 * then the content. Text never starts with a NUL byte, while a protobuf watch
 * stream does (its big-endian frame length is under 16 MiB), so that is how a
 * watch stream on stdin is recognised.
 */
export function manifestFormat(name: string, bytes: Uint8Array): ManifestFormat {
  if (hasMagic(bytes)) return "pb";
  if (extname(name).toLowerCase() === ".jsonl") return "jsonl";
  if (bytes[0] === 0x00) return "pb";
  return detectFormat(name, bytes);
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
 * and stdin, strictly; List kinds are expanded into their items. Every
 * input that cannot be read or decoded is reported, then the whole load
 * fails with exit 2: an answer built on part of the inputs could be wrong.
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
  const loadFile = async (file: string): Promise<void> => {
    try {
      const input = await readInput(io, file);
      const items = await decodeManifest(input, manifestFormat(input.name, input.bytes), { strict: true });
      if (items.length === 0) failures.push(`${input.name}: no object found (empty input)`);
      for (const item of items) {
        const where =
          item.event !== undefined
            ? `${item.file} (event ${(item.index ?? 0) + 1})`
            : item.index !== undefined
              ? `${item.file} (document ${item.index + 1})`
              : item.file;
        if (item.event !== undefined) {
          watchEvents.push(where);
          continue;
        }
        const info = kindOf(item.object);
        if (info.list && "items" in item.object) {
          item.object.items.forEach((o, i) => {
            objects.push({ object: o as NetworkingObject, source: `${where} items[${i}]` });
          });
        } else {
          objects.push({ object: item.object, source: where });
        }
      }
    } catch (e) {
      const name = file === "-" ? STDIN_NAME : file;
      if (e instanceof DecodeError) failures.push(`${name}: ${e.message}`);
      else if (e instanceof CliError)
        failures.push(e.message.startsWith(`${name}: `) ? e.message : `${name}: ${e.message}`);
      else throw e;
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
    const skipped: string[] = [];
    let found: string[];
    try {
      found = await walkManifests(abs, skipped);
    } catch (e) {
      failures.push(`${path}: cannot read directory: ${errnoMessage(e)}`);
      continue;
    }
    if (!quiet) {
      for (const s of skipped) {
        const rel = join(path, relative(abs, s));
        io.stderr.write(`clusterwire: skipped ${rel}/: ${skippedDirectoryReason(s.slice(s.lastIndexOf("/") + 1))}\n`);
      }
    }
    if (found.length === 0) failures.push(`${path}: no ${MANIFEST_KINDS_TEXT} files found`);
    for (const f of found) await loadFile(join(path, relative(abs, f)));
  }
  if (failures.length > 0) {
    for (const f of failures.slice(0, -1)) io.stderr.write(`clusterwire: ${f}\n`);
    throw new CliError(failures.at(-1) ?? "", EXIT_USAGE);
  }
  return { objects, watchEvents };
}
