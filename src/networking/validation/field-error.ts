// Field errors shaped like apimachinery's field.Error, and the API server's
// way of printing them.

import { quoteGo } from "../model/go-json-string.js";
import { renderPath, type FieldPath } from "../model/path.js";

/**
 * The API server's error type names (apimachinery `field.ErrorType`).
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, validate } from "clusterwire/networking";
 *
 * const ingressClass = create(IngressClassSchema, { metadata: { name: "Not_A_Name" }, spec: { controller: "example.com/lb" } });
 * const required = validate(ingressClass).filter((e) => e.type === "FieldValueRequired");
 * ```
 */
export type FieldErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "FieldValueDuplicate"
  | "FieldValueNotFound"
  | "FieldValueTypeInvalid"
  | "InternalError";

/**
 * The value a field error reports: the offending value as Kubernetes JSON shows it (int64 as bigint).
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, validate } from "clusterwire/networking";
 *
 * const ingressClass = create(IngressClassSchema, { metadata: { name: "Not_A_Name" }, spec: { controller: "example.com/lb" } });
 * for (const e of validate(ingressClass)) console.log(e.field, e.badValue);
 * ```
 */
export type BadValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | readonly BadValue[]
  | { readonly [key: string]: BadValue };

/**
 * One validation error, as the API server reports it.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, validate } from "clusterwire/networking";
 *
 * const ingressClass = create(IngressClassSchema, { metadata: { name: "Not_A_Name" }, spec: { controller: "example.com/lb" } });
 * for (const e of validate(ingressClass)) console.log(e.type, e.field, e.detail);
 * ```
 */
export interface FieldError {
  /** The kind of error, as apimachinery names it. */
  readonly type: FieldErrorType;
  /** The rendered path, exactly as `field.Path.String()` writes it: `spec.rules[0].host`. */
  readonly field: string;
  /** The same path, structured: field names as strings, list indexes as numbers. */
  readonly path: readonly (string | number)[];
  /** The offending value, or `""` where the API server reports none. */
  readonly badValue: BadValue;
  /** The explanation, as the API server words it; may be empty. */
  readonly detail: string;
}

// The API server prints a structured bad value as encoding/json marshals the Go
// value it holds: the internal API types have no json tags, so their keys are
// Go's field names ({"Group":...}), and a nil slice is null. The validators
// attach that rendering here (see goJson); it stays out of JSON and equality.
const GO_SYNTAX = Symbol("clusterwire.goSyntax");

function make(type: FieldErrorType, at: FieldPath, badValue: BadValue, detail: string, goSyntax?: string): FieldError {
  const path = at.segments();
  const e: FieldError = { type, field: renderPath(path), path, badValue, detail };
  if (goSyntax !== undefined) Object.defineProperty(e, GO_SYNTAX, { value: goSyntax, enumerable: false });
  return e;
}

// From 1.36 some rules are checked by declarative validation, and the API
// server reports those errors after all the others (upstream marks the
// handwritten twin MarkCoveredByDeclarative). The validators mark such errors
// here, with the declarative rendering of the value where it differs, and
// validate() moves them for the releases that do this.
const DECLARATIVE = Symbol("clusterwire.coveredByDeclarative");

/** Marks `e` as reported by declarative validation from 1.36 on; `rendering` is how that prints the value. */
export function coveredByDeclarative(e: FieldError, rendering?: string): FieldError {
  Object.defineProperty(e, DECLARATIVE, { value: rendering ?? true, enumerable: false });
  return e;
}

/**
 * The errors as a release with declarative validation reports them (1.36 on).
 * The handwritten errors go through a filter that drops repeats (by their
 * text, as ErrorList.ToAggregate does); then the marked ones, when
 * declarative validation reported them (`moveMarked`), come after all the
 * others, in their order and declarative form.
 */
export function declarativeMerge(errors: readonly FieldError[], moveMarked: boolean): FieldError[] {
  const isMarked = (e: FieldError): boolean =>
    moveMarked && (e as unknown as Record<symbol, unknown>)[DECLARATIVE] !== undefined;
  const seen = new Set<string>();
  const rest: FieldError[] = [];
  const marked: FieldError[] = [];
  for (const e of errors) {
    if (isMarked(e)) {
      marked.push(declarativeForm(e));
      continue;
    }
    const text = formatFieldError(e);
    if (seen.has(text)) continue;
    seen.add(text);
    rest.push(e);
  }
  return marked.length === 0 ? rest : [...rest, ...marked];
}

function declarativeForm(e: FieldError): FieldError {
  const rendering = (e as unknown as Record<symbol, unknown>)[DECLARATIVE];
  if (typeof rendering !== "string") return e;
  const copy: FieldError = { ...e, badValue: null };
  Object.defineProperty(copy, GO_SYNTAX, { value: rendering, enumerable: false });
  return copy;
}

/** field.Duplicate: a second object or value where names must be unique. */
export function duplicate(at: FieldPath, value: BadValue): FieldError {
  return make("FieldValueDuplicate", at, value, "");
}

export function required(at: FieldPath, detail = ""): FieldError {
  return make("FieldValueRequired", at, "", detail);
}

export function invalid(at: FieldPath, value: BadValue, detail: string, goSyntax?: string): FieldError {
  return make("FieldValueInvalid", at, value, detail, goSyntax);
}

