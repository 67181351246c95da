import { ScalarType, type Message } from "@bufbuild/protobuf";
import type { JsonWriter } from "../../../../gen/clusterwire/json_runtime.js";
import { kindOf, type NetworkingObject } from "../../model/kinds.js";
import { containerMismatch, scalarMismatch } from "../../model/value-checks.js";
import { isZeroTime } from "../../model/zero.js";
import { formatRfc3339 } from "../../model/time.js";
import { jsonCodecOf } from "./generated.js";
import { fieldsV1, intOrString } from "./marshallers.js";
import { quoteGo } from "../../model/go-json-string.js";
import { printGoJson, sortedKeys } from "./print.js";
import { utf8OrUndefined } from "../../model/utf8.js";

/*
 * The common path of toJsonString(obj) (compact): the generated per-message
 * writers (plugin/emit-json.ts, the `_json.ts` files in gen/) append straight
 * to one string through this JsonWriter, with no intermediate printable tree.
 * Any value the generic writer (to-json.ts) would refuse makes it give up,
 * and the caller runs the generic writer, which gives the exact error.
 */

const BAIL: unique symbol = Symbol("bail");

function bail(): never {
  throw BAIL;
}

type AnyMessage = Message & Record<string, unknown>;

/** Characters Go's encoder escapes (HTML ones included), and surrogates (a lone one prints U+FFFD). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: Go escapes control characters, so the class names them.
const NEEDS_QUOTING = /["\\<>&\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/** A string as Go's encoder quotes it. */
export function quote(s: string): string {
  return NEEDS_QUOTING.test(s) ? quoteGo(s) : '"' + s + '"';
}

const hasOwn = Object.prototype.hasOwnProperty;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Unix seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
const FOUR_DIGIT_MIN = -62167219200n;
const FOUR_DIGIT_MAX = 253402300799n;

const two = (n: number): string => (n < 10 ? "0" + n : "" + n);

/**
 * formatRfc3339 for four-digit years, in doubles (exact there), or undefined
 * outside them (the caller then runs model/time.ts's bigint formatter, which
 * tests hold this to). Hand-written because the profile put formatRfc3339 at
 * 12% of writing an object with three timestamps.
 */
export function rfc3339UtcText(seconds: bigint): string | undefined {
  if (seconds < FOUR_DIGIT_MIN || seconds > FOUR_DIGIT_MAX) return undefined;
  const s = Number(seconds);
  const days = Math.floor(s / 86400);
  const secOfDay = s - days * 86400;
  // Civil date from days since 1970-01-01 (proleptic Gregorian).
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const hh = Math.floor(secOfDay / 3600);
  const mi = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  const year = y < 10 ? "000" + y : y < 100 ? "00" + y : y < 1000 ? "0" + y : "" + y;
  return year + "-" + two(m) + "-" + two(d) + "T" + two(hh) + ":" + two(mi) + ":" + two(ss) + "Z";
}

/** What json.Marshal's compaction of raw JSON would change: whitespace, and the characters it escapes in strings. */
const NOT_COMPACT = /[ \t\n\r<>&\u2028\u2029]/;

/**
 * True when `text` is valid JSON (as parseJsonText, within its default depth
 * of 100) that Go's compaction leaves unchanged. Hand-written because the
 * profile put the generic route (a full parse, then a re-print with a regex
 * per string) at a third of writing an object with one managedFields entry.
 */
function isCompactJson(text: string): boolean {
  if (NOT_COMPACT.test(text)) return false;
  let opens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) opens++;
  }
  // Fewer openings than the depth limit cannot nest past it (brackets in strings only overcount).
  if (opens > 100) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

class Writer implements JsonWriter {
  out = "";
  first = true;

  bail(): never {
    throw BAIL;
  }

  key(k: string): void {
    if (this.first) {
      this.out += k;
      this.first = false;
    } else {
      this.out += "," + k;
    }
  }

  open(): void {
    this.out += "{";
    this.first = true;
  }

  close(): void {
    this.out += "}";
    this.first = false;
  }

  str(v: unknown): void {
    if (typeof v !== "string") bail();
    this.out += quote(v);
  }

  i32(v: unknown): void {
    // scalarMismatch(INT32, v), inline.
    if (typeof v !== "number" || !Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) bail();
    this.out += Object.is(v, -0) ? "-0" : String(v);
  }

  i64(v: unknown): void {
    // scalarMismatch(INT64, v), inline.
    if (typeof v !== "bigint" || v < INT64_MIN || v > INT64_MAX) bail();
    this.out += String(v);
  }

