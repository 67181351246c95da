// StorageClient: a typed client for the storage REST API (Area A of the interface spec),
// following the conventions and decisions of shared/docs/storage-api.md.
//
// Layers:
//   * a generic core — `request` (one call, parsed JSON, errors as StorageApiError), `pages` /
//     `list` (follow `_links.next` as-is, guard against a repeated link), `mutate` (POST /
//     PATCH / DELETE that waits for an asynchronous job) and `waitForJob` (back-off polling with
//     a total timeout and an AbortSignal);
//   * per-resource objects (`cloneTokens`, `caches`, `nvmeNamespaces`, `quotaRules`, `software`)
//     that take and return JSON-shaped objects and route every body through an optional codec
//     hook (`StorageClientOptions.codecs`), so the codecs' `decode` / `encodePost` /
//     `encodePatch` plug in without changing the call sites.
//
// Secrets: the password lives in a private field; the client serializes and inspects as
// `{ baseUrl, username }`; every error message and the data attached to errors are scrubbed of
// the password, the Authorization value and per-call secrets (the download password).

import { inspect } from "node:util";
import { cache } from "../codecs/cache.js";
import { cloneToken } from "../codecs/clone-token.js";
import { StorageApiError, StorageCodecError } from "../codecs/errors.js";
import { job } from "../codecs/job.js";
import { nvmeNamespace } from "../codecs/nvme-namespace.js";
import { quotaRule } from "../codecs/quota-rule.js";
import { software, softwareDownload, softwareHistory, softwarePackage } from "../codecs/software.js";
import { createNodeFetch, encodeMultipart, type ClientTlsOptions, type FetchLike, type FetchResponse } from "./transport.js";
import type { Cache, CachePatchInput as CacheUpdate, CachePostInput as CacheCreate } from "../codecs/cache.js";
import type {
  CloneToken,
  CloneTokenPatchInput as CloneTokenUpdate,
  CloneTokenPostInput as CloneTokenCreate,
} from "../codecs/clone-token.js";
import type { Collection } from "../codecs/collection.js";
import type { Job, JobReference as JobRef } from "../codecs/job.js";
import type {
  NvmeNamespace,
  NvmeNamespacePatchInput as NvmeNamespaceUpdate,
  NvmeNamespacePostInput as NvmeNamespaceCreate,
} from "../codecs/nvme-namespace.js";
import type { QuotaRule, QuotaRulePatchInput as QuotaRuleUpdate, QuotaRulePostInput as QuotaRuleCreate } from "../codecs/quota-rule.js";
import type {
  SoftwareCheck,
  SoftwareDownloadInput as SoftwareDownloadRequest,
  SoftwareDownloadProgress,
  SoftwareHistoryRecord as SoftwareHistory,
  SoftwarePackage,
  SoftwarePatchInput as SoftwareUpdate,
  SoftwarePatchQuery,
  SoftwareProfile,
} from "../codecs/software.js";

/** A clone token is addressed by its node and its own uuid. */
export interface CloneTokenKey {
  readonly nodeUuid: string;
  readonly uuid: string;
}

export type { ClientTlsOptions, FetchInit, FetchLike, FetchResponse } from "./transport.js";

// ---- errors ---------------------------------------------------------------------------------

/** An asynchronous job that ended in `failure` (or another non-success terminal state). */
export class StorageJobError extends Error {
  override readonly name = "StorageJobError";
  readonly uuid: string;
  /** The job's terminal state (`failure`, or e.g. `cancelled` / `expired` from other servers). */
  readonly state: string;
  /** The job's `message` (redacted). */
  readonly jobMessage: string;
  /** The job's integer `code`, when given. */
  readonly code: number | undefined;
  /** The job's `error.code` (a digit string), when given. */
  readonly errorCode: string | undefined;
  /** The job's `description` (`<METHOD> <path>`), when given. */
  readonly description: string | undefined;
  /** The final job record (redacted). */
  readonly job: Job;

  constructor(uuid: string, job: Job) {
    const state = job.state ?? "unknown";
    const message = job.message ?? job.error?.message ?? "";
    const code = job.code ?? job.error?.code;
    const what = job.description === undefined ? `job ${uuid}` : `job ${uuid} (${job.description})`;
    super(`${what} ended in state ${state}${code === undefined ? "" : ` [${code}]`}${message === "" ? "" : `: ${message}`}`);
    this.uuid = uuid;
    this.state = state;
    this.jobMessage = message;
    this.code = job.code;
    this.errorCode = job.error?.code;
    this.description = job.description;
    this.job = job;
  }
}

/** Waiting for a job took longer than the total timeout. The job may still be running server-side. */
export class StorageJobTimeoutError extends Error {
  override readonly name = "StorageJobTimeoutError";
  readonly uuid: string;
  readonly timeoutMs: number;
  /** The last job record read, if any (redacted). */
  readonly lastJob: Job | undefined;

  constructor(uuid: string, timeoutMs: number, lastJob: Job | undefined) {
    const state = lastJob?.state === undefined ? "" : ` (last state ${lastJob.state}${lastJob.message === undefined ? "" : `: ${lastJob.message}`})`;
    super(`job ${uuid} still not finished after ${timeoutMs} ms${state}; it may still be running on the cluster`);
    this.uuid = uuid;
    this.timeoutMs = timeoutMs;
    this.lastJob = lastJob;
  }
}

/** The request never got an HTTP answer: connection, TLS or timeout failure. `cause` holds the original. */
export class StorageNetworkError extends Error {
  override readonly name = "StorageNetworkError";
  /** The request, as `METHOD /api/path`. */
  readonly request: string;
  constructor(request: string, message: string, options?: { cause?: unknown }) {
    super(`${request}: ${message}`, options);
    this.request = request;
  }
}

