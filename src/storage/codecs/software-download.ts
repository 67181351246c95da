// The software package download: POST /api/cluster/software/download and its progress (GET).

import { StorageCodecError } from "./errors.js";
import {
  decodeBody,
  encodeBody,
  enm,
  f,
  int,
  isPlainObject,
  obj,
  requireField,
  str,
  type InferModel,
  type JsonObject,
  type JsonValue,
} from "./schema.js";

/**
 * The values the API defines for a package download's `state`.
 *
 * @example
 * ```ts
 * import { SOFTWARE_DOWNLOAD_STATES, type SoftwareDownloadState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_DOWNLOAD_STATES as readonly unknown[]).includes(value);
 * const first: SoftwareDownloadState = SOFTWARE_DOWNLOAD_STATES[0];
 * ```
 */
export const SOFTWARE_DOWNLOAD_STATES = ["not_started", "running", "success", "failure"] as const;
/**
 * A package download's `state`: one of {@link SOFTWARE_DOWNLOAD_STATES}.
 *
 * @example
 * ```ts
 * import { SOFTWARE_DOWNLOAD_STATES, type SoftwareDownloadState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_DOWNLOAD_STATES as readonly unknown[]).includes(value);
 * const first: SoftwareDownloadState = SOFTWARE_DOWNLOAD_STATES[0];
 * ```
 */
export type SoftwareDownloadState = (typeof SOFTWARE_DOWNLOAD_STATES)[number];

/**
 * `POST /api/cluster/software/download`.
 *
 * @example
 * ```ts
 * import { type SoftwareDownloadInput, softwareDownload } from "clusterwire/storage";
 *
 * const input: SoftwareDownloadInput = { url: "ftp://images.example.com/9.15.1_image.tgz", username: "anonymous" };
 * const body = softwareDownload.encodePost(input);
 * ```
 */
export interface SoftwareDownloadInput {
  /** Address of an HTTP(S) or FTP server holding the package. */
  url: string;
  /** The server's username, when it needs one. */
  username?: string;
  /** Write-only: never decoded, never echoed in an error. */
  password?: string;
}

function encodeUrl(value: unknown, path: string): JsonValue {
  // The value is never echoed: a URL may carry credentials.
  if (typeof value !== "string") throw new StorageCodecError(path, "must be a string");
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new StorageCodecError(path, "must be an absolute http, https or ftp URL");
  }
  if (protocol !== "http:" && protocol !== "https:" && protocol !== "ftp:") {
    throw new StorageCodecError(path, "must be an http, https or ftp URL");
  }
  return value;
}

/** The schema (exported for type-level tests; not part of the public surface). */
export const downloadSchema = obj({
  url: f("P", str, { encode: encodeUrl }),
  username: f("P", str),
  password: f("P", str, { secret: true }),
  state: f("G", enm(SOFTWARE_DOWNLOAD_STATES)),
  message: f("G", str),
  code: f("G", int()),
});

/**
 * `GET /api/cluster/software/download`: the progress of the download (`state`, `message`,
 * `code`), inferred from the schema. `url` and `username` are POST members a server does not
 * send back; `password` is never decoded.
 *
 * @example
 * ```ts
 * import { type SoftwareDownloadProgress, type StorageClient } from "clusterwire/storage";
 *
 * const download = (client: StorageClient) =>
 *   client.software.download({ url: "https://images.example.com/9.15.1_image.tgz" }, { onProgress: (p: SoftwareDownloadProgress) => console.log(p.state) });
 * ```
 */
export type SoftwareDownloadProgress = InferModel<typeof downloadSchema>;

function redact(error: unknown, secret: unknown): unknown {
  if (!(error instanceof StorageCodecError) || typeof secret !== "string" || secret === "") return error;
  if (!error.reason.includes(secret) && !error.path.includes(secret)) return error;
  const scrub = (s: string): string => s.split(secret).join("<redacted>");
  return new StorageCodecError(scrub(error.path), scrub(error.reason));
}

/**
 * The codec of package downloads: encodes the request (never echoing the password) and decodes the progress.
 *
 * @example
 * ```ts
 * import { softwareDownload } from "clusterwire/storage";
 *
 * const body = softwareDownload.encodePost({ url: "https://images.example.com/9.15.1_image.tgz", username: "u", password: "p" });
 * ```
 */
export const softwareDownload = {
  /** The download progress; a `password` member, should a server send one, is dropped. */
  decode(json: unknown): SoftwareDownloadProgress {
    return decodeBody(downloadSchema, json);
  },
  /** POST body `{url, username?, password?}`; `url` required (http, https or ftp). */
  encodePost(input: SoftwareDownloadInput): JsonObject {
    const secret = isPlainObject(input) ? input["password"] : undefined;
    try {
      const body = encodeBody(downloadSchema, input, "POST");
      requireField(body, "url");
      return body;
    } catch (error) {
      throw redact(error, secret);
    }
  },
} as const;
