// One watch request as an async iteration of its events. The request is sent on the first
// next(); a non-200 answer is an ApiError (410 included); ERROR events are yielded; an object of
// another kind is a RequestError "bad-response"; the stream's end ends the iteration and a cut
// connection is a RequestError "network"; the caller's abort ends it quietly; leaving the
// for-await early destroys the response.

import type { WatchEvent } from "../networking/index.js";
import { apiErrorOf, RequestError } from "./errors.js";
import { decodeEvents, type Format } from "./formats.js";
import type { KindFacts } from "./kinds.js";
import type { Opened, Transport } from "./transport/request.js";
import type { ClientWatchEvent } from "./types.js";

const STATUS_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.Status";
const METHOD = "GET";

/** How long after the API server's own end of a watch (timeoutSeconds) the client cuts it. */
export const WATCH_MARGIN_MS = 30_000;

/** One watch, ready to send. */
export interface WatchRequest {
  readonly transport: Transport;
  readonly format: Format;
  readonly facts: KindFacts;
  /** The collection's path. */
  readonly path: string;
  /** Its query, `watch=1` included. */
  readonly query: URLSearchParams;
  readonly signal?: AbortSignal | undefined;
  readonly headerTimeoutMs: number;
  /** The server's timeoutSeconds, if asked for. */
  readonly timeoutSeconds?: number | undefined;
}

/** The events of one watch request; see the file's comment for how it ends. */
export function watchEvents<T>(w: WatchRequest): AsyncIterableIterator<ClientWatchEvent<T>> {
  return new WatchIterator<T>(w);
}

const done = <T>(): IteratorResult<T> => ({ done: true, value: undefined });

/**
 * The watch's iteration, written out rather than an async generator: once the response is
 * streaming, each next() is the decoder's next() and one check of the event (the decoder's
 * event and result objects are handed on as they are), not another generator's turns. Calls
 * made while one is under way wait for it, as an async generator queues them.
 */
class WatchIterator<T> implements AsyncIterableIterator<ClientWatchEvent<T>> {
  readonly #w: WatchRequest;
  /** "new": nothing sent yet; "open": the response is streaming; "done": nothing more comes. */
  #state: "new" | "open" | "done" = "new";
  #opened: Opened | undefined;
  #events: AsyncIterator<WatchEvent> | undefined;
  /** The next() or return() under way, if any. */
  #busy: Promise<unknown> | undefined;
  readonly #onResult = (result: IteratorResult<WatchEvent>): IteratorResult<ClientWatchEvent<T>> =>
    this.#result(result);
  readonly #onError = (error: unknown): IteratorResult<ClientWatchEvent<T>> => this.#fail(error);

  constructor(w: WatchRequest) {
    this.#w = w;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ClientWatchEvent<T>>> {
    if (this.#busy !== undefined) return this.#after(() => this.next());
    let step: Promise<IteratorResult<ClientWatchEvent<T>>>;
    if (this.#state === "open") step = this.#events!.next().then(this.#onResult, this.#onError);
    else if (this.#state === "new") step = this.#open();
    else return Promise.resolve(done());
    this.#busy = step;
    return step;
  }

  return(): Promise<IteratorResult<ClientWatchEvent<T>>> {
    if (this.#busy !== undefined) return this.#after(() => this.return());
    if (this.#state === "open") this.#close(true);
    this.#state = "done";
    return Promise.resolve(done());
  }

  /** `call` once the step under way has settled, whichever way. */
  #after(call: () => Promise<IteratorResult<ClientWatchEvent<T>>>): Promise<IteratorResult<ClientWatchEvent<T>>> {
    return this.#busy!.then(call, call);
  }

  /** Sends the request, checks the answer, and reads the first event. */
  async #open(): Promise<IteratorResult<ClientWatchEvent<T>>> {
    const w = this.#w;
    const { path } = w;
    const deadlineMs = w.timeoutSeconds === undefined ? undefined : w.timeoutSeconds * 1000 + WATCH_MARGIN_MS;
    let opened: Opened;
    try {
      opened = await w.transport.open(
        { method: METHOD, path, query: w.query, accept: w.format.watchAccept, signal: w.signal },
        w.headerTimeoutMs,
        deadlineMs,
      );
    } catch (e) {
      this.#busy = undefined;
      this.#state = "done";
      if (e instanceof RequestError && e.code === "aborted") return done();
      throw e;
    }
    this.#opened = opened;
    const { res } = opened;
    let events: AsyncIterable<WatchEvent> | undefined;
    try {
      const contentType = res.headers["content-type"] ?? "";
      if (res.statusCode !== 200) {
        const body = await w.transport.read(opened, METHOD, path);
        throw apiErrorOf(METHOD, path, res.statusCode ?? 0, res.statusMessage ?? "", contentType, body);
      }
      events = decodeEvents(contentType, res as AsyncIterable<Uint8Array>);
      if (events === undefined) {
        throw new RequestError(
          "bad-response",
          METHOD,
          path,
          `the watch's media type ${JSON.stringify(contentType)} is neither protobuf nor JSON`,
        );
      }
    } catch (e) {
      return this.#fail(e);
    }
    this.#events = events[Symbol.asyncIterator]();
    this.#state = "open";
    this.#busy = undefined;
    return this.next();
  }

  /** The decoder's result, handed on once its object is of the kind watched (a Status for ERROR). */
  #result(result: IteratorResult<WatchEvent>): IteratorResult<ClientWatchEvent<T>> {
    this.#busy = undefined;
    if (result.done === true) {
      this.#close(false);
      return done();
    }
    const event = result.value;
    const typeName = event.object.$typeName;
    if (event.type === "ERROR") {
      if (typeName !== STATUS_TYPE) return this.#fail(wrongType(this.#w.path, "an ERROR event", typeName, STATUS_TYPE));
    } else if (typeName !== this.#w.facts.typeName) {
      return this.#fail(wrongType(this.#w.path, `a ${event.type} event`, typeName, this.#w.facts.typeName));
    }
    // The decoder's event is { type, object }: a ClientWatchEvent as it is.
    return result as IteratorResult<ClientWatchEvent<T>>;
  }

  /** Ends the watch on `error`: quietly when the caller aborted it, else the error as the transport reads it. */
  #fail(error: unknown): IteratorResult<ClientWatchEvent<T>> {
    this.#busy = undefined;
    const opened = this.#opened!;
    const aborted = opened.aborted;
    const failure = aborted ? undefined : opened.failure(error);
    this.#close(true);
    if (aborted) return done();
    throw failure;
  }

  /** Destroys the response; `stopDecoder`: also ends the decoder (it has not ended by itself). */
  #close(stopDecoder: boolean): void {
    this.#state = "done";
    const events = this.#events;
    this.#events = undefined;
    if (stopDecoder && events?.return !== undefined) {
      try {
        Promise.resolve(events.return()).catch(() => {});
      } catch {
        // A decoder that fails to stop is of no interest now: the response goes anyway.
      }
    }
    this.#opened?.res.destroy();
  }
}

function wrongType(path: string, what: string, got: string, want: string): RequestError {
  return new RequestError("bad-response", "GET", path, `${what} carries a ${got}, not a ${want}`);
}
