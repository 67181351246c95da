// Collections: `{records, num_records, _links: {self, next}}`.

import type { Links } from "./common.js";
import { StorageCodecError } from "./errors.js";
import { decodeLinks, isPlainObject, setOwn } from "./schema.js";

/** A page of a collection GET (or a POST answer with `return_records`). */
export interface Collection<T> {
  /** Absent when the server sent none (e.g. `return_records=false`). */
  records?: T[];
  num_records?: number;
  /** `self`, and `next` while more pages follow. */
  _links?: Links;
}

/** Anything with a `decode` for one record, e.g. `cache` or `nvmeNamespace`. */
export interface ItemCodec<T> {
  decode(json: unknown): T;
}

function prefix(error: unknown, path: string): unknown {
  if (!(error instanceof StorageCodecError)) return error;
  return new StorageCodecError(error.path === "" ? path : `${path}.${error.path}`, error.reason);
}

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
