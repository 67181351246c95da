import { join, relative, resolve } from "node:path";
import {
  DecodeError,
  EncodeError,
  decode,
  encode,
  encodeWatchEvent,
  fromJson,
  fromYaml,
  kindOf,
  toJsonString,
  toYaml,
  type NetworkingObject,
} from "../../networking/index.js";
import {
  CliError,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  bytesEqual,
  errnoMessage,
  readInput,
  type CliIO,
} from "../shared/io.js";
import { readManifestFile } from "../shared/document-reader.js";
import type { DemoItem } from "../shared/manifests.js";
import { MANIFEST_KINDS_TEXT, walkTree } from "../shared/walk.js";
import { fieldErrorMessages } from "./validation.js";

// The main job's first section: every manifest under the demo directory
// through each step (round-trip, validate), one line per object and a summary.

export type { DemoItem } from "../shared/manifests.js";

export interface StepResult {
  readonly ok: boolean;
  /** Short text for the object's line, e.g. `round-trip ok`. */
  readonly summary: string;
  /** What went wrong, one line each, printed under the object's line as `    - problem`. */
  readonly problems?: readonly string[];
  /** Information worth showing that is not a failure, printed under the object's line, indented. */
  readonly notes?: readonly string[];
  /** The check found the failure the example was written to show; `ok` is true. */
  readonly expectedFailure?: boolean;
}

/**
 * A check run on every object. Later steps (route, reach) plug in here;
 * `all` gives them every object found, for cross-object checks.
 */
export interface DemoStep {
  readonly name: string;
  /** How the summary counts results with `expectedFailure`, e.g. `invalid as expected`. */
  readonly expectedFailureText?: string;
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
      if (!bytesEqual(viaJson, known))
        problems.push(`JSON text decodes to different protobuf ${whereDiffer(viaJson, known)}`);
      const viaYaml = fromYaml(toYaml(item.object));
      const yamlObj = viaYaml[0];
      if (viaYaml.length !== 1 || yamlObj === undefined)
        problems.push(`YAML text decodes to ${viaYaml.length} objects`);
      else if (!bytesEqual(encode(yamlObj), known))
        problems.push(`YAML text decodes to different protobuf ${whereDiffer(encode(yamlObj), known)}`);
      if (item.original !== undefined) {
        const mine = item.event !== undefined ? encodeWatchEvent({ type: item.event, object: item.object }) : pb;
        if (!bytesEqual(mine, item.original))
          problems.push(`re-encoding differs from the input bytes ${whereDiffer(mine, item.original)}`);
      }
    } catch (e) {
      problems.push(describeError(e));
    }
    const sizes = `pb ${String(pbSize).padStart(5)} B  json ${String(jsonSize).padStart(5)} B`;
    return problems.length === 0
      ? { ok: true, summary: `${sizes}  round-trip ok` }
      : { ok: false, summary: `${sizes}  round-trip FAILED`, problems };
  },
};

/** Directories with this name hold manifests that are invalid on purpose. */
export const EXPECTED_INVALID_DIR = "invalid";

/** True when a directory on the item's path (below the demo directory) is named invalid. */
export function expectedInvalid(item: DemoItem): boolean {
  const dirs = (item.relative ?? item.file).split(/[\\/]/).slice(0, -1);
  return dirs.includes(EXPECTED_INVALID_DIR);
}

/**
 * Create validation, as `clusterwire validate` runs it. Examples under
 * invalid/ must fail (their errors are shown as notes); all others must pass.
 */
export const validateStep: DemoStep = {
  name: "validate",
  expectedFailureText: "invalid as expected",
  check(item) {
    let messages: string[];
    try {
      messages = fieldErrorMessages(item.object);
    } catch (e) {
      // validate() should never throw on a decoded object; say so rather than crash the run.
      return {
        ok: false,
        summary: "validate FAILED",
        problems: [`validator threw: ${e instanceof Error ? e.message : String(e)}`],
      };
    }
    const count = `${messages.length} ${messages.length === 1 ? "error" : "errors"}`;
    if (expectedInvalid(item)) {
      return messages.length > 0
        ? { ok: true, expectedFailure: true, summary: `validate: ${count}, as expected`, notes: messages }
        : {
            ok: false,
            summary: "validate FAILED",
            problems: [`valid, but files under ${EXPECTED_INVALID_DIR}/ must fail validation`],
          };
    }
    return messages.length === 0
      ? { ok: true, summary: "validate ok" }
      : { ok: false, summary: `validate FAILED: ${count}`, problems: messages };
  },
};

/** The main job's steps, in order. */
export const DEMO_STEPS: readonly DemoStep[] = [roundTripStep, validateStep];

interface FileFailure {
  readonly file: string;
  readonly message: string;
}

