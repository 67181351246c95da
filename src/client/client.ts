// createClient: one transport (one keep-alive agent) to one API server, and a resource client
// per kind on it.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClusterCredentials } from "./config/credentials.js";
import { type ClientFormat, formatOf } from "./formats.js";
import { kindFacts } from "./kinds.js";
import { type ClientContext, createResourceClient, type ResourceClient } from "./resource-client.js";
import { createTransport } from "./transport/request.js";
import type { ClientKind, KindTypes } from "./types.js";
import type { Ingress, IngressClass, IPAddress, NetworkPolicy, ServiceCIDR } from "../networking/index.js";

/**
 * The time limit of every request but a watch, by default: 30 s for the response headers and
 * the whole body.
 *
 * @example
 * ```ts
 * import { DEFAULT_TIMEOUT_MS, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials(), timeoutMs: DEFAULT_TIMEOUT_MS * 2 });
 * ```
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The largest answer body the client reads by default: 128 MiB. A larger one is a
 * `RequestError` "too-large".
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_RESPONSE_BYTES, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials(), maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES / 4 });
 * ```
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

/**
 * What {@link createClient} takes.
 *
 * @example
 * ```ts
 * import { type ClientOptions, createClient, loadCredentials } from "clusterwire/client";
 *
 * const options: ClientOptions = {
 *   credentials: await loadCredentials(),
 *   format: "json",
 *   timeoutMs: 10_000,
 *   onWarning: (warning) => console.warn(`API server: ${warning}`),
 * };
 * const client = createClient(options);
 * ```
 */
export interface ClientOptions {
  /** Where the API server is and how to authenticate to it. */
  readonly credentials: ClusterCredentials;
  /** The wire format of requests and answers; default "protobuf". */
  readonly format?: ClientFormat;
  /** Every request but a watch, headers and body, in ms; default {@link DEFAULT_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** The largest answer body read; default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  readonly maxResponseBytes?: number;
  /** The User-Agent header; default `clusterwire/<version>`. */
  readonly userAgent?: string;
  /** Receives the text of each warning the API server sends (its `299 - "text"` Warning headers); a handler that throws is ignored. */
  readonly onWarning?: (warning: string) => void;
}

/**
 * A client of one API server: a {@link ResourceClient} per kind, on one pool of keep-alive
 * connections.
 *
 * @example
 * ```ts
 * import { type Client, createClient, loadCredentials } from "clusterwire/client";
 *
 * const client: Client = createClient({ credentials: await loadCredentials() });
 * const classes = await client.ingressClasses.listAll();
 * const policies = await client.resource("NetworkPolicy").list({ namespace: "shop" });
 * console.log(classes.items.length, policies.items.length);
 * client.close();
 * ```
 */
export interface Client {
  /** The calls on `kind`; a RangeError for a kind the client does not serve. */
  resource<K extends ClientKind>(kind: K): ResourceClient<KindTypes[K]>;
  /** networking.k8s.io/v1 Ingresses (namespaced; status subresource). */
  readonly ingresses: ResourceClient<Ingress>;
  /** networking.k8s.io/v1 IngressClasses (cluster-scoped). */
  readonly ingressClasses: ResourceClient<IngressClass>;
  /** networking.k8s.io/v1 NetworkPolicies (namespaced). */
  readonly networkPolicies: ResourceClient<NetworkPolicy>;
  /** networking.k8s.io/v1 IPAddresses (cluster-scoped). */
  readonly ipAddresses: ResourceClient<IPAddress>;
  /** networking.k8s.io/v1 ServiceCIDRs (cluster-scoped; status subresource). */
  readonly serviceCIDRs: ResourceClient<ServiceCIDR>;
  /**
   * Ends idle keep-alive connections; requests and watches in flight are not cut (use their
   * signals). A request after close() still works, on a connection that is then closed.
   */
  close(): void;
}

/**
 * A client of the API server `options.credentials` names. Nothing is sent until a call is made.
 * Throws a TypeError without credentials, a RangeError for an option out of range, and a
 * `CredentialsError` when the server is not an https:// URL.
 *
 * @example
 * ```ts
 * import { ApiError, createClient, loadCredentials } from "clusterwire/client";
 * import { IngressClassSchema, create } from "clusterwire/networking";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const nginx = create(IngressClassSchema, { metadata: { name: "nginx" }, spec: { controller: "k8s.io/ingress-nginx" } });
 * await client.ingressClasses.create(nginx).catch((e: unknown) => {
 *   if (!(e instanceof ApiError && e.reason === "AlreadyExists")) throw e;
 * });
 * for await (const event of client.ingressClasses.watch({ timeoutSeconds: 60 })) {
 *   if (event.type !== "ERROR") console.log(event.type, event.object.metadata?.name);
 * }
 * client.close();
 * ```
 */
export function createClient(options: ClientOptions): Client {
  const credentials = (options as Partial<ClientOptions> | null | undefined)?.credentials;
  if (typeof credentials !== "object" || credentials === null) {
    throw new TypeError("createClient needs options.credentials: see loadCredentials()");
  }
  const timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS, "timeoutMs");
  const maxResponseBytes = positive(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, "maxResponseBytes");
  const format = formatOf(options.format ?? "protobuf");
  const transport = createTransport({
    credentials: options.credentials,
    userAgent: options.userAgent ?? `clusterwire/${packageVersion()}`,
    maxResponseBytes,
    onWarning: options.onWarning,
  });
  const context: ClientContext = { transport, format, timeoutMs };
  const clients = new Map<ClientKind, ResourceClient<never>>();
  const resource = <K extends ClientKind>(kind: K): ResourceClient<KindTypes[K]> => {
    let made = clients.get(kind);
    if (made === undefined) {
      made = createResourceClient<never>(kindFacts(kind), context);
      clients.set(kind, made);
    }
    return made as unknown as ResourceClient<KindTypes[K]>;
  };
  return {
    resource,
    ingresses: resource("Ingress"),
    ingressClasses: resource("IngressClass"),
    networkPolicies: resource("NetworkPolicy"),
    ipAddresses: resource("IPAddress"),
    serviceCIDRs: resource("ServiceCIDR"),
    close: () => transport.close(),
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a whole number of at least 1, got ${value}`);
  return value;
}

let version: string | undefined;

/** clusterwire's version, from the package.json above this file (src/client or dist/src/client); "unknown" if none. */
function packageVersion(): string {
  if (version !== undefined) return version;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "clusterwire" && typeof pkg.version === "string") {
        version = pkg.version;
        return version;
      }
    } catch {
      // No package.json here: look further up.
    }
    dir = dirname(dir);
  }
  version = "unknown";
  return version;
}
