// The judgement of an expectations file as JUnit XML, which CI dashboards (GitLab, Jenkins,
// GitHub test reporters) read: one testsuite, one testcase per expectation, and for a failing one
// a <failure> whose message says how many pairs broke it and whose body says where the
// expectation is (FILE:LINE:COLUMN) and lists the pairs explained. Passing testcases carry no
// line: finding one reads the file again (parse.ts), so only failures are placed.

import { failureLines } from "./format.js";
import type { ExpectationResult } from "./types.js";

/**
 * Options of {@link junitXml}.
 *
 * @example
 * ```ts
 * import type { JunitOptions } from "clusterwire/connectivity";
 *
 * const options: JunitOptions = { suiteName: "shop connectivity" };
 * ```
 */
export interface JunitOptions {
  /** The testsuite's name, also each testcase's classname. Default `clusterwire expectations`. */
  readonly suiteName?: string;
}

/**
 * The results as a JUnit XML report: a `<testsuites>` holding one `<testsuite>` with one
 * `<testcase>` per expectation (its name and file), a failing one with a
 * `<failure>` whose message counts the pairs that broke it and whose body lists them with their
 * deciding policies. Text is escaped for XML, and characters XML cannot carry become U+FFFD.
 *
 * @example
 * ```ts
 * import { analyzeConnectivity, type ConnectivityInput } from "clusterwire/networking";
 * import { checkExpectations, junitXml, parseExpectations } from "clusterwire/connectivity";
 *
 * const input: ConnectivityInput = {
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web" },
 *     { namespace: "shop", kind: "Deployment", name: "db" },
 *   ],
 *   policies: [],
 * };
 * const expectations = parseExpectations("expectations:\n  - deny: {from: shop/web, to: shop/db, port: 5432}\n");
 * const xml = junitXml(checkExpectations(analyzeConnectivity(input), expectations, { input }), { suiteName: "shop" });
 * console.log(xml.includes('<testsuite name="shop" tests="1" failures="1"')); // true
 * ```
 */
export function junitXml(results: readonly ExpectationResult[], options: JunitOptions = {}): string {
  const suite = options.suiteName ?? "clusterwire expectations";
  const failures = results.filter((r) => !r.passed).length;
  const counts = `tests="${results.length}" failures="${failures}" errors="0"`;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attribute(suite)}" ${counts}>`,
    `  <testsuite name="${attribute(suite)}" ${counts} skipped="0">`,
  ];
  for (const r of results) {
    const e = r.expectation;
    const head = `    <testcase name="${attribute(e.name)}" classname="${attribute(suite)}" file="${attribute(e.at.file)}"`;
    if (r.passed) {
      out.push(`${head}/>`);
      continue;
    }
    const message = `${r.failed} of ${r.checked} pairs break it: ${e.text}`;
    const body = [`${e.at.file}:${e.at.line}:${e.at.column}: ${e.text}`, ...failureLines(r)].join("\n");
    out.push(`${head}>`);
    out.push(`      <failure message="${attribute(message)}" type="${e.kind}">${text(body)}</failure>`);
    out.push("    </testcase>");
  }
  out.push("  </testsuite>", "</testsuites>");
  return `${out.join("\n")}\n`;
}

/**
 * `s` with each character XML 1.0 cannot carry at all replaced by U+FFFD: controls other than
 * tab, line feed and carriage return, lone surrogates, and U+FFFE and U+FFFF.
 */
function xmlChars(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += s[i] + (s[i + 1] ?? "");
        i++;
      } else out += "\uFFFD";
      continue;
    }
    const bad = (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0xdc00 && c <= 0xdfff) || c >= 0xfffe;
    out += bad ? "\uFFFD" : s[i];
  }
  return out;
}

/** Element text: `&`, `<` and `>` escaped. */
function text(s: string): string {
  return xmlChars(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A double-quoted attribute value: also `"`, and the line breaks and tabs that a parser would fold into spaces. */
function attribute(s: string): string {
  return text(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}
