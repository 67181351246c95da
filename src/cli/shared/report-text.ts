import type { Reporter } from "./reporter.js";
import { describeVerdict, type Summary, type Verdict } from "./verdict.js";

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

/** The lines for one verdict; `quiet` keeps only what needs fixing. */
export function verdictLines(v: Verdict, quiet: boolean): string[] {
  const lines: string[] = [];
  const head = describeVerdict(v);
  switch (v.status) {
    case "valid":
      if (!quiet) lines.push(`${head}: ok`);
      break;
    case "skipped":
      if (!quiet) lines.push(`${head}: skipped: ${v.reason ?? ""}`);
      break;
    case "error": {
      const f = v.failure;
      // A strict decoding error already names its fields in quotes.
      const field = f?.field !== undefined && !f.message.includes(`"${f.field}"`) ? `${f.field}: ` : "";
      lines.push(`${describeVerdict(v, f?.position)}: error: ${field}${f?.message ?? ""}`);
      break;
    }
    case "invalid":
      for (const r of v.refusals) {
        const word = r.reason === "" ? `refused (${r.code})` : r.reason;
        lines.push(
          `${describeVerdict(v, r.position)}: ${word}: ${r.field !== undefined && r.code !== 400 ? `${r.field}: ` : ""}${r.message}`,
        );
      }
      for (const e of v.errors) lines.push(`${describeVerdict(v, e.position)}: ${e.message}`);
      break;
  }
  for (const w of v.warnings) lines.push(`${describeVerdict(v, w.position)}: warning: ${w.message}`);
  return lines;
}

export function textReporter(options: { readonly quiet: boolean }): Reporter {
  return {
    start: () => "",
    file: (f) => f.verdicts.flatMap((v) => verdictLines(v, options.quiet).map((l) => `${l}\n`)).join(""),
    end: (s) => (options.quiet && s.invalid === 0 && s.errors === 0 ? "" : `${summaryLine(s)}\n`),
  };
}
