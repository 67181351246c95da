// Cluster software: the HTTP handlers of /api/cluster/software (PATCH for validation, upgrade,
// estimate and the pause, resume and cancel actions; packages; download; upload; history). The
// state machine they drive is in software-state.ts, the multipart parser in multipart.ts.

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
} from "./http.js";
import { type FieldPolicy, type JsonObject, clone, compact } from "./json.js";
import { obj, str, text, validateBody } from "./values.js";
import { parseMultipart } from "./multipart.js";
import { ACTIVE, SoftwareState, type Step } from "./software-state.js";

const VERSION_RE = /\d+\.\d+(?:\.\d+)*(?:[A-Za-z]+\d*)?/;
/** Longest file name looked at (NAME_MAX): VERSION_RE costs time quadratic in a run of digits. */
const MAX_FILE_NAME = 255;
const VALIDATION_FAILED = "262192";

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

/** The /api/cluster/software resource: the state machine of `SoftwareState` behind HTTP routes. */
export class Software extends SoftwareState implements Resource {
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
