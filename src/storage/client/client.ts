// StorageClient: a typed client for the storage REST API (clone tokens, caches, software,
// NVMe namespaces, quota rules and jobs), following upstream's REST conventions.
//
// Layers:
//   * a generic core — `request` (one call, parsed JSON, errors as StorageApiError), `pages` /
//     `list` (follow `_links.next` as-is, guard against a repeated link), `mutate` (POST /
//     PATCH / DELETE that waits for an asynchronous job) and `waitForJob` (back-off polling with
//     a total timeout and an AbortSignal);
//   * per-resource objects (`cloneTokens`, `caches`, `nvmeNamespaces`, `quotaRules`, `software`,
//     and the read-only `svms` and `nodes`;
//     resources.ts, software-api.ts) that take and return JSON-shaped objects and route every
//     body through an optional codec hook (`StorageClientOptions.codecs`, codec-hooks.ts), so
//     the codecs' `decode` / `encodePost` / `encodePatch` plug in without changing the call sites.
//     They call the client through `ResourceCalls` (resource-calls.ts), which this class
//     implements, and never import this file: the imports point one way.
//
// Beside this file: errors.ts (job, network and protocol errors), query.ts, redaction.ts,
// response.ts (capped body reading), abort.ts, options.ts and transport.ts (node:https).
//
// Secrets: the password lives in a private field; the client serializes and inspects as
// `{ baseUrl, username }`; every error message and the data attached to errors are scrubbed of
// the password, the Authorization value and per-call secrets (the download password).

import { inspect } from "node:util";
import { StorageApiError, StorageCodecError } from "../codecs/errors.js";
import type { Cache, CachePatchInput as CacheUpdate, CachePostInput as CacheCreate } from "../codecs/cache.js";
import type {
  CloneToken,
  CloneTokenPatchInput as CloneTokenUpdate,
  CloneTokenPostInput as CloneTokenCreate,
} from "../codecs/clone-token.js";
import type { ClusterNode } from "../codecs/cluster-node.js";
import type { Collection } from "../codecs/collection.js";
import type { Job, JobReference as JobRef } from "../codecs/job.js";
import type {
  NvmeNamespace,
  NvmeNamespacePatchInput as NvmeNamespaceUpdate,
  NvmeNamespacePostInput as NvmeNamespaceCreate,
} from "../codecs/nvme-namespace.js";
import type {
  QuotaRule,
  QuotaRulePatchInput as QuotaRuleUpdate,
  QuotaRulePostInput as QuotaRuleCreate,
} from "../codecs/quota-rule.js";
import type { Svm } from "../codecs/svm.js";
import { raceAbort, systemClientClock, type StorageClientClock } from "./abort.js";
import { DEFAULT_CODECS, type ResourceCodec } from "./codec-hooks.js";
import { StorageJobError, StorageJobTimeoutError, StorageNetworkError, StorageProtocolError } from "./errors.js";
import { isObject } from "./objects.js";
import {
  DEFAULT_STORAGE_PATHS,
  type CallOptions,
  type CloneTokenKey,
  type JobWaitOptions,
  type MutationOptions,
  type MutationResult,
  type RequestOptions,
  type StorageClientOptions,
  type StoragePaths,
  type StorageRequestEvent,
  type UploadFile,
} from "./options.js";
import { encodeQuery, type QueryObject } from "./query.js";
import { MIN_SECRET_LENGTH, REDACTED, redactDeep, redactString } from "./redaction.js";
import type { ResourceCalls } from "./resource-calls.js";
import { SoftwareApi } from "./software-api.js";
import { StorageBulkResource, StorageReadOnlyResource } from "./resources.js";
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLarge, isJsonContentType, readCapped } from "./response.js";
import { createNodeFetch, encodeMultipart, type FetchLike, type FetchResponse } from "./transport.js";

const TERMINAL_FAILURE_STATES = new Set(["failure", "cancelled", "canceled", "expired"]);

function positive(name: string, v: number): number {
  if (!(typeof v === "number" && Number.isFinite(v) && v > 0))
    throw new RangeError(`${name} must be a positive number, got ${String(v)}`);
  return v;
}

