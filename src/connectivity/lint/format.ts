// The lint's warnings as text, one line each, for a terminal or a CI log.

import { LINT_IGNORE_ANNOTATION, type LintWarning } from "./rules.js";

/**
 * The warnings as text: one line each (`warning CW1002 rule-shadowed: ...`), then a line that
 * counts them and says how to silence one; `No lint warnings.` when there is none.
 *
 * @example
 * ```ts
 * import { formatLintWarnings } from "clusterwire/connectivity";
 *
 * process.stdout.write(
 *   formatLintWarnings([
 *     { id: "CW1001", name: "policy-selects-nothing", severity: "warning", message: "NetworkPolicy shop/old selects no workload", policy: "shop/old" },
 *   ]),
 * );
 * ```
 */
export function formatLintWarnings(warnings: readonly LintWarning[]): string {
  if (warnings.length === 0) return "No lint warnings.\n";
  const lines = warnings.map((w) => `${w.severity} ${w.id} ${w.name}: ${w.message}`);
  const count = warnings.length === 1 ? "1 lint warning" : `${warnings.length} lint warnings`;
  lines.push(
    `${count}; to silence one, annotate its object with ${LINT_IGNORE_ANNOTATION}: "<id>", or pass --lint-ignore <id>`,
  );
  return `${lines.join("\n")}\n`;
}
