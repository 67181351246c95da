// The shapes a list and a watch take and give: what a ResourceClient offers and what an
// informer needs from its source (ListWatcher), kept apart from both so either can be replaced.
import type { Status } from "../networking/index.js";

/**
 * What every request accepts: a signal that cancels it, and a time limit.
 *
 * @example
 * ```ts
 * import type { RequestOptions } from "clusterwire/client";
 *
 * const options: RequestOptions = { signal: AbortSignal.timeout(5_000), timeoutMs: 2_000 };
 * ```
 */
export interface RequestOptions {
  /** Aborting it cancels the request. */
  readonly signal?: AbortSignal;
  /** The limit for the whole exchange, headers and body, in ms; default the client's. */
  readonly timeoutMs?: number;
}

/**
 * Which objects one list request asks for, and which page of them.
 *
 * @example
 * ```ts
 * import type { ListOptions } from "clusterwire/client";
 *
 * const firstPage: ListOptions = { namespace: "web", labelSelector: "app=shop", limit: 100 };
 * const nextPage: ListOptions = { ...firstPage, continue: "token-from-the-first-page" };
 * ```
 */
export interface ListOptions extends RequestOptions {
  /** For namespaced kinds, the namespace to list; omitted: all namespaces. */
  readonly namespace?: string;
  /** A label selector, e.g. `app=shop,tier!=cache`. */
  readonly labelSelector?: string;
  /** A field selector, e.g. `metadata.name=shop`. */
  readonly fieldSelector?: string;
  /** At most this many items in the page; the page's `continue` then names the rest. */
  readonly limit?: number;
  /** The `continue` token of the page before. */
  readonly continue?: string;
  /** The resourceVersion the list must be served at (with `resourceVersionMatch`). */
  readonly resourceVersion?: string;
  /** How `resourceVersion` is matched. */
  readonly resourceVersionMatch?: "Exact" | "NotOlderThan";
}

/**
 * One page of a list: its items, the list's resourceVersion and the token for the next page.
 *
 * @example
 * ```ts
 * import type { ListPage } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * declare const page: ListPage<Ingress>;
 * console.log(page.items.length, page.resourceVersion, page.continue === "" ? "last page" : "more to come");
 * ```
 */
export interface ListPage<T> {
  /** The objects of this page, decoded. */
  readonly items: T[];
  /** The resourceVersion of the list (watch from it to see what changed since). */
  readonly resourceVersion: string;
  /** The token that asks for the next page; "" on the last page. */
  readonly continue: string;
  /** How many items are left after this page, when the server says. */
  readonly remainingItemCount?: number;
}

/**
 * What one watch request asks for.
 *
 * @example
 * ```ts
 * import type { WatchOptions } from "clusterwire/client";
 *
 * const controller = new AbortController();
 * const options: WatchOptions = { resourceVersion: "12345", allowWatchBookmarks: true, timeoutSeconds: 300, signal: controller.signal };
 * ```
 */
export interface WatchOptions {
  /** For namespaced kinds, the namespace to watch; omitted: all namespaces. */
  readonly namespace?: string;
  /** A label selector, e.g. `app=shop`. */
  readonly labelSelector?: string;
  /** A field selector, e.g. `metadata.name=shop`. */
  readonly fieldSelector?: string;
  /** Send the changes after this resourceVersion (a list's, or the last event's). */
  readonly resourceVersion?: string;
  /** Ask the server for BOOKMARK events, which only move the resourceVersion on. */
  readonly allowWatchBookmarks?: boolean;
  /** The server ends the watch after this long; the client cuts it `timeoutSeconds * 1000 + 30_000` ms after it began. */
  readonly timeoutSeconds?: number;
  /** Aborting it ends the iteration quietly (no error is thrown). */
  readonly signal?: AbortSignal;
  /** The limit until the response headers, in ms; default the client's `timeoutMs`. */
  readonly headerTimeoutMs?: number;
}

/**
 * One event of a watch: an object added, modified or deleted, a bookmark (only its
 * resourceVersion counts), or an ERROR carrying the server's Status (code 410: the
 * resourceVersion is too old, list again).
 *
 * @example
 * ```ts
 * import type { ClientWatchEvent } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * function describe(event: ClientWatchEvent<Ingress>): string {
 *   if (event.type === "ERROR") return `error ${event.object.code}: ${event.object.message}`;
 *   return `${event.type} ${event.object.metadata?.name ?? ""} at ${event.object.metadata?.resourceVersion ?? ""}`;
 * }
 * ```
 */
export type ClientWatchEvent<T> =
  | { readonly type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK"; readonly object: T }
  | { readonly type: "ERROR"; readonly object: Status };

/**
 * A source of list pages and watch streams of one kind: what an informer reads. A
 * ResourceClient is one; a test can supply its own.
 *
 * @example
 * ```ts
 * import type { ListWatcher } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * declare const ingresses: ListWatcher<Ingress>;
 * const page = await ingresses.list({ namespace: "web", limit: 50 });
 * for await (const event of ingresses.watch({ namespace: "web", resourceVersion: page.resourceVersion })) {
 *   console.log(event.type);
 * }
 * ```
 */
export interface ListWatcher<T> {
  /** One page of objects. A 410 error (an expired `continue` token) has `status` 410. */
  list(options?: ListOptions): Promise<ListPage<T>>;
  /** The changes after `options.resourceVersion`; an HTTP 410 error has `status` 410. */
  watch(options?: WatchOptions): AsyncIterable<ClientWatchEvent<T>>;
}
