import { create, ScalarType, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { DecodeError, EncodeError } from "../model/errors.js";
import { GO_ZERO_TIME_SECONDS, TIME_TYPE, shapeOf, type FieldShape, type MessageShape } from "../model/shapes.js";
import { Failure, WIRE_NAMES, copyBytes, readLength as readLengthAt, readTag as readTagAt, readUtf8, renderPath, skipValue } from "./wire.js";
import { canSpecialise, specialise, type SpecField, type SpecHelpers, type SpecPlan, type Specialised } from "./specialize.js";

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

/** Options for Go-exact protobuf encoding. */
export interface BinaryEncodeOptions {
  /**
   * `"keep"` (default) re-writes unknown fields after the known ones, so data
   * from a newer server survives a read-modify-write. `"drop"` discards them,
   * which is what Go's generated code does.
   */
  readonly unknownFields?: "keep" | "drop";
}

type AnyMessage = Message & Record<string, unknown> & { $unknown?: UnknownField[] };
interface UnknownField {
  no: number;
  wireType: WireType;
  data: Uint8Array;
}

// ---------------------------------------------------------------- plans

type Kind = "scalar" | "message" | "scalarList" | "messageList" | "map";

/** One field, with everything the hot loops need precomputed. */
interface FieldPlan extends SpecField {
  readonly fs: FieldShape;
  readonly no: number;
  readonly name: string;
  readonly localName: string;
  readonly kind: Kind;
  readonly scalar: ScalarType;
  readonly wireType: WireType;
  readonly pointer: boolean;
  readonly nonEmpty: boolean;
  /** Path segment for errors ("" for an inlined struct). */
  readonly segment: string;
  child: Plan | undefined;
}

/** A message shape compiled for decoding and encoding. */
interface Plan extends SpecPlan {
  readonly shape: MessageShape;
  readonly desc: DescMessage;
  readonly isTime: boolean;
  /** Indexed by field number. */
  readonly byNumber: (FieldPlan | undefined)[];
  /** Ascending field number: Go's write order. */
  readonly fields: FieldPlan[];
  /** Non-pointer struct fields: Go's zero value has them, so they always exist. */
  readonly structs: FieldPlan[];
}

const plans = new Map<string, Plan>();

function planOf(desc: DescMessage): Plan {
  const cached = plans.get(desc.typeName);
  if (cached !== undefined) return cached;
  const shape = shapeOf(desc);
  const plan: Plan = { shape, desc, isTime: desc.typeName === TIME_TYPE, byNumber: [], fields: [], structs: [] };
  plans.set(desc.typeName, plan);
  for (const fs of shape.wireOrder) {
    const f = fs.field;
    const kind: Kind =
      f.fieldKind === "scalar" ? "scalar"
      : f.fieldKind === "message" ? "message"
      : f.fieldKind === "map" ? "map"
      : f.fieldKind === "list" && f.listKind === "message" ? "messageList"
      : "scalarList";
    const fp: FieldPlan = {
      fs,
      no: f.number,
      name: f.name,
      localName: fs.localName,
      kind,
      scalar: (f.fieldKind === "scalar" || f.fieldKind === "list" ? f.scalar : undefined) ?? ScalarType.STRING,
      wireType: expectedWireType(f),
      pointer: fs.pointer,
      nonEmpty: fs.nonEmpty,
      segment: fs.jsonKey ?? "",
      child: undefined,
    };
    plan.byNumber[f.number] = fp;
    plan.fields.push(fp);
    if (kind === "message" && !fs.pointer) plan.structs.push(fp);
  }
  // Children after registration, so a (hypothetical) recursive schema terminates.
  for (const fp of plan.fields) {
    if (fp.kind === "message" || fp.kind === "messageList") fp.child = planOf(fp.fs.field.message as DescMessage);
  }
  return plan;
}

// ---------------------------------------------------------------- decoding

interface DecodeState {
  readonly reader: BinaryReader;
  readonly bytes: Uint8Array;
  readonly maxDepth: number;
  /** Start of the field being read, for errors the wire reader raises itself. */
  fieldStart: number;
}

/**
 * Decodes `bytes[start, end)` as a bare message of type `desc`. Errors carry
 * absolute offsets into `bytes`.
 */
export function decodeMessageAt(
  desc: DescMessage,
  bytes: Uint8Array,
  start: number,
  end: number,
  options: BinaryDecodeOptions = {},
): Message {
  const reader = new BinaryReader(bytes);
  reader.pos = start;
  const state: DecodeState = { reader, bytes, maxDepth: groupDepthLimit(options), fieldStart: start };
  try {
    const plan = planOf(desc);
    if (useSpecialised) {
      const spec = specialised(plan);
      return spec.decode(state, new spec.Ctor(), end) as Message;
    }
    return readMessage(state, plan, create(desc) as AnyMessage, end);
  } catch (e) {
    throw toDecodeError(e, state);
  }
}

let useSpecialised = canSpecialise;

/**
 * Chooses between the specialised decoders/encoders and the generic codec (tests run
 * both against each other). Returns the previous setting.
 */
export function setSpecialisedCodecs(on: boolean): boolean {
  const was = useSpecialised;
  useSpecialised = on && canSpecialise;
  return was;
}

const specCache = new Map<SpecPlan, Specialised>();
const prototypes = new Map<string, object>();

function specialised(plan: Plan): Specialised {
  return specCache.get(plan) ?? specialise(plan, specHelpers, prototypeOf, specCache);
}

/** The prototype protobuf-es puts proto2 messages on (it holds the zero values). */
function prototypeOf(desc: DescMessage): object {
  let p = prototypes.get(desc.typeName);
  if (p === undefined) {
    p = Object.getPrototypeOf(create(desc)) as object;
    prototypes.set(desc.typeName, p);
  }
  return p;
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

/** The two errors BinaryReader's varint and bounds checks raise, in our words. */
function wireReason(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  if (e.message === "premature EOF") return "truncated input: a field runs past the end of the buffer";
  if (e.message === "invalid varint") return "bad varint: more than 10 bytes";
  return undefined;
}

function expectedWireType(field: DescField): WireType {
  switch (field.fieldKind) {
    case "message":
    case "map":
      return WireType.LengthDelimited;
    case "list":
      return field.listKind === "message" ? WireType.LengthDelimited : scalarWireType(field.scalar as ScalarType);
    case "scalar":
      return scalarWireType(field.scalar);
    default:
      throw new Error(`unsupported field kind in ${field.toString()}`);
  }
}

function scalarWireType(t: ScalarType): WireType {
  switch (t) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited;
    case ScalarType.INT32:
    case ScalarType.INT64:
    case ScalarType.BOOL:
      return WireType.Varint;
    default:
      throw new Error(`scalar type ${ScalarType[t]} is not used by these schemas`);
  }
}

/** Reads a tag; see wire.ts for what is rejected. */
function readTag(state: DecodeState): number {
  return readTagAt(state.reader);
}

/** Reads a length prefix (64-bit, bounded by `end`) and returns where the payload ends. */
function readLength(state: DecodeState, end: number): number {
  return readLengthAt(state.reader, state.bytes, end, end === state.bytes.length ? "input" : "enclosing message");
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
    if (wireType !== fp.wireType) throw wrongWireType(fp, wireType, fieldStart);
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
    if (msg[fp.localName] === undefined) msg[fp.localName] = zeroOf(fp.child as Plan);
  }
  return msg;
}

