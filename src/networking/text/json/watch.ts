import { DecodeError } from "../../model/errors.js";
import { fromParsedJsonMember, type FromJsonOptions } from "./from-json.js";
import { toJsonString } from "./to-json.js";
import { jsonKindOf, unmarshalTypeError } from "./type-error.js";
import { DuplicateKey, FloatLiteral, jsonError, locatePath, parseJsonText } from "./parse.js";
import { DEFAULT_MAX_FRAME_SIZE, EVENT_TYPES, type WatchEvent, type WatchEventType } from "../../model/watch-event.js";

/*
 * JSON watch streams (`application/json;stream=watch`): the API server writes
 * each event as `{"type":...,"object":{...}}` with Go's json.Encoder, so
 * events are whole JSON values, one after another, each followed by a
 * newline. Clients must not rely on the newline: Go's decoder reads values,
 * not lines. So this splits on JSON structure, across chunks of any size.
 */

/** Media type of a JSON watch response body. */

/**
 * Options of {@link decodeJsonWatchStream}: the JSON options and an event size cap.
 *
 * @example
 * ```ts
 * import { decodeJsonWatchStream } from "clusterwire/networking";
 *
 * const events = decodeJsonWatchStream([], { strict: true, maxFrameSize: 1024 * 1024 });
 * ```
 */
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
 *
 * @example
 * ```ts
 * import { decodeJsonWatchStream } from "clusterwire/networking";
 *
 * const body = '{"type":"ADDED","object":{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"a"}}}\n';
 * for await (const event of decodeJsonWatchStream([body.slice(0, 20), body.slice(20)])) console.log(event.type);
 * ```
 */
export async function* decodeJsonWatchStream(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: JsonWatchDecodeOptions = {},
): AsyncGenerator<WatchEvent, void, undefined> {
  const maxFrame = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let received = 0; // characters decoded so far
  // Position of the next character not yet accounted for.
  let consumed = 0;
  let line = 1;
  let column = 1;
  // The event being read: where it starts, its text from earlier chunks, its
  // length so far, and the scanner state. Chunks are scanned once each and
  // joined only when the event is complete: re-reading a growing buffer would
  // make an event that arrives in n small chunks cost O(n^2).
  let at: FrameStart | undefined;
  let parts: string[] = [];
  let length = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;

  for await (const chunk of chunks) {
    let piece: string;
    if (typeof chunk === "string") piece = chunk;
    else if (chunk instanceof Uint8Array) {
      try {
        piece = utf8.decode(chunk, { stream: true });
      } catch {
        throw new DecodeError("json", "watch stream is not valid UTF-8", { offset: received });
      }
    } else {
      throw new DecodeError("json", "watch stream chunks must be Uint8Array or string", { offset: received });
    }
    received += piece.length;
    let from = 0; // where the current event starts in this piece
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (at === undefined) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
          consumed++;
          if (c === 0x0a) {
            line++;
            column = 1;
          } else column++;
          continue;
        }
        if (c !== 0x7b)
          throw new DecodeError("json", "expected a watch event object", { offset: consumed, line, column });
        at = { offset: consumed, line, column };
        from = i;
        length = 1;
        depth = 1;
        continue;
      }
      if (length >= maxFrame) {
        throw new DecodeError("json", `watch event longer than the ${maxFrame}-character limit`, at);
      }
      length++;
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
      // A whole event.
      parts.push(piece.slice(from, i + 1));
      const frame = parts.length === 1 ? (parts[0] as string) : parts.join("");
      const start = at;
      parts = [];
      at = undefined;
      for (let k = 0; k < frame.length; k++) {
        if (frame.charCodeAt(k) === 0x0a) {
          line++;
          column = 1;
        } else column++;
      }
      consumed += frame.length;
      yield decodeJsonWatchEvent(frame, options, start);
    }
    if (at !== undefined) parts.push(piece.slice(from));
  }
  try {
    utf8.decode();
  } catch {
    throw new DecodeError("json", "watch stream ends inside a UTF-8 sequence", { offset: received });
  }
  if (at !== undefined) {
    throw new DecodeError("json", "watch stream ended inside an event", at);
  }
}

/**
 * Decodes one JSON watch event (`{"type":...,"object":{...}}`). `at` is where
 * it starts in a stream, so error positions are the stream's.
 *
 * @example
 * ```ts
 * import { decodeJsonWatchEvent } from "clusterwire/networking";
 *
 * const event = decodeJsonWatchEvent(
 *   '{"type":"MODIFIED","object":{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"a"}}}',
 * );
 * console.log(event.type); // "MODIFIED"
 * ```
 */
export function decodeJsonWatchEvent(
  text: string,
  options: FromJsonOptions = {},
  at: FrameStart = { offset: 0, line: 1, column: 1 },
): WatchEvent {
  try {
    const parsed = parseJsonText(text, options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {});
    const root = parsed.value;
    if (typeof root !== "object" || root === null || Array.isArray(root) || root instanceof FloatLiteral) {
      throw new DecodeError("json", "a watch event must be a JSON object", { offset: 0, line: 1, column: 1 });
    }
    /** An error about the event's own member `key`, pointing at its (last) value. */
    const fail = (reason: string, key: string): never => {
      throw jsonError(text, reason, locatePath(text, [key]), key, [key]);
    };
    if (options.strict === true) {
      for (const key of Object.keys(root)) {
        if (root[key] instanceof DuplicateKey) fail(`duplicate field ${JSON.stringify(key)}`, key);
        if (key !== "type" && key !== "object") fail(`unknown field ${JSON.stringify(key)}`, key);
      }
    }
    let type = Object.hasOwn(root, "type") ? root["type"] : undefined;
    if (type instanceof DuplicateKey) type = type.values[type.values.length - 1];
    // Worded as Go's decoder of a metav1.WatchEvent (client-go's) words it.
    if (type !== undefined && type !== null && typeof type !== "string")
      fail(unmarshalTypeError(jsonKindOf(type) ?? "number", "string", "WatchEvent", "type"), "type");
    if (typeof type !== "string" || !EVENT_TYPES.has(type)) {
      const reason = `unknown watch event type ${JSON.stringify(typeof type === "string" ? type : null)}; want one of ${[...EVENT_TYPES].join(", ")}`;
      if (type === undefined)
        throw new DecodeError("json", reason, { path: "type", segments: ["type"], offset: 0, line: 1, column: 1 });
      fail(reason, "type");
    }
    const object = Object.hasOwn(root, "object") ? root["object"] : undefined;
    if (object === undefined || object === null) {
      const reason = `${String(type)} watch event has no object`;
      if (object === undefined)
        throw new DecodeError("json", reason, { path: "object", segments: ["object"], offset: 0, line: 1, column: 1 });
      fail(reason, "object");
    }
    return { type: type as WatchEventType, object: fromParsedJsonMember(parsed, "object", options) };
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

/**
 * One event as the API server writes it to a JSON watch stream, newline included.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, encodeJsonWatchEvent } from "clusterwire/networking";
 *
 * const line = encodeJsonWatchEvent({ type: "ADDED", object: create(IngressClassSchema, { metadata: { name: "a" } }) });
 * ```
 */
export function encodeJsonWatchEvent(event: WatchEvent): string {
  if (!EVENT_TYPES.has(event.type)) throw new TypeError(`unknown watch event type ${JSON.stringify(event.type)}`);
  return `{"type":${JSON.stringify(event.type)},"object":${toJsonString(event.object)}}\n`;
}
