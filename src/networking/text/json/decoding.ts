// The state of one generic JSON decoding (from-json.ts): where it is, for errors; in Go mode the
// problems put aside, as the API server's decoder keeps them; the order in which Go's decoder
// meets an object's members; and the JSON kind of a value, as Go's type errors name it.

import { DuplicateKey, FloatLiteral, textKeyOrder, type ParsedJson, type ParsedValue } from "./parse.js";
import { sortedKeys } from "./print.js";
import { PathError } from "./path-error.js";
import { jsonKindOf, unmarshalTypeError } from "./type-error.js";

export interface Ctx {
  readonly strict: boolean;
  readonly source: ParsedJson | undefined;
  readonly format: "json" | "yaml";
  /** Where the decoded value sits in `source` (e.g. ["object"] in a watch event). */
  readonly at?: readonly string[];
}

/** What the first pass throws at its first problem: only the second pass says which one Go reports. */
export const PROBLEM: unique symbol = Symbol("problem");

/**
 * One decoding's state: where it is, for errors, and in Go mode the problems
 * put aside.
 *
 * Outside Go mode the first problem throws PROBLEM. In Go mode decoding follows the
 * API server's decoder (sigs.k8s.io/json) to find the problem it reports:
 * members in the order it reads them (the text's; for YAML that of the JSON
 * the server makes of it, keys sorted), a value of the wrong type skipped and
 * decoding gone on (the first such is reported), an unknown or repeated field
 * noted (reported only when there is no type error), and an error of a
 * custom unmarshaler (a Time, an IntOrString) ending it at once, over any
 * type error before it.
 *
 * The type errors name where Go's decoder was: the Go struct holding the
 * field, and the JSON names of the fields from the root; a struct embedded
 * inline by its Go type name (IngressRule's IngressRuleValue), no list
 * indexes, no map keys.
 */
export class Decoding {
  /** JSON path of the value being decoded: keys and list indexes. */
  readonly path: (string | number)[] = [];
  /** For each path segment, which occurrence of a repeated key it is. */
  readonly occurrences: (number | undefined)[] = [];
  /** Go's name of the struct whose field is being decoded. */
  goStruct = "";
  /** Go's field stack. */
  readonly goFields: string[] = [];
  /** Go mode: the first type error. */
  typeError: PathError | undefined;
  /** Go mode: the first unknown or repeated field. */
  strictError: PathError | undefined;

  constructor(
    readonly ctx: Ctx,
    readonly goMode: boolean,
  ) {}

  enter(seg: string | number, occurrence?: number): void {
    if (!this.goMode) return;
    this.path.push(seg);
    this.occurrences.push(occurrence);
  }

  leave(): void {
    if (!this.goMode) return;
    this.path.pop();
    this.occurrences.pop();
  }

  /** Go's error context while decoding a field of the struct `struct`: its JSON names from the root. */
  inField(struct: string, name: string, embedded?: string): void {
    if (!this.goMode) return;
    this.goStruct = struct;
    if (embedded !== undefined) this.goFields.push(embedded);
    this.goFields.push(name);
  }

  /** Back to the context before inField(): `struct` and the length of the field stack then. */
  outOfField(struct: string, fields: number): void {
    if (!this.goMode) return;
    this.goStruct = struct;
    this.goFields.length = fields;
  }

  /** An error at the current path; `lastOccurrence`: pointing at the last value of a repeated key. */
  error(reason: string, lastOccurrence = false): PathError {
    const occurrences = [...this.occurrences];
    if (lastOccurrence) occurrences[occurrences.length - 1] = undefined;
    return new PathError(reason, [...this.path], occurrences);
  }

  /** A problem that ends decoding. */
  fail(reason: string): never {
    if (!this.goMode) throw PROBLEM;
    throw this.error(reason);
  }

  /** A value of the wrong type, which Go's decoder skips. */
  mismatch(value: string, goType: string): void {
    if (!this.goMode) throw PROBLEM;
    this.typeError ??= this.error(unmarshalTypeError(value, goType, this.goStruct, this.goFields.join(".")));
  }

  /** A custom unmarshaler's type error: decoding ends. */
  fatalMismatch(value: string, goType: string): never {
    return this.fail(unmarshalTypeError(value, goType, this.goStruct, this.goFields.join(".")));
  }

  /** An unknown or repeated field (strict decoding). */
  strictProblem(reason: string, lastOccurrence = false): void {
    if (!this.goMode) throw PROBLEM;
    this.strictError ??= this.error(reason, lastOccurrence);
  }

  /** A PathError from below (its path relative to here), placed: decoding ends. */
  failBelow(e: PathError): never {
    if (!this.goMode) throw PROBLEM;
    throw new PathError(e.reason, [...this.path, ...e.path], [...this.occurrences, ...e.occurrences]);
  }
}

/**
 * The members of `obj` (each value of a repeated key, with its occurrence) in
 * the order Go's decoder meets them: the text's, or for YAML sorted keys
 * (sigs.k8s.io/yaml writes the JSON from a Go map); for a JS value, the order
 * JSON.stringify writes them in.
 */
export function goMembers(
  d: Decoding,
  obj: Record<string, ParsedValue | DuplicateKey>,
): [key: string, value: ParsedValue, occurrence: number | undefined][] {
  const out: [string, ParsedValue, number | undefined][] = [];
  const order = textKeyOrder(obj);
  if (order !== undefined) {
    const seen = new Map<string, number>();
    for (const key of order) {
      const raw = obj[key];
      if (raw instanceof DuplicateKey) {
        const o = seen.get(key) ?? 0;
        seen.set(key, o + 1);
        if (o < raw.values.length) out.push([key, raw.values[o] as ParsedValue, o]);
      } else if (raw !== undefined && !seen.has(key)) {
        seen.set(key, 1);
        out.push([key, raw, undefined]);
      }
    }
    return out;
  }
  for (const key of d.ctx.format === "yaml" ? sortedKeys(obj) : Object.keys(obj)) {
    const raw = obj[key];
    // A JS value's undefined property is an absent field (JSON has no undefined).
    if (raw === undefined) continue;
    if (raw instanceof DuplicateKey) {
      for (let o = 0; o < raw.values.length; o++) out.push([key, raw.values[o] as ParsedValue, o]);
    } else {
      out.push([key, raw, undefined]);
    }
  }
  return out;
}

/** The JSON kind of a value, as Go's type errors name it; a JS value JSON has no form for is refused. */
export function valueKind(d: Decoding, v: unknown): string {
  return jsonKindOf(v) ?? d.fail(notJson(v));
}

export function notJson(v: unknown): string {
  if (typeof v === "number") return `number ${v} is not JSON`;
  return `${typeof v === "undefined" ? "undefined" : `a ${typeof v}`} is not a JSON value`;
}

export function isObject(v: unknown): v is Record<string, ParsedValue | DuplicateKey> {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof FloatLiteral) &&
    !(v instanceof DuplicateKey)
  );
}
