// NVMe namespaces: /api/storage/namespaces[/<uuid>].
// Names are `/vol/<volume>[/<qtree>]/<name>`; a POST takes `name` (full path, or a base
// name with `location.volume`) and/or `location.{volume,qtree,namespace}`, which must agree.
// Create: svm, volume, base name, os_type and space.size required; block_size defaults to
// 4096 (512 for vmware). Clone (clone.source): same volume; os_type, space.size and
// space.block_size are refused (taken from the source); a snapshot source is named
// `/vol/<v>/.snapshot/<snap>/<ns>` and resolves to the live namespace of that volume.
// Convert (convert.lun): LUN not mapped, not a protocol endpoint, not in foreign import,
// not bound as a VM volume, with a namespace os_type; the LUN leaves the inventory.
// PATCH: comment, auto_delete, space.size (grow only), space.guarantee.requested, svm
// (must be the namespace's own), clone (overwrite from a source in the same volume,
// taking its size). Renaming or moving (name, location) is refused.

import { randomUUID } from "node:crypto";
import { isoTime } from "./clock.js";
import {
  conflict,
  duplicate,
  invalid,
  notAllowed,
  notFound,
  outOfRange,
  required,
  unknownReference,
} from "./errors.js";
import {
  type Change,
  type Ctx,
  type Reply,
  type Resource,
  type Route,
  UUID_RE,
  bodyOf,
  collectionRoutes,
  param,
  selfLink,
} from "./http.js";
import type { Ref, Volume } from "./inventory.js";
import { type FieldPolicy, type JsonObject, clone, compact, isObject } from "./json.js";
import { type ServerState, resolveLun, resolveRef, resolveVolume, svmRef, volumeRef } from "./state.js";
import { bool, expandDottedKeys, flag, int, num, obj, ref, size, str, sub, text, validateBody } from "./values.js";

const BASE = "/api/storage/namespaces";
export const NAMESPACE_OS_TYPES = ["aix", "linux", "vmware", "windows"] as const;
export const NAMESPACE_MIN_SIZE = 4096;
export const NAMESPACE_MAX_SIZE = 128 * 1024 ** 4;

const READ_ONLY = ["uuid", "enabled", "create_time", "status", "subsystem_map", "metric", "statistics", "_links"];
const POST = obj(
  {
    name: str(),
    svm: ref(),
    location: obj({ volume: ref(), qtree: obj({ name: str(), id: int(0) }, ["_links"]), namespace: str() }),
    os_type: str({ enum: NAMESPACE_OS_TYPES }),
    space: obj({ size: size(), block_size: int(), guarantee: obj({ requested: bool }, ["reserved"]) }, ["used"]),
    comment: str({ maxLength: 254 }),
    auto_delete: bool,
    clone: obj({ source: obj({ uuid: str(), name: str() }) }),
    convert: obj({ lun: obj({ uuid: str(), name: str() }) }),
  },
  READ_ONLY,
);
const PATCH = obj(
  {
    svm: ref(),
    space: obj({ size: size(), guarantee: obj({ requested: bool }, ["reserved"]) }, ["used", "block_size"]),
    comment: str({ maxLength: 254 }),
    auto_delete: bool,
    clone: obj({ source: obj({ uuid: str(), name: str() }) }),
  },
  [...READ_ONLY, "os_type", "convert"],
);

export const NAMESPACE_FIELDS: FieldPolicy = {
  known: [
    "uuid",
    "name",
    "svm.uuid",
    "svm.name",
    "location.volume.uuid",
    "location.volume.name",
    "location.qtree.id",
    "location.qtree.name",
    "location.namespace",
    "os_type",
    "space.size",
    "space.block_size",
    "space.used",
    "space.guarantee.requested",
    "space.guarantee.reserved",
    "comment",
    "enabled",
    "create_time",
    "auto_delete",
    "status.state",
    "status.container_state",
    "status.read_only",
    "status.mapped",
    "subsystem_map.nsid",
    "subsystem_map.anagrpid",
    "subsystem_map.subsystem.name",
    "subsystem_map.subsystem.uuid",
    "metric",
    "statistics",
  ],
  expensive: ["auto_delete", "subsystem_map", "status.mapped", "statistics", "metric"],
  collectionDefault: ["svm.name", "name", "status.state"],
  instanceIncludesExpensive: false,
  keys: ["uuid"],
};

