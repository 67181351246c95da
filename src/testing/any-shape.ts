// fast-check arbitraries for random but Go-representable networking.k8s.io/v1
// objects, derived by walking the protobuf-es descriptors of the generated
// schemas (so a field added to proto/ is generated without touching this file).
//
// "Go-representable" means a value the Go structs behind these messages can
// hold, so that what Go's marshaller would write is well defined:
//
// * strings are well-formed Unicode (Go strings that are valid UTF-8; a lone
//   UTF-16 surrogate has no UTF-8 form). They include non-ASCII graphemes and
//   a list of tokens that are hard for JSON/YAML writers (`<`, U+2028, "yes",
//   "0x1f", "null", leading spaces, newlines, ...);
// * int32 and int64 over their full ranges, int64 as bigint (beyond 2^53);
// * meta.v1.Time is unset or `{seconds}` between 0001-01-01 and 9999-12-31
//   (Go writes nanos 0 and ignores them on read, JSON carries whole seconds);
// * IntOrString is `{type: 0n, intVal, strVal: ""}` or `{type: 1n, intVal: 0, strVal}`
//   (Go refuses other types, and its setters never mix the two);
// * FieldsV1.Raw is the UTF-8 of a small compact JSON object;
// * a field that is a non-pointer struct in Go is always set (recursively, a
//   Go zero struct still has its own non-pointer structs); only Go pointers,
//   i.e. proto fields Go writes only when set, are ever left unset.
//
// Options for JSON: Go's JSON cannot carry every protobuf-representable value.
// With `json: true` the generator leaves out exactly what Kubernetes JSON loses
// (see src/networking/shapes.ts):
//
// * a pointer Time (`deletionTimestamp`, `managedFields[].time`) holding the
//   zero time: protobuf writes an empty message (`4a 00`), JSON writes `null`,
//   which decodes to a nil pointer;
// * a FieldsV1 with no Raw bytes: protobuf writes `3a 00`, Go's
//   FieldsV1.MarshalJSON writes `null`, which decodes to a nil pointer;
// * FieldsV1 text that Go would not reproduce: JSON input keeps the raw slice
//   but the printer re-emits it compact with Go's escaping, and YAML input
//   yields compact JSON with keys sorted by UTF-8 bytes. So the raw text is
//   generated in exactly that canonical form in both modes (compact, keys
//   sorted and unique, strings needing no escapes beyond what JSON.stringify
//   and Go agree on).
//
// Things JSON also loses but the generator never produces anyway: unknown
// fields, Time nanos, lone surrogates, IntOrString with a mixed or invalid type.
// A pointer set to "" / 0 / false is *not* lost: Go's omitempty only omits nil
// pointers, so `"ingressClassName": ""` and `"endPort": 0` survive.

