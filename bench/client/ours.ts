// clusterwire's side of the informer bench: clusterwire/client (createClient, createInformer,
// kubeconfigCredentials) for the list and live phases, and, for the replays, its informer over
// a resource client whose transport hands it the recorded bytes as the watch's response body:
// the client's own watch path (media type, decoder, the check of each event's type) and its
// informer, without a socket, as client-node's replay is its own Watch's per-line path without
// one.

import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { formatOf } from "../../src/client/formats.js";
import {
  type ClientObject,
  createClient,
  createInformer,
  kubeconfigCredentials,
  type ListPage,
  type ListWatcher,
} from "../../src/client/index.js";
import { kindFacts } from "../../src/client/kinds.js";
import { createResourceClient } from "../../src/client/resource-client.js";
import type { Transport } from "../../src/client/transport/request.js";
import {
  decodeJsonWatchStream,
  decodeWatchStream,
  PROTOBUF_WATCH_MEDIA_TYPE,
  type WatchEvent,
} from "../../src/networking/index.js";
import type { BenchKind } from "./objects.js";
import type { WireFormat } from "./record.js";
import { deferred, type Timed, timed } from "./timing.js";

/** A started clusterwire informer (its first list is in the store). */
export interface OurRunningInformer {
  /** The informer itself: what holds the cache (a WeakRef to it tells when it is gone). */
  readonly handle: object;
  readonly size: () => number;
  /** From now on, calls `cb` (instead of the previous one) for each add and update. */
  onChange(cb: () => void): void;
  stop(): Promise<void>;
}

/**
 * createClient + createInformer on the kind's collection, all namespaces (with the compact store
 * when `compact`); resolves once synced.
 */
export async function startOurInformer(
  kubeconfigPath: string,
  kind: BenchKind,
  pageSize: number,
  format: WireFormat,
  compact = false,
): Promise<OurRunningInformer> {
  const client = createClient({ credentials: await kubeconfigCredentials(kubeconfigPath), format });
  const informer =
    kind === "Ingress"
      ? createInformer(client.ingresses, { pageSize, log: warnings, compact })
      : createInformer(client.networkPolicies, { pageSize, log: warnings, compact });
  let counting: (() => void) | undefined;
  informer.on("add", () => counting?.());
  informer.on("update", () => counting?.());
  informer.start();
  await informer.store.synced();
  return {
    handle: informer,
    size: () => informer.store.size,
    onChange(cb) {
      counting = cb;
    },
    async stop() {
      await informer.stop();
      client.close();
    },
  };
}

function warnings(level: "info" | "warn", message: string): void {
  if (level === "warn") console.error(`clusterwire informer: ${message}`);
}

/** The watch's response Content-Type of each format, as the API server sends it. */
const WATCH_CONTENT_TYPE: Readonly<Record<WireFormat, string>> = {
  json: "application/json",
  protobuf: PROTOBUF_WATCH_MEDIA_TYPE,
};

/** A 200 response whose body is `chunks` (Readable.from, as client-node's replay reads them). */
function response(chunks: readonly Uint8Array[], format: WireFormat): IncomingMessage {
  const body = Readable.from(chunks, { objectMode: false });
  return Object.assign(body, {
    statusCode: 200,
    statusMessage: "OK",
    headers: { "content-type": WATCH_CONTENT_TYPE[format] },
  }) as unknown as IncomingMessage;
}

/**
 * A transport whose first watch answers with the recorded bytes once `go` resolves (`played`
 * resolves when they have all been read), and whose later watches (the informer opening one
 * again) answer with an empty body once `over` resolves or the request is aborted. Nothing else
 * is asked of it: the informer's list comes from the source below.
 */
function replayTransport(
  chunks: readonly Uint8Array[],
  format: WireFormat,
  go: Promise<void>,
  played: () => void,
  over: Promise<void>,
): Transport {
  let opened = 0;
  const unused = (): never => {
    throw new Error("the replay's transport only opens watches");
  };
  return {
    send: unused,
    read: unused,
    close() {},
    async open(exchange) {
      if (opened++ === 0) {
        await go;
        const res = response(chunks, format);
        res.once("end", played);
        return { res, aborted: false, failure: (e: unknown) => e };
      }
      const signal = exchange.signal;
      await new Promise<void>((resolve) => {
        over.then(resolve, resolve);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      return { res: response([], format), aborted: signal?.aborted === true, failure: (e: unknown) => e };
    },
  };
}

/**
 * Replays a recorded watch stream through a clusterwire informer whose list gave `prefill` (not
 * timed): the informer's watch is its resource client's, over a transport whose response body is
 * the recording's bytes once the timing starts. Times from handing it the bytes to its last add
 * or update. `compact`: the informer's compact store.
 */
export async function replayOurs(
  kind: BenchKind,
  chunks: readonly Uint8Array[],
  format: WireFormat,
  events: number,
  prefill: readonly ClientObject[] = [],
  compact = false,
): Promise<Timed> {
  const go = deferred<void>();
  const played = deferred<void>();
  const over = deferred<void>();
  const client = createResourceClient<ClientObject>(kindFacts(kind), {
    transport: replayTransport(chunks, format, go.promise, () => played.resolve(), over.promise),
    format: formatOf(format),
    timeoutMs: 30_000,
  });
  const source: ListWatcher<ClientObject> = {
    list: async (): Promise<ListPage<ClientObject>> => ({ items: [...prefill], resourceVersion: "1", continue: "" }),
    watch: (options) => client.watch(options),
  };
  const informer = createInformer(source, { compact });
  let seen = 0;
  let counting = false;
  const all = deferred<void>();
  const count = (): void => {
    if (counting && ++seen === events) all.resolve();
  };
  informer.on("add", count);
  informer.on("update", count);
  informer.start();
  await informer.store.synced();
  if (informer.store.size !== prefill.length) {
    throw new Error(`clusterwire's store kept ${informer.store.size} of ${prefill.length}`);
  }
  counting = true;
  let grace: NodeJS.Timeout | undefined;
  const result = await timed(async () => {
    go.resolve();
    // The stream running out first with events missing is a failure, not a wait: give queued
    // handlers a moment after it, then check the count.
    await Promise.race([all.promise, played.promise.then(() => new Promise((r) => (grace = setTimeout(r, 5_000))))]);
  });
  clearTimeout(grace);
  over.resolve();
  await informer.stop();
  if (seen !== events) throw new Error(`clusterwire's informer handled ${seen} of ${events} events`);
  return result;
}

/** The events of a recorded stream, decoded by clusterwire. */
function decoded(chunks: readonly Uint8Array[], format: WireFormat): AsyncIterable<WatchEvent> {
  return format === "protobuf" ? decodeWatchStream(chunks) : decodeJsonWatchStream(chunks);
}

/** clusterwire's decode alone: every event of the recording decoded, no cache. */
export async function replayOursDecode(
  chunks: readonly Uint8Array[],
  format: WireFormat,
  events: number,
): Promise<Timed> {
  let seen = 0;
  const result = await timed(async () => {
    for await (const _ of decoded(chunks, format)) seen++;
  });
  if (seen !== events) throw new Error(`clusterwire decoded ${seen} of ${events} events`);
  return result;
}

/** The objects of a recorded stream, decoded by clusterwire, with the events' types. */
export async function ourEvents(chunks: readonly Uint8Array[], format: WireFormat): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const e of decoded(chunks, format)) out.push(e);
  return out;
}