/**
 * The floor of the per-request time limit: the query's `return_timeout` plus 15 s, so a
 * server-side wait is never cut short by the client (a read timeout shorter than the
 * server's wait is a common failure of upstream clients).
 */
function minTimeoutFor(query: QueryObject | undefined): number | undefined {
  const rt = query?.["return_timeout"];
  return typeof rt === "number" ? (rt + 15) * 1000 : undefined;
}

// A job reference the client can poll: the uuid is known to be there.
type PollableJobRef = JobRef & { readonly uuid: string };

function jobRefs(body: unknown): PollableJobRef[] {
  if (!isObject(body)) return [];
  const refs: PollableJobRef[] = [];
  const one = body["job"];
  if (isObject(one) && typeof one["uuid"] === "string") refs.push(one as unknown as PollableJobRef);
  const many = body["jobs"];
  if (Array.isArray(many)) {
    for (const j of many) if (isObject(j) && typeof j["uuid"] === "string") refs.push(j as unknown as PollableJobRef);
  }
  return refs;
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause;
    const code = isObject(cause) && typeof cause["code"] === "string" ? cause["code"] : undefined;
    const causeMsg = cause instanceof Error ? cause.message : undefined;
    return [err.message, causeMsg, code].filter((s) => s !== undefined && s !== "").join(": ");
  }
  return String(err);
}

interface SendInit {
  readonly method: string;
  readonly url: URL;
  readonly body?: string | Uint8Array;
  readonly contentType?: string;
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /** From `return_timeout`: the limit is never below this. */
  readonly minTimeoutMs?: number | undefined;
  readonly secrets?: readonly string[] | undefined;
}

interface SendResult {
  readonly status: number;
  readonly json: unknown;
  readonly headers: FetchResponse["headers"];
  readonly request: string;
}

// ---- the client -----------------------------------------------------------------------------

/**
 * A typed client of the storage REST API: collections as resources (`caches`, `cloneTokens`, `nvmeNamespaces`,
 * `quotaRules`, `svms`, `nodes`), the cluster software, jobs, and raw requests. Every call checks its input and
 * decodes its answer with the codecs.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const svms = await client.svms.all();
 * const created = await client.quotaRules.create({ svm: { name: "svm1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "q1" }, space: { hard_limit: "10G" } });
 * console.log(svms.map((s) => s.name), created.status); // [ "svm1", "svm2" ] 201
 * client.close();
 * await server.close();
 * ```
 */
export class StorageClient implements ResourceCalls {
  /** The base URL as given (normalized, without a trailing slash). */
  readonly baseUrl: string;
  /** The username it authenticates as (the password is never kept readable). */
  readonly username: string;
  /** The API paths it uses (the defaults, with the overrides given). */
  readonly paths: StoragePaths;

  /** The clone tokens of each node. */
  readonly cloneTokens: StorageBulkResource<CloneToken, CloneTokenCreate, CloneTokenUpdate, CloneTokenKey>;
  /** The FlexCache volumes. */
  readonly caches: StorageBulkResource<Cache, CacheCreate, CacheUpdate, string>;
  /** The NVMe namespaces. */
  readonly nvmeNamespaces: StorageBulkResource<NvmeNamespace, NvmeNamespaceCreate, NvmeNamespaceUpdate, string>;
  /** The quota rules. */
  readonly quotaRules: StorageBulkResource<QuotaRule, QuotaRuleCreate, QuotaRuleUpdate, string>;
  /** The cluster software: version, packages, upgrades. */
  readonly software: SoftwareApi;
  /**
   * The SVMs, read-only: list, count and find them (`fields`, `max_records` and filters
   * such as `{ name: "svm*" }`), or get one by uuid.
   *
   * @example
   * import type { StorageClient } from "clusterwire/storage";
   *
   * declare const client: StorageClient;
   * const names = (await client.svms.all()).map((s) => s.name); // ["svm1", "svm2"] on the reference server
   */
  readonly svms: StorageReadOnlyResource<Svm>;
  /**
   * The cluster's nodes, read-only, as {@link StorageClient.svms}. A node's uuid is what a
   * clone token's `node.uuid` takes.
   *
   * @example
   * import type { StorageClient } from "clusterwire/storage";
   *
   * declare const client: StorageClient;
   * const node = await client.nodes.find({ name: "node1" });
   * await client.cloneTokens.create({ node: { uuid: node!.uuid! }, reserve_size: "40M" });
   */
  readonly nodes: StorageReadOnlyResource<ClusterNode>;

