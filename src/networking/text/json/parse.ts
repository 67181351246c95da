import { DecodeError } from "../../model/errors.js";

/*
 * Why not JSON.parse: on Node 20 it rounds int64 values past 2^53, it cannot
 * hand back the source text of a value (Go keeps fieldsV1 as raw bytes), it
 * silently keeps only the last of duplicate keys (Go decodes every occurrence,
 * and strict mode must report them), and its errors give no line/column.
 */

/** A number written with a fraction or exponent; every numeric field here is an integer. */
export class FloatLiteral {
  constructor(
    readonly value: number,
    readonly text: string,
  ) {}
}

/** The values of a key that occurs more than once in one object, in order. */
export class DuplicateKey {
  constructor(readonly values: ParsedValue[]) {}
}

export type ParsedValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | FloatLiteral
  | ParsedValue[]
  | { [key: string]: ParsedValue | DuplicateKey };

export interface ParsedJson {
  readonly value: ParsedValue;
  readonly text: string;
  /**
   * Source span [start, end) of objects and arrays: of every one with
   * `locate`, otherwise only of `fieldsV1` values (Go keeps their raw text).
   */
  readonly spans: WeakMap<object, readonly [number, number]>;
  /** With `locate`: where each member's value starts, by key or index (every occurrence of a repeated key). */
  readonly starts: WeakMap<object, Map<string | number, number[]>>;
  /**
   * Source spans of `fieldsV1` members that are strings, by the object that
   * holds them and the occurrence of the key (Go keeps their escapes as written).
   */
  readonly stringSpans: WeakMap<object, (readonly [number, number] | undefined)[]>;
}

export interface JsonParseOptions {
  /** Maximum nesting of objects and arrays. Default 100. */
  readonly maxDepth?: number;
  /** Record every position, to point errors at a value (slower; used after a failure). Numbers read as 0. */
  readonly locate?: boolean;
}

/**
 * The keys of a parsed object in the text's order, a repeated key once for
 * each time it is written; kept only for objects whose own key order says
 * otherwise (a repeated key, which a DuplicateKey holds at its first place,
 * or a key like an array index, which a JS object lists first).
 */
const keyOrders = new WeakMap<object, readonly string[]>();

/** The keys of an object parsed from text in the text's order, if that is not Object.keys order (see keyOrders). */
export function textKeyOrder(obj: object): readonly string[] | undefined {
  return keyOrders.get(obj);
}

/** Whether JS lists the key before the others, as an array index (a canonical integer below 2^32 - 1). */
function isIndexKey(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 0x30 && c <= 0x39 && /^(?:0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** Parses JSON text exactly. Throws {@link DecodeError} with line and column. */
export function parseJsonText(text: string, options: JsonParseOptions = {}): ParsedJson {
  if (typeof text !== "string") throw new DecodeError("json", `expected JSON text, got ${typeof text}`);
  const p = new Parser(text, options.maxDepth ?? 100, options.locate === true);
  let value: ParsedValue;
  try {
    p.ws();
    value = p.value(0);
  } catch (e) {
    // A maxDepth beyond what the stack holds (or a number too long for a bigint).
    if (e instanceof RangeError)
      throw jsonError(text, /call stack/i.test(e.message) ? "input nested too deeply" : e.message, p.pos);
    throw e;
  }
  p.ws();
  if (p.pos < text.length) p.fail("unexpected text after the JSON value");
  return { value, text, spans: p.spans, starts: p.starts, stringSpans: p.stringSpans };
}

/**
 * The offset where the value at `path` (JSON keys and array indexes) starts,
 * or of the deepest enclosing value that exists. `occurrences[i]` picks which
 * occurrence of a repeated key segment `i` means (default: the last).
 */
export function locatePath(
  text: string,
  path: readonly (string | number)[],
  occurrences: readonly (number | undefined)[] = [],
): number {
  let parsed: ParsedJson;
  try {
    // The text already parsed within the caller's maxDepth, whatever it was.
    parsed = parseJsonText(text, { locate: true, maxDepth: Infinity });
  } catch {
    return 0;
  }
  let node: unknown = parsed.value;
  let at = 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i] as string | number;
    if (typeof node !== "object" || node === null) break;
    const all = parsed.starts.get(node)?.get(seg);
    if (all === undefined || all.length === 0) break;
    const which = Math.min(occurrences[i] ?? all.length - 1, all.length - 1);
    at = all[which] as number;
    let next = (node as Record<string | number, unknown>)[seg];
    if (next instanceof DuplicateKey) next = next.values[which];
    node = next;
  }
  return at;
}

