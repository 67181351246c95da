import { create, ScalarType, type Message } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import { DecodeError } from "../model/errors.js";
import { renderPath } from "../model/path.js";
import { setOwn } from "../model/set-own.js";
import { zeroMessage } from "../model/zero.js";
import type { BinDecoder, BinFields } from "../../../gen/clusterwire/bin_runtime.js";
import type { AnyMessage, FieldPlan, Plan } from "./plan.js";
import {
  Failure,
  WIRE_NAMES,
  WireReader,
  copyBytes,
  plainBytes,
  readBool,
  readInt32,
  readInt64,
  readLength as readLengthAt,
  readString as readStringAt,
  readTag as readTagAt,
  skipValue,
  wireReason,
} from "./wire.js";

/*
 * The generic binary decoder: it interprets a message's plan field by field.
 * The generated decoders (the *_bin.ts files in gen/) read through DecodeState's
 * methods, which are this decoder's own checks, so both accept and reject
 * exactly the same bytes.
 */

/** Options for bare-message protobuf decoding. */
export interface BinaryDecodeOptions {
  /** Maximum nesting of groups inside unknown fields. Default 64, capped at 500. */
  readonly maxDepth?: number;
}

/** Default and hard cap of {@link BinaryDecodeOptions.maxDepth}. */
export const DEFAULT_GROUP_DEPTH = 64;
export const MAX_GROUP_DEPTH = 500;

/**
 * The group nesting limit for `options`. Groups are skipped recursively, so
 * a larger limit (100,000, Infinity, NaN) would let deep input overflow the
 * stack instead of raising a DecodeError; 500 levels fit even small stacks.
 */
export function groupDepthLimit(options: BinaryDecodeOptions): number {
  const d = options.maxDepth ?? DEFAULT_GROUP_DEPTH;
  return Number.isNaN(d) ? MAX_GROUP_DEPTH : Math.max(0, Math.min(Math.floor(d), MAX_GROUP_DEPTH));
}

/**
 * One input being decoded. The generic decoder reads its fields; the
 * generated decoders call its methods (the BinDecoder interface), which are
 * the generic decoder's own helpers.
 */
export class DecodeState implements BinDecoder {
  /** Start of the field being read, for errors the wire reader raises itself. */
  fieldStart: number;
  constructor(
    readonly reader: WireReader,
    readonly bytes: Uint8Array,
    readonly maxDepth: number,
    start: number,
  ) {
    this.fieldStart = start;
  }
  tag(): number {
    return readTag(this);
  }
  length(end: number): number {
    return readLength(this, end);
  }
  string(end: number): string {
    return readStringAt(this.reader, this.bytes, end, end === this.bytes.length ? "input" : "enclosing message");
  }
  bytesValue(end: number): Uint8Array {
    return readBytes(this, end);
  }
  int32(): number {
    return readInt32(this.reader);
  }
  int64(): bigint {
    return readInt64(this.reader) as bigint;
  }
  bool(): boolean {
    return readBool(this.reader);
  }
  mapEntry(map: { [key: string]: string }, end: number): void {
    readMapEntry(this, map, end);
  }
  other(m: Message, tag: number, at: number, end: number, known: BinFields): void {
    const no = tag >>> 3;
    const wireType = (tag & 7) as WireType;
    // One-byte tags reach here unchecked (the generated switch reads them itself).
    if (no === 0) throw new Failure(at, "bad field tag: field number 0");
    if (wireType > 5) throw new Failure(at, `bad field tag: wire type ${wireType}`);
    const k = known[no];
    if (k !== undefined) {
      throw wrongWireType(k[0], no, k[1], k[2], wireType, at);
    }
    readUnknown(this, m as AnyMessage, no, wireType, end);
  }
  inField(e: unknown, segment: string, at: number): unknown {
    return prefixSegment(e, segment, at);
  }
  atIndex(e: unknown, index: number): unknown {
    return prefixIndex(e, index);
  }
  overrun(at: number): unknown {
    return new Failure(at, "message overruns its length");
  }
}

