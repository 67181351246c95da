// A scripted HTTP(S) server on loopback for the StorageClient tests: every request is recorded
// and answered by the test's handler. (The reference server is tested separately.)
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { StorageClient, type StorageClientOptions } from "../../../src/storage/index.js";

export interface Recorded {
  readonly method: string;
  /** Path plus query, as received. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
  /** The parsed JSON body, or undefined. */
  readonly json: unknown;
}

export interface Reply {
  readonly status?: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Record<string, string>;
  /** Delay before answering, ms. */
  readonly delayMs?: number;
}

export type Handler = (req: Recorded, server: ScriptedServer) => Reply | Promise<Reply>;

export interface ScriptedServer {
  readonly url: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

export async function startServer(
  handler: Handler,
  options: { https?: { key: string; cert: string } } = {},
): Promise<ScriptedServer> {
  const requests: Recorded[] = [];
  // eslint-disable-next-line prefer-const
  let self: ScriptedServer;
  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const text = body.toString("utf8");
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const u = new URL(req.url ?? "/", "http://x");
      const rec: Recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body,
        text,
        json,
      };
      requests.push(rec);
      Promise.resolve()
        .then(() => handler(rec, self))
        .then(
          async (reply) => {
            if (reply.delayMs !== undefined) await new Promise((r) => setTimeout(r, reply.delayMs));
            if (res.destroyed) return;
            const payload = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
            res.writeHead(reply.status ?? 200, {
              ...(reply.json !== undefined ? { "content-type": "application/hal+json" } : {}),
              ...reply.headers,
            });
            res.end(payload);
          },
          (err: unknown) => {
            res.writeHead(599, { "content-type": "text/plain" });
            res.end(`test handler threw: ${String(err)}`);
          },
        );
    });
  };
  const server =
    options.https === undefined
      ? http.createServer(listener)
      : https.createServer({ key: options.https.key, cert: options.https.cert }, listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  self = {
    url: `${options.https === undefined ? "http" : "https"}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return self;
}

/** The error body of the API. */
export function apiError(status: number, code: string, message: string, target?: string): Reply {
  return { status, json: { error: { message, code, ...(target === undefined ? {} : { target }) } } };
}

/** A 202 job answer. */
export function jobAccepted(uuid: string): Reply {
  return { status: 202, json: { job: { uuid, _links: { self: { href: `/api/cluster/jobs/${uuid}` } } } } };
}

export const FAST_JOBS = { initialIntervalMs: 5, maxIntervalMs: 20, timeoutMs: 5_000 } as const;

/**
 * The client tests' setup: `start(handler, options?)` starts a scripted server and a StorageClient
 * for it over plain HTTP, logged in as admin with `password`. Every server started during a test
 * is closed after it.
 */
export function clientFixture(
  password: string,
): (
  handler: Handler,
  options?: Partial<StorageClientOptions>,
) => Promise<{ client: StorageClient; srv: ScriptedServer }> {
  const started: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (handler, options = {}) => {
    const srv = await startServer(handler);
    started.push(srv);
    const client = new StorageClient({
      baseUrl: srv.url,
      username: "admin",
      password,
      allowInsecureHttp: true,
      ...options,
    });
    return { client, srv };
  };
}
