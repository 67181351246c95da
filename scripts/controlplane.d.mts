/** Types for scripts/controlplane.mjs, which test/support/controlplane/start.ts re-exports. */
import type { IncomingHttpHeaders } from "node:http";

export declare const ROOT: string;
/** The Kubernetes releases that can be built, each with the etcd release it runs beside. */
export declare const VERSIONS: Readonly<
  Record<string, { readonly etcd: string; readonly apiserverFlags?: readonly string[] }>
>;
export declare const DEFAULT_VERSION: string;
export declare const BUILD_TAGS: string;

export interface BinaryPaths {
  readonly dir: string;
  readonly apiserver: string;
  /** kubectl of the same release, built from the same module. */
  readonly kubectl: string;
  readonly etcd: string;
}
export declare function binaryPaths(version?: string, root?: string): BinaryPaths;
export declare function isBuilt(version?: string, root?: string): boolean;
export declare function apiserverLdflags(version: string, gitCommit: string, buildDate: string): string;
/** Why Go cannot build the control plane here, or undefined when `go version` runs. */
export declare function missingGo(): string | undefined;
export declare function buildControlPlane(
  version?: string,
  options?: { root?: string; log?: (line: string) => void; force?: boolean },
): BinaryPaths;
export declare function freePort(): Promise<number>;

export interface StartOptions {
  /** A key of VERSIONS; DEFAULT_VERSION when absent. */
  version?: string;
  /** Build missing binaries first (minutes on a cold machine); otherwise a missing binary is an error. */
  build?: boolean;
  /** How long startup may take, up to a ready /readyz; 60 000 when absent. */
  timeoutMs?: number;
  /** Receives every line etcd and kube-apiserver write, prefixed with the process's name. */
  log?: (line: string) => void;
  /** The repository root (where .cache/ and conformance/ are); this checkout when absent. */
  root?: string;
  /**
   * More kube-apiserver flags, after the usual ones (a later flag wins), e.g.
   * `--watch-cache-sizes=ingresses.networking.k8s.io#0`.
   */
  apiserverFlags?: readonly string[];
}

export interface ControlPlane {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** A bearer token of a user in system:masters. */
  readonly token: string;
  /** The CA that signed the serving certificate. */
  readonly caPem: string;
  readonly kubeconfigPath: string;
  /** The gitVersion /version reports, e.g. "v1.35.4". */
  readonly version: string;
  /** From the start of etcd to a ready kube-apiserver. */
  readonly startupMs: number;
  readonly etcdUrl: string;
  /** The temporary folder (certificates, etcd data, kubeconfig); stop() removes it. */
  readonly dir: string;
  /** Stops kube-apiserver, then etcd, and removes the temporary folder. Idempotent. */
  stop(): Promise<void>;
}

export declare function startControlPlane(options?: StartOptions): Promise<ControlPlane>;

export interface ApiResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}
/** One request with the bearer token; a body that is not a string is sent as JSON. */
export declare function apiRequest(
  plane: Pick<ControlPlane, "url" | "token" | "caPem">,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<ApiResponse>;
