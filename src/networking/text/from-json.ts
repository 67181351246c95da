import { create, ScalarType, type DescMessage, type Message } from "@bufbuild/protobuf";
import { setOwn } from "../model/set-own.js";
import { fillStructs, zeroMessage, zeroScalar } from "../model/zero.js";
import { DecodeError } from "../model/errors.js";
import {
  DuplicateKey,
  FloatLiteral,
  goString,
  jsonError,
  locatePath,
  parseJsonText,
  type ParsedJson,
  type ParsedValue,
} from "./json-parse.js";
import { fastFromJsonText } from "./json-fast-text.js";
import { fastFromJsonValue } from "./json-fast-value.js";
import { printGoJson } from "./json-print.js";
import { PathError } from "./json-path-error.js";
import { sortDeep } from "./json-raw-value.js";
import type { JsonValue } from "../model/json-value.js";
import { supportedKinds } from "../model/kind-names.js";
import { KINDS, kindOfTypeName, lookupKind, type NetworkingObject } from "../model/kinds.js";
import {
  FIELDS_V1_TYPE,
  INT_OR_STRING_TYPE,
  TIME_TYPE,
  shapeOf,
  type FieldShape,
  type MessageShape,
} from "../model/shapes.js";
import { parseRfc3339 } from "../model/time.js";
import { renderPath } from "../model/path.js";

/**
 * Options of {@link fromJson}.
 *
 * @example
 * ```ts
 * import { DecodeError, fromJson } from "clusterwire/networking";
 *
 * try {
 *   fromJson('{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","spec":{"rulez":[]}}', { strict: true });
 * } catch (e) {
 *   if (e instanceof DecodeError) console.log(e.message); // ... field spec.rulez: unknown field "rulez"
 * }
 * ```
 */
export interface FromJsonOptions {
  /**
   * Reject unknown and duplicate fields, naming their path, as the API server
   * does with `fieldValidation=Strict`. By default they are dropped (unknown)
   * or decoded in order (duplicates), as the API server's default decoder does.
   */
  readonly strict?: boolean;
  /** Maximum nesting of JSON objects and arrays. Default 100. */
  readonly maxDepth?: number;
}

type AnyMessage = Message & Record<string, unknown>;

// ---------------------------------------------------------------- decoding

interface Ctx {
  readonly strict: boolean;
  readonly source: ParsedJson | undefined;
  readonly format: "json" | "yaml";
  /** Where the decoded value sits in `source` (e.g. ["object"] in a watch event). */
  readonly at?: readonly string[];
}

/**
 * Decodes Kubernetes JSON (text, or an already-parsed value) into a typed
 * object, picking the type from `apiVersion` and `kind`. Errors are
 * {@link DecodeError}s naming the field path and, for text, line and column.
 *
 * @example
 * ```ts
 * import { fromJson } from "clusterwire/networking";
 *
 * const object = fromJson('{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"nginx"}}');
 * console.log(object.$typeName); // "k8s.io.api.networking.v1.IngressClass"
 * ```
 */
export function fromJson(input: string | JsonValue, options: FromJsonOptions = {}): NetworkingObject {
  const fast =
    typeof input === "string"
      ? fastFromJsonText(input, options.strict === true, options.maxDepth ?? 100)
      : fastFromJsonValue(input, options.strict === true);
  return fast ?? genericFromJson(input, options);
}

/**
 * fromJson by the generic parser and decoder alone: the specification the
 * fast paths are held to (tests), and what they fall back on.
 */
export function genericFromJson(input: string | JsonValue, options: FromJsonOptions = {}): NetworkingObject {
  let source: ParsedJson | undefined;
  let value: ParsedValue;
  if (typeof input === "string") {
    source = parseJsonText(input, options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {});
    value = source.value;
  } else {
    value = input as ParsedValue;
  }
  return decodeTop({ strict: options.strict === true, source, format: "json" }, value);
}

/**
 * Decodes the member `key` of an already-parsed JSON object, such as the
 * `object` of a JSON watch event. Errors are located in the whole text and
 * their paths start with `key`.
 */
export function fromParsedJsonMember(parsed: ParsedJson, key: string, options: FromJsonOptions = {}): NetworkingObject {
  const root = parsed.value as Record<string, ParsedValue | DuplicateKey>;
  let member = root[key];
  if (member instanceof DuplicateKey) member = member.values[member.values.length - 1];
  return decodeTop(
    { strict: options.strict === true, source: parsed, format: "json", at: [key] },
    (member ?? null) as ParsedValue,
  );
}

