/**
 * The YAML differential without Go: every text of the golden corpus
 * (test/support/golden/yaml-differential.json) read by clusterwire and
 * compared, with the campaign's own comparison (bench/yaml-differential/
 * differential.ts), against what go-yaml v2 + sigs.k8s.io/yaml answered when
 * `npm run yaml-golden` asked them: kubectl's reading (its split, then
 * YAMLToJSON and YAMLToJSONStrict per piece) and the API server's (the whole
 * text as one request body). Zero disagreements, in every mode of the
 * campaign: non-strict and strict, kubectl's reading and the server's, on
 * objects (after fromJson) and on raw YAML-to-JSON values (before it).
 * .ci/run regenerates the file with Go and fails if it changed.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MODES, ambiguity, compare, type Mode } from "../../bench/yaml-differential/differential.js";
import { EDGE_CASES } from "../../bench/yaml-differential/edge-cases.js";
import { GOLDEN_COUNT, GOLDEN_PROBES, GOLDEN_SEED, type GoldenCase } from "../../bench/yaml-differential/golden.js";
import { visible } from "../../bench/yaml-differential/visible.js";
import { REPRODUCTIONS } from "../../bench/yaml-differential/reproductions.js";

interface GoldenFile {
  readonly about: string;
  readonly oracle: string;
  readonly generator: { readonly seed: number; readonly count: number; readonly objects: number };
  readonly cases: readonly GoldenCase[];
}

const golden = JSON.parse(
  readFileSync(new URL("../support/golden/yaml-differential.json", import.meta.url), "utf8"),
) as GoldenFile;

/** The YAML modules the oracle's go.mod requires: [line, module path, version]. */
const PINNED = [
  ...readFileSync(new URL("../../conformance/yaml-oracle/go.mod", import.meta.url), "utf8").matchAll(
    /^\s*(k8s\.io\/apimachinery|sigs\.k8s\.io\/yaml|go\.yaml\.in\/yaml\/v2) (v\S+)$/gm,
  ),
];

const isString = (v: unknown): v is string => typeof v === "string";

/** Why a piece (a split document, or the body) has not exactly one of JSON and an error; undefined when it is well-formed. */
function malformedPiece(
  where: string,
  piece: { json?: unknown; error?: unknown; strictError?: unknown },
): string | undefined {
  if ((piece.json === undefined) === (piece.error === undefined))
    return `${where} has ${piece.json === undefined ? "neither json nor error" : "both json and error"}`;
  if (piece.json !== undefined) {
    if (!isString(piece.json)) return `${where}: json is not a string`;
    try {
      JSON.parse(piece.json);
    } catch {
      return `${where}: json is not JSON`;
    }
  }
  if (piece.error !== undefined && (!isString(piece.error) || piece.error === "")) return `${where}: empty error`;
  if (piece.error !== undefined && piece.strictError === undefined)
    return `${where}: YAMLToJSON refused it but YAMLToJSONStrict did not`;
  if (piece.strictError !== undefined && (!isString(piece.strictError) || piece.strictError === ""))
    return `${where}: empty strict error`;
  return undefined;
}

