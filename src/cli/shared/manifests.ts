import { readFile } from "node:fs/promises";
import { kindOf, type NetworkingObject, type WatchEventType } from "../../networking/index.js";
import { checkDocuments, notManifestVerdict } from "./document-check.js";
import { readManifestFile } from "./document-reader.js";
import { CliError, EXIT_USAGE, errnoMessage, readInput, usageError, type CliIO, type Input } from "./io.js";
import { verdictLines } from "./report-text.js";
import type { Verdict } from "./verdict.js";
import { expandInputs } from "./inputs.js";

// Loading manifests for the commands that answer from a set of objects (route, reach),
// and the demo's item type.

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
      if (d.type === "skipped") {
        for (const v of checkDocuments(input.name, [d], {})) note(v);
        continue;
      }
      if (d.type === "error") {
        failures.push(
          checkDocuments(input.name, [d], {})
            .flatMap((v) => verdictLines(v, false))
            .join("; "),
        );
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
  for await (const entry of expandInputs(io, paths, {}, (n) => failures.push(n))) {
    if (entry.type === "missing") failures.push(`${entry.display}: ${entry.message}`);
    else if (entry.type === "stdin") await loadFile("-");
    else await loadFile(entry.display, entry.path);
  }
  if (failures.length > 0) {
    for (const f of failures.slice(0, -1)) io.stderr.write(`clusterwire: ${f}\n`);
    throw new CliError(failures.at(-1) ?? "", EXIT_USAGE);
  }
  return { objects, watchEvents };
}
