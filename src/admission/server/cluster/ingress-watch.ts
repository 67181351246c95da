// Keeps an IngressCaptureIndex in step with the API server: list every
// Ingress (paginated), then watch from the list's resourceVersion, in
// protobuf, decoded by clusterwire itself.
//
//  - a watch that ends (the server's timeoutSeconds, a dropped connection) is
//    opened again from the last resourceVersion seen, after a backoff;
//  - an expired resourceVersion (HTTP 410, or an ERROR event whose Status has
//    code 410) and the periodic resync relist, replacing the whole index;
//  - failures (network, timeouts, 401/403/5xx, undecodable frames) back off
//    exponentially, bounded, and try again until stopped;
//  - BOOKMARK events only move the resourceVersion on.

import type { IncomingMessage } from "node:http";
import type { IngressCaptureIndex } from "../../guards/ingress-capture.js";
import {
  PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE,
  decode,
  decodeWatchStream,
  type Ingress,
  type IngressClass,
  type ListMeta,
  type NetworkingObject,
  type ObjectMeta,
  type Status,
} from "../../../networking/index.js";
import { ApiRequestError, apiGet, readResponse, type ApiGetOptions } from "./api-request.js";
import type { ClusterCredentials } from "../../../client/index.js";

export const INGRESSES_PATH = "/apis/networking.k8s.io/v1/ingresses";
export const INGRESS_CLASSES_PATH = "/apis/networking.k8s.io/v1/ingressclasses";
/**
 * How often the ingress-capture guard's watch lists every Ingress again by default: 10 minutes.
 *
 * @example
 * ```ts
 * import { DEFAULT_RESYNC_MS, type IngressWatchOptions, inClusterCredentials } from "clusterwire/admission/server";
 *
 * const watch: Omit<IngressWatchOptions, "log"> = { credentials: await inClusterCredentials(), resyncMs: DEFAULT_RESYNC_MS / 2 };
 * ```
 */
export const DEFAULT_RESYNC_MS = 10 * 60_000;
const DEFAULT_PAGE_SIZE = 500;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** The watch's server-side timeoutSeconds; the client adds a margin before cutting it itself. */
const DEFAULT_WATCH_SECONDS = 300;
const WATCH_MARGIN_MS = 30_000;
const DEFAULT_MIN_BACKOFF_MS = 250;
const DEFAULT_MAX_BACKOFF_MS = 30_000;
/** A list page larger than this is refused (the API server's own response limit is far below). */
const MAX_LIST_BYTES = 256 * 1024 * 1024;

/**
 * How the ingress-capture guard lists and watches the cluster's Ingresses (and IngressClasses).
 *
 * @example
 * ```ts
 * import { type IngressWatchOptions, inClusterCredentials } from "clusterwire/admission/server";
 *
 * const watch: Omit<IngressWatchOptions, "log"> = { credentials: await inClusterCredentials(), pageSize: 100, maxBackoffMs: 10_000 };
 * // createWebhookServer({ tls, ingressCapture: watch }) lists and watches with these options.
 * ```
 */
export interface IngressWatchOptions {
  /** Where the API server is and how to authenticate to it. */
  readonly credentials: ClusterCredentials;
  /** Relist this often, in ms; default 10 minutes. */
  readonly resyncMs?: number;
  /** Items per list page; default 500. */
  readonly pageSize?: number;
  /** Until the response headers of any request (and the whole of a list page), in ms; default 30 s. */
  readonly requestTimeoutMs?: number;
  /** The watch's timeoutSeconds; default 300. */
  readonly watchSeconds?: number;
  /** Bounds of the backoff between failed attempts, in ms; default 250 ms to 30 s. */
  readonly minBackoffMs?: number;
  /** The upper bound of the backoff. */
  readonly maxBackoffMs?: number;
  /** Receives the watch's events (lists, restarts, failures); default: none. */
  readonly log?: (level: "info" | "warn", msg: string, fields?: Record<string, string | number>) => void;
}

export interface IngressWatch {
  /** Resolves once the first list is in the index; never rejects (failures are retried). */
  readonly synced: Promise<void>;
  /** The last resourceVersion seen ("" before the first list). */
  readonly resourceVersion: string;
  /** Stops the watch and any request in flight; resolves when the loop has ended. */
  stop(): Promise<void>;
}

/** Why a watch stopped: its end, an expired resourceVersion, or the resync period. */
type WatchEnd = "ended" | "expired" | "resync";

class Expired extends Error {}

