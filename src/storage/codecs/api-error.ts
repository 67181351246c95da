// The error body of every 4xx/5xx answer (storage-api.md §1.3):
// {"error": {"message", "code": "<digits>", "target"?, "arguments"?: [{code, message}]}}.

import { StorageApiError, StorageCodecError } from "./errors.js";
import { arr, decodeBody, decodeErrorCode, f, obj, str } from "./schema.js";

export interface ApiErrorDetail {
  message?: string;
  /** A string of digits, e.g. "10551807" (an integer on the wire is written as its decimal string). */
  code?: string;
  /** The field or parameter the error is about. */
  target?: string;
  arguments?: Array<{ code?: string; message?: string }>;
}

export interface ApiErrorBody {
  error: ApiErrorDetail;
}

const code = { decode: decodeErrorCode };
const schema = obj({
  error: obj({
    message: str,
    code: f("G", str, code),
    target: str,
    arguments: arr(obj({ code: f("G", str, code), message: str })),
  }),
});

export const apiError = {
  /** Decodes an error body; `error` must be an object. */
  decode(json: unknown): ApiErrorBody {
    const body = decodeBody<Partial<ApiErrorBody>>(schema, json);
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
