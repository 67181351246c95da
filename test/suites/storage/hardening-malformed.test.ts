// The reference server against malformed requests: bad JSON, wrong content types and methods,
// bad query strings and paths, bad credentials, and raw malformed HTTP over a socket. Every
// one gets a 4xx with the API's error body (or Node's parser refuses the connection), never
// a 5xx; nothing reaches Object.prototype; the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../../../src/storage/server/index.js";
import { AUTH, exchange, expectApiError, head, prototypeNames } from "../../support/storage/hardening-harness.js";
import { type Harness, type JsonAnswer, PASSWORD, USER, basic, start } from "../../support/storage/server-harness.js";

let h: Harness;
let prototypeBefore: string[];

beforeAll(async () => {
  prototypeBefore = prototypeNames();
  h = await start();
});
afterAll(async () => {
  await h.close();
});

const JSON_TYPE = { "content-type": "application/json" };
const NS = "/api/storage/namespaces";

/** Every JSON-body endpoint, with a method the body goes to. */
const BODY_ENDPOINTS: readonly [string, string][] = [
  ["POST", "/api/storage/quota/rules"],
  ["POST", NS],
  ["PATCH", `${NS}?name=*`],
  ["POST", "/api/storage/file/clone/tokens"],
  ["POST", "/api/storage/cache/caches"],
  ["PATCH", "/api/cluster/software"],
  ["POST", "/api/cluster/software/download"],
];

