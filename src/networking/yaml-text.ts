/**
 * Kubernetes YAML text, byte-compatible with the Go API machinery.
 *
 * - {@link stringifyGoYaml} reproduces sigs.k8s.io/yaml `JSONToYAML`, i.e. the
 *   JSON value decoded by go-yaml v2 (2.4, the version Kubernetes vendors) and
 *   marshalled again by go-yaml v2.
 * - {@link parseYamlDocuments} reads a multi-document stream like `YAMLToJSON`
 *   does: YAML 1.1 scalar resolution as go-yaml v2 implements it, unquoted
 *   timestamps kept as strings, non-string keys converted as Go converts them.
 *
 * The `yaml` package does the YAML syntax (lexer, parser, composer). Scalar
 * resolution and the emitter are written here because both must follow
 * go-yaml's own rules, which the package's schemas and stringifier do not
 * express: e.g. go-yaml folds long lines at the first space *after* column 80
 * (the package folds *before* it), quotes `1:20`, `0o17` and `2008-01-01`,
 * escapes every non-BMP character, and sorts keys "naturally" (`a9` < `a10`).
 */
import {
  Composer,
  Lexer,
  LineCounter,
  Parser,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
  type CST,
  type Document,
  type Scalar,
} from "yaml";
import { DecodeError, type DecodeErrorLocation } from "./model/errors.js";
import type { JsonObject, JsonValue } from "./model/json-value.js";

// ---------------------------------------------------------------------------
// Character classes of the go-yaml (libyaml) emitter, on code points.

const SP = 0x20;
const LF = 0x0a;

function isBreak(c: number): boolean {
  return c === LF || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}
function isBlank(c: number): boolean {
  return c === SP || c === 0x09;
}
/** Blank, break or NUL: what the emitter treats as "whitespace before `#`". */
function isBlankZ(c: number): boolean {
  return isBlank(c) || isBreak(c) || c === 0;
}
/** libyaml's printable set: no C0/C1 controls, no BOM, nothing above the BMP. */
function isPrintable(c: number): boolean {
  return (
    c === LF ||
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}
function utf8Length(cps: readonly number[]): number {
  let n = 0;
  for (const c of cps) n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  return n;
}
function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) ?? 0xfffd);
  return out;
}
/** Go strings cannot hold lone surrogates; its JSON decoder turns them into U+FFFD. */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

// ---------------------------------------------------------------------------
// go-yaml v2 `resolve`: what an untagged plain scalar means.

/** A scalar as go-yaml v2 hands it to `interface{}`. */
type GoScalar =
  | { readonly kind: "str"; readonly text: string }
  | { readonly kind: "timestamp"; readonly text: string }
  | { readonly kind: "null" }
  | { readonly kind: "bool"; readonly value: boolean }
  /** Fits int64 (Go `int` on 64-bit platforms). */
  | { readonly kind: "int"; readonly value: bigint }
  /** Above int64, fits uint64. */
  | { readonly kind: "uint"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number };

const NULL: GoScalar = { kind: "null" };
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

const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** strconv.ParseFloat syntax for text starting with `.` (underscores only between digits). */
const GO_DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

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
function resolvePlain(s: string): GoScalar {
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

// go-yaml's timestamp check is Go's time.Parse with these layouts.
type TimeField = "year" | "month" | "day" | "hour" | "minute" | "second" | "frac" | "tz";
type TimeLayout = readonly (TimeField | { readonly lit: string })[];
const DATE: TimeLayout = ["year", { lit: "-" }, "month", { lit: "-" }, "day"];
const CLOCK: TimeLayout = ["hour", { lit: ":" }, "minute", { lit: ":" }, "second", "frac"];
const TIMESTAMP_LAYOUTS: readonly TimeLayout[] = [
  [...DATE, { lit: "T" }, ...CLOCK, "tz"], // 2006-1-2T15:4:5.999999999Z07:00
  [...DATE, { lit: "t" }, ...CLOCK, "tz"], // 2006-1-2t15:4:5.999999999Z07:00
  [...DATE, { lit: " " }, ...CLOCK], // 2006-1-2 15:4:5.999999999
  DATE, // 2006-1-2
];

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  const d0 = s.charCodeAt(0) - 0x30;
  if (!isDigitAt(s, 1)) return fixed ? undefined : [d0, s.slice(1)];
  return [d0 * 10 + s.charCodeAt(1) - 0x30, s.slice(2)];
}

