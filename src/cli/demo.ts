import { readdir } from "node:fs/promises";
import { extname, join, relative, resolve } from "node:path";
import {
  DecodeError,
  EncodeError,
  decode,
  decodeJsonWatchStream,
  decodeWatchStream,
  encode,
  encodeWatchEvent,
  fromJson,
  fromYaml,
  kindOf,
  toJsonString,
  toYaml,
  type NetworkingObject,
  type WatchEventType,
} from "../networking/index.js";
import { onlyInput, parseCommandLine, type Command } from "./command.js";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, asText, bytesEqual, errnoMessage, hasMagic, readInput, type CliIO } from "./io.js";

const NAME = "demo";

const HELP = `Usage: clusterwire demo [DIR]

The main job (npm start). Walks DIR (default: examples) for .yaml, .yml,
.json, .pb and .jsonl files and runs every step on every object found,
printing one line per object and a summary. Manifests are read in strict mode, so a
misspelt field fails the run. A .pb file is either one k8s\\0 object or a
watch stream; a .jsonl file is a JSON watch stream.

Steps:
  round-trip   encode to protobuf and decode back: JSON equal, protobuf
               re-encode byte-equal, JSON and YAML text decode to the same
               bytes, and .pb inputs re-encode to exactly their own bytes

Exit status: 0 every step passed on every object, 1 something failed,
2 usage error, or DIR unreadable or without manifests.`;

/** One object the demo found, and where it came from. */
export interface DemoItem {
  /** The file as a path under the demo directory argument, e.g. `examples/ingress-shop.yaml`. */
  readonly file: string;
  /** 0-based YAML document or watch event index, when the file holds several. */
  readonly index?: number;
  readonly object: NetworkingObject;
  /** Set for objects read from a watch stream. */
  readonly event?: WatchEventType;
  /** For protobuf input: the bytes the object (or its whole watch frame) came from. */
  readonly original?: Uint8Array;
}

export interface StepResult {
  readonly ok: boolean;
  /** Short text for the object's line, e.g. `round-trip ok`. */
  readonly summary: string;
  /** What went wrong, one line each, printed under the object's line. */
  readonly problems?: readonly string[];
}

/**
 * A check run on every object. Later steps (validate, route, reach) plug in
 * here; `all` gives them every object found, for cross-object checks.
 */
export interface DemoStep {
  readonly name: string;
  check(item: DemoItem, all: readonly DemoItem[]): StepResult;
}

/** Encode, decode, compare; the foundation every later step relies on. */
export const roundTripStep: DemoStep = {
  name: "round-trip",
  check(item) {
    const problems: string[] = [];
    let pbSize = 0;
    let jsonSize = 0;
    try {
      const pb = encode(item.object);
      const json = toJsonString(item.object);
      pbSize = pb.length;
      jsonSize = new TextEncoder().encode(json).length;
      const back = decode(pb);
      if (toJsonString(back) !== json) problems.push("JSON differs after encode and decode");
      const again = encode(back);
      if (!bytesEqual(again, pb)) problems.push(`protobuf re-encode differs ${whereDiffer(again, pb)}`);
      // Unknown protobuf fields have no JSON or YAML form, so compare the text forms without them.
      const known = encode(item.object, { unknownFields: "drop" });
      const viaJson = encode(fromJson(json));
      if (!bytesEqual(viaJson, known)) problems.push(`JSON text decodes to different protobuf ${whereDiffer(viaJson, known)}`);
      const viaYaml = fromYaml(toYaml(item.object));
      const yamlObj = viaYaml[0];
      if (viaYaml.length !== 1 || yamlObj === undefined) problems.push(`YAML text decodes to ${viaYaml.length} objects`);
      else if (!bytesEqual(encode(yamlObj), known)) problems.push(`YAML text decodes to different protobuf ${whereDiffer(encode(yamlObj), known)}`);
      if (item.original !== undefined) {
        const mine = item.event !== undefined ? encodeWatchEvent({ type: item.event, object: item.object }) : pb;
        if (!bytesEqual(mine, item.original)) problems.push(`re-encoding differs from the input bytes ${whereDiffer(mine, item.original)}`);
      }
    } catch (e) {
      problems.push(describeError(e));
    }
    const sizes = `pb ${String(pbSize).padStart(5)} B  json ${String(jsonSize).padStart(5)} B`;
    return problems.length === 0 ? { ok: true, summary: `${sizes}  round-trip ok` } : { ok: false, summary: `${sizes}  round-trip FAILED`, problems };
  },
};

/** The main job's steps, in order. */
export const DEMO_STEPS: readonly DemoStep[] = [roundTripStep];

export const demoCommand: Command = {
  name: NAME,
  summary: "the main job (npm start): round-trip every manifest in a directory",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(NAME, HELP, {}, args, io);
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    return runDemo(io, onlyInput(NAME, positionals) ?? "examples");
  },
};

const MANIFEST_EXTENSIONS = new Set([".yaml", ".yml", ".json", ".pb", ".jsonl"]);

interface FileFailure {
  readonly file: string;
  readonly message: string;
}