/** The server answered something the client cannot follow: a non-JSON success body, a repeated or foreign next link, a 202 without a job. */
export class StorageProtocolError extends Error {
  override readonly name = "StorageProtocolError";
  readonly request: string;
  constructor(request: string, message: string) {
    super(`${request}: ${message}`);
    this.request = request;
  }
}

// ---- query ----------------------------------------------------------------------------------

export type QueryScalar = string | number | boolean;
/** A query value; arrays are joined with `,`; nested objects flatten to dotted names (`{svm: {name}}` → `svm.name`). */
export type QueryValue = QueryScalar | readonly QueryScalar[] | QueryObject | undefined;
export interface QueryObject {
  readonly [name: string]: QueryValue;
}
/**
 * Query parameters, by their wire names. Any other key is a filter on that (dotted) field,
 * with the API's operators in the value (`"<10G"`, `"vs1|vs2"`, `"!null"`, `"abc*"`).
 */
export interface Query extends QueryObject {
  /** Field list; `*` = all but expensive, `**` = everything. */
  readonly fields?: string | readonly string[];
  readonly max_records?: number;
  readonly return_records?: boolean;
  /** Seconds, 0..120 (checked before sending; the API rejects other values with 262197). */
  readonly return_timeout?: number;
  readonly order_by?: string | readonly string[];
}

function flattenQuery(query: QueryObject, prefix: string, out: [string, string][]): void {
  for (const [key, value] of Object.entries(query)) {
    const name = prefix === "" ? key : `${prefix}.${key}`;
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      out.push([name, (value as readonly QueryScalar[]).map(String).join(",")]);
    } else if (typeof value === "object") {
      flattenQuery(value as QueryObject, name, out);
    } else {
      out.push([name, String(value)]);
    }
  }
}

function checkQuery(query: QueryObject): void {
  const rt = query["return_timeout"];
  if (rt !== undefined && !(typeof rt === "number" && Number.isInteger(rt) && rt >= 0 && rt <= 120)) {
    throw new StorageCodecError("return_timeout", `must be an integer number of seconds in 0..120, got ${JSON.stringify(rt)}`);
  }
  const mr = query["max_records"];
  if (mr !== undefined && !(typeof mr === "number" && Number.isInteger(mr) && mr >= 1)) {
    throw new StorageCodecError("max_records", `must be a positive integer, got ${JSON.stringify(mr)}`);
  }
}

// Percent-encodes a query component but keeps the API's list and operator characters readable.
function encodeComponent(s: string): string {
  return encodeURIComponent(s).replace(/%2C/g, ",").replace(/%7C/g, "|").replace(/%3A/g, ":");
}

/** Encodes a query (without `?`); "" when empty. Exported for tests and tools. */
export function encodeQuery(query: QueryObject | undefined): string {
  if (query === undefined) return "";
  checkQuery(query);
  const pairs: [string, string][] = [];
  flattenQuery(query, "", pairs);
  return pairs.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join("&");
}

// ---- options --------------------------------------------------------------------------------

/** Job polling: exponential back-off with jitter, a total timeout and an AbortSignal. */
export interface JobWaitOptions {
  /** Total time to wait, default 120 000 ms. */
  readonly timeoutMs?: number;
  /** First poll interval, default 1000 ms. The first poll is immediate. */
  readonly initialIntervalMs?: number;
  /** Interval cap, default 5000 ms. */
  readonly maxIntervalMs?: number;
  /** Interval growth per poll, default √2 (as Trident). */
  readonly backoffFactor?: number;
  /** Relative jitter applied to each interval, default 0.1 (±10 %). */
  readonly jitter?: number;
  /** Consecutive transient failures (network, HTTP 5xx) of a job GET tolerated, default 3. */
  readonly maxPollErrors?: number;
  readonly signal?: AbortSignal;
  /** Called with every job record read (e.g. to report progress). */
  readonly onPoll?: (job: Job) => void | Promise<void>;
}

/** Paths of every endpoint the client uses. The upload, history and download ones are not in the interface spec; these are upstream's (§1.2). */
export interface StoragePaths {
  readonly cloneTokens: string;
  readonly caches: string;
  readonly nvmeNamespaces: string;
  readonly quotaRules: string;
  readonly software: string;
  readonly softwarePackages: string;
  readonly softwareDownload: string;
  readonly softwareUpload: string;
  readonly softwareHistory: string;
  readonly jobs: string;
}

export const DEFAULT_STORAGE_PATHS: StoragePaths = Object.freeze({
  cloneTokens: "/api/storage/file/clone/tokens",
  caches: "/api/storage/cache/caches",
  nvmeNamespaces: "/api/storage/namespaces",
  quotaRules: "/api/storage/quota/rules",
  software: "/api/cluster/software",
  softwarePackages: "/api/cluster/software/packages",
  softwareDownload: "/api/cluster/software/download",
  softwareUpload: "/api/cluster/software/upload",
  softwareHistory: "/api/cluster/software/history",
  jobs: "/api/cluster/jobs",
});

/**
 * A codec hook for one resource. The codecs of `clusterwire/storage` have exactly this shape
 * (`decode`, `encodePost`, `encodePatch`); without a hook bodies pass through unchanged.
 */
export interface ResourceCodec<R, C = never, U = never> {
  decode?(json: unknown): R;
  encodePost?(input: C): unknown;
  encodePatch?(input: U): unknown;
}

