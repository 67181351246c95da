// The client's shapes: the kinds it serves, the options of its calls, a list page, a watch event,
// and ListWatcher, the two calls an informer needs (src/client/informer/ builds on it alone).

import type { Ingress, IngressClass, IPAddress, NetworkPolicy, ServiceCIDR, Status } from "../networking/index.js";

/**
 * The kinds of networking.k8s.io/v1 the client reads and writes.
 *
 * @example
 * ```ts
 * import { type ClientKind, createClient, loadCredentials } from "clusterwire/client";
 *
 * const kind: ClientKind = "NetworkPolicy";
 * const client = createClient({ credentials: await loadCredentials() });
 * const page = await client.resource(kind).list({ namespace: "shop" });
 * ```
 */
export type ClientKind = "Ingress" | "IngressClass" | "NetworkPolicy" | "IPAddress" | "ServiceCIDR";

/**
 * The object type of each {@link ClientKind}.
 *
 * @example
 * ```ts
 * import type { KindTypes } from "clusterwire/client";
 *
 * const name = (policy: KindTypes["NetworkPolicy"]): string => policy.metadata?.name ?? "";
 * ```
 */
export interface KindTypes {
  /** networking.k8s.io/v1 Ingress. */
  Ingress: Ingress;
  /** networking.k8s.io/v1 IngressClass. */
  IngressClass: IngressClass;
  /** networking.k8s.io/v1 NetworkPolicy. */
  NetworkPolicy: NetworkPolicy;
  /** networking.k8s.io/v1 IPAddress. */
  IPAddress: IPAddress;
  /** networking.k8s.io/v1 ServiceCIDR. */
  ServiceCIDR: ServiceCIDR;
}

/**
 * Any object the client reads and writes: one of the {@link KindTypes}.
 *
 * @example
 * ```ts
 * import type { ClientObject } from "clusterwire/client";
 *
 * const key = (o: ClientObject): string => `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`;
 * ```
 */
export type ClientObject = KindTypes[ClientKind];

/**
 * What every call but a watch takes: a signal to abort it, and its own time limit.
 *
 * @example
 * ```ts
 * import { type RequestOptions, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const options: RequestOptions = { signal: AbortSignal.timeout(5_000), timeoutMs: 2_000 };
 * const ingress = await client.ingresses.get("web", { namespace: "shop", ...options });
 * ```
 */
export interface RequestOptions {
  /** Aborting it ends the request with a `RequestError` of code "aborted". */
  readonly signal?: AbortSignal;
  /** Until the whole answer is in, in ms; default the client's `timeoutMs`. */
  readonly timeoutMs?: number;
}

/**
 * One list request: where, which objects, and which page.
 *
 * @example
 * ```ts
 * import { type ListOptions, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const options: ListOptions = { namespace: "shop", labelSelector: "app=web", limit: 100 };
 * const page = await client.ingresses.list(options);
 * console.log(page.items.length, page.continue);
 * ```
 */
export interface ListOptions extends RequestOptions {
  /** For namespaced kinds: this namespace only; omitted, all namespaces. Refused for cluster-scoped kinds. */
  readonly namespace?: string;
  /** Label selector, as kubectl's `-l` (`app=web,tier!=db`). */
  readonly labelSelector?: string;
  /** Field selector (`metadata.name=web`). */
  readonly fieldSelector?: string;
  /** Most objects in this page; the rest is behind the page's `continue` token. */
  readonly limit?: number;
  /** The `continue` token of the previous page. */
  readonly continue?: string;
  /** List as of this resourceVersion ("0": any, from the API server's cache). */
  readonly resourceVersion?: string;
  /** How `resourceVersion` is read: exactly it, or not older than it. */
  readonly resourceVersionMatch?: "Exact" | "NotOlderThan";
}

/**
 * One page of a list.
 *
 * @example
 * ```ts
 * import { type ListPage, createClient, loadCredentials } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const page: ListPage<Ingress> = await client.ingresses.list({ limit: 10 });
 * if (page.continue !== "") console.log(`more: about ${page.remainingItemCount ?? "?"} left`);
 * ```
 */
export interface ListPage<T> {
  /** The objects of this page (decoded messages: treat them as yours). */
  readonly items: T[];
  /** The list's resourceVersion: watch from it to see what changes after the list. */
  readonly resourceVersion: string;
  /** The token for the next page; "" on the last one. */
  readonly continue: string;
  /** About how many objects are left after this page, when the API server says. */
  readonly remainingItemCount?: number;
}

/**
 * A create, update, updateStatus or apply: where, and how the API server is to treat it.
 *
 * @example
 * ```ts
 * import { type WriteOptions, createClient, loadCredentials } from "clusterwire/client";
 * import { IngressClassSchema, create } from "clusterwire/networking";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const options: WriteOptions = { dryRun: true, fieldValidation: "Strict", fieldManager: "my-tool" };
 * await client.ingressClasses.create(create(IngressClassSchema, { metadata: { name: "nginx" } }), options);
 * ```
 */
