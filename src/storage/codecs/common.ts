// Types shared by the storage models: HAL links, references, Size input.

/** One HAL link. */
export interface Link {
  href: string;
}

/** `_links`: `self`, and on collections `next`; other relations are kept as given. */
export interface Links {
  self?: Link;
  next?: Link;
  [rel: string]: Link | undefined;
}

/** `{uuid, name, _links}`: an SVM, volume or node reference. */
export interface Reference {
  uuid?: string;
  name?: string;
  _links?: Links;
}

/** A reference in a request body: `uuid` and/or `name`. */
export interface ReferenceInput {
  uuid?: string;
  name?: string;
}

/**
 * A Size on input: an integer number of bytes, or a string of digits with an
 * optional binary suffix (`"40M"`, `"1g"`, `"512B"`, `"4096"`); see `parseSize`.
 */
export type SizeInput = number | string;

/** An object with a `_links` member (every record of a HAL response may have one). */
export interface WithLinks {
  _links?: Links;
}

/** A string enum decoded leniently: the known values, or any other string a newer server sends. */
export type Lenient<T extends string> = T | (string & {});