export interface StorageCodecs {
  readonly cloneToken?: ResourceCodec<CloneToken, CloneTokenCreate, CloneTokenUpdate>;
  readonly cache?: ResourceCodec<Cache, CacheCreate, CacheUpdate>;
  readonly nvmeNamespace?: ResourceCodec<NvmeNamespace, NvmeNamespaceCreate, NvmeNamespaceUpdate>;
  readonly quotaRule?: ResourceCodec<QuotaRule, QuotaRuleCreate, QuotaRuleUpdate>;
  readonly software?: ResourceCodec<SoftwareProfile, never, SoftwareUpdate> & {
    /** Checks and writes the PATCH query flags (`stabilize_minutes` 1..60 and so on). */
    encodePatchQuery?(query: SoftwarePatchQuery): Record<string, string>;
  };
  readonly softwarePackage?: ResourceCodec<SoftwarePackage>;
  readonly softwareDownload?: ResourceCodec<SoftwareDownloadProgress, SoftwareDownloadRequest>;
  readonly softwareHistory?: ResourceCodec<SoftwareHistory>;
  readonly job?: ResourceCodec<Job>;
}

/**
 * The codecs the client uses unless told otherwise: request bodies are checked
 * and encoded before anything is sent, and answers are decoded into the models.
 * Pass `codecs: {}` to send and receive raw JSON.
 */
export const DEFAULT_CODECS: StorageCodecs = Object.freeze({
  cloneToken,
  cache,
  nvmeNamespace,
  quotaRule,
  software,
  softwarePackage,
  softwareDownload,
  softwareHistory,
  job,
});

/** One line of the optional request log. It never carries headers, bodies or query values. */
export interface StorageRequestEvent {
  readonly method: string;
  /** The URL path, without the query. */
  readonly path: string;
  /** HTTP status, or undefined when the request failed without an answer. */
  readonly status: number | undefined;
  readonly durationMs: number;
}

export interface StorageClientOptions {
  /** The cluster's base URL, e.g. `https://cluster.example:443` (the API is at `{baseUrl}/api`). */
  readonly baseUrl: string;
  readonly username: string;
  readonly password: string;
  /** TLS options; served by a `node:https` transport. Not combinable with `fetch`. */
  readonly tls?: ClientTlsOptions;
  /** A fetch-compatible function, default the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Default `clusterwire`. */
  readonly userAgent?: string;
  /** Allow a plain `http:` baseUrl (loopback tests, the reference server). Default false. */
  readonly allowInsecureHttp?: boolean;
  /** Per-request time limit, default 60 000 ms. Keep it above any `return_timeout` you send. */
  readonly requestTimeoutMs?: number;
  /**
   * Largest answer body read, in bytes; default 64 MiB. A larger answer is cut off and
   * refused with StorageProtocolError (page big collections with `max_records`).
   */
  readonly maxResponseBytes?: number;
  /** Extra headers on every request (e.g. `X-Dot-SVM-Name`). Must not set Authorization. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Defaults for job polling; per-call `wait` options override them. */
  readonly jobs?: Omit<JobWaitOptions, "signal" | "onPoll">;
  /** Path overrides. */
  readonly paths?: Partial<StoragePaths>;
  /** Codec hooks per resource; default {@link DEFAULT_CODECS}, `{}` for raw JSON. */
  readonly codecs?: StorageCodecs;
  /** Request log (method, path, status, duration; never credentials or bodies). */
  readonly logger?: (event: StorageRequestEvent) => void;
}

export interface RequestOptions {
  readonly query?: QueryObject;
  /** A JSON body (serialized with JSON.stringify). */
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Overrides the client's per-request time limit. */
  readonly timeoutMs?: number;
  /** Extra values scrubbed from any error this call raises (e.g. a password inside the body). */
  readonly secrets?: readonly string[];
}

export interface MutationOptions {
  readonly query?: QueryObject;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Wait for an asynchronous job (default true), optionally with polling options. */
  readonly wait?: boolean | JobWaitOptions;
  readonly secrets?: readonly string[];
}

export interface MutationResult<T = unknown> {
  /** The HTTP status of the mutating call (200, 201, 202, 204). */
  readonly status: number;
  /** The parsed response body; undefined when empty. */
  readonly body: T | undefined;
  /** The job, final when waited for; undefined for a synchronous answer. */
  readonly job: Job | undefined;
  /** All jobs (query-based bulk operations answer with `jobs[]`). */
  readonly jobs: readonly Job[];
  /** The `Location` header, when given. */
  readonly location: string | undefined;
}

export interface CreateResult<R> extends MutationResult {
  /** The first record of `records` in the answer (with `return_records`), decoded. */
  readonly record: R | undefined;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

// ---- helpers --------------------------------------------------------------------------------

const TERMINAL_FAILURE_STATES = new Set(["failure", "cancelled", "canceled", "expired"]);
const REDACTED = "<redacted>";
const MIN_SECRET_LENGTH = 3;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function redactString(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === "string") return redactString(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, secrets)) as T;
  if (isObject(value)) {
    // fromEntries defines members: an assignment of a "__proto__" key from the server's JSON
    // would replace the copy's prototype instead (and, e.g., make `state` read "success").
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, secrets)])) as T;
  }
  return value;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Thrown inside #send when an answer passes maxResponseBytes; it becomes a StorageProtocolError. */
class ResponseTooLarge extends Error {
  constructor(readonly status: number, readonly limit: number) {
    super(`answer larger than ${limit} bytes`);
  }
}

