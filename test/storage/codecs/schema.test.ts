// Type-level tests of the schema engine's inference (src/storage/codecs/schema.ts): the models
// and PATCH inputs inferred from the resource schemas are exactly the shapes that used to be
// written by hand beside them (copied here as the expectation), so users' code that named or
// built those shapes keeps compiling. Checked by `tsc` (expectTypeOf is a no-op at run time).
import { describe, expectTypeOf, it } from "vitest";
import type {
  AcceptedResponse,
  ApiErrorBody,
  ApiErrorDetail,
  Cache,
  CacheGuaranteeType,
  CacheOrigin,
  CacheOriginState,
  CachePatchInput,
  CachePrepopulateInput,
  CloneToken,
  IoCounters,
  Job,
  JobReference,
  JobState,
  Lenient,
  Links,
  MetricDuration,
  MetricStatus,
  NamespaceContainerState,
  NamespaceOsType,
  NamespaceState,
  NvmeNamespace,
  QuotaRule,
  QuotaRuleType,
  Reference,
  SoftwareAction,
  SoftwareCheck,
  SoftwareCheckStatus,
  SoftwareDownloadProgress,
  SoftwareDownloadState,
  SoftwareFirmware,
  SoftwareHistoryRecord,
  SoftwareHistoryState,
  SoftwareMetrocluster,
  SoftwarePackage,
  SoftwarePatchInput,
  SoftwareProfile,
  SoftwareState,
  SoftwareStatusDetail,
  SoftwareUpdateDetail,
  FirmwareUpdateStatus,
} from "../../../src/storage/index.js";
import type {
  FIRMWARE_PROGRESS_STATUSES,
  FIRMWARE_UPDATE_TYPES,
  SP_BMC_FW_TYPES,
  SP_BMC_IMAGES,
  SP_BMC_LAST_UPDATE_STATES,
  SP_BMC_STATES,
} from "../../../src/storage/index.js";
import {
  arr,
  bool,
  enm,
  f,
  int,
  obj,
  size,
  str,
  type InferModel,
  type InferPatchInput,
  type InferPostInput,
} from "../../../src/storage/codecs/schema.js";
import type {
  CachePostInput,
  CloneTokenPatchInput,
  CloneTokenPostInput,
  NvmeNamespacePatchInput,
  NvmeNamespacePostInput,
  QuotaRulePatchInput,
  QuotaRulePostInput,
  SoftwareDownloadInput,
} from "../../../src/storage/index.js";
import type { schema as cacheSchema } from "../../../src/storage/codecs/cache.js";
import type { schema as cloneTokenSchema } from "../../../src/storage/codecs/clone-token.js";
import type { schema as namespaceSchema } from "../../../src/storage/codecs/nvme-namespace.js";
import type { schema as quotaSchema } from "../../../src/storage/codecs/quota-rule.js";
import type { downloadSchema } from "../../../src/storage/codecs/software-download.js";

// ---- the shapes as they were written by hand before inference ---------------------------------

interface OldCacheOrigin {
  svm?: Reference;
  volume?: Reference;
  cluster?: Reference;
  ip_address?: string;
  size?: number;
  state?: Lenient<CacheOriginState>;
  create_time?: string;
}

interface OldCache {
  uuid?: string;
  name?: string;
  svm?: Reference;
  origins?: OldCacheOrigin[];
  aggregates?: Reference[];
  path?: string;
  size?: number;
  guarantee?: { type?: Lenient<CacheGuaranteeType> };
  constituents_per_aggregate?: number;
  use_tiered_aggregate?: boolean;
  is_disconnected_mode_off_for_locks?: boolean;
  dr_cache?: boolean;
  global_file_locking_enabled?: boolean;
  override_encryption?: boolean;
  writeback?: { enabled?: boolean };
  relative_size?: { enabled?: boolean; percentage?: number };
  atime_scrub?: { enabled?: boolean; period?: number };
  cifs_change_notify?: { enabled?: boolean };
  prepopulate?: { dir_paths?: string[]; exclude_dir_paths?: string[]; recurse?: boolean };
  _links?: Links;
}

interface OldCloneToken {
  node?: Reference;
  uuid?: string;
  reserve_size?: number;
  expiry_time?: {
    limit?: string;
    left?: string;
  };
  _links?: Links;
}

interface OldJob {
  uuid?: string;
  description?: string;
  state?: Lenient<JobState>;
  message?: string;
  code?: number;
  error?: {
    code?: string;
    message?: string;
    arguments?: Array<{ code?: string; message?: string }>;
  };
  start_time?: string;
  end_time?: string;
  node?: Reference;
  svm?: Reference;
  _links?: Links;
}