async function expect4xx(
  method: string,
  path: string,
  raw: string | Uint8Array,
  label: string,
  headers: Record<string, string> = JSON_TYPE,
): Promise<{ status: number; body: JsonAnswer; text: string }> {
  const r = await h.call(method, path, undefined, { raw, headers });
  expect(r.status, `${label} → ${method} ${path}`).toBeGreaterThanOrEqual(400);
  expect(r.status, `${label} → ${method} ${path}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
  expect(r.body?.error?.code, label).toMatch(/^\d+$/);
  return r;
}

/**
 * Times `hostile` against `benign`, a request of the same size the server handles in linear
 * time, run just before on the same machine. The hostile one may cost at most 50 times as much
 * (plus 1 s): the quadratic or backtracking code these tests guard against costs thousands of
 * times more, and a loaded machine slows both alike.
 */
async function expectLinear(benign: () => Promise<unknown>, hostile: () => Promise<unknown>): Promise<void> {
  let started = Date.now();
  await benign();
  const baseline = Date.now() - started;
  started = Date.now();
  await hostile();
  expect(Date.now() - started).toBeLessThanOrEqual(1_000 + 50 * baseline);
}

async function stillServing(): Promise<void> {
  const r = await h.call("GET", "/api/cluster/nodes");
  expect(r.status).toBe(200);
  expect(r.body.num_records).toBe(2);
}

const nested = (depth: number, open: string, close: string, leaf = "1"): string =>
  open.repeat(depth) + leaf + close.repeat(depth);

describe("malformed JSON bodies", () => {
  const bad: [string, string | Uint8Array, string?][] = [
    ["truncated object", '{"svm": {"name": "svm1"'],
    ["truncated key", '{"a'],
    ["truncated escape", '{"a": "\\u12'],
    ["lone bracket", "["],
    ["empty object twice", "{}{}"],
    ["trailing comma", '{"a": 1,}'],
    ["single quotes", "{'a': 1}"],
    ["comment", '{"a": 1 /* x */}'],
    ["NaN", '{"space": {"size": NaN}}'],
    ["Infinity", '{"space": {"size": Infinity}}'],
    ["-Infinity", '{"files": {"hard_limit": -Infinity}}'],
    ["undefined", '{"comment": undefined}'],
    ["hex number", '{"reserve_size": 0x10}'],
    ["invalid UTF-8 byte", Uint8Array.from([...Buffer.from('{"comment":"'), 0xff, ...Buffer.from('"}')]), "262186"],
    ["overlong UTF-8", Uint8Array.from([...Buffer.from('{"comment":"'), 0xc0, 0xaf, ...Buffer.from('"}')]), "262186"],
    [
      "UTF-8 surrogate",
      Uint8Array.from([...Buffer.from('{"comment":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')]),
      "262186",
    ],
    ["truncated UTF-8", Uint8Array.from([...Buffer.from('{"comment":"'), 0xe2, 0x82]), "262186"],
    ["byte-order mark", Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from("{}")]), "262186"],
    ["UTF-16 body", Buffer.from('{"comment":"x"}', "utf16le"), "262186"],
    ["NUL bytes", "\u0000\u0000"],
    ["duplicate key", '{"comment": "a", "comment": "b"}', "262186"],
    ["duplicate nested key", '{"space": {"size": 4096, "size": 8192}}', "262186"],
    ["duplicate key spelled with an escape", '{"comment": "a", "\\u0063omment": "b"}', "262186"],
    ["duplicate __proto__", '{"__proto__": {}, "__proto__": {}}', "262186"],
    ["10,000 nested objects", nested(10_000, '{"a":', "}"), "262186"],
    ["10,000 nested arrays", nested(10_000, "[", "]"), "262186"],
    ["10,000 mixed levels", nested(5_000, '{"a":[', "]}"), "262186"],
    ["65 levels", nested(65, '{"a":', "}"), "262186"],
  ];
  it.each(bad)("%s → 4xx with the error body", async (label, raw, code) => {
    for (const [method, path] of BODY_ENDPOINTS) {
      const r = await expect4xx(method, path, raw, label);
      if (code !== undefined) expect(r.body.error.code, `${label} → ${path}`).toBe(code);
    }
    await stillServing();
  });

  it("64 levels still parse (the limit is not below what bodies need)", async () => {
    const r = await h.call("POST", "/api/storage/quota/rules", undefined, {
      raw: nested(63, '{"a":', "}", "{}"),
      headers: JSON_TYPE,
    });
    // Parsed, then refused as an unknown field: not the depth error.
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "262179", target: "a" });
  });

  it("huge numbers are refused by the field checks, never stored as Infinity or rounded", async () => {
    const numbers = [
      "1e400",
      "-1e400",
      "123456789012345678901234567890",
      "9007199254740993",
      `1${"0".repeat(100_000)}`,
      "0.1e99999",
    ];
    for (const n of numbers) {
      for (const raw of [
        `{"node": {"uuid": "00000000-0000-4000-8000-a00000000001"}, "reserve_size": ${n}}`,
        `{"svm": {"name": "svm1"}, "volume": {"name": "vol1"}, "type": "tree", "qtree": {"name": "q1"}, "files": {"hard_limit": ${n}}}`,
        `{"svm": {"name": "svm1"}, "name": "/vol/vol1/big", "os_type": "linux", "space": {"size": ${n}}}`,
      ]) {
        const path = raw.includes("reserve_size")
          ? "/api/storage/file/clone/tokens"
          : raw.includes("files")
            ? "/api/storage/quota/rules"
            : NS;
        const r = await expect4xx("POST", path, raw, n.slice(0, 20));
        expect(r.status).toBe(400);
      }
    }
    // Nothing was created by any of them.
    expect((await h.call("GET", "/api/storage/quota/rules")).body.num_records).toBe(0);
    expect((await h.call("GET", NS)).body.num_records).toBe(0);
    expect((await h.call("GET", "/api/storage/file/clone/tokens")).body.num_records).toBe(0);
  });

  it("__proto__, constructor and prototype keys at every level are refused and pollute nothing", async () => {
    const names = ["__proto__", "constructor", "prototype"];
    const bodies: string[] = [];
    for (const name of names) {
      // The key at the top, and under every level of a real field path.
      let inner = `{"${name}": {"polluted": 1, "toString": 1}}`;
      bodies.push(inner);
      for (const field of ["guarantee", "space", "svm", "origins", "location"]) {
        inner = `{"${field}": ${inner}, "${name}": {"polluted": 2}}`;
        bodies.push(inner);
      }
      bodies.push(`{"${name}.polluted": 1}`, `{"svm.${name}.polluted": 1}`, `{"space.${name}": {"polluted": 1}}`);
      bodies.push(`{"space": {"guarantee": {"${name}": {"${name}": {"polluted": 1}}}}}`);
      bodies.push(`{"origins": [{"svm": {"${name}": {"polluted": 1}}}]}`);
    }
    bodies.push('{"constructor": {"prototype": {"polluted": 1}}}', '{"__proto__": {"__proto__": {"polluted": 1}}}');
    for (const raw of bodies) {
      for (const [method, path] of BODY_ENDPOINTS) await expect4xx(method, path, raw, raw.slice(0, 60));
    }
    expect(prototypeNames()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    await stillServing();
  });

  it("a key of 12,000 dots is refused at once, with a short error body", async () => {
    // Sized so the quadratic expansion this replaced takes seconds: a regression fails here
    // instead of blocking the event loop (and the whole run) for minutes.
    const key = `${"a.".repeat(12_000)}a`;
    let r: { status: number; body: JsonAnswer; text: string } | undefined;
    await expectLinear(
      // The same length without dots: one unknown field.
      () => expect4xx("POST", "/api/storage/quota/rules", JSON.stringify({ ["a".repeat(key.length)]: 1 }), "long key"),
      async () => (r = await expect4xx("POST", "/api/storage/quota/rules", JSON.stringify({ [key]: 1 }), "dotted key")),
    );
    r = r!;
    expect(r.body.error.code).toBe("262179");
    expect(r.text.length).toBeLessThan(1_000);
    const long = await expect4xx(
      "POST",
      "/api/storage/quota/rules",
      JSON.stringify({ ["k".repeat(500_000)]: 1 }),
      "long key",
    );
    expect(long.text.length).toBeLessThan(1_000);
    expect(long.body.error.target.startsWith("kkkk")).toBe(true);
  });

  it("an error quoting a huge key cut at the limit never cuts the password into a prefix", async () => {
    // The password sits where clipping happens; it must be redacted before the cut.
    const key = `${"k".repeat(274)}${PASSWORD}`;
    const r = await expect4xx("POST", "/api/storage/quota/rules", JSON.stringify({ [key]: 1 }), "password key");
    expect(r.text).not.toContain(PASSWORD.slice(0, 6));
  });
});

describe("content types, methods, paths", () => {
  it("a JSON body under a non-JSON Content-Type is refused with 415 before anything runs", async () => {
    const body = JSON.stringify({
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "tree",
      qtree: { name: "q2" },
    });
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/xml",
      "application/jsonx",
      "text/json",
      "json",
      ";",
    ]) {
      const r = await expect4xx("POST", "/api/storage/quota/rules", body, type, { "content-type": type });
      expect(r.status, type).toBe(415);
      expect(r.body.error.code).toBe("262199");
    }
    expect((await h.call("GET", "/api/storage/quota/rules")).body.num_records).toBe(0);
    // JSON media types, with parameters, are fine; so is none at all (raw, as fetch always adds one).
    for (const type of ["application/json; charset=utf-8", "APPLICATION/JSON", "application/hal+json"]) {
      const r = await h.call("PATCH", "/api/storage/quota/rules?type=user", undefined, {
        raw: "{}",
        headers: { "content-type": type },
      });
      expect(r.status, type).toBe(200);
    }
    const none = await exchange(
      h.server.port,
      `${head("PATCH", "/api/storage/quota/rules?type=user", { "Content-Length": 2, Connection: "close" })}{}`,
    );
    expect(none.status).toBe(200);
    // The upload path keeps its own check: a JSON body there is refused by the upload.
    const up = await expect4xx("POST", "/api/cluster/software/upload", "{}", "upload json");
    expect(up.status).toBe(400);
  });

  it("methods the path does not have get 405 with Allow; methods Node does not know are refused", async () => {
    for (const method of ["PUT", "TRACE", "PROPFIND", "PURGE", "LINK"]) {
      const r = await exchange(h.server.port, head(method, "/api/cluster/nodes", { Connection: "close" }));
      expectApiError(r, 405, "262188");
      expect(r.text).toMatch(/\r\nAllow: GET, OPTIONS\r\n/);
    }
    const headReq = await exchange(h.server.port, head("HEAD", "/api/cluster/nodes", { Connection: "close" }));
    expect(headReq.status).toBe(405);
    for (const method of ["FOO", "get", "G\tET", "GET GET"]) {
      const r = await exchange(h.server.port, head(method, "/api/cluster/nodes"));
      expectApiError(r, 400, "262193");
      expect(r.closed).toBe(true);
    }
    const connect = await exchange(
      h.server.port,
      `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n\r\n`,
    );
    expectApiError(connect, 405, "262188");
    expect(connect.closed).toBe(true);
    await stillServing();
  });

  it("percent-encoding errors and odd request targets in paths get 4xx", async () => {
    for (const path of [
      "/api/storage/volumes/%E0%A4%A",
      "/api/storage/%ZZ",
      "/api/%",
      "/api/storage/volumes/%C0%AF",
      "/api/storage/volumes/%ED%A0%80",
      "/api/storage/volumes/%00",
      "/api/storage/volumes/a%2Fb",
      "//api//cluster//nodes",
      "/api/cluster/nodes/..%2F..%2F",
      "*",
    ]) {
      const r = await exchange(h.server.port, head("GET", path, { Connection: "close" }));
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expect(r.json?.error?.code, path).toMatch(/^\d+$/);
    }
    for (const target of ["http://[/api", "http://a:99999/api/cluster/nodes", "http://user@/api"]) {
      const r = await exchange(h.server.port, head("GET", target, { Connection: "close" }));
      expect(r.status, target).toBeGreaterThanOrEqual(400);
      expect(r.status, target).toBeLessThan(500);
    }
    const abs = await exchange(h.server.port, head("GET", "http://[/api", { Connection: "close" }));
    expectApiError(abs, 400, "262193");
    await stillServing();
  });
});

describe("query strings", () => {
  it("bad, duplicate and inherited parameters get 400 with a target", async () => {
    const cases: [string, string, string?][] = [
      ["fields=name&fields=uuid", "2", "fields"],
      ["return_timeout=1&return_timeout=2", "2", "return_timeout"],
      ["name=vol1&name=vol2", "2", "name"],
      ["max_records=abc", "2", "max_records"],
      ["max_records=0", "262197", "max_records"],
      ["max_records=99999999999999999999", "2", "max_records"],
      ["return_timeout=1e3", "2", "return_timeout"],
      ["return_records=yes", "2", "return_records"],
      ["order_by=%00", "2", "order_by"],
      ["fields=%ZZ", "262179", "fields"],
      ["=x", "262179"],
      ["a[b]=1", "262179"],
      ["__proto__=1", "262179", "__proto__"],
      ["constructor.prototype=1", "262179"],
      ["svm.__proto__.x=1", "262179"],
      ["toString=1", "262179"],
    ];
    for (const [query, code, target] of cases) {
      const r = await h.call("GET", `/api/storage/volumes?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error.code, query).toBe(code);
      if (target !== undefined) expect(r.body.error.target, query).toBe(target);
    }
    // Malformed escapes are kept literally by the query parser, so they are plain values.
    const literal = await h.call("GET", "/api/storage/volumes?name=%E0%A4%A&fields=name");
    expect(literal.status).toBe(200);
    expect(literal.body.num_records).toBe(0);
    expect(prototypeNames()).toEqual(prototypeBefore);
  });

  it("a query-based PATCH or DELETE needs a filter, and bad filters change nothing", async () => {
    const rule = await h.call("POST", "/api/storage/quota/rules", {
      svm: { name: "svm1" },
      volume: { name: "vol2" },
      type: "tree",
      qtree: { name: "" },
    });
    expect(rule.status).toBe(201);
    for (const q of [
      "",
      "?return_timeout=0",
      "?fields=*",
      "?type=tree&type=tree",
      "?colour=red",
      "?type=tree&return_timeout=999",
    ]) {
      const d = await h.call("DELETE", `/api/storage/quota/rules${q}`);
      expect(d.status, q).toBe(400);
    }
    expect((await h.call("GET", "/api/storage/quota/rules?volume.name=vol2")).body.num_records).toBe(1);
    expect((await h.call("DELETE", "/api/storage/quota/rules?volume.name=vol2")).body.num_records).toBe(1);
  });

  it("wildcard filters built to make a regular expression backtrack answer at once", async () => {
    // 11 stars against the zero-filled seed UUIDs cost the backtracking regular expression
    // this replaced about 3 s (each added star multiplies it); more would hang a regression
    // instead of failing it.
    for (const pattern of [`${"*0".repeat(11)}*X`, `${"*0".repeat(5)}*-${"*0".repeat(5)}*X`]) {
      let r: { status: number; body: JsonAnswer } | undefined;
      await expectLinear(
        // A filter of the same length without wildcards.
        () => h.call("GET", `/api/storage/volumes?uuid=${encodeURIComponent("0".repeat(pattern.length))}&fields=uuid`),
        async () => (r = await h.call("GET", `/api/storage/volumes?uuid=${encodeURIComponent(pattern)}&fields=uuid`)),
      );
      r = r!;
      expect(r.status).toBe(200);
      expect(r.body.num_records).toBe(0);
    }
    // Wildcards still mean what they meant.
    const v = await h.call("GET", "/api/storage/volumes?name=v*l*&fields=name&order_by=name");
    expect(v.body.records.map((r: { name: string }) => r.name)).toEqual(["vol1", "vol2", "vol3", "vol_offline"]);
    const exact = await h.call("GET", "/api/storage/volumes?name=*1&fields=name&order_by=name");
    expect(exact.body.records.map((r: { name: string }) => r.name)).toEqual(["fg1", "vol1"]);
  });

  it("thousands of `!` are counted, not recursed into", async () => {
    const count = async (value: string): Promise<number> => {
      const r = await h.call("GET", `/api/storage/volumes?name=${encodeURIComponent(value)}&return_records=false`);
      expect(r.status, value.slice(0, 10)).toBe(200);
      return r.body.num_records as number;
    };
    expect(await count(`${"!".repeat(12_000)}vol1`)).toBe(await count("vol1"));
    expect(await count(`${"!".repeat(12_001)}vol1`)).toBe(await count("!vol1"));
    expect(await count("!vol1")).toBe(4);
    expect(await count("!!null")).toBe(0);
    expect(await count("!null")).toBe(5);
  });

  it("a query string past the header limit gets 431; a long one under it is served", async () => {
    const long = await h.call("GET", `/api/storage/volumes?name=${"a|".repeat(3_000)}vol1&fields=name`);
    expect(long.status).toBe(200);
    expect(long.body.num_records).toBe(1);
    const huge = await exchange(h.server.port, head("GET", `/api/storage/volumes?name=${"a".repeat(20_000)}`));
    expectApiError(huge, 431, "262198");
    expect(huge.closed).toBe(true);
    const many = await h.call(
      "GET",
      `/api/storage/volumes?${Array.from({ length: 1_500 }, (_, i) => `p${i}=1`).join("&")}`,
    );
    expect(many.status).toBe(400);
    expect(many.body.error.code).toBe("262179");
    await stillServing();
  });
});

