/**
 * Block scalars against go-yaml v2 + sigs.k8s.io/yaml, the Go libraries the
 * API server and kubectl read YAML with. The answers in the golden file come
 * from our Go oracle (conformance/yaml-oracle); `npm run yaml-golden` regenerates
 * them. This test needs no Go.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fromYaml, toJson } from "../../src/networking/index.js";
import type { JsonValue } from "../../src/networking/index.js";
import { parseYamlDocuments, type YamlReading } from "../../src/networking/text/yaml/parse.js";

interface GoldenCase {
  readonly name: string;
  readonly yaml: string;
  /** kubectl's reading (split, then YAMLToJSON per document): each non-null document's JSON. */
  readonly json?: readonly string[];
  readonly error?: string;
  /** The API server's reading (YAMLToJSON on the raw text): its JSON unless null. */
  readonly serverJson?: readonly string[];
  readonly serverError?: string;
}
const golden = JSON.parse(
  readFileSync(new URL("../support/golden/yaml-block-scalars.json", import.meta.url), "utf8"),
) as {
  readonly cases: readonly GoldenCase[];
};

function read(text: string, reading: YamlReading): { json: JsonValue[] } | { error: string } {
  try {
    return { json: parseYamlDocuments(text, { reading }) };
  } catch (e) {
    return { error: String(e) };
  }
}

/** One line per disagreement, to show them all at once. */
function describeMismatch(c: GoldenCase, reading: YamlReading): string | undefined {
  const got = read(c.yaml, reading);
  const wantJson = reading === "kubectl" ? c.json : c.serverJson;
  const wantError = reading === "kubectl" ? c.error : c.serverError;
  const want = wantJson?.map((j) => JSON.parse(j) as JsonValue);
  if (want === undefined)
    return "error" in got
      ? undefined
      : `${c.name} (${reading}): Go refuses (${wantError}), clusterwire reads ${JSON.stringify(got.json)}`;
  if ("error" in got)
    return `${c.name} (${reading}): Go reads ${JSON.stringify(want)}, clusterwire refuses (${got.error})`;
  return JSON.stringify(got.json) === JSON.stringify(want)
    ? undefined
    : `${c.name} (${reading}): ${JSON.stringify(c.yaml)} Go ${JSON.stringify(want)}, clusterwire ${JSON.stringify(got.json)}`;
}

describe("YAML block scalars agree with go-yaml v2 (golden file from the Go oracle)", () => {
  it("has a corpus", () => {
    expect(golden.cases.length).toBeGreaterThan(300);
  });

  it("reads every case as kubectl does (split, then YAMLToJSON), and refuses what Go refuses", () => {
    expect(golden.cases.map((c) => describeMismatch(c, "kubectl")).filter((m) => m !== undefined)).toEqual([]);
  });

  it("reads every case as the API server does (YAMLToJSON on the raw text), and refuses what Go refuses", () => {
    expect(golden.cases.every((c) => c.serverJson !== undefined || c.serverError !== undefined)).toBe(true);
    expect(golden.cases.map((c) => describeMismatch(c, "server")).filter((m) => m !== undefined)).toEqual([]);
  });

  it("the two readings differ where kubectl's added final line break or its split changes the text", () => {
    // A literal scalar at the very end of the text: kubectl hands the line on
    // ending in LF, the server reads the text as it is.
    const eof = golden.cases.find((c) => c.name === "map | one eof");
    expect(eof?.json).toEqual(['{"a":"x\\n"}']);
    expect(eof?.serverJson).toEqual(['{"a":"x"}']);
    expect(read("a: |\n  x", "kubectl")).toEqual({ json: [{ a: "x\n" }] });
    expect(read("a: |\n  x", "server")).toEqual({ json: [{ a: "x" }] });
  });

  it("keeps the scalar exactly in an Ingress annotation (fromYaml, toJson)", () => {
    const cases = golden.cases.filter((c) => c.name.startsWith("annotation ") && c.json !== undefined);
    expect(cases.length).toBeGreaterThan(20);
    const mismatches: string[] = [];
    for (const c of cases) {
      const text = `apiVersion: networking.k8s.io/v1\nkind: Ingress\n${c.yaml}`;
      const want = (JSON.parse(c.json?.[0] ?? "null") as { metadata: { annotations: { note: string } } }).metadata
        .annotations.note;
      const [ingress] = fromYaml(text); // kubectl's reading, as the golden json
      const got = (toJson(ingress!) as { metadata?: { annotations?: { note?: string } } }).metadata?.annotations?.note;
      if (got !== want) mismatches.push(`${c.name}: Go ${JSON.stringify(want)}, clusterwire ${JSON.stringify(got)}`);
    }
    expect(mismatches).toEqual([]);
  });
});
