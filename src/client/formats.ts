// The two wire formats: what the client asks for (Accept), how it writes a body (Content-Type
// and bytes), and how it reads an answer. Answers are read by the media type the API server
// names, whatever was asked for, so a JSON answer to a protobuf request still reads.

import {
  decode,
  decodeJsonWatchStream,
  decodeWatchStream,
  encode,
  fromJson,
  type NetworkingObject,
  PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE,
  toJsonString,
  type WatchEvent,
} from "../networking/index.js";
import { mediaType } from "./errors.js";
import type { ClientObject } from "./types.js";

/**
 * The wire format a client speaks: protobuf (the default, as Kubernetes' own components) or JSON.
 *
 * @example
 * ```ts
 * import { type ClientFormat, createClient, loadCredentials } from "clusterwire/client";
 *
 * const format: ClientFormat = "json";
 * const client = createClient({ credentials: await loadCredentials(), format });
 * ```
 */
export type ClientFormat = "protobuf" | "json";

/** How one format asks and writes. */
export interface Format {
  readonly name: ClientFormat;
  /** Accept of every request but a watch. */
  readonly accept: string;
  /** Accept of a watch. */
  readonly watchAccept: string;
  /** Content-Type of a body this format writes. */
  readonly contentType: string;
  /** An object as a request body. */
  encode(object: ClientObject): Uint8Array;
}

const JSON_MEDIA_TYPE = "application/json";

const PROTOBUF: Format = {
  name: "protobuf",
  accept: PROTOBUF_MEDIA_TYPE,
  watchAccept: PROTOBUF_WATCH_MEDIA_TYPE,
  contentType: PROTOBUF_MEDIA_TYPE,
  encode: (object) => encode(object),
};

const JSON_FORMAT: Format = {
  name: "json",
  accept: JSON_MEDIA_TYPE,
  // The API server streams a JSON watch as one event after another for a plain application/json.
  watchAccept: JSON_MEDIA_TYPE,
  contentType: JSON_MEDIA_TYPE,
  encode: (object) => Buffer.from(toJsonString(object), "utf8"),
};

/** The format named `name`; a RangeError for any other name. */
export function formatOf(name: string): Format {
  if (name === "protobuf") return PROTOBUF;
  if (name === "json") return JSON_FORMAT;
  throw new RangeError(`format must be "protobuf" or "json", got ${JSON.stringify(name)}`);
}

/**
 * An answer's body read by its media type; undefined when the media type is neither protobuf
 * nor JSON. A malformed body throws the DecodeError of clusterwire/networking; unknown JSON
 * fields (a newer API server's) are dropped.
 */
export function decodeBody(contentType: string, body: Uint8Array): NetworkingObject | undefined {
  const type = mediaType(contentType);
  if (type === PROTOBUF_MEDIA_TYPE) return decode(body);
  if (type === JSON_MEDIA_TYPE) {
    return fromJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"));
  }
  return undefined;
}

/** A watch answer's events, read by its media type; undefined when it is neither protobuf nor JSON. */
export function decodeEvents(
  contentType: string,
  chunks: AsyncIterable<Uint8Array>,
): AsyncIterable<WatchEvent> | undefined {
  const type = mediaType(contentType);
  if (type === PROTOBUF_MEDIA_TYPE) return decodeWatchStream(chunks);
  // A JSON watch answer is application/json (application/json;stream=watch when asked for that way).
  if (type === JSON_MEDIA_TYPE) return decodeJsonWatchStream(chunks);
  return undefined;
}
