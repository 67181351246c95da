import type { NetworkingObject } from "./kinds.js";

/**
 * The five watch event types the API server sends.
 *
 * @example
 * ```ts
 * import type { WatchEvent, WatchEventType } from "clusterwire/networking";
 *
 * const changed = (e: WatchEvent): boolean => (["ADDED", "MODIFIED"] as WatchEventType[]).includes(e.type);
 * ```
 */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
export const EVENT_TYPES: ReadonlySet<string> = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]);

/**
 * One decoded watch event. ERROR events carry a `Status` object.
 *
 * @example
 * ```ts
 * import { type WatchEvent, IngressClassSchema, create, encodeJsonWatchEvent } from "clusterwire/networking";
 *
 * const event: WatchEvent = { type: "ADDED", object: create(IngressClassSchema, { metadata: { name: "nginx" } }) };
 * console.log(encodeJsonWatchEvent(event));
 * ```
 */
export interface WatchEvent<T extends NetworkingObject = NetworkingObject> {
  /** What happened to the object. */
  readonly type: WatchEventType;
  /** The object as it is now (for DELETED, as it was last); a `Status` for ERROR. */
  readonly object: T;
}

/**
 * client-go's cap on one frame, for protobuf and JSON watch streams alike.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_FRAME_SIZE, decodeWatchStream } from "clusterwire/networking";
 *
 * const events = decodeWatchStream([], { maxFrameSize: DEFAULT_MAX_FRAME_SIZE / 4 });
 * ```
 */
export const DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;
