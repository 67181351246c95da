import type { Message } from "@bufbuild/protobuf";
import type { JsonCodec, JsonReader } from "../../../../gen/clusterwire/json_runtime.js";
import { lookupKind, type NetworkingObject } from "../../model/kinds.js";
import { parseRfc3339 } from "../../model/time.js";
import { setOwn } from "../../model/set-own.js";
import { jsonCodecOf } from "./generated.js";
import { findKindField } from "../find-kind.js";
import { readJsonString, skipJsonWhitespace, STRING_SPECIAL, type JsonCursor } from "./parse.js";

/*
 * The common path of fromJson(text): one pass over the text straight into the
 * typed object, with no intermediate parsed tree. The per-message readers are
 * generated (plugin/emit-json.ts, the `_json.ts` files in gen/); this is the JsonReader
 * they read through. The generic parser (json-parse.ts) and decoder
 * (from-json.ts) stay the specification.
 *
 * It gives up ("bails") on anything rare or wrong: a syntax error, a repeated
 * key, an unknown field in strict mode, a top-level key that differs from
 * kind or apiVersion only in case, a number with a fraction, exponent,
 * "-0", more than 15 digits in an int32 or past int64, a value of the wrong type,
 * an out-of-range integer, a bad time, nesting past maxDepth, kind/apiVersion
 * missing or unsupported. The caller then runs the generic path, which gives
 * the value or the exact error; so this path only ever has to be right when it
 * succeeds.
 */

/** Thrown to give up; never escapes {@link fastFromJsonText}. */
const BAIL: unique symbol = Symbol("bail");

function bail(): never {
  throw BAIL;
}

const encoder = new TextEncoder();

type AnyMessage = Message & Record<string, unknown>;

class Reader implements JsonCursor, JsonReader {
  pos = 0;
  /** The key just read: where it starts and how long it is, or its decoded text when it had escapes. */
  private keyStart = 0;
  private keyLength = 0;
  private decodedKey: string | undefined;
  /**
   * Whether the text (leading and trailing whitespace aside) has no backslash, control
   * character or surrogate: then every string in it ends at the next quote and is its
   * own value, so strings and keys are read by indexOf alone. Hand-written for speed:
   * one native scan of the text replaced a check of every string (measured on the
   * corpus IngressClasses: readJsonString and its regular expression were a fifth of
   * fromJson). Indented text has newlines, so it is never clean and reads as before.
   * Set before anything is read.
   */
  clean = false;
  constructor(
    readonly text: string,
    readonly maxDepth: number,
    readonly strict: boolean,
  ) {}

  fail(): never {
    throw BAIL;
  }

  bail(): never {
    throw BAIL;
  }

  ws(): void {
    this.pos = skipJsonWhitespace(this.text, this.pos);
  }

  open(depth: number): boolean {
    if (this.text.charCodeAt(this.pos) !== 0x7b || depth > this.maxDepth) bail();
    this.pos++;
    if (this.text.charCodeAt(this.pos) <= 0x20) this.ws();
    if (this.text.charCodeAt(this.pos) !== 0x7d) return true;
    this.pos++;
    return false;
  }

  openList(depth: number): boolean {
    if (this.text.charCodeAt(this.pos) !== 0x5b || depth > this.maxDepth) bail();
    this.pos++;
    if (this.text.charCodeAt(this.pos) <= 0x20) this.ws();
    if (this.text.charCodeAt(this.pos) !== 0x5d) return true;
    this.pos++;
    return false;
  }

  next(): boolean {
    return this.after(0x7d);
  }

  nextItem(): boolean {
    return this.after(0x5d);
  }

  /** After a member or element: past a comma (true) or the closing `close` (false). */
  after(close: number): boolean {
    let c = this.text.charCodeAt(this.pos);
    if (c <= 0x20) {
      this.ws();
      c = this.text.charCodeAt(this.pos);
    }
    if (c === 0x2c) {
      this.pos++;
      if (this.text.charCodeAt(this.pos) <= 0x20) this.ws();
      return true;
    }
    if (c === close) {
      this.pos++;
      return false;
    }
    return bail();
  }

