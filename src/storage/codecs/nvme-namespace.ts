// NVMe namespaces: /api/storage/namespaces.

import type { ReferenceInput, SizeInput } from "./common.js";
import { StorageCodecError } from "./errors.js";
import {
  at,
  bool,
  datetime,
  decodeBody,
  encodeBody,
  enm,
  f,
  has,
  int,
  links,
  obj,
  objectAt,
  requireField,
  requireOneOf,
  size,
  sizeInRange,
  str,
  stringLength,
  withDefault,
  type InferModel,
  type JsonObject,
  type JsonValue,
} from "./schema.js";

/**
 * The values the API defines for an NVMe namespace's `os_type`.
 *
 * @example
 * ```ts
 * import { NAMESPACE_OS_TYPES, type NamespaceOsType } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_OS_TYPES as readonly unknown[]).includes(value);
 * const first: NamespaceOsType = NAMESPACE_OS_TYPES[0];
 * ```
 */
export const NAMESPACE_OS_TYPES = ["aix", "linux", "vmware", "windows"] as const;
/**
 * An NVMe namespace's `os_type`: one of {@link NAMESPACE_OS_TYPES}.
 *
 * @example
 * ```ts
 * import { NAMESPACE_OS_TYPES, type NamespaceOsType } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_OS_TYPES as readonly unknown[]).includes(value);
 * const first: NamespaceOsType = NAMESPACE_OS_TYPES[0];
 * ```
 */
export type NamespaceOsType = (typeof NAMESPACE_OS_TYPES)[number];
/**
 * The values the API defines for an NVMe namespace's `space.block_size`, in bytes.
 *
 * @example
 * ```ts
 * import { NAMESPACE_BLOCK_SIZES, type NamespaceBlockSize } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_BLOCK_SIZES as readonly unknown[]).includes(value);
 * const first: NamespaceBlockSize = NAMESPACE_BLOCK_SIZES[0];
 * ```
 */
export const NAMESPACE_BLOCK_SIZES = [512, 4096] as const;
/**
 * An NVMe namespace's `space.block_size`, in bytes: one of {@link NAMESPACE_BLOCK_SIZES}.
 *
 * @example
 * ```ts
 * import { NAMESPACE_BLOCK_SIZES, type NamespaceBlockSize } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_BLOCK_SIZES as readonly unknown[]).includes(value);
 * const first: NamespaceBlockSize = NAMESPACE_BLOCK_SIZES[0];
 * ```
 */
export type NamespaceBlockSize = (typeof NAMESPACE_BLOCK_SIZES)[number];
/**
 * The values the API defines for an NVMe namespace's `status.state`.
 *
 * @example
 * ```ts
 * import { NAMESPACE_STATES, type NamespaceState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_STATES as readonly unknown[]).includes(value);
 * const first: NamespaceState = NAMESPACE_STATES[0];
 * ```
 */
export const NAMESPACE_STATES = ["nvfail", "offline", "online", "space_error"] as const;
/**
 * An NVMe namespace's `status.state`: one of {@link NAMESPACE_STATES}.
 *
 * @example
 * ```ts
 * import { NAMESPACE_STATES, type NamespaceState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_STATES as readonly unknown[]).includes(value);
 * const first: NamespaceState = NAMESPACE_STATES[0];
 * ```
 */
export type NamespaceState = (typeof NAMESPACE_STATES)[number];
/**
 * The values the API defines for an NVMe namespace's `status.container_state`.
 *
 * @example
 * ```ts
 * import { NAMESPACE_CONTAINER_STATES, type NamespaceContainerState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_CONTAINER_STATES as readonly unknown[]).includes(value);
 * const first: NamespaceContainerState = NAMESPACE_CONTAINER_STATES[0];
 * ```
 */
export const NAMESPACE_CONTAINER_STATES = ["online", "aggregate_offline", "volume_offline"] as const;
/**
 * An NVMe namespace's `status.container_state`: one of {@link NAMESPACE_CONTAINER_STATES}.
 *
 * @example
 * ```ts
 * import { NAMESPACE_CONTAINER_STATES, type NamespaceContainerState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (NAMESPACE_CONTAINER_STATES as readonly unknown[]).includes(value);
 * const first: NamespaceContainerState = NAMESPACE_CONTAINER_STATES[0];
 * ```
 */
