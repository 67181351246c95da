import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { DecodeError } from "../model/errors.js";
import type { NetworkingObject } from "../model/kinds.js";
import { DEFAULT_MAX_FRAME_SIZE, EVENT_TYPES, type WatchEvent, type WatchEventType } from "../model/watch-event.js";
import { decode, type DecodeOptions } from "./decode.js";
import { encode, type EncodeOptions } from "./encode.js";
import { groupDepthLimit, toDecodeError } from "./from-binary.js";
import { Failure, WireReader, plainBytes, readLength, readTag, readUtf8, skipValue } from "./wire.js";

/**
 * Options of {@link decodeWatchStream}: the decode options and a frame size cap.
 *
 * @example
 * ```ts
 * import { decodeWatchStream } from "clusterwire/networking";
 *
 * const events = decodeWatchStream([], { maxFrameSize: 1024 * 1024 });
 * ```
 */
export interface WatchDecodeOptions extends DecodeOptions {
  /** Largest frame accepted, in bytes. Default 16 MiB, as client-go. */
  readonly maxFrameSize?: number;
}

/**
 * Decodes a protobuf watch stream: 4-byte big-endian length frames, each a
 * `meta.v1.WatchEvent` whose object is an enveloped `k8s\0` object. Frames
 * may be split across chunks in any way. Offsets in errors count from the
 * start of the stream.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, decodeWatchStream, encodeWatchEvent } from "clusterwire/networking";
 *
 * const frame = encodeWatchEvent({ type: "ADDED", object: create(IngressSchema, { metadata: { name: "shop" } }) });
 * // Any iterable of chunks works: a fetch body, a socket, or an array.
 * for await (const event of decodeWatchStream([frame.subarray(0, 3), frame.subarray(3)])) {
 *   console.log(event.type, event.object.$typeName);
 * }
 * ```
 */
export async function* decodeWatchStream(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: WatchDecodeOptions = {},
): AsyncGenerator<WatchEvent, void, undefined> {
  const maxFrame = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
  // A small state machine: collect 4 header bytes, then `frameLen` body bytes.
  // The body buffer doubles as bytes arrive, so each byte is copied at most
  // twice on average, however the stream is chunked; it is not sized from the
  // header, which would let 4 bytes claim up to 4 GiB when maxFrameSize allows.
  const header = new Uint8Array(4);
  let headerFill = 0;
  let frame: Uint8Array | undefined;
  let frameLen = 0;
  let frameFill = 0;
  let frameOffset = 0; // stream offset of the current frame's length prefix
  let streamPos = 0;
  for await (const input of chunks) {
    if (!(input instanceof Uint8Array)) {
      throw new DecodeError("protobuf", "watch stream chunks must be Uint8Array", { offset: streamPos });
    }
    const chunk = plainBytes(input);
    let i = 0;
    while (i < chunk.length) {
      if (frame === undefined) {
        if (headerFill === 0) frameOffset = streamPos + i;
        // Fast path: a whole frame inside this chunk needs no copy.
        if (headerFill === 0 && chunk.length - i >= 4) {
          const len = readUint32BE(chunk, i);
          checkFrameLength(len, maxFrame, frameOffset);
          if (chunk.length - i - 4 >= len) {
            const body = chunk.subarray(i + 4, i + 4 + len);
            i += 4 + len;
            yield decodeWatchEvent(body, options, frameOffset + 4);
            continue;
          }
        }
        const take = Math.min(4 - headerFill, chunk.length - i);
        header.set(chunk.subarray(i, i + take), headerFill);
        headerFill += take;
        i += take;
        if (headerFill < 4) break;
        const len = readUint32BE(header, 0);
        checkFrameLength(len, maxFrame, frameOffset);
        frameLen = len;
        frame = new Uint8Array(Math.min(len, FIRST_FRAME_BUFFER));
        frameFill = 0;
      }
      const take = Math.min(frameLen - frameFill, chunk.length - i);
      if (frameFill + take > frame.length) {
        const grown = new Uint8Array(Math.min(frameLen, Math.max(frame.length * 2, frameFill + take)));
        grown.set(frame.subarray(0, frameFill));
        frame = grown;
      }
      frame.set(chunk.subarray(i, i + take), frameFill);
      frameFill += take;
      i += take;
      if (frameFill === frameLen) {
        const body = frame;
        frame = undefined;
        headerFill = 0;
        yield decodeWatchEvent(body, options, frameOffset + 4);
      }
    }
    streamPos += chunk.length;
  }
  if (headerFill > 0 || frame !== undefined) {
    const have = frame === undefined ? `${headerFill} of 4 length bytes` : `${frameFill} of ${frameLen} frame bytes`;
    throw new DecodeError("protobuf", `watch stream ended inside a frame (${have})`, { offset: frameOffset });
  }
}

