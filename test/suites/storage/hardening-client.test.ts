// StorageClient against misbehaving servers, over both transports (the global fetch, and the
// node:https transport used with `tls` options): a server that never answers, answers half a
// body, sends invalid JSON or a non-JSON type, resets, or sends an enormous body. The client
// raises its typed errors, honours its timeout and AbortSignal, stops reading at
// maxResponseBytes, and never puts the password in an error.
import type * as net from "node:net";
import { inspect } from "node:util";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  StorageClient,
  StorageNetworkError,
  StorageProtocolError,
  type FetchLike,
} from "../../../src/storage/index.js";
import { StorageApiError } from "../../../src/storage/codecs/errors.js";
import { onRequestHead, rawServer, waitUntil, type RawServer } from "../../support/storage/hardening-harness.js";
import { certProblem, makeCert } from "../../support/storage/cert.js";
import { eachNeeds } from "../../support/tools.js";

const PASSWORD = "Hardening-Pa55word!";
const BASIC = Buffer.from(`admin:${PASSWORD}`).toString("base64");
const TIMEOUT_MS = 300;
// No assertion here depends on the machine's speed: a timeout is never reached early (timers
// do not fire early), which mechanism ended a call is read from its error, a close that must
// come from the configured timeout comes before the default one (DEFAULT_REQUEST_TIMEOUT_MS),
// and aborts fire on events (bytes seen, fetch called), not after fixed delays.
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const MAX_RESPONSE = 64 * 1024;
const pem = makeCert();

const servers: RawServer[] = [];
const clients: StorageClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
});
afterAll(() => pem?.dispose());

/** No secret in the error, its message, cause or any property. */
function expectClean(err: unknown): void {
  const text = `${String(err)}\n${inspect(err, { depth: 10, showHidden: true })}`;
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(BASIC);
}

/** Runs `call` (timed from before it starts: the first fetch loads undici synchronously). */
async function failure(call: () => Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const started = Date.now();
  try {
    await call();
  } catch (err) {
    expectClean(err);
    return { err, ms: Date.now() - started };
  }
  throw new Error("expected a rejection");
}

/** Writes `chunk` as fast as the peer reads, until it hangs up or `max` bytes went out. */
function pump(s: net.Socket, chunk: Buffer, max: number, sent: { bytes: number }): void {
  const go = (): void => {
    while (!s.destroyed && s.writable && sent.bytes < max) {
      sent.bytes += chunk.length;
      if (!s.write(chunk)) {
        s.once("drain", go);
        return;
      }
    }
  };
  go();
}

const transports = [
  ["global fetch", false],
  ["node:https transport", true],
] as const;

