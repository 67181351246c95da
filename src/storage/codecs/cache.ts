// Volume caches: /api/storage/cache/caches.

import type { ReferenceInput, SizeInput } from "./common.js";
import { StorageCodecError } from "./errors.js";
import { parseSize } from "./units.js";
import {
  arr,
  bool,
  datetime,
  decodeBody,
  encodeBody,
  enm,
  f,
  int,
  links,
  obj,
  requireField,
  requireOneOf,
  size,
  str,
  stringLength,
  type InferModel,
  type InferPatchInput,
  type JsonObject,
  type JsonValue,
} from "./schema.js";

/**
 * The values the API defines for a cache origin's `state`.
 *
 * @example
 * ```ts
 * import { CACHE_ORIGIN_STATES, type CacheOriginState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (CACHE_ORIGIN_STATES as readonly unknown[]).includes(value);
 * const first: CacheOriginState = CACHE_ORIGIN_STATES[0];
 * ```
 */
export const CACHE_ORIGIN_STATES = ["error", "mixed", "offline", "online"] as const;
/**
 * A cache origin's `state`: one of {@link CACHE_ORIGIN_STATES}.
 *
 * @example
 * ```ts
 * import { CACHE_ORIGIN_STATES, type CacheOriginState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (CACHE_ORIGIN_STATES as readonly unknown[]).includes(value);
 * const first: CacheOriginState = CACHE_ORIGIN_STATES[0];
 * ```
 */
export type CacheOriginState = (typeof CACHE_ORIGIN_STATES)[number];
/**
 * The values the API defines for a cache's `guarantee.type`.
 *
 * @example
 * ```ts
 * import { CACHE_GUARANTEE_TYPES, type CacheGuaranteeType } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (CACHE_GUARANTEE_TYPES as readonly unknown[]).includes(value);
 * const first: CacheGuaranteeType = CACHE_GUARANTEE_TYPES[0];
 * ```
 */
export const CACHE_GUARANTEE_TYPES = ["volume", "none"] as const;
/**
 * A cache's `guarantee.type`: one of {@link CACHE_GUARANTEE_TYPES}.
 *
 * @example
 * ```ts
 * import { CACHE_GUARANTEE_TYPES, type CacheGuaranteeType } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (CACHE_GUARANTEE_TYPES as readonly unknown[]).includes(value);
 * const first: CacheGuaranteeType = CACHE_GUARANTEE_TYPES[0];
 * ```
 */
export type CacheGuaranteeType = (typeof CACHE_GUARANTEE_TYPES)[number];

/**
 * The body of a cache creation (POST), as {@link cache}.encodePost takes it: Size fields take bytes or strings such
 * as `"10G"`.
 *
 * @example
 * ```ts
 * import { cache, type CachePostInput } from "clusterwire/storage";
 *
 * const input: CachePostInput = { name: "cache1", svm: { name: "svm2" }, origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }], size: "10G" };
 * const body = cache.encodePost(input);
 * ```
 */
export interface CachePostInput {
  /** The cache volume's name. */
  name: string;
  /** `uuid` or `name` required. */
  svm: ReferenceInput;
  /** At least one origin; each needs `volume.name` or `volume.uuid`, and `svm.name`. */
  origins: Array<{ svm: ReferenceInput; volume: ReferenceInput }>;
  /** The aggregates to create the cache on. */
  aggregates?: ReferenceInput[];
  /** Starts with `/`, does not end with `/`. */
  path?: string;
  /** The cache's size: bytes, or a Size string such as `"10G"`. */
  size?: SizeInput;
  /** `type` defaults to "none" when `guarantee` is given. */
  guarantee?: { type?: CacheGuaranteeType };
  /** Constituents per aggregate (FlexGroup caches). */
  constituents_per_aggregate?: SizeInput;
  /** Whether to place the cache on tiered (FabricPool) aggregates. */
  use_tiered_aggregate?: boolean;
  /** Whether locks are refused while the origin is disconnected. */
  is_disconnected_mode_off_for_locks?: boolean;
  /** Whether the cache is a disaster-recovery cache. */
  dr_cache?: boolean;
  /** Whether file locking is global across the cache and its origin. */
  global_file_locking_enabled?: boolean;
  /** Whether to create the cache unencrypted when the origin is encrypted. */
  override_encryption?: boolean;
  /** `enabled` defaults to false when given. */
  writeback?: { enabled?: boolean };
  /** Defaults when given: `enabled` false, `percentage` 10. */
  relative_size?: { enabled?: boolean; percentage?: number };
  /** Defaults when given: `enabled` false, `period` 30 (days). */
  atime_scrub?: { enabled?: boolean; period?: number };
  /** `enabled` defaults to false when given. */
  cifs_change_notify?: { enabled?: boolean };
  /** Directories to fill the cache with after creation. */
  prepopulate?: CachePrepopulateInput;
}

