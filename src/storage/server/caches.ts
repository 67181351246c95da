// Volume caches: /api/storage/cache/caches[/<uuid>]. POST, PATCH and DELETE run as jobs;
// the change takes effect when the job completes. PATCH and DELETE by query (at least one
// filter) start one job per matching cache and answer `{num_records, jobs[]}`. Rules checked at POST time: name unique
// in the SVM (caches and volumes); path starts with "/", does not end with "/", and is
// unique case-insensitively in the SVM (caches, pending caches, volume junction paths);
// the origin is a standalone (flexvol) volume; size ≥ 1 GiB per constituent. Defaults:
// guarantee.type none; constituents_per_aggregate 4 when aggregates are given; size =
// max(10 % of the origin — or relative_size.percentage when enabled —, 1 GiB × constituents);
// writeback/relative_size/atime_scrub/cifs_change_notify sub-objects with their defaults;
// use_tiered_aggregate, dr_cache, global_file_locking_enabled, override_encryption false;
// is_disconnected_mode_off_for_locks false (true with global_file_locking_enabled; POST only,
// never returned); prepopulate.recurse true (write-only). An offline local origin makes the
// create job fail. An origin whose `cluster` names another cluster is remote and is not
// looked up in the inventory.

import { randomUUID } from "node:crypto";
import { isoTime } from "./clock.js";
import { HttpError, conflict, duplicate, invalid, notFound, outOfRange, required } from "./errors.js";
import {
  type Change,
  type Ctx,
  type Reply,
  type Resource,
  type Route,
  UUID_RE,
  bodyOf,
  collectionRoutes,
  jobReply,
  param,
  selfLink,
} from "./http.js";
import type { Ref } from "./inventory.js";
import { type FieldPolicy, type Json, type JsonObject, clone, compact } from "./json.js";
import { type ServerState, resolveRef, resolveVolume, svmRef } from "./state.js";
import { arr, bool, flag, int, num, obj, ref, size, str, sub, text, validateBody } from "./values.js";

const BASE = "/api/storage/cache/caches";
const GiB = 1024 ** 3;

const toggles = {
  writeback: obj({ enabled: bool }),
  relative_size: obj({ enabled: bool, percentage: int(1, 100) }),
  atime_scrub: obj({ enabled: bool, period: int(1, 36500) }),
  cifs_change_notify: obj({ enabled: bool }),
  prepopulate: obj({ dir_paths: arr(str()), exclude_dir_paths: arr(str()), recurse: bool }),
};
const POST = obj(
  {
    name: str({ maxLength: 203 }),
    svm: ref(),
    origins: arr(obj({ svm: ref(), volume: ref(), cluster: ref() }, ["ip_address", "size", "state", "create_time"])),
    aggregates: arr(obj({ name: str(), uuid: str() }, ["_links"])),
    path: str(),
    size: size(),
    guarantee: obj({ type: str({ enum: ["volume", "none"] }) }),
    constituents_per_aggregate: size(),
    use_tiered_aggregate: bool,
    is_disconnected_mode_off_for_locks: bool,
    dr_cache: bool,
    global_file_locking_enabled: bool,
    override_encryption: bool,
    ...toggles,
  },
  ["uuid", "_links"],
);
const PATCH = obj(toggles, [
  "uuid",
  "name",
  "svm",
  "origins",
  "aggregates",
  "path",
  "size",
  "guarantee",
  "constituents_per_aggregate",
  "use_tiered_aggregate",
  "is_disconnected_mode_off_for_locks",
  "dr_cache",
  "global_file_locking_enabled",
  "override_encryption",
  "_links",
]);

