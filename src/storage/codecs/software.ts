// Cluster software: the profile at /api/cluster/software, its PATCH body and query (paths and
// enum value sets as upstream documents them). Its packages, the package download and the
// installation history have their codecs in software-package.ts, software-download.ts and
// software-history.ts.

import { StorageCodecError } from "./errors.js";
import {
  arr,
  bool,
  datetime,
  decodeBody,
  encodeBody,
  enm,
  f,
  int,
  isPlainObject,
  links,
  obj,
  str,
  type InferModel,
  type InferPatchInput,
  type JsonObject,
} from "./schema.js";
import { showValue } from "./units.js";

/**
 * The values the API defines for the cluster software's upgrade `state`.
 *
 * @example
 * ```ts
 * import { SOFTWARE_STATES, type SoftwareState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_STATES as readonly unknown[]).includes(value);
 * const first: SoftwareState = SOFTWARE_STATES[0];
 * ```
 */
export const SOFTWARE_STATES = [
  "in_progress",
  "waiting",
  "paused_by_user",
  "paused_on_error",
  "completed",
  "canceled",
  "failed",
  "pause_pending",
  "cancel_pending",
] as const;
/**
 * The cluster software's upgrade `state`: one of {@link SOFTWARE_STATES}.
 *
 * @example
 * ```ts
 * import { SOFTWARE_STATES, type SoftwareState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_STATES as readonly unknown[]).includes(value);
 * const first: SoftwareState = SOFTWARE_STATES[0];
 * ```
 */
export type SoftwareState = (typeof SOFTWARE_STATES)[number];
/**
 * The values the API defines for the `action` of a software PATCH (pause, cancel or resume an upgrade).
 *
 * @example
 * ```ts
 * import { SOFTWARE_ACTIONS, type SoftwareAction } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_ACTIONS as readonly unknown[]).includes(value);
 * const first: SoftwareAction = SOFTWARE_ACTIONS[0];
 * ```
 */
export const SOFTWARE_ACTIONS = ["pause", "cancel", "resume"] as const;
/**
 * The `action` of a software PATCH (pause, cancel or resume an upgrade): one of {@link SOFTWARE_ACTIONS}.
 *
 * @example
 * ```ts
 * import { SOFTWARE_ACTIONS, type SoftwareAction } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_ACTIONS as readonly unknown[]).includes(value);
 * const first: SoftwareAction = SOFTWARE_ACTIONS[0];
 * ```
 */
export type SoftwareAction = (typeof SOFTWARE_ACTIONS)[number];
/**
 * The values the API defines for a validation check's `status`.
 *
 * @example
 * ```ts
 * import { SOFTWARE_CHECK_STATUSES, type SoftwareCheckStatus } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_CHECK_STATUSES as readonly unknown[]).includes(value);
 * const first: SoftwareCheckStatus = SOFTWARE_CHECK_STATUSES[0];
 * ```
 */
export const SOFTWARE_CHECK_STATUSES = ["warning", "error"] as const;
/**
 * A validation check's `status`: one of {@link SOFTWARE_CHECK_STATUSES}.
 *
 * @example
 * ```ts
 * import { SOFTWARE_CHECK_STATUSES, type SoftwareCheckStatus } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_CHECK_STATUSES as readonly unknown[]).includes(value);
 * const first: SoftwareCheckStatus = SOFTWARE_CHECK_STATUSES[0];
 * ```
 */
export type SoftwareCheckStatus = (typeof SOFTWARE_CHECK_STATUSES)[number];
/**
 * The values the API defines for a firmware update's `status`.
 *
 * @example
 * ```ts
 * import { FIRMWARE_UPDATE_STATUSES, type FirmwareUpdateStatus } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (FIRMWARE_UPDATE_STATUSES as readonly unknown[]).includes(value);
 * const first: FirmwareUpdateStatus = FIRMWARE_UPDATE_STATUSES[0];
 * ```
 */
export const FIRMWARE_UPDATE_STATUSES = ["running", "idle"] as const;
/**
 * A firmware update's `status`: one of {@link FIRMWARE_UPDATE_STATUSES}.
 *
 * @example
 * ```ts
 * import { FIRMWARE_UPDATE_STATUSES, type FirmwareUpdateStatus } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (FIRMWARE_UPDATE_STATUSES as readonly unknown[]).includes(value);
 * const first: FirmwareUpdateStatus = FIRMWARE_UPDATE_STATUSES[0];
 * ```
 */
export type FirmwareUpdateStatus = (typeof FIRMWARE_UPDATE_STATUSES)[number];
/**
 * The values the API defines for a service processor's firmware type.
 *
 * @example
 * ```ts
 * import { SP_BMC_FW_TYPES } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SP_BMC_FW_TYPES as readonly unknown[]).includes(value);
 * ```
 */
