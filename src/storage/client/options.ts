// The options and results of StorageClient calls, and the endpoint paths it uses.

import type { Job } from "../codecs/job.js";
import type { StorageClientClock } from "./abort.js";
import type { StorageCodecs } from "./codec-hooks.js";
import type { QueryObject } from "./query.js";
import type { ClientTlsOptions, FetchLike } from "./transport.js";

/**
 * A clone token is addressed by its node and its own uuid.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const [node] = await client.nodes.all();
 * const nodeUuid = node!.uuid!;
 * const { record } = await client.cloneTokens.create({ node: { uuid: nodeUuid }, reserve_size: "1G" }, { query: { return_records: true } });
 * if (record) await client.cloneTokens.delete({ nodeUuid, uuid: record.uuid! });
 * client.close();
 * await server.close();
 * ```
 */
export interface CloneTokenKey {
  /** The uuid of the node the token is on. */
  readonly nodeUuid: string;
  /** The token's own uuid. */
  readonly uuid: string;
}

/**
 * Job polling: exponential back-off with jitter, a total timeout and an AbortSignal.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const result = await client.caches.create(
 *   { name: "cache1", svm: { name: "svm2" }, origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }] },
 *   { wait: { timeoutMs: 60_000, onPoll: (job) => console.log(job.state) } },
 * );
 * console.log(result.job?.state); // "success"
 * client.close();
 * await server.close();
 * ```
 */
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
  /** Stops waiting (the job goes on) when aborted. */
  readonly signal?: AbortSignal;
  /** Called with every job record read (e.g. to report progress). */
  readonly onPoll?: (job: Job) => void | Promise<void>;
}

/**
 * Paths of every endpoint the client uses. The upload, history and download ones are not in the API definition; these are upstream's.
 *
 * @example
 * ```ts
 * import { DEFAULT_STORAGE_PATHS, StorageClient } from "clusterwire/storage";
 *
 * // A proxy that serves the API under /storage.
 * const client = new StorageClient({
 *   baseUrl: "https://proxy.example.com",
 *   username: "admin",
 *   password: "secret",
 *   paths: { svms: `/storage${DEFAULT_STORAGE_PATHS.svms}` },
 * });
 * ```
 */
export interface StoragePaths {
  /** The path of clone tokens. */
  readonly cloneTokens: string;
  /** The path of FlexCache volumes. */
  readonly caches: string;
  /** The path of NVMe namespaces. */
  readonly nvmeNamespaces: string;
  /** The path of quota rules. */
  readonly quotaRules: string;
  /** The path of the cluster software. */
  readonly software: string;
  /** The path of software packages. */
  readonly softwarePackages: string;
  /** The path of package downloads. */
  readonly softwareDownload: string;
  /** The path of package uploads. */
  readonly softwareUpload: string;
  /** The path of upgrade history. */
  readonly softwareHistory: string;
  /** The path of jobs. */
  readonly jobs: string;
  /** SVMs, read-only: `GET /api/svm/svms[/<uuid>]`. */
  readonly svms: string;
  /** The cluster's nodes, read-only: `GET /api/cluster/nodes[/<uuid>]`. */
  readonly nodes: string;
}

/**
 * The API paths a {@link StorageClient} uses unless `paths` overrides them.
 *
 * @example
 * ```ts
 * import { DEFAULT_STORAGE_PATHS } from "clusterwire/storage";
 *
 * console.log(DEFAULT_STORAGE_PATHS.caches); // "/api/storage/cache/caches"
 * ```
 */
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
  svms: "/api/svm/svms",
  nodes: "/api/cluster/nodes",
});

/**
 * One line of the optional request log. It never carries headers, bodies or query values.
 *
 * @example
 * ```ts
 * import { StorageClient, type StorageRequestEvent } from "clusterwire/storage";
 *
 * const log = (e: StorageRequestEvent): void => console.log(`${e.method} ${e.path} ${e.status ?? "-"} ${e.durationMs} ms`);
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", logger: log });
 * ```
 */
export interface StorageRequestEvent {
  /** The HTTP method. */
  readonly method: string;
  /** The URL path, without the query. */
  readonly path: string;
  /** HTTP status, or undefined when the request failed without an answer. */
  readonly status: number | undefined;
  /** How long the request took, in ms. */
  readonly durationMs: number;
}

