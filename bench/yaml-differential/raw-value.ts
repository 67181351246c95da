/**
 * The raw modes' comparison (issue 17): clusterwire's YAML-to-JSON value
 * (`parseYamlDocuments`) against the JSON text sigs.k8s.io/yaml's
 * `YAMLToJSON` wrote, as values, before any `fromJson`, so that a difference
 * in a field clusterwire's schema drops or refuses still shows.
 *
 * Go's JSON is read with clusterwire's exact JSON parser (text/json/parse.ts):
 * safe integers as `number`, integers beyond 2^53 as `bigint`, and anything
 * written with a fraction or exponent (or `-0`) as a `FloatLiteral`. The
 * rule, value by value:
 * - strings, booleans and null: equal;
 * - numbers: a Go integer literal and an integer of ours (a `bigint`, or a
 *   `number` that is a safe integer) are equal when they are the same
 *   integer, exactly (as bigints); a Go literal with a fraction or exponent
 *   and a `number` of ours are equal when the literal reads as that double
 *   (floats by value; `-0` and `0` differ, as Go writes them differently);
 *   an integer-valued double of ours at or beyond 2^53 is compared by the
 *   digits Go would write for it (shortest round-trip digits, zero-padded,
 *   which is what `String` gives below 1e21), so that a double where Go
 *   kept an int64 shows; anything else differs;
 * - arrays: same length, elements equal in order;
 * - objects: the same set of keys (Go's json.Marshal sorts keys, so order
 *   is not compared), values equal by key.
 */
import type { JsonValue } from "../../src/networking/index.js";
import { FloatLiteral, type ParsedValue } from "../../src/networking/text/json/parse.js";

type Kind = "null" | "boolean" | "number" | "string" | "array" | "object";

function kindOf(v: JsonValue | ParsedValue): Kind {
  if (v === null) return "null";
  if (typeof v === "bigint" || typeof v === "number" || v instanceof FloatLiteral) return "number";
  if (typeof v === "boolean" || typeof v === "string") return typeof v as Kind;
  return Array.isArray(v) ? "array" : "object";
}

function isIntegerOfOurs(v: number | bigint): boolean {
  return typeof v === "bigint" || Number.isSafeInteger(v);
}

/** Whether our number `a` is Go's JSON number `b`, by the rule above. */
export function sameNumber(a: number | bigint, b: number | bigint | FloatLiteral): boolean {
  if (b instanceof FloatLiteral) return typeof a === "number" && Object.is(a, b.value);
  // Go writes a negative zero "-0", which the parser reads as a FloatLiteral: an integer literal is never one.
  if (Object.is(a, -0)) return false;
  if (isIntegerOfOurs(a)) return BigInt(a) === BigInt(b);
  const x = a as number;
  return Number.isInteger(x) && Math.abs(x) < 1e21 && String(x) === b.toString();
}

const own = (o: object, k: string): boolean => Object.hasOwn(o, k);

/**
 * The kind of the first difference between our value and Go's (keys in
 * sorted order, elements in order), or undefined when they are equal:
 * `type-<ours>-<go>`, `number`, `boolean`, `string`, `trailing-whitespace`,
 * `whitespace`, `array-length`, `keys-missing` (a key of Go's we lack),
 * `keys-extra` (a key Go lacks).
 */
export function rawDifference(a: JsonValue, b: ParsedValue): string | undefined {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return `type-${ka}-${kb}`;
  switch (ka) {
    case "null":
      return undefined;
    case "boolean":
      return a === b ? undefined : "boolean";
    case "number":
      return sameNumber(a as number | bigint, b as number | bigint | FloatLiteral) ? undefined : "number";
    case "string": {
      const p = a as string;
      const q = b as string;
      if (p === q) return undefined;
      if (p.replace(/\s+$/, "") === q.replace(/\s+$/, "")) return "trailing-whitespace";
      if (p.replace(/\s+/g, "") === q.replace(/\s+/g, "")) return "whitespace";
      return "string";
    }
    case "array": {
      const p = a as JsonValue[];
      const q = b as ParsedValue[];
      if (p.length !== q.length) return "array-length";
      for (let i = 0; i < p.length; i++) {
        const d = rawDifference(p[i] as JsonValue, q[i] as ParsedValue);
        if (d !== undefined) return d;
      }
      return undefined;
    }
    default: {
      const p = a as { readonly [k: string]: JsonValue };
      const q = b as { readonly [k: string]: ParsedValue };
      const keys = [...new Set([...Object.keys(p), ...Object.keys(q)])].sort();
      for (const k of keys) {
        if (!own(p, k)) return "keys-missing";
        if (!own(q, k)) return "keys-extra";
        // Go's json.Marshal never repeats a key, so a DuplicateKey here would be an oracle fault.
        const d = rawDifference(p[k] as JsonValue, q[k] as ParsedValue);
        if (d !== undefined) return d;
      }
      return undefined;
    }
  }
}

/** Go's value written back as compact JSON with sorted keys, numbers as Go wrote them, for reports. */
export function renderParsed(v: ParsedValue): string {
  if (v instanceof FloatLiteral) return v.text;
  if (typeof v === "bigint") return v.toString();
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(renderParsed).join(",")}]`;
  const o = v as { readonly [k: string]: ParsedValue };
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${renderParsed(o[k] as ParsedValue)}`)
    .join(",")}}`;
}