/** Decodes a value parsed from YAML (used by fromYaml). */
export function fromParsedYaml(value: JsonValue, options: FromJsonOptions = {}): NetworkingObject {
  return decodeTop({ strict: options.strict === true, source: undefined, format: "yaml" }, value as ParsedValue);
}

function decodeTop(ctx: Ctx, value: ParsedValue): NetworkingObject {
  try {
    if (!isObject(value)) throw new PathError(`cannot unmarshal ${jsonType(value)} into an object`);
    const apiVersion = typeMetaString(value, "apiVersion");
    const kind = typeMetaString(value, "kind");
    if (kind === "") throw new PathError("Object 'Kind' is missing", ["kind"]);
    if (apiVersion === "") throw new PathError("Object 'apiVersion' is missing", ["apiVersion"]);
    const info = lookupKind(apiVersion, kind);
    if (info === undefined) {
      // Blame the apiVersion when the kind exists under another one.
      const at = KINDS.some((k) => k.kind === kind) ? "apiVersion" : "kind";
      throw new PathError(
        `unsupported apiVersion/kind ${JSON.stringify(`${apiVersion}/${kind}`)}; supported: ${supportedKinds()}`,
        [at],
      );
    }
    const msg = create(info.desc) as AnyMessage;
    decodeObject(ctx, shapeOf(info.desc), msg, value);
    return msg as NetworkingObject;
  } catch (e) {
    throw toDecodeError(ctx, e);
  }
}

function typeMetaString(obj: Record<string, ParsedValue | DuplicateKey>, key: string): string {
  let v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  if (v instanceof DuplicateKey) v = v.values[v.values.length - 1];
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new PathError(`cannot unmarshal ${jsonType(v)} into a string`, [key]);
  return v;
}

