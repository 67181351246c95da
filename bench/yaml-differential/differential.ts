/**
 * The differential itself. Object modes: clusterwire's `toJson(fromYaml(text))` against
 * kubectl's split, sigs.k8s.io/yaml YAMLToJSON (or YAMLToJSONStrict) and then
 * clusterwire's `fromJson`, in non-strict and strict mode (`lax`, `strict`);
 * and `fromYaml(text, { reading: "server" })` against YAMLToJSON of the whole
 * unsplit text, as the API server reads a request body (`lax-server`,
 * `strict-server`: 0 or 1 objects). Raw modes (`raw`, `raw-strict`,
 * `raw-server`, `raw-strict-server`): the same readings compared one step
 * earlier, clusterwire's `parseYamlDocuments` value against the JSON
 * `YAMLToJSON` wrote, as values (raw-value.ts), before any `fromJson`, so
 * that unknown fields and values fromJson refuses count too. Errors on both
 * sides agree. A disagreement gets a class: its direction and a normalised
 * message (ours when we refuse, go-yaml's when it refuses), or the kind of
 * the first difference when both read a value.
 */
import {
  DecodeError,
  fromJson,
  fromYaml,
  parseYamlDocuments,
  toJson,
  type JsonValue,
} from "../../src/networking/index.js";
import { parseJsonText, type ParsedValue } from "../../src/networking/text/json-parse.js";
import type { OracleAnswer } from "./oracle.js";
import { rawDifference, renderParsed } from "./raw-value.js";

/**
 * `lax`/`strict`: kubectl's reading of a file; `*-server`: the API server's
 * reading of a request body; `raw*`: the same readings compared as
 * YAML-to-JSON values, before fromJson.
 */
export type Mode =
  | "lax"
  | "strict"
  | "lax-server"
  | "strict-server"
  | "raw"
  | "raw-strict"
  | "raw-server"
  | "raw-strict-server";

export const MODES: readonly Mode[] = [
  "lax",
  "strict",
  "lax-server",
  "strict-server",
  "raw",
  "raw-strict",
  "raw-server",
  "raw-strict-server",
];

/** How fromYaml reads a text: as kubectl reads a file, or as the API server reads a request body. */
type Reading = "kubectl" | "server";

/**
 * fromYaml's options with `reading`, which lands with the new reader (issue 17);
 * until then the old reader ignores it, and the server modes disagree often.
 */
type ReadingOptions = { readonly strict: boolean; readonly reading: Reading };
const fromYamlReading = fromYaml as (text: string, options: ReadingOptions) => ReturnType<typeof fromYaml>;

type Side = { readonly ok: true; readonly values: readonly string[] } | { readonly ok: false; readonly error: string };

export interface Disagreement {
  readonly mode: Mode;
  /** Short class name, stable across texts that disagree for the same reason. */
  readonly cls: string;
  /** What the class means, in a sentence. */
  readonly rule: string;
  readonly ours: string;
  readonly go: string;
}

/** JSON with sorted keys, so that equal values print equally. */
export function canonical(v: JsonValue): string {
  if (typeof v === "bigint") return v.toString();
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const o = v as { readonly [k: string]: JsonValue };
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k] as JsonValue)}`)
    .join(",")}}`;
}

class Crash extends Error {}

