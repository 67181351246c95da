// StorageClient core over real HTTP on loopback: auth, query encoding, error mapping, paging,
// timeouts, abort and redaction.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  StorageClient,
  StorageNetworkError,
  StorageProtocolError,
  encodeQuery,
  type StorageRequestEvent,
} from "../../../src/storage/index.js";
import { StorageApiError, StorageCodecError } from "../../../src/storage/codecs/errors.js";
import { apiError, clientFixture, startServer } from "../../support/storage/client-test-server.js";

const PASSWORD = "s3cr3t-pä$$:wörd";

const setup = clientFixture(PASSWORD);

describe("construction", () => {
  it("refuses plain http unless allowInsecureHttp", () => {
    expect(() => new StorageClient({ baseUrl: "http://127.0.0.1:1", username: "a", password: "b" })).toThrow(
      /refusing plain http/,
    );
    expect(
      () => new StorageClient({ baseUrl: "http://127.0.0.1:1", username: "a", password: "b", allowInsecureHttp: true }),
    ).not.toThrow();
    expect(() => new StorageClient({ baseUrl: "https://cluster.example", username: "a", password: "b" })).not.toThrow();
  });
  it("refuses credentials in the URL, other protocols, ':' in the username, Authorization headers, tls with fetch", () => {
    expect(() => new StorageClient({ baseUrl: "https://u:p@cluster.example", username: "a", password: "b" })).toThrow(
      /credentials/,
    );
    expect(() => new StorageClient({ baseUrl: "ftp://cluster.example", username: "a", password: "b" })).toThrow(
      /protocol/,
    );
    expect(() => new StorageClient({ baseUrl: "https://cluster.example?x=1", username: "a", password: "b" })).toThrow(
      /query/,
    );
    expect(() => new StorageClient({ baseUrl: "https://cluster.example", username: "a:b", password: "b" })).toThrow(
      /':'/,
    );
    expect(
      () =>
        new StorageClient({
          baseUrl: "https://cluster.example",
          username: "a",
          password: "b",
          headers: { Authorization: "x" },
        }),
    ).toThrow(/Authorization/);
    expect(
      () =>
        new StorageClient({
          baseUrl: "https://cluster.example",
          username: "a",
          password: "b",
          tls: { rejectUnauthorized: false },
          fetch: globalThis.fetch,
        }),
    ).toThrow(/tls/);
  });
  it("uses the spec's default paths and takes overrides", () => {
    const c = new StorageClient({
      baseUrl: "https://c.example/",
      username: "a",
      password: "b",
      paths: { softwareHistory: "/api/x/history" },
    });
    expect(c.baseUrl).toBe("https://c.example");
    expect(c.caches.path).toBe("/api/storage/cache/caches");
    expect(c.cloneTokens.path).toBe("/api/storage/file/clone/tokens");
    expect(c.nvmeNamespaces.path).toBe("/api/storage/namespaces");
    expect(c.quotaRules.path).toBe("/api/storage/quota/rules");
    expect(c.software.packages.path).toBe("/api/cluster/software/packages");
    expect(c.software.history.path).toBe("/api/x/history");
    expect(c.cloneTokens.instancePath({ nodeUuid: "n1", uuid: "t/1" })).toBe("/api/storage/file/clone/tokens/n1/t%2F1");
  });
});

