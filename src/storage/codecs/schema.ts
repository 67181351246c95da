// The small field-schema engine behind the storage codecs. A schema lists every
// field of a resource with its JSON type and the verbs it takes part in (the
// spec's G/P/U columns). One walker decodes responses (structural checks, lenient
// enums, unknown fields kept) and one encodes request bodies (verb checks, strict
// enums, Size/duration conversions, fields in schema order). Resource modules add
// their cross-field rules and defaults on top.

import type { Lenient, Links, SizeInput } from "./common.js";
import { StorageCodecError } from "./errors.js";
import { parseSize, showValue } from "./units.js";

/**
 * A JSON value as the codecs produce it (no bigint: Sizes are safe integers).
 *
 * @example
 * ```ts
 * import { cache, type JsonValue } from "clusterwire/storage";
 *
 * const value: JsonValue = cache.encodePatch({ writeback: { enabled: true } });
 * ```
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/**
 * A JSON object, as the codecs' request bodies are.
 *
 * @example
 * ```ts
 * import { cache, type JsonObject } from "clusterwire/storage";
 *
 * const body: JsonObject = cache.encodePatch({ writeback: { enabled: true } });
 * await fetch("https://cluster.example.com/api/storage/cache/caches/uuid", { method: "PATCH", body: JSON.stringify(body) }).catch(() => undefined);
 * ```
 */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** The write verbs a body can be encoded for. */
export type Verb = "POST" | "PATCH";

export type Node =
  | { readonly t: "string" }
  | { readonly t: "integer"; readonly min?: number; readonly max?: number }
  | { readonly t: "boolean" }
  | { readonly t: "size" }
  | { readonly t: "datetime" }
  | { readonly t: "duration" }
  | { readonly t: "enum"; readonly values: readonly (string | number)[] }
  | {
      readonly t: "object";
      readonly fields: Readonly<Record<string, Field>>;
      /** Defaults filled, per verb, only inside an object the caller supplied. */
      readonly defaults?: Partial<Record<Verb, Readonly<Record<string, JsonValue>>>>;
    }
  | { readonly t: "array"; readonly items: Node }
  | { readonly t: "links" };

export interface Field {
  readonly node: Node;
  /** Subset of "GPU"; inherited from the enclosing field when absent (top level: "G"). */
  readonly ops?: string;
  /** Replaces the generic encoding of the value (after the verb check). */
  readonly encode?: (value: unknown, path: string, verb: Verb) => JsonValue;
  /** Replaces the generic decoding of the value. */
  readonly decode?: (value: unknown, path: string) => unknown;
  /** Replaces the generic verb-refusal reason, e.g. "a namespace cannot be renamed". */
  readonly refuse?: string;
  /** Write-only secret: never decoded, never echoed. */
  readonly secret?: true;
}

// ---- types inferred from a schema -------------------------------------------------
//
// Each builder returns its node with phantom members (never present at run time) that carry
// the TypeScript type of what the node decodes to (`~out`) and what it accepts on input
// (`~in`). The models of the resource modules are inferred from their schemas with
// `InferModel`, so a shape is stated once (the schema) and never written beside it.

/** A node that also carries, at type level only, its decoded type and its input type. */
export type TypedNode<Out, In = Out> = Node & { readonly "~out"?: Out; readonly "~in"?: In };

/** A field that also carries, at type level only, its ops string, node, decoded type and whether it is secret. */
export type TypedField<Ops extends string, N extends Node, Out, Secret extends boolean> = Field & {
  readonly "~ops"?: Ops;
  readonly "~node"?: N;
  readonly "~out"?: Out;
  readonly "~secret"?: Secret;
};

type OutOf<N> = N extends { readonly "~out"?: infer O } ? O : unknown;
type InOf<N> = N extends { readonly "~in"?: infer I } ? I : unknown;

/** Flattens an intersection for display. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type IsSecret<M> = M extends { readonly "~secret"?: infer S } ? ([S] extends [true] ? true : false) : false;

/**
 * The decoded model of an object's members: every member optional (the API may omit any),
 * secrets left out; a field with its own decoder has that decoder's type (`f` records it).
 */
export type ModelOf<F> = Simplify<{
  -readonly [K in keyof F as IsSecret<F[K]> extends true ? never : K]?: OutOf<F[K]>;
}>;

/** The model a schema node decodes to, e.g. `type Cache = InferModel<typeof cacheSchema>`. */
export type InferModel<N> = OutOf<N>;

