import { quoteGo } from "../../model/go-json-string.js";
import { setOwn } from "../../model/set-own.js";
import { DuplicateKey, FloatLiteral, parseJsonText } from "./parse.js";
import { printGoJson, RawJson, sortedKeys, type PrintableValue } from "./print.js";
import { PathError } from "./path-error.js";

/*
 * A parsed value as the raw JSON Go keeps for FieldsV1, shared by the generic
 * decoder (from-json.ts) and the generated readers' runtime (json-fast-value.ts).
 */

/**
 * Sorted copy, as Go's map-based YAML-to-JSON step produces. A JS value is
 * read as JSON.stringify would write it, except that what JSON cannot hold
 * (NaN, Infinity, functions, class instances, holes) is refused rather than
 * turned into null or dropped; undefined members are absent. Depth-limited:
 * JS values may be cyclic.
 */
export function sortDeep(format: "json" | "yaml", v: unknown, depth: number): PrintableValue {
  switch (typeof v) {
    case "string":
    case "boolean":
    case "bigint":
      return v;
    case "number":
      if (!Number.isFinite(v)) throw new PathError(`fieldsV1 cannot hold ${v}: it is not JSON`);
      // JSON.stringify(-0) is "0"; from YAML, -0.0 is Go's float -0, written "-0".
      return format === "json" && v === 0 ? 0 : v;
    case "object":
      break;
    default:
      throw new PathError(
        `fieldsV1 cannot hold ${typeof v === "undefined" ? "undefined" : `a ${typeof v}`}: it is not JSON`,
      );
  }
  if (v === null || v instanceof FloatLiteral) return v;
  if (depth > MAX_RAW_DEPTH) throw new PathError(`fieldsV1 nested deeper than ${MAX_RAW_DEPTH} (or cyclic)`);
  if (v instanceof DuplicateKey) return sortDeep(format, v.values[v.values.length - 1], depth);
  if (Array.isArray(v)) {
    const out: PrintableValue[] = [];
    for (let i = 0; i < v.length; i++) out.push(within(i, () => sortDeep(format, v[i], depth + 1)));
    return out;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null)
    throw new PathError("fieldsV1 cannot hold an object that is not a plain JSON object");
  const out: Record<string, PrintableValue> = {};
  const obj = v as Record<string, unknown>;
  const order: string[] = [];
  for (const k of sortedKeys(obj)) {
    if (obj[k] !== undefined) {
      setOwn(
        out,
        k,
        within(k, () => sortDeep(format, obj[k], depth + 1)),
      );
      order.push(k);
    }
  }
  if (!order.some(isIndexKey)) return out;
  // A JS object lists keys like array indexes ("9", "10") first, in numeric
  // order; Go's order ("10" before "9") survives as text.
  const text = `{${order.map((k) => `${quoteGo(k)}:${printGoJson(out[k] as PrintableValue)}`).join(",")}}`;
  return new RawJson(text, parseJsonText(text, { maxDepth: MAX_RAW_DEPTH + 2 }).value);
}

/** Whether JS lists the key before the others, as an array index (a canonical integer below 2^32 - 1). */
function isIndexKey(key: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** Runs `f`, prefixing `seg` to the path of a PathError it throws. */
function within<T>(seg: string | number, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof PathError) e.prefix(seg);
    throw e;
  }
}

export const MAX_RAW_DEPTH = 100;