export const SP_BMC_FW_TYPES = ["SP", "BMC"] as const;
/**
 * The values the API defines for a service processor's firmware image.
 *
 * @example
 * ```ts
 * import { SP_BMC_IMAGES } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SP_BMC_IMAGES as readonly unknown[]).includes(value);
 * ```
 */
export const SP_BMC_IMAGES = ["primary", "backup"] as const;
/**
 * The values the API defines for a service processor firmware's state.
 *
 * @example
 * ```ts
 * import { SP_BMC_STATES } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SP_BMC_STATES as readonly unknown[]).includes(value);
 * ```
 */
export const SP_BMC_STATES = ["installed", "corrupt", "updating", "autoupdating", "none"] as const;
/**
 * The values the API defines for a service processor's last update state.
 *
 * @example
 * ```ts
 * import { SP_BMC_LAST_UPDATE_STATES } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SP_BMC_LAST_UPDATE_STATES as readonly unknown[]).includes(value);
 * ```
 */
export const SP_BMC_LAST_UPDATE_STATES = ["passed", "failed"] as const;
/**
 * The values the API defines for a firmware update's type.
 *
 * @example
 * ```ts
 * import { FIRMWARE_UPDATE_TYPES } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (FIRMWARE_UPDATE_TYPES as readonly unknown[]).includes(value);
 * ```
 */
export const FIRMWARE_UPDATE_TYPES = ["manual_update", "automatic_update"] as const;
/**
 * The values the API defines for a firmware update's progress status.
 *
 * @example
 * ```ts
 * import { FIRMWARE_PROGRESS_STATUSES } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (FIRMWARE_PROGRESS_STATUSES as readonly unknown[]).includes(value);
 * ```
 */
export const FIRMWARE_PROGRESS_STATUSES = ["idle", "working", "complete", "failed", "waiting_to_retry"] as const;

/**
 * Query parameters of `PATCH /api/cluster/software`.
 *
 * @example
 * ```ts
 * import { type SoftwarePatchQuery, software } from "clusterwire/storage";
 *
 * const query: SoftwarePatchQuery = { validate_only: true, return_timeout: 30 };
 * console.log(software.encodePatchQuery(query));
 * ```
 */
export interface SoftwarePatchQuery {
  /** Only validate the version, without installing it. */
  validate_only?: boolean;
  /** Go on despite validation warnings. */
  skip_warnings?: boolean;
  /** Pause, resume or cancel the upgrade in progress. */
  action?: SoftwareAction;
  /** 1..60 minutes (server default 8). */
  stabilize_minutes?: number;
  /** Only estimate the upgrade's duration. */
  estimate_only?: boolean;
  /** Node names; sent comma-separated. */
  nodes_to_update?: readonly string[];
  /** 0..120 seconds. */
  return_timeout?: number;
}

/** A node reference `{uuid, name, _links}`, as the profile and the history records (software-history.ts) write it. */
export const ref = obj({ uuid: str, name: str, _links: f("G", links) });
const message = obj({ message: str, code: int() });
const check = obj({ update_check: str, status: enm(SOFTWARE_CHECK_STATUSES), issue: message, action: message });

const firmware = obj({
  cluster_fw_progress: arr(
    obj({
      job: obj({ uuid: str, _links: links }),
      zip_file_name: str,
      update_type: enm(FIRMWARE_UPDATE_TYPES),
      update_state: arr(
        obj({ attempts: int(), code: int(), message: str, status: enm(FIRMWARE_PROGRESS_STATUSES), worker_node: ref }),
      ),
    }),
  ),
  shelf: obj({ in_progress_count: int(), update_status: enm(FIRMWARE_UPDATE_STATUSES) }),
  dqp: obj({
    revision: str,
    version: str,
    file_name: str,
    record_count: obj({ drive: int(), system: int(), device: int(), alias: int() }),
  }),
  sp_bmc: obj({
    start_time: datetime,
    end_time: datetime,
    image: enm(SP_BMC_IMAGES),
    is_current: bool,
    percent_done: int(),
    running_version: str,
    fw_type: enm(SP_BMC_FW_TYPES),
    in_progress: bool,
    state: enm(SP_BMC_STATES),
    last_update_state: enm(SP_BMC_LAST_UPDATE_STATES),
    autoupdate: bool,
  }),
  disk: obj({
    num_waiting_download: int(),
    total_completion_estimate: int(),
    average_duration_per_disk: int(),
    update_status: enm(FIRMWARE_UPDATE_STATUSES),
  }),
});

const updateDetail = obj({
  /** Seconds. */
  estimated_duration: int(),
  /** Seconds. */
  elapsed_duration: int(),
  state: enm(SOFTWARE_STATES),
  /** Free text, e.g. "Pre-update checks". */
  phase: str,
  node: ref,
});