function toDecodeError(ctx: Ctx, e: unknown): DecodeError {
  if (e instanceof DecodeError) return e;
  if (e instanceof PathError) {
    for (const seg of [...(ctx.at ?? [])].reverse()) e.prefix(seg);
    const path = renderPath(e.path);
    const segments = e.path;
    if (ctx.source !== undefined) {
      // Errors are rare: re-parse with positions to point at the value.
      return jsonError(ctx.source.text, e.reason, locatePath(ctx.source.text, segments, e.occurrences), path, segments);
    }
    return new DecodeError(ctx.format, e.reason, { path, segments });
  }
  if (e instanceof RangeError && /call stack/i.test(e.message))
    return new DecodeError(ctx.format, "input nested too deeply");
  // Anything else is a bug in clusterwire, not bad input: let it surface as one.
  throw e;
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

function decodeObject(
  ctx: Ctx,
  shape: MessageShape,
  msg: AnyMessage,
  obj: Record<string, ParsedValue | DuplicateKey>,
): void {
  const { byKey, typeMeta } = routesOf(shape);
  for (const key of Object.keys(obj)) {
    const raw = obj[key] as ParsedValue | DuplicateKey | undefined;
    // A JS value's undefined property is an absent field (JSON has no undefined).
    if (raw === undefined) continue;
    const dup = raw instanceof DuplicateKey;
    if (dup && ctx.strict) throw new PathError(`duplicate field ${JSON.stringify(key)}`, [key]);
    const route = byKey.get(key);
    if (route === undefined) {
      if (typeMeta && (key === "kind" || key === "apiVersion")) {
        for (const v of dup ? raw.values : [raw]) {
          if (v !== null && typeof v !== "string")
            throw new PathError(`cannot unmarshal ${jsonType(v)} into a string`, [key]);
        }
        continue;
      }
      if (ctx.strict) throw new PathError(`unknown field ${JSON.stringify(key)}`, [key]);
      continue;
    }
    let target = msg;
    if (route.inline !== undefined) {
      target = msg[route.inline.localName] as AnyMessage;
      if (target === undefined) {
        target = create(route.inline.field.message as DescMessage) as AnyMessage;
        msg[route.inline.localName] = target;
      }
    }
    // Go keeps a string fieldsV1 as written, escapes included.
    const rawStrings = key === "fieldsV1" ? ctx.source?.stringSpans.get(obj) : undefined;
    if (dup) {
      // Go decodes every occurrence into the same field, in order.
      for (let o = 0; o < raw.values.length; o++) {
        try {
          decodeField(ctx, route.fs, target, raw.values[o] as ParsedValue, rawStrings?.[o]);
        } catch (e) {
          if (e instanceof PathError) e.prefix(key, o);
          throw e;
        }
      }
    } else {
      try {
        decodeField(ctx, route.fs, target, raw, rawStrings?.[0]);
      } catch (e) {
        if (e instanceof PathError) e.prefix(key);
        throw e;
      }
    }
  }
  fillStructs(msg, shape.desc);
}

/**
 * The elements past a list's length that Go's slice still holds in its array
 * (after a repeated key shortened it), by the list; absent when there are none.
 */
const hiddenElements = new WeakMap<unknown[], unknown[]>();

/** Decodes one occurrence of a field into `msg`; `rawString` is where a string fieldsV1 sits in the source text. */
function decodeField(
  ctx: Ctx,
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
    case "scalar":
      msg[name] = scalar(ctx, field.scalar, v);
      return;
    case "message":
      msg[name] = message(ctx, field.message, v, msg[name] as AnyMessage | undefined, rawString);
      return;
    case "list": {
      if (!Array.isArray(v)) throw new PathError(`cannot unmarshal ${jsonType(v)} into an array`);
      // Go decodes into the slice already there (a repeated key, or a list in
      // a struct being decoded into again): element i left in its array is
      // decoded into, a null element keeps it. An empty array is a new slice.
      const existing = msg[name] as unknown[] | undefined;
      const backing = v.length === 0 || existing === undefined ? [] : (hiddenElements.get(existing) ?? existing);
      for (let i = 0; i < v.length; i++) {
        const item = v[i] as ParsedValue;
        const old = backing[i];
        try {
          if (field.listKind === "message") {
            backing[i] =
              item === null
                ? (old ?? zeroMessage(field.message))
                : message(ctx, field.message, item, old as AnyMessage | undefined);
          } else {
            backing[i] =
              item === null
                ? (old ?? zeroScalar(field.scalar as ScalarType))
                : scalar(ctx, field.scalar as ScalarType, item);
          }
        } catch (e) {
          if (e instanceof PathError) e.prefix(i);
          throw e;
        }
      }
      const list = backing.slice(0, v.length);
      if (backing.length > v.length) hiddenElements.set(list, backing);
      msg[name] = list;
      return;
    }
    case "map": {
      if (!isObject(v)) throw new PathError(`cannot unmarshal ${jsonType(v)} into a map`);
      const map = msg[name] as Record<string, unknown>;
      // Keys of a JS value as Go reads them (text is read so by the parser).
      const seen = ctx.source === undefined ? new Set<string>() : undefined;
      for (const k of Object.keys(v)) {
        const entry = v[k] as ParsedValue | DuplicateKey | undefined;
        if (entry === undefined) continue; // as for a struct's members: absent
        const vals = entry instanceof DuplicateKey ? entry.values : [entry];
        const key = seen !== undefined ? goString(k) : k;
        if (ctx.strict && (vals.length > 1 || seen?.has(key) === true))
          throw new PathError(`duplicate field ${JSON.stringify(key)}`, [k]);
        seen?.add(key);
        for (let o = 0; o < vals.length; o++) {
          const item = vals[o] as ParsedValue;
          try {
            setOwn(map, key, item === null ? "" : scalar(ctx, ScalarType.STRING, item));
          } catch (e) {
            if (e instanceof PathError) e.prefix(k, vals.length > 1 ? o : undefined);
            throw e;
          }
        }
      }
      return;
    }
    default:
      throw new PathError(`unsupported field ${field.name}`);
  }
}

