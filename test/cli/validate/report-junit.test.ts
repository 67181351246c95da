import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { junitReporter } from "../../../src/cli/validate/report-junit.js";
import type { FileVerdicts, Verdict } from "../../../src/cli/shared/verdict.js";
import { anyFiles, fieldError, HOSTILE, render, SAMPLE, verdict } from "../../support/verdicts.js";

// The JUnit output parsed as XML: its structure as CI consumers read it, and
// well-formedness whatever the messages and file names hold.

interface Attrs {
  readonly [name: `@_${string}`]: string;
}
interface Outcome extends Attrs {
  readonly "#text"?: string;
}
interface TestCase extends Attrs {
  readonly failure?: Outcome;
  readonly error?: Outcome;
  readonly skipped?: Outcome | "";
  readonly "system-out"?: string;
}
interface TestSuite extends Attrs {
  readonly testcase?: TestCase[];
}
interface Report {
  readonly testsuites: Attrs & { readonly testsuite?: TestSuite[]; readonly "#comment"?: string };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // Numeric character references (&#10;) decoded, so values compare with what went in.
  htmlEntities: true,
  commentPropName: "#comment",
  isArray: (name) => name === "testsuite" || name === "testcase",
});

function parse(xml: string): Report {
  expectWellFormed(xml);
  return parser.parse(xml) as Report;
}

// Characters XML 1.0 allows (production [2] Char), over code points.
const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
const REF = "&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);";
const NAME = "[A-Za-z_][A-Za-z0-9_.-]*";
// The markup the reporter writes, lexically: a declaration, tags with double-quoted attributes,
// comments, and text. fast-xml-parser's validator checks nesting but lets a raw `<` in an
// attribute, `]]>` in text, a bad `&` or a control character through, so those are checked here;
// and tabs and line breaks in attributes too, which a conforming parser would turn into spaces.
const TOKEN = new RegExp(
  `<\\?xml[^?>]*\\?>|<${NAME}(?:\\s+${NAME}="(?:[^<&"\t\n\r]|${REF})*")*\\s*/?>|</${NAME}\\s*>` +
    `|<!--(?:[^-]|-(?!-))*-->|(?:[^<&]|${REF})+`,
  "y",
);

function expectWellFormed(xml: string): void {
  expect(XML_CHAR.test(xml), "only XML 1.0 characters").toBe(true);
  expect(XMLValidator.validate(xml)).toBe(true);
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < xml.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(xml);
    expect(m, `markup at ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`).not.toBeNull();
    if (m === null) return;
    if (!m[0].startsWith("<")) expect(m[0]).not.toContain("]]>");
  }
}

/** What a value becomes in the XML: lone surrogates and characters XML cannot hold are U+FFFD. */
function asXml(s: string): string {
  return s
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, "\ufffd");
}

function suites(xml: string): TestSuite[] {
  return parse(xml).testsuites.testsuite ?? [];
}

