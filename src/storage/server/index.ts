/**
 * An in-memory reference server for the storage REST API, with a seeded inventory, for tests
 * and demos of the client (Node only).
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({ baseUrl: server.url, username: "admin", password: "clusterwire", allowInsecureHttp: true });
 * console.log((await client.svms.all()).map((s) => s.name)); // [ "svm1", "svm2" ]
 * client.close();
 * await server.close();
 * ```
 *
 * @packageDocumentation
 */
// clusterwire's in-memory reference server for the storage REST API (clone tokens, caches,
// software, NVMe namespaces, quota rules and jobs). It runs on loopback over node:http (or node:https), requires HTTP
// Basic auth, and enforces the API's rules independently of the codecs and the client.
//
// The independence is on purpose: nothing under server/ imports codecs/ or client/ (the
// server has its own Size and duration readers, body schemas and error codes). Its
// enforcement of the spec is a second implementation written from the same documents, so a
// test that sends a body through the codecs and the client to this server checks each
// against the other; sharing code would make a shared mistake invisible. It is published
// as its own entry point, `clusterwire/storage/server`, so a client bundle that imports
// `clusterwire/storage` never pulls in node:http, node:https or node:net.
//
// Paths the API definition leaves "not shown" (the ones upstream uses):
//   POST /api/cluster/software/upload   multipart/form-data, one part named `file`
//   GET  /api/cluster/software/history  collection of history records
//   GET  /api/cluster/software/download {state, message, code} of the latest download
//   PATCH /api/cluster/jobs/<uuid>?action=cancel
// and, for the inventory, /api/storage/aggregates and /api/storage/luns.

import { timingSafeEqual, createHash } from "node:crypto";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { Caches } from "./caches.js";
import { type ServerClock, systemClock } from "./clock.js";
import { ClusterInventory } from "./cluster.js";
import { HttpError, SERVER_ERROR_CODES } from "./errors.js";
import { type Ctx, type Method, type Reply, type Resource, type Route, Query } from "./http.js";
import { type Inventory, type InventoryInput, buildInventory } from "./inventory.js";
import { validateInventory } from "./inventory-check.js";
import { JobStore } from "./jobs.js";
import { type Json, parseJsonBody } from "./json.js";
import { Namespaces } from "./namespaces.js";
import { QuotaRules } from "./quota.js";
import { Software } from "./software.js";
import type { SoftwareOptions } from "./software-state.js";
import type { ServerState } from "./state.js";
import { CloneTokens } from "./tokens.js";

export { createManualClock, systemClock, type ManualClock, type ServerClock } from "./clock.js";
export { SERVER_ERROR_CODES, type ServerErrorCode } from "./errors.js";
export {
  DEFAULT_INVENTORY,
  seedUuid,
  type Inventory,
  type InventoryInput,
  type LunInput,
  type VolumeInput,
} from "./inventory.js";
export {
  InventoryError,
  checkInventory,
  formatInventoryPath,
  validateInventory,
  type InventoryIssue,
  type InventoryPath,
} from "./inventory-check.js";
export type { SoftwareOptions, SoftwarePackageSeed, CheckSeed } from "./software-state.js";

/**
 * Options of {@link createReferenceServer}: where it listens, its credentials, inventory, clock and limits.
 *
 * @example
 * ```ts
 * import { createManualClock, createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({
 *   port: 0,
 *   username: "ops",
 *   password: "s3cret",
 *   clock: createManualClock(),
 *   inventory: { svms: [{ name: "vs0" }], volumes: [], luns: [] }, // the seeded volumes and LUNs are in svm1
 *   log: (line) => console.log(line),
 * });
 * console.log(server.url);
 * await server.close();
 * ```
 */
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
  /**
   * One line per request (`METHOD /path STATUS`), per internal error and per connection closed
   * for idleness. No bodies, headers or queries.
   */
  readonly log?: (line: string) => void;
  /** Time to receive the request line and headers, in ms; default 10 000 (slower → 408, connection closed). */
  readonly headersTimeoutMs?: number;
  /**
   * Time to receive a whole request, headers and body, in ms; default 60 000 (slower → 408,
   * connection closed). The time the server takes to answer (a `return_timeout` wait) does not count.
   */
  readonly requestTimeoutMs?: number;
  /** How long a keep-alive connection may sit idle between requests, in ms; default 5 000. */
  readonly keepAliveTimeoutMs?: number;
  /**
   * A connection on which nothing moves for this long while the server is not working on
   * an answer (e.g. a client that stops reading the answer) is closed; ms, default 60 000.
   */
  readonly idleTimeoutMs?: number;
  /** Largest request line plus headers, in bytes; default 16 KiB (larger → 431, connection closed). */
  readonly maxHeaderBytes?: number;
}