/** The members of `obj({...})` whose ops (own, or `Inherited`) include `Letter`. */
type MembersFor<F, Letter extends string, Inherited extends string> = {
  [K in keyof F as Letter extends OpsOf<F[K], Inherited>[number] ? K : never]: F[K];
};
type OpsOf<M, Inherited extends string> = M extends { readonly "~ops"?: infer O extends string }
  ? string extends O
    ? Chars<Inherited>
    : Chars<O>
  : Chars<Inherited>;
type Chars<S extends string> = S extends `${infer C}${infer R}` ? [C, ...Chars<R>] : [];

/** The input a member accepts: a nested object keeps only the members for the verb. */
type MemberIn<M, Letter extends string, Inherited extends string> = M extends { readonly "~node"?: infer N }
  ? NodeIn<N, Letter, M extends { readonly "~ops"?: infer O extends string } ? O : Inherited>
  : NodeIn<M, Letter, Inherited>;
type NodeIn<N, Letter extends string, Ops extends string> = N extends { readonly "~fields"?: infer F }
  ? InputOf<F, Letter, Ops>
  : N extends { readonly "~items"?: infer I }
    ? NodeIn<I, Letter, Ops>[]
    : InOf<N>;

/** The input of an object's members for a verb letter ("P" POST, "U" PATCH): every member optional. */
export type InputOf<F, Letter extends string, Inherited extends string = "G"> = Simplify<{
  -readonly [K in keyof MembersFor<F, Letter, Inherited>]?: MemberIn<
    MembersFor<F, Letter, Inherited>[K],
    Letter,
    Inherited
  >;
}>;

/** The PATCH input a top-level object schema accepts (every member optional, only members with "U"). */
export type InferPatchInput<N> = N extends { readonly "~fields"?: infer F } ? InputOf<F, "U"> : never;
/** The POST members a top-level object schema accepts, all optional (resource modules mark the required ones). */
export type InferPostInput<N> = N extends { readonly "~fields"?: infer F } ? InputOf<F, "P"> : never;

/** A string enum decodes leniently (any string a newer server sends); a numeric one to any integer. */
type EnumOut<V> = [V] extends [string] ? Lenient<V> : number;

// ---- builders ----------------------------------------------------------------

export const str: TypedNode<string> = { t: "string" };
export const bool: TypedNode<boolean> = { t: "boolean" };
export const size: TypedNode<number, SizeInput> = { t: "size" };
export const datetime: TypedNode<string> = { t: "datetime" };
export const duration: TypedNode<string> = { t: "duration" };
export const links: TypedNode<Links, never> = { t: "links" };
export const int = (min?: number, max?: number): TypedNode<number> => ({
  t: "integer",
  ...(min === undefined ? {} : { min }),
  ...(max === undefined ? {} : { max }),
});
export const enm = <const V extends readonly (string | number)[]>(
  values: V,
): TypedNode<EnumOut<V[number]>, V[number]> => ({ t: "enum", values });
export const obj = <const F extends Readonly<Record<string, Field | Node>>>(
  fields: F,
  defaults?: Partial<Record<Verb, Readonly<Record<string, JsonValue>>>>,
): TypedNode<ModelOf<F>> & { readonly "~fields"?: F } => ({
  t: "object",
  fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, "t" in v ? { node: v } : v])) as Record<
    string,
    Field
  >,
  ...(defaults === undefined ? {} : { defaults }),
});
export const arr = <I extends Node>(items: I): TypedNode<OutOf<I>[], InOf<I>[]> & { readonly "~items"?: I } => ({
  t: "array",
  items,
});
export const f = <const Ops extends string, N extends Node, Out = OutOf<N>, Secret extends boolean = false>(
  ops: Ops,
  node: N,
  extra: Omit<Field, "node" | "ops" | "decode" | "secret"> & {
    readonly decode?: (value: unknown, path: string) => Out;
    readonly secret?: Secret;
  } = {},
): TypedField<Ops, N, Out, Secret> => ({ node, ops, ...extra }) as TypedField<Ops, N, Out, Secret>;

// ---- helpers -----------------------------------------------------------------

export const join = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

const wrongType = (path: string, expected: string, value: unknown): StorageCodecError =>
  new StorageCodecError(path, `must be ${expected}, got ${describe(value)}`);

const own = (o: Record<string, unknown>, k: string): boolean => Object.hasOwn(o, k);

/** Sets an own data property, so a `__proto__` member from JSON stays a member. */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

// ---- decode -------------------------------------------------------------------

/**
 * Checks a response value against a schema node and returns a fresh copy. Unknown
 * object members are kept unchanged (a newer server adds fields); enum values
 * outside the known set are kept as strings; secrets are dropped; nothing is
 * defaulted.
 */
