// fast-check arbitraries for clusterwire/storage: the models a server returns
// (what the codecs' `decode` accepts) and the request bodies the codecs'
// `encodePost` / `encodePatch` accept, valid by construction under the
// storage API's rules and the codecs' own decisions.
//
// Everything is built with map() over records and tuples (no chain(), no
// filter()), so counterexamples shrink towards small, plain values: short
// names, `{name}` references, small sizes, absent optional members.

import fc from "fast-check";
import {
  CACHE_GUARANTEE_TYPES,
  CACHE_ORIGIN_STATES,
  CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE,
  FIRMWARE_PROGRESS_STATUSES,
  FIRMWARE_UPDATE_STATUSES,
  FIRMWARE_UPDATE_TYPES,
  JOB_STATES,
  METRIC_DURATIONS,
  METRIC_STATUSES,
  NAMESPACE_BLOCK_SIZES,
  NAMESPACE_CONTAINER_STATES,
  NAMESPACE_MAX_SIZE,
  NAMESPACE_OS_TYPES,
  NAMESPACE_STATES,
  PACKAGE_DELETE_ERRORS,
  PACKAGE_TRANSFER_ERRORS,
  PACKAGE_UPLOAD_ERRORS,
  QUOTA_RULE_TYPES,
  QUOTA_UNLIMITED,
  SOFTWARE_ACTIONS,
  SOFTWARE_CHECK_STATUSES,
  SOFTWARE_DOWNLOAD_STATES,
  SOFTWARE_HISTORY_STATES,
  SOFTWARE_STATES,
  SP_BMC_FW_TYPES,
  SP_BMC_IMAGES,
  SP_BMC_LAST_UPDATE_STATES,
  SP_BMC_STATES,
  formatDuration,
  type AcceptedResponse,
  type ApiErrorBody,
  type Cache,
  type CachePatchInput,
  type CachePostInput,
  type CloneToken,
  type CloneTokenPatchInput,
  type CloneTokenPostInput,
  type Collection,
  type Job,
  type Lenient,
  type LifetimeInput,
  type Links,
  type NvmeNamespace,
  type NvmeNamespacePatchInput,
  type NvmeNamespacePostInput,
  type QuotaRule,
  type QuotaRulePatchInput,
  type QuotaRulePostInput,
  type QuotaRuleType,
  type QuotaUserInput,
  type ReferenceInput,
  type SizeInput,
  type SoftwareAction,
  type SoftwareDownloadInput,
  type SoftwareDownloadProgress,
  type SoftwareHistoryRecord,
  type SoftwarePackage,
  type SoftwarePatchInput,
  type SoftwarePatchQuery,
  type SoftwareProfile,
} from "../storage/index.js";
import type { InventoryInput } from "../storage/server/index.js";

// ---- options ----------------------------------------------------------------------------------

/**
 * Options of the model arbitraries.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCacheModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCacheModel({ newerServer: true }), 2));
 * // newerServer: also fields a newer server may add, which decoders must keep or ignore
 * ```
 */
export interface StorageModelOptions {
  /**
   * Also produce what a newer server may send: enum values outside the known sets and an
   * unknown top-level member. The codecs keep both as given.
   */
  readonly newerServer?: boolean;
}

/**
 * Options of the request-body arbitraries.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { DEFAULT_INVENTORY } from "clusterwire/storage/server";
 * import { arbQuotaRulePost } from "clusterwire/testing";
 *
 * // Bodies that name only the SVMs, volumes and qtrees of the reference server's seeded inventory.
 * console.log(fc.sample(arbQuotaRulePost({ targets: DEFAULT_INVENTORY }), 2));
 * ```
 */
export interface StorageBodyOptions {
  /**
   * The objects bodies may name: nodes, SVMs, aggregates, volumes (with their SVM and
   * qtrees) and LUNs, e.g. the reference server's `DEFAULT_INVENTORY` or your cluster's.
   * Lists left out count as empty. Without targets, names and UUIDs are random.
   */
  readonly targets?: InventoryInput;
}

/**
 * Size bounds in bytes (inclusive).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageSize } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageSize({ min: 4096, max: 1024 ** 3 }), 3));
 * ```
 */
export interface StorageSizeRange {
  /** The smallest size, in bytes. */
  readonly min?: number;
  /** The largest size, in bytes. */
  readonly max?: number;
}

// ---- small helpers ----------------------------------------------------------------------------

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const TiB = 1024 ** 4;
const DAY = 86_400;

type Model = { [key: string]: unknown };
type Known = { readonly name: string; readonly uuid?: string | undefined };
type RefForm = "name" | "uuid" | "both";
const REF_FORMS: readonly RefForm[] = ["name", "uuid", "both"];

// Records always get Object.prototype: users compare values with deep equality.
function all<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> {
  return fc.record(model, { noNullPrototype: true }) as unknown as fc.Arbitrary<T>;
}
function some<T, K extends keyof T = never>(
  model: { [P in keyof T]: fc.Arbitrary<T[P]> },
  required: readonly K[] = [],
): fc.Arbitrary<Partial<T> & Pick<T, K>> {
  return fc.record(model, { requiredKeys: [...required], noNullPrototype: true }) as unknown as fc.Arbitrary<
    Partial<T> & Pick<T, K>
  >;
}
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
const isEmpty = (o: object): boolean => Object.keys(o).length === 0;

/** A reference to a known object in one of the three forms (`{name}` first, so it shrinks there). */
function refTo(o: Known, form: RefForm): ReferenceInput {
  if (o.uuid === undefined || form === "name") return { name: o.name };
  return form === "uuid" ? { uuid: o.uuid } : { name: o.name, uuid: o.uuid };
}

const selfLink = (href: string): Links => ({ self: { href } });

/** Drops every `_links` member: an `application/json` answer carries none (only `application/hal+json` has links). */
function withoutLinks<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => withoutLinks(v)) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Model = {};
  for (const [k, v] of Object.entries(value)) if (k !== "_links") out[k] = withoutLinks(v);
  return out as T;
}

/** HAL (`_links` kept) or plain JSON; plain shrinks first, being smaller. */
const halOrPlain = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.tuple(arb, fc.boolean()).map(([v, hal]) => (hal ? v : withoutLinks(v)));

const FUTURE_VALUES = ["degraded", "resyncing", "partially_online"] as const;

function enumOf<T extends string>(values: readonly T[], o: StorageModelOptions = {}): fc.Arbitrary<Lenient<T>> {
  const known = fc.constantFrom(...values);
  if (o.newerServer !== true) return known;
  return fc.oneof({ arbitrary: known, weight: 4 }, { arbitrary: fc.constantFrom<string>(...FUTURE_VALUES), weight: 1 });
}

const FUTURE_MEMBERS = ["snaplock", "anti_ransomware", "tiering"] as const;

/** With `newerServer`, sometimes one member no codec knows (kept as given on decode). */
function withNewer<T extends object>(arb: fc.Arbitrary<T>, o: StorageModelOptions): fc.Arbitrary<T> {
  if (o.newerServer !== true) return arb;
  return fc
    .tuple(arb, maybe(fc.tuple(fc.constantFrom(...FUTURE_MEMBERS), fc.constantFrom("enabled", "disabled"))))
    .map(([m, extra]) => (extra === undefined ? m : { ...m, [extra[0]]: { state: extra[1] } }));
}

function need<T>(list: readonly T[] | undefined, what: string, fn: string): readonly [T, ...T[]] {
  if (list === undefined || list.length === 0) throw new Error(`${fn}: the targets hold no ${what}`);
  return list as readonly [T, ...T[]];
}

interface TargetVolume extends Known {
  readonly svm: Known;
  readonly qtrees: readonly string[];
  readonly path: string | undefined;
  readonly online: boolean;
  readonly origin: boolean;
}

function targetVolumes(t: InventoryInput): TargetVolume[] {
  return (t.volumes ?? []).map((v) => ({
    name: v.name,
    uuid: v.uuid,
    svm: { name: v.svm, uuid: (t.svms ?? []).find((s) => s.name === v.svm)?.uuid },
    qtrees: v.qtrees ?? [],
    path: v.path,
    online: (v.state ?? "online") === "online",
    // A cache origin must be a standalone volume; an offline one makes the create job fail.
    origin: (v.style ?? "flexvol") === "flexvol" && (v.state ?? "online") === "online",
  }));
}

// ---- building blocks ----------------------------------------------------------------------------

const UNITS = [
  ["P", 1024 ** 5],
  ["T", TiB],
  ["G", GiB],
  ["M", MiB],
  ["K", KiB],
] as const;

/**
 * Byte counts: safe integers in [min, max] (default 0 .. 1 PiB; the codecs take up to
 * 2^53 − 1, pass `max: Number.MAX_SAFE_INTEGER` for that edge), often whole KiB, MiB, GiB,
 * TiB or PiB as real sizes are. Shrinks towards `min`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { formatSize, parseSize } from "clusterwire/storage";
 * import { arbStorageSize } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbStorageSize({ min: 4096 }), (bytes) => parseSize(formatSize(bytes)) === bytes));
 * ```
 */
export function arbStorageSize(range: StorageSizeRange = {}): fc.Arbitrary<number> {
  const min = range.min ?? 0;
  const max = range.max ?? 1024 ** 5;
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || min > max) {
    throw new RangeError(`arbStorageSize: need 0 <= min <= max (safe integers), got ${min}..${max}`);
  }
  const wholeUnits = UNITS.filter(([, u]) => Math.ceil(min / u) <= Math.floor(max / u)).map(([, u]) =>
    fc.integer({ min: Math.ceil(min / u), max: Math.floor(max / u) }).map((n) => n * u),
  );
  return fc.oneof(fc.integer({ min, max }), ...wholeUnits);
}

