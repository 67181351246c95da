import type { ExpectationProblem } from "./types.js";

/** The most problems a message lists; the rest are counted. */
const MAX_LISTED = 20;

/**
 * An expectations file that cannot be judged: it is not YAML, a field is wrong or unknown, or
 * (from {@link checkExpectations}) a pattern matches no workload, a named port no destination
 * has, or an expectation leaves no pair to judge. `problems` lists each with its line and column;
 * the message lists them as `FILE:LINE:COLUMN: FIELD: MESSAGE`.
 *
 * @example
 * ```ts
 * import { ExpectationFileError, parseExpectations } from "clusterwire/connectivity";
 *
 * try {
 *   parseExpectations("expectations:\n  - allow: {from: shop/web, to: shop/api, port: 99999}\n", "expect.yaml");
 * } catch (e) {
 *   if (e instanceof ExpectationFileError) console.log(e.message);
 *   // expect.yaml:2:49: expectations[0].allow.port: must be a port number from 1 to 65535, ...
 * }
 * ```
 */
export class ExpectationFileError extends Error {
  /** Always `"ExpectationFileError"`. */
  override readonly name = "ExpectationFileError";
  /** The file name given to {@link parseExpectations}. */
  readonly file: string;
  /** Every problem found, in file order (by line, then column); never empty. */
  readonly problems: readonly ExpectationProblem[];

  constructor(file: string, problems: readonly ExpectationProblem[]) {
    // In file order, whatever order the checks found them in.
    const sorted = [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
    super(describe(file, sorted));
    this.file = file;
    this.problems = sorted;
  }
}

function describe(file: string, problems: readonly ExpectationProblem[]): string {
  const lines = problems
    .slice(0, MAX_LISTED)
    .map((p) => `${p.file}:${p.line}:${p.column}: ${p.path === "" ? "" : `${p.path}: `}${p.message}`);
  if (lines.length === 1) return lines[0] ?? "";
  const more = problems.length > MAX_LISTED ? `\n  ... and ${problems.length - MAX_LISTED} more` : "";
  return `${file}: ${problems.length} errors in the expectations:\n${lines.map((l) => `  ${l}`).join("\n")}${more}`;
}
