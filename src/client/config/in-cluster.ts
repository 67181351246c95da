// Credentials of the pod's service account, as the kubelet mounts them.

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type ClusterCredentials, CredentialsError, errno } from "./credentials.js";

/**
 * Where the kubelet mounts a pod's service account token, CA and namespace.
 *
 * @example
 * ```ts
 * import { SERVICE_ACCOUNT_DIR, inClusterCredentials } from "clusterwire/client";
 *
 * const credentials = await inClusterCredentials(process.env, SERVICE_ACCOUNT_DIR);
 * ```
 */
export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * The pod's service account: KUBERNETES_SERVICE_HOST and _PORT, and the token and ca.crt under
 * `dir`. The token file must exist now; as bound tokens rotate, it is read again every
 * `tokenRefreshMs` (one minute) and after a 401. Rejects with a {@link CredentialsError} naming
 * what is missing.
 *
 * @example
 * ```ts
 * import { inClusterCredentials } from "clusterwire/client";
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