/** Runs `steps` on every object under `dir`; returns the exit code. */
export async function runDemo(io: CliIO, dir: string, steps: readonly DemoStep[] = DEMO_STEPS): Promise<number> {
  const root = resolve(io.cwd ?? process.cwd(), dir);
  let files: string[];
  try {
    files = [];
    for await (const f of walkTree(root, dir)) files.push(relative(root, f.path));
  } catch (e) {
    throw new CliError(`${dir}: cannot read directory: ${errnoMessage(e)}`, EXIT_USAGE);
  }
  if (files.length === 0) throw new CliError(`${dir}: no ${MANIFEST_KINDS_TEXT} files found`, EXIT_USAGE);

  const items: DemoItem[] = [];
  const failures: FileFailure[] = [];
  let manifests = 0;
  for (const rel of files) {
    const file = join(dir, rel);
    try {
      const found = await load(io, file, rel);
      if (found === undefined) continue;
      manifests++;
      if (found.length === 0) failures.push({ file, message: "no objects in file" });
      items.push(...found);
    } catch (e) {
      manifests++;
      failures.push({ file, message: e instanceof CliError ? e.message.replace(`${file}: `, "") : describeError(e) });
    }
  }
  const skipped = files.length - manifests;
  io.stdout.write(
    `clusterwire demo: ${manifests} manifest files in ${dir}${skipped === 0 ? "" : ` (${skipped} other files are not manifests)`} (steps: ${steps.map((s) => s.name).join(", ")})\n`,
  );

  const rows: { cells: string[]; results: StepResult[] }[] = items.map((item) => ({
    cells: [
      label(item),
      item.event === undefined ? kindOf(item.object).kind : `${item.event} ${kindOf(item.object).kind}`,
      nameOf(item.object),
    ],
    results: steps.map((s) => s.check(item, items)),
  }));
  const widths = [0, 1, 2].map((c) => Math.max(0, ...rows.map((r) => (r.cells[c] ?? "").length)));
  for (const row of rows) {
    const cells = row.cells.map((c, i) => c.padEnd(widths[i] ?? 0));
    io.stdout.write(`${[...cells, ...row.results.map((r) => r.summary)].join("  ")}\n`);
    for (const r of row.results) {
      for (const p of r.problems ?? []) io.stdout.write(`    - ${p}\n`);
      for (const n of r.notes ?? []) io.stdout.write(`      ${n}\n`);
    }
  }
  for (const f of failures) io.stdout.write(`${f.file}  FAILED: ${f.message}\n`);

  const tallies = steps.map((s, i) => {
    const expected = rows.filter((r) => r.results[i]?.expectedFailure === true).length;
    const note = expected === 0 ? "" : ` (${expected} ${s.expectedFailureText ?? "expected failures"})`;
    return `${s.name} ${rows.filter((r) => r.results[i]?.ok === true).length}/${rows.length} ok${note}`;
  });
  const failedObjects = rows.filter((r) => r.results.some((x) => !x.ok)).length;
  const ok = failedObjects === 0 && failures.length === 0;
  const fileNote =
    failures.length === 0 ? "" : `; ${failures.length} ${failures.length === 1 ? "file" : "files"} failed to load`;
  io.stdout.write(
    `${ok ? "ok" : "FAILED"}: ${rows.length} objects from ${manifests} files; ${tallies.join("; ")}${fileNote}\n`,
  );
  return ok ? EXIT_OK : EXIT_FAILURE;
}

/**
 * Reads one file into items, strictly, as validate reads it. A file that is
 * not a manifest (the demo's own expectations, a cluster description) or a
 * document of another kind gives no items; a document that cannot be decoded
 * fails the file with its location.
 */
async function load(io: CliIO, file: string, rel: string): Promise<DemoItem[] | undefined> {
  const input = await readInput(io, file);
  const read = await readManifestFile(input, { fieldValidation: "Strict" });
  if (read.notManifest !== undefined) return undefined;
  const several = read.documents.filter((d) => d.type !== "skipped").length > 1;
  const items: DemoItem[] = [];
  for (const d of read.documents) {
    if (d.type === "skipped") continue;
    if (d.type === "error") {
      const e = d.error;
      // The error's own position, else where its document starts.
      const where =
        d.line !== undefined
          ? `line ${d.line}, column ${d.column ?? 1}: `
          : e.offset !== undefined
            ? `byte ${e.offset}: `
            : "";
      // A strict decoding error already names its fields.
      const field =
        e.path !== undefined && e.path !== "" && !e.reason.includes(`"${e.path}"`) ? `field ${e.path}: ` : "";
      throw new CliError(`${where}${field}${e.reason}`, EXIT_USAGE);
    }
    const index = d.event !== undefined || several ? (d.document ?? 1) - 1 : undefined;
    items.push({
      file,
      relative: rel,
      ...(index !== undefined ? { index } : {}),
      object: d.object,
      ...(d.event !== undefined ? { event: d.event } : {}),
      ...(d.original !== undefined ? { original: d.original } : {}),
    });
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

/** Codec and CLI errors as their message; anything else is a bug and propagates. */
export function describeError(e: unknown): string {
  if (e instanceof DecodeError || e instanceof EncodeError) return e.message;
  if (e instanceof CliError) return e.message;
  throw e;
}
