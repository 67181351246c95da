#!/usr/bin/env node
// Regenerates every golden file of the YAML reader from Go (issue 17), so
// that `npm test` checks clusterwire against the YAML code kubectl and the API
// server link without Go. The answers come from our own Go program,
// conformance/yaml-oracle, a Go module pinned to the exact modules of a
// Kubernetes release (k8s.io/apimachinery's YAML reader, sigs.k8s.io/yaml,
// go.yaml.in/yaml/v2), built in module mode (scripts/ensure-go-yaml.mjs checks
// Go is there):
//
//   npm run yaml-golden                          (ensure-go-yaml, build: this reads dist/)
//   npm run yaml-golden -- --kubernetes v1.37.2  (another release's modules; default v1.35.4)
//
// - test/support/golden/yaml-block-scalars.json: a systematic corpus of YAML
//   block scalars (literal/folded, clip/strip/keep, explicit indentation,
//   trailing blank and whitespace-only lines, with and without a final
//   newline, CRLF, nested in mappings and sequences, before `---`/`...`), each
//   with what YAMLToJSON makes of every document; checked by
//   test/suites/yaml-block-scalars.test.ts.
// - test/support/golden/yaml-differential.json: the differential's golden
//   corpus (bench/yaml-differential/golden.ts: hand-written edge cases, the
//   minimised reproduction of every class the campaign found, a fixed-seed
//   slice of the generator), each text with the oracle's answer
//   (apimachinery's YAMLReader split, YAMLToJSON, YAMLToJSONStrict); checked by
//   test/suites/yaml-differential-golden.test.ts with the campaign's own
//   comparison.
//
// .ci/run runs this and fails if a golden file changed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "test/support/golden/yaml-block-scalars.json");
const differentialOut = join(root, "test/support/golden/yaml-differential.json");

function fail(message) {
  console.error(`yaml-golden: ${message}`);
  process.exit(1);
}

// --- The corpus ------------------------------------------------------------

/**
 * Where the scalar sits: the text before its header, the column its parent
 * block starts at (what an explicit indentation indicator counts from) and
 * the column its content is written at.
 */
const CONTEXTS = {
  map: { prefix: "a: ", content: 2 },
  annotation: { prefix: "metadata:\n  annotations:\n    note: ", content: 6 },
  seq: { prefix: "- ", content: 2 },
  "seq-map": { prefix: "- name: n\n  note: ", content: 4 },
  "map-seq": { prefix: "a:\n- ", content: 2 },
  root: { prefix: "--- ", content: 2 },
};

/**
 * Bodies, one entry a line: text at the content column, "" an empty line,
 * { ws: d } a line of only spaces, d columns from the content column (so
 * -1 is less indented, 0 exactly at it, +1 more indented: content).
 */
const BODIES = {
  one: ["x"],
  two: ["a", "b"],
  "blank-between": ["a", "", "b"],
  "more-indented": ["a", "  b", "c"],
  "trailing-blank": ["x", ""],
  "trailing-blanks": ["x", "", ""],
  empty: [],
  "blank-only": [""],
  "ws-less": ["x", { ws: -1 }],
  "ws-at": ["x", { ws: 0 }],
  "ws-more": ["x", { ws: 1 }],
  "blank-then-ws-more": ["x", "", { ws: 1 }],
  "ws-only": [{ ws: 0 }],
  "ws-only-more": [{ ws: 1 }],
  "leading-blank": ["", "x"],
  "trailing-spaces": ["x  "],
};

/** What follows the last body line. */
const ENDINGS = {
  eof: "",
  newline: "\n",
  "doc-start": "\n---\nb: 1\n",
  "doc-start-eof": "\n---",
  "doc-end": "\n...\n",
  "doc-end-eof": "\n...",
  "comment-eof": "\n# c",
};

const STYLES = ["|", ">"];
const CHOMPS = ["", "-", "+"];

function render({ context, style, chomp, indicator, body, ending, crlf }) {
  const ctx = CONTEXTS[context];
  const header = style + (indicator === "before" ? `2${chomp}` : indicator === "after" ? `${chomp}2` : chomp);
  const lines = BODIES[body].map((l) =>
    typeof l === "string" ? (l === "" ? "" : " ".repeat(ctx.content) + l) : " ".repeat(ctx.content + l.ws),
  );
  let text = ctx.prefix + header + (lines.length > 0 ? "\n" + lines.join("\n") : "") + ENDINGS[ending];
  if (crlf) text = text.replace(/\n/g, "\r\n");
  return text;
}