/**
 * A running reference server, from {@link createReferenceServer}.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * console.log(server.url, server.port, server.inventory.svms.map((s) => s.name)); // ... [ "svm1", "svm2" ]
 * await server.close();
 * ```
 */
export interface ReferenceServer {
  /** Base URL, e.g. `http://127.0.0.1:41234` (the API is under `/api`). */
  readonly url: string;
  /** The port it listens on (the one picked when `port` was 0). */
  readonly port: number;
  /** The live inventory (cache creation, LUN conversion etc. change it). */
  readonly inventory: Inventory;
  /** The clock it runs on. */
  readonly clock: ServerClock;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * The Basic-auth username the server accepts when `username` is not given.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_PASSWORD, DEFAULT_USERNAME } from "clusterwire/storage/server";
 * import { StorageClient } from "clusterwire/storage";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({
 *   baseUrl: server.url,
 *   username: DEFAULT_USERNAME,
 *   password: DEFAULT_PASSWORD,
 *   allowInsecureHttp: true, // the server runs on plain http on loopback
 * });
 * await server.close();
 * ```
 */
export const DEFAULT_USERNAME = "admin";
/**
 * The Basic-auth password the server accepts when `password` is not given.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_PASSWORD, DEFAULT_USERNAME } from "clusterwire/storage/server";
 * import { StorageClient } from "clusterwire/storage";
 *
 * const server = await createReferenceServer();
 * const client = new StorageClient({
 *   baseUrl: server.url,
 *   username: DEFAULT_USERNAME,
 *   password: DEFAULT_PASSWORD,
 *   allowInsecureHttp: true, // the server runs on plain http on loopback
 * });
 * await server.close();
 * ```
 */
export const DEFAULT_PASSWORD = "clusterwire";
/**
 * The largest JSON request body by default, in bytes (1 MiB); larger gets 413.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_MAX_BODY_BYTES } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES * 2 });
 * await server.close();
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/**
 * The largest upload body by default, in bytes (64 MiB); larger gets 413.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_MAX_UPLOAD_BYTES } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES / 4 });
 * await server.close();
 * ```
 */
export const DEFAULT_MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
/**
 * How long the server waits for a request's headers by default, in ms.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_HEADERS_TIMEOUT_MS } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS / 2 });
 * await server.close();
 * ```
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/**
 * How long the server waits for a whole request by default, in ms.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_REQUEST_TIMEOUT_MS } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS / 2 });
 * await server.close();
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/**
 * How long an idle keep-alive connection is kept by default, in ms.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_KEEP_ALIVE_TIMEOUT_MS } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ keepAliveTimeoutMs: DEFAULT_KEEP_ALIVE_TIMEOUT_MS * 2 });
 * await server.close();
 * ```
 */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/**
 * How long a connection on which nothing moves is kept by default, in ms.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_IDLE_TIMEOUT_MS } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS / 2 });
 * await server.close();
 * ```
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/**
 * The largest request line plus headers by default, in bytes (16 KiB); larger gets 431.
 *
 * @example
 * ```ts
 * import { createReferenceServer, DEFAULT_MAX_HEADER_BYTES } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({ maxHeaderBytes: DEFAULT_MAX_HEADER_BYTES * 2 });
 * await server.close();
 * ```
 */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
/** Longest message or target in an error body: they may quote a (huge) key or parameter name. */
const MAX_ERROR_TEXT = 300;
/** How long a refused connection is drained before it is closed (see clientError). */
const LINGER_MS = 1_000;
const UPLOAD_PATH = "/api/cluster/software/upload";

