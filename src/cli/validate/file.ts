import { readFileSync } from "node:fs";
import type { FeatureGates, KubernetesVersion } from "../../networking/index.js";
import { checkFile, type CheckSettings } from "../shared/document-check.js";
import { readManifestFile, type FieldValidation } from "../shared/document-reader.js";
import { errnoMessage } from "../shared/io.js";
import { kindSelector } from "./kind-selection.js";
import { fileError, type FileVerdicts } from "../shared/verdict.js";

// One job of `clusterwire validate`: a file read, decoded document by
// document, and checked. Runs on the main thread or in a worker thread, so
// its inputs and outputs are plain data.

/** Settings a worker thread can be given: structured-clone safe (no functions, no objects with methods). */
export interface FileJobSettings {
  readonly fieldValidation: FieldValidation;
  readonly nonManifests: "skip" | "error";
  readonly featureGates: FeatureGates;
  readonly version?: KubernetesVersion;
  readonly namespace?: string;
  readonly kinds: readonly string[];
  readonly skipKinds: readonly string[];
}

export interface FileJob {
  /** Absolute path to read. */
  readonly path: string;
  /** The path for messages. */
  readonly display: string;
}

/**
 * Reads and checks one file; a file that cannot be read is an error verdict, never a throw.
 * Read synchronously, as is written for speed: a tree is mostly small files, and a promise
 * read of each (open, stat, read, close, each a round trip through the thread pool) took
 * about a sixth of a `--jobs 1` run over 10,000 files (CPU profile), a synchronous one a
 * thirtieth. The checking after it is synchronous anyway, so nothing else waits on the read.
 */
export async function validateFile(job: FileJob, settings: FileJobSettings): Promise<FileVerdicts> {
  let bytes: Uint8Array;
  try {
    const read = readFileSync(job.path);
    bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  } catch (e) {
    return fileError(job.display, `cannot read: ${errnoMessage(e)}`);
  }
  return validateBytes(job.display, bytes, settings);
}

/** Checks the bytes of one input (a file already read, or standard input). */
export async function validateBytes(
  name: string,
  bytes: Uint8Array,
  settings: FileJobSettings,
  extra: Pick<CheckSettings, "old" | "subresource"> = {},
): Promise<FileVerdicts> {
  const select = kindSelector(settings.kinds, settings.skipKinds);
  const read = await readManifestFile(
    { name, bytes },
    { fieldValidation: settings.fieldValidation, ...(select !== undefined ? { select } : {}) },
  );
  return checkFile(name, read, {
    featureGates: settings.featureGates,
    ...(settings.version !== undefined ? { version: settings.version } : {}),
    nonManifests: settings.nonManifests,
    ...(settings.namespace !== undefined ? { namespace: settings.namespace } : {}),
    ...extra,
  });
}
