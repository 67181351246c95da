// clusterwire's side of the informer bench.
//
// The decoders (decodeWatchStream, decodeJsonWatchStream) are clusterwire/networking's and are
// imported as usual. The client and informer (clusterwire/client: createClient, createInformer,
// kubeconfigCredentials; issue 28) are loaded at run time by loadOurClient() from this build's
// dist/src/client/index.js and used through the local interfaces below, written from the design
// of issue 28 (/tmp/i28/design.md at the time): so this file compiles, and the bench runs the
// client-node side, in a build that does not have the client yet. Once src/client is in the
// branch, these interfaces can give way to a static import of ../../src/client/index.js.

import { pathToFileURL } from "node:url";
import { decodeJsonWatchStream, decodeWatchStream, type WatchEvent } from "../../src/networking/index.js";
import type { BenchKind } from "./objects.js";
import type { WireFormat } from "./record.js";
import { deferred, type Timed, timed } from "./timing.js";

// ================================================================================================
// OUR CLIENT AND INFORMER, AGAINST THE DESIGN'S API (issue 28). Everything between these rules
// goes through the local interfaces; check them against src/client/index.ts when it lands.
// ================================================================================================

/** ListPage<T> of the design. */
export interface OurListPage {
  readonly items: unknown[];
  readonly resourceVersion: string;
  readonly continue: string;
}

/** ClientWatchEvent<T> of the design (the shape of networking's WatchEvent). */
export type OurWatchEvent = { readonly type: string; readonly object: unknown };

/** ListWatcher<T> of the design: what createInformer reads. */
export interface OurListWatcher {
  list(options?: {
    readonly limit?: number;
    readonly continue?: string;
    readonly signal?: AbortSignal;
  }): Promise<OurListPage>;
  watch(options?: { readonly resourceVersion?: string; readonly signal?: AbortSignal }): AsyncIterable<OurWatchEvent>;
}

/** Store<T> of the design, the parts the bench reads. */
export interface OurStore {
  readonly size: number;
  readonly hasSynced: boolean;
  synced(): Promise<void>;
}

/** Informer<T> of the design, the parts the bench uses. */
export interface OurInformer {
  readonly store: OurStore;
  start(): unknown;
  on(type: "add" | "update" | "delete", handler: (event: unknown) => void): () => void;
  stop(): Promise<void>;
}

/** Client of the design, the parts the bench uses. */
export interface OurClient {
  readonly ingresses: OurListWatcher;
  readonly networkPolicies: OurListWatcher;
  close(): void;
}

/** The exports of clusterwire/client the bench calls. */
export interface OurClientModule {
  createClient(options: { readonly credentials: unknown; readonly format?: WireFormat }): OurClient;
  createInformer(
    source: OurListWatcher,
    options?: { readonly pageSize?: number; readonly log?: (level: string, message: string) => void },
  ): OurInformer;
  kubeconfigCredentials(file: string): Promise<unknown>;
}

/**
 * clusterwire/client from this build (dist/src/client/index.js beside dist/bench/), or undefined
 * when the build has none yet. Any other failure to load it is thrown.
 */
export async function loadOurClient(): Promise<OurClientModule | undefined> {
  const url = new URL("../../src/client/index.js", import.meta.url);
  try {
    const loaded = (await import(pathToFileURL(decodeURIComponent(url.pathname)).href)) as Partial<OurClientModule>;
    for (const name of ["createClient", "createInformer", "kubeconfigCredentials"] as const) {
      if (typeof loaded[name] !== "function") throw new Error(`clusterwire/client has no ${name}()`);
    }
    return loaded as OurClientModule;
  } catch (e) {
    if ((e as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" && String(e).includes(url.pathname)) return undefined;
    throw e;
  }
}

/** A started clusterwire informer (its first list is in the store). */
export interface OurRunningInformer {
  /** The informer itself: what holds the cache (a WeakRef to it tells when it is gone). */
  readonly handle: object;
  readonly size: () => number;
  /** From now on, calls `cb` (instead of the previous one) for each add and update. */
  onChange(cb: () => void): void;
  stop(): Promise<void>;
}

/** createClient + createInformer on the kind's collection, all namespaces; resolves once synced. */
export async function startOurInformer(
  ours: OurClientModule,
  kubeconfigPath: string,
  kind: BenchKind,
  pageSize: number,
  format: WireFormat,
): Promise<OurRunningInformer> {
  const client = ours.createClient({ credentials: await ours.kubeconfigCredentials(kubeconfigPath), format });
  const source = kind === "Ingress" ? client.ingresses : client.networkPolicies;
  const informer = ours.createInformer(source, {
    pageSize,
    log: (level, message) => {
      if (level === "warn") console.error(`clusterwire informer: ${message}`);
    },
  });
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

/** The events of a recorded stream, decoded by clusterwire. */
function decoded(chunks: readonly Uint8Array[], format: WireFormat): AsyncIterable<WatchEvent> {
  return format === "protobuf" ? decodeWatchStream(chunks) : decodeJsonWatchStream(chunks);
}

/**
 * Replays a recorded watch stream through a clusterwire informer whose list gave `prefill` (not
 * timed): the informer's source is a ListWatcher whose first watch() yields the recording's
 * events as decoded from its bytes, once the timing starts; any later watch() (the informer
 * reopening it) waits until the end. Times from handing it the bytes to its last add or update.
 */
export async function replayOurs(
  ours: OurClientModule,
  chunks: readonly Uint8Array[],
  format: WireFormat,
  events: number,
  prefill: readonly unknown[] = [],
): Promise<Timed> {
  const go = deferred<void>();
  const played = deferred<void>();
  const over = deferred<void>();
  let opened = 0;
  const source: OurListWatcher = {
    list: async () => ({ items: [...prefill], resourceVersion: "1", continue: "" }),
    watch(options) {
      const first = opened++ === 0;
      return (async function* () {
        if (first) {
          await go.promise;
          yield* decoded(chunks, format);
          played.resolve();
          return;
        }
        await Promise.race([
          over.promise,
          new Promise<void>((resolve) => options?.signal?.addEventListener("abort", () => resolve(), { once: true })),
        ]);
      })();
    },
  };
  const informer = ours.createInformer(source, {});
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
  const result = await timed(async () => {
    go.resolve();
    // The stream running out first with events missing is a failure, not a wait: give queued
    // handlers a moment after it, then check the count.
    await Promise.race([all.promise, played.promise.then(() => new Promise((r) => setTimeout(r, 5_000)))]);
  });
  over.resolve();
  await informer.stop();
  if (seen !== events) throw new Error(`clusterwire's informer handled ${seen} of ${events} events`);
  return result;
}

// ================================================================================================
// END OF THE PART WRITTEN AGAINST THE DESIGN.
// ================================================================================================

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
