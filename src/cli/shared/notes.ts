import { formatFieldError, type SkippedObject } from "../../networking/index.js";
import type { CliIO } from "./io.js";

// Notes on stderr about inputs left out, and the answer's own lines about them
// on stdout, shared by route and reach.

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

/**
 * An answer's own account of the inputs it was computed without, one line
 * each, for standard output after the answer (the notes on stderr give the
 * errors): `left out: KIND NAME (WHERE): the API server would reject it (2 errors)`,
 * or `...: an earlier KIND has the same name`.
 */
export function leftOutLines(
  skipped: readonly SkippedObject[],
  where: (s: SkippedObject, i: number) => string,
): string[] {
  return skipped.map((s, i) => `left out: ${s.kind} ${s.name} (${where(s, i)}): ${whyLeftOut(s)}`);
}

function whyLeftOut(s: SkippedObject): string {
  const [first, ...rest] = s.errors;
  if (
    first !== undefined &&
    rest.length === 0 &&
    first.type === "FieldValueDuplicate" &&
    first.field === "metadata.name"
  )
    return `an earlier ${s.kind} has the same ${s.kind === "IngressClass" ? "name" : "namespace/name"}`;
  const n = s.errors.length;
  return `the API server would reject it (${n} ${n === 1 ? "error" : "errors"})`;
}