function ours(text: string, strict: boolean, reading: Reading): Side {
  try {
    return { ok: true, values: fromYamlReading(text, { strict, reading }).map((o) => canonical(toJson(o))) };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.reason };
    throw new Crash(`fromYaml threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
}

/**
 * How deep the JSON that YAMLToJSON writes may nest when the API server (or
 * kubectl) decodes it: Go encoding/json's maxNestingDepth, 10,000, which
 * sigs.k8s.io/json keeps. fromJson's own default (100) is clusterwire's limit
 * for JSON it is handed, not the API server's, and would refuse on Go's side
 * what Go reads (an unknown field 101 levels deep).
 */
const API_SERVER_JSON_DEPTH = 10_000;

/** One piece of Go's answer (a split document, or the whole body) as 0 or 1 objects, or an error. */
function readPiece(
  piece: { readonly json?: string; readonly error?: string; readonly strictError?: string },
  strict: boolean,
  values: string[],
): string | undefined {
  const err = strict ? (piece.strictError ?? piece.error) : piece.error;
  if (err !== undefined) return err;
  if (piece.json === undefined || piece.json === "null") return undefined;
  try {
    values.push(canonical(toJson(fromJson(piece.json, { strict, maxDepth: API_SERVER_JSON_DEPTH }))));
    return undefined;
  } catch (e) {
    if (e instanceof DecodeError) return `fromJson: ${e.reason}`;
    throw new Crash(`fromJson threw ${e instanceof Error ? e.message : String(e)}`);
  }
}

function theirs(answer: OracleAnswer, strict: boolean, reading: Reading): Side {
  const values: string[] = [];
  if (reading === "server") {
    const err = readPiece(answer.body, strict, values);
    return err === undefined ? { ok: true, values } : { ok: false, error: err };
  }
  if (answer.splitError !== undefined) return { ok: false, error: answer.splitError };
  for (const doc of answer.docs) {
    const err = readPiece(doc, strict, values);
    if (err !== undefined) return { ok: false, error: err };
  }
  return { ok: true, values };
}

/**
 * The JSON key that makes Go's answer for `mode` a coin toss, or undefined.
 * The oracle flags a piece whose YAMLToJSON output came out of a map where
 * two distinct go-yaml keys become one JSON key (`1` and `1.0`, `'1'` and
 * `1`, `true` and `'true'`, two `.nan`): sigs.k8s.io/yaml keeps whichever
 * value Go's randomised map iteration reached last, so no fixed answer
 * exists to compare with (clusterwire's rule: the key written last wins).
 * Only the pieces `mode` reads count (kubectl's documents, or the body), and
 * only when that mode's answer is the JSON (not a strict-mode error).
 * Callers leave such texts out of the comparison and count them apart.
 */
export function ambiguity(answer: OracleAnswer, mode: Mode): string | undefined {
  const strict = isStrict(mode);
  const failed = (piece: OracleAnswer["body"]): boolean =>
    piece.error !== undefined || (strict && piece.strictError !== undefined);
  if (mode.endsWith("-server")) return failed(answer.body) ? undefined : answer.body.ambiguousKeys;
  // kubectl's answer is the first failing document's error when any fails, whatever the others hold.
  if (answer.splitError !== undefined || answer.docs.some(failed)) return undefined;
  return answer.docs.find((d) => d.ambiguousKeys !== undefined)?.ambiguousKeys;
}

/** Whether `mode` reads with YAMLToJSONStrict (a repeated key refused). */
function isStrict(mode: Mode): boolean {
  return mode === "strict" || mode === "strict-server" || mode.startsWith("raw-strict");
}

/** Drops what varies between texts of one class: quoted parts, numbers, positions. */
export function normaliseMessage(message: string): string {
  return (
    message
      .replace(/^yaml: (line \d+: )?/, "")
      // kubectl's split quotes the whole offending line, unquoted: one class, whatever the line.
      .replace(/^(invalid Yaml document separator): [\s\S]*$/, "$1")
      .replace(/"(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`/g, "Q")
      .replace(/\d+/g, "N")
      .replace(/\s+/g, " ")
      .replace(/[^\w ]+/g, (m) => m.slice(0, 1))
      .trim()
      .slice(0, 60)
      .replace(/[^\w]+$/, "")
      .replace(/\W+/g, "-")
      .toLowerCase()
  );
}