export const CACHE_FIELDS: FieldPolicy = {
  known: [
    "uuid",
    "name",
    "svm.uuid",
    "svm.name",
    "origins.svm.uuid",
    "origins.svm.name",
    "origins.volume.uuid",
    "origins.volume.name",
    "origins.cluster.uuid",
    "origins.cluster.name",
    "origins.ip_address",
    "origins.size",
    "origins.state",
    "origins.create_time",
    "aggregates.name",
    "aggregates.uuid",
    "path",
    "size",
    "guarantee.type",
    "constituents_per_aggregate",
    "use_tiered_aggregate",
    "dr_cache",
    "global_file_locking_enabled",
    "override_encryption",
    "writeback.enabled",
    "relative_size.enabled",
    "relative_size.percentage",
    "atime_scrub.enabled",
    "atime_scrub.period",
    "cifs_change_notify.enabled",
  ],
  expensive: ["origins.ip_address", "origins.size", "origins.state", "size", "guarantee", "aggregates", "path"],
  collectionDefault: ["name"],
  instanceIncludesExpensive: true,
  keys: ["uuid"],
};

interface Cache {
  readonly seq: number;
  readonly svm: Ref;
  readonly originSize: number;
  visible: boolean;
  record: JsonObject;
  /** Write-only and POST-only settings, kept but never returned. */
  hidden: JsonObject;
  /** Prepopulations started (for inspection through the server handle). */
  prepopulations: JsonObject[];
}

function checkPath(path: string, target: string): void {
  if (!path.startsWith("/")) throw invalid(target, `Field "${target}" must start with "/".`);
  if (path.endsWith("/")) throw invalid(target, `Field "${target}" must not end with "/".`);
}

function prepopulate(given: JsonObject | undefined): JsonObject | undefined {
  if (given === undefined) return undefined;
  const dirs = given["dir_paths"];
  if (!Array.isArray(dirs) || dirs.length === 0) throw required("prepopulate.dir_paths");
  for (const [key, list] of [
    ["dir_paths", dirs],
    ["exclude_dir_paths", given["exclude_dir_paths"] ?? []],
  ] as const) {
    (list as Json[]).forEach((p, i) => {
      if (typeof p === "string" && !p.startsWith("/"))
        throw invalid(`prepopulate.${key}[${i}]`, 'A directory path must start with "/".');
    });
  }
  return { ...clone(given), recurse: flag(given, "recurse") ?? true };
}

export class Caches implements Resource {
  private readonly items = new Map<string, Cache>();
  constructor(private readonly state: ServerState) {}

  private all(): JsonObject[] {
    return [...this.items.values()]
      .filter((c) => c.visible)
      .sort((a, b) => a.seq - b.seq)
      .map((c) => clone(c.record));
  }

  private find(uuid: string): Cache {
    const c = this.items.get(uuid);
    if (c === undefined || !c.visible) throw notFound("Cache not found.", "uuid");
    return c;
  }

  /** The prepopulations started on a cache (a test hook; not an API path). */
  prepopulationsOf(uuid: string): readonly JsonObject[] {
    return this.items.get(uuid)?.prepopulations ?? [];
  }

