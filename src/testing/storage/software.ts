// Cluster software (/api/cluster/software): the profile, packages, history, download progress
// and request bodies.

import fc from "fast-check";
import {
  FIRMWARE_PROGRESS_STATUSES,
  FIRMWARE_UPDATE_STATUSES,
  FIRMWARE_UPDATE_TYPES,
  PACKAGE_TRANSFER_ERRORS,
  SOFTWARE_ACTIONS,
  SOFTWARE_CHECK_STATUSES,
  SOFTWARE_DOWNLOAD_STATES,
  SOFTWARE_HISTORY_STATES,
  SOFTWARE_STATES,
  SP_BMC_FW_TYPES,
  SP_BMC_IMAGES,
  SP_BMC_LAST_UPDATE_STATES,
  SP_BMC_STATES,
  type SoftwareAction,
  type SoftwareDownloadInput,
  type SoftwareDownloadProgress,
  type SoftwareHistoryRecord,
  type SoftwarePackage,
  type SoftwarePatchInput,
  type SoftwarePatchQuery,
  type SoftwareProfile,
} from "../../storage/index.js";
import type { StorageModelOptions } from "./options.js";
import {
  some,
  maybe,
  selfLink,
  halOrPlain,
  enumOf,
  withNewer,
  need,
  interval,
  nodeName,
  NODES,
  JOBS,
} from "./shared.js";
import { arbStorageUuid, arbStorageVersion, arbStorageDateTime, modelRef } from "./building-blocks.js";

const duration = fc.nat({ max: 6 * 3600 });
const checkEntry = (o: StorageModelOptions) =>
  some({
    update_check: fc.constantFrom("Manual checks", "Disk status", "Aggregate status", "CIFS status", "Cluster health"),
    status: enumOf(SOFTWARE_CHECK_STATUSES, o),
    issue: some({
      message: fc.constantFrom(
        "Some disks are broken.",
        "Manual validation checks need to be performed.",
        "Not all aggregates are online.",
      ),
      code: fc.nat({ max: 100 }),
    }),
    action: some({
      message: fc.constantFrom(
        "Replace the broken disks.",
        "Review the upgrade documentation.",
        "Bring the aggregates online.",
      ),
      code: fc.nat({ max: 100 }),
    }),
  });

const firmware = (o: StorageModelOptions) =>
  some({
    cluster_fw_progress: fc.array(
      fc
        .tuple(
          arbStorageUuid(),
          some({
            zip_file_name: fc.constantFrom("fw_disk.zip", "qual_devices.zip"),
            update_type: enumOf(FIRMWARE_UPDATE_TYPES, o),
            update_state: fc.array(
              some({
                attempts: fc.nat({ max: 5 }),
                code: fc.nat(),
                message: fc.constantFrom("", "Firmware update completed."),
                status: enumOf(FIRMWARE_PROGRESS_STATUSES, o),
                worker_node: modelRef(NODES, nodeName),
              }),
              { maxLength: 2 },
            ),
          }),
        )
        .map(([uuid, rest]) => ({ job: { uuid, _links: selfLink(`${JOBS}/${uuid}`) }, ...rest })),
      { maxLength: 2 },
    ),
    shelf: some({ in_progress_count: fc.nat({ max: 10 }), update_status: enumOf(FIRMWARE_UPDATE_STATUSES, o) }),
    dqp: some({
      revision: fc.constantFrom("20200330", "20231012"),
      version: fc.constantFrom("3.18", "4.02"),
      file_name: fc.constantFrom("qual_devices_v3", "qual_devices_v4"),
      record_count: some({
        drive: fc.nat({ max: 1000 }),
        system: fc.nat({ max: 10 }),
        device: fc.nat({ max: 100 }),
        alias: fc.nat({ max: 500 }),
      }),
    }),
    sp_bmc: fc
      .tuple(
        interval,
        some({
          image: enumOf(SP_BMC_IMAGES, o),
          is_current: fc.boolean(),
          percent_done: fc.integer({ min: 0, max: 100 }),
          running_version: fc.constantFrom("1.0", "5.11", "11.8"),
          fw_type: enumOf(SP_BMC_FW_TYPES, o),
          in_progress: fc.boolean(),
          state: enumOf(SP_BMC_STATES, o),
          last_update_state: enumOf(SP_BMC_LAST_UPDATE_STATES, o),
          autoupdate: fc.boolean(),
        }),
        fc.boolean(),
      )
      .map(([times, rest, timed]) => (timed ? { start_time: times.start, end_time: times.end, ...rest } : rest)),
    disk: some({
      num_waiting_download: fc.nat({ max: 100 }),
      total_completion_estimate: fc.nat({ max: 600 }),
      average_duration_per_disk: fc.nat({ max: 600 }),
      update_status: enumOf(FIRMWARE_UPDATE_STATUSES, o),
    }),
  });

