import { checkManifests, type CheckManifestsOptions } from "../../networking/index.js";
import type { ReadDocument, ReadFile } from "./document-reader.js";
import type { FileVerdicts, Verdict } from "./verdict.js";

// From documents read to verdicts, by the library's checkManifests: each
// networking object validated as the API server would on create (or update),
// with the refusals it makes before and after validation.

export interface CheckSettings
  extends Pick<CheckManifestsOptions, "old" | "subresource" | "featureGates" | "version" | "namespace"> {
  /** What a file that is not a manifest is: a note (skip, the default) or an error. */
  readonly nonManifests?: "skip" | "error";
}

export function checkFile(file: string, read: ReadFile, settings: CheckSettings): FileVerdicts {
  if (read.notManifest !== undefined)
    return { file, verdicts: [notManifestVerdict(file, read.notManifest, settings.nonManifests ?? "skip")] };
  return { file, verdicts: checkDocuments(file, read.documents, settings) };
}

/** The verdicts on documents of `file`, in order. */
export function checkDocuments(file: string, documents: readonly ReadDocument[], settings: CheckSettings): Verdict[] {
  const { nonManifests: _, ...options } = settings;
  // checkManifests names every verdict with the `file` it is given.
  return checkManifests(documents, { ...options, file }) as Verdict[];
}

/** The verdict on a whole file that is not a manifest: a skip with its note, or an error. */
export function notManifestVerdict(file: string, note: string, as: "skip" | "error"): Verdict {
  return as === "error"
    ? { file, status: "error", errors: [], refusals: [], warnings: [], failure: { message: note } }
    : { file, status: "skipped", errors: [], refusals: [], warnings: [], reason: note };
}
