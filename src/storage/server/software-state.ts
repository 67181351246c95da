// Cluster software: the state of /api/cluster/software (installed version, package store, the
// upgrade state machine, history) and the profile and package records a GET shows.
//
// State machine (profile `state`), driven by the clock in steps of `stepMs`:
//   PATCH version + validate_only=true → job; at its end `validation_results` hold the
//     package's checks and the state is `completed`, or `failed` (job failure) when a check
//     is an error.
//   PATCH version → needs a prior validation of that version without errors, and without
//     warnings unless skip_warnings=true → `in_progress`, `pending_version` set; steps
//     "Pre-update checks", one "Data ONTAP updates" step per node, "Post-update checks",
//     reported in `update_details` and `status_details`; at the end `completed`, `version`
//     = the new version, one history record per node.
//   action=pause (in_progress) → `pause_pending` → `paused_by_user` when the running step ends.
//   action=resume (paused_by_user | paused_on_error) → `in_progress`.
//   action=cancel (in_progress, pause_pending, paused_*) → `cancel_pending` → `canceled`
//     when the running step ends (at once when paused); history records `canceled`.
//   A package seeded with `failOnNode` pauses the upgrade on that node's step with
//     `paused_on_error` (once); resume retries the step.
//   estimate_only=true → job; sets `estimated_duration` only.

import { isoTime } from "./clock.js";
import { selfLink } from "./http.js";
import { type JsonObject, clone, compact } from "./json.js";
import type { ServerState } from "./state.js";

/**
 * One validation check result a software package reports.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({
 *   software: {
 *     packages: [{ version: "9.17.1", checks: [{ update_check: "Disk health", status: "warning", issue: "One disk is slow." }] }],
 *   },
 * });
 * await server.close();
 * ```
 */
export interface CheckSeed {
  /** The check's name. */
  readonly update_check: string;
  /** How bad the finding is. */
  readonly status: "warning" | "error";
  /** What was found. */
  readonly issue: string;
  /** What to do about it. */
  readonly action?: string;
}

/**
 * A software package in the server's package store.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ software: { packages: [{ version: "9.17.1", failOnNode: "node2" }] } });
 * await server.close();
 * ```
 */
export interface SoftwarePackageSeed {
  /** The package's version, e.g. `9.17.1`. */
  readonly version: string;
  /** ISO date-time; default the server start time. */
  readonly create_time?: string;
  /** What validation reports for this version; default none. */
  readonly checks?: readonly CheckSeed[];
  /** Node name whose update step fails once (`paused_on_error`). */
  readonly failOnNode?: string;
}

/**
 * The cluster software of the reference server: installed version, package store and upgrade speed.
 *
 * @example
 * ```ts
 * import { createManualClock, createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ clock: createManualClock(), software: { version: "9.15.1", stepMs: 10, uploadEnabled: false } });
 * await server.close();
 * ```
 */
export interface SoftwareOptions {
  /** Installed version; default "9.14.1". */
  readonly version?: string;
  /** Packages in the store; default 9.15.1 (one warning) and 9.16.1 (one error). */
  readonly packages?: readonly SoftwarePackageSeed[];
  /** Clock milliseconds per upgrade step; default 1000. */
  readonly stepMs?: number;
  /** Whether upload is enabled (else error 10551798); default true. */
  readonly uploadEnabled?: boolean;
}

export const DEFAULT_SOFTWARE_PACKAGES: readonly SoftwarePackageSeed[] = [
  {
    version: "9.15.1",
    checks: [
      {
        update_check: "Manual checks",
        status: "warning",
        issue: "Manual validation checks need to be performed.",
        action: "Review the upgrade documentation.",
      },
    ],
  },
  {
    version: "9.16.1",
    checks: [
      {
        update_check: "Disk status",
        status: "error",
        issue: "Some disks are broken.",
        action: "Replace the broken disks.",
      },
    ],
  },
];

export const ACTIVE = [
  "in_progress",
  "waiting",
  "paused_by_user",
  "paused_on_error",
  "pause_pending",
  "cancel_pending",
];

export interface Step {
  readonly phase: string;
  readonly node: string | undefined;
  state: string;
  start: number | undefined;
  end: number | undefined;
  issue: { code: number; message: string } | undefined;
}

