import type { FileVerdicts, Summary } from "./verdict.js";

/**
 * An output format of `clusterwire validate`, written as the run goes: each
 * method returns the text to write at that point, so output streams and
 * memory does not grow with the number of files.
 */
export interface Reporter {
  /** Written before the first file. */
  start(): string;
  /** Written as soon as one file's verdicts are known (files arrive in input order). */
  file(file: FileVerdicts): string;
  /** Written after the last file. */
  end(summary: Summary): string;
}
