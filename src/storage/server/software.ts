// Cluster software: the profile at /api/cluster/software with its upgrade state machine,
// packages, download, upload (multipart, one file) and history.
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
import {
  HttpError,
  SERVER_ERROR_CODES,
  badState,
  conflict,
  invalid,
  notFound,
  required,
  unknownReference,
} from "./errors.js";
import {
  type Ctx,
  type Reply,
  type Resource,
  type Route,
  bodyOf,
  instanceReply,
  jobReply,
  listReply,
  param,
  selfLink,
} from "./http.js";
import { type FieldPolicy, type JsonObject, clone, compact } from "./json.js";
import type { ServerState } from "./state.js";
import { obj, str, text, validateBody } from "./values.js";

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

const VERSION_RE = /\d+\.\d+(?:\.\d+)*(?:[A-Za-z]+\d*)?/;
/** Longest file name looked at (NAME_MAX): VERSION_RE costs time quadratic in a run of digits. */
const MAX_FILE_NAME = 255;
/** Largest header block of one multipart part: the part-header regexes are quadratic at worst. */
const MAX_PART_HEADER_BYTES = 8 * 1024;
const VALIDATION_FAILED = "262192";
const ACTIVE = ["in_progress", "waiting", "paused_by_user", "paused_on_error", "pause_pending", "cancel_pending"];

// `metrocluster` is refused in PATCH although the spec's field table marks it G, P, U: every
// member the spec gives it is reported progress, and the spec's PATCH endpoint takes `version`
// (with `action` from the field table). The codecs make the same decision independently.
const PATCH = obj({ version: str(), action: str({ enum: ["pause", "cancel", "resume"] }) }, [
  "pending_version",
  "state",
  "elapsed_duration",
  "estimated_duration",
  "validation_results",
  "post_update_checks",
  "update_details",
  "status_details",
  "nodes",
  "metrocluster",
  "_links",
]);
const DOWNLOAD = obj({ url: str(), username: str(), password: str() });

export const SOFTWARE_FIELDS: FieldPolicy = {
  known: [
    "version",
    "pending_version",
    "state",
    "action",
    "elapsed_duration",
    "estimated_duration",
    "validation_results",
    "post_update_checks",
    "update_details",
    "status_details",
    "nodes",
    "metrocluster",
  ],
  expensive: [],
  collectionDefault: "all",
  instanceIncludesExpensive: true,
  keys: [],
};
export const PACKAGE_FIELDS: FieldPolicy = {
  known: ["version", "create_time"],
  expensive: [],
  collectionDefault: [],
  instanceIncludesExpensive: true,
  keys: ["version"],
};
export const HISTORY_FIELDS: FieldPolicy = {
  known: ["node.name", "node.uuid", "from_version", "to_version", "state", "start_time", "end_time"],
  expensive: [],
  collectionDefault: "all",
  instanceIncludesExpensive: true,
  keys: [],
};

interface Step {
  readonly phase: string;
  readonly node: string | undefined;
  state: string;
  start: number | undefined;
  end: number | undefined;
  issue: { code: number; message: string } | undefined;
}

interface Upgrade {
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

interface Pkg {
  readonly seq: number;
  readonly version: string;
  readonly createTime: string;
  readonly checks: readonly CheckSeed[];
  readonly failOnNode: string | undefined;
}

export class Software implements Resource {
  private version: string;
  private readonly packages = new Map<string, Pkg>();
  private readonly stepMs: number;
  private readonly uploadEnabled: boolean;
  private state: string | undefined;
  private validationResults: JsonObject[] = [];
  private readonly validated = new Map<string, { errors: boolean; warnings: boolean }>();
  private validating: string | undefined;
  private estimatedDuration = 0;
  /** True after an estimate_only job, until the next upgrade starts. */
  private estimateIsNewer = false;
  private upgrade: Upgrade | undefined;
  private readonly history: JsonObject[] = [];
  /** Upload jobs not yet ended, by version: a second upload of the version is a conflict. */
  private readonly uploading = new Map<string, string>();
  private download: JsonObject = { state: "not_started", message: "No package download has been started.", code: 0 };