/**
 * field.NotSupported. `goRendering` is how the server prints the value when Go
 * holds it as a named type (a PathType, a Protocol): not as a plain string
 * (%q) but through encoding/json (see goJson).
 */
export function notSupported(
  at: FieldPath,
  value: BadValue,
  supported: readonly string[],
  goRendering?: string,
): FieldError {
  const detail = supported.length === 0 ? "" : `supported values: ${supported.map(goQuote).join(", ")}`;
  return make("FieldValueNotSupported", at, value, detail, goRendering);
}

export function forbidden(at: FieldPath, detail: string): FieldError {
  return make("FieldValueForbidden", at, "", detail);
}

export function tooLong(at: FieldPath, maxBytes: number): FieldError {
  // Upstream passes an unused "" as the value: too-long values are never echoed.
  return make("FieldValueTooLong", at, "", `may not be more than ${maxBytes} ${maxBytes === 1 ? "byte" : "bytes"}`);
}

/**
 * The same-named `field.Error.Error()` output: `spec.rules[0].host: Invalid value: "*": ...`.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, formatFieldError, validate } from "clusterwire/networking";
 *
 * const ingressClass = create(IngressClassSchema, { metadata: { name: "Not_A_Name" }, spec: { controller: "example.com/lb" } });
 * console.log(validate(ingressClass).map(formatFieldError));
 * ```
 */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${formatFieldErrorBody(e)}`;
}

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: "Not found",
  FieldValueRequired: "Required value",
  FieldValueDuplicate: "Duplicate value",
  FieldValueInvalid: "Invalid value",
  FieldValueNotSupported: "Unsupported value",
  FieldValueForbidden: "Forbidden",
  FieldValueTooLong: "Too long",
  FieldValueTooMany: "Too many",
  InternalError: "Internal error",
  FieldValueTypeInvalid: "Invalid value",
};

/**
 * `field.Error.ErrorBody()`: the message without the field path, as `details.causes[].message` carries it.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, formatFieldErrorBody, validate } from "clusterwire/networking";
 *
 * const ingressClass = create(IngressClassSchema, { metadata: { name: "Not_A_Name" }, spec: { controller: "example.com/lb" } });
 * console.log(validate(ingressClass).map(formatFieldErrorBody));
 * ```
 */
export function formatFieldErrorBody(e: FieldError): string {
  const text = TYPE_TEXT[e.type] ?? e.type;
  let s: string;
  switch (e.type) {
    case "FieldValueRequired":
    case "FieldValueForbidden":
    case "FieldValueTooLong":
    case "InternalError":
      s = text;
      break;
    default:
      s = `${text}: ${renderBadValue(e)}`;
  }
  return e.detail.length > 0 ? `${s}: ${e.detail}` : s;
}

function renderBadValue(e: FieldError): string {
  const go = (e as unknown as Record<symbol, unknown>)[GO_SYNTAX];
  if (typeof go === "string") return go;
  const v = e.badValue;
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  // A value built by hand without a Go type: JSON is the clearest fallback.
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x));
}

/** Go's strconv.Quote: printable characters as they are, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  let plainFrom = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    if (c >= 0x80) {
      const cp = s.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      if (isGoPrintable(cp)) {
        i += width - 1;
        continue;
      }
      out += s.slice(plainFrom, i) + escapeRune(cp);
      i += width - 1;
      plainFrom = i + 1;
      continue;
    }
    out += s.slice(plainFrom, i) + escapeAscii(c);
    plainFrom = i + 1;
  }
  return out + s.slice(plainFrom) + '"';
}

function escapeAscii(c: number): string {
  switch (c) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return "\\\\";
    case 0x07:
      return "\\a";
    case 0x08:
      return "\\b";
    case 0x0c:
      return "\\f";
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x0b:
      return "\\v";
    default:
      return `\\x${c.toString(16).padStart(2, "0")}`;
  }
}

function escapeRune(cp: number): string {
  // A lone surrogate cannot come from Go text; Go would hold U+FFFD there.
  if (cp >= 0xd800 && cp <= 0xdfff) return "\ufffd";
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
function isGoPrintable(cp: number): boolean {
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  return PRINTABLE.test(String.fromCodePoint(cp));
}

/**
 * A value as Go's encoding/json marshals it (json.Marshal, HTML escaping on):
 * object keys in the order given, as the Go struct declares its fields.
 */
export type GoJsonValue =
  | string
  | number
  | boolean
  | null
  | readonly GoJsonValue[]
  | { readonly [key: string]: GoJsonValue };

/** json.Marshal of a Go value, for a field error's bad value (see {@link GoJsonValue}). */
export function goJson(v: GoJsonValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return quoteGo(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${(v as readonly GoJsonValue[]).map(goJson).join(",")}]`;
  const o = v as { readonly [key: string]: GoJsonValue };
  return `{${Object.keys(o)
    .map((k) => `${quoteGo(k)}:${goJson(o[k]!)}`)
    .join(",")}}`;
}

/** json.Marshal of a Go string slice: null when it is empty (nil, as decoding leaves an absent list). */
export function goJsonStrings(values: readonly string[]): string {
  return values.length === 0 ? "null" : goJson(values);
}

/** Go's %#v of a []string, as a few messages print one: `[]string{"a", "b"}`. */
export function goStringSlice(typeName: string, values: readonly string[]): string {
  if (values.length === 0) return `${typeName}(nil)`;
  return `${typeName}{${values.map(goQuote).join(", ")}}`;
}
