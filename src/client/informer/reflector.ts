// The list-then-watch loop behind an informer:
//
//  - list in pages (limit, continue tokens); a continue token that expired (410) starts the list
//    over once, a second time in the same list is a failure;
//  - hand the full list over (the store diffs it), then watch from the list's resourceVersion
//    with bookmarks;
//  - a watch that ends is opened again from the last resourceVersion seen (events and bookmarks
//    move it on), at once when it delivered something, after the backoff when it delivered
//    nothing (so a server that ends every watch at once is not asked again in a tight loop);
//  - an HTTP 410 from the watch, or an ERROR event with code 410, lists again at once; so does
//    the resync period, which cuts an open watch;
//  - any other failure waits the backoff (doubling from min to max; back to min after a list or
//    a watch that delivered something) and tries the same step again;
//  - the signal stops everything: requests in flight are aborted, and the loop does not wait
//    for a source that ignores the signal.
import type { Status } from "../../networking/index.js";
import type { ClientWatchEvent, ListOptions, ListWatcher, WatchOptions } from "../types.js";
import type { ClientObject } from "../types.js";

/** What the reflector lists and watches, and how it paces itself (all checked by the informer). */
export interface ReflectorOptions {
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly pageSize: number;
  /** 0: never. */
  readonly resyncMs: number;
  readonly watchSeconds: number;
  readonly minBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Aborting it ends the loop. */
  readonly signal: AbortSignal;
  readonly log: (level: "info" | "warn", message: string, fields?: Record<string, string | number>) => void;
}

/** Where the reflector's results go. */
export interface ReflectorSink<T> {
  /** A full list is in: these are all the objects. */
  replace(items: T[], resourceVersion: string): void;
  /** One watch event. */
  apply(type: "ADDED" | "MODIFIED" | "DELETED", object: T): void;
}

/**
 * True for an error that says the resourceVersion or continue token expired: any thrown value
 * with a numeric `status` of 410 (the client's ApiError has one).
 */
export function isExpired(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "status" in error &&
    typeof error.status === "number" &&
    error.status === 410
  );
}

/** A thrown value as one line for the log. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message === "" ? error.name : `${error.name}: ${error.message}`;
  if (typeof error === "object" && error !== null) {
    const status = "status" in error ? ` (status ${String(error.status)})` : "";
    return `a thrown ${error.constructor?.name ?? "object"}${status}`;
  }
  return String(error);
}

/** The loop was stopped while it waited. */
const STOPPED = Symbol("stopped");

/**
 * `promise`, or STOPPED as soon as `signal` aborts (the promise is then left to settle on its
 * own, its rejection handled).
 */
function unlessAborted<R>(promise: Promise<R>, signal: AbortSignal): Promise<R | typeof STOPPED> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.resolve(STOPPED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(STOPPED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) resolve(STOPPED);
        else reject(error);
      },
    );
  });
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** How a watch ended: normally, with "list again" (410 or resync), or stopped. */
type WatchEnd =
  | { readonly end: "ended"; readonly delivered: number }
  | { readonly end: "relist"; readonly why: string }
  | { readonly end: "stopped" };

/** One watch's stream, shared by #watch and the #pump reading it. */
interface WatchStream<T> {
  iterator: AsyncIterator<ClientWatchEvent<T>> | undefined;
  /** True once the stream has ended or failed by itself: nothing to close then. */
  finished: boolean;
  /** Events and bookmarks read. */
  delivered: number;
}

/** An ERROR event that is not a 410: a failure of the watch, retried after the backoff. */
class WatchErrorEvent extends Error {
  override readonly name = "WatchErrorEvent";
}

/**
 * Lists and watches `source` into `sink` until `options.signal` aborts; `resourceVersion` is
 * the last one seen.
 */
export class Reflector<T extends ClientObject> {
  readonly #source: ListWatcher<T>;
  readonly #options: ReflectorOptions;
  readonly #sink: ReflectorSink<T>;
  #resourceVersion = "";
  #backoff: number;

  constructor(source: ListWatcher<T>, options: ReflectorOptions, sink: ReflectorSink<T>) {
    this.#source = source;
    this.#options = options;
    this.#sink = sink;
    this.#backoff = options.minBackoffMs;
  }

  /** The last resourceVersion seen: of the last list, event or bookmark ("" before the first list). */
  get resourceVersion(): string {
    return this.#resourceVersion;
  }