/** Reads an answer body, stopping (and cancelling the transfer) once it passes `limit` bytes. */
async function readCapped(res: FetchResponse, limit: number): Promise<string> {
  const body = res.body ?? undefined;
  const stream = body !== undefined && typeof body[Symbol.asyncIterator] === "function" ? body : undefined;
  const declared = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) {
    if (stream !== undefined) cancelBody(stream);
    throw new ResponseTooLarge(res.status, limit);
  }
  if (stream === undefined) {
    const text = await res.text();
    if (Buffer.byteLength(text, "utf8") > limit) throw new ResponseTooLarge(res.status, limit);
    return text;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop by throwing cancels the stream (and with it the connection).
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > limit) throw new ResponseTooLarge(res.status, limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Stops a body nobody will read, closing its connection. Explicitly: `return()` on a Node
 * stream's iterator that was never started does not destroy the stream.
 */
function cancelBody(body: AsyncIterable<Uint8Array>): void {
  const b = body as { destroy?: () => void; cancel?: () => Promise<void> };
  if (typeof b.destroy === "function") b.destroy();
  else if (typeof b.cancel === "function") b.cancel().catch(() => {});
  else void body[Symbol.asyncIterator]().return?.()?.catch(() => {});
}

/** `p`, or the signal's reason as soon as it aborts: a transport that ignores the signal cannot hang a call. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => {});
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** JSON media types: application/json and application/*+json (hal+json). */
function isJsonContentType(value: string): boolean {
  const media = (value.split(";")[0] ?? "").trim().toLowerCase();
  return /^application\/(?:[a-z0-9.+-]*\+)?json$/.test(media);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function positive(name: string, v: number): number {
  if (!(typeof v === "number" && Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive number, got ${String(v)}`);
  return v;
}

/**
 * The floor of the per-request time limit: the query's `return_timeout` plus 15 s, so a
 * server-side wait is never cut short by the client (storage-api.md §3, read timeouts).
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

export class StorageClient {
  /** The base URL as given (normalized, without a trailing slash). */
  readonly baseUrl: string;
  readonly username: string;
  readonly paths: StoragePaths;

  readonly cloneTokens: StorageBulkResource<CloneToken, CloneTokenCreate, CloneTokenUpdate, CloneTokenKey>;
  readonly caches: StorageBulkResource<Cache, CacheCreate, CacheUpdate, string>;
  readonly nvmeNamespaces: StorageBulkResource<NvmeNamespace, NvmeNamespaceCreate, NvmeNamespaceUpdate, string>;
  readonly quotaRules: StorageBulkResource<QuotaRule, QuotaRuleCreate, QuotaRuleUpdate, string>;
  readonly software: SoftwareApi;

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

  constructor(options: StorageClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError("StorageClient: baseUrl is not a valid URL");
    }
    if (url.username !== "" || url.password !== "") throw new TypeError("StorageClient: baseUrl must not carry credentials; use username and password");
    if (url.search !== "" || url.hash !== "") throw new TypeError("StorageClient: baseUrl must not have a query or fragment");
    if (url.protocol === "http:") {
      if (options.allowInsecureHttp !== true) {
        throw new TypeError("StorageClient: refusing plain http: the password would travel in clear; use https or set allowInsecureHttp: true");
      }
    } else if (url.protocol !== "https:") {
      throw new TypeError(`StorageClient: unsupported protocol ${url.protocol}`);
    }
    if (typeof options.username !== "string" || options.username === "") throw new TypeError("StorageClient: username is required");
    if (options.username.includes(":")) throw new TypeError("StorageClient: username must not contain ':' (HTTP Basic)");
    if (typeof options.password !== "string") throw new TypeError("StorageClient: password must be a string");
    if (options.tls !== undefined && options.fetch !== undefined) {
      throw new TypeError("StorageClient: tls options apply to the built-in transport; configure TLS inside your fetch instead");
    }
    for (const name of Object.keys(options.headers ?? {})) {
      if (name.toLowerCase() === "authorization") throw new TypeError("StorageClient: headers must not set Authorization");
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
    this.paths = Object.freeze({ ...DEFAULT_STORAGE_PATHS, ...options.paths });

    const seg = encodeURIComponent;
    this.cloneTokens = new StorageBulkResource(this, this.paths.cloneTokens, (k: CloneTokenKey) => `${seg(k.nodeUuid)}/${seg(k.uuid)}`, codecs.cloneToken ?? {});
    this.caches = new StorageBulkResource(this, this.paths.caches, (k: string) => seg(k), codecs.cache ?? {});
    this.nvmeNamespaces = new StorageBulkResource(this, this.paths.nvmeNamespaces, (k: string) => seg(k), codecs.nvmeNamespace ?? {});
    this.quotaRules = new StorageBulkResource(this, this.paths.quotaRules, (k: string) => seg(k), codecs.quotaRule ?? {});
    this.software = new SoftwareApi(this, codecs);
  }

  // -- redaction --

  toJSON(): { baseUrl: string; username: string } {
    return { baseUrl: this.baseUrl, username: this.username };
  }
  toString(): string {
    return `StorageClient(${this.baseUrl}, user ${this.username})`;
  }
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
    if (!path.startsWith("/")) throw new TypeError(`StorageClient: path must start with '/', got ${JSON.stringify(path)}`);
    const qs = encodeQuery(query);
    const sep = path.includes("?") ? "&" : "?";
    return new URL(`${this.#origin}${this.#basePath}${path}${qs === "" ? "" : sep + qs}`);
  }

  /** Resolves a HAL href (`/api/...`, as-is, query included) against the base; refuses other origins. */
  #resolveLink(href: string, request: string): URL {
    if (href.startsWith("/") && !href.startsWith("//")) {
      const path = this.#basePath !== "" && href.startsWith(`${this.#basePath}/`) ? href.slice(this.#basePath.length) : href;
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
      throw new StorageProtocolError(request, `refusing a link to another origin (${shown(href)}); credentials are sent only to ${this.#origin}`);
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
        this.#logger?.({ method: init.method, path: init.url.pathname, status: err.status, durationMs: Date.now() - started });
        throw new StorageProtocolError(request, `HTTP ${err.status} with an answer larger than ${err.limit} bytes (maxResponseBytes); it was not read to the end`);
      }
      this.#logger?.({ method: init.method, path: init.url.pathname, status: undefined, durationMs: Date.now() - started });
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
      const safe = !secrets.some((x) => x.length >= MIN_SECRET_LENGTH && causeText.includes(x)) && !causeText.includes(REDACTED);
      throw new StorageNetworkError(request, redactString(`network error: ${errorText(err)}`, secrets), safe ? { cause: err } : {});
    }
    this.#logger?.({ method: init.method, path: init.url.pathname, status: res.status, durationMs: Date.now() - started });

    let json: unknown = undefined;
    let parsed = true;
    if (text.trim() !== "") {
      try {
        json = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }
    if (res.status < 200 || res.status >= 300) throw this.#apiError(res, request, parsed ? json : undefined, parsed ? "" : text, secrets);
    const contentType = res.headers.get("content-type");
    const shownType = contentType === null ? "no content-type" : redactString(contentType, secrets).slice(0, 100);
    if (!parsed) throw new StorageProtocolError(request, `HTTP ${res.status} with a body that is not JSON (${shownType})`);
    // A body that parses as JSON under another declared type (an HTML page "[1]", a proxy's
    // text) is not the API's answer; no Content-Type at all is tolerated.
    if (text.trim() !== "" && contentType !== null && !isJsonContentType(contentType)) {
      throw new StorageProtocolError(request, `HTTP ${res.status} with Content-Type ${shownType}, not JSON`);
    }
    return { status: res.status, json, headers: res.headers, request };
  }

  #apiError(res: FetchResponse, request: string, json: unknown, rawText: string, secrets: readonly string[]): StorageApiError {
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
    return options.body === undefined ? {} : { body: JSON.stringify(options.body) };
  }

  /** One call; resolves to the parsed JSON body (undefined when empty). Errors: StorageApiError, StorageNetworkError, StorageProtocolError. */
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
  async *pages<T = unknown>(path: string, query?: QueryObject, options: CallOptions = {}): AsyncGenerator<Collection<T>, void, undefined> {
    let url: URL | undefined = this.url(path, query);
    const seen = new Set<string>();
    while (url !== undefined) {
      seen.add(url.href);
      const res = await this.#send({ method: "GET", url, signal: options.signal, timeoutMs: options.timeoutMs, minTimeoutMs: minTimeoutFor(query) });
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
        throw new StorageProtocolError(res.request, `the server repeated the next link ${shown}; stopping to avoid an endless loop`);
      }
      url = nextUrl;
    }
  }

  /** The records of a collection, lazily, across all pages. */
  async *list<T = unknown>(path: string, query?: QueryObject, options: CallOptions & { readonly decode?: (json: unknown) => T } = {}): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages<unknown>(path, query, options)) {
      for (const r of page.records ?? []) yield options.decode === undefined ? (r as T) : options.decode(r);
    }
  }

  /** `num_records` of a collection query (`return_records=false`). */
  async count(path: string, query?: QueryObject, options: CallOptions = {}): Promise<number> {
    const body = await this.request<Collection<unknown>>("GET", path, { query: { ...query, return_records: false }, ...options });
    const n = body?.num_records;
    if (typeof n !== "number") throw new StorageProtocolError(`GET ${path}`, "a count answer must carry num_records");
    return n;
  }

  /** POST / PATCH / DELETE; waits for the answer's job(s) unless `wait: false`. */
  mutate<T = unknown>(method: "POST" | "PATCH" | "DELETE", path: string, options: MutationOptions & { readonly body?: unknown } = {}): Promise<MutationResult<T>> {
    return this.#mutate<T>(method, path, this.#body(options), undefined, options);
  }

  async #mutate<T>(method: string, path: string, payload: { body?: string | Uint8Array }, contentType: string | undefined, options: MutationOptions): Promise<MutationResult<T>> {
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
    if (res.status === 202 && refs.length === 0) throw new StorageProtocolError(res.request, "HTTP 202 Accepted without a job in the body");
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
    return { status: res.status, body: res.json as T | undefined, job: jobs[0], jobs, location: res.headers.get("location") ?? undefined };
  }

  /** Reads one job record. */
  async getJob(uuid: string, options: CallOptions = {}): Promise<Job> {
    const json = await this.request("GET", `${this.paths.jobs}/${encodeURIComponent(uuid)}`, options);
    if (!isObject(json)) throw new StorageProtocolError(`GET ${this.paths.jobs}/${uuid}`, "a job answer must be an object");
    return this.#jobCodec.decode === undefined ? (json as unknown as Job) : this.#jobCodec.decode(json);
  }

  /**
   * Polls `/api/cluster/jobs/<uuid>` until `success` (resolves to the job) or a failure state
   * (StorageJobError); StorageJobTimeoutError after the total timeout; rejects with the
   * signal's reason when aborted.
   */
  async waitForJob(uuid: string, options: JobWaitOptions & { readonly secrets?: readonly string[] } = {}): Promise<Job> {
    const o = { ...this.#jobDefaults, ...options };
    const timeoutMs = positive("timeoutMs", o.timeoutMs ?? 120_000);
    const maxInterval = positive("maxIntervalMs", o.maxIntervalMs ?? 5_000);
    let interval = Math.min(positive("initialIntervalMs", o.initialIntervalMs ?? 1_000), maxInterval);
    const factor = o.backoffFactor ?? Math.SQRT2;
    if (!(factor >= 1)) throw new RangeError(`backoffFactor must be >= 1, got ${String(factor)}`);
    const jitter = Math.min(Math.max(o.jitter ?? 0.1, 0), 0.5);
    const maxPollErrors = o.maxPollErrors ?? 3;
    const secrets = this.#secrets(options.secrets);
    const deadline = Date.now() + timeoutMs;
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
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new StorageJobTimeoutError(uuid, timeoutMs, last);
      const jittered = interval * (1 + (Math.random() * 2 - 1) * jitter);
      await sleep(Math.max(0, Math.min(jittered, remaining)), o.signal);
      interval = Math.min(interval * factor, maxInterval);
    }
  }

  /** POSTs a multipart/form-data body with one file part; waits for the job like `mutate`. */
  async postFile(path: string, file: UploadFile, options: MutationOptions & { readonly field?: string } = {}): Promise<MutationResult> {
    const data =
      file.data instanceof Uint8Array ? file.data : file.data instanceof ArrayBuffer ? new Uint8Array(file.data) : new Uint8Array(await file.data.arrayBuffer());
    const { body, contentType } = encodeMultipart([
      { field: options.field ?? "file", filename: file.filename, data, ...(file.contentType === undefined ? {} : { contentType: file.contentType }) },
    ]);
    return this.#mutate("POST", path, { body }, contentType, options);
  }
}