/** One kind to list and watch, and where its objects go. */
interface Resource<T extends NetworkingObject> {
  /** Plural, for logs: "Ingresses", "IngressClasses". */
  readonly plural: string;
  readonly path: string;
  readonly listType: string;
  readonly itemType: string;
  replaceAll(items: T[]): void;
  set(item: T): void;
  remove(namespace: string, name: string): void;
}

/**
 * Starts filling `index` from the API server: Ingresses, and IngressClasses
 * too when the index scopes by controller. The index is synced once both
 * first lists are in.
 */
export function startIngressWatch(index: IngressCaptureIndex, options: IngressWatchOptions): IngressWatch {
  const ingresses = startListWatch<Ingress>(
    {
      plural: "Ingresses",
      path: INGRESSES_PATH,
      listType: "k8s.io.api.networking.v1.IngressList",
      itemType: "k8s.io.api.networking.v1.Ingress",
      replaceAll: (items) => index.replaceAll(items),
      set: (item) => index.set(item),
      remove: (namespace, name) => index.remove(namespace, name),
    },
    options,
  );
  const classes = !index.byController
    ? undefined
    : startListWatch<IngressClass>(
        {
          plural: "IngressClasses",
          path: INGRESS_CLASSES_PATH,
          listType: "k8s.io.api.networking.v1.IngressClassList",
          itemType: "k8s.io.api.networking.v1.IngressClass",
          replaceAll: (items) => index.replaceClasses(items),
          set: (item) => index.setClass(item),
          remove: (_, name) => index.removeClass(name),
        },
        options,
      );
  return {
    synced: Promise.all([ingresses.synced, classes?.synced]).then(() => {}),
    get resourceVersion() {
      return ingresses.resourceVersion;
    },
    async stop() {
      await Promise.all([ingresses.stop(), classes?.stop()]);
    },
  };
}