/** Why an answer is not one the oracle could give for `text`; undefined when it is well-formed. */
function malformed(text: string, answer: unknown): string | undefined {
  if (answer === null || typeof answer !== "object") return "not an object";
  const a = answer as { docs?: unknown; splitError?: unknown; body?: unknown; jsonStream?: unknown };
  // kubectl takes a text for JSON when its first non-space byte is `{` (here all within 4,096 bytes);
  // space as Go's unicode.IsSpace has it (NEL yes, BOM no, unlike JavaScript's \s).
  if (
    (a.jsonStream !== undefined) !==
    /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*\{/u.test(text)
  )
    return a.jsonStream === undefined ? "no jsonStream for a text that starts with {" : "a jsonStream for YAML";
  if (a.body === null || typeof a.body !== "object") return "no body (the server's reading)";
  const body = malformedPiece("the body", a.body as { json?: unknown });
  if (body !== undefined) return body;
  if (!Array.isArray(a.docs)) return "no docs array";
  if (a.splitError !== undefined && (!isString(a.splitError) || a.docs.length > 0))
    return "a split error with documents";
  for (const [i, d] of (a.docs as unknown[]).entries()) {
    if (d === null || typeof d !== "object") return `document ${i} is not an object`;
    const doc = d as { text?: unknown; json?: unknown; error?: unknown; strictError?: unknown };
    if (!isString(doc.text) || doc.text === "") return `document ${i} has no text`;
    if (!doc.text.endsWith("\n")) return `document ${i} does not end in a newline, as kubectl's split gives it`;
    const why = malformedPiece(`document ${i}`, doc);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Texts listed with both answers in a failure; the rest are listed by name and class only. */
const DETAILED = 100;

/** Every disagreeing text in `mode`: the first DETAILED with the text and both answers, then one line each. */
function disagreements(mode: Mode): string[] {
  const out: string[] = [];
  for (const c of golden.cases) {
    const d = compare(c.text, c.answer, mode);
    if (d === undefined) continue;
    out.push(
      out.length < DETAILED
        ? `${c.name} [${d.cls}]\n    text: ${visible(c.text)}\n    clusterwire: ${d.ours}\n    go: ${d.go}`
        : `${c.name} [${d.cls}]`,
    );
  }
  return out;
}

describe("the YAML differential's golden file", () => {
  it("holds every edge case, every class reproduction, the generated slice and the value probes, each text once", () => {
    const names = golden.cases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const texts = new Set(golden.cases.map((c) => c.text));
    expect(texts.size).toBe(golden.cases.length);
    // Texts, not names: a reproduction shared by two classes (or equal to an edge case) is kept once.
    expect(EDGE_CASES.filter((e) => !texts.has(e.text)).map((e) => e.name)).toEqual([]);
    expect(REPRODUCTIONS.filter((r) => !texts.has(r.text)).map((r) => r.cls)).toEqual([]);
    expect(golden.generator).toMatchObject({ seed: GOLDEN_SEED, count: GOLDEN_COUNT });
    expect(golden.generator.objects).toBeGreaterThan(100);
    const generated = golden.cases.filter((c) => c.group === "generated");
    // Two seeds may render one text; the later one is then left out.
    expect(generated.length).toBeGreaterThan(GOLDEN_COUNT * 0.99);
    expect(generated.length).toBeLessThanOrEqual(GOLDEN_COUNT);
    for (const c of generated) {
      const seed = Number(c.name.replace(/^generated seed /, ""));
      expect(seed >= GOLDEN_SEED && seed < GOLDEN_SEED + GOLDEN_COUNT, c.name).toBe(true);
    }
    const probes = golden.cases.filter((c) => c.group === "probe");
    expect(probes.length).toBeGreaterThan(GOLDEN_PROBES * 0.9);
    expect(probes.length).toBeLessThanOrEqual(GOLDEN_PROBES);
    // Answered by the modules conformance/yaml-oracle/go.mod pins, as the oracle's -version names them.
    expect(golden.oracle).toMatch(/^go\d+\.\d+/);
    for (const [, path, version] of PINNED) expect(golden.oracle).toContain(`${path} ${version}`);
    // No text whose Go answer follows Go's random map order (colliding keys): its answer would flap.
    expect(
      golden.cases.filter((c) => MODES.some((m) => ambiguity(c.answer, m) !== undefined)).map((c) => c.name),
    ).toEqual([]);
  });

  it("holds well-formed oracle answers: kubectl's pieces, each with JSON or an error", () => {
    const bad = golden.cases.flatMap((c) => {
      const why = malformed(c.text, c.answer);
      return why === undefined ? [] : [`${c.name}: ${why}`];
    });
    expect(bad).toEqual([]);
    // The corpus exercises both sides: texts Go reads, texts Go refuses, and strict-only refusals.
    const answers = golden.cases.map((c) => c.answer);
    expect(answers.filter((a) => a.splitError !== undefined).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.docs.some((d) => d.error !== undefined)).length).toBeGreaterThan(10);
    expect(
      answers.filter((a) => a.docs.some((d) => d.error === undefined && d.strictError !== undefined)).length,
    ).toBeGreaterThan(0);
    expect(answers.filter((a) => a.docs.length > 1).length).toBeGreaterThan(10);
    // And texts the two readings read differently (a split error, a final newline, a second document).
    const server = (a: (typeof answers)[number]): string => a.body.json ?? `error ${a.body.error}`;
    const kubectl = (a: (typeof answers)[number]): string =>
      a.splitError !== undefined ? `error ${a.splitError}` : a.docs.map((d) => d.json ?? `error ${d.error}`).join("\n");
    expect(answers.filter((a) => server(a) !== kubectl(a)).length).toBeGreaterThan(10);
  });
});

describe("clusterwire reads the golden corpus as go-yaml v2 + sigs.k8s.io/yaml do", () => {
  it("is checked in every mode of the campaign", () => {
    expect([...MODES].sort()).toEqual([
      "lax",
      "lax-server",
      "raw",
      "raw-server",
      "raw-strict",
      "raw-strict-server",
      "strict",
      "strict-server",
    ]);
  });

  it("compares raw values: a field fromJson drops still counts in the raw modes", () => {
    // Add an unknown field to Go's JSON of the body: the non-strict object mode drops it on
    // Go's side and still agrees; the raw mode sees a key we lack.
    let changed = 0;
    for (const c of golden.cases) {
      const json = c.answer.body.json;
      if (json === undefined || !json.startsWith('{"apiVersion"')) continue;
      if (compare(c.text, c.answer, "lax-server") !== undefined) continue;
      const mutated = `{"\\u0000unknown":{"a":[1]},${json.slice(1)}`;
      const answer = { ...c.answer, body: { ...c.answer.body, json: mutated } };
      expect(compare(c.text, answer, "lax-server"), c.name).toBeUndefined();
      expect(compare(c.text, answer, "raw-server")?.cls, c.name).toBe("raw-server/differ/keys-missing");
      if (++changed === 50) break;
    }
    expect(changed).toBe(50);
  });

  for (const mode of MODES)
    it(`has zero disagreements in mode ${mode}`, () => {
      const found = disagreements(mode);
      if (found.length > 0)
        expect.fail(`${found.length} of ${golden.cases.length} texts disagree with Go:\n${found.join("\n")}`);
    });
});