/** A file for `software.upload`. */
export interface UploadFile {
  readonly filename: string;
  readonly data: Uint8Array | ArrayBuffer | Blob;
  /** Default `application/octet-stream`. */
  readonly contentType?: string;
}

// ---- resources ------------------------------------------------------------------------------

/** A read-only collection: list, count, find. */
export class StorageCollectionApi<R> {
  readonly #client: StorageClient;
  readonly #path: string;
  readonly #decode: ((json: unknown) => R) | undefined;

  constructor(client: StorageClient, path: string, decode: ((json: unknown) => R) | undefined) {
    this.#client = client;
    this.#path = path;
    this.#decode = decode;
  }

  get path(): string {
    return this.#path;
  }

  protected decode(json: unknown): R {
    return this.#decode === undefined ? (json as R) : this.#decode(json);
  }

  /** All matching records across pages. `query` takes `fields`, `max_records`, `order_by`, `return_timeout` and dotted filters. */
  list(query?: Query, options: CallOptions = {}): AsyncGenerator<R, void, undefined> {
    return this.#client.list<R>(this.#path, query, { ...options, decode: (j) => this.decode(j) });
  }

  /** Collects `list` into an array. */
  async all(query?: Query, options: CallOptions = {}): Promise<R[]> {
    const out: R[] = [];
    for await (const r of this.list(query, options)) out.push(r);
    return out;
  }

