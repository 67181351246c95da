import type { FieldErrorType } from "../../networking/index.js";
import type { FileVerdicts, Position, Summary, Verdict } from "./verdict.js";

// The streaming output formats of `clusterwire validate` (junit, sarif): each
// turns one file's verdicts into text as soon as they are known, so memory
// stays flat however many files a tree holds. The caller writes every string
// a reporter returns, in the order it returns them.

export interface Reporter {
  /** Written before the first file. */
  start(): string;
  /** Written as soon as one file's verdicts are known (files arrive in input order). */
  file(file: FileVerdicts): string;
  /** Written after the last file. */
  end(summary: Summary): string;
}

/** Where a verdict's document sits in its file: `document 2`, `document 2 items[0]`, `event 3 MODIFIED`, or `whole file`. */
export function documentLabel(v: Verdict): string {
  const at =
    v.event !== undefined
      ? `event ${v.document ?? 0} ${v.event}`
      : v.document !== undefined
        ? `document ${v.document}`
        : "whole file";
  return v.item === undefined ? at : `${at} items[${v.item}]`;
}

/** A reason the API server would refuse a document: one of its field errors, or a refusal on create. */
export interface Problem {
  /** The field error's type, or `refusal`. */
  readonly type: FieldErrorType | "refusal";
  /** As the API server words it. */
  readonly message: string;
  readonly field?: string;
  readonly position?: Position;
}

/** A verdict's field errors, then its refusals. */
export function problems(v: Verdict): Problem[] {
  const out: Problem[] = v.errors.map((e) => located({ type: e.type, message: e.message, field: e.field }, e));
  for (const r of v.refusals) {
    const p: Problem = { type: "refusal", message: r.message };
    out.push(located(r.field === undefined ? p : { ...p, field: r.field }, r));
  }
  return out;
}

function located(p: Problem, from: { readonly position?: Position }): Problem {
  return from.position === undefined ? p : { ...p, position: from.position };
}

/** A line or column as a consumer may take it: a positive integer, else unknown. */
export function knownNumber(n: number | undefined): n is number {
  return n !== undefined && Number.isSafeInteger(n) && n >= 1;
}

/**
 * The string with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder
 * would write it anyway: messages quote user input, which may hold anything,
 * and both XML and JSON consumers choke on unpaired halves.
 */
export function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, "\ufffd");
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