export type NamespaceContainerState = (typeof NAMESPACE_CONTAINER_STATES)[number];
/**
 * The values the API defines for a performance metric's `duration`.
 *
 * @example
 * ```ts
 * import { METRIC_DURATIONS, type MetricDuration } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (METRIC_DURATIONS as readonly unknown[]).includes(value);
 * const first: MetricDuration = METRIC_DURATIONS[0];
 * ```
 */
export const METRIC_DURATIONS = ["PT15S", "PT4M", "PT30M", "PT2H", "P1D", "PT5M"] as const;
/**
 * A performance metric's `duration`: one of {@link METRIC_DURATIONS}.
 *
 * @example
 * ```ts
 * import { METRIC_DURATIONS, type MetricDuration } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (METRIC_DURATIONS as readonly unknown[]).includes(value);
 * const first: MetricDuration = METRIC_DURATIONS[0];
 * ```
 */
export type MetricDuration = (typeof METRIC_DURATIONS)[number];
/**
 * The values the API defines for a performance metric's `status`.
 *
 * @example
 * ```ts
 * import { METRIC_STATUSES, type MetricStatus } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (METRIC_STATUSES as readonly unknown[]).includes(value);
 * const first: MetricStatus = METRIC_STATUSES[0];
 * ```
 */
export const METRIC_STATUSES = [
  "ok",
  "error",
  "partial_no_data",
  "partial_no_response",
  "partial_other_error",
  "negative_delta",
  "not_found",
  "backfilled_data",
  "inconsistent_delta_time",
  "inconsistent_old_data",
  "partial_no_uuid",
] as const;
/**
 * A performance metric's `status`: one of {@link METRIC_STATUSES}.
 *
 * @example
 * ```ts
 * import { METRIC_STATUSES, type MetricStatus } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (METRIC_STATUSES as readonly unknown[]).includes(value);
 * const first: MetricStatus = METRIC_STATUSES[0];
 * ```
 */
export type MetricStatus = (typeof METRIC_STATUSES)[number];

/**
 * Default `space.block_size`; 512 when `os_type` is `vmware`.
 *
 * @example
 * ```ts
 * import { NAMESPACE_DEFAULT_BLOCK_SIZE, nvmeNamespace } from "clusterwire/storage";
 *
 * const body = nvmeNamespace.encodePost({ name: "ns1", svm: { name: "svm1" }, location: { volume: { name: "vol1" } }, os_type: "linux", space: { size: "10G", block_size: NAMESPACE_DEFAULT_BLOCK_SIZE } });
 * ```
 */
export const NAMESPACE_DEFAULT_BLOCK_SIZE = 4096;
/**
 * The default `space.block_size` of a namespace whose `os_type` is `vmware`: 512.
 *
 * @example
 * ```ts
 * import { NAMESPACE_VMWARE_BLOCK_SIZE } from "clusterwire/storage";
 *
 * const blockSize = (osType: string): number => (osType === "vmware" ? NAMESPACE_VMWARE_BLOCK_SIZE : 4096);
 * ```
 */
export const NAMESPACE_VMWARE_BLOCK_SIZE = 512;
// Limits the API definition does not state, from upstream's documentation:
// `space.size` 4096 bytes ..128 TiB, `comment` at most 254 characters. `space.block_size` is an
// integer, 512 or 4096 (the schema's enum; a Size string such as "4K" is refused, as the server does).
/**
 * Smallest `space.size`: 4096 bytes.
 *
 * @example
 * ```ts
 * import { NAMESPACE_MIN_SIZE, nvmeNamespace } from "clusterwire/storage";
 *
 * const body = nvmeNamespace.encodePost({ name: "ns1", svm: { name: "svm1" }, location: { volume: { name: "vol1" } }, os_type: "linux", space: { size: NAMESPACE_MIN_SIZE } });
 * ```
 */
export const NAMESPACE_MIN_SIZE = 4096;
/**
 * Largest `space.size`: 128 TiB.
 *
 * @example
 * ```ts
 * import { NAMESPACE_MAX_SIZE, nvmeNamespace } from "clusterwire/storage";
 *
 * const body = nvmeNamespace.encodePost({ name: "ns1", svm: { name: "svm1" }, location: { volume: { name: "vol1" } }, os_type: "linux", space: { size: NAMESPACE_MAX_SIZE } });
 * ```
 */