function wrongWireType(fp: FieldPlan, got: WireType, at: number): Failure {
  return new Failure(
    at,
    `wrong wire type for field ${fp.name} (${fp.no}): got ${WIRE_NAMES[got]}, want ${WIRE_NAMES[fp.wireType]}`,
    fp.segment === "" ? [] : [fp.segment],
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

/** A length-delimited string; the common one-byte length prefix skips the general varint reader. */
function readString(state: DecodeState, end: number): string {
  const r = state.reader;
  const b = state.bytes;
  const at = r.pos;
  const len = b[at];
  if (len !== undefined && len < 0x80) {
    const stop = at + 1 + len;
    if (stop <= end) {
      r.pos = stop;
      return readUtf8(b, at + 1, stop, at);
    }
  }
  const stop = readLength(state, end);
  const start = r.pos;
  r.pos = stop;
  return readUtf8(b, start, stop, at);
}

function readScalar(state: DecodeState, t: ScalarType, end: number): unknown {
  const r = state.reader;
  switch (t) {
    case ScalarType.STRING:
      return readString(state, end);
    case ScalarType.BYTES: {
      const stop = readLength(state, end);
      const start = r.pos;
      r.pos = stop;
      return copyBytes(state.bytes, start, stop);
    }
    case ScalarType.INT32:
      return r.int32();
    case ScalarType.INT64:
      return r.int64();
    case ScalarType.BOOL:
      return r.bool();
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
  const b = state.bytes;
  if (b[r.pos] === 0x0a) {
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

/** Assigns without invoking the `__proto__` setter, so no key is silently lost. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

function skipUnknown(state: DecodeState, no: number, wireType: WireType, end: number): void {
  skipValue(state.reader, state.bytes, wireType, no, end, state.maxDepth, state.fieldStart);
}

/** Keeps an unknown field's value bytes (after the tag), as protobuf-es stores them. */
function readUnknown(state: DecodeState, msg: AnyMessage, no: number, wireType: WireType, end: number): void {
  const valueStart = state.reader.pos;
  skipUnknown(state, no, wireType, end);
  (msg.$unknown ??= []).push({ no, wireType, data: copyBytes(state.bytes, valueStart, state.reader.pos) });
}

/** The helpers specialised decoders call: the generic decoder's own checks. */
const specHelpers: SpecHelpers = {
  readTag: (st) => readTag(st as DecodeState),
  readLength: (st, end) => readLength(st as DecodeState, end),
  readString: (st, end) => readString(st as DecodeState, end),
  readBytes: (st, end) => readScalar(st as DecodeState, ScalarType.BYTES, end) as Uint8Array,
  readMapEntry: (st, map, end) => readMapEntry(st as DecodeState, map, end),
  other: (st, plan, msg, tag, at, end) => {
    const no = tag >>> 3;
    const wireType = (tag & 7) as WireType;
    const fp = (plan as Plan).byNumber[no];
    if (fp !== undefined) throw wrongWireType(fp, wireType, at);
    readUnknown(st as DecodeState, msg as AnyMessage, no, wireType, end);
  },
  prefixSegment,
  prefixIndex,
  overrun: (at) => new Failure(at, "message overruns its length"),
  str: (w, tag, v) => writeTagged(w as BinaryWriter, tag, ScalarType.STRING, v),
  i32: (w, tag, v) => writeTagged(w as BinaryWriter, tag, ScalarType.INT32, v),
  i64: (w, tag, v) => writeTagged(w as BinaryWriter, tag, ScalarType.INT64, v),
  bool: (w, tag, v) => writeTagged(w as BinaryWriter, tag, ScalarType.BOOL, v),
  bytes: (w, tag, v) => writeTagged(w as BinaryWriter, tag, ScalarType.BYTES, v),
  nonEmptyBytes: (w, tag, v) => {
    assertScalar(ScalarType.BYTES, v);
    if ((v as Uint8Array).length !== 0) (w as BinaryWriter).uint32(tag).bytes(v as Uint8Array);
  },
  map: (w, tag, v) => writeMap(w as BinaryWriter, tag >>> 3, v),
  message: (v) => assertContainer("message", v),
  list: (v) => assertContainer("list", v),
  time: (w, m) => writeTime(w as BinaryWriter, m as AnyMessage),
  unknown: (w, m) => writeUnknown(w as BinaryWriter, m as AnyMessage),
  segment: (e, seg) => withSegment(e, seg),
  empty: (plan) => emptyOf(plan as Plan),
};

function writeTagged(w: BinaryWriter, tag: number, t: ScalarType, v: unknown): void {
  assertScalar(t, v);
  w.uint32(tag);
  writeScalar(w, t, v);
}

function assertScalar(t: ScalarType, v: unknown): void {
  const bad = scalarMismatch(t, v);
  if (bad !== undefined) throw new EncodeError(bad, "");
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

/** Go's zero value of a message: non-pointer structs exist, recursively. */
function zeroOf(plan: Plan): AnyMessage {
  const msg = create(plan.desc) as AnyMessage;
  for (const fp of plan.structs) msg[fp.localName] = zeroOf(fp.child as Plan);
  return msg;
}

/** An empty message with its non-pointer struct fields materialised, as Go's zero value. */
export function zeroMessage(desc: DescMessage): Message {
  return zeroOf(planOf(desc));
}

/** Materialises the non-pointer structs of one message (its children are the caller's business). */
export function fillStructs(msg: Message): void {
  const m = msg as AnyMessage;
  for (const fp of planOf(descOf(msg)).structs) {
    if (m[fp.localName] === undefined) m[fp.localName] = zeroOf(fp.child as Plan);
  }
}

function descOf(msg: Message): DescMessage {
  return registryDesc(msg.$typeName);
}

const descByName = new Map<string, DescMessage>();
/** Registers descriptors so messages can be encoded from their `$typeName`. */
export function registerDescs(descs: Iterable<DescMessage>): void {
  for (const d of descs) {
    if (descByName.has(d.typeName)) continue;
    descByName.set(d.typeName, d);
    registerDescs(d.fields.flatMap((f) => (f.message !== undefined ? [f.message] : [])));
  }
}

function registryDesc(typeName: string): DescMessage {
  const d = descByName.get(typeName);
  if (d === undefined) throw new TypeError(`clusterwire does not know the message type ${typeName}`);
  return d;
}

// ---------------------------------------------------------------- encoding

/** Writes a message body (no tag, no length) to `w`. */
export function writeMessageBody(w: BinaryWriter, msg: Message, options: BinaryEncodeOptions = {}): void {
  const plan = planOf(descOf(msg));
  const keep = options.unknownFields !== "drop";
  if (useSpecialised) specialised(plan).encode(w, msg, keep);
  else writeMessage(w, plan, msg as AnyMessage, keep);
}

const hasOwn = Object.prototype.hasOwnProperty;

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

/** A string map as Go writes it: one entry per key, in byte order, key and value always. */
function writeMap(w: BinaryWriter, no: number, value: unknown): void {
  assertContainer("map", value);
  const map = value as Record<string, unknown>;
  const keys = Object.keys(map);
  if (keys.length > 1) keys.sort(compareUtf8);
  for (const k of keys) {
    const v = map[k];
    if (typeof v !== "string") throw new EncodeError(`expected a string map value, got ${typeof v}`, k);
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

/**
 * Why `value` cannot be a value of scalar type `t`, or undefined if it can.
 * Shared by the binary encoder and the JSON/YAML printers, so no output is
 * written from a value of the wrong type.
 */
export function scalarMismatch(t: ScalarType, value: unknown): string | undefined {
  switch (t) {
    case ScalarType.STRING:
      return typeof value === "string" ? undefined : `expected a string, got ${describe(value)}`;
    case ScalarType.BYTES:
      return value instanceof Uint8Array ? undefined : `expected a Uint8Array, got ${describe(value)}`;
    case ScalarType.INT32:
      return typeof value === "number" && Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff
        ? undefined
        : `expected an int32, got ${describe(value)}`;
    case ScalarType.INT64:
      return typeof value === "bigint" && value >= -(2n ** 63n) && value < 2n ** 63n ? undefined : `expected an int64 bigint, got ${describe(value)}`;
    case ScalarType.BOOL:
      return typeof value === "boolean" ? undefined : `expected a boolean, got ${describe(value)}`;
    default:
      return `unsupported scalar type ${ScalarType[t]}`;
  }
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "string":
      // Never the contents: a misplaced value may be a secret.
      return "a string";
    case "number":
    case "bigint":
    case "boolean":
      return `${typeof v} ${String(v)}`;
    default:
      return typeof v;
  }
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

function assertContainer(kind: "list" | "map" | "message", value: unknown): void {
  const bad = containerMismatch(kind, value);
  if (bad !== undefined) throw new EncodeError(bad, "");
}

/** Checks the container of a list, map or message field before writing it. */
export function containerMismatch(kind: "list" | "map" | "message", value: unknown): string | undefined {
  if (kind === "list") return Array.isArray(value) ? undefined : `expected an array, got ${describe(value)}`;
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    return `expected ${kind === "map" ? "a map object" : "a message"}, got ${describe(value)}`;
  }
  return undefined;
}

/** True when a meta.v1.Time holds Go's zero time. */
export function isZeroTime(t: Message): boolean {
  const m = t as AnyMessage;
  if (hasOwn.call(m, "seconds")) return m["seconds"] === GO_ZERO_TIME_SECONDS;
  // Go turns any non-empty payload into time.Unix(seconds, 0), which is not zero.
  return !hasOwn.call(m, "nanos") && m.$unknown === undefined;
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

/** Go's sort.Strings order: by UTF-8 bytes, which differs from UTF-16 order for astral characters. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate starts a code point above 0xFFFF, which sorts after every
    // BMP character in UTF-8, though 0xE000-0xFFFF sort after it in UTF-16.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
