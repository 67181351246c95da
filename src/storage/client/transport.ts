// The transport under StorageClient: the minimal slice of `fetch` it uses, a `node:https` /
// `node:http` implementation of that slice for TLS options (`ca`, `rejectUnauthorized`), and the
// multipart/form-data encoder for the software upload.
//
// Why an adapter: Node 20's global fetch takes TLS options only through an undici `Agent`
// passed as `dispatcher`, and undici is not importable without a dependency (only its types
// ship with @types/node). So when the caller gives `tls` options the client uses this adapter;
// otherwise it uses the global fetch (or the caller's).

import * as http from "node:http";
import * as https from "node:https";
import { randomBytes } from "node:crypto";

/**
 * The request side of the fetch slice the client uses.
 *
 * @example
 * ```ts
 * import { type FetchInit, type FetchLike, type FetchResponse, StorageClient } from "clusterwire/storage";
 *
 * // A fetch that logs each call, then hands it to the global fetch.
 * const logged: FetchLike = async (url: string, init: FetchInit): Promise<FetchResponse> => {
 *   console.log(init.method, url);
 *   return fetch(url, init);
 * };
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", fetch: logged });
 * ```
 */
export interface FetchInit {
  /** The HTTP method. */
  readonly method: string;
  /** The request headers, Authorization included. */
  readonly headers: Record<string, string>;
  /** The request body, if any. */
  readonly body?: string | Uint8Array;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
  /** Always `"manual"`: the client never follows redirects (they would carry the credentials elsewhere). */
  readonly redirect?: "manual";
}

/**
 * The response side of the fetch slice the client uses (the global `Response` satisfies it).
 *
 * @example
 * ```ts
 * import { type FetchInit, type FetchLike, type FetchResponse, StorageClient } from "clusterwire/storage";
 *
 * // A fetch that logs each call, then hands it to the global fetch.
 * const logged: FetchLike = async (url: string, init: FetchInit): Promise<FetchResponse> => {
 *   console.log(init.method, url);
 *   return fetch(url, init);
 * };
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", fetch: logged });
 * ```
 */
export interface FetchResponse {
  /** The HTTP status code. */
  readonly status: number;
  /** The HTTP status text. */
  readonly statusText: string;
  /** The response headers. */
  readonly headers: { get(name: string): string | null };
  /**
   * The body as a stream of byte chunks (the global `Response.body` is one). When present the
   * client reads it chunk by chunk and stops at `maxResponseBytes`; otherwise it uses `text()`.
   */
  readonly body?: AsyncIterable<Uint8Array> | null;
  /** Reads the whole body as text. */
  text(): Promise<string>;
}

/**
 * A fetch-compatible function. The global `fetch` is one.
 *
 * @example
 * ```ts
 * import { type FetchInit, type FetchLike, type FetchResponse, StorageClient } from "clusterwire/storage";
 *
 * // A fetch that logs each call, then hands it to the global fetch.
 * const logged: FetchLike = async (url: string, init: FetchInit): Promise<FetchResponse> => {
 *   console.log(init.method, url);
 *   return fetch(url, init);
 * };
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", fetch: logged });
 * ```
 */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/**
 * TLS options of the built-in transport.
 *
 * @example
 * ```ts
 * import { StorageClient } from "clusterwire/storage";
 *
 * const client = new StorageClient({
 *   baseUrl: "https://cluster.example.com",
 *   username: "admin",
 *   password: "secret",
 *   tls: { ca: process.env["CLUSTER_CA_PEM"] ?? "" },
 * });
 * ```
 */
export interface ClientTlsOptions {
  /** Default true. False accepts any server certificate (test clusters with self-signed certs). */
  readonly rejectUnauthorized?: boolean;
  /** Trusted CA certificate(s), PEM. Replaces the default trust store, as in `tls.connect`. */
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[];
}

