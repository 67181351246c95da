// Helpers for the hardening tests: raw HTTP/1.1 over a net socket (requests Node's fetch
// would refuse to send) and scripted raw servers (answers fetch would refuse to give); the
// self-signed certificate is in cert.ts. Everything stays on 127.0.0.1 and every wait is bounded.
import * as net from "node:net";
import * as tls from "node:tls";
import { expect } from "vitest";
import { type JsonAnswer, PASSWORD, USER, basic } from "./server-harness.js";

export const AUTH = basic(USER, PASSWORD);

export interface RawResult {
  /** Everything the server sent, as latin1. */
  readonly text: string;
  /** Status of the first answer, if one came. */
  readonly status: number | undefined;
  /** JSON body of the first answer, if it parsed. */
  readonly json: JsonAnswer;
  /** Whether the server closed the connection (false: we gave up after `waitMs`). */
  readonly closed: boolean;
  readonly ms: number;
  /** Bytes we managed to write before the connection closed. */
  readonly written: number;
}

/**
 * Opens a connection, runs `script` (which writes the request, possibly slowly) and collects
 * what comes back until the server closes the connection or `waitMs` passes.
 */
export function exchange(
  port: number,
  script: string | Buffer | ((s: net.Socket, state: { written: number }) => void),
  waitMs = 3_000,
): Promise<RawResult> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    const state = { written: 0 };
    const chunks: Buffer[] = [];
    let closed = false;
    socket.on("data", (d: Buffer) => chunks.push(d));
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ text, ...parseAnswer(text), closed, ms: Date.now() - started, written: state.written });
    });
    socket.on("end", () => {
      closed = true;
      socket.destroy();
    });
    // ECONNRESET / EPIPE: the server hung up on us, which is closing too.
    socket.on("error", () => {
      closed = true;
    });
    socket.on("connect", () => {
      if (typeof script === "function") script(socket, state);
      else {
        state.written += Buffer.byteLength(script);
        socket.write(script);
      }
    });
  });
}

function parseAnswer(text: string): { status: number | undefined; json: JsonAnswer } {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  if (m === null) return { status: undefined, json: undefined };
  const headEnd = text.indexOf("\r\n\r\n");
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd));
  const body =
    headEnd < 0 ? "" : text.slice(headEnd + 4, length === null ? undefined : headEnd + 4 + Number(length[1]));
  let json: JsonAnswer;
  try {
    json = JSON.parse(Buffer.from(body, "latin1").toString("utf8"));
  } catch {
    json = undefined;
  }
  return { status: Number(m[1]), json };
}

/** A request head; `headers` are written as given (no Content-Length unless given). */
export function head(
  method: string,
  target: string,
  headers: Record<string, string | number> = {},
  auth = true,
): string {
  const lines = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1"];
  if (auth) lines.push(`Authorization: ${AUTH}`);
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Writes `piece` every `everyMs` until the socket closes or `max` pieces went out. */
export function trickle(
  socket: net.Socket,
  state: { written: number },
  piece: string | Buffer,
  everyMs: number,
  max: number,
): void {
  let n = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable || n++ >= max) {
      clearInterval(timer);
      return;
    }
    state.written += Buffer.byteLength(piece);
    socket.write(piece);
  }, everyMs);
  socket.once("close", () => clearInterval(timer));
}

/**
 * Resolves once `cond()` holds, checking every few milliseconds. It has no deadline of its
 * own (the test's timeout bounds it), so a slow machine only makes it wait longer.
 */
export async function waitUntil(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The API's error body: `{error: {message, code}}` with a digit-string code. */
export function expectApiError(
  r: { status: number | undefined; json: JsonAnswer },
  status: number,
  code?: string,
): void {
  expect(r.status).toBe(status);
  expect(typeof r.json?.error?.message).toBe("string");
  expect(r.json?.error?.code).toMatch(/^\d+$/);
  if (code !== undefined) expect(r.json.error.code).toBe(code);
}

/** Names on Object.prototype, to check nothing was added by a request. */
export const prototypeNames = (): string[] => Object.getOwnPropertyNames(Object.prototype).sort();

export interface RawServer {
  readonly port: number;
  /** Connections accepted so far. */
  readonly sockets: net.Socket[];
  /** Resets a connection (RST), through TLS to the TCP socket underneath. */
  reset(s: net.Socket): void;
  close(): Promise<void>;
}

/** A TCP (or TLS) server on loopback whose every connection is handed to `onConnection`. */
export async function rawServer(
  onConnection: (s: net.Socket) => void,
  pem?: { key: string; cert: string },
): Promise<RawServer> {
  const sockets: net.Socket[] = [];
  const accept = (s: net.Socket): void => {
    sockets.push(s);
    s.on("error", () => {});
    onConnection(s);
  };
  const server =
    pem === undefined ? net.createServer(accept) : tls.createServer({ key: pem.key, cert: pem.cert }, accept);
  // Under TLS the TCP socket is the one that can be reset; the client's port pairs them.
  const tcp = new Map<number | undefined, net.Socket>();
  if (pem !== undefined) server.on("connection", (raw: net.Socket) => tcp.set(raw.remotePort, raw));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    sockets,
    reset: (s) => (tcp.get(s.remotePort) ?? s).resetAndDestroy(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads one request head from a raw server connection, then calls `answer`. */
export function onRequestHead(s: net.Socket, answer: (head: string) => void): void {
  let buf = "";
  const onData = (d: Buffer): void => {
    buf += d.toString("latin1");
    if (buf.includes("\r\n\r\n")) {
      s.off("data", onData);
      answer(buf.slice(0, buf.indexOf("\r\n\r\n")));
    }
  };
  s.on("data", onData);
}
