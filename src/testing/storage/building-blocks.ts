// Building blocks of the storage API: sizes, durations, names, UUIDs, references, versions,
// paths, namespace names and timestamps.

import fc from "fast-check";
import {
  formatDuration,
  type LifetimeInput,
  type Links,
  type ReferenceInput,
  type SizeInput,
} from "../../storage/index.js";
import type { StorageSizeRange } from "./options.js";
import { KiB, MiB, GiB, TiB, DAY, REF_FORMS, maybe, refTo, selfLink, isoAt, instant } from "./shared.js";

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

export const SIZE_SPELLINGS = ["number", "digits", "unit", "unit-lower", "unit-b", "unit-b-lower", "bytes-b"] as const;
export type SizeSpelling = (typeof SIZE_SPELLINGS)[number];

/** One spelling of a byte count that `parseSize` reads back as the same count. */
export function spellSize(bytes: number, how: SizeSpelling): SizeInput {
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
export const namespaceBase = fc.oneof(
  { arbitrary: arbStorageName(), weight: 3 },
  fc.tuple(arbStorageName(), fc.nat({ max: 99 })).map(([n, i]) => `${n}-${String(i).padStart(2, "0")}`),
  arbStorageName().map((n) => `${n}.ns`),
);

export const namespacePath = (volume: string, qtree: string | undefined, base: string): string =>
  `/vol/${volume}${qtree === undefined ? "" : `/${qtree}`}/${base}`;

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

/** `{uuid, name, _links}` as a server writes a reference to an SVM, volume or node. */
export function modelRef(
  base: string,
  name: fc.Arbitrary<string> = arbStorageName(),
): fc.Arbitrary<{ uuid: string; name: string; _links: Links }> {
  return fc.tuple(arbStorageUuid(), name).map(([uuid, n]) => ({ uuid, name: n, _links: selfLink(`${base}/${uuid}`) }));
}