export interface WriteOptions extends RequestOptions {
  /** For namespaced kinds; default the object's `metadata.namespace` (one of them is required). */
  readonly namespace?: string;
  /** Check and answer, but store nothing (`dryRun=All`). */
  readonly dryRun?: boolean;
  /** What the API server does with unknown or duplicate fields: refuse, warn or drop them. */
  readonly fieldValidation?: "Strict" | "Warn" | "Ignore";
  /** Who makes the change, as recorded in `metadata.managedFields`. */
  readonly fieldManager?: string;
}

/**
 * A server-side apply: the field manager is required.
 *
 * @example
 * ```ts
 * import { type ApplyOptions, createClient, loadCredentials } from "clusterwire/client";
 * import { IngressClassSchema, create } from "clusterwire/networking";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const options: ApplyOptions = { fieldManager: "my-tool", force: true };
 * await client.ingressClasses.apply(create(IngressClassSchema, { metadata: { name: "nginx" }, spec: { controller: "example.com/ingress" } }), options);
 * ```
 */
export interface ApplyOptions extends WriteOptions {
  /** Who owns the applied fields. */
  readonly fieldManager: string;
  /** Take fields another manager owns instead of failing with a 409 Conflict. */
  readonly force?: boolean;
}

/**
 * A delete: where, and how (sent to the API server as a DeleteOptions body).
 *
 * @example
 * ```ts
 * import { type DeleteOptions, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const options: DeleteOptions = { namespace: "shop", propagationPolicy: "Foreground", preconditions: { resourceVersion: "4711" } };
 * await client.ingresses.delete("web", options);
 * ```
 */
export interface DeleteOptions extends RequestOptions {
  /** For namespaced kinds: required. */
  readonly namespace?: string;
  /** Check, but delete nothing (`dryRun: ["All"]`). */
  readonly dryRun?: boolean;
  /** Seconds before the object is deleted; 0 at once. */
  readonly gracePeriodSeconds?: number;
  /** What happens to the objects this one owns. */
  readonly propagationPolicy?: "Orphan" | "Background" | "Foreground";
  /** Delete only if the object still has this uid and/or resourceVersion (else 409 Conflict). */
  readonly preconditions?: {
    /** The object's `metadata.uid`. */
    readonly uid?: string;
    /** The object's `metadata.resourceVersion`. */
    readonly resourceVersion?: string;
  };
}

/**
 * One watch request.
 *
 * @example
 * ```ts
 * import { type WatchOptions, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const page = await client.ingresses.list({ namespace: "shop" });
 * const options: WatchOptions = { namespace: "shop", resourceVersion: page.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 300 };
 * for await (const event of client.ingresses.watch(options)) console.log(event.type);
 * ```
 */
export interface WatchOptions {
  /** For namespaced kinds: this namespace only; omitted, all namespaces. */
  readonly namespace?: string;
  /** Label selector, as kubectl's `-l`. */
  readonly labelSelector?: string;
  /** Field selector. */
  readonly fieldSelector?: string;
  /** Send the changes after this resourceVersion (a list's); omitted, the current state as ADDED events first. */
  readonly resourceVersion?: string;
  /** Ask for BOOKMARK events, which only move the resourceVersion on. */
  readonly allowWatchBookmarks?: boolean;
  /** The API server ends the watch after this long; the client cuts it 30 s after that (a `RequestError` "timeout"). */
  readonly timeoutSeconds?: number;
  /** Aborting it ends the iteration quietly (no error). */
  readonly signal?: AbortSignal;
  /** Until the response headers arrive, in ms; default the client's `timeoutMs`. */
  readonly headerTimeoutMs?: number;
}

/**
 * One event of a watch: an object of the watched kind, or (ERROR) the API server's Status, such
 * as code 410 when the resourceVersion is too old.
 *
 * @example
 * ```ts
 * import { type ClientWatchEvent, createClient, loadCredentials } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * const describe = (e: ClientWatchEvent<Ingress>): string =>
 *   e.type === "ERROR" ? `error ${e.object.code}: ${e.object.message}` : `${e.type} ${e.object.metadata?.name}`;
 * const client = createClient({ credentials: await loadCredentials() });
 * for await (const event of client.ingresses.watch()) console.log(describe(event));
 * ```
 */
export type ClientWatchEvent<T> =
  | {
      /** What happened to the object; BOOKMARK carries only a resourceVersion. */
      readonly type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";
      /** The object as it is now (DELETED: as it was last). */
      readonly object: T;
    }
  | {
      /** The API server ended the watch with an error. */
      readonly type: "ERROR";
      /** Why: its `code` (410: the resourceVersion is too old), `reason` and `message`. */
      readonly object: Status;
    };

/**
 * The two calls an informer needs: list a page, and watch from a resourceVersion. Every
 * `ResourceClient` is one; a test can pass its own.
 *
 * @example
 * ```ts
 * import { type ListWatcher, createClient, loadCredentials } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const source: ListWatcher<Ingress> = client.ingresses;
 * const page = await source.list({ limit: 500 });
 * for await (const event of source.watch({ resourceVersion: page.resourceVersion })) console.log(event.type);
 * ```
 */
export interface ListWatcher<T> {
  /** One page of objects, and the resourceVersion to watch from. */
  list(options?: ListOptions): Promise<ListPage<T>>;
  /** The events after `options.resourceVersion`; the request is sent on the first `next()`. */
  watch(options?: WatchOptions): AsyncIterable<ClientWatchEvent<T>>;
}
