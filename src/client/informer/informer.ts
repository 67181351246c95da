// createInformer: a store kept in step with the API server by a reflector, and the events of
// its changes handed to handlers (on) and to async iterators (events), each of which is
// caught up with the store as adds when it joins a started informer.
import type { ListWatcher } from "../types.js";
import { Reflector, errorText } from "./reflector.js";
import type { ClientObject } from "../types.js";
import { type InformerEvent, ObjectStore, type Store } from "./store.js";

/**
 * What an informer lists and watches, and how it paces itself.
 *
 * @example
 * ```ts
 * import { createInformer, type InformerOptions, type ListWatcher } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * declare const ingresses: ListWatcher<Ingress>;
 * const stop = new AbortController();
 * const options: InformerOptions<Ingress> = {
 *   namespace: "web",
 *   labelSelector: "app=shop",
 *   pageSize: 200,
 *   resyncMs: 10 * 60_000,
 *   indexes: { host: (ingress) => (ingress.spec?.rules ?? []).map((rule) => rule.host) },
 *   signal: stop.signal,
 *   log: (level, message, fields) => console.log(level, message, fields ?? {}),
 * };
 * const informer = createInformer(ingresses, options).start();
 * await informer.store.synced();
 * console.log(informer.store.byIndex("host", "shop.example.com").length);
 * stop.abort();
 * ```
 */
export interface InformerOptions<T> {
  /** For namespaced kinds, the one namespace to list and watch; omitted: all namespaces. */
  readonly namespace?: string;
  /** Only the objects this label selector matches, e.g. `app=shop`. */
  readonly labelSelector?: string;
  /** Only the objects this field selector matches, e.g. `metadata.name=shop`. */
  readonly fieldSelector?: string;
  /** Items per list page (the list's `limit`); default 500. */
  readonly pageSize?: number;
  /** List again this often, in ms (a relist's diff gives the events); default 0: never, only on a 410. */
  readonly resyncMs?: number;
  /** The `timeoutSeconds` of each watch; default 300. */
  readonly watchSeconds?: number;
  /** The first wait after a failure, in ms; it doubles with each failure in a row. Default 250. */
  readonly minBackoffMs?: number;
  /** The longest wait after a failure, in ms; default 30_000. */
  readonly maxBackoffMs?: number;
  /** Extra store indexes: each function gives the values an object is found under with `store.byIndex(name, value)`. */
  readonly indexes?: Readonly<Record<string, (object: T) => readonly string[]>>;
  /**
   * Keep each object as its protobuf bytes (`encode(object)`) instead of the decoded message;
   * default false. A cached object then costs its bytes, less than half the heap of the decoded
   * message (about 940 B per real Ingress, store and indexes included, where the decoded message takes about 2,000). Lookups decode on every
   * call (what decoding it off the watch costs: some µs per object), and each call returns
   * new objects, equal but not identical from call to call: still read-only, and not to be
   * compared with `===`. Events are unchanged in shape: `object` is the decoded object of the
   * list or watch, and `old` (update, delete) is decoded from the cached bytes only when a
   * handler reads it. Labels and index values are taken when an object goes in, as always.
   * Reads give the object as protobuf carries it whatever the client's format: from a JSON
   * client, a field the JSON left out may come back set to its empty value.
   *
   * @example
   * ```ts
   * import { createInformer, type ListWatcher } from "clusterwire/client";
   * import type { Ingress } from "clusterwire/networking";
   *
   * declare const ingresses: ListWatcher<Ingress>;
   * const informer = createInformer(ingresses, { compact: true }).start();
   * informer.on("update", (event) => console.log(event.object.metadata?.name)); // event.old not read: not decoded
   * await informer.store.synced();
   * const shop = informer.store.get("web", "shop"); // decoded now; a new object on each get
   * console.log(shop?.metadata?.resourceVersion, informer.store.get("web", "shop") === shop); // "…" false
   * await informer.stop();
   * ```
   */
  readonly compact?: boolean;
  /** Aborting it stops the informer, as `stop()` does. */
  readonly signal?: AbortSignal;
  /**
   * Receives what the informer does and what goes wrong: lists, relists, failures and the
   * backoff ("info"/"warn"), handlers and index functions that threw ("warn"). Default: "warn"
   * lines to `console.warn`, "info" dropped.
   */
  readonly log?: (level: "info" | "warn", message: string, fields?: Record<string, string | number>) => void;
}

