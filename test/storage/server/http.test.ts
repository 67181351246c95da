// The reference server's request handling shared by every endpoint (src/storage/server/http.ts),
// called in-process with a request context on a manual clock: query parameters (each consumed or
// refused), collection GETs (filters, fields, order_by, max_records paging with next links,
// return_records=false), instance GETs, the answers of operations that run as jobs, with and
// without return_timeout, and the seven routes of a collection, all or nothing by query.
import { describe, expect, it } from "vitest";
import { createManualClock, type ManualClock } from "../../../src/storage/server/clock.js";
import { HttpError, invalid, notFound } from "../../../src/storage/server/errors.js";
import {
  type CollectionSpec,
  type Ctx,
  Query,
  type Reply,
  type Route,
  UUID_RE,
  bodyOf,
  bulkJobsReply,
  collectionRoutes,
  instanceReply,
  jobReply,
  listReply,
  param,
  refOf,
  selfLink,
} from "../../../src/storage/server/http.js";
import { JobStore } from "../../../src/storage/server/jobs.js";
import type { FieldPolicy, Json, JsonObject } from "../../../src/storage/server/json.js";

interface Env {
  readonly clock: ManualClock;
  readonly jobs: JobStore;
}

const env = (jobDurationMs = 1_000): Env => {
  const clock = createManualClock();
  return { clock, jobs: new JobStore(clock, jobDurationMs) };
};

function ctx(
  e: Env,
  query = "",
  options: { method?: string; path?: string; body?: Json; params?: string[] } = {},
): Ctx {
  return {
    method: options.method ?? "GET",
    path: options.path ?? "/api/test/widgets",
    query: new Query(new URLSearchParams(query)),
    body: options.body,
    rawBody: Buffer.alloc(0),
    contentType: "application/json",
    clock: e.clock,
    jobs: e.jobs,
    params: options.params ?? [],
  };
}

async function refusal(fn: () => unknown): Promise<HttpError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  throw new Error("expected an HttpError");
}
const fields = (e: HttpError) => [e.status, e.code, e.target];

// biome-ignore lint/suspicious/noExplicitAny: reply bodies are walked freely and checked by expect()
const body = (r: Reply): any => r.body;

const POLICY: FieldPolicy = {
  known: ["uuid", "name", "size", "svm.name", "stats.iops"],
  expensive: ["stats"],
  collectionDefault: [],
  instanceIncludesExpensive: false,
  keys: ["uuid", "name"],
};
const RECORDS: JsonObject[] = ["w1", "w2", "w3", "w4", "w5"].map((name, i) => ({
  uuid: `u${i + 1}`,
  name,
  size: (5 - i) * 10,
  svm: { name: i % 2 === 0 ? "svm1" : "svm2" },
  stats: { iops: i },
  _links: { self: { href: `/api/test/widgets/u${i + 1}` } },
}));

