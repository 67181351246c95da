// A keep-alive HTTPS client for the campaign's requests to kube-apiserver: the bearer token, the
// CA, bounded time and size, and every Warning header kept apart (node joins repeated headers).
import { Agent, request } from "node:https";

/** Where the API server is and how to reach it, as startControlPlane() gives it. */
export interface ServerAccess {
  readonly url: string;
  readonly token: string;
  readonly caPem: string;
}

/** One answer: the status code, the Content-Type, each Warning header's text, and the body bytes. */
export interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly warnings: readonly string[];
  readonly body: Uint8Array;
}

/** Per request: no answer in this long is an error (the server runs on loopback). */
const REQUEST_TIMEOUT_MS = 30_000;
/** No networking object the campaign sends comes back anywhere near this size. */
const MAX_ANSWER_BYTES = 16 << 20;

/** A client with one keep-alive agent; close() ends its sockets. */
export class ApiClient {
  readonly #agent: Agent;
  readonly #url: URL;
  readonly #token: string;

  constructor(access: ServerAccess, maxSockets = 16) {
    this.#url = new URL(access.url);
    this.#token = access.token;
    this.#agent = new Agent({ keepAlive: true, maxSockets, ca: access.caPem });
  }

  send(
    method: string,
    path: string,
    body: Uint8Array | string | undefined,
    contentType: string,
    accept: string,
  ): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {
        authorization: `Bearer ${this.#token}`,
        accept,
        "user-agent": USER_AGENT,
      };
      if (body !== undefined) {
        headers["content-type"] = contentType;
        headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
      }
      const req = request(
        {
          hostname: this.#url.hostname,
          port: this.#url.port,
          path,
          method,
          agent: this.#agent,
          headers,
          timeout: REQUEST_TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER_BYTES) {
              req.destroy(new Error(`${method} ${path}: answer larger than ${MAX_ANSWER_BYTES} bytes`));
              return;
            }
            chunks.push(c);
          });
          res.on("error", reject);
          res.on("end", () => {
            const warnings: string[] = [];
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
              if (res.rawHeaders[i]!.toLowerCase() === "warning")
                warnings.push(...parseWarningHeader(res.rawHeaders[i + 1]!));
            }
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers["content-type"] ?? "",
              warnings,
              body: new Uint8Array(Buffer.concat(chunks)),
            });
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer in ${REQUEST_TIMEOUT_MS} ms`)));
      req.on("error", reject);
      req.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/**
 * The User-Agent the campaign sends. The API server names the field manager of an Update after
 * it (up to the first "/"), so managedFields[].manager is predictable.
 */
export const USER_AGENT = "clusterwire-conformance/1";
export const FIELD_MANAGER = "clusterwire-conformance";

/**
 * The texts of one Warning header value: `299 - "text"`, several joined by commas, with `\"` and
 * `\\` escaped inside the quotes (RFC 7234 §5.5, as the API server writes them).
 */
export function parseWarningHeader(value: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < value.length) {
    const open = value.indexOf('"', i);
    if (open < 0) break;
    let text = "";
    let j = open + 1;
    for (; j < value.length && value[j] !== '"'; j++) {
      if (value[j] === "\\" && j + 1 < value.length) j++;
      text += value[j];
    }
    out.push(text);
    i = j + 1;
  }
  return out;
}