describe.each(transports)("over the %s", (_name, overTls) => {
  // Over TLS every test needs openssl's certificate: skipped without it, failed under CI.
  if (overTls) eachNeeds("openssl", () => (pem === undefined ? certProblem() : undefined));

  /** A raw server answering every request with `answer`, and a client for it. */
  async function setup(
    answer: (s: net.Socket, head: string) => void,
    options: { maxResponseBytes?: number; requestTimeoutMs?: number } = {},
  ): Promise<{ client: StorageClient; server: RawServer }> {
    const server = await rawServer((s) => onRequestHead(s, (h) => answer(s, h)), overTls ? pem : undefined);
    servers.push(server);
    const client = new StorageClient({
      baseUrl: `${overTls ? "https" : "http"}://127.0.0.1:${server.port}`,
      username: "admin",
      password: PASSWORD,
      allowInsecureHttp: !overTls,
      // Only the tests of the timeout itself set a short one: elsewhere a loaded machine must
      // not turn a slow answer into a timeout.
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      maxResponseBytes: options.maxResponseBytes ?? MAX_RESPONSE,
      ...(overTls && pem !== undefined ? { tls: { ca: pem.cert } } : {}),
    });
    clients.push(client);
    return { client, server };
  }

  const answer = (status: string, headers: Record<string, string | number>, body: string): string =>
    `HTTP/1.1 ${status}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n${body}`;

  it("a server that accepts but never answers: StorageNetworkError at the timeout", async () => {
    const { client } = await setup(() => {}, { requestTimeoutMs: TIMEOUT_MS });
    const { err, ms } = await failure(() => client.request("GET", "/api/cluster/software"));
    expect(err).toBeInstanceOf(StorageNetworkError);
    expect((err as Error).message).toBe(`GET /api/cluster/software: no answer within ${TIMEOUT_MS} ms`);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS);
  });

  it("half a body, then silence: StorageNetworkError at the timeout", async () => {
    const { client } = await setup(
      (s) => s.write(answer("200 OK", { "Content-Type": "application/json", "Content-Length": 100 }, '{"records":[')),
      { requestTimeoutMs: TIMEOUT_MS },
    );
    const { err, ms } = await failure(() => client.request("GET", "/api/x"));
    expect(err).toBeInstanceOf(StorageNetworkError);
    expect((err as Error).message).toContain(`no answer within ${TIMEOUT_MS} ms`);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS);
  });

  it("half a body, then the connection closes: StorageNetworkError at once", async () => {
    const { client } = await setup((s) =>
      s.end(answer("200 OK", { "Content-Type": "application/json", "Content-Length": 100 }, '{"records":[')),
    );
    // A limit far beyond the test: only the close can end the call.
    const { err } = await failure(() => client.request("GET", "/api/x", { timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS }));
    expect(err).toBeInstanceOf(StorageNetworkError);
    expect((err as Error).message).toMatch(/^GET \/api\/x: network error/);
    expect((err as Error).message).not.toContain("no answer within");
  });

  it("a reset connection: StorageNetworkError", async () => {
    const { client, server } = await setup((s) => server.reset(s));
    const { err } = await failure(() => client.request("GET", "/api/x"));
    expect(err).toBeInstanceOf(StorageNetworkError);
  });

  it("invalid JSON: StorageProtocolError for a success, StorageApiError for an error status", async () => {
    const ok = await setup((s) =>
      s.end(
        answer("200 OK", { "Content-Type": "application/json", "Content-Length": 5, Connection: "close" }, '{"a":'),
      ),
    );
    expect((await failure(() => ok.client.request("GET", "/api/x"))).err).toBeInstanceOf(StorageProtocolError);
    const bad = await setup((s) =>
      s.end(
        answer(
          "500 Internal Server Error",
          { "Content-Type": "application/json", "Content-Length": 5, Connection: "close" },
          "{nope",
        ),
      ),
    );
    const { err } = await failure(() => bad.client.request("GET", "/api/x"));
    expect(err).toBeInstanceOf(StorageApiError);
    expect([(err as StorageApiError).status, (err as StorageApiError).code]).toEqual([500, ""]);
  });

  it("a 200 with a non-JSON Content-Type is refused even when the body parses as JSON", async () => {
    for (const [type, body] of [
      ["text/html", "[1]"],
      ["text/plain; charset=utf-8", '{"records":[]}'],
      ["application/octet-stream", "{}"],
      ["application/jsonx", "{}"],
    ] as const) {
      const { client } = await setup((s) =>
        s.end(answer("200 OK", { "Content-Type": type, "Content-Length": body.length, Connection: "close" }, body)),
      );
      const { err } = await failure(() => client.request("GET", "/api/x"));
      expect(err, type).toBeInstanceOf(StorageProtocolError);
      expect((err as Error).message).toContain("not JSON");
    }
    // hal+json with parameters, and no Content-Type at all, are accepted.
    for (const headers of [{ "Content-Type": "application/hal+json; charset=utf-8" }, {}]) {
      const { client } = await setup((s) =>
        s.end(answer("200 OK", { ...headers, "Content-Length": 9, Connection: "close" }, '{"a": 1 }')),
      );
      expect(await client.request("GET", "/api/x")).toEqual({ a: 1 });
    }
  });

  it("an enormous declared body: StorageProtocolError at once, and the transfer is cancelled", async () => {
    const sent = { bytes: 0 };
    let closed = false;
    const { client } = await setup((s) => {
      s.write(answer("200 OK", { "Content-Type": "application/json", "Content-Length": 1024 ** 3 }, ""));
      s.once("close", () => (closed = true));
      pump(s, Buffer.alloc(64 * 1024, 0x20), 1024 ** 3, sent);
    });
    // A limit far beyond the test: the transfer can only end by the client cancelling it.
    const { err } = await failure(() => client.request("GET", "/api/x", { timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS }));
    expect(err).toBeInstanceOf(StorageProtocolError);
    expect((err as Error).message).toContain(`larger than ${MAX_RESPONSE} bytes (maxResponseBytes)`);
    await waitUntil(() => closed);
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("an endless chunked body: StorageProtocolError past maxResponseBytes, transfer cancelled", async () => {
    const sent = { bytes: 0 };
    let closed = false;
    const chunk = Buffer.from(`4000\r\n${" ".repeat(0x4000)}\r\n`);
    const { client } = await setup((s) => {
      s.write(answer("200 OK", { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }, ""));
      s.once("close", () => (closed = true));
      pump(s, chunk, 1024 ** 3, sent);
    });
    const { err } = await failure(() => client.request("GET", "/api/x", { timeoutMs: 5_000 }));
    expect(err).toBeInstanceOf(StorageProtocolError);
    await waitUntil(() => closed);
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("an enormous error body is capped too", async () => {
    const { client } = await setup((s) => {
      s.write(
        answer("500 Internal Server Error", { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }, ""),
      );
      pump(s, Buffer.from(`4000\r\n${"e".repeat(0x4000)}\r\n`), 1024 ** 3, { bytes: 0 });
    });
    expect((await failure(() => client.request("GET", "/api/x", { timeoutMs: 5_000 }))).err).toBeInstanceOf(
      StorageProtocolError,
    );
  });

  it("an answer of exactly maxResponseBytes is read", async () => {
    const body = JSON.stringify({ pad: "p".repeat(MAX_RESPONSE - 10) });
    expect(body.length).toBe(MAX_RESPONSE);
    const { client } = await setup((s) =>
      s.end(
        answer(
          "200 OK",
          { "Content-Type": "application/json", "Transfer-Encoding": "chunked", Connection: "close" },
          `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
        ),
      ),
    );
    expect(((await client.request("GET", "/api/x")) as { pad: string }).pad).toHaveLength(MAX_RESPONSE - 10);
  });

  it("an AbortSignal stops a body that trickles in", async () => {
    const ac = new AbortController();
    const reason = new Error("caller gave up");
    const { client } = await setup((s) => {
      s.write(answer("200 OK", { "Content-Type": "application/json", "Content-Length": 1000 }, "{"));
      let trickled = 0;
      const timer = setInterval(() => {
        if (s.destroyed) return clearInterval(timer);
        s.write(" ");
        // The caller gives up once the body is trickling in.
        if (++trickled === 3) ac.abort(reason);
      }, 10);
      s.once("close", () => clearInterval(timer));
    });
    // A limit far beyond the test: only the signal can end the call.
    const { err } = await failure(() =>
      client.request("GET", "/api/x", { signal: ac.signal, timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS }),
    );
    expect(err).toBe(reason);
  });

  it("an error body echoing the credentials is scrubbed", async () => {
    const { client } = await setup((s, h) => {
      const auth = /authorization: (.*)/i.exec(h)?.[1] ?? "";
      const body = JSON.stringify({ error: { message: `bad ${auth} ${PASSWORD}`, code: "6", target: PASSWORD } });
      s.end(
        answer(
          "401 Unauthorized",
          { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Connection: "close" },
          body,
        ),
      );
    });
    const { err } = await failure(() => client.request("GET", "/api/x"));
    expect(err).toBeInstanceOf(StorageApiError);
    expect((err as StorageApiError).apiMessage).toContain("<redacted>");
  });

  it("next links and content types carrying the password are scrubbed from protocol errors", async () => {
    // A foreign origin (its host would be lowercased by URL parsing), a link the server
    // repeats, and a link that does not parse.
    for (const href of [`https://${PASSWORD}.example/api/x`, `/api/x?${PASSWORD}`, `http://[${PASSWORD}`]) {
      const body = JSON.stringify({ records: [], _links: { next: { href } } });
      const { client } = await setup((s) =>
        s.end(
          answer(
            "200 OK",
            { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Connection: "close" },
            body,
          ),
        ),
      );
      const { err } = await failure(async () => {
        for await (const page of client.pages("/api/x")) expect(page.records).toEqual([]);
      });
      expect(err, href).toBeInstanceOf(StorageProtocolError);
      expect((err as Error).message, href).toContain("<redacted>");
    }
    const { client } = await setup((s) =>
      s.end(answer("200 OK", { "Content-Type": `text/${PASSWORD}`, "Content-Length": 2, Connection: "close" }, "{}")),
    );
    const { err } = await failure(() => client.request("GET", "/api/x"));
    expect(err).toBeInstanceOf(StorageProtocolError);
    expect((err as Error).message).toContain("text/<redacted>");
  });
});

describe("transports that misbehave", () => {
  const base = {
    baseUrl: "https://cluster.example",
    username: "admin",
    password: PASSWORD,
    requestTimeoutMs: TIMEOUT_MS,
  } as const;

  it("a fetch that ignores the AbortSignal and never settles cannot hang a call", async () => {
    const client = new StorageClient({ ...base, fetch: () => new Promise(() => {}) });
    const { err, ms } = await failure(() => client.request("GET", "/api/x"));
    expect(err).toBeInstanceOf(StorageNetworkError);
    expect((err as Error).message).toContain(`no answer within ${TIMEOUT_MS} ms`);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS);
    // The signal fires once the call is waiting on the fetch; a limit far beyond the test.
    const ac = new AbortController();
    const waiting = new StorageClient({
      ...base,
      fetch: () => {
        setImmediate(() => ac.abort(new Error("stop")));
        return new Promise(() => {});
      },
    });
    expect(
      (
        await failure(() =>
          waiting.request("GET", "/api/x", { signal: ac.signal, timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS }),
        )
      ).err,
    ).toMatchObject({ message: "stop" });
  });

  it("a body that never ends, from a fetch ignoring the signal, cannot hang a call", async () => {
    const endless: FetchLike = async () => ({
      status: 200,
      statusText: "OK",
      headers: { get: (n: string) => (n.toLowerCase() === "content-type" ? "application/json" : null) },
      body: (async function* () {
        yield new Uint8Array([0x7b]);
        await new Promise(() => {});
      })(),
      text: () => new Promise<string>(() => {}),
    });
    const client = new StorageClient({ ...base, fetch: endless });
    const { err } = await failure(() => client.request("GET", "/api/x"));
    expect(err).toBeInstanceOf(StorageNetworkError);
  });

  it("maxResponseBytes must be a positive number", () => {
    expect(() => new StorageClient({ ...base, maxResponseBytes: 0 })).toThrow(RangeError);
    expect(() => new StorageClient({ ...base, maxResponseBytes: Number.NaN })).toThrow(/maxResponseBytes/);
  });
});