  private async create(ctx: Ctx): Promise<Reply> {
    const rt = ctx.query.returnTimeout(0);
    ctx.query.bool("return_records");
    ctx.query.done();
    const body = validateBody(bodyOf(ctx), POST);
    const inv = this.state.inventory;
    const name = text(body, "name");
    if (name === undefined || name === "") throw required("name");
    const svm = resolveRef(inv.svms, sub(body, "svm"), "svm", "SVM") as Ref;
    const origins = body["origins"];
    if (!Array.isArray(origins) || origins.length === 0)
      throw required("origins", `Field "origins" needs at least one origin.`);
    const mine = [...this.items.values()].filter((c) => c.svm.uuid === svm.uuid);
    if (
      mine.some((c) => c.record["name"] === name) ||
      inv.volumes.some((v) => v.svm.uuid === svm.uuid && v.name === name)
    ) {
      throw duplicate("name", `A volume or cache named "${name}" already exists in SVM "${svm.name}".`);
    }
    const path = text(body, "path");
    if (path !== undefined) {
      checkPath(path, "path");
      const lower = path.toLowerCase();
      const taken =
        mine.some((c) => String(c.record["path"] ?? "").toLowerCase() === lower) ||
        inv.volumes.some((v) => v.svm.uuid === svm.uuid && v.path?.toLowerCase() === lower);
      if (taken) throw duplicate("path", `Junction path "${path}" is already in use in SVM "${svm.name}".`);
    }
    let originSize = 0;
    let offlineOrigin = false;
    const originRecords = (origins as JsonObject[]).map((o, i) => {
      const at = `origins[${i}]`;
      const volGiven = sub(o, "volume");
      if (text(volGiven, "name") === undefined && text(volGiven, "uuid") === undefined) {
        throw required(`${at}.volume.name`, `Field "${at}.volume.name" or "${at}.volume.uuid" is required.`);
      }
      const svmGiven = sub(o, "svm");
      if (text(svmGiven, "name") === undefined) throw required(`${at}.svm.name`);
      const cluster = sub(o, "cluster");
      const remote =
        cluster !== undefined &&
        ((text(cluster, "name") !== undefined && text(cluster, "name") !== inv.cluster.name) ||
          (text(cluster, "uuid") !== undefined && text(cluster, "uuid") !== inv.cluster.uuid));
      if (remote) {
        return compact({
          svm: compact({ uuid: text(svmGiven, "uuid"), name: text(svmGiven, "name") }),
          volume: compact({ uuid: text(volGiven, "uuid"), name: text(volGiven, "name") }),
          cluster: compact({ uuid: text(cluster, "uuid"), name: text(cluster, "name") }),
          ip_address: "192.0.2.10",
          size: 0,
          state: "online",
        });
      }
      const osvm = resolveRef(inv.svms, svmGiven, `${at}.svm`, "SVM") as Ref;
      const vol = resolveVolume(this.state, volGiven, `${at}.volume`, osvm);
      if (vol.style !== "flexvol") throw conflict(`${at}.volume`, "The origin must be a standalone volume.");
      originSize = Math.max(originSize, vol.size);
      if (vol.state !== "online") offlineOrigin = true;
      return {
        svm: { uuid: osvm.uuid, name: osvm.name },
        volume: { uuid: vol.uuid, name: vol.name },
        cluster: { uuid: inv.cluster.uuid, name: inv.cluster.name },
        ip_address: "192.0.2.1",
        size: vol.size,
        state: vol.state,
      };
    });
    const aggrsGiven = body["aggregates"];
    const aggregates = Array.isArray(aggrsGiven)
      ? (aggrsGiven as JsonObject[]).map(
          (a, i) => resolveRef(inv.aggregates, a, `aggregates[${i}]`, "Aggregate") as Ref,
        )
      : [];
    const cpaGiven = num(body, "constituents_per_aggregate");
    if (cpaGiven !== undefined && cpaGiven < 1)
      throw outOfRange("constituents_per_aggregate", `Field "constituents_per_aggregate" must be at least 1.`);
    const cpa = aggregates.length > 0 ? (cpaGiven ?? 4) : cpaGiven;
    const constituents = aggregates.length > 0 ? aggregates.length * (cpa ?? 4) : (cpa ?? 4);
    const rel = {
      enabled: flag(sub(body, "relative_size"), "enabled") ?? false,
      percentage: num(sub(body, "relative_size"), "percentage") ?? 10,
    };
    const sizeGiven = num(body, "size");
    if (sizeGiven !== undefined && rel.enabled)
      throw conflict("size", `Field "size" cannot be given when "relative_size.enabled" is true.`);
    if (sizeGiven !== undefined && sizeGiven < constituents * GiB) {
      throw outOfRange("size", `Field "size" must be at least 1 GiB per constituent (${constituents * GiB} bytes).`);
    }
    const percent = rel.enabled ? rel.percentage : 10;
    const cacheSize = sizeGiven ?? Math.max(Math.ceil((originSize * percent) / 100), constituents * GiB);
    const globalLocking = flag(body, "global_file_locking_enabled") ?? false;
    const uuid = randomUUID();
    const record: JsonObject = compact({
      uuid,
      name,
      svm: svmRef(svm),
      origins: originRecords,
      aggregates: (aggregates.length > 0 ? aggregates : inv.aggregates.slice(0, 1)).map((a) => ({
        name: a.name,
        uuid: a.uuid,
      })),
      path,
      size: cacheSize,
      guarantee: { type: text(sub(body, "guarantee"), "type") ?? "none" },
      constituents_per_aggregate: cpa,
      use_tiered_aggregate: flag(body, "use_tiered_aggregate") ?? false,
      dr_cache: flag(body, "dr_cache") ?? false,
      global_file_locking_enabled: globalLocking,
      override_encryption: flag(body, "override_encryption") ?? false,
      writeback: { enabled: flag(sub(body, "writeback"), "enabled") ?? false },
      relative_size: rel,
      atime_scrub: {
        enabled: flag(sub(body, "atime_scrub"), "enabled") ?? false,
        period: num(sub(body, "atime_scrub"), "period") ?? 30,
      },
      cifs_change_notify: { enabled: flag(sub(body, "cifs_change_notify"), "enabled") ?? false },
      _links: selfLink(`${BASE}/${uuid}`),
    });
    const pre = prepopulate(sub(body, "prepopulate"));
    const cache: Cache = {
      seq: this.state.nextSeq(),
      svm,
      originSize,
      visible: false,
      record,
      hidden: compact({
        is_disconnected_mode_off_for_locks: globalLocking
          ? true
          : (flag(body, "is_disconnected_mode_off_for_locks") ?? false),
        prepopulate: pre,
      }),
      prepopulations: pre === undefined ? [] : [pre],
    };
    this.items.set(uuid, cache);
    const job = this.state.jobs.create(
      `POST ${BASE}`,
      () => {
        if (offlineOrigin) {
          this.items.delete(uuid);
          throw new HttpError(400, "262191", "The origin volume is offline.");
        }
        cache.visible = true;
        for (const o of cache.record["origins"] as JsonObject[]) o["create_time"] = isoTime(this.state.clock.now());
      },
      { svm: { uuid: svm.uuid, name: svm.name } },
    );
    return jobReply(ctx, job.uuid, 201, rt);
  }

