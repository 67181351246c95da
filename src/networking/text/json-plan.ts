import { create, ScalarType, type DescMessage, type Message } from "@bufbuild/protobuf";
import { kindOfTypeName } from "../model/kinds.js";
import { FIELDS_V1_TYPE, INT_OR_STRING_TYPE, TIME_TYPE, shapeOf, type FieldShape } from "../model/shapes.js";

/*
 * Per-message plans for the JSON fast paths (json-fast-read.ts,
 * json-fast-write.ts): the Go shape of each message resolved once into flat
 * tables, so that the common path does no lookups by type name, no route
 * building and no descriptor walks. Hand-written rather than generated: the
 * buf plugin that would emit these per message was not available to this
 * branch (issue 14); the plans are built on first use, without `new Function`.
 */

export type AnyMessage = Message & Record<string, unknown>;

/** What a field's JSON value (or a list's element) decodes into. */
export const V_STRING = 0;
export const V_BOOL = 1;
export const V_INT32 = 2;
export const V_INT64 = 3;
export const V_MESSAGE = 4;
export const V_TIME = 5;
export const V_INT_OR_STRING = 6;
export const V_FIELDS_V1 = 7;
/** `kind` and `apiVersion` of a kind (TypeMeta): checked to be strings, otherwise ignored. */
export const V_TYPE_META = 8;

export interface FieldPlan {
  readonly fs: FieldShape;
  /** Property name on the protobuf-es message. */
  readonly name: string;
  /** JSON key. */
  readonly key: string;
  /** This key's bit in a message's seen-set (duplicate detection). */
  readonly bit: number;
  /** The value kind (of each element, for lists; maps are string to string). */
  readonly value: number;
  readonly list: boolean;
  readonly map: boolean;
  /** Go resets the field on null (a pointer, or a Time through its UnmarshalJSON). */
  readonly nullDeletes: boolean;
  /** The plan of the value's message (V_MESSAGE and the special messages). */
  readonly message: MessagePlan | undefined;
  /** Set when the key sits in an inlined struct (IngressRule's `http`): that struct's field and plan. */
  readonly inline: { readonly name: string; readonly plan: MessagePlan } | undefined;
}

/** A field in Go order for the writer: a plain field, or an inlined struct whose fields join the parent's. */
export interface WriteField {
  readonly fs: FieldShape;
  readonly value: number;
  readonly message: MessagePlan | undefined;
}

export interface MessagePlan {
  readonly desc: DescMessage;
  /** The decodable JSON keys, inlined structs' keys included. */
  readonly fields: FieldPlan[];
  /** Keys by a hash of their characters ({@link keyHash}); collisions were ruled out when the plan was built. */
  readonly byHash: Map<number, FieldPlan>;
  readonly byKey: Map<string, FieldPlan>;
  /** Kinds embed TypeMeta: kind/apiVersion are known keys (V_TYPE_META), checked to be strings, and otherwise ignored. */
  readonly typeMeta: boolean;
  /** Non-pointer struct fields, in wire order: Go's zero value has them (see model/zero.ts). */
  readonly structs: { readonly name: string; readonly plan: MessagePlan }[];
  /** Fields in Go order, for the writer. */
  readonly goOrder: WriteField[];
  /** A fresh message, as `create(desc)` makes it. */
  readonly make: () => AnyMessage;
}

/** The hash the readers compute over a key's UTF-16 units while scanning it. */
export function keyHash(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return h;
}

const plans = new Map<string, MessagePlan>();

