// clusterwire's in-memory reference server for the storage REST API (Area A of the
// interface spec). It runs on loopback over node:http (or node:https), requires HTTP
// Basic auth, and enforces the API's rules independently of the codecs and the client.
//
// Paths the interface spec leaves "not shown" (chosen from storage-api.md §1.2):
//   POST /api/cluster/software/upload   multipart/form-data, one part named `file`
//   GET  /api/cluster/software/history  collection of history records
//   GET  /api/cluster/software/download {state, message, code} of the latest download
//   PATCH /api/cluster/jobs/<uuid>?action=cancel
// and, for the inventory, /api/storage/aggregates and /api/storage/luns.

import { timingSafeEqual, createHash } from "node:crypto";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { Caches } from "./caches.js";
import { type ServerClock, systemClock } from "./clock.js";
import { ClusterInventory } from "./cluster.js";
import { HttpError, SERVER_ERROR_CODES } from "./errors.js";
import { type Ctx, type Method, type Reply, type Resource, type Route, Query } from "./http.js";
import { type Inventory, type InventoryInput, buildInventory } from "./inventory.js";
import { validateInventory } from "./inventory-check.js";
import { JobStore } from "./jobs.js";
import type { Json } from "./json.js";
import { Namespaces } from "./namespaces.js";
import { QuotaRules } from "./quota.js";
import { Software, type SoftwareOptions } from "./software.js";
import type { ServerState } from "./state.js";
import { CloneTokens } from "./tokens.js";

export { createManualClock, systemClock, type ManualClock, type ServerClock } from "./clock.js";
export { SERVER_ERROR_CODES, type ServerErrorCode } from "./errors.js";
export { DEFAULT_INVENTORY, seedUuid, type Inventory, type InventoryInput, type LunInput, type VolumeInput } from "./inventory.js";
export {
  InventoryError,
  checkInventory,
  formatInventoryPath,
  validateInventory,
  type InventoryIssue,
  type InventoryPath,
} from "./inventory-check.js";
export type { SoftwareOptions, SoftwarePackageSeed, CheckSeed } from "./software.js";

export interface ReferenceServerOptions {
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 0 (an ephemeral port). */
  readonly port?: number;
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP. */
  readonly https?: { readonly key: string | Buffer; readonly cert: string | Buffer };
  /** Basic-auth username; default "admin". */
  readonly username?: string;
  /** Basic-auth password; default "clusterwire". Never logged or echoed. */
  readonly password?: string;
  /**
   * The inventory; each list given replaces the seeded list of that kind. It is checked
   * strictly (see `checkInventory`): a bad one makes `createReferenceServer` reject with an
   * InventoryError naming the field path of each problem.
   */
  readonly inventory?: InventoryInput;
  /** The clock; default the system clock. Use createManualClock() in tests. */
  readonly clock?: ServerClock;
  /** How long a job takes from creation to its end, in clock milliseconds; default 100. */
  readonly jobDurationMs?: number;
  /** Largest JSON request body in bytes; default 1 MiB (larger → 413). */
  readonly maxBodyBytes?: number;
  /** Largest upload body in bytes; default 64 MiB (larger → 413). */
  readonly maxUploadBytes?: number;
  /** The cluster software: installed version, packages, validation checks, upgrade speed. */
  readonly software?: SoftwareOptions;
  /** One line per request (`METHOD /path STATUS`) and per internal error. No bodies, headers or queries. */
  readonly log?: (line: string) => void;
}

export interface ReferenceServer {
  /** Base URL, e.g. `http://127.0.0.1:41234` (the API is under `/api`). */
  readonly url: string;
  readonly port: number;
  /** The live inventory (cache creation, LUN conversion etc. change it). */
  readonly inventory: Inventory;
  readonly clock: ServerClock;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

export const DEFAULT_USERNAME = "admin";
export const DEFAULT_PASSWORD = "clusterwire";
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
const UPLOAD_PATH = "/api/cluster/software/upload";

const digest = (s: string | Buffer): Buffer => createHash("sha256").update(s).digest();

function authorized(header: string | undefined, username: string, password: string): boolean {
  if (header === undefined) return false;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (m === null) return false;
  const decoded = Buffer.from(m[1] as string, "base64");
  const expected = Buffer.from(`${username}:${password}`, "utf8");
  return timingSafeEqual(digest(decoded), digest(expected)) && decoded.equals(expected);
}

/**
 * The error body. Messages and targets may name a query parameter or body key the client
 * sent; any occurrence of the configured password in them is redacted.
 */
const errorBody = (e: HttpError, redact: (s: string) => string): Json => ({
  error: e.target === undefined
    ? { message: redact(e.message), code: e.code }
    : { message: redact(e.message), code: e.code, target: redact(e.target) },
});

/** Reads the body up to `limit` bytes; beyond it, drains the rest and reports `tooLarge`. */
function readBody(req: http.IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "NaN");
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limit;
    let drained = 0;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) {
        drained += chunk.length;
        if (drained > limit * 16 + 16 * 1024 * 1024) req.destroy();
        return;
      }
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve({ body: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge }));
    req.on("error", reject);
    req.on("close", () => resolve({ body: Buffer.alloc(0), tooLarge }));
  });
}

