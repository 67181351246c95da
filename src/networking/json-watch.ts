import { DecodeError } from "./errors.js";
import { fromParsedJsonMember, toJsonString, type FromJsonOptions } from "./json.js";
import { DuplicateKey, FloatLiteral, parseJsonText } from "./json-text.js";
import type { NetworkingObject } from "./kinds.js";
import { DEFAULT_MAX_FRAME_SIZE, EVENT_TYPES, type WatchEvent, type WatchEventType } from "./watch.js";

/*
 * JSON watch streams (`application/json;stream=watch`): the API server writes
 * each event as `{"type":...,"object":{...}}` with Go's json.Encoder, so
 * events are whole JSON values, one after another, each followed by a
 * newline. Clients must not rely on the newline: Go's decoder reads values,
 * not lines. So this splits on JSON structure, across chunks of any size.
 */

/** Media type of a JSON watch response body. */
export const JSON_WATCH_MEDIA_TYPE = "application/json;stream=watch";

export interface JsonWatchDecodeOptions extends FromJsonOptions {
  /** Largest event accepted, in characters. Default 16 MiB, as for protobuf frames. */
  readonly maxFrameSize?: number;
}

/** Where a frame starts in the stream, to turn frame-relative error positions into stream ones. */
interface FrameStart {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Decodes a JSON watch stream into typed events. Chunks may be bytes (UTF-8)
 * or strings and may split events anywhere. Errors carry the character
 * offset, line and column in the whole stream, and the field path.
 */
export async function* decodeJsonWatchStream(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: JsonWatchDecodeOptions = {},
): AsyncGenerator<WatchEvent, void, undefined> {
  const maxFrame = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let text = ""; // unconsumed stream text
  let consumed = 0; // stream offset of text[0]
  let line = 1; // position of text[0]
  let column = 1;
  // Scanner state for the value being read, carried across chunks.
  let scan = 0;
  let start = -1;
  let depth = 0;
  let inString = false;
  let escaped = false;

  /** Moves line and column past `s`. */
  const advance = (s: string, from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      if (s.charCodeAt(i) === 0x0a) {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
  };
  /** Consumes text[0, upTo) for position purposes. */
  const position = (upTo: number): void => {
    advance(text, 0, upTo);
    consumed += upTo;
  };

  for await (const chunk of chunks) {
    let piece: string;
    if (typeof chunk === "string") piece = chunk;
    else if (chunk instanceof Uint8Array) {
      try {
        piece = utf8.decode(chunk, { stream: true });
      } catch {
        throw new DecodeError("json", "watch stream is not valid UTF-8", { offset: consumed + text.length });
      }
    } else {
      throw new DecodeError("json", "watch stream chunks must be Uint8Array or string", { offset: consumed + text.length });
    }
    text += piece;
    for (; scan < text.length; scan++) {
      const c = text.charCodeAt(scan);
      if (start < 0) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
        if (c !== 0x7b) {
          position(scan);
          text = text.slice(scan);
          scan = 0;
          throw new DecodeError("json", "expected a watch event object", { offset: consumed, line, column });
        }
        start = scan;
        depth = 1;
        continue;
      }
      if (scan - start >= maxFrame) {
        position(start);
        throw new DecodeError("json", `watch event longer than the ${maxFrame}-character limit`, { offset: consumed, line, column });
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
      if (depth > 0) continue;
      // A whole event: text[start, scan].
      position(start);
      const at: FrameStart = { offset: consumed, line, column };
      const frame = text.slice(start, scan + 1);
      text = text.slice(scan + 1);
      advance(frame, 0, frame.length);
      consumed += frame.length;
      scan = -1;
      start = -1;
      yield decodeJsonWatchEvent(frame, options, at);
    }
    if (start < 0) {
      // Only whitespace is left: drop it.
      position(text.length);
      text = "";
      scan = 0;
    } else {
      position(start);
      text = text.slice(start);
      scan -= start;
      start = 0;
    }
  }
  try {
    utf8.decode();
  } catch {
    throw new DecodeError("json", "watch stream ends inside a UTF-8 sequence", { offset: consumed + text.length });
  }
  if (start >= 0) {
    throw new DecodeError("json", "watch stream ended inside an event", { offset: consumed, line, column });
  }
}

/**
 * Decodes one JSON watch event (`{"type":...,"object":{...}}`). `at` is where
 * it starts in a stream, so error positions are the stream's.
 */
export function decodeJsonWatchEvent(text: string, options: FromJsonOptions = {}, at: FrameStart = { offset: 0, line: 1, column: 1 }): WatchEvent {
  try {
    const parsed = parseJsonText(text, options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {});
    const root = parsed.value;
    if (typeof root !== "object" || root === null || Array.isArray(root) || root instanceof FloatLiteral) {
      throw new DecodeError("json", "a watch event must be a JSON object", { offset: 0, line: 1, column: 1 });
    }
    if (options.strict === true) {
      for (const key of Object.keys(root)) {
        if (root[key] instanceof DuplicateKey) throw new DecodeError("json", `duplicate field ${JSON.stringify(key)}`, { path: key, offset: 0, line: 1, column: 1 });
        if (key !== "type" && key !== "object") throw new DecodeError("json", `unknown field ${JSON.stringify(key)}`, { path: key, offset: 0, line: 1, column: 1 });
      }
    }
    let type = root["type"];
    if (type instanceof DuplicateKey) type = type.values[type.values.length - 1];
    if (typeof type !== "string" || !EVENT_TYPES.has(type)) {
      throw new DecodeError("json", `unknown watch event type ${JSON.stringify(typeof type === "string" ? type : null)}; want one of ${[...EVENT_TYPES].join(", ")}`, { path: "type", offset: 0, line: 1, column: 1 });
    }
    if (root["object"] === undefined || root["object"] === null) {
      throw new DecodeError("json", `${type} watch event has no object`, { path: "object", offset: 0, line: 1, column: 1 });
    }
    const object: NetworkingObject = fromParsedJsonMember(parsed, "object", options);
    return { type: type as WatchEventType, object };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    // Frame-relative positions -> stream positions.
    const line = e.line ?? 1;
    return rethrow(e, {
      offset: at.offset + (e.offset ?? 0),
      line: at.line + line - 1,
      column: line === 1 ? at.column + (e.column ?? 1) - 1 : (e.column ?? 1),
    });
  }
}

function rethrow(e: DecodeError, where: { offset: number; line: number; column: number }): never {
  throw new DecodeError("json", e.reason, {
    ...where,
    ...(e.path !== undefined ? { path: e.path } : {}),
    ...(e.segments !== undefined ? { segments: e.segments } : {}),
  });
}

/** One event as the API server writes it to a JSON watch stream, newline included. */
export function encodeJsonWatchEvent(event: WatchEvent): string {
  if (!EVENT_TYPES.has(event.type)) throw new TypeError(`unknown watch event type ${JSON.stringify(event.type)}`);
  return `{"type":${JSON.stringify(event.type)},"object":${toJsonString(event.object)}}\n`;
}