  readonly #password: string;
  readonly #authorization: string;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #fetch: FetchLike;
  readonly #closeTransport: (() => void) | undefined;
  readonly #userAgent: string;
  readonly #extraHeaders: Readonly<Record<string, string>>;
  readonly #requestTimeoutMs: number;
  readonly #maxResponseBytes: number;
  readonly #jobDefaults: Omit<JobWaitOptions, "signal" | "onPoll">;
  readonly #jobCodec: ResourceCodec<Job>;
  readonly #logger: ((event: StorageRequestEvent) => void) | undefined;
  readonly #clock: StorageClientClock;

  constructor(options: StorageClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError("StorageClient: baseUrl is not a valid URL");
    }
    if (url.username !== "" || url.password !== "")
      throw new TypeError("StorageClient: baseUrl must not carry credentials; use username and password");
    if (url.search !== "" || url.hash !== "")
      throw new TypeError("StorageClient: baseUrl must not have a query or fragment");
    if (url.protocol === "http:") {
      if (options.allowInsecureHttp !== true) {
        throw new TypeError(
          "StorageClient: refusing plain http: the password would travel in clear; use https or set allowInsecureHttp: true",
        );
      }
    } else if (url.protocol !== "https:") {
      throw new TypeError(`StorageClient: unsupported protocol ${url.protocol}`);
    }
    if (typeof options.username !== "string" || options.username === "")
      throw new TypeError("StorageClient: username is required");
    if (options.username.includes(":"))
      throw new TypeError("StorageClient: username must not contain ':' (HTTP Basic)");
    if (typeof options.password !== "string") throw new TypeError("StorageClient: password must be a string");
    if (options.tls !== undefined && options.fetch !== undefined) {
      throw new TypeError(
        "StorageClient: tls options apply to the built-in transport; configure TLS inside your fetch instead",
      );
    }
    for (const name of Object.keys(options.headers ?? {})) {
      if (name.toLowerCase() === "authorization")
        throw new TypeError("StorageClient: headers must not set Authorization");
    }

    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, "");
    this.baseUrl = `${this.#origin}${this.#basePath}`;
    this.username = options.username;
    this.#password = options.password;
    this.#authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`, "utf8").toString("base64")}`;
    if (options.fetch !== undefined) {
      this.#fetch = options.fetch;
      this.#closeTransport = undefined;
    } else if (options.tls !== undefined) {
      const nodeFetch = createNodeFetch(options.tls);
      this.#fetch = nodeFetch;
      this.#closeTransport = () => nodeFetch.close();
    } else {
      this.#fetch = globalThis.fetch as unknown as FetchLike;
      this.#closeTransport = undefined;
    }
    this.#userAgent = options.userAgent ?? "clusterwire";
    this.#extraHeaders = { ...options.headers };
    this.#requestTimeoutMs = positive("requestTimeoutMs", options.requestTimeoutMs ?? 60_000);
    this.#maxResponseBytes = positive("maxResponseBytes", options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    this.#jobDefaults = { ...options.jobs };
    const codecs = options.codecs ?? DEFAULT_CODECS;
    this.#jobCodec = codecs.job ?? {};
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClientClock;
    this.paths = Object.freeze({ ...DEFAULT_STORAGE_PATHS, ...options.paths });

    const seg = encodeURIComponent;
    this.cloneTokens = new StorageBulkResource(
      this,
      this.paths.cloneTokens,
      (k: CloneTokenKey) => `${seg(k.nodeUuid)}/${seg(k.uuid)}`,
      codecs.cloneToken ?? {},
    );
    this.caches = new StorageBulkResource(this, this.paths.caches, (k: string) => seg(k), codecs.cache ?? {});
    this.nvmeNamespaces = new StorageBulkResource(
      this,
      this.paths.nvmeNamespaces,
      (k: string) => seg(k),
      codecs.nvmeNamespace ?? {},
    );
    this.quotaRules = new StorageBulkResource(
      this,
      this.paths.quotaRules,
      (k: string) => seg(k),
      codecs.quotaRule ?? {},
    );
    this.software = new SoftwareApi(this, codecs);
    const decoder = <R>(codec: ResourceCodec<R> | undefined): ((json: unknown) => R) | undefined =>
      codec?.decode === undefined ? undefined : (j) => codec.decode!(j);
    this.svms = new StorageReadOnlyResource(this, this.paths.svms, (k: string) => seg(k), decoder(codecs.svm));
    this.nodes = new StorageReadOnlyResource(this, this.paths.nodes, (k: string) => seg(k), decoder(codecs.node));
  }

  // -- redaction --

  /** The base URL and username only, so a logged client never shows its password. */
  toJSON(): { baseUrl: string; username: string } {
    return { baseUrl: this.baseUrl, username: this.username };
  }
  /** `StorageClient(<baseUrl>, <username>)`. */
  toString(): string {
    return `StorageClient(${this.baseUrl}, user ${this.username})`;
  }
  /** What `util.inspect` and console.log show: the base URL and username, never the password. */
  [inspect.custom](): string {
    return this.toString();
  }

  /** The strings scrubbed from every error: the password, the Authorization value and its base64 part. */
  #secrets(extra: readonly string[] | undefined): string[] {
    return [this.#password, this.#authorization, this.#authorization.slice("Basic ".length), ...(extra ?? [])];
  }

  /** Releases the keep-alive sockets of the built-in TLS transport (no-op otherwise). */
  close(): void {
    this.#closeTransport?.();
  }

  // -- URLs --

  /** Builds the absolute URL of an API path (`/api/...`) plus query. */
  url(path: string, query?: QueryObject): URL {
    if (!path.startsWith("/"))
      throw new TypeError(`StorageClient: path must start with '/', got ${JSON.stringify(path)}`);
    const qs = encodeQuery(query);
    const sep = path.includes("?") ? "&" : "?";
    return new URL(`${this.#origin}${this.#basePath}${path}${qs === "" ? "" : sep + qs}`);
  }

  /** Resolves a HAL href (`/api/...`, as-is, query included) against the base; refuses other origins. */
  #resolveLink(href: string, request: string): URL {
    if (href.startsWith("/") && !href.startsWith("//")) {
      const path =
        this.#basePath !== "" && href.startsWith(`${this.#basePath}/`) ? href.slice(this.#basePath.length) : href;
      return new URL(`${this.#origin}${this.#basePath}${path}`);
    }
    // Links come from the server: scrubbed like any answer text before they reach an error.
    const shown = (s: string): string => redactString(s, this.#secrets(undefined)).slice(0, 200);
    let abs: URL;
    try {
      abs = new URL(href);
    } catch {
      throw new StorageProtocolError(request, `unusable link ${JSON.stringify(shown(href))}`);
    }
    if (abs.origin !== this.#origin) {
      // The link as sent, not the parsed origin: parsing lowercases the host, which would
      // let a password in it slip past the (exact) redaction.
      throw new StorageProtocolError(
        request,
        `refusing a link to another origin (${shown(href)}); credentials are sent only to ${this.#origin}`,
      );
    }
    return abs;
  }

  // -- core --

  async #send(init: SendInit): Promise<SendResult> {
    const request = `${init.method} ${init.url.pathname}`;
    const secrets = this.#secrets(init.secrets);
    const headers: Record<string, string> = {
      accept: "application/hal+json, application/json;q=0.9",
      "user-agent": this.#userAgent,
      ...this.#extraHeaders,
      authorization: this.#authorization,
    };
    if (init.body !== undefined) headers["content-type"] = init.contentType ?? "application/json";
    const timeoutMs = positive("timeoutMs", Math.max(init.timeoutMs ?? this.#requestTimeoutMs, init.minTimeoutMs ?? 0));
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]);
    const started = Date.now();
    let res: FetchResponse;
    let text: string;
    try {
      res = await raceAbort(
        this.#fetch(init.url.href, {
          method: init.method,
          headers,
          ...(init.body === undefined ? {} : { body: init.body }),
          signal,
          redirect: "manual",
        }),
        signal,
      );
      text = await raceAbort(readCapped(res, this.#maxResponseBytes), signal);
    } catch (err) {
      if (err instanceof ResponseTooLarge) {
        this.#logger?.({
          method: init.method,
          path: init.url.pathname,
          status: err.status,
          durationMs: Date.now() - started,
        });
        throw new StorageProtocolError(
          request,
          `HTTP ${err.status} with an answer larger than ${err.limit} bytes (maxResponseBytes); it was not read to the end`,
        );
      }
      this.#logger?.({
        method: init.method,
        path: init.url.pathname,
        status: undefined,
        durationMs: Date.now() - started,
      });
      if (init.signal?.aborted === true) throw init.signal.reason;
      if (timeout.aborted) throw new StorageNetworkError(request, `no answer within ${timeoutMs} ms`);
      // The original error is kept as `cause` only when it carries no secret (a custom fetch
      // could put the request headers into its error).
      let causeText = "";
      try {
        causeText = inspect(err, { depth: 6, showHidden: true });
      } catch {
        causeText = REDACTED;
      }
      const safe =
        !secrets.some((x) => x.length >= MIN_SECRET_LENGTH && causeText.includes(x)) && !causeText.includes(REDACTED);
      throw new StorageNetworkError(
        request,
        redactString(`network error: ${errorText(err)}`, secrets),
        safe ? { cause: err } : {},
      );
    }
    this.#logger?.({
      method: init.method,
      path: init.url.pathname,
      status: res.status,
      durationMs: Date.now() - started,
    });

    let json: unknown;
    let parsed = true;
    if (text.trim() !== "") {
      try {
        json = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }
    if (res.status < 200 || res.status >= 300)
      throw this.#apiError(res, request, parsed ? json : undefined, parsed ? "" : text, secrets);
    const contentType = res.headers.get("content-type");
    const shownType = contentType === null ? "no content-type" : redactString(contentType, secrets).slice(0, 100);
    if (!parsed)
      throw new StorageProtocolError(request, `HTTP ${res.status} with a body that is not JSON (${shownType})`);
    // A body that parses as JSON under another declared type (an HTML page "[1]", a proxy's
    // text) is not the API's answer; no Content-Type at all is tolerated.
    if (text.trim() !== "" && contentType !== null && !isJsonContentType(contentType)) {
      throw new StorageProtocolError(request, `HTTP ${res.status} with Content-Type ${shownType}, not JSON`);
    }
    return { status: res.status, json, headers: res.headers, request };
  }

  #apiError(
    res: FetchResponse,
    request: string,
    json: unknown,
    rawText: string,
    secrets: readonly string[],
  ): StorageApiError {
    const err = isObject(json) && isObject(json["error"]) ? json["error"] : undefined;
    let message: string;
    let code = "";
    let target: string | undefined;
    if (err !== undefined) {
      message = typeof err["message"] === "string" ? err["message"] : res.statusText || `HTTP ${res.status}`;
      code = typeof err["code"] === "string" ? err["code"] : typeof err["code"] === "number" ? String(err["code"]) : "";
      target = typeof err["target"] === "string" ? err["target"] : undefined;
    } else {
      const snippet = rawText.trim().replace(/\s+/g, " ").slice(0, 200);
      message = `${res.statusText || `HTTP ${res.status}`}${snippet === "" ? "" : ` (body: ${snippet})`}`;
    }
    return new StorageApiError({
      status: res.status,
      code: redactString(code, secrets),
      message: redactString(message, secrets),
      target: target === undefined ? undefined : redactString(target, secrets),
      request,
    });
  }

  #body(options: { body?: unknown }): { body?: string } {
    if (options.body === undefined) return {};
    let body: string | undefined;
    try {
      body = JSON.stringify(options.body);
    } catch (e) {
      // A BigInt, a cycle, or a toJSON that throws: nothing is sent.
      throw new StorageCodecError(
        "",
        `the body cannot be written as JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    // A function or a symbol alone has no JSON form (stringify gives undefined).
    if (body === undefined) throw new StorageCodecError("", "the body cannot be written as JSON");
    return { body };
  }

  /** One call; resolves to the parsed JSON body (undefined when empty). Errors: StorageApiError, StorageNetworkError, StorageProtocolError; StorageCodecError for a query or body that cannot be sent. */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T | undefined> {
    const res = await this.#send({
      method,
      url: this.url(path, options.query),
      ...this.#body(options),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      minTimeoutMs: minTimeoutFor(options.query),
      secrets: options.secrets,
    });
    return res.json as T | undefined;
  }

  /** The pages of a collection GET, following `_links.next` as-is; throws on a repeated or foreign next link. */
  async *pages<T = unknown>(
    path: string,
    query?: QueryObject,
    options: CallOptions = {},
  ): AsyncGenerator<Collection<T>, void, undefined> {
    let url: URL | undefined = this.url(path, query);
    const seen = new Set<string>();
    while (url !== undefined) {
      seen.add(url.href);
      const res = await this.#send({
        method: "GET",
        url,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        minTimeoutMs: minTimeoutFor(query),
      });
      const body = res.json;
      if (!isObject(body) || (body["records"] !== undefined && !Array.isArray(body["records"]))) {
        throw new StorageProtocolError(res.request, "a collection answer must be an object with a records array");
      }
      yield body as Collection<T>;
      const links = body["_links"];
      const next = isObject(links) && isObject(links["next"]) ? links["next"]["href"] : undefined;
      if (typeof next !== "string" || next === "") return;
      const nextUrl = this.#resolveLink(next, res.request);
      if (seen.has(nextUrl.href)) {
        const shown = redactString(next, this.#secrets(undefined)).slice(0, 200);
        throw new StorageProtocolError(
          res.request,
          `the server repeated the next link ${shown}; stopping to avoid an endless loop`,
        );
      }
      url = nextUrl;
    }
  }

  /** The records of a collection, lazily, across all pages. */
  async *list<T = unknown>(
    path: string,
    query?: QueryObject,
    options: CallOptions & { readonly decode?: (json: unknown) => T } = {},
  ): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages<unknown>(path, query, options)) {
      for (const r of page.records ?? []) yield options.decode === undefined ? (r as T) : options.decode(r);
    }
  }

  /** `num_records` of a collection query (`return_records=false`). */
  async count(path: string, query?: QueryObject, options: CallOptions = {}): Promise<number> {
    const body = await this.request<Collection<unknown>>("GET", path, {
      query: { ...query, return_records: false },
      ...options,
    });
    const n = body?.num_records;
    if (typeof n !== "number") throw new StorageProtocolError(`GET ${path}`, "a count answer must carry num_records");
    return n;
  }

  /** POST / PATCH / DELETE; waits for the answer's job(s) unless `wait: false`. A body that cannot be written as JSON rejects with StorageCodecError. */
  async mutate<T = unknown>(
    method: "POST" | "PATCH" | "DELETE",
    path: string,
    options: MutationOptions & { readonly body?: unknown } = {},
  ): Promise<MutationResult<T>> {
    return this.#mutate<T>(method, path, this.#body(options), undefined, options);
  }

  async #mutate<T>(
    method: string,
    path: string,
    payload: { body?: string | Uint8Array },
    contentType: string | undefined,
    options: MutationOptions,
  ): Promise<MutationResult<T>> {
    const res = await this.#send({
      method,
      url: this.url(path, options.query),
      ...payload,
      ...(contentType === undefined ? {} : { contentType }),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      minTimeoutMs: minTimeoutFor(options.query),
      secrets: options.secrets,
    });
    const refs = jobRefs(res.json);
    if (res.status === 202 && refs.length === 0)
      throw new StorageProtocolError(res.request, "HTTP 202 Accepted without a job in the body");
    const wait = options.wait ?? true;
    const jobs: Job[] = [];
    for (const ref of refs) {
      if (wait === false) {
        jobs.push(ref);
      } else {
        const waitOptions: JobWaitOptions = wait === true ? {} : wait;
        const signal = waitOptions.signal ?? options.signal;
        jobs.push(
          await this.waitForJob(ref.uuid, {
            ...waitOptions,
            ...(signal === undefined ? {} : { signal }),
            ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
          }),
        );
      }
    }
    return {
      status: res.status,
      body: res.json as T | undefined,
      job: jobs[0],
      jobs,
      location: res.headers.get("location") ?? undefined,
    };
  }

  /** Reads one job record. */
  async getJob(uuid: string, options: CallOptions = {}): Promise<Job> {
    const json = await this.request("GET", `${this.paths.jobs}/${encodeURIComponent(uuid)}`, options);
    if (!isObject(json))
      throw new StorageProtocolError(`GET ${this.paths.jobs}/${uuid}`, "a job answer must be an object");
    return this.#jobCodec.decode === undefined ? (json as unknown as Job) : this.#jobCodec.decode(json);
  }

  /**
   * Polls `/api/cluster/jobs/<uuid>` until `success` (resolves to the job) or a failure state
   * (StorageJobError); StorageJobTimeoutError after the total timeout; rejects with the
   * signal's reason when aborted.
   */
  async waitForJob(
    uuid: string,
    options: JobWaitOptions & { readonly secrets?: readonly string[] } = {},
  ): Promise<Job> {
    const o = { ...this.#jobDefaults, ...options };
    const timeoutMs = positive("timeoutMs", o.timeoutMs ?? 120_000);
    const maxInterval = positive("maxIntervalMs", o.maxIntervalMs ?? 5_000);
    let interval = Math.min(positive("initialIntervalMs", o.initialIntervalMs ?? 1_000), maxInterval);
    const factor = o.backoffFactor ?? Math.SQRT2;
    if (!(factor >= 1)) throw new RangeError(`backoffFactor must be >= 1, got ${String(factor)}`);
    const jitter = Math.min(Math.max(o.jitter ?? 0.1, 0), 0.5);
    const maxPollErrors = o.maxPollErrors ?? 3;
    const secrets = this.#secrets(options.secrets);
    const deadline = this.#clock.now() + timeoutMs;
    let last: Job | undefined;
    let errors = 0;
    for (;;) {
      o.signal?.throwIfAborted();
      let job: Job | undefined;
      try {
        job = await this.getJob(uuid, o.signal === undefined ? {} : { signal: o.signal });
        errors = 0;
      } catch (err) {
        if (o.signal?.aborted === true) throw o.signal.reason;
        const transient = err instanceof StorageNetworkError || (err instanceof StorageApiError && err.status >= 500);
        if (!transient || ++errors > maxPollErrors) throw err;
      }
      if (job !== undefined) {
        last = redactDeep(job, secrets);
        await o.onPoll?.(last);
        if (job.state === "success") return last.uuid === undefined ? { ...last, uuid } : last;
        if (job.state !== undefined && TERMINAL_FAILURE_STATES.has(job.state)) throw new StorageJobError(uuid, last);
      }
      const remaining = deadline - this.#clock.now();
      if (remaining <= 0) throw new StorageJobTimeoutError(uuid, timeoutMs, last);
      const jittered = interval * (1 + (Math.random() * 2 - 1) * jitter);
      await this.#clock.sleep(Math.max(0, Math.min(jittered, remaining)), o.signal);
      interval = Math.min(interval * factor, maxInterval);
    }
  }

  /** POSTs a multipart/form-data body with one file part; waits for the job like `mutate`. */
  async postFile(
    path: string,
    file: UploadFile,
    options: MutationOptions & { readonly field?: string } = {},
  ): Promise<MutationResult> {
    const data =
      file.data instanceof Uint8Array
        ? file.data
        : file.data instanceof ArrayBuffer
          ? new Uint8Array(file.data)
          : new Uint8Array(await file.data.arrayBuffer());
    const { body, contentType } = encodeMultipart([
      {
        field: options.field ?? "file",
        filename: file.filename,
        data,
        ...(file.contentType === undefined ? {} : { contentType: file.contentType }),
      },
    ]);
    return this.#mutate("POST", path, { body }, contentType, options);
  }
}
