// One GET to the API server over node:https, with the credentials' TLS and
// bearer token, and a timeout: the response headers must come within
// `timeoutMs`, and the whole exchange must end within `deadlineMs` (a watch's
// server-side timeout plus a margin). The token is sent, never logged.

import type { IncomingMessage } from "node:http";
import * as https from "node:https";
import { currentToken, type ClusterCredentials } from "../../../client/index.js";

export interface ApiGetOptions {
  readonly accept: string;
  /** Until the response headers arrive, in ms. */
  readonly timeoutMs: number;
  /** Until the response ends, in ms; the response is destroyed then. */
  readonly deadlineMs: number;
  readonly signal: AbortSignal;
}

/** A failed request: the status (0 for a network error or timeout) and a message without secrets. */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Starts a GET; resolves with the response once its headers arrive (any status). A 401 makes it
 * read the token file again at once (the token is otherwise reused for a minute) and, when the
 * token has changed, send the GET once more.
 */
export async function apiGet(
  credentials: ClusterCredentials,
  pathAndQuery: string,
  options: ApiGetOptions,
): Promise<IncomingMessage> {
  const token = await currentToken(credentials);
  const res = await getWith(credentials, pathAndQuery, options, token);
  if (res.statusCode !== 401 || credentials.tokenFile === undefined) return res;
  const fresh = await currentToken(credentials, { reread: true }).catch((e: unknown) => {
    res.destroy();
    throw e;
  });
  if (fresh === token) return res;
  res.resume();
  return getWith(credentials, pathAndQuery, options, fresh);
}

function getWith(
  credentials: ClusterCredentials,
  pathAndQuery: string,
  options: ApiGetOptions,
  token: string | undefined,
): Promise<IncomingMessage> {
  const url = new URL(credentials.server + pathAndQuery);
  return new Promise<IncomingMessage>((resolvePromise, reject) => {
    const headers: Record<string, string> = { accept: options.accept, "user-agent": "clusterwire-webhook" };
    if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
    const req = https.request(url, {
      method: "GET",
      headers,
      ...(credentials.ca === undefined ? {} : { ca: credentials.ca }),
      ...(credentials.cert === undefined ? {} : { cert: credentials.cert }),
      ...(credentials.key === undefined ? {} : { key: credentials.key }),
      ...(credentials.tlsServerName === undefined ? {} : { servername: credentials.tlsServerName }),
      rejectUnauthorized: credentials.insecureSkipTlsVerify !== true,
      agent: false,
      signal: options.signal,
    });
    const where = `GET ${url.pathname}`;
    let answered = false;
    const headerTimer = setTimeout(() => {
      req.destroy(new ApiRequestError(0, `${where}: no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const deadline = setTimeout(() => {
      req.destroy(new ApiRequestError(0, `${where}: not finished within ${options.deadlineMs} ms`));
    }, options.deadlineMs);
    const clear = (): void => {
      clearTimeout(headerTimer);
      clearTimeout(deadline);
    };
    req.on("error", (e) => {
      clear();
      if (!answered) reject(e instanceof ApiRequestError ? e : new ApiRequestError(0, `${where}: ${e.message}`));
    });
    req.on("response", (res) => {
      answered = true;
      clearTimeout(headerTimer);
      res.on("close", clear);
      resolvePromise(res);
    });
    req.end();
  });
}

/** Reads a whole response body, refusing one larger than `max` bytes. */
export async function readResponse(res: IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      res.destroy();
      throw new ApiRequestError(res.statusCode ?? 0, `the response is larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
