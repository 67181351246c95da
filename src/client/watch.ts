// One watch request as an async iteration of its events. The request is sent on the first
// next(); a non-200 answer is an ApiError (410 included); ERROR events are yielded; an object of
// another kind is a RequestError "bad-response"; the stream's end ends the iteration and a cut
// connection is a RequestError "network"; the caller's abort ends it quietly; leaving the
// for-await early destroys the response.

import type { Status } from "../networking/index.js";
import { apiErrorOf, RequestError } from "./errors.js";
import { decodeEvents, type Format } from "./formats.js";
import type { KindFacts } from "./kinds.js";
import type { Transport } from "./transport/request.js";
import type { ClientWatchEvent } from "./types.js";

const STATUS_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.Status";

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
export async function* watchEvents<T>(w: WatchRequest): AsyncGenerator<ClientWatchEvent<T>, void, undefined> {
  const method = "GET";
  const { path, facts } = w;
  const deadlineMs = w.timeoutSeconds === undefined ? undefined : w.timeoutSeconds * 1000 + WATCH_MARGIN_MS;
  let opened: Awaited<ReturnType<Transport["open"]>>;
  try {
    opened = await w.transport.open(
      { method, path, query: w.query, accept: w.format.watchAccept, signal: w.signal },
      w.headerTimeoutMs,
      deadlineMs,
    );
  } catch (e) {
    if (e instanceof RequestError && e.code === "aborted") return;
    throw e;
  }
  const { res } = opened;
  try {
    const contentType = res.headers["content-type"] ?? "";
    if (res.statusCode !== 200) {
      const body = await w.transport.read(opened, method, path);
      throw apiErrorOf(method, path, res.statusCode ?? 0, res.statusMessage ?? "", contentType, body);
    }
    const events = decodeEvents(contentType, res as AsyncIterable<Uint8Array>);
    if (events === undefined) {
      throw new RequestError(
        "bad-response",
        method,
        path,
        `the watch's media type ${JSON.stringify(contentType)} is neither protobuf nor JSON`,
      );
    }
    for await (const event of events) {
      const typeName = event.object.$typeName;
      if (event.type === "ERROR") {
        if (typeName !== STATUS_TYPE) throw wrongType(path, "an ERROR event", typeName, STATUS_TYPE);
        yield { type: "ERROR", object: event.object as Status };
        continue;
      }
      if (typeName !== facts.typeName) throw wrongType(path, `a ${event.type} event`, typeName, facts.typeName);
      yield { type: event.type, object: event.object as T };
    }
  } catch (e) {
    if (opened.aborted) return;
    throw opened.failure(e);
  } finally {
    res.destroy();
  }
}

function wrongType(path: string, what: string, got: string, want: string): RequestError {
  return new RequestError("bad-response", "GET", path, `${what} carries a ${got}, not a ${want}`);
}