const SIZE_SPELLINGS = ["number", "digits", "unit", "unit-lower", "unit-b", "unit-b-lower", "bytes-b"] as const;
type SizeSpelling = (typeof SIZE_SPELLINGS)[number];

/** One spelling of a byte count that `parseSize` reads back as the same count. */
function spellSize(bytes: number, how: SizeSpelling): SizeInput {
  const unit = bytes === 0 ? undefined : UNITS.find(([, u]) => bytes % u === 0);
  switch (how) {
    case "number":
      return bytes;
    case "digits":
      return String(bytes);
    case "bytes-b":
      return `${bytes}B`;
    default: {
      if (unit === undefined) return how.endsWith("lower") ? `${bytes}b` : String(bytes);
      const [letter, size] = unit;
      const suffix = how.startsWith("unit-b") ? `${letter}B` : letter;
      return `${bytes / size}${how.endsWith("lower") ? suffix.toLowerCase() : suffix}`;
    }
  }
}

/**
 * Size inputs the codecs accept: an integer, a digit string, or
 * digits with a binary suffix in any case (`"40M"`, `"1g"`, `"1mb"`, `"512B"`), each naming a
 * byte count in [min, max]. `parseSize` reads every value without error.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { parseSize } from "clusterwire/storage";
 * import { arbStorageSizeInput } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbStorageSizeInput({ max: 1024 ** 4 }), (size) => parseSize(size) <= 1024 ** 4));
 * ```
 */
export function arbStorageSizeInput(range: StorageSizeRange = {}): fc.Arbitrary<SizeInput> {
  return fc
    .tuple(arbStorageSize(range), fc.constantFrom(...SIZE_SPELLINGS))
    .map(([bytes, how]) => spellSize(bytes, how));
}

/**
 * Options of {@link arbStorageDuration}: the range, in seconds, and the spelling.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageDuration } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageDuration({ min: 60, max: 3600, canonical: false }), 3));
 * ```
 */
export interface StorageDurationOptions {
  /** Least number of seconds; default 0. */
  readonly min?: number;
  /** Most seconds; default 30 days. */
  readonly max?: number;
  /** Only the normalised spelling a server writes (`formatDuration`); default false. */
  readonly canonical?: boolean;
}

/**
 * ISO 8601 durations `P[nD][T[nH][nM][nS]]` with integer parts that `parseDuration` reads as a
 * number of seconds in [min, max]. Besides the canonical spelling (`PT1H10M`) they include
 * unnormalised ones (`PT70M`, `PT4200S`, `P1DT3600S`) unless `canonical`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { formatDuration, parseDuration } from "clusterwire/storage";
 * import { arbStorageDuration } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbStorageDuration({ canonical: true }), (text) => formatDuration(parseDuration(text)) === text));
 * ```
 */
export function arbStorageDuration(options: StorageDurationOptions = {}): fc.Arbitrary<string> {
  const min = options.min ?? 0;
  const max = options.max ?? 30 * DAY;
  const seconds = fc.integer({ min, max });
  if (options.canonical === true) return seconds.map((s) => formatDuration(s));
  const layouts = ["canonical", "seconds", "minutes", "hours", "days"] as const;
  return fc.tuple(seconds, fc.constantFrom(...layouts)).map(([s, layout]) => {
    const tail = (rest: number): string => (rest === 0 ? "" : `${rest}S`);
    switch (layout) {
      case "canonical":
        return formatDuration(s);
      case "seconds":
        return `PT${s}S`;
      case "minutes":
        return `PT${Math.floor(s / 60)}M${tail(s % 60)}`;
      case "hours":
        return `PT${Math.floor(s / 3600)}H${tail(s % 3600)}`;
      case "days": {
        const rest = s % DAY;
        return rest === 0 ? `P${Math.floor(s / DAY)}D` : `P${Math.floor(s / DAY)}DT${rest}S`;
      }
    }
    throw new Error(`unknown duration layout ${JSON.stringify(layout satisfies never)}`);
  });
}

/**
 * Clone-token lifetimes on input: whole seconds (1 .. 7 days) as a number, a digit string or an
 * ISO 8601 duration. `cloneToken.encodePatch` sends each as the digit string of its seconds.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCloneTokenLifetime } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCloneTokenLifetime(), 2));
 * ```
 */
export function arbCloneTokenLifetime(): fc.Arbitrary<LifetimeInput> {
  const seconds = fc.integer({ min: 1, max: 7 * DAY });
  return fc.oneof(seconds, seconds.map(String), arbStorageDuration({ min: 1, max: 7 * DAY }));
}

const WORDS = [
  "data",
  "db",
  "logs",
  "home",
  "app",
  "web",
  "backup",
  "media",
  "archive",
  "build",
  "vm",
  "sql",
  "share",
  "scratch",
] as const;

/**
 * Object names as administrators write them (`db`, `logs7`, `app_data3`, `x2_b`): a lower-case
 * letter, then lower-case letters and digits, with at most one inner `_`; 1..17 characters.
 * Valid as volume, SVM, cache, qtree and namespace base names.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageName } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageName(), 2));
 * ```
 */
export function arbStorageName(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...WORDS), maybe(fc.nat({ max: 99 }))).map(([w, n]) => (n === undefined ? w : `${w}${n}`)),
    fc
      .tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS), fc.nat({ max: 9 }))
      .map(([a, b, n]) => `${a}_${b}${n}`),
    fc.stringMatching(/^[a-z][a-z0-9]{0,9}(?:_[a-z0-9]{1,6})?$/),
  );
}

/**
 * Server-generated identifiers: lower-case RFC 9562 version-4 UUIDs.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageUuid } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageUuid(), 2));
 * ```
 */
export function arbStorageUuid(): fc.Arbitrary<string> {
  return fc.uuid({ version: 4 });
}

/**
 * References as request bodies give them: `{name}`, `{uuid}` or both (of one object).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageReference } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageReference(), 2));
 * ```
 */
export function arbStorageReference(): fc.Arbitrary<ReferenceInput> {
  return fc
    .tuple(arbStorageName(), arbStorageUuid(), fc.constantFrom(...REF_FORMS))
    .map(([name, uuid, form]) => refTo({ name, uuid }, form));
}

/**
 * Software versions such as `9.14.1` or `9.13.1P7` (major.minor.micro, optional patch `P<n>`).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageVersion } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageVersion(), 2));
 * ```
 */
export function arbStorageVersion(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 9, max: 10 }),
      fc.integer({ min: 0, max: 20 }),
      fc.nat({ max: 3 }),
      fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined, freq: 2 }),
    )
    .map(([a, b, c, p]) => `${a}.${b}.${c}${p === undefined ? "" : `P${p}`}`);
}

/**
 * Junction and directory paths: `/` then 1..3 names joined by `/`; never ending in `/`
 * (the cache `path` and `prepopulate` rules).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStoragePath } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStoragePath(), 2));
 * ```
 */
