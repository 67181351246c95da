// How the webhook reaches the API server: in-cluster service-account
// credentials, or a kubeconfig file's current context. Tokens and keys are
// held as data and never put in messages or logs.

import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { DecodeError, parseYamlDocuments } from "../../../networking/index.js";

/** The service account's mounted files, as the kubelet projects them. */
export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * How to reach and authenticate to an API server: what the ingress-capture guard's watch uses.
 *
 * @example
 * ```ts
 * import { type ClusterCredentials, kubeconfigCredentials } from "clusterwire/admission/server";
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
  /** A file holding the bearer token, read again for every request, as bound tokens rotate. */
  readonly tokenFile?: string;
  /** Do not check the API server's certificate (as kubeconfig's `insecure-skip-tls-verify`). */
  readonly insecureSkipTlsVerify?: boolean;
  /** The name to check the server's certificate against, when it differs from the URL's host. */
  readonly tlsServerName?: string;
  /** Where they came from, for messages: "in-cluster service account" or `kubeconfig FILE, context NAME`. */
  readonly source: string;
}

/**
 * Why credentials could not be loaded: names the file or variable and what is missing or wrong.
 *
 * @example
 * ```ts
 * import { CredentialsError, inClusterCredentials, kubeconfigCredentials } from "clusterwire/admission/server";
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

/**
 * The pod's service account: KUBERNETES_SERVICE_HOST and _PORT, and the token
 * and ca.crt under `dir`. The token file must exist now; it is read again for
 * every request.
 *
 * @example
 * ```ts
 * import { inClusterCredentials } from "clusterwire/admission/server";
 *
 * // In a pod with a service account token mounted:
 * const credentials = await inClusterCredentials();
 * ```
 */
export async function inClusterCredentials(
  env: NodeJS.ProcessEnv = process.env,
  dir: string = SERVICE_ACCOUNT_DIR,
): Promise<ClusterCredentials> {
  const host = env["KUBERNETES_SERVICE_HOST"];
  const port = env["KUBERNETES_SERVICE_PORT"];
  if (host === undefined || host === "" || port === undefined || port === "") {
    throw new CredentialsError(
      "not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not both set (give a kubeconfig file instead)",
    );
  }
  const tokenFile = resolve(dir, "token");
  const caFile = resolve(dir, "ca.crt");
  await readFile(tokenFile).catch((e: unknown) => {
    throw new CredentialsError(`in-cluster: cannot read the service account token ${tokenFile}: ${errno(e)}`);
  });
  const ca = await readFile(caFile).catch((e: unknown) => {
    throw new CredentialsError(`in-cluster: cannot read the service account CA ${caFile}: ${errno(e)}`);
  });
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return { server: `https://${hostPart}:${port}`, ca, tokenFile, source: "in-cluster service account" };
}

type J = Record<string, unknown>;

/**
 * The current context of a kubeconfig file: its cluster's server,
 * certificate-authority(-data), insecure-skip-tls-verify and tls-server-name,
 * and its user's client-certificate(-data), client-key(-data), token and
 * tokenFile. Relative paths are read from the file's folder. Exec and
 * auth-provider plugins are not supported.
 *
 * @example
 * ```ts
 * import { kubeconfigCredentials } from "clusterwire/admission/server";
 *
 * const credentials = await kubeconfigCredentials(`${process.env["HOME"]}/.kube/config`);
 * ```
 */
