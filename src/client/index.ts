/**
 * A client for the networking.k8s.io/v1 kinds (Node only), and an informer: a cache of one
 * kind's objects kept in step with the API server by list and watch, with the events of its
 * changes.
 *
 * @example
 * ```ts
 * import { createInformer, type ListWatcher } from "clusterwire/client";
 * import type { Ingress } from "clusterwire/networking";
 *
 * declare const ingresses: ListWatcher<Ingress>;
 * const informer = createInformer(ingresses, { namespace: "web" }).start();
 * informer.on("add", (event) => console.log("added", event.object.metadata?.name));
 * await informer.store.synced();
 * console.log(informer.store.list("web").length);
 * await informer.stop();
 * ```
 *
 * @packageDocumentation
 */
// Public API of clusterwire/client.
export type {
  ClientWatchEvent,
  ListOptions,
  ListPage,
  ListWatcher,
  RequestOptions,
  WatchOptions,
} from "./types.js";
export type { ClientObject, InformerEvent, Store } from "./informer/store.js";
export { createInformer, type Informer, type InformerOptions } from "./informer/informer.js";
