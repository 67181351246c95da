import { create, ScalarType, type Message } from "@bufbuild/protobuf";
import { type BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { EncodeError } from "../model/errors.js";
import { compareUtf8 } from "../model/utf8.js";
import { containerMismatch, scalarMismatch } from "../model/value-checks.js";
import { isZeroTime } from "../model/zero.js";
import type { BinEncoder } from "../../../gen/clusterwire/bin_runtime.js";
import type { AnyMessage, FieldPlan, Plan } from "./plan.js";
import { WireWriter, stringFieldLength, varintLength32, varintLength64 } from "./wire.js";

/*
 * The generic binary encoder: Go's field rules (gogo's marshaller), driven by
 * a message's plan. The generated encoders (the *_bin.ts files in gen/) write
 * through EncodeState's methods, which are this encoder's own checks, so both
 * write and refuse exactly the same things.
 */

/** Options for Go-exact protobuf encoding. */
export interface BinaryEncodeOptions {
  /**
   * `"keep"` (default) re-writes unknown fields after the known ones, so data
   * from a newer server survives a read-modify-write. `"drop"` discards them,
   * which is what Go's generated code does.
   */
  readonly unknownFields?: "keep" | "drop";
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Writes the body (no tag, no length) of the message of `plan` to `w`. */
export function encodeGeneric(w: BinaryWriter, plan: Plan, msg: Message, keepUnknown: boolean): void {
  writeMessage(w, plan, msg as AnyMessage, keepUnknown);
}

function writeMessage(w: BinaryWriter, plan: Plan, msg: AnyMessage, keepUnknown: boolean): void {
  if (plan.isTime) {
    writeTime(w, msg);
  } else {
    const fields = plan.fields;
    for (let i = 0; i < fields.length; i++) {
      const fp = fields[i] as FieldPlan;
      try {
        writeField(w, fp, msg, keepUnknown);
      } catch (e) {
        throw withSegment(e, fp.segment === "" ? fp.name : fp.segment);
      }
    }
  }
  if (keepUnknown && msg.$unknown !== undefined) writeUnknown(w, msg);
}

function writeUnknown(w: BinaryWriter, msg: AnyMessage): void {
  for (const u of msg.$unknown ?? []) w.tag(u.no, u.wireType).raw(u.data);
}

function writeField(w: BinaryWriter, fp: FieldPlan, msg: AnyMessage, keepUnknown: boolean): void {
  const value = msg[fp.localName];
  switch (fp.kind) {
    case "scalar": {
      if (fp.pointer && !hasOwn.call(msg, fp.localName)) return;
      assertScalar(fp.scalar, value);
      if (fp.nonEmpty && (value as Uint8Array).length === 0) return;
      w.tag(fp.no, fp.wireType);
      writeScalar(w, fp.scalar, value);
      return;
    }
    case "message": {
      if (value === undefined && fp.pointer) return;
      if (value !== undefined) assertContainer("message", value);
      // A non-pointer struct is always written; if absent, as Go's zero struct.
      const child = fp.child as Plan;
      w.tag(fp.no, WireType.LengthDelimited).fork();
      writeMessage(w, child, (value as AnyMessage | undefined) ?? emptyOf(child), keepUnknown);
      w.join();
      return;
    }
    case "messageList": {
      assertContainer("list", value);
      const list = value as AnyMessage[];
      const child = fp.child as Plan;
      for (let i = 0; i < list.length; i++) {
        w.tag(fp.no, WireType.LengthDelimited).fork();
        try {
          assertContainer("message", list[i]);
          writeMessage(w, child, list[i] as AnyMessage, keepUnknown);
        } catch (e) {
          throw withSegment(e, `[${i}]`);
        }
        w.join();
      }
      return;
    }
    case "scalarList": {
      assertContainer("list", value);
      const list = value as unknown[];
      for (let i = 0; i < list.length; i++) {
        w.tag(fp.no, fp.wireType);
        try {
          assertScalar(fp.scalar, list[i]);
          writeScalar(w, fp.scalar, list[i]);
        } catch (e) {
          throw withSegment(e, `[${i}]`);
        }
      }
      return;
    }
    case "map":
      writeMap(w, fp.no, value);
      return;
  }
}

/** A string map's keys in Go's write order (byte order), after checking the value is a map. */
function mapKeys(value: unknown): string[] {
  assertContainer("map", value);
  const keys = Object.keys(value as object);
  if (keys.length > 1) keys.sort(compareUtf8);
  return keys;
}

/** A string map's value at `k`, refused (at that key) unless it is a string. */
function mapValue(map: Record<string, unknown>, k: string): string {
  const v = map[k];
  if (typeof v !== "string") throw new EncodeError(`expected a string map value, got ${typeof v}`, k);
  return v;
}

/** A string map as Go writes it: one entry per key, in byte order, key and value always. */
function writeMap(w: BinaryWriter, no: number, value: unknown): void {
  const map = value as Record<string, unknown>;
  for (const k of mapKeys(value)) {
    const v = mapValue(map, k);
    w.tag(no, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string(k);
    w.tag(2, WireType.LengthDelimited).string(v);
    w.join();
  }
}

/** Prefixes a field to an encoding failure's path; wraps the writer's own errors. */
function withSegment(e: unknown, seg: string): EncodeError {
  if (e instanceof EncodeError) {
    const path = e.path === "" ? seg : e.path.startsWith("[") ? seg + e.path : `${seg}.${e.path}`;
    return new EncodeError(e.reason, path);
  }
  return new EncodeError(e instanceof Error ? e.message : String(e), seg);
}

function assertScalar(t: ScalarType, v: unknown): void {
  const bad = scalarMismatch(t, v);
  if (bad !== undefined) throw new EncodeError(bad, "");
}

function assertContainer(kind: "list" | "map" | "message", value: unknown): void {
  const bad = containerMismatch(kind, value);
  if (bad !== undefined) throw new EncodeError(bad, "");
}

/** Writes a value whose type the caller has checked with assertScalar. */
function writeScalar(w: BinaryWriter, t: ScalarType, value: unknown): void {
  switch (t) {
    case ScalarType.STRING:
      w.string(value as string);
      return;
    case ScalarType.BYTES:
      w.bytes(value as Uint8Array);
      return;
    case ScalarType.INT32:
      w.int32(value as number);
      return;
    case ScalarType.INT64:
      w.int64(value as bigint);
      return;
    case ScalarType.BOOL:
      w.bool(value as boolean);
      return;
  }
}

const empties = new WeakMap<Plan, AnyMessage>();
/** A shared, never-mutated empty message, for writing absent structs. */
function emptyOf(plan: Plan): AnyMessage {
  let m = empties.get(plan);
  if (m === undefined) {
    m = Object.freeze(create(plan.desc)) as AnyMessage;
    empties.set(plan, m);
  }
  return m;
}

/** Go writes whole seconds and nanos 0; the zero time is an empty message. */
function writeTime(w: BinaryWriter, msg: AnyMessage): void {
  if (isZeroTime(msg)) return;
  const seconds = hasOwn.call(msg, "seconds") ? msg["seconds"] : 0n;
  const bad = scalarMismatch(ScalarType.INT64, seconds);
  if (bad !== undefined) throw new EncodeError(bad, "seconds");
  w.tag(1, WireType.Varint).int64(seconds as bigint);
  w.tag(2, WireType.Varint).int32(0);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The writer the generated encoders write through (the BinEncoder
 * interface): the generic encoder's checks, refusing the same values with
 * the same reasons, and a WireWriter's writes, whose bytes equal the generic
 * encoder's BinaryWriter's. The type checks are inlined (scalarMismatch only
 * words the refusal): calling it for every value measured 5% of encoding.
 * One is reused across objects; `keep` is set per call.
 */
export class EncodeState extends WireWriter implements BinEncoder {
  keep = true;
  str(tag: number, v: unknown): void {
    if (typeof v !== "string") throw mismatch(ScalarType.STRING, v);
    // One-byte tag, short ASCII string: tag, length and characters written
    // with one room() check (measured: string fields are a fifth of encoding).
    const n = v.length;
    if (tag < 128 && n < 128) {
      const buf = this.room(n + 2);
      const at = this.pos;
      if (putAscii(buf, at + 2, v) === n) {
        buf[at] = tag;
        buf[at + 1] = n;
        this.pos = at + 2 + n;
        return;
      }
    }
    this.tagged(tag);
    this.string(v);
  }
  bytesField(tag: number, v: unknown): void {
    if (!(v instanceof Uint8Array)) throw mismatch(ScalarType.BYTES, v);
    this.tagged(tag);
    this.bytes(v);
  }
  nonEmptyBytes(tag: number, v: unknown): void {
    if (!(v instanceof Uint8Array)) throw mismatch(ScalarType.BYTES, v);
    if (v.length === 0) return;
    this.tagged(tag);
    this.bytes(v);
  }
  i32(tag: number, v: unknown): void {
    if (typeof v !== "number" || (v | 0) !== v) throw mismatch(ScalarType.INT32, v);
    this.tagged(tag);
    this.int32(v);
  }
  i64(tag: number, v: unknown): void {
    if (typeof v !== "bigint" || v < INT64_MIN || v > INT64_MAX) throw mismatch(ScalarType.INT64, v);
    this.tagged(tag);
    this.int64(v);
  }
  bool(tag: number, v: unknown): void {
    if (typeof v !== "boolean") throw mismatch(ScalarType.BOOL, v);
    this.tagged(tag);
    this.room(1)[this.pos++] = v ? 1 : 0;
  }
  map(tag: number, v: unknown): void {
    const map = v as Record<string, unknown>;
    for (const k of mapKeys(v)) {
      const value = mapValue(map, k);
      // A short ASCII entry is written with its length known, without fork and join.
      const kn = k.length;
      const vn = value.length;
      const len = kn + vn + 4;
      if (tag < 128 && len < 128) {
        const buf = this.room(len + 2);
        const at = this.pos;
        if (putAscii(buf, at + 4, k) === kn && putAscii(buf, at + 6 + kn, value) === vn) {
          buf[at] = tag;
          buf[at + 1] = len;
          buf[at + 2] = 0x0a;
          buf[at + 3] = kn;
          buf[at + 4 + kn] = 0x12;
          buf[at + 5 + kn] = vn;
          this.pos = at + 2 + len;
          continue;
        }
      }
      this.tagged(tag);
      this.fork();
      this.tagged(0x0a);
      this.string(k);
      this.tagged(0x12);
      this.string(value);
      this.join();
    }
  }
  message(v: unknown): void {
    if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array) {
      assertContainer("message", v);
    }
  }
  list(v: unknown): void {
    if (!Array.isArray(v)) assertContainer("list", v);
  }
  forkField(tag: number): void {
    this.tagged(tag);
    this.fork();
  }
  time(m: Message): void {
    const msg = m as AnyMessage;
    if (isZeroTime(msg)) return;
    const seconds = hasOwn.call(msg, "seconds") ? msg["seconds"] : 0n;
    if (typeof seconds !== "bigint" || seconds < INT64_MIN || seconds > INT64_MAX) {
      throw new EncodeError(scalarMismatch(ScalarType.INT64, seconds) as string, "seconds");
    }
    this.tagged(0x08);
    this.int64(seconds);
    this.tagged(0x10);
    this.varint32(0);
  }
  unknown(m: Message): void {
    for (const u of (m as AnyMessage).$unknown ?? []) {
      this.varint32(((u.no << 3) | u.wireType) >>> 0);
      this.raw(u.data);
    }
  }
  inField(e: unknown, segment: string): unknown {
    return withSegment(e, segment);
  }

  // The size functions' measures: the checks above, and the length written.

  strSize(tagLength: number, v: unknown): number {
    if (typeof v !== "string") throw mismatch(ScalarType.STRING, v);
    return tagLength + stringFieldLength(v);
  }
  bytesFieldSize(tagLength: number, v: unknown): number {
    if (!(v instanceof Uint8Array)) throw mismatch(ScalarType.BYTES, v);
    return tagLength + varintLength32(v.byteLength) + v.byteLength;
  }
  nonEmptyBytesSize(tagLength: number, v: unknown): number {
    if (!(v instanceof Uint8Array)) throw mismatch(ScalarType.BYTES, v);
    return v.byteLength === 0 ? 0 : tagLength + varintLength32(v.byteLength) + v.byteLength;
  }
  i32Size(tagLength: number, v: unknown): number {
    if (typeof v !== "number" || (v | 0) !== v) throw mismatch(ScalarType.INT32, v);
    return tagLength + (v < 0 ? 10 : varintLength32(v));
  }
  i64Size(tagLength: number, v: unknown): number {
    if (typeof v !== "bigint" || v < INT64_MIN || v > INT64_MAX) throw mismatch(ScalarType.INT64, v);
    return tagLength + varintLength64(v);
  }
  boolSize(tagLength: number, v: unknown): number {
    if (typeof v !== "boolean") throw mismatch(ScalarType.BOOL, v);
    return tagLength + 1;
  }
  mapSize(tagLength: number, v: unknown): number {
    const map = v as Record<string, unknown>;
    let n = 0;
    for (const k of mapKeys(v)) {
      const entry = 2 + stringFieldLength(k) + stringFieldLength(mapValue(map, k));
      n += tagLength + varintLength32(entry) + entry;
    }
    return n;
  }
  subSize(tagLength: number, bodyLength: number): number {
    return tagLength + varintLength32(bodyLength) + bodyLength;
  }
  timeSize(m: Message): number {
    const msg = m as AnyMessage;
    if (isZeroTime(msg)) return 0;
    const seconds = hasOwn.call(msg, "seconds") ? msg["seconds"] : 0n;
    if (typeof seconds !== "bigint" || seconds < INT64_MIN || seconds > INT64_MAX) {
      throw new EncodeError(scalarMismatch(ScalarType.INT64, seconds) as string, "seconds");
    }
    return 1 + varintLength64(seconds) + 2;
  }
  unknownSize(m: Message): number {
    let n = 0;
    for (const u of (m as AnyMessage).$unknown ?? []) {
      n += varintLength32(((u.no << 3) | u.wireType) >>> 0) + u.data.byteLength;
    }
    return n;
  }
}

/**
 * Copies the characters of `s` to `buf` from `at` while they are ASCII and
 * returns how many it copied (s.length if all). The caller has made room.
 */
function putAscii(buf: Uint8Array, at: number, s: string): number {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) break;
    buf[at + i] = c;
  }
  return i;
}

function mismatch(t: ScalarType, v: unknown): EncodeError {
  return new EncodeError(scalarMismatch(t, v) as string, "");
}