describe("request", () => {
  it("sends HTTP Basic with UTF-8 credentials, a user agent, HAL accept and JSON bodies", async () => {
    const { client, srv } = await setup(() => ({ status: 201, json: { ok: true } }), {
      userAgent: "test-agent/1",
      headers: { "X-Dot-SVM-Name": "vs1" },
    });
    const out = await client.request("POST", "/api/things", { body: { name: "ä" } });
    expect(out).toEqual({ ok: true });
    const req = srv.requests[0]!;
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`admin:${PASSWORD}`, "utf8").toString("base64")}`);
    expect(Buffer.from(req.headers.authorization!.slice(6), "base64").toString("utf8")).toBe(`admin:${PASSWORD}`);
    expect(req.headers["user-agent"]).toBe("test-agent/1");
    expect(req.headers.accept).toContain("application/hal+json");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-dot-svm-name"]).toBe("vs1");
    expect(req.json).toEqual({ name: "ä" });
  });

  it("returns undefined for an empty success body", async () => {
    const { client } = await setup(() => ({ status: 200 }));
    expect(await client.request("PATCH", "/api/x", { body: {} })).toBeUndefined();
  });

  it("encodes fields (incl. **), dotted and nested filters, max_records, return_records, return_timeout, order_by", async () => {
    const { client, srv } = await setup(() => ({ json: { records: [], num_records: 0 } }));
    await client.request("GET", "/api/storage/namespaces", {
      query: {
        fields: ["name", "svm.name", "status.state"],
        "svm.name": "vs1|vs2",
        location: { volume: { name: "vol*" } },
        max_records: 5,
        return_records: true,
        return_timeout: 15,
        order_by: "name desc",
        "space.size": ">1G",
      },
    });
    await client.request("GET", "/api/storage/namespaces", { query: { fields: "**" } });
    const q = srv.requests[0]!.query;
    expect(q.get("fields")).toBe("name,svm.name,status.state");
    expect(q.get("svm.name")).toBe("vs1|vs2");
    expect(q.get("location.volume.name")).toBe("vol*");
    expect(q.get("max_records")).toBe("5");
    expect(q.get("return_records")).toBe("true");
    expect(q.get("return_timeout")).toBe("15");
    expect(q.get("order_by")).toBe("name desc");
    expect(q.get("space.size")).toBe(">1G");
    expect(srv.requests[1]!.url).toBe("/api/storage/namespaces?fields=**");
    expect(srv.requests[0]!.url).toContain("fields=name,svm.name,status.state");
  });

  it("refuses return_timeout outside 0..120 and bad max_records before sending", async () => {
    const { client, srv } = await setup(() => ({ json: {} }));
    await expect(client.request("GET", "/api/x", { query: { return_timeout: 121 } })).rejects.toBeInstanceOf(
      StorageCodecError,
    );
    await expect(client.request("GET", "/api/x", { query: { return_timeout: -1 } })).rejects.toThrow(/return_timeout/);
    await expect(client.request("GET", "/api/x", { query: { max_records: 0 } })).rejects.toThrow(/max_records/);
    expect(srv.requests).toHaveLength(0);
    expect(encodeQuery({ return_timeout: 0 })).toBe("return_timeout=0");
    expect(encodeQuery({ return_timeout: 120, a: undefined })).toBe("return_timeout=120");
  });

  it("a body with no JSON form rejects with StorageCodecError, from request and mutate alike, and sends nothing", async () => {
    const { client, srv } = await setup(() => ({ json: {} }));
    const cycle: Record<string, unknown> = { name: "c" };
    cycle["self"] = cycle;
    for (const body of [{ size: 10n }, cycle, () => 1]) {
      // mutate returns a rejected promise: a .catch() on the call sees the error.
      const mutation = client.mutate("POST", "/api/x", { body });
      await expect(mutation).rejects.toBeInstanceOf(StorageCodecError);
      await expect(client.request("POST", "/api/x", { body })).rejects.toThrow(/cannot be written as JSON/);
    }
    expect(srv.requests).toHaveLength(0);
  });
});

describe("errors", () => {
  it("maps the API error body to StorageApiError with status, code, message and target", async () => {
    const { client } = await setup(() => apiError(400, "262197", "Value out of range", "return_timeout"));
    const err = await client
      .request("GET", "/api/storage/quota/rules", { query: { "svm.name": "vs1" } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageApiError);
    const e = err as StorageApiError;
    expect(e.status).toBe(400);
    expect(e.code).toBe("262197");
    expect(e.apiMessage).toBe("Value out of range");
    expect(e.target).toBe("return_timeout");
    expect(e.request).toBe("GET /api/storage/quota/rules");
    expect(e.message).toContain("[262197]");
  });

  it("takes a numeric error code as a string and tolerates a missing target", async () => {
    const { client } = await setup(() => ({
      status: 404,
      json: { error: { message: "entry doesn't exist", code: 4 } },
    }));
    const e = (await client.request("GET", "/api/x/1").catch((x: unknown) => x)) as StorageApiError;
    expect([e.status, e.code, e.target]).toEqual([404, "4", undefined]);
  });

  it("maps a non-JSON error body to StorageApiError with an empty code and the status text", async () => {
    const { client } = await setup(() => ({
      status: 502,
      text: "<html>Bad gateway</html>",
      headers: { "content-type": "text/html" },
    }));
    const e = (await client.request("GET", "/api/x").catch((x: unknown) => x)) as StorageApiError;
    expect(e).toBeInstanceOf(StorageApiError);
    expect(e.status).toBe(502);
    expect(e.code).toBe("");
    expect(e.apiMessage).toContain("Bad Gateway");
    expect(e.apiMessage).toContain("<html>Bad gateway</html>");
  });

  it("maps a JSON error body without an error object, and 3xx answers (redirects are not followed)", async () => {
    const { client } = await setup((r) =>
      r.path === "/api/a"
        ? { status: 500, json: { oops: 1 } }
        : { status: 302, headers: { location: "https://elsewhere.example/" } },
    );
    const e1 = (await client.request("GET", "/api/a").catch((x: unknown) => x)) as StorageApiError;
    expect([e1.status, e1.code]).toEqual([500, ""]);
    const e2 = (await client.request("GET", "/api/b").catch((x: unknown) => x)) as StorageApiError;
    expect(e2).toBeInstanceOf(StorageApiError);
    expect(e2.status).toBe(302);
  });

  it("refuses a non-JSON success body with StorageProtocolError", async () => {
    const { client } = await setup(() => ({ status: 200, text: "hello" }));
    await expect(client.request("GET", "/api/x")).rejects.toBeInstanceOf(StorageProtocolError);
  });

  it("wraps network errors with the request and without credentials", async () => {
    const srv = await startServer(() => ({}));
    const url = srv.url;
    await srv.close();
    const client = new StorageClient({ baseUrl: url, username: "admin", password: PASSWORD, allowInsecureHttp: true });
    const e = (await client.request("GET", "/api/cluster/software").catch((x: unknown) => x)) as StorageNetworkError;
    expect(e).toBeInstanceOf(StorageNetworkError);
    expect(e.request).toBe("GET /api/cluster/software");
    expect(e.message).toMatch(/^GET \/api\/cluster\/software: network error/);
    expect(e.message).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(e)).not.toContain(PASSWORD);
    expect(inspect(e, { depth: 10 })).not.toContain(PASSWORD);
  });

  it("times out a request that gets no answer", async () => {
    const { client } = await setup(() => ({ delayMs: 500, json: {} }), { requestTimeoutMs: 50 });
    await expect(client.request("GET", "/api/slow")).rejects.toThrow(/GET \/api\/slow: no answer within 50 ms/);
  });

  it("never cuts a return_timeout wait short: the limit is at least return_timeout + 15 s", async () => {
    const { client } = await setup(() => ({ delayMs: 150, json: { ok: 1 } }), { requestTimeoutMs: 50 });
    expect(await client.request("GET", "/api/slow", { query: { return_timeout: 0 } })).toEqual({ ok: 1 });
    await expect(client.request("GET", "/api/slow")).rejects.toBeInstanceOf(StorageNetworkError);
  });

  it("rejects with the signal's reason when aborted", async () => {
    const ac = new AbortController();
    // The signal fires once the request has reached the server, which holds its answer back.
    const { client } = await setup(() => {
      ac.abort();
      return { delayMs: 500, json: {} };
    });
    const e = await client.request("GET", "/api/slow", { signal: ac.signal }).catch((x: unknown) => x);
    expect((e as Error).name).toBe("AbortError");
  });
});

describe("paging", () => {
  const rec = (i: number) => ({ uuid: `u${i}`, name: `n${i}` });

  it("follows _links.next as-is, without re-adding the original query, lazily", async () => {
    const { client, srv } = await setup((r) => {
      const start = Number(r.query.get("start") ?? "0");
      if (r.query.get("start") === null) {
        return {
          json: {
            records: [rec(0), rec(1)],
            num_records: 2,
            _links: {
              self: { href: r.url },
              next: { href: "/api/storage/cache/caches?start=2&max_records=2&fields=name&svm.name=vs1&x=opaque" },
            },
          },
        };
      }
      if (start === 2)
        return {
          json: {
            records: [rec(2), rec(3)],
            num_records: 2,
            _links: { next: { href: "/api/storage/cache/caches?start=4&max_records=2&fields=name&svm.name=vs1" } },
          },
        };
      return { json: { records: [rec(4)], num_records: 1, _links: { self: { href: r.url } } } };
    });
    const it = client.caches.list({ fields: "name", max_records: 2, "svm.name": "vs1" });
    const first = await it.next();
    expect(first.value).toEqual(rec(0));
    expect(srv.requests).toHaveLength(1);
    const rest: unknown[] = [first.value];
    for await (const r of it) rest.push(r);
    expect(rest).toEqual([0, 1, 2, 3, 4].map(rec));
    expect(srv.requests.map((r) => r.url)).toEqual([
      "/api/storage/cache/caches?fields=name&max_records=2&svm.name=vs1",
      "/api/storage/cache/caches?start=2&max_records=2&fields=name&svm.name=vs1&x=opaque",
      "/api/storage/cache/caches?start=4&max_records=2&fields=name&svm.name=vs1",
    ]);
  });

  it("throws a clear error when the server repeats a next link", async () => {
    const { client, srv } = await setup((r) =>
      r.query.get("page") === null
        ? { json: { records: [rec(0)], _links: { next: { href: "/api/storage/namespaces?page=2" } } } }
        : { json: { records: [rec(1)], _links: { next: { href: "/api/storage/namespaces?page=2" } } } },
    );
    const got: unknown[] = [];
    const err = await (async () => {
      for await (const r of client.nvmeNamespaces.list()) got.push(r);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageProtocolError);
    expect((err as Error).message).toMatch(/repeated the next link \/api\/storage\/namespaces\?page=2/);
    expect(got).toEqual([rec(0), rec(1)]);
    expect(srv.requests).toHaveLength(2);
  });

  it("also catches a next link pointing back at the first page", async () => {
    const { client } = await setup(() => ({
      json: { records: [], _links: { next: { href: "/api/storage/quota/rules?fields=uuid" } } },
    }));
    await expect(client.quotaRules.all({ fields: "uuid" })).rejects.toThrow(/repeated the next link/);
  });

  it("refuses a next link to another origin (credentials stay with the cluster)", async () => {
    const { client, srv } = await setup(() => ({
      json: { records: [rec(0)], _links: { next: { href: "http://evil.example/api/x?page=2" } } },
    }));
    await expect(client.caches.all()).rejects.toThrow(/another origin/);
    expect(srv.requests).toHaveLength(1);
  });

  it("accepts an absolute next link on the same origin, and ends on an empty page without next", async () => {
    const { client, srv } = await setup((r) =>
      r.query.get("p") === null
        ? { json: { records: [rec(0)], _links: { next: { href: `${srv.url}/api/storage/quota/rules?p=2` } } } }
        : { json: { records: [], num_records: 0 } },
    );
    expect(await client.quotaRules.all()).toEqual([rec(0)]);
    expect(srv.requests).toHaveLength(2);
  });

  it("count sends return_records=false and reads num_records; find wants exactly one", async () => {
    const { client, srv } = await setup((r) => {
      if (r.query.get("return_records") === "false") return { json: { num_records: 42 } };
      if (r.query.get("name") === "one") return { json: { records: [rec(1)], num_records: 1 } };
      if (r.query.get("name") === "none") return { json: { records: [], num_records: 0 } };
      return { json: { records: [rec(1), rec(2)], num_records: 2 } };
    });
    expect(await client.caches.count({ "svm.name": "vs1" })).toBe(42);
    expect(srv.requests[0]!.query.get("return_records")).toBe("false");
    expect(await client.caches.find({ name: "one" })).toEqual(rec(1));
    expect(srv.requests[1]!.query.get("fields")).toBe("*");
    expect(await client.caches.find({ name: "none" })).toBeUndefined();
    await expect(client.caches.find({ name: "many" })).rejects.toThrow(/more than one/);
  });

  it("refuses a collection answer without a records array", async () => {
    const { client } = await setup(() => ({ json: { records: "nope" } }));
    await expect(client.caches.all()).rejects.toThrow(/records array/);
  });

  it("keeps a baseUrl path prefix for relative next links", async () => {
    const { srv } = await setup((r) =>
      r.query.get("p") === null
        ? { json: { records: [rec(0)], _links: { next: { href: "/api/x?p=2" } } } }
        : { json: { records: [rec(1)] } },
    );
    const client = new StorageClient({
      baseUrl: `${srv.url}/proxy/`,
      username: "a",
      password: PASSWORD,
      allowInsecureHttp: true,
    });
    const got: unknown[] = [];
    for await (const r of client.list("/api/x")) got.push(r);
    expect(got).toEqual([rec(0), rec(1)]);
    expect(srv.requests.map((r) => r.url)).toEqual(["/proxy/api/x", "/proxy/api/x?p=2"]);
  });
});

describe("redaction", () => {
  it("never shows the password in JSON.stringify, util.inspect or String of the client", async () => {
    const client = new StorageClient({ baseUrl: "https://cluster.example", username: "admin", password: PASSWORD });
    const b64 = Buffer.from(`admin:${PASSWORD}`).toString("base64");
    for (const s of [
      JSON.stringify(client),
      inspect(client),
      inspect(client, { showHidden: true, depth: 20 }),
      String(client),
      `${client}`,
      JSON.stringify({ client }),
      JSON.stringify(client.caches),
      inspect(client.software, { depth: 20 }),
    ]) {
      expect(s).not.toContain(PASSWORD);
      expect(s).not.toContain(b64);
    }
    expect(JSON.parse(JSON.stringify(client))).toEqual({ baseUrl: "https://cluster.example", username: "admin" });
    expect(inspect(client)).toContain("admin");
  });

  it("scrubs the password and the Authorization value from errors even when the server echoes them", async () => {
    const { client } = await setup((r) =>
      apiError(401, "6", `bad credentials ${PASSWORD} in ${r.headers.authorization ?? ""}`, PASSWORD),
    );
    const e = (await client.request("GET", "/api/x").catch((x: unknown) => x)) as StorageApiError;
    expect(e).toBeInstanceOf(StorageApiError);
    expect(e.message).toContain("<redacted>");
    for (const s of [
      e.message,
      e.apiMessage,
      e.target ?? "",
      JSON.stringify(e),
      inspect(e, { depth: 10 }),
      String(e.stack),
    ]) {
      expect(s).not.toContain(PASSWORD);
      expect(s).not.toContain(Buffer.from(`admin:${PASSWORD}`).toString("base64"));
    }
  });

  it("scrubs the password from non-JSON error bodies", async () => {
    const { client } = await setup(() => ({ status: 500, text: `crash dump: password=${PASSWORD}` }));
    const e = (await client.request("GET", "/api/x").catch((x: unknown) => x)) as StorageApiError;
    expect(e.message).not.toContain(PASSWORD);
    expect(e.message).toContain("password=<redacted>");
  });

  it("logs method, path, status and duration only", async () => {
    const events: StorageRequestEvent[] = [];
    const { client } = await setup(() => ({ json: { records: [] } }), { logger: (e) => events.push(e) });
    await client.request("GET", "/api/x", { query: { "svm.name": "vs1" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method: "GET", path: "/api/x", status: 200 });
    expect(Object.keys(events[0]!).sort()).toEqual(["durationMs", "method", "path", "status"]);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });
});

describe("custom fetch", () => {
  it("is used when given, and a failing fetch that leaks headers into its error is not kept as cause", async () => {
    const seen: string[] = [];
    const leaky = new StorageClient({
      baseUrl: "https://cluster.example",
      username: "admin",
      password: PASSWORD,
      fetch: (url, init) => {
        seen.push(`${init.method} ${url}`);
        return Promise.reject(new Error(`boom with headers ${JSON.stringify(init.headers)} and ${PASSWORD}`));
      },
    });
    const e = (await leaky.request("GET", "/api/cluster/software").catch((x: unknown) => x)) as StorageNetworkError;
    expect(seen).toEqual(["GET https://cluster.example/api/cluster/software"]);
    expect(e).toBeInstanceOf(StorageNetworkError);
    expect(e.cause).toBeUndefined();
    expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(PASSWORD);
    expect(inspect(e, { depth: 10 })).not.toContain(Buffer.from(`admin:${PASSWORD}`).toString("base64"));
    const ok = new StorageClient({
      baseUrl: "https://cluster.example",
      username: "admin",
      password: PASSWORD,
      fetch: () => Promise.reject(new Error("plain failure")),
    });
    const e2 = (await ok.request("GET", "/api/x").catch((x: unknown) => x)) as StorageNetworkError;
    expect((e2.cause as Error).message).toBe("plain failure");
  });
});