/**
 * Cluster software profiles as a server returns them (`GET /api/cluster/software`): versions
 * like `9.14.1`; `state` and `action` from the spec's sets; durations in whole seconds;
 * validation and post-update check entries; per-phase `update_details`; `status_details` with
 * start ≤ end; per-node versions and firmware; the MetroCluster progress. Every member is
 * optional. `software.decode` returns each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwareProfileModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwareProfileModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwareProfileModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwareProfile> {
  const state = enumOf(SOFTWARE_STATES, o);
  const profile = some({
    version: arbStorageVersion(),
    pending_version: arbStorageVersion(),
    state,
    action: enumOf(SOFTWARE_ACTIONS, o),
    elapsed_duration: duration,
    estimated_duration: duration,
    validation_results: fc.array(checkEntry(o), { maxLength: 3 }),
    post_update_checks: fc.array(checkEntry(o), { maxLength: 2 }),
    update_details: fc.array(
      some({
        estimated_duration: duration,
        elapsed_duration: duration,
        state,
        phase: fc.constantFrom("Pre-update checks", "Data ONTAP updates", "Post-update checks"),
        node: nodeName.map((name) => ({ name })),
      }),
      { maxLength: 4 },
    ),
    status_details: fc.array(
      fc
        .tuple(
          interval,
          some({
            state,
            node: nodeName.map((name) => ({ name })),
            name: fc.constantFrom("do-download-job", "do-update-job", "do-takeover"),
            issue: some({ code: fc.nat({ max: 100 }), message: fc.constantFrom("", "Image update complete.") }),
            action: some({
              code: fc.nat({ max: 100 }),
              message: fc.constantFrom("", "Wait for the node to come back."),
            }),
          }),
        )
        .map(([times, rest]) => ({ start_time: times.start, end_time: times.end, ...rest })),
      { maxLength: 3 },
    ),
    nodes: fc.array(
      some({
        name: nodeName,
        model: fc.constantFrom("AFF-A400", "FAS8300", "sim"),
        version: arbStorageVersion(),
        firmware: firmware(o),
      }),
      { maxLength: 2 },
    ),
    metrocluster: some({
      progress_summary: some({ message: fc.constantFrom("", "Upgrade in progress on cluster_A.") }),
      progress_details: some({ message: fc.constantFrom("", "Switchover complete.") }),
      clusters: fc.array(
        some({
          name: fc.constantFrom("cluster_A", "cluster_B"),
          state,
          estimated_duration: duration,
          elapsed_duration: duration,
        }),
        { maxLength: 2 },
      ),
    }),
  }).map((p): SoftwareProfile => ({ ...p, _links: selfLink("/api/cluster/software") }));
  return withNewer(halOrPlain(profile), o);
}

/**
 * Software packages (`version` always, `create_time` when read one by one, `_links` to `/api/cluster/software/packages/<version>`); `softwarePackage.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwarePackageModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwarePackageModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwarePackageModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwarePackage> {
  const pkg = fc.tuple(arbStorageVersion(), maybe(arbStorageDateTime())).map(
    ([version, created]): SoftwarePackage => ({
      version,
      ...(created === undefined ? {} : { create_time: created }),
      _links: selfLink(`/api/cluster/software/packages/${encodeURIComponent(version)}`),
    }),
  );
  return withNewer(halOrPlain(pkg), o);
}

/**
 * Software history records: a node reference, `from_version` before `to_version` (a later
 * minor release), a state from the spec's set, `start_time` ≤ `end_time`. Members other than
 * the versions are optional. `softwareHistory.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwareHistoryModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwareHistoryModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwareHistoryModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwareHistoryRecord> {
  const rec = fc
    .tuple(
      fc.tuple(
        fc.integer({ min: 9, max: 10 }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat({ max: 1 }),
      ),
      interval,
      some({ node: modelRef(NODES, nodeName), state: enumOf(SOFTWARE_HISTORY_STATES, o) }),
      fc.boolean(),
    )
    .map(
      ([[major, minor, step, micro], times, rest, timed]): SoftwareHistoryRecord => ({
        ...rest,
        from_version: `${major}.${minor}.${micro}`,
        to_version: `${major}.${minor + step}.${micro}`,
        ...(timed ? { start_time: times.start, end_time: times.end } : {}),
      }),
    );
  return withNewer(rec, o);
}

const TRANSFER_FAILURES = Object.values(PACKAGE_TRANSFER_ERRORS).filter(
  (e) => e.code !== PACKAGE_TRANSFER_ERRORS.FIRMWARE_UPDATE_COMPLETED.code,
);

/**
 * Download progress (`GET /api/cluster/software/download`): `not_started` and `success` with
 * code 0, `running` with code 10551382, `failure` with a code and message from the spec's
 * package-transfer table. `softwareDownload.decode` returns each unchanged; none carries a password.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwareDownloadProgressModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwareDownloadProgressModel({ newerServer: true }), 2));
 * ```
 */