function* corpus() {
  const all = (o) => Object.keys(o);
  // Every style, chomping, body and ending, in a mapping.
  for (const style of STYLES)
    for (const chomp of CHOMPS)
      for (const body of all(BODIES))
        for (const ending of all(ENDINGS))
          yield { context: "map", style, chomp, indicator: "none", body, ending, crlf: false };
  // Explicit indentation indicators, before and after the chomping indicator.
  for (const indicator of ["before", "after"])
    for (const style of STYLES)
      for (const chomp of CHOMPS)
        for (const body of all(BODIES))
          for (const ending of ["eof", "newline"])
            yield { context: "map", style, chomp, indicator, body, ending, crlf: false };
  // Every context, at the end of input and before a document marker.
  for (const context of all(CONTEXTS))
    for (const indicator of ["none", "before"])
      for (const style of STYLES)
        for (const chomp of CHOMPS)
          for (const body of ["one", "trailing-blank", "ws-more", "ws-only-more", "empty"])
            for (const ending of ["eof", "newline", "doc-start-eof", "doc-end"])
              yield { context, style, chomp, indicator, body, ending, crlf: false };
  // CRLF line breaks.
  for (const style of STYLES)
    for (const chomp of CHOMPS)
      for (const body of all(BODIES))
        for (const ending of ["eof", "newline", "doc-end"])
          yield { context: "map", style, chomp, indicator: "none", body, ending, crlf: true };
}

/** Block scalars go-yaml refuses (or reads oddly), written out. */
const MALFORMED = [
  "a: |0\n  x\n",
  "a: |10\n  x\n",
  "a: |+-\n  x\n",
  "a: |x\n  x\n",
  "a: | x\n  y\n",
  "a: |\n\tx\n",
  "a: |\n  x\n\ty",
  "a: |\n    \n  x\n",
  "a: |\n    \n  x",
  "a: |2\n x\n",
  "a: |2\n x",
  "a: |1\n  x",
  "a: |1\n  x\n   ",
  "a: |\n  x\n y",
  "a: |\n  x\n  y: 1",
  "a: |\n  x\n   y",
  "a: >\n  x\n\n  y",
  "a: >\n  x\n \n  y",
  "a: >\n  x\n\t\n  y",
  "a: >\n   x\n  y\n   z",
  "a: |\n  x\n \n",
  "a: |\n  x\n \n ",
  "a: |+\n  x\n \n ",
  "a: |\n\n",
  "a: |+\n\n\n",
  "a: |+\n\n\n ",
  "a: |\n  x\nb: |\n  y",
  "a: |\n  x\nb: >+\n  y",
  "- |\n  x\n- >\n  y",
  "- |+\n  x\n\n- >-\n  y",
  "a: |\n  x\u2028y",
  "a: |\n  x\u2028  y\n",
  "a: >\n  x\u2029  y\n",
  "a: |\n  x\ry",
  "a: |\n  x\r",
  "a: |+\n  x\r\r",
  "a: |\n  x\u0085",
  "--- |\n x\n--- >\n y",
  "--- |+\n x\n\n...\n--- >\n y",
  "|\n x",
  "|+\n x\n\n",
  ">\n x\n y",
  "--- |",
  "--- |+\n",
  "--- |+\n\n",
];

/** Non-ASCII (U+2028, NEL, ...) as \u escapes in JSON text, so that names and the file show it. */
const ascii = (json) => json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const seen = new Set();
const cases = [];
for (const c of corpus()) {
  const yaml = render(c);
  if (seen.has(yaml)) continue;
  seen.add(yaml);
  const name = `${c.context} ${c.style}${c.chomp}${c.indicator === "none" ? "" : ` indent-${c.indicator}`} ${c.body} ${c.ending}${c.crlf ? " crlf" : ""}`;
  cases.push({ name, yaml });
}

for (const yaml of MALFORMED) {
  if (seen.has(yaml)) continue;
  seen.add(yaml);
  cases.push({ name: `written ${ascii(JSON.stringify(yaml))}`, yaml });
}

// --- The oracle ------------------------------------------------------------

const kubernetesAt = process.argv.indexOf("--kubernetes");
const compiled = (p) => join(root, "dist/bench/yaml-differential", p);
if (!existsSync(compiled("golden.js")))
  fail("dist/bench/yaml-differential/ is missing: run `npm run build` first (npm run yaml-golden does).");
