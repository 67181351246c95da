import { FloatLiteral } from "./parse.js";

/*
 * How Go's encoding/json words a JSON value that does not fit its Go type (its
 * UnmarshalTypeError), which the API server hands back as it is: sigs.k8s.io/json,
 * the decoder the API server uses, is a fork of encoding/json that reuses
 * that error type.
 *
 *   json: cannot unmarshal <value> into Go struct field <Struct>.<Field> of type <type>
 *   json: cannot unmarshal <value> into Go value of type <type>       (no field: the top)
 *
 * <value> is the JSON kind (`bool`, `number`, `string`, `array`, `object`),
 * and for a number that an integer cannot hold (a fraction, an exponent, out
 * of range) `number` and its literal. <Struct> is the Go struct that holds
 * the field, <Field> the JSON names from the root (see decoding.ts), <type>
 * the Go type as reflect prints it.
 */

/** The error's text. `field` empty: a value with no field (Go's "Go value of type"). */
export function unmarshalTypeError(value: string, type: string, struct: string, field: string): string {
  return struct !== "" || field !== ""
    ? `json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${type}`
    : `json: cannot unmarshal ${value} into Go value of type ${type}`;
}

/** A decoded JSON value, as from-json.ts reads it (parsed text, YAML's value, a JS value). */
type Value = unknown;

/** The JSON kind of a value as Go names it in the error; undefined for what is not JSON (NaN, a function...). */
export function jsonKindOf(v: Value): string | undefined {
  switch (typeof v) {
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "bigint":
      return "number";
    case "number":
      return Number.isFinite(v) ? "number" : undefined;
    case "object":
      if (v === null) return "null";
      if (v instanceof FloatLiteral) return "number";
      return Array.isArray(v) ? "array" : "object";
    default:
      return undefined;
  }
}

/**
 * A longest number literal printed whole; past it the message says how long
 * it is instead (Go prints any length, but a 100,000-digit number would make
 * the message as long, and printing a bigint that long costs superlinear time).
 */
export const MAX_LITERAL = 1000;

let bigLimit: bigint | undefined;

/**
 * The literal of a number as the JSON Go reads writes it: the text itself
 * (FloatLiteral), the digits of an integer, or for a JS number the text
 * JSON.stringify and Go's json.Marshal of a YAML float64 both write.
 */
export function numberLiteral(v: number | bigint | FloatLiteral): string {
  if (v instanceof FloatLiteral) {
    const t = v.text;
    return t.length <= MAX_LITERAL ? t : `${t.slice(0, 40)}...<${t.length} characters>`;
  }
  if (typeof v === "number") return String(v);
  bigLimit ??= 10n ** BigInt(MAX_LITERAL - 1);
  if (v < bigLimit && v > -bigLimit) return v.toString();
  return `${v < 0n ? "-" : ""}<more than ${MAX_LITERAL - 1} digits>`;
}