/** A decoding state positioned at `start` of `bytes`. */
export function decodeState(input: Uint8Array, start: number, options: BinaryDecodeOptions): DecodeState {
  const bytes = plainBytes(input);
  const reader = new WireReader(bytes);
  reader.pos = start;
  return new DecodeState(reader, bytes, groupDepthLimit(options), start);
}

/** Decodes the message of `plan` from the state's position to `end`. */
export function decodeGeneric(state: DecodeState, plan: Plan, end: number): Message {
  return readMessage(state, plan, create(plan.desc) as AnyMessage, end);
}

export function toDecodeError(e: unknown, state: { fieldStart: number }): DecodeError {
  if (e instanceof DecodeError) return e;
  if (e instanceof Failure) {
    return new DecodeError("protobuf", e.reason, { offset: e.offset, path: renderPath(e.path), segments: e.path });
  }
  const reason = wireReason(e);
  if (reason === undefined) throw e; // a bug in clusterwire, not bad input
  return new DecodeError("protobuf", reason, { offset: state.fieldStart });
}

/** Reads a tag; see wire.ts for what is rejected. */
function readTag(state: DecodeState): number {
  return readTagAt(state.reader);
}

/** Reads a length prefix (64-bit, bounded by `end`) and returns where the payload ends. */
/** How errors name the bound `end`: the whole input, or the message being read. */
function boundName(state: DecodeState, end: number): string {
  return end === state.bytes.length ? "input" : "enclosing message";
}

function readLength(state: DecodeState, end: number): number {
  return readLengthAt(state.reader, state.bytes, end, boundName(state, end));
}

function readMessage(state: DecodeState, plan: Plan, msg: AnyMessage, end: number): AnyMessage {
  const r = state.reader;
  const byNumber = plan.byNumber;
  while (r.pos < end) {
    const fieldStart = r.pos;
    state.fieldStart = fieldStart;
    const tag = readTag(state);
    const no = tag >>> 3;
    const wireType = (tag & 7) as WireType;
    const fp = byNumber[no];
    if (fp === undefined) {
      readUnknown(state, msg, no, wireType, end);
      continue;
    }
    if (wireType !== fp.wireType) throw wrongWireType(fp.name, fp.no, fp.wireType, fp.segment, wireType, fieldStart);
    try {
      switch (fp.kind) {
        case "scalar":
          msg[fp.localName] = readScalar(state, fp.scalar, end);
          break;
        case "message": {
          const stop = readLength(state, end);
          // A repeated singular message merges into the first, as in Go.
          const existing = msg[fp.localName] as AnyMessage | undefined;
          const child = fp.child as Plan;
          msg[fp.localName] = readMessage(state, child, existing ?? (create(child.desc) as AnyMessage), stop);
          break;
        }
        case "messageList": {
          const list = msg[fp.localName] as unknown[];
          const stop = readLength(state, end);
          const child = fp.child as Plan;
          try {
            list.push(readMessage(state, child, create(child.desc) as AnyMessage, stop));
          } catch (e) {
            throw prefixIndex(e, list.length);
          }
          break;
        }
        case "scalarList":
          (msg[fp.localName] as unknown[]).push(readScalar(state, fp.scalar, end));
          break;
        case "map":
          readMapEntry(state, msg[fp.localName] as Record<string, unknown>, end);
          break;
      }
    } catch (e) {
      throw prefixSegment(e, fp.segment, fieldStart);
    }
  }
  if (r.pos !== end) throw new Failure(r.pos, "message overruns its length");
  const structs = plan.structs;
  for (let i = 0; i < structs.length; i++) {
    const fp = structs[i] as FieldPlan;
    if (msg[fp.localName] === undefined) msg[fp.localName] = zeroMessage((fp.child as Plan).desc);
  }
  return msg;
}