describe("Query", () => {
  it("single reads one value, and refuses a parameter given twice", async () => {
    const q = new Query(new URLSearchParams("name=a&fields=x&fields=y"));
    expect([q.single("name"), q.single("missing")]).toEqual(["a", undefined]);
    const e = await refusal(() => q.single("fields"));
    expect([...fields(e), e.message]).toEqual([
      400,
      "2",
      "fields",
      'Query parameter "fields" is given more than once.',
    ]);
  });

  it("bool takes exactly true or false", async () => {
    const q = new Query(new URLSearchParams("a=true&b=false&c=TRUE&d=1&e="));
    expect([q.bool("a"), q.bool("b"), q.bool("z")]).toEqual([true, false, undefined]);
    for (const name of ["c", "d", "e"]) expect(fields(await refusal(() => q.bool(name)))).toEqual([400, "2", name]);
  });

  it("int takes a plain integer within the range: a malformed one is invalid, one outside out of range", async () => {
    const q = new Query(new URLSearchParams("a=-5&b=42&c=1e3&d=1.0&e=0x10&f=1234567890123456&g=0&h=1000001"));
    expect([q.int("a", -10, 10), q.int("b", 1, 100), q.int("z", 0, 1)]).toEqual([-5, 42, undefined]);
    for (const name of ["c", "d", "e", "f"]) {
      const e = await refusal(() => q.int(name, 0, 10));
      expect([...fields(e), e.message]).toEqual([400, "2", name, `Query parameter "${name}" must be an integer.`]);
    }
    const low = await refusal(() => q.int("g", 1, 1_000_000));
    expect([...fields(low), low.message]).toEqual([
      400,
      "262197",
      "g",
      'Query parameter "g" must be in the range <1..1000000>.',
    ]);
    expect((await refusal(() => q.int("h", 1, 1_000_000))).code).toBe("262197");
  });

  it("returnTimeout is 0..120 seconds, with the caller's default when absent", async () => {
    expect(new Query(new URLSearchParams("")).returnTimeout(15)).toBe(15);
    expect(new Query(new URLSearchParams("return_timeout=120")).returnTimeout(0)).toBe(120);
    expect(new Query(new URLSearchParams("return_timeout=0")).returnTimeout(15)).toBe(0);
    for (const v of ["121", "600", "-1"]) {
      expect(
        fields(await refusal(() => new Query(new URLSearchParams(`return_timeout=${v}`)).returnTimeout(0))),
      ).toEqual([400, "262197", "return_timeout"]);
    }
  });

  it("every parameter nobody read is refused as unexpected, the first one named", async () => {
    const q = new Query(new URLSearchParams("name=a&colour=red&size=1"));
    q.single("name");
    expect(q.rest()).toEqual([
      ["colour", "red"],
      ["size", "1"],
    ]);
    const e = await refusal(() => q.done());
    expect([...fields(e), e.message]).toEqual([400, "262179", "colour", 'Unexpected argument "colour".']);
    const read = new Query(new URLSearchParams("a=1"));
    read.single("a");
    expect(() => read.done()).not.toThrow();
    expect((await refusal(() => new Query(new URLSearchParams("=x")).done())).target).toBe("");
  });
});

describe("listReply", () => {
  const e = env();
  const list = (query: string) => listReply(ctx(e, query), RECORDS, POLICY);

  it("lists every record with the keys and links only, a count, and a self link", () => {
    const r = list("");
    expect(r.status).toBe(200);
    expect(body(r)).toEqual({
      records: RECORDS.map((x) => ({ uuid: x["uuid"], name: x["name"], _links: x["_links"] })),
      num_records: 5,
      _links: { self: { href: "/api/test/widgets" } },
    });
  });

  it("filters on dotted fields, with the filter's field in each record, and orders", () => {
    const r = list("svm.name=svm1&order_by=size&fields=size");
    expect(body(r).records).toEqual([
      { uuid: "u5", name: "w5", size: 10, svm: { name: "svm1" }, _links: RECORDS[4]?.["_links"] },
      { uuid: "u3", name: "w3", size: 30, svm: { name: "svm1" }, _links: RECORDS[2]?.["_links"] },
      { uuid: "u1", name: "w1", size: 50, svm: { name: "svm1" }, _links: RECORDS[0]?.["_links"] },
    ]);
    expect(body(r)._links.self.href).toBe("/api/test/widgets?svm.name=svm1&order_by=size&fields=size");
  });

  it("refuses an unknown filter, a repeated one, and a bad control parameter", async () => {
    expect(fields(await refusal(() => list("colour=red")))).toEqual([400, "262179", "colour"]);
    expect(fields(await refusal(() => list("name=w1&name=w2")))).toEqual([400, "2", "name"]);
    expect(fields(await refusal(() => list("return_timeout=121")))).toEqual([400, "262197", "return_timeout"]);
    expect(fields(await refusal(() => list("max_records=0")))).toEqual([400, "262197", "max_records"]);
    expect(fields(await refusal(() => list("return_records=yes")))).toEqual([400, "2", "return_records"]);
    expect(fields(await refusal(() => list("fields=colour")))).toEqual([400, "262179", "fields"]);
  });

  it("pages with max_records: each next link carries the whole query and the next offset", () => {
    const first = body(list("max_records=2&name=w*"));
    expect(first.records.map((r: JsonObject) => r["name"])).toEqual(["w1", "w2"]);
    expect(first.num_records).toBe(2);
    expect(first._links.next.href).toBe("/api/test/widgets?max_records=2&name=w*&offset=2");
    const names: unknown[] = [...first.records.map((r: JsonObject) => r["name"])];
    let next: string | undefined = first._links.next.href;
    while (next !== undefined) {
      const page = body(list(new URL(next, "http://x").search.slice(1)));
      names.push(...page.records.map((r: JsonObject) => r["name"]));
      next = page._links.next?.href;
    }
    expect(names).toEqual(["w1", "w2", "w3", "w4", "w5"]);
    expect(body(list("offset=9")).records).toEqual([]);
  });

  it("with return_records=false answers the count only", () => {
    expect(body(list("svm.name=svm2&return_records=false"))).toEqual({
      num_records: 2,
      _links: { self: { href: "/api/test/widgets?svm.name=svm2&return_records=false" } },
    });
  });
});

