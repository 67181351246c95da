// The storage kit tests' own reading of the spec: size and duration grammars, defaults, type
// rules and the inventory, written without the codecs, and the checks each resource's tests share.

import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";
import {
  cache,
  cloneToken,
  nvmeNamespace,
  quotaRule,
  type Cache,
  type CachePostInput,
  type CloneTokenPostInput,
  type JsonObject,
  type LifetimeInput,
  type NvmeNamespacePostInput,
  type QuotaRule,
  type QuotaRulePatchInput,
  type QuotaRulePostInput,
  type ReferenceInput,
  type SizeInput,
} from "../../../src/storage/index.js";
import { DEFAULT_INVENTORY } from "../../../src/storage/server/index.js";

export const KiB = 1024;
export const GiB = 1024 ** 3;
export const TiB = 1024 ** 4;
export const INV = DEFAULT_INVENTORY;
export const T = { targets: INV } as const;

// ../shared/docs/storage-api.md §4 item 2, read without parseSize: digits and a binary suffix.
export const MULTIPLIER: Readonly<Record<string, number>> = {
  "": 1,
  b: 1,
  k: KiB,
  kb: KiB,
  m: KiB ** 2,
  mb: KiB ** 2,
  g: GiB,
  gb: GiB,
  t: TiB,
  tb: TiB,
  p: KiB ** 5,
  pb: KiB ** 5,
};
export function bytesOf(v: SizeInput): number {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v) || v < 0) throw new Error(`not a byte count: ${v}`);
    return v;
  }
  const m = /^([0-9]+)([A-Za-z]{0,2})$/.exec(v);
  const mult = m === null ? undefined : MULTIPLIER[(m[2] ?? "").toLowerCase()];
  if (m === null || mult === undefined) throw new Error(`not a Size: ${JSON.stringify(v)}`);
  const n = Number(m[1]) * mult;
  if (!Number.isSafeInteger(n)) throw new Error(`too large: ${v}`);
  return n;
}

