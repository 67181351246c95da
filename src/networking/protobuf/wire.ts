import type { BinaryReader } from "@bufbuild/protobuf/wire";
import { WireType } from "@bufbuild/protobuf/wire";
import { utf8OrUndefined } from "../model/utf8.js";

/*
 * The one place clusterwire reads varints: field tags, length prefixes,
 * skipped values and varint scalars all go through this module.
 *
 * Wire primitives that @bufbuild/protobuf's BinaryReader leaves unbounded or
 * truncates: its skip() accepts varints of any length, its uint32() wraps
 * 64-bit lengths modulo 2^32, and its errors carry no offset. Go rejects all
 * of these inputs, so these helpers do too, saying where.
 */

/** An internal decoding failure; path segments are prepended while unwinding. */
export class Failure {
  constructor(
    readonly offset: number,
    readonly reason: string,
    /** Field names (strings) and list indexes (numbers). */
    readonly path: (string | number)[] = [],
  ) {}
}

export const WIRE_NAMES = ["varint", "64-bit", "length-delimited", "start-group", "end-group", "32-bit", "6", "7"];

/** Reads a field tag without allocating, rejecting field number 0, wire types 6/7 and over-long tags. */
export function readTag(r: BinaryReader): number {
  const at = r.pos;
  const tag = r.uint32();
  if (r.pos - at > 5) throw new Failure(at, "bad field tag: varint longer than 5 bytes");
  if (r.pos - at === 5) {
    // uint32() drops bits past 32, which would turn field 2^29 + 5 into field 5.
    // Re-read the fifth byte alone (it is below 0x80, so one byte).
    r.pos = at + 4;
    if (r.uint32() > 0x0f) throw new Failure(at, "bad field tag: varint overflows 32 bits");
  }
  if (tag >>> 3 === 0) throw new Failure(at, "bad field tag: field number 0");
  if ((tag & 7) > 5) throw new Failure(at, `bad field tag: wire type ${tag & 7}`);
  return tag;
}

/**
 * Reads a length prefix as the 64-bit varint it is and returns where the
 * payload ends, leaving `r.pos` after the prefix. `end` bounds the enclosing
 * message; `what` names it in the error.
 */
export function readLength(r: BinaryReader, bytes: Uint8Array, end: number, what = "enclosing message"): number {
  const at = r.pos;
  // Most prefixes are one byte; a longer or overrunning one takes the general path.
  const first = bytes[at];
  if (first !== undefined && first < 0x80 && at + 1 + first <= end) {
    r.pos = at + 1;
    return at + 1 + first;
  }
  let pos = at;
  let len = 0;
  let scale = 1;
  for (let i = 0; ; i++) {
    if (i === 10) throw new Failure(at, "bad varint: more than 10 bytes");
    if (pos >= bytes.length) throw new Failure(at, "truncated input: a length prefix runs past the end of the buffer");
    const b = bytes[pos++] as number;
    len += (b & 0x7f) * scale;
    scale *= 128;
    if (b < 0x80) break;
  }
  const stop = pos + len;
  if (stop > end) throw new Failure(at, `length ${len} runs past the end of the ${what}`);
  r.pos = pos;
  return stop;
}

/**
 * Reads a length-delimited UTF-8 string and leaves `r.pos` after it. Strings
 * are the commonest field, and nearly all have a one-byte length: reading
 * that byte here, rather than through readLength, measured 3-5% of decode
 * time on the fixtures. `what` names the enclosing bound in errors, as for
 * readLength.
 */
export function readString(r: BinaryReader, bytes: Uint8Array, end: number, what: string): string {
  const at = r.pos;
  const first = bytes[at];
  if (first !== undefined && first < 0x80) {
    const stop = at + 1 + first;
    if (stop <= end) {
      r.pos = stop;
      return readUtf8(bytes, at + 1, stop, at);
    }
  }
  const stop = readLength(r, bytes, end, what);
  const start = r.pos;
  r.pos = stop;
  return readUtf8(bytes, start, stop, at);
}

/**
 * Skips one value of an unknown field, bounded by `end` and by `depthLeft`
 * nested groups. `r.pos` is just after the tag, which starts at `tagAt`.
 * Errors point at the offending bytes: the value, or the tag for group errors.
 */
export function skipValue(
  r: BinaryReader,
  bytes: Uint8Array,
  wireType: number,
  fieldNo: number,
  end: number,
  depthLeft: number,
  tagAt: number,
): void {
  const at = r.pos;
  switch (wireType) {
    case WireType.Varint: {
      let pos = at;
      for (let i = 0; ; i++) {
        if (i === 10) throw new Failure(at, "bad varint: more than 10 bytes");
        if (pos >= end) throw new Failure(at, "truncated input: a varint runs past the end of its message");
        if ((bytes[pos++] as number) < 0x80) break;
      }
      r.pos = pos;
      return;
    }
    case WireType.Bit64:
    case WireType.Bit32: {
      const size = wireType === WireType.Bit64 ? 8 : 4;
      if (at + size > end)
        throw new Failure(at, `truncated input: a ${size * 8}-bit value runs past the end of its message`);
      r.pos = at + size;
      return;
    }
    case WireType.LengthDelimited:
      r.pos = readLength(r, bytes, end);
      return;
    case WireType.StartGroup: {
      if (depthLeft <= 0) throw new Failure(tagAt, "groups nested deeper than the limit");
      for (;;) {
        if (r.pos >= end) throw new Failure(tagAt, `group ${fieldNo} has no end-group tag`);
        const tagAt2 = r.pos;
        const tag = readTag(r);
        const no = tag >>> 3;
        const wt = tag & 7;
        if (wt === WireType.EndGroup) {
          if (no !== fieldNo) throw new Failure(tagAt2, `end-group tag for field ${no} closes group ${fieldNo}`);
          return;
        }
        skipValue(r, bytes, wt, no, end, depthLeft - 1, tagAt2);
      }
    }
    case WireType.EndGroup:
      throw new Failure(tagAt, `unexpected end-group tag for field ${fieldNo}`);
    default:
      throw new Failure(at, `bad wire type ${wireType}`);
  }
}

/** A protobuf string field's bytes as a string; invalid UTF-8 fails at `at`. */
export function readUtf8(bytes: Uint8Array, start: number, stop: number, at: number): string {
  const s = utf8OrUndefined(bytes, start, stop);
  if (s === undefined) throw new Failure(at, "string field is not valid UTF-8");
  return s;
}

/** A private copy of `bytes[start, stop)` as a plain Uint8Array (Buffer.slice would share memory). */
export function copyBytes(bytes: Uint8Array, start: number, stop: number): Uint8Array {
  const out = new Uint8Array(stop - start);
  out.set(bytes.subarray(start, stop));
  return out;
}

/** A varint int32 scalar (BinaryReader's reader: Go's sign extension, 10-byte limit). */
export function readInt32(r: BinaryReader): number {
  return r.int32();
}

/** A varint int64 scalar (a bigint where the runtime has BigInt). */
export function readInt64(r: BinaryReader): bigint | string {
  return r.int64();
}

/** A varint bool scalar: any non-zero value is true, as in Go. */
export function readBool(r: BinaryReader): boolean {
  return r.bool();
}

/** The two errors BinaryReader's varint and bounds checks raise, in our words. */
export function wireReason(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  if (e.message === "premature EOF") return "truncated input: a field runs past the end of the buffer";
  if (e.message === "invalid varint") return "bad varint: more than 10 bytes";
  return undefined;
}
