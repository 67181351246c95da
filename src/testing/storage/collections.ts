// Collection pages of any record arbitrary.

import fc from "fast-check";
import type { Collection } from "../../storage/index.js";
import { selfLink, NAMESPACES } from "./shared.js";

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