/**
 * Default `relative_size.percentage` (percent of the origin size).
 *
 * @example
 * ```ts
 * import { cache, CACHE_DEFAULT_RELATIVE_SIZE_PERCENTAGE } from "clusterwire/storage";
 *
 * const body = cache.encodePost({
 *   name: "cache1",
 *   svm: { name: "svm2" },
 *   origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }],
 *   relative_size: { enabled: true, percentage: CACHE_DEFAULT_RELATIVE_SIZE_PERCENTAGE },
 * });
 * ```
 */
export const CACHE_DEFAULT_RELATIVE_SIZE_PERCENTAGE = 10;
/**
 * Default `atime_scrub.period` (days).
 *
 * @example
 * ```ts
 * import { cache, CACHE_DEFAULT_ATIME_SCRUB_PERIOD } from "clusterwire/storage";
 *
 * const body = cache.encodePost({
 *   name: "cache1",
 *   svm: { name: "svm2" },
 *   origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }],
 *   atime_scrub: { enabled: true, period: CACHE_DEFAULT_ATIME_SCRUB_PERIOD * 2 },
 * });
 * ```
 */
export const CACHE_DEFAULT_ATIME_SCRUB_PERIOD = 30;

// Limits the API definition does not state. `name`: 1..203 characters, upstream's documented
// length ("string 1..203"). `relative_size.percentage`: 1..100, a percent
// of the origin (0 would be an empty cache); `atime_scrub.period`: 1..36500 days (at least a
// day, at most a hundred years). Neither range is documented upstream or in the spec; these
// are the reference server's bounds, kept the same here so that the codec refuses before
// sending what the server refuses.
// `constituents_per_aggregate` is at least 1, and a `size` given is at least 1 GiB per
// constituent (the spec: "minimum constituent size is 1 GB"; constituents = aggregates ×
// constituents_per_aggregate, default 4, as the reference server counts them). A `size` cannot
// be given with `relative_size.enabled` true: the size then follows the origin.
/**
 * Smallest size of one constituent: 1 GiB.
 *
 * @example
 * ```ts
 * import { cache, CACHE_MIN_CONSTITUENT_SIZE } from "clusterwire/storage";
 *
 * const body = cache.encodePost({
 *   name: "cache1",
 *   svm: { name: "svm2" },
 *   origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }],
 *   size: CACHE_MIN_CONSTITUENT_SIZE * 4,
 * });
 * ```
 */
export const CACHE_MIN_CONSTITUENT_SIZE = 1024 ** 3;
/**
 * `constituents_per_aggregate` when aggregates are given without it.
 *
 * @example
 * ```ts
 * import { cache, CACHE_DEFAULT_CONSTITUENTS_PER_AGGREGATE } from "clusterwire/storage";
 *
 * const body = cache.encodePost({
 *   name: "cache1",
 *   svm: { name: "svm2" },
 *   origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }],
 *   constituents_per_aggregate: CACHE_DEFAULT_CONSTITUENTS_PER_AGGREGATE,
 * });
 * ```
 */