const { Oracle, buildOracle, oracleVersion, DEFAULT_KUBERNETES } = await import(
  pathToFileURL(compiled("oracle.js")).href
);
const kubernetes = kubernetesAt >= 0 ? process.argv[kubernetesAt + 1] : DEFAULT_KUBERNETES;
let binary;
try {
  binary = buildOracle(root, kubernetes);
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
const version = oracleVersion(binary);
const run = spawnSync(binary, [], {
  input: cases.map((c) => `${JSON.stringify(c.yaml)}\n`).join(""),
  encoding: "utf8",
  maxBuffer: 64 << 20,
});
if (run.error !== undefined || run.status !== 0) fail(`the Go oracle failed:\n${run.error?.message ?? run.stderr}`);
const batch = run.stdout
  .split("\n")
  .filter((l) => l !== "")
  .map((l) => JSON.parse(l));
if (batch.length !== cases.length) fail(`the oracle gave ${batch.length} answers for ${cases.length} texts`);
/** `json` (one JSON text per non-null value) or `error`, under the given key names. */
const outcome = (docs, json, error) => {
  const failed = docs.find((d) => d.error !== undefined);
  if (failed !== undefined) return { [error]: failed.error };
  return { [json]: docs.filter((d) => d.json !== "null").map((d) => d.json) };
};
const answers = batch.map((a) => ({
  // kubectl's reading: split into documents, YAMLToJSON on each.
  ...(a.splitError !== undefined ? { error: a.splitError } : outcome(a.docs, "json", "error")),
  // The API server's reading: YAMLToJSON on the raw text.
  ...outcome([a.body], "serverJson", "serverError"),
}));
const golden = {
  about:
    "YAML block scalars read by go-yaml v2 + sigs.k8s.io/yaml: json/error as kubectl reads a file (split into documents by apimachinery's YAMLReader, YAMLToJSON on each), serverJson/serverError as the API server reads a body (YAMLToJSON on the raw text). Generated by `npm run yaml-golden` (scripts/yaml-golden.mjs, conformance/yaml-oracle); do not edit.",
  oracle: version,
  cases: cases.map((c, i) => ({ ...c, ...answers[i] })),
};
mkdirSync(dirname(out), { recursive: true });
// One case a line, so that a regenerated file diffs case by case.
const lines = golden.cases.map((c) => "  " + ascii(JSON.stringify(c)));
writeFileSync(
  out,
  `{\n "about": ${JSON.stringify(golden.about)},\n "oracle": ${JSON.stringify(golden.oracle)},\n "cases": [\n${lines.join(",\n")}\n ]\n}\n`,
);
const errors = golden.cases.filter((c) => "error" in c).length;
console.log(`yaml-golden: ${cases.length} cases (${errors} errors in Go) -> ${out.slice(root.length + 1)}`);

// --- The differential's golden corpus -----------------------------------------

const { buildGoldenCorpus } = await import(pathToFileURL(compiled("golden.js")).href);
const oracle = new Oracle(binary);
let differential;
try {
  differential = await buildGoldenCorpus(root, oracle);
} finally {
  oracle.close();
}
const header = {
  about:
    "Texts with what go-yaml v2 + sigs.k8s.io/yaml make of them: conformance/yaml-oracle (apimachinery's YAMLReader split; YAMLToJSON and YAMLToJSONStrict per document; the raw text as a request body). Generated by `npm run yaml-golden` (scripts/yaml-golden.mjs, bench/yaml-differential/golden.ts); do not edit.",
  oracle: version,
  generator: { seed: differential.seed, count: differential.count, objects: differential.objects },
};
writeFileSync(
  differentialOut,
  `{\n${Object.entries(header)
    .map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)},\n`)
    .join("")} "cases": [\n${differential.cases.map((c) => "  " + ascii(JSON.stringify(c))).join(",\n")}\n ]\n}\n`,
);
const byGroup = {};
for (const c of differential.cases) byGroup[c.group] = (byGroup[c.group] ?? 0) + 1;
console.log(
  `yaml-golden: ${differential.cases.length} texts (${Object.entries(byGroup)
    .map(([g, n]) => `${n} ${g}`)
    .join(", ")}) -> ${differentialOut.slice(root.length + 1)}`,
);
