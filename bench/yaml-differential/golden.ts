/**
 * The golden corpus of the YAML differential: fixed texts with what
 * go-yaml v2 + sigs.k8s.io/yaml make of them (the oracle's batch answer: the
 * documents as kubectl splits them, each with its YAMLToJSON output or
 * error and its YAMLToJSONStrict error, and the whole text read as the API
 * server reads a request body), so that `npm test` can run the
 * differential's own comparison without Go. `npm run yaml-golden`
 * (scripts/yaml-golden.mjs) writes it to test/support/golden/yaml-differential.json;
 * test/suites/yaml-differential-golden.test.ts reads it.
 *
 * Four groups of texts:
 * - `edge`: the hand-written cases of edge-cases.ts;
 * - `reproduction`: the minimised reproduction of every class of
 *   disagreement the campaign has found (reproductions.ts);
 * - `probe`: GOLDEN_PROBES value probes (value-probes.ts: float keys and
 *   values, int64/uint64 edges, `!!binary`, timestamps, merge precedence),
 *   which reach values the object generator does not;
 * - `generated`: GOLDEN_COUNT variants from the generator, variant i with
 *   seed GOLDEN_SEED + i, over the valid objects Go reads from the YAML files
 *   of examples/ and bench/corpus/ (Go's reading, not clusterwire's, so that
 *   the corpus does not depend on the reader it checks).
 *
 * A text whose Go answer is ambiguous in any mode (differential.ts
 * ambiguity: colliding keys, Go's winner random) is left out of every group.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DecodeError, fromJson, toJson, type JsonValue } from "../../src/networking/index.js";
import { MODES, ambiguity, canonical } from "./differential.js";
import { EDGE_CASES } from "./edge-cases.js";
import { renderVariant } from "./generator.js";
import type { Oracle, OracleAnswer } from "./oracle.js";
import { REPRODUCTIONS } from "./reproductions.js";
import { renderValueProbe } from "./value-probes.js";

/** The generator seed of the first generated case; case i uses GOLDEN_SEED + i. */
export const GOLDEN_SEED = 20261126;
/** How many generated variants the golden file holds (fewer only if two render the same text). */
export const GOLDEN_COUNT = 2000;

/** How many value probes (value-probes.ts) the golden file holds, probe i with seed GOLDEN_SEED + i. */
export const GOLDEN_PROBES = 500;

export type GoldenGroup = "edge" | "reproduction" | "generated" | "probe";

export interface GoldenCase {
  /** Unique: `edge <area>: <what>`, `reproduction <class>`, `generated seed <n>`. */
  readonly name: string;
  readonly group: GoldenGroup;
  readonly text: string;
  /** The oracle's -lines answer for the text, as it gave it. */
  readonly answer: OracleAnswer;
}

export interface GoldenCorpus {
  readonly seed: number;
  readonly count: number;
  /** Distinct valid objects the generator drew from. */
  readonly objects: number;
  readonly cases: readonly GoldenCase[];
}

/** The YAML files under `dir`, sorted, as the campaign lists them. */
export function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFilesUnder(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/**
 * The valid networking objects of one file as Go reads it: every document
 * read by YAMLToJSONStrict and then by fromJson in strict mode, or none when
 * any document of the file is refused (a broken file is no source).
 */
function objectsOf(answer: OracleAnswer): JsonValue[] {
  if (answer.splitError !== undefined) return [];
  const out: JsonValue[] = [];
  for (const doc of answer.docs) {
    if (doc.error !== undefined || doc.strictError !== undefined || doc.json === undefined) return [];
    if (doc.json === "null") continue;
    try {
      out.push(toJson(fromJson(doc.json, { strict: true })));
    } catch (e) {
      if (e instanceof DecodeError) return [];
      throw e;
    }
  }
  return out;
}

/**
 * sigs.k8s.io/yaml names the first unsupported map key it meets, walking Go
 * maps in Go's random order: with two such keys in a text, the message names
 * either. The golden file keeps that an error happened, not which key it
 * named, so that regenerating it gives the same bytes (the comparison only
 * asks whether each side refused).
 */
// sigs.k8s.io/yaml 1.3.0 began the message with a capital, 1.6.0 does not.
const UNSUPPORTED_KEY = /^unsupported map key of type: .*$/is;
const UNSUPPORTED_KEY_STABLE = "unsupported map key of type: ... (which key is named follows Go's map order)";

function stableError(error: string | undefined): { readonly error?: string } {
  return error === undefined ? {} : { error: error.replace(UNSUPPORTED_KEY, UNSUPPORTED_KEY_STABLE) };
}

function stablePiece<P extends { readonly error?: string; readonly strictError?: string }>(piece: P): P {
  const { error, strictError, ...rest } = piece;
  const strict = stableError(strictError).error;
  return { ...rest, ...stableError(error), ...(strict === undefined ? {} : { strictError: strict }) } as P;
}

/** The oracle's answer with its map-order-dependent error texts made stable. */
export function stableAnswer(answer: OracleAnswer): OracleAnswer {
  return { ...answer, docs: answer.docs.map(stablePiece), body: stablePiece(answer.body) };
}

/** Builds the corpus and asks `oracle` for every text. */
export async function buildGoldenCorpus(root: string, oracle: Oracle): Promise<GoldenCorpus> {
  const files = [...yamlFilesUnder(join(root, "examples")), ...yamlFilesUnder(join(root, "bench", "corpus"))].filter(
    (f) => !f.includes(join("examples", "invalid")),
  );
  const fileAnswers = await Promise.all(files.map((f) => oracle.ask(readFileSync(f, "utf8"))));
  const seen = new Set<string>();
  const objects: JsonValue[] = [];
  for (const answer of fileAnswers)
    for (const o of objectsOf(answer)) {
      const key = canonical(o);
      if (seen.has(key)) continue;
      seen.add(key);
      objects.push(JSON.parse(key) as JsonValue);
    }
  if (objects.length === 0) throw new Error("no valid object in examples/ or bench/corpus/ as Go reads them");

  const texts: { name: string; group: GoldenGroup; text: string }[] = [];
  const taken = new Set<string>();
  const add = (name: string, group: GoldenGroup, text: string): void => {
    if (taken.has(text)) return;
    taken.add(text);
    texts.push({ name, group, text });
  };
  for (const e of EDGE_CASES) add(`edge ${e.name}`, "edge", e.text);
  for (const r of REPRODUCTIONS) add(`reproduction ${r.cls}`, "reproduction", r.text);
  for (let i = 0; i < GOLDEN_COUNT; i++) {
    const seed = GOLDEN_SEED + i;
    add(`generated seed ${seed}`, "generated", renderVariant(objects, seed).text);
  }
  for (let i = 0; i < GOLDEN_PROBES; i++) {
    const seed = GOLDEN_SEED + i;
    add(`probe seed ${seed}`, "probe", renderValueProbe(seed).text);
  }
  const answers = await Promise.all(texts.map((t) => oracle.ask(t.text)));
  const cases = texts.flatMap((t, i) => {
    const answer = answers[i];
    if (answer === undefined) throw new Error(`the oracle gave no answer for ${t.name}`);
    // Go's answer to such a text follows its random map order: a golden answer would flap.
    if (MODES.some((m) => ambiguity(answer, m) !== undefined)) return [];
    return [{ ...t, answer: stableAnswer(answer) }];
  });
  return { seed: GOLDEN_SEED, count: GOLDEN_COUNT, objects: objects.length, cases };
}