/**
 * Options of {@link StorageClient}: where the cluster is, the credentials, and how requests are made.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 *
 * const client = new StorageClient({
 *   baseUrl: "https://cluster.example.com",
 *   username: "admin",
 *   password: process.env["STORAGE_PASSWORD"] ?? "",
 *   requestTimeoutMs: 30_000,
 *   jobs: { timeoutMs: 300_000 },
 *   logger: (e) => console.log(e.method, e.path, e.status, e.durationMs),
 * });
 * ```
 */
export interface StorageClientOptions {
  /** The cluster's base URL, e.g. `https://cluster.example:443` (the API is at `{baseUrl}/api`). */
  readonly baseUrl: string;
  /** The Basic-auth username. */
  readonly username: string;
  /** The Basic-auth password; never logged, and scrubbed from errors. */
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
  /**
   * The clock of job polling (intervals and the total timeout); default wall-clock time and
   * real timers. Tests pass one that steps time, so that polling never races the machine.
   */
  readonly clock?: StorageClientClock;
  /** Request log (method, path, status, duration; never credentials or bodies). */
  readonly logger?: (event: StorageRequestEvent) => void;
}

/**
 * Options of {@link StorageClient.request}: query, body, signal, time limit and secrets to scrub.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const page = await client.request<{ num_records: number }>("GET", "/api/svm/svms", { query: { fields: "name" }, timeoutMs: 5_000 });
 * console.log(page?.num_records); // 2
 * client.close();
 * await server.close();
 * ```
 */
export interface RequestOptions {
  /** Query parameters. */
  readonly query?: QueryObject;
  /** A JSON body (serialized with JSON.stringify). */
  readonly body?: unknown;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
  /** Overrides the client's per-request time limit. */
  readonly timeoutMs?: number;
  /** Extra values scrubbed from any error this call raises (e.g. a password inside the body). */
  readonly secrets?: readonly string[];
}

/**
 * Options of a create, update or delete: query, signal, time limit, job waiting and secrets to scrub.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * await client.quotaRules.create(
 *   { svm: { name: "svm1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "q2" } },
 *   { query: { return_records: true }, wait: false, timeoutMs: 10_000 },
 * );
 * client.close();
 * await server.close();
 * ```
 */
export interface MutationOptions {
  /** Query parameters, e.g. `return_records` or `return_timeout`. */
  readonly query?: QueryObject;
  /** Aborts the call (and the wait for its job). */
  readonly signal?: AbortSignal;
  /** Overrides the client's per-request time limit. */
  readonly timeoutMs?: number;
  /** Wait for an asynchronous job (default true), optionally with polling options. */
  readonly wait?: boolean | JobWaitOptions;
  /** Extra values scrubbed from any error this call raises. */
  readonly secrets?: readonly string[];
}

/**
 * What a create, update or delete answered: status, body and the jobs it started.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const result = await client.caches.create({ name: "c2", svm: { name: "svm2" }, origins: [{ volume: { name: "vol1" }, svm: { name: "svm1" } }] });
 * console.log(result.status, result.job?.state, result.location); // 202 "success" ...
 * client.close();
 * await server.close();
 * ```
 */
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

/**
 * What a create answered: a {@link MutationResult} and the created record, when asked for with `return_records`.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const { record } = await client.quotaRules.create(
 *   { svm: { name: "svm1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "q1" } },
 *   { query: { return_records: true } },
 * );
 * console.log(record?.uuid);
 * client.close();
 * await server.close();
 * ```
 */
export interface CreateResult<R> extends MutationResult {
  /** The first record of `records` in the answer (with `return_records`), decoded. */
  readonly record: R | undefined;
}

/**
 * Options of a read: an AbortSignal and a time limit.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const controller = new AbortController();
 * const svm = await client.svms.find({ name: "svm1" }, { signal: controller.signal, timeoutMs: 5_000 });
 * client.close();
 * await server.close();
 * ```
 */
export interface CallOptions {
  /** Aborts the call. */
  readonly signal?: AbortSignal;
  /** Overrides the client's per-request time limit. */
  readonly timeoutMs?: number;
}

/**
 * A file for `software.upload`.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const image = new Uint8Array(1024); // a software image, e.g. from readFile
 * await client.software.upload({ filename: "9.17.1_image.tgz", data: image }); // the name carries the version
 * client.close();
 * await server.close();
 * ```
 */
export interface UploadFile {
  /** The file name sent in the multipart part. */
  readonly filename: string;
  /** The file's bytes. */
  readonly data: Uint8Array | ArrayBuffer | Blob;
  /** Default `application/octet-stream`. */
  readonly contentType?: string;
}