const digest = (s: string | Buffer): Buffer => createHash("sha256").update(s).digest();

function authorized(header: string | undefined, username: string, password: string): boolean {
  if (header === undefined) return false;
  // Canonical base64 only: Node's decoder would ignore anything after the padding.
  const m = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (m === null) return false;
  const decoded = Buffer.from(m[1] as string, "base64");
  const expected = Buffer.from(`${username}:${password}`, "utf8");
  return timingSafeEqual(digest(decoded), digest(expected)) && decoded.equals(expected);
}

/**
 * The error body. Messages and targets may name a query parameter or body key the client
 * sent; any occurrence of the configured password in them is redacted.
 */
const errorBody = (e: HttpError, redact: (s: string) => string): Json => {
  // Redact first: clipping first could cut the password and leave a prefix of it.
  const clean = (s: string): string => {
    const r = redact(s);
    return r.length > MAX_ERROR_TEXT ? `${r.slice(0, MAX_ERROR_TEXT)}…` : r;
  };
  return {
    error:
      e.target === undefined
        ? { message: clean(e.message), code: e.code }
        : { message: clean(e.message), code: e.code, target: clean(e.target) },
  };
};

/** The request never arrived whole (client gone, or refused mid-body): nothing is run or answered. */
class Abandoned extends Error {
  override readonly name = "Abandoned";
}

const MEDIA_JSON = /^application\/(?:[a-z0-9.+-]*\+)?json$/;

/** Whether a JSON body may carry this Content-Type: JSON, `+json`, or no header at all. */
function isJsonType(header: string | undefined): boolean {
  if (header === undefined) return true;
  return MEDIA_JSON.test((header.split(";")[0] ?? "").trim().toLowerCase());
}

/** Whether the request announces a body (a chunked one, or a non-zero Content-Length). */
function hasBody(req: http.IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? "0") > 0;
}

/** A complete answer written straight to a socket, for requests Node's parser refused. */
function rawReply(status: number, code: string, message: string): string {
  const body = JSON.stringify({ error: { message, code } });
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function positiveOption(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v) || v <= 0)
    throw new RangeError(`createReferenceServer: ${name} must be a positive integer, got ${String(v)}`);
  return v;
}

/**
 * Reads the body, refusing it with 413 as soon as it passes `limit` (the rest is never read:
 * the answer closes the connection). Rejects with Abandoned when the client goes away first.
 */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void): void => {
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      settle();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish(() => reject(tooLarge(limit)));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish(() => resolve(Buffer.concat(chunks)));
    const onGone = (): void =>
      finish(() => reject(new Abandoned("the client closed the connection before the request was complete")));
    req.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onGone);
  });
}

const tooLarge = (limit: number): HttpError =>
  new HttpError(413, SERVER_ERROR_CODES.BODY_TOO_LARGE, `The request body is larger than ${limit} bytes.`, "body");

