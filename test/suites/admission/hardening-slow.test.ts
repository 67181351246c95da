// Slow and idle clients: a TCP connection that never starts TLS, a TLS
// connection that never sends a request, headers or a body trickled a byte at
// a time, an idle keep-alive connection. The server cuts each with the small
// timeouts set here, gives back any in-flight slot, and keeps serving others.
//
// Node's connection timeouts run on real time. What is asserted does not
// depend on the machine's speed: each slow client is cut (the test waits for
// the close itself), and long before Node's own defaults would have cut it
// (PATIENCE is far below them), so the cut comes from the configured timeout.
import * as net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { WebhookServer } from "../../../src/admission/server/index.js";
import { DEFAULT_TIMEOUTS } from "../../../src/admission/server/index.js";
import { ingressJson, pem, rawSocket, reviewBody, send, tlsDir, withServer } from "../../support/admission/server.js";

const cert = pem();
const files = tlsDir(cert);
afterAll(() => files.dispose());

const TIMEOUTS = { handshakeMs: 300, headersMs: 300, requestMs: 600, keepAliveMs: 300 } as const;
// Node's defaults: 120 s handshake, 60 s headers, 300 s request, 5 s keep-alive; and ours are 10 s or more.
const PATIENCE_MS = 4_000;

/** Resolves with how the connection ended, or rejects when it was not cut within PATIENCE_MS. */
function cutWithin<T>(closed: Promise<T>, stop: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the server did not cut the connection within ${PATIENCE_MS} ms`));
    }, PATIENCE_MS);
    void closed.then((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}

async function served(server: WebhookServer): Promise<void> {
  const r = await send(server, false, cert.cert, "POST", "/validate", reviewBody(ingressJson("web"), "meanwhile"));
  expect(r.status).toBe(200);
}

/** Writes `text` a byte at a time every `ms` until the socket closes. */
function trickle(socket: net.Socket, text: string, ms: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) {
      clearInterval(timer);
      return;
    }
    socket.write(text[i++]!);
  }, ms);
  socket.on("close", () => clearInterval(timer));
}

describe("slow and idle clients", () => {
  it("sets every timeout deliberately, well below Node's defaults", () => {
    expect(DEFAULT_TIMEOUTS.handshakeMs).toBeLessThan(120_000);
    expect(DEFAULT_TIMEOUTS.headersMs).toBeLessThan(60_000);
    // The API server gives up on a webhook after at most 30 s.
    expect(DEFAULT_TIMEOUTS.requestMs).toBeLessThanOrEqual(30_000);
    expect(DEFAULT_TIMEOUTS.headersMs).toBeLessThanOrEqual(DEFAULT_TIMEOUTS.requestMs);
    // Longer than the 90 s Go's HTTP client keeps an idle connection, so the client closes first.
    expect(DEFAULT_TIMEOUTS.keepAliveMs).toBeGreaterThan(90_000);
  });

  it("cuts a TCP connection that never starts the TLS handshake", async () => {
    await withServer(files, { timeouts: TIMEOUTS }, async (server) => {
      const sockets = Array.from({ length: 5 }, () => net.connect(server.port, "127.0.0.1"));
      await Promise.all(
        sockets.map((s) =>
          cutWithin(
            new Promise<void>((resolve) => {
              s.on("error", () => {});
              s.on("close", () => resolve());
            }),
            () => s.destroy(),
          ),
        ),
      );
      await served(server);
    });
  });

  it("cuts a TLS connection that never sends a request", async () => {
    await withServer(files, { timeouts: TIMEOUTS }, async (server) => {
      const idle = Array.from({ length: 5 }, () => rawSocket(server));
      await Promise.all(idle.map((c) => c.ready));
      await served(server);
      await Promise.all(idle.map((c) => cutWithin(c.closed, () => c.socket.destroy())));
      await served(server);
    });
  });

  it("slowloris: headers trickled a byte at a time are cut with 408, while others are served", async () => {
    await withServer(files, { timeouts: TIMEOUTS }, async (server) => {
      const slow = Array.from({ length: 5 }, () => rawSocket(server));
      await Promise.all(slow.map((c) => c.ready));
      for (const c of slow) trickle(c.socket, "POST /validate HTTP/1.1\r\nHost: x\r\nX-Pad: " + "a".repeat(10_000), 20);
      await served(server);
      const texts = await Promise.all(slow.map((c) => cutWithin(c.closed, () => c.socket.destroy())));
      for (const t of texts) expect(t).toMatch(/^HTTP\/1\.1 408 /);
      await served(server);
    });
  });

  it("a body trickled a byte at a time is cut, and its in-flight slot given back", async () => {
    await withServer(files, { timeouts: TIMEOUTS, maxInFlight: 1 }, async (server) => {
      const body = reviewBody(ingressJson("web"), "slow-body");
      const c = rawSocket(server);
      await c.ready;
      c.socket.write(`POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`);
      trickle(c.socket, body, 20);
      const text = await cutWithin(c.closed, () => c.socket.destroy());
      // Either Node's 408, or a close with nothing written: never a review.
      expect(text === "" || /^HTTP\/1\.1 408 /.test(text)).toBe(true);
      // With a limit of one review in flight, the slot is free again.
      await served(server);
    });
  });

  it("closes an idle keep-alive connection after keepAliveMs, once its answer is written", async () => {
    await withServer(files, { timeouts: TIMEOUTS }, async (server) => {
      const body = reviewBody(ingressJson("web"), "ka");
      const c = rawSocket(server);
      await c.ready;
      // Two reviews on the connection, then nothing.
      const request = `POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      c.socket.write(request + request);
      const text = await cutWithin(c.closed, () => c.socket.destroy());
      expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
      expect(text.toLowerCase()).toContain("connection: keep-alive");
      await served(server);
    });
  });
});
