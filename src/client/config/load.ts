// Finding credentials the way kubectl users expect: a kubeconfig named by the caller, else the
// first file of $KUBECONFIG that exists, else ~/.kube/config, else the pod's service account.

import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { type ClusterCredentials, CredentialsError } from "./credentials.js";
import { inClusterCredentials, SERVICE_ACCOUNT_DIR } from "./in-cluster.js";
import { kubeconfigCredentials } from "./kubeconfig.js";

/**
 * Options of {@link loadCredentials}.
 *
 * @example
 * ```ts
 * import { type LoadCredentialsOptions, loadCredentials } from "clusterwire/client";
 *
 * const options: LoadCredentialsOptions = { kubeconfig: "kubeconfig.yaml", context: "staging" };
 * const credentials = await loadCredentials(options);
 * ```
 */
export interface LoadCredentialsOptions {
  /** This kubeconfig file and no other (it must exist); default: look for one. */
  readonly kubeconfig?: string;
  /** The kubeconfig context to use; default the file's `current-context`. */
  readonly context?: string;
  /** Where KUBECONFIG, HOME and KUBERNETES_SERVICE_HOST/_PORT are read; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the service account is mounted, for the in-cluster fallback; default the kubelet's place. */
  readonly serviceAccountDir?: string;
}

/**
 * Credentials from the first place that has some: `options.kubeconfig`; else the first file
 * named in `$KUBECONFIG` (separated by `:`, `;` on Windows) that exists; else `~/.kube/config`
 * if it exists; else the pod's service account ({@link inClusterCredentials}). Unlike kubectl,
 * several kubeconfig files are not merged: the first one found is read alone. Rejects with a
 * {@link CredentialsError} saying where it looked.
 *
 * @example
 * ```ts
 * import { createClient, loadCredentials } from "clusterwire/client";
 *
 * const client = createClient({ credentials: await loadCredentials() });
 * const { items } = await client.ingresses.listAll();
 * console.log(items.map((i) => i.metadata?.name));
 * client.close();
 * ```
 */
export async function loadCredentials(options: LoadCredentialsOptions = {}): Promise<ClusterCredentials> {
  const env = options.env ?? process.env;
  const context = options.context === undefined ? {} : { context: options.context };
  if (options.kubeconfig !== undefined) return kubeconfigCredentials(options.kubeconfig, context);
  const tried: string[] = [];
  const listed = (env["KUBECONFIG"] ?? "").split(delimiter).filter((f) => f !== "");
  for (const file of listed) {
    if (await exists(file)) return kubeconfigCredentials(file, context);
  }
  if (listed.length > 0) tried.push(`no file of KUBECONFIG exists (${listed.join(delimiter)})`);
  const home = env["HOME"] ?? homedir();
  const file = join(home, ".kube", "config");
  if (await exists(file)) return kubeconfigCredentials(file, context);
  tried.push(`${file} does not exist`);
  if (options.context !== undefined) {
    throw new CredentialsError(
      `context ${JSON.stringify(options.context)} was asked for, but no kubeconfig file was found: ${tried.join("; ")}`,
    );
  }
  try {
    return await inClusterCredentials(env, options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR);
  } catch (e) {
    if (!(e instanceof CredentialsError)) throw e;
    throw new CredentialsError(`no credentials found: ${tried.join("; ")}; ${e.message}`);
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
