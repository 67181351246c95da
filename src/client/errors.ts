// The client's two failures: the API server answered with an error (ApiError, with its Status
// when the body is one), or no answer could be used (RequestError). Neither message ever holds
// a token: they are built from the method, the path, the status and the server's Status.

import { DecodeError, decode, fromJson, type Status } from "../networking/index.js";

const STATUS_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.Status";

/**
 * One cause of an {@link ApiError}: a field and what is wrong with it (a 422 Invalid lists one
 * per field error).
 *
 * @example
 * ```ts
 * import { ApiError, type ApiErrorCause } from "clusterwire/client";
 *
 * const fields = (e: ApiError): string[] => e.causes.map((c: ApiErrorCause) => `${c.field}: ${c.message}`);
 * ```
 */
export interface ApiErrorCause {
  /** The field's path, e.g. `spec.rules[0].host`; "" when none. */
  readonly field: string;
  /** A machine-readable reason, e.g. `FieldValueInvalid`. */
  readonly reason: string;
  /** What is wrong. */
  readonly message: string;
}

/**
 * The API server answered 4xx or 5xx. `reason` and `causes` come from its Status body (protobuf
 * or JSON); a body that is not a Status (a proxy's HTML page) leaves them empty.
 *
 * @example
 * ```ts
 * import { ApiError, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const found = await client.ingresses.get("web", { namespace: "shop" }).catch((e: unknown) => {
 *   if (e instanceof ApiError && e.reason === "NotFound") return undefined;
 *   throw e;
 * });
 * ```
 */
export class ApiError extends Error {
  /** Always `"ApiError"`. */
  override readonly name = "ApiError";
  /** The HTTP status. */
  readonly status: number;
  /** The Status's reason ("NotFound", "AlreadyExists", "Conflict", "Invalid", "Expired", ...); "" when none. */
  readonly reason: string;
  /** The decoded Status, when the body was one. */
  readonly statusObject: Status | undefined;
  /** The Status's `details.causes`. */
  readonly causes: readonly ApiErrorCause[];
  /** The request's method. */
  readonly method: string;
  /** The request's path, without the query. */
  readonly path: string;

  /** `text` describes a body that is not a Status (its content type and size); it is used when `statusObject` is undefined. */
  constructor(method: string, path: string, status: number, statusObject: Status | undefined, text = "") {
    const reason = statusObject?.reason ?? "";
    const message =
      statusObject === undefined
        ? `${method} ${path}: HTTP ${status}${text === "" ? "" : `: ${text}`}`
        : `${method} ${path}: HTTP ${status}${reason === "" ? "" : ` ${reason}`}: ${statusObject.message ?? ""}`;
    super(message);
    this.status = status;
    this.reason = reason;
    this.statusObject = statusObject;
    this.causes = (statusObject?.details?.causes ?? []).map((c) => ({
      field: c.field ?? "",
      reason: c.reason ?? "",
      message: c.message ?? "",
    }));
    this.method = method;
    this.path = path;
  }
}

/**
 * Why no usable answer came: "network" (connection refused or cut, TLS), "timeout", "too-large"
 * (the body is over `maxResponseBytes`), "aborted" (the caller's signal), "bad-response" (an
 * answer of the wrong kind or media type).
 *
 * @example
 * ```ts
 * import type { RequestErrorCode } from "clusterwire/client";
 *
 * const retryable = (code: RequestErrorCode): boolean => code === "network" || code === "timeout";
 * ```
 */
export type RequestErrorCode = "network" | "timeout" | "too-large" | "aborted" | "bad-response";

/**
 * No answer from the API server could be used: see {@link RequestErrorCode}. The underlying
 * error, if any, is its `cause`.
 *
 * @example
 * ```ts
 * import { RequestError, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials(), timeoutMs: 5_000 });
 * try {
 *   await client.ingressClasses.list();
 * } catch (e) {
 *   if (e instanceof RequestError && e.code === "timeout") console.log("the API server is slow");
 *   else throw e;
 * }
 * ```
 */
export class RequestError extends Error {
  /** Always `"RequestError"`. */
  override readonly name = "RequestError";
  /** What went wrong. */
  readonly code: RequestErrorCode;
  /** The request's method. */
  readonly method: string;
  /** The request's path, without the query. */
  readonly path: string;

  /** The message is `METHOD PATH: what`. */
  constructor(code: RequestErrorCode, method: string, path: string, what: string, options?: { cause?: unknown }) {
    super(`${method} ${path}: ${what}`, options);
    this.code = code;
    this.method = method;
    this.path = path;
  }
}

/** The Status in an error body, decoded by its media type; undefined when it is none. */
export function statusOf(contentType: string, body: Uint8Array): Status | undefined {
  const type = mediaType(contentType);
  try {
    if (type === "application/vnd.kubernetes.protobuf") {
      const object = decode(body);
      return object.$typeName === STATUS_TYPE ? object : undefined;
    }
    if (type === "application/json") {
      const object = fromJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"));
      return object.$typeName === STATUS_TYPE ? object : undefined;
    }
  } catch (e) {
    if (e instanceof DecodeError) return undefined;
    throw e;
  }
  return undefined;
}

/** The ApiError for a 4xx/5xx answer. */
export function apiErrorOf(
  method: string,
  path: string,
  status: number,
  statusText: string,
  contentType: string,
  body: Uint8Array,
): ApiError {
  const object = statusOf(contentType, body);
  const what = [
    statusText,
    `a ${body.length}-byte ${contentType === "" ? "body without a content type" : `${mediaType(contentType)} body`} that is not a Status`,
  ]
    .filter((s) => s !== "")
    .join(": ");
  return new ApiError(method, path, status, object, what);
}

/** The media type of a Content-Type value: lower case, without parameters. */
export function mediaType(contentType: string): string {
  return (contentType.split(";", 1)[0] ?? "").trim().toLowerCase();
}
