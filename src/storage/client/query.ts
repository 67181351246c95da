// Query parameters: the Query types, their encoding (nested objects flatten to dotted
// names, arrays join with `,`), the checks made before sending, and the filters of a query.

import { StorageCodecError } from "../codecs/errors.js";

/**
 * One query value: a string, number or boolean.
 *
 * @example
 * ```ts
 * import { type QueryScalar, encodeQuery } from "clusterwire/storage";
 *
 * const limit: QueryScalar = 10;
 * console.log(encodeQuery({ max_records: limit }));
 * ```
 */
export type QueryScalar = string | number | boolean;
/**
 * A query value; arrays are joined with `,`; nested objects flatten to dotted names (`{svm: {name}}` → `svm.name`).
 *
 * @example
 * ```ts
 * import { type QueryValue, encodeQuery } from "clusterwire/storage";
 *
 * const names: QueryValue = ["svm1", "svm2"];
 * console.log(encodeQuery({ name: names })); // name=svm1,svm2
 * ```
 */
export type QueryValue = QueryScalar | readonly QueryScalar[] | QueryObject | undefined;
/**
 * Query parameters by name; nested objects flatten to dotted names.
 *
 * @example
 * ```ts
 * import { type QueryObject, encodeQuery } from "clusterwire/storage";
 *
 * const q: QueryObject = { svm: { name: "svm1" }, state: "online" };
 * console.log(encodeQuery(q)); // svm.name=svm1&state=online
 * ```
 */
export interface QueryObject {
  readonly [name: string]: QueryValue;
}
/**
 * Query parameters, by their wire names. Any other key is a filter on that (dotted) field,
 * with the API's operators in the value (`"<10G"`, `"vs1|vs2"`, `"!null"`, `"abc*"`).
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const big = await client.quotaRules.all({ fields: "*", order_by: "space.hard_limit desc", "space.hard_limit": ">1G", max_records: 100 });
 * client.close();
 * await server.close();
 * ```
 */
export interface Query extends QueryObject {
  /** Field list; `*` = all but expensive, `**` = everything. */
  readonly fields?: string | readonly string[];
  /** Records per page. */
  readonly max_records?: number;
  /** Ask a POST to answer with the created record. */
  readonly return_records?: boolean;
  /** Seconds, 0..120 (checked before sending; the API rejects other values with 262197). */
  readonly return_timeout?: number;
  /** Sort order, e.g. `name` or `size desc`. */
  readonly order_by?: string | readonly string[];
}

function flattenQuery(query: QueryObject, prefix: string, out: [string, string][]): void {
  for (const [key, value] of Object.entries(query)) {
    const name = prefix === "" ? key : `${prefix}.${key}`;
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      out.push([name, (value as readonly QueryScalar[]).map(String).join(",")]);
    } else if (typeof value === "object") {
      flattenQuery(value as QueryObject, name, out);
    } else {
      out.push([name, String(value)]);
    }
  }
}

function checkQuery(query: QueryObject): void {
  const rt = query["return_timeout"];
  if (rt !== undefined && !(typeof rt === "number" && Number.isInteger(rt) && rt >= 0 && rt <= 120)) {
    throw new StorageCodecError(
      "return_timeout",
      `must be an integer number of seconds in 0..120, got ${JSON.stringify(rt)}`,
    );
  }
  const mr = query["max_records"];
  if (mr !== undefined && !(typeof mr === "number" && Number.isInteger(mr) && mr >= 1)) {
    throw new StorageCodecError("max_records", `must be a positive integer, got ${JSON.stringify(mr)}`);
  }
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Percent-encodes a query component but keeps the API's list and operator characters readable.
function encodeComponent(s: string): string {
  return encodeURIComponent(s).replace(/%2C/g, ",").replace(/%7C/g, "|").replace(/%3A/g, ":");
}

/**
 * Encodes a query (without `?`); "" when empty. Exported for tests and tools.
 *
 * @example
 * ```ts
 * import { encodeQuery } from "clusterwire/storage";
 *
 * console.log(encodeQuery({ fields: ["name", "uuid"], svm: { name: "svm1" }, max_records: 10 }));
 * // fields=name,uuid&svm.name=svm1&max_records=10
 * ```
 */
export function encodeQuery(query: QueryObject | undefined): string {
  if (query === undefined) return "";
  checkQuery(query);
  const pairs: [string, string][] = [];
  flattenQuery(query, "", pairs);
  return pairs
    .map(([k, v]) => {
      // A lone surrogate has no UTF-8 form, so no percent-encoding (encodeURIComponent throws URIError).
      if (LONE_SURROGATE.test(k) || LONE_SURROGATE.test(v))
        throw new StorageCodecError(k, "must be well-formed Unicode text: a lone surrogate cannot be sent");
      return `${encodeComponent(k)}=${encodeComponent(v)}`;
    })
    .join("&");
}

/** Query parameters that are not filters: a bulk query made only of these matches everything. */
const NON_FILTER_PARAMS = new Set([
  "fields",
  "max_records",
  "return_records",
  "return_timeout",
  "order_by",
  "ignore_unknown_fields",
]);

/** The filters of a query (dotted name → value), without the control parameters. */
export function queryFilters(query: QueryObject): [string, string][] {
  const pairs: [string, string][] = [];
  flattenQuery(query, "", pairs);
  return pairs.filter(([name]) => !NON_FILTER_PARAMS.has(name));
}