/** Go's time.skip: a space in the layout matches a run of spaces. */
function skipLiteral(value: string, lit: string): string | undefined {
  let v = value;
  let p = lit;
  while (p.length > 0) {
    if (p[0] === " ") {
      if (v.length > 0 && v[0] !== " ") return undefined;
      p = p.replace(/^ +/, "");
      v = v.replace(/^ +/, "");
      continue;
    }
    if (v.length === 0 || v[0] !== p[0]) return undefined;
    p = p.slice(1);
    v = v.slice(1);
  }
  return v;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function goTimeParses(layout: TimeLayout, value: string): boolean {
  let v = value;
  let year = 0;
  let month = 0;
  let day = 0;
  let inRange = true;
  for (const field of layout) {
    if (typeof field !== "string") {
      const rest = skipLiteral(v, field.lit);
      if (rest === undefined) return false;
      v = rest;
      continue;
    }
    if (field === "year") {
      if (!/^[0-9]{4}/.test(v)) return false;
      year = Number(v.slice(0, 4));
      v = v.slice(4);
    } else if (field === "frac") {
      if (v.length >= 2 && (v[0] === "." || v[0] === ",") && isDigitAt(v, 1)) {
        let i = 1;
        while (isDigitAt(v, i + 1)) i++;
        v = v.slice(i + 1);
      }
    } else if (field === "tz") {
      if (v[0] === "Z") {
        v = v.slice(1);
        continue;
      }
      if (v.length < 6 || v[3] !== ":") return false;
      const hh = getnum(v.slice(1, 3), true);
      const mm = getnum(v.slice(4, 6), true);
      if (hh === undefined || mm === undefined || (v[0] !== "+" && v[0] !== "-")) return false;
      if (hh[0] > 24 || mm[0] > 60) inRange = false;
      v = v.slice(6);
    } else {
      const got = getnum(v, false);
      if (got === undefined) return false;
      const [n, rest] = got;
      v = rest;
      if (field === "month") {
        month = n;
        if (n < 1 || n > 12) inRange = false;
      } else if (field === "day") day = n;
      else if (n >= (field === "hour" ? 24 : 60)) inRange = false;
    }
  }
  return v === "" && inRange && day >= 1 && day <= daysIn(month, year);
}

function isGoTimestamp(s: string): boolean {
  // Quick check as in go-yaml: exactly four digits, then '-'.
  if (!/^[0-9]{4}-/.test(s)) return false;
  return TIMESTAMP_LAYOUTS.some((layout) => goTimeParses(layout, s));
}

// ---------------------------------------------------------------------------
// Go number formatting.

/** strconv.FormatFloat(x, 'g', -1, bits) with go-yaml's names for NaN and infinities. */
function goFormatFloat(x: number, bits: 32 | 64): string {
  if (Number.isNaN(x)) return ".nan";
  if (x === Number.POSITIVE_INFINITY) return ".inf";
  if (x === Number.NEGATIVE_INFINITY) return "-.inf";
  const v = bits === 32 ? Math.fround(x) : x;
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const a = Math.abs(v);
  let sci = a.toExponential(); // shortest digits that round-trip a float64
  if (bits === 32) {
    for (let p = 0; p <= 8; p++) {
      const s = a.toExponential(p);
      if (Math.fround(Number(s)) === a) {
        sci = s;
        break;
      }
    }
  }
  const [mant = "0", e = "0"] = sci.split("e");
  const digits = mant.replace(".", "");
  const exp = Number(e);
  const sign = v < 0 ? "-" : "";
  // Shortest 'g' switches to %e when the exponent is < -4 or >= 6.
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? "." + digits.slice(1) : "";
    const ae = Math.abs(exp);
    return `${sign}${digits[0] ?? "0"}${frac}e${exp < 0 ? "-" : "+"}${ae < 10 ? "0" : ""}${ae}`;
  }
  const dp = exp + 1; // digits before the decimal point
  if (dp <= 0) return `${sign}0.${"0".repeat(-dp)}${digits}`;
  if (dp >= digits.length) return sign + digits + "0".repeat(dp - digits.length);
  return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

/**
 * The YAML text of a JSON number after go-yaml read it from JSON: integers in
 * int64/uint64 range print in decimal, everything else as a Go float64.
 */
function formatNumber(n: number | bigint): string {
  if (typeof n === "bigint") {
    if (n >= -(INT64_MAX + 1n) && n <= UINT64_MAX) return n.toString();
    return goFormatFloat(Number(n), 64);
  }
  if (Number.isInteger(n)) {
    const b = BigInt(n);
    if (b >= -(INT64_MAX + 1n) && b <= UINT64_MAX) return b.toString();
  }
  return goFormatFloat(n, 64);
}

// ---------------------------------------------------------------------------
// go-yaml v2 key order (sorter.go): not byte order. Letters sort after other
// characters and digit runs compare by numeric value, so `a9` < `a10` and
// `_x` < `Zed`.

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;
function isLetterCp(c: number): boolean {
  return LETTER.test(String.fromCodePoint(c));
}
function isDigitCp(c: number): boolean {
  return DIGIT.test(String.fromCodePoint(c));
}

function goKeyLess(ar: readonly number[], br: readonly number[]): boolean {
  const n = Math.min(ar.length, br.length);
  for (let i = 0; i < n; i++) {
    const a = ar[i] ?? 0;
    const b = br[i] ?? 0;
    if (a === b) continue;
    const al = isLetterCp(a);
    const bl = isLetterCp(b);
    if (al && bl) return a < b;
    if (al || bl) return bl;
    // Digit runs compare numerically (Go int64 arithmetic, so wrap like it).
    let an = 0n;
    let bn = 0n;
    if (a === 0x30 || b === 0x30) {
      for (let j = i - 1; j >= 0 && isDigitCp(ar[j] ?? 0); j--) {
        if (ar[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigitCp(ar[ai] ?? 0); ai++) {
      an = BigInt.asIntN(64, an * 10n + BigInt((ar[ai] ?? 0) - 0x30));
    }
    let bi = i;
    for (; bi < br.length && isDigitCp(br[bi] ?? 0); bi++) {
      bn = BigInt.asIntN(64, bn * 10n + BigInt((br[bi] ?? 0) - 0x30));
    }
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return a < b;
  }
  return ar.length < br.length;
}

function sortKeysLikeGo(keys: string[]): string[] {
  const decorated = keys.map((k) => ({ k, cps: codePoints(k) }));
  decorated.sort((x, y) => (goKeyLess(x.cps, y.cps) ? -1 : goKeyLess(y.cps, x.cps) ? 1 : 0));
  return decorated.map((d) => d.k);
}

// ---------------------------------------------------------------------------
// The emitter: the parts of libyaml's emitter (as ported in go-yaml v2) that a
// JSON value can reach. Block collections, flow only for `{}` / `[]`, width 80,
// indent 2, unicode output on.

type ScalarStyle = "plain" | "single" | "double" | "literal";

interface ScalarAnalysis {
  readonly multiline: boolean;
  readonly blockPlainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

function analyzeScalar(v: readonly number[]): ScalarAnalysis {
  if (v.length === 0) {
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  const [c0, c1, c2] = v;
  if ((c0 === 0x2d && c1 === 0x2d && c2 === 0x2d) || (c0 === 0x2e && c1 === 0x2e && c2 === 0x2e)) {
    blockIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < v.length; i++) {
    const c = v[i] ?? 0;
    const next = v[i + 1];
    const followedByWhitespace = next === undefined || isBlank(next);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(String.fromCodePoint(c))) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a || c === 0x2d) && followedByWhitespace) blockIndicators = true; // ? : -
    } else if (c === 0x3a && followedByWhitespace) blockIndicators = true; // ": "
    else if (c === 0x23 && precededByWhitespace) blockIndicators = true; // " #"
    if (!isPrintable(c)) special = true;
    if (c === SP) {
      if (i === 0) leadingSpace = true;
      if (i === v.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === v.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankZ(c);
  }
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

/** The style go-yaml's encoder asks for (encode.go `stringv`); the emitter may still override it. */
function requestedStringStyle(s: string): ScalarStyle {
  if (s.includes("\n")) return "literal";
  const r = resolvePlain(s);
  return r.kind === "str" && !(/^[-+0-9]/.test(s) && s.includes(":") && BASE60_FLOAT.test(s)) ? "plain" : "double";
}

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

const SHORT_ESCAPES = new Map<number, string>([
  [0x00, "0"],
  [0x07, "a"],
  [0x08, "b"],
  [0x09, "t"],
  [0x0a, "n"],
  [0x0b, "v"],
  [0x0c, "f"],
  [0x0d, "r"],
  [0x1b, "e"],
  [0x22, '"'],
  [0x5c, "\\"],
  [0x85, "N"],
  [0xa0, "_"],
  [0x2028, "L"],
  [0x2029, "P"],
]);

class GoYamlEmitter {
  out = "";
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;
  private readonly ancestors = new Set<object>();

  private put(s: string): void {
    this.out += s;
    this.column += s.length; // only ever ASCII
  }
  private putCp(c: number): void {
    this.out += String.fromCodePoint(c);
    this.column++;
  }
  private putBreak(): void {
    this.out += "\n";
    this.column = 0;
  }
  private writeBreak(c: number): void {
    if (c === LF) this.putBreak();
    else {
      this.putCp(c);
      this.column = 0;
    }
  }
  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(" ");
    this.whitespace = true;
    this.indention = true;
  }
  private writeIndicator(ind: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(" ");
    this.put(ind);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }
  private popIndent(): void {
    this.indent = this.indents.pop() ?? -1;
  }

  /** One node; `mapping` marks a mapping value (block sequences there are not indented). */
  node(value: JsonValue, mapping: boolean, path: string): void {
    if (value === null) return this.scalar("null", "plain", false);
    switch (typeof value) {
      case "boolean":
        return this.scalar(value ? "true" : "false", "plain", false);
      case "number":
      case "bigint":
        return this.scalar(formatNumber(value), "plain", false);
      case "string": {
        const s = wellFormed(value);
        return this.scalar(s, requestedStringStyle(s), false);
      }
      case "object":
        break;
      default:
        throw new DecodeError("yaml", `cannot encode a value of type ${typeof value}`, { path });
    }
    if (this.ancestors.has(value)) throw new DecodeError("yaml", "cannot encode a cyclic value", { path });
    this.ancestors.add(value);
    if (Array.isArray(value)) this.sequence(value, mapping, path);
    else this.mappingNode(value, path);
    this.ancestors.delete(value);
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.popIndent();
    this.writeIndicator(close, false, false, false);
  }

  private sequence(items: readonly JsonValue[], mapping: boolean, path: string): void {
    if (items.length === 0) return this.emptyFlow("[", "]");
    this.increaseIndent(false, mapping && !this.indention);
    items.forEach((item, i) => {
      this.writeIndent();
      this.writeIndicator("-", true, false, true);
      this.node(item, false, `${path}[${i}]`);
    });
    this.popIndent();
  }

  private mappingNode(obj: JsonObject, path: string): void {
    // Like JSON.stringify, keys holding undefined are left out.
    const keys = sortKeysLikeGo(Object.keys(obj).filter((k) => obj[k] !== undefined));
    if (keys.length === 0) return this.emptyFlow("{", "}");
    this.increaseIndent(false, false);
    for (const rawKey of keys) {
      const key = wellFormed(rawKey);
      const style = requestedStringStyle(key);
      const cps = codePoints(key);
      const a = analyzeScalar(cps);
      this.writeIndent();
      if (!a.multiline && utf8Length(cps) <= 128) {
        this.scalar(key, style, true);
        this.writeIndicator(":", false, false, false);
      } else {
        // Not a simple key: explicit `? key` / `: value`.
        this.writeIndicator("?", true, false, true);
        this.scalar(key, style, false);
        this.writeIndent();
        this.writeIndicator(":", true, false, true);
      }
      this.node(obj[rawKey] ?? null, true, path === "" ? rawKey : `${path}.${rawKey}`);
    }
    this.popIndent();
  }

  private scalar(text: string, requested: ScalarStyle, simpleKey: boolean): void {
    const v = codePoints(text);
    const a = analyzeScalar(v);
    let style = requested;
    if (simpleKey && a.multiline) style = "double";
    if (style === "plain" && (!a.blockPlainAllowed || (v.length === 0 && simpleKey))) style = "single";
    if (style === "single" && !a.singleQuotedAllowed) style = "double";
    if (style === "literal" && (!a.blockAllowed || simpleKey)) style = "double";
    this.increaseIndent(true, false);
    const allowBreaks = !simpleKey;
    if (style === "plain") this.plain(text, v, allowBreaks);
    else if (style === "single") this.singleQuoted(v, allowBreaks);
    else if (style === "double") this.doubleQuoted(v, allowBreaks);
    else this.literal(v);
    this.popIndent();
  }

  private plain(text: string, v: readonly number[], allowBreaks: boolean): void {
    if (!this.whitespace) this.put(" ");
    // Fast path: no space sits past the width, so nothing can fold.
    if (!v.some(isBreak) && (!allowBreaks || this.column + v.lastIndexOf(SP) <= BEST_WIDTH)) {
      this.out += text;
      this.column += v.length;
      this.whitespace = false;
      this.indention = false;
      return;
    }
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i] ?? 0;
      if (c === SP) {
        // Fold at the first space once the line is past the width.
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && v[i + 1] !== SP) this.writeIndent();
        else this.putCp(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putCp(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(v: readonly number[], allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i] ?? 0;
      if (c === SP) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < v.length - 1 && v[i + 1] !== SP) {
          this.writeIndent();
        } else this.putCp(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.putCp(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private doubleQuoted(v: readonly number[], allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // go-yaml's BOM test looks at the start of the value, not at the current
    // character: a value starting with U+FEFF has every character escaped.
    const escapeAll = v[0] === 0xfeff;
    let spaces = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i] ?? 0;
      if (escapeAll || !isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
        const short = SHORT_ESCAPES.get(c);
        if (short !== undefined) this.put("\\" + short);
        else {
          const [prefix, width] = c <= 0xff ? ["x", 2] : c <= 0xffff ? ["u", 4] : ["U", 8];
          this.put(`\\${prefix}${c.toString(16).toUpperCase().padStart(width, "0")}`);
        }
        spaces = false;
      } else if (c === SP) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < v.length - 1) {
          this.writeIndent();
          // A following space would be eaten as indentation: escape it.
          if (v[i + 1] === SP) this.put("\\");
        } else this.putCp(c);
        spaces = true;
      } else {
        this.putCp(c);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(v: readonly number[]): void {
    this.writeIndicator("|", true, false, false);
    const first = v[0];
    if (first !== undefined && (first === SP || isBreak(first))) {
      this.writeIndicator(String(BEST_INDENT), false, false, false);
    }
    // Chomping: strip without a final break, keep with two or more, clip otherwise.
    const last = v[v.length - 1];
    const beforeLast = v[v.length - 2];
    const chomp =
      last === undefined || !isBreak(last)
        ? "-"
        : beforeLast === undefined || isBreak(beforeLast)
          ? "+"
          : "";
    if (chomp !== "") this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of v) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putCp(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/**
 * Serialize a JSON value exactly as Kubernetes serves YAML (sigs.k8s.io/yaml
 * JSONToYAML over go-yaml v2). The result ends with one newline.
 *
 * Throws {@link DecodeError} for values JSON cannot hold (undefined,
 * functions, cycles) and for nesting too deep to walk.
 */
export function stringifyGoYaml(value: JsonValue): string {
  const emitter = new GoYamlEmitter();
  try {
    emitter.node(value, false, "");
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    if (e instanceof RangeError) throw new DecodeError("yaml", "value is nested too deeply to encode");
    throw e;
  }
  emitter.writeIndent(); // document end: finish the last line
  return emitter.out;
}

// ---------------------------------------------------------------------------
// Parsing.

export interface ParseYamlOptions {
  /** Deepest allowed collection nesting (default 100, capped at 500). */
  readonly maxDepth?: number;
  /**
   * Reject a key repeated in one mapping (default true), as go-yaml's strict
   * decoding does. With false the last value wins, as the API server's
   * default (non-strict) YAML-to-JSON step does.
   */
  readonly uniqueKeys?: boolean;
}

/**
 * The composer of the `yaml` package recurses once per nesting level and
 * overflows the stack at roughly 900 levels, so depth is checked on the
 * (iteratively built) CST before composing, and never allowed above this.
 */
const HARD_MAX_DEPTH = 500;
const DEFAULT_MAX_DEPTH = 100;

type Where = (offset: number) => DecodeErrorLocation;

/** Outside YAML 1.1's printable set (tab, breaks, BOM and non-BMP are fine). */
const NOT_PRINTABLE_INPUT = /[^\t\n\r\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** The first collection deeper than `maxDepth`, as an offset; the CST walk is iterative. */
function tooDeepAt(root: CST.Token, maxDepth: number): number | undefined {
  const stack: [CST.Token, number][] = [[root, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [tok, depth] = top;
    switch (tok.type) {
      case "document":
        if (tok.value) stack.push([tok.value, depth]);
        break;
      case "block-map":
      case "block-seq":
      case "flow-collection": {
        if (depth + 1 > maxDepth) return tok.offset;
        for (const item of tok.items) {
          if ("key" in item && item.key) stack.push([item.key, depth + 1]);
          if (item.value) stack.push([item.value, depth + 1]);
        }
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

const TAG_PREFIX = "tag:yaml.org,2002:";
const RESOLVABLE_TAGS = new Set(["bool", "int", "float", "null", "timestamp"]);

/** Go's base64.StdEncoding.DecodeString (which skips CR and LF), then the bytes as a Go string. */
function decodeBinary(text: string): string | undefined {
  const b64 = text.replace(/[\r\n]/g, "");
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  const bytes = Buffer.from(b64, "base64");
  // Go replaces each byte of an invalid UTF-8 sequence with U+FFFD when it
  // writes JSON; TextDecoder would merge some of them.
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i] ?? 0;
    // Continuation bytes a lead byte announces; -1 for bytes that cannot start a sequence.
    const need =
      b0 < 0x80 ? 0 : b0 >= 0xc2 && b0 <= 0xdf ? 1 : b0 >= 0xe0 && b0 <= 0xef ? 2 : b0 >= 0xf0 && b0 <= 0xf4 ? 3 : -1;
    let cp = need === 0 ? b0 : need === 1 ? b0 & 0x1f : need === 2 ? b0 & 0x0f : b0 & 0x07;
    let ok = need >= 0 && i + need < bytes.length;
    for (let k = 1; ok && k <= need; k++) {
      const bk = bytes[i + k] ?? 0;
      if ((bk & 0xc0) !== 0x80) ok = false;
      cp = (cp << 6) | (bk & 0x3f);
    }
    const min = [0, 0x80, 0x800, 0x10000][need] ?? 0;
    if (ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      out += String.fromCodePoint(cp);
      i += need + 1;
    } else {
      out += "\uFFFD";
      i += 1;
    }
  }
  return out;
}

/**
 * A block scalar (`|`, `>`) as go-yaml v2 reads it, where that differs from
 * the `yaml` package's `value` (test/suites/yaml-block-scalars.test.ts checks
 * both against go-yaml itself):
 *
 * - go-yaml ends the last content line with a line break (clip `|`, keep
 *   `|+`) only if the input has one there. At the end of input without a
 *   final newline it adds none; the package always does. Before `---`, `...`
 *   or a less indented line the break is in the input, so both agree, and
 *   `|-` drops it anyway.
 * - With an explicit indentation indicator (`|2`), a line of only spaces that
 *   is more indented than the indicator says is content (the spaces past the
 *   indentation). The package reads a scalar made only of such lines as
 *   empty. (Without an indicator, a scalar of only blank lines takes the
 *   deepest one's indentation, so none of them is content: both agree.)
 *
 * `token` is the scalar's CST token (the composer keeps it as `srcToken`):
 * its header, the indentation of its parent and its raw lines.
 */
function goBlockScalar(value: string, token: CST.BlockScalar | undefined): string {
  if (token?.type !== "block-scalar") return value;
  const header = token.props[0]?.type === "block-scalar-header" ? token.props[0].source : "";
  const chomp = header.includes("-") ? "-" : header.includes("+") ? "+" : "";
  const indicator = Number(/[1-9]/.exec(header)?.[0] ?? 0);
  // The lines after the header; the last one is what follows the last line
  // break (often ""). A CR of a CRLF is not part of the line.
  const lines = token.source.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const blank = (line: string): boolean => /^ *$/.test(line);
  const firstContent = lines.find((l) => !blank(l));
  const contentIndent = indicator > 0 ? token.indent + indicator : firstContent?.match(/^ */)?.[0].length;

  if (indicator > 0 && contentIndent !== undefined && lines.every(blank) && lines.some((l) => l.length > contentIndent)) {
    // go-yaml's scan_block_scalar on blank lines: no folding (a content line
    // that starts with a space is never folded), breaks kept as they come.
    let out = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    lines.forEach((line, i) => {
      const lineBreak = i < lines.length - 1 ? "\n" : ""; // none at the end of input
      if (line.length > contentIndent) {
        out += leadingBreak + trailingBreaks + line.slice(contentIndent);
        leadingBreak = lineBreak;
        trailingBreaks = "";
      } else trailingBreaks += lineBreak;
    });
    return out + (chomp === "-" ? "" : leadingBreak) + (chomp === "+" ? trailingBreaks : "");
  }

  // The input ends inside the scalar without a final line break: the last
  // line, if it is content (or the only line: then there is no break at all
  // to keep), has no break for go-yaml, while the package added one.
  if (chomp === "-" || lines[lines.length - 1] === "" || !value.endsWith("\n")) return value;
  const last = lines[lines.length - 1] ?? "";
  const lastIsContent = !blank(last) || (contentIndent !== undefined && last.length > contentIndent);
  return lines.length === 1 || lastIsContent ? value.slice(0, -1) : value;
}

/** Converts one composed document to a JSON value following go-yaml v2 + sigs.k8s.io/yaml. */
class DocumentConverter {
  // go-yaml counts the document node too.
  private decodeCount = 1;
  private aliasCount = 0;
  private aliasDepth = 0;
  private readonly expanding = new Set<unknown>();
  private readonly aliasTargets = new Map<unknown, unknown>();

  constructor(
    private readonly text: string,
    private readonly where: Where,
    private readonly maxDepth: number,
    private readonly uniqueKeys: boolean,
  ) {}

  private fail(reason: string, node: unknown): never {
    const range = (node as { range?: readonly number[] | null } | null)?.range;
    throw new DecodeError("yaml", reason, this.where(range?.[0] ?? 0));
  }

  /**
   * Aliases point at the latest anchor defined before them in document order;
   * as in go-yaml, an anchor registers when its node starts.
   */
  collectAnchors(node: unknown, anchors: Map<string, unknown>): void {
    if (isAlias(node)) {
      this.aliasTargets.set(node, anchors.get(node.source));
      return;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return;
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    if (isMap(node)) {
      for (const pair of node.items) {
        this.collectAnchors(pair.key, anchors);
        this.collectAnchors(pair.value, anchors);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) this.collectAnchors(item, anchors);
    }
  }

  /** go-yaml's guard against alias expansion bombs (decode.go, allowedAliasRatio). */
  private count(node: unknown): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    const d = this.decodeCount;
    const allowed = d <= 400_000 ? 0.99 : d >= 4_000_000 ? 0.1 : 0.99 - (0.89 * (d - 400_000)) / 3_600_000;
    if (this.aliasCount > 100 && d > 1000 && this.aliasCount / d > allowed) {
      this.fail("document contains excessive aliasing", node);
    }
  }

  /** Follows an alias (counting it as go-yaml does) and returns its target. */
  private deref<T>(alias: { source: string }, node: unknown, use: (target: unknown) => T): T {
    const target = this.aliasTargets.get(node);
    if (target === undefined) this.fail(`unknown anchor '${alias.source}' referenced`, node);
    if (this.expanding.has(node)) this.fail(`anchor '${alias.source}' value contains itself`, node);
    this.expanding.add(node);
    this.aliasDepth++;
    try {
      return use(target);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(node);
    }
  }

  /** go-yaml refuses a `\u` or `\U` escape of a surrogate, paired or not: it is not a character. */
  private checkEscapes(node: Scalar): void {
    const [start = 0, end = 0] = node.range ?? [];
    const raw = this.text.slice(start, end);
    for (let i = raw.indexOf("\\"); i >= 0; i = raw.indexOf("\\", i + 2)) {
      const e = raw[i + 1];
      if (e !== "u" && e !== "U") continue;
      const cp = parseInt(raw.slice(i + 2, i + (e === "u" ? 6 : 10)), 16);
      if (cp >= 0xd800 && cp <= 0xdfff) throw new DecodeError("yaml", "found invalid Unicode character escape code", this.where(start + i));
    }
  }

  private scalar(node: Scalar): GoScalar {
    if (node.type === "QUOTE_DOUBLE") this.checkEscapes(node);
    let text = node.source ?? String(node.value ?? "");
    if (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") {
      text = goBlockScalar(text, (node as { srcToken?: CST.BlockScalar }).srcToken);
    }
    // go-yaml reads U+2028/U+2029 as line breaks: in a flow scalar the blanks
    // around one are folding whitespace and vanish, while the break itself
    // is kept. YAML 1.2 (the yaml package) treats them as ordinary text.
    if ((node.type === "QUOTE_SINGLE" || node.type === "PLAIN") && /[\u2028\u2029]/.test(text)) {
      text = text.replace(/[ \t]*([\u2028\u2029])[ \t]*/g, "$1");
    }
    const tag = node.tag;
    if (tag === undefined) return node.type === "PLAIN" ? resolvePlain(text) : { kind: "str", text };
    if (!tag.startsWith(TAG_PREFIX)) return { kind: "str", text }; // `!`, local tags
    const name = tag.slice(TAG_PREFIX.length);
    if (name === "binary") {
      const decoded = decodeBinary(text);
      if (decoded === undefined) this.fail("!!binary value contains invalid base64 data", node);
      return { kind: "str", text: decoded };
    }
    if (!RESOLVABLE_TAGS.has(name)) return { kind: "str", text };
    const r = resolvePlain(text);
    if (r.kind === name) return r;
    if (name === "float" && r.kind === "int") return { kind: "float", value: Number(r.value) };
    const got = r.kind === "uint" ? "int" : r.kind;
    return this.fail(`cannot decode !!${got} \`${text}\` as a !!${name}`, node);
  }

  value(node: unknown, depth: number): JsonValue {
    this.count(node);
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.deref(node, node, (target) => this.value(target, depth));
    if (isScalar(node)) {
      const s = this.scalar(node);
      switch (s.kind) {
        case "str":
        case "timestamp":
          return s.text;
        case "null":
          return null;
        case "bool":
          return s.value;
        case "int":
        case "uint":
          return s.value >= BigInt(Number.MIN_SAFE_INTEGER) && s.value <= BigInt(Number.MAX_SAFE_INTEGER)
            ? Number(s.value)
            : s.value;
        case "float":
          if (!Number.isFinite(s.value)) {
            this.fail(`JSON cannot represent the float ${goFormatFloat(s.value, 64)}`, node);
          }
          return s.value;
      }
    }
    if (depth + 1 > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`, node);
    if (isSeq(node)) return node.items.map((item) => this.value(item, depth + 1));
    if (isMap(node)) {
      const obj: JsonObject = Object.create(null) as JsonObject;
      // go-yaml v2 applies entries in document order into one map: a later
      // key, merged or written, replaces an earlier one; strict decoding
      // rejects any key already set.
      for (const pair of node.items) {
        if (this.isMergeKey(pair.key)) {
          this.merge(obj, pair.value, depth + 1);
          continue;
        }
        const key = this.key(pair.key, depth + 1);
        if (this.uniqueKeys && Object.prototype.hasOwnProperty.call(obj, key)) {
          this.fail(`mapping key ${JSON.stringify(key)} already defined`, pair.key ?? node);
        }
        obj[key] = this.value(pair.value, depth + 1);
      }
      return obj;
    }
    return this.fail("unsupported YAML node", node);
  }

  private isMergeKey(key: unknown): boolean {
    return (
      isScalar(key) &&
      key.source === "<<" &&
      ((key.type === "PLAIN" && key.tag === undefined) || key.tag === `${TAG_PREFIX}merge`)
    );
  }

  /** `<<` merge keys: each merged map is written into `obj` like its own entries. */
  private merge(obj: JsonObject, source: unknown, depth: number): void {
    const copy = (from: JsonValue, at: unknown): void => {
      for (const k of Object.keys(from as JsonObject)) {
        if (this.uniqueKeys && Object.prototype.hasOwnProperty.call(obj, k)) {
          this.fail(`mapping key ${JSON.stringify(k)} already set in map`, at);
        }
        obj[k] = (from as JsonObject)[k] ?? null;
      }
    };
    const mergeOne = (n: unknown): void => {
      // An alias to nothing fails as an unknown anchor inside value().
      const target = isAlias(n) ? this.aliasTargets.get(n) : n;
      const ok = isMap(target) || (isAlias(n) && target === undefined);
      if (!ok) this.fail("map merge requires map or sequence of maps as the value", source);
      copy(this.value(n, depth), n);
    };
    if (isSeq(source)) {
      // Earlier entries take precedence, so apply them last.
      for (let i = source.items.length - 1; i >= 0; i--) mergeOne(source.items[i]);
    } else mergeOne(source);
  }

  /** A mapping key as sigs.k8s.io/yaml turns it into a JSON object key. */
  private key(node: unknown, depth: number): string {
    this.count(node);
    if (isAlias(node)) return this.deref(node, node, (target) => this.key(target, depth));
    if (node === null || node === undefined) this.fail("unsupported map key: null", node);
    if (!isScalar(node)) return this.fail("invalid map key: a mapping or sequence cannot be a key", node);
    const s = this.scalar(node);
    switch (s.kind) {
      case "str":
      case "timestamp":
        return s.text;
      case "int":
        return s.value.toString();
      case "bool":
        return s.value ? "true" : "false";
      case "float":
        return goFormatFloat(s.value, 32); // sigs.k8s.io/yaml formats float keys at 32-bit precision
      case "uint":
        return this.fail(`unsupported map key of type uint64: ${s.value}`, node);
      case "null":
        return this.fail("unsupported map key: null", node);
    }
  }
}

/**
 * The text as go-yaml's reader and scanner see it, at the same offsets. YAML
 * 1.1 has more line breaks than the `yaml` package's YAML 1.2: a lone CR and
 * NEL break lines too (and read as LF in scalars). A BOM at the start of a
 * line, where the scanner looks for the next token, is skipped but takes a
 * column, as a space does; inside a quoted or block scalar it is text.
 */
function goYamlSource(text: string): string {
  let s = /[\r\x85]/.test(text) ? text.replace(/\r(?!\n)|\x85/g, "\n") : text;
  if (s.includes("\n\ufeff")) {
    const lineStarts = new Set<number>();
    for (let i = s.indexOf("\n\ufeff"); i >= 0; i = s.indexOf("\n\ufeff", i + 1)) lineStarts.add(i + 1);
    const spaces: number[] = [];
    let offset = 0;
    for (const lexeme of new Lexer().lex(s)) {
      if (lexeme === DOCUMENT_MARK || lexeme === FLOW_ERROR_MARK || lexeme === SCALAR_MARK) continue; // take no text
      if (lineStarts.has(offset) && lexeme.startsWith("\ufeff")) spaces.push(offset);
      offset += lexeme.length;
    }
    let out = "";
    let from = 0;
    for (const at of spaces) {
      out += s.slice(from, at) + " ";
      from = at + 1;
    }
    s = out + s.slice(from);
  }
  return s;
}

/**
 * libyaml ends a simple key's chance once the scanner is more than 1,024
 * characters past its start when it reaches the `:`; the `yaml` package
 * counts UTF-16 units, so a key of astral characters would fail sooner.
 */
function simpleKeyFits(text: string, start: number, end: number): boolean {
  let colon = end;
  while (text[colon] === " " || text[colon] === "\t") colon++;
  let chars = 0;
  for (let i = start; i < colon; i++) if ((text.charCodeAt(i) & 0xfc00) !== 0xdc00) chars++;
  return chars <= 1024;
}

// The lexer's zero-width lexemes (see CST.tokenType in the `yaml` package).
const DOCUMENT_MARK = "\x02";
const FLOW_ERROR_MARK = "\x18";
const SCALAR_MARK = "\x1f";

function collectionDepthAt(stack: readonly CST.Token[], maxDepth: number): number {
  let depth = 0;
  for (const tok of stack) {
    if ((tok.type === "block-map" || tok.type === "block-seq" || tok.type === "flow-collection") && ++depth > maxDepth) return tok.offset;
  }
  return -1;
}

function parseDocuments(original: string, maxDepth: number, uniqueKeys: boolean): JsonValue[] {
  const text = goYamlSource(original);
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  const tokens: CST.Token[] = [];
  // Collections being built sit on the parser's stack: stop as soon as one is
  // too deep (the parser slows down super-linearly on very deep input).
  let tooDeep = -1;
  // go-yaml's scanner eats a tab only in flow context or where no simple key
  // may start; elsewhere (at the start of a line, after `-`, `?` or `:` in
  // block context) a tab cannot start any token. YAML 1.2 allows it there.
  let tabAt = -1;
  let flow = 0;
  let keyAllowed = true;
  let atScalar = false;
  for (const lexeme of new Lexer().lex(text)) {
    const offset = parser.offset;
    for (const tok of parser.next(lexeme)) tokens.push(tok);
    if (parser.stack.length > maxDepth + 1 && (tooDeep = collectionDepthAt(parser.stack, maxDepth)) >= 0) break;
    if (atScalar) {
      atScalar = false;
      keyAllowed = false;
      continue;
    }
    switch (lexeme) {
      case SCALAR_MARK: // the next lexeme is a scalar's text
        atScalar = true;
        continue;
      case DOCUMENT_MARK:
      case FLOW_ERROR_MARK:
      case "\ufeff":
      case ",":
        continue;
      case "":
      case "\n":
      case "\r\n":
      case "-":
      case "?":
      case ":":
        if (flow === 0) keyAllowed = true;
        continue;
      case "{":
      case "[":
        flow++;
        continue;
      case "}":
      case "]":
        flow = Math.max(0, flow - 1);
        keyAllowed = false;
        continue;
    }
    const c = lexeme.charCodeAt(0);
    if (c === 0x20 || c === 0x09) {
      if (flow === 0 && keyAllowed && tabAt < 0 && lexeme.includes("\t")) tabAt = offset + lexeme.indexOf("\t");
      continue;
    }
    if (c !== 0x23) keyAllowed = false; // a comment changes nothing
  }
  if (tooDeep < 0) for (const tok of parser.end()) tokens.push(tok);
  let docIndex = 0;
  const whereIn =
    (doc: number): Where =>
    (offset) => {
      const { line, col } = lines.linePos(offset);
      return { line: Math.max(line, 1), column: Math.max(col, 1), document: doc + 1, offset };
    };
  const docStarts = tokens.filter((t) => t.type === "document").map((t) => t.offset);
  if (tooDeep >= 0 && parser.stack[0]?.type === "document") docStarts.push(parser.stack[0].offset);
  const docAt = (offset: number): number => Math.max(0, docStarts.filter((o) => o <= offset).length - 1);

  // go-yaml's reader refuses characters outside YAML's printable set.
  const bad = NOT_PRINTABLE_INPUT.exec(original);
  if (bad !== null && (tooDeep < 0 || bad.index <= tooDeep)) {
    throw new DecodeError("yaml", "control characters are not allowed", whereIn(docAt(bad.index))(bad.index));
  }
  if (tabAt >= 0 && (tooDeep < 0 || tabAt < tooDeep)) {
    throw new DecodeError("yaml", "found character that cannot start any token", whereIn(docAt(tabAt))(tabAt));
  }
  if (tooDeep >= 0) throw new DecodeError("yaml", `nesting deeper than ${maxDepth}`, whereIn(docAt(tooDeep))(tooDeep));

  // Depth first: the composer is recursive and must never see deep input.
  for (const tok of tokens) {
    if (tok.type === "directive") {
      // go-yaml v2 knows %YAML 1.1 and %TAG only.
      const [name, version] = tok.source.slice(1).split(/[ \t]+/);
      let reason: string | undefined;
      if (name === "YAML" && version !== "1.1") reason = "found incompatible YAML document";
      else if (name !== "YAML" && name !== "TAG") reason = "found unknown directive name";
      if (reason !== undefined) throw new DecodeError("yaml", reason, whereIn(docIndex)(tok.offset));
    }
    if (tok.type !== "document") continue;
    const at = tooDeepAt(tok, maxDepth);
    if (at !== undefined) throw new DecodeError("yaml", `nesting deeper than ${maxDepth}`, whereIn(docIndex)(at));
    docIndex++;
  }

  const composer = new Composer({
    version: "1.1",
    // Failsafe: every scalar stays text here; go-yaml's resolution is applied below.
    schema: "failsafe",
    resolveKnownTags: false,
    uniqueKeys: false,
    // Block scalars need their CST token (srcToken): see goBlockScalar.
    keepSourceTokens: true,
  });
  const docs: Document.Parsed[] = Array.from(composer.compose(tokens));
  const out: JsonValue[] = [];
  for (const [i, doc] of docs.entries()) {
    const where = whereIn(i);
    const err = doc.errors.find((e) => !(e.code === "KEY_OVER_1024_CHARS" && simpleKeyFits(text, e.pos[0], e.pos[1])));
    if (err !== undefined) throw new DecodeError("yaml", err.message, where(err.pos[0]));
    const converter = new DocumentConverter(text, where, maxDepth, uniqueKeys);
    converter.collectAnchors(doc.contents, new Map());
    const value = converter.value(doc.contents, 0);
    if (value !== null) out.push(value);
  }
  const streamErr = composer.streamInfo().errors[0];
  if (streamErr !== undefined) throw new DecodeError("yaml", streamErr.message, whereIn(docs.length)(streamErr.pos[0]));
  return out;
}

/**
 * Parse a multi-document YAML stream the way Kubernetes does (sigs.k8s.io/yaml
 * YAMLToJSON on go-yaml v2). Empty and null documents are skipped. Integers
 * are `number` when safe and `bigint` otherwise; unquoted timestamps stay
 * strings; duplicate keys are rejected unless `uniqueKeys` is false (see
 * {@link ParseYamlOptions}).
 *
 * Throws only {@link DecodeError}, with 1-based line, column and document
 * number, and the character offset.
 */
export function parseYamlDocuments(text: string, options: ParseYamlOptions = {}): JsonValue[] {
  try {
    const requested = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
    const maxDepth = Number.isFinite(requested)
      ? Math.max(0, Math.min(Math.floor(requested), HARD_MAX_DEPTH))
      : HARD_MAX_DEPTH;
    if (typeof text !== "string") throw new DecodeError("yaml", "input is not a string");
    return parseDocuments(text, maxDepth, options.uniqueKeys ?? true);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    // Nothing else may escape; a RangeError here would be stack exhaustion.
    const reason = e instanceof RangeError ? "input is nested too deeply" : `unexpected parser failure: ${String(e)}`;
    throw new DecodeError("yaml", reason);
  }
}

/**
 * Where the value at `path` (keys and array indexes) sits in the `index`-th
 * non-empty document of `text`, for errors found after parsing. Falls back to
 * the deepest part of the path that exists.
 */
const NULL_SCALARS = new Set(["", "~", "null", "Null", "NULL"]);

export function locateYamlPath(text: string, index: number, path: readonly (string | number)[]): DecodeErrorLocation {
  try {
    const lines = new LineCounter();
    const docs = parseAllDocuments(goYamlSource(text), { version: "1.1", schema: "failsafe", uniqueKeys: false, lineCounter: lines });
    if (!Array.isArray(docs)) return {};
    const nonEmpty = docs
      .map((d, i) => ({ d, i }))
      // The same documents parseYamlDocuments keeps: a plain null scalar is empty, a quoted '' is not.
      .filter(({ d }) => d.contents !== null && !(isScalar(d.contents) && d.contents.type === "PLAIN" && d.contents.tag === undefined && NULL_SCALARS.has(String(d.contents.source))));
    const entry = nonEmpty[index];
    if (entry === undefined) return {};
    let node: unknown = entry.d.contents;
    let at = (node as { range?: readonly number[] } | null)?.range?.[0];
    for (const seg of path) {
      let next: unknown;
      if (isMap(node)) {
        // A repeated key keeps its last value, so that is the one to point at.
        for (let k = node.items.length - 1; k >= 0; k--) {
          const p = node.items[k];
          if (p !== undefined && isScalar(p.key) && String(p.key.source ?? p.key.value) === String(seg)) {
            next = p.value;
            break;
          }
        }
      } else if (isSeq(node) && typeof seg === "number") {
        next = node.items[seg];
      }
      const r = (next as { range?: readonly number[] } | null | undefined)?.range?.[0];
      if (next === undefined || r === undefined) break;
      node = next;
      at = r;
    }
    if (at === undefined) return { document: entry.i + 1 };
    const { line, col } = lines.linePos(at);
    return { line, column: col, offset: at, document: entry.i + 1 };
  } catch {
    return {};
  }
}
