// File clone tokens: /api/storage/file/clone/tokens.

import type { SizeInput } from "./common.js";
import { StorageCodecError } from "./errors.js";
import {
  decodeBody,
  duration,
  encodeBody,
  f,
  links,
  obj,
  requireField,
  size,
  sizeWithFloor,
  str,
  type InferModel,
  type JsonObject,
  type JsonValue,
} from "./schema.js";
import { parseDuration, showValue } from "./units.js";

/**
 * A token lifetime on input: whole seconds as a number (`4200`) or a digit string
 * (`"4200"`), or an ISO 8601 duration (`"PT1H10M"`). It is sent as a string of
 * seconds (`"4200"`).
 *
 * @example
 * ```ts
 * import { cloneToken, type LifetimeInput } from "clusterwire/storage";
 *
 * const limit: LifetimeInput = "PT1H30M"; // or 5400, or "5400"
 * const body = cloneToken.encodePatch({ expiry_time: { limit } });
 * ```
 */
export type LifetimeInput = number | string;

/**
 * The body of a clone token creation (POST), as {@link cloneToken}.encodePost takes it.
 *
 * @example
 * ```ts
 * import { cloneToken, type CloneTokenPostInput } from "clusterwire/storage";
 *
 * const input: CloneTokenPostInput = { node: { uuid: "00000000-0000-4000-8000-a00000000001" }, reserve_size: "1G", expiry_time: { limit: "PT2H" } };
 * const body = cloneToken.encodePost(input);
 * ```
 */
export interface CloneTokenPostInput {
  /** The node the token is for, by uuid. */
  node: { uuid: string };
  /** Raised to 4096 bytes (4 KiB) when smaller. */
  reserve_size: SizeInput;
  /** Absent: the server applies its default `"60"`; `{}`: sent as `{"limit": "60"}`. */
  expiry_time?: { limit?: LifetimeInput };
}

/**
 * The body of a clone token change (PATCH): a new lifetime.
 *
 * @example
 * ```ts
 * import { cloneToken, type CloneTokenPatchInput } from "clusterwire/storage";
 *
 * const patch: CloneTokenPatchInput = { expiry_time: { limit: 3600 } };
 * console.log(cloneToken.encodePatch(patch)); // { expiry_time: { limit: "3600" } }
 * ```
 */
export interface CloneTokenPatchInput {
  /** The token's new lifetime. */
  expiry_time: { limit: LifetimeInput };
}

/**
 * Minimum `reserve_size`: 4 KiB. Smaller values are rounded up to it.
 *
 * @example
 * ```ts
 * import { CLONE_TOKEN_MIN_RESERVE_SIZE, cloneToken } from "clusterwire/storage";
 *
 * const body = cloneToken.encodePost({ node: { uuid: "00000000-0000-4000-8000-a00000000001" }, reserve_size: 100 });
 * console.log(body["reserve_size"] === CLONE_TOKEN_MIN_RESERVE_SIZE); // true: raised to 4096
 * ```
 */
export const CLONE_TOKEN_MIN_RESERVE_SIZE = 4096;
/**
 * Default `expiry_time.limit` on POST, as sent: the string "60".
 *
 * @example
 * ```ts
 * import { CLONE_TOKEN_DEFAULT_LIMIT, cloneToken } from "clusterwire/storage";
 *
 * const body = cloneToken.encodePost({ node: { uuid: "00000000-0000-4000-8000-a00000000001" }, reserve_size: "1M", expiry_time: {} });
 * console.log(body["expiry_time"], CLONE_TOKEN_DEFAULT_LIMIT); // { limit: "60" } "60"
 * ```
 */
export const CLONE_TOKEN_DEFAULT_LIMIT = "60";
/**
 * `expiry_time.limit` in seconds: at least 1 (a token that has already expired when it is
 * made is refused by the reference server), at most 9 999 999 999 (ten digits, the longest
 * string of seconds the reference server reads). The spec and upstream give no bounds.
 *
 * @example
 * ```ts
 * import { CLONE_TOKEN_LIMIT_RANGE, cloneToken } from "clusterwire/storage";
 *
 * const body = cloneToken.encodePatch({ expiry_time: { limit: CLONE_TOKEN_LIMIT_RANGE.max } });
 * ```
 */
