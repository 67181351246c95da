// Recorded API server answers, for the client's tests without Go.
//
// startRecordingProxy() sits between a client and a real kube-apiserver: HTTPS on loopback with
// its own certificate, forwarding each request upstream with the real server's token and CA, and
// keeping every exchange (request line, the headers that matter, both bodies, byte for byte). A
// watch is kept as the bytes the server streamed until it ended or the client went away.
//
// startReplayServer() answers from such a recording: each request is matched by method, path with
// its query (parameters sorted) and body, in the order they were recorded for that key, so
// concurrent requests (a watch open while writes go on) replay as they were answered. A request
// with no recorded answer left is kept in `unmatched`; a watch one is held open and quiet (as a
// server with nothing to say would), anything else gets a 500.
import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type { ClientRequest, IncomingMessage, ServerResponse } from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { makeCert } from "../storage/cert.js";

/** One request and its answer, as the real API server gave it. Bodies are base64. */
export interface Exchange {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  readonly requestType: string;
  readonly accept: string;
  readonly requestBody: string;
  readonly status: number;
  readonly responseType: string;
  readonly warnings: readonly string[];
  readonly responseBody: string;
  /** False when the client went away before the answer ended (a watch stopped by its client). */
  readonly complete: boolean;
}

export interface Recording {
  /** The server's gitVersion, e.g. v1.35.4. */
  readonly server: string;
  readonly exchanges: readonly Exchange[];
}

/** The headers a replayed answer keeps; the rest (dates, audit ids) differ on every run. */
const WARNING = "warning";

/** How an exchange is matched: method, path, sorted query, and a digest of the body. */
export function exchangeKey(method: string, url: string, body: Uint8Array | string): string {
  const parsed = new URL(url, "https://x");
  const query = [...parsed.searchParams].sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  const digest = createHash("sha256")
    .update(typeof body === "string" ? Buffer.from(body, "base64") : body)
    .digest("hex")
    .slice(0, 16);
  return `${method} ${parsed.pathname}?${new URLSearchParams(query)} ${digest}`;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

function warningsOf(headers: IncomingMessage["headers"]): string[] {
  const w = headers[WARNING];
  return w === undefined ? [] : Array.isArray(w) ? w : [w];
}

export interface Upstream {
  readonly url: string;
  readonly token: string;
  readonly caPem: string;
}

export interface RecordingProxy {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** The proxy's certificate (PEM), to trust as the CA. */
  readonly ca: string;
  /** The token the proxy accepts (it sends the upstream's own token onwards). */
  readonly token: string;
  readonly exchanges: Exchange[];
  close(): Promise<void>;
}

/** Starts a recording proxy to `upstream`; undefined when openssl is missing. */
export async function startRecordingProxy(upstream: Upstream): Promise<RecordingProxy | undefined> {
  const cert = makeCert();
  if (cert === undefined) return undefined;
  const exchanges: Exchange[] = [];
  const token = "recording-proxy-token";
  const open = new Set<ClientRequest>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    const headers: Record<string, string> = { authorization: `Bearer ${upstream.token}` };
    for (const h of ["accept", "content-type", "user-agent"] as const) {
      const v = req.headers[h];
      if (typeof v === "string") headers[h] = v;
    }
    if (body.length > 0) headers["content-length"] = String(body.length);
    const out = https.request(new URL(url, upstream.url), { method, headers, ca: upstream.caPem, agent: false });
    open.add(out);
    out.on("close", () => open.delete(out));
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.destroy();
    });
    out.on("response", (up) => {
      const chunks: Buffer[] = [];
      const headersOut: Record<string, string | string[]> = {};
      if (up.headers["content-type"] !== undefined) headersOut["content-type"] = up.headers["content-type"];
      const warnings = warningsOf(up.headers);
      if (warnings.length > 0) headersOut[WARNING] = warnings;
      res.writeHead(up.statusCode ?? 502, headersOut);
      res.flushHeaders();
      let done = false;
      const keep = (complete: boolean): void => {
        if (done) return;
        done = true;
        exchanges.push({
          method,
          url,
          requestType: req.headers["content-type"] ?? "",
          accept: req.headers.accept ?? "",
          requestBody: body.toString("base64"),
          status: up.statusCode ?? 0,
          responseType: up.headers["content-type"] ?? "",
          warnings,
          responseBody: Buffer.concat(chunks).toString("base64"),
          complete,
        });
      };
      up.on("data", (c: Buffer) => {
        chunks.push(c);
        res.write(c);
      });
      up.on("end", () => {
        keep(true);
        res.end();
      });
      res.on("close", () => {
        if (!up.complete) {
          keep(false);
          out.destroy();
        }
      });
    });
    out.end(body);
  };
  const served = await serve(cert, handle, () => {
    for (const o of open) o.destroy();
  });
  return { ...served, token, exchanges };
}

