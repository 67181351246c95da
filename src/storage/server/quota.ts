// Quota rules: /api/storage/quota/rules[/<uuid>].
// Type rules: user → users + qtree; group → group + qtree; tree → qtree, no users/group.
// `users` only on user rules; `user_mapping` only on user rules ("on" accepted → true).
// space limits are Sizes raised to 1024, except -1 (no limit: the limit is left unset).
// files limits are counts (-1: no limit). soft ≤ hard is enforced when both are set.
// Creating an explicit rule, or any qtree-scoped rule, adds the volume-level default rule
// of the same type when the volume has none.

import { randomUUID } from "node:crypto";
import { conflict, duplicate, invalid, required, unknownReference } from "./errors.js";
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
import { type FieldPolicy, type Json, type JsonObject, compact, isObject, clone } from "./json.js";
import { type ServerState, resolveRef, resolveVolume, svmRef, volumeRef } from "./state.js";
import { arr, flag, int, num, obj, size, str, sub, text, validateBody } from "./values.js";
import type { Schema } from "./values.js";
import { notFound } from "./errors.js";

const BASE = "/api/storage/quota/rules";
const lenientBool: Schema = { t: "boolean", lenient: true };
const limits = (s: Schema) => obj({ hard_limit: s, soft_limit: s });

const POST = obj(
  {
    svm: obj({ uuid: str(), name: str() }, ["_links"]),
    volume: obj({ uuid: str(), name: str() }, ["_links"]),
    type: str({ enum: ["tree", "user", "group"] }),
    qtree: obj({ name: str() }, ["id", "_links"]),
    users: arr(obj({ name: str(), id: str() })),
    group: obj({ name: str(), id: str() }),
    space: limits(size(true)),
    files: limits(int(-1)),
    user_mapping: lenientBool,
  },
  ["uuid", "_links"],
);
const PATCH = obj({ space: limits(size(true)), files: limits(int(-1)), user_mapping: lenientBool }, [
  "uuid",
  "svm",
  "volume",
  "type",
  "qtree",
  "users",
  "group",
  "_links",
]);

export const QUOTA_FIELDS: FieldPolicy = {
  known: [
    "uuid",
    "svm.uuid",
    "svm.name",
    "volume.uuid",
    "volume.name",
    "type",
    "qtree.id",
    "qtree.name",
    "users.name",
    "users.id",
    "group.name",
    "group.id",
    "space.hard_limit",
    "space.soft_limit",
    "files.hard_limit",
    "files.soft_limit",
    "user_mapping",
  ],
  expensive: [],
  collectionDefault: ["svm", "volume"],
  instanceIncludesExpensive: true,
  keys: ["uuid"],
};

interface Rule {
  readonly seq: number;
  readonly volume: Volume;
  record: JsonObject;
}

const USER_ID = /^(?:[0-9]+|S-1-[0-9]+(?:-[0-9]+)+)$/;

/** Normalizes `users`: name xor id per entry; comma-separated names become several entries. */
function normalizeUsers(users: Json[]): JsonObject[] {
  const out: JsonObject[] = [];
  users.forEach((u, i) => {
    const entry = u as JsonObject;
    const name = text(entry, "name");
    const id = text(entry, "id");
    const at = `users[${i}]`;
    if ((name === undefined) === (id === undefined))
      throw conflict(at, `Each element of "users" holds a name or an id, not both and not neither.`);
    if (id !== undefined) {
      if (!USER_ID.test(id))
        throw invalid(`${at}.id`, `Field "${at}.id" must be a numeric user id or a security identifier.`);
      out.push({ id });
    } else if (name !== undefined && !name.startsWith('"') && name.includes(",")) {
      for (const part of name.split(",").map((s) => s.trim())) {
        if (part === "") throw invalid(`${at}.name`, `Field "${at}.name" holds an empty user name.`);
        out.push({ name: part });
      }
    } else out.push({ name: name ?? "" });
  });
  if (out.length === 0) throw invalid("users", `Field "users" must name at least one user.`);
  if (out.length > 1 && out.some((u) => u["name"] === ""))
    throw invalid("users", "A default user rule names only the empty user.");
  return out;
}