function message(
  ctx: Ctx,
  desc: DescMessage,
  v: ParsedValue,
  existing: AnyMessage | undefined,
  rawString?: readonly [number, number],
): AnyMessage {
  switch (desc.typeName) {
    case TIME_TYPE: {
      if (typeof v !== "string")
        throw new PathError(`cannot unmarshal ${jsonType(v)} into a time (want an RFC 3339 string)`);
      const seconds = parseRfc3339(v);
      if (typeof seconds === "string") throw new PathError(seconds);
      return create(desc, { seconds }) as AnyMessage;
    }
    case INT_OR_STRING_TYPE: {
      // Go looks at the first byte: a quote means string, anything else int32.
      // Its UnmarshalJSON sets the type and that value only, so after a
      // repeated key the other value is still there (and in protobuf).
      const out = existing ?? (create(desc, { type: 0n, intVal: 0, strVal: "" }) as AnyMessage);
      if (typeof v === "string") {
        out["strVal"] = scalar(ctx, ScalarType.STRING, v);
        out["type"] = 1n;
      } else {
        out["intVal"] = scalar(ctx, ScalarType.INT32, v);
        out["type"] = 0n;
      }
      return out;
    }
    case FIELDS_V1_TYPE:
      return create(desc, { Raw: new TextEncoder().encode(rawText(ctx, v, rawString)) }) as AnyMessage;
    default: {
      if (!isObject(v)) throw new PathError(`cannot unmarshal ${jsonType(v)} into an object`);
      // Go decodes into an existing struct without clearing it (duplicate keys merge).
      const msg = existing ?? (create(desc) as AnyMessage);
      decodeObject(ctx, shapeOf(desc), msg, v);
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

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function scalar(ctx: Ctx, t: ScalarType, v: ParsedValue): unknown {
  switch (t) {
    case ScalarType.STRING:
      if (typeof v !== "string") throw new PathError(`cannot unmarshal ${jsonType(v)} into a string`);
      // The parser reads text as Go does; a JS value's string is read so here.
      return ctx.source === undefined ? goString(v) : v;
    case ScalarType.BOOL:
      if (typeof v !== "boolean") throw new PathError(`cannot unmarshal ${jsonType(v)} into a bool`);
      return v;
    case ScalarType.INT32: {
      const n = integer(v, "int32", ctx.format === "yaml");
      if (n < INT32_MIN || n > INT32_MAX) throw new PathError(`number ${numberText(n)} overflows int32`);
      return Number(n);
    }
    case ScalarType.INT64: {
      const n = integer(v, "int64", ctx.format === "yaml");
      const b = BigInt(n);
      if (b < INT64_MIN || b > INT64_MAX) throw new PathError(`number ${numberText(n)} overflows int64`);
      return b;
    }
    default:
      throw new PathError(`unsupported scalar type ${ScalarType[t]}`);
  }
}

/**
 * An integer as Go's strconv.ParseInt reads the number's JSON text. Go
 * accepts "-0" (as 0) and nothing with a fraction or exponent. A float from
 * YAML reaches Go as the text json.Marshal writes for it: the shortest digits,
 * with an exponent from 1e21 on (JS's String(n) writes the same).
 */
function integer(v: ParsedValue, type: string, fromYaml: boolean): number | bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") {
    if (Number.isSafeInteger(v)) return v === 0 ? 0 : v; // not -0
    if (Number.isInteger(v)) {
      if (!fromYaml) throw new PathError(`number ${v} cannot be represented exactly; pass a bigint`);
      if (Math.abs(v) < 1e21) return BigInt(String(v));
    }
    throw new PathError(`cannot unmarshal number ${v} into an ${type}`);
  }
  if (v instanceof FloatLiteral) {
    if (v.text === "-0") return 0;
    throw new PathError(`cannot unmarshal number ${shorten(v.text)} into an ${type}`);
  }
  throw new PathError(`cannot unmarshal ${jsonType(v)} into an ${type}`);
}

const BIG_NUMBER = 10n ** 40n;

/** A number for an error message; huge ones are not printed in full (a 10^6-digit bigint takes a second to print). */
function numberText(n: number | bigint): string {
  if (typeof n === "number" || (n < BIG_NUMBER && n > -BIG_NUMBER)) return String(n);
  return `${n < 0n ? "-" : ""}<more than 40 digits>`;
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 40)}...<${text.length} characters>` : text;
}

function isObject(v: unknown): v is Record<string, ParsedValue | DuplicateKey> {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof FloatLiteral) &&
    !(v instanceof DuplicateKey)
  );
}

function jsonType(v: ParsedValue | DuplicateKey | undefined): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return "array";
  if (v instanceof FloatLiteral) return `number ${shorten(v.text)}`;
  if (typeof v === "bigint" || typeof v === "number") return `number ${numberText(v)}`;
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  return "object";
}