  key(): number {
    const t = this.text;
    if (t.charCodeAt(this.pos) !== 0x22) bail();
    const start = this.pos + 1;
    let i = start;
    let code: number;
    if (this.clean) {
      i = t.indexOf('"', start);
      if (i < 0) bail();
    }
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        this.keyStart = start;
        this.keyLength = i - start;
        this.decodedKey = undefined;
        this.pos = i + 1;
        code = (i - start) * 65536 + (i === start ? 0 : t.charCodeAt(start));
        break;
      }
      if (c === 0x5c || c < 0x20 || (c & 0xf800) === 0xd800 || Number.isNaN(c)) {
        // Escapes or surrogates in a key: decode it as Go does.
        const k = readJsonString(this);
        this.decodedKey = k;
        code = k.length * 65536 + (k.length === 0 ? 0 : k.charCodeAt(0));
        break;
      }
      i++;
    }
    if (t.charCodeAt(this.pos) !== 0x3a) {
      this.ws();
      if (t.charCodeAt(this.pos) !== 0x3a) bail();
    }
    this.pos++;
    if (t.charCodeAt(this.pos) <= 0x20) this.ws();
    return code;
  }

  keyIs(k: string): boolean {
    if (this.decodedKey !== undefined) return this.decodedKey === k;
    return k.length === this.keyLength && this.text.startsWith(k, this.keyStart);
  }

  unknown(depth: number): void {
    if (this.strict) bail();
    // A top-level key the API server's first look reads as kind or apiVersion (`Kind`, say).
    if (depth === 1 && findKindField(this.decodedKey ?? this.text.slice(this.keyStart, this.keyStart + this.keyLength)))
      bail();
    this.skip(depth);
  }

  time(m: Message): void {
    // The API server's form is read in place, without a string (measured: a slice per time).
    const t = this.text;
    const at = this.pos + 1;
    if (t.charCodeAt(this.pos) === 0x22 && t.charCodeAt(at + 20) === 0x22) {
      const s = rfc3339UtcAt(t, at);
      if (s !== undefined) {
        this.pos = at + 21;
        (m as AnyMessage)["seconds"] = s;
        return;
      }
    }
    const text = this.string();
    const seconds = rfc3339Utc(text) ?? parseRfc3339(text);
    if (typeof seconds === "string") bail();
    (m as AnyMessage)["seconds"] = seconds;
  }

  intOrString(m: Message): void {
    // Go looks at the first byte: a quote means string, anything else int32.
    const o = m as AnyMessage;
    if (this.text.charCodeAt(this.pos) === 0x22) {
      o["type"] = 1n;
      o["intVal"] = 0;
      o["strVal"] = this.string();
    } else {
      o["type"] = 0n;
      o["intVal"] = this.integer32();
      o["strVal"] = "";
    }
  }

  fieldsV1(m: Message, depth: number): void {
    // Go keeps the raw text of an object or a string, escapes included.
    const c = this.text.charCodeAt(this.pos);
    if (c !== 0x7b && c !== 0x22) bail();
    const start = this.pos;
    this.skip(depth);
    const raw = this.text.slice(start, this.pos);
    (m as AnyMessage)["Raw"] = (raw.length <= 64 ? asciiBytes(raw) : undefined) ?? encoder.encode(raw);
  }

  stringMap(map: { [key: string]: string }, depth: number): void {
    if (this.text.charCodeAt(this.pos) !== 0x7b || depth > this.maxDepth) bail();
    this.pos++;
    // Whitespace is looked at only when there is some (compact text has none).
    if (this.text.charCodeAt(this.pos) <= 0x20) this.ws();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return;
    }
    do {
      const k = this.string();
      if (this.text.charCodeAt(this.pos) <= 0x20) this.ws();
      if (this.text.charCodeAt(this.pos) !== 0x3a) bail();
      this.pos++;
      if (this.text.charCodeAt(this.pos) <= 0x20) this.ws();
      if (hasOwn.call(map, k)) bail(); // a repeated key
      setOwn(map, k, this.isNull() ? "" : this.string());
    } while (this.after(0x7d));
  }

  /** Reads `null` if it is there. */
  isNull(): boolean {
    if (this.text.charCodeAt(this.pos) !== 0x6e) return false;
    if (!this.text.startsWith("null", this.pos)) bail();
    this.pos += 4;
    return true;
  }

  string(): string {
    const t = this.text;
    const pos = this.pos;
    if (t.charCodeAt(pos) !== 0x22) bail();
    if (this.clean) {
      const end = t.indexOf('"', pos + 1);
      if (end < 0) bail();
      this.pos = end + 1;
      return t.slice(pos + 1, end);
    }
    return readJsonString(this);
  }

  typeMeta(): void {
    const t = this.text;
    const pos = this.pos;
    if (t.charCodeAt(pos) !== 0x22) bail();
    if (this.clean) {
      const end = t.indexOf('"', pos + 1);
      if (end < 0) bail();
      this.pos = end + 1;
    } else {
      readJsonString(this);
    }
  }

  /** An int64: a bigint (of more than 15 digits too), in range, from an integer lexeme. */
  integer64(): bigint {
    const t = this.text;
    const start = this.pos;
    let i = start;
    if (t.charCodeAt(i) === 0x2d) i++;
    const from = i;
    let c = t.charCodeAt(i);
    if (c === 0x30 || !(c >= 0x31 && c <= 0x39)) return BigInt(this.integer());
    while (c >= 0x30 && c <= 0x39) c = t.charCodeAt(++i);
    if (i - from <= 15) return BigInt(this.integer());
    if (c === 0x2e || c === 0x65 || c === 0x45 || i - from > 19) bail();
    const b = BigInt(t.slice(start, i));
    if (b < INT64_MIN || b > INT64_MAX) bail();
    this.pos = i;
    return b;
  }

  /** An integer of at most 15 digits (exact in a double), not -0. */
  integer(): number {
    const t = this.text;
    let i = this.pos;
    const neg = t.charCodeAt(i) === 0x2d;
    if (neg) i++;
    const from = i;
    let n = 0;
    let c = t.charCodeAt(i);
    if (c === 0x30) {
      i++;
    } else {
      while (c >= 0x30 && c <= 0x39) {
        n = n * 10 + (c - 0x30);
        c = t.charCodeAt(++i);
      }
    }
    const digits = i - from;
    c = t.charCodeAt(i);
    if (digits === 0 || digits > 15 || c === 0x2e || c === 0x65 || c === 0x45) bail();
    if (neg && n === 0) bail();
    this.pos = i;
    return neg ? -n : n;
  }

  integer32(): number {
    const n = this.integer();
    if (n < -0x80000000 || n > 0x7fffffff) bail();
    return n;
  }

  boolean(): boolean {
    const t = this.text;
    if (t.startsWith("true", this.pos)) {
      this.pos += 4;
      return true;
    }
    if (t.startsWith("false", this.pos)) {
      this.pos += 5;
      return false;
    }
    return bail();
  }

  /** Checks and passes over any JSON value, at nesting `depth` of its container. */
  skip(depth: number): void {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 0x22) {
      readJsonString(this);
    } else if (c === 0x7b || c === 0x5b) {
      const close = c + 2; // } or ]
      if (depth + 1 > this.maxDepth) bail();
      this.pos++;
      this.ws();
      if (t.charCodeAt(this.pos) === close) {
        this.pos++;
        return;
      }
      do {
        if (c === 0x7b) {
          this.string();
          this.ws();
          if (t.charCodeAt(this.pos) !== 0x3a) bail();
          this.pos++;
          this.ws();
        }
        this.skip(depth + 1);
      } while (this.after(close));
    } else if (c === 0x74 || c === 0x66) {
      this.boolean();
    } else if (c === 0x6e) {
      this.isNull();
    } else {
      this.number();
    }
  }

  /** Passes over a number of any form (checked as JSON's grammar). */
  number(): void {
    const t = this.text;
    let i = this.pos;
    if (t.charCodeAt(i) === 0x2d) i++;
    let c = t.charCodeAt(i);
    if (c === 0x30) c = t.charCodeAt(++i);
    else if (c >= 0x31 && c <= 0x39) while (c >= 0x30 && c <= 0x39) c = t.charCodeAt(++i);
    else bail();
    if (c === 0x2e) {
      c = t.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) bail();
      while (c >= 0x30 && c <= 0x39) c = t.charCodeAt(++i);
    }
    if (c === 0x65 || c === 0x45) {
      c = t.charCodeAt(++i);
      if (c === 0x2b || c === 0x2d) c = t.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) bail();
      while (c >= 0x30 && c <= 0x39) c = t.charCodeAt(++i);
    }
    this.pos = i;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** STRING_SPECIAL searching from its lastIndex. */