export interface Upgrade {
  readonly from: string;
  readonly to: string;
  readonly nodes: readonly string[];
  readonly steps: Step[];
  readonly failOnNode: string | undefined;
  failedOnce: boolean;
  progressMs: number;
  lastAt: number;
  index: number;
  readonly startedAt: number;
}

export interface Pkg {
  readonly seq: number;
  readonly version: string;
  readonly createTime: string;
  readonly checks: readonly CheckSeed[];
  readonly failOnNode: string | undefined;
}

/**
 * The software state machine and its views; `Software` (software.ts) adds the HTTP handlers.
 */
export class SoftwareState {
  protected version: string;
  protected readonly packages = new Map<string, Pkg>();
  protected readonly stepMs: number;
  protected readonly uploadEnabled: boolean;
  protected state: string | undefined;
  protected validationResults: JsonObject[] = [];
  protected readonly validated = new Map<string, { errors: boolean; warnings: boolean }>();
  protected validating: string | undefined;
  protected estimatedDuration = 0;
  /** True after an estimate_only job, until the next upgrade starts. */
  protected estimateIsNewer = false;
  protected upgrade: Upgrade | undefined;
  protected readonly history: JsonObject[] = [];
  /** Upload jobs not yet ended, by version: a second upload of the version is a conflict. */
  protected readonly uploading = new Map<string, string>();
  protected download: JsonObject = { state: "not_started", message: "No package download has been started.", code: 0 };

  constructor(
    protected readonly s: ServerState,
    options: SoftwareOptions,
  ) {
    this.version = options.version ?? "9.14.1";
    this.stepMs = options.stepMs ?? 1000;
    this.uploadEnabled = options.uploadEnabled ?? true;
    const now = isoTime(s.clock.now());
    for (const p of options.packages ?? DEFAULT_SOFTWARE_PACKAGES)
      this.addPackage(p.version, p.create_time ?? now, p.checks ?? [], p.failOnNode);
    const start = s.clock.now() - 30 * 86400_000;
    for (const n of s.inventory.nodes) {
      this.history.push({
        node: { uuid: n.uuid, name: n.name },
        from_version: "9.13.1",
        to_version: this.version,
        state: "successful",
        start_time: isoTime(start),
        end_time: isoTime(start + 3600_000),
      });
    }
  }

  protected addPackage(
    version: string,
    createTime: string,
    checks: readonly CheckSeed[],
    failOnNode: string | undefined,
  ): void {
    this.packages.set(version, { seq: this.s.nextSeq(), version, createTime, checks, failOnNode });
  }

  // -------------------------------------------------------------------------------------
  // Time.

  tick(): void {
    const u = this.upgrade;
    if (u === undefined || !["in_progress", "pause_pending", "cancel_pending"].includes(this.state ?? "")) return;
    const now = this.s.clock.now();
    u.progressMs += now - u.lastAt;
    u.lastAt = now;
    while (u.index < u.steps.length && u.progressMs >= (u.index + 1) * this.stepMs) {
      const step = u.steps[u.index] as Step;
      // When the step ended: now, less the progress made since (pauses are not progress).
      const at = now - (u.progressMs - (u.index + 1) * this.stepMs);
      if (step.node !== undefined && step.node === u.failOnNode && !u.failedOnce) {
        u.failedOnce = true;
        step.state = "failed";
        step.issue = { code: 1, message: `Update of node ${step.node} failed; resume to retry.` };
        u.progressMs = u.index * this.stepMs;
        this.state = "paused_on_error";
        return;
      }
      step.state = "completed";
      step.end = at;
      step.issue = undefined;
      u.index++;
      const next = u.steps[u.index];
      if (next !== undefined) {
        next.state = "in_progress";
        next.start = at;
      }
      if (this.state === "pause_pending") {
        // Paused from the end of the step: the next one starts when resumed, and the time
        // between the step's end and this tick is not progress.
        if (next !== undefined) {
          next.state = "waiting";
          next.start = undefined;
        }
        u.progressMs = u.index * this.stepMs;
        this.state = "paused_by_user";
        return;
      }
      if (this.state === "cancel_pending") {
        this.finishCanceled();
        return;
      }
    }
    if (u.index >= u.steps.length) this.finishCompleted();
  }