const statusDetail = obj({
  start_time: datetime,
  end_time: datetime,
  state: enm(SOFTWARE_STATES),
  node: ref,
  /** Job-step name. */
  name: str,
  issue: message,
  action: message,
});

const metrocluster = obj({
  progress_summary: obj({ message: str }),
  progress_details: obj({ message: str }),
  clusters: arr(obj({ name: str, state: enm(SOFTWARE_STATES), estimated_duration: int(), elapsed_duration: int() })),
});

/** The schema (exported for type-level tests; not part of the public surface). */
export const profileSchema = obj({
  version: f("GPU", str),
  pending_version: f("G", str),
  state: f("G", enm(SOFTWARE_STATES)),
  action: f("GPU", enm(SOFTWARE_ACTIONS)),
  elapsed_duration: f("G", int()),
  estimated_duration: f("G", int()),
  validation_results: f("G", arr(check)),
  post_update_checks: f("G", arr(check)),
  update_details: f("G", arr(updateDetail)),
  status_details: f("G", arr(statusDetail)),
  nodes: f("G", arr(obj({ name: str, model: str, version: str, firmware }))),
  // `metrocluster` is read-only, although the API definition's field table marks it G, P, U.
  // Decision: every member the spec lists for it is progress the cluster reports
  // (`progress_summary.message`, `progress_details.message`, `clusters[]` with `state`,
  // `estimated_duration`, `elapsed_duration`), nothing in the spec says what writing it would
  // do, and the spec's endpoint table gives the PATCH body as `version` alone (plus `action`
  // from the field table). Upstream describes the object as an inter-cluster upgrade's progress
  // too. So the codec refuses it in PATCH with the same answer as the reference server (which
  // refuses it as a field that cannot be set), rather than send a body the cluster would ignore
  // or refuse.
  metrocluster: f("G", metrocluster, {
    refuse: "is read-only: it reports the progress of an inter-cluster upgrade (set `version` to start one)",
  }),
  _links: f("G", links),
});

/**
 * A validation or post-update check entry.
 *
 * @example
 * ```ts
 * import { type SoftwareCheck, type StorageClient } from "clusterwire/storage";
 *
 * const blocking = async (client: StorageClient): Promise<SoftwareCheck[]> => [...(await client.software.validate("9.16.1")).errors];
 * ```
 */
export type SoftwareCheck = InferModel<typeof check>;
/**
 * A per-node, per-phase progress entry (`update_details[]`); durations in seconds.
 *
 * @example
 * ```ts
 * import { type SoftwareUpdateDetail, type StorageClient } from "clusterwire/storage";
 *
 * const details = async (client: StorageClient): Promise<SoftwareUpdateDetail[]> => (await client.software.get()).update_details ?? [];
 * ```
 */
export type SoftwareUpdateDetail = InferModel<typeof updateDetail>;
/**
 * A per-node status entry (`status_details[]`).
 *
 * @example
 * ```ts
 * import { type SoftwareStatusDetail, type StorageClient } from "clusterwire/storage";
 *
 * const details = async (client: StorageClient): Promise<SoftwareStatusDetail[]> => (await client.software.get()).status_details ?? [];
 * ```
 */
export type SoftwareStatusDetail = InferModel<typeof statusDetail>;
/**
 * `nodes[].firmware`.
 *
 * @example
 * ```ts
 * import { type SoftwareFirmware, type StorageClient } from "clusterwire/storage";
 *
 * const firmware = async (client: StorageClient): Promise<SoftwareFirmware | undefined> => (await client.software.get()).nodes?.[0]?.firmware;
 * ```
 */
export type SoftwareFirmware = InferModel<typeof firmware>;
/**
 * The inter-cluster upgrade progress (`metrocluster`); read-only.
 *
 * @example
 * ```ts
 * import { type SoftwareMetrocluster, type StorageClient } from "clusterwire/storage";
 *
 * const mcc = async (client: StorageClient): Promise<SoftwareMetrocluster | undefined> => (await client.software.get()).metrocluster;
 * ```
 */
export type SoftwareMetrocluster = InferModel<typeof metrocluster>;
/**
 * The cluster software profile (`GET /api/cluster/software`), inferred from the schema.
 *
 * @example
 * ```ts
 * import { type SoftwareProfile, type StorageClient } from "clusterwire/storage";
 *
 * const version = async (client: StorageClient): Promise<string | undefined> => (await client.software.get()).version;
 * ```
 */
export type SoftwareProfile = InferModel<typeof profileSchema>;