export function arbStoragePath(): fc.Arbitrary<string> {
  return fc.array(arbStorageName(), { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join("/")}`);
}

/**
 * Full NVMe namespace names `/vol/<volume>[/<qtree>]/<namespace>`; base names may hold `-` and `.`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNvmeNamespaceName } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbNvmeNamespaceName(), 2));
 * ```
 */
export function arbNvmeNamespaceName(): fc.Arbitrary<string> {
  return fc
    .tuple(arbStorageName(), maybe(arbStorageName()), namespaceBase)
    .map(([vol, qtree, base]) => namespacePath(vol, qtree, base));
}

/** Namespace base names: object names, also with the `-` and `.` namespaces allow (`db-01`, `boot.ns`). */
const namespaceBase = fc.oneof(
  { arbitrary: arbStorageName(), weight: 3 },
  fc.tuple(arbStorageName(), fc.nat({ max: 99 })).map(([n, i]) => `${n}-${String(i).padStart(2, "0")}`),
  arbStorageName().map((n) => `${n}.ns`),
);

const namespacePath = (volume: string, qtree: string | undefined, base: string): string =>
  `/vol/${volume}${qtree === undefined ? "" : `/${qtree}`}/${base}`;

const OFFSETS_MIN = [0, 60, 120, -300, -480, 330, 540] as const;
const EPOCH_MIN = Date.UTC(2018, 0, 1) / 1000;
const EPOCH_MAX = Date.UTC(2030, 11, 31) / 1000;

/** `epochSeconds` written at a UTC offset in minutes, without fractions (upstream drops them). */
function isoAt(epochSeconds: number, offsetMin: number): string {
  const local = new Date((epochSeconds + offsetMin * 60) * 1000).toISOString().slice(0, 19);
  if (offsetMin === 0) return `${local}Z`;
  const a = Math.abs(offsetMin);
  const hh = String(Math.floor(a / 60)).padStart(2, "0");
  const mm = String(a % 60).padStart(2, "0");
  return `${local}${offsetMin < 0 ? "-" : "+"}${hh}:${mm}`;
}

const instant = fc.tuple(fc.integer({ min: EPOCH_MIN, max: EPOCH_MAX }), fc.constantFrom(...OFFSETS_MIN));

/**
 * ISO 8601 timestamps with an offset and whole seconds, 2018..2030, as a server writes them
 * (`2026-01-01T00:00:00Z`, `2024-05-02T17:03:11+05:30`); `Date.parse` reads every one.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageDateTime } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageDateTime(), 2));
 * ```
 */
export function arbStorageDateTime(): fc.Arbitrary<string> {
  return instant.map(([s, off]) => isoAt(s, off));
}

/** A start and an end time (end ≥ start, same offset). */
const interval = fc
  .tuple(instant, fc.nat({ max: 3 * DAY }))
  .map(([[s, off], d]) => ({ start: isoAt(s, off), end: isoAt(s + d, off) }));

const nodeName = fc
  .tuple(fc.constantFrom("cluster1", "prod", "lab"), fc.integer({ min: 1, max: 8 }))
  .map(([c, n]) => `${c}-${String(n).padStart(2, "0")}`);

/** `{uuid, name, _links}` as a server writes a reference to an SVM, volume or node. */
function modelRef(
  base: string,
  name: fc.Arbitrary<string> = arbStorageName(),
): fc.Arbitrary<{ uuid: string; name: string; _links: Links }> {
  return fc.tuple(arbStorageUuid(), name).map(([uuid, n]) => ({ uuid, name: n, _links: selfLink(`${base}/${uuid}`) }));
}

const TOKENS = "/api/storage/file/clone/tokens";
const CACHES = "/api/storage/cache/caches";
const NAMESPACES = "/api/storage/namespaces";
const QUOTA_RULES = "/api/storage/quota/rules";
const SVMS = "/api/svm/svms";
const VOLUMES = "/api/storage/volumes";
const NODES = "/api/cluster/nodes";
const JOBS = "/api/cluster/jobs";

// ---- clone tokens --------------------------------------------------------------------------------

/**
 * Clone tokens as a server returns them: `uuid` and `node.uuid` always; `reserve_size` ≥ 4096
 * bytes; `expiry_time.limit` ≥ 1 s and `left` ≤ `limit`, both canonical ISO durations; `_links`
 * pointing at `/api/storage/file/clone/tokens/<node.uuid>/<uuid>` (absent in plain JSON).
 * `cloneToken.decode` returns each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCloneTokenModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCloneTokenModel({ newerServer: true }), 2));
 * ```
 */
export function arbCloneTokenModel(o: StorageModelOptions = {}): fc.Arbitrary<CloneToken> {
  const expiry = fc
    .tuple(fc.integer({ min: 1, max: 7 * DAY }), fc.nat())
    .map(([limit, k]) => ({ limit: formatDuration(limit), left: formatDuration(k % (limit + 1)) }));
  const token = some(
    {
      node: fc
        .tuple(arbStorageUuid(), maybe(nodeName))
        .map(([uuid, name]) => (name === undefined ? { uuid } : { uuid, name })),
      uuid: arbStorageUuid(),
      reserve_size: arbStorageSize({ min: 4 * KiB, max: 100 * GiB }),
      expiry_time: expiry,
    },
    ["node", "uuid"],
  ).map(
    (t): CloneToken => ({
      ...t,
      node: { ...t.node, _links: selfLink(`${NODES}/${t.node.uuid}`) },
      _links: selfLink(`${TOKENS}/${t.node.uuid}/${t.uuid}`),
    }),
  );
  return withNewer(halOrPlain(token), o);
}

/**
 * Clone-token POST bodies: `node.uuid` (a target node's, when targets are given) and
 * `reserve_size` (0 .. 1 TiB, any accepted spelling; below 4 KiB the codec raises it to
 * 4096), and optionally `expiry_time` with or without `limit` (1 s .. 7 days).
 * `cloneToken.encodePost` accepts every value.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { cloneToken } from "clusterwire/storage";
 * import { arbCloneTokenPost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbCloneTokenPost(), (input) => typeof cloneToken.encodePost(input) === "object"));
 * ```
 */
export function arbCloneTokenPost(options: StorageBodyOptions = {}): fc.Arbitrary<CloneTokenPostInput> {
  const t = options.targets;
  const nodeUuid =
    t === undefined
      ? arbStorageUuid()
      : fc.constantFrom(
          ...need(
            (t.nodes ?? []).flatMap((n) => (n.uuid === undefined ? [] : [n.uuid])),
            "node with a uuid",
            "arbCloneTokenPost",
          ),
        );
  return some(
    {
      node: nodeUuid.map((uuid) => ({ uuid })),
      reserve_size: arbStorageSizeInput({ max: TiB }),
      expiry_time: some({ limit: arbCloneTokenLifetime() }),
    },
    ["node", "reserve_size"],
  );
}

/**
 * Clone-token PATCH bodies `{expiry_time: {limit}}` (1 s .. 7 days); `cloneToken.encodePatch` accepts them.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { cloneToken } from "clusterwire/storage";
 * import { arbCloneTokenPatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbCloneTokenPatch(), (input) => typeof cloneToken.encodePatch(input) === "object"));
 * ```
 */
export function arbCloneTokenPatch(): fc.Arbitrary<CloneTokenPatchInput> {
  return arbCloneTokenLifetime().map((limit) => ({ expiry_time: { limit } }));
}

// ---- caches ---------------------------------------------------------------------------------------

const enabledFlag = all({ enabled: fc.boolean() });
const percentage = fc.integer(CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE);
const scrubDays = fc.integer({ min: 1, max: 365 });

/**
 * Caches as a server returns them: `uuid` and `name` always; the rest optional (expensive or
 * not asked for). `path` starts with `/` and does not end with it; `size` ≥ 1 GiB;
 * `relative_size.percentage` 1..100; `atime_scrub.period` 1..365 days; `prepopulate` and
 * `is_disconnected_mode_off_for_locks` never (write-only / POST-only).
 * `cache.decode` returns each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCacheModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCacheModel({ newerServer: true }), 2));
 * ```
 */
export function arbCacheModel(o: StorageModelOptions = {}): fc.Arbitrary<Cache> {
  const origin = some({
    svm: modelRef(SVMS),
    volume: modelRef(VOLUMES),
    cluster: modelRef("/api/cluster", fc.constantFrom("cluster1", "cluster2", "dr_site")),
    ip_address: fc
      .tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 1, max: 254 }))
      .map(([a, b]) => `10.0.${a}.${b}`),
    size: arbStorageSize({ min: GiB, max: 100 * TiB }),
    state: enumOf(CACHE_ORIGIN_STATES, o),
    create_time: arbStorageDateTime(),
  });
  const cache = fc
    .tuple(
      arbStorageUuid(),
      arbStorageName(),
      some({
        svm: modelRef(SVMS),
        origins: fc.array(origin, { minLength: 1, maxLength: 2 }),
        aggregates: fc.uniqueArray(
          fc.tuple(fc.integer({ min: 1, max: 9 }), arbStorageUuid()).map(([n, uuid]) => ({ name: `aggr${n}`, uuid })),
          { minLength: 1, maxLength: 3, selector: (a) => a.name },
        ),
        path: arbStoragePath(),
        size: arbStorageSize({ min: GiB, max: 10 * TiB }),
        guarantee: all({ type: enumOf(CACHE_GUARANTEE_TYPES, o) }),
        constituents_per_aggregate: fc.integer({ min: 1, max: 8 }),
        use_tiered_aggregate: fc.boolean(),
        dr_cache: fc.boolean(),
        global_file_locking_enabled: fc.boolean(),
        override_encryption: fc.boolean(),
        writeback: enabledFlag,
        relative_size: all({ enabled: fc.boolean(), percentage }),
        atime_scrub: all({ enabled: fc.boolean(), period: scrubDays }),
        cifs_change_notify: enabledFlag,
      }),
    )
    .map(([uuid, name, rest]): Cache => ({ uuid, name, ...rest, _links: selfLink(`${CACHES}/${uuid}`) }));
  return withNewer(halOrPlain(cache), o);
}

/** The smallest cache size the server takes: 1 GiB per constituent (`aggregates` × `constituents_per_aggregate`, default 4). */
const minCacheSize = (aggregates: number, perAggregate: number | undefined): number =>
  Math.max(aggregates, 1) * (perAggregate ?? 4) * GiB;

const prepopulateInput = some(
  {
    dir_paths: fc.uniqueArray(arbStoragePath(), { minLength: 1, maxLength: 3 }),
    exclude_dir_paths: fc.uniqueArray(arbStoragePath(), { maxLength: 2 }),
    recurse: fc.boolean(),
  },
  ["dir_paths"],
);

/**
 * Cache POST bodies that `cache.encodePost` accepts: `name`, `svm` and one origin (`svm.name`,
 * `volume` by name, uuid or both; with targets an online standalone volume) always; optional
 * `aggregates`, `path`, `size` (≥ 1 GiB per constituent, never with `relative_size.enabled`),
 * `guarantee`, `constituents_per_aggregate` 1..8, the flags (never `is_disconnected_mode_off_for_locks`
 * false with `global_file_locking_enabled` true), the toggles and `prepopulate` with ≥ 1
 * `dir_paths`. With targets, `name` and `path` never clash with a volume of the inventory.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { cache } from "clusterwire/storage";
 * import { arbCachePost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbCachePost(), (input) => typeof cache.encodePost(input) === "object"));
 * ```
 */
