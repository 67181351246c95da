/**
 * Block scalars against go-yaml v2 + sigs.k8s.io/yaml, the Go libraries the
 * API server and kubectl read YAML with. The answers in the golden file come
 * from our Go oracle (scripts/yaml-oracle); `npm run yaml-golden` regenerates
 * them. This test needs no Go.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fromYaml, toJson } from "../../src/networking/index.js";
import type { JsonValue } from "../../src/networking/index.js";
import { parseYamlDocuments } from "../../src/networking/text/yaml-parse.js";

interface GoldenCase {
  readonly name: string;
  readonly yaml: string;
  /** YAMLToJSON's output for each non-null document. */
  readonly json?: readonly string[];
  readonly error?: string;
}
const golden = JSON.parse(
  readFileSync(new URL("../support/golden/yaml-block-scalars.json", import.meta.url), "utf8"),
) as {
  readonly cases: readonly GoldenCase[];
};

/**
 * Differences found by the corpus and not fixed yet, with why. Each must still
 * differ (so that a fix removes it from here); nothing else may.
 */
const KNOWN: Readonly<Record<string, string>> = {
  // go-yaml breaks lines at U+2028/U+2029 inside block scalars too (keeping the
  // character, dropping the next line's indentation); clusterwire's reader
  // does that only for flow scalars. A source-level change, not a chomping one.
  'written "a: |\\n  x\\u2028y"': "U+2028 is a line break in a block scalar",
  'written "a: |\\n  x\\u2028  y\\n"': "U+2028 is a line break in a block scalar",
  'written "a: >\\n  x\\u2029  y\\n"': "U+2029 is a line break in a block scalar",
};

function read(text: string): { json: JsonValue[] } | { error: string } {
  try {
    return { json: parseYamlDocuments(text) };
  } catch (e) {
    return { error: String(e) };
  }
}

/** One line per disagreement, to show them all at once. */
function describeMismatch(c: GoldenCase, got: ReturnType<typeof read>): string | undefined {
  const want = c.json?.map((j) => JSON.parse(j) as JsonValue);
  if (want === undefined)
    return "error" in got
      ? undefined
      : `${c.name}: Go refuses (${c.error}), clusterwire reads ${JSON.stringify(got.json)}`;
  if ("error" in got) return `${c.name}: Go reads ${JSON.stringify(want)}, clusterwire refuses (${got.error})`;
  return JSON.stringify(got.json) === JSON.stringify(want)
    ? undefined
    : `${c.name}: ${JSON.stringify(c.yaml)} Go ${JSON.stringify(want)}, clusterwire ${JSON.stringify(got.json)}`;
}

describe("YAML block scalars agree with go-yaml v2 (golden file from the Go oracle)", () => {
  it("has a corpus", () => {
    expect(golden.cases.length).toBeGreaterThan(300);
  });

  it("reads every case as YAMLToJSON does, and refuses what Go refuses", () => {
    const mismatches = golden.cases
      .filter((c) => KNOWN[c.name] === undefined)
      .map((c) => describeMismatch(c, read(c.yaml)))
      .filter((m) => m !== undefined);
    expect(mismatches).toEqual([]);
  });

  it("still differs from Go where a difference is listed as known (remove it once fixed)", () => {
    const names = Object.keys(KNOWN);
    const cases = golden.cases.filter((c) => KNOWN[c.name] !== undefined);
    expect(cases.map((c) => c.name).sort()).toEqual([...names].sort());
    expect(cases.filter((c) => describeMismatch(c, read(c.yaml)) === undefined).map((c) => c.name)).toEqual([]);
  });

  it("keeps the scalar exactly in an Ingress annotation (fromYaml, toJson)", () => {
    const cases = golden.cases.filter((c) => c.name.startsWith("annotation ") && c.json !== undefined);
    expect(cases.length).toBeGreaterThan(20);
    const mismatches: string[] = [];
    for (const c of cases) {
      const text = `apiVersion: networking.k8s.io/v1\nkind: Ingress\n${c.yaml}`;
      const want = (JSON.parse(c.json?.[0] ?? "null") as { metadata: { annotations: { note: string } } }).metadata
        .annotations.note;
      const [ingress] = fromYaml(text);
      const got = (toJson(ingress!) as { metadata?: { annotations?: { note?: string } } }).metadata?.annotations?.note;
      if (got !== want) mismatches.push(`${c.name}: Go ${JSON.stringify(want)}, clusterwire ${JSON.stringify(got)}`);
    }
    expect(mismatches).toEqual([]);
  });
});