interface OldJobReference {
  uuid?: string;
  _links?: Links;
}

interface OldAcceptedResponse {
  job?: OldJobReference;
  jobs?: OldJobReference[];
  num_records?: number;
  _links?: Links;
}

interface OldIoCounters {
  other?: number;
  total?: number;
  read?: number;
  write?: number;
}

interface OldNvmeNamespace {
  uuid?: string;
  name?: string;
  svm?: Reference;
  location?: {
    volume?: Reference;
    namespace?: string;
    qtree?: { name?: string; id?: number; _links?: Links };
  };
  os_type?: Lenient<NamespaceOsType>;
  space?: {
    size?: number;
    block_size?: number;
    used?: number;
    guarantee?: { requested?: boolean; reserved?: boolean };
  };
  comment?: string;
  enabled?: boolean;
  create_time?: string;
  auto_delete?: boolean;
  clone?: { source?: { uuid?: string; name?: string } };
  convert?: { lun?: { uuid?: string; name?: string } };
  status?: {
    state?: Lenient<NamespaceState>;
    container_state?: Lenient<NamespaceContainerState>;
    read_only?: boolean;
    mapped?: boolean;
  };
  subsystem_map?: {
    nsid?: string;
    anagrpid?: string;
    subsystem?: Reference;
    _links?: Links;
  };
  metric?: {
    timestamp?: string;
    status?: Lenient<MetricStatus>;
    duration?: Lenient<MetricDuration>;
    throughput?: { total?: number; read?: number; write?: number };
    iops?: OldIoCounters;
    latency?: OldIoCounters;
  };
  statistics?: {
    timestamp?: string;
    status?: Lenient<MetricStatus>;
    iops_raw?: OldIoCounters;
    latency_raw?: OldIoCounters;
    throughput_raw?: { total?: number; read?: number; write?: number };
  };
  _links?: Links;
}

interface OldQuotaRule {
  uuid?: string;
  svm?: Reference;
  volume?: Reference;
  type?: Lenient<QuotaRuleType>;
  qtree?: { id?: number; name?: string; _links?: Links };
  users?: Array<{ name?: string; id?: string }>;
  group?: { name?: string; id?: string };
  space?: { hard_limit?: number; soft_limit?: number };
  files?: { hard_limit?: number; soft_limit?: number };
  user_mapping?: boolean;
  _links?: Links;
}

interface OldSoftwareCheck {
  update_check?: string;
  status?: Lenient<SoftwareCheckStatus>;
  issue?: { message?: string; code?: number };
  action?: { message?: string; code?: number };
}

interface OldSoftwareUpdateDetail {
  estimated_duration?: number;
  elapsed_duration?: number;
  state?: Lenient<SoftwareState>;
  phase?: string;
  node?: Reference;
}

interface OldSoftwareStatusDetail {
  start_time?: string;
  end_time?: string;
  state?: Lenient<SoftwareState>;
  node?: Reference;
  name?: string;
  issue?: { code?: number; message?: string };
  action?: { code?: number; message?: string };
}

interface OldSoftwareFirmware {
  cluster_fw_progress?: Array<{
    job?: { uuid?: string; _links?: Links };
    zip_file_name?: string;
    update_type?: Lenient<(typeof FIRMWARE_UPDATE_TYPES)[number]>;
    update_state?: Array<{
      attempts?: number;
      code?: number;
      message?: string;
      status?: Lenient<(typeof FIRMWARE_PROGRESS_STATUSES)[number]>;
      worker_node?: Reference;
    }>;
  }>;
  shelf?: { in_progress_count?: number; update_status?: Lenient<FirmwareUpdateStatus> };
  dqp?: {
    revision?: string;
    version?: string;
    file_name?: string;
    record_count?: { drive?: number; system?: number; device?: number; alias?: number };
  };
  sp_bmc?: {
    start_time?: string;
    end_time?: string;
    image?: Lenient<(typeof SP_BMC_IMAGES)[number]>;
    is_current?: boolean;
    percent_done?: number;
    running_version?: string;
    fw_type?: Lenient<(typeof SP_BMC_FW_TYPES)[number]>;
    in_progress?: boolean;
    state?: Lenient<(typeof SP_BMC_STATES)[number]>;
    last_update_state?: Lenient<(typeof SP_BMC_LAST_UPDATE_STATES)[number]>;
    autoupdate?: boolean;
  };
  disk?: {
    num_waiting_download?: number;
    total_completion_estimate?: number;
    average_duration_per_disk?: number;
    update_status?: Lenient<FirmwareUpdateStatus>;
  };
}

