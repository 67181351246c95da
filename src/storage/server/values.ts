// Request-body validation of the reference server: its own small Size and duration
// parsers (a Size is a whole count of bytes: an integer, or digits with an optional binary
// suffix; a duration is ISO 8601 with integer parts) and a tiny schema language for POST/PATCH bodies.
// Deliberately independent of the codecs so both can be tested against each other.

import { HttpError, SERVER_ERROR_CODES, invalid, notAllowed, outOfRange, unexpected } from "./errors.js";
import { type Json, type JsonObject, MAX_JSON_DEPTH, isObject } from "./json.js";

const SIZE_UNITS: Readonly<Record<string, number>> = {
  "": 1,
  B: 1,
  K: 1024,
  KB: 1024,
  M: 1024 ** 2,
  MB: 1024 ** 2,
  G: 1024 ** 3,
  GB: 1024 ** 3,
  T: 1024 ** 4,
  TB: 1024 ** 4,
  P: 1024 ** 5,
  PB: 1024 ** 5,
};

/**
 * A Size in bytes from an integer or a string of digits with an optional binary suffix
 * (K/KB … P/PB, B). Returns undefined for anything else; `-1` only when allowed.
 */
export function parseSizeValue(v: unknown, allowMinusOne = false): number | undefined {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) return undefined;
    if (v === -1 && allowMinusOne) return -1;
    return v >= 0 ? v : undefined;
  }
  if (typeof v !== "string") return undefined;
  if (v === "-1" && allowMinusOne) return -1;
  const m = /^([0-9]+)([A-Za-z]{0,2})$/.exec(v);
  if (m === null) return undefined;
  const unit = SIZE_UNITS[(m[2] as string).toUpperCase()];
  if (unit === undefined) return undefined;
  const n = Number(m[1]) * unit;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Seconds as an ISO 8601 duration `P[nD][T[nH][nM][nS]]`; 0 is `PT0S`. */
export function formatDurationSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total));
  const days = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  let out = "P";
  if (days > 0) out += `${days}D`;
  if (h > 0 || m > 0 || sec > 0 || days === 0) {
    out += "T";
    if (h > 0) out += `${h}H`;
    if (m > 0) out += `${m}M`;
    if (sec > 0 || (h === 0 && m === 0)) out += `${sec}S`;
  }
  return out;
}

