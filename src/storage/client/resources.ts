// The per-resource APIs of StorageClient: read-only collections, resources with
// get/create/update/delete, and resources that also PATCH and DELETE by query.

import { StorageCodecError } from "../codecs/errors.js";
import type { ResourceCalls } from "./resource-calls.js";
import type { ResourceCodec } from "./codec-hooks.js";
import { StorageProtocolError } from "./errors.js";
import { isObject } from "./objects.js";
import type { CallOptions, CreateResult, MutationOptions, MutationResult } from "./options.js";
import { queryFilters, type Query, type QueryObject } from "./query.js";

/**
 * A read-only collection: list, count, find.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * for await (const svm of client.svms.list({ fields: "name", max_records: 1 })) console.log(svm.name);
 * console.log(await client.svms.count(), (await client.svms.find({ name: "svm2" }))?.uuid);
 * client.close();
 * await server.close();
 * ```
 */
export class StorageCollectionApi<R> {
  readonly #client: ResourceCalls;
  readonly #path: string;
  readonly #decode: ((json: unknown) => R) | undefined;

  constructor(client: ResourceCalls, path: string, decode: ((json: unknown) => R) | undefined) {
    this.#client = client;
    this.#path = path;
    this.#decode = decode;
  }

  /** The collection's path, e.g. `/api/svm/svms`. */
  get path(): string {
    return this.#path;
  }

  protected decode(json: unknown): R {
    return this.#decode === undefined ? (json as R) : this.#decode(json);
  }

  /** All matching records across pages. `query` takes `fields`, `max_records`, `order_by`, `return_timeout` and dotted filters. */
  list(query?: Query, options: CallOptions = {}): AsyncGenerator<R, void, undefined> {
    return this.#client.list<R>(this.#path, query, { ...options, decode: (j) => this.decode(j) });
  }

  /** Collects `list` into an array. */
  async all(query?: Query, options: CallOptions = {}): Promise<R[]> {
    const out: R[] = [];
    for await (const r of this.list(query, options)) out.push(r);
    return out;
  }

  /** How many records match `query` (the API's `num_records`), without fetching them. */
  count(query?: Query, options: CallOptions = {}): Promise<number> {
    return this.#client.count(this.#path, query, options);
  }

  /** The one record matching `query` (default `fields=*`), undefined if none; throws if several. */
  async find(query: Query = {}, options: CallOptions = {}): Promise<R | undefined> {
    const found: R[] = [];
    for await (const r of this.list({ fields: "*", ...query }, options)) {
      found.push(r);
      if (found.length > 1) throw new StorageProtocolError(`GET ${this.#path}`, "find matched more than one record");
    }
    return found[0];
  }
}

/**
 * A read-only resource: the collection's list, all, count and find, and `get` of one
 * record by its key (its uuid). The client's `svms` and `nodes` are read-only resources.
 * An error answer (an unknown uuid: HTTP 404) rejects with `StorageApiError`, carrying the
 * HTTP status and the API's error code.
 *
 * @example
 * import type { StorageClient } from "clusterwire/storage";
 *
 * declare const client: StorageClient;
 * const svm = await client.svms.get("00000000-0000-4000-8000-b00000000001");
 * const names = (await client.nodes.all({ fields: "name,model" })).map((n) => n.name);
 */
export class StorageReadOnlyResource<R, K = string> extends StorageCollectionApi<R> {
  readonly #client: ResourceCalls;
  readonly #instance: (key: K) => string;

  constructor(
    client: ResourceCalls,
    path: string,
    instance: (key: K) => string,
    decode: ((json: unknown) => R) | undefined,
  ) {
    super(client, path, decode);
    this.#client = client;
    this.#instance = instance;
  }

  /** The instance path of a key. */
  instancePath(key: K): string {
    return `${this.path}/${this.#instance(key)}`;
  }

  /** One record by its key; `query` takes `fields` (e.g. `{ fields: "*" }`). */
  async get(key: K, query?: Query, options: CallOptions = {}): Promise<R> {
    const json = await this.#client.request("GET", this.instancePath(key), {
      ...(query === undefined ? {} : { query }),
      ...options,
    });
    return this.decode(json);
  }
}

/**
 * A resource with list / get / create / update / delete. K is its key (a uuid, or node uuid + uuid for clone tokens).
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const { record } = await client.quotaRules.create(
 *   { svm: { name: "svm1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "q1" } },
 *   { query: { return_records: true } },
 * );
 * await client.quotaRules.update(record!.uuid!, { space: { hard_limit: "20G" } });
 * await client.quotaRules.delete(record!.uuid!);
 * client.close();
 * await server.close();
 * ```
 */
export class StorageResource<R, C, U, K> extends StorageReadOnlyResource<R, K> {
  readonly #client: ResourceCalls;
  readonly #codec: ResourceCodec<R, C, U>;

