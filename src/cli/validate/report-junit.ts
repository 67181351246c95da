import { documentLabel, knownNumber, problems, type Reporter, wellFormed } from "../shared/reporter.js";
import { objectLabel } from "../shared/verdict.js";
import { describeVerdict, type FileVerdicts, type Summary, type Verdict } from "../shared/verdict.js";

// `clusterwire validate --output junit`: JUnit XML for CI test reports
// (GitLab, Jenkins, GitHub test-report actions). Each file is a <testsuite>,
// each verdict a <testcase>: valid passes, invalid fails, error errs and
// skipped is skipped.
//
//   <testsuites name="clusterwire validate">
//     <testsuite name=FILE tests= failures= errors= skipped=>
//       <testcase name="Ingress shop/web (document 2)" classname=FILE file=FILE line=>
//         <failure message= type="invalid">one line per field error and refusal</failure>
//         <system-out>one line per warning</system-out>
//       </testcase>
//     </testsuite>
//     <!-- totals -->
//   </testsuites>
//
// The root carries no totals: they are known only after the last file, and
// its attributes are written before the first (every count attribute of
// <testsuites> is optional in the common JUnit schemas, and consumers add up
// the suites). The totals go in a closing comment for people instead.
//
// The XML is written by hand, element by element, because it streams: the
// XML libraries at hand build a whole document in memory first. The one thing
// that takes care is text, escaped below for any input whatever.

export function junitReporter(): Reporter {
  return {
    start: () => `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="clusterwire validate">\n`,
    file: fileSuite,
    end: (s: Summary) =>
      `  <!-- clusterwire validate: files=${s.files} documents=${s.documents} valid=${s.valid} invalid=${s.invalid}` +
      ` problems=${s.problems} skipped=${s.skipped} errors=${s.errors} warnings=${s.warnings} -->\n</testsuites>\n`,
  };
}

function fileSuite(f: FileVerdicts): string {
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const v of f.verdicts) {
    if (v.status === "invalid") failures++;
    else if (v.status === "error") errors++;
    else if (v.status === "skipped") skipped++;
  }
  const open =
    `  <testsuite name="${attr(f.file)}" tests="${f.verdicts.length}" failures="${failures}"` +
    ` errors="${errors}" skipped="${skipped}"`;
  if (f.verdicts.length === 0) return `${open}/>\n`;
  return `${open}>\n${f.verdicts.map(testCase).join("")}  </testsuite>\n`;
}

function testCase(v: Verdict): string {
  const object = objectLabel(v);
  const where = documentLabel(v);
  const name = object === "" ? where : `${object} (${where})`;
  const line = knownNumber(v.line) ? ` line="${v.line}"` : "";
  const open = `    <testcase name="${attr(name)}" classname="${attr(v.file)}" file="${attr(v.file)}"${line}`;
  const body = outcome(v) + systemOut(v);
  return body === "" ? `${open}/>\n` : `${open}>\n${body}    </testcase>\n`;
}

/** <failure>, <error> or <skipped>, or nothing for a valid document. */
function outcome(v: Verdict): string {
  switch (v.status) {
    case "valid":
      return "";
    case "skipped":
      return v.reason === undefined ? "      <skipped/>\n" : `      <skipped message="${attr(v.reason)}"/>\n`;
    case "invalid": {
      const all = problems(v);
      const first = all[0]?.message ?? "the API server would refuse it";
      const message = all.length > 1 ? `${first} (and ${all.length - 1} more)` : first;
      const lines = all.map((p) => `${describeVerdict(v, p.position)}: ${p.message}`);
      return `      <failure message="${attr(message)}" type="invalid">${text(lines.join("\n"))}</failure>\n`;
    }
    case "error": {
      const f = v.failure;
      const message = f?.message ?? "cannot be read";
      const offset = f?.offset === undefined ? "" : ` (byte offset ${f.offset})`;
      const line = `${describeVerdict(v, f?.position)}: ${message}${offset}`;
      return `      <error message="${attr(message)}" type="error">${text(line)}</error>\n`;
    }
  }
}

function systemOut(v: Verdict): string {
  if (v.warnings.length === 0) return "";
  const lines = v.warnings.map((w) => `${describeVerdict(v, w.position)}: warning: ${w.message}`);
  return `      <system-out>${text(lines.join("\n"))}</system-out>\n`;
}

/** An attribute value in double quotes: tabs and line breaks as references, which attribute normalisation keeps. */
function attr(s: string): string {
  return xmlEscape(s, true);
}

/** Element text. `>` is escaped too, so `]]>` in a message cannot appear. */
function text(s: string): string {
  return xmlEscape(s, false);
}

/**
 * Escapes markup characters (and `"` in attributes, which are all written in
 * double quotes), and replaces what XML 1.0 cannot hold at all
 * (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF; lone surrogates)
 * with U+FFFD. A CR is always a reference: a parser would turn a literal one
 * into LF.
 */
function xmlEscape(raw: string, attribute: boolean): string {
  const s = wellFormed(raw);
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let sub: string;
    if (c === 0x26) sub = "&amp;";
    else if (c === 0x3c) sub = "&lt;";
    else if (c === 0x3e) sub = "&gt;";
    else if (c === 0x22 && attribute) sub = "&quot;";
    else if (c === 0x0d) sub = "&#13;";
    else if (c === 0x09 || c === 0x0a) {
      if (!attribute) continue;
      sub = c === 0x09 ? "&#9;" : "&#10;";
    } else if (c < 0x20 || c === 0xfffe || c === 0xffff) sub = "\ufffd";
    else continue;
    out += s.slice(from, i) + sub;
    from = i + 1;
  }
  return out + s.slice(from);
}