/** A `FetchLike` over `node:https` / `node:http` honouring `tls`. One keep-alive agent per adapter. */
export function createNodeFetch(tls: ClientTlsOptions): FetchLike & { close(): void } {
  const ca =
    tls.ca === undefined
      ? undefined
      : (Array.isArray(tls.ca) ? (tls.ca as readonly (string | Uint8Array)[]) : [tls.ca as string | Uint8Array]).map(
          (c) => (typeof c === "string" ? c : Buffer.from(c)),
        );
  const httpsAgent = new https.Agent({
    keepAlive: true,
    ...(ca === undefined ? {} : { ca }),
    rejectUnauthorized: tls.rejectUnauthorized ?? true,
  });
  const httpAgent = new http.Agent({ keepAlive: true });

  const fetchLike = (url: string, init: FetchInit): Promise<FetchResponse> =>
    new Promise<FetchResponse>((resolve, reject) => {
      const target = new URL(url);
      const isHttps = target.protocol === "https:";
      if (!isHttps && target.protocol !== "http:") {
        reject(new TypeError(`unsupported protocol ${target.protocol}`));
        return;
      }
      const signal = init.signal;
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      const body =
        init.body === undefined
          ? undefined
          : typeof init.body === "string"
            ? Buffer.from(init.body, "utf8")
            : init.body;
      const headers: Record<string, string> = { ...init.headers };
      if (body !== undefined) headers["content-length"] = String(body.byteLength);
      const options: https.RequestOptions = {
        method: init.method,
        protocol: target.protocol,
        hostname: target.hostname.startsWith("[") ? target.hostname.slice(1, -1) : target.hostname,
        port: target.port === "" ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        headers,
        agent: isHttps ? httpsAgent : httpAgent,
      };
      let response: http.IncomingMessage | undefined;
      // Resolves at the headers, like fetch: the caller streams the body (and can stop reading
      // an oversized one); an abort destroys it mid-way.
      const req = (isHttps ? https : http).request(options, (res) => {
        response = res;
        res.once("close", () => signal?.removeEventListener("abort", onAbort));
        const rawHeaders = res.headers;
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? "",
          headers: {
            get(name: string): string | null {
              const v = rawHeaders[name.toLowerCase()];
              return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
            },
          },
          body: res,
          text: async () => {
            const chunks: Buffer[] = [];
            for await (const c of res) chunks.push(c as Buffer);
            return Buffer.concat(chunks).toString("utf8");
          },
        });
      });
      function fail(err: unknown): void {
        signal?.removeEventListener("abort", onAbort);
        reject(err);
      }
      function onAbort(): void {
        const reason: unknown = signal?.reason;
        req.destroy();
        response?.destroy(reason instanceof Error ? reason : new Error("aborted"));
        fail(reason);
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      req.on("error", fail);
      if (body !== undefined) req.write(body);
      req.end();
    });
  return Object.assign(fetchLike, {
    close(): void {
      httpsAgent.destroy();
      httpAgent.destroy();
    },
  });
}

/** One file part of a multipart/form-data body. */
export interface MultipartFile {
  /** The form field name (the software upload uses `file`). */
  readonly field: string;
  readonly filename: string;
  readonly contentType?: string;
  readonly data: Uint8Array;
}

/**
 * Encodes a multipart/form-data body with one or more file parts (RFC 7578). The filename is
 * quoted with `"`, CR and LF percent-encoded, as browsers do.
 */
export function encodeMultipart(files: readonly MultipartFile[]): {
  readonly body: Uint8Array;
  readonly contentType: string;
} {
  const boundary = `----clusterwire-${randomBytes(12).toString("hex")}`;
  const parts: Buffer[] = [];
  const quote = (s: string): string => s.replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/"/g, "%22");
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\n` +
          `Content-Disposition: form-data; name="${quote(f.field)}"; filename="${quote(f.filename)}"\r\n` +
          `Content-Type: ${f.contentType ?? "application/octet-stream"}\r\n\r\n`,
        "utf8",
      ),
    );
    parts.push(Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength));
    parts.push(Buffer.from("\r\n", "utf8"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, "utf8"));
  const body = Buffer.concat(parts);
  return {
    body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