function wrongWireType(name: string, no: number, want: number, segment: string, got: WireType, at: number): Failure {
  return new Failure(
    at,
    `wrong wire type for field ${name} (${no}): got ${WIRE_NAMES[got]}, want ${WIRE_NAMES[want]}`,
    segment === "" ? [] : [segment],
  );
}

function prefixIndex(e: unknown, seg: number): unknown {
  if (e instanceof Failure) e.path.unshift(seg);
  return e;
}

function prefixSegment(e: unknown, seg: string, fieldStart: number): unknown {
  if (e instanceof Failure) {
    if (seg !== "") e.path.unshift(seg);
    return e;
  }
  if (e instanceof DecodeError) return e;
  // A wire-reader error inside this field: attribute it to the field.
  const reason = wireReason(e);
  if (reason === undefined) return e;
  return new Failure(fieldStart, reason, seg === "" ? [] : [seg]);
}

/** A length-delimited string (readLength takes the common one-byte prefix fast). */
function readString(state: DecodeState, end: number): string {
  return readStringAt(state.reader, state.bytes, end, boundName(state, end));
}

/** A length-delimited bytes value, copied out of the input. */
function readBytes(state: DecodeState, end: number): Uint8Array {
  const stop = readLength(state, end);
  const start = state.reader.pos;
  state.reader.pos = stop;
  return copyBytes(state.bytes, start, stop);
}

function readScalar(state: DecodeState, t: ScalarType, end: number): unknown {
  const r = state.reader;
  switch (t) {
    case ScalarType.STRING:
      return readString(state, end);
    case ScalarType.BYTES:
      return readBytes(state, end);
    case ScalarType.INT32:
      return readInt32(r);
    case ScalarType.INT64:
      return readInt64(r);
    case ScalarType.BOOL:
      return readBool(r);
    default:
      throw new Failure(r.pos, `unsupported scalar type ${ScalarType[t]}`);
  }
}

function readMapEntry(state: DecodeState, map: Record<string, unknown>, end: number): void {
  const r = state.reader;
  const stop = readLength(state, end);
  // Go writes both; a missing key or value decodes as "".
  let key = "";
  let value = "";
  // Fast path for Go's layout, 0a <key> 12 <value>; anything else takes the loop.
  // An empty entry (Go reads it as key "" and value "") must not look past its end.
  const b = state.bytes;
  if (r.pos < stop && b[r.pos] === 0x0a) {
    r.pos++;
    key = readString(state, stop);
    if (r.pos < stop && b[r.pos] === 0x12) {
      r.pos++;
      value = readString(state, stop);
    }
  }
  while (r.pos < stop) {
    const at = r.pos;
    state.fieldStart = at;
    const tag = readTag(state);
    const no = tag >>> 3;
    const wt = (tag & 7) as WireType;
    if ((no === 1 || no === 2) && wt === WireType.LengthDelimited) {
      const s = readString(state, stop);
      if (no === 1) key = s;
      else value = s;
    } else if (no === 1 || no === 2) {
      throw new Failure(at, `wrong wire type in map entry: got ${WIRE_NAMES[wt]}, want length-delimited`);
    } else {
      skipUnknown(state, no, wt, stop);
    }
  }
  if (r.pos !== stop) throw new Failure(r.pos, "map entry overruns its length");
  if (key === "__proto__") setOwn(map, key, value);
  else map[key] = value;
}

function skipUnknown(state: DecodeState, no: number, wireType: WireType, end: number): void {
  skipValue(state.reader, state.bytes, wireType, no, end, state.maxDepth, state.fieldStart);
}

/** Keeps an unknown field's value bytes (after the tag), as protobuf-es stores them. */
function readUnknown(state: DecodeState, msg: AnyMessage, no: number, wireType: WireType, end: number): void {
  const valueStart = state.reader.pos;
  skipUnknown(state, no, wireType, end);
  msg.$unknown ??= [];
  msg.$unknown.push({ no, wireType, data: copyBytes(state.bytes, valueStart, state.reader.pos) });
}