/** Applies the limit rules to `space` / `files` from a body onto `into` (mutates). */
function applyLimits(into: JsonObject, body: JsonObject): void {
  for (const key of ["space", "files"] as const) {
    const given = sub(body, key);
    if (given === undefined) continue;
    const current: JsonObject = isObject(into[key]) ? { ...(into[key] as JsonObject) } : {};
    for (const which of ["hard_limit", "soft_limit"] as const) {
      const v = num(given, which);
      if (v === undefined) continue;
      if (v === -1) delete current[which];
      else current[which] = key === "space" ? Math.max(1024, v) : v;
    }
    const hard = num(current, "hard_limit");
    const soft = num(current, "soft_limit");
    if (hard !== undefined && soft !== undefined && soft > hard) {
      throw conflict(`${key}.soft_limit`, `Field "${key}.soft_limit" must not be greater than "${key}.hard_limit".`);
    }
    if (Object.keys(current).length === 0) delete into[key];
    else into[key] = current;
  }
}

const targetKey = (r: JsonObject): string => {
  const users = r["users"];
  const group = r["group"];
  return JSON.stringify([
    r["type"],
    (r["qtree"] as JsonObject)["name"],
    Array.isArray(users) ? users.map((u) => JSON.stringify(u)).sort() : null,
    isObject(group) ? group : null,
  ]);
};

const isDefaultRule = (r: JsonObject): boolean => {
  const qtree = text(sub(r, "qtree"), "name") ?? "";
  switch (r["type"]) {
    case "tree":
      return qtree === "";
    case "user": {
      const users = r["users"];
      return Array.isArray(users) && users.length === 1 && text(users[0] as JsonObject, "name") === "";
    }
    default:
      return text(sub(r, "group"), "name") === "";
  }
};

export class QuotaRules implements Resource {
  private readonly rules = new Map<string, Rule>();
  constructor(private readonly state: ServerState) {}

  private all(): JsonObject[] {
    return [...this.rules.values()].sort((a, b) => a.seq - b.seq).map((r) => clone(r.record));
  }

  private find(uuid: string): Rule {
    const r = this.rules.get(uuid);
    if (r === undefined) throw notFound("Quota rule not found.", "uuid");
    return r;
  }

  private add(svm: Ref, volume: Volume, fields: JsonObject): Rule {
    const uuid = randomUUID();
    const record: JsonObject = {
      uuid,
      svm: svmRef(svm),
      volume: volumeRef(volume),
      ...fields,
      _links: selfLink(`${BASE}/${uuid}`),
    };
    const rule = { seq: this.state.nextSeq(), volume, record };
    this.rules.set(uuid, rule);
    return rule;
  }

