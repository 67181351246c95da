// The calls the per-resource APIs (resources.ts, software-api.ts) make on the client, and nothing
// else. StorageClient implements it; the resources depend on it, not on client.ts, so imports
// point one way: client.ts -> resources.ts -> resource-calls.ts <- client.ts.

import type {
  CallOptions,
  MutationOptions,
  MutationResult,
  RequestOptions,
  StoragePaths,
  UploadFile,
} from "./options.js";
import type { QueryObject } from "./query.js";

/**
 * What a resource object asks of its client: the API paths, one request, a paged list, a count, a
 * mutation that waits for its job, and a file upload. `StorageClient` is the implementation; a
 * resource is constructed with the client that owns it.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * // client.svms.count() is client.count(client.paths.svms): the resource calls its client.
 * console.log(await client.svms.count(), await client.count(client.paths.svms));
 * client.close();
 * await server.close();
 * ```
 */
export interface ResourceCalls {
  /** The API paths (the software API reads its sub-resources' paths here). */
  readonly paths: StoragePaths;
  /** One call; resolves to the parsed JSON body (undefined when empty). */
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T | undefined>;
  /** The records of a collection, lazily, across all pages. */
  list<T = unknown>(
    path: string,
    query?: QueryObject,
    options?: CallOptions & { readonly decode?: (json: unknown) => T },
  ): AsyncGenerator<T, void, undefined>;
  /** `num_records` of a collection query. */
  count(path: string, query?: QueryObject, options?: CallOptions): Promise<number>;
  /** POST / PATCH / DELETE; waits for the answer's job(s) unless `wait: false`. */
  mutate<T = unknown>(
    method: "POST" | "PATCH" | "DELETE",
    path: string,
    options?: MutationOptions & { readonly body?: unknown },
  ): Promise<MutationResult<T>>;
  /** POSTs a multipart/form-data body with one file part; waits for the job like `mutate`. */
  postFile(
    path: string,
    file: UploadFile,
    options?: MutationOptions & { readonly field?: string },
  ): Promise<MutationResult>;
}