const BASE_NAME = /^[A-Za-z0-9_.-]{1,255}$/;

interface Parsed {
  readonly volume: string;
  readonly qtree: string | undefined;
  readonly base: string;
}

/** `/vol/<volume>[/<qtree>]/<name>` (undefined when `name` is not a full path). */
function parsePath(name: string, target: string): Parsed | undefined {
  if (!name.startsWith("/")) return undefined;
  const parts = name.split("/");
  // ["", "vol", volume, (qtree,) base]
  if (parts[1] !== "vol" || parts.length < 4 || parts.length > 5 || parts.some((p, i) => i > 0 && p === "")) {
    throw invalid(target, `Field "${target}" must have the form /vol/<volume>[/<qtree>]/<name>.`);
  }
  return parts.length === 4
    ? { volume: parts[2] as string, qtree: undefined, base: parts[3] as string }
    : { volume: parts[2] as string, qtree: parts[3] as string, base: parts[4] as string };
}

interface Namespace {
  readonly seq: number;
  readonly volume: Volume;
  record: JsonObject;
}

export class Namespaces implements Resource {
  private readonly items = new Map<string, Namespace>();
  constructor(private readonly state: ServerState) {}

  private all(): JsonObject[] {
    return [...this.items.values()].sort((a, b) => a.seq - b.seq).map((n) => clone(n.record));
  }

  private find(uuid: string): Namespace {
    const n = this.items.get(uuid);
    if (n === undefined) throw notFound("Namespace not found.", "uuid");
    return n;
  }

  private byName(name: string): Namespace | undefined {
    return [...this.items.values()].find((n) => n.record["name"] === name);
  }

  /** The clone source; a snapshot path resolves to the live namespace of the same volume. */
  private source(given: JsonObject | undefined): Namespace {
    const uuid = text(given, "uuid");
    const name = text(given, "name");
    if (uuid === undefined && name === undefined)
      throw required("clone.source.uuid", `Field "clone.source.uuid" or "clone.source.name" is required.`);
    const byUuid = uuid === undefined ? undefined : this.items.get(uuid);
    if (uuid !== undefined && byUuid === undefined)
      throw unknownReference("clone.source.uuid", "Namespace with this UUID");
    let byName: Namespace | undefined;
    if (name !== undefined) {
      const snap = /^\/vol\/([^/]+)\/\.snapshot\/[^/]+\/(.+)$/.exec(name);
      byName = this.byName(snap === null ? name : `/vol/${snap[1] as string}/${snap[2] as string}`);
      if (byName === undefined) throw unknownReference("clone.source.name", `Namespace "${name}"`);
    }
    if (byUuid !== undefined && byName !== undefined && byUuid !== byName) {
      throw conflict("clone.source", `"clone.source.uuid" and "clone.source.name" name different namespaces.`);
    }
    return (byUuid ?? byName) as Namespace;
  }

  private newRecord(init: {
    svm: Ref;
    volume: Volume;
    qtree: { id: number; name: string } | undefined;
    base: string;
    os_type: string;
    size: number;
    block_size: number;
    requested: boolean;
    comment: string | undefined;
    auto_delete: boolean;
  }): JsonObject {
    const uuid = randomUUID();
    const now = isoTime(this.state.clock.now());
    const name = `/vol/${init.volume.name}${init.qtree === undefined ? "" : `/${init.qtree.name}`}/${init.base}`;
    const zero = { other: 0, total: 0, read: 0, write: 0 };
    return compact({
      uuid,
      name,
      svm: svmRef(init.svm),
      location: compact({
        volume: volumeRef(init.volume),
        qtree: init.qtree === undefined ? undefined : { id: init.qtree.id, name: init.qtree.name },
        namespace: init.base,
      }),
      os_type: init.os_type,
      space: {
        size: init.size,
        block_size: init.block_size,
        used: 0,
        guarantee: { requested: init.requested, reserved: init.requested },
      },
      comment: init.comment,
      enabled: true,
      create_time: now,
      auto_delete: init.auto_delete,
      status: { state: "online", container_state: "online", read_only: false, mapped: false },
      metric: {
        timestamp: now,
        status: "ok",
        duration: "PT15S",
        throughput: { total: 0, read: 0, write: 0 },
        iops: { ...zero },
        latency: { ...zero },
      },
      statistics: {
        timestamp: now,
        status: "ok",
        iops_raw: { ...zero },
        latency_raw: { ...zero },
        throughput_raw: { total: 0, read: 0, write: 0 },
      },
      _links: selfLink(`${BASE}/${uuid}`),
    });
  }

