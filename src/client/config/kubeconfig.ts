// Credentials from a kubeconfig file: one context's cluster and user. The file is read as
// Kubernetes' Go client reads it (YAML to JSON, duplicate keys allowed); secrets in it never
// reach a message.

import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { DecodeError, parseYamlDocuments } from "../../networking/index.js";
import { type ClusterCredentials, CredentialsError, errno } from "./credentials.js";

/**
 * Options of {@link kubeconfigCredentials}.
 *
 * @example
 * ```ts
 * import { type KubeconfigOptions, kubeconfigCredentials } from "clusterwire/client";
 *
 * const options: KubeconfigOptions = { context: "staging" };
 * const credentials = await kubeconfigCredentials("kubeconfig.yaml", options);
 * ```
 */
export interface KubeconfigOptions {
  /** The context to use; default the file's `current-context`. */
  readonly context?: string;
}

type J = Record<string, unknown>;

/**
 * One context of a kubeconfig file (its `current-context` unless `options.context` names
 * another): its cluster's server, certificate-authority(-data), insecure-skip-tls-verify and
 * tls-server-name, and its user's client-certificate(-data), client-key(-data), token and
 * tokenFile. Relative paths are read from the file's folder. Exec and auth-provider plugins, and
 * a cluster's proxy-url, are not supported: a {@link CredentialsError} says so.
 *
 * @example
 * ```ts
 * import { kubeconfigCredentials } from "clusterwire/client";
 *
 * const credentials = await kubeconfigCredentials(`${process.env["HOME"]}/.kube/config`);
 * const staging = await kubeconfigCredentials(`${process.env["HOME"]}/.kube/config`, { context: "staging" });
 * ```
 */
export async function kubeconfigCredentials(
  file: string,
  options: KubeconfigOptions = {},
): Promise<ClusterCredentials> {
  const text = await readFile(file, "utf8").catch((e: unknown) => {
    throw new CredentialsError(`kubeconfig ${file}: cannot read: ${errno(e)}`);
  });
  const fail = (what: string): CredentialsError => new CredentialsError(`kubeconfig ${file}: ${what}`);
  let doc: unknown;
  try {
    // Kubernetes' Go client reads a kubeconfig as YAML turned into JSON, the whole file at once.
    doc = parseYamlDocuments(text, { uniqueKeys: false, reading: "server" })[0] ?? null;
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    // A reason may quote a scalar (`cannot decode !!str \`...\``), which could be a token: never print it.
    const reason = e.reason.replace(/`[^`]*`/g, "`...`");
    throw fail(`not YAML: line ${e.line ?? 1}, column ${e.column ?? 1}: ${reason}`);
  }
  if (!isObject(doc)) throw fail("must be a mapping (a Config)");
  let current: string;
  if (options.context !== undefined) {
    if (options.context === "") throw fail("the context to use is empty");
    current = options.context;
  } else {
    const named = doc["current-context"];
    if (typeof named !== "string" || named === "") throw fail("current-context is not set");
    current = named;
  }
  const context = entry(doc, "contexts", current, "context", fail);
  const clusterName = context["cluster"];
  if (typeof clusterName !== "string" || clusterName === "") {
    throw fail(`context ${JSON.stringify(current)} names no cluster`);
  }
  const cluster = entry(doc, "clusters", clusterName, "cluster", fail);
  const userName = context["user"];
  const user = typeof userName === "string" && userName !== "" ? entry(doc, "users", userName, "user", fail) : {};
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

/** The `member` of the entry of `doc[list]` named `name`: `contexts[name].context`, and so on. */
function entry(doc: J, list: string, name: string, member: string, fail: (what: string) => Error): J {
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
