// The codec hook of each resource: the client routes every body through `decode`,
// `encodePost` and `encodePatch` when a hook is set; DEFAULT_CODECS are the codecs of
// clusterwire/storage.

import { cache } from "../codecs/cache.js";
import { cloneToken } from "../codecs/clone-token.js";
import { clusterNode, type ClusterNode } from "../codecs/cluster-node.js";
import { job } from "../codecs/job.js";
import { nvmeNamespace } from "../codecs/nvme-namespace.js";
import { quotaRule } from "../codecs/quota-rule.js";
import { software, softwareDownload, softwareHistory, softwarePackage } from "../codecs/software.js";
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
import type {
  SoftwareDownloadInput as SoftwareDownloadRequest,
  SoftwareDownloadProgress,
  SoftwareHistoryRecord as SoftwareHistory,
  SoftwarePackage,
  SoftwarePatchInput as SoftwareUpdate,
  SoftwarePatchQuery,
  SoftwareProfile,
} from "../codecs/software.js";

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
  /** SVM records (`client.svms`). */
  readonly svm?: ResourceCodec<Svm>;
  /** Node records (`client.nodes`). */
  readonly node?: ResourceCodec<ClusterNode>;
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
  svm,
  node: clusterNode,
});