class Parser {
  pos = 0;
  readonly spans = new WeakMap<object, readonly [number, number]>();
  readonly starts = new WeakMap<object, Map<string | number, number[]>>();
  readonly stringSpans = new WeakMap<object, (readonly [number, number] | undefined)[]>();
  constructor(
    readonly text: string,
    readonly maxDepth: number,
    readonly locate: boolean,
  ) {}

  fail(reason: string, at = this.pos): never {
    throw jsonError(this.text, reason, at);
  }

  ws(): void {
    this.pos = skipJsonWhitespace(this.text, this.pos);
  }

  value(depth: number): ParsedValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.object(depth + 1);
      case 0x5b: // [
        return this.array(depth + 1);
      case 0x22: // "
        return this.string();
      case 0x74: // t
        return this.word("true", true);
      case 0x66: // f
        return this.word("false", false);
      case 0x6e: // n
        return this.word("null", null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        if (Number.isNaN(c)) this.fail("unexpected end of JSON input");
        this.fail(`invalid character ${quoteChar(this.text, this.pos)} looking for beginning of value`);
    }
  }

  word<T>(w: string, v: T): T {
    if (!this.text.startsWith(w, this.pos)) this.fail(`invalid character ${quoteChar(this.text, this.pos)} in literal`);
    this.pos += w.length;
    return v;
  }

  object(depth: number): ParsedValue {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`);
    const start = this.pos;
    this.pos++;
    const obj: { [key: string]: ParsedValue | DuplicateKey } = {};
    const starts = this.locate ? new Map<string, number[]>() : undefined;
    if (starts !== undefined) this.starts.set(obj, starts);
    this.ws();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      if (this.locate) this.spans.set(obj, [start, this.pos]);
      return obj;
    }
    let order: string[] | undefined;
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        if (this.pos >= this.text.length) this.fail("unexpected end of JSON input");
        this.fail(`invalid character ${quoteChar(this.text, this.pos)} looking for beginning of object key string`);
      }
      const key = this.string();
      if (order !== undefined) order.push(key);
      else if (isIndexKey(key) && !this.locate) order = [...Object.keys(obj), key];
      this.ws();
      if (this.text.charCodeAt(this.pos) !== 0x3a)
        this.fail(`invalid character ${quoteChar(this.text, this.pos)} after object key`);
      this.pos++;
      this.ws();
      const valueStart = this.pos;
      if (starts !== undefined) {
        const seen = starts.get(key);
        if (seen === undefined) starts.set(key, [valueStart]);
        else seen.push(valueStart);
      }
      const v = this.value(depth);
      // Go keeps the raw text of fieldsV1; record where it came from.
      if (key === "fieldsV1" && !this.locate) {
        if (typeof v === "object" && v !== null) this.spans.set(v, [valueStart, this.pos]);
        let strings = this.stringSpans.get(obj);
        if (strings === undefined) {
          strings = [];
          this.stringSpans.set(obj, strings);
        }
        strings.push(typeof v === "string" ? [valueStart, this.pos] : undefined);
      }
      const prev = obj[key];
      if (prev !== undefined && hasOwn.call(obj, key)) {
        if (order === undefined && !this.locate) order = [...Object.keys(obj), key];
        // Appended in place: copying would make n repeats of a key cost O(n^2).
        if (prev instanceof DuplicateKey) prev.values.push(v);
        else obj[key] = new DuplicateKey([prev, v]);
      } else if (key === "__proto__") {
        Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
      } else {
        obj[key] = v;
      }
      this.ws();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.ws();
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        if (this.locate) this.spans.set(obj, [start, this.pos]);
        if (order !== undefined) keyOrders.set(obj, order);
        return obj;
      }
      if (Number.isNaN(c)) this.fail("unexpected end of JSON input");
      this.fail(`invalid character ${quoteChar(this.text, this.pos)} after object key:value pair`);
    }
  }

  array(depth: number): ParsedValue {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`);
    const start = this.pos;
    this.pos++;
    const arr: ParsedValue[] = [];
    const starts = this.locate ? new Map<number, number[]>() : undefined;
    if (starts !== undefined) this.starts.set(arr, starts);
    this.ws();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      if (this.locate) this.spans.set(arr, [start, this.pos]);
      return arr;
    }
    for (;;) {
      starts?.set(arr.length, [this.pos]);
      arr.push(this.value(depth));
      this.ws();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.ws();
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        if (this.locate) this.spans.set(arr, [start, this.pos]);
        return arr;
      }
      if (Number.isNaN(c)) this.fail("unexpected end of JSON input");
      this.fail(`invalid character ${quoteChar(this.text, this.pos)} after array element`);
    }
  }

  string(): string {
    return readJsonString(this);
  }

  number(): number | bigint | FloatLiteral {
    const t = this.text;
    const start = this.pos;
    let i = start;
    if (t.charCodeAt(i) === 0x2d) i++;
    const intStart = i;
    if (t.charCodeAt(i) === 0x30) i++;
    else if (isDigit(t.charCodeAt(i))) while (isDigit(t.charCodeAt(i))) i++;
    else this.fail(`invalid character ${quoteChar(t, i)} in numeric literal`, i);
    let float = false;
    if (t.charCodeAt(i) === 0x2e) {
      float = true;
      i++;
      if (!isDigit(t.charCodeAt(i)))
        this.fail(`invalid character ${quoteChar(t, i)} after decimal point in numeric literal`, i);
      while (isDigit(t.charCodeAt(i))) i++;
    }
    const e = t.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      float = true;
      i++;
      const s = t.charCodeAt(i);
      if (s === 0x2b || s === 0x2d) i++;
      if (!isDigit(t.charCodeAt(i)))
        this.fail(`invalid character ${quoteChar(t, i)} in exponent of numeric literal`, i);
      while (isDigit(t.charCodeAt(i))) i++;
    }
    this.pos = i;
    // Locating only walks containers: no number's value is needed, and a huge
    // one would cost a superlinear BigInt parse a second time.
    if (this.locate) return 0;
    const lit = t.slice(start, i);
    if (float || lit === "-0") return new FloatLiteral(Number(lit), lit);
    // 15 digits always fit in a double exactly.
    if (i - intStart <= 15) return Number(lit);
    const big = BigInt(lit);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
}