/**
 * PATCH body, inferred from the schema (the members marked U): `version` (setting it starts the
 * install, or with `validate_only` a validation, of that version) or `action`.
 *
 * @example
 * ```ts
 * import { type SoftwarePatchInput, software } from "clusterwire/storage";
 *
 * const input: SoftwarePatchInput = { version: "9.15.1" };
 * console.log(software.encodePatch(input));
 * ```
 */
export type SoftwarePatchInput = InferPatchInput<typeof profileSchema>;

/**
 * Minimum and maximum `stabilize_minutes`.
 *
 * @example
 * ```ts
 * import { STABILIZE_MINUTES_RANGE, software } from "clusterwire/storage";
 *
 * console.log(software.encodePatchQuery({ stabilize_minutes: STABILIZE_MINUTES_RANGE.max }));
 * ```
 */
export const STABILIZE_MINUTES_RANGE = { min: 1, max: 60 } as const;
/**
 * Allowed `return_timeout` (seconds): 0..120.
 *
 * @example
 * ```ts
 * import { RETURN_TIMEOUT_RANGE, software } from "clusterwire/storage";
 *
 * console.log(software.encodePatchQuery({ return_timeout: RETURN_TIMEOUT_RANGE.max }));
 * ```
 */
export const RETURN_TIMEOUT_RANGE = { min: 0, max: 120 } as const;

function boolParam(q: Record<string, unknown>, key: string, out: Record<string, string>): void {
  const v = q[key];
  if (v === undefined) return;
  if (typeof v !== "boolean") throw new StorageCodecError(key, `must be a boolean, got ${showValue(v)}`);
  out[key] = String(v);
}

function intParam(
  q: Record<string, unknown>,
  key: string,
  range: { min: number; max: number },
  out: Record<string, string>,
): void {
  const v = q[key];
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < range.min || v > range.max) {
    throw new StorageCodecError(key, `must be an integer from ${range.min} to ${range.max}, got ${showValue(v)}`);
  }
  out[key] = String(v);
}

const QUERY_KEYS = new Set([
  "validate_only",
  "skip_warnings",
  "action",
  "stabilize_minutes",
  "estimate_only",
  "nodes_to_update",
  "return_timeout",
]);

/**
 * The codec of the cluster software profile: decodes it, and encodes PATCH bodies and query flags.
 *
 * @example
 * ```ts
 * import { software } from "clusterwire/storage";
 *
 * console.log(software.encodePatch({ version: "9.15.1" }), software.encodePatchQuery({ validate_only: true, stabilize_minutes: 5 }));
 * ```
 */
export const software = {
  /** The software profile. */
  decode(json: unknown): SoftwareProfile {
    return decodeBody(profileSchema, json);
  },
  /** PATCH body: `version` (start an install or validation) or `action`; `metrocluster` is read-only. */
  encodePatch(input: SoftwarePatchInput): JsonObject {
    const body = encodeBody(profileSchema, input, "PATCH");
    if (body["version"] === "") throw new StorageCodecError("version", "must not be empty");
    return body;
  },
  /**
   * The PATCH query parameters as strings in a fixed order (booleans "true"/"false",
   * `nodes_to_update` comma-separated). `stabilize_minutes` must be 1..60,
   * `return_timeout` 0..120, `action` one of pause/resume/cancel.
   */
  encodePatchQuery(query: SoftwarePatchQuery): Record<string, string> {
    if (!isPlainObject(query)) throw new StorageCodecError("", "the query must be an object");
    const q = query as Record<string, unknown>;
    for (const key of Object.keys(q)) {
      if (q[key] !== undefined && !QUERY_KEYS.has(key)) throw new StorageCodecError(key, "unknown query parameter");
    }
    const out: Record<string, string> = {};
    boolParam(q, "validate_only", out);
    boolParam(q, "skip_warnings", out);
    const action = q["action"];
    if (action !== undefined) {
      if (!(SOFTWARE_ACTIONS as readonly unknown[]).includes(action)) {
        throw new StorageCodecError("action", `must be one of "pause", "cancel", "resume", got ${showValue(action)}`);
      }
      out["action"] = action as string;
    }
    intParam(q, "stabilize_minutes", STABILIZE_MINUTES_RANGE, out);
    boolParam(q, "estimate_only", out);
    const nodes = q["nodes_to_update"];
    if (nodes !== undefined) {
      if (!Array.isArray(nodes) || nodes.length === 0) {
        throw new StorageCodecError("nodes_to_update", "must be a non-empty array of node names");
      }
      nodes.forEach((n, i) => {
        if (typeof n !== "string" || n === "" || n.includes(",")) {
          throw new StorageCodecError(`nodes_to_update[${i}]`, "must be a non-empty node name without commas");
        }
      });
      out["nodes_to_update"] = nodes.join(",");
    }
    intParam(q, "return_timeout", RETURN_TIMEOUT_RANGE, out);
    return out;
  },
} as const;
