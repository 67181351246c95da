// The peer: @kubernetes/client-node 1.4.0 (a pinned dev dependency), used as its documentation
// shows. Its informer is makeInformer(kubeconfig, path, listFn): a ListWatch that calls listFn
// once, stores the items, then watches from the list's resourceVersion with its Watch class,
// which splits the response into lines with node:readline, JSON.parses each and hands the event
// to the ListWatch's cache (a Map per namespace). listFn is the generated NetworkingV1Api's
// list-for-all-namespaces, followed through its continue tokens (pages of --page-size), so both
// sides read the same pages.
//
// replayClientNode times exactly that per-line path on recorded bytes: the real ListWatch, fed
// by a Watch stand-in that does what Watch.watch does with a response body (readline, JSON.parse,
// callback), and nothing of the network.

import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import {
  ADD,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  ListWatch,
  makeInformer,
  NetworkingV1Api,
  UPDATE,
  type Watch,
} from "@kubernetes/client-node";
import { type BenchKind, PLURALS } from "./objects.js";
import { deferred, type Timed, timed } from "./timing.js";

/** The all-namespaces collection of a kind. */
export const collectionPath = (kind: BenchKind): string => `/apis/networking.k8s.io/v1/${PLURALS[kind]}`;

/** client-node's list of every object of `kind`, page by page; the list's resourceVersion is the first page's. */
export function clientNodeListFn(
  kc: KubeConfig,
  kind: BenchKind,
  pageSize: number,
): () => Promise<KubernetesListObject<KubernetesObject>> {
  const api = kc.makeApiClient(NetworkingV1Api);
  const page = (cont: string | undefined): Promise<KubernetesListObject<KubernetesObject>> => {
    const param = cont === undefined ? { limit: pageSize } : { limit: pageSize, _continue: cont };
    return kind === "Ingress" ? api.listIngressForAllNamespaces(param) : api.listNetworkPolicyForAllNamespaces(param);
  };
  return async () => {
    const first = await page(undefined);
    const items = [...first.items];
    for (let cont = first.metadata?._continue; cont !== undefined && cont !== ""; ) {
      const next = await page(cont);
      items.push(...next.items);
      cont = next.metadata?._continue;
    }
    return {
      apiVersion: first.apiVersion ?? "networking.k8s.io/v1",
      kind: first.kind ?? `${kind}List`,
      metadata: { resourceVersion: first.metadata?.resourceVersion ?? "" },
      items,
    };
  };
}

/** A started client-node informer of `kind` (its list is in; its watch is open). */
export interface ClientNodeInformer {
  /** The informer itself: what holds the cache (a WeakRef to it tells when it is gone). */
  readonly handle: object;
  readonly size: () => number;
  /** From now on, calls `cb` (instead of the previous one) for each add and update. */
  onChange(cb: () => void): void;
  stop(): Promise<void>;
}

/** makeInformer with the paginated list, started: resolves once start() has (list stored, watch open). */
export async function startClientNodeInformer(
  kc: KubeConfig,
  kind: BenchKind,
  pageSize: number,
): Promise<ClientNodeInformer> {
  const informer = makeInformer(kc, collectionPath(kind), clientNodeListFn(kc, kind, pageSize));
  const failed = deferred<never>();
  informer.on("error", (e: unknown) => failed.reject(e instanceof Error ? e : new Error(String(e))));
  let counting: (() => void) | undefined;
  informer.on(ADD, () => counting?.());
  informer.on(UPDATE, () => counting?.());
  await Promise.race([informer.start(), failed.promise]);
  return {
    handle: informer,
    size: () => informer.list().length,
    onChange(cb) {
      counting = cb;
    },
    stop: () => informer.stop(),
  };
}

/**
 * What Watch.watch does with a 200 response body: readline, JSON.parse per line, the callback.
 * Resolves when the lines have run out.
 */
function feedLines(
  chunks: readonly Uint8Array[],
  onEvent: (type: string, object: KubernetesObject, data: unknown) => void,
): Promise<void> {
  const lines = createInterface(Readable.from(chunks));
  const closed = new Promise<void>((resolve) => lines.once("close", resolve));
  lines.on("line", (line) => {
    try {
      const data = JSON.parse(line.toString()) as { type: string; object: KubernetesObject };
      onEvent(data.type, data.object, data);
    } catch {
      // as Watch does: a line that does not parse is dropped
    }
  });
  return closed;
}

/**
 * Replays a recorded JSON watch stream of `events` events through a client-node ListWatch whose
 * list gave `prefill` (not timed; [] for an empty cache): the time and CPU from handing it the
 * bytes to its last add or update callback.
 */
export async function replayClientNode(
  kind: BenchKind,
  chunks: readonly Uint8Array[],
  events: number,
  prefill: readonly KubernetesObject[] = [],
): Promise<Timed> {
  type Callback = Parameters<Watch["watch"]>[2];
  let callback: Callback | undefined;
  const stand: Pick<Watch, "watch"> = {
    watch: async (_path, _query, cb) => {
      // The stream plays once, below; a watch the ListWatch would reopen gets nothing.
      callback ??= cb;
      return new AbortController();
    },
  };
  const lw = new ListWatch<KubernetesObject>(
    collectionPath(kind),
    stand as Watch,
    async () => ({ metadata: { resourceVersion: "1" }, items: [...prefill] }),
    false,
  );
  await lw.start();
  if (callback === undefined) throw new Error("client-node's ListWatch opened no watch");
  if (lw.list().length !== prefill.length) throw new Error(`client-node kept ${lw.list().length} of ${prefill.length}`);
  const onEvent = callback;
  let seen = 0;
  const count = (): void => {
    seen++;
  };
  lw.on(ADD, count);
  lw.on(UPDATE, count);
  const result = await timed(() => feedLines(chunks, onEvent));
  await lw.stop();
  if (seen !== events) throw new Error(`client-node's cache took ${seen} of ${events} events`);
  return result;
}

/** client-node's per-line decode alone: readline and JSON.parse of each event, no cache. */
export async function replayClientNodeParse(chunks: readonly Uint8Array[], events: number): Promise<Timed> {
  let seen = 0;
  const result = await timed(() =>
    feedLines(chunks, () => {
      seen++;
    }),
  );
  if (seen !== events) throw new Error(`client-node parsed ${seen} of ${events} events`);
  return result;
}

/** The objects of a recorded JSON watch stream, parsed as client-node's Watch parses them. */
export function clientNodeObjects(chunks: readonly Uint8Array[]): KubernetesObject[] {
  const text = Buffer.concat(chunks).toString("utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { object: KubernetesObject }).object);
}
