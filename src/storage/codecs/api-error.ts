// The error body of every 4xx/5xx answer:
// {"error": {"message", "code": "<digits>", "target"?, "arguments"?: [{code, message}]}}.

import { StorageApiError, StorageCodecError } from "./errors.js";
import { arr, decodeBody, decodeErrorCode, f, obj, str, type InferModel } from "./schema.js";

const code = { decode: decodeErrorCode };
const detail = obj({
  message: str,
  /** A string of digits, e.g. "10551807" (an integer on the wire is written as its decimal string). */
  code: f("G", str, code),
  /** The field or parameter the error is about. */
  target: str,
  arguments: arr(obj({ code: f("G", str, code), message: str })),
});
const schema = obj({ error: detail });

/**
 * The `error` object of an error body, inferred from the schema: `code` a string of digits, `target` the field or parameter the error is about.
 *
 * @example
 * ```ts
 * import { apiError, type ApiErrorDetail } from "clusterwire/storage";
 *
 * const detail: ApiErrorDetail = apiError.decode({ error: { message: "Entry not found.", code: "4" } }).error;
 * console.log(detail.message);
 * ```
 */
export type ApiErrorDetail = InferModel<typeof detail>;

/**
 * An error body: `error` is always there once decoded.
 *
 * @example
 * ```ts
 * import { apiError, type ApiErrorBody } from "clusterwire/storage";
 *
 * const body: ApiErrorBody = apiError.decode({ error: { message: "Entry not found.", code: "4" } });
 * ```
 */
export type ApiErrorBody = Required<InferModel<typeof schema>>;

/**
 * The codec of the API's error bodies (`{"error": {"message", "code", "target"}}`).
 *
 * @example
 * ```ts
 * import { apiError } from "clusterwire/storage";
 *
 * const body = apiError.decode({ error: { message: "entry doesn't exist", code: "4", target: "uuid" } });
 * console.log(body.error.code, body.error.message);
 * ```
 */
export const apiError = {
  /** Decodes an error body; `error` must be an object. */
  decode(json: unknown): ApiErrorBody {
    const body = decodeBody(schema, json);
    if (body.error === undefined) {
      throw new StorageCodecError("error", "is required");
    }
    return body as ApiErrorBody;
  },
  /**
   * A StorageApiError for an HTTP error answer. A body that is not a valid error
   * body gives code "" and `statusText` as the message.
   */
  toStorageApiError(
    json: unknown,
    init: { readonly status: number; readonly request: string; readonly statusText?: string },
  ): StorageApiError {
    let detail: ApiErrorDetail = {};
    try {
      detail = apiError.decode(json).error;
    } catch {
      detail = {};
    }
    return new StorageApiError({
      status: init.status,
      code: detail.code ?? "",
      message: detail.message ?? init.statusText ?? `HTTP ${init.status}`,
      target: detail.target,
      request: init.request,
    });
  },
} as const;