function firstDifference(a: string, b: string): string {
  const x = JSON.parse(a) as JsonValue;
  const y = JSON.parse(b) as JsonValue;
  const walk = (p: JsonValue, q: JsonValue): string => {
    if (typeof p !== typeof q || Array.isArray(p) !== Array.isArray(q) || (p === null) !== (q === null)) return "type";
    if (typeof p === "string" && typeof q === "string") {
      if (p.replace(/\s+$/, "") === q.replace(/\s+$/, "")) return "trailing-whitespace";
      if (p.replace(/\s+/g, "") === q.replace(/\s+/g, "")) return "whitespace";
      return "string";
    }
    if (p === null || typeof p !== "object" || q === null || typeof q !== "object") return "scalar";
    if (Array.isArray(p) && Array.isArray(q)) {
      if (p.length !== q.length) return "array-length";
      for (let i = 0; i < p.length; i++)
        if (canonical(p[i] as JsonValue) !== canonical(q[i] as JsonValue))
          return walk(p[i] as JsonValue, q[i] as JsonValue);
      return "equal";
    }
    const po = p as { readonly [k: string]: JsonValue };
    const qo = q as { readonly [k: string]: JsonValue };
    const keys = new Set([...Object.keys(po), ...Object.keys(qo)]);
    for (const k of [...keys].sort()) {
      if (!(k in po) || !(k in qo)) return "keys";
      if (canonical(po[k] as JsonValue) !== canonical(qo[k] as JsonValue))
        return walk(po[k] as JsonValue, qo[k] as JsonValue);
    }
    return "equal";
  };
  return walk(x, y);
}

function describeSide(s: Side): string {
  return s.ok ? `${s.values.length} document(s): ${s.values.join(" | ").slice(0, 300)}` : `error: ${s.error}`;
}

/** Compares one text in one mode; undefined when both sides agree. */
export function compare(text: string, answer: OracleAnswer, mode: Mode): Disagreement | undefined {
  const strict = isStrict(mode);
  const reading: Reading = mode.endsWith("-server") ? "server" : "kubectl";
  if (mode.startsWith("raw")) return compareRaw(text, answer, mode, strict, reading);
  let a: Side;
  let b: Side;
  try {
    a = ours(text, strict, reading);
    b = theirs(answer, strict, reading);
  } catch (e) {
    if (!(e instanceof Crash)) throw e;
    return {
      mode,
      cls: `${mode}/crash`,
      rule: "a reader threw something other than a DecodeError",
      ours: e.message,
      go: "",
    };
  }
  if (!a.ok && !b.ok) return undefined;
  const base = { mode, ours: describeSide(a), go: describeSide(b) };
  if (!a.ok)
    return {
      ...base,
      cls: `${mode}/we-refuse/${normaliseMessage(a.error)}`,
      rule: `clusterwire refuses what go-yaml v2 + sigs.k8s.io/yaml read, with: ${a.error}`,
    };
  if (!b.ok)
    return {
      ...base,
      cls: `${mode}/we-accept/${normaliseMessage(b.error)}`,
      rule: `clusterwire reads what kubectl/the API server refuse, with: ${b.error}`,
    };
  if (a.values.length !== b.values.length)
    return {
      ...base,
      cls: `${mode}/differ/document-count`,
      rule: "both read the text, into a different number of objects",
    };
  for (let i = 0; i < a.values.length; i++) {
    const x = a.values[i] as string;
    const y = b.values[i] as string;
    if (x !== y) {
      const kind = firstDifference(x, y);
      return {
        ...base,
        cls: `${mode}/differ/${kind}`,
        rule: `both read the text, into different objects (first difference: ${kind})`,
      };
    }
  }
  return undefined;
}

type RawSide<T> = { readonly ok: true; readonly values: readonly T[] } | { readonly ok: false; readonly error: string };

