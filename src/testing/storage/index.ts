// fast-check arbitraries for clusterwire/storage: the models a server returns
// (what the codecs' `decode` accepts) and the request bodies the codecs'
// `encodePost` / `encodePatch` accept, valid by construction under the
// storage API's rules and the codecs' own decisions.
//
// Everything is built with map() over records and tuples (no chain(), no
// filter()), so counterexamples shrink towards small, plain values: short
// names, `{name}` references, small sizes, absent optional members.
//
// One file per resource; building-blocks.ts holds the shared public blocks and shared.ts the
// private helpers (not re-exported here).

export type {
  StorageBodyOptions,
  StorageModelOptions,
  StorageSizeRange,
} from "./options.js";
export {
  arbCloneTokenLifetime,
  arbNvmeNamespaceName,
  arbStorageDateTime,
  arbStorageDuration,
  arbStorageName,
  arbStoragePath,
  arbStorageReference,
  arbStorageSize,
  arbStorageSizeInput,
  arbStorageUuid,
  arbStorageVersion,
  type StorageDurationOptions,
} from "./building-blocks.js";
export {
  arbCloneTokenModel,
  arbCloneTokenPatch,
  arbCloneTokenPost,
} from "./clone-tokens.js";
export {
  arbCacheModel,
  arbCachePatch,
  arbCachePost,
} from "./caches.js";
export {
  arbNvmeNamespaceModel,
  arbNvmeNamespacePatch,
  arbNvmeNamespacePost,
  type ArbNvmeNamespacePostOptions,
} from "./nvme-namespaces.js";
export {
  arbQuotaRuleModel,
  arbQuotaRulePatch,
  arbQuotaRulePost,
} from "./quota-rules.js";
export {
  arbSoftwareDownloadPost,
  arbSoftwareDownloadProgressModel,
  arbSoftwareHistoryModel,
  arbSoftwarePackageModel,
  arbSoftwarePatch,
  type ArbSoftwarePatchOptions,
  arbSoftwarePatchQuery,
  arbSoftwareProfileModel,
} from "./software.js";
export {
  arbJobAcceptedModel,
  arbJobModel,
} from "./jobs.js";
export {
  arbCollectionModel,
  type ArbCollectionOptions,
} from "./collections.js";
export { arbApiErrorModel } from "./api-errors.js";