  count(query?: Query, options: CallOptions = {}): Promise<number> {
    return this.#client.count(this.#path, query, options);
  }

  /** The one record matching `query` (default `fields=*`), undefined if none; throws if several. */
  async find(query: Query = {}, options: CallOptions = {}): Promise<R | undefined> {
    const found: R[] = [];
    for await (const r of this.list({ fields: "*", ...query }, options)) {
      found.push(r);
      if (found.length > 1) throw new StorageProtocolError(`GET ${this.#path}`, "find matched more than one record");
    }
    return found[0];
  }
}

/** A resource with list / get / create / update / delete. K is its key (a uuid, or node uuid + uuid for clone tokens). */
export class StorageResource<R, C, U, K> extends StorageCollectionApi<R> {
  readonly #client: StorageClient;
  readonly #instance: (key: K) => string;
  readonly #codec: ResourceCodec<R, C, U>;

  constructor(client: StorageClient, path: string, instance: (key: K) => string, codec: ResourceCodec<R, C, U>) {
    super(client, path, codec.decode === undefined ? undefined : (j) => codec.decode!(j));
    this.#client = client;
    this.#instance = instance;
    this.#codec = codec;
  }

  /** The instance path of a key. */
  instancePath(key: K): string {
    return `${this.path}/${this.#instance(key)}`;
  }

  async get(key: K, query?: Query, options: CallOptions = {}): Promise<R> {
    const json = await this.#client.request("GET", this.instancePath(key), { ...(query === undefined ? {} : { query }), ...options });
    return this.decode(json);
  }

  /** POST; the body goes through the codec's `encodePost` when one is set. Waits for a job. */
  async create(input: C, options: MutationOptions = {}): Promise<CreateResult<R>> {
    const body = this.#codec.encodePost === undefined ? input : this.#codec.encodePost(input);
    const result = await this.#client.mutate("POST", this.path, { ...options, body });
    const records = isObject(result.body) && Array.isArray(result.body["records"]) ? (result.body["records"] as unknown[]) : [];
    return { ...result, record: records[0] === undefined ? undefined : this.decode(records[0]) };
  }

  /** A PATCH body: the input through the codec's `encodePatch` when one is set. */
  protected patchBody(input: U): unknown {
    return this.#codec.encodePatch === undefined ? input : this.#codec.encodePatch(input);
  }