  private create(ctx: Ctx): Reply {
    const returnRecords = ctx.query.bool("return_records") ?? false;
    ctx.query.returnTimeout(0);
    ctx.query.done();
    const body = validateBody(bodyOf(ctx), POST);
    const svm = resolveRef(this.state.inventory.svms, sub(body, "svm"), "svm", "SVM") as Ref;
    const space = sub(body, "space");
    const cloneGiven = sub(body, "clone");
    const convertGiven = sub(body, "convert");
    const blockSize = num(space, "block_size");
    if (blockSize !== undefined && blockSize !== 512 && blockSize !== 4096) {
      throw invalid("space.block_size", `Field "space.block_size" must be 512 or 4096.`);
    }
    if (cloneGiven !== undefined && convertGiven !== undefined)
      throw conflict("convert", `"clone" and "convert" cannot be combined.`);
    const common = {
      svm,
      requested: flag(sub(space, "guarantee"), "requested") ?? false,
      comment: text(body, "comment"),
      auto_delete: flag(body, "auto_delete") ?? false,
    };

    let record: JsonObject;
    let volume: Volume;
    if (convertGiven !== undefined) {
      for (const f of ["os_type", "space"] as const) {
        if (body[f] !== undefined)
          throw conflict(f, `Field "${f}" cannot be given with "convert"; it is taken from the LUN.`);
      }
      const lun = resolveLun(this.state, sub(convertGiven, "lun"), "convert.lun", svm);
      if (lun.mapped) throw conflict("convert.lun", "The LUN is mapped to an initiator group.");
      if (lun.protocolEndpoint) throw conflict("convert.lun", "The LUN is a protocol-endpoint LUN.");
      if (lun.foreignImport) throw conflict("convert.lun", "The LUN is in a foreign-LUN import relationship.");
      if (lun.vvolBound) throw conflict("convert.lun", "The LUN is bound to a protocol endpoint.");
      if (!(NAMESPACE_OS_TYPES as readonly string[]).includes(lun.os_type)) {
        throw invalid(
          "convert.lun",
          `The LUN's operating-system type "${lun.os_type}" is not supported for namespaces.`,
        );
      }
      const where = this.location(body, svm, parsePath(lun.name, "convert.lun.name"));
      if (text(body, "name") !== undefined && text(body, "name") !== lun.name) {
        throw conflict("name", `Field "name" must be the LUN's path when converting.`);
      }
      volume = where.volume;
      record = this.newRecord({
        ...common,
        ...where,
        os_type: lun.os_type,
        size: lun.size,
        block_size: lun.os_type === "vmware" ? 512 : 4096,
      });
      const i = this.state.inventory.luns.indexOf(lun);
      this.state.inventory.luns.splice(i, 1);
    } else {
      const where = this.location(body, svm, undefined);
      volume = where.volume;
      if (cloneGiven !== undefined) {
        if (body["os_type"] !== undefined)
          throw notAllowed("os_type", "must not be given when cloning; it is taken from the source");
        for (const f of ["size", "block_size"] as const) {
          if (space?.[f] !== undefined)
            throw conflict(
              `space.${f}`,
              `Field "space.${f}" must not be given when cloning; it is taken from the source.`,
            );
        }
        const src = this.source(sub(cloneGiven, "source"));
        if (src.volume.uuid !== volume.uuid)
          throw conflict("clone.source", "The clone and its source must be in the same volume.");
        const srcSpace = sub(src.record, "space");
        record = this.newRecord({
          ...common,
          ...where,
          os_type: String(src.record["os_type"]),
          size: num(srcSpace, "size") ?? NAMESPACE_MIN_SIZE,
          block_size: num(srcSpace, "block_size") ?? 4096,
        });
      } else {
        const os = text(body, "os_type");
        if (os === undefined) throw required("os_type");
        const sz = num(space, "size");
        if (sz === undefined) throw required("space.size");
        if (sz < NAMESPACE_MIN_SIZE || sz > NAMESPACE_MAX_SIZE) {
          throw outOfRange(
            "space.size",
            `Field "space.size" must be in the range ${NAMESPACE_MIN_SIZE}..${NAMESPACE_MAX_SIZE}.`,
          );
        }
        record = this.newRecord({
          ...common,
          ...where,
          os_type: os,
          size: sz,
          block_size: blockSize ?? (os === "vmware" ? 512 : 4096),
        });
      }
    }
    if (this.byName(String(record["name"])) !== undefined)
      throw duplicate("name", `A namespace named "${String(record["name"])}" already exists.`);
    const uuid = String(record["uuid"]);
    this.items.set(uuid, { seq: this.state.nextSeq(), volume, record });
    // A deep copy: trimming the echo must not touch the stored record (its status.mapped).
    const shown = returnRecords
      ? clone(
          Object.fromEntries(
            Object.entries(record).filter(([k]) => !["auto_delete", "metric", "statistics"].includes(k)),
          ) as JsonObject,
        )
      : { uuid, name: record["name"] ?? null, _links: record["_links"] ?? null };
    if (returnRecords && isObject(shown["status"])) delete (shown["status"] as JsonObject)["mapped"];
    return { status: 201, body: { num_records: 1, records: [shown] }, headers: { Location: `${BASE}/${uuid}` } };
  }

