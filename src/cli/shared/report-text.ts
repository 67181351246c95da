import type { Reporter } from "./reporter.js";
import { formatVerdict } from "../../networking/index.js";
import type { Summary, Verdict } from "./verdict.js";

// The default output of `clusterwire validate`: a line per finding, worded as
// the API server words it, led by FILE:LINE[:COLUMN] so editors and CI logs
// link to it, and a summary line.

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `Summary: 57 documents in 12 files: 40 valid, 3 invalid, 12 skipped, 2 errors[, 4 warnings]`. */
export function summaryLine(s: Summary): string {
  const warnings = s.warnings === 0 ? "" : `, ${plural(s.warnings, "warning")}`;
  return `Summary: ${plural(s.documents, "document")} in ${plural(s.files, "file")}: ${s.valid} valid, ${s.invalid} invalid, ${s.skipped} skipped, ${plural(s.errors, "error")}${warnings}`;
}

/** The lines for one verdict, as the library's formatVerdict words them; `quiet` keeps only what needs fixing. */
export function verdictLines(v: Verdict, quiet: boolean): string[] {
  const text = formatVerdict(v, { quiet });
  return text === "" ? [] : text.split("\n");
}

export function textReporter(options: { readonly quiet: boolean }): Reporter {
  return {
    start: () => "",
    file: (f) => f.verdicts.flatMap((v) => verdictLines(v, options.quiet).map((l) => `${l}\n`)).join(""),
    end: (s) => (options.quiet && s.invalid === 0 && s.errors === 0 ? "" : `${summaryLine(s)}\n`),
  };
}
