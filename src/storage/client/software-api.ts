// `/api/cluster/software` and its sub-resources: profile, validate/install, pause/resume/cancel,
// package download with progress, upload, packages and history.

import type { Job } from "../codecs/job.js";
import type {
  SoftwareCheck,
  SoftwarePatchInput as SoftwareUpdate,
  SoftwarePatchQuery,
  SoftwareProfile,
} from "../codecs/software.js";
import type {
  SoftwareDownloadInput as SoftwareDownloadRequest,
  SoftwareDownloadProgress,
} from "../codecs/software-download.js";
import type { SoftwareHistoryRecord as SoftwareHistory } from "../codecs/software-history.js";
import type { SoftwarePackage } from "../codecs/software-package.js";
import type { ResourceCalls } from "./resource-calls.js";
import type { ResourceCodec, StorageCodecs } from "./codec-hooks.js";
import { StorageJobError } from "./errors.js";
import type { CallOptions, JobWaitOptions, MutationOptions, MutationResult, UploadFile } from "./options.js";
import type { Query, QueryValue } from "./query.js";
import { StorageCollectionApi, StorageResource } from "./resources.js";

/**
 * PATCH query flags of `/api/cluster/software`, as upstream documents them. Others can go in `query`.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * await client.software.validate("9.15.1"); // the server asks for validation first
 * await client.software.install("9.15.1", { skipWarnings: true, stabilizeMinutes: 1, wait: false });
 * client.close();
 * await server.close();
 * ```
 */
export interface SoftwarePatchOptions extends MutationOptions {
  /** Go on despite validation warnings. */
  readonly skipWarnings?: boolean;
  /** 1..60, default 8 (server side). */
  readonly stabilizeMinutes?: number;
  /** Only estimate the upgrade's duration. */
  readonly estimateOnly?: boolean;
  /** Upgrade only these nodes, by name. */
  readonly nodesToUpdate?: readonly string[];
}

/**
 * What {@link SoftwareApi.validate} found: whether the version can be installed, and the checks' warnings and
 * errors.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const { ok, errors, warnings } = await client.software.validate("9.16.1");
 * console.log(ok, errors.map((e) => e.issue?.message ?? e.update_check)); // false [...]
 * client.close();
 * await server.close();
 * ```
 */
export interface SoftwareValidation {
  /** True when validation found no `error` entry. */
  readonly ok: boolean;
  /** The validation job, when one ran. */
  readonly job: Job | undefined;
  /** The software profile after validation. */
  readonly profile: SoftwareProfile;
  /** The checks that failed with an error. */
  readonly errors: readonly SoftwareCheck[];
  /** The checks that gave a warning. */
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

/**
 * `/api/cluster/software` and its sub-resources.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * const profile = await client.software.get();
 * const check = await client.software.validate("9.15.1");
 * console.log(profile.version, check.ok, check.warnings.length); // "9.14.1" true 1
 * const packages = await client.software.packages.all();
 * console.log(packages.map((p) => p.version));
 * client.close();
 * await server.close();
 * ```
 */
export class SoftwareApi {
  readonly #client: ResourceCalls;
  readonly #codec: NonNullable<StorageCodecs["software"]>;
  readonly #downloadCodec: ResourceCodec<SoftwareDownloadProgress, SoftwareDownloadRequest>;
  /** `/api/cluster/software/packages`: list, get(version), delete(version). */
  readonly packages: StorageResource<SoftwarePackage, never, never, string>;
  /** `/api/cluster/software/history` (read-only collection). */
  readonly history: StorageCollectionApi<SoftwareHistory>;

  constructor(client: ResourceCalls, codecs: StorageCodecs) {
    this.#client = client;
    this.#codec = codecs.software ?? {};
    this.#downloadCodec = codecs.softwareDownload ?? {};
    this.packages = new StorageResource(
      client,
      client.paths.softwarePackages,
      (v: string) => encodeURIComponent(v),
      codecs.softwarePackage ?? {},
    );
    const historyCodec = codecs.softwareHistory;
    this.history = new StorageCollectionApi(
      client,
      client.paths.softwareHistory,
      historyCodec?.decode === undefined ? undefined : (j) => historyCodec.decode!(j),
    );
  }

  /** The software profile. */
  async get(query?: Query, options: CallOptions = {}): Promise<SoftwareProfile> {
    const json = await this.#client.request("GET", this.#client.paths.software, {
      ...(query === undefined ? {} : { query }),
      ...options,
    });
    return this.#codec.decode === undefined ? (json as SoftwareProfile) : this.#codec.decode(json);
  }

  /**
   * PATCH `/api/cluster/software` with a body and the query flags. Waits for the job. A body or
   * flag the codec refuses rejects the promise, as every failure does; nothing is sent.
   */
  async update(input: SoftwareUpdate, options: SoftwarePatchOptions = {}): Promise<MutationResult> {
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
    return this.#client.mutate("PATCH", this.#client.paths.software, {
      ...options,
      query: { ...options.query, action },
      body: {},
    });
  }
  /** Pauses the upgrade in progress. */
  pause(options: MutationOptions = {}): Promise<MutationResult> {
    return this.#action("pause", options);
  }
  /** Resumes a paused upgrade. */
  resume(options: MutationOptions = {}): Promise<MutationResult> {
    return this.#action("resume", options);
  }
  /** Cancels the upgrade in progress. */
  cancel(options: MutationOptions = {}): Promise<MutationResult> {
    return this.#action("cancel", options);
  }

  /** The download progress (`GET .../download`). */
  async downloadProgress(options: CallOptions = {}): Promise<SoftwareDownloadProgress> {
    const json = await this.#client.request("GET", this.#client.paths.softwareDownload, options);
    return this.#downloadCodec.decode === undefined
      ? (json as SoftwareDownloadProgress)
      : this.#downloadCodec.decode(json);
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
          if (job.state !== "success" && job.state !== "failure")
            await onProgress(await this.downloadProgress(call), job);
        },
      };
    }
    const result = await this.#client.mutate("POST", this.#client.paths.softwareDownload, {
      ...options,
      wait,
      body,
      secrets,
    });
    const progress = await this.downloadProgress(call);
    await onProgress?.(progress, result.job);
    return { ...result, progress };
  }

  /** Uploads one package file (`multipart/form-data`, part `file`) and waits for the job. */
  upload(file: UploadFile, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#client.postFile(this.#client.paths.softwareUpload, file, options);
  }
}
