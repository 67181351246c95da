import type { Message } from "@bufbuild/protobuf";
import type { JsonValueReader } from "../../../../gen/clusterwire/json_runtime.js";
import type { NetworkingObject } from "../../model/kinds.js";
import { parseRfc3339 } from "../../model/time.js";
import { setOwn } from "../../model/set-own.js";
import { findKindField } from "../find-kind.js";
import { codecOfKind, rfc3339Utc } from "./fast-text.js";
import { goString } from "./parse.js";
import { quote } from "./fast-write.js";
import { sortedKeys } from "./print.js";
import { MAX_RAW_DEPTH } from "./raw-value.js";

/*
 * The common path of fromJson(value), for an already parsed JSON value: the
 * generated per-message value readers (plugin/emit-json.ts, the `_json.ts`
 * files in gen/) read through this JsonValueReader. It gives up on anything
 * the generic decoder (from-json.ts) would refuse or treat specially (an
 * object that is not plain, a number that is not a safe integer, a bigint in
 * an int32, a key with a surrogate in a map, strict mode's unknown fields, a
 * top-level key that differs from kind or apiVersion only in case),
 * and the caller runs the generic decoder, which stays the specification.
 */

const BAIL: unique symbol = Symbol("bail");

function bail(): never {
  throw BAIL;
}

type AnyMessage = Message & Record<string, unknown>;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const encoder = new TextEncoder();
const hasOwn = Object.prototype.hasOwnProperty;

/** Plain objects only: the generic decoder reads others (class instances, say) its own way. */
function isPlain(v: unknown): v is { [key: string]: unknown } {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Array indexes as object keys: a JS object lists them first, whatever order they were set in. */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;

/**
 * printGoJson(sortDeep("json", v, 0)) in one pass, without the sorted copy;
 * gives up where sortDeep would refuse, and on index-like keys (whose order
 * the copy changes). Hand-written because the profile put the copy at most of
 * fromJson(value) on an object with a sizeable managedFields entry.
 */
function sortedJson(v: unknown, depth: number): string {
  switch (typeof v) {
    case "string":
      return quote(v);
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
    case "number":
      if (!Number.isFinite(v)) bail();
      return v === 0 ? "0" : String(v);
    case "object":
      break;
    default:
      return bail();
  }
  if (v === null) return "null";
  if (depth > MAX_RAW_DEPTH) bail();
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += (i > 0 ? "," : "") + sortedJson(v[i], depth + 1);
    return out + "]";
  }
  if (!isPlain(v)) bail();
  const keys = sortedKeys(v);
  let out = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const x = v[k];
    if (x === undefined) continue;
    if (INDEX_KEY.test(k)) bail();
    out += (first ? "" : ",") + quote(k) + ":" + sortedJson(x, depth + 1);
    first = false;
  }
  return out + "}";
}

class ValueReader implements JsonValueReader {
  constructor(readonly strict: boolean) {}

  bail(): never {
    throw BAIL;
  }

  object(v: unknown): { [key: string]: unknown } {
    if (!isPlain(v)) bail();
    return v;
  }

  array(v: unknown): readonly unknown[] {
    if (!Array.isArray(v)) bail();
    return v;
  }

  string(v: unknown): string {
    if (typeof v !== "string") bail();
    // Go reads a lone surrogate (no UTF-8 form) as U+FFFD.
    return goString(v);
  }

  boolean(v: unknown): boolean {
    if (typeof v !== "boolean") bail();
    return v;
  }

  integer32(v: unknown): number {
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < -0x80000000 || v > 0x7fffffff) bail();
    return v === 0 ? 0 : v; // not -0
  }

  integer64(v: unknown): bigint {
    if (typeof v === "number") {
      if (!Number.isSafeInteger(v)) bail();
      return BigInt(v);
    }
    if (typeof v !== "bigint" || v < INT64_MIN || v > INT64_MAX) bail();
    return v;
  }

  time(m: Message, v: unknown): void {
    if (typeof v !== "string") bail();
    const seconds = rfc3339Utc(v) ?? parseRfc3339(v);
    if (typeof seconds === "string") bail();
    (m as AnyMessage)["seconds"] = seconds;
  }

  intOrString(m: Message, v: unknown): void {
    const o = m as AnyMessage;
    if (typeof v === "string") {
      o["type"] = 1n;
      o["intVal"] = 0;
      o["strVal"] = goString(v);
    } else {
      o["type"] = 0n;
      o["intVal"] = this.integer32(v);
      o["strVal"] = "";
    }
  }

  fieldsV1(m: Message, v: unknown): void {
    // As Go's YAML-to-JSON step writes it: compact, keys sorted (see json-raw-value.ts).
    (m as AnyMessage)["Raw"] = encoder.encode(sortedJson(v, 0));
  }

  stringMap(map: { [key: string]: string }, v: unknown): void {
    if (!isPlain(v)) bail();
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const e = v[k];
      if (e === undefined) continue;
      // Keys with lone surrogates may collide once Go has read them: the generic path decides.
      if (goString(k) !== k || hasOwn.call(map, k)) bail();
      setOwn(map, k, e === null ? "" : this.string(e));
    }
  }

  typeMeta(v: unknown): void {
    if (v !== null && typeof v !== "string") bail();
  }

  unknown(): void {
    if (this.strict) bail();
  }
}

/**
 * fromJson(value) on the common path: the typed object, or undefined when the
 * value needs the generic decoder (see the comment at the top).
 */
export function fastFromJsonValue(value: unknown, strict: boolean): NetworkingObject | undefined {
  if (!isPlain(value)) return undefined;
  const apiVersion = hasOwn.call(value, "apiVersion") ? value["apiVersion"] : undefined;
  const kind = hasOwn.call(value, "kind") ? value["kind"] : undefined;
  if (typeof apiVersion !== "string" || typeof kind !== "string") return undefined;
  const codec = codecOfKind(apiVersion, kind);
  if (codec === undefined) return undefined;
  // A key the API server's first look reads as kind or apiVersion (`Kind`, say) besides those two.
  for (const k in value) if (k !== "kind" && k !== "apiVersion" && findKindField(k) !== undefined) return undefined;
  try {
    const m = codec.create();
    codec.readValue(new ValueReader(strict), value, m as never);
    return m as NetworkingObject;
  } catch {
    // Whatever the reason (a value the generic decoder refuses, a cycle), it decides.
    return undefined;
  }
}
