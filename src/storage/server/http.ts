// Request context, query-parameter handling and the collection / instance / job replies
// shared by every endpoint of the reference server.

import type { ServerClock } from "./clock.js";
import { HttpError, SERVER_ERROR_CODES, invalid, outOfRange, unexpected } from "./errors.js";
import type { JobStore } from "./jobs.js";
import { type JobHandle, jobRef } from "./jobs.js";
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
const COLLECTION_PARAMS = [
  "fields",
  "max_records",
  "return_records",
  "return_timeout",
  "order_by",
  "ignore_unknown_fields",
  "offset",
];

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
  const filters = q
    .rest()
    .filter(([k]) => !COLLECTION_PARAMS.includes(k))
    .map(([k, v]) => {
      if (!isKnownPath(policy, k)) throw unexpected(k);
      q.single(k); // consumed (and refused when given more than once)
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

/**
 * A change to one record, checked but not yet applied. Running it applies a synchronous
 * change (nothing returned) or starts the job that applies it (its handle returned).
 */
export type Change = () => JobHandle | undefined;

/**
 * A resource with the usual collection and instance routes of the REST conventions:
 *
 *   GET    {base}          list (fields, filters, order_by, max_records paging)
 *   POST   {base}          create
 *   PATCH  {base}?<query>  patch every record matching the query (at least one filter)
 *   DELETE {base}?<query>  delete every record matching the query (at least one filter)
 *   GET    {base}/{key}    one record (fields)
 *   PATCH  {base}/{key}    patch it
 *   DELETE {base}/{key}    delete it
 *
 * Synchronous changes answer 200 `{}` for an instance and 200 `{num_records}` for a query.
 * Changes that run as jobs (`jobs: true`) answer like {@link jobReply} for an instance and
 * with {@link bulkJobsReply} for a query. A query-based change is all or nothing up to the
 * point where it is applied: every matching record is checked first, and one refusal
 * refuses the request without changing anything.
 */
export interface CollectionSpec<T> {
  /** The collection path, e.g. `/api/storage/quota/rules`. */
  readonly base: string;
  /** Regular-expression source of the instance key after `{base}/`; its groups are the path parameters. */
  readonly key: string;
  readonly fields: FieldPolicy;
  /** Whether PATCH and DELETE run as jobs (bulk answers then always carry `jobs[]`). */
  readonly jobs?: boolean;
  /** Every visible record, in collection order. */
  records(): JsonObject[];
  /** The item addressed by the path parameters (404 when there is none). */
  find(ctx: Ctx): T;
  /** The item behind a record of `records()`. */
  itemOf(record: JsonObject): T | undefined;
  /** The record of one item (instance GET). */
  view(item: T): JsonObject;
  create(ctx: Ctx): Reply | Promise<Reply>;
  /** Checks a PATCH body on its own, before any record is looked at; returns the body to apply. */
  patchBody(ctx: Ctx): JsonObject;
  /** Checks a PATCH of one item (throwing refuses the request) and returns the change. */
  patch(item: T, body: JsonObject): Change;
  /** Checks a DELETE of one item and returns the change. */
  remove(item: T): Change;
}

/** Query-based PATCH/DELETE on a collection: requires at least one filter. Returns the matching records. */
function matchQuery(ctx: Ctx, records: readonly JsonObject[], policy: FieldPolicy): JsonObject[] {
  const filtersGiven = ctx.query.rest().some(([k]) => !COLLECTION_PARAMS.includes(k));
  if (!filtersGiven) {
    throw invalid("query", "A PATCH or DELETE on a collection needs at least one filter.");
  }
  const { matched } = selectRecords(ctx, records, policy);
  ctx.query.done();
  return matched;
}

/**
 * The answer to a query-based change that started one job per matching record:
 * `{num_records, jobs[]}`. With `return_timeout` 0 (the default) it is 202 at once (200 when
 * nothing matched). Otherwise the server waits up to that many seconds for the jobs and
 * answers 200 when all of them succeeded in time, 202 otherwise; a job that failed is left
 * for the caller to read at its link (a single failure does not hide the other jobs).
 */
export async function bulkJobsReply(ctx: Ctx, uuids: readonly string[], returnTimeout: number): Promise<Reply> {
  if (returnTimeout > 0 && uuids.length > 0) {
    const remaining = Math.max(...uuids.map((u) => ctx.jobs.remainingMs(u)));
    await ctx.clock.sleep(Math.min(remaining, returnTimeout * 1000));
    ctx.jobs.tick();
  }
  const allDone = uuids.every((u) => ctx.jobs.state(u) === "success");
  const status = uuids.length === 0 || (returnTimeout > 0 && allDone) ? 200 : 202;
  return { status, body: { num_records: uuids.length, jobs: uuids.map(jobRef) } };
}

/** The seven routes of a {@link CollectionSpec}. */
export function collectionRoutes<T>(spec: CollectionSpec<T>): Route[] {
  /** Applies changes already checked; the uuids of the jobs they started. */
  const apply = (changes: readonly Change[]): string[] => {
    const uuids: string[] = [];
    for (const change of changes) {
      const handle = change();
      if (handle !== undefined) uuids.push(handle.uuid);
    }
    return uuids;
  };
  // Query parameters are checked first, then the body, then the records (the order every
  // endpoint of the server follows).
  const instance = (ctx: Ctx, change: () => Change): Promise<Reply> | Reply => {
    const rt = ctx.query.returnTimeout(0);
    ctx.query.done();
    const [uuid] = apply([change()]);
    return uuid === undefined ? { status: 200, body: {} } : jobReply(ctx, uuid, 200, rt);
  };
  const byQuery = (ctx: Ctx, prepare: () => (item: T) => Change): Promise<Reply> | Reply => {
    const rt = ctx.query.returnTimeout(0);
    const change = prepare();
    const items = matchQuery(ctx, spec.records(), spec.fields)
      .map((r) => spec.itemOf(r))
      .filter((item): item is T => item !== undefined);
    const uuids = apply(items.map(change));
    return spec.jobs === true ? bulkJobsReply(ctx, uuids, rt) : { status: 200, body: { num_records: items.length } };
  };
  return [
    {
      pattern: new RegExp(`^${spec.base}$`),
      methods: {
        GET: (ctx) => listReply(ctx, spec.records(), spec.fields),
        POST: (ctx) => spec.create(ctx),
        PATCH: (ctx) =>
          byQuery(ctx, () => {
            const body = spec.patchBody(ctx);
            return (item) => spec.patch(item, body);
          }),
        DELETE: (ctx) => byQuery(ctx, () => (item) => spec.remove(item)),
      },
    },
    {
      pattern: new RegExp(`^${spec.base}/${spec.key}$`),
      methods: {
        GET: (ctx) => instanceReply(ctx, spec.view(spec.find(ctx)), spec.fields),
        PATCH: (ctx) =>
          instance(ctx, () => {
            // The body on its own first (patchBody's contract), then the record it applies to.
            const body = spec.patchBody(ctx);
            return spec.patch(spec.find(ctx), body);
          }),
        DELETE: (ctx) => instance(ctx, () => spec.remove(spec.find(ctx))),
      },
    },
  ];
}
