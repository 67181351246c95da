// An object of a kind decoded field by field, as the API server's decoder (sigs.k8s.io/json)
// does: JSON keys routed to fields (through inlined structs), repeated keys decoded in order,
// lists and maps decoded into what is already there, and the messages with their own readers
// (Time, IntOrString, FieldsV1). from-json.ts finds the kind; decode-scalar.ts reads the scalars.

import { create, ScalarType, type DescMessage, type Message } from "@bufbuild/protobuf";
import { setOwn } from "../../model/set-own.js";
import { fillStructs, zeroMessage, zeroScalar } from "../../model/zero.js";
import { DuplicateKey, FloatLiteral, goString, type ParsedValue } from "./parse.js";
import { printGoJson } from "./print.js";
import { PathError } from "./path-error.js";
import { sortDeep } from "./raw-value.js";
import { kindOfTypeName, type NetworkingObject } from "../../model/kinds.js";
import {
  FIELDS_V1_TYPE,
  INT_OR_STRING_TYPE,
  TIME_TYPE,
  shapeOf,
  type FieldShape,
  type MessageShape,
} from "../../model/shapes.js";
import { parseRfc3339 } from "../../model/time.js";
import { Decoding, PROBLEM, goMembers, isObject, valueKind, type Ctx } from "./decoding.js";
import { INT32, SKIPPED, integer, scalar } from "./decode-scalar.js";

type AnyMessage = Message & Record<string, unknown>;

/**
 * Decodes an object of a kind. The first pass keeps no account of where it
 * is and stops at the first problem; the object is returned when there is
 * none, the usual case. After a problem a second pass finds the one Go's
 * decoder reports, and where (see Decoding).
 */
export function decodeKind(
  ctx: Ctx,
  desc: DescMessage,
  value: Record<string, ParsedValue | DuplicateKey>,
): NetworkingObject {
  const shape = shapeOf(desc);
  try {
    const msg = create(desc) as AnyMessage;
    decodeObject(new Decoding(ctx, false), shape, msg, value);
    return msg as NetworkingObject;
  } catch (first) {
    if (first !== PROBLEM) throw first;
  }
  const d = new Decoding(ctx, true);
  decodeObject(d, shape, create(desc) as AnyMessage, value);
  const problem = d.typeError ?? d.strictError;
  // The passes meet the same problems, in another order.
  if (problem === undefined) throw new Error("fromJson: the second pass found no problem");
  throw problem;
}

/** Routes a JSON key to a field, through inlined structs (IngressRule's `http`). */
interface Route {
  readonly fs: FieldShape;
  readonly inline?: FieldShape;
}

interface Routes {
  readonly byKey: Map<string, Route>;
  /** Kinds embed TypeMeta, so kind/apiVersion are known keys wherever a kind appears. */
  readonly typeMeta: boolean;
}

const routeCache = new WeakMap<MessageShape, Routes>();
function routesOf(shape: MessageShape): Routes {
  let cached = routeCache.get(shape);
  if (cached === undefined) {
    const routes = new Map<string, Route>();
    for (const fs of shape.goOrder) {
      if (fs.inline) {
        for (const inner of shapeOf(fs.field.message as DescMessage).goOrder) {
          if (inner.jsonKey !== undefined) routes.set(inner.jsonKey, { fs: inner, inline: fs });
        }
      } else if (fs.jsonKey !== undefined) {
        routes.set(fs.jsonKey, { fs });
      }
    }
    cached = { byKey: routes, typeMeta: kindOfTypeName(shape.desc.typeName) !== undefined };
    routeCache.set(shape, cached);
  }
  return cached;
}

/** Go's field name of the TypeMeta every kind embeds. */
const TYPE_META = "TypeMeta";

function decodeObject(
  d: Decoding,
  shape: MessageShape,
  msg: AnyMessage,
  obj: Record<string, ParsedValue | DuplicateKey>,
): void {
  const routes = routesOf(shape);
  // Go keeps a string fieldsV1 as written, escapes included.
  const rawStrings = obj["fieldsV1"] !== undefined ? d.ctx.source?.stringSpans.get(obj) : undefined;
  if (d.goMode) {
    for (const [key, v, occurrence] of goMembers(d, obj))
      decodeMember(d, shape, routes, msg, key, v, occurrence, rawStrings);
  } else {
    for (const key of Object.keys(obj)) {
      const raw = obj[key];
      // A JS value's undefined property is an absent field (JSON has no undefined).
      if (raw === undefined) continue;
      if (raw instanceof DuplicateKey) {
        // Go decodes every occurrence of a repeated key into the same field, in order.
        for (let o = 0; o < raw.values.length; o++)
          decodeMember(d, shape, routes, msg, key, raw.values[o] as ParsedValue, o, rawStrings);
      } else {
        decodeMember(d, shape, routes, msg, key, raw, undefined, rawStrings);
      }
    }
  }
  fillStructs(msg, shape.desc);
}