export function arbSoftwareDownloadProgressModel(o: StorageModelOptions = {}): fc.Arbitrary<SoftwareDownloadProgress> {
  const progress = fc
    .tuple(fc.constantFrom(...SOFTWARE_DOWNLOAD_STATES), fc.constantFrom(...TRANSFER_FAILURES))
    .map(([state, failure]): SoftwareDownloadProgress => {
      switch (state) {
        case "not_started":
          return { state, message: "No package download has been started.", code: 0 };
        case "running":
          return { state, message: "Package download in progress", code: 10551382 };
        case "success":
          return { state, message: "Package download completed.", code: 0 };
        case "failure":
          return { state, message: failure.meaning, code: failure.code };
      }
      throw new Error(`unknown download state ${JSON.stringify(state satisfies never)}`);
    });
  return withNewer(progress, o);
}

/**
 * Package download POST bodies: an `http`, `https` or `ftp` URL of a package file whose name
 * holds a version (`image_9.15.1P2.tgz`), optional `username` and `password` (8..24 printable
 * characters). `softwareDownload.encodePost` accepts every value.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { softwareDownload } from "clusterwire/storage";
 * import { arbSoftwareDownloadPost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbSoftwareDownloadPost(), (input) => typeof softwareDownload.encodePost(input) === "object"));
 * ```
 */
export function arbSoftwareDownloadPost(): fc.Arbitrary<SoftwareDownloadInput> {
  const url = fc
    .tuple(
      fc.constantFrom("http", "https", "ftp"),
      fc.constantFrom("packages.example.com", "10.0.0.5", "mirror.example.net:8080"),
      fc.array(fc.constantFrom("ontap", "images", "release", "pub"), { maxLength: 2 }),
      arbStorageVersion(),
      fc.constantFrom("image_%.tgz", "%_q_image.tgz", "ontap-%.tgz"),
    )
    .map(
      ([scheme, host, dirs, version, pattern]) =>
        `${scheme}://${host}/${[...dirs, pattern.replace("%", version)].join("/")}`,
    );
  return some(
    {
      url,
      username: fc.constantFrom("admin", "download", "svc_fw"),
      password: fc.stringMatching(/^[A-Za-z0-9!#%&*+.:=?@^_~-]{8,24}$/),
    },
    ["url"],
  );
}

/**
 * Options of {@link arbSoftwarePatch}: the versions to draw from.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwarePatch } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwarePatch({ versions: ["9.15.1", "9.16.1"] }), 2));
 * ```
 */
export interface ArbSoftwarePatchOptions {
  /** Versions `version` may name (e.g. the packages on the cluster); default random versions. */
  readonly versions?: readonly string[];
}

/**
 * Software PATCH bodies: `{version}` (start an install, or a validation or estimate with the
 * query flags) or `{action}` (pause, cancel, resume), never both. `software.encodePatch`
 * accepts every value.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { software } from "clusterwire/storage";
 * import { arbSoftwarePatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbSoftwarePatch(), (input) => typeof software.encodePatch(input) === "object"));
 * ```
 */
export function arbSoftwarePatch(options: ArbSoftwarePatchOptions = {}): fc.Arbitrary<SoftwarePatchInput> {
  const version =
    options.versions === undefined
      ? arbStorageVersion()
      : fc.constantFrom(...need(options.versions, "version", "arbSoftwarePatch"));
  return fc.oneof(
    version.map((v): SoftwarePatchInput => ({ version: v })),
    fc.constantFrom(...SOFTWARE_ACTIONS).map((action: SoftwareAction): SoftwarePatchInput => ({ action })),
  );
}

/**
 * Software PATCH query flags that `software.encodePatchQuery` accepts: booleans,
 * `stabilize_minutes` 1..60, `action`, `nodes_to_update` (1..3 distinct node names without
 * commas, from `nodes` when given) and `return_timeout` 0..120.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSoftwarePatchQuery } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbSoftwarePatchQuery(), 2));
 * ```
 */
export function arbSoftwarePatchQuery(
  options: { readonly nodes?: readonly string[] } = {},
): fc.Arbitrary<SoftwarePatchQuery> {
  const node =
    options.nodes === undefined ? nodeName : fc.constantFrom(...need(options.nodes, "node", "arbSoftwarePatchQuery"));
  return some({
    validate_only: fc.boolean(),
    skip_warnings: fc.boolean(),
    action: fc.constantFrom(...SOFTWARE_ACTIONS),
    stabilize_minutes: fc.integer({ min: 1, max: 60 }),
    estimate_only: fc.boolean(),
    nodes_to_update: fc.uniqueArray(node, { minLength: 1, maxLength: 3 }),
    return_timeout: fc.integer({ min: 0, max: 120 }),
  });
}