const SPECIAL_FROM = new RegExp(STRING_SPECIAL.source, "g");

/**
 * {@link Reader.clean} of `text` whose units before `from` are known clean: STRING_SPECIAL
 * nowhere between there (whitespace aside) and the trailing whitespace. One native scan
 * from `from`, with no slice of the text.
 */
function isClean(text: string, from: number): boolean {
  const start = skipJsonWhitespace(text, from);
  SPECIAL_FROM.lastIndex = start;
  if (!SPECIAL_FROM.test(text)) return start < text.length;
  // The first special unit: still clean when it starts the trailing whitespace.
  const at = SPECIAL_FROM.lastIndex - 1;
  return at > start && skipJsonWhitespace(text, at) === text.length;
}

/** The bytes of an ASCII string, or undefined; cheaper than TextEncoder for short ones (measured: "{}" in every managedFields entry). */
function asciiBytes(s: string): Uint8Array | undefined {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return undefined;
    out[i] = c;
  }
  return out;
}

/**
 * The Unix seconds of the form the API server writes, `YYYY-MM-DDTHH:MM:SSZ`,
 * or undefined for anything else (the caller then runs model/time.ts's
 * parseRfc3339, which this equals where both answer; tests hold it so).
 * Hand-written because the profile put parseRfc3339's regular expression and
 * bigint day arithmetic at 15% of reading an object with three timestamps.
 */