// §4 item 3: P[nD][T[nH][nM][nS]], at least one part, T only before a part.
export function secondsOf(d: string | undefined): number {
  const m = /^P(?:([0-9]+)D)?(?:T(?=[0-9])(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?$/.exec(d ?? "");
  if (m === null || d === "P") throw new Error(`not a duration: ${JSON.stringify(d)}`);
  const [, days, h, min, s] = m.map((x) => Number(x ?? 0));
  return days! * 86400 + h! * 3600 + min! * 60 + s!;
}

export const lifetimeSeconds = (v: LifetimeInput): number =>
  typeof v === "number" ? v : /^[0-9]+$/.test(v) ? Number(v) : secondsOf(v);

export const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const NAME = /^[a-z][a-z0-9_]*$/;
export const NS_BASE = /^[A-Za-z0-9_.-]{1,255}$/;
export const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)$/;
export const VERSION = /^\d+\.\d+\.\d+(?:P\d+)?$/;

export const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
/** `v` as JSON (undefined members dropped), typed as a codec input. */
export const plain = <I>(v: unknown): I => JSON.parse(JSON.stringify(v)) as I;
export const keysOf = (o: object): string[] => Object.keys(o).sort();
export const sub = (o: unknown, k: string): JsonObject => (o as JsonObject)[k] as JsonObject;

/** The model is plain JSON and the codec's decode returns it unchanged. */
export function decodesUnchanged<M>(decode: (json: unknown) => M, m: M): void {
  const json = asJson(m);
  expect(isDeepStrictEqual(json, m), "not plain JSON").toBe(true);
  expect(decode(json)).toStrictEqual(m);
}

/** The one inventory object a reference names (by name, uuid or both). */
export function lookup<O extends { readonly name: string; readonly uuid?: string }>(
  list: readonly O[] | undefined,
  ref: ReferenceInput | undefined,
): O {
  expect(ref?.name ?? ref?.uuid, "a reference names something").toBeDefined();
  const hits = (list ?? []).filter(
    (x) => (ref?.name === undefined || x.name === ref.name) && (ref?.uuid === undefined || x.uuid === ref.uuid),
  );
  expect(hits, `one object for ${JSON.stringify(ref)}`).toHaveLength(1);
  return hits[0]!;
}
export const volumesOfSvm = (svm: string) => (INV.volumes ?? []).filter((v) => v.svm === svm);

/** A record without what the server generates per object (its uuid and self link). */
export const content = (r: object): object =>
  Object.fromEntries(Object.entries(r).filter(([k]) => k !== "uuid" && k !== "_links"));

export const compareVersions = (a: string, b: string): number => {
  const pa = a.split(/[.P]/).map(Number);
  const pb = b.split(/[.P]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
};

// ---- contracts of the POST / PATCH bodies ---------------------------------------------------------

export function checkCloneTokenPost(v: CloneTokenPostInput, targets: boolean): void {
  const body = cloneToken.encodePost(v);
  expect(keysOf(body).every((k) => ["expiry_time", "node", "reserve_size"].includes(k))).toBe(true);
  expect(body["node"]).toEqual({ uuid: v.node.uuid });
  expect(body["reserve_size"]).toBe(Math.max(4096, bytesOf(v.reserve_size)));
  if (v.expiry_time === undefined) expect(body).not.toHaveProperty("expiry_time");
  else {
    const limit = v.expiry_time.limit;
    expect(body["expiry_time"]).toEqual({ limit: limit === undefined ? "60" : String(lifetimeSeconds(limit)) });
    if (limit !== undefined) expect(lifetimeSeconds(limit)).toBeGreaterThanOrEqual(1);
  }
  if (targets) expect((INV.nodes ?? []).map((n) => n.uuid)).toContain(v.node.uuid);
}

export const minCacheBytes = (v: CachePostInput): number =>
  Math.max(v.aggregates?.length ?? 0, 1) *
  (v.constituents_per_aggregate === undefined ? 4 : bytesOf(v.constituents_per_aggregate)) *
  GiB;

export function checkCachePost(v: CachePostInput, targets: boolean): void {
  const body = cache.encodePost(v);
  expect(body["name"]).toBe(v.name);
  expect(v.origins.length).toBeGreaterThan(0);
  for (const o of v.origins) {
    expect(o.svm.name).toBeDefined();
    expect(o.volume.name ?? o.volume.uuid).toBeDefined();
  }
  // POST defaults appear only inside sub-objects the caller gave (§4 item 5).
  const defaults: Record<string, JsonObject> = {
    guarantee: { type: "none" },
    writeback: { enabled: false },
    relative_size: { enabled: false, percentage: 10 },
    atime_scrub: { enabled: false, period: 30 },
    cifs_change_notify: { enabled: false },
    prepopulate: { recurse: true },
  };
  for (const [key, d] of Object.entries(defaults)) {
    const given = (v as unknown as Record<string, object | undefined>)[key];
    if (given === undefined) expect(body).not.toHaveProperty(key);
    else expect(body[key]).toEqual({ ...d, ...given });
  }
  if (v.prepopulate !== undefined) {
    expect(v.prepopulate.dir_paths?.length).toBeGreaterThan(0);
    for (const p of [...(v.prepopulate.dir_paths ?? []), ...(v.prepopulate.exclude_dir_paths ?? [])])
      expect(p.startsWith("/")).toBe(true);
  }
  if (v.path !== undefined) {
    expect(v.path.startsWith("/") && !v.path.endsWith("/")).toBe(true);
  }
  if (v.size !== undefined) {
    expect(body["size"]).toBe(bytesOf(v.size));
    expect(bytesOf(v.size)).toBeGreaterThanOrEqual(minCacheBytes(v));
    expect(v.relative_size?.enabled).not.toBe(true);
  }
  if (v.global_file_locking_enabled === true) expect(v.is_disconnected_mode_off_for_locks).not.toBe(false);
  if (targets) {
    const svm = lookup(INV.svms, v.svm);
    expect(svm.name).toBeDefined();
    for (const o of v.origins) {
      const vol = lookup(volumesOfSvm(o.svm.name!), o.volume);
      expect(vol.style ?? "flexvol").toBe("flexvol");
      expect(vol.state ?? "online").toBe("online");
    }
    for (const a of v.aggregates ?? []) lookup(INV.aggregates, a);
    expect(new Set((v.aggregates ?? []).map((a) => lookup(INV.aggregates, a).name)).size).toBe(
      v.aggregates?.length ?? 0,
    );
    expect((INV.volumes ?? []).map((x) => x.name)).not.toContain(v.name);
    if (v.path !== undefined)
      expect((INV.volumes ?? []).map((x) => x.path?.toLowerCase())).not.toContain(v.path.toLowerCase());
  }
}

/** Volume name, qtree and base name of a create or clone body, as far as the body tells. */
export function placementOf(v: NvmeNamespacePostInput): {
  volume: string | undefined;
  qtree: string | undefined;
  base: string;
} {
  const path = v.name?.startsWith("/") ? /^\/vol\/([^/]+)\/(?:([^/]+)\/)?([^/]+)$/.exec(v.name) : null;
  if (v.name?.startsWith("/")) expect(path, `a full path: ${v.name}`).not.toBeNull();
  const base = path?.[3] ?? v.name ?? v.location?.namespace;
  expect(base).toBeDefined();
  return { volume: path?.[1] ?? v.location?.volume?.name, qtree: path?.[2] ?? v.location?.qtree?.name, base: base! };
}

export function checkNamespacePost(v: NvmeNamespacePostInput, targets: boolean): void {
  const body = nvmeNamespace.encodePost(v);
  expect(v.svm.name ?? v.svm.uuid).toBeDefined();
  if (v.comment !== undefined) expect(v.comment.length).toBeLessThanOrEqual(254);
  if (v.clone !== undefined || v.convert !== undefined) {
    expect(v.clone === undefined || v.convert === undefined).toBe(true);
    for (const k of ["os_type", "space"]) expect(body).not.toHaveProperty(k);
  }
  if (v.convert !== undefined) {
    expect(v.convert.lun.name ?? v.convert.lun.uuid).toBeDefined();
    if (targets) {
      const lun = lookup(INV.luns, v.convert.lun);
      expect(lun.mapped ?? false).toBe(false);
      expect(lookup(INV.svms, v.svm).name).toBe(lun.svm);
    }
    return;
  }
  const where = placementOf(v);
  expect(where.base).toMatch(NS_BASE);
  if (v.name !== undefined && v.location?.namespace !== undefined) expect(where.base).toBe(v.location.namespace);
  if (v.clone !== undefined) {
    const source = v.clone.source;
    expect(source.name ?? source.uuid).toBeDefined();
    const from = source.name === undefined ? undefined : /^\/vol\/([^/]+)\//.exec(source.name)?.[1];
    if (from !== undefined && where.volume !== undefined) expect(from).toBe(where.volume);
    return;
  }
  const size = bytesOf(v.space!.size!);
  expect(size).toBeGreaterThanOrEqual(4096);
  expect(size).toBeLessThanOrEqual(128 * TiB);
  expect(body["os_type"]).toBe(v.os_type);
  expect(body["space"]).toEqual({ size, block_size: v.space?.block_size ?? (v.os_type === "vmware" ? 512 : 4096) });
  if (targets) {
    const svm = lookup(INV.svms, v.svm);
    const ref = v.location?.volume ?? { name: where.volume! };
    const vol = lookup(volumesOfSvm(svm.name), ref);
    if (where.volume !== undefined) expect(vol.name).toBe(where.volume);
    expect(vol.state ?? "online").toBe("online");
    if (where.qtree !== undefined) expect(vol.qtrees ?? []).toContain(where.qtree);
  }
}

export const SID_OR_UID = /^(?:[0-9]+|S-1-[0-9]+(?:-[0-9]+)+)$/;

export function checkLimits(
  given: { hard_limit?: SizeInput; soft_limit?: SizeInput } | undefined,
  sent: unknown,
  space: boolean,
): void {
  if (given === undefined) {
    expect(sent).toBeUndefined();
    return;
  }
  expect(keysOf(given).length).toBeGreaterThan(0);
  const bytes = (x: SizeInput | undefined): number | undefined =>
    x === undefined ? undefined : x === -1 ? -1 : bytesOf(x);
  const h = bytes(given.hard_limit);
  const s = bytes(given.soft_limit);
  if (h !== undefined && s !== undefined && h !== -1 && s !== -1) expect(s).toBeLessThanOrEqual(h);
  const want = (b: number | undefined) => (b === undefined || b === -1 || !space ? b : Math.max(1024, b));
  expect(sent).toEqual({
    ...(h === undefined ? {} : { hard_limit: want(h) }),
    ...(s === undefined ? {} : { soft_limit: want(s) }),
  });
}

export function checkQuotaPost(v: QuotaRulePostInput, targets: boolean): void {
  const body = quotaRule.encodePost(v);
  expect(typeof v.qtree.name).toBe("string");
  expect(v.svm.name ?? v.svm.uuid).toBeDefined();
  expect(v.volume.name ?? v.volume.uuid).toBeDefined();
  if (v.type === "user") {
    expect(v.users?.length).toBeGreaterThan(0);
    for (const u of v.users ?? []) {
      expect((u.name === undefined) !== (u.id === undefined)).toBe(true);
      if (u.id !== undefined) expect(u.id).toMatch(SID_OR_UID);
      if (u.name !== undefined && !u.name.startsWith('"')) expect(u.name).not.toMatch(/[, ]/);
    }
    if ((v.users ?? []).some((u) => u.name === "")) expect(v.users).toEqual([{ name: "" }]);
  } else {
    expect(body).not.toHaveProperty("users");
    expect(body).not.toHaveProperty("user_mapping");
  }
  if (v.type === "group") expect(v.group?.name ?? v.group?.id).toBeDefined();
  else expect(body).not.toHaveProperty("group");
  checkLimits(v.space, body["space"], true);
  checkLimits(v.files, body["files"], false);
  if (v.user_mapping !== undefined)
    expect(body["user_mapping"]).toBe(v.user_mapping === true || v.user_mapping === "on");
  if (targets) {
    const svm = lookup(INV.svms, v.svm);
    const vol = lookup(volumesOfSvm(svm.name), v.volume);
    expect(vol.state ?? "online").toBe("online");
    if (v.qtree.name !== "") expect(vol.qtrees ?? []).toContain(v.qtree.name);
  }
}

export function checkQuotaPatch(p: QuotaRulePatchInput, userRule: boolean): void {
  const body = quotaRule.encodePatch(p);
  expect(keysOf(body).length).toBeGreaterThan(0);
  checkLimits(p.space, body["space"], true);
  checkLimits(p.files, body["files"], false);
  if (!userRule) expect(p.user_mapping).toBeUndefined();
}

// ---- contracts of the models ----------------------------------------------------------------------

export function checkCacheModel(c: Cache): void {
  decodesUnchanged(cache.decode, c);
  expect(c.uuid).toMatch(UUID4);
  if (c.path !== undefined) expect(c.path.startsWith("/") && !c.path.endsWith("/")).toBe(true);
  if (c.size !== undefined) expect(c.size).toBeGreaterThanOrEqual(GiB);
  if (c.relative_size !== undefined) expect(c.relative_size.percentage).toSatisfy((n: number) => n >= 1 && n <= 100);
  if (c.atime_scrub !== undefined) expect(c.atime_scrub.period).toSatisfy((n: number) => n >= 1 && n <= 365);
  expect(c).not.toHaveProperty("prepopulate");
  expect(c).not.toHaveProperty("is_disconnected_mode_off_for_locks");
  for (const o of c.origins ?? []) if (o.create_time !== undefined) expect(o.create_time).toMatch(DATE_TIME);
  if (c._links !== undefined) expect(c._links.self?.href).toBe(`/api/storage/cache/caches/${c.uuid}`);
}

export function checkQuotaModel(r: QuotaRule): void {
  decodesUnchanged(quotaRule.decode, r);
  expect(r.users !== undefined).toBe(r.type === "user");
  expect(r.group !== undefined).toBe(r.type === "group");
  expect(r.user_mapping !== undefined).toBe(r.type === "user");
  for (const u of r.users ?? []) expect((u.name === undefined) !== (u.id === undefined)).toBe(true);
  for (const [key, floor] of [
    ["space", 1024],
    ["files", 0],
  ] as const) {
    const l = r[key];
    if (l === undefined) continue;
    for (const x of Object.values(l)) expect(x).toBeGreaterThanOrEqual(floor);
    if (l.hard_limit !== undefined && l.soft_limit !== undefined)
      expect(l.soft_limit).toBeLessThanOrEqual(l.hard_limit);
  }
  if (r.qtree !== undefined) expect(r.qtree.name === "").toBe(r.qtree.id === undefined);
}