export function arbCachePost(options: StorageBodyOptions = {}): fc.Arbitrary<CachePostInput> {
  const t = options.targets;
  const fn = "arbCachePost";
  const volumes = t === undefined ? [] : targetVolumes(t);
  const svm =
    t === undefined
      ? arbStorageReference()
      : fc
          .tuple(fc.constantFrom(...need(t.svms, "SVM", fn)), fc.constantFrom(...REF_FORMS))
          .map(([s, f]) => refTo(s, f));
  const origin =
    t === undefined
      ? fc
          .tuple(arbStorageName(), arbStorageReference())
          .map(([svmName, volume]) => ({ svm: { name: svmName }, volume }))
      : fc
          .tuple(
            fc.constantFrom(
              ...need(
                volumes.filter((v) => v.origin),
                "online standalone volume",
                fn,
              ),
            ),
            fc.constantFrom(...REF_FORMS),
            fc.boolean(),
          )
          .map(([v, form, withUuid]) => ({
            svm: withUuid && v.svm.uuid !== undefined ? { name: v.svm.name, uuid: v.svm.uuid } : { name: v.svm.name },
            volume: refTo(v, form),
          }));
  const aggregateObject: fc.Arbitrary<Known> =
    t === undefined
      ? fc.tuple(arbStorageName(), arbStorageUuid()).map(([name, uuid]) => ({ name, uuid }))
      : fc.constantFrom(...need(t.aggregates, "aggregate", fn));
  const aggregates = fc
    .uniqueArray(fc.tuple(aggregateObject, fc.constantFrom(...REF_FORMS)), {
      minLength: 1,
      maxLength: 2,
      selector: ([a]) => a.name,
    })
    .map((list) => list.map(([a, form]) => refTo(a, form)));
  // With targets, stay clear of the inventory's volume names and junction paths.
  const taken = new Set(volumes.map((v) => v.name));
  const takenPaths = new Set(volumes.flatMap((v) => (v.path === undefined ? [] : [v.path.toLowerCase()])));
  const freeName = (n: string): string => (taken.has(n) ? `${n}_cache` : n);
  const freePath = (p: string): string => (takenPaths.has(p.toLowerCase()) ? `${p}_cache` : p);
  return fc
    .tuple(
      some(
        {
          name: arbStorageName().map(freeName),
          svm,
          origins: origin.map((x) => [x]),
          aggregates,
          path: arbStoragePath().map(freePath),
          guarantee: some({ type: fc.constantFrom(...CACHE_GUARANTEE_TYPES) }),
          // A Size in the spec: a number or a digit string.
          constituents_per_aggregate: fc
            .tuple(fc.integer({ min: 1, max: 8 }), fc.boolean())
            .map(([n, digits]) => (digits ? String(n) : n)),
          use_tiered_aggregate: fc.boolean(),
          is_disconnected_mode_off_for_locks: fc.boolean(),
          dr_cache: fc.boolean(),
          global_file_locking_enabled: fc.boolean(),
          override_encryption: fc.boolean(),
          writeback: some({ enabled: fc.boolean() }),
          relative_size: some({ enabled: fc.boolean(), percentage }),
          atime_scrub: some({ enabled: fc.boolean(), period: scrubDays }),
          cifs_change_notify: some({ enabled: fc.boolean() }),
          prepopulate: prepopulateInput,
        },
        ["name", "svm", "origins"],
      ),
      maybe(fc.tuple(arbStorageSize({ max: 64 * GiB }), fc.constantFrom(...SIZE_SPELLINGS))),
    )
    .map(([body, extra]) => {
      const out: CachePostInput = { ...body };
      // The origin honours cache-side locks whenever global file locking is on.
      if (out.global_file_locking_enabled === true && out.is_disconnected_mode_off_for_locks === false)
        out.is_disconnected_mode_off_for_locks = true;
      if (extra !== undefined && out.relative_size?.enabled !== true) {
        const cpa = out.constituents_per_aggregate === undefined ? undefined : Number(out.constituents_per_aggregate);
        out.size = spellSize(minCacheSize(out.aggregates?.length ?? 0, cpa) + extra[0], extra[1]);
      }
      return out;
    });
}

/**
 * Cache PATCH bodies that `cache.encodePatch` accepts: at least one of `writeback`,
 * `relative_size`, `atime_scrub`, `cifs_change_notify` (each with at least one member) and
 * `prepopulate` (≥ 1 `dir_paths`); never a POST-only field.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { cache } from "clusterwire/storage";
 * import { arbCachePatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbCachePatch(), (input) => typeof cache.encodePatch(input) === "object"));
 * ```
 */
export function arbCachePatch(): fc.Arbitrary<CachePatchInput> {
  // A fresh fallback per value: generated values never share objects.
  const nonEmpty = <T extends object>(arb: fc.Arbitrary<T>, fallback: () => T): fc.Arbitrary<T> =>
    arb.map((x) => (isEmpty(x) ? fallback() : x));
  return some({
    writeback: all({ enabled: fc.boolean() }),
    relative_size: nonEmpty(some({ enabled: fc.boolean(), percentage }), () => ({ enabled: false })),
    atime_scrub: nonEmpty(some({ enabled: fc.boolean(), period: scrubDays }), () => ({ enabled: false })),
    cifs_change_notify: all({ enabled: fc.boolean() }),
    prepopulate: prepopulateInput,
  }).map((p): CachePatchInput => (isEmpty(p) ? { writeback: { enabled: false } } : p));
}

// ---- NVMe namespaces --------------------------------------------------------------------------------

const comment = fc.oneof(
  fc.constantFrom(
    "",
    "database",
    "boot LUN of esx07",
    "scratch for CI",
    "migrated from LUN",
    "Datenbank für Team Ω",
    "本番データベース",
  ),
  fc.string({ maxLength: 80 }),
  // Any Unicode text; 20 graphemes stay well within the 254-character limit.
  fc.string({ unit: "grapheme", maxLength: 20 }),
);
// Operations per second and microseconds (averages), bytes per second.
const count = fc.nat({ max: 1_000_000 });
const ioCounters = all({ other: count, total: count, read: count, write: count });
const rate = fc.integer({ min: 0, max: 10 * GiB });
const throughput = all({ total: rate, read: rate, write: rate });
const hexId = fc.nat({ max: 0xffff }).map((n) => `${n.toString(16).padStart(8, "0")}h`);

/**
 * NVMe namespaces as a server returns them: `uuid` and `name` (`/vol/<volume>[/<qtree>]/<ns>`)
 * always; `location` agrees with `name`; `space.size` 4096 .. 128 TiB, `space.used` ≤ `size`,
 * `block_size` 512 or 4096; `comment` ≤ 254 characters; status, subsystem map and the
 * performance objects optional. `nvmeNamespace.decode` returns each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNvmeNamespaceModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbNvmeNamespaceModel({ newerServer: true }), 2));
 * ```
 */
export function arbNvmeNamespaceModel(o: StorageModelOptions = {}): fc.Arbitrary<NvmeNamespace> {
  const space = fc
    .tuple(
      arbStorageSize({ min: 4 * KiB, max: NAMESPACE_MAX_SIZE }),
      fc.constantFrom(...NAMESPACE_BLOCK_SIZES),
      fc.nat(),
      maybe(fc.boolean()),
    )
    .map(([size, block_size, k, thick]) => ({
      size,
      block_size,
      used: k % (size + 1),
      ...(thick === undefined ? {} : { guarantee: { requested: thick, reserved: thick } }),
    }));
  const metricStatus = enumOf(METRIC_STATUSES, o);
  const ns = fc
    .tuple(
      arbStorageUuid(),
      fc.tuple(modelRef(VOLUMES), maybe(fc.tuple(arbStorageName(), fc.integer({ min: 1, max: 30 }))), namespaceBase),
      fc.boolean(),
      some({
        svm: modelRef(SVMS),
        os_type: enumOf(NAMESPACE_OS_TYPES, o),
        space,
        comment,
        enabled: fc.boolean(),
        create_time: arbStorageDateTime(),
        auto_delete: fc.boolean(),
        status: some({
          state: enumOf(NAMESPACE_STATES, o),
          container_state: enumOf(NAMESPACE_CONTAINER_STATES, o),
          read_only: fc.boolean(),
          mapped: fc.boolean(),
        }),
        subsystem_map: fc
          .tuple(hexId, hexId, modelRef("/api/protocols/nvme/subsystems"))
          .map(([nsid, anagrpid, subsystem]) => ({
            nsid,
            anagrpid,
            subsystem,
            _links: selfLink(`/api/protocols/nvme/subsystem-maps/${subsystem.uuid}`),
          })),
        metric: all({
          timestamp: arbStorageDateTime(),
          status: metricStatus,
          duration: enumOf(METRIC_DURATIONS, o),
          throughput,
          iops: ioCounters,
          latency: ioCounters,
        }),
        statistics: all({
          timestamp: arbStorageDateTime(),
          status: metricStatus,
          iops_raw: ioCounters,
          latency_raw: ioCounters,
          throughput_raw: throughput,
        }),
      }),
    )
    .map(
      ([uuid, [volume, qtree, base], located, rest]): NvmeNamespace => ({
        uuid,
        name: namespacePath(volume.name, qtree?.[0], base),
        ...(located
          ? {
              location: {
                volume,
                ...(qtree === undefined ? {} : { qtree: { name: qtree[0], id: qtree[1] } }),
                namespace: base,
              },
            }
          : {}),
        ...rest,
        _links: selfLink(`${NAMESPACES}/${uuid}`),
      }),
    );
  return withNewer(halOrPlain(ns), o);
}

const NAME_FORMS = ["path", "path+location", "base+location", "location"] as const;
type NameForm = (typeof NAME_FORMS)[number];

/** `name` / `location` of a new namespace in one of the four ways the spec allows. */
function placement(
  volume: ReferenceInput & { name: string },
  qtree: string | undefined,
  base: string,
  form: NameForm,
  volumeRef: ReferenceInput,
): Pick<NvmeNamespacePostInput, "name" | "location"> {
  const qt = qtree === undefined ? {} : { qtree: { name: qtree } };
  switch (form) {
    case "path":
      return { name: namespacePath(volume.name, qtree, base) };
    case "path+location":
      return { name: namespacePath(volume.name, qtree, base), location: { volume: volumeRef } };
    case "base+location":
      return { name: base, location: { volume: volumeRef, ...qt } };
    case "location":
      return { location: { volume: volumeRef, ...qt, namespace: base } };
  }
}

