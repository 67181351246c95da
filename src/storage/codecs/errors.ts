// The typed errors of clusterwire/storage. Neither ever carries a password:
// callers redact secrets before building one, and messages never echo bodies.

/**
 * A request body or response the codecs refuse, with the field path that is wrong.
 *
 * @example
 * ```ts
 * import { StorageCodecError, cache } from "clusterwire/storage";
 *
 * try {
 *   cache.encodePost({ name: "c", svm: { name: "svm1" }, origins: [] });
 * } catch (e) {
 *   if (e instanceof StorageCodecError) console.log(e.path, e.reason);
 * }
 * ```
 */
export class StorageCodecError extends Error {
  /** Always `"StorageCodecError"`. */
  override readonly name = "StorageCodecError";
  /** Dotted field path, e.g. `space.block_size` or `origins[0].volume`; "" for the whole body. */
  readonly path: string;
  /** The reason without the path prefix. */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super(path === "" ? reason : `${path}: ${reason}`);
    this.path = path;
    this.reason = reason;
  }
}

/**
 * An error answer of the storage API: HTTP status >= 400 and the body's `error` object.
 *
 * @example
 * ```ts
 * import { StorageApiError, StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * try {
 *   await client.svms.get("00000000-0000-4000-8000-000000000000");
 * } catch (e) {
 *   if (e instanceof StorageApiError) console.log(e.status, e.code, e.apiMessage); // 404 ...
 * }
 * client.close();
 * await server.close();
 * ```
 */
export class StorageApiError extends Error {
  /** Always `"StorageApiError"`. */
  override readonly name = "StorageApiError";
  /** The HTTP status code. */
  readonly status: number;
  /** The API's error code (a decimal string on the wire, e.g. "10551807"); "" when the body had none. */
  readonly code: string;
  /** The API's message, or the HTTP status text when the body had none. */
  readonly apiMessage: string;
  /** The field or parameter the error names, when the API gives one. */
  readonly target: string | undefined;
  /** The request, as `METHOD /api/path` (never with credentials or query secrets). */
  readonly request: string;

  constructor(init: {
    readonly status: number;
    readonly code: string;
    readonly message: string;
    readonly target?: string | undefined;
    readonly request: string;
  }) {
    const where = init.target === undefined || init.target === "" ? "" : ` (target ${init.target})`;
    const code = init.code === "" ? "" : ` [${init.code}]`;
    super(`${init.request}: HTTP ${init.status}${code}: ${init.message}${where}`);
    this.status = init.status;
    this.code = init.code;
    this.apiMessage = init.message;
    this.target = init.target;
    this.request = init.request;
  }
}