  bool(v: unknown): void {
    if (typeof v !== "boolean") bail();
    this.out += v ? "true" : "false";
  }

  message(v: unknown): void {
    if (containerMismatch("message", v) !== undefined) bail();
  }

  /** Absent (or null, as `?? []` reads it) and empty lists are Go's nil slice. */
  listStart(k: string, v: unknown, omit: boolean): boolean {
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) {
      if (!omit) this.nullAt(k);
      return false;
    }
    if (!Array.isArray(v)) bail();
    this.key(k);
    this.out += "[";
    return true;
  }

  listEnd(): void {
    this.out += "]";
    this.first = false;
  }

  scalarList(k: string, v: unknown, scalar: number, omit: boolean): void {
    if (!this.listStart(k, v, omit)) return;
    const a = v as unknown[];
    for (let i = 0; i < a.length; i++) {
      const item = a[i];
      if (scalarMismatch(scalar, item) !== undefined) bail();
      if (i > 0) this.out += ",";
      this.out +=
        typeof item === "string"
          ? quote(item)
          : typeof item === "boolean"
            ? String(item)
            : Object.is(item, -0)
              ? "-0"
              : String(item);
    }
    this.listEnd();
  }

  map(k: string, v: unknown, omit: boolean): void {
    const map = v ?? {};
    if (containerMismatch("map", map) !== undefined) bail();
    const keys = sortedKeys(map);
    if (keys.length === 0) {
      if (!omit) this.nullAt(k);
      return;
    }
    const m = map as Record<string, unknown>;
    let out = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const val = m[key];
      if (typeof val !== "string") bail();
      out += (i > 0 ? "," : "") + quote(key) + ":" + quote(val);
    }
    this.key(k);
    this.out += out + "}";
  }

  time(k: string, v: unknown, pointer: boolean, omit: boolean, omitZero: boolean): void {
    if (v === undefined && pointer) {
      if (!omit) this.nullAt(k);
      return;
    }
    if (v !== undefined && containerMismatch("message", v) !== undefined) bail();
    const sub = v as AnyMessage | undefined;
    if (sub === undefined || isZeroTime(sub)) {
      if (!omitZero) this.nullAt(k);
      return;
    }
    const seconds = hasOwn.call(sub, "seconds") ? sub["seconds"] : 0n;
    if (scalarMismatch(ScalarType.INT64, seconds) !== undefined) bail();
    this.key(k);
    this.out += '"' + (rfc3339UtcText(seconds as bigint) ?? formatRfc3339(seconds as bigint)) + '"';
  }

  intOrString(k: string, v: unknown, pointer: boolean, omit: boolean): void {
    if (v === undefined && pointer) {
      if (!omit) this.nullAt(k);
      return;
    }
    if (v !== undefined && containerMismatch("message", v) !== undefined) bail();
    const value = intOrString(v as AnyMessage | undefined); // throws on a bad one: the generic path says why
    this.key(k);
    this.out += typeof value === "string" ? quote(value) : Object.is(value, -0) ? "-0" : String(value);
  }

  fieldsV1(k: string, v: unknown, pointer: boolean, omit: boolean): void {
    if (v === undefined && pointer) {
      if (!omit) this.nullAt(k);
      return;
    }
    if (v !== undefined && containerMismatch("message", v) !== undefined) bail();
    const raw = (v as AnyMessage | undefined)?.["Raw"];
    const text = raw instanceof Uint8Array && raw.length > 0 ? utf8OrUndefined(raw) : undefined;
    if (text !== undefined && isCompactJson(text)) {
      // Already what json.Marshal makes of it: written as it is.
      this.key(k);
      this.out += text;
      return;
    }
    const value = fieldsV1(v as AnyMessage | undefined); // throws on a bad one: the generic path says why
    this.key(k);
    this.out += printGoJson(value);
  }

  private nullAt(k: string): void {
    this.key(k);
    this.out += "null";
  }
}

/**
 * toJsonString(obj) without indent on the common path: the text, or undefined
 * when the object needs the generic writer (see the comment at the top).
 */
export function fastToJsonString(obj: NetworkingObject | Message): string | undefined {
  try {
    const info = kindOf(obj);
    const codec = jsonCodecOf(info.desc.typeName);
    if (codec === undefined) return undefined;
    const w = new Writer();
    w.out = '{"kind":' + quote(info.kind) + ',"apiVersion":' + quote(info.apiVersion);
    w.first = false;
    codec.write(w, obj as never);
    return w.out + "}";
  } catch {
    // Whatever the reason (a value of the wrong type, not a kind, a cycle), the generic writer decides.
    return undefined;
  }
}