/** Decodes one occurrence of the member `key` of an object into `msg`. */
function decodeMember(
  d: Decoding,
  shape: MessageShape,
  { byKey, typeMeta }: Routes,
  msg: AnyMessage,
  key: string,
  v: ParsedValue,
  occurrence: number | undefined,
  rawStrings: readonly (readonly [number, number] | undefined)[] | undefined,
): void {
  const strict = d.ctx.strict;
  const route = byKey.get(key);
  const outerStruct = d.goStruct;
  const outerFields = d.goFields.length;
  d.enter(key, occurrence);
  if (route === undefined) {
    if (typeMeta && (key === "kind" || key === "apiVersion")) {
      if (strict && occurrence === 1) d.strictProblem(`duplicate field ${JSON.stringify(key)}`, true);
      if (v !== null && typeof v !== "string") {
        d.inField(shape.desc.name, key, TYPE_META);
        d.mismatch(valueKind(d, v), "string");
      }
    } else if (strict) {
      // Go names an unknown key that way however often it is written.
      d.strictProblem(`unknown field ${JSON.stringify(key)}`, true);
    }
  } else {
    if (strict && occurrence === 1) d.strictProblem(`duplicate field ${JSON.stringify(key)}`, true);
    let target = msg;
    const inline = route.inline;
    if (inline !== undefined) {
      target = msg[inline.localName] as AnyMessage;
      if (target === undefined) {
        target = create(inline.field.message as DescMessage) as AnyMessage;
        msg[inline.localName] = target;
      }
    }
    d.inField(shape.desc.name, key, inline !== undefined ? (inline.field.message as DescMessage).name : undefined);
    decodeField(d, route.fs, target, v, key === "fieldsV1" ? rawStrings?.[occurrence ?? 0] : undefined);
  }
  d.outOfField(outerStruct, outerFields);
  d.leave();
}

/**
 * The elements past a list's length that Go's slice still holds in its array
 * (after a repeated key shortened it), by the list; absent when there are none.
 */
const hiddenElements = new WeakMap<unknown[], unknown[]>();

/** Decodes one occurrence of a field into `msg`; `rawString` is where a string fieldsV1 sits in the source text. */
function decodeField(
  d: Decoding,
  fs: FieldShape,
  msg: AnyMessage,
  v: ParsedValue,
  rawString?: readonly [number, number],
): void {
  const field = fs.field;
  const name = fs.localName;
  if (v === null) {
    // Go: null resets pointers, slices and maps (and a Time, through its
    // UnmarshalJSON); it leaves other values alone, structs included.
    if (field.fieldKind === "list") msg[name] = [];
    else if (field.fieldKind === "map") msg[name] = {};
    else if (fs.pointer || (field.fieldKind === "message" && field.message.typeName === TIME_TYPE)) delete msg[name];
    return;
  }
  switch (field.fieldKind) {
    case "scalar": {
      const x = scalar(d, field.scalar, v, fs.goType);
      if (x !== SKIPPED) msg[name] = x;
      return;
    }
    case "message": {
      const m = message(d, field.message, v, msg[name] as AnyMessage | undefined, fs.goType, rawString);
      if (m !== undefined) msg[name] = m;
      return;
    }
    case "list": {
      if (!Array.isArray(v)) {
        d.mismatch(valueKind(d, v), fs.goType);
        return;
      }
      // Go decodes into the slice already there (a repeated key, or a list in
      // a struct being decoded into again): element i left in its array is
      // decoded into, a null element keeps it. An empty array is a new slice.
      const existing = msg[name] as unknown[] | undefined;
      const backing = v.length === 0 || existing === undefined ? [] : (hiddenElements.get(existing) ?? existing);
      for (let i = 0; i < v.length; i++) {
        const item = v[i] as ParsedValue;
        const old = backing[i];
        d.enter(i);
        if (field.listKind === "message") {
          const m =
            item === null ? undefined : message(d, field.message, item, old as AnyMessage | undefined, fs.goElement);
          backing[i] = m ?? old ?? zeroMessage(field.message);
        } else {
          const t = field.scalar as ScalarType;
          const x = item === null ? SKIPPED : scalar(d, t, item, fs.goElement);
          backing[i] = x !== SKIPPED ? x : (old ?? zeroScalar(t));
        }
        d.leave();
      }
      const list = backing.slice(0, v.length);
      if (backing.length > v.length) hiddenElements.set(list, backing);
      msg[name] = list;
      return;
    }
    case "map": {
      if (!isObject(v)) {
        d.mismatch(valueKind(d, v), fs.goType);
        return;
      }
      const map = msg[name] as Record<string, unknown>;
      // Keys of a JS value as Go reads them (text is read so by the parser).
      const seen = d.ctx.source === undefined ? new Set<string>() : undefined;
      const t = field.mapKind === "scalar" ? field.scalar : ScalarType.STRING;
      const entry = (k: string, item: ParsedValue, occurrence: number | undefined): void => {
        const key = seen !== undefined ? goString(k) : k;
        d.enter(k, occurrence);
        if (d.ctx.strict && ((occurrence ?? 0) > 0 || seen?.has(key) === true))
          d.strictProblem(`duplicate field ${JSON.stringify(key)}`, true);
        seen?.add(key);
        if (item === null) {
          setOwn(map, key, "");
        } else {
          const x = scalar(d, t, item, fs.goElement);
          if (x !== SKIPPED) setOwn(map, key, x);
        }
        d.leave();
      };
      if (d.goMode) {
        for (const [k, item, occurrence] of goMembers(d, v)) entry(k, item, occurrence);
        return;
      }
      for (const k of Object.keys(v)) {
        const raw = v[k];
        if (raw === undefined) continue; // as for a struct's members: absent
        if (raw instanceof DuplicateKey)
          for (let o = 0; o < raw.values.length; o++) entry(k, raw.values[o] as ParsedValue, o);
        else entry(k, raw, undefined);
      }
      return;
    }
    default:
      d.fail(`unsupported field ${field.name}`);
  }
}