/** An ISO 8601 duration with integer D/H/M/S parts in seconds, or undefined. */
export function parseDurationSeconds(v: string): number | undefined {
  const m = /^P(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?$/.exec(v);
  if (m === null || v === "P" || v.endsWith("T")) return undefined;
  const [, d, h, mi, s] = m;
  const n = Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(mi ?? 0) * 60 + Number(s ?? 0);
  return Number.isSafeInteger(n) ? n : undefined;
}

// ---------------------------------------------------------------------------------------
// Schemas.

export type Schema =
  | { readonly t: "string"; readonly enum?: readonly string[]; readonly maxLength?: number }
  | { readonly t: "boolean"; readonly lenient?: boolean }
  | { readonly t: "integer"; readonly min?: number; readonly max?: number }
  | { readonly t: "size"; readonly allowMinusOne?: boolean }
  | { readonly t: "seconds" }
  | ObjectSchema
  | { readonly t: "array"; readonly items: Schema };

export interface ObjectSchema {
  readonly t: "object";
  readonly fields: Readonly<Record<string, Schema>>;
  /** Known, readable members this operation refuses (read-only or not for this verb). */
  readonly refused?: readonly string[];
}

export const str = (extra: { enum?: readonly string[]; maxLength?: number } = {}): Schema => ({
  t: "string",
  ...extra,
});
export const bool: Schema = { t: "boolean" };
export const int = (min?: number, max?: number): Schema => ({
  t: "integer",
  ...(min === undefined ? {} : { min }),
  ...(max === undefined ? {} : { max }),
});
export const size = (allowMinusOne = false): Schema => ({ t: "size", allowMinusOne });
export const obj = (fields: Record<string, Schema>, refused: readonly string[] = []): ObjectSchema => ({
  t: "object",
  fields,
  refused,
});
export const arr = (items: Schema): Schema => ({ t: "array", items });
/** `{uuid, name}` reference objects; `_links` is refused. */
export const ref = (...extraRefused: string[]): ObjectSchema =>
  obj({ uuid: str(), name: str() }, ["_links", ...extraRefused]);

const typeName = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

// A member only if the object itself has it: inherited names such as
// "constructor" are not fields.
function own(o: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/**
 * Expands dotted keys (`{"space.block_size": 512}`, accepted upstream as well as nested
 * objects) into nested objects; conflicting spellings are refused.
 */
export function expandDottedKeys(v: Json, path = ""): Json {
  if (Array.isArray(v)) return v.map((x, i) => expandDottedKeys(x, `${path}[${i}]`));
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(v)) {
    const parts = key.split(".");
    // "__proto__" is never a field, and as a segment it would reach Object.prototype.
    // No field is MAX_JSON_DEPTH levels deep: a key of thousands of dots is refused before
    // it is expanded (expanding it would nest that deep and cost time quadratic in its length).
    if (parts.length > MAX_JSON_DEPTH || parts.some((p) => p === "" || p === "__proto__")) {
      throw unexpected(path === "" ? key : `${path}.${key}`);
    }
    let node = out;
    parts.forEach((part, i) => {
      const here = [path, ...parts.slice(0, i + 1)].filter((s) => s !== "").join(".");
      if (i === parts.length - 1) {
        const value = expandDottedKeys(raw, here);
        const prev = own(node, part);
        if (prev === undefined) node[part] = value;
        else if (isObject(prev) && isObject(value)) {
          for (const [k, x] of Object.entries(value)) {
            if (own(prev, k) !== undefined) throw invalid(`${here}.${k}`, `Field "${here}.${k}" is given twice.`);
            prev[k] = x;
          }
        } else throw invalid(here, `Field "${here}" is given twice.`);
        return;
      }
      const prev = own(node, part);
      if (prev === undefined) {
        const next: JsonObject = {};
        node[part] = next;
        node = next;
      } else if (isObject(prev)) node = prev;
      else throw invalid(here, `Field "${here}" is given twice.`);
    });
  }
  return out;
}

/** Validates `v` against `schema`, returning the normalized value (Sizes in bytes). */
export function validate(v: Json, schema: Schema, path: string): Json {
  const target = path === "" ? "body" : path;
  switch (schema.t) {
    case "string": {
      if (typeof v !== "string") throw invalid(target, `Field "${target}" must be a string, not ${typeName(v)}.`);
      if (schema.enum !== undefined && !schema.enum.includes(v)) {
        throw invalid(target, `Field "${target}" must be one of ${schema.enum.join(", ")}.`);
      }
      if (schema.maxLength !== undefined && v.length > schema.maxLength) {
        throw outOfRange(target, `Field "${target}" is longer than ${schema.maxLength} characters.`);
      }
      return v;
    }
    case "boolean": {
      if (typeof v === "boolean") return v;
      if (schema.lenient === true && typeof v === "string") {
        const l = v.toLowerCase();
        if (l === "on" || l === "true") return true;
        if (l === "off" || l === "false") return false;
      }
      throw invalid(target, `Field "${target}" must be a boolean, not ${typeName(v)}.`);
    }
    case "integer": {
      if (typeof v !== "number" || !Number.isSafeInteger(v)) {
        throw invalid(target, `Field "${target}" must be an integer.`);
      }
      if ((schema.min !== undefined && v < schema.min) || (schema.max !== undefined && v > schema.max)) {
        throw outOfRange(
          target,
          `Field "${target}" must be in the range ${schema.min ?? "-inf"}..${schema.max ?? "inf"}.`,
        );
      }
      return v;
    }
    case "size": {
      const n = parseSizeValue(v, schema.allowMinusOne === true);
      if (n === undefined) {
        throw invalid(
          target,
          `Field "${target}" must be a size: an integer number of bytes or digits with a K, M, G, T or P suffix.`,
        );
      }
      return n;
    }
    case "seconds": {
      if (typeof v !== "string" || !/^[0-9]{1,10}$/.test(v)) {
        throw invalid(target, `Field "${target}" must be a string holding a number of seconds.`);
      }
      return Number(v);
    }
    case "array": {
      if (!Array.isArray(v)) throw invalid(target, `Field "${target}" must be an array, not ${typeName(v)}.`);
      return v.map((x, i) => validate(x, schema.items, `${path}[${i}]`));
    }
    case "object": {
      if (!isObject(v)) throw invalid(target, `Field "${target}" must be an object, not ${typeName(v)}.`);
      const out: JsonObject = {};
      for (const [k, x] of Object.entries(v)) {
        const here = path === "" ? k : `${path}.${k}`;
        // Own fields only: an inherited name such as "constructor" is an unknown field.
        const sub = Object.hasOwn(schema.fields, k) ? schema.fields[k] : undefined;
        if (sub === undefined) {
          if (schema.refused?.includes(k) === true) throw notAllowed(here);
          throw unexpected(here);
        }
        out[k] = validate(x, sub, here);
      }
      return out;
    }
  }
}

/** Validates a whole request body (dotted keys expanded first). */
export function validateBody(body: Json, schema: ObjectSchema): JsonObject {
  if (!isObject(body)) {
    throw new HttpError(400, SERVER_ERROR_CODES.MALFORMED_BODY, "The request body must be a JSON object.", "body");
  }
  return validate(expandDottedKeys(body), schema, "") as JsonObject;
}

// Small accessors over validated bodies.
export const sub = (o: JsonObject | undefined, k: string): JsonObject | undefined => {
  const v = o?.[k];
  return isObject(v) ? v : undefined;
};
export const text = (o: JsonObject | undefined, k: string): string | undefined => {
  const v = o?.[k];
  return typeof v === "string" ? v : undefined;
};
export const num = (o: JsonObject | undefined, k: string): number | undefined => {
  const v = o?.[k];
  return typeof v === "number" ? v : undefined;
};
export const flag = (o: JsonObject | undefined, k: string): boolean | undefined => {
  const v = o?.[k];
  return typeof v === "boolean" ? v : undefined;
};