  /** Volume, qtree and base name from `name` and `location`, which must agree. */
  private location(
    body: JsonObject,
    svm: Ref,
    fromLun: Parsed | undefined,
  ): {
    volume: Volume;
    qtree: { id: number; name: string } | undefined;
    base: string;
  } {
    const name = text(body, "name");
    const loc = sub(body, "location");
    const parsed = fromLun ?? (name === undefined ? undefined : parsePath(name, "name"));
    const locVolume = sub(loc, "volume");
    let volume: Volume;
    if (locVolume !== undefined) {
      volume = resolveVolume(this.state, locVolume, "location.volume", svm);
      if (parsed !== undefined && parsed.volume !== volume.name) {
        throw conflict("location.volume", `"location.volume" and "name" name different volumes.`);
      }
    } else if (parsed !== undefined) {
      // The volume comes from a path: the error names the field that held the path.
      const found = this.state.inventory.volumes.find((v) => v.svm.uuid === svm.uuid && v.name === parsed.volume);
      if (found === undefined) {
        throw unknownReference(
          fromLun === undefined ? "name" : "convert.lun",
          `Volume "${parsed.volume}" in SVM "${svm.name}"`,
        );
      }
      volume = found;
    } else {
      throw required(
        "location.volume.name",
        `Field "location.volume.name" or "location.volume.uuid" is required when "name" is not a full path.`,
      );
    }
    const locQtree = text(sub(loc, "qtree"), "name");
    const locQtreeId = num(sub(loc, "qtree"), "id");
    if (
      parsed !== undefined &&
      locQtree !== undefined &&
      parsed.qtree !== locQtree &&
      !(locQtree === "" && parsed.qtree === undefined)
    ) {
      throw conflict("location.qtree", `"location.qtree" and "name" name different qtrees.`);
    }
    const qtreeName = parsed?.qtree ?? (locQtree === "" ? undefined : locQtree);
    let qtree: { id: number; name: string } | undefined;
    if (qtreeName !== undefined || locQtreeId !== undefined) {
      qtree = volume.qtrees.find(
        (q) => (qtreeName === undefined || q.name === qtreeName) && (locQtreeId === undefined || q.id === locQtreeId),
      );
      if (qtree === undefined) throw unknownReference("location.qtree", `Qtree in volume "${volume.name}"`);
    }
    const locBase = text(loc, "namespace");
    const base = parsed?.base ?? (name !== undefined ? name : locBase);
    if (base === undefined) throw required("name", `Field "name" or "location.namespace" is required.`);
    if (locBase !== undefined && locBase !== base)
      throw conflict("location.namespace", `"location.namespace" and "name" differ.`);
    if (!BASE_NAME.test(base))
      throw invalid(
        parsed === undefined && locBase !== undefined && name === undefined ? "location.namespace" : "name",
        "The namespace name may hold only letters, digits, '_', '.' and '-'.",
      );
    return { volume, qtree, base };
  }

