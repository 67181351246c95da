// The calls on one kind: list, listAll, get, create, update, updateStatus, delete, apply and
// watch, each one request to /apis/networking.k8s.io/v1[/namespaces/NS]/PLURAL[/NAME][/status].
// Names and namespaces are checked before anything is sent; answers are decoded by their media
// type and held to the kind asked for.

import { isFieldSet } from "@bufbuild/protobuf";
import {
  ListMetaSchema,
  type ListMeta,
  type NetworkingObject,
  type Status,
  toJsonString,
} from "../networking/index.js";
import { ApiError, apiErrorOf, RequestError } from "./errors.js";
import { decodeBody, type Format } from "./formats.js";
import { API_PREFIX, type KindFacts } from "./kinds.js";
import type { Answer, Exchange, Transport } from "./transport/request.js";
import type {
  ApplyOptions,
  ClientKind,
  ClientObject,
  DeleteOptions,
  ListOptions,
  ListPage,
  ListWatcher,
  RequestOptions,
  WatchOptions,
  WriteOptions,
} from "./types.js";
import { watchEvents } from "./watch.js";

const STATUS_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.Status";
/** The media type of a server-side apply body: JSON is YAML. */
const APPLY_MEDIA_TYPE = "application/apply-patch+yaml";
/** The page size of listAll when none is given. */
export const DEFAULT_LIST_ALL_LIMIT = 500;

/**
 * The calls on one kind, from `client.ingresses`, `client.resource("NetworkPolicy")` and so on.
 * Every call is one request (listAll: one per page) and rejects with an `ApiError` (the API
 * server said no), a `RequestError` (no usable answer), a `RangeError` (a name or namespace
 * that cannot be sent; nothing is sent), or a `DecodeError` (a malformed body).
 *
 * @example
 * ```ts
 * import { type ResourceClient, createClient, loadCredentials } from "clusterwire/client";
 * import { IngressSchema, create, type Ingress } from "clusterwire/networking";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const ingresses: ResourceClient<Ingress> = client.ingresses;
 * const made = await ingresses.create(
 *   create(IngressSchema, {
 *     metadata: { name: "web", namespace: "shop" },
 *     spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
 *   }),
 * );
 * made.metadata!.labels = { tier: "front" };
 * await ingresses.update(made);
 * await ingresses.delete("web", { namespace: "shop" });
 * client.close();
 * ```
 */
export interface ResourceClient<T> extends ListWatcher<T> {
  /** The kind, e.g. "Ingress". */
  readonly kind: ClientKind;
  /** Whether its objects live in namespaces (Ingress, NetworkPolicy). */
  readonly namespaced: boolean;
  /**
   * Every object, following `continue` tokens page by page (`limit` default 500). An expired
   * token (410) starts the list over once; a second one throws.
   */
  listAll(options?: Omit<ListOptions, "continue">): Promise<{ items: T[]; resourceVersion: string }>;
  /** One object by name. */
  get(name: string, options?: { readonly namespace?: string } & RequestOptions): Promise<T>;
  /** Creates the object (POST); resolves with it as stored. */
  create(object: T, options?: WriteOptions): Promise<T>;
  /** Replaces the object (PUT) named by its `metadata.name`; a `metadata.resourceVersion` makes it conditional. */
  update(object: T, options?: WriteOptions): Promise<T>;
  /** Replaces the object's status (PUT .../status): Ingress and ServiceCIDR only; others reject with a RangeError. */
  updateStatus(object: T, options?: WriteOptions): Promise<T>;
  /** Deletes the object; resolves with it (as it was, or marked for deletion) or a Status, as the API server answers. */
  delete(name: string, options?: DeleteOptions): Promise<T | Status>;
  /** Server-side apply (PATCH application/apply-patch+yaml) of the object as JSON, by `options.fieldManager`. */
  apply(object: T, options: ApplyOptions): Promise<T>;
}

/** What every resource client of one client shares. */
export interface ClientContext {
  readonly transport: Transport;
  readonly format: Format;
  readonly timeoutMs: number;
}