/**
 * Starts the reference server; resolves once it listens. Rejects with an InventoryError for a bad inventory, or
 * when the port is taken.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * const auth = { authorization: `Basic ${Buffer.from("admin:clusterwire").toString("base64")}` };
 * const svms = await (await fetch(`${server.url}/api/svm/svms`, { headers: auth })).json();
 * console.log(svms); // { records: [ { uuid: ..., name: "svm1" }, ... ], num_records: 2, ... }
 * await server.close();
 * ```
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const username = options.username ?? DEFAULT_USERNAME;
  const password = options.password ?? DEFAULT_PASSWORD;
  const clock = options.clock ?? systemClock;
  const redact = (s: string): string => (password === "" ? s : s.split(password).join("<redacted>"));
  const sink = options.log ?? (() => {});
  const log = (line: string): void => {
    try {
      sink(redact(line));
    } catch {
      // A failing log callback must not take the server down.
    }
  };
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

  const headersTimeout = positiveOption("headersTimeoutMs", options.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeout = positiveOption(
    "requestTimeoutMs",
    options.requestTimeoutMs,
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeout),
  );
  if (headersTimeout > requestTimeout) {
    throw new RangeError(
      `createReferenceServer: headersTimeoutMs (${headersTimeout}) must not exceed requestTimeoutMs (${requestTimeout})`,
    );
  }
  const keepAliveTimeout = positiveOption(
    "keepAliveTimeoutMs",
    options.keepAliveTimeoutMs,
    DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  );
  const idleTimeout = positiveOption("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
  const maxHeaderBytes = positiveOption("maxHeaderBytes", options.maxHeaderBytes, DEFAULT_MAX_HEADER_BYTES);
  // The response each connection is writing (clientError must not write into one) and the
  // number of answers being computed on it (idle time then is the server's, not the client's).
  const responses = new WeakMap<Duplex, http.ServerResponse>();
  const working = new WeakMap<Duplex, number>();
  // Connections answered by clientError (malformed, too slow) and closing.
  const refused = new WeakSet<Duplex>();
  const work = (socket: Duplex, delta: number): void => {
    const n = (working.get(socket) ?? 0) + delta;
    if (n > 0) working.set(socket, n);
    else working.delete(socket);
  };

  // Checks run cheapest first and before the body is read: credentials, declared size,
  // path, method, content type. Refusing early closes the connection instead of reading a
  // body nobody will use (see handle).
  async function dispatch(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    expectsContinue: boolean,
  ): Promise<Reply> {
    const method = (req.method ?? "GET").toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://reference.invalid");
    } catch {
      // An absolute-form target such as `http://[/` or a port above 65535.
      throw new HttpError(400, SERVER_ERROR_CODES.MALFORMED_REQUEST, "The request target is not a valid URL.");
    }
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      throw new HttpError(400, SERVER_ERROR_CODES.INVALID_VALUE, "The request path is not valid.");
    }
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    const isUpload = path === UPLOAD_PATH;
    const limit = isUpload ? maxUpload : maxBody;
    if (!authorized(req.headers.authorization, username, password)) {
      throw new HttpError(
        401,
        SERVER_ERROR_CODES.NOT_AUTHORIZED,
        "Not authorized: valid credentials are required.",
        undefined,
        {
          "WWW-Authenticate": 'Basic realm="clusterwire"',
        },
      );
    }
    // Node's parser has checked Content-Length is one decimal number.
    if (Number(req.headers["content-length"] ?? "0") > limit) throw tooLarge(limit);
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
      throw new HttpError(
        405,
        SERVER_ERROR_CODES.METHOD_NOT_ALLOWED,
        `Method ${method} is not allowed on this path.`,
        undefined,
        {
          Allow: [...allowed, "OPTIONS"].join(", "),
        },
      );
    }
    const contentType = String(req.headers["content-type"] ?? "");
    if (!isUpload && hasBody(req) && !isJsonType(req.headers["content-type"])) {
      throw new HttpError(
        415,
        SERVER_ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
        "The request body must be JSON (Content-Type application/json).",
        "body",
      );
    }
    if (expectsContinue) res.writeContinue();
    const raw = await readBody(req, limit);
    // Timed out while the body arrived: the 408 is sent, and a body completed during the
    // lingering close must not run.
    if (refused.has(req.socket)) throw new Abandoned("the request was refused (too slow) before its body was complete");
    const body = raw.length > 0 && !isUpload ? parseJsonBody(raw) : undefined;
    tick();
    const ctx: Ctx = {
      method,
      path,
      query: new Query(url.searchParams),
      body,
      rawBody: raw,
      contentType,
      clock,
      jobs,
      params: params ?? [],
    };
    work(req.socket, 1);
    try {
      return await handler(ctx);
    } finally {
      work(req.socket, -1);
    }
  }

  const handle = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    expectsContinue: boolean,
  ): Promise<void> => {
    const method = req.method ?? "GET";
    let pathForLog = "/";
    try {
      pathForLog = new URL(req.url ?? "/", "http://reference.invalid").pathname;
    } catch {
      pathForLog = "(unparsable)";
    }
    responses.set(req.socket, res);
    res.once("close", () => {
      if (responses.get(req.socket) === res) responses.delete(req.socket);
    });
    const hal = String(req.headers.accept ?? "").includes("application/hal+json");
    let reply: Reply;
    try {
      reply = await dispatch(req, res, expectsContinue);
    } catch (e) {
      if (e instanceof Abandoned) {
        log(`${method} ${pathForLog} not run: ${e.message}`);
        return;
      }
      if (e instanceof HttpError) reply = { status: e.status, body: errorBody(e, redact), headers: e.headers };
      else {
        log(`internal error on ${method} ${pathForLog}: ${e instanceof Error ? e.name : "unknown"}`);
        reply = { status: 500, body: { error: { message: "Internal error.", code: SERVER_ERROR_CODES.INTERNAL } } };
      }
    }
    if (res.headersSent || res.destroyed || req.socket.destroyed) return;
    const text = reply.body === undefined ? "" : JSON.stringify(reply.body);
    // A body still unread (refused early, or cut off at the limit) is not drained: the
    // connection closes after the answer, so a huge or endless body costs nothing.
    const unread = !req.complete;
    res.writeHead(reply.status, {
      ...(reply.body === undefined ? {} : { "Content-Type": hal ? "application/hal+json" : "application/json" }),
      "Content-Length": Buffer.byteLength(text),
      ...(reply.headers ?? {}),
      ...(unread ? { Connection: "close" } : {}),
    });
    res.end(text);
    log(`${method} ${pathForLog} ${reply.status}`);
  };
  const onRequest =
    (expectsContinue: boolean) =>
    (req: http.IncomingMessage, res: http.ServerResponse): void => {
      handle(req, res, expectsContinue).catch((e: unknown) => {
        // Only writing the answer can get here; the connection is in an unknown state.
        log(`could not answer ${req.method ?? "?"}: ${e instanceof Error ? e.name : "unknown"}`);
        res.destroy();
      });
    };

  const serverOptions: http.ServerOptions = {
    headersTimeout: headersTimeout,
    requestTimeout: requestTimeout,
    keepAliveTimeout: keepAliveTimeout,
    maxHeaderSize: maxHeaderBytes,
    // Node checks the two timeouts above only this often (default 30 s).
    connectionsCheckingInterval: Math.max(5, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
  const server =
    options.https === undefined
      ? http.createServer(serverOptions, onRequest(false))
      : https.createServer({ ...serverOptions, key: options.https.key, cert: options.https.cert }, onRequest(false));
  // Expect: 100-continue is answered only once the request passed the checks above.
  server.on("checkContinue", onRequest(true));
  server.setTimeout(idleTimeout, (socket: Socket) => {
    if (working.has(socket)) return;
    socket.destroy();
    log(`closed a connection idle for ${idleTimeout} ms`);
  });
  // Requests Node's HTTP parser refuses (bad request line, headers or chunking; too large
  // headers; too slow) never reach the handler: answer with the API's error body and close.
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports every later chunk of a refused connection too: it is already closing.
    if (refused.has(socket)) return;
    const code = err.code ?? "";
    if (code === "ECONNRESET" || !socket.writable || responses.get(socket)?.headersSent === true) {
      socket.destroy();
      return;
    }
    refused.add(socket);
    const [status, apiCode, message] =
      code === "HPE_HEADER_OVERFLOW"
        ? [
            431,
            SERVER_ERROR_CODES.HEADERS_TOO_LARGE,
            `The request line and headers are larger than ${maxHeaderBytes} bytes.`,
          ]
        : code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, SERVER_ERROR_CODES.REQUEST_TIMEOUT, "The request was not received in time."]
          : [400, SERVER_ERROR_CODES.MALFORMED_REQUEST, "The request is not valid HTTP/1.1."];
    log(`refused a malformed request: ${status}${code === "" ? "" : ` (${code})`}`);
    // Half-close and discard input for a moment before destroying: destroying at once resets
    // the connection under a client still sending its request, which can lose the answer.
    socket.end(rawReply(status, apiCode, message));
    const linger = setTimeout(() => socket.destroy(), Math.min(LINGER_MS, headersTimeout));
    socket.once("end", () => socket.destroy());
    socket.once("close", () => clearTimeout(linger));
  });
  // CONNECT is not an API method; without a listener Node would just drop the connection.
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => {
    socket.end(rawReply(405, SERVER_ERROR_CODES.METHOD_NOT_ALLOWED, "Method CONNECT is not allowed."), () =>
      socket.destroy(),
    );
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
