// Errors of the reference server. Every refusal becomes the API's error body
// `{"error": {"message", "code", "target"?}}` with a 4xx status, as upstream answers.
// Messages are written by the server itself and never quote request bodies, headers or
// query strings, so a password sent to the server can never come back in one.

/**
 * The error codes the reference server answers with. `code` is a string of digits on the
 * wire. The first four and OUT_OF_RANGE are upstream codes; the package,
 * upload and download codes come from the API definition's error tables; the rest are the
 * reference server's own choices, documented here.
 *
 * @example
 * ```ts
 * import { createReferenceServer, SERVER_ERROR_CODES } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const auth = { authorization: `Basic ${Buffer.from("admin:clusterwire").toString("base64")}` };
 * const response = await fetch(`${server.url}/api/storage/volumes/not-a-uuid`, { headers: auth });
 * const { error } = (await response.json()) as { error: { code: string } };
 * console.log(response.status, Object.values(SERVER_ERROR_CODES).includes(error.code as never));
 * await server.close();
 * ```
 */
export const SERVER_ERROR_CODES = {
  /** Invalid value: wrong JSON type, bad enum, bad format (upstream "2"). */
  INVALID_VALUE: "2",
  /** The entry (a path resource or a referenced object) does not exist (upstream "4"). */
  NOT_FOUND: "4",
  /** Not authorized: missing or wrong credentials (upstream "6"). */
  NOT_AUTHORIZED: "6",
  /** Unexpected argument: a field or query parameter the operation does not know. */
  UNEXPECTED_ARGUMENT: "262179",
  /** A field the operation knows but does not accept (read-only, or not for this verb). */
  FIELD_NOT_ALLOWED: "262196",
  /** A required field is missing. */
  REQUIRED: "262195",
  /** Value out of range, e.g. `return_timeout` outside 0..120 (upstream "262197"). */
  OUT_OF_RANGE: "262197",
  /** The body is not a JSON object (malformed JSON, wrong top-level type). */
  MALFORMED_BODY: "262186",
  /** The request body is larger than the server's limit (HTTP 413). */
  BODY_TOO_LARGE: "262187",
  /** The method is not allowed on the path (HTTP 405). */
  METHOD_NOT_ALLOWED: "262188",
  /** Two fields that cannot be combined, or a field that conflicts with a rule. */
  CONFLICTING_FIELDS: "262189",
  /** An object with the same identity already exists (HTTP 409). */
  DUPLICATE: "262190",
  /** The operation is not possible in the current state (HTTP 409). */
  INVALID_STATE: "262191",
  /** The HTTP request itself is malformed: refused by the HTTP parser, or a bad request target (HTTP 400). */
  MALFORMED_REQUEST: "262193",
  /** The request was not received in time: headers or body too slow (HTTP 408). */
  REQUEST_TIMEOUT: "262194",
  /** The request line and headers are larger than the server's limit (HTTP 431). */
  HEADERS_TOO_LARGE: "262198",
  /** The body's Content-Type is not JSON (HTTP 415). */
  UNSUPPORTED_MEDIA_TYPE: "262199",
  /** Internal error (HTTP 500); never expected. */
  INTERNAL: "1",
  // From the API definition's error tables.
  PACKAGE_STORE_EMPTY: "10551315",
  PACKAGE_NOT_FOUND: "10551325",
  PACKAGE_DELETE_VALIDATION_IN_PROGRESS: "10551346",
  PACKAGE_DELETE_UPDATE_IN_PROGRESS: "10551347",
  UPLOAD_DISABLED: "10551798",
  UPLOAD_MORE_THAN_ONE_FILE: "10551807",
  REMOTE_COPY_FAILED: "2228331",
  FIRMWARE_FILE_EXISTS: "2228327",
} as const;

/**
 * One of the {@link SERVER_ERROR_CODES}: the `code` of an error body.
 *
 * @example
 * ```ts
 * import { SERVER_ERROR_CODES, type ServerErrorCode } from "clusterwire/storage/server";
 *
 * const invalid: ServerErrorCode = SERVER_ERROR_CODES.INVALID_VALUE; // "2"
 * ```
 */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[keyof typeof SERVER_ERROR_CODES];

/** A refusal the HTTP layer turns into the error body. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly status: number;
  readonly code: string;
  readonly target: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: string,
    message: string,
    target?: string,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.target = target;
    this.headers = headers;
  }
}

const C = SERVER_ERROR_CODES;

export const invalid = (target: string, message: string): HttpError =>
  new HttpError(400, C.INVALID_VALUE, message, target);
export const unexpected = (target: string): HttpError =>
  new HttpError(400, C.UNEXPECTED_ARGUMENT, `Unexpected argument "${target}".`, target);
export const notAllowed = (target: string, why = "cannot be set in this operation"): HttpError =>
  new HttpError(400, C.FIELD_NOT_ALLOWED, `Field "${target}" ${why}.`, target);
export const required = (target: string, message?: string): HttpError =>
  new HttpError(400, C.REQUIRED, message ?? `Field "${target}" is required.`, target);
export const outOfRange = (target: string, message: string): HttpError =>
  new HttpError(400, C.OUT_OF_RANGE, message, target);
export const conflict = (target: string, message: string): HttpError =>
  new HttpError(400, C.CONFLICTING_FIELDS, message, target);
export const notFound = (message: string, target?: string): HttpError =>
  new HttpError(404, C.NOT_FOUND, message, target);
/** A body reference (e.g. `node.uuid`) naming nothing: 400 with the not-found code. */
export const unknownReference = (target: string, what: string): HttpError =>
  new HttpError(400, C.NOT_FOUND, `${what} does not exist.`, target);
export const duplicate = (target: string, message: string): HttpError =>
  new HttpError(409, C.DUPLICATE, message, target);
export const badState = (message: string, target?: string, code: string = C.INVALID_STATE): HttpError =>
  new HttpError(409, code, message, target);
