// Request context, query-parameter handling and the collection / instance / job replies
// shared by every endpoint of the reference server.

import type { ServerClock } from "./clock.js";
import { HttpError, SERVER_ERROR_CODES, invalid, outOfRange, unexpected } from "./errors.js";
import type { JobStore } from "./jobs.js";
import { jobRef } from "./jobs.js";
import {
  type FieldPolicy,
  type Json,
  type JsonObject,
  isKnownPath,
  matchesFilter,
  parseFields,
  parseFilter,
  parseOrderBy,
  project,
  sortRecords,
} from "./json.js";

export interface Reply {
  readonly status: number;
  readonly body?: Json;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Query parameters; every parameter must be consumed or is refused as unexpected. */
export class Query {
  private readonly used = new Set<string>();
  constructor(readonly params: URLSearchParams) {}

  single(name: string): string | undefined {
    this.used.add(name);
    const all = this.params.getAll(name);
    if (all.length > 1) throw invalid(name, `Query parameter "${name}" is given more than once.`);
    return all[0];
  }

  bool(name: string): boolean | undefined {
    const v = this.single(name);
    if (v === undefined) return undefined;
    if (v === "true") return true;
    if (v === "false") return false;
    throw invalid(name, `Query parameter "${name}" must be true or false.`);
  }

  int(name: string, min: number, max: number): number | undefined {
    const v = this.single(name);
    if (v === undefined) return undefined;
    if (!/^-?[0-9]{1,15}$/.test(v)) throw invalid(name, `Query parameter "${name}" must be an integer.`);
    const n = Number(v);
    if (n < min || n > max) throw outOfRange(name, `Query parameter "${name}" must be in the range <${min}..${max}>.`);
    return n;
  }

  /** `return_timeout`: 0..120 seconds (upstream refuses others with 262197). */
  returnTimeout(fallback: number): number {
    return this.int("return_timeout", 0, 120) ?? fallback;
  }

  /** Parameters nobody consumed. */
  rest(): [string, string][] {
    return [...this.params.entries()].filter(([k]) => !this.used.has(k));
  }

