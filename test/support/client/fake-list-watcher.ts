// An in-memory ListWatcher for the informer's tests: it serves the objects in `items` in pages
// with continue tokens (each list reads a snapshot taken at its first page), can expire a
// continue token or fail a list, hands out watches the test drives event by event (push, end,
// fail) and records every call with its options. No network, no timers: the test decides when
// each thing happens, and `flushUntil` waits for the informer to catch up by turns of the
// microtask queue, never by time.
import type { ClientWatchEvent, ListOptions, ListPage, ListWatcher, WatchOptions } from "../../../src/client/types.js";
import type { Status } from "../../../src/networking/index.js";

/** One call the informer made, with the options it passed. */
export type RecordedCall =
  | { readonly method: "list"; readonly options: ListOptions | undefined }
  | { readonly method: "watch"; readonly options: WatchOptions | undefined };

/** The error a list or watch throws for an expired continue token or resourceVersion: what ApiError has. */
export class Gone extends Error {
  override readonly name = "Gone";
  readonly status = 410;
  constructor(what: string) {
    super(`${what}: HTTP 410 Expired`);
  }
}

/** The error a list or watch throws when the network fails. */
export class NetworkDown extends Error {
  override readonly name = "NetworkDown";
  readonly code = "network";
}

/** A Status as an ERROR watch event carries it (only the fields the informer reads). */
export function errorStatus(code: number, reason: string, message: string): Status {
  return { code, reason, message, status: "Failure" } as Status;
}