export const CACHE_DEFAULT_CONSTITUENTS_PER_AGGREGATE = 4;
/**
 * `name` length in characters: 1..203.
 *
 * @example
 * ```ts
 * import { CACHE_NAME_LENGTH } from "clusterwire/storage";
 *
 * const fits = (name: string): boolean => name.length <= CACHE_NAME_LENGTH.max;
 * ```
 */
export const CACHE_NAME_LENGTH = { min: 1, max: 203 } as const;
/**
 * `relative_size.percentage`: 1..100.
 *
 * @example
 * ```ts
 * import { cache, CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE } from "clusterwire/storage";
 *
 * const body = cache.encodePost({
 *   name: "cache1",
 *   svm: { name: "svm2" },
 *   origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }],
 *   relative_size: { enabled: true, percentage: CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE.max },
 * });
 * ```
 */
export const CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE = { min: 1, max: 100 } as const;
/**
 * `atime_scrub.period` in days: 1..36500.
 *
 * @example
 * ```ts
 * import { cache, CACHE_ATIME_SCRUB_PERIOD_RANGE } from "clusterwire/storage";
 *
 * const body = cache.encodePost({
 *   name: "cache1",
 *   svm: { name: "svm2" },
 *   origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }],
 *   atime_scrub: { enabled: true, period: CACHE_ATIME_SCRUB_PERIOD_RANGE.min },
 * });
 * ```
 */
export const CACHE_ATIME_SCRUB_PERIOD_RANGE = { min: 1, max: 36500 } as const;

function encodeCachePath(value: unknown, path: string): JsonValue {
  if (typeof value !== "string") throw new StorageCodecError(path, "must be a string");
  if (!value.startsWith("/")) throw new StorageCodecError(path, `must start with "/", got ${JSON.stringify(value)}`);
  if (value.endsWith("/")) throw new StorageCodecError(path, `must not end with "/", got ${JSON.stringify(value)}`);
  return value;
}

function encodeConstituents(value: unknown, path: string): JsonValue {
  const n = parseSize(value, path);
  if (n < 1) throw new StorageCodecError(path, `must be at least 1, got ${n}`);
  return n;
}

/** The size rules of a POST body (see the comment on CACHE_MIN_CONSTITUENT_SIZE). */
function checkSize(body: JsonObject): void {
  const size = body["size"];
  if (typeof size !== "number") return;
  if ((body["relative_size"] as JsonObject | undefined)?.["enabled"] === true) {
    throw new StorageCodecError(
      "size",
      "cannot be given when relative_size.enabled is true (the size then follows the origin)",
    );
  }
  const aggregates = Array.isArray(body["aggregates"]) ? body["aggregates"].length : 0;
  const given = body["constituents_per_aggregate"];
  const perAggregate = typeof given === "number" ? given : CACHE_DEFAULT_CONSTITUENTS_PER_AGGREGATE;
  const constituents = aggregates > 0 ? aggregates * perAggregate : perAggregate;
  const floor = constituents * CACHE_MIN_CONSTITUENT_SIZE;
  if (size < floor)
    throw new StorageCodecError(
      "size",
      `must be at least 1 GiB per constituent (${constituents} constituents: ${floor} bytes), got ${size}`,
    );
}

/** `prepopulate.dir_paths` / `exclude_dir_paths` entries: directory paths from the volume root, starting with "/". */
function encodeDirPaths(value: unknown, path: string): JsonValue {
  if (!Array.isArray(value)) throw new StorageCodecError(path, "must be an array");
  return value.map((item: unknown, i) => {
    const p = `${path}[${i}]`;
    if (typeof item !== "string") throw new StorageCodecError(p, "must be a string");
    if (!item.startsWith("/")) throw new StorageCodecError(p, `must start with "/", got ${JSON.stringify(item)}`);
    return item;
  });
}

/**
 * A given `prepopulate` must list at least one directory: a PATCH with `prepopulate` "starts a
 * prepopulation of the listed directories" (the API definition), so one of no directory has nothing
 * to do, and the reference server refuses it.
 */
