// What a client needs to reach and authenticate to an API server, and the bearer
// token to send now. Tokens and keys are held as data and never put in messages
// or logs. Where credentials come from: kubeconfig.ts, in-cluster.ts, load.ts.

import { readFile } from "node:fs/promises";

/**
 * How long a token read from `tokenFile` is used before the file is read again, by default: one
 * minute, as Kubernetes' Go client. A 401 answer makes the client read the file again at once.
 *
 * @example
 * ```ts
 * import { DEFAULT_TOKEN_REFRESH_MS, inClusterCredentials } from "clusterwire/client";
 *
 * const credentials = { ...(await inClusterCredentials()), tokenRefreshMs: DEFAULT_TOKEN_REFRESH_MS / 2 };
 * ```
 */
export const DEFAULT_TOKEN_REFRESH_MS = 60_000;

/**
 * How to reach and authenticate to an API server: what `createClient` (and the ingress-capture
 * guard's watch) uses. Build one by hand, or load it with `kubeconfigCredentials`,
 * `inClusterCredentials` or `loadCredentials`.
 *
 * @example
 * ```ts
 * import { type ClusterCredentials, kubeconfigCredentials } from "clusterwire/client";
 *
 * const credentials: ClusterCredentials = await kubeconfigCredentials(`${process.env["HOME"]}/.kube/config`);
 * console.log(credentials.server, credentials.source);
 * ```
 */
export interface ClusterCredentials {
  /** The API server's base URL, e.g. https://10.96.0.1:443 (a path prefix is kept). */
  readonly server: string;
  /** PEM of the CAs trusted for the API server; default: Node's own roots. */
  readonly ca?: Buffer;
  /** Client certificate and key (PEM), for certificate authentication. */
  readonly cert?: Buffer;
  /** The client certificate's private key (PEM), with `cert`. */
  readonly key?: Buffer;
  /** A bearer token that does not change. */
  readonly token?: string;
  /**
   * A file holding the bearer token, as bound service-account tokens rotate: read again every
   * `tokenRefreshMs`, and at once after a 401. It wins over `token` when it holds one.
   */
  readonly tokenFile?: string;
  /** How long a token read from `tokenFile` is reused, in ms; default {@link DEFAULT_TOKEN_REFRESH_MS}; 0 reads it for every request. */
  readonly tokenRefreshMs?: number;
  /** Do not check the API server's certificate (as kubeconfig's `insecure-skip-tls-verify`). */
  readonly insecureSkipTlsVerify?: boolean;
  /** The name to check the server's certificate against, when it differs from the URL's host. */
  readonly tlsServerName?: string;
  /** Where they came from, for messages: "in-cluster service account" or `kubeconfig FILE, context NAME`. */
  readonly source: string;
}

/**
 * Why credentials could not be loaded or used: names the file or variable and what is missing or
 * wrong, never a token or key.
 *
 * @example
 * ```ts
 * import { CredentialsError, inClusterCredentials, kubeconfigCredentials } from "clusterwire/client";
 *
 * const credentials = await inClusterCredentials().catch((e: unknown) => {
 *   if (e instanceof CredentialsError) return kubeconfigCredentials("kubeconfig.yaml");
 *   throw e;
 * });
 * ```
 */
export class CredentialsError extends Error {
  /** Always `"CredentialsError"`. */
  override readonly name = "CredentialsError";
}

/** A token read from a file: when, and the read itself while it is under way (so concurrent requests share it). */
interface CachedToken {
  readonly readAt: number;
  readonly token: Promise<string>;
}

/** Per token file path: the last read. Shared by every client, as the file is the same. */
const tokenCache = new Map<string, CachedToken>();

/**
 * Options of {@link currentToken}.
 *
 * @example
 * ```ts
 * import { type CurrentTokenOptions, currentToken, inClusterCredentials } from "clusterwire/client";
 *
 * const options: CurrentTokenOptions = { reread: true };
 * const token = await currentToken(await inClusterCredentials(), options);
 * ```
 */
export interface CurrentTokenOptions {
  /** Read the token file now, whatever the cache holds (as after a 401). */
  readonly reread?: boolean;
}

/**
 * The bearer token to send now: the token file's content (trimmed; read again once it is
 * `tokenRefreshMs` old), else the static token, else undefined. Rejects with a
 * {@link CredentialsError} when the token file cannot be read.
 *
 * @example
 * ```ts
 * import { currentToken, kubeconfigCredentials } from "clusterwire/client";
 *
 * const credentials = await kubeconfigCredentials("kubeconfig.yaml");
 * const token = await currentToken(credentials);
 * const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
 * ```
 */
export async function currentToken(
  credentials: ClusterCredentials,
  options: CurrentTokenOptions = {},
): Promise<string | undefined> {
  const file = credentials.tokenFile;
  if (file !== undefined) {
    const refreshMs = credentials.tokenRefreshMs ?? DEFAULT_TOKEN_REFRESH_MS;
    const now = Date.now();
    let cached = tokenCache.get(file);
    if (cached === undefined || options.reread === true || !(now - cached.readAt < refreshMs)) {
      const read = readFile(file, "utf8").then(
        (text) => text.trim(),
        (e: unknown) => {
          // A failed read is not kept: the next request tries again.
          if (tokenCache.get(file) === entry) tokenCache.delete(file);
          throw new CredentialsError(`${credentials.source}: cannot read the token file ${file}: ${errno(e)}`);
        },
      );
      const entry: CachedToken = { readAt: now, token: read };
      tokenCache.set(file, entry);
      cached = entry;
    }
    const token = await cached.token;
    if (token !== "") return token;
  }
  return credentials.token;
}

/** A file error as a short phrase: "no such file", "permission denied", or the error's message. */
export function errno(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return e instanceof Error ? e.message : String(e);
}
