// Caches (/api/storage/cache/caches): models and request bodies.

import fc from "fast-check";
import {
  CACHE_GUARANTEE_TYPES,
  CACHE_ORIGIN_STATES,
  CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE,
  type Cache,
  type CachePatchInput,
  type CachePostInput,
} from "../../storage/index.js";
import type { StorageModelOptions, StorageBodyOptions } from "./options.js";
import {
  GiB,
  TiB,
  type Known,
  REF_FORMS,
  all,
  some,
  maybe,
  isEmpty,
  refTo,
  selfLink,
  halOrPlain,
  enumOf,
  withNewer,
  need,
  targetVolumes,
  CACHES,
  SVMS,
  VOLUMES,
} from "./shared.js";
import {
  arbStorageSize,
  SIZE_SPELLINGS,
  spellSize,
  arbStorageName,
  arbStorageUuid,
  arbStorageReference,
  arbStoragePath,
  arbStorageDateTime,
  modelRef,
} from "./building-blocks.js";

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