import fc from "fast-check";
import { create, ScalarType, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { KINDS, NETWORKING_API_VERSION } from "../networking/index.js";
import type { NetworkingObject } from "../networking/index.js";
import { shapeOf } from "../networking/model/shapes.js";

export const TIME_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.Time";
export const INT_OR_STRING_TYPE = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
export const FIELDS_V1_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1";

/** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds. */
export const GO_ZERO_SECONDS = -62135596800n;
/** 9999-12-31T23:59:59Z in Unix seconds. */
export const MAX_TIME_SECONDS = 253402300799n;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The networking kinds (no Status): Ingress, IngressList, ... ServiceCIDRList.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { NETWORKING_KINDS, arbObjectOf } from "clusterwire/testing";
 *
 * for (const kind of NETWORKING_KINDS) console.log(kind, fc.sample(arbObjectOf(kind), 1)[0]?.$typeName);
 * ```
 */
export const NETWORKING_KINDS: readonly string[] = KINDS.filter((k) => k.apiVersion === NETWORKING_API_VERSION).map(
  (k) => k.kind,
);

/**
 * Options of {@link arbObject}, {@link arbObjectOf} and {@link arbMessage}.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbObject } from "clusterwire/testing";
 *
 * const shallowJsonSafe = arbObject({ json: true, maxDepth: 4 });
 * console.log(fc.sample(shallowJsonSafe, 1));
 * ```
 */
export interface ArbOptions {
  /** Leave out the values Kubernetes JSON cannot carry (see the header). */
  readonly json?: boolean;
  /** Nesting depth after which lists are empty and optional messages unset. Default 12. */
  readonly maxDepth?: number;
}

/**
 * Strings that are awkward for JSON and YAML writers and readers.
 *
 * @example
 * ```ts
 * import { TRICKY_STRINGS } from "clusterwire/testing";
 *
 * for (const s of TRICKY_STRINGS) console.log(JSON.stringify(s));
 * ```
 */
export const TRICKY_STRINGS: readonly string[] = [
  "",
  " ",
  "a",
  "<script>&amp;</script>",
  "\u2028\u2029",
  "line\nbreak",
  "crlf\r\n",
  "tab\there",
  "\u0000\u0001\u001f\u007f",
  'quote"back\\slash',
  "'single'",
  "yes",
  "no",
  "on",
  "off",
  "y",
  "N",
  "true",
  "False",
  "null",
  "Null",
  "~",
  "0",
  "-0",
  "007",
  "0x1f",
  "0o17",
  "1e3",
  "1_000",
  "3.14",
  ".inf",
  "-.Inf",
  ".nan",
  "2001-12-14",
  "2001-12-14t21:59:43.10-05:00",
  "12:30:00",
  "9223372036854775808",
  "- item",
  "key: value",
  "#comment",
  "a #b",
  "@at",
  "`tick`",
  "%percent",
  "!tag",
  "*alias",
  "&anchor",
  "? q",
  "{flow}",
  "[seq]",
  "---",
  "...",
  "|",
  ">",
  " leading",
  "trailing ",
  "multi\nline\ntext\n",
  "é",
  "日本語",
  "👍🏽",
  "🇩🇪",
  "\u00a0nbsp",
  "\ufeffbom",
  "\ufffd",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "*.example.com",
  "/path/{id}",
];

/**
 * A Go-representable string: non-ASCII graphemes, ASCII, and the tricky list.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { create, fromYaml, IngressClassSchema, toYaml } from "clusterwire/networking";
 * import { arbString } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbString(), (s) => fromYaml(toYaml(create(IngressClassSchema, { metadata: { name: s } })))[0] !== undefined));
 * ```
 */
export function arbString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
    { weight: 2, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
  );
}

const INT32_ARB: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: INT32_MIN, max: INT32_MAX }),
  fc.constantFrom(0, 1, -1, 80, 443, 65535, INT32_MIN, INT32_MAX),
);

const INT64_ARB: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }),
  fc.constantFrom(0n, 1n, -1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, INT64_MIN, INT64_MAX),
);

/**
 * Any int32, with the edges and common ports weighted in.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbInt32 } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbInt32(), (n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31));
 * ```
 */
export function arbInt32(): fc.Arbitrary<number> {
  return INT32_ARB;
}

/**
 * Any int64 as a bigint, beyond 2^53 too, with the edges weighted in.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbInt64 } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbInt64(), (n) => BigInt.asIntN(64, n) === n));
 * ```
 */
export function arbInt64(): fc.Arbitrary<bigint> {
  return INT64_ARB;
}

/**
 * A key/value map built with own properties only (a `__proto__` key stays a
 * key). No `<<` key: Go writes it unquoted and reads it back as a YAML merge
 * key, so no Go YAML round trip can carry it (a test below pins that).
 */
function arbStringMap(): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(
      fc.tuple(
        arbString().filter((k) => k !== "<<"),
        arbString(),
      ),
      { maxLength: 3, selector: ([k]) => k },
    )
    .map((entries) => {
      const out: Record<string, string> = {};
      for (const [k, v] of entries) {
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return out;
    });
}

// ------------------------------------------------------------ FieldsV1 text

/** Strings for FieldsV1 JSON that Go and JSON.stringify print identically. */
const arbFieldsString: fc.Arbitrary<string> = fc
  .string({ unit: "grapheme", maxLength: 8 })
  .filter((s) => !/[<>&\u2028\u2029]/.test(s));

type JsonTree = { [k: string]: JsonTree } | string | number | boolean | null;

const arbFieldsLeaf: fc.Arbitrary<JsonTree> = fc.oneof(
  arbFieldsString,
  fc.integer({ min: -1000, max: 1000 }),
  fc.boolean(),
  fc.constant(null),
);