export function rfc3339Utc(s: string): bigint | undefined {
  return s.length === 20 ? rfc3339UtcAt(s, 0) : undefined;
}

/** {@link rfc3339Utc} of the 20 units of `s` at `at`. */
function rfc3339UtcAt(s: string, at: number): bigint | undefined {
  if (
    s.charCodeAt(at + 4) !== 0x2d ||
    s.charCodeAt(at + 7) !== 0x2d ||
    s.charCodeAt(at + 10) !== 0x54 ||
    s.charCodeAt(at + 13) !== 0x3a ||
    s.charCodeAt(at + 16) !== 0x3a ||
    s.charCodeAt(at + 19) !== 0x5a
  )
    return undefined;
  const y1 = digits2(s, at);
  const y2 = digits2(s, at + 2);
  const mo = digits2(s, at + 5);
  const d = digits2(s, at + 8);
  const h = digits2(s, at + 11);
  const mi = digits2(s, at + 14);
  const sec = digits2(s, at + 17);
  const y = y1 < 0 || y2 < 0 ? -1 : y1 * 100 + y2;
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59)
    return undefined;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31)) return undefined;
  // Days from 1970-01-01 to the civil date (proleptic Gregorian), exact in doubles for four-digit years.
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  return BigInt(days * 86400 + h * 3600 + mi * 60 + sec);
}