/** What a string literal's text needs decoding or checking for: a backslash, a control character, a surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters in strings, so the class names them.
export const STRING_SPECIAL = /[\\\u0000-\u001f\ud800-\udfff]/;

/** A position in JSON text, and how to report a syntax error there. */
/** The position of the first character at or after `pos` that is not JSON whitespace (space, tab, CR, LF). */
export function skipJsonWhitespace(text: string, pos: number): number {
  let i = pos;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

export interface JsonCursor {
  readonly text: string;
  pos: number;
  fail(reason: string, at?: number): never;
}

/**
 * Reads the string literal at `cur.pos` (its opening quote) as Go does, and
 * moves past it. Escapes are decoded; a lone surrogate, escaped or not, has
 * no UTF-8 form and becomes U+FFFD.
 */
export function readJsonString(cur: JsonCursor): string {
  const t = cur.text;
  const start = ++cur.pos;
  // Fast path: up to the next quote, no escapes, control characters or surrogates
  // (two native scans; measured faster than a loop over the characters).
  const end = t.indexOf('"', start);
  if (end >= 0) {
    if (end - start <= 16) {
      // Short strings (most keys and names): a loop beats a regex call here.
      let i = start;
      for (; i < end; i++) {
        const c = t.charCodeAt(i);
        if (c === 0x5c || c < 0x20 || (c & 0xf800) === 0xd800) break;
      }
      if (i === end) {
        cur.pos = end + 1;
        return t.slice(start, end);
      }
    } else {
      const s = t.slice(start, end);
      if (!STRING_SPECIAL.test(s)) {
        cur.pos = end + 1;
        return s;
      }
    }
  }
  let i = start;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c < 0x20 || (c & 0xf800) === 0xd800) break;
    i++;
  }
  let out = t.slice(start, i);
  for (;;) {
    const c = t.charCodeAt(i);
    if (Number.isNaN(c)) cur.fail("unexpected end of JSON input", i);
    if (c === 0x22) {
      cur.pos = i + 1;
      return out;
    }
    if (c < 0x20) cur.fail("invalid control character in string literal", i);
    if (c !== 0x5c) {
      if ((c & 0xf800) === 0xd800) {
        // Go reads bytes: a lone surrogate (no UTF-8 form) becomes U+FFFD.
        const lo = t.charCodeAt(i + 1);
        const pair = c <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
        out += pair ? t.slice(i, i + 2) : "\ufffd";
        i += pair ? 2 : 1;
        continue;
      }
      out += t[i];
      i++;
      continue;
    }
    const e = t.charCodeAt(i + 1);
    switch (e) {
      case 0x22:
        out += '"';
        break;
      case 0x5c:
        out += "\\";
        break;
      case 0x2f:
        out += "/";
        break;
      case 0x62:
        out += "\b";
        break;
      case 0x66:
        out += "\f";
        break;
      case 0x6e:
        out += "\n";
        break;
      case 0x72:
        out += "\r";
        break;
      case 0x74:
        out += "\t";
        break;
      case 0x75: {
        const cu = hex4(t, i + 2);
        if (cu < 0) cur.fail("invalid \\u escape in string literal", i);
        i += 6;
        if ((cu & 0xf800) === 0xd800) {
          // As Go's unquote: only an escaped high + escaped low surrogate make a
          // character; any other surrogate escape is U+FFFD on its own.
          const lo = cu <= 0xdbff && t.charCodeAt(i) === 0x5c && t.charCodeAt(i + 1) === 0x75 ? hex4(t, i + 2) : -1;
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            out += String.fromCharCode(cu, lo);
            i += 6;
          } else {
            out += "\ufffd";
          }
          continue;
        }
        out += String.fromCharCode(cu);
        continue;
      }
      default:
        cur.fail(`invalid escape ${quoteChar(t, i + 1)} in string literal`, i);
    }
    i += 2;
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SURROGATE = /[\ud800-\udfff]/;