/** Runs `steps` on every object under `dir`; returns the exit code. */
export async function runDemo(io: CliIO, dir: string, steps: readonly DemoStep[] = DEMO_STEPS): Promise<number> {
  const root = resolve(io.cwd ?? process.cwd(), dir);
  let files: string[];
  try {
    files = (await walk(root)).map((abs) => join(dir, relative(root, abs)));
  } catch (e) {
    throw new CliError(`${dir}: cannot read directory: ${errnoMessage(e)}`, EXIT_USAGE);
  }
  if (files.length === 0) throw new CliError(`${dir}: no .yaml, .yml, .json, .jsonl or .pb files found`, EXIT_USAGE);

  io.stdout.write(`clusterwire demo: ${files.length} files in ${dir} (steps: ${steps.map((s) => s.name).join(", ")})\n`);
  const items: DemoItem[] = [];
  const failures: FileFailure[] = [];
  for (const file of files) {
    try {
      const found = await load(io, file);
      if (found.length === 0) failures.push({ file, message: "no objects in file" });
      items.push(...found);
    } catch (e) {
      failures.push({ file, message: e instanceof CliError ? e.message.replace(`${file}: `, "") : describeError(e) });
    }
  }

  const rows: { cells: string[]; results: StepResult[] }[] = items.map((item) => ({
    cells: [label(item), item.event === undefined ? kindOf(item.object).kind : `${item.event} ${kindOf(item.object).kind}`, nameOf(item.object)],
    results: steps.map((s) => s.check(item, items)),
  }));
  const widths = [0, 1, 2].map((c) => Math.max(0, ...rows.map((r) => (r.cells[c] ?? "").length)));
  for (const row of rows) {
    const cells = row.cells.map((c, i) => c.padEnd(widths[i] ?? 0));
    io.stdout.write(`${[...cells, ...row.results.map((r) => r.summary)].join("  ")}\n`);
    for (const r of row.results) for (const p of r.problems ?? []) io.stdout.write(`    - ${p}\n`);
  }
  for (const f of failures) io.stdout.write(`${f.file}  FAILED: ${f.message}\n`);

  const tallies = steps.map((s, i) => `${s.name} ${rows.filter((r) => r.results[i]?.ok === true).length}/${rows.length} ok`);
  const failedObjects = rows.filter((r) => r.results.some((x) => !x.ok)).length;
  const ok = failedObjects === 0 && failures.length === 0;
  const fileNote = failures.length === 0 ? "" : `; ${failures.length} ${failures.length === 1 ? "file" : "files"} failed to load`;
  io.stdout.write(`${ok ? "ok" : "FAILED"}: ${rows.length} objects from ${files.length} files; ${tallies.join("; ")}${fileNote}\n`);
  return ok ? EXIT_OK : EXIT_FAILURE;
}

/** Manifest files under `dir`, sorted, skipping dot-directories and node_modules. */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(path)));
    else if (e.isFile() && MANIFEST_EXTENSIONS.has(extname(e.name).toLowerCase())) out.push(path);
  }
  return out;
}

/** Reads one file into items; codec errors propagate as DecodeError. */
async function load(io: CliIO, file: string): Promise<DemoItem[]> {
  const input = await readInput(io, file);
  const ext = extname(file).toLowerCase();
  if (ext === ".pb") {
    if (hasMagic(input.bytes)) return [{ file, object: decode(input.bytes), original: input.bytes }];
    return loadWatchStream(file, input.bytes);
  }
  if (ext === ".json") return [{ file, object: fromJson(asText(input, "json"), { strict: true }) }];
  if (ext === ".jsonl") {
    const items: DemoItem[] = [];
    for await (const ev of decodeJsonWatchStream([input.bytes], { strict: true })) items.push({ file, index: items.length, object: ev.object, event: ev.type });
    return items;
  }
  const docs = fromYaml(asText(input, "yaml"), { strict: true });
  return docs.map((object, index) => (docs.length > 1 ? { file, index, object } : { file, object }));
}

async function loadWatchStream(file: string, bytes: Uint8Array): Promise<DemoItem[]> {
  const items: DemoItem[] = [];
  let at = 0;
  for await (const ev of decodeWatchStream([bytes])) {
    // The decoder checked the framing, so the length prefix can be trusted here.
    const len = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    items.push({ file, index: items.length, object: ev.object, event: ev.type, original: bytes.subarray(at, at + 4 + len) });
    at += 4 + len;
  }
  return items;
}

function label(item: DemoItem): string {
  return item.index === undefined ? item.file : `${item.file} #${item.index + 1}`;
}


function nameOf(obj: NetworkingObject): string {
  if ("items" in obj) return `(${obj.items.length} ${obj.items.length === 1 ? "item" : "items"})`;
  const meta = "metadata" in obj ? obj.metadata : undefined;
  if (meta === undefined || !("name" in meta)) return "-";
  const name = meta.name === "" ? "(no name)" : meta.name;
  return meta.namespace === "" ? name : `${meta.namespace}/${name}`;
}

function whereDiffer(a: Uint8Array, b: Uint8Array): string {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return `at byte ${i} (${a.length} vs ${b.length} bytes)`;
  return `in length (${a.length} vs ${b.length} bytes)`;
}

function describeError(e: unknown): string {
  if (e instanceof DecodeError || e instanceof EncodeError) return e.message;
  if (e instanceof CliError) return e.message;
  throw e;
}