export async function kubeconfigCredentials(file: string): Promise<ClusterCredentials> {
  const text = await readFile(file, "utf8").catch((e: unknown) => {
    throw new CredentialsError(`kubeconfig ${file}: cannot read: ${errno(e)}`);
  });
  const fail = (what: string): CredentialsError => new CredentialsError(`kubeconfig ${file}: ${what}`);
  let doc: unknown;
  try {
    // client-go reads a kubeconfig with sigs.k8s.io/yaml: YAMLToJSON on the whole file.
    doc = parseYamlDocuments(text, { uniqueKeys: false, reading: "server" })[0] ?? null;
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    // A reason may quote a scalar (`cannot decode !!str \`...\``), which could be a token: never print it.
    const reason = e.reason.replace(/`[^`]*`/g, "`...`");
    throw fail(`not YAML: line ${e.line ?? 1}, column ${e.column ?? 1}: ${reason}`);
  }
  if (!isObject(doc)) throw fail("must be a mapping (a Config)");
  const current = doc["current-context"];
  if (typeof current !== "string" || current === "") throw fail("current-context is not set");
  const context = named(doc, "contexts", current, "context", fail);
  const clusterName = context["cluster"];
  if (typeof clusterName !== "string" || clusterName === "") {
    throw fail(`context ${JSON.stringify(current)} names no cluster`);
  }
  const cluster = named(doc, "clusters", clusterName, "cluster", fail);
  const userName = context["user"];
  const user = typeof userName === "string" && userName !== "" ? named(doc, "users", userName, "user", fail) : {};
  const server = cluster["server"];
  if (typeof server !== "string" || server === "") throw fail(`cluster ${JSON.stringify(clusterName)} has no server`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw fail(`cluster ${JSON.stringify(clusterName)}: server ${JSON.stringify(server)} is not a URL`);
  }
  if (url.protocol !== "https:") {
    throw fail(`cluster ${JSON.stringify(clusterName)}: server must be https://, got ${JSON.stringify(url.protocol)}`);
  }
  if (typeof cluster["proxy-url"] === "string" && cluster["proxy-url"] !== "") {
    throw fail(`cluster ${JSON.stringify(clusterName)}: proxy-url is not supported; reach the API server directly`);
  }
  if ("exec" in user || "auth-provider" in user) {
    throw fail(
      `user ${JSON.stringify(userName)}: exec and auth-provider plugins are not supported; use a token or a client certificate`,
    );
  }
  const base = dirname(resolve(file));
  const where = (kind: string, name: unknown): string => `${kind} ${JSON.stringify(name)}`;
  const material = async (from: J, key: string, owner: string): Promise<Buffer | undefined> => {
    const data = from[`${key}-data`];
    if (data !== undefined && data !== "") {
      if (typeof data !== "string" || !/^[A-Za-z0-9+/=\s]*$/.test(data)) {
        throw fail(`${owner}: ${key}-data must be base64`);
      }
      return Buffer.from(data, "base64");
    }
    const path = from[key];
    if (path === undefined || path === "") return undefined;
    if (typeof path !== "string") throw fail(`${owner}: ${key} must be a file name`);
    const full = isAbsolute(path) ? path : resolve(base, path);
    return readFile(full).catch((e: unknown) => {
      throw fail(`${owner}: cannot read ${key} ${full}: ${errno(e)}`);
    });
  };
  const clusterOwner = where("cluster", clusterName);
  const userOwner = where("user", userName);
  const ca = await material(cluster, "certificate-authority", clusterOwner);
  const cert = await material(user, "client-certificate", userOwner);
  const key = await material(user, "client-key", userOwner);
  if ((cert === undefined) !== (key === undefined)) {
    throw fail(`${userOwner}: client-certificate and client-key must be given together`);
  }
  const token = user["token"];
  if (token !== undefined && typeof token !== "string") throw fail(`${userOwner}: token must be a string`);
  const tokenFileRaw = user["tokenFile"];
  if (tokenFileRaw !== undefined && typeof tokenFileRaw !== "string") {
    throw fail(`${userOwner}: tokenFile must be a file name`);
  }
  const insecure = cluster["insecure-skip-tls-verify"];
  if (insecure !== undefined && typeof insecure !== "boolean") {
    throw fail(`${clusterOwner}: insecure-skip-tls-verify must be true or false`);
  }
  const serverName = cluster["tls-server-name"];
  return {
    server: server.replace(/\/+$/, ""),
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined || key === undefined ? {} : { cert, key }),
    ...(token === undefined || token === "" ? {} : { token }),
    ...(tokenFileRaw === undefined || tokenFileRaw === ""
      ? {}
      : { tokenFile: isAbsolute(tokenFileRaw) ? tokenFileRaw : resolve(base, tokenFileRaw) }),
    ...(insecure === true ? { insecureSkipTlsVerify: true } : {}),
    ...(typeof serverName === "string" && serverName !== "" ? { tlsServerName: serverName } : {}),
    source: `kubeconfig ${file}, context ${JSON.stringify(current)}`,
  };
}

/** The bearer token to send now: the file's current content, else the static token. */
export async function currentToken(c: ClusterCredentials): Promise<string | undefined> {
  if (c.tokenFile !== undefined) {
    const text = await readFile(c.tokenFile, "utf8").catch((e: unknown) => {
      throw new CredentialsError(`${c.source}: cannot read the token file ${c.tokenFile}: ${errno(e)}`);
    });
    const token = text.trim();
    if (token !== "") return token;
  }
  return c.token;
}

function named(doc: J, list: string, name: string, member: string, fail: (what: string) => Error): J {
  const items = doc[list];
  if (!Array.isArray(items)) throw fail(`${list} is missing; ${JSON.stringify(name)} cannot be found`);
  const item = items.find((i: unknown) => isObject(i) && i["name"] === name) as J | undefined;
  if (item === undefined) throw fail(`${list} has no entry named ${JSON.stringify(name)}`);
  const value = item[member];
  if (!isObject(value)) throw fail(`${list} entry ${JSON.stringify(name)} has no ${member}`);
  return value;
}

function isObject(v: unknown): v is J {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function errno(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return e instanceof Error ? e.message : String(e);
}
