// The storage arbitraries of clusterwire/testing: each is deterministic per seed, stays within
// its contract and shrinks within it (quality.ts); the contracts check values against the codecs
// and against this file's own reading of the spec (Size and duration grammars, defaults, type
// rules, the inventory). Then: the codecs round-trip the models and their own output, and
// StorageClient agrees with the reference server on random valid bodies over loopback.

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  StorageApiError,
  StorageJobError,
  apiError,
  cache,
  cloneToken,
  collection,
  describeErrorCode,
  formatDuration,
  formatSize,
  isTerminalJobState,
  job,
  nvmeNamespace,
  parseDuration,
  parseSize,
  quotaRule,
  software,
  softwareDownload,
  softwareHistory,
  softwarePackage,
  type Cache,
  type CachePatchInput,
  type CachePostInput,
  type CloneTokenPostInput,
  type JsonObject,
  type LifetimeInput,
  type NvmeNamespacePatchInput,
  type NvmeNamespacePostInput,
  type QuotaRule,
  type QuotaRulePatchInput,
  type QuotaRulePostInput,
  type ReferenceInput,
  type SizeInput,
} from "../../src/storage/index.js";
import { DEFAULT_INVENTORY } from "../../src/storage/server/index.js";
import {
  arbApiErrorModel,
  arbCacheModel,
  arbCachePatch,
  arbCachePost,
  arbCloneTokenLifetime,
  arbCloneTokenModel,
  arbCloneTokenPatch,
  arbCloneTokenPost,
  arbCollectionModel,
  arbJobAcceptedModel,
  arbJobModel,
  arbNvmeNamespaceModel,
  arbNvmeNamespaceName,
  arbNvmeNamespacePatch,
  arbNvmeNamespacePost,
  arbQuotaRuleModel,
  arbQuotaRulePatch,
  arbQuotaRulePost,
  arbSoftwareDownloadPost,
  arbSoftwareDownloadProgressModel,
  arbSoftwareHistoryModel,
  arbSoftwarePackageModel,
  arbSoftwarePatch,
  arbSoftwarePatchQuery,
  arbSoftwareProfileModel,
  arbStorageDateTime,
  arbStorageDuration,
  arbStorageName,
  arbStoragePath,
  arbStorageReference,
  arbStorageSize,
  arbStorageSizeInput,
  arbStorageUuid,
  arbStorageVersion,
} from "../../src/testing/storage.js";
import { startLoopback, thrown, type Loopback } from "../support/storage/integration-harness.js";
import { checkArbitraryQuality } from "./quality.js";
import { propertyRuns } from "../support/property-runs.js";

// ---- this file's own reading of the spec ---------------------------------------------------------

const KiB = 1024;
const GiB = 1024 ** 3;
const TiB = 1024 ** 4;
const INV = DEFAULT_INVENTORY;
const T = { targets: INV } as const;