/** The plan of a message type, built on first use (with every plan it reaches). */
export function planOf(desc: DescMessage): MessagePlan {
  const cached = plans.get(desc.typeName);
  if (cached !== undefined) return cached;
  const fields: FieldPlan[] = [];
  const goOrder: WriteField[] = [];
  const structs: { name: string; plan: MessagePlan }[] = [];
  const typeMeta = kindOfTypeName(desc.typeName) !== undefined;
  const plan: MessagePlan = {
    desc,
    fields,
    byHash: new Map(),
    byKey: new Map(),
    typeMeta,
    structs,
    goOrder,
    make: maker(desc),
  };
  plans.set(desc.typeName, plan);
  const shape = shapeOf(desc);
  const add = (fs: FieldShape, inline: FieldPlan["inline"]): void => {
    const f = fs.field;
    const sub =
      f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message") ? f.message : undefined;
    const value = valueKind(fs);
    fields.push({
      fs,
      name: fs.localName,
      key: fs.jsonKey as string,
      bit: 2 ** fields.length,
      value,
      list: f.fieldKind === "list",
      map: f.fieldKind === "map",
      nullDeletes: fs.pointer || (f.fieldKind === "message" && f.message.typeName === TIME_TYPE),
      message: sub !== undefined ? planOf(sub) : undefined,
      inline,
    });
  };
  for (const fs of shape.goOrder) {
    const f = fs.field;
    const sub =
      f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message") ? f.message : undefined;
    goOrder.push({ fs, value: valueKind(fs), message: sub !== undefined ? planOf(sub) : undefined });
    if (fs.inline) {
      const inner = planOf(f.message as DescMessage);
      for (const innerFs of shapeOf(f.message as DescMessage).goOrder) {
        if (innerFs.jsonKey !== undefined) add(innerFs, { name: fs.localName, plan: inner });
      }
    } else if (fs.jsonKey !== undefined) {
      add(fs, undefined);
    }
  }
  for (const fs of shape.wireOrder) {
    if (fs.field.fieldKind === "message" && !fs.pointer)
      structs.push({ name: fs.localName, plan: planOf(fs.field.message) });
  }
  if (typeMeta) {
    for (const key of ["kind", "apiVersion"]) {
      fields.push({
        fs: shape.goOrder[0] as FieldShape, // unused for TypeMeta
        name: "",
        key,
        bit: 2 ** fields.length,
        value: V_TYPE_META,
        list: false,
        map: false,
        nullDeletes: false,
        message: undefined,
        inline: undefined,
      });
    }
  }
  if (fields.length > 52) throw new Error(`json-plan: ${desc.typeName} has too many keys for a seen-set`);
  for (const fp of fields) {
    if (plan.byHash.has(keyHash(fp.key))) throw new Error(`json-plan: key hash collision in ${desc.typeName}`);
    plan.byHash.set(keyHash(fp.key), fp);
    plan.byKey.set(fp.key, fp);
  }
  return plan;
}

function valueKind(fs: FieldShape): number {
  const f = fs.field;
  const desc = f.fieldKind === "message" ? f.message : f.fieldKind === "list" ? f.message : undefined;
  if (desc !== undefined) {
    if (desc.typeName === TIME_TYPE) return V_TIME;
    if (desc.typeName === INT_OR_STRING_TYPE) return V_INT_OR_STRING;
    if (desc.typeName === FIELDS_V1_TYPE) return V_FIELDS_V1;
    return V_MESSAGE;
  }
  const scalar = f.fieldKind === "scalar" ? f.scalar : f.fieldKind === "list" ? f.scalar : ScalarType.STRING;
  switch (scalar) {
    case ScalarType.BOOL:
      return V_BOOL;
    case ScalarType.INT32:
      return V_INT32;
    case ScalarType.INT64:
      return V_INT64;
    default:
      return V_STRING;
  }
}

/**
 * A maker of fresh messages equal to `create(desc)`: the same prototype (which
 * holds proto2's scalar defaults), `$typeName`, and fresh lists and maps, in
 * the same order. Tests hold it to `create`.
 */
function maker(desc: DescMessage): () => AnyMessage {
  const sample = create(desc) as AnyMessage;
  const proto = Object.getPrototypeOf(sample) as object;
  const typeName = desc.typeName;
  const lists: string[] = [];
  const maps: string[] = [];
  for (const f of desc.fields) {
    if (f.fieldKind === "list") lists.push(f.localName);
    else if (f.fieldKind === "map") maps.push(f.localName);
  }
  const order = Object.keys(sample).filter((k) => k !== "$typeName");
  const containers = order.map((k) => lists.includes(k));
  if (order.some((k) => !lists.includes(k) && !maps.includes(k)))
    throw new Error(`json-plan: create(${typeName}) sets more than lists and maps`);
  if (proto === Object.prototype) {
    return () => {
      const m = { $typeName: typeName } as AnyMessage;
      for (let i = 0; i < order.length; i++) m[order[i] as string] = containers[i] === true ? [] : {};
      return m;
    };
  }
  return () => {
    const m = Object.create(proto) as AnyMessage;
    (m as { $typeName: string }).$typeName = typeName;
    for (let i = 0; i < order.length; i++) m[order[i] as string] = containers[i] === true ? [] : {};
    return m;
  };
}

/** Go's zero value of a message from its plan (as model/zero.ts zeroMessage). */
export function zeroOf(plan: MessagePlan): AnyMessage {
  const m = plan.make();
  const s = plan.structs;
  for (let i = 0; i < s.length; i++) {
    const st = s[i] as { name: string; plan: MessagePlan };
    m[st.name] = zeroOf(st.plan);
  }
  return m;
}

/** Materialises the missing non-pointer structs of a decoded message (as model/zero.ts fillStructs). */
export function fillStructsOf(plan: MessagePlan, m: AnyMessage): void {
  const s = plan.structs;
  for (let i = 0; i < s.length; i++) {
    const st = s[i] as { name: string; plan: MessagePlan };
    if (m[st.name] === undefined) m[st.name] = zeroOf(st.plan);
  }
}