export const NAMESPACE_MAX_SIZE = 128 * 1024 ** 4;
/**
 * Longest `comment`, in characters.
 *
 * @example
 * ```ts
 * import { NAMESPACE_COMMENT_MAX_LENGTH } from "clusterwire/storage";
 *
 * const comment = (text: string): string => text.slice(0, NAMESPACE_COMMENT_MAX_LENGTH);
 * ```
 */
export const NAMESPACE_COMMENT_MAX_LENGTH = 254;

/**
 * The body of an NVMe namespace creation, clone or LUN conversion (POST), as {@link nvmeNamespace}.encodePost takes
 * it.
 *
 * @example
 * ```ts
 * import { nvmeNamespace, type NvmeNamespacePostInput } from "clusterwire/storage";
 *
 * const input: NvmeNamespacePostInput = { name: "ns1", svm: { name: "svm1" }, location: { volume: { name: "vol1" } }, os_type: "linux", space: { size: "10G" } };
 * const body = nvmeNamespace.encodePost(input);
 * ```
 */
export interface NvmeNamespacePostInput {
  /** Full path `/vol/<volume>[/<qtree>]/<name>`, or a base name with `location.volume`. */
  name?: string;
  /** `uuid` or `name` required. */
  svm: ReferenceInput;
  /** Where the namespace goes: a volume, optionally a qtree, and the namespace's name there. */
  location?: { volume?: ReferenceInput; namespace?: string; qtree?: { name?: string } };
  /** Required unless cloning or converting; forbidden when cloning or converting. */
  os_type?: NamespaceOsType;
  /**
   * `size` required unless cloning or converting; `block_size` defaults to 4096
   * (512 for `vmware`) inside a given `space`. Neither may be given when cloning or converting.
   */
  space?: { size?: SizeInput; block_size?: NamespaceBlockSize };
  /** A free-form comment. */
  comment?: string;
  /** Whether the namespace may be deleted automatically when its volume runs out of space. */
  auto_delete?: boolean;
  /** Create the namespace as a clone of this source namespace. */
  clone?: { source: { uuid?: string; name?: string } };
  /** Create the namespace by converting this LUN. */
  convert?: { lun: { uuid?: string; name?: string } };
}

/**
 * The body of an NVMe namespace change (PATCH), as {@link nvmeNamespace}.encodePatch takes it.
 *
 * @example
 * ```ts
 * import { nvmeNamespace, type NvmeNamespacePatchInput } from "clusterwire/storage";
 *
 * const patch: NvmeNamespacePatchInput = { space: { size: "20G" }, comment: "grown" };
 * const body = nvmeNamespace.encodePatch(patch);
 * ```
 */
export interface NvmeNamespacePatchInput {
  /** A new comment. */
  comment?: string;
  /** Whether the namespace may be deleted automatically. */
  auto_delete?: boolean;
  /** A new size (namespaces only grow). */
  space?: { size?: SizeInput };
  /** The namespace's SVM, to address it. */
  svm?: ReferenceInput;
  /** Overwrite the namespace's data with a clone of `source` (same volume). */
  clone?: { source: { uuid?: string; name?: string } };
}

const FULL_PATH = /^\/vol\/([^/]+)\/(?:([^/]+)\/)?([^/]+)$/;
/**
 * A namespace's own name (the last segment of a full path, or `location.namespace`): letters,
 * digits, `_`, `.` and `-`, 1..255 characters. The API definition and upstream are silent on the
 * characters; this is the reference server's rule, kept the same so that a name it refuses
 * is refused before sending.
 */
const BASE_NAME = /^[A-Za-z0-9_.-]{1,255}$/;

function checkBaseName(base: string, path: string): void {
  if (!BASE_NAME.test(base)) {
    throw new StorageCodecError(
      path,
      `the namespace name may hold only letters, digits, "_", "." and "-" (1 to 255 of them), got ${JSON.stringify(base.slice(0, 64))}`,
    );
  }
}

function encodeLocationNamespace(value: unknown, path: string): JsonValue {
  if (typeof value !== "string") throw new StorageCodecError(path, "must be a string");
  checkBaseName(value, path);
  return value;
}

function encodeName(value: unknown, path: string): JsonValue {
  if (typeof value !== "string") throw new StorageCodecError(path, "must be a string");
  if (value === "") throw new StorageCodecError(path, "must not be empty");
  if (value.includes("/") && !FULL_PATH.test(value)) {
    throw new StorageCodecError(
      path,
      `must be a full path /vol/<volume>[/<qtree>]/<namespace> or a base name without "/", got ${JSON.stringify(value)}`,
    );
  }
  checkBaseName(value.slice(value.lastIndexOf("/") + 1), path);
  return value;
}