  /** PATCH; the body goes through `encodePatch` when set. Waits for a job. */
  update(key: K, input: U, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#client.mutate("PATCH", this.instancePath(key), { ...options, body: this.patchBody(input) });
  }

  delete(key: K, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#client.mutate("DELETE", this.instancePath(key), options);
  }
}

/** Options of {@link StorageBulkResource.updateMatching} and {@link StorageBulkResource.deleteMatching}. */
export interface BulkOptions extends MutationOptions {
  /**
   * Allow a query without any filter: the change then applies to every record of the
   * collection (sent as the filter `uuid=*`, since a collection PATCH/DELETE needs one).
   * Default false: a query without filters is refused before anything is sent.
   */
  readonly all?: boolean;
}

export interface BulkResult extends MutationResult {
  /** `num_records` of the answer: how many records matched the query (undefined when the server gave none). */
  readonly numRecords: number | undefined;
}

/** Query parameters that are not filters: a bulk query made only of these matches everything. */
const NON_FILTER_PARAMS = new Set(["fields", "max_records", "return_records", "return_timeout", "order_by", "ignore_unknown_fields"]);

/** The filters of a query (dotted name → value), without the control parameters. */
export function queryFilters(query: QueryObject): [string, string][] {
  const pairs: [string, string][] = [];
  flattenQuery(query, "", pairs);
  return pairs.filter(([name]) => !NON_FILTER_PARAMS.has(name));
}

/**
 * A resource that also supports PATCH and DELETE by query on its collection (storage-api.md
 * §1.4 Bulk; the spec: "Deleting or patching a collection by query applies to all records
 * matching the query"). Every job the server answers with (`jobs[]`) is waited for, unless
 * `wait: false`.
 */
export class StorageBulkResource<R, C, U, K> extends StorageResource<R, C, U, K> {
  readonly #client: StorageClient;

  constructor(client: StorageClient, path: string, instance: (key: K) => string, codec: ResourceCodec<R, C, U>) {
    super(client, path, instance, codec);
    this.#client = client;
  }

  /** The query to send (`options.query` merged in); refuses one without filters unless `all`. */
  #bulkQuery(query: Query, options: BulkOptions): QueryObject {
    const merged: QueryObject = { ...options.query, ...query };
    if (queryFilters(merged).length > 0) return merged;
    if (options.all !== true) {
      throw new StorageCodecError("query", "names no filter, so it would change every record of the collection; add a filter or pass { all: true }");
    }
    return { ...merged, uuid: "*" };
  }

  async #bulk(method: "PATCH" | "DELETE", query: QueryObject, body: unknown, options: BulkOptions): Promise<BulkResult> {
    const { all: _all, ...rest } = options;
    const result = await this.#client.mutate(method, this.path, { ...rest, query, ...(body === undefined ? {} : { body }) });
    const n = isObject(result.body) ? result.body["num_records"] : undefined;
    return { ...result, numRecords: typeof n === "number" ? n : undefined };
  }

  /**
   * PATCHes every record matching `query` (filters such as `{ svm: { name: "vs1" } }` or
   * `{ name: "cache*" }`) with one body, routed through the codec's `encodePatch`. Waits for
   * every job. A query without filters is refused unless `{ all: true }`.
   */
  async updateMatching(query: Query, input: U, options: BulkOptions = {}): Promise<BulkResult> {
    const q = this.#bulkQuery(query, options);
    return this.#bulk("PATCH", q, this.patchBody(input), options);
  }

  /** DELETEs every record matching `query`. Waits for every job. A query without filters is refused unless `{ all: true }`. */
  async deleteMatching(query: Query, options: BulkOptions = {}): Promise<BulkResult> {
    return this.#bulk("DELETE", this.#bulkQuery(query, options), undefined, options);
  }
}

/** PATCH query flags of `/api/cluster/software` (§1.5). Others can go in `query`. */
export interface SoftwarePatchOptions extends MutationOptions {
  readonly skipWarnings?: boolean;
  /** 1..60, default 8 (server side). */
  readonly stabilizeMinutes?: number;
  readonly estimateOnly?: boolean;
  readonly nodesToUpdate?: readonly string[];
}

export interface SoftwareValidation {
  /** True when validation found no `error` entry. */
  readonly ok: boolean;
  readonly job: Job | undefined;
  readonly profile: SoftwareProfile;
  readonly errors: readonly SoftwareCheck[];
  readonly warnings: readonly SoftwareCheck[];
}

export interface DownloadOptions extends MutationOptions {
  /** Called after each job poll with the download progress (`GET .../download`) and the job. */
  readonly onProgress?: (progress: SoftwareDownloadProgress, job: Job | undefined) => void | Promise<void>;
}

export interface DownloadResult extends MutationResult {
  /** The progress read after the job ended. */
  readonly progress: SoftwareDownloadProgress;
}

/** `/api/cluster/software` and its sub-resources. */
export class SoftwareApi {
  readonly #client: StorageClient;
  readonly #codec: NonNullable<StorageCodecs["software"]>;
  readonly #downloadCodec: ResourceCodec<SoftwareDownloadProgress, SoftwareDownloadRequest>;
  /** `/api/cluster/software/packages`: list, get(version), delete(version). */
  readonly packages: StorageResource<SoftwarePackage, never, never, string>;
  /** `/api/cluster/software/history` (read-only collection). */
  readonly history: StorageCollectionApi<SoftwareHistory>;