  /** A PATCH runs as a job: it changes the settings, or starts a prepopulation. */
  private patch(cache: Cache, body: JsonObject): Change {
    const pre = prepopulate(sub(body, "prepopulate"));
    const uuid = String(cache.record["uuid"]);
    return () =>
      this.state.jobs.create(
        `PATCH ${BASE}/${uuid}`,
        () => {
          if (!this.items.has(uuid)) throw new HttpError(404, "4", "Cache not found.");
          const next = clone(cache.record);
          for (const key of ["writeback", "relative_size", "atime_scrub", "cifs_change_notify"] as const) {
            const given = sub(body, key);
            if (given !== undefined) next[key] = { ...(next[key] as JsonObject), ...given };
          }
          const rel = sub(next, "relative_size");
          if (sub(body, "relative_size") !== undefined && flag(rel, "enabled") === true && cache.originSize > 0) {
            next["size"] = Math.max(Math.ceil((cache.originSize * (num(rel, "percentage") ?? 10)) / 100), GiB);
          }
          cache.record = next;
          if (pre !== undefined) cache.prepopulations.push(pre);
        },
        { svm: { uuid: cache.svm.uuid, name: cache.svm.name } },
      );
  }

  /** A DELETE runs as a job: an online cache is taken offline, then deleted. */
  private remove(cache: Cache): Change {
    const uuid = String(cache.record["uuid"]);
    return () =>
      this.state.jobs.create(
        `DELETE ${BASE}/${uuid}`,
        () => {
          // Two DELETEs accepted before either job ended: only the first one deletes.
          if (!this.items.delete(uuid)) throw new HttpError(404, "4", "Cache not found.");
        },
        { svm: { uuid: cache.svm.uuid, name: cache.svm.name } },
      );
  }

  routes(): readonly Route[] {
    return collectionRoutes<Cache>({
      base: BASE,
      key: UUID_RE,
      fields: CACHE_FIELDS,
      jobs: true,
      records: () => this.all(),
      find: (ctx) => this.find(param(ctx, 0)),
      itemOf: (r) => this.items.get(String(r["uuid"])),
      view: (cache) => clone(cache.record),
      create: (ctx) => this.create(ctx),
      patchBody: (ctx) => {
        const body = validateBody(bodyOf(ctx), PATCH);
        prepopulate(sub(body, "prepopulate"));
        return body;
      },
      patch: (cache, body) => this.patch(cache, body),
      remove: (cache) => this.remove(cache),
    });
  }
}