/**
 * Options of {@link arbNvmeNamespacePost}: the targets, and which kinds of POST to draw (create, clone, convert).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNvmeNamespacePost } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbNvmeNamespacePost({ kinds: ["clone"] }), 2));
 * ```
 */
export interface ArbNvmeNamespacePostOptions extends StorageBodyOptions {
  /**
   * Which POSTs: create, clone (`clone.source`) or convert (`convert.lun`). Default: all three
   * without targets; with targets, create, plus convert when `targets.luns` holds a LUN that
   * can be converted (unmapped, not a protocol endpoint, no foreign import, not bound, a
   * namespace os_type). Clone needs sources that exist, which an inventory does not list.
   */
  readonly kinds?: readonly ("create" | "clone" | "convert")[];
}

/**
 * NVMe namespace POST bodies that `nvmeNamespace.encodePost` accepts. Create: `svm`, the
 * volume and base name through full-path `name`, `name` + `location.volume`, or
 * `location.volume` + `location.namespace` (optionally in a qtree), `os_type`, `space.size`
 * 4096 .. 128 TiB, optional `space.block_size`, `comment`, `auto_delete`. Clone: a source by
 * name (live or snapshot path in the same volume) or uuid, no `os_type` or `space`. Convert: a
 * LUN by name or uuid, no `os_type` or `space`. With targets every volume (online), qtree and
 * LUN exists there, the volume in the SVM named.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { nvmeNamespace } from "clusterwire/storage";
 * import { arbNvmeNamespacePost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbNvmeNamespacePost(), (input) => typeof nvmeNamespace.encodePost(input) === "object"));
 * ```
 */
export function arbNvmeNamespacePost(options: ArbNvmeNamespacePostOptions = {}): fc.Arbitrary<NvmeNamespacePostInput> {
  const t = options.targets;
  const fn = "arbNvmeNamespacePost";
  const convertibleLuns = (t?.luns ?? []).filter(
    (l) =>
      l.mapped !== true &&
      l.protocol_endpoint !== true &&
      l.foreign_import !== true &&
      l.vvol_bound !== true &&
      (NAMESPACE_OS_TYPES as readonly string[]).includes(l.os_type),
  );
  const kinds =
    options.kinds ??
    (t === undefined
      ? ["create", "clone", "convert"]
      : convertibleLuns.length > 0
        ? ["create", "convert"]
        : ["create"]);
  if (kinds.length === 0) throw new Error(`${fn}: kinds must not be empty`);
  if (t !== undefined && kinds.includes("clone"))
    throw new Error(`${fn}: clone needs existing source namespaces, which targets do not list`);

  // Where: a volume (with its SVM), maybe a qtree of it, and how the body names it.
  const where =
    t === undefined
      ? fc
          .tuple(
            arbStorageReference(),
            arbStorageName(),
            arbStorageUuid(),
            fc.constantFrom(...REF_FORMS),
            maybe(arbStorageName()),
          )
          .map(([svm, vol, uuid, form, qtree]) => ({
            svm,
            volume: { name: vol, uuid },
            volumeRef: refTo({ name: vol, uuid }, form),
            qtree,
          }))
      : fc
          .tuple(
            fc.constantFrom(
              ...need(
                targetVolumes(t).filter((v) => v.online),
                "online volume",
                fn,
              ),
            ),
            fc.constantFrom(...REF_FORMS),
            fc.constantFrom(...REF_FORMS),
            fc.nat(),
          )
          .map(([v, svmForm, volForm, q]) => ({
            svm: refTo(v.svm, svmForm),
            volume: { name: v.name },
            volumeRef: refTo(v, volForm),
            qtree: q % (v.qtrees.length + 1) === 0 ? undefined : v.qtrees[(q % (v.qtrees.length + 1)) - 1],
          }));
  const extras = some({ comment, auto_delete: fc.boolean() });

  const create = fc
    .tuple(
      where,
      namespaceBase,
      fc.constantFrom(...NAME_FORMS),
      fc.constantFrom(...NAMESPACE_OS_TYPES),
      some(
        {
          size: arbStorageSizeInput({ min: 4 * KiB, max: NAMESPACE_MAX_SIZE }),
          block_size: fc.constantFrom(...NAMESPACE_BLOCK_SIZES),
        },
        ["size"],
      ),
      extras,
    )
    .map(
      ([w, base, form, os_type, space, rest]): NvmeNamespacePostInput => ({
        svm: w.svm,
        ...placement(w.volume, w.qtree, base, form, w.volumeRef),
        os_type,
        space,
        ...rest,
      }),
    );

  const clone = fc
    .tuple(
      where,
      namespaceBase,
      namespaceBase,
      fc.constantFrom("name", "snapshot", "uuid"),
      arbStorageUuid(),
      fc.constantFrom("daily.0", "hourly.3", "weekly.1"),
      fc.boolean(),
      extras,
    )
    .map(
      ([w, base, source, how, uuid, snap, byPath, rest]): NvmeNamespacePostInput => ({
        svm: w.svm,
        // The clone lives in its source's volume.
        ...(byPath
          ? { name: namespacePath(w.volume.name, undefined, base) }
          : { name: base, location: { volume: w.volumeRef } }),
        clone: {
          source:
            how === "uuid"
              ? { uuid }
              : {
                  name:
                    how === "name"
                      ? namespacePath(w.volume.name, undefined, source)
                      : `/vol/${w.volume.name}/.snapshot/${snap}/${source}`,
                },
        },
        ...rest,
      }),
    );

  const lun =
    t === undefined
      ? fc
          .tuple(arbStorageReference(), arbNvmeNamespaceName(), arbStorageUuid(), fc.boolean())
          .map(([svm, name, uuid, byName]) => ({ svm, lun: byName ? { name } : { uuid } }))
      : fc
          .tuple(
            fc.constantFrom(...need(convertibleLuns, "convertible LUN", fn)),
            fc.constantFrom(...REF_FORMS),
            fc.constantFrom(...REF_FORMS),
          )
          .map(([l, svmForm, lunForm]) => ({
            svm: refTo({ name: l.svm, uuid: t.svms?.find((s) => s.name === l.svm)?.uuid }, svmForm),
            lun: refTo(l, lunForm),
          }));
  const convert = fc
    .tuple(lun, extras)
    .map(([l, rest]): NvmeNamespacePostInput => ({ svm: l.svm, convert: { lun: l.lun }, ...rest }));

  const byKind = { create, clone, convert } as const;
  const [first, ...others] = kinds.map((k) => byKind[k]);
  return others.length === 0
    ? (first as fc.Arbitrary<NvmeNamespacePostInput>)
    : fc.oneof(first as fc.Arbitrary<NvmeNamespacePostInput>, ...others);
}

/**
 * NVMe namespace PATCH bodies that `nvmeNamespace.encodePatch` accepts: at least one of
 * `comment`, `auto_delete`, `svm`, and either `space.size` (4096 .. 128 TiB) or `clone.source`
 * (by uuid or full name), never both; never `name`, `location`, `os_type` or `block_size`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { nvmeNamespace } from "clusterwire/storage";
 * import { arbNvmeNamespacePatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbNvmeNamespacePatch(), (input) => typeof nvmeNamespace.encodePatch(input) === "object"));
 * ```
 */
export function arbNvmeNamespacePatch(): fc.Arbitrary<NvmeNamespacePatchInput> {
  const change = fc.oneof(
    arbStorageSizeInput({ min: 4 * KiB, max: NAMESPACE_MAX_SIZE }).map(
      (size): NvmeNamespacePatchInput => ({ space: { size } }),
    ),
    fc
      .tuple(arbStorageUuid(), arbNvmeNamespaceName(), fc.boolean())
      .map(([uuid, name, byUuid]): NvmeNamespacePatchInput => ({ clone: { source: byUuid ? { uuid } : { name } } })),
  );
  return fc
    .tuple(some({ comment, auto_delete: fc.boolean(), svm: arbStorageReference() }), maybe(change))
    .map(([rest, c]): NvmeNamespacePatchInput => {
      const body = { ...rest, ...c };
      return isEmpty(body) ? { auto_delete: false } : body;
    });
}

// ---- quota rules ----------------------------------------------------------------------------------

const PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "svc_backup", "jürgen", "zoë"] as const;
const userName = fc.oneof(
  fc.constantFrom(...PEOPLE),
  fc.tuple(fc.constantFrom("CORP", "LAB"), fc.constantFrom(...PEOPLE)).map(([d, u]) => `${d}\\${u}`),
  fc.tuple(fc.constantFrom(...PEOPLE), fc.constantFrom("corp.example", "lab.example")).map(([u, d]) => `${u}@${d}`),
  // A name with a space is quoted (the spec's rule), so it is one user.
  fc.tuple(fc.constantFrom("Ann", "Raj"), fc.constantFrom("Lee", "Kumar")).map(([a, b]) => `"${a} ${b}"`),
);
const userId = fc.oneof(
  fc.integer({ min: 0, max: 65_534 }).map(String),
  fc
    .array(fc.nat({ max: 4_000_000_000 }), { minLength: 3, maxLength: 3 })
    .map(([a, b, c]) => `S-1-5-21-${a}-${b}-${c}`),
);
const quotaUser: fc.Arbitrary<QuotaUserInput> = fc.oneof(
  userName.map((name) => ({ name })),
  userId.map((id) => ({ id })),
);

