import { formatFieldError, type SkippedObject } from "../../networking/index.js";
import type { CliIO } from "./io.js";

// Notes on stderr about inputs left out, shared by route and reach.

/** Notes on stderr: each prefixed `clusterwire: `, except the indented lines that belong to the one before. */
export function writeNotes(io: CliIO, lines: readonly string[]): void {
  for (const line of lines) io.stderr.write(line.startsWith(" ") ? `${line}\n` : `clusterwire: ${line}\n`);
}

/** `skipped KIND NAME (WHERE): ERROR`, or a header and one indented line per error. */
export function skippedLines(s: SkippedObject, where: string): string[] {
  const head = `skipped ${s.kind} ${s.name} (${where})`;
  const errors = s.errors.map(formatFieldError);
  if (errors.length === 1) return [`${head}: ${errors[0] ?? ""}`];
  return [`${head}: ${errors.length} errors`, ...errors.map((e) => `  ${e}`)];
}