describe("Authorization", () => {
  it("every malformed or wrong credential gets 401 with the error body, before any body is read", async () => {
    const cases: (string | null)[] = [
      null,
      "",
      "Basic",
      "Basic ",
      "Basic !!!",
      "Basic ====",
      `Basic ${"=".repeat(10_000)}`,
      "Bearer abc",
      `Digest ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`,
      `Basic ${Buffer.from(USER).toString("base64")}`,
      `Basic ${Buffer.from(`${USER}:`).toString("base64")}`,
      `Basic ${Buffer.from(`:${PASSWORD}`).toString("base64")}`,
      basic(USER, `${PASSWORD}\u0000`),
      basic(USER, PASSWORD.toUpperCase()),
      basic(`${USER} `, PASSWORD),
      `${basic(USER, PASSWORD)} trailing`,
      `Basic  ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}x`,
    ];
    for (const auth of cases) {
      const r = await h.call("POST", "/api/storage/quota/rules", { svm: { name: "svm1" } }, { auth });
      expect(r.status, String(auth).slice(0, 40)).toBe(401);
      expect(r.body.error.code).toBe("6");
      expect(r.headers.get("www-authenticate")).toBe('Basic realm="clusterwire"');
      expect(r.text).not.toContain(PASSWORD);
    }
    // Raw: a duplicated header (Node keeps the first), and bytes outside ASCII.
    const dup = await exchange(
      h.server.port,
      `GET /api/cluster/nodes HTTP/1.1\r\nHost: x\r\nAuthorization: Basic Zm9vOmJhcg==\r\nAuthorization: ${AUTH}\r\nConnection: close\r\n\r\n`,
    );
    expectApiError(dup, 401, "6");
    const latin = await exchange(
      h.server.port,
      Buffer.concat([
        Buffer.from(
          "GET /api/cluster/nodes HTTP/1.1\r\nHost: x\r\nAuthorization: Basic \xe9\xff\r\nConnection: close\r\n\r\n",
          "latin1",
        ),
      ]),
    );
    expect(latin.status === 401 || latin.status === 400).toBe(true);
    // The scheme is case-insensitive.
    const lower = await h.call("GET", "/api/cluster/nodes", undefined, {
      auth: `basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`,
    });
    expect(lower.status).toBe(200);
  });

  it("an unauthenticated request with a huge declared body is refused at once, without reading it", async () => {
    const r = await exchange(
      h.server.port,
      (s, st) => {
        const text = `${head("POST", "/api/cluster/software/upload", { "Content-Length": 1024 ** 3, "Content-Type": "multipart/form-data; boundary=x" }, false)}--x`;
        st.written += text.length;
        s.write(text);
      },
      DEFAULT_REQUEST_TIMEOUT_MS / 2,
    );
    expectApiError(r, 401, "6");
    // Closed by the refusal, well before the request limit that waiting for the body would reach
    // (the exchange gives up at half of it).
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS / 2);
  });
});