const ref = obj({ uuid: str, name: str, _links: f("G", links) });
const counters = obj({ other: int(), total: int(), read: int(), write: int() });
const throughput = obj({ total: int(), read: int(), write: int() });
const source = obj({ uuid: str, name: str });

/** The schema (exported for type-level tests; not part of the public surface). */
export const schema = obj({
  uuid: f("G", str),
  /** `/vol/<volume>[/<qtree>]/<namespace>`. */
  name: f("GP", str, { encode: encodeName, refuse: "a namespace cannot be renamed" }),
  svm: f("GPU", ref),
  location: f(
    "GP",
    obj({
      volume: ref,
      namespace: f("GP", str, { encode: encodeLocationNamespace }),
      qtree: obj({ name: str, id: f("G", int()), _links: f("G", links) }),
    }),
    { refuse: "a namespace cannot be moved" },
  ),
  os_type: f("GP", enm(NAMESPACE_OS_TYPES)),
  space: f(
    "GPU",
    obj({
      size: f("GPU", size, { encode: sizeInRange(NAMESPACE_MIN_SIZE, NAMESPACE_MAX_SIZE) }),
      block_size: f("GP", enm(NAMESPACE_BLOCK_SIZES)),
      used: f("G", int()),
      guarantee: f("G", obj({ requested: bool, reserved: bool })),
    }),
  ),
  comment: f("GPU", str, { encode: stringLength(0, NAMESPACE_COMMENT_MAX_LENGTH) }),
  enabled: f("G", bool),
  create_time: f("G", datetime),
  auto_delete: f("GPU", bool),
  clone: f("PU", obj({ source })),
  convert: f("P", obj({ lun: source })),
  status: f(
    "G",
    obj({
      state: enm(NAMESPACE_STATES),
      container_state: enm(NAMESPACE_CONTAINER_STATES),
      read_only: bool,
      mapped: bool,
    }),
  ),
  subsystem_map: f("G", obj({ nsid: str, anagrpid: str, subsystem: ref, _links: links })),
  metric: f(
    "G",
    obj({
      timestamp: datetime,
      status: enm(METRIC_STATUSES),
      duration: enm(METRIC_DURATIONS),
      throughput,
      iops: counters,
      latency: counters,
    }),
  ),
  statistics: f(
    "G",
    obj({
      timestamp: datetime,
      status: enm(METRIC_STATUSES),
      iops_raw: counters,
      latency_raw: counters,
      throughput_raw: throughput,
    }),
  ),
  _links: f("G", links),
});

/**
 * IOPS or latency counters of `metric` / `statistics`.
 *
 * @example
 * ```ts
 * import { type IoCounters, type NvmeNamespace } from "clusterwire/storage";
 *
 * const reads = (ns: NvmeNamespace): IoCounters["read"] => ns.statistics?.iops_raw?.read;
 * ```
 */
export type IoCounters = InferModel<typeof counters>;

/**
 * An NVMe namespace as the API returns it, inferred from the schema. Expensive fields appear only when requested; sizes are bytes, times ISO 8601.
 *
 * @example
 * ```ts
 * import { type NvmeNamespace, type StorageClient } from "clusterwire/storage";
 *
 * const online = async (client: StorageClient): Promise<NvmeNamespace[]> =>
 *   (await client.nvmeNamespaces.all({ fields: "name,status" })).filter((ns) => ns.status?.state === "online");
 * ```
 */
export type NvmeNamespace = InferModel<typeof schema>;

const SPACE_ORDER = ["size", "block_size", "used", "guarantee"] as const;

/** The volume named by a full namespace path (also a snapshot path `/vol/<v>/.snapshot/...`). */
function volumeOfPath(name: JsonValue | undefined): string | undefined {
  if (typeof name !== "string") return undefined;
  const m = /^\/vol\/([^/]+)\//.exec(name);
  return m?.[1];
}

// A clone or a converted LUN brings its own os_type and size; a value here could only contradict it.
function refuseInherited(body: JsonObject, why: string): void {
  for (const field of ["os_type", "space.size", "space.block_size"]) {
    if (has(body, field)) throw new StorageCodecError(field, `must not be given ${why}`);
  }
}