describe("junitReporter", () => {
  it("writes one testsuite per file and one testcase per verdict, with the per-file counts", () => {
    const report = parse(render(junitReporter(), SAMPLE));
    expect(report.testsuites["@_name"]).toBe("clusterwire validate");
    const all = report.testsuites.testsuite ?? [];
    expect(all.map((s) => s["@_name"])).toEqual(SAMPLE.map((f) => f.file));
    expect(all.map((s) => [s["@_tests"], s["@_failures"], s["@_errors"], s["@_skipped"]])).toEqual([
      ["4", "1", "1", "1"],
      ["2", "1", "0", "0"],
      ["3", "1", "1", "0"],
      ["1", "1", "0", "0"],
      ["1", "0", "0", "1"],
      ["0", "0", "0", "0"],
    ]);
    const names = all.map((s) => (s.testcase ?? []).map((c) => c["@_name"]));
    expect(names).toEqual([
      [
        "Ingress shop/web (document 1)",
        "Deployment shop/web (document 2)",
        "document 3",
        "IngressClass nginx (document 4)",
      ],
      ["NetworkPolicy default/deny-all (document 1 items[0])", "NetworkPolicy other/allow (document 1 items[1])"],
      ["Ingress shop/web (event 1 ADDED)", "Ingress shop/web (event 3 MODIFIED)", "document 4"],
      ["IngressClass nginx (event 2 DELETED)"],
      ["whole file"],
      [],
    ]);
    for (const s of all) {
      for (const c of s.testcase ?? []) {
        expect(c["@_classname"]).toBe(s["@_name"]);
        expect(c["@_file"]).toBe(s["@_name"]);
      }
    }
    expect(report.testsuites["#comment"]).toBe(
      " clusterwire validate: files=6 documents=11 valid=3 invalid=4 problems=6 skipped=2 errors=2 warnings=2 ",
    );
  });

  it("lists every field error and refusal of an invalid document in its failure, with line:column when known", () => {
    const [shop, list, watch] = suites(render(junitReporter(), SAMPLE));
    const ingress = shop?.testcase?.[0];
    expect(ingress?.["@_line"]).toBe("1");
    expect(ingress?.failure?.["@_type"]).toBe("invalid");
    expect(ingress?.failure?.["@_message"]).toBe(
      `spec.rules[0].host: Invalid value: "*": must start with '*.' (and 1 more)`,
    );
    expect(ingress?.failure?.["#text"]).toBe(
      [
        `deploy/shop.yaml:9:13 Ingress shop/web: spec.rules[0].host: Invalid value: "*": must start with '*.'`,
        "deploy/shop.yaml:12:11 Ingress shop/web: spec.rules[0].http.paths[0].backend: Required value",
      ].join("\n"),
    );
    expect(ingress?.["system-out"]).toBe(
      'deploy/shop.yaml:16:7 Ingress shop/web: warning: unknown field "spec.tls[0].hostz"',
    );
    // A refusal without a position falls back to the document's line.
    expect(list?.testcase?.[1]?.failure?.["#text"]).toBe(
      "deploy/lists/ingress list.yaml:14 items[1] NetworkPolicy other/allow: " +
        "the namespace of the provided object does not match the namespace sent on the request",
    );
    // Binary input has no lines at all.
    const modified = watch?.testcase?.[1];
    expect(modified?.["@_line"]).toBeUndefined();
    expect(modified?.failure?.["#text"]).toBe(
      [
        'captures/watch.pb (event 3 MODIFIED) Ingress shop/web: spec.rules[0].http.paths[0].pathType: Unsupported value: "Any"',
        "captures/watch.pb (event 3 MODIFIED) Ingress shop/web: resourceVersion should not be set on objects to be created",
      ].join("\n"),
    );
  });

  it("writes decode failures as errors, skips with their reason, and valid documents as passing", () => {
    const [shop, , watch, , broken] = suites(render(junitReporter(), SAMPLE));
    const error = shop?.testcase?.[2]?.error;
    expect(error?.["@_message"]).toBe("yaml: line 43: mapping values are not allowed in this context");
    expect(error?.["#text"]).toBe(
      "deploy/shop.yaml:43:7: yaml: line 43: mapping values are not allowed in this context",
    );
    expect(watch?.testcase?.[2]?.error?.["#text"]).toBe(
      "captures/watch.pb: proto: cannot parse invalid wire-format data (byte offset 1234)",
    );
    expect(shop?.testcase?.[1]?.skipped).toMatchObject({
      "@_message": "apps/v1 Deployment is not a networking.k8s.io/v1 kind",
    });
    expect(broken?.testcase?.[0]?.skipped).toMatchObject({
      "@_message": "not a Kubernetes manifest: no apiVersion or kind",
    });
    const valid = shop?.testcase?.[3];
    expect(valid?.failure ?? valid?.error ?? valid?.skipped).toBeUndefined();
    expect(valid?.["system-out"]).toBe(
      "deploy/shop.yaml:50 IngressClass nginx: warning: metadata.annotations: deprecated annotation",
    );
  });

  it("stays well-formed, and keeps the text, whatever messages and file names hold", () => {
    const hostile = HOSTILE.join("");
    const file = `dir/${hostile}.yaml`;
    const v: Verdict = verdict(file, {
      document: 1,
      line: 3,
      kind: hostile,
      namespace: hostile,
      name: hostile,
      status: "invalid",
      errors: [fieldError("FieldValueInvalid", hostile, hostile, { line: 4, column: 2 })],
      warnings: [{ message: hostile }],
    });
    const others: Verdict[] = [
      verdict(file, { document: 2, status: "error", failure: { message: hostile } }),
      verdict(file, { document: 3, status: "skipped", reason: hostile }),
    ];
    const xml = render(junitReporter(), [{ file, verdicts: [v, ...others] }]);
    expect(xml).not.toMatch(/\]\]>/);
    const [suite] = suites(xml);
    expect(suite?.["@_name"]).toBe(asXml(file));
    const [invalid, error, skipped] = suite?.testcase ?? [];
    expect(invalid?.["@_name"]).toBe(asXml(`${hostile} ${hostile}/${hostile} (document 1)`));
    expect(invalid?.failure?.["@_message"]).toBe(asXml(`${hostile}: ${hostile}`));
    expect(invalid?.failure?.["#text"]).toBe(
      asXml(`${file}:4:2 ${hostile} ${hostile}/${hostile}: ${hostile}: ${hostile}`),
    );
    expect(invalid?.["system-out"]).toBe(asXml(`${file}:3 ${hostile} ${hostile}/${hostile}: warning: ${hostile}`));
    expect(error?.error?.["@_message"]).toBe(asXml(hostile));
    expect(skipped?.skipped).toMatchObject({ "@_message": asXml(hostile) });
  });

  it("yields well-formed XML with the same files and verdicts for any input", () => {
    fc.assert(
      fc.property(anyFiles, (files: FileVerdicts[]) => {
        const all = suites(render(junitReporter(), files));
        expect(all.map((s) => s["@_name"])).toEqual(files.map((f) => asXml(f.file)));
        expect(all.map((s) => (s.testcase ?? []).length)).toEqual(files.map((f) => f.verdicts.length));
        expect(all.map((s) => s["@_tests"])).toEqual(files.map((f) => String(f.verdicts.length)));
        for (const [i, s] of all.entries()) {
          for (const [j, c] of (s.testcase ?? []).entries()) {
            const status = files[i]?.verdicts[j]?.status;
            expect(status === "invalid").toBe(c.failure !== undefined);
            expect(status === "error").toBe(c.error !== undefined);
            expect(status === "skipped").toBe(c.skipped !== undefined);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("streams: each file's text stands alone, its size bounded by that file", () => {
    const reporter = junitReporter();
    const start = reporter.start();
    let longest = 0;
    const files = 10_000;
    for (let i = 0; i < files; i++) {
      const file = `tree/${i}/ingress.yaml`;
      longest = Math.max(
        longest,
        reporter.file({ file, verdicts: SAMPLE[0]?.verdicts.map((v) => ({ ...v, file })) ?? [] }).length,
      );
    }
    expect(longest).toBeLessThan(3000);
    expect(
      start +
        reporter.end({ files, documents: 0, valid: 0, invalid: 0, skipped: 0, errors: 0, problems: 0, warnings: 0 }),
    ).toContain(`files=${files}`);
  });
});