export function decodeNode(node: Node, value: unknown, path: string): unknown {
  switch (node.t) {
    case "string":
    case "datetime":
    case "duration":
      if (typeof value !== "string") throw wrongType(path, "a string", value);
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw wrongType(path, "a boolean", value);
      return value;
    case "integer":
    case "size":
      if (typeof value !== "number") throw wrongType(path, "an integer", value);
      if (!Number.isSafeInteger(value)) {
        throw new StorageCodecError(path, `must be a safe integer, got ${showValue(value)}`);
      }
      return value;
    case "enum": {
      const numeric = node.values.every((v) => typeof v === "number");
      if (numeric) {
        if (typeof value !== "number" || !Number.isSafeInteger(value)) throw wrongType(path, "an integer", value);
      } else if (typeof value !== "string") {
        throw wrongType(path, "a string", value);
      }
      return value;
    }
    case "array": {
      if (!Array.isArray(value)) throw wrongType(path, "an array", value);
      return value.map((item, i) => decodeNode(node.items, item, `${path}[${i}]`));
    }
    case "links":
      return decodeLinks(value, path);
    case "object": {
      if (!isPlainObject(value)) throw wrongType(path, "an object", value);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const field = own(node.fields, key) ? node.fields[key] : undefined;
        const v = value[key];
        if (field === undefined) {
          setOwn(out, key, v);
        } else if (field.secret !== true) {
          const p = join(path, key);
          out[key] = field.decode !== undefined ? field.decode(v, p) : decodeNode(field.node, v, p);
        }
      }
      return out;
    }
  }
}

/** `_links`: an object of relations, each an object whose `href` (when present) is a string. */
export function decodeLinks(value: unknown, path: string): unknown {
  if (!isPlainObject(value)) throw wrongType(path, "an object", value);
  const out: Record<string, unknown> = {};
  for (const [rel, link] of Object.entries(value)) {
    const p = join(path, rel);
    if (!isPlainObject(link)) throw wrongType(p, "an object", link);
    if (own(link, "href") && typeof link["href"] !== "string")
      throw wrongType(join(p, "href"), "a string", link["href"]);
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(link)) setOwn(copy, k, v);
    setOwn(out, rel, copy);
  }
  return out;
}

/** Decodes a whole body against a top-level object node, typed as the node's model. */
export function decodeBody<N extends Node>(node: N, json: unknown): InferModel<N> {
  return decodeNode(node, json, "") as InferModel<N>;
}

// ---- encode -------------------------------------------------------------------

const VERB_LETTER: Record<Verb, string> = { POST: "P", PATCH: "U" };

function refusal(field: Field, ops: string, verb: Verb): string {
  if (field.refuse !== undefined) return field.refuse;
  if (!ops.includes("P") && !ops.includes("U")) return "is read-only";
  return `is not accepted in ${verb}`;
}

/**
 * Encodes a request value against a schema node for a verb: unknown members are
 * refused (a dotted key gets a hint), members the verb does not accept are
 * refused, enums are strict, Sizes are converted to bytes, and the output object
 * lists members in schema order. `undefined` members count as absent.
 */
export function encodeNode(node: Node, value: unknown, path: string, verb: Verb, ops: string): JsonValue {
  switch (node.t) {
    case "string":
    case "datetime":
    case "duration":
      if (typeof value !== "string") throw wrongType(path, "a string", value);
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw wrongType(path, "a boolean", value);
      return value;
    case "integer": {
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        throw new StorageCodecError(path, `must be an integer, got ${showValue(value)}`);
      }
      if ((node.min !== undefined && value < node.min) || (node.max !== undefined && value > node.max)) {
        throw new StorageCodecError(path, `must be between ${node.min ?? "-∞"} and ${node.max ?? "∞"}, got ${value}`);
      }
      return value;
    }
    case "size":
      return parseSize(value, path);
    case "enum":
      if (!node.values.includes(value as string | number)) {
        throw new StorageCodecError(
          path,
          `must be one of ${node.values.map((v) => JSON.stringify(v)).join(", ")}, got ${showValue(value)}`,
        );
      }
      return value as string | number;
    case "array": {
      if (!Array.isArray(value)) throw wrongType(path, "an array", value);
      return value.map((item, i) => encodeNode(node.items, item, `${path}[${i}]`, verb, ops));
    }
    case "links":
      throw new StorageCodecError(path, "is read-only");
    case "object": {
      if (!isPlainObject(value)) throw wrongType(path, "an object", value);
      const letter = VERB_LETTER[verb];
      for (const key of Object.keys(value)) {
        if (value[key] === undefined) continue;
        const p = join(path, key);
        const field = own(node.fields, key) ? node.fields[key] : undefined;
        if (field === undefined) {
          const hint = key.includes(".") ? " (dotted keys are not accepted; nest the object instead)" : "";
          throw new StorageCodecError(p, `unknown field${hint}`);
        }
        const fieldOps = field.ops ?? ops;
        if (!fieldOps.includes(letter)) throw new StorageCodecError(p, refusal(field, fieldOps, verb));
      }
      const out: JsonObject = {};
      const defaults = node.defaults?.[verb];
      for (const [key, field] of Object.entries(node.fields)) {
        if (!own(value, key) || value[key] === undefined) {
          if (defaults !== undefined && own(defaults, key)) out[key] = defaults[key] as JsonValue;
          continue;
        }
        const p = join(path, key);
        const v = value[key];
        out[key] =
          field.encode !== undefined ? field.encode(v, p, verb) : encodeNode(field.node, v, p, verb, field.ops ?? ops);
      }
      return out;
    }
  }
}