/** The number the two decimal digits at `at` spell, or -1 (measured: a quarter faster than a loop over n digits). */
function digits2(s: string, at: number): number {
  const a = s.charCodeAt(at) - 0x30;
  const b = s.charCodeAt(at + 1) - 0x30;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * fromJson(text) on the common path: the typed object, or undefined when the
 * text needs the generic path (see the comment at the top).
 */
export function fastFromJsonText(text: string, strict: boolean, maxDepth: number): NetworkingObject | undefined {
  const r = new Reader(text, maxDepth, strict);
  try {
    let codec: JsonCodec | undefined;
    // Compared as a slice with ===, hand-written for speed: startsWith here was 12-15% of
    // fromJson on a corpus IngressClass (measured: 1.15-1.2x faster in interleaved rounds).
    let afterHead = false;
    if (lastHead !== undefined && text.slice(0, lastHead.text.length) === lastHead.text && maxDepth >= 1) {
      codec = lastHead.codec;
      // The head is clean (a kind's names): the scan starts after it, and so does the reader.
      const n = lastHead.text.length;
      r.clean = isClean(text, n);
      r.pos = n;
      if (text.charCodeAt(n) <= 0x20) r.ws();
      afterHead = true;
    } else {
      r.clean = isClean(text, 0);
      r.ws();
      const start = r.pos;
      const { apiVersion, kind } = typeMetaOf(r);
      codec = codecOfKind(apiVersion, kind);
      if (codec === undefined) return undefined;
      const head = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},`;
      if (start === 0 && text.startsWith(head)) lastHead = { text: head, codec };
      r.pos = start;
    }
    const msg = codec.create();
    codec.read(r, msg as never, 1, afterHead);
    r.ws();
    if (r.pos !== text.length) return undefined;
    return msg as NetworkingObject;
  } catch (e) {
    if (e === BAIL) return undefined;
    // Only the stack can run out here (deep nesting within a large maxDepth).
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * The start of the last text whose kind was found, as servers and toJsonString write it
 * (`{"kind":"K","apiVersion":"V",`), and that kind's codec: a text starting with it is of
 * the same kind without finding kind and apiVersion again (measured: 10% of a small object),
 * and the generated reader starts after it with both members seen, so a repeat of either
 * later still bails as ever.
 */
let lastHead: { readonly text: string; readonly codec: JsonCodec } | undefined;

const byKind = new Map<string, Map<string, JsonCodec>>();

/** The generated codec of a kind, remembered by kind and apiVersion (only kinds: bad names must not grow the map). */
export function codecOfKind(apiVersion: string, kind: string): JsonCodec | undefined {
  const versions = byKind.get(kind);
  const hit = versions?.get(apiVersion);
  if (hit !== undefined) return hit;
  const info = lookupKind(apiVersion, kind);
  const codec = info === undefined ? undefined : jsonCodecOf(info.desc.typeName);
  if (codec !== undefined) {
    if (versions === undefined) byKind.set(kind, new Map([[apiVersion, codec]]));
    else versions.set(apiVersion, codec);
  }
  return codec;
}

/** Finds the top object's kind and apiVersion (plain strings, each once) without decoding; pos ends anywhere. */
function typeMetaOf(r: Reader): { apiVersion: string; kind: string } {
  const t = r.text;
  if (t.charCodeAt(r.pos) !== 0x7b || r.maxDepth < 1) bail();
  r.pos++;
  r.ws();
  let apiVersion: string | undefined;
  let kind: string | undefined;
  if (t.charCodeAt(r.pos) === 0x7d) bail();
  do {
    const k = r.string();
    r.ws();
    if (t.charCodeAt(r.pos) !== 0x3a) bail();
    r.pos++;
    r.ws();
    if (k === "apiVersion" || k === "kind") {
      const v = r.string();
      if (k === "kind") {
        if (kind !== undefined) bail();
        kind = v;
      } else {
        if (apiVersion !== undefined) bail();
        apiVersion = v;
      }
      // API servers and kubectl write them first: stop as soon as both are known.
      if (kind !== undefined && apiVersion !== undefined) return { apiVersion, kind };
    } else {
      r.skip(1);
    }
  } while (r.after(0x7d));
  return bail();
}
