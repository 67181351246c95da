import { ScalarType, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import { TIME_TYPE, shapeOf, type FieldShape, type MessageShape } from "../model/shapes.js";

/*
 * A message shape compiled for the binary decoder and encoder: everything the
 * hot loops need, precomputed once per message type.
 */

export type AnyMessage = Message & Record<string, unknown> & { $unknown?: UnknownField[] };
export interface UnknownField {
  no: number;
  wireType: WireType;
  data: Uint8Array;
}

type Kind = "scalar" | "message" | "scalarList" | "messageList" | "map";

/** One field, with everything the hot loops need precomputed. */
export interface FieldPlan {
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
export interface Plan {
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

/** The plan of a message type, built on first use and cached (plans are pure data). */
export function planOf(desc: DescMessage): Plan {
  const cached = plans.get(desc.typeName);
  if (cached !== undefined) return cached;
  const shape = shapeOf(desc);
  const plan: Plan = { shape, desc, isTime: desc.typeName === TIME_TYPE, byNumber: [], fields: [], structs: [] };
  plans.set(desc.typeName, plan);
  for (const fs of shape.wireOrder) {
    const f = fs.field;
    const kind: Kind =
      f.fieldKind === "scalar"
        ? "scalar"
        : f.fieldKind === "message"
          ? "message"
          : f.fieldKind === "map"
            ? "map"
            : f.fieldKind === "list" && f.listKind === "message"
              ? "messageList"
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