// ../shared/docs/storage-api.md §4 item 2, read without parseSize: digits and a binary suffix.
const MULTIPLIER: Readonly<Record<string, number>> = {
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
function bytesOf(v: SizeInput): number {
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
function secondsOf(d: string | undefined): number {
  const m = /^P(?:([0-9]+)D)?(?:T(?=[0-9])(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?$/.exec(d ?? "");
  if (m === null || d === "P") throw new Error(`not a duration: ${JSON.stringify(d)}`);
  const [, days, h, min, s] = m.map((x) => Number(x ?? 0));
  return days! * 86400 + h! * 3600 + min! * 60 + s!;
}

const lifetimeSeconds = (v: LifetimeInput): number =>
  typeof v === "number" ? v : /^[0-9]+$/.test(v) ? Number(v) : secondsOf(v);

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NAME = /^[a-z][a-z0-9_]*$/;
const NS_BASE = /^[A-Za-z0-9_.-]{1,255}$/;
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)$/;
const VERSION = /^\d+\.\d+\.\d+(?:P\d+)?$/;

const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
/** `v` as JSON (undefined members dropped), typed as a codec input. */
const plain = <I>(v: unknown): I => JSON.parse(JSON.stringify(v)) as I;
const keysOf = (o: object): string[] => Object.keys(o).sort();
const sub = (o: unknown, k: string): JsonObject => (o as JsonObject)[k] as JsonObject;

/** The model is plain JSON and the codec's decode returns it unchanged. */
function decodesUnchanged<M>(decode: (json: unknown) => M, m: M): void {
  const json = asJson(m);
  expect(isDeepStrictEqual(json, m), "not plain JSON").toBe(true);
  expect(decode(json)).toStrictEqual(m);
}

/** The one inventory object a reference names (by name, uuid or both). */
function lookup<O extends { readonly name: string; readonly uuid?: string }>(
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
const volumesOfSvm = (svm: string) => (INV.volumes ?? []).filter((v) => v.svm === svm);

/** A record without what the server generates per object (its uuid and self link). */
const content = (r: object): object =>
  Object.fromEntries(Object.entries(r).filter(([k]) => k !== "uuid" && k !== "_links"));

const compareVersions = (a: string, b: string): number => {
  const pa = a.split(/[.P]/).map(Number);
  const pb = b.split(/[.P]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
};

// ---- contracts of the POST / PATCH bodies ---------------------------------------------------------

function checkCloneTokenPost(v: CloneTokenPostInput, targets: boolean): void {
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

const minCacheBytes = (v: CachePostInput): number =>
  Math.max(v.aggregates?.length ?? 0, 1) *
  (v.constituents_per_aggregate === undefined ? 4 : bytesOf(v.constituents_per_aggregate)) *
  GiB;

function checkCachePost(v: CachePostInput, targets: boolean): void {
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
function placementOf(v: NvmeNamespacePostInput): {
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

function checkNamespacePost(v: NvmeNamespacePostInput, targets: boolean): void {
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

const SID_OR_UID = /^(?:[0-9]+|S-1-[0-9]+(?:-[0-9]+)+)$/;

function checkLimits(
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

function checkQuotaPost(v: QuotaRulePostInput, targets: boolean): void {
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

function checkQuotaPatch(p: QuotaRulePatchInput, userRule: boolean): void {
  const body = quotaRule.encodePatch(p);
  expect(keysOf(body).length).toBeGreaterThan(0);
  checkLimits(p.space, body["space"], true);
  checkLimits(p.files, body["files"], false);
  if (!userRule) expect(p.user_mapping).toBeUndefined();
}

// ---- contracts of the models ----------------------------------------------------------------------

function checkCacheModel(c: Cache): void {
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

function checkQuotaModel(r: QuotaRule): void {
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

// ---- building blocks --------------------------------------------------------------------------------

describe("building blocks", () => {
  it("arbStorageSize: safe byte counts that parseSize and formatSize round-trip", () => {
    checkArbitraryQuality(arbStorageSize(), {
      contract: (n) => {
        expect(Number.isSafeInteger(n) && n >= 0 && n <= KiB ** 5).toBe(true);
        expect(parseSize(n)).toBe(n);
        expect(bytesOf(formatSize(n))).toBe(n);
      },
      size: (n) => n,
    });
    checkArbitraryQuality(arbStorageSize({ min: 4096, max: 128 * TiB }), {
      contract: (n) => n >= 4096 && n <= 128 * TiB && parseSize(formatSize(n)) === n,
      size: (n) => n,
    });
    expect(() => arbStorageSize({ min: 10, max: 9 })).toThrow(RangeError);
  });

  it("arbStorageSize reaches the codecs' edge when asked: 7P is accepted, nothing above 2^53 − 1", () => {
    const big = fc.sample(arbStorageSize({ min: 7 * KiB ** 5, max: Number.MAX_SAFE_INTEGER }), {
      seed: 3,
      numRuns: 50,
    });
    expect(big.every((n) => Number.isSafeInteger(n) && parseSize(n) === n)).toBe(true);
    expect(big).toContain(7 * KiB ** 5); // the whole-PiB branch lands on 7P itself
  });

  it("arbStorageSizeInput: every spelling names a byte count in range, read alike by parseSize and by the spec", () => {
    checkArbitraryQuality(arbStorageSizeInput({ min: 4096, max: TiB }), {
      contract: (v) => {
        const n = bytesOf(v);
        expect(n >= 4096 && n <= TiB).toBe(true);
        expect(parseSize(v)).toBe(n);
        expect(parseSize(formatSize(parseSize(v)))).toBe(n);
      },
      size: bytesOf,
    });
    // All the spellings occur: numbers, digits, each suffix in both cases, bare B.
    const seen = new Set(
      fc
        .sample(arbStorageSizeInput(), { seed: 9, numRuns: 2000 })
        .map((v) => (typeof v === "number" ? "number" : v.replace(/^[0-9]+/, ""))),
    );
    for (const s of ["number", "", "B", "b", "K", "k", "KB", "kb", "M", "mb", "G", "gb", "T", "tb"])
      expect(seen, s).toContain(s);
  });

  it("arbStorageDuration: ISO 8601 durations parseDuration reads as the spec says; canonical ones are formatDuration's", () => {
    checkArbitraryQuality(arbStorageDuration(), {
      contract: (d) => {
        const s = secondsOf(d);
        expect(s >= 0 && s <= 30 * 86400).toBe(true);
        expect(parseDuration(d)).toBe(s);
        expect(parseDuration(formatDuration(s))).toBe(s);
      },
      size: secondsOf,
    });
    checkArbitraryQuality(arbStorageDuration({ canonical: true, min: 1, max: 86400 }), {
      contract: (d) => {
        const s = secondsOf(d);
        expect(s >= 1 && s <= 86400).toBe(true);
        expect(formatDuration(s)).toBe(d);
      },
      size: secondsOf,
    });
    expect(
      fc.sample(arbStorageDuration(), { seed: 4, numRuns: 300 }).some((d) => formatDuration(parseDuration(d)) !== d),
    ).toBe(true);
  });

  it("arbCloneTokenLifetime: seconds, digit strings or durations that encodePatch sends as their seconds", () => {
    checkArbitraryQuality(arbCloneTokenLifetime(), {
      contract: (v) => {
        const s = lifetimeSeconds(v);
        expect(s >= 1 && s <= 7 * 86400).toBe(true);
        expect(cloneToken.encodePatch({ expiry_time: { limit: v } })).toEqual({ expiry_time: { limit: String(s) } });
      },
    });
  });

  it("arbStorageName, arbStorageUuid, arbStorageReference, arbStorageVersion", () => {
    checkArbitraryQuality(arbStorageName(), {
      contract: (n) => NAME.test(n) && n.length <= 17 && !n.includes("__") && NS_BASE.test(n),
    });
    checkArbitraryQuality(arbStorageUuid(), {
      contract: (u) => UUID4.test(u),
      // All UUIDs print alike; shrinking moves their digits towards 0 and f.
      size: (u) => u.replace(/[-0f]/g, "").length,
    });
    checkArbitraryQuality(arbStorageReference(), {
      contract: (r) => {
        expect(keysOf(r).length).toBeGreaterThan(0);
        expect(keysOf(r).every((k) => k === "name" || k === "uuid")).toBe(true);
        if (r.name !== undefined) expect(r.name).toMatch(NAME);
        if (r.uuid !== undefined) expect(r.uuid).toMatch(UUID4);
        // A reference is what a body's svm takes.
        quotaRule.encodePost({ svm: r, volume: r, type: "tree", qtree: { name: "" } });
      },
    });
    checkArbitraryQuality(arbStorageVersion(), {
      contract: (v) => VERSION.test(v),
      // Versions print in few lengths; shrinking lowers their numbers.
      size: (v) => v.split(/[.P]/).reduce((sum, part) => sum + Number(part), 0),
    });
  });

  it("arbStoragePath, arbNvmeNamespaceName, arbStorageDateTime: the shapes the codecs and the spec take", () => {
    const origin = [{ svm: { name: "svm1" }, volume: { name: "vol1" } }];
    checkArbitraryQuality(arbStoragePath(), {
      contract: (p) => {
        expect(p.startsWith("/") && !p.endsWith("/") && !p.includes("//")).toBe(true);
        cache.encodePost({
          name: "c",
          svm: { name: "svm1" },
          origins: origin,
          path: p,
          prepopulate: { dir_paths: [p] },
        });
      },
    });
    checkArbitraryQuality(arbNvmeNamespaceName(), {
      contract: (n) => {
        expect(n).toMatch(/^\/vol\/[a-z][a-z0-9_]*\/(?:[a-z][a-z0-9_]*\/)?[a-z][a-z0-9_.-]*$/);
        nvmeNamespace.encodePost({ svm: { name: "svm1" }, name: n, os_type: "linux", space: { size: "1G" } });
      },
    });
    checkArbitraryQuality(arbStorageDateTime(), {
      contract: (d) => {
        expect(d).toMatch(DATE_TIME);
        const t = Date.parse(d);
        expect(t % 1000).toBe(0);
        expect(t >= Date.UTC(2018, 0, 1) && t <= Date.UTC(2031, 0, 1)).toBe(true);
      },
      // Timestamps print in two lengths; shrinking moves them towards 2018.
      size: (d) => Date.parse(d) / 1000 - Date.UTC(2018, 0, 1) / 1000,
    });
  });
});

// ---- models -------------------------------------------------------------------------------------------

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbCloneTokenModel", () => {
    checkArbitraryQuality(arbCloneTokenModel(), {
      contract: (t) => {
        decodesUnchanged(cloneToken.decode, t);
        expect(t.uuid).toMatch(UUID4);
        expect(t.node?.uuid).toMatch(UUID4);
        if (t.reserve_size !== undefined) expect(t.reserve_size).toBeGreaterThanOrEqual(4096);
        if (t.expiry_time !== undefined) {
          const limit = secondsOf(t.expiry_time.limit);
          expect(limit).toBeGreaterThanOrEqual(1);
          expect(secondsOf(t.expiry_time.left)).toBeLessThanOrEqual(limit);
          expect(formatDuration(limit)).toBe(t.expiry_time.limit);
        }
        if (t._links !== undefined)
          expect(t._links.self?.href).toBe(`/api/storage/file/clone/tokens/${t.node?.uuid}/${t.uuid}`);
      },
    });
  });

  it("arbCacheModel", () => {
    checkArbitraryQuality(arbCacheModel(), { runs: 100, contract: checkCacheModel });
  });

  it("arbNvmeNamespaceModel", () => {
    checkArbitraryQuality(arbNvmeNamespaceModel(), {
      runs: 100,
      shrinkSeeds: [1], // a large model: one shrink run is evidence enough and keeps CI fast
      contract: (n) => {
        decodesUnchanged(nvmeNamespace.decode, n);
        expect(n.name).toMatch(/^\/vol\/[^/]+\/(?:[^/]+\/)?[^/]+$/);
        const loc = n.location;
        if (loc !== undefined) {
          const qtree = loc.qtree === undefined ? "" : `/${loc.qtree.name}`;
          expect(n.name).toBe(`/vol/${loc.volume?.name}${qtree}/${loc.namespace}`);
        }
        const space = n.space;
        if (space !== undefined) {
          expect(space.size! >= 4096 && space.size! <= 128 * TiB).toBe(true);
          expect(space.used!).toBeLessThanOrEqual(space.size!);
          expect([512, 4096]).toContain(space.block_size);
        }
        if (n.comment !== undefined) expect(n.comment.length).toBeLessThanOrEqual(254);
        if (n._links !== undefined) expect(n._links.self?.href).toBe(`/api/storage/namespaces/${n.uuid}`);
      },
    });
  });

  it("arbQuotaRuleModel", () => {
    checkArbitraryQuality(arbQuotaRuleModel(), { contract: checkQuotaModel });
  });

  it("arbSoftwareProfileModel", () => {
    checkArbitraryQuality(arbSoftwareProfileModel(), {
      runs: 100,
      contract: (p) => {
        decodesUnchanged(software.decode, p);
        for (const v of [p.version, p.pending_version, ...(p.nodes ?? []).map((n) => n.version)])
          if (v !== undefined) expect(v).toMatch(VERSION);
        for (const s of p.status_details ?? [])
          expect(Date.parse(s.start_time!)).toBeLessThanOrEqual(Date.parse(s.end_time!));
        for (const n of p.nodes ?? []) {
          const sp = n.firmware?.sp_bmc;
          if (sp?.percent_done !== undefined) expect(sp.percent_done >= 0 && sp.percent_done <= 100).toBe(true);
          for (const f of n.firmware?.cluster_fw_progress ?? []) {
            if (f.job?._links !== undefined) expect(f.job._links.self?.href).toBe(`/api/cluster/jobs/${f.job.uuid}`);
          }
        }
        for (const c of [...(p.validation_results ?? []), ...(p.post_update_checks ?? [])])
          if (c.status !== undefined) expect(["warning", "error"]).toContain(c.status);
      },
    });
  });

  it("arbSoftwarePackageModel, arbSoftwareHistoryModel, arbSoftwareDownloadProgressModel", () => {
    checkArbitraryQuality(arbSoftwarePackageModel(), {
      contract: (p) => {
        decodesUnchanged(softwarePackage.decode, p);
        expect(p.version).toMatch(VERSION);
        if (p.create_time !== undefined) expect(p.create_time).toMatch(DATE_TIME);
        if (p._links !== undefined) expect(p._links.self?.href).toBe(`/api/cluster/software/packages/${p.version}`);
      },
    });
    checkArbitraryQuality(arbSoftwareHistoryModel(), {
      contract: (h) => {
        decodesUnchanged(softwareHistory.decode, h);
        expect(compareVersions(h.from_version!, h.to_version!)).toBeLessThan(0);
        if (h.start_time !== undefined) expect(Date.parse(h.start_time)).toBeLessThanOrEqual(Date.parse(h.end_time!));
        if (h.state !== undefined) expect(["successful", "canceled", "skip_upgrade"]).toContain(h.state);
      },
    });
    checkArbitraryQuality(arbSoftwareDownloadProgressModel(), {
      contract: (p) => {
        decodesUnchanged(softwareDownload.decode, p);
        expect(p).not.toHaveProperty("password");
        if (p.state === "failure") {
          const row = describeErrorCode(p.code!);
          expect(row?.table).toBe("package_transfer");
          expect(p.message).toBe(row?.meaning);
        } else expect(p.code).toBe(p.state === "running" ? 10551382 : 0);
      },
    });
  });

  it("arbJobModel and arbJobAcceptedModel", () => {
    checkArbitraryQuality(arbJobModel(), {
      contract: (j) => {
        decodesUnchanged(job.decode, j);
        expect(j.description).toMatch(/^(?:GET|POST|PATCH|DELETE) \/api\//);
        expect(j.end_time !== undefined).toBe(isTerminalJobState(j.state));
        if (j.end_time !== undefined) expect(Date.parse(j.end_time)).toBeGreaterThanOrEqual(Date.parse(j.start_time!));
        if (j.state === "failure") {
          expect(j.code).not.toBe(0);
          expect(j.error?.code).toBe(String(j.code));
        } else {
          expect(j.code).toBe(0);
          expect(j.error).toBeUndefined();
        }
        if (j._links !== undefined) expect(j._links.self?.href).toBe(`/api/cluster/jobs/${j.uuid}`);
      },
    });
    checkArbitraryQuality(arbJobAcceptedModel(), {
      contract: (a) => {
        expect(job.decodeAccepted(asJson(a))).toStrictEqual(a);
        if (a.job !== undefined) expect(job.hrefOf(a)).toBe(`/api/cluster/jobs/${a.job.uuid}`);
        else expect(a.num_records).toBe(a.jobs?.length);
      },
    });
  });

  it("arbCollectionModel: pages of any item arbitrary that collection.decode keeps", () => {
    checkArbitraryQuality(arbCollectionModel(arbCloneTokenModel(), { path: "/api/storage/file/clone/tokens" }), {
      runs: 100,
      contract: (page) => {
        expect(collection.decode(asJson(page), cloneToken)).toStrictEqual(page);
        if (page.records !== undefined) expect(page.num_records).toBe(page.records.length);
        const next = collection.nextHref(page);
        if (next !== undefined) {
          expect(next.startsWith("/api/storage/file/clone/tokens?")).toBe(true);
          expect(next).not.toBe(page._links?.self?.href);
        }
      },
    });
  });

  it("arbApiErrorModel: error bodies apiError decodes and turns into a StorageApiError", () => {
    checkArbitraryQuality(arbApiErrorModel(), {
      contract: (b) => {
        expect(apiError.decode(asJson(b))).toStrictEqual(b);
        expect(b.error.code).toMatch(/^[0-9]+$/);
        const e = apiError.toStorageApiError(asJson(b), { status: 400, request: "GET /api/storage/namespaces" });
        expect(e).toBeInstanceOf(StorageApiError);
        expect([e.code, e.apiMessage, e.target]).toEqual([b.error.code, b.error.message, b.error.target]);
      },
    });
  });

  it("newerServer: unknown enum values and members occur, and decode keeps them as given", () => {
    const KNOWN_OS = ["aix", "linux", "vmware", "windows"];
    const arb = arbNvmeNamespaceModel({ newerServer: true });
    checkArbitraryQuality(arb, {
      runs: 100,
      shrinkSeeds: [2],
      contract: (n) => decodesUnchanged(nvmeNamespace.decode, n),
    });
    const sample = fc.sample(arb, { seed: 11, numRuns: 300 });
    expect(sample.some((n) => n.os_type !== undefined && !KNOWN_OS.includes(n.os_type))).toBe(true);
    expect(sample.some((n) => ["snaplock", "anti_ransomware", "tiering"].some((k) => k in n))).toBe(true);
    checkArbitraryQuality(arbSoftwareProfileModel({ newerServer: true }), {
      runs: 50,
      shrinkSeeds: [3],
      contract: (p) => decodesUnchanged(software.decode, p),
    });
    checkArbitraryQuality(arbQuotaRuleModel({ newerServer: true }), {
      runs: 100,
      contract: (r) => decodesUnchanged(quotaRule.decode, r),
    });
  });
});

// ---- request bodies ------------------------------------------------------------------------------------

describe("request bodies: the codecs accept them and the encoded body obeys the spec", () => {
  it("clone tokens: POST (4 KiB floor, limit default) and PATCH", () => {
    checkArbitraryQuality(arbCloneTokenPost(), { contract: (v) => checkCloneTokenPost(v, false) });
    checkArbitraryQuality(arbCloneTokenPost(T), { contract: (v) => checkCloneTokenPost(v, true) });
    checkArbitraryQuality(arbCloneTokenPatch(), {
      contract: (p) => {
        const body = cloneToken.encodePatch(p);
        expect(body).toEqual({ expiry_time: { limit: String(lifetimeSeconds(p.expiry_time.limit)) } });
        expect(Number(sub(body, "expiry_time")["limit"])).toBeGreaterThanOrEqual(1);
      },
    });
    expect(() => arbCloneTokenPost({ targets: { nodes: [{ name: "n1" }] } })).toThrow(/node with a uuid/);
  });

  it("caches: POST (defaults only inside given sub-objects, size per constituent) and PATCH (no POST defaults)", () => {
    checkArbitraryQuality(arbCachePost(), { runs: 100, contract: (v) => checkCachePost(v, false) });
    checkArbitraryQuality(arbCachePost(T), { runs: 100, contract: (v) => checkCachePost(v, true) });
    checkArbitraryQuality(arbCachePatch(), {
      contract: (p) => {
        const body = cache.encodePatch(p);
        expect(keysOf(body).length).toBeGreaterThan(0);
        for (const key of ["writeback", "relative_size", "atime_scrub", "cifs_change_notify"] as const) {
          if (p[key] !== undefined) expect(keysOf(p[key]!).length).toBeGreaterThan(0);
          expect(body[key]).toEqual(p[key]);
        }
        if (p.prepopulate !== undefined) {
          expect(p.prepopulate.dir_paths?.length).toBeGreaterThan(0);
          expect(body["prepopulate"]).toEqual({ ...p.prepopulate, recurse: p.prepopulate.recurse ?? true });
        }
      },
    });
  });

  it("NVMe namespaces: create, clone and convert POSTs, and PATCH", () => {
    checkArbitraryQuality(arbNvmeNamespacePost(), { runs: 100, contract: (v) => checkNamespacePost(v, false) });
    checkArbitraryQuality(arbNvmeNamespacePost(T), { runs: 100, contract: (v) => checkNamespacePost(v, true) });
    const kinds = fc
      .sample(arbNvmeNamespacePost(), { seed: 2, numRuns: 300 })
      .map((v) => (v.clone ? "clone" : v.convert ? "convert" : "create"));
    expect(new Set(kinds)).toEqual(new Set(["create", "clone", "convert"]));
    expect(fc.sample(arbNvmeNamespacePost(T), { seed: 2, numRuns: 300 }).some((v) => v.convert !== undefined)).toBe(
      true,
    );
    expect(
      fc
        .sample(arbNvmeNamespacePost({ ...T, kinds: ["create"] }), { seed: 2, numRuns: 100 })
        .every((v) => v.os_type !== undefined),
    ).toBe(true);
    expect(() => arbNvmeNamespacePost({ ...T, kinds: ["clone"] })).toThrow(/clone/);
    checkArbitraryQuality(arbNvmeNamespacePatch(), {
      contract: (p) => {
        const body = nvmeNamespace.encodePatch(p);
        expect(keysOf(body).length).toBeGreaterThan(0);
        for (const k of ["name", "location", "os_type", "convert"]) expect(body).not.toHaveProperty(k);
        expect(p.space !== undefined && p.clone !== undefined).toBe(false);
        if (p.space?.size !== undefined) expect(body["space"]).toEqual({ size: bytesOf(p.space.size) });
      },
    });
  });

  it("quota rules: POSTs of each type, and PATCHes", () => {
    checkArbitraryQuality(arbQuotaRulePost(), { contract: (v) => checkQuotaPost(v, false) });
    checkArbitraryQuality(arbQuotaRulePost(T), { contract: (v) => checkQuotaPost(v, true) });
    const types = new Set(fc.sample(arbQuotaRulePost(T), { seed: 1, numRuns: 100 }).map((v) => v.type));
    expect(types).toEqual(new Set(["tree", "user", "group"]));
    checkArbitraryQuality(arbQuotaRulePatch(), { contract: (p) => checkQuotaPatch(p, true) });
    checkArbitraryQuality(arbQuotaRulePatch({ type: "tree" }), { contract: (p) => checkQuotaPatch(p, false) });
  });

  it("software: download POST, PATCH bodies and PATCH query flags", () => {
    checkArbitraryQuality(arbSoftwareDownloadPost(), {
      contract: (d) => {
        expect(softwareDownload.encodePost(d)).toEqual(d);
        const url = new URL(d.url);
        expect(["http:", "https:", "ftp:"]).toContain(url.protocol);
        expect(url.pathname.split("/").pop()).toMatch(/\d+\.\d+\.\d+(?:P\d+)?[._]/);
      },
    });
    checkArbitraryQuality(arbSoftwarePatch(), {
      contract: (p) => {
        expect(software.encodePatch(p)).toEqual(p);
        expect((p.version === undefined) !== (p.action === undefined)).toBe(true);
        if (p.version !== undefined) expect(p.version).toMatch(VERSION);
      },
    });
    checkArbitraryQuality(arbSoftwarePatchQuery({ nodes: ["node1", "node2"] }), {
      contract: (q) => {
        const out = software.encodePatchQuery(q);
        if (q.stabilize_minutes !== undefined)
          expect(Number(out["stabilize_minutes"])).toSatisfy((n: number) => n >= 1 && n <= 60);
        if (q.return_timeout !== undefined)
          expect(Number(out["return_timeout"])).toSatisfy((n: number) => n >= 0 && n <= 120);
        if (q.nodes_to_update !== undefined) {
          expect(out["nodes_to_update"]?.split(",")).toEqual([...q.nodes_to_update]);
          expect(new Set(q.nodes_to_update).size).toBe(q.nodes_to_update.length);
          expect(q.nodes_to_update.every((n) => n === "node1" || n === "node2")).toBe(true);
        }
      },
    });
  });
});

describe("independence", () => {
  it("generated values share no objects or arrays, within or across values (mutating one never changes another)", () => {
    const all: [string, fc.Arbitrary<unknown>][] = [
      ["arbStorageReference", arbStorageReference()],
      ["arbCloneTokenModel", arbCloneTokenModel()],
      ["arbCloneTokenPost", arbCloneTokenPost(T)],
      ["arbCloneTokenPatch", arbCloneTokenPatch()],
      ["arbCacheModel", arbCacheModel({ newerServer: true })],
      ["arbCachePost", arbCachePost(T)],
      ["arbCachePatch", arbCachePatch()],
      ["arbNvmeNamespaceModel", arbNvmeNamespaceModel({ newerServer: true })],
      ["arbNvmeNamespacePost", arbNvmeNamespacePost()],
      ["arbNvmeNamespacePatch", arbNvmeNamespacePatch()],
      ["arbQuotaRuleModel", arbQuotaRuleModel()],
      ["arbQuotaRulePost", arbQuotaRulePost(T)],
      ["arbQuotaRulePatch", arbQuotaRulePatch()],
      ["arbSoftwareProfileModel", arbSoftwareProfileModel()],
      ["arbSoftwarePackageModel", arbSoftwarePackageModel()],
      ["arbSoftwareHistoryModel", arbSoftwareHistoryModel()],
      ["arbSoftwareDownloadProgressModel", arbSoftwareDownloadProgressModel()],
      ["arbSoftwareDownloadPost", arbSoftwareDownloadPost()],
      ["arbSoftwarePatch", arbSoftwarePatch()],
      ["arbSoftwarePatchQuery", arbSoftwarePatchQuery()],
      ["arbJobModel", arbJobModel()],
      ["arbJobAcceptedModel", arbJobAcceptedModel()],
      ["arbCollectionModel", arbCollectionModel(arbQuotaRuleModel())],
      ["arbApiErrorModel", arbApiErrorModel()],
    ];
    for (const [name, arb] of all) {
      const seen = new Set<object>();
      const walk = (v: unknown): void => {
        if (typeof v !== "object" || v === null) return;
        expect(seen.has(v), `${name}: an object is shared`).toBe(false);
        seen.add(v);
        for (const x of Object.values(v)) walk(x);
      };
      for (const v of fc.sample(arb, { seed: 5, numRuns: 100 })) walk(v);
    }
  });
});

// ---- round trips ----------------------------------------------------------------------------------------

describe("codec round trips", () => {
  const n = propertyRuns(100);

  it("an encoded POST body is a valid input that encodes to itself", () => {
    const fixed =
      <I>(encode: (input: I) => JsonObject) =>
      (v: I) => {
        const once = encode(v);
        expect(encode(asJson(once) as unknown as I)).toStrictEqual(once);
      };
    fc.assert(fc.property(arbCloneTokenPost(), fixed(cloneToken.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbCachePost(), fixed(cache.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbNvmeNamespacePost(), fixed(nvmeNamespace.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbQuotaRulePost(), fixed(quotaRule.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbSoftwareDownloadPost(), fixed(softwareDownload.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbCachePatch(), fixed(cache.encodePatch)), { numRuns: n });
    fc.assert(fc.property(arbQuotaRulePatch(), fixed(quotaRule.encodePatch)), { numRuns: n });
  });

  it("decode is idempotent: a decoded model decodes to itself", () => {
    const twice =
      <M>(decode: (json: unknown) => M) =>
      (m: M) => {
        const once = decode(asJson(m));
        expect(decode(asJson(once))).toStrictEqual(once);
      };
    fc.assert(fc.property(arbCacheModel({ newerServer: true }), twice(cache.decode)), { numRuns: n });
    fc.assert(fc.property(arbJobModel({ newerServer: true }), twice(job.decode)), { numRuns: n });
    fc.assert(fc.property(arbSoftwareHistoryModel({ newerServer: true }), twice(softwareHistory.decode)), {
      numRuns: n,
    });
  });

  it("a decoded model's writable values re-encode as a PATCH unchanged (PATCH adds no defaults)", () => {
    fc.assert(
      fc.property(arbCloneTokenModel(), (t) => {
        const m = cloneToken.decode(asJson(t));
        if (m.expiry_time?.limit === undefined) return;
        // Output is a duration, input is seconds (the spec's in/out asymmetry).
        expect(cloneToken.encodePatch({ expiry_time: { limit: m.expiry_time.limit } })).toEqual({
          expiry_time: { limit: String(secondsOf(m.expiry_time.limit)) },
        });
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbCacheModel(), (c) => {
        const m = cache.decode(asJson(c));
        const patch = {
          writeback: m.writeback,
          relative_size: m.relative_size,
          atime_scrub: m.atime_scrub,
          cifs_change_notify: m.cifs_change_notify,
        };
        expect(cache.encodePatch(plain<CachePatchInput>(patch))).toEqual(plain(patch));
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbQuotaRuleModel(), (r) => {
        const m = quotaRule.decode(asJson(r));
        const patch = plain<QuotaRulePatchInput>({ space: m.space, files: m.files, user_mapping: m.user_mapping });
        expect(quotaRule.encodePatch(patch)).toEqual(patch);
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbNvmeNamespaceModel(), (ns) => {
        const m = nvmeNamespace.decode(asJson(ns));
        const patch = plain<NvmeNamespacePatchInput>({
          comment: m.comment,
          auto_delete: m.auto_delete,
          space: m.space === undefined ? undefined : { size: m.space.size },
        });
        expect(nvmeNamespace.encodePatch(patch)).toEqual(patch);
      }),
      { numRuns: n },
    );
  });

  it("sizes and durations: the parse/format pairs are inverse on every generated value", () => {
    fc.assert(
      fc.property(arbStorageSizeInput({ max: Number.MAX_SAFE_INTEGER }), (v) => {
        expect(parseSize(formatSize(parseSize(v)))).toBe(parseSize(v));
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbStorageDuration({ max: 10 ** 9 }), (d) => {
        expect(parseDuration(formatDuration(parseDuration(d)))).toBe(parseDuration(d));
      }),
      { numRuns: n },
    );
  });
});

// ---- the client against the reference server --------------------------------------------------------------

describe("StorageClient against the reference server (loopback): random valid bodies", () => {
  let loop: Loopback;
  beforeAll(async () => {
    loop = await startLoopback("arbitraries-Pa55");
  });
  afterAll(() => loop.close());
  const n = propertyRuns(25);

  it("clone tokens: created with the 4 KiB floor and the limit sent (default 60 s), patched, deleted", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(arbCloneTokenPost(T), arbCloneTokenPatch(), fc.boolean(), async (post, patch, echo) => {
        const created = await client.cloneTokens.create(post, { query: { return_records: echo } });
        const key = { nodeUuid: post.node.uuid, uuid: created.record!.uuid! };
        try {
          const reserve = Math.max(4096, bytesOf(post.reserve_size));
          expect(created.record?.reserve_size).toBe(reserve);
          const limit = post.expiry_time?.limit === undefined ? 60 : lifetimeSeconds(post.expiry_time.limit);
          const got = await client.cloneTokens.get(key);
          expect(got).toMatchObject({
            node: { uuid: post.node.uuid, name: lookup(INV.nodes, { uuid: post.node.uuid }).name },
            reserve_size: reserve,
          });
          expect(secondsOf(got.expiry_time?.limit)).toBe(limit);
          expect(secondsOf(got.expiry_time?.left)).toBe(limit);
          // The POST answer is the record (all of it with return_records), as decoded.
          if (echo) expect(created.record).toEqual(got);
          else expect(got).toMatchObject(created.record!);
          await client.cloneTokens.update(key, patch);
          expect(secondsOf((await client.cloneTokens.get(key)).expiry_time?.limit)).toBe(
            lifetimeSeconds(patch.expiry_time.limit),
          );

          // Sent raw (the wire takes the limit only as a digit string): the server's 4 KiB floor and
          // "60" default give the same token as the codec's.
          const rawLimit = post.expiry_time?.limit;
          if (typeof rawLimit !== "number" && (rawLimit === undefined || /^[0-9]+$/.test(rawLimit))) {
            const r = await loop.raw.cloneTokens.create(post);
            const rawKey = { nodeUuid: post.node.uuid, uuid: (r.record as { uuid: string }).uuid };
            const rawGot = await client.cloneTokens.get(rawKey);
            await client.cloneTokens.delete(rawKey);
            expect(rawGot).toMatchObject({
              reserve_size: reserve,
              expiry_time: got.expiry_time,
              node: { uuid: post.node.uuid },
            });
          }
        } finally {
          await client.cloneTokens.delete(key);
        }
      }),
      { numRuns: n },
    );
  });

  it("caches: the create job succeeds and GET shows what was sent plus the documented defaults; PATCH toggles apply", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(arbCachePost(T), arbCachePatch(), async (post, patch) => {
        try {
          const res = await client.caches.create(post);
          expect(res.job?.state).toBe("success");
          const svm = lookup(INV.svms, post.svm);
          const [listed, ...more] = await client.caches.all({ name: post.name, "svm.uuid": svm.uuid! });
          expect(more).toHaveLength(0);
          const got = await client.caches.get(listed!.uuid!);
          const origin = post.origins[0]!;
          const vol = lookup(volumesOfSvm(origin.svm.name!), origin.volume);
          const aggregates = post.aggregates?.map((a) => lookup(INV.aggregates, a).name);
          const cpa =
            post.constituents_per_aggregate === undefined
              ? aggregates === undefined
                ? undefined
                : 4
              : bytesOf(post.constituents_per_aggregate);
          expect(got).toMatchObject({
            name: post.name,
            svm: { uuid: svm.uuid, name: svm.name },
            ...(post.path === undefined ? {} : { path: post.path }),
            guarantee: { type: post.guarantee?.type ?? "none" },
            ...(cpa === undefined ? {} : { constituents_per_aggregate: cpa }),
            use_tiered_aggregate: post.use_tiered_aggregate ?? false,
            dr_cache: post.dr_cache ?? false,
            global_file_locking_enabled: post.global_file_locking_enabled ?? false,
            override_encryption: post.override_encryption ?? false,
            writeback: { enabled: post.writeback?.enabled ?? false },
            relative_size: {
              enabled: post.relative_size?.enabled ?? false,
              percentage: post.relative_size?.percentage ?? 10,
            },
            atime_scrub: { enabled: post.atime_scrub?.enabled ?? false, period: post.atime_scrub?.period ?? 30 },
            cifs_change_notify: { enabled: post.cifs_change_notify?.enabled ?? false },
          });
          expect(got.origins?.[0]).toMatchObject({
            svm: { name: vol.svm },
            volume: { name: vol.name, uuid: vol.uuid },
          });
          if (aggregates !== undefined) expect(got.aggregates?.map((a) => a.name)).toEqual(aggregates);
          if (post.size !== undefined) expect(got.size).toBe(bytesOf(post.size));
          else {
            // Default: 10 % of the origin (or relative_size.percentage), at least 1 GiB per constituent.
            const pct = post.relative_size?.enabled === true ? (post.relative_size.percentage ?? 10) : 10;
            expect(got.size).toBeGreaterThanOrEqual(Math.max(GiB, Math.ceil(((vol.size ?? 100 * GiB) * pct) / 100)));
          }
          expect(got).not.toHaveProperty("prepopulate");
          expect(got).not.toHaveProperty("is_disconnected_mode_off_for_locks");

          // The same input sent raw: the server's own defaults and Size reading give the same cache.
          await client.caches.delete(got.uuid!);
          expect((await loop.raw.caches.create(post)).job?.state).toBe("success");
          const [again] = await client.caches.all({ name: post.name, "svm.uuid": svm.uuid! });
          const rawGot = await client.caches.get(again!.uuid!);
          expect(content(rawGot)).toEqual(content(got));

          expect((await client.caches.update(rawGot.uuid!, patch)).job?.state).toBe("success");
          const after = await client.caches.get(rawGot.uuid!);
          for (const k of ["writeback", "relative_size", "atime_scrub", "cifs_change_notify"] as const) {
            expect(after[k]).toEqual({ ...got[k], ...patch[k] });
          }
        } finally {
          for (const c of await client.caches.all({ name: post.name })) await client.caches.delete(c.uuid!);
        }
      }),
      { numRuns: n },
    );
  });

  it("NVMe namespaces: GET shows the full name, location, os_type, size and block_size default; clones inherit; PATCH comment, auto_delete and growth", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(
        arbNvmeNamespacePost({ ...T, kinds: ["create"] }),
        arbNvmeNamespacePatch(),
        fc.boolean(),
        fc.constantFrom("uuid", "name", "snapshot"),
        async (post, patch, echo, cloneBy) => {
          const created = await client.nvmeNamespaces.create(post, { query: { return_records: echo } });
          let uuid = created.record!.uuid!;
          let cloneUuid: string | undefined;
          try {
            const svm = lookup(INV.svms, post.svm);
            const where = placementOf(post);
            const vol = lookup(volumesOfSvm(svm.name), post.location?.volume ?? { name: where.volume! });
            const size = bytesOf(post.space!.size!);
            const got = await client.nvmeNamespaces.get(uuid, { fields: "**" });
            expect(got).toMatchObject({
              name: `/vol/${vol.name}${where.qtree === undefined ? "" : `/${where.qtree}`}/${where.base}`,
              svm: { uuid: svm.uuid, name: svm.name },
              location: { volume: { uuid: vol.uuid, name: vol.name }, namespace: where.base },
              os_type: post.os_type,
              space: { size, block_size: post.space?.block_size ?? (post.os_type === "vmware" ? 512 : 4096) },
              enabled: true,
              auto_delete: post.auto_delete ?? false,
              ...(post.comment === undefined ? {} : { comment: post.comment }),
            });
            expect(got.location?.qtree?.name).toBe(where.qtree);
            // The POST answer: the record without the expensive fields (with return_records), else its keys.
            const plainGet = await client.nvmeNamespaces.get(uuid);
            if (echo) expect(created.record).toEqual(plainGet);
            else expect(plainGet).toMatchObject(created.record!);

            // Sent raw, the server's block_size default and Size reading give the same namespace.
            await client.nvmeNamespaces.delete(uuid);
            uuid = (await loop.raw.nvmeNamespaces.create(post)).record!.uuid!;
            expect(content(await client.nvmeNamespaces.get(uuid, { fields: "**" }))).toEqual(content(got));

            // A clone in the same volume takes os_type, size and block_size from its source.
            const inVolume = got.name!.slice(`/vol/${vol.name}/`.length);
            const source =
              cloneBy === "uuid"
                ? { uuid }
                : { name: cloneBy === "name" ? got.name! : `/vol/${vol.name}/.snapshot/daily.0/${inVolume}` };
            cloneUuid = (
              await client.nvmeNamespaces.create({
                svm: post.svm,
                name: `/vol/${vol.name}/${where.base}_clone`,
                clone: { source },
              })
            ).record!.uuid!;
            expect(await client.nvmeNamespaces.get(cloneUuid)).toMatchObject({
              name: `/vol/${vol.name}/${where.base}_clone`,
              os_type: got.os_type,
              space: { size: got.space?.size, block_size: got.space?.block_size },
            });

            // Namespaces only grow, and svm/clone need this namespace's own volume: keep the rest.
            const grow = patch.space?.size === undefined ? undefined : Math.max(size, bytesOf(patch.space.size));
            const p = {
              comment: patch.comment,
              auto_delete: patch.auto_delete,
              ...(grow === undefined ? {} : { space: { size: grow } }),
            };
            await client.nvmeNamespaces.update(uuid, plain<NvmeNamespacePatchInput>(p));
            expect(await client.nvmeNamespaces.get(uuid, { fields: "comment,auto_delete,space.size" })).toMatchObject({
              ...(p.comment === undefined
                ? post.comment === undefined
                  ? {}
                  : { comment: post.comment }
                : { comment: p.comment }),
              auto_delete: p.auto_delete ?? post.auto_delete ?? false,
              space: { size: grow ?? size },
            });
          } finally {
            await client.nvmeNamespaces.delete(uuid);
            if (cloneUuid !== undefined) await client.nvmeNamespaces.delete(cloneUuid);
          }
        },
      ),
      { numRuns: n },
    );
  });

  it("NVMe namespaces: converting any convertible LUN of the inventory gives its path, os_type and size, and uses the LUN up", async () => {
    const inventory = {
      ...INV,
      luns: [
        {
          name: "/vol/vol1/lun_db",
          uuid: "00000000-0000-4000-8000-e00000000011",
          svm: "svm1",
          os_type: "linux",
          size: GiB,
        },
        {
          name: "/vol/vol1/q1/esx",
          uuid: "00000000-0000-4000-8000-e00000000012",
          svm: "svm1",
          os_type: "vmware",
          size: 2 * GiB,
        },
        { name: "/vol/vol3/win", svm: "svm2", os_type: "windows", size: 512 * 1024 ** 2 },
        // Never chosen: mapped, bound, or an os_type namespaces do not have.
        { name: "/vol/vol1/lun_mapped", svm: "svm1", os_type: "linux", size: GiB, mapped: true },
        { name: "/vol/vol1/lun_vvol", svm: "svm1", os_type: "linux", size: GiB, vvol_bound: true },
        { name: "/vol/vol1/lun_hyperv", svm: "svm1", os_type: "hyper_v", size: GiB },
      ],
    };
    await fc.assert(
      fc.asyncProperty(arbNvmeNamespacePost({ targets: inventory, kinds: ["convert"] }), async (post) => {
        const lun = lookup(inventory.luns, post.convert!.lun);
        const own = await startLoopback("convert-Pa55", { inventory });
        try {
          const created = await own.client.nvmeNamespaces.create(post);
          expect(await own.client.nvmeNamespaces.get(created.record!.uuid!, { fields: "**" })).toMatchObject({
            name: lun.name,
            svm: { name: lun.svm },
            os_type: lun.os_type,
            space: { size: lun.size, block_size: lun.os_type === "vmware" ? 512 : 4096 },
            auto_delete: post.auto_delete ?? false,
            ...(post.comment === undefined ? {} : { comment: post.comment }),
          });
          const luns =
            (await own.client.request<{ records: { name: string }[] }>("GET", "/api/storage/luns"))?.records ?? [];
          expect(luns.map((l) => l.name)).not.toContain(lun.name);
        } finally {
          await own.close();
        }
      }),
      { numRuns: propertyRuns(10) },
    );
  });

  it("quota rules: GET shows the rule as sent (limits floored, -1 unset); a PATCH applies, or is refused when soft would exceed hard", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(
        arbQuotaRulePost(T),
        arbQuotaRulePatch({ type: "user" }),
        arbQuotaRulePatch({ type: "tree" }),
        fc.boolean(),
        async (post, userPatch, otherPatch, echo) => {
          const svm = lookup(INV.svms, post.svm);
          const vol = lookup(volumesOfSvm(svm.name), post.volume);
          try {
            const created = await client.quotaRules.create(post, { query: { return_records: echo } });
            let uuid = created.record!.uuid!;
            const qtreeId = (vol.qtrees ?? []).indexOf(post.qtree.name) + 1;
            const got = await client.quotaRules.get(uuid);
            const applied = (
              given: { hard_limit?: SizeInput; soft_limit?: SizeInput } | undefined,
              space: boolean,
              into: Record<string, number> = {},
            ) => {
              const out = { ...into };
              for (const k of ["hard_limit", "soft_limit"] as const) {
                const x = given?.[k];
                if (x === undefined) continue;
                if (x === -1) delete out[k];
                else out[k] = space ? Math.max(1024, bytesOf(x)) : bytesOf(x);
              }
              return Object.keys(out).length === 0 ? undefined : out;
            };
            expect(got).toMatchObject({
              svm: { uuid: svm.uuid, name: svm.name },
              volume: { uuid: vol.uuid, name: vol.name },
              type: post.type,
              qtree: post.qtree.name === "" ? { name: "" } : { id: qtreeId, name: post.qtree.name },
            });
            expect(got.space).toEqual(applied(post.space, true));
            expect(got.files).toEqual(applied(post.files, false));
            expect(got.users).toEqual(post.users);
            expect(got.group).toEqual(post.group);
            expect(got.user_mapping).toBe(
              post.type === "user" ? post.user_mapping === true || post.user_mapping === "on" : undefined,
            );
            if (echo) expect(created.record).toEqual(got);
            else expect(got).toMatchObject(created.record!);
            // Unless the rule is itself the volume-level default of its type, the server adds that default.
            const isDefault =
              post.type === "tree" ||
              isDeepStrictEqual(post.users, [{ name: "" }]) ||
              isDeepStrictEqual(post.group, { name: "" });
            const rules = await client.quotaRules.all({ "volume.uuid": vol.uuid!, fields: "*" });
            expect(rules).toHaveLength(isDefault && post.qtree.name === "" ? 1 : 2);
            const defaults = { tree: {}, user: { users: [{ name: "" }] }, group: { group: { name: "" } } }[post.type];
            expect(
              rules.some(
                (r) =>
                  r.type === post.type &&
                  r.qtree?.name === "" &&
                  isDeepStrictEqual(
                    { ...(r.users ? { users: r.users } : {}), ...(r.group ? { group: r.group } : {}) },
                    defaults,
                  ),
              ),
            ).toBe(true);

            // Sent raw: the server's 1024 floor, -1 and "on" handling give the same rule.
            await client.quotaRules.deleteMatching({ "volume.uuid": vol.uuid! });
            uuid = (await loop.raw.quotaRules.create(post)).record!.uuid!;
            expect(content(await client.quotaRules.get(uuid))).toEqual(content(got));

            const patch = post.type === "user" ? userPatch : otherPatch;
            const want = {
              space: applied(patch.space, true, got.space),
              files: applied(patch.files, false, got.files),
            };
            const clash = (["space", "files"] as const).find((k) => {
              const l = want[k];
              return (
                l?.["hard_limit"] !== undefined && l["soft_limit"] !== undefined && l["soft_limit"] > l["hard_limit"]
              );
            });
            if (clash !== undefined) {
              const err = await thrown(() => client.quotaRules.update(uuid, patch));
              expect(err).toBeInstanceOf(StorageApiError);
              expect((err as StorageApiError).target).toBe(`${clash}.soft_limit`);
              expect(content(await client.quotaRules.get(uuid))).toEqual(content(got));
            } else {
              await client.quotaRules.update(uuid, patch);
              const after = await client.quotaRules.get(uuid);
              expect(after.space).toEqual(want.space);
              expect(after.files).toEqual(want.files);
              if (patch.user_mapping !== undefined)
                expect(after.user_mapping).toBe(patch.user_mapping === true || patch.user_mapping === "on");
            }
          } finally {
            // Also removes the default rule the server added next to the first explicit one.
            await client.quotaRules.deleteMatching({ "volume.uuid": vol.uuid! });
          }
        },
      ),
      { numRuns: n },
    );
  });

  it("collections: random page sizes return every record once, in creation order; count agrees; a PATCH by query changes the matches", async () => {
    const { client } = loop;
    const path = client.cloneTokens.path;
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbCloneTokenPost(T), { maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        arbCloneTokenPatch(),
        async (posts, pageSize, patch) => {
          const made: { nodeUuid: string; uuid: string }[] = [];
          try {
            for (const p of posts)
              made.push({ nodeUuid: p.node.uuid, uuid: (await client.cloneTokens.create(p)).record!.uuid! });
            const sizes: number[] = [];
            for await (const page of client.pages(path, { max_records: pageSize }))
              sizes.push(page.records?.length ?? 0);
            const full = Math.floor(made.length / pageSize);
            const rest = made.length % pageSize;
            expect(sizes).toEqual(
              made.length === 0 ? [0] : [...Array<number>(full).fill(pageSize), ...(rest === 0 ? [] : [rest])],
            );
            expect((await client.cloneTokens.all({ max_records: pageSize })).map((t) => t.uuid)).toEqual(
              made.map((k) => k.uuid),
            );
            expect(await client.cloneTokens.count()).toBe(made.length);
            // A PATCH by query changes exactly the matching tokens.
            const node = INV.nodes![0]!.uuid!;
            const bulk = await client.cloneTokens.updateMatching({ node: { uuid: node } }, patch);
            expect(bulk.numRecords).toBe(made.filter((k) => k.nodeUuid === node).length);
            for (const [i, k] of made.entries()) {
              const limit = secondsOf((await client.cloneTokens.get(k)).expiry_time?.limit);
              const sent = posts[i]!.expiry_time?.limit;
              expect(limit).toBe(
                k.nodeUuid === node
                  ? lifetimeSeconds(patch.expiry_time.limit)
                  : sent === undefined
                    ? 60
                    : lifetimeSeconds(sent),
              );
            }
          } finally {
            for (const k of made) await client.cloneTokens.delete(k);
          }
        },
      ),
      { numRuns: n },
    );
  });

  it("software: a download adds its package (or fails with 2228327 when it exists); estimate-only PATCHes are accepted, actions refused when idle", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(arbSoftwareDownloadPost(), async (d) => {
        const version = /(\d+\.\d+\.\d+(?:P\d+)?)/.exec(new URL(d.url).pathname.split("/").pop()!)![1]!;
        const before = (await client.software.packages.all()).map((p) => p.version);
        if (before.includes(version)) {
          const err = await thrown(() => client.software.download(d));
          expect(err).toBeInstanceOf(StorageJobError);
          expect((err as StorageJobError).code).toBe(2228327);
          return;
        }
        const res = await client.software.download(d);
        expect(res.progress).toMatchObject({ state: "success", code: 0 });
        expect((await client.software.packages.get(version)).version).toBe(version);
        await client.software.packages.delete(version);
      }),
      { numRuns: n },
    );
    const nodes = (INV.nodes ?? []).map((x) => x.name);
    await fc.assert(
      fc.asyncProperty(
        arbSoftwarePatchQuery({ nodes }),
        arbSoftwarePatch({ versions: ["9.15.1", "9.16.1"] }),
        async (q, body) => {
          if (body.action !== undefined) {
            // Pause, resume and cancel act on a running or paused upgrade; none is running here.
            const err = await thrown(() => client.software.update(body));
            expect(err).toBeInstanceOf(StorageApiError);
            expect([(err as StorageApiError).status, (err as StorageApiError).target]).toEqual([409, "action"]);
            return;
          }
          const res = await client.software.update(body, {
            estimateOnly: true,
            ...(q.stabilize_minutes === undefined ? {} : { stabilizeMinutes: q.stabilize_minutes }),
            ...(q.nodes_to_update === undefined ? {} : { nodesToUpdate: q.nodes_to_update }),
            ...(q.skip_warnings === undefined ? {} : { skipWarnings: q.skip_warnings }),
            ...(q.return_timeout === undefined ? {} : { query: { return_timeout: q.return_timeout } }),
          });
          expect(res.job?.state).toBe("success");
          // Estimating changes nothing installed.
          expect((await client.software.get()).version).toBe("9.14.1");
        },
      ),
      { numRuns: n },
    );
  });
});