/** A limits object with hard ≥ soft when both are set; -1 (no limit) anywhere. */
function limits<T>(
  value: fc.Arbitrary<{ bytes: number; spelled: T }>,
): fc.Arbitrary<{ hard_limit?: T | -1; soft_limit?: T | -1 }> {
  type Limit = { bytes: number; spelled: T | -1 };
  const unlimited: fc.Arbitrary<Limit> = fc.constant({ bytes: QUOTA_UNLIMITED, spelled: QUOTA_UNLIMITED });
  const limit = fc.oneof({ arbitrary: value as fc.Arbitrary<Limit>, weight: 4 }, { arbitrary: unlimited, weight: 1 });
  return some({ hard_limit: limit, soft_limit: limit }).map(({ hard_limit: h, soft_limit: s }) => {
    const swap =
      h !== undefined &&
      s !== undefined &&
      h.bytes !== QUOTA_UNLIMITED &&
      s.bytes !== QUOTA_UNLIMITED &&
      s.bytes > h.bytes;
    const [hard, soft] = swap ? [s, h] : [h, s];
    return {
      ...(hard === undefined ? {} : { hard_limit: hard.spelled }),
      ...(soft === undefined ? {} : { soft_limit: soft.spelled }),
    };
  });
}

const nonEmptyLimits = <T>(arb: fc.Arbitrary<{ hard_limit?: T | -1; soft_limit?: T | -1 }>) =>
  arb.map((l) => (isEmpty(l) ? { hard_limit: QUOTA_UNLIMITED } : l));
const spaceLimits = nonEmptyLimits(
  limits(
    fc
      .tuple(arbStorageSize({ max: 10 * TiB }), fc.constantFrom(...SIZE_SPELLINGS))
      .map(([bytes, how]) => ({ bytes, spelled: spellSize(bytes, how) })),
  ),
);
const filesLimits = nonEmptyLimits(limits(fc.nat({ max: 10_000_000 }).map((n) => ({ bytes: n, spelled: n }))));
const userMapping = fc.oneof(fc.boolean(), fc.constantFrom("on" as const, "off" as const));

/**
 * Quota-rule POST bodies that `quotaRule.encodePost` accepts, by type: every rule has `svm`,
 * `volume` and `qtree.name` (`""` = volume level); a user rule has `users` (the default
 * `[{name: ""}]`, or 1..3 distinct users each by name or by id, never both) and maybe
 * `user_mapping` (boolean or `"on"`/`"off"`); a group rule has `group` (`{name: ""}` for the
 * default, else name and/or id); a tree rule has neither. Optional `space` limits (Sizes or -1)
 * and `files` limits (counts or -1), each object with at least one limit, soft ≤ hard when both
 * are set. With targets the volume is online, belongs to the SVM named, and the qtree exists in it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { quotaRule } from "clusterwire/storage";
 * import { arbQuotaRulePost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbQuotaRulePost(), (input) => typeof quotaRule.encodePost(input) === "object"));
 * ```
 */
export function arbQuotaRulePost(options: StorageBodyOptions = {}): fc.Arbitrary<QuotaRulePostInput> {
  const t = options.targets;
  const where =
    t === undefined
      ? fc
          .tuple(arbStorageReference(), arbStorageReference(), maybe(arbStorageName()))
          .map(([svm, volume, qtree]) => ({ svm, volume, qtree: qtree ?? "" }))
      : fc
          .tuple(
            fc.constantFrom(
              ...need(
                targetVolumes(t).filter((v) => v.online),
                "online volume",
                "arbQuotaRulePost",
              ),
            ),
            fc.constantFrom(...REF_FORMS),
            fc.constantFrom(...REF_FORMS),
            fc.nat(),
          )
          .map(([v, svmForm, volForm, q]) => ({
            svm: refTo(v.svm, svmForm),
            volume: refTo(v, volForm),
            qtree: q % (v.qtrees.length + 1) === 0 ? "" : (v.qtrees[(q % (v.qtrees.length + 1)) - 1] as string),
          }));
  const users = fc.oneof(
    fc.constant(null).map((): QuotaUserInput[] => [{ name: "" }]),
    fc.uniqueArray(quotaUser, { minLength: 1, maxLength: 3, selector: (u) => JSON.stringify(u) }),
  );
  const group = fc.oneof(
    fc.constant(null).map(() => ({ name: "" })),
    some({
      name: fc.constantFrom("staff", "eng", "wheel", "finance"),
      id: fc.integer({ min: 0, max: 65_534 }).map(String),
    }).map((g) => (isEmpty(g) ? { name: "staff" } : g)),
  );
  return fc
    .tuple(
      fc.constantFrom(...QUOTA_RULE_TYPES),
      where,
      users,
      group,
      some({ space: spaceLimits, files: filesLimits }),
      maybe(userMapping),
    )
    .map(([type, w, us, g, lim, mapping]): QuotaRulePostInput => {
      const common = { svm: w.svm, volume: w.volume, qtree: { name: w.qtree }, ...lim };
      switch (type) {
        case "tree":
          return { ...common, type };
        case "group":
          return { ...common, type, group: g };
        case "user":
          return { ...common, type, users: us, ...(mapping === undefined ? {} : { user_mapping: mapping }) };
      }
      throw new Error(`unknown quota rule type ${JSON.stringify(type satisfies never)}`);
    });
}

/**
 * Quota-rule PATCH bodies that `quotaRule.encodePatch` accepts: at least one of `space` and
 * `files` limits (soft ≤ hard when both are set, -1 clears) and, unless `type` is `tree` or
 * `group`, `user_mapping`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { quotaRule } from "clusterwire/storage";
 * import { arbQuotaRulePatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbQuotaRulePatch(), (input) => typeof quotaRule.encodePatch(input) === "object"));
 * ```
 */
export function arbQuotaRulePatch(options: { readonly type?: QuotaRuleType } = {}): fc.Arbitrary<QuotaRulePatchInput> {
  const mapping = options.type === undefined || options.type === "user";
  const base = some({ space: spaceLimits, files: filesLimits });
  const body = mapping
    ? fc.tuple(base, maybe(userMapping)).map(([b, m]) => (m === undefined ? b : { ...b, user_mapping: m }))
    : base;
  return body.map((b): QuotaRulePatchInput => (isEmpty(b) ? { files: { hard_limit: QUOTA_UNLIMITED } } : b));
}

/**
 * Quota rules as a server returns them: `uuid` always; `type` with its target (`users` on user
 * rules, each a name or an id; `group` on group rules; neither on tree rules), `qtree`
 * (`{name: ""}` or absent at volume level, else name and id), `space` limits ≥ 1024 bytes and `files`
 * limits ≥ 0 with soft ≤ hard, `user_mapping` on user rules only. `quotaRule.decode` returns
 * each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbQuotaRuleModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbQuotaRuleModel({ newerServer: true }), 2));
 * ```
 */