/** One watch() call: the test pushes its events, ends it or fails it. */
export class FakeWatch<T> implements AsyncIterable<ClientWatchEvent<T>> {
  readonly options: WatchOptions | undefined;
  readonly #queue: (
    | { readonly kind: "event"; readonly event: ClientWatchEvent<T> }
    | { readonly kind: "end" }
    | { readonly kind: "fail"; readonly error: unknown }
  )[] = [];
  #waiting: ((result: IteratorResult<ClientWatchEvent<T>>) => void) | undefined;
  #waitingReject: ((error: unknown) => void) | undefined;
  #done = false;
  /** How many next() calls the consumer made. */
  pulls = 0;
  /** True once the consumer called return() (broke out of its loop). */
  returned = false;
  /** True once the watch's signal aborted. */
  aborted = false;

  constructor(options: WatchOptions | undefined, failFirst: unknown) {
    this.options = options;
    if (failFirst !== undefined) this.#queue.push({ kind: "fail", error: failFirst });
    const signal = options?.signal;
    signal?.addEventListener(
      "abort",
      () => {
        this.aborted = true;
        // As a ResourceClient's watch: aborting ends the iteration quietly.
        this.#finish({ done: true, value: undefined });
      },
      { once: true },
    );
  }

  /** True when the consumer waits for the next event: everything pushed so far has been read. */
  get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  /** True once the stream has ended, failed, been aborted or returned. */
  get done(): boolean {
    return this.#done;
  }

  /** Sends one event. */
  push(event: ClientWatchEvent<T>): void {
    this.#queue.push({ kind: "event", event });
    this.#deliver();
  }

  /** Ends the stream normally (as the server's timeoutSeconds does). */
  end(): void {
    this.#queue.push({ kind: "end" });
    this.#deliver();
  }

  /** Fails the stream with `error` (a cut connection, an HTTP 410 ...). */
  fail(error: unknown): void {
    this.#queue.push({ kind: "fail", error });
    this.#deliver();
  }

  #finish(result: IteratorResult<ClientWatchEvent<T>>): void {
    this.#done = true;
    const resolve = this.#waiting;
    this.#waiting = undefined;
    this.#waitingReject = undefined;
    resolve?.(result);
  }

  #deliver(): void {
    if (this.#waiting === undefined || this.#done) return;
    const item = this.#queue.shift();
    if (item === undefined) return;
    const resolve = this.#waiting;
    const reject = this.#waitingReject;
    this.#waiting = undefined;
    this.#waitingReject = undefined;
    if (item.kind === "event") resolve({ done: false, value: item.event });
    else if (item.kind === "end") {
      this.#done = true;
      resolve({ done: true, value: undefined });
    } else {
      this.#done = true;
      reject?.(item.error);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<ClientWatchEvent<T>> {
    return {
      next: () => {
        this.pulls++;
        if (this.#done) return Promise.resolve({ done: true, value: undefined });
        if (this.#waiting !== undefined) return Promise.reject(new Error("FakeWatch: two next() at once"));
        const promise = new Promise<IteratorResult<ClientWatchEvent<T>>>((resolve, reject) => {
          this.#waiting = resolve;
          this.#waitingReject = reject;
        });
        this.#deliver();
        return promise;
      },
      return: () => {
        this.returned = true;
        this.#finish({ done: true, value: undefined });
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }
}

/** A list page in flight that the test holds (see `FakeListWatcher.holdLists`). */
interface HeldList {
  readonly options: ListOptions | undefined;
  /** True once the list's signal aborted. */
  aborted: boolean;
}

/**
 * The in-memory source. Set `items` and `resourceVersion` to what a list should find; queue
 * failures in `listErrors` / `watchErrors`; drive each watch through `watches[i]`.
 */
export class FakeListWatcher<T extends { metadata?: { name: string; namespace: string } | undefined }>
  implements ListWatcher<T>
{
  /** Every call, in order. */
  readonly calls: RecordedCall[] = [];
  /** What a list returns (a snapshot of it is taken at each list's first page). */
  items: T[] = [];
  /** The resourceVersion a list returns. */
  resourceVersion = "1";
  /** Thrown by the next list calls, one per call, in order. */
  readonly listErrors: unknown[] = [];
  /** This many of the next list calls that carry a continue token throw Gone (410). */
  expireContinueTokens = 0;
  /** While true, list calls wait until their signal aborts (and never answer otherwise). */
  holdLists = false;
  /** The lists held (see `holdLists`). */
  readonly held: HeldList[] = [];
  /** Thrown at the first next() of the next watch calls, one per call, in order. */
  readonly watchErrors: unknown[] = [];
  /** Every watch handed out, in order. */
  readonly watches: FakeWatch<T>[] = [];
  readonly #snapshots = new Map<string, { items: T[]; resourceVersion: string }>();
  #snapshotCount = 0;

  /** The list calls, in order. */
  get lists(): (ListOptions | undefined)[] {
    return this.calls.flatMap((c) => (c.method === "list" ? [c.options] : []));
  }

  /** The last watch handed out. */
  get lastWatch(): FakeWatch<T> | undefined {
    return this.watches.at(-1);
  }

  list(options?: ListOptions): Promise<ListPage<T>> {
    this.calls.push({ method: "list", options });
    if (this.holdLists) {
      const held: HeldList = { options, aborted: false };
      this.held.push(held);
      return new Promise((_, reject) => {
        options?.signal?.addEventListener(
          "abort",
          () => {
            held.aborted = true;
            reject(new DOMException("the list was aborted", "AbortError"));
          },
          { once: true },
        );
      });
    }
    if (this.listErrors.length > 0) return Promise.reject(this.listErrors.shift());
    const token = options?.continue;
    let snapshot: { items: T[]; resourceVersion: string };
    let offset = 0;
    if (token === undefined || token === "") {
      const id = `s${++this.#snapshotCount}`;
      snapshot = { items: [...this.items], resourceVersion: this.resourceVersion };
      this.#snapshots.set(id, snapshot);
      return Promise.resolve(this.#page(id, snapshot, 0, options?.limit));
    }
    if (this.expireContinueTokens > 0) {
      this.expireContinueTokens--;
      return Promise.reject(new Gone("list with a continue token"));
    }
    const [id = "", at = ""] = token.split(":");
    const found = this.#snapshots.get(id);
    if (found === undefined || !/^[0-9]+$/.test(at))
      return Promise.reject(new Error(`FakeListWatcher: unknown continue token ${token}`));
    snapshot = found;
    offset = Number(at);
    return Promise.resolve(this.#page(id, snapshot, offset, options?.limit));
  }

  #page(
    id: string,
    snapshot: { items: T[]; resourceVersion: string },
    offset: number,
    limit: number | undefined,
  ): ListPage<T> {
    const end =
      limit === undefined || limit <= 0 ? snapshot.items.length : Math.min(snapshot.items.length, offset + limit);
    const more = end < snapshot.items.length;
    return {
      items: snapshot.items.slice(offset, end),
      resourceVersion: snapshot.resourceVersion,
      continue: more ? `${id}:${end}` : "",
      ...(more ? { remainingItemCount: snapshot.items.length - end } : {}),
    };
  }

  watch(options?: WatchOptions): AsyncIterable<ClientWatchEvent<T>> {
    this.calls.push({ method: "watch", options });
    const w = new FakeWatch<T>(options, this.watchErrors.shift());
    this.watches.push(w);
    return w;
  }
}

/**
 * Lets the microtask queue run until `condition` holds; throws naming `what` when it still does
 * not after `turns` turns (a step that waits on a timer needs the clock advanced first).
 */
export async function flushUntil(condition: () => boolean, what: string, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await Promise.resolve();
  }
  if (!condition()) throw new Error(`never happened (after ${turns} microtask turns): ${what}`);
}

/** Lets the microtask queue run `turns` turns: for checking that something does not happen. */
export async function flushTurns(turns = 2_000): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

/**
 * `promise`'s value (or its rejection) once it settles within `turns` turns of the microtask
 * queue; otherwise throws naming `what`, so a test fails at once instead of hanging.
 */
export async function soon<R>(promise: Promise<R>, what: string, turns = 10_000): Promise<R> {
  let outcome: { ok: true; value: R } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  await flushUntil(() => outcome !== undefined, what, turns);
  if (outcome?.ok === true) return outcome.value;
  throw (outcome as { error: unknown }).error;
}

/** Every item of `iterator` until it ends, each within `soon`'s bound. */
export async function drainSoon<T>(iterator: AsyncIterator<T>, what: string, max = 10_000): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < max; i++) {
    const r = await soon(iterator.next(), `${what}: item ${i + 1} or the end`);
    if (r.done === true) return out;
    out.push(r.value);
  }
  throw new Error(`${what}: more than ${max} items`);
}
