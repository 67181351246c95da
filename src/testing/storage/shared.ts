// Small pieces the storage arbitraries share: record builders, references, links, enum values a
// newer server may send, the inventory's volumes, timestamps and the API paths. Not public:
// index.ts does not re-export them.

import fc from "fast-check";
import type { Lenient, Links, ReferenceInput } from "../../storage/index.js";
import type { InventoryInput } from "../../storage/server/index.js";
import type { StorageModelOptions } from "./options.js";

export const KiB = 1024;
export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;
export const TiB = 1024 ** 4;
export const DAY = 86_400;

export type Model = { [key: string]: unknown };
export type Known = { readonly name: string; readonly uuid?: string | undefined };
export type RefForm = "name" | "uuid" | "both";
export const REF_FORMS: readonly RefForm[] = ["name", "uuid", "both"];

// Records always get Object.prototype: users compare values with deep equality.
export function all<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> {
  return fc.record(model, { noNullPrototype: true }) as unknown as fc.Arbitrary<T>;
}
export function some<T, K extends keyof T = never>(
  model: { [P in keyof T]: fc.Arbitrary<T[P]> },
  required: readonly K[] = [],
): fc.Arbitrary<Partial<T> & Pick<T, K>> {
  return fc.record(model, { requiredKeys: [...required], noNullPrototype: true }) as unknown as fc.Arbitrary<
    Partial<T> & Pick<T, K>
  >;
}
export const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
export const isEmpty = (o: object): boolean => Object.keys(o).length === 0;

/** A reference to a known object in one of the three forms (`{name}` first, so it shrinks there). */
export function refTo(o: Known, form: RefForm): ReferenceInput {
  if (o.uuid === undefined || form === "name") return { name: o.name };
  return form === "uuid" ? { uuid: o.uuid } : { name: o.name, uuid: o.uuid };
}

export const selfLink = (href: string): Links => ({ self: { href } });

/** Drops every `_links` member: an `application/json` answer carries none (only `application/hal+json` has links). */
export function withoutLinks<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => withoutLinks(v)) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Model = {};
  for (const [k, v] of Object.entries(value)) if (k !== "_links") out[k] = withoutLinks(v);
  return out as T;
}

/** HAL (`_links` kept) or plain JSON; plain shrinks first, being smaller. */
export const halOrPlain = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.tuple(arb, fc.boolean()).map(([v, hal]) => (hal ? v : withoutLinks(v)));

export const FUTURE_VALUES = ["degraded", "resyncing", "partially_online"] as const;

export function enumOf<T extends string>(values: readonly T[], o: StorageModelOptions = {}): fc.Arbitrary<Lenient<T>> {
  const known = fc.constantFrom(...values);
  if (o.newerServer !== true) return known;
  return fc.oneof({ arbitrary: known, weight: 4 }, { arbitrary: fc.constantFrom<string>(...FUTURE_VALUES), weight: 1 });
}

export const FUTURE_MEMBERS = ["snaplock", "anti_ransomware", "tiering"] as const;

/** With `newerServer`, sometimes one member no codec knows (kept as given on decode). */
export function withNewer<T extends object>(arb: fc.Arbitrary<T>, o: StorageModelOptions): fc.Arbitrary<T> {
  if (o.newerServer !== true) return arb;
  return fc
    .tuple(arb, maybe(fc.tuple(fc.constantFrom(...FUTURE_MEMBERS), fc.constantFrom("enabled", "disabled"))))
    .map(([m, extra]) => (extra === undefined ? m : { ...m, [extra[0]]: { state: extra[1] } }));
}

export function need<T>(list: readonly T[] | undefined, what: string, fn: string): readonly [T, ...T[]] {
  if (list === undefined || list.length === 0) throw new Error(`${fn}: the targets hold no ${what}`);
  return list as readonly [T, ...T[]];
}

export interface TargetVolume extends Known {
  readonly svm: Known;
  readonly qtrees: readonly string[];
  readonly path: string | undefined;
  readonly online: boolean;
  readonly origin: boolean;
}

export function targetVolumes(t: InventoryInput): TargetVolume[] {
  return (t.volumes ?? []).map((v) => ({
    name: v.name,
    uuid: v.uuid,
    svm: { name: v.svm, uuid: (t.svms ?? []).find((s) => s.name === v.svm)?.uuid },
    qtrees: v.qtrees ?? [],
    path: v.path,
    online: (v.state ?? "online") === "online",
    // A cache origin must be a standalone volume; an offline one makes the create job fail.
    origin: (v.style ?? "flexvol") === "flexvol" && (v.state ?? "online") === "online",
  }));
}

export const OFFSETS_MIN = [0, 60, 120, -300, -480, 330, 540] as const;
export const EPOCH_MIN = Date.UTC(2018, 0, 1) / 1000;
export const EPOCH_MAX = Date.UTC(2030, 11, 31) / 1000;

/** `epochSeconds` written at a UTC offset in minutes, without fractions (upstream drops them). */
export function isoAt(epochSeconds: number, offsetMin: number): string {
  const local = new Date((epochSeconds + offsetMin * 60) * 1000).toISOString().slice(0, 19);
  if (offsetMin === 0) return `${local}Z`;
  const a = Math.abs(offsetMin);
  const hh = String(Math.floor(a / 60)).padStart(2, "0");
  const mm = String(a % 60).padStart(2, "0");
  return `${local}${offsetMin < 0 ? "-" : "+"}${hh}:${mm}`;
}

export const instant = fc.tuple(fc.integer({ min: EPOCH_MIN, max: EPOCH_MAX }), fc.constantFrom(...OFFSETS_MIN));

/** A start and an end time (end ≥ start, same offset). */
export const interval = fc
  .tuple(instant, fc.nat({ max: 3 * DAY }))
  .map(([[s, off], d]) => ({ start: isoAt(s, off), end: isoAt(s + d, off) }));

export const nodeName = fc
  .tuple(fc.constantFrom("cluster1", "prod", "lab"), fc.integer({ min: 1, max: 8 }))
  .map(([c, n]) => `${c}-${String(n).padStart(2, "0")}`);

export const TOKENS = "/api/storage/file/clone/tokens";
export const CACHES = "/api/storage/cache/caches";
export const NAMESPACES = "/api/storage/namespaces";
export const QUOTA_RULES = "/api/storage/quota/rules";
export const SVMS = "/api/svm/svms";
export const VOLUMES = "/api/storage/volumes";
export const NODES = "/api/cluster/nodes";
export const JOBS = "/api/cluster/jobs";