describe("instanceReply", () => {
  it("answers the record without its expensive fields, or the fields asked for", () => {
    const e = env();
    const record = RECORDS[0] as JsonObject;
    expect(body(instanceReply(ctx(e), record, POLICY))).not.toHaveProperty("stats");
    expect(body(instanceReply(ctx(e, "fields=stats.iops"), record, POLICY))).toEqual({
      uuid: "u1",
      name: "w1",
      stats: { iops: 0 },
      _links: record["_links"],
    });
    expect(body(instanceReply(ctx(e, "fields=colour&ignore_unknown_fields=true"), record, POLICY))).toMatchObject({
      uuid: "u1",
    });
  });

  it("refuses filters and any other parameter", async () => {
    const e = env();
    expect(fields(await refusal(() => instanceReply(ctx(e, "name=w1"), RECORDS[0] as JsonObject, POLICY)))).toEqual([
      400,
      "262179",
      "name",
    ]);
  });
});

describe("jobReply", () => {
  it("with return_timeout 0 answers 202 and the job at once, without waiting", async () => {
    const e = env(1_000);
    const { uuid } = e.jobs.create("x", () => {});
    const before = e.clock.now();
    const r = await jobReply(ctx(e), uuid, 201, 0, { num_records: 1 });
    expect(r).toEqual({
      status: 202,
      body: { num_records: 1, job: { uuid, _links: { self: { href: `/api/cluster/jobs/${uuid}` } } } },
      headers: { Location: `/api/cluster/jobs/${uuid}` },
    });
    expect(e.clock.now()).toBe(before);
  });

  it("waits as long as the job needs within return_timeout, then answers the done status", async () => {
    const e = env(1_500);
    const { uuid } = e.jobs.create("x", () => {});
    const before = e.clock.now();
    const r = await jobReply(ctx(e), uuid, 201, 5);
    expect(r.status).toBe(201);
    expect(e.clock.now() - before).toBe(1_500);
    expect(e.jobs.state(uuid)).toBe("success");
  });

  it("a job longer than return_timeout is still a 202, after waiting return_timeout", async () => {
    const e = env(10_000);
    const { uuid } = e.jobs.create("x", () => {});
    const before = e.clock.now();
    expect((await jobReply(ctx(e), uuid, 200, 2)).status).toBe(202);
    expect(e.clock.now() - before).toBe(2_000);
  });

  it("a job that fails within return_timeout is answered with its error as a 400", async () => {
    const e = env(100);
    const { uuid } = e.jobs.create("x", () => {
      throw invalid("origins", "The origin volume is offline.");
    });
    const err = await refusal(() => jobReply(ctx(e), uuid, 201, 1));
    expect([err.status, err.code, err.message, err.target]).toEqual([
      400,
      "2",
      "The origin volume is offline.",
      undefined,
    ]);
  });
});

describe("bulkJobsReply", () => {
  it("nothing matched: 200 without jobs", async () => {
    expect(await bulkJobsReply(ctx(env()), [], 30)).toEqual({ status: 200, body: { num_records: 0, jobs: [] } });
  });

  it("202 with every job at once, or 200 when all ended well within return_timeout", async () => {
    const e = env(1_000);
    const a = e.jobs.create("a", () => {}).uuid;
    const b = e.jobs.create("b", () => {}, { durationMs: 3_000 }).uuid;
    const now = await bulkJobsReply(ctx(e), [a, b], 0);
    expect(now.status).toBe(202);
    expect(body(now)).toEqual({
      num_records: 2,
      jobs: [a, b].map((uuid) => ({ uuid, _links: { self: { href: `/api/cluster/jobs/${uuid}` } } })),
    });
    const before = e.clock.now();
    expect((await bulkJobsReply(ctx(e), [a, b], 10)).status).toBe(200);
    expect(e.clock.now() - before).toBe(3_000);
  });

  it("a failed job leaves the answer a 202 with every job listed", async () => {
    const e = env(100);
    const ok = e.jobs.create("ok", () => {}).uuid;
    const bad = e.jobs.create("bad", () => {
      throw invalid("x", "no");
    }).uuid;
    const r = await bulkJobsReply(ctx(e), [ok, bad], 5);
    expect(r.status).toBe(202);
    expect(body(r).jobs.map((j: JsonObject) => j["uuid"])).toEqual([ok, bad]);
  });
});

