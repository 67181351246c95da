// The options and results of StorageClient calls, and the endpoint paths it uses.

import type { Job } from "../codecs/job.js";
import type { StorageClientClock } from "./abort.js";
import type { StorageCodecs } from "./codec-hooks.js";
import type { QueryObject } from "./query.js";
import type { ClientTlsOptions, FetchLike } from "./transport.js";

/** A clone token is addressed by its node and its own uuid. */
export interface CloneTokenKey {
  readonly nodeUuid: string;
  readonly uuid: string;
}

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

/** Paths of every endpoint the client uses. The upload, history and download ones are not in the API definition; these are upstream's. */
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
  /** SVMs, read-only: `GET /api/svm/svms[/<uuid>]`. */
  readonly svms: string;
  /** The cluster's nodes, read-only: `GET /api/cluster/nodes[/<uuid>]`. */
  readonly nodes: string;
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
  svms: "/api/svm/svms",
  nodes: "/api/cluster/nodes",
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
  /**
   * The clock of job polling (intervals and the total timeout); default wall-clock time and
   * real timers. Tests pass one that steps time, so that polling never races the machine.
   */
  readonly clock?: StorageClientClock;
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

/** A file for `software.upload`. */
export interface UploadFile {
  readonly filename: string;
  readonly data: Uint8Array | ArrayBuffer | Blob;
  /** Default `application/octet-stream`. */
  readonly contentType?: string;
}
