/**
 * Typed models, JSON codecs and a client for the storage cluster's REST API: clone tokens,
 * FlexCache volumes, NVMe namespaces, quota rules, the cluster software, jobs, SVMs and nodes.
 * The reference server to test against is `clusterwire/storage/server`.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 *
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret" });
 * for await (const rule of client.quotaRules.list({ "volume.name": "vol1" })) console.log(rule.uuid, rule.space);
 * ```
 *
 * @packageDocumentation
 */
// clusterwire/storage: typed models and JSON codecs for the storage-cluster REST API
// (clone tokens, caches, software, NVMe namespaces, quota rules and jobs). Re-exports only.
// The reference server is not re-exported here: it is `clusterwire/storage/server`, so that
// importing the client never loads node:http, node:https or node:net through the server.

export { StorageApiError, StorageCodecError } from "./codecs/errors.js";
export { formatDuration, formatSize, parseDuration, parseSize } from "./codecs/units.js";
export {
  PACKAGE_DELETE_ERRORS,
  PACKAGE_TRANSFER_ERRORS,
  PACKAGE_UPLOAD_ERRORS,
  STORAGE_ERROR_CODES,
  describeErrorCode,
  type PackageDeleteErrorName,
  type PackageTransferErrorName,
  type PackageUploadErrorName,
  type StorageErrorCode,
  type StorageErrorCodeInfo,
  type StorageErrorName,
  type StorageErrorTable,
} from "./codecs/error-codes.js";
export type { JsonObject, JsonValue } from "./codecs/schema.js";
export type { Lenient, Link, Links, Reference, ReferenceInput, SizeInput, WithLinks } from "./codecs/common.js";
export {
  CLONE_TOKEN_DEFAULT_LIMIT,
  CLONE_TOKEN_LIMIT_RANGE,
  CLONE_TOKEN_MIN_RESERVE_SIZE,
  cloneToken,
  type CloneToken,
  type CloneTokenPatchInput,
  type CloneTokenPostInput,
  type LifetimeInput,
} from "./codecs/clone-token.js";
export {
  CACHE_ATIME_SCRUB_PERIOD_RANGE,
  CACHE_DEFAULT_ATIME_SCRUB_PERIOD,
  CACHE_DEFAULT_CONSTITUENTS_PER_AGGREGATE,
  CACHE_DEFAULT_RELATIVE_SIZE_PERCENTAGE,
  CACHE_GUARANTEE_TYPES,
  CACHE_MIN_CONSTITUENT_SIZE,
  CACHE_NAME_LENGTH,
  CACHE_ORIGIN_STATES,
  CACHE_RELATIVE_SIZE_PERCENTAGE_RANGE,
  cache,
  type Cache,
  type CacheGuaranteeType,
  type CacheOrigin,
  type CacheOriginState,
  type CachePatchInput,
  type CachePostInput,
  type CachePrepopulateInput,
} from "./codecs/cache.js";
export {
  FIRMWARE_PROGRESS_STATUSES,
  FIRMWARE_UPDATE_STATUSES,
  FIRMWARE_UPDATE_TYPES,
  RETURN_TIMEOUT_RANGE,
  SOFTWARE_ACTIONS,
  SOFTWARE_CHECK_STATUSES,
  SOFTWARE_STATES,
  SP_BMC_FW_TYPES,
  SP_BMC_IMAGES,
  SP_BMC_LAST_UPDATE_STATES,
  SP_BMC_STATES,
  STABILIZE_MINUTES_RANGE,
  software,
  type FirmwareUpdateStatus,
  type SoftwareAction,
  type SoftwareCheck,
  type SoftwareCheckStatus,
  type SoftwareFirmware,
  type SoftwareMetrocluster,
  type SoftwarePatchInput,
  type SoftwarePatchQuery,
  type SoftwareProfile,
  type SoftwareState,
  type SoftwareStatusDetail,
  type SoftwareUpdateDetail,
} from "./codecs/software.js";
export {
  SOFTWARE_DOWNLOAD_STATES,
  softwareDownload,
  type SoftwareDownloadInput,
  type SoftwareDownloadProgress,
  type SoftwareDownloadState,
} from "./codecs/software-download.js";
export {
  SOFTWARE_HISTORY_STATES,
  softwareHistory,
  type SoftwareHistoryRecord,
  type SoftwareHistoryState,
} from "./codecs/software-history.js";
export {
  softwarePackage,
  type SoftwarePackage,
} from "./codecs/software-package.js";
export {
  METRIC_DURATIONS,
  METRIC_STATUSES,
  NAMESPACE_BLOCK_SIZES,
  NAMESPACE_COMMENT_MAX_LENGTH,
  NAMESPACE_CONTAINER_STATES,
  NAMESPACE_DEFAULT_BLOCK_SIZE,
  NAMESPACE_MAX_SIZE,
  NAMESPACE_MIN_SIZE,
  NAMESPACE_OS_TYPES,
  NAMESPACE_STATES,
  NAMESPACE_VMWARE_BLOCK_SIZE,
  nvmeNamespace,
  type IoCounters,
  type MetricDuration,
  type MetricStatus,
  type NamespaceBlockSize,
  type NamespaceContainerState,
  type NamespaceOsType,
  type NamespaceState,
  type NvmeNamespace,
  type NvmeNamespacePatchInput,
  type NvmeNamespacePostInput,
} from "./codecs/nvme-namespace.js";
export {
  QUOTA_MIN_SPACE_LIMIT,
  QUOTA_RULE_TYPES,
  QUOTA_UNLIMITED,
  quotaRule,
  type QuotaFilesLimitInput,
  type QuotaLimitsInput,
  type QuotaRule,
  type QuotaRulePatchInput,
  type QuotaRulePostInput,
  type QuotaRuleType,
  type QuotaSpaceLimitInput,
  type QuotaUserInput,
  type UserMappingInput,
} from "./codecs/quota-rule.js";
export {
  JOB_STATES,
  JOB_TERMINAL_STATES,
  isTerminalJobState,
  job,
  type AcceptedResponse,
  type Job,
  type JobReference,
  type JobState,
} from "./codecs/job.js";
export { svm, type Svm } from "./codecs/svm.js";
export { clusterNode, type ClusterNode } from "./codecs/cluster-node.js";
export { collection, type Collection, type ItemCodec } from "./codecs/collection.js";
export { apiError, type ApiErrorBody, type ApiErrorDetail } from "./codecs/api-error.js";
export { StorageClient } from "./client/client.js";
export { systemClientClock, type StorageClientClock } from "./client/abort.js";
export { DEFAULT_CODECS, type ResourceCodec, type StorageCodecs } from "./client/codec-hooks.js";
export { StorageJobError, StorageJobTimeoutError, StorageNetworkError, StorageProtocolError } from "./client/errors.js";
export {
  DEFAULT_STORAGE_PATHS,
  type CallOptions,
  type CloneTokenKey,
  type CreateResult,
  type JobWaitOptions,
  type MutationOptions,
  type MutationResult,
  type RequestOptions,
  type StorageClientOptions,
  type StoragePaths,
  type StorageRequestEvent,
  type UploadFile,
} from "./client/options.js";
export { encodeQuery, type Query, type QueryObject, type QueryScalar, type QueryValue } from "./client/query.js";
export { DEFAULT_MAX_RESPONSE_BYTES } from "./client/response.js";
export {
  StorageBulkResource,
  StorageCollectionApi,
  StorageReadOnlyResource,
  StorageResource,
  type BulkOptions,
  type BulkResult,
} from "./client/resources.js";
export {
  SoftwareApi,
  type DownloadOptions,
  type DownloadResult,
  type SoftwarePatchOptions,
  type SoftwareValidation,
} from "./client/software-api.js";
export type { ClientTlsOptions, FetchInit, FetchLike, FetchResponse } from "./client/transport.js";
