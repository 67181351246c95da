import { create, ScalarType, type Message } from "@bufbuild/protobuf";
import { type BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { EncodeError } from "../model/errors.js";
import { compareUtf8 } from "../model/utf8.js";
import { containerMismatch, scalarMismatch } from "../model/value-checks.js";
import { isZeroTime } from "../model/zero.js";
import type { BinEncoder } from "../../../gen/clusterwire/bin_runtime.js";
import type { AnyMessage, FieldPlan, Plan } from "./plan.js";

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

function writeTagged(w: BinaryWriter, tag: number, t: ScalarType, v: unknown): void {
  assertScalar(t, v);
  w.uint32(tag);
  writeScalar(w, t, v);
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

/**
 * The writer the generated encoders write through (the BinEncoder interface):
 * the generic encoder's own checks and writes, around one BinaryWriter.
 */
export class EncodeState implements BinEncoder {
  constructor(
    readonly w: BinaryWriter,
    readonly keep: boolean,
  ) {}
  str(tag: number, v: unknown): void {
    writeTagged(this.w, tag, ScalarType.STRING, v);
  }
  bytes(tag: number, v: unknown): void {
    writeTagged(this.w, tag, ScalarType.BYTES, v);
  }
  nonEmptyBytes(tag: number, v: unknown): void {
    assertScalar(ScalarType.BYTES, v);
    if ((v as Uint8Array).length !== 0) this.w.uint32(tag).bytes(v as Uint8Array);
  }
  i32(tag: number, v: unknown): void {
    writeTagged(this.w, tag, ScalarType.INT32, v);
  }
  i64(tag: number, v: unknown): void {
    writeTagged(this.w, tag, ScalarType.INT64, v);
  }
  bool(tag: number, v: unknown): void {
    writeTagged(this.w, tag, ScalarType.BOOL, v);
  }
  map(tag: number, v: unknown): void {
    writeMap(this.w, tag >>> 3, v);
  }
  message(v: unknown): void {
    assertContainer("message", v);
  }
  list(v: unknown): void {
    assertContainer("list", v);
  }
  fork(tag: number): void {
    this.w.uint32(tag).fork();
  }
  join(): void {
    this.w.join();
  }
  time(m: Message): void {
    writeTime(this.w, m as AnyMessage);
  }
  unknown(m: Message): void {
    writeUnknown(this.w, m as AnyMessage);
  }
  inField(e: unknown, segment: string): unknown {
    return withSegment(e, segment);
  }
}