  constructor(client: StorageClient, codecs: StorageCodecs) {
    this.#client = client;
    this.#codec = codecs.software ?? {};
    this.#downloadCodec = codecs.softwareDownload ?? {};
    this.packages = new StorageResource(client, client.paths.softwarePackages, (v: string) => encodeURIComponent(v), codecs.softwarePackage ?? {});
    const historyCodec = codecs.softwareHistory;
    this.history = new StorageCollectionApi(client, client.paths.softwareHistory, historyCodec?.decode === undefined ? undefined : (j) => historyCodec.decode!(j));
  }

  /** The software profile. */
  async get(query?: Query, options: CallOptions = {}): Promise<SoftwareProfile> {
    const json = await this.#client.request("GET", this.#client.paths.software, { ...(query === undefined ? {} : { query }), ...options });
    return this.#codec.decode === undefined ? (json as SoftwareProfile) : this.#codec.decode(json);
  }

  /** PATCH `/api/cluster/software` with a body and the query flags. Waits for the job. */
  update(input: SoftwareUpdate, options: SoftwarePatchOptions = {}): Promise<MutationResult> {
    const body = this.#codec.encodePatch === undefined ? input : this.#codec.encodePatch(input);
    const flags: SoftwarePatchQuery = {
      ...(options.skipWarnings !== undefined ? { skip_warnings: options.skipWarnings } : {}),
      ...(options.stabilizeMinutes !== undefined ? { stabilize_minutes: options.stabilizeMinutes } : {}),
      ...(options.estimateOnly !== undefined ? { estimate_only: options.estimateOnly } : {}),
      ...(options.nodesToUpdate !== undefined ? { nodes_to_update: options.nodesToUpdate } : {}),
    };
    // Through the codec when there is one, so a bad flag fails before anything is sent.
    const encoded = this.#codec.encodePatchQuery === undefined ? flags : this.#codec.encodePatchQuery(flags);
    const query: Record<string, QueryValue> = { ...options.query, ...(encoded as Record<string, QueryValue>) };
    return this.#client.mutate("PATCH", this.#client.paths.software, { ...options, query, body });
  }

  /**
   * Validates a version (`validate_only=true`), waits, then reads the profile's
   * `validation_results`. A job failure explained by `error` entries resolves with `ok: false`;
   * any other failure throws.
   */
  async validate(version: string, options: SoftwarePatchOptions = {}): Promise<SoftwareValidation> {
    let job: Job | undefined;
    let failure: StorageJobError | undefined;
    try {
      job = (await this.update({ version }, { ...options, query: { ...options.query, validate_only: true } })).job;
    } catch (err) {
      if (!(err instanceof StorageJobError)) throw err;
      failure = err;
      job = err.job;
    }
    const profile = await this.get(undefined, options.signal === undefined ? {} : { signal: options.signal });
    const results = profile.validation_results ?? [];
    const errors = results.filter((r) => r.status === "error");
    const warnings = results.filter((r) => r.status === "warning");
    if (failure !== undefined && errors.length === 0) throw failure;
    return { ok: errors.length === 0, job, profile, errors, warnings };
  }

  /** Starts the update to `version` (validate first). Waits for the job the PATCH returns. */
  install(version: string, options: SoftwarePatchOptions = {}): Promise<MutationResult> {
    return this.update({ version }, options);
  }

  /** `PATCH /api/cluster/software?action=<action>` with an empty body. */
  #action(action: "pause" | "resume" | "cancel", options: MutationOptions): Promise<MutationResult> {
    return this.#client.mutate("PATCH", this.#client.paths.software, { ...options, query: { ...options.query, action }, body: {} });
  }
  pause(options: MutationOptions = {}): Promise<MutationResult> {
    return this.#action("pause", options);
  }
  resume(options: MutationOptions = {}): Promise<MutationResult> {
    return this.#action("resume", options);
  }
  cancel(options: MutationOptions = {}): Promise<MutationResult> {
    return this.#action("cancel", options);
  }

  /** The download progress (`GET .../download`). */
  async downloadProgress(options: CallOptions = {}): Promise<SoftwareDownloadProgress> {
    const json = await this.#client.request("GET", this.#client.paths.softwareDownload, options);
    return this.#downloadCodec.decode === undefined ? (json as SoftwareDownloadProgress) : this.#downloadCodec.decode(json);
  }

  /**
   * Starts a package download (`POST .../download`), polls the job and reports progress. The
   * request's password is scrubbed from every error.
   */
  async download(request: SoftwareDownloadRequest, options: DownloadOptions = {}): Promise<DownloadResult> {
    const body = this.#downloadCodec.encodePost === undefined ? request : this.#downloadCodec.encodePost(request);
    const secrets = [...(options.secrets ?? []), ...(request.password === undefined ? [] : [request.password])];
    const onProgress = options.onProgress;
    const signal = options.signal;
    const call: CallOptions = signal === undefined ? {} : { signal };
    let wait: boolean | JobWaitOptions = options.wait ?? true;
    if (wait !== false && onProgress !== undefined) {
      const base: JobWaitOptions = wait === true ? {} : wait;
      wait = {
        ...base,
        onPoll: async (job) => {
          await base.onPoll?.(job);
          if (job.state !== "success" && job.state !== "failure") await onProgress(await this.downloadProgress(call), job);
        },
      };
    }
    const result = await this.#client.mutate("POST", this.#client.paths.softwareDownload, { ...options, wait, body, secrets });
    const progress = await this.downloadProgress(call);
    await onProgress?.(progress, result.job);
    return { ...result, progress };
  }

  /** Uploads one package file (`multipart/form-data`, part `file`) and waits for the job. */
  upload(file: UploadFile, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#client.postFile(this.#client.paths.softwareUpload, file, options);
  }
}
