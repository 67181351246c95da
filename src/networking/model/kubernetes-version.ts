// The Kubernetes releases whose API server validation clusterwire reproduces, each checked
// against a real kube-apiserver of that release (see docs/conformance.md).

/**
 * The releases clusterwire validates as: `validate(obj, { version })`, and
 * `--kubernetes-version` in the CLI and the webhook.
 *
 * @example
 * ```ts
 * import { KUBERNETES_VERSIONS } from "clusterwire/networking";
 *
 * console.log(KUBERNETES_VERSIONS); // [ "1.35", "1.37" ]
 * ```
 */
export const KUBERNETES_VERSIONS = ["1.35", "1.37"] as const;

/**
 * One of {@link KUBERNETES_VERSIONS}.
 *
 * @example
 * ```ts
 * import type { KubernetesVersion } from "clusterwire/networking";
 *
 * const version: KubernetesVersion = "1.37";
 * ```
 */
export type KubernetesVersion = (typeof KUBERNETES_VERSIONS)[number];

/**
 * The release validation follows when none is named.
 *
 * @example
 * ```ts
 * import { DEFAULT_KUBERNETES_VERSION } from "clusterwire/networking";
 *
 * console.log(DEFAULT_KUBERNETES_VERSION); // "1.35"
 * ```
 */
export const DEFAULT_KUBERNETES_VERSION: KubernetesVersion = "1.35";

/**
 * Whether `v` names a release clusterwire validates as.
 *
 * @example
 * ```ts
 * import { isKubernetesVersion } from "clusterwire/networking";
 *
 * console.log(isKubernetesVersion("1.37"), isKubernetesVersion("1.36")); // true false
 * ```
 */
export function isKubernetesVersion(v: unknown): v is KubernetesVersion {
  return (KUBERNETES_VERSIONS as readonly unknown[]).includes(v);
}