  private create(ctx: Ctx): Reply {
    const returnRecords = ctx.query.bool("return_records") ?? false;
    ctx.query.returnTimeout(0);
    ctx.query.done();
    const body = validateBody(bodyOf(ctx), POST);
    const svm = resolveRef(this.state.inventory.svms, sub(body, "svm"), "svm", "SVM") as Ref;
    const volume = resolveVolume(this.state, sub(body, "volume"), "volume", svm);
    const type = text(body, "type");
    if (type === undefined) throw required("type");
    const qtreeName = text(sub(body, "qtree"), "name");
    if (qtreeName === undefined) throw required("qtree.name");
    const qtree = volume.qtrees.find((q) => q.name === qtreeName);
    if (qtreeName !== "" && qtree === undefined)
      throw unknownReference("qtree.name", `Qtree "${qtreeName}" in volume "${volume.name}"`);
    const users = body["users"];
    const group = sub(body, "group");
    const userMapping = flag(body, "user_mapping");
    if (type !== "user" && users !== undefined) throw conflict("users", `Field "users" is valid only on a user rule.`);
    if (type !== "group" && group !== undefined)
      throw conflict("group", `Field "group" is valid only on a group rule.`);
    if (type !== "user" && userMapping !== undefined)
      throw conflict("user_mapping", `Field "user_mapping" is valid only on a user rule.`);
    if (type === "user" && users === undefined) throw required("users", `A user rule requires "users".`);
    if (type === "group" && group === undefined) throw required("group", `A group rule requires "group".`);
    // The spec gives `group` as {name, id} without the name-xor-id rule it states for `users`.
    if (group !== undefined && text(group, "name") === undefined && text(group, "id") === undefined) {
      throw required("group.name", `Field "group.name" or "group.id" is required.`);
    }
    const fields: JsonObject = compact({
      type,
      qtree: qtree === undefined ? { name: "" } : { id: qtree.id, name: qtree.name },
      users: Array.isArray(users) ? normalizeUsers(users) : undefined,
      group: group === undefined ? undefined : clone(group),
      user_mapping: type === "user" ? (userMapping ?? false) : undefined,
    });
    applyLimits(fields, body);
    const key = targetKey(fields);
    const sameVolume = [...this.rules.values()].filter((r) => r.volume.uuid === volume.uuid);
    if (sameVolume.some((r) => targetKey(r.record) === key)) {
      throw duplicate("type", "A quota rule for this target already exists on the volume.");
    }
    const rule = this.add(svm, volume, fields);
    // The default rule of the same type, at volume level, when the volume has none.
    if (!isDefaultRule(fields) || qtreeName !== "") {
      const hasDefault = sameVolume.some(
        (r) => r.record["type"] === type && isDefaultRule(r.record) && text(sub(r.record, "qtree"), "name") === "",
      );
      if (!hasDefault) {
        this.add(
          svm,
          volume,
          compact({
            type,
            qtree: { name: "" },
            users: type === "user" ? [{ name: "" }] : undefined,
            group: type === "group" ? { name: "" } : undefined,
            user_mapping: type === "user" ? false : undefined,
          }),
        );
      }
    }
    const record = clone(rule.record);
    const echoed = returnRecords
      ? record
      : compact({
          uuid: record["uuid"],
          svm: record["svm"],
          volume: record["volume"],
          type: record["type"],
          qtree: record["qtree"],
          users: record["users"],
          group: record["group"],
          space: body["space"] === undefined ? undefined : record["space"],
          files: body["files"] === undefined ? undefined : record["files"],
          user_mapping: body["user_mapping"] === undefined ? undefined : record["user_mapping"],
          _links: record["_links"],
        });
    return {
      status: 201,
      body: { num_records: 1, records: [echoed] },
      headers: { Location: `${BASE}/${String(record["uuid"])}` },
    };
  }

  private patch(rule: Rule, body: JsonObject): Change {
    const mapping = flag(body, "user_mapping");
    if (mapping !== undefined && rule.record["type"] !== "user") {
      throw conflict("user_mapping", `Field "user_mapping" is valid only on a user rule.`);
    }
    const next = clone(rule.record);
    applyLimits(next, body);
    if (mapping !== undefined) next["user_mapping"] = mapping;
    return () => {
      rule.record = next;
    };
  }

  routes(): readonly Route[] {
    return collectionRoutes<Rule>({
      base: BASE,
      key: UUID_RE,
      fields: QUOTA_FIELDS,
      records: () => this.all(),
      find: (ctx) => this.find(param(ctx, 0)),
      itemOf: (r) => this.rules.get(String(r["uuid"])),
      view: (rule) => clone(rule.record),
      create: (ctx) => this.create(ctx),
      patchBody: (ctx) => validateBody(bodyOf(ctx), PATCH),
      patch: (rule, body) => this.patch(rule, body),
      remove: (rule) => () => {
        this.rules.delete(String(rule.record["uuid"]));
      },
    });
  }
}