export const CLONE_TOKEN_LIMIT_RANGE = { min: 1, max: 9_999_999_999 } as const;

function checkLifetime(seconds: number, value: unknown, path: string): string {
  if (seconds < CLONE_TOKEN_LIMIT_RANGE.min || seconds > CLONE_TOKEN_LIMIT_RANGE.max) {
    throw new StorageCodecError(
      path,
      `invalid lifetime ${showValue(value)}: must be between ${CLONE_TOKEN_LIMIT_RANGE.min} and ${CLONE_TOKEN_LIMIT_RANGE.max} seconds`,
    );
  }
  return String(seconds);
}

/** Lifetime input → string of whole seconds. */
export function encodeLifetime(value: unknown, path: string): JsonValue {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new StorageCodecError(path, `invalid lifetime ${showValue(value)}: must be a whole number of seconds`);
    }
    return checkLifetime(value, value, path);
  }
  if (typeof value === "string") {
    if (/^[0-9]+$/.test(value)) {
      const n = Number(value);
      if (!Number.isSafeInteger(n))
        throw new StorageCodecError(path, `invalid lifetime ${showValue(value)}: too large`);
      return checkLifetime(n, value, path);
    }
    if (value.startsWith("P")) return checkLifetime(parseDuration(value, path), value, path);
  }
  throw new StorageCodecError(
    path,
    `invalid lifetime ${showValue(value)}: expected seconds (number or digit string) or an ISO 8601 duration such as "PT1H10M"`,
  );
}

/** The schema (exported for type-level tests; not part of the public surface). */
export const schema = obj({
  node: f("GP", obj({ uuid: str, name: f("G", str), _links: f("G", links) })),
  uuid: f("G", str),
  reserve_size: f("GP", size, { encode: sizeWithFloor(CLONE_TOKEN_MIN_RESERVE_SIZE, false) }),
  expiry_time: f(
    "GPU",
    obj(
      { limit: f("GPU", duration, { encode: encodeLifetime }), left: f("G", duration) },
      {
        POST: { limit: CLONE_TOKEN_DEFAULT_LIMIT },
      },
    ),
  ),
  _links: f("G", links),
});

/**
 * A clone token as the API returns it, inferred from the schema. `expiry_time.limit` / `.left` are ISO 8601 durations (see `parseDuration`); `reserve_size` is in bytes.
 *
 * @example
 * ```ts
 * import { type CloneToken, parseDuration } from "clusterwire/storage";
 *
 * const secondsLeft = (token: CloneToken): number | undefined =>
 *   token.expiry_time?.left === undefined ? undefined : parseDuration(token.expiry_time.left);
 * ```
 */
export type CloneToken = InferModel<typeof schema>;

/**
 * The codec of clone tokens: decodes records and encodes POST and PATCH bodies.
 *
 * @example
 * ```ts
 * import { cloneToken } from "clusterwire/storage";
 *
 * const body = cloneToken.encodePost({ node: { uuid: "00000000-0000-4000-8000-a00000000001" }, reserve_size: "1M" });
 * console.log(body); // { node: { uuid: ... }, reserve_size: 1048576 }
 * ```
 */
export const cloneToken = {
  /** A token record from GET or a POST answer. */
  decode(json: unknown): CloneToken {
    return decodeBody(schema, json);
  },
  /** POST body: `node.uuid` and `reserve_size` required; `reserve_size` in bytes, at least 4096. */
  encodePost(input: CloneTokenPostInput): JsonObject {
    const body = encodeBody(schema, input, "POST");
    requireField(body, "node.uuid");
    requireField(body, "reserve_size");
    return body;
  },
  /** PATCH body: `expiry_time.limit` (required), sent as a string of seconds. */
  encodePatch(input: CloneTokenPatchInput): JsonObject {
    const body = encodeBody(schema, input, "PATCH");
    requireField(body, "expiry_time.limit");
    return body;
  },
} as const;