/** The body buffer a split frame starts with; it grows as its bytes arrive. */
const FIRST_FRAME_BUFFER = 64 * 1024;

function checkFrameLength(len: number, max: number, offset: number): void {
  if (len > max)
    throw new DecodeError("protobuf", `watch frame of ${len} bytes exceeds the ${max}-byte limit`, { offset });
}

function readUint32BE(b: Uint8Array, at: number): number {
  return (
    (b[at] as number) * 0x1000000 +
    (((b[at + 1] as number) << 16) | ((b[at + 2] as number) << 8) | (b[at + 3] as number))
  );
}

/**
 * Decodes one frame body (a bare `WatchEvent`, no magic). `baseOffset` is the
 * frame's position in the stream, added to error offsets.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, decodeWatchEvent, encodeWatchEvent } from "clusterwire/networking";
 *
 * const frame = encodeWatchEvent({ type: "DELETED", object: create(IngressSchema) });
 * const event = decodeWatchEvent(frame.subarray(4)); // the body after the 4-byte length
 * console.log(event.type); // "DELETED"
 * ```
 */
export function decodeWatchEvent(input: Uint8Array, options: DecodeOptions = {}, baseOffset = 0): WatchEvent {
  const frame = plainBytes(input);
  const r = new WireReader(frame);
  const state = { fieldStart: 0 };
  const end = frame.length;
  const depth = groupDepthLimit(options);
  let type: string | undefined;
  let rawStart = -1;
  let rawEnd = -1;
  try {
    while (r.pos < end) {
      const at = r.pos;
      state.fieldStart = at;
      const tag = readTag(r);
      const no = tag >>> 3;
      const wt = tag & 7;
      if ((no === 1 || no === 2) && wt !== WireType.LengthDelimited) {
        throw new Failure(at, `wrong wire type ${wt} for WatchEvent field ${no}`);
      }
      if (no === 1) {
        const stop = readLength(r, frame, end, "frame");
        type = readUtf8(frame, r.pos, stop, at);
        r.pos = stop;
      } else if (no === 2) {
        // RawExtension { 1: raw }
        const stop = readLength(r, frame, end, "frame");
        while (r.pos < stop) {
          const iat = r.pos;
          state.fieldStart = iat;
          const itag = readTag(r);
          const ino = itag >>> 3;
          const iwt = itag & 7;
          if (ino === 1 && iwt === WireType.LengthDelimited) {
            rawEnd = readLength(r, frame, stop, "object");
            rawStart = r.pos;
            r.pos = rawEnd;
          } else {
            skipValue(r, frame, iwt, ino, stop, depth, iat);
          }
        }
      } else {
        skipValue(r, frame, wt, no, end, depth, at);
      }
    }
  } catch (e) {
    const err = toDecodeError(e, state);
    throw new DecodeError("protobuf", err.reason, { offset: baseOffset + (err.offset ?? 0) });
  }
  if (type === undefined || !EVENT_TYPES.has(type)) {
    throw new DecodeError(
      "protobuf",
      `unknown watch event type ${JSON.stringify(type ?? "")}; want one of ${[...EVENT_TYPES].join(", ")}`,
      { offset: baseOffset },
    );
  }
  if (rawStart < 0) throw new DecodeError("protobuf", `${type} watch event has no object`, { offset: baseOffset });
  const objectBytes = frame.subarray(rawStart, rawEnd);
  let object: NetworkingObject;
  try {
    object = decode(objectBytes, options);
  } catch (e) {
    if (e instanceof DecodeError) {
      throw new DecodeError("protobuf", `in ${type} event object: ${e.reason}`, {
        offset: baseOffset + rawStart + (e.offset ?? 0),
        ...(e.path !== undefined ? { path: e.path } : {}),
        ...(e.segments !== undefined ? { segments: e.segments } : {}),
      });
    }
    throw e;
  }
  return { type: type as WatchEventType, object };
}

/**
 * Encodes one watch event as the API server frames it: length prefix, WatchEvent, enveloped object.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, encodeWatchEvent } from "clusterwire/networking";
 *
 * const frame = encodeWatchEvent({ type: "ADDED", object: create(IngressSchema) });
 * console.log(new DataView(frame.buffer, frame.byteOffset).getUint32(0) === frame.length - 4); // true
 * ```
 */
export function encodeWatchEvent(event: WatchEvent, options: EncodeOptions = {}): Uint8Array {
  if (!EVENT_TYPES.has(event.type)) throw new TypeError(`unknown watch event type ${JSON.stringify(event.type)}`);
  const objectBytes = encode(event.object, options);
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).string(event.type);
  w.tag(2, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).bytes(objectBytes);
  w.join();
  const body = w.finish();
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, false);
  out.set(body, 4);
  return out;
}