  private finishCompleted(): void {
    const u = this.upgrade as Upgrade;
    this.recordHistory(u, "successful");
    this.version = u.to;
    this.state = "completed";
    this.upgrade = { ...u };
  }

  protected finishCanceled(): void {
    const u = this.upgrade as Upgrade;
    for (const st of u.steps) if (st.state !== "completed") st.state = "canceled";
    this.recordHistory(u, "canceled");
    this.state = "canceled";
  }

  private recordHistory(u: Upgrade, state: string): void {
    const end = this.s.clock.now();
    for (const name of u.nodes) {
      const node = this.s.inventory.nodes.find((n) => n.name === name);
      this.history.push({
        node: { uuid: node?.uuid ?? "", name },
        from_version: u.from,
        to_version: u.to,
        state,
        start_time: isoTime(u.startedAt),
        end_time: isoTime(end),
      });
    }
  }

  // -------------------------------------------------------------------------------------
  // Views.

  protected profile(): JsonObject {
    const u = this.upgrade;
    const active = ACTIVE.includes(this.state ?? "");
    const nodeVersion = (name: string): string =>
      u !== undefined &&
      this.state !== "canceled" &&
      u.nodes.includes(name) &&
      u.steps.some((st) => st.node === name && st.state === "completed")
        ? u.to
        : u !== undefined && this.state === "completed" && u.nodes.includes(name)
          ? u.to
          : this.version;
    return compact({
      version: this.version,
      pending_version: active ? u?.to : undefined,
      state: this.state,
      elapsed_duration: u === undefined ? 0 : Math.floor(u.progressMs / 1000),
      // The latest estimate_only result wins over the estimate of an earlier upgrade.
      estimated_duration:
        u === undefined || this.estimateIsNewer
          ? this.estimatedDuration
          : Math.floor((u.steps.length * this.stepMs) / 1000),
      validation_results: clone(this.validationResults),
      post_update_checks: [],
      update_details:
        u === undefined
          ? []
          : u.steps.map((st) =>
              compact({
                phase: st.phase,
                state: st.state,
                node: st.node === undefined ? undefined : { name: st.node },
                elapsed_duration:
                  st.start === undefined
                    ? 0
                    : Math.floor(((st.end ?? Math.min(this.s.clock.now(), st.start + this.stepMs)) - st.start) / 1000),
                estimated_duration: Math.floor(this.stepMs / 1000),
              }),
            ),
      status_details:
        u === undefined
          ? []
          : u.steps
              .filter((st) => st.start !== undefined)
              .map((st) =>
                compact({
                  name: st.phase,
                  state: st.state,
                  node: { name: st.node ?? this.s.inventory.nodes[0]?.name ?? "" },
                  start_time: st.start === undefined ? undefined : isoTime(st.start),
                  end_time: st.end === undefined ? undefined : isoTime(st.end),
                  issue:
                    st.issue === undefined
                      ? { code: 0, message: "" }
                      : { code: st.issue.code, message: st.issue.message },
                }),
              ),
      nodes: this.s.inventory.nodes.map((n) => ({
        name: n.name,
        version: nodeVersion(n.name),
        firmware: {
          cluster_fw_progress: [],
          shelf: { in_progress_count: 0, update_status: "idle" },
          dqp: {
            revision: "20200330",
            version: "3.18",
            file_name: "qual_devices_v3",
            record_count: { drive: 680, system: 3, device: 29, alias: 200 },
          },
          sp_bmc: {
            image: "primary",
            is_current: true,
            percent_done: 100,
            running_version: "1.0",
            fw_type: "SP",
            in_progress: false,
          },
          disk: {
            num_waiting_download: 0,
            total_completion_estimate: 0,
            average_duration_per_disk: 120,
            update_status: "idle",
          },
        },
      })),
      metrocluster: { progress_summary: { message: "" }, progress_details: { message: "" }, clusters: [] },
      _links: selfLink("/api/cluster/software"),
    });
  }

  protected packageRecord(p: Pkg): JsonObject {
    return {
      version: p.version,
      create_time: p.createTime,
      _links: selfLink(`/api/cluster/software/packages/${encodeURIComponent(p.version)}`),
    };
  }
}