/**
 * A cache of one kind's objects kept in step with the API server (list, then watch; list again
 * on a 410 or the resync), and the events of its changes.
 *
 * @example
 * ```ts
 * import { createInformer, type ListWatcher } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * declare const ingresses: ListWatcher<Ingress>;
 * const informer = createInformer(ingresses);
 * const off = informer.on("update", (event) => console.log("updated", event.object.metadata?.name, "was", event.old.metadata?.resourceVersion));
 * informer.on("delete", (event) => console.log("deleted", event.old.metadata?.name, event.finalStateUnknown));
 * informer.start();
 * await informer.store.synced();
 * console.log(informer.store.size, "ingresses at", informer.resourceVersion);
 *
 * const watching = new AbortController();
 * setTimeout(() => watching.abort(), 60_000);
 * for await (const event of informer.events({ signal: watching.signal })) console.log(event.type, event.object.metadata?.name);
 * off();
 * await informer.stop();
 * ```
 */
export interface Informer<T> {
  /** The objects, as last seen; read-only. */
  readonly store: Store<T>;
  /** The last resourceVersion seen: of the last list, event or bookmark ("" before the first list). */
  readonly resourceVersion: string;
  /** Starts listing and watching; returns the informer. Calling it again, or after a stop, does nothing. */
  start(): this;
  /**
   * Calls `handler` with each event of `type`; returns what unsubscribes it. On a started
   * informer an "add" handler is first called with each object of the store, as adds. A
   * handler that throws is logged ("warn") and changes nothing else. After a stop: nothing.
   */
  on<K extends InformerEvent<T>["type"]>(
    type: K,
    handler: (event: Extract<InformerEvent<T>, { readonly type: K }>) => void,
  ): () => void;
  /**
   * Every event from now on, as an async iterator, beginning (on a started informer) with each
   * object of the store as an add. Events queue without bound until read. It ends when
   * `options.signal` aborts (quietly, at once), when the loop breaks, or after the informer
   * stops (once the events queued before the stop are read).
   */
  events(options?: { readonly signal?: AbortSignal }): AsyncIterableIterator<InformerEvent<T>>;
  /** Stops: aborts the requests in flight and resolves when the loop has ended. Calling it again returns the same promise. */
  stop(): Promise<void>;
}

const DEFAULTS = {
  pageSize: 500,
  resyncMs: 0,
  watchSeconds: 300,
  minBackoffMs: 250,
  maxBackoffMs: 30_000,
};

/** Up to 2^31 - 1 ms: what setTimeout can wait. */
const MAX_TIMER_MS = 2_147_483_647;

/** A whole number in [min, max], or a RangeError naming the option. */
function wholeNumber(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max)
    throw new RangeError(
      `createInformer: ${name} must be a whole number from ${min} to ${max}, got ${typeof value === "number" ? String(value) : typeof value}`,
    );
  return value;
}

function optionalString(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && typeof value !== "string")
    throw new TypeError(`createInformer: ${name} must be a string, got ${typeof value}`);
  return value;
}

const defaultLog: NonNullable<InformerOptions<unknown>["log"]> = (level, message, fields) => {
  if (level === "warn") console.warn(`clusterwire informer: ${message}`, fields ?? {});
};

const EVENT_TYPES: ReadonlySet<string> = new Set(["add", "update", "delete"]);

/** An events() iterator's end of the informer. */
interface Subscriber<T> {
  push(event: InformerEvent<T>): void;
  /** The informer stopped: end after the queue. */
  close(): void;
}

/**
 * An informer over `source` (a ResourceClient, or any {@link ListWatcher}): call `start()`,
 * then read `store` once `store.synced()` resolves, and follow changes with `on()` or
 * `events()`. Options that are out of range are a RangeError, here.
 *
 * @example
 * ```ts
 * import { createInformer, type ListWatcher } from "clusterwire/client";
 * import type { NetworkPolicy } from "clusterwire/networking";
 *
 * declare const networkPolicies: ListWatcher<NetworkPolicy>;
 * const informer = createInformer(networkPolicies, { namespace: "web" }).start();
 * informer.on("add", (event) => console.log("policy", event.object.metadata?.name));
 * await informer.store.synced();
 * console.log(informer.store.list("web").map((policy) => policy.metadata?.name));
 * await informer.stop();
 * ```
 */