/** Encodes a whole request body: it must be an object. */
export function encodeBody(node: Node, input: unknown, verb: Verb): JsonObject {
  if (!isPlainObject(input))
    throw new StorageCodecError("", `the ${verb} body must be an object, got ${describe(input)}`);
  return encodeNode(node, input, "", verb, "G") as JsonObject;
}

// ---- rule helpers used by the resource modules ----------------------------------

/** The object at a dotted path of an encoded body, or undefined. */
export function at(body: JsonObject, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = body;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return undefined;
    cur = own(cur, key) ? cur[key] : undefined;
  }
  return cur;
}

export const has = (body: JsonObject, path: string): boolean => at(body, path) !== undefined;

/** Throws unless `path` is present in the encoded body. */
export function requireField(body: JsonObject, path: string, why = "is required"): void {
  if (!has(body, path)) throw new StorageCodecError(path, why);
}

/** Throws unless one of `paths` (siblings under `parent`) is present. */
export function requireOneOf(body: JsonObject, parent: string, keys: readonly string[], context = ""): void {
  if (keys.some((k) => has(body, join(parent, k)))) return;
  const names = keys.map((k) => `\`${join(parent, k)}\``).join(" or ");
  throw new StorageCodecError(parent, `${names} is required${context}`);
}

/** A plain object member of an encoded body (for filling defaults). */
export function objectAt(body: JsonObject, path: string): JsonObject | undefined {
  const v = at(body, path);
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined;
}

/**
 * Returns `o` with `key` set to `value` when absent, keeping schema order by
 * rebuilding the object in the order of `order`.
 */
export function withDefault(o: JsonObject, key: string, value: JsonValue, order: readonly string[]): JsonObject {
  if (own(o, key)) return o;
  const out: JsonObject = {};
  for (const k of order) {
    if (k === key) out[k] = value;
    else if (own(o, k)) out[k] = o[k] as JsonValue;
  }
  for (const k of Object.keys(o)) if (!own(out, k)) out[k] = o[k] as JsonValue;
  return out;
}

/** Size encoder that rounds values below `floor` up to it, passing `-1` through when allowed. */
export function sizeWithFloor(floor: number, allowUnlimited: boolean) {
  return (value: unknown, path: string): JsonValue => {
    if (allowUnlimited && (value === -1 || value === "-1")) return -1;
    const bytes = parseSize(value, path);
    return Math.max(bytes, floor);
  };
}

/** String encoder refusing values shorter than `min` or longer than `max` characters (UTF-16 code units, as the server counts). */
export function stringLength(min: number, max: number) {
  return (value: unknown, path: string): JsonValue => {
    if (typeof value !== "string") throw wrongType(path, "a string", value);
    if (value.length < min)
      throw new StorageCodecError(path, min === 1 ? "must not be empty" : `must be at least ${min} characters long`);
    if (value.length > max)
      throw new StorageCodecError(path, `must be at most ${max} characters long, got ${value.length}`);
    return value;
  };
}

/** Size encoder refusing values outside `min`..`max` bytes. */
export function sizeInRange(min: number, max: number) {
  return (value: unknown, path: string): JsonValue => {
    const bytes = parseSize(value, path);
    if (bytes < min || bytes > max)
      throw new StorageCodecError(path, `must be between ${min} and ${max} bytes, got ${bytes}`);
    return bytes;
  };
}

/** Decodes an error code: a string of digits on the wire; an integer is accepted and written as its decimal string. */
export function decodeErrorCode(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  throw new StorageCodecError(path, `must be a string (or an integer), got ${describe(value)}`);
}