/** Lists and watches one kind until stopped. */
function startListWatch<T extends NetworkingObject>(resource: Resource<T>, options: IngressWatchOptions): IngressWatch {
  const abort = new AbortController();
  const signal = abort.signal;
  const resyncMs = options.resyncMs ?? DEFAULT_RESYNC_MS;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const watchSeconds = options.watchSeconds ?? DEFAULT_WATCH_SECONDS;
  const minBackoff = options.minBackoffMs ?? DEFAULT_MIN_BACKOFF_MS;
  const maxBackoff = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
  const log = options.log ?? (() => {});
  const credentials = options.credentials;
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => {
    markSynced = resolve;
  });

  const get = (path: string, accept: string, deadlineMs: number): Promise<IncomingMessage> => {
    const o: ApiGetOptions = { accept, timeoutMs, deadlineMs, signal };
    return apiGet(credentials, path, o);
  };

  const { plural, path } = resource;
  /** Lists every object, page by page; a continue token that expired starts the list again. */
  const list = async (): Promise<string> => {
    for (;;) {
      const items: T[] = [];
      let token = "";
      let resourceVersion = "";
      let restarted = false;
      do {
        const q = new URLSearchParams({ limit: String(pageSize) });
        if (token !== "") q.set("continue", token);
        const res = await get(`${path}?${q}`, PROTOBUF_MEDIA_TYPE, timeoutMs);
        const body = await readResponse(res, MAX_LIST_BYTES);
        if (res.statusCode === 410 && token !== "") {
          log("warn", "the list's continue token expired; listing again");
          restarted = true;
          break;
        }
        if (res.statusCode !== 200) throw httpError(res.statusCode ?? 0, "list", body);
        const page = decode(body) as NetworkingObject & { items?: T[]; metadata?: ListMeta };
        if (page.$typeName !== resource.listType) {
          throw new ApiRequestError(200, `list: the body is a ${page.$typeName}, not a ${resource.listType}`);
        }
        items.push(...(page.items ?? []));
        token = page.metadata?.continue ?? "";
        resourceVersion = page.metadata?.resourceVersion ?? "";
      } while (token !== "");
      if (restarted) continue;
      resource.replaceAll(items);
      log("info", `listed ${plural}`, { count: items.length, resourceVersion });
      return resourceVersion;
    }
  };

  /** The last resourceVersion seen, by a list or any event (also when the watch then fails). */
  let rv = "";

  /** Watches from `rv` until the stream ends, expires or the resync time comes. */
  const watch = async (resyncAt: number): Promise<{ end: WatchEnd; events: number }> => {
    let events = 0;
    const remaining = resyncAt - Date.now();
    if (remaining <= 0) return { end: "resync", events };
    const seconds = Math.max(1, Math.min(watchSeconds, Math.ceil(remaining / 1000)));
    const q = new URLSearchParams({
      watch: "1",
      resourceVersion: rv,
      allowWatchBookmarks: "true",
      timeoutSeconds: String(seconds),
    });
    const res = await get(`${path}?${q}`, PROTOBUF_WATCH_MEDIA_TYPE, seconds * 1000 + WATCH_MARGIN_MS);
    if (res.statusCode === 410) {
      res.resume();
      return { end: "expired", events };
    }
    if (res.statusCode !== 200) throw httpError(res.statusCode ?? 0, "watch", await readResponse(res, 64 * 1024));
    // The resync comes while the watch is open: cut it then.
    const cut = setTimeout(() => res.destroy(), remaining);
    let resync = false;
    cut.unref();
    res.once("close", () => {
      resync = Date.now() >= resyncAt;
    });
    try {
      for await (const event of decodeWatchStream(res as AsyncIterable<Uint8Array>)) {
        events++;
        if (event.type === "ERROR") {
          const status = event.object as Status;
          if (status.code === 410) throw new Expired(status.message);
          throw new ApiRequestError(
            status.code ?? 0,
            `watch: ERROR event: ${status.reason ?? ""} ${status.message ?? ""}`,
          );
        }
        const object = event.object as T & { metadata?: ObjectMeta };
        if (object.$typeName !== resource.itemType) {
          throw new ApiRequestError(
            200,
            `watch: a ${event.type} event carries a ${object.$typeName}, not a ${resource.itemType}`,
          );
        }
        const meta = object.metadata;
        if (event.type === "ADDED" || event.type === "MODIFIED") resource.set(object);
        else if (event.type === "DELETED") resource.remove(meta?.namespace ?? "", meta?.name ?? "");
        rv = meta?.resourceVersion || rv;
      }
    } catch (e) {
      if (e instanceof Expired) {
        res.destroy();
        return { end: "expired", events };
      }
      if (resync || Date.now() >= resyncAt) return { end: "resync", events };
      throw e;
    } finally {
      clearTimeout(cut);
    }
    return { end: resync || Date.now() >= resyncAt ? "resync" : "ended", events };
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });

  const run = async (): Promise<void> => {
    let backoff = minBackoff;
    const failed = async (what: string, e: unknown, level: "info" | "warn" = "warn"): Promise<void> => {
      if (signal.aborted) return;
      log(level, what, { error: e instanceof Error ? e.message : String(e), retryInMs: backoff });
      await sleep(backoff);
      backoff = Math.min(maxBackoff, backoff * 2);
    };
    while (!signal.aborted) {
      try {
        rv = await list();
      } catch (e) {
        await failed(`cannot list ${plural}`, e);
        continue;
      }
      markSynced();
      backoff = minBackoff;
      const resyncAt = Date.now() + resyncMs;
      while (!signal.aborted) {
        let result: { end: WatchEnd; events: number };
        try {
          result = await watch(resyncAt);
        } catch (e) {
          await failed(`the watch of ${plural} failed`, e);
          continue;
        }
        if (result.end === "expired") {
          log("info", `the watch's resourceVersion expired; listing ${plural} again`, { resourceVersion: rv });
          break;
        }
        if (result.end === "resync") {
          log("info", `resync: listing ${plural} again`);
          break;
        }
        // A watch that ended after delivering events is normal: reconnect at once; an empty one backs off.
        if (result.events > 0) backoff = minBackoff;
        else await failed(`the watch of ${plural} ended without events; opening it again`, "ended", "info");
      }
    }
  };

  // run() handles its own failures; anything else is a bug, logged rather than left unhandled.
  const loop = run().catch((e: unknown) => {
    log("warn", `the watch of ${plural} stopped on an internal error`, {
      error: e instanceof Error ? e.message : String(e),
    });
  });
  return {
    synced,
    get resourceVersion() {
      return rv;
    },
    async stop() {
      abort.abort();
      await loop;
    },
  };
}

function httpError(status: number, what: string, body: Buffer): ApiRequestError {
  let detail = "";
  try {
    const s = decode(body) as Status;
    if (s.$typeName === "k8s.io.apimachinery.pkg.apis.meta.v1.Status")
      detail = `: ${s.reason ?? ""} ${s.message ?? ""}`;
  } catch {
    // A body that is not a protobuf Status (a proxy's page, JSON): the status says enough.
  }
  return new ApiRequestError(status, `${what}: HTTP ${status}${detail}`.trimEnd());
}
