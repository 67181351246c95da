// Collections: `{records, num_records, _links: {self, next}}`.

import type { Links } from "./common.js";
import { StorageCodecError } from "./errors.js";
import { decodeLinks, isPlainObject, setOwn } from "./schema.js";

/**
 * A page of a collection GET (or a POST answer with `return_records`).
 *
 * @example
 * ```ts
 * import { type Collection, collection, type Job, job } from "clusterwire/storage";
 *
 * const page: Collection<Job> = collection.decode({ records: [], num_records: 0 }, job);
 * ```
 */
export interface Collection<T> {
  /** Absent when the server sent none (e.g. `return_records=false`). */
  records?: T[];
  /** How many records this page holds. */
  num_records?: number;
  /** `self`, and `next` while more pages follow. */
  _links?: Links;
}

/**
 * Anything with a `decode` for one record, e.g. `cache` or `nvmeNamespace`.
 *
 * @example
 * ```ts
 * import { collection, type ItemCodec } from "clusterwire/storage";
 *
 * const names: ItemCodec<string> = { decode: (json) => String((json as { name?: unknown }).name) };
 * console.log(collection.decode({ records: [{ name: "svm1" }] }, names).records); // [ "svm1" ]
 * ```
 */
export interface ItemCodec<T> {
  /** Decodes one record; throws StorageCodecError for a bad one. */
  decode(json: unknown): T;
}

function prefix(error: unknown, path: string): unknown {
  if (!(error instanceof StorageCodecError)) return error;
  return new StorageCodecError(error.path === "" ? path : `${path}.${error.path}`, error.reason);
}

/**
 * Decodes a collection page (`records`, `num_records`, `_links`), each record with an item codec.
 *
 * @example
 * ```ts
 * import { collection, job } from "clusterwire/storage";
 *
 * const page = collection.decode({ records: [{ uuid: "00000000-0000-4000-8000-000000000001", state: "success" }], num_records: 1 }, job);
 * console.log(page.records?.[0]?.state, page.num_records); // "success" 1
 * ```
 */
export const collection = {
  /**
   * Decodes a collection page, each record with `itemCodec`; errors in a record
   * carry the path `records[i].<field>`. `_links` (incl. `next`) and other
   * top-level members are kept; nothing is defaulted.
   */
  decode<T>(json: unknown, itemCodec: ItemCodec<T>): Collection<T> {
    if (!isPlainObject(json)) throw new StorageCodecError("", "a collection must be an object");
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(json)) {
      if (key === "records") {
        if (!Array.isArray(value)) throw new StorageCodecError("records", "must be an array");
        out[key] = value.map((record, i) => {
          try {
            return itemCodec.decode(record);
          } catch (error) {
            throw prefix(error, `records[${i}]`);
          }
        });
      } else if (key === "num_records") {
        if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
          throw new StorageCodecError("num_records", "must be a non-negative integer");
        }
        out[key] = value;
      } else if (key === "_links") {
        out[key] = decodeLinks(value, "_links");
      } else {
        setOwn(out, key, value);
      }
    }
    return out as Collection<T>;
  },
  /** The `_links.next.href` of a page, or undefined on the last page. */
  nextHref(page: Collection<unknown>): string | undefined {
    return page._links?.next?.href;
  },
} as const;