describe("raw malformed HTTP", () => {
  const cases: [string, string | Buffer, number][] = [
    ["garbage request line", "\u0000\u0001garbage\r\n\r\n", 400],
    ["binary noise", Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256)), 400],
    ["no target", "GET\r\n\r\n", 400],
    ["bad version", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", 400],
    ["not HTTP", "GET / FOO/1.1\r\nHost: x\r\n\r\n", 400],
    ["header without colon", "GET /api HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400],
    ["space in header name", "GET /api HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n", 400],
    ["bare LF", "GET /api HTTP/1.1\nHost: x\n\n", 400],
    ["bare CR", "GET /api HTTP/1.1\rHost: x\r\r", 400],
    ["control character in header", "GET /api HTTP/1.1\r\nHost: x\r\nX: a\u0001b\r\n\r\n", 400],
    [
      "Content-Length and Transfer-Encoding",
      `${head("POST", "/api/storage/quota/rules", { "Content-Length": 3, "Transfer-Encoding": "chunked" })}0\r\n\r\n`,
      400,
    ],
    [
      "two Content-Lengths",
      `${head("POST", "/api/storage/quota/rules", { "Content-Length": 2 })}`.replace(
        "\r\n\r\n",
        "\r\nContent-Length: 3\r\n\r\n{}",
      ),
      400,
    ],
    ["Content-Length not a number", head("POST", "/api/storage/quota/rules", { "Content-Length": "abc" }), 400],
    ["negative Content-Length", head("POST", "/api/storage/quota/rules", { "Content-Length": -1 }), 400],
    ["bad chunk size", `${head("POST", "/api/storage/quota/rules", { "Transfer-Encoding": "chunked" })}zz\r\n`, 400],
    [
      "chunk size overflow",
      `${head("POST", "/api/storage/quota/rules", { "Transfer-Encoding": "chunked" })}ffffffffffffffffffff\r\n`,
      400,
    ],
    [
      "chunk without CRLF",
      `${head("POST", "/api/storage/quota/rules", { "Transfer-Encoding": "chunked" })}2\r\n{}X0\r\n\r\n`,
      400,
    ],
    [
      "unknown transfer coding",
      `${head("POST", "/api/storage/quota/rules", { "Transfer-Encoding": "gzip, chunked, zz" })}0\r\n\r\n`,
      400,
    ],
    [
      "huge chunk extension",
      `${head("POST", "/api/storage/quota/rules", { "Transfer-Encoding": "chunked" })}2;${"e".repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
      400,
    ],
    [
      "header block over 16 KiB",
      `GET /api/cluster/nodes HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
    ],
    [
      "many headers over 16 KiB",
      `GET /api/cluster/nodes HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 1_000 }, (_, i) => `X-Header-${i}: ${"v".repeat(8)}`).join("\r\n")}\r\n\r\n`,
      431,
    ],
    ["request line over 16 KiB", `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
  ];
  it.each(cases)("%s: refused with the error body, connection closed", async (_label, raw, status) => {
    const r = await exchange(h.server.port, raw);
    expect(r.closed).toBe(true);
    // Node may also refuse some of these by dropping the connection without an answer.
    if (r.status !== undefined) expectApiError(r, status);
    if (status === 431) expect(r.json.error.code).toBe("262198");
  });

  it("HTTP/1.1 without Host is refused by Node with 400", async () => {
    const r = await exchange(h.server.port, `GET /api/cluster/nodes HTTP/1.1\r\nAuthorization: ${AUTH}\r\n\r\n`);
    expect(r.status).toBe(400);
    expect(r.closed).toBe(true);
  });

  it("a hundred pipelined requests on one connection are all answered in order", async () => {
    const one = head("GET", "/api/cluster/nodes?fields=name");
    const r = await exchange(
      h.server.port,
      `${one.repeat(99)}${head("GET", "/api/cluster/nodes?fields=name", { Connection: "close" })}`,
    );
    expect(r.closed).toBe(true);
    expect(r.text.match(/HTTP\/1\.1 200 OK/g)?.length).toBe(100);
  });

  it("leaves Object.prototype as it was and keeps serving", async () => {
    expect(prototypeNames()).toEqual(prototypeBefore);
    expect(h.logs.some((l) => l.includes("internal error"))).toBe(false);
    expect(h.logs.join("\n")).not.toContain(PASSWORD);
    await stillServing();
  });
});