/** Our YAML-to-JSON values: null documents skipped, a repeated key refused only in strict modes. */
function oursRaw(text: string, strict: boolean, reading: Reading): RawSide<JsonValue> {
  try {
    return { ok: true, values: parseYamlDocuments(text, { uniqueKeys: strict, reading }) };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.reason };
    throw new Crash(`parseYamlDocuments threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
}

/** Deep enough for any value go-yaml hands on; a deeper one is a crash of the comparison, not agreement. */
const GO_JSON_DEPTH = 100_000;

/** One piece of Go's answer as 0 or 1 raw values (its JSON read exactly), or its error. */
function readRawPiece(
  piece: { readonly json?: string; readonly error?: string; readonly strictError?: string },
  strict: boolean,
  values: ParsedValue[],
): string | undefined {
  const err = strict ? (piece.strictError ?? piece.error) : piece.error;
  if (err !== undefined) return err;
  if (piece.json === undefined || piece.json === "null") return undefined;
  try {
    values.push(parseJsonText(piece.json, { maxDepth: GO_JSON_DEPTH }).value);
    return undefined;
  } catch (e) {
    throw new Crash(`Go's JSON is unreadable: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function theirsRaw(answer: OracleAnswer, strict: boolean, reading: Reading): RawSide<ParsedValue> {
  const values: ParsedValue[] = [];
  if (reading === "server") {
    const err = readRawPiece(answer.body, strict, values);
    return err === undefined ? { ok: true, values } : { ok: false, error: err };
  }
  if (answer.splitError !== undefined) return { ok: false, error: answer.splitError };
  for (const doc of answer.docs) {
    const err = readRawPiece(doc, strict, values);
    if (err !== undefined) return { ok: false, error: err };
  }
  return { ok: true, values };
}

function describeRaw<T>(s: RawSide<T>, render: (v: T) => string): string {
  return s.ok
    ? `${s.values.length} document(s): ${s.values.map(render).join(" | ").slice(0, 300)}`
    : `error: ${s.error}`;
}

/** The raw modes: values before fromJson, compared by raw-value.ts's rule. */
function compareRaw(
  text: string,
  answer: OracleAnswer,
  mode: Mode,
  strict: boolean,
  reading: Reading,
): Disagreement | undefined {
  let a: RawSide<JsonValue>;
  let b: RawSide<ParsedValue>;
  let kind: string | undefined;
  try {
    a = oursRaw(text, strict, reading);
    b = theirsRaw(answer, strict, reading);
    if (a.ok && b.ok && a.values.length === b.values.length)
      for (let i = 0; i < a.values.length && kind === undefined; i++)
        kind = rawDifference(a.values[i] as JsonValue, b.values[i] as ParsedValue);
  } catch (e) {
    if (!(e instanceof Crash) && !(e instanceof RangeError)) throw e;
    return {
      mode,
      cls: `${mode}/crash`,
      rule: "a reader threw something other than a DecodeError, or a value was too deep to compare",
      ours: e.message,
      go: "",
    };
  }
  if (!a.ok && !b.ok) return undefined;
  const base = { mode, ours: describeRaw(a, canonical), go: describeRaw(b, renderParsed) };
  if (!a.ok)
    return {
      ...base,
      cls: `${mode}/we-refuse/${normaliseMessage(a.error)}`,
      rule: `clusterwire refuses what go-yaml v2 + sigs.k8s.io/yaml read, with: ${a.error}`,
    };
  if (!b.ok)
    return {
      ...base,
      cls: `${mode}/we-accept/${normaliseMessage(b.error)}`,
      rule: `clusterwire reads what sigs.k8s.io/yaml refuses, with: ${b.error}`,
    };
  if (a.values.length !== b.values.length)
    return {
      ...base,
      cls: `${mode}/differ/document-count`,
      rule: "both read the text, into a different number of non-null values",
    };
  if (kind === undefined) return undefined;
  return {
    ...base,
    cls: `${mode}/differ/${kind}`,
    rule: `both read the text, into different JSON values (first difference: ${kind})`,
  };
}