export function createInformer<T extends ClientObject>(
  source: ListWatcher<T>,
  options: InformerOptions<T> = {},
): Informer<T> {
  if (
    typeof source !== "object" ||
    source === null ||
    typeof source.list !== "function" ||
    typeof source.watch !== "function"
  )
    throw new TypeError("createInformer: the source must have list() and watch() (a ListWatcher)");
  const pageSize = wholeNumber("pageSize", options.pageSize, DEFAULTS.pageSize, 1, 1_000_000_000);
  const resyncMs = wholeNumber("resyncMs", options.resyncMs, DEFAULTS.resyncMs, 0, MAX_TIMER_MS);
  const watchSeconds = wholeNumber("watchSeconds", options.watchSeconds, DEFAULTS.watchSeconds, 1, 1_000_000_000);
  const minBackoffMs = wholeNumber("minBackoffMs", options.minBackoffMs, DEFAULTS.minBackoffMs, 1, MAX_TIMER_MS);
  const maxBackoffMs = wholeNumber(
    "maxBackoffMs",
    options.maxBackoffMs,
    Math.max(DEFAULTS.maxBackoffMs, minBackoffMs),
    minBackoffMs,
    MAX_TIMER_MS,
  );
  const namespace = optionalString("namespace", options.namespace);
  const labelSelector = optionalString("labelSelector", options.labelSelector);
  const fieldSelector = optionalString("fieldSelector", options.fieldSelector);
  const indexes = options.indexes ?? {};
  for (const [name, fn] of Object.entries(indexes))
    if (typeof fn !== "function")
      throw new TypeError(`createInformer: indexes[${JSON.stringify(name)}] must be a function, got ${typeof fn}`);
  if (options.compact !== undefined && typeof options.compact !== "boolean")
    throw new TypeError(`createInformer: compact must be a boolean, got ${typeof options.compact}`);
  if (options.log !== undefined && typeof options.log !== "function")
    throw new TypeError("createInformer: log must be a function");
  const userLog = options.log ?? defaultLog;
  /** The log never stops the informer either. */
  const log: typeof userLog = (level, message, fields) => {
    try {
      if (fields === undefined) userLog(level, message);
      else userLog(level, message, fields);
    } catch {
      // A log function that throws loses its line, nothing else.
    }
  };

  const store = new ObjectStore<T>(
    indexes,
    (index, ns, name, error) =>
      log("warn", "an index function threw; the object is not in that index", {
        index,
        namespace: ns,
        name,
        error: errorText(error),
      }),
    options.compact === true,
  );
  const abort = new AbortController();
  let state: "new" | "running" | "stopped" = "new";
  let loop: Promise<void> = Promise.resolve();
  let stopped: Promise<void> | undefined;
  // Copied on each change, never changed in place: a dispatch walks the arrays as they were when
  // it began (a handler may unsubscribe itself or another) without copying them for each event.
  const handlers: Record<InformerEvent<T>["type"], readonly ((event: InformerEvent<T>) => void)[]> = {
    add: [],
    update: [],
    delete: [],
  };
  let subscribers: readonly Subscriber<T>[] = [];

  const call = (handler: (event: InformerEvent<T>) => void, event: InformerEvent<T>): void => {
    try {
      handler(event);
    } catch (e) {
      const meta = event.object.metadata;
      log("warn", `a ${event.type} handler threw`, {
        namespace: meta?.namespace ?? "",
        name: meta?.name ?? "",
        error: errorText(e),
      });
    }
  };
  const dispatch = (event: InformerEvent<T>): void => {
    const list = handlers[event.type];
    for (let i = 0; i < list.length; i++) call(list[i]!, event);
    const subs = subscribers;
    for (let i = 0; i < subs.length; i++) subs[i]!.push(event);
  };

  const reflector = new Reflector<T>(
    source,
    {
      ...(namespace === undefined ? {} : { namespace }),
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
      pageSize,
      resyncMs,
      watchSeconds,
      minBackoffMs,
      maxBackoffMs,
      signal: abort.signal,
      log,
    },
    {
      replace(items) {
        for (const event of store.replace(items)) dispatch(event);
        store.markSynced();
      },
      apply(type, object) {
        const event = store.apply(type, object);
        if (event !== undefined) dispatch(event);
      },
    },
  );

  const stop = (): Promise<void> => {
    if (stopped !== undefined) return stopped;
    state = "stopped";
    abort.abort();
    options.signal?.removeEventListener("abort", onSignal);
    store.abandon(new DOMException("the informer stopped before its first list was in", "AbortError"));
    const closing = subscribers;
    subscribers = [];
    for (const subscriber of closing) subscriber.close();
    handlers.add = [];
    handlers.update = [];
    handlers.delete = [];
    stopped = loop.then(() => {});
    return stopped;
  };
  const onSignal = (): void => {
    void stop();
  };
  if (options.signal?.aborted === true) void stop();
  else options.signal?.addEventListener("abort", onSignal, { once: true });

  const informer: Informer<T> = {
    store: store.view,
    get resourceVersion() {
      return reflector.resourceVersion;
    },
    start() {
      if (state !== "new") return this;
      state = "running";
      loop = reflector.run();
      return this;
    },
    on(type, handler) {
      if (!EVENT_TYPES.has(type))
        throw new RangeError(`on: the event type must be "add", "update" or "delete", got ${JSON.stringify(type)}`);
      if (typeof handler !== "function") throw new TypeError("on: the handler must be a function");
      if (state === "stopped") return () => {};
      const h = handler as (event: InformerEvent<T>) => void;
      handlers[type] = [...handlers[type], h];
      if (state === "running" && type === "add") for (const object of store.list()) call(h, { type: "add", object });
      return () => {
        const list = handlers[type];
        const at = list.indexOf(h);
        if (at >= 0) handlers[type] = [...list.slice(0, at), ...list.slice(at + 1)];
      };
    },
    events(eventOptions = {}) {
      const signal = eventOptions.signal;
      const queue: InformerEvent<T>[] = [];
      let head = 0;
      /** "open": events come; "closing": the informer stopped, read what is queued; "done". */
      let phase: "open" | "closing" | "done" = "open";
      /** The next() calls waiting for an event, oldest first. */
      const waiting: ((result: IteratorResult<InformerEvent<T>>) => void)[] = [];
      const DONE: IteratorResult<InformerEvent<T>> = { done: true, value: undefined };

      const finish = (): void => {
        phase = "done";
        queue.length = 0;
        head = 0;
        subscribers = subscribers.filter((s) => s !== subscriber);
        signal?.removeEventListener("abort", finish);
        for (const resolve of waiting.splice(0)) resolve(DONE);
      };
      const subscriber: Subscriber<T> = {
        push(event) {
          if (phase !== "open") return;
          const resolve = waiting.shift();
          if (resolve !== undefined) resolve({ done: false, value: event });
          else queue.push(event);
        },
        close() {
          if (phase !== "open") return;
          phase = "closing";
          if (head >= queue.length) finish();
        },
      };
      const iterator: AsyncIterableIterator<InformerEvent<T>> = {
        next() {
          if (head < queue.length) {
            const value = queue[head++]!;
            // Drop what has been read now and then, not at every step.
            if (head > 1024 && head * 2 > queue.length) {
              queue.splice(0, head);
              head = 0;
            }
            if (phase === "closing" && head >= queue.length) finish();
            return Promise.resolve({ done: false, value });
          }
          if (phase !== "open") {
            if (phase === "closing") finish();
            return Promise.resolve(DONE);
          }
          return new Promise((resolve) => {
            waiting.push(resolve);
          });
        },
        return() {
          finish();
          return Promise.resolve(DONE);
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
      if (signal?.aborted === true || state === "stopped") {
        phase = "done";
        return iterator;
      }
      if (state === "running") for (const object of store.list()) queue.push({ type: "add", object });
      subscribers = [...subscribers, subscriber];
      signal?.addEventListener("abort", finish, { once: true });
      return iterator;
    },
    stop,
  };
  return informer;
}
