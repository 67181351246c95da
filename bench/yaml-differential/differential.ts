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
import { parseJsonText, type ParsedValue } from "../../src/networking/text/json/parse.js";
// The API server decodes YAMLToJSON's output with a 10,000-level JSON limit
// (Go encoding/json, kept by sigs.k8s.io/json), not fromJson's default of
// 100: Go's side of the object modes reads with the same limit.
import { API_SERVER_JSON_DEPTH } from "../../src/networking/text/yaml/yaml.js";
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

/** One side's reading of a text: its documents' values, or the error that refused it. */
type Outcome<T> = { readonly ok: true; readonly values: readonly T[] } | { readonly ok: false; readonly error: string };

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

/** Our reading, by `read`: a DecodeError is a refusal, anything else a crash of the comparison. */
function ourOutcome<T>(what: string, read: () => readonly T[]): Outcome<T> {
  try {
    return { ok: true, values: read() };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.reason };
    throw new Crash(`${what} threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
}

/** A piece of Go's JSON that the Go side refuses to read further (fromJson's error). */
class Refusal {
  constructor(readonly reason: string) {}
}

/**
 * Go's reading in one mode: the body (server) or kubectl's documents, each
 * piece's error (the strict one in strict modes), else its JSON through
 * `read`; null documents skipped.
 */
function goOutcome<T>(
  answer: OracleAnswer,
  strict: boolean,
  reading: Reading,
  read: (json: string) => T | Refusal,
): Outcome<T> {
  if (reading === "kubectl" && answer.splitError !== undefined) return { ok: false, error: answer.splitError };
  const values: T[] = [];
  for (const piece of reading === "server" ? [answer.body] : answer.docs) {
    const err = strict ? (piece.strictError ?? piece.error) : piece.error;
    if (err !== undefined) return { ok: false, error: err };
    if (piece.json === undefined || piece.json === "null") continue;
    const value = read(piece.json);
    if (value instanceof Refusal) return { ok: false, error: value.reason };
    values.push(value);
  }
  return { ok: true, values };
}

/** Go's JSON decoded into an object as the API server decodes it, canonical; fromJson's refusal is Go's side refusing. */
function goObject(json: string, strict: boolean): string | Refusal {
  try {
    return canonical(toJson(fromJson(json, { strict, maxDepth: API_SERVER_JSON_DEPTH })));
  } catch (e) {
    if (e instanceof DecodeError) return new Refusal(`fromJson: ${e.reason}`);
    throw new Crash(`fromJson threw ${e instanceof Error ? e.message : String(e)}`);
  }
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

function describeOutcome<T>(s: Outcome<T>, render: (v: T) => string): string {
  return s.ok
    ? `${s.values.length} document(s): ${s.values.map(render).join(" | ").slice(0, 300)}`
    : `error: ${s.error}`;
}

/** One reading of a text by both sides, in one mode: how to compare and print their values. */
interface Readings<T, U> {
  readonly ours: () => Outcome<T>;
  readonly go: () => Outcome<U>;
  readonly render: readonly [(v: T) => string, (v: U) => string];
  /** The kind of the first difference between two values, or undefined when equal. */
  readonly difference: (x: T, y: U) => string | undefined;
  /** What the values are, in the rules' wording ("objects", "non-null values"). */
  readonly what: string;
}

/** Compares one text in one mode; undefined when both sides agree. */
export function compare(text: string, answer: OracleAnswer, mode: Mode): Disagreement | undefined {
  const strict = isStrict(mode);
  const reading: Reading = mode.endsWith("-server") ? "server" : "kubectl";
  if (mode.startsWith("raw"))
    // The raw modes: values before fromJson, compared by raw-value.ts's rule.
    return judge<JsonValue, ParsedValue>(mode, {
      ours: () => ourOutcome("parseYamlDocuments", () => parseYamlDocuments(text, { uniqueKeys: strict, reading })),
      go: () => goOutcome(answer, strict, reading, goRawValue),
      render: [canonical, renderParsed],
      difference: rawDifference,
      what: "non-null JSON values",
    });
  return judge<string, string>(mode, {
    ours: () => ourOutcome("fromYaml", () => fromYaml(text, { strict, reading }).map((o) => canonical(toJson(o)))),
    go: () => goOutcome(answer, strict, reading, (json) => goObject(json, strict)),
    render: [String, String],
    difference: (x, y) => (x === y ? undefined : firstDifference(x, y)),
    what: "objects",
  });
}

function judge<T, U>(mode: Mode, r: Readings<T, U>): Disagreement | undefined {
  let a: Outcome<T>;
  let b: Outcome<U>;
  let kind: string | undefined;
  try {
    a = r.ours();
    b = r.go();
    if (a.ok && b.ok && a.values.length === b.values.length)
      for (let i = 0; i < a.values.length && kind === undefined; i++)
        kind = r.difference(a.values[i] as T, b.values[i] as U);
  } catch (e) {
    // A RangeError: a value too deep for the comparison itself.
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
  const base = { mode, ours: describeOutcome(a, r.render[0]), go: describeOutcome(b, r.render[1]) };
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
      rule: `both read the text, into a different number of ${r.what}`,
    };
  if (kind === undefined) return undefined;
  return {
    ...base,
    cls: `${mode}/differ/${kind}`,
    rule: `both read the text, into different ${r.what} (first difference: ${kind})`,
  };
}

/** Deep enough for any value go-yaml hands on; a deeper one is a crash of the comparison, not agreement. */
const GO_JSON_DEPTH = 100_000;

/** Go's JSON read exactly (big integers as bigints, floats by value: raw-value.ts). */
function goRawValue(json: string): ParsedValue {
  try {
    return parseJsonText(json, { maxDepth: GO_JSON_DEPTH }).value;
  } catch (e) {
    throw new Crash(`Go's JSON is unreadable: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * For a text kubectl takes for JSON (the oracle's `jsonStream`: its first
 * non-space byte is `{`), how what kubectl's YAMLOrJSONDecoder hands on
 * differs from clusterwire's YAML reading of it, `parseYamlDocuments(text,
 * { uniqueKeys: false })` (fromYaml never sniffs for JSON): `refused-by-kubectl`,
 * `refused-by-us`, `document-count` or the raw comparison's kind of the first
 * difference (raw-value.ts); undefined when both agree or kubectl does not
 * take the text for JSON. This is a documented difference, not a
 * disagreement: the campaign counts it apart and does not fail on it.
 */
export function jsonStreamDifference(text: string, answer: OracleAnswer): string | undefined {
  const stream = answer.jsonStream;
  if (stream === undefined) return undefined;
  let ours: Outcome<JsonValue>;
  try {
    ours = ourOutcome("parseYamlDocuments", () => parseYamlDocuments(text, { uniqueKeys: false }));
  } catch (e) {
    if (e instanceof Crash) return "crash";
    throw e;
  }
  if (stream.error !== undefined) return ours.ok ? "refused-by-kubectl" : undefined;
  if (!ours.ok) return "refused-by-us";
  if (ours.values.length !== stream.values.length) return "document-count";
  for (let i = 0; i < ours.values.length; i++) {
    let go: ParsedValue;
    try {
      go = goRawValue(stream.values[i] as string);
    } catch {
      return "crash";
    }
    const d = rawDifference(ours.values[i] as JsonValue, go);
    if (d !== undefined) return d;
  }
  return undefined;
}