describe("collectionRoutes", () => {
  interface Widget {
    uuid: string;
    name: string;
    size: number;
  }

  function widgets(e: Env, jobs: boolean) {
    const items: Widget[] = [
      { uuid: "u1", name: "alpha", size: 1 },
      { uuid: "u2", name: "beta", size: 2 },
      { uuid: "u3", name: "gamma", size: 3 },
    ];
    const view = (w: Widget): JsonObject => ({ ...w, _links: selfLink(`/api/test/widgets/${w.uuid}`) });
    const run = (apply: () => void) => {
      if (jobs) return e.jobs.create("change", apply);
      apply();
      return undefined;
    };
    const spec: CollectionSpec<Widget> = {
      base: "/api/test/widgets",
      key: UUID_RE,
      fields: {
        known: ["uuid", "name", "size"],
        expensive: [],
        collectionDefault: "all",
        instanceIncludesExpensive: true,
        keys: ["uuid"],
      },
      jobs,
      records: () => items.map(view),
      find: (c) => {
        const found = items.find((w) => w.uuid === param(c, 0));
        if (found === undefined) throw notFound("No such widget.", "uuid");
        return found;
      },
      itemOf: (r) => items.find((w) => w.uuid === r["uuid"]),
      view,
      create: () => ({ status: 201, body: {} }),
      patchBody: (c) => {
        const b = bodyOf(c);
        if (typeof b !== "object" || b === null || Array.isArray(b) || typeof b["size"] !== "number")
          throw invalid("size", "size is required");
        return b;
      },
      patch: (w, b) => {
        const size = b["size"] as number;
        // Checked per record: a size below the current one is refused.
        if (size < w.size) throw invalid("size", `Widget ${w.name} cannot shrink.`);
        return () =>
          run(() => {
            w.size = size;
          });
      },
      remove: (w) => () =>
        run(() => {
          items.splice(items.indexOf(w), 1);
        }),
    };
    const routes = collectionRoutes(spec);
    const call = async (method: "GET" | "POST" | "PATCH" | "DELETE", target: string, b?: Json): Promise<Reply> => {
      const url = new URL(target, "http://x");
      let params: string[] = [];
      const route = routes.find((r: Route) => {
        const m = r.pattern.exec(url.pathname);
        if (m !== null) params = m.slice(1);
        return m !== null;
      });
      const handler = route?.methods[method];
      if (handler === undefined) throw new Error(`no route for ${method} ${target}`);
      return handler(
        ctx(e, url.search.slice(1), { method, path: url.pathname, ...(b === undefined ? {} : { body: b }), params }),
      );
    };
    return { items, routes, call };
  }

  it("are the collection and instance routes, anchored at both ends", () => {
    const { routes } = widgets(env(), false);
    expect(routes.map((r) => Object.keys(r.methods).sort())).toEqual([
      ["DELETE", "GET", "PATCH", "POST"],
      ["DELETE", "GET", "PATCH"],
    ]);
    const [collection, instance] = routes as [Route, Route];
    expect(collection.pattern.test("/api/test/widgets")).toBe(true);
    expect(collection.pattern.test("/api/test/widgetsX")).toBe(false);
    expect(collection.pattern.test("/v2/api/test/widgets")).toBe(false);
    expect(instance.pattern.exec("/api/test/widgets/u-1")?.slice(1)).toEqual(["u-1"]);
    expect(instance.pattern.test("/api/test/widgets/u1/extra")).toBe(false);
    expect(instance.pattern.test("/api/test/widgets/")).toBe(false);
  });

  it("GET lists and reads one; an unknown key is the spec's 404", async () => {
    const { call } = widgets(env(), false);
    expect(body(await call("GET", "/api/test/widgets?size=>1")).num_records).toBe(2);
    expect(body(await call("GET", "/api/test/widgets/u2"))).toMatchObject({ name: "beta" });
    expect(fields(await refusal(() => call("GET", "/api/test/widgets/nope")))).toEqual([404, "4", "uuid"]);
  });

  it("a synchronous PATCH or DELETE of one record answers 200 with an empty body", async () => {
    const { items, call } = widgets(env(), false);
    expect(await call("PATCH", "/api/test/widgets/u1", { size: 9 })).toEqual({ status: 200, body: {} });
    expect(items[0]?.size).toBe(9);
    expect(await call("DELETE", "/api/test/widgets/u2")).toEqual({ status: 200, body: {} });
    expect(items.map((w) => w.uuid)).toEqual(["u1", "u3"]);
  });

  it("checks the query first, then the body, then the record", async () => {
    const { items, call } = widgets(env(), false);
    expect((await refusal(() => call("PATCH", "/api/test/widgets/nope?return_timeout=500", "x"))).code).toBe("262197");
    expect((await refusal(() => call("PATCH", "/api/test/widgets/nope?colour=red", "x"))).code).toBe("262179");
    expect((await refusal(() => call("PATCH", "/api/test/widgets/nope", "x"))).target).toBe("size");
    expect(fields(await refusal(() => call("PATCH", "/api/test/widgets/nope", { size: 9 })))).toEqual([
      404,
      "4",
      "uuid",
    ]);
    expect(items.map((w) => w.size)).toEqual([1, 2, 3]);
  });

  it("a PATCH or DELETE by query needs a filter", async () => {
    const { items, call } = widgets(env(), false);
    for (const q of ["", "?return_timeout=0", "?fields=name&max_records=1"]) {
      const e = await refusal(() => call("DELETE", `/api/test/widgets${q}`));
      expect([...fields(e), e.message], q).toEqual([
        400,
        "2",
        "query",
        "A PATCH or DELETE on a collection needs at least one filter.",
      ]);
    }
    expect(items).toHaveLength(3);
  });

  it("a synchronous change by query applies to every match and counts them, all or nothing", async () => {
    const { items, call } = widgets(env(), false);
    expect(await call("PATCH", "/api/test/widgets?name=*a", { size: 5 })).toEqual({
      status: 200,
      body: { num_records: 3 },
    });
    expect(items.map((w) => w.size)).toEqual([5, 5, 5]);
    // One record refuses (it would shrink): none is changed.
    items[1]!.size = 50;
    const e = await refusal(() => call("PATCH", "/api/test/widgets?size=>0", { size: 10 }));
    expect(e.message).toBe("Widget beta cannot shrink.");
    expect(items.map((w) => w.size)).toEqual([5, 50, 5]);
    expect(await call("DELETE", "/api/test/widgets?name=nothing")).toEqual({ status: 200, body: { num_records: 0 } });
    expect(body(await call("DELETE", "/api/test/widgets?name=alpha|gamma")).num_records).toBe(2);
    expect(items.map((w) => w.name)).toEqual(["beta"]);
  });

  it("changes that run as jobs answer with the job, or jobs[] by query, and apply when the jobs end", async () => {
    const e = env(1_000);
    const { items, call } = widgets(e, true);
    const one = await call("PATCH", "/api/test/widgets/u1", { size: 7 });
    expect(one.status).toBe(202);
    expect(items[0]?.size).toBe(1);
    const bulk = await call("DELETE", "/api/test/widgets?name=beta|gamma&return_timeout=10");
    // The bulk waited for its jobs (and the first job ended meanwhile).
    expect([bulk.status, body(bulk).num_records, body(bulk).jobs.length]).toEqual([200, 2, 2]);
    expect(items.map((w) => [w.name, w.size])).toEqual([["alpha", 7]]);
    const waited = await call("PATCH", "/api/test/widgets/u1?return_timeout=5", { size: 8 });
    expect(waited.status).toBe(200);
    expect(items[0]?.size).toBe(8);
  });
});

describe("small helpers", () => {
  it("selfLink, refOf, param and bodyOf", () => {
    expect(selfLink("/api/x")).toEqual({ self: { href: "/api/x" } });
    expect(refOf({ uuid: "u", name: "n", extra: 1 } as { uuid: string; name: string }, "/api/x/u")).toEqual({
      uuid: "u",
      name: "n",
      _links: { self: { href: "/api/x/u" } },
    });
    const e = env();
    expect([param(ctx(e, "", { params: ["a"] }), 0), param(ctx(e), 3)]).toEqual(["a", ""]);
    expect(bodyOf(ctx(e))).toEqual({});
    expect(bodyOf(ctx(e, "", { body: [1] }))).toEqual([1]);
    expect(new RegExp(`^${UUID_RE}$`).test("00000000-0000-4000-8000-a00000000001")).toBe(true);
    expect(new RegExp(`^${UUID_RE}$`).test("a/b")).toBe(false);
  });
});
