/**
 * A Kubernetes client for the networking.k8s.io/v1 kinds (Ingress, IngressClass, NetworkPolicy,
 * IPAddress, ServiceCIDR), Node only: list, get, create, update, status, delete, server-side
 * apply and watch, in protobuf (the default, decoded by clusterwire's own codec) or JSON, over
 * node:https with keep-alive. Credentials from a kubeconfig file or a pod's service account;
 * exec and auth-provider plugins are not supported.
 *
 * @example
 * ```ts
 * import { createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const { items, resourceVersion } = await client.ingresses.listAll();
 * console.log(`${items.length} Ingresses at resourceVersion ${resourceVersion}`);
 * for await (const event of client.ingresses.watch({ resourceVersion, timeoutSeconds: 60 })) {
 *   if (event.type !== "ERROR") console.log(event.type, event.object.metadata?.namespace, event.object.metadata?.name);
 * }
 * client.close();
 * ```
 *
 * @packageDocumentation
 */

export {
  type ClusterCredentials,
  CredentialsError,
  type CurrentTokenOptions,
  currentToken,
  DEFAULT_TOKEN_REFRESH_MS,
} from "./config/credentials.js";
export { inClusterCredentials, SERVICE_ACCOUNT_DIR } from "./config/in-cluster.js";
export { type KubeconfigOptions, kubeconfigCredentials } from "./config/kubeconfig.js";
export { type LoadCredentialsOptions, loadCredentials } from "./config/load.js";
export { ApiError, type ApiErrorCause, RequestError, type RequestErrorCode } from "./errors.js";
export type { ClientFormat } from "./formats.js";
export {
  type Client,
  type ClientOptions,
  createClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
} from "./client.js";
export type { ResourceClient } from "./resource-client.js";
export type {
  ApplyOptions,
  ClientKind,
  ClientObject,
  ClientWatchEvent,
  DeleteOptions,
  KindTypes,
  ListOptions,
  ListPage,
  ListWatcher,
  RequestOptions,
  WatchOptions,
  WriteOptions,
} from "./types.js";
export type { InformerEvent, Store } from "./informer/store.js";
export { createInformer, type Informer, type InformerOptions } from "./informer/informer.js";
