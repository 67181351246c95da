import {
  DEFAULT_KUBERNETES_VERSION,
  isKubernetesVersion,
  KUBERNETES_VERSIONS,
  type KubernetesVersion,
} from "../../networking/index.js";
import { usageError } from "./io.js";

// --kubernetes-version, as `clusterwire validate` and `clusterwire webhook serve` take it.

/** The option's help, its description starting at `column` (the command's option column). */
export function kubernetesVersionHelp(column: number): string {
  const pad = " ".repeat(column);
  return [
    "  --kubernetes-version V",
    `${pad}the release whose API server to follow: ${KUBERNETES_VERSIONS.join(" or ")}`,
    `${pad}(default ${DEFAULT_KUBERNETES_VERSION}; v1.37.2 names 1.37): its messages,`,
    `${pad}and the feature gates it turns on by default`,
  ].join("\n");
}

/** 1.37, v1.37 or v1.37.2 (a release's minor version); undefined when the option is not given. */
export function parseKubernetesVersion(value: string | undefined, command: string): KubernetesVersion | undefined {
  if (value === undefined) return undefined;
  const minor = /^v?(\d+\.\d+)(?:\.\d+)?$/.exec(value)?.[1];
  if (isKubernetesVersion(minor)) return minor;
  throw usageError(
    `--kubernetes-version must be one of ${KUBERNETES_VERSIONS.join(", ")} (or v1.X.Y of those), got ${JSON.stringify(value)}`,
    command,
  );
}
