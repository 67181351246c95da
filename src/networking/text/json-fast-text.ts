import { lookupKind, type NetworkingObject } from "../model/kinds.js";
import { parseRfc3339 } from "../model/time.js";
import { setOwn } from "../model/set-own.js";
import { readJsonString, type JsonCursor } from "./json-parse.js";
import {
  V_BOOL,
  V_FIELDS_V1,
  V_INT32,
  V_INT64,
  V_INT_OR_STRING,
  V_MESSAGE,
  V_STRING,
  V_TIME,
  V_TYPE_META,
  fillStructsOf,
  planOf,
  zeroOf,
  type AnyMessage,
  type FieldPlan,
  type MessagePlan,
} from "./json-plan.js";

/*
 * The common path of fromJson(text): one pass over the text straight into the
 * typed object, with no intermediate parsed tree, driven by the message plans.
 * Hand-written for the issue 14 goal (≥ 0.5× JSON.parse); the generic parser
 * (json-parse.ts) and decoder (from-json.ts) stay the specification.
 *
 * It gives up ("bails") on anything rare or wrong: a syntax error, a repeated
 * key, an unknown field in strict mode, a number with a fraction, exponent,
 * "-0" or more than 15 digits in an integer field, a value of the wrong type,
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

class Reader implements JsonCursor {
  pos = 0;
  constructor(
    readonly text: string,
    readonly maxDepth: number,
    readonly strict: boolean,
  ) {}

  fail(): never {
    throw BAIL;
  }

  ws(): void {
    const t = this.text;
    let i = this.pos;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.pos = i;
  }

  /** After ws: the next member follows (true) or the object ends (false). */
  next(close: number): boolean {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x2c) {
      this.pos++;
      this.ws();
      return true;
    }
    if (c === close) {
      this.pos++;
      return false;
    }
    return bail();
  }

  /** Reads a key string and the colon after it; the field it names, or undefined. */
  key(plan: MessagePlan): FieldPlan | undefined {
    const t = this.text;
    if (t.charCodeAt(this.pos) !== 0x22) bail();
    const start = this.pos + 1;
    let i = start;
    let h = 0;
    let fp: FieldPlan | undefined;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c || c < 0x20 || (c & 0xf800) === 0xd800 || Number.isNaN(c)) {
        // Escapes or surrogates in a key: decode it as Go does.
        fp = plan.byKey.get(readJsonString(this));
        i = -1;
        break;
      }
      h = (Math.imul(h, 31) + c) | 0;
      i++;
    }
    if (i >= 0) {
      const len = i - start;
      const cand = plan.byHash.get(h);
      if (cand !== undefined && cand.key.length === len && t.startsWith(cand.key, start)) fp = cand;
      this.pos = i + 1;
    }
    this.ws();
    if (t.charCodeAt(this.pos) !== 0x3a) bail();
    this.pos++;
    this.ws();
    return fp;
  }

  /** Reads `null` if it is there. */
  isNull(): boolean {
    if (this.text.charCodeAt(this.pos) !== 0x6e) return false;
    if (!this.text.startsWith("null", this.pos)) bail();
    this.pos += 4;
    return true;
  }

  string(): string {
    if (this.text.charCodeAt(this.pos) !== 0x22) bail();
    return readJsonString(this);
  }

  /** An int64: a bigint (of more than 15 digits too), in range, from an integer lexeme. */
  int64(): bigint {
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

  int32(): number {
    const n = this.integer();
    if (n < -0x80000000 || n > 0x7fffffff) bail();
    return n;
  }

  bool(): boolean {
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

  /** A message's object at pos, at nesting `depth`, into the fresh message `msg`. */
  message(plan: MessagePlan, msg: AnyMessage, depth: number): void {
    if (this.text.charCodeAt(this.pos) !== 0x7b || depth > this.maxDepth) bail();
    this.pos++;
    this.ws();
    let seen = 0;
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
    } else {
      do {
        const fp = this.key(plan);
        if (fp === undefined) {
          this.unknown(depth);
        } else {
          if ((seen & fp.bit) !== 0) bail(); // a repeated key: Go merges, the generic path does it
          seen |= fp.bit;
          let target = msg;
          if (fp.inline !== undefined) {
            target = msg[fp.inline.name] as AnyMessage;
            if (target === undefined) {
              target = fp.inline.plan.make();
              msg[fp.inline.name] = target;
            }
          }
          this.field(fp, target, depth);
        }
        this.ws();
      } while (this.next(0x7d));
    }
    fillStructsOf(plan, msg);
  }

  /** The value of a key the message has no field for (we are past its colon). */
  unknown(depth: number): void {
    if (this.strict) bail();
    this.skip(depth);
  }

  field(fp: FieldPlan, msg: AnyMessage, depth: number): void {
    if (this.isNull()) {
      // Go: null resets pointers, slices and maps (and a Time); it leaves other values alone.
      if (fp.list) msg[fp.name] = [];
      else if (fp.map) msg[fp.name] = {};
      else if (fp.nullDeletes) delete msg[fp.name];
      return;
    }
    if (fp.list) {
      if (this.text.charCodeAt(this.pos) !== 0x5b || depth + 1 > this.maxDepth) bail();
      this.pos++;
      this.ws();
      const out: unknown[] = [];
      if (this.text.charCodeAt(this.pos) === 0x5d) {
        this.pos++;
      } else {
        do {
          if (this.isNull()) {
            out.push(fp.message !== undefined ? zeroOf(fp.message) : zeroScalarOf(fp.value));
          } else {
            out.push(this.value(fp, depth + 1));
          }
          this.ws();
        } while (this.next(0x5d));
      }
      msg[fp.name] = out;
      return;
    }
    if (fp.map) {
      if (this.text.charCodeAt(this.pos) !== 0x7b || depth + 1 > this.maxDepth) bail();
      this.pos++;
      this.ws();
      const map = msg[fp.name] as Record<string, unknown>;
      if (this.text.charCodeAt(this.pos) === 0x7d) {
        this.pos++;
        return;
      }
      do {
        const k = this.string();
        this.ws();
        if (this.text.charCodeAt(this.pos) !== 0x3a) bail();
        this.pos++;
        this.ws();
        if (hasOwn.call(map, k)) bail();
        setOwn(map, k, this.isNull() ? "" : this.string());
        this.ws();
      } while (this.next(0x7d));
      return;
    }
    if (fp.value === V_TYPE_META) this.string();
    else msg[fp.name] = this.value(fp, depth);
  }

  /** One value of a field (or list element) that is not null, at nesting `depth` of its container. */
  value(fp: FieldPlan, depth: number): unknown {
    switch (fp.value) {
      case V_TYPE_META:
        return this.string();
      case V_STRING:
        return this.string();
      case V_BOOL:
        return this.bool();
      case V_INT32:
        return this.int32();
      case V_INT64:
        return this.int64();
      case V_MESSAGE: {
        const plan = fp.message as MessagePlan;
        const m = plan.make();
        this.message(plan, m, depth + 1);
        return m;
      }
      case V_TIME: {
        const seconds = parseRfc3339(this.string());
        if (typeof seconds === "string") bail();
        const m = (fp.message as MessagePlan).make();
        m["seconds"] = seconds;
        return m;
      }
      case V_INT_OR_STRING: {
        // Go looks at the first byte: a quote means string, anything else int32.
        const m = (fp.message as MessagePlan).make();
        if (this.text.charCodeAt(this.pos) === 0x22) {
          m["type"] = 1n;
          m["intVal"] = 0;
          m["strVal"] = this.string();
        } else {
          m["type"] = 0n;
          m["intVal"] = this.int32();
          m["strVal"] = "";
        }
        return m;
      }
      case V_FIELDS_V1: {
        // Go keeps the raw text of an object or a string, escapes included.
        const c = this.text.charCodeAt(this.pos);
        if (c !== 0x7b && c !== 0x22) bail();
        const start = this.pos;
        this.skip(depth);
        const m = (fp.message as MessagePlan).make();
        m["Raw"] = encoder.encode(this.text.slice(start, this.pos));
        return m;
      }
      default:
        return bail();
    }
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
        this.ws();
      } while (this.next(close));
    } else if (c === 0x74 || c === 0x66) {
      this.bool();
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
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function zeroScalarOf(kind: number): unknown {
  switch (kind) {
    case V_BOOL:
      return false;
    case V_INT32:
      return 0;
    case V_INT64:
      return 0n;
    default:
      return "";
  }
}

/**
 * fromJson(text) on the common path: the typed object, or undefined when the
 * text needs the generic path (see the comment at the top).
 */
export function fastFromJsonText(text: string, strict: boolean, maxDepth: number): NetworkingObject | undefined {
  const r = new Reader(text, maxDepth, strict);
  try {
    r.ws();
    const start = r.pos;
    const { apiVersion, kind } = typeMetaOf(r);
    const info = lookupKind(apiVersion, kind);
    if (info === undefined) return undefined;
    const plan = planOf(info.desc);
    r.pos = start;
    const msg = plan.make();
    r.message(plan, msg, 1);
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
    r.ws();
  } while (r.next(0x7d));
  return bail();
}