  /** Refuses every parameter nobody consumed. */
  done(): void {
    const [first] = this.rest();
    if (first !== undefined) throw unexpected(first[0]);
  }
}

export interface Ctx {
  readonly method: string;
  /** The decoded path without query. */
  readonly path: string;
  readonly query: Query;
  /** Parsed JSON body; undefined when the request had no body. */
  readonly body: Json | undefined;
  readonly rawBody: Buffer;
  readonly contentType: string;
  readonly clock: ServerClock;
  readonly jobs: JobStore;
  /** Path parameters captured by the route. */
  readonly params: readonly string[];
}

export const param = (ctx: Ctx, i: number): string => ctx.params[i] ?? "";

/** The JSON body of a POST/PATCH (`{}` when the request had none). */
export const bodyOf = (ctx: Ctx): Json => ctx.body ?? {};

const selfHref = (path: string, params: URLSearchParams): string => {
  const q = params.toString();
  return q === "" ? path : `${path}?${q}`;
};

/** Parameters a collection GET understands besides filters. */
const COLLECTION_PARAMS = ["fields", "max_records", "return_records", "return_timeout", "order_by", "ignore_unknown_fields", "offset"];

/**
 * Reads the collection query: filters (every unconsumed parameter), fields, order_by.
 * Returns the matching records, sorted, and the projection inputs.
 */
export function selectRecords(
  ctx: Ctx,
  records: readonly JsonObject[],
  policy: FieldPolicy,
): { matched: JsonObject[]; fields: readonly string[] | undefined; filterPaths: string[] } {
  const q = ctx.query;
  const ignoreUnknown = q.bool("ignore_unknown_fields") ?? false;
  const fields = parseFields(q.single("fields"), policy, ignoreUnknown);
  const orderRaw = q.single("order_by");
  const order = orderRaw === undefined ? [] : parseOrderBy(orderRaw, policy);
  q.returnTimeout(15);
  const filters = q.rest().filter(([k]) => !COLLECTION_PARAMS.includes(k)).map(([k, v]) => {
    if (!isKnownPath(policy, k)) throw unexpected(k);
    if (q.params.getAll(k).length > 1) throw invalid(k, `Query parameter "${k}" is given more than once.`);
    return parseFilter(k, v);
  });
  const matched = sortRecords(
    records.filter((r) => filters.every((f) => matchesFilter(r, f))),
    order,
  );
  return { matched, fields, filterPaths: filters.map((f) => f.path) };
}

/** A collection GET: filters, fields, order_by, max_records paging with next links. */
export function listReply(ctx: Ctx, records: readonly JsonObject[], policy: FieldPolicy): Reply {
  const q = ctx.query;
  const { matched, fields, filterPaths } = selectRecords(ctx, records, policy);
  const maxRecords = q.int("max_records", 1, 1_000_000);
  const offset = q.int("offset", 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const returnRecords = q.bool("return_records") ?? true;
  const self = selfHref(ctx.path, q.params);
  if (!returnRecords) {
    return { status: 200, body: { num_records: matched.length, _links: { self: { href: self } } } };
  }
  const end = maxRecords === undefined ? matched.length : Math.min(matched.length, offset + maxRecords);
  const page = matched.slice(offset, end).map((r) => project(r, policy, fields, "collection", filterPaths));
  const links: JsonObject = { self: { href: self } };
  if (end < matched.length) {
    const next = new URLSearchParams(q.params);
    next.set("offset", String(end));
    links["next"] = { href: selfHref(ctx.path, next) };
  }
  return { status: 200, body: { records: page, num_records: page.length, _links: links } };
}

/** An instance GET with `fields`. */
export function instanceReply(ctx: Ctx, record: JsonObject, policy: FieldPolicy): Reply {
  const q = ctx.query;
  const ignoreUnknown = q.bool("ignore_unknown_fields") ?? false;
  const fields = parseFields(q.single("fields"), policy, ignoreUnknown);
  q.returnTimeout(15);
  q.done();
  return { status: 200, body: project(record, policy, fields, "instance") };
}

/**
 * The answer to an operation that started a job. With `return_timeout` 0 (the default)
 * it is 202 and `{job}` at once. Otherwise the server waits up to that many seconds:
 * a job that succeeds in time gives `doneStatus` (201/200) and `{job}`; one that fails in
 * time gives the job's error as a 400 error body; one still running gives 202.
 */
export async function jobReply(
  ctx: Ctx,
  uuid: string,
  doneStatus: number,
  returnTimeout: number,
  extra: JsonObject = {},
): Promise<Reply> {
  const remaining = ctx.jobs.remainingMs(uuid);
  if (returnTimeout > 0) {
    await ctx.clock.sleep(Math.min(remaining, returnTimeout * 1000));
    ctx.jobs.tick();
  }
  const state = ctx.jobs.state(uuid);
  const headers = { Location: `/api/cluster/jobs/${uuid}` };
  if (returnTimeout > 0 && state === "failure") {
    const e = ctx.jobs.error(uuid) ?? { code: SERVER_ERROR_CODES.INTERNAL, message: "Job failed." };
    throw new HttpError(400, e.code, e.message);
  }
  const status = returnTimeout > 0 && state === "success" ? doneStatus : 202;
  return { status, body: { ...extra, job: jobRef(uuid) }, headers };
}

export const selfLink = (href: string): JsonObject => ({ self: { href } });
export const refOf = (r: { uuid: string; name: string }, href: string): JsonObject => ({
  uuid: r.uuid,
  name: r.name,
  _links: selfLink(href),
});

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;
export type Method = "GET" | "POST" | "PATCH" | "DELETE";
export interface Route {
  /** Anchored pattern over the decoded path; groups are the path parameters. */
  readonly pattern: RegExp;
  readonly methods: Partial<Record<Method, Handler>>;
}

/** A resource module: its routes and what it does when time moves. */
export interface Resource {
  routes(): readonly Route[];
  tick?(): void;
}

export const UUID_RE = "([0-9A-Za-z-]+)";

/** Query-based PATCH/DELETE on a collection: requires at least one filter. */
export function bulk(
  ctx: Ctx,
  records: readonly JsonObject[],
  policy: FieldPolicy,
  each: (record: JsonObject) => void,
): Reply {
  const filtersGiven = ctx.query.rest().some(([k]) => !COLLECTION_PARAMS.includes(k));
  if (!filtersGiven) {
    throw invalid("query", "A PATCH or DELETE on a collection needs at least one filter.");
  }
  const { matched } = selectRecords(ctx, records, policy);
  ctx.query.done();
  for (const r of matched) each(r);
  return { status: 200, body: { num_records: matched.length } };
}