function checkPrepopulate(body: JsonObject): void {
  const pre = body["prepopulate"];
  if (pre === undefined) return;
  const dirs = (pre as JsonObject)["dir_paths"];
  if (!Array.isArray(dirs) || dirs.length === 0) {
    throw new StorageCodecError(
      "prepopulate.dir_paths",
      "is required (at least one directory) when prepopulate is given",
    );
  }
}

const ref = obj({ uuid: str, name: str, _links: f("G", links) });

const origin = obj({
  svm: ref,
  volume: ref,
  cluster: f("G", ref),
  ip_address: f("G", str),
  size: f("G", size),
  state: f("G", enm(CACHE_ORIGIN_STATES)),
  create_time: f("G", datetime),
});

/** The schema (exported for type-level tests; not part of the public surface). */
export const schema = obj({
  uuid: f("G", str),
  name: f("GP", str, { encode: stringLength(CACHE_NAME_LENGTH.min, CACHE_NAME_LENGTH.max) }),
  svm: f("GP", ref),
  origins: f("GP", arr(origin)),
  aggregates: f("GP", arr(ref)),
  path: f("GP", str, { encode: encodeCachePath }),
  size: f("GP", size),
  guarantee: f("GP", obj({ type: enm(CACHE_GUARANTEE_TYPES) }, { POST: { type: "none" } })),
  constituents_per_aggregate: f("GP", size, { encode: encodeConstituents }),
  use_tiered_aggregate: f("GP", bool),
  is_disconnected_mode_off_for_locks: f("P", bool),
  dr_cache: f("GP", bool),
  global_file_locking_enabled: f("GP", bool),
  override_encryption: f("GP", bool),
  writeback: f("GPU", obj({ enabled: bool }, { POST: { enabled: false } })),
  relative_size: f(
    "GPU",
    obj(
      {
        enabled: bool,
        percentage: int(CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE.min, CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE.max),
      },
      { POST: { enabled: false, percentage: CACHE_DEFAULT_RELATIVE_SIZE_PERCENTAGE } },
    ),
  ),
  atime_scrub: f(
    "GPU",
    obj(
      { enabled: bool, period: int(CACHE_ATIME_SCRUB_PERIOD_RANGE.min, CACHE_ATIME_SCRUB_PERIOD_RANGE.max) },
      { POST: { enabled: false, period: CACHE_DEFAULT_ATIME_SCRUB_PERIOD } },
    ),
  ),
  cifs_change_notify: f("GPU", obj({ enabled: bool }, { POST: { enabled: false } })),
  prepopulate: f(
    "PU",
    obj(
      {
        dir_paths: f("PU", arr(str), { encode: encodeDirPaths }),
        exclude_dir_paths: f("PU", arr(str), { encode: encodeDirPaths }),
        recurse: bool,
      },
      { POST: { recurse: true }, PATCH: { recurse: true } },
    ),
  ),
  _links: f("G", links),
});

/**
 * An origin of a cache as the API returns it (`origins[]`): `size` in bytes, `create_time` ISO 8601.
 *
 * @example
 * ```ts
 * import { type Cache, type CacheOrigin } from "clusterwire/storage";
 *
 * const offline = (c: Cache): CacheOrigin[] => (c.origins ?? []).filter((o) => o.state === "offline");
 * ```
 */
export type CacheOrigin = InferModel<typeof origin>;

/**
 * A cache as the API returns it, inferred from the schema. Expensive fields appear only when
 * requested; `prepopulate` is write-only upstream and kept if a server returns it.
 *
 * @example
 * ```ts
 * import { type Cache, type StorageClient } from "clusterwire/storage";
 *
 * const sizes = async (client: StorageClient): Promise<Record<string, number | undefined>> =>
 *   Object.fromEntries((await client.caches.all({ fields: "name,size" })).map((c: Cache) => [c.name, c.size]));
 * ```
 */
