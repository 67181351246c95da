// The codec hook of each resource: the client routes every body through `decode`,
// `encodePost` and `encodePatch` when a hook is set; DEFAULT_CODECS are the codecs of
// clusterwire/storage.

import { cache } from "../codecs/cache.js";
import { cloneToken } from "../codecs/clone-token.js";
import { clusterNode, type ClusterNode } from "../codecs/cluster-node.js";
import { job } from "../codecs/job.js";
import { nvmeNamespace } from "../codecs/nvme-namespace.js";
import { quotaRule } from "../codecs/quota-rule.js";
import { software } from "../codecs/software.js";
import { softwareDownload } from "../codecs/software-download.js";
import { softwareHistory } from "../codecs/software-history.js";
import { softwarePackage } from "../codecs/software-package.js";
import { svm, type Svm } from "../codecs/svm.js";
import type { Cache, CachePatchInput as CacheUpdate, CachePostInput as CacheCreate } from "../codecs/cache.js";
import type {
  CloneToken,
  CloneTokenPatchInput as CloneTokenUpdate,
  CloneTokenPostInput as CloneTokenCreate,
} from "../codecs/clone-token.js";
import type { Job } from "../codecs/job.js";
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
import type { SoftwarePatchInput as SoftwareUpdate, SoftwarePatchQuery, SoftwareProfile } from "../codecs/software.js";
import type {
  SoftwareDownloadInput as SoftwareDownloadRequest,
  SoftwareDownloadProgress,
} from "../codecs/software-download.js";
import type { SoftwareHistoryRecord as SoftwareHistory } from "../codecs/software-history.js";
import type { SoftwarePackage } from "../codecs/software-package.js";

/**
 * A codec hook for one resource. The codecs of `clusterwire/storage` have exactly this shape
 * (`decode`, `encodePost`, `encodePatch`); without a hook bodies pass through unchanged.
 *
 * @example
 * ```ts
 * import { DEFAULT_CODECS, type ResourceCodec, type StorageCodecs, StorageClient, type QuotaRule } from "clusterwire/storage";
 *
 * // Keep the default checks, and also record every quota rule decoded.
 * const seen: QuotaRule[] = [];
 * const quotaRule: ResourceCodec<QuotaRule> = {
 *   decode(json) {
 *     const rule = DEFAULT_CODECS.quotaRule!.decode!(json);
 *     seen.push(rule);
 *     return rule;
 *   },
 * };
 * const codecs: StorageCodecs = { ...DEFAULT_CODECS, quotaRule: { ...DEFAULT_CODECS.quotaRule, ...quotaRule } };
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", codecs });
 * ```
 */
export interface ResourceCodec<R, C = never, U = never> {
  /** Decodes a record of the resource; absent: the JSON is returned as it is. */
  decode?(json: unknown): R;
  /** Writes a POST body; absent: the input is sent as it is. */
  encodePost?(input: C): unknown;
  /** Writes a PATCH body; absent: the input is sent as it is. */
  encodePatch?(input: U): unknown;
}

/**
 * The codec of each resource a {@link StorageClient} uses: {@link DEFAULT_CODECS} by default, `{}` for raw JSON.
 *
 * @example
 * ```ts
 * import { DEFAULT_CODECS, type ResourceCodec, type StorageCodecs, StorageClient, type QuotaRule } from "clusterwire/storage";
 *
 * // Keep the default checks, and also record every quota rule decoded.
 * const seen: QuotaRule[] = [];
 * const quotaRule: ResourceCodec<QuotaRule> = {
 *   decode(json) {
 *     const rule = DEFAULT_CODECS.quotaRule!.decode!(json);
 *     seen.push(rule);
 *     return rule;
 *   },
 * };
 * const codecs: StorageCodecs = { ...DEFAULT_CODECS, quotaRule: { ...DEFAULT_CODECS.quotaRule, ...quotaRule } };
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", codecs });
 * ```
 */
export interface StorageCodecs {
  /** The codec of clone token records and bodies. */
  readonly cloneToken?: ResourceCodec<CloneToken, CloneTokenCreate, CloneTokenUpdate>;
  /** The codec of cache records and bodies. */
  readonly cache?: ResourceCodec<Cache, CacheCreate, CacheUpdate>;
  /** The codec of NVMe namespace records and bodies. */
  readonly nvmeNamespace?: ResourceCodec<NvmeNamespace, NvmeNamespaceCreate, NvmeNamespaceUpdate>;
  /** The codec of quota rule records and bodies. */
  readonly quotaRule?: ResourceCodec<QuotaRule, QuotaRuleCreate, QuotaRuleUpdate>;
  /** The codec of the cluster software profile and bodies. */
  readonly software?: ResourceCodec<SoftwareProfile, never, SoftwareUpdate> & {
    /** Checks and writes the PATCH query flags (`stabilize_minutes` 1..60 and so on). */
    encodePatchQuery?(query: SoftwarePatchQuery): Record<string, string>;
  };
  /** The codec of software package records. */
  readonly softwarePackage?: ResourceCodec<SoftwarePackage>;
  /** The codec of software download and bodies. */
  readonly softwareDownload?: ResourceCodec<SoftwareDownloadProgress, SoftwareDownloadRequest>;
  /** The codec of upgrade history records. */
  readonly softwareHistory?: ResourceCodec<SoftwareHistory>;
  /** The codec of job records. */
  readonly job?: ResourceCodec<Job>;
  /** SVM records (`client.svms`). */
  readonly svm?: ResourceCodec<Svm>;
  /** Node records (`client.nodes`). */
  readonly node?: ResourceCodec<ClusterNode>;
}

/**
 * The codecs the client uses unless told otherwise: request bodies are checked
 * and encoded before anything is sent, and answers are decoded into the models.
 * Pass `codecs: {}` to send and receive raw JSON.
 *
 * @example
 * ```ts
 * import { DEFAULT_CODECS, StorageClient } from "clusterwire/storage";
 *
 * const raw = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", codecs: {} });
 * const checked = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", codecs: DEFAULT_CODECS });
 * ```
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
  svm,
  node: clusterNode,
});
