// Types shared by the storage models: HAL links, references, Size input.

/**
 * One HAL link.
 *
 * @example
 * ```ts
 * import { type Collection, type Link } from "clusterwire/storage";
 *
 * const next = (page: Collection<unknown>): Link | undefined => page._links?.next;
 * ```
 */
export interface Link {
  /** The linked URL path. */
  href: string;
}

/**
 * `_links`: `self`, and on collections `next`; other relations are kept as given.
 *
 * @example
 * ```ts
 * import { type Collection, type Links } from "clusterwire/storage";
 *
 * const links = (page: Collection<unknown>): Links | undefined => page._links;
 * ```
 */
export interface Links {
  /** The record's or page's own link. */
  self?: Link;
  /** The next page of a collection, when there is one. */
  next?: Link;
  [rel: string]: Link | undefined;
}

/**
 * `{uuid, name, _links}`: an SVM, volume or node reference.
 *
 * @example
 * ```ts
 * import { type Cache, type Reference } from "clusterwire/storage";
 *
 * const svmOf = (c: Cache): Reference | undefined => c.svm;
 * ```
 */
export interface Reference {
  /** The object's uuid. */
  uuid?: string;
  /** The object's name. */
  name?: string;
  /** The object's link. */
  _links?: Links;
}

/**
 * A reference in a request body: `uuid` and/or `name`.
 *
 * @example
 * ```ts
 * import { cache, type ReferenceInput } from "clusterwire/storage";
 *
 * const svm: ReferenceInput = { name: "svm2" };
 * const body = cache.encodePost({ name: "c1", svm, origins: [{ volume: { uuid: "00000000-0000-4000-8000-d00000000001" }, svm: { name: "svm1" } }] });
 * ```
 */
export interface ReferenceInput {
  /** The object's uuid. */
  uuid?: string;
  /** The object's name. */
  name?: string;
}

/**
 * A Size on input: an integer number of bytes, or a string of digits with an
 * optional binary suffix (`"40M"`, `"1g"`, `"512B"`, `"4096"`); see `parseSize`.
 *
 * @example
 * ```ts
 * import { parseSize, type SizeInput } from "clusterwire/storage";
 *
 * const sizes: SizeInput[] = [1048576, "1M", "1024K"];
 * console.log(sizes.map((s) => parseSize(s))); // [ 1048576, 1048576, 1048576 ]
 * ```
 */
export type SizeInput = number | string;

/**
 * An object with a `_links` member (every record of a HAL response may have one).
 *
 * @example
 * ```ts
 * import type { WithLinks } from "clusterwire/storage";
 *
 * const self = (record: WithLinks): string | undefined => record._links?.self?.href;
 * ```
 */
export interface WithLinks {
  /** The record's links. */
  _links?: Links;
}

/**
 * A string enum decoded leniently: the known values, or any other string a newer server sends.
 *
 * @example
 * ```ts
 * import { type Lenient, type SoftwareState } from "clusterwire/storage";
 *
 * // A state a newer server may add: known values, or any other string.
 * const state: Lenient<SoftwareState> = "some_future_state";
 * ```
 */
export type Lenient<T extends string> = T | (string & {});