export type Cache = InferModel<typeof schema>;

/**
 * PATCH body, inferred from the schema (the members marked U): `prepopulate`, `writeback`,
 * `relative_size`, `atime_scrub`, `cifs_change_notify`, all optional. No POST defaults are
 * filled except `prepopulate.recurse` = true.
 *
 * @example
 * ```ts
 * import { cache, type CachePatchInput } from "clusterwire/storage";
 *
 * const patch: CachePatchInput = { writeback: { enabled: true } };
 * console.log(cache.encodePatch(patch));
 * ```
 */
export type CachePatchInput = InferPatchInput<typeof schema>;

/**
 * `prepopulate` on input: `dir_paths` (at least one, each starting with "/"), `exclude_dir_paths`, `recurse` (default true).
 *
 * @example
 * ```ts
 * import { cache, type CachePrepopulateInput } from "clusterwire/storage";
 *
 * const prepopulate: CachePrepopulateInput = { dir_paths: ["/projects"], recurse: true };
 * const body = cache.encodePatch({ prepopulate });
 * ```
 */
export type CachePrepopulateInput = NonNullable<CachePatchInput["prepopulate"]>;

/**
 * The codec of FlexCache volumes: decodes records and encodes POST and PATCH bodies, checking each field.
 *
 * @example
 * ```ts
 * import { cache } from "clusterwire/storage";
 *
 * const body = cache.encodePost({ name: "cache1", svm: { name: "svm2" }, origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }], size: "10G" });
 * console.log(body["size"]); // 10737418240
 * const record = cache.decode({ uuid: "00000000-0000-4000-8000-000000000001", name: "cache1" });
 * ```
 */
export const cache = {
  /** A cache record (collection item or single GET). */
  decode(json: unknown): Cache {
    return decodeBody(schema, json);
  },
  /**
   * POST body. Requires `name`, `svm.name`/`svm.uuid`, and at least one origin
   * with `volume.name`/`volume.uuid` and `svm.name`. Defaults are filled only
   * inside sub-objects given (`guarantee.type` "none", `writeback.enabled` false,
   * `relative_size` false/10, `atime_scrub` false/30, `cifs_change_notify.enabled`
   * false, `prepopulate.recurse` true).
   */
  encodePost(input: CachePostInput): JsonObject {
    const body = encodeBody(schema, input, "POST");
    requireField(body, "name");
    requireField(body, "svm");
    checkPrepopulate(body);
    checkSize(body);
    requireOneOf(body, "svm", ["name", "uuid"]);
    const origins = body["origins"];
    if (!Array.isArray(origins) || origins.length === 0) {
      throw new StorageCodecError("origins", "at least one origin is required");
    }
    origins.forEach((origin, i) => {
      const o = origin as JsonObject;
      const p = `origins[${i}]`;
      const volume = o["volume"] as JsonObject | undefined;
      if (volume === undefined) throw new StorageCodecError(`${p}.volume`, "is required");
      if (volume["name"] === undefined && volume["uuid"] === undefined) {
        throw new StorageCodecError(`${p}.volume`, `\`${p}.volume.name\` or \`${p}.volume.uuid\` is required`);
      }
      const svm = o["svm"] as JsonObject | undefined;
      if (svm?.["name"] === undefined) throw new StorageCodecError(`${p}.svm.name`, "is required");
    });
    if (body["global_file_locking_enabled"] === true && body["is_disconnected_mode_off_for_locks"] === false) {
      throw new StorageCodecError(
        "is_disconnected_mode_off_for_locks",
        "is always true when global_file_locking_enabled is true",
      );
    }
    return body;
  },
  /** PATCH body: `prepopulate.*`, `writeback`, `relative_size`, `atime_scrub`, `cifs_change_notify`. */
  encodePatch(input: CachePatchInput): JsonObject {
    const body = encodeBody(schema, input, "PATCH");
    checkPrepopulate(body);
    return body;
  },
} as const;
