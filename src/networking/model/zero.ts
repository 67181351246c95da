import { create, ScalarType, type DescMessage, type Message } from "@bufbuild/protobuf";
import { GO_ZERO_TIME_SECONDS, shapeOf, type FieldShape } from "./shapes.js";

/*
 * Go's zero values. A Go struct's non-pointer struct fields always exist, so
 * its zero value has them, recursively; protobuf-es leaves them unset.
 */

const structs = new Map<string, readonly FieldShape[]>();

/** The non-pointer struct fields of a message, in wire order. */
export function structFields(desc: DescMessage): readonly FieldShape[] {
  let s = structs.get(desc.typeName);
  if (s === undefined) {
    s = shapeOf(desc).wireOrder.filter((fs) => fs.field.fieldKind === "message" && !fs.pointer);
    structs.set(desc.typeName, s);
  }
  return s;
}

/** An empty message with its non-pointer struct fields materialised, as Go's zero value. */
export function zeroMessage(desc: DescMessage): Message {
  const msg = create(desc) as Message & Record<string, unknown>;
  for (const fs of structFields(desc)) msg[fs.localName] = zeroMessage(fs.field.message as DescMessage);
  return msg;
}

/** Materialises the non-pointer structs of one message of type `desc` (its children are the caller's business). */
export function fillStructs(msg: Message, desc: DescMessage): void {
  const m = msg as Message & Record<string, unknown>;
  for (const fs of structFields(desc)) {
    if (m[fs.localName] === undefined) m[fs.localName] = zeroMessage(fs.field.message as DescMessage);
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** True when a meta.v1.Time holds Go's zero time. */
export function isZeroTime(t: Message): boolean {
  const m = t as Message & Record<string, unknown> & { $unknown?: unknown[] };
  if (hasOwn.call(m, "seconds")) return m["seconds"] === GO_ZERO_TIME_SECONDS;
  // Go turns any non-empty payload into time.Unix(seconds, 0), which is not zero.
  return !hasOwn.call(m, "nanos") && m.$unknown === undefined;
}

/** Go's zero value of a scalar type. */
export function zeroScalar(t: ScalarType): unknown {
  switch (t) {
    case ScalarType.STRING:
      return "";
    case ScalarType.BOOL:
      return false;
    case ScalarType.INT64:
      return 0n;
    default:
      return 0;
  }
}