/**
 * The codec of NVMe namespaces: decodes records and encodes POST and PATCH bodies, checking each field.
 *
 * @example
 * ```ts
 * import { nvmeNamespace } from "clusterwire/storage";
 *
 * const body = nvmeNamespace.encodePost({ name: "ns1", svm: { name: "svm1" }, location: { volume: { name: "vol1" } }, os_type: "linux", space: { size: "10G" } });
 * ```
 */
export const nvmeNamespace = {
  /** A namespace record (collection item or single GET). */
  decode(json: unknown): NvmeNamespace {
    return decodeBody(schema, json);
  },
  /**
   * POST body: create, clone (`clone.source`) or convert (`convert.lun`). Create
   * needs `svm`, a volume and base name (full-path `name`, or `location.volume` with
   * `name`/`location.namespace`), `os_type` and `space.size`. Cloning forbids
   * `os_type`, `space.size` and `space.block_size` (taken from the source) and needs
   * the clone in the source's volume when both paths are known. Converting forbids
   * the same three (taken from the LUN).
   */
  encodePost(input: NvmeNamespacePostInput): JsonObject {
    let body = encodeBody(schema, input, "POST");
    requireField(body, "svm");
    requireOneOf(body, "svm", ["uuid", "name"]);
    const cloning = has(body, "clone");
    const converting = has(body, "convert");
    if (cloning && converting) throw new StorageCodecError("convert", "cannot be combined with clone");
    if (cloning) {
      requireField(body, "clone.source");
      requireOneOf(body, "clone.source", ["uuid", "name"]);
      refuseInherited(body, "when cloning: it is taken from the clone source");
    }
    if (converting) {
      requireField(body, "convert.lun");
      requireOneOf(body, "convert.lun", ["uuid", "name"]);
      // The LUN is converted in place: its os_type and size carry over (the reference
      // server refuses them too), so a value here could only contradict the LUN.
      refuseInherited(body, "when converting: it is taken from the LUN");
    }
    const name = at(body, "name");
    const fullPath = typeof name === "string" && name.startsWith("/");
    if (!converting) {
      if (!fullPath && !has(body, "location.volume.name") && !has(body, "location.volume.uuid")) {
        throw new StorageCodecError(
          "location.volume",
          "`location.volume.name` or `location.volume.uuid` is required when `name` is not a full path",
        );
      }
      if (name === undefined && !has(body, "location.namespace")) {
        throw new StorageCodecError("name", "`name` or `location.namespace` is required");
      }
    }
    const pathVolume = fullPath ? volumeOfPath(name) : undefined;
    const locationVolume = at(body, "location.volume.name");
    if (pathVolume !== undefined && typeof locationVolume === "string" && locationVolume !== pathVolume) {
      throw new StorageCodecError("location.volume.name", `does not match the volume "${pathVolume}" in name`);
    }
    if (cloning) {
      const target = pathVolume ?? (typeof locationVolume === "string" ? locationVolume : undefined);
      const from = volumeOfPath(at(body, "clone.source.name"));
      if (target !== undefined && from !== undefined && target !== from) {
        throw new StorageCodecError("clone.source.name", "the clone and its source must be in the same volume");
      }
    }
    if (!cloning && !converting) {
      requireField(body, "os_type", "is required unless cloning or converting");
      requireField(body, "space.size", "is required unless cloning or converting");
    }
    const space = objectAt(body, "space");
    if (space !== undefined && !cloning && !converting) {
      const blockSize = body["os_type"] === "vmware" ? NAMESPACE_VMWARE_BLOCK_SIZE : NAMESPACE_DEFAULT_BLOCK_SIZE;
      body = { ...body, space: withDefault(space, "block_size", blockSize, SPACE_ORDER) };
    }
    return body;
  },
  /**
   * PATCH body: `comment`, `auto_delete`, `space.size`, `svm`, `clone` (overwrite as
   * a clone of `clone.source`). `name` and `location` are refused: a namespace
   * cannot be renamed or moved.
   */
  encodePatch(input: NvmeNamespacePatchInput): JsonObject {
    const body = encodeBody(schema, input, "PATCH");
    if (has(body, "clone")) {
      requireField(body, "clone.source");
      requireOneOf(body, "clone.source", ["uuid", "name"]);
    }
    return body;
  },
} as const;
