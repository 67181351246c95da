import type { IncomingMessage, ServerResponse } from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { makeCert, certProblem } from "../storage/cert.js";
import { skipWithout } from "../tools.js";
import {
  decodeRecording,
  encodeRecording,
  exchangeKey,
  type Recording,
  startRecordingProxy,
  startReplayServer,
} from "./recording.js";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A request through node:https, trusting `ca`; the status, warning headers and body. */
function call(
  base: { url: string; ca: string; token: string },
  method: string,
  path: string,
  body = "",
): Promise<{ status: number; warning: string | string[] | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(path, base.url), {
      method,
      ca: base.ca,
      agent: false,
      headers: { authorization: `Bearer ${base.token}`, accept: "application/json", "content-type": "text/plain" },
    });
    req.on("error", reject);
    req.on("response", async (res) => {
      const chunks: Buffer[] = [];
      for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
      resolve({ status: res.statusCode ?? 0, warning: res.headers.warning, body: Buffer.concat(chunks) });
    });
    req.end(body);
  });
}

/** An upstream that echoes method, path and body, with a warning, and checks its own token. */
async function upstream(): Promise<{ url: string; token: string; caPem: string } | undefined> {
  const cert = makeCert();
  if (cert === undefined) return undefined;
  const server = https.createServer(
    { key: cert.key, cert: cert.cert },
    async (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
      if (req.headers.authorization !== "Bearer upstream-secret") return void res.writeHead(403).end("forbidden");
      res.writeHead(201, { "content-type": "text/plain", warning: '299 - "echoed"' });
      res.end(`${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`);
    },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    cert.dispose();
  });
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: "upstream-secret",
    caPem: cert.cert,
  };
}

describe("recording proxy and replay server", () => {
  it("records exchanges with the upstream's token and replays them, matched by method, sorted query and body", async (t) => {
    const up = await upstream();
    if (up === undefined) return skipWithout(t, "openssl", certProblem());
    const proxy = await startRecordingProxy(up);
    if (proxy === undefined) return skipWithout(t, "openssl", certProblem());
    cleanup.push(() => proxy.close());
    const first = await call(proxy, "POST", "/a?x=1&b=2", "one");
    const second = await call(proxy, "POST", "/a?x=1&b=2", "two");
    expect(first.body.toString()).toBe("POST /a?x=1&b=2 one");
    expect(second.body.toString()).toBe("POST /a?x=1&b=2 two");
    expect(first.warning).toBe('299 - "echoed"');
    expect(proxy.exchanges.map((e) => [e.status, e.complete])).toEqual([
      [201, true],
      [201, true],
    ]);
    // The upstream's token is used onwards and never stored.
    expect(JSON.stringify(proxy.exchanges)).not.toContain("upstream-secret");

    const recording: Recording = decodeRecording(encodeRecording({ server: "test", exchanges: proxy.exchanges }));
    const replay = await startReplayServer(recording);
    if (replay === undefined) return skipWithout(t, "openssl", certProblem());
    cleanup.push(() => replay.close());
    // Asked in the other order and with the query reordered: each body finds its own answer.
    const two = await call(replay, "POST", "/a?b=2&x=1", "two");
    const one = await call(replay, "POST", "/a?x=1&b=2", "one");
    expect([one.status, one.body.toString(), two.body.toString()]).toEqual([
      201,
      "POST /a?x=1&b=2 one",
      "POST /a?x=1&b=2 two",
    ]);
    expect(one.warning).toBe('299 - "echoed"');
    expect(replay.remaining()).toBe(0);
    const again = await call(replay, "POST", "/a?x=1&b=2", "one");
    expect(again.status).toBe(500);
    expect(replay.unmatched).toEqual(["POST /a?x=1&b=2"]);
  });

  it("keys differ by method, path, query value and body", () => {
    const base = exchangeKey("GET", "/p?a=1", "");
    expect(
      new Set([
        base,
        exchangeKey("PUT", "/p?a=1", ""),
        exchangeKey("GET", "/q?a=1", ""),
        exchangeKey("GET", "/p?a=2", ""),
        exchangeKey("GET", "/p?a=1", "eA=="),
      ]).size,
    ).toBe(5);
    expect(exchangeKey("GET", "/p?b=2&a=1", "")).toBe(exchangeKey("GET", "/p?a=1&b=2", ""));
  });
});