/** The calls on the kind `facts` describes. */
export function createResourceClient<T extends ClientObject>(
  facts: KindFacts,
  context: ClientContext,
): ResourceClient<T> {
  const { transport, format } = context;
  const kind = facts.kind;

  const segment = (value: unknown, what: string): string => {
    if (typeof value !== "string") throw new RangeError(`${kind} ${what} must be a string, got ${typeof value}`);
    if (value === "" || value === "." || value === ".." || value.includes("/")) {
      throw new RangeError(
        `${kind} ${what} ${JSON.stringify(value)} cannot be a path segment: it must not be empty, "." or "..", nor hold "/"`,
      );
    }
    return encodeURIComponent(value);
  };
  const collection = (namespace: string | undefined): string =>
    namespace === undefined
      ? `${API_PREFIX}/${facts.plural}`
      : `${API_PREFIX}/namespaces/${segment(namespace, "namespace")}/${facts.plural}`;
  /** The namespace of a list or watch: any, or the one given (namespaced kinds only). */
  const scope = (namespace: string | undefined): string | undefined => {
    if (namespace !== undefined && !facts.namespaced) {
      throw new RangeError(`${kind} is cluster-scoped: no namespace can be given (got ${JSON.stringify(namespace)})`);
    }
    return namespace;
  };
  /** The namespace of one object: required for namespaced kinds, refused for the others. */
  const namespaceOf = (given: string | undefined, object?: ClientObject): string | undefined => {
    if (!facts.namespaced) return scope(given);
    const namespace = given ?? (object?.metadata?.namespace || undefined);
    if (namespace === undefined) {
      throw new RangeError(
        `${kind} is namespaced: give options.namespace${object === undefined ? "" : " or metadata.namespace"}`,
      );
    }
    return namespace;
  };
  const itemPath = (namespace: string | undefined, name: unknown): string =>
    `${collection(namespace)}/${segment(name, "name")}`;
  const checkObject = (object: unknown): ClientObject => {
    const typeName = (object as { $typeName?: unknown } | null | undefined)?.$typeName;
    if (typeName !== facts.typeName) {
      throw new TypeError(
        `the ${kind} client takes ${facts.typeName} objects, got ${typeof typeName === "string" ? typeName : typeof object}`,
      );
    }
    return object as ClientObject;
  };
  const nameOf = (object: ClientObject): string => {
    const name = object.metadata?.name ?? "";
    if (name === "") throw new RangeError(`the ${kind} has no metadata.name`);
    return name;
  };

  const send = (x: Exchange, options: RequestOptions | undefined): Promise<Answer> =>
    transport.send(x, options?.timeoutMs ?? context.timeoutMs);
  /** The decoded object of a 2xx answer; an ApiError for any other. */
  const decoded = (x: Exchange, answer: Answer): NetworkingObject => {
    if (answer.status < 200 || answer.status > 299) {
      throw apiErrorOf(x.method, x.path, answer.status, answer.statusText, answer.contentType, answer.body);
    }
    const object = decodeBody(answer.contentType, answer.body);
    if (object === undefined) {
      throw new RequestError(
        "bad-response",
        x.method,
        x.path,
        `the answer's media type ${JSON.stringify(answer.contentType)} is neither protobuf nor JSON`,
      );
    }
    return object;
  };
  const expect = (x: Exchange, answer: Answer, ...typeNames: string[]): NetworkingObject => {
    const object = decoded(x, answer);
    if (!typeNames.includes(object.$typeName)) {
      throw new RequestError(
        "bad-response",
        x.method,
        x.path,
        `the answer is a ${object.$typeName}, not a ${typeNames.join(" or ")}`,
      );
    }
    return object;
  };
  const writeQuery = (options: WriteOptions | undefined): URLSearchParams => {
    const q = new URLSearchParams();
    if (options?.dryRun === true) q.set("dryRun", "All");
    if (options?.fieldManager !== undefined) q.set("fieldManager", options.fieldManager);
    if (options?.fieldValidation !== undefined) q.set("fieldValidation", options.fieldValidation);
    return q;
  };
  const write = async (
    method: "POST" | "PUT",
    path: string,
    object: ClientObject,
    options: WriteOptions | undefined,
  ): Promise<T> => {
    const x: Exchange = {
      method,
      path,
      query: writeQuery(options),
      accept: format.accept,
      contentType: format.contentType,
      body: format.encode(object),
      signal: options?.signal,
    };
    return expect(x, await send(x, options), facts.typeName) as T;
  };

  const list = async (options: ListOptions = {}): Promise<ListPage<T>> => {
    const q = new URLSearchParams();
    if (options.labelSelector !== undefined) q.set("labelSelector", options.labelSelector);
    if (options.fieldSelector !== undefined) q.set("fieldSelector", options.fieldSelector);
    if (options.limit !== undefined) {
      if (!Number.isSafeInteger(options.limit) || options.limit < 0) {
        throw new RangeError(`limit must be a whole number of at least 0, got ${options.limit}`);
      }
      q.set("limit", String(options.limit));
    }
    if (options.continue !== undefined && options.continue !== "") q.set("continue", options.continue);
    if (options.resourceVersion !== undefined) q.set("resourceVersion", options.resourceVersion);
    if (options.resourceVersionMatch !== undefined) q.set("resourceVersionMatch", options.resourceVersionMatch);
    const x: Exchange = {
      method: "GET",
      path: collection(scope(options.namespace)),
      query: q,
      accept: format.accept,
      signal: options.signal,
    };
    const page = expect(x, await send(x, options), facts.listTypeName) as NetworkingObject & {
      items: T[];
      metadata?: ListMeta;
    };
    const meta = page.metadata;
    return {
      items: page.items,
      resourceVersion: meta?.resourceVersion ?? "",
      continue: meta?.continue ?? "",
      ...(meta !== undefined && isFieldSet(meta, ListMetaSchema.field.remainingItemCount)
        ? { remainingItemCount: Number(meta.remainingItemCount) }
        : {}),
    };
  };

  return {
    kind,
    namespaced: facts.namespaced,
    list,

    async listAll(options = {}) {
      const limit = options.limit ?? DEFAULT_LIST_ALL_LIMIT;
      let restarted = false;
      for (;;) {
        const items: T[] = [];
        let token = "";
        let resourceVersion = "";
        try {
          do {
            const page = await list({ ...options, limit, continue: token });
            // A loop, not push(...items): a page of a large limit would overflow the call's argument list.
            for (const item of page.items) items.push(item);
            token = page.continue;
            resourceVersion = page.resourceVersion;
          } while (token !== "");
          return { items, resourceVersion };
        } catch (e) {
          // The continue token expired (the list took longer than the API server keeps its
          // snapshot): start over, once.
          if (!(e instanceof ApiError && e.status === 410 && token !== "" && !restarted)) throw e;
          restarted = true;
        }
      }
    },

    async get(name, options = {}) {
      const x: Exchange = {
        method: "GET",
        path: itemPath(namespaceOf(options.namespace), name),
        accept: format.accept,
        signal: options.signal,
      };
      return expect(x, await send(x, options), facts.typeName) as T;
    },

    async create(object, options) {
      const o = checkObject(object);
      return write("POST", collection(namespaceOf(options?.namespace, o)), o, options);
    },

    async update(object, options) {
      const o = checkObject(object);
      return write("PUT", itemPath(namespaceOf(options?.namespace, o), nameOf(o)), o, options);
    },

    async updateStatus(object, options) {
      if (!facts.hasStatus) throw new RangeError(`${kind} has no status subresource: updateStatus cannot be used`);
      const o = checkObject(object);
      return write("PUT", `${itemPath(namespaceOf(options?.namespace, o), nameOf(o))}/status`, o, options);
    },

    async delete(name, options = {}) {
      const body: Record<string, unknown> = {};
      if (options.gracePeriodSeconds !== undefined) body["gracePeriodSeconds"] = options.gracePeriodSeconds;
      if (options.preconditions !== undefined) body["preconditions"] = options.preconditions;
      if (options.propagationPolicy !== undefined) body["propagationPolicy"] = options.propagationPolicy;
      if (options.dryRun === true) body["dryRun"] = ["All"];
      const x: Exchange = {
        method: "DELETE",
        path: itemPath(namespaceOf(options.namespace), name),
        accept: format.accept,
        contentType: "application/json",
        body: Buffer.from(JSON.stringify({ kind: "DeleteOptions", apiVersion: "v1", ...body }), "utf8"),
        signal: options.signal,
      };
      return expect(x, await send(x, options), facts.typeName, STATUS_TYPE) as T | Status;
    },

    async apply(object, options) {
      const o = checkObject(object);
      if (typeof options?.fieldManager !== "string" || options.fieldManager === "") {
        throw new RangeError("apply needs options.fieldManager: who owns the applied fields");
      }
      const q = writeQuery(options);
      if (options.force === true) q.set("force", "true");
      const x: Exchange = {
        method: "PATCH",
        path: itemPath(namespaceOf(options.namespace, o), nameOf(o)),
        query: q,
        accept: format.accept,
        contentType: APPLY_MEDIA_TYPE,
        body: Buffer.from(toJsonString(o), "utf8"),
        signal: options.signal,
      };
      return expect(x, await send(x, options), facts.typeName) as T;
    },

    watch(options: WatchOptions = {}) {
      const q = new URLSearchParams({ watch: "1" });
      if (options.labelSelector !== undefined) q.set("labelSelector", options.labelSelector);
      if (options.fieldSelector !== undefined) q.set("fieldSelector", options.fieldSelector);
      if (options.resourceVersion !== undefined) q.set("resourceVersion", options.resourceVersion);
      if (options.allowWatchBookmarks === true) q.set("allowWatchBookmarks", "true");
      if (options.timeoutSeconds !== undefined) {
        if (!Number.isSafeInteger(options.timeoutSeconds) || options.timeoutSeconds < 1) {
          throw new RangeError(`timeoutSeconds must be a whole number of at least 1, got ${options.timeoutSeconds}`);
        }
        q.set("timeoutSeconds", String(options.timeoutSeconds));
      }
      return watchEvents<T>({
        transport,
        format,
        facts,
        path: collection(scope(options.namespace)),
        query: q,
        signal: options.signal,
        headerTimeoutMs: options.headerTimeoutMs ?? context.timeoutMs,
        timeoutSeconds: options.timeoutSeconds,
      });
    },
  };
}
