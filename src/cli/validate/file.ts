import { readFile } from "node:fs/promises";
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

/** Reads and checks one file; a file that cannot be read is an error verdict, never a throw. */
export async function validateFile(job: FileJob, settings: FileJobSettings): Promise<FileVerdicts> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(job.path));
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
