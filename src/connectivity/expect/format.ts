// The judgement of an expectations file as text, for a terminal or a CI log: one line per
// expectation, and under each failing one the pairs that broke it with their deciding policies.

import { formatConnectionSet } from "../../networking/index.js";
import { describeExplanation } from "../report/explain.js";
import type { ExpectationFailure, ExpectationResult } from "./types.js";

/**
 * The results as text: `PASS` or `FAIL` and the name of each expectation with the pairs judged;
 * under a failing one, where it is in the file, each listed pair with what offends and, on the
 * next line, the deciding policies as the other reports word them (the rules that allow it, or
 * the policies that isolate it), and how many more pairs failed; last, a summary line.
 *
 * @example
 * ```ts
 * import { analyzeConnectivity, type ConnectivityInput } from "clusterwire/networking";
 * import { checkExpectations, formatExpectationResults, parseExpectations } from "clusterwire/connectivity";
 *
 * const input: ConnectivityInput = {
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web" },
 *     { namespace: "shop", kind: "Deployment", name: "api" },
 *   ],
 *   policies: [],
 * };
 * const expectations = parseExpectations("expectations:\n  - allow: {from: shop/web, to: shop/api, port: 8080}\n");
 * console.log(formatExpectationResults(checkExpectations(analyzeConnectivity(input), expectations, { input })));
 * // PASS  allow shop/web => shop/api on TCP 8080 (1 pair)
 * //
 * // 1 expectation passed.
 * ```
 */
export function formatExpectationResults(results: readonly ExpectationResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    const e = r.expectation;
    const pairs = r.passed ? count(r.checked, "pair") : `${r.failed} of ${count(r.checked, "pair")} failed`;
    out.push(`${r.passed ? "PASS" : "FAIL"}  ${e.name} (${pairs})`);
    if (r.passed) continue;
    out.push(`      ${e.at.file}:${e.at.line}:${e.at.column}: ${e.text}`);
    for (const line of failureLines(r)) out.push(`      ${line}`);
  }
  const failed = results.filter((r) => !r.passed).length;
  out.push("");
  out.push(
    failed === 0
      ? `${count(results.length, "expectation")} passed.`
      : `${failed} of ${count(results.length, "expectation")} failed.`,
  );
  return `${out.join("\n")}\n`;
}

/** The listed failing pairs of a result, explained, and how many more there are. */
export function failureLines(r: ExpectationResult): string[] {
  const out: string[] = [];
  for (const f of r.failures) {
    out.push(`${f.from.key} => ${f.to.key}: ${offence(r, f)}`);
    out.push(`  ${describeExplanation(f.explanation)}`);
  }
  const more = r.failed - r.failures.length;
  if (more > 0) out.push(`... and ${count(more, "more pair")}`);
  return out;
}

function offence(r: ExpectationResult, f: ExpectationFailure): string {
  if (r.expectation.kind === "allow") {
    return `${formatConnectionSet(f.offending)} not allowed (allowed: ${formatConnectionSet(f.allowed)})`;
  }
  return `${formatConnectionSet(f.offending)} allowed`;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}
