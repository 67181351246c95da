import { jsonText } from "../shared/render.js";
import type { Reporter } from "../shared/reporter.js";
import type { Summary, Verdict } from "../shared/verdict.js";

// `clusterwire validate -o json`: one document holding a result per input
// document and the summary, streamed result by result. Every result has the
// same keys in the same order, whatever its status (valid, invalid, skipped,
// error, or a note on a whole file), so it is easy to query (jq): a value that
// does not apply is null, a list that does not apply is empty.

/** The keys of every `validate -o json` result, in the order they are written. */
export const RESULT_JSON_KEYS = [
  "file",
  "document",
  "item",
  "event",
  "line",
  "apiVersion",
  "kind",
  "namespace",
  "name",
  "generateName",
  "status",
  "errors",
  "refusals",
  "warnings",
  "error",
  "reason",
  "response",
] as const;

/** One result as written: the verdict with the keys of {@link RESULT_JSON_KEYS}, null where a value does not apply. */
export function verdictJson(v: Verdict): Record<(typeof RESULT_JSON_KEYS)[number], unknown> {
  return {
    file: v.file,
    document: v.document ?? null,
    item: v.item ?? null,
    event: v.event ?? null,
    line: v.line ?? null,
    apiVersion: v.apiVersion ?? null,
    kind: v.kind ?? null,
    namespace: v.namespace ?? null,
    name: v.name ?? null,
    generateName: v.generateName ?? null,
    status: v.status,
    errors: v.errors,
    refusals: v.refusals,
    warnings: v.warnings,
    error: v.failure ?? null,
    reason: v.reason ?? null,
    response: v.response ?? null,
  };
}

export function jsonReporter(options: { readonly quiet: boolean }): Reporter {
  let first = true;
  return {
    start: () => '{\n  "documents": [',
    file(f) {
      let out = "";
      for (const v of f.verdicts) {
        if (options.quiet && (v.status === "valid" || v.status === "skipped") && v.warnings.length === 0) continue;
        out += `${first ? "\n" : ",\n"}    ${jsonText(verdictJson(v), "    ")}`;
        first = false;
      }
      return out;
    },
    end: (s: Summary) => `${first ? "]" : "\n  ]"},\n  "summary": ${jsonText(s, "  ")}\n}\n`,
  };
}
