import { create, ScalarType, type DescMessage, type Message } from "@bufbuild/protobuf";
import { setOwn } from "../../model/set-own.js";
import { fillStructs, zeroMessage, zeroScalar } from "../../model/zero.js";
import { DecodeError } from "../../model/errors.js";
import {
  DuplicateKey,
  FloatLiteral,
  goString,
  jsonError,
  locatePath,
  parseJsonText,
  textKeyOrder,
  type ParsedJson,
  type ParsedValue,
} from "./parse.js";
import { fastFromJsonText } from "./fast-text.js";
import { fastFromJsonValue } from "./fast-value.js";
import { printGoJson, sortedKeys } from "./print.js";
import { PathError } from "./path-error.js";
import { sortDeep } from "./raw-value.js";
import { jsonKindOf, numberLiteral, unmarshalTypeError } from "./type-error.js";
import { FIND_KIND_ERROR, FIND_KIND_TYPE, findKindField } from "../find-kind.js";
import type { JsonValue } from "../../model/json-value.js";
import { supportedKinds } from "../../model/kind-names.js";
import { KINDS, kindOfTypeName, lookupKind, type NetworkingObject } from "../../model/kinds.js";
import {
  FIELDS_V1_TYPE,
  INT_OR_STRING_TYPE,
  TIME_TYPE,
  shapeOf,
  type FieldShape,
  type MessageShape,
} from "../../model/shapes.js";
import { parseRfc3339 } from "../../model/time.js";
import { renderPath } from "../../model/path.js";

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
    // Go reads null into the struct as nothing at all: no kind.
    if (value === null) throw new PathError("Object 'Kind' is missing", ["kind"]);
    if (!isObject(value)) {
      const d = new Decoding(ctx, true);
      throw d.error(FIND_KIND_ERROR + unmarshalTypeError(valueKind(d, value), FIND_KIND_TYPE, "", ""));
    }
    checkFindKind(ctx, value);
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
    return decodeKind(ctx, info.desc, value);
  } catch (e) {
    throw toDecodeError(ctx, e);
  }
}

/** Throws the find-kind step's type error: a key it reads as kind or apiVersion holding neither a string nor null. */
function checkFindKind(ctx: Ctx, obj: Record<string, ParsedValue | DuplicateKey>): void {
  // Most objects have no such key: the members are put in Go's order only when one is there.
  const bad = (v: ParsedValue | DuplicateKey | undefined): boolean =>
    v !== undefined &&
    v !== null &&
    typeof v !== "string" &&
    !(v instanceof DuplicateKey && v.values.every((x) => x === null || typeof x === "string"));
  if (!Object.keys(obj).some((k) => findKindField(k) !== undefined && bad(obj[k]))) return;
  const d = new Decoding(ctx, true);
  for (const [key, v, occurrence] of goMembers(d, obj)) {
    const field = findKindField(key);
    if (field === undefined || v === null || typeof v === "string") continue;
    d.enter(key, occurrence);
    d.fail(FIND_KIND_ERROR + unmarshalTypeError(valueKind(d, v), "string", "", field));
  }
}

function typeMetaString(obj: Record<string, ParsedValue | DuplicateKey>, key: string): string {
  let v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  if (v instanceof DuplicateKey) v = v.values[v.values.length - 1];
  // checkFindKind has refused any other type.
  return typeof v === "string" ? v : "";
}

/** What the first pass throws at its first problem: only the second pass says which one Go reports. */
const PROBLEM: unique symbol = Symbol("problem");

/**
 * Decodes an object of a kind. The first pass keeps no account of where it
 * is and stops at the first problem; the object is returned when there is
 * none, the usual case. After a problem a second pass finds the one Go's
 * decoder reports, and where (see Decoding).
 */