  /** Runs until the signal aborts; never rejects. */
  async run(): Promise<void> {
    const { signal, log } = this.#options;
    try {
      await this.#loop();
    } catch (e) {
      // #loop handles every failure of the source; anything else is a bug, logged, not left unhandled.
      if (!signal.aborted) log("warn", "the informer stopped on an internal error", { error: errorText(e) });
    }
  }

  async #loop(): Promise<void> {
    const { signal, log, resyncMs } = this.#options;
    while (!signal.aborted) {
      // List (again, after each failure) until a full list is in.
      let listed: boolean;
      try {
        listed = await this.#listIntoSink();
      } catch (e) {
        await this.#failed("the list failed", e);
        continue;
      }
      if (!listed) return;
      const resyncAt = resyncMs > 0 ? Date.now() + resyncMs : Number.POSITIVE_INFINITY;

      // Watch (again) until a 410, the resync time, or the stop.
      for (;;) {
        if (signal.aborted) return;
        if (Date.now() >= resyncAt) {
          log("info", "resync: listing again", { resourceVersion: this.#resourceVersion });
          break;
        }
        let result: WatchEnd;
        try {
          result = await this.#watch(resyncAt);
        } catch (e) {
          await this.#failed("the watch failed", e);
          continue;
        }
        if (result.end === "stopped") return;
        if (result.end === "relist") {
          log("info", `${result.why}: listing again`, { resourceVersion: this.#resourceVersion });
          break;
        }
        if (result.delivered === 0) await this.#failed("the watch ended without events", undefined, "info");
      }
    }
  }

  /**
   * One full list handed to the sink; false when stopped first. Its own frame: a suspended async
   * function keeps its locals, and the listed objects held by #loop's would live as long as the
   * watch after them, as well as the store's copies (a compact store keeps bytes, not them).
   */
  async #listIntoSink(): Promise<boolean> {
    const listed = await this.#list();
    if (listed === STOPPED) return false;
    this.#backoff = this.#options.minBackoffMs;
    this.#resourceVersion = listed.resourceVersion;
    this.#sink.replace(listed.items, listed.resourceVersion);
    this.#options.log("info", "listed", { count: listed.items.length, resourceVersion: listed.resourceVersion });
    return true;
  }

  /** Logs a failure, waits the backoff, and doubles it (up to the maximum). */
  async #failed(what: string, error: unknown, level: "info" | "warn" = "warn"): Promise<void> {
    const { signal, log, maxBackoffMs } = this.#options;
    if (signal.aborted) return;
    const fields: Record<string, string | number> = { retryInMs: this.#backoff };
    if (error !== undefined) fields["error"] = errorText(error);
    log(level, `${what}; trying again`, fields);
    await sleep(this.#backoff, signal);
    this.#backoff = Math.min(maxBackoffMs, this.#backoff * 2);
  }

  /** Every page of the list; a continue token that expired starts the list over, once. */
  async #list(): Promise<{ items: T[]; resourceVersion: string } | typeof STOPPED> {
    const { signal, log, pageSize } = this.#options;
    let restarted = false;
    for (;;) {
      const items: T[] = [];
      let token = "";
      let expired = false;
      for (;;) {
        const options: ListOptions = { ...this.#selection(), limit: pageSize, signal };
        let page: Awaited<ReturnType<ListWatcher<T>["list"]>> | typeof STOPPED;
        try {
          page = await unlessAborted(
            Promise.resolve(this.#source.list(token === "" ? options : { ...options, continue: token })),
            signal,
          );
        } catch (e) {
          if (token === "" || !isExpired(e) || restarted) throw e;
          expired = true;
          break;
        }
        if (page === STOPPED) return STOPPED;
        if (!Array.isArray(page?.items)) throw new TypeError("the list returned no items array: not a ListPage");
        for (const item of page.items) items.push(item);
        token = typeof page.continue === "string" ? page.continue : "";
        if (token === "") return { items, resourceVersion: String(page.resourceVersion ?? "") };
      }
      if (expired) {
        restarted = true;
        log("info", "the list's continue token expired; listing from the start");
      }
    }
  }

  /** The namespace and selectors of both list and watch. */
  #selection(): { namespace?: string; labelSelector?: string; fieldSelector?: string } {
    const { namespace, labelSelector, fieldSelector } = this.#options;
    return {
      ...(namespace === undefined ? {} : { namespace }),
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
    };
  }

  /** One watch from the last resourceVersion, until it ends, expires, the resync time comes or the stop. */
  async #watch(resyncAt: number): Promise<WatchEnd> {
    const { signal, watchSeconds } = this.#options;
    // Its own controller: the stop and the resync both cut it. Its abort is raced against the
    // stream once for the whole watch, not once per event: a source that ignores the signal
    // cannot hold the loop, and each event costs one await of the source's next().
    const cut = new AbortController();
    const onStop = (): void => cut.abort();
    signal.addEventListener("abort", onStop, { once: true });
    let resyncDue = false;
    const timer =
      resyncAt === Number.POSITIVE_INFINITY
        ? undefined
        : setTimeout(
            () => {
              resyncDue = true;
              cut.abort();
            },
            Math.max(0, resyncAt - Date.now()),
          );
    const options: WatchOptions = {
      ...this.#selection(),
      resourceVersion: this.#resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: watchSeconds,
      signal: cut.signal,
    };
    const stream: WatchStream<T> = { iterator: undefined, finished: false, delivered: 0 };
    let onCut: (() => void) | undefined;
    try {
      stream.iterator = this.#source.watch(options)[Symbol.asyncIterator]();
      const pumped = this.#pump(stream, cut.signal);
      const end = await Promise.race([
        pumped,
        new Promise<typeof STOPPED>((resolve) => {
          onCut = () => resolve(STOPPED);
          if (cut.signal.aborted) onCut();
          else cut.signal.addEventListener("abort", onCut, { once: true });
        }),
      ]);
      if (end === STOPPED) {
        // The pump ends on its own once the source answers (or never); nothing it does now counts.
        pumped.catch(() => {});
      } else {
        return end;
      }
    } catch (e) {
      if (isExpired(e)) return { end: "relist", why: "the watch's resourceVersion expired (HTTP 410)" };
      throw e;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener("abort", onStop);
      if (onCut !== undefined) cut.signal.removeEventListener("abort", onCut);
      cut.abort();
      // Ends the stream (closes the connection) unless it ended by itself; a source that fails
      // at that is of no interest now.
      const { iterator } = stream;
      if (!stream.finished && iterator?.return !== undefined) {
        try {
          Promise.resolve(iterator.return()).catch(() => {});
        } catch {
          // As above.
        }
      }
    }
    // Cut by the stop or by the resync.
    if (signal.aborted) return { end: "stopped" };
    if (resyncDue) return { end: "relist", why: "resync" };
    return { end: "ended", delivered: stream.delivered };
  }

  /**
   * Reads the watch's events into the sink until the stream ends, an ERROR event, or `cut`
   * aborts (checked after each event, so nothing read after the cut reaches the sink).
   */
  async #pump(stream: WatchStream<T>, cut: AbortSignal): Promise<WatchEnd | typeof STOPPED> {
    const iterator = stream.iterator!;
    const sink = this.#sink;
    for (;;) {
      let next: IteratorResult<ClientWatchEvent<T>>;
      try {
        next = await iterator.next();
      } catch (e) {
        if (cut.aborted) return STOPPED;
        stream.finished = true;
        throw e;
      }
      if (cut.aborted) return STOPPED;
      if (next.done === true) {
        stream.finished = true;
        return { end: "ended", delivered: stream.delivered };
      }
      const event = next.value;
      const type = event.type;
      if (type === "ERROR") {
        const status: Partial<Status> | undefined = event.object;
        if (status?.code === 410)
          return { end: "relist", why: "the watch's resourceVersion expired (ERROR event, code 410)" };
        throw new WatchErrorEvent(
          `ERROR event: code ${String(status?.code ?? "")} ${status?.reason ?? ""}: ${status?.message ?? ""}`,
        );
      }
      if (type !== "ADDED" && type !== "MODIFIED" && type !== "DELETED" && type !== "BOOKMARK")
        throw new TypeError(`a watch event of type ${JSON.stringify(String(type))}`);
      // Anything delivered resets the backoff: the connection and the resourceVersion are good.
      if (stream.delivered++ === 0) this.#backoff = this.#options.minBackoffMs;
      const object = event.object;
      const rv = object?.metadata?.resourceVersion;
      if (type !== "BOOKMARK") sink.apply(type, object);
      if (typeof rv === "string" && rv !== "") this.#resourceVersion = rv;
    }
  }
}