interface OldSoftwareMetrocluster {
  progress_summary?: { message?: string };
  progress_details?: { message?: string };
  clusters?: Array<{
    name?: string;
    state?: Lenient<SoftwareState>;
    estimated_duration?: number;
    elapsed_duration?: number;
  }>;
}

interface OldSoftwareProfile {
  version?: string;
  pending_version?: string;
  state?: Lenient<SoftwareState>;
  action?: Lenient<SoftwareAction>;
  elapsed_duration?: number;
  estimated_duration?: number;
  validation_results?: OldSoftwareCheck[];
  post_update_checks?: OldSoftwareCheck[];
  update_details?: OldSoftwareUpdateDetail[];
  status_details?: OldSoftwareStatusDetail[];
  nodes?: Array<{ name?: string; model?: string; version?: string; firmware?: OldSoftwareFirmware }>;
  metrocluster?: OldSoftwareMetrocluster;
  _links?: Links;
}

interface OldSoftwarePackage {
  version?: string;
  create_time?: string;
  _links?: Links;
}

interface OldSoftwareDownloadProgress {
  state?: Lenient<SoftwareDownloadState>;
  message?: string;
  code?: number;
}

interface OldSoftwareHistoryRecord {
  node?: Reference;
  from_version?: string;
  to_version?: string;
  state?: Lenient<SoftwareHistoryState>;
  start_time?: string;
  end_time?: string;
  _links?: Links;
}

interface OldApiErrorDetail {
  message?: string;
  code?: string;
  target?: string;
  arguments?: Array<{ code?: string; message?: string }>;
}

interface OldApiErrorBody {
  error: OldApiErrorDetail;
}

// ---- the inferred types equal them ------------------------------------------------------------

describe("models inferred from the codec schemas", () => {
  it("caches", () => {
    expectTypeOf<CacheOrigin>().toEqualTypeOf<OldCacheOrigin>();
    expectTypeOf<Cache>().toEqualTypeOf<OldCache>();
  });
  it("clone tokens", () => {
    expectTypeOf<CloneToken>().toEqualTypeOf<OldCloneToken>();
  });
  it("jobs", () => {
    expectTypeOf<Job>().toEqualTypeOf<OldJob>();
    expectTypeOf<JobReference>().toEqualTypeOf<OldJobReference>();
    expectTypeOf<AcceptedResponse>().toEqualTypeOf<OldAcceptedResponse>();
  });
  it("namespaces", () => {
    expectTypeOf<IoCounters>().toEqualTypeOf<OldIoCounters>();
    expectTypeOf<NvmeNamespace>().toEqualTypeOf<OldNvmeNamespace>();
  });
  it("quota rules", () => {
    expectTypeOf<QuotaRule>().toEqualTypeOf<OldQuotaRule>();
  });
  it("software", () => {
    expectTypeOf<SoftwareCheck>().toEqualTypeOf<OldSoftwareCheck>();
    expectTypeOf<SoftwareUpdateDetail>().toEqualTypeOf<OldSoftwareUpdateDetail>();
    expectTypeOf<SoftwareStatusDetail>().toEqualTypeOf<OldSoftwareStatusDetail>();
    expectTypeOf<SoftwareFirmware>().toEqualTypeOf<OldSoftwareFirmware>();
    expectTypeOf<SoftwareMetrocluster>().toEqualTypeOf<OldSoftwareMetrocluster>();
    expectTypeOf<SoftwareProfile>().toEqualTypeOf<OldSoftwareProfile>();
    expectTypeOf<SoftwarePackage>().toEqualTypeOf<OldSoftwarePackage>();
    expectTypeOf<SoftwareHistoryRecord>().toEqualTypeOf<OldSoftwareHistoryRecord>();
    // The download schema also lists the POST members; the decoder keeps them if a server
    // sends them back, so the model now says so (optional, so old code still compiles).
    // `password` is secret: never decoded, so not in the model.
    expectTypeOf<SoftwareDownloadProgress>().toEqualTypeOf<{
      url?: string;
      username?: string;
      state?: Lenient<SoftwareDownloadState>;
      message?: string;
      code?: number;
    }>();
    expectTypeOf<OldSoftwareDownloadProgress>().toMatchTypeOf<SoftwareDownloadProgress>();
    expectTypeOf<SoftwareDownloadProgress>().not.toHaveProperty("password");
  });
  it("API errors", () => {
    expectTypeOf<ApiErrorDetail>().toEqualTypeOf<OldApiErrorDetail>();
    expectTypeOf<ApiErrorBody>().toEqualTypeOf<OldApiErrorBody>();
  });
});

