// Keeps an IngressCaptureIndex in step with the API server through clusterwire/client's
// informers: one for Ingresses and, when the index scopes by controller, one for
// IngressClasses, both in protobuf. The informers list (in pages), watch from the list's
// resourceVersion, reopen a watch that ends, relist on a 410 and every resync period, and
// back off after failures; their events feed the index, and once an informer's first list is
// in, the index is loaded from its store in one piece (which marks it synced).

import type { IngressCaptureIndex } from "../../guards/ingress-capture.js";
import type { Ingress, IngressClass } from "../../../networking/index.js";
import {
  type ClientObject,
  type ClusterCredentials,
  createClient,
  createInformer,
  type Informer,
  type InformerOptions,
  type ListWatcher,
} from "../../../client/index.js";

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

/**
 * The kinds the guard lists and watches: deploy/'s ClusterRole grants list and watch on these
 * and nothing else.
 */
export const WATCHED_KINDS = { ingresses: "Ingress", ingressClasses: "IngressClass" } as const;

/** The User-Agent of the guard's requests, so the API server's audit log tells them apart. */
const USER_AGENT = "clusterwire-webhook";

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
  /**
   * Receives the watch's events (lists, relists, failures), each with a `resource` field
   * ("ingresses" or "ingressclasses"); default: none.
   */
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

/** Where one kind's objects go in the index. */
interface Target<T> {
  set(object: T): void;
  remove(object: T): void;
}

/**
 * Starts filling `index` from the API server: Ingresses, and IngressClasses too when the index
 * scopes by controller. The index is synced once both first lists are in. Options out of range
 * are a RangeError, here.
 */
export function startIngressWatch(index: IngressCaptureIndex, options: IngressWatchOptions): IngressWatch {
  const client = createClient({
    credentials: options.credentials,
    userAgent: USER_AGENT,
    ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
  });
  const informerOptions = (resource: string): InformerOptions<ClientObject> => {
    const log = options.log;
    return {
      resyncMs: options.resyncMs ?? DEFAULT_RESYNC_MS,
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      ...(options.watchSeconds === undefined ? {} : { watchSeconds: options.watchSeconds }),
      ...(options.minBackoffMs === undefined ? {} : { minBackoffMs: options.minBackoffMs }),
      ...(options.maxBackoffMs === undefined ? {} : { maxBackoffMs: options.maxBackoffMs }),
      log: log === undefined ? () => {} : (level, message, fields) => log(level, message, { resource, ...fields }),
    };
  };
  let ingresses: Informer<Ingress>;
  let classes: Informer<IngressClass> | undefined;
  try {
    ingresses = follow<Ingress>(client.resource(WATCHED_KINDS.ingresses), informerOptions("ingresses"), {
      set: (ingress) => index.set(ingress),
      remove: (ingress) => index.remove(ingress.metadata?.namespace ?? "", ingress.metadata?.name ?? ""),
    });
    classes = !index.byController
      ? undefined
      : follow<IngressClass>(client.resource(WATCHED_KINDS.ingressClasses), informerOptions("ingressclasses"), {
          set: (ingressClass) => index.setClass(ingressClass),
          remove: (ingressClass) => index.removeClass(ingressClass.metadata?.name ?? ""),
        });
  } catch (e) {
    client.close();
    throw e;
  }
  const informers: Informer<ClientObject>[] = classes === undefined ? [ingresses] : [ingresses, classes];
  /** Each store's first list, loaded into the index; pending for good when stopped before. */
  const loaded = (informer: Informer<ClientObject>, replace: () => void): Promise<void> =>
    informer.store.synced().then(replace, () => new Promise<void>(() => {}));
  const synced = Promise.all([
    loaded(ingresses, () => index.replaceAll(ingresses.store.list())),
    classes === undefined ? undefined : loaded(classes, () => index.replaceClasses(classes.store.list())),
  ]).then(() => {});
  for (const informer of informers) informer.start();
  let stopped: Promise<void> | undefined;
  return {
    synced,
    get resourceVersion() {
      return ingresses.resourceVersion;
    },
    stop() {
      stopped ??= Promise.all(informers.map((informer) => informer.stop())).then(() => client.close());
      return stopped;
    },
  };
}

/**
 * An informer of `source`, not yet started, whose events go to `target` (a relist's diff
 * included); the caller loads the whole store into the index once it has synced.
 */
function follow<T extends ClientObject>(
  source: ListWatcher<T>,
  options: InformerOptions<ClientObject>,
  target: Target<T>,
): Informer<T> {
  const informer = createInformer<T>(source, options as InformerOptions<T>);
  informer.on("add", (event) => target.set(event.object));
  informer.on("update", (event) => target.set(event.object));
  informer.on("delete", (event) => target.remove(event.old));
  return informer;
}