export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const username = options.username ?? DEFAULT_USERNAME;
  const password = options.password ?? DEFAULT_PASSWORD;
  const clock = options.clock ?? systemClock;
  const redact = (s: string): string => (password === "" ? s : s.split(password).join("<redacted>"));
  const sink = options.log ?? (() => {});
  const log = (line: string): void => sink(redact(line));
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxUpload = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const jobs = new JobStore(clock, options.jobDurationMs ?? 100);
  let seq = 0;
  const inventory = buildInventory(options.inventory === undefined ? undefined : validateInventory(options.inventory));
  const state: ServerState = { inventory, jobs, clock, nextSeq: () => ++seq };
  const resources: Resource[] = [
    new ClusterInventory(state),
    new CloneTokens(state),
    new QuotaRules(state),
    new Namespaces(state),
    new Caches(state),
    new Software(state, options.software ?? {}),
  ];
  const routes: Route[] = resources.flatMap((r) => [...r.routes()]);
  const tick = (): void => {
    jobs.tick();
    for (const r of resources) r.tick?.();
  };

  async function dispatch(req: http.IncomingMessage): Promise<Reply> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "http://reference.invalid");
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      throw new HttpError(400, SERVER_ERROR_CODES.INVALID_VALUE, "The request path is not valid.");
    }
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    const isUpload = path === UPLOAD_PATH;
    const { body: raw, tooLarge } = await readBody(req, isUpload ? maxUpload : maxBody);
    if (!authorized(req.headers.authorization, username, password)) {
      throw new HttpError(401, SERVER_ERROR_CODES.NOT_AUTHORIZED, "Not authorized: valid credentials are required.", undefined, {
        "WWW-Authenticate": 'Basic realm="clusterwire"',
      });
    }
    if (tooLarge) {
      throw new HttpError(413, SERVER_ERROR_CODES.BODY_TOO_LARGE, `The request body is larger than ${isUpload ? maxUpload : maxBody} bytes.`, "body");
    }
    let params: string[] | undefined;
    const route = routes.find((r) => {
      const m = r.pattern.exec(path);
      if (m === null) return false;
      params = m.slice(1).map((s) => s ?? "");
      return true;
    });
    if (route === undefined) throw new HttpError(404, SERVER_ERROR_CODES.NOT_FOUND, "The API path does not exist.");
    const allowed = Object.keys(route.methods);
    if (method === "OPTIONS") return { status: 200, body: {}, headers: { Allow: [...allowed, "OPTIONS"].join(", ") } };
    const handler = route.methods[method as Method];
    if (handler === undefined) {
      throw new HttpError(405, SERVER_ERROR_CODES.METHOD_NOT_ALLOWED, `Method ${method} is not allowed on this path.`, undefined, {
        Allow: [...allowed, "OPTIONS"].join(", "),
      });
    }
    const contentType = String(req.headers["content-type"] ?? "");
    let body: Json | undefined;
    if (raw.length > 0 && !contentType.toLowerCase().startsWith("multipart/")) {
      try {
        body = JSON.parse(raw.toString("utf8")) as Json;
      } catch {
        throw new HttpError(400, SERVER_ERROR_CODES.MALFORMED_BODY, "The request body is not valid JSON.", "body");
      }
    }
    tick();
    const ctx: Ctx = { method, path, query: new Query(url.searchParams), body, rawBody: raw, contentType, clock, jobs, params: params ?? [] };
    const reply = await handler(ctx);
    return reply;
  }

  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const method = req.method ?? "GET";
    let pathForLog = "/";
    try {
      pathForLog = new URL(req.url ?? "/", "http://reference.invalid").pathname;
    } catch {
      pathForLog = "(unparsable)";
    }
    const hal = String(req.headers.accept ?? "").includes("application/hal+json");
    const send = (reply: Reply): void => {
      const text = reply.body === undefined ? "" : JSON.stringify(reply.body);
      if (res.headersSent || res.destroyed) return;
      res.writeHead(reply.status, {
        ...(reply.body === undefined ? {} : { "Content-Type": hal ? "application/hal+json" : "application/json" }),
        "Content-Length": Buffer.byteLength(text),
        ...(reply.headers ?? {}),
      });
      res.end(text);
      log(`${method} ${pathForLog} ${reply.status}`);
    };
    dispatch(req).then(send, (e: unknown) => {
      if (e instanceof HttpError) {
        send({ status: e.status, body: errorBody(e, redact), headers: e.headers });
        return;
      }
      log(`internal error on ${method} ${pathForLog}: ${e instanceof Error ? e.name : "unknown"}`);
      send({ status: 500, body: { error: { message: "Internal error.", code: SERVER_ERROR_CODES.INTERNAL } } });
    });
  };

  const server = options.https === undefined
    ? http.createServer(handler)
    : https.createServer({ key: options.https.key, cert: options.https.cert }, handler);
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `${options.https === undefined ? "http" : "https"}://${urlHost}:${port}`,
    port,
    inventory: state.inventory,
    clock,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
