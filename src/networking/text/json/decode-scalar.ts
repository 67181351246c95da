// Scalars as Go's JSON decoder reads them into a Kubernetes field: a string, a bool, an int32 or
// an int64, with Go's type error (or a skip, outside Go mode a problem) for anything else.

import { ScalarType } from "@bufbuild/protobuf";
import { FloatLiteral, goString, type ParsedValue } from "./parse.js";
import { numberLiteral } from "./type-error.js";
import { notJson, valueKind, type Decoding } from "./decoding.js";

/** An integer type's range, as numbers (the common case) and as bigints. */
interface IntRange {
  readonly min: number;
  readonly max: number;
  readonly minBig: bigint;
  readonly maxBig: bigint;
}

export const INT32: IntRange = { min: -(2 ** 31), max: 2 ** 31 - 1, minBig: -(2n ** 31n), maxBig: 2n ** 31n - 1n };
export const INT64: IntRange = {
  min: Number.MIN_SAFE_INTEGER,
  max: Number.MAX_SAFE_INTEGER,
  minBig: -(2n ** 63n),
  maxBig: 2n ** 63n - 1n,
};

/** What scalar() gives for a value Go skips (a type error, in Go mode). */
export const SKIPPED: unique symbol = Symbol("skipped");

export function scalar(d: Decoding, t: ScalarType, v: ParsedValue, goType: string): unknown {
  switch (t) {
    case ScalarType.STRING:
      if (typeof v !== "string") {
        d.mismatch(valueKind(d, v), goType);
        return SKIPPED;
      }
      // The parser reads text as Go does; a JS value's string is read so here.
      return d.ctx.source === undefined ? goString(v) : v;
    case ScalarType.BOOL:
      if (typeof v !== "boolean") {
        d.mismatch(valueKind(d, v), goType);
        return SKIPPED;
      }
      return v;
    case ScalarType.INT32: {
      const n = integer(d, v, INT32, goType, false);
      return n === undefined ? SKIPPED : Number(n);
    }
    case ScalarType.INT64: {
      const n = integer(d, v, INT64, goType, false);
      return n === undefined ? SKIPPED : BigInt(n);
    }
    default:
      return d.fail(`unsupported scalar type ${ScalarType[t]}`);
  }
}

/**
 * An integer as Go reads a number into one: strconv.ParseInt of its JSON
 * text, which takes "-0" (as 0) and nothing with a fraction or exponent,
 * then the type's range; a miss is a type error naming the literal
 * (`number 1.5`). A float from YAML reaches Go as the text json.Marshal
 * writes for it: the shortest digits, with an exponent from 1e21 on (JS's
 * String(n) writes the same). `fatal`: read by a custom unmarshaler
 * (IntOrString's), whose error ends decoding. Undefined: skipped.
 */
export function integer(
  d: Decoding,
  v: ParsedValue,
  range: IntRange,
  goType: string,
  fatal: boolean,
): number | bigint | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= range.min && v <= range.max) return v === 0 ? 0 : v; // not -0
  let n: bigint;
  if (typeof v === "bigint") {
    n = v;
  } else if (typeof v === "number") {
    if (!Number.isFinite(v)) return d.fail(notJson(v));
    if (Number.isSafeInteger(v)) {
      n = BigInt(v);
    } else if (Number.isInteger(v) && d.ctx.format === "json") {
      return d.fail(`number ${v} cannot be represented exactly; pass a bigint`);
    } else if (Number.isInteger(v) && Math.abs(v) < 1e21) {
      n = BigInt(String(v));
    } else {
      return missInteger(d, `number ${numberLiteral(v)}`, goType, fatal);
    }
  } else if (v instanceof FloatLiteral) {
    if (v.text !== "-0") return missInteger(d, `number ${numberLiteral(v)}`, goType, fatal);
    return 0;
  } else {
    return missInteger(d, valueKind(d, v), goType, fatal);
  }
  if (n < range.minBig || n > range.maxBig) return missInteger(d, `number ${numberLiteral(n)}`, goType, fatal);
  return n;
}

/** A number or value an integer cannot take: skipped, or `fatal` (a custom unmarshaler's) the end. */
function missInteger(d: Decoding, value: string, goType: string, fatal: boolean): undefined {
  if (fatal) d.fatalMismatch(value, goType);
  d.mismatch(value, goType);
  return undefined;
}