  constructor(client: ResourceCalls, path: string, instance: (key: K) => string, codec: ResourceCodec<R, C, U>) {
    super(client, path, instance, codec.decode === undefined ? undefined : (j) => codec.decode!(j));
    this.#client = client;
    this.#codec = codec;
  }

  /** POST; the body goes through the codec's `encodePost` when one is set. Waits for a job. */
  async create(input: C, options: MutationOptions = {}): Promise<CreateResult<R>> {
    const body = this.#codec.encodePost === undefined ? input : this.#codec.encodePost(input);
    const result = await this.#client.mutate("POST", this.path, { ...options, body });
    const records =
      isObject(result.body) && Array.isArray(result.body["records"]) ? (result.body["records"] as unknown[]) : [];
    return { ...result, record: records[0] === undefined ? undefined : this.decode(records[0]) };
  }

  /** A PATCH body: the input through the codec's `encodePatch` when one is set. */
  protected patchBody(input: U): unknown {
    return this.#codec.encodePatch === undefined ? input : this.#codec.encodePatch(input);
  }

  /** PATCH; the body goes through `encodePatch` when set (a refusal rejects; nothing is sent). Waits for a job. */
  async update(key: K, input: U, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#client.mutate("PATCH", this.instancePath(key), { ...options, body: this.patchBody(input) });
  }

  /** Deletes one record, and waits for its job unless `wait: false`. */
  async delete(key: K, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#client.mutate("DELETE", this.instancePath(key), options);
  }
}

/**
 * Options of {@link StorageBulkResource.updateMatching} and {@link StorageBulkResource.deleteMatching}.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * await client.quotaRules.deleteMatching({}, { all: true }); // every rule: refused without `all`
 * client.close();
 * await server.close();
 * ```
 */
export interface BulkOptions extends MutationOptions {
  /**
   * Allow a query without any filter: the change then applies to every record of the
   * collection (sent as the filter `uuid=*`, since a collection PATCH/DELETE needs one).
   * Default false: a query without filters is refused before anything is sent.
   */
  readonly all?: boolean;
}

/**
 * What a query-based update or delete answered: a {@link MutationResult} and how many records matched.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const { numRecords, jobs } = await client.quotaRules.updateMatching({ type: "tree" }, { space: { hard_limit: "5G" } });
 * console.log(numRecords, jobs.length);
 * client.close();
 * await server.close();
 * ```
 */
export interface BulkResult extends MutationResult {
  /** `num_records` of the answer: how many records matched the query (undefined when the server gave none). */
  readonly numRecords: number | undefined;
}

/**
 * A resource that also supports PATCH and DELETE by query on its collection (the API
 * definition: "Deleting or patching a collection by query applies to all records
 * matching the query"). Every job the server answers with (`jobs[]`) is waited for, unless
 * `wait: false`.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const result = await client.quotaRules.deleteMatching({ "volume.name": "vol1" });
 * console.log(result.numRecords);
 * client.close();
 * await server.close();
 * ```
 */
export class StorageBulkResource<R, C, U, K> extends StorageResource<R, C, U, K> {
  readonly #client: ResourceCalls;

  constructor(client: ResourceCalls, path: string, instance: (key: K) => string, codec: ResourceCodec<R, C, U>) {
    super(client, path, instance, codec);
    this.#client = client;
  }

  /** The query to send (`options.query` merged in); refuses one without filters unless `all`. */
  #bulkQuery(query: Query, options: BulkOptions): QueryObject {
    const merged: QueryObject = { ...options.query, ...query };
    if (queryFilters(merged).length > 0) return merged;
    if (options.all !== true) {
      throw new StorageCodecError(
        "query",
        "names no filter, so it would change every record of the collection; add a filter or pass { all: true }",
      );
    }
    return { ...merged, uuid: "*" };
  }

  async #bulk(
    method: "PATCH" | "DELETE",
    query: QueryObject,
    body: unknown,
    options: BulkOptions,
  ): Promise<BulkResult> {
    const { all: _all, ...rest } = options;
    const result = await this.#client.mutate(method, this.path, {
      ...rest,
      query,
      ...(body === undefined ? {} : { body }),
    });
    const n = isObject(result.body) ? result.body["num_records"] : undefined;
    return { ...result, numRecords: typeof n === "number" ? n : undefined };
  }

  /**
   * PATCHes every record matching `query` (filters such as `{ svm: { name: "vs1" } }` or
   * `{ name: "cache*" }`) with one body, routed through the codec's `encodePatch`. Waits for
   * every job. A query without filters is refused unless `{ all: true }`.
   */
  async updateMatching(query: Query, input: U, options: BulkOptions = {}): Promise<BulkResult> {
    const q = this.#bulkQuery(query, options);
    return this.#bulk("PATCH", q, this.patchBody(input), options);
  }

  /** DELETEs every record matching `query`. Waits for every job. A query without filters is refused unless `{ all: true }`. */
  async deleteMatching(query: Query, options: BulkOptions = {}): Promise<BulkResult> {
    return this.#bulk("DELETE", this.#bulkQuery(query, options), undefined, options);
  }
}
