import type { NetworkingObject } from "./kinds.js";

/** The five watch event types the API server sends. */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
export const EVENT_TYPES: ReadonlySet<string> = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]);

/** One decoded watch event. ERROR events carry a `Status` object. */
export interface WatchEvent<T extends NetworkingObject = NetworkingObject> {
  readonly type: WatchEventType;
  readonly object: T;
}

/** client-go's cap on one frame, for protobuf and JSON watch streams alike. */
export const DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;