/** A message's value, or undefined where Go skips a value of the wrong type. */
function message(
  d: Decoding,
  desc: DescMessage,
  v: ParsedValue,
  existing: AnyMessage | undefined,
  goType: string,
  rawString?: readonly [number, number],
): AnyMessage | undefined {
  switch (desc.typeName) {
    case TIME_TYPE: {
      // Time.UnmarshalJSON reads a string with encoding/json, then parses it.
      if (typeof v !== "string") d.fatalMismatch(valueKind(d, v), "string");
      const seconds = parseRfc3339(v);
      if (typeof seconds === "string") d.fail(seconds);
      return create(desc, { seconds }) as AnyMessage;
    }
    case INT_OR_STRING_TYPE: {
      // Go looks at the first byte: a quote means string, anything else int32
      // (read with encoding/json, whose errors end decoding). Its
      // UnmarshalJSON sets the type and that value only, so after a repeated
      // key the other value is still there (and in protobuf).
      const out = existing ?? (create(desc, { type: 0n, intVal: 0, strVal: "" }) as AnyMessage);
      if (typeof v === "string") {
        out["strVal"] = d.ctx.source === undefined ? goString(v) : v;
        out["type"] = 1n;
      } else {
        out["intVal"] = Number(integer(d, v, INT32, "int32", true));
        out["type"] = 0n;
      }
      return out;
    }
    case FIELDS_V1_TYPE:
      try {
        return create(desc, { Raw: new TextEncoder().encode(rawText(d.ctx, v, rawString)) }) as AnyMessage;
      } catch (e) {
        if (e instanceof PathError) d.failBelow(e);
        throw e;
      }
    default: {
      if (!isObject(v)) {
        d.mismatch(valueKind(d, v), goType);
        return undefined;
      }
      // Go decodes into an existing struct without clearing it (duplicate keys merge).
      const msg = existing ?? (create(desc) as AnyMessage);
      decodeObject(d, shapeOf(desc), msg, v);
      return msg;
    }
  }
}

/**
 * Go keeps FieldsV1 as the raw bytes of the JSON value. From text that is the
 * exact source slice; from YAML or a JS value it is what Go's YAML-to-JSON
 * step produces: compact, keys sorted.
 */
function rawText(ctx: Ctx, v: ParsedValue, rawString?: readonly [number, number]): string {
  if (ctx.source !== undefined) {
    const span =
      typeof v === "string"
        ? rawString
        : typeof v === "object" && v !== null && !(v instanceof FloatLiteral)
          ? ctx.source.spans.get(v)
          : undefined;
    if (span !== undefined) return ctx.source.text.slice(span[0], span[1]);
  }
  return printGoJson(sortDeep(ctx.format, v, 0));
}
