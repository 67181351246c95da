// One HTTP exchange with the API server over node:https: the credentials' TLS on one keep-alive
// agent per client, the bearer token (read again and the request sent once more after a 401,
// when the token file has changed), a time limit until the response headers and another for
// the whole exchange, a bound on the body's size, and the caller's AbortSignal. Every failure
// becomes a RequestError built from the method and path: the token is sent, never put in a
// message.

import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import * as https from "node:https";
import type { Duplex } from "node:stream";
import { type ClusterCredentials, CredentialsError, currentToken } from "../config/credentials.js";
import { DecodeError } from "../../networking/index.js";
import { ApiError, RequestError, type RequestErrorCode } from "../errors.js";

/** What a transport is built from. */
export interface TransportOptions {
  readonly credentials: ClusterCredentials;
  readonly userAgent: string;
  /** The largest body `send` reads. */
  readonly maxResponseBytes: number;
  /** Each warning (code 299) of every answer's Warning headers. */
  readonly onWarning?: ((warning: string) => void) | undefined;
}

/** One request. */
export interface Exchange {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path below the server's URL, its segments already encoded; no query. */
  readonly path: string;
  readonly query?: URLSearchParams | undefined;
  readonly accept: string;
  readonly contentType?: string | undefined;
  readonly body?: Uint8Array | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A whole answer. */
export interface Answer {
  readonly status: number;
  /** The status line's text ("Bad Gateway"), "" when none. */
  readonly statusText: string;
  /** The Content-Type header, "" when none. */
  readonly contentType: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** An answer whose headers are in and whose body is being received. */
export interface Opened {
  readonly res: IncomingMessage;
  /**
   * What an error met while reading the body means: the RequestError of the deadline, the
   * caller's abort or a cut connection; errors of the client's own (RequestError, a decoder's
   * DecodeError) are returned as they are.
   */
  failure(e: unknown): unknown;
  /** Whether the caller's signal ended it. */
  readonly aborted: boolean;
}

/** A client's connection to one API server. */
export interface Transport {
  /** One request and its whole answer (any status), within `timeoutMs`. */
  send(exchange: Exchange, timeoutMs: number): Promise<Answer>;
  /**
   * Sends a request and resolves once its response headers arrive (any status), within
   * `headerTimeoutMs`; the response is destroyed `deadlineMs` after the request was sent, if
   * given. The caller reads or destroys the response.
   */
  open(exchange: Exchange, headerTimeoutMs: number, deadlineMs?: number): Promise<Opened>;
  /** Reads an opened response's whole body, up to the size bound. */
  read(opened: Opened, method: string, path: string): Promise<Buffer>;
  /** Ends idle keep-alive connections; a request after this gets a connection of its own. */
  close(): void;
}

/** An Agent that keeps connections alive until close(). */
class ClientAgent extends https.Agent {
  closed = false;
  override keepSocketAlive(socket: Duplex): boolean {
    if (this.closed) return false;
    return super.keepSocketAlive(socket) as unknown as boolean;
  }
}

/** Starts a transport to `options.credentials.server`; a CredentialsError when it is not an https:// URL. */
export function createTransport(options: TransportOptions): Transport {
  const credentials = options.credentials;
  const base = serverBase(credentials);
  const agent = new ClientAgent({
    keepAlive: true,
    ...(credentials.ca === undefined ? {} : { ca: credentials.ca }),
    ...(credentials.cert === undefined ? {} : { cert: credentials.cert }),
    ...(credentials.key === undefined ? {} : { key: credentials.key }),
    ...(credentials.tlsServerName === undefined ? {} : { servername: credentials.tlsServerName }),
    rejectUnauthorized: credentials.insecureSkipTlsVerify !== true,
  });
  const max = options.maxResponseBytes;

  /** One attempt with one token. */
  const attempt = (x: Exchange, token: string | undefined, headerMs: number, deadlineMs?: number): Promise<Opened> =>
    new Promise<Opened>((resolve, reject) => {
      const { method, path } = x;
      const signal = x.signal;
      if (signal?.aborted === true) {
        reject(new RequestError("aborted", method, path, "aborted before it was sent"));
        return;
      }
      const query = x.query?.toString() ?? "";
      const url = new URL(base + path + (query === "" ? "" : `?${query}`));
      const headers: Record<string, string | number> = { accept: x.accept, "user-agent": options.userAgent };
      if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
      if (x.contentType !== undefined) headers["content-type"] = x.contentType;
      if (x.body !== undefined) headers["content-length"] = x.body.byteLength;
      const req = https.request(url, { method, headers, agent });
      /** Why the client itself ended the exchange, if it did. */
      let cut: { code: RequestErrorCode; what: string } | undefined;
      let res: IncomingMessage | undefined;
      const end = (code: RequestErrorCode, what: string): void => {
        cut ??= { code, what };
        req.destroy();
        res?.destroy();
      };
      const headerTimer = setTimeout(() => end("timeout", `no response headers within ${headerMs} ms`), headerMs);
      const deadline =
        deadlineMs === undefined
          ? undefined
          : setTimeout(() => end("timeout", `not finished within ${deadlineMs} ms`), deadlineMs);
      const onAbort = (): void => end("aborted", "aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
      const clear = (): void => {
        clearTimeout(headerTimer);
        if (deadline !== undefined) clearTimeout(deadline);
        signal?.removeEventListener("abort", onAbort);
      };
      const failure = (e: unknown): unknown => {
        if (cut !== undefined) return new RequestError(cut.code, method, path, cut.what, { cause: e });
        if (!(e instanceof Error) || e instanceof RequestError || e instanceof ApiError || e instanceof DecodeError) {
          return e;
        }
        return new RequestError("network", method, path, `the connection failed: ${e.message}`, { cause: e });
      };
      req.on("error", (e) => {
        clear();
        if (res === undefined) reject(failure(e));
      });
      req.on("response", (r) => {
        res = r;
        clearTimeout(headerTimer);
        r.on("close", clear);
        if (options.onWarning !== undefined) {
          for (const w of warningsOf(r.rawHeaders)) {
            try {
              options.onWarning(w);
            } catch {
              // A warning handler's failure is its own: the request goes on.
            }
          }
        }
        resolve({
          res: r,
          failure,
          get aborted() {
            return cut?.code === "aborted";
          },
        });
      });
      req.end(x.body);
    });

  const open = async (x: Exchange, headerMs: number, deadlineMs?: number): Promise<Opened> => {
    const token = await currentToken(credentials);
    const opened = await attempt(x, token, headerMs, deadlineMs);
    if (opened.res.statusCode !== 401 || credentials.tokenFile === undefined) return opened;
    // The token may have rotated since it was read: read the file now, and if it holds another
    // token, send the request once more with it.
    let fresh: string | undefined;
    try {
      fresh = await currentToken(credentials, { reread: true });
    } catch (e) {
      opened.res.destroy();
      throw e;
    }
    if (fresh === token) return opened;
    opened.res.resume();
    return attempt(x, fresh, headerMs, deadlineMs);
  };

  const read = async (opened: Opened, method: string, path: string): Promise<Buffer> => {
    const { res } = opened;
    const declared = Number(res.headers["content-length"]);
    if (Number.isFinite(declared) && declared > max) {
      res.destroy();
      throw new RequestError("too-large", method, path, `the answer is ${declared} bytes, over the ${max}-byte limit`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > max) {
          res.destroy();
          throw new RequestError("too-large", method, path, `the answer is over the ${max}-byte limit`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      throw opened.failure(e);
    }
    return Buffer.concat(chunks, size);
  };

  return {
    open,
    read,
    async send(x, timeoutMs) {
      const opened = await open(x, timeoutMs, timeoutMs);
      const body = await read(opened, x.method, x.path);
      const { res } = opened;
      const type = res.headers["content-type"];
      return {
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? "",
        contentType: typeof type === "string" ? type : "",
        headers: res.headers,
        body,
      };
    },
    close() {
      agent.closed = true;
      for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
    },
  };
}

/** The server's URL without trailing slashes; a CredentialsError when it is not https://. */
function serverBase(credentials: ClusterCredentials): string {
  let url: URL;
  try {
    url = new URL(credentials.server);
  } catch {
    throw new CredentialsError(`${credentials.source}: the server ${JSON.stringify(credentials.server)} is not a URL`);
  }
  if (url.protocol !== "https:") {
    throw new CredentialsError(
      `${credentials.source}: the server must be https://, got ${JSON.stringify(url.protocol)}`,
    );
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new CredentialsError(`${credentials.source}: the server URL must have no query, fragment or user`);
  }
  return credentials.server.replace(/\/+$/, "");
}

/**
 * The texts of the code-299 warnings in a response's Warning headers (`299 - "text"`, several
 * per header separated by commas), in order; other codes are skipped, and a header is read up
 * to the first thing that is not a warning.
 */
export function warningsOf(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let h = 0; h + 1 < rawHeaders.length; h += 2) {
    if (rawHeaders[h]?.toLowerCase() === "warning") out.push(...parseWarningHeader(rawHeaders[h + 1] ?? ""));
  }
  return out;
}

const WARNING_START = /[ \t,]*(\d{3}) ([^ \t",]+) "/y;

function parseWarningHeader(value: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    WARNING_START.lastIndex = i;
    const m = WARNING_START.exec(value);
    if (m === null) return out;
    i = WARNING_START.lastIndex;
    const quoted = readQuoted(value, i);
    if (quoted === undefined) return out;
    i = quoted.end;
    // An optional warn-date, quoted too.
    if (value.startsWith(' "', i)) {
      const date = readQuoted(value, i + 2);
      if (date === undefined) return out;
      i = date.end;
    }
    if (m[1] === "299") out.push(quoted.text);
  }
}

/** The quoted-string whose text starts at `i` (after the opening quote), and where it ends; undefined when unterminated. */
function readQuoted(value: string, start: number): { text: string; end: number } | undefined {
  let text = "";
  for (let i = start; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\" && i + 1 < value.length) {
      text += value[++i];
    } else if (c === '"') {
      return { text, end: i + 1 };
    } else {
      text += c;
    }
  }
  return undefined;
}
