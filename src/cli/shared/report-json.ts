import { jsonText } from "./render.js";
import type { Reporter } from "./reporter.js";
import type { Summary, Verdict } from "./verdict.js";

// `clusterwire validate -o json`: one document holding a result per input
// document and the summary, streamed result by result. Every result has the
// same keys, null where a value is unknown, so it is easy to query (jq).

/** One result as written: the verdict with a fixed set of keys. */
export function verdictJson(v: Verdict): Record<string, unknown> {
  return {
    file: v.file,
    document: v.document ?? null,
    ...(v.item !== undefined ? { item: v.item } : {}),
    ...(v.event !== undefined ? { event: v.event } : {}),
    line: v.line ?? null,
    apiVersion: v.apiVersion ?? null,
    kind: v.kind ?? null,
    namespace: v.namespace ?? null,
    name: v.name ?? null,
    ...(v.generateName !== undefined ? { generateName: v.generateName } : {}),
    status: v.status,
    errors: v.errors,
    refusals: v.refusals,
    warnings: v.warnings,
    ...(v.failure !== undefined ? { error: v.failure } : {}),
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
    ...(v.response !== undefined ? { response: v.response } : {}),
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