function decodeKind(ctx: Ctx, desc: DescMessage, value: Record<string, ParsedValue | DuplicateKey>): NetworkingObject {
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

/**
 * One decoding's state: where it is, for errors, and in Go mode the problems
 * put aside.
 *
 * Outside Go mode the first problem throws PROBLEM. In Go mode decoding follows the
 * API server's decoder (sigs.k8s.io/json) to find the problem it reports:
 * members in the order it reads them (the text's; for YAML that of the JSON
 * the server makes of it, keys sorted), a value of the wrong type skipped and
 * decoding gone on (the first such is reported), an unknown or repeated field
 * noted (reported only when there is no type error), and an error of a
 * custom unmarshaler (a Time, an IntOrString) ending it at once, over any
 * type error before it.
 *
 * The type errors name where Go's decoder was: the Go struct holding the
 * field, and the JSON names of the fields from the root; a struct embedded
 * inline by its Go type name (IngressRule's IngressRuleValue), no list
 * indexes, no map keys.
 */
class Decoding {
  /** JSON path of the value being decoded: keys and list indexes. */
  readonly path: (string | number)[] = [];
  /** For each path segment, which occurrence of a repeated key it is. */
  readonly occurrences: (number | undefined)[] = [];
  /** Go's name of the struct whose field is being decoded. */
  goStruct = "";
  /** Go's field stack. */
  readonly goFields: string[] = [];
  /** Go mode: the first type error. */
  typeError: PathError | undefined;
  /** Go mode: the first unknown or repeated field. */
  strictError: PathError | undefined;

  constructor(
    readonly ctx: Ctx,
    readonly goMode: boolean,
  ) {}

  enter(seg: string | number, occurrence?: number): void {
    if (!this.goMode) return;
    this.path.push(seg);
    this.occurrences.push(occurrence);
  }

  leave(): void {
    if (!this.goMode) return;
    this.path.pop();
    this.occurrences.pop();
  }

  /** Go's error context while decoding a field of the struct `struct`: its JSON names from the root. */
  inField(struct: string, name: string, embedded?: string): void {
    if (!this.goMode) return;
    this.goStruct = struct;
    if (embedded !== undefined) this.goFields.push(embedded);
    this.goFields.push(name);
  }

  /** Back to the context before inField(): `struct` and the length of the field stack then. */
  outOfField(struct: string, fields: number): void {
    if (!this.goMode) return;
    this.goStruct = struct;
    this.goFields.length = fields;
  }

  /** An error at the current path; `lastOccurrence`: pointing at the last value of a repeated key. */
  error(reason: string, lastOccurrence = false): PathError {
    const occurrences = [...this.occurrences];
    if (lastOccurrence) occurrences[occurrences.length - 1] = undefined;
    return new PathError(reason, [...this.path], occurrences);
  }

  /** A problem that ends decoding. */
  fail(reason: string): never {
    if (!this.goMode) throw PROBLEM;
    throw this.error(reason);
  }

  /** A value of the wrong type, which Go's decoder skips. */
  mismatch(value: string, goType: string): void {
    if (!this.goMode) throw PROBLEM;
    this.typeError ??= this.error(unmarshalTypeError(value, goType, this.goStruct, this.goFields.join(".")));
  }

  /** A custom unmarshaler's type error: decoding ends. */
  fatalMismatch(value: string, goType: string): never {
    return this.fail(unmarshalTypeError(value, goType, this.goStruct, this.goFields.join(".")));
  }

  /** An unknown or repeated field (strict decoding). */
  strictProblem(reason: string, lastOccurrence = false): void {
    if (!this.goMode) throw PROBLEM;
    this.strictError ??= this.error(reason, lastOccurrence);
  }

  /** A PathError from below (its path relative to here), placed: decoding ends. */
  failBelow(e: PathError): never {
    if (!this.goMode) throw PROBLEM;
    throw new PathError(e.reason, [...this.path, ...e.path], [...this.occurrences, ...e.occurrences]);
  }
}

/**
 * The members of `obj` (each value of a repeated key, with its occurrence) in
 * the order Go's decoder meets them: the text's, or for YAML sorted keys
 * (sigs.k8s.io/yaml writes the JSON from a Go map); for a JS value, the order
 * JSON.stringify writes them in.
 */
function goMembers(
  d: Decoding,
  obj: Record<string, ParsedValue | DuplicateKey>,
): [key: string, value: ParsedValue, occurrence: number | undefined][] {
  const out: [string, ParsedValue, number | undefined][] = [];
  const order = textKeyOrder(obj);
  if (order !== undefined) {
    const seen = new Map<string, number>();
    for (const key of order) {
      const raw = obj[key];
      if (raw instanceof DuplicateKey) {
        const o = seen.get(key) ?? 0;
        seen.set(key, o + 1);
        if (o < raw.values.length) out.push([key, raw.values[o] as ParsedValue, o]);
      } else if (raw !== undefined && !seen.has(key)) {
        seen.set(key, 1);
        out.push([key, raw, undefined]);
      }
    }
    return out;
  }
  for (const key of d.ctx.format === "yaml" ? sortedKeys(obj) : Object.keys(obj)) {
    const raw = obj[key];
    // A JS value's undefined property is an absent field (JSON has no undefined).
    if (raw === undefined) continue;
    if (raw instanceof DuplicateKey) {
      for (let o = 0; o < raw.values.length; o++) out.push([key, raw.values[o] as ParsedValue, o]);
    } else {
      out.push([key, raw, undefined]);
    }
  }
  return out;
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

/** An integer type's range, as numbers (the common case) and as bigints. */
interface IntRange {
  readonly min: number;
  readonly max: number;
  readonly minBig: bigint;
  readonly maxBig: bigint;
}

const INT32: IntRange = { min: -(2 ** 31), max: 2 ** 31 - 1, minBig: -(2n ** 31n), maxBig: 2n ** 31n - 1n };
const INT64: IntRange = {
  min: Number.MIN_SAFE_INTEGER,
  max: Number.MAX_SAFE_INTEGER,
  minBig: -(2n ** 63n),
  maxBig: 2n ** 63n - 1n,
};

/** What scalar() gives for a value Go skips (a type error, in Go mode). */
const SKIPPED: unique symbol = Symbol("skipped");

function scalar(d: Decoding, t: ScalarType, v: ParsedValue, goType: string): unknown {
  switch (t) {
    case ScalarType.STRING:
      if (typeof v !== "string") {
        d.mismatch(valueKind(d, v), goType);
        return SKIPPED;
      }
      // The parser reads text as Go does; a JS value's string is read so here.
      return d.ctx.source === undefined ? goString(v) : v;
    case ScalarType.BOOL:
      if (typeof v !== "boolean") {
        d.mismatch(valueKind(d, v), goType);
        return SKIPPED;
      }
      return v;
    case ScalarType.INT32: {
      const n = integer(d, v, INT32, goType, false);
      return n === undefined ? SKIPPED : Number(n);
    }
    case ScalarType.INT64: {
      const n = integer(d, v, INT64, goType, false);
      return n === undefined ? SKIPPED : BigInt(n);
    }
    default:
      return d.fail(`unsupported scalar type ${ScalarType[t]}`);
  }
}

/**
 * An integer as Go reads a number into one: strconv.ParseInt of its JSON
 * text, which takes "-0" (as 0) and nothing with a fraction or exponent,
 * then the type's range; a miss is a type error naming the literal
 * (`number 1.5`). A float from YAML reaches Go as the text json.Marshal
 * writes for it: the shortest digits, with an exponent from 1e21 on (JS's
 * String(n) writes the same). `fatal`: read by a custom unmarshaler
 * (IntOrString's), whose error ends decoding. Undefined: skipped.
 */
function integer(
  d: Decoding,
  v: ParsedValue,
  range: IntRange,
  goType: string,
  fatal: boolean,
): number | bigint | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= range.min && v <= range.max) return v === 0 ? 0 : v; // not -0
  let n: bigint;
  if (typeof v === "bigint") {
    n = v;
  } else if (typeof v === "number") {
    if (!Number.isFinite(v)) return d.fail(notJson(v));
    if (Number.isSafeInteger(v)) {
      n = BigInt(v);
    } else if (Number.isInteger(v) && d.ctx.format === "json") {
      return d.fail(`number ${v} cannot be represented exactly; pass a bigint`);
    } else if (Number.isInteger(v) && Math.abs(v) < 1e21) {
      n = BigInt(String(v));
    } else {
      return missInteger(d, `number ${numberLiteral(v)}`, goType, fatal);
    }
  } else if (v instanceof FloatLiteral) {
    if (v.text !== "-0") return missInteger(d, `number ${numberLiteral(v)}`, goType, fatal);
    return 0;
  } else {
    return missInteger(d, valueKind(d, v), goType, fatal);
  }
  if (n < range.minBig || n > range.maxBig) return missInteger(d, `number ${numberLiteral(n)}`, goType, fatal);
  return n;
}

/** A number or value an integer cannot take: skipped, or `fatal` (a custom unmarshaler's) the end. */
function missInteger(d: Decoding, value: string, goType: string, fatal: boolean): undefined {
  if (fatal) d.fatalMismatch(value, goType);
  d.mismatch(value, goType);
  return undefined;
}

/** The JSON kind of a value, as Go's type errors name it; a JS value JSON has no form for is refused. */
function valueKind(d: Decoding, v: unknown): string {
  return jsonKindOf(v) ?? d.fail(notJson(v));
}

function notJson(v: unknown): string {
  if (typeof v === "number") return `number ${v} is not JSON`;
  return `${typeof v === "undefined" ? "undefined" : `a ${typeof v}`} is not a JSON value`;
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
