import { isGoTimestamp } from "./timestamp.js";

// go-yaml v2 `resolve`: what an untagged plain scalar means.

/** A scalar as go-yaml v2 hands it to `interface{}`. */
export type GoScalar =
  | { readonly kind: "str"; readonly text: string }
  | { readonly kind: "timestamp"; readonly text: string }
  | { readonly kind: "null" }
  | { readonly kind: "bool"; readonly value: boolean }
  /** Fits int64 (Go `int` on 64-bit platforms). */
  | { readonly kind: "int"; readonly value: bigint }
  /** Above int64, fits uint64. */
  | { readonly kind: "uint"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number };

export const NULL: GoScalar = { kind: "null" };
const RESOLVE_MAP = new Map<string, GoScalar>();
for (const [words, value] of [
  ["y Y yes Yes YES true True TRUE on On ON", { kind: "bool", value: true }],
  ["n N no No NO false False FALSE off Off OFF", { kind: "bool", value: false }],
  ["~ null Null NULL", NULL],
  [".nan .NaN .NAN", { kind: "float", value: Number.NaN }],
  [".inf .Inf .INF +.inf +.Inf +.INF", { kind: "float", value: Number.POSITIVE_INFINITY }],
  ["-.inf -.Inf -.INF", { kind: "float", value: Number.NEGATIVE_INFINITY }],
] as const) {
  for (const w of words.split(" ")) RESOLVE_MAP.set(w, value);
}
RESOLVE_MAP.set("", NULL);

export const INT64_MAX = (1n << 63n) - 1n;
export const UINT64_MAX = (1n << 64n) - 1n;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** strconv.ParseFloat syntax for text starting with `.` (underscores only between digits). */
const GO_DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;
export const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

function digitValue(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x7a) return l - 0x61 + 10;
  return -1;
}

/** strconv.ParseUint(s, base, 64); base 0 reads a 0b/0o/0x/0 prefix. */
function goParseUint(s: string, base: number): bigint | undefined {
  if (s === "") return undefined;
  let digits = s;
  if (base === 0) {
    base = 10;
    if (s[0] === "0") {
      const p = s.length >= 3 ? (s[1] ?? "").toLowerCase() : "";
      base = p === "b" ? 2 : p === "x" ? 16 : 8;
      digits = p === "b" || p === "o" || p === "x" ? s.slice(2) : s.slice(1);
    }
  }
  const b = BigInt(base);
  let n = 0n;
  for (const ch of digits) {
    const d = digitValue(ch);
    if (d < 0 || d >= base) return undefined;
    n = n * b + BigInt(d);
    if (n > UINT64_MAX) return undefined;
  }
  return n;
}

/** strconv.ParseInt(s, base, 64). */
function goParseInt(s: string, base: number): bigint | undefined {
  if (s === "") return undefined;
  const neg = s[0] === "-";
  const un = goParseUint(neg || s[0] === "+" ? s.slice(1) : s, base);
  if (un === undefined || un > (neg ? INT64_MAX + 1n : INT64_MAX)) return undefined;
  return neg ? -un : un;
}

function intScalar(v: bigint): GoScalar {
  return { kind: "int", value: v };
}

/** go-yaml v2 `resolve("", s)`: the meaning of an untagged plain scalar. */
export function resolvePlain(s: string): GoScalar {
  const c = s.charCodeAt(0);
  const hint =
    s === ""
      ? "N"
      : c === 0x2b || c === 0x2d
        ? "S"
        : c >= 0x30 && c <= 0x39
          ? "D"
          : c === 0x2e
            ? "."
            : "yYnNtTfFoO~".includes(s[0] ?? "")
              ? "M"
              : "";
  if (hint === "") return { kind: "str", text: s };
  const mapped = RESOLVE_MAP.get(s);
  if (mapped !== undefined) return mapped;
  if (hint === ".") {
    if (GO_DOT_FLOAT.test(s)) {
      const f = Number(s.replace(/_/g, ""));
      if (Number.isFinite(f)) return { kind: "float", value: f };
    }
  } else if (hint === "D" || hint === "S") {
    if (isGoTimestamp(s)) return { kind: "timestamp", text: s };
    const plain = s.replace(/_/g, "");
    const i = goParseInt(plain, 0);
    if (i !== undefined) return intScalar(i);
    const u = goParseUint(plain, 0);
    if (u !== undefined) return { kind: "uint", value: u };
    if (YAML_STYLE_FLOAT.test(plain)) {
      // ParseFloat fails on overflow, and then the text stays a string.
      const f = Number(plain);
      if (Number.isFinite(f)) return { kind: "float", value: f };
    }
    if (plain.startsWith("0b")) {
      const b = goParseInt(plain.slice(2), 2);
      if (b !== undefined) return intScalar(b);
      const ub = goParseUint(plain.slice(2), 2);
      if (ub !== undefined) return { kind: "uint", value: ub };
    } else if (plain.startsWith("-0b")) {
      const b = goParseInt("-" + plain.slice(3), 2);
      if (b !== undefined) return intScalar(b);
    }
  }
  return { kind: "str", text: s };
}