/** A JS string as Go reads it from JSON: a lone surrogate has no UTF-8 form and becomes U+FFFD. */
export function goString(s: string): string {
  // Cheap on the common path: most strings hold no surrogate at all.
  return SURROGATE.test(s) ? s.replace(LONE_SURROGATE, "\ufffd") : s;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The value of four hex digits at `at`, or -1. */
function hex4(t: string, at: number): number {
  let n = 0;
  for (let k = at; k < at + 4; k++) {
    const c = t.charCodeAt(k);
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (d < 0) return -1;
    n = n * 16 + d;
  }
  return n;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function quoteChar(text: string, at: number): string {
  const cp = text.codePointAt(at);
  return cp === undefined ? "end of input" : JSON.stringify(String.fromCodePoint(cp));
}

/** A DecodeError for JSON text at a character offset, with 1-based line and column. */
export function jsonError(
  text: string,
  reason: string,
  at: number,
  path?: string,
  segments?: readonly (string | number)[],
): DecodeError {
  const { line, column } = lineColumn(text, at);
  return new DecodeError("json", reason, {
    offset: at,
    line,
    column,
    ...(path !== undefined ? { path } : {}),
    ...(segments !== undefined ? { segments } : {}),
  });
}

function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const stop = Math.min(at, text.length);
  for (let i = 0; i < stop; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: stop - lineStart + 1 };
}