export function arbQuotaRuleModel(o: StorageModelOptions = {}): fc.Arbitrary<QuotaRule> {
  const ordered = (value: fc.Arbitrary<number>) =>
    some({ hard_limit: value, soft_limit: value }).map(({ hard_limit: h, soft_limit: s }) =>
      h !== undefined && s !== undefined && s > h
        ? { hard_limit: s, soft_limit: h }
        : { ...(h === undefined ? {} : { hard_limit: h }), ...(s === undefined ? {} : { soft_limit: s }) },
    );
  const rule = fc
    .tuple(
      arbStorageUuid(),
      enumOf(QUOTA_RULE_TYPES, o),
      maybe(fc.tuple(arbStorageName(), fc.integer({ min: 1, max: 30 }))),
      fc.uniqueArray(
        fc.oneof(
          userName.map((name) => ({ name })),
          userId.map((id) => ({ id })),
        ),
        { minLength: 1, maxLength: 3, selector: (u) => JSON.stringify(u) },
      ),
      some({ name: fc.constantFrom("", "staff", "eng"), id: fc.integer({ min: 0, max: 65_534 }).map(String) }),
      some({
        svm: modelRef(SVMS),
        volume: modelRef(VOLUMES),
        space: ordered(arbStorageSize({ min: KiB, max: 10 * TiB })),
        files: ordered(fc.nat({ max: 10_000_000 })),
      }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(
      ([uuid, type, qtree, users, group, rest, mapping, volumeLevelShown]): QuotaRule => ({
        uuid,
        ...rest,
        type,
        // "In reads of a volume-level rule it may be absent."
        ...(qtree !== undefined
          ? { qtree: { id: qtree[1], name: qtree[0] } }
          : volumeLevelShown
            ? { qtree: { name: "" } }
            : {}),
        ...(type === "user" ? { users, user_mapping: mapping } : {}),
        ...(type === "group" ? { group: isEmpty(group) ? { name: "" } : group } : {}),
        _links: selfLink(`${QUOTA_RULES}/${uuid}`),
      }),
    );
  return withNewer(halOrPlain(rule), o);
}

// ---- software -----------------------------------------------------------------------------------

const duration = fc.nat({ max: 6 * 3600 });
const checkEntry = (o: StorageModelOptions) =>
  some({
    update_check: fc.constantFrom("Manual checks", "Disk status", "Aggregate status", "CIFS status", "Cluster health"),
    status: enumOf(SOFTWARE_CHECK_STATUSES, o),
    issue: some({
      message: fc.constantFrom(
        "Some disks are broken.",
        "Manual validation checks need to be performed.",
        "Not all aggregates are online.",
      ),
      code: fc.nat({ max: 100 }),
    }),
    action: some({
      message: fc.constantFrom(
        "Replace the broken disks.",
        "Review the upgrade documentation.",
        "Bring the aggregates online.",
      ),
      code: fc.nat({ max: 100 }),
    }),
  });

const firmware = (o: StorageModelOptions) =>
  some({
    cluster_fw_progress: fc.array(
      fc
        .tuple(
          arbStorageUuid(),
          some({
            zip_file_name: fc.constantFrom("fw_disk.zip", "qual_devices.zip"),
            update_type: enumOf(FIRMWARE_UPDATE_TYPES, o),
            update_state: fc.array(
              some({
                attempts: fc.nat({ max: 5 }),
                code: fc.nat(),
                message: fc.constantFrom("", "Firmware update completed."),
                status: enumOf(FIRMWARE_PROGRESS_STATUSES, o),
                worker_node: modelRef(NODES, nodeName),
              }),
              { maxLength: 2 },
            ),
          }),
        )
        .map(([uuid, rest]) => ({ job: { uuid, _links: selfLink(`${JOBS}/${uuid}`) }, ...rest })),
      { maxLength: 2 },
    ),
    shelf: some({ in_progress_count: fc.nat({ max: 10 }), update_status: enumOf(FIRMWARE_UPDATE_STATUSES, o) }),
    dqp: some({
      revision: fc.constantFrom("20200330", "20231012"),
      version: fc.constantFrom("3.18", "4.02"),
      file_name: fc.constantFrom("qual_devices_v3", "qual_devices_v4"),
      record_count: some({
        drive: fc.nat({ max: 1000 }),
        system: fc.nat({ max: 10 }),
        device: fc.nat({ max: 100 }),
        alias: fc.nat({ max: 500 }),
      }),
    }),
    sp_bmc: fc
      .tuple(
        interval,
        some({
          image: enumOf(SP_BMC_IMAGES, o),
          is_current: fc.boolean(),
          percent_done: fc.integer({ min: 0, max: 100 }),
          running_version: fc.constantFrom("1.0", "5.11", "11.8"),
          fw_type: enumOf(SP_BMC_FW_TYPES, o),
          in_progress: fc.boolean(),
          state: enumOf(SP_BMC_STATES, o),
          last_update_state: enumOf(SP_BMC_LAST_UPDATE_STATES, o),
          autoupdate: fc.boolean(),
        }),
        fc.boolean(),
      )
      .map(([times, rest, timed]) => (timed ? { start_time: times.start, end_time: times.end, ...rest } : rest)),
    disk: some({
      num_waiting_download: fc.nat({ max: 100 }),
      total_completion_estimate: fc.nat({ max: 600 }),
      average_duration_per_disk: fc.nat({ max: 600 }),
      update_status: enumOf(FIRMWARE_UPDATE_STATUSES, o),
    }),
  });

/**
 * Cluster software profiles as a server returns them (`GET /api/cluster/software`): versions
 * like `9.14.1`; `state` and `action` from the spec's sets; durations in whole seconds;
 * validation and post-update check entries; per-phase `update_details`; `status_details` with
 * start ≤ end; per-node versions and firmware; the MetroCluster progress. Every member is
 * optional. `software.decode` returns each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwareProfileModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwareProfileModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwareProfileModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwareProfile> {
  const state = enumOf(SOFTWARE_STATES, o);
  const profile = some({
    version: arbStorageVersion(),
    pending_version: arbStorageVersion(),
    state,
    action: enumOf(SOFTWARE_ACTIONS, o),
    elapsed_duration: duration,
    estimated_duration: duration,
    validation_results: fc.array(checkEntry(o), { maxLength: 3 }),
    post_update_checks: fc.array(checkEntry(o), { maxLength: 2 }),
    update_details: fc.array(
      some({
        estimated_duration: duration,
        elapsed_duration: duration,
        state,
        phase: fc.constantFrom("Pre-update checks", "Data ONTAP updates", "Post-update checks"),
        node: nodeName.map((name) => ({ name })),
      }),
      { maxLength: 4 },
    ),
    status_details: fc.array(
      fc
        .tuple(
          interval,
          some({
            state,
            node: nodeName.map((name) => ({ name })),
            name: fc.constantFrom("do-download-job", "do-update-job", "do-takeover"),
            issue: some({ code: fc.nat({ max: 100 }), message: fc.constantFrom("", "Image update complete.") }),
            action: some({
              code: fc.nat({ max: 100 }),
              message: fc.constantFrom("", "Wait for the node to come back."),
            }),
          }),
        )
        .map(([times, rest]) => ({ start_time: times.start, end_time: times.end, ...rest })),
      { maxLength: 3 },
    ),
    nodes: fc.array(
      some({
        name: nodeName,
        model: fc.constantFrom("AFF-A400", "FAS8300", "sim"),
        version: arbStorageVersion(),
        firmware: firmware(o),
      }),
      { maxLength: 2 },
    ),
    metrocluster: some({
      progress_summary: some({ message: fc.constantFrom("", "Upgrade in progress on cluster_A.") }),
      progress_details: some({ message: fc.constantFrom("", "Switchover complete.") }),
      clusters: fc.array(
        some({
          name: fc.constantFrom("cluster_A", "cluster_B"),
          state,
          estimated_duration: duration,
          elapsed_duration: duration,
        }),
        { maxLength: 2 },
      ),
    }),
  }).map((p): SoftwareProfile => ({ ...p, _links: selfLink("/api/cluster/software") }));
  return withNewer(halOrPlain(profile), o);
}

/**
 * Software packages (`version` always, `create_time` when read one by one, `_links` to `/api/cluster/software/packages/<version>`); `softwarePackage.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwarePackageModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwarePackageModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwarePackageModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwarePackage> {
  const pkg = fc.tuple(arbStorageVersion(), maybe(arbStorageDateTime())).map(
    ([version, created]): SoftwarePackage => ({
      version,
      ...(created === undefined ? {} : { create_time: created }),
      _links: selfLink(`/api/cluster/software/packages/${encodeURIComponent(version)}`),
    }),
  );
  return withNewer(halOrPlain(pkg), o);
}

/**
 * Software history records: a node reference, `from_version` before `to_version` (a later
 * minor release), a state from the spec's set, `start_time` ≤ `end_time`. Members other than
 * the versions are optional. `softwareHistory.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwareHistoryModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwareHistoryModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwareHistoryModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwareHistoryRecord> {
  const rec = fc
    .tuple(
      fc.tuple(
        fc.integer({ min: 9, max: 10 }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat({ max: 1 }),
      ),
      interval,
      some({ node: modelRef(NODES, nodeName), state: enumOf(SOFTWARE_HISTORY_STATES, o) }),
      fc.boolean(),
    )
    .map(
      ([[major, minor, step, micro], times, rest, timed]): SoftwareHistoryRecord => ({
        ...rest,
        from_version: `${major}.${minor}.${micro}`,
        to_version: `${major}.${minor + step}.${micro}`,
        ...(timed ? { start_time: times.start, end_time: times.end } : {}),
      }),
    );
  return withNewer(rec, o);
}

const TRANSFER_FAILURES = Object.values(PACKAGE_TRANSFER_ERRORS).filter(
  (e) => e.code !== PACKAGE_TRANSFER_ERRORS.FIRMWARE_UPDATE_COMPLETED.code,
);

/**
 * Download progress (`GET /api/cluster/software/download`): `not_started` and `success` with
 * code 0, `running` with code 10551382, `failure` with a code and message from the spec's
 * package-transfer table. `softwareDownload.decode` returns each unchanged; none carries a password.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwareDownloadProgressModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwareDownloadProgressModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwareDownloadProgressModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwareDownloadProgress> {
  const progress = fc
    .tuple(fc.constantFrom(...SOFTWARE_DOWNLOAD_STATES), fc.constantFrom(...TRANSFER_FAILURES))
    .map(([state, failure]): SoftwareDownloadProgress => {
      switch (state) {
        case "not_started":
          return { state, message: "No package download has been started.", code: 0 };
        case "running":
          return { state, message: "Package download in progress", code: 10551382 };
        case "success":
          return { state, message: "Package download completed.", code: 0 };
        case "failure":
          return { state, message: failure.meaning, code: failure.code };
      }
      throw new Error(`unknown download state ${JSON.stringify(state satisfies never)}`);
    });
  return withNewer(progress, o);
}

/**
 * Package download POST bodies: an `http`, `https` or `ftp` URL of a package file whose name
 * holds a version (`image_9.15.1P2.tgz`), optional `username` and `password` (8..24 printable
 * characters). `softwareDownload.encodePost` accepts every value.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { softwareDownload } from "clusterwire/storage";
 * import { arbSoftwareDownloadPost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbSoftwareDownloadPost(), (input) => typeof softwareDownload.encodePost(input) === "object"));
 * ```
 */
export function arbSoftwareDownloadPost(): fc.Arbitrary<SoftwareDownloadInput> {
  const url = fc
    .tuple(
      fc.constantFrom("http", "https", "ftp"),
      fc.constantFrom("packages.example.com", "10.0.0.5", "mirror.example.net:8080"),
      fc.array(fc.constantFrom("ontap", "images", "release", "pub"), { maxLength: 2 }),
      arbStorageVersion(),
      fc.constantFrom("image_%.tgz", "%_q_image.tgz", "ontap-%.tgz"),
    )
    .map(
      ([scheme, host, dirs, version, pattern]) =>
        `${scheme}://${host}/${[...dirs, pattern.replace("%", version)].join("/")}`,
    );
  return some(
    {
      url,
      username: fc.constantFrom("admin", "download", "svc_fw"),
      password: fc.stringMatching(/^[A-Za-z0-9!#%&*+.:=?@^_~-]{8,24}$/),
    },
    ["url"],
  );
}

/**
 * Options of {@link arbSoftwarePatch}: the versions to draw from.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwarePatch } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwarePatch({ versions: ["9.15.1", "9.16.1"] }), 2));
 * ```
 */
export interface ArbSoftwarePatchOptions {
  /** Versions `version` may name (e.g. the packages on the cluster); default random versions. */
  readonly versions?: readonly string[];
}

/**
 * Software PATCH bodies: `{version}` (start an install, or a validation or estimate with the
 * query flags) or `{action}` (pause, cancel, resume), never both. `software.encodePatch`
 * accepts every value.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { software } from "clusterwire/storage";
 * import { arbSoftwarePatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbSoftwarePatch(), (input) => typeof software.encodePatch(input) === "object"));
 * ```
 */
export function arbSoftwarePatch(options: ArbSoftwarePatchOptions = {}): fc.Arbitrary<SoftwarePatchInput> {
  const version =
    options.versions === undefined
      ? arbStorageVersion()
      : fc.constantFrom(...need(options.versions, "version", "arbSoftwarePatch"));
  return fc.oneof(
    version.map((v): SoftwarePatchInput => ({ version: v })),
    fc.constantFrom(...SOFTWARE_ACTIONS).map((action: SoftwareAction): SoftwarePatchInput => ({ action })),
  );
}

/**
 * Software PATCH query flags that `software.encodePatchQuery` accepts: booleans,
 * `stabilize_minutes` 1..60, `action`, `nodes_to_update` (1..3 distinct node names without
 * commas, from `nodes` when given) and `return_timeout` 0..120.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwarePatchQuery } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwarePatchQuery(), 2));
 * ```
 */
export function arbSoftwarePatchQuery(
  options: { readonly nodes?: readonly string[] } = {},
): fc.Arbitrary<SoftwarePatchQuery> {
  const node =
    options.nodes === undefined ? nodeName : fc.constantFrom(...need(options.nodes, "node", "arbSoftwarePatchQuery"));
  return some({
    validate_only: fc.boolean(),
    skip_warnings: fc.boolean(),
    action: fc.constantFrom(...SOFTWARE_ACTIONS),
    stabilize_minutes: fc.integer({ min: 1, max: 60 }),
    estimate_only: fc.boolean(),
    nodes_to_update: fc.uniqueArray(node, { minLength: 1, maxLength: 3 }),
    return_timeout: fc.integer({ min: 0, max: 120 }),
  });
}

// ---- jobs, collections, errors ------------------------------------------------------------------

const JOB_DESCRIPTIONS = [
  `POST ${CACHES}`,
  `DELETE ${CACHES}`,
  "PATCH /api/cluster/software",
  "POST /api/cluster/software/download",
  "DELETE /api/cluster/software/packages",
] as const;

/**
 * Job records (`GET /api/cluster/jobs/<uuid>`): `uuid`, `description` `<METHOD> <path>`,
 * `state`, `message`, integer `code`, `start_time`; a terminal state has `end_time` ≥
 * `start_time`; `success` has code 0 and no `error`; `failure` has a non-zero code and an
 * `error` whose string code is that code's digits; `_links.self` is `/api/cluster/jobs/<uuid>`.
 * `job.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbJobModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbJobModel({ newerServer: true }), 2));
 * ```
 */
export function arbJobModel(o: StorageModelOptions = {}): fc.Arbitrary<Job> {
  const failure = fc.constantFrom(
    { code: 262191, message: "The origin volume is offline." },
    { code: 2228331, message: "Copy of the file from the web server failed." },
    { code: 10551388, message: "Package delete operation timed out." },
  );
  const j = fc
    .tuple(
      arbStorageUuid(),
      fc.constantFrom(...JOB_STATES),
      fc.constantFrom(...JOB_DESCRIPTIONS),
      interval,
      failure,
      some({ svm: modelRef(SVMS), node: modelRef(NODES, nodeName) }),
    )
    .map(([uuid, state, description, times, fail, refs]): Job => {
      const ended = state === "success" || state === "failure";
      const outcome =
        state === "failure"
          ? { message: fail.message, code: fail.code, error: { code: String(fail.code), message: fail.message } }
          : {
              message:
                state === "success"
                  ? "success"
                  : state === "queued"
                    ? "Queued"
                    : state === "paused"
                      ? "Paused"
                      : "Running",
              code: 0,
            };
      return {
        uuid,
        description,
        state,
        ...outcome,
        start_time: times.start,
        ...(ended ? { end_time: times.end } : {}),
        ...refs,
        _links: selfLink(`${JOBS}/${uuid}`),
      };
    });
  return withNewer(halOrPlain(j), o);
}

/**
 * Answers of asynchronous calls: `{job: {uuid, _links}}`, or for a query-based change
 * `{num_records, jobs: [...]}` with `num_records` equal to the number of jobs. `job.decodeAccepted`
 * returns each unchanged and `job.hrefOf` finds `/api/cluster/jobs/<uuid>` for a single job.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbJobAcceptedModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbJobAcceptedModel(), 2));
 * ```
 */
export function arbJobAcceptedModel(): fc.Arbitrary<AcceptedResponse> {
  const ref = arbStorageUuid().map((uuid) => ({ uuid, _links: selfLink(`${JOBS}/${uuid}`) }));
  return fc.oneof(
    ref.map((job): AcceptedResponse => ({ job })),
    fc
      .uniqueArray(ref, { maxLength: 4, selector: (r) => r.uuid })
      .map((jobs): AcceptedResponse => ({ num_records: jobs.length, jobs })),
  );
}

/**
 * Options of {@link arbCollectionModel}: the collection's path and how many records a page holds.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCollectionModel, arbJobModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCollectionModel(arbJobModel(), { path: "/api/cluster/jobs", maxRecords: 2 }), 1));
 * ```
 */
export interface ArbCollectionOptions {
  /** The collection path for `_links`; default `/api/storage/namespaces`. */
  readonly path?: string;
  /** Largest page; default 5. */
  readonly maxRecords?: number;
}

/**
 * Collection pages `{records, num_records, _links: {self, next?}}` of `item` values:
 * `num_records` is the number of records; `next` (when more pages follow) repeats the query
 * with the next offset; a count-only answer (`return_records=false`) has no `records`.
 * `collection.decode(page, codec)` returns each page unchanged when `codec.decode` returns each item unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCollectionModel, arbQuotaRuleModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCollectionModel(arbQuotaRuleModel(), { maxRecords: 3 }), 1));
 * ```
 */
export function arbCollectionModel<T>(
  item: fc.Arbitrary<T>,
  options: ArbCollectionOptions = {},
): fc.Arbitrary<Collection<T>> {
  const path = options.path ?? NAMESPACES;
  const max = options.maxRecords ?? 5;
  const page = fc
    .tuple(fc.array(item, { maxLength: max }), fc.nat({ max: 50 }), fc.boolean())
    .map(([records, offset, more]): Collection<T> => {
      const query = `max_records=${max}&offset=${offset}`;
      return {
        records,
        num_records: records.length,
        _links: {
          self: { href: `${path}?${query}` },
          // A page cut short by the server's time limit may be empty and then has no next link.
          ...(more && records.length > 0
            ? { next: { href: `${path}?max_records=${max}&offset=${offset + records.length}` } }
            : {}),
        },
      };
    });
  const count = fc
    .nat({ max: 10_000 })
    .map((n): Collection<T> => ({ num_records: n, _links: selfLink(`${path}?return_records=false`) }));
  return fc.oneof({ arbitrary: page, weight: 4 }, { arbitrary: count, weight: 1 });
}

const ERROR_EXAMPLES = [
  { code: "2", message: 'Field "uuid" must be a string.', target: "uuid" },
  { code: "4", message: "Entry doesn't exist.", target: "uuid" },
  { code: "6", message: "Not authorized: valid credentials are required." },
  { code: "262197", message: "Value out of range, allowed <0..120>.", target: "return_timeout" },
  { code: "2621573", message: "SVM is temporarily locked while recording the configuration baseline." },
] as const;

const TABLE_ERRORS = [
  ...Object.values(PACKAGE_TRANSFER_ERRORS),
  ...Object.values(PACKAGE_UPLOAD_ERRORS),
  ...Object.values(PACKAGE_DELETE_ERRORS),
];

/**
 * API error bodies `{error: {message, code, target?, arguments?}}`:
 * `code` a string of digits (upstream examples and the spec's tables), optional `target` (a
 * field path) and `arguments` `{code, message}`. `apiError.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbApiErrorModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbApiErrorModel(), 2));
 * ```
 */
export function arbApiErrorModel(): fc.Arbitrary<ApiErrorBody> {
  const detail = fc.oneof(
    fc.constantFrom(...ERROR_EXAMPLES).map((e) => ({ ...e })),
    fc.constantFrom(...TABLE_ERRORS).map((e) => ({ code: String(e.code), message: e.meaning })),
  );
  return fc
    .tuple(
      detail,
      maybe(fc.constantFrom("svm.name", "space.size", "name", "origins[0].volume.name", "stabilize_minutes")),
      fc.array(
        all({ code: fc.nat({ max: 99_999_999 }).map(String), message: fc.constantFrom("vs1", "vol1", "9.16.1") }),
        { maxLength: 2 },
      ),
    )
    .map(([d, target, args]): ApiErrorBody => {
      const error: ApiErrorBody["error"] = { message: d.message, code: d.code };
      const t = "target" in d ? d.target : target;
      if (t !== undefined) error.target = t;
      if (args.length > 0) error.arguments = args;
      return { error };
    });
}