  /** A PATCH body checked on its own: no renaming or moving, then the PATCH schema. */
  private patchBody(ctx: Ctx): JsonObject {
    const raw = expandDottedKeys(bodyOf(ctx));
    if (isObject(raw)) {
      if (raw["name"] !== undefined) throw notAllowed("name", "cannot be changed: a namespace cannot be renamed");
      if (raw["location"] !== undefined) throw notAllowed("location", "cannot be changed: a namespace cannot be moved");
    }
    return validateBody(raw, PATCH);
  }

  private patch(ns: Namespace, body: JsonObject): Change {
    const next = clone(ns.record);
    const svmGiven = sub(body, "svm");
    if (svmGiven !== undefined) {
      const svm = resolveRef(this.state.inventory.svms, svmGiven, "svm", "SVM") as Ref;
      if (svm.uuid !== ns.volume.svm.uuid) throw conflict("svm", "A namespace cannot be moved to another SVM.");
    }
    const space = sub(body, "space");
    const nextSpace = next["space"] as JsonObject;
    const cloneGiven = sub(body, "clone");
    const sz = num(space, "size");
    if (cloneGiven !== undefined) {
      if (sz !== undefined) throw conflict("space.size", `Field "space.size" cannot be combined with "clone".`);
      const src = this.source(sub(cloneGiven, "source"));
      if (src.volume.uuid !== ns.volume.uuid)
        throw conflict("clone.source", "The clone source must be in the same volume.");
      if (src === ns) throw conflict("clone.source", "A namespace cannot be overwritten from itself.");
      nextSpace["size"] = num(sub(src.record, "space"), "size") ?? nextSpace["size"] ?? 0;
    }
    if (sz !== undefined) {
      const current = Number(nextSpace["size"]);
      if (sz < current) throw outOfRange("space.size", "A namespace cannot shrink.");
      if (sz > NAMESPACE_MAX_SIZE)
        throw outOfRange("space.size", `Field "space.size" must be at most ${NAMESPACE_MAX_SIZE}.`);
      nextSpace["size"] = sz;
    }
    const requested = flag(sub(space, "guarantee"), "requested");
    if (requested !== undefined) nextSpace["guarantee"] = { requested, reserved: requested };
    const comment = text(body, "comment");
    if (comment !== undefined) next["comment"] = comment;
    const autoDelete = flag(body, "auto_delete");
    if (autoDelete !== undefined) next["auto_delete"] = autoDelete;
    return () => {
      ns.record = next;
    };
  }

  routes(): readonly Route[] {
    return collectionRoutes<Namespace>({
      base: BASE,
      key: UUID_RE,
      fields: NAMESPACE_FIELDS,
      records: () => this.all(),
      find: (ctx) => this.find(param(ctx, 0)),
      itemOf: (r) => this.items.get(String(r["uuid"])),
      view: (ns) => clone(ns.record),
      create: (ctx) => this.create(ctx),
      patchBody: (ctx) => this.patchBody(ctx),
      patch: (ns, body) => this.patch(ns, body),
      remove: (ns) => () => {
        this.items.delete(String(ns.record["uuid"]));
      },
    });
  }
}
