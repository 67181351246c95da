import type {
  ManifestVerdict,
  ManifestWarning,
  TextPosition,
  VerdictFailure,
  VerdictRefusal,
  VerdictStatus,
} from "../../networking/index.js";

// What `clusterwire validate` says about each document it reads: the data
// every output format (text, json, junit, sarif) is rendered from. Verdicts
// are the library's (checkManifests), always named with their file; plain
// data (structured-clone safe), so worker threads can send them.

export { describeVerdict, objectLabel } from "../../networking/index.js";
export type { VerdictFieldError } from "../../networking/index.js";
export type DocumentStatus = VerdictStatus;
export type Position = TextPosition;
export type Refusal = VerdictRefusal;
export type Warning = ManifestWarning;
export type DecodeFailure = VerdictFailure;

export interface Verdict extends ManifestVerdict {
  /** The path as the user gave it, or under the directory they gave. */
  readonly file: string;
}

/** The verdicts of one file, in document order; a file is reported whole, in input order. */
export interface FileVerdicts {
  readonly file: string;
  readonly verdicts: readonly Verdict[];
}

export interface Summary {
  /** Files read (or attempted). */
  readonly files: number;
  /** Verdicts, i.e. documents (plus whole-file verdicts). */
  readonly documents: number;
  readonly valid: number;
  readonly invalid: number;
  readonly skipped: number;
  readonly errors: number;
  /** Field errors and refusals over all invalid documents. */
  readonly problems: number;
  readonly warnings: number;
}

/** The verdicts of a file that could not be read at all: one error about the whole file. */
export function fileError(file: string, message: string): FileVerdicts {
  return { file, verdicts: [{ file, status: "error", errors: [], refusals: [], warnings: [], failure: { message } }] };
}

export function emptySummary(): Summary {
  return { files: 0, documents: 0, valid: 0, invalid: 0, skipped: 0, errors: 0, problems: 0, warnings: 0 };
}

/** Adds one file's verdicts to a summary. */
export function addToSummary(s: Summary, file: FileVerdicts): Summary {
  let { valid, invalid, skipped, errors, problems, warnings } = s;
  for (const v of file.verdicts) {
    if (v.status === "valid") valid++;
    else if (v.status === "invalid") invalid++;
    else if (v.status === "skipped") skipped++;
    else errors++;
    problems += v.errors.length + v.refusals.length;
    warnings += v.warnings.length;
  }
  return {
    files: s.files + 1,
    documents: s.documents + file.verdicts.length,
    valid,
    invalid,
    skipped,
    errors,
    problems,
    warnings,
  };
}