describe("PATCH inputs inferred from the members marked U", () => {
  it("cache", () => {
    expectTypeOf<CachePatchInput>().toEqualTypeOf<{
      prepopulate?: { dir_paths?: string[]; exclude_dir_paths?: string[]; recurse?: boolean };
      writeback?: { enabled?: boolean };
      relative_size?: { enabled?: boolean; percentage?: number };
      atime_scrub?: { enabled?: boolean; period?: number };
      cifs_change_notify?: { enabled?: boolean };
    }>();
    expectTypeOf<CachePrepopulateInput>().toEqualTypeOf<{
      dir_paths?: string[];
      exclude_dir_paths?: string[];
      recurse?: boolean;
    }>();
  });
  it("software: version and action, not the read-only metrocluster", () => {
    expectTypeOf<SoftwarePatchInput>().toEqualTypeOf<{ version?: string; action?: SoftwareAction }>();
  });
});

describe("the engine", () => {
  const schema = obj({
    id: f("G", int()),
    name: f("GPU", str),
    kind: f("GP", enm(["a", "b"])),
    bytes: f("GPU", size),
    tags: f("GP", arr(str)),
    nested: f("GPU", obj({ on: bool, ro: f("G", int()) })),
    secret: f("P", str, { secret: true }),
    custom: f("G", str, { decode: (v: unknown): number => Number(v) }),
  });
  it("models: every member optional, string enums lenient, Sizes as numbers, secrets left out, custom decoders' types", () => {
    expectTypeOf<InferModel<typeof schema>>().toEqualTypeOf<{
      id?: number;
      name?: string;
      kind?: Lenient<"a" | "b">;
      bytes?: number;
      tags?: string[];
      nested?: { on?: boolean; ro?: number };
      custom?: number;
    }>();
  });
  it("inputs: only the members for the verb, strict enums, Size input, nested read-only members dropped", () => {
    expectTypeOf<InferPatchInput<typeof schema>>().toEqualTypeOf<{
      name?: string;
      bytes?: number | string;
      nested?: { on?: boolean };
    }>();
    expectTypeOf<InferPostInput<typeof schema>>().toEqualTypeOf<{
      name?: string;
      kind?: "a" | "b";
      bytes?: number | string;
      tags?: string[];
      nested?: { on?: boolean };
      secret?: string;
    }>();
  });
  it("numeric enums decode to any integer and take only their values on input", () => {
    const blockSize = obj({ block_size: f("GU", enm([512, 4096])) });
    expectTypeOf<InferModel<typeof blockSize>>().toEqualTypeOf<{ block_size?: number }>();
    expectTypeOf<InferPatchInput<typeof blockSize>>().toEqualTypeOf<{ block_size?: 512 | 4096 }>();
  });
});

// The POST and PATCH inputs still written by hand (required members, wider inputs of custom
// encoders) name exactly the members the schema accepts for the verb, so they cannot drift.
describe("hand-written inputs name the schema's members for their verb", () => {
  it("POST", () => {
    expectTypeOf<keyof CachePostInput>().toEqualTypeOf<keyof InferPostInput<typeof cacheSchema>>();
    expectTypeOf<keyof CloneTokenPostInput>().toEqualTypeOf<keyof InferPostInput<typeof cloneTokenSchema>>();
    expectTypeOf<keyof NvmeNamespacePostInput>().toEqualTypeOf<keyof InferPostInput<typeof namespaceSchema>>();
    expectTypeOf<keyof QuotaRulePostInput>().toEqualTypeOf<keyof InferPostInput<typeof quotaSchema>>();
    expectTypeOf<keyof SoftwareDownloadInput>().toEqualTypeOf<keyof InferPostInput<typeof downloadSchema>>();
  });
  it("PATCH", () => {
    expectTypeOf<keyof CloneTokenPatchInput>().toEqualTypeOf<keyof InferPatchInput<typeof cloneTokenSchema>>();
    expectTypeOf<keyof NvmeNamespacePatchInput>().toEqualTypeOf<keyof InferPatchInput<typeof namespaceSchema>>();
    expectTypeOf<keyof QuotaRulePatchInput>().toEqualTypeOf<keyof InferPatchInput<typeof quotaSchema>>();
  });
});