/** A JSON object of depth <= `depth`, keys unique and sorted by UTF-8 bytes. */
function arbFieldsObject(depth: number): fc.Arbitrary<JsonTree> {
  const value = depth <= 1 ? arbFieldsLeaf : fc.oneof(arbFieldsObject(depth - 1), arbFieldsLeaf);
  return fc
    .uniqueArray(
      fc.tuple(
        fc.oneof(arbFieldsString, fc.constantFrom("f:metadata", "f:spec", "f:labels", ".", 'k:{"port":80}')),
        value,
      ),
      { maxLength: 3, selector: ([k]) => k },
    )
    .map((entries) => {
      entries.sort(([a], [b]) => compareUtf8Bytes(a, b));
      const out: { [k: string]: JsonTree } = {};
      for (const [k, v] of entries)
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
}

const arbFieldsTree: fc.Arbitrary<JsonTree> = arbFieldsObject(3);

function compareUtf8Bytes(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

/**
 * Compact JSON text of a small object, with keys sorted by UTF-8 bytes. That
 * is the form Go produces from YAML input, and which the JSON printer keeps.
 */
const FIELDS_V1_TEXT_ARB: fc.Arbitrary<string> = arbFieldsTree.map((t) => JSON.stringify(t));

/**
 * FieldsV1 text: a small compact JSON object with keys sorted by UTF-8 bytes.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbFieldsV1Text } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbFieldsV1Text(), 3));
 * ```
 */
export function arbFieldsV1Text(): fc.Arbitrary<string> {
  return FIELDS_V1_TEXT_ARB;
}

// ------------------------------------------------------------ messages

interface Ctx {
  readonly json: boolean;
  readonly maxDepth: number;
  readonly cache: Map<string, fc.Arbitrary<Message>>;
}

/**
 * Arbitrary for a message of type `desc`, as Go could hold it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { IngressSchema, IngressSpecSchema, type IngressSpec, create, fromJson, toJson } from "clusterwire/networking";
 * import { arbMessage } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbMessage<IngressSpec>(IngressSpecSchema, { json: true }), (spec) => {
 *     const ingress = create(IngressSchema, { metadata: { name: "shop" }, spec });
 *     return fromJson(toJson(ingress)).$typeName === ingress.$typeName;
 *   }),
 * );
 * ```
 */
export function arbMessage<T extends Message>(desc: DescMessage, options: ArbOptions = {}): fc.Arbitrary<T> {
  const ctx: Ctx = { json: options.json === true, maxDepth: options.maxDepth ?? 12, cache: new Map() };
  return messageArb(ctx, desc, 0, false) as fc.Arbitrary<T>;
}

function messageArb(ctx: Ctx, desc: DescMessage, depth: number, pointer: boolean): fc.Arbitrary<Message> {
  const key = `${desc.typeName}@${depth}@${pointer}`;
  const cached = ctx.cache.get(key);
  if (cached !== undefined) return cached;
  let arb: fc.Arbitrary<Message>;
  switch (desc.typeName) {
    case TIME_TYPE: {
      // An explicit zero time in a pointer field is lost by JSON (null -> nil).
      const min = ctx.json && pointer ? GO_ZERO_SECONDS + 1n : GO_ZERO_SECONDS;
      arb = fc
        .oneof(
          fc.bigInt({ min, max: MAX_TIME_SECONDS }),
          fc.bigInt({ min: 0n, max: 4102444800n }), // 1970..2100, the usual range
        )
        .map((seconds) => create(desc, { seconds }));
      break;
    }
    case INT_OR_STRING_TYPE:
      arb = fc.oneof(
        INT32_ARB.map((intVal) => create(desc, { type: 0n, intVal, strVal: "" })),
        arbString().map((strVal) => create(desc, { type: 1n, intVal: 0, strVal })),
      );
      break;
    case FIELDS_V1_TYPE: {
      const withRaw = FIELDS_V1_TEXT_ARB.map((t) => create(desc, { Raw: new TextEncoder().encode(t) }));
      // A FieldsV1 with no Raw is written `3a 00` but its JSON is null (nil pointer).
      arb = ctx.json
        ? withRaw
        : fc.oneof({ weight: 5, arbitrary: withRaw }, { weight: 1, arbitrary: fc.constant(create(desc)) });
      break;
    }
    default: {
      const shape = shapeOf(desc);
      const fieldArbs: Record<string, fc.Arbitrary<unknown>> = {};
      for (const fs of shape.goOrder) {
        fieldArbs[fs.localName] = fieldArb(ctx, fs.field, depth, fs.pointer);
      }
      arb = fc.record(fieldArbs).map((values) => {
        const init: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(values)) if (v !== undefined) init[k] = v;
        return create(desc, init as never);
      });
    }
  }
  ctx.cache.set(key, arb);
  return arb;
}

function scalarArb(field: DescField, t: ScalarType): fc.Arbitrary<unknown> {
  switch (t) {
    case ScalarType.STRING:
      return arbString();
    case ScalarType.INT32:
      return INT32_ARB;
    case ScalarType.INT64:
      return INT64_ARB;
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 8 });
    default:
      throw new Error(`arbitraries: scalar type ${ScalarType[t]} of ${field.toString()} is not used by these schemas`);
  }
}