export interface ReplayServer {
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  /** Requests that had no recorded answer left: `METHOD URL`. */
  readonly unmatched: string[];
  /** Recorded exchanges not asked for (yet). */
  remaining(): number;
  close(): Promise<void>;
}

/** Serves `recording`'s answers; undefined when openssl is missing. */
export async function startReplayServer(recording: Recording): Promise<ReplayServer | undefined> {
  const cert = makeCert();
  if (cert === undefined) return undefined;
  const token = "replay-token";
  const queues = new Map<string, Exchange[]>();
  for (const e of recording.exchanges) {
    const key = exchangeKey(e.method, e.url, e.requestBody);
    const q = queues.get(key) ?? [];
    q.push(e);
    queues.set(key, q);
  }
  const unmatched: string[] = [];
  const held = new Set<ServerResponse>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    const next = queues.get(exchangeKey(method, url, body))?.shift();
    if (next === undefined) {
      unmatched.push(`${method} ${url}`);
      if (new URL(url, "https://x").searchParams.get("watch") !== null) {
        // A watch nobody recorded an answer to: open and quiet until the client leaves.
        res.writeHead(200, { "content-type": req.headers.accept ?? "application/json" });
        res.flushHeaders();
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      res.writeHead(500, { "content-type": "text/plain" }).end(`no recorded answer for ${method} ${url}`);
      return;
    }
    const headers: Record<string, string | string[]> = { "content-type": next.responseType };
    if (next.warnings.length > 0) headers[WARNING] = [...next.warnings];
    res.writeHead(next.status, headers);
    const bytes = Buffer.from(next.responseBody, "base64");
    if (next.complete) {
      res.end(bytes);
    } else {
      // The client ended this one when it was recorded: send what came, then stay open.
      res.write(bytes);
      held.add(res);
      res.on("close", () => held.delete(res));
    }
  };
  const served = await serve(cert, handle, () => {
    for (const r of held) r.destroy();
  });
  return {
    ...served,
    token,
    unmatched,
    remaining: () => [...queues.values()].reduce((n, q) => n + q.length, 0),
  };
}

/**
 * Serves `handle` over HTTPS on a free loopback port with `cert`; close() runs `cut` (the
 * caller's own open exchanges), ends every connection and disposes of the certificate.
 */
async function serve(
  cert: { key: string; cert: string; dispose(): void },
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  cut: () => void,
): Promise<{ url: string; ca: string; close(): Promise<void> }> {
  const server = https.createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: cert.cert,
    async close() {
      cut();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      cert.dispose();
    },
  };
}

/** A recording as stored under test/fixtures/client/: gzipped JSON. */
export function encodeRecording(recording: Recording): Buffer {
  return gzipSync(`${JSON.stringify(recording, null, 0).replaceAll('},{"method"', '},\n{"method"')}\n`);
}

export function decodeRecording(bytes: Uint8Array): Recording {
  return JSON.parse(gunzipSync(bytes).toString("utf8")) as Recording;
}