  constructor(
    private readonly s: ServerState,
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

  private addPackage(
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
      const at = u.startedAt + (u.index + 1) * this.stepMs;
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
        if (next !== undefined) next.state = "waiting";
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

  private finishCanceled(): void {
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

  private profile(): JsonObject {
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

  private packageRecord(p: Pkg): JsonObject {
    return {
      version: p.version,
      create_time: p.createTime,
      _links: selfLink(`/api/cluster/software/packages/${encodeURIComponent(p.version)}`),
    };
  }

  // -------------------------------------------------------------------------------------
  // PATCH /api/cluster/software.

  private async patch(ctx: Ctx): Promise<Reply> {
    const q = ctx.query;
    const validateOnly = q.bool("validate_only") ?? false;
    const skipWarnings = q.bool("skip_warnings") ?? false;
    const estimateOnly = q.bool("estimate_only") ?? false;
    const queryAction = q.single("action");
    q.int("stabilize_minutes", 1, 60);
    const nodesRaw = q.single("nodes_to_update");
    for (const p of ["show_validation_details", "skip_nodes_at_target_version", "force_rolling"]) q.bool(p);
    q.single("pause_after");
    const rt = q.returnTimeout(0);
    q.done();
    const body = validateBody(bodyOf(ctx), PATCH);
    if (queryAction !== undefined && !["pause", "resume", "cancel"].includes(queryAction)) {
      throw invalid("action", `Query parameter "action" must be pause, resume or cancel.`);
    }
    const bodyAction = text(body, "action");
    if (queryAction !== undefined && bodyAction !== undefined && queryAction !== bodyAction) {
      throw conflict("action", `"action" is given twice with different values.`);
    }
    const action = bodyAction ?? queryAction;
    const version = text(body, "version");
    if (action !== undefined && version !== undefined)
      throw conflict("action", `"action" and "version" cannot be combined.`);
    if (action !== undefined) return this.act(ctx, action, rt);
    if (version === undefined) throw required("version", `Field "version" or "action" is required.`);
    const pkg = this.packages.get(version);
    if (pkg === undefined)
      throw new HttpError(
        400,
        SERVER_ERROR_CODES.PACKAGE_NOT_FOUND,
        `Package "${version}" does not exist on the system.`,
        "version",
      );
    if (ACTIVE.includes(this.state ?? "")) throw badState("An update is in progress.", "version");
    if (this.validating !== undefined) throw badState("A validation is in progress.", "version");
    let nodes = this.s.inventory.nodes.map((n) => n.name);
    if (nodesRaw !== undefined) {
      const wanted = nodesRaw
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x !== "");
      for (const w of wanted) if (!nodes.includes(w)) throw unknownReference("nodes_to_update", `Node "${w}"`);
      if (wanted.length === 0) throw invalid("nodes_to_update", `Query parameter "nodes_to_update" names no node.`);
      nodes = wanted;
    }
    const description = `PATCH /api/cluster/software`;
    if (validateOnly) {
      this.validating = version;
      const job = this.s.jobs.create(description, () => {
        this.validating = undefined;
        this.validationResults = pkg.checks.map((c) =>
          compact({
            update_check: c.update_check,
            status: c.status,
            issue: { message: c.issue },
            action: c.action === undefined ? undefined : { message: c.action },
          }),
        );
        const errors = pkg.checks.some((c) => c.status === "error");
        this.validated.set(version, { errors, warnings: pkg.checks.some((c) => c.status === "warning") });
        this.upgrade = undefined;
        this.state = errors ? "failed" : "completed";
        if (errors) throw new HttpError(400, VALIDATION_FAILED, "Validation reported errors; see validation_results.");
      });
      return jobReply(ctx, job.uuid, 200, rt);
    }
    if (estimateOnly) {
      const job = this.s.jobs.create(description, () => {
        this.estimatedDuration = Math.floor(((nodes.length + 2) * this.stepMs) / 1000);
        this.estimateIsNewer = true;
      });
      return jobReply(ctx, job.uuid, 200, rt);
    }
    if (version === this.version) throw conflict("version", `Version "${version}" is already installed.`);
    const v = this.validated.get(version);
    if (v === undefined) throw badState("Validation must be run before an upgrade (validate_only=true).", "version");
    if (v.errors) throw badState("The validation of this version reported errors.", "version");
    if (v.warnings && !skipWarnings)
      throw badState(
        "The validation of this version reported warnings; fix them or set skip_warnings=true.",
        "skip_warnings",
      );
    const now = this.s.clock.now();
    const steps: Step[] = [
      {
        phase: "Pre-update checks",
        node: undefined,
        state: "in_progress",
        start: now,
        end: undefined,
        issue: undefined,
      },
      ...nodes.map(
        (n): Step => ({
          phase: "Data ONTAP updates",
          node: n,
          state: "waiting",
          start: undefined,
          end: undefined,
          issue: undefined,
        }),
      ),
      {
        phase: "Post-update checks",
        node: undefined,
        state: "waiting",
        start: undefined,
        end: undefined,
        issue: undefined,
      },
    ];
    this.upgrade = {
      from: this.version,
      to: version,
      nodes,
      steps,
      failOnNode: pkg.failOnNode,
      failedOnce: false,
      progressMs: 0,
      lastAt: now,
      index: 0,
      startedAt: now,
    };
    this.state = "in_progress";
    this.estimateIsNewer = false;
    const job = this.s.jobs.create(description, () => {});
    return jobReply(ctx, job.uuid, 200, rt);
  }

  private async act(ctx: Ctx, action: string, rt: number): Promise<Reply> {
    const st = this.state ?? "";
    const u = this.upgrade;
    if (action === "pause") {
      if (st !== "in_progress") throw badState("Pause is allowed only while an update is in progress.", "action");
      this.state = "pause_pending";
    } else if (action === "resume") {
      if (st !== "paused_by_user" && st !== "paused_on_error")
        throw badState("Resume is allowed only when the upgrade is paused.", "action");
      this.state = "in_progress";
      if (u !== undefined) {
        u.lastAt = this.s.clock.now();
        const step = u.steps[u.index];
        if (step !== undefined) {
          step.state = "in_progress";
          step.start ??= u.lastAt;
        }
      }
    } else {
      if (!["in_progress", "pause_pending", "paused_by_user", "paused_on_error", "waiting"].includes(st)) {
        throw badState("Cancel is allowed only while an update is running or paused.", "action");
      }
      if (st === "paused_by_user" || st === "paused_on_error") this.finishCanceled();
      else this.state = "cancel_pending";
    }
    const job = this.s.jobs.create(`PATCH /api/cluster/software?action=${action}`, () => {});
    return jobReply(ctx, job.uuid, 200, rt);
  }

  // -------------------------------------------------------------------------------------
  // Download and upload.

  private versionFromFile(name: string): string | undefined {
    const base = name.split("/").pop() ?? "";
    return base.length > MAX_FILE_NAME ? undefined : VERSION_RE.exec(base)?.[0];
  }

  private async startDownload(ctx: Ctx): Promise<Reply> {
    const rt = ctx.query.returnTimeout(0);
    ctx.query.bool("return_records");
    ctx.query.done();
    const body = validateBody(bodyOf(ctx), DOWNLOAD);
    const url = text(body, "url");
    if (url === undefined) throw required("url");
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid("url", `Field "url" must be an HTTP, HTTPS or FTP address.`);
    }
    if (!["http:", "https:", "ftp:"].includes(parsed.protocol))
      throw invalid("url", `Field "url" must be an HTTP, HTTPS or FTP address.`);
    if (this.download["state"] === "running") throw badState("A package download is already running.");
    // The password is a write-only secret for the remote server: it is not kept.
    this.download = { state: "running", message: "Package download in progress", code: 10551382 };
    const file = parsed.pathname;
    const job = this.s.jobs.create("POST /api/cluster/software/download", () => {
      const version = this.versionFromFile(file);
      if (version === undefined) {
        this.download = {
          state: "failure",
          message: "Copy of the file from the web server failed.",
          code: Number(SERVER_ERROR_CODES.REMOTE_COPY_FAILED),
        };
        throw new HttpError(400, SERVER_ERROR_CODES.REMOTE_COPY_FAILED, "Copy of the file from the web server failed.");
      }
      if (this.packages.has(version)) {
        this.download = {
          state: "failure",
          message: "The package already exists.",
          code: Number(SERVER_ERROR_CODES.FIRMWARE_FILE_EXISTS),
        };
        throw new HttpError(400, SERVER_ERROR_CODES.FIRMWARE_FILE_EXISTS, "The package already exists.");
      }
      this.addPackage(version, isoTime(this.s.clock.now()), [], undefined);
      this.download = { state: "success", message: "Package download completed.", code: 0 };
    });
    return jobReply(ctx, job.uuid, 201, rt);
  }

  private async upload(ctx: Ctx): Promise<Reply> {
    const rt = ctx.query.returnTimeout(0);
    ctx.query.bool("return_records");
    ctx.query.done();
    if (!this.uploadEnabled) throw new HttpError(400, SERVER_ERROR_CODES.UPLOAD_DISABLED, "File upload is disabled.");
    const m = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(ctx.contentType);
    if (m === null) throw invalid("file", "The upload must be multipart/form-data with a boundary.");
    const boundary = (m[1] ?? m[2]) as string;
    const files = parseMultipart(ctx.rawBody, boundary);
    if (files === undefined) throw invalid("file", "The multipart body is malformed.");
    if (files.length > 1) {
      throw new HttpError(
        400,
        SERVER_ERROR_CODES.UPLOAD_MORE_THAN_ONE_FILE,
        "The request contains more than one file; only a single file is supported.",
        "file",
      );
    }
    const file = files[0];
    if (file === undefined) throw required("file", `A part named "file" holding the package is required.`);
    const version = this.versionFromFile(file.filename);
    if (version === undefined) throw invalid("file", "The file name does not hold a package version.");
    // The package appears when the job ends: an upload of the same version still running
    // counts as existing, or two racing uploads would both be accepted.
    const running = this.uploading.get(version);
    const pending = running !== undefined && ["queued", "running"].includes(this.s.jobs.state(running) ?? "");
    if (this.packages.has(version) || pending)
      throw new HttpError(409, SERVER_ERROR_CODES.FIRMWARE_FILE_EXISTS, "The package already exists.", "file");
    const job = this.s.jobs.create("POST /api/cluster/software/upload", () => {
      this.uploading.delete(version);
      // A download of the same version may have ended first.
      if (this.packages.has(version))
        throw new HttpError(400, SERVER_ERROR_CODES.FIRMWARE_FILE_EXISTS, "The package already exists.");
      this.addPackage(version, isoTime(this.s.clock.now()), [], undefined);
    });
    this.uploading.set(version, job.uuid);
    return jobReply(ctx, job.uuid, 201, rt);
  }

  private async deletePackage(ctx: Ctx): Promise<Reply> {
    const rt = ctx.query.returnTimeout(0);
    ctx.query.done();
    const version = param(ctx, 0);
    if (this.packages.size === 0)
      throw new HttpError(404, SERVER_ERROR_CODES.PACKAGE_STORE_EMPTY, "Package store is empty.", "version");
    if (!this.packages.has(version))
      throw new HttpError(
        404,
        SERVER_ERROR_CODES.PACKAGE_NOT_FOUND,
        "Package does not exist on the system.",
        "version",
      );
    this.checkDeletable(version);
    // Checked again when the job ends: another delete, a validation or an update of the
    // version may have started in between.
    const job = this.s.jobs.create(`DELETE /api/cluster/software/packages/${version}`, () => {
      if (!this.packages.has(version))
        throw new HttpError(400, SERVER_ERROR_CODES.PACKAGE_NOT_FOUND, "Package does not exist on the system.");
      this.checkDeletable(version);
      this.packages.delete(version);
    });
    return jobReply(ctx, job.uuid, 200, rt);
  }

  private checkDeletable(version: string): void {
    if (this.validating === version)
      throw badState(
        "Delete failed because a validation is in progress.",
        "version",
        SERVER_ERROR_CODES.PACKAGE_DELETE_VALIDATION_IN_PROGRESS,
      );
    if (ACTIVE.includes(this.state ?? "") && this.upgrade?.to === version) {
      throw badState(
        "Delete failed because an update is in progress.",
        "version",
        SERVER_ERROR_CODES.PACKAGE_DELETE_UPDATE_IN_PROGRESS,
      );
    }
  }

  routes(): readonly Route[] {
    const pkgs = (): JsonObject[] =>
      [...this.packages.values()].sort((a, b) => a.seq - b.seq).map((p) => this.packageRecord(p));
    return [
      {
        pattern: /^\/api\/cluster\/software$/,
        methods: {
          GET: (ctx) => instanceReply(ctx, this.profile(), SOFTWARE_FIELDS),
          PATCH: (ctx) => this.patch(ctx),
        },
      },
      {
        pattern: /^\/api\/cluster\/software\/packages$/,
        methods: { GET: (ctx) => listReply(ctx, pkgs(), PACKAGE_FIELDS) },
      },
      {
        pattern: /^\/api\/cluster\/software\/packages\/([^/]+)$/,
        methods: {
          GET: (ctx) => {
            const p = this.packages.get(param(ctx, 0));
            if (p === undefined) throw notFound("Package does not exist on the system.", "version");
            return instanceReply(ctx, this.packageRecord(p), PACKAGE_FIELDS);
          },
          DELETE: (ctx) => this.deletePackage(ctx),
        },
      },
      {
        pattern: /^\/api\/cluster\/software\/download$/,
        methods: {
          GET: (ctx) => {
            ctx.query.returnTimeout(0);
            ctx.query.single("fields");
            ctx.query.done();
            return { status: 200, body: clone(this.download) };
          },
          POST: (ctx) => this.startDownload(ctx),
        },
      },
      { pattern: /^\/api\/cluster\/software\/upload$/, methods: { POST: (ctx) => this.upload(ctx) } },
      {
        pattern: /^\/api\/cluster\/software\/history$/,
        methods: {
          GET: (ctx) =>
            listReply(
              ctx,
              this.history.map((h) => clone(h)),
              HISTORY_FIELDS,
            ),
        },
      },
    ];
  }
}

/** The file parts (with a filename, or named `file`) of a multipart body; undefined if malformed. */
export function parseMultipart(raw: Buffer, boundary: string): { name: string; filename: string }[] | undefined {
  const text = raw.toString("latin1");
  const delimiter = `--${boundary}`;
  const segments = text.split(delimiter);
  if (segments.length < 3) return undefined;
  const files: { name: string; filename: string }[] = [];
  for (const seg of segments.slice(1)) {
    if (seg.startsWith("--")) break;
    const headerEnd = seg.indexOf("\r\n\r\n");
    if (headerEnd < 0 || headerEnd > MAX_PART_HEADER_BYTES) return undefined;
    const headers = seg.slice(0, headerEnd);
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? "";
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename !== undefined || name === "file") files.push({ name, filename: filename ?? "" });
  }
  return files;
}