/** Arbitrary for one field's init value; undefined = leave the field unset. */
function fieldArb(ctx: Ctx, field: DescField, depth: number, pointer: boolean): fc.Arbitrary<unknown> {
  const deep = depth >= ctx.maxDepth;
  switch (field.fieldKind) {
    case "scalar":
      return fc.option(scalarArb(field, field.scalar), { nil: undefined, freq: 3 });
    case "message":
      // A Go non-pointer struct always exists (and Go always writes it, with
      // its own always-written fields inside); only pointers can be nil.
      if (!pointer)
        return deep
          ? fc.constant(undefined).map(() => goZero(field.message))
          : messageArb(ctx, field.message, depth + 1, false);
      if (deep) return fc.constant(undefined);
      return fc.option(messageArb(ctx, field.message, depth + 1, true), { nil: undefined, freq: 3 });
    case "list":
      if (field.listKind === "message") {
        if (deep) return fc.constant([]);
        return fc.array(messageArb(ctx, field.message, depth + 1, false), { maxLength: 3 });
      }
      if (field.listKind === "scalar") return fc.array(scalarArb(field, field.scalar), { maxLength: 3 });
      throw new Error(`arbitraries: enum list ${field.toString()}`);
    case "map":
      if (field.mapKind !== "scalar" || field.scalar !== ScalarType.STRING || field.mapKey !== ScalarType.STRING) {
        throw new Error(`arbitraries: only map<string,string> is used, not ${field.toString()}`);
      }
      return arbStringMap();
    default:
      throw new Error(`arbitraries: field kind ${field.fieldKind} of ${field.toString()}`);
  }
}

/** Go's zero value of a struct: non-pointer struct fields present, recursively. */
export function goZero(desc: DescMessage): Message {
  const init: Record<string, unknown> = {};
  if (desc.typeName !== TIME_TYPE && desc.typeName !== INT_OR_STRING_TYPE && desc.typeName !== FIELDS_V1_TYPE) {
    for (const fs of shapeOf(desc).goOrder) {
      if (fs.field.fieldKind === "message" && !fs.pointer) init[fs.localName] = goZero(fs.field.message);
    }
  }
  return create(desc, init as never);
}

// ------------------------------------------------------------ kinds

const kindCache = new Map<string, fc.Arbitrary<NetworkingObject>>();

/**
 * A random object of one kind ("Ingress", "NetworkPolicyList", ...).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { decode, encode } from "clusterwire/networking";
 * import { arbObjectOf } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbObjectOf("NetworkPolicy"), (object) => decode(encode(object)).$typeName === "k8s.io.api.networking.v1.NetworkPolicy"));
 * ```
 */
export function arbObjectOf(kind: string, options: ArbOptions = {}): fc.Arbitrary<NetworkingObject> {
  const key = `${kind}/${options.json === true}/${options.maxDepth ?? ""}`;
  const cached = kindCache.get(key);
  if (cached !== undefined) return cached;
  const info = KINDS.find((k) => k.kind === kind && k.apiVersion === NETWORKING_API_VERSION);
  if (info === undefined) throw new Error(`arbitraries: unknown kind ${kind}`);
  const arb = arbMessage<NetworkingObject>(info.desc, options);
  kindCache.set(key, arb);
  return arb;
}

/**
 * A random object of any networking kind, Lists included.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, toJson } from "clusterwire/networking";
 * import { arbObject } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbObject({ json: true }), (object) => fromJson(toJson(object)).$typeName === object.$typeName));
 * ```
 */
export function arbObject(options: ArbOptions = {}): fc.Arbitrary<NetworkingObject> {
  return fc.oneof(...NETWORKING_KINDS.map((k) => arbObjectOf(k, options)));
}
