// The public shapes of the exposure (docs/connectivity.md): which workloads, on which container
// ports, Ingresses and NodePort or LoadBalancer Services make reachable from outside the cluster.

import type { Protocol } from "../../networking/index.js";
import type { SourcePlace, TopologyServicePort } from "../topology/types.js";

/**
 * A workload a Service sends traffic to, and the container port it arrives on.
 *
 * @example
 * ```ts
 * import type { ExposureTarget } from "clusterwire/connectivity";
 *
 * const text = (t: ExposureTarget) => `${t.workload}:${t.port ?? "?"}/${t.protocol}${t.problem ? ` (${t.problem})` : ""}`;
 * ```
 */
export interface ExposureTarget {
  /** The workload's key, `namespace/kind/name`. */
  readonly workload: string;
  /** The container port: the Service port's `targetPort` number, or the container port its name resolves to. Unset when the name does not resolve. */
  readonly port?: number;
  /** The Service port's protocol. */
  readonly protocol: Protocol;
  /** Set when the `targetPort` is a name the workload has no container port of (with that protocol). */
  readonly problem?: string;
}

/**
 * A path (or default backend) of an Ingress, the Service port it names, and the workloads behind it.
 *
 * @example
 * ```ts
 * import type { IngressExposure } from "clusterwire/connectivity";
 *
 * const where = (e: IngressExposure) => (e.rule === null ? `${e.ingress} (default backend)` : `${e.ingress} ${e.host ?? "*"}${e.path ?? "/"}`);
 * ```
 */
export interface IngressExposure {
  /** Always `"ingress"`. */
  readonly kind: "ingress";
  /** The Ingress, `namespace/name`. */
  readonly ingress: string;
  /** Where the Ingress was read. */
  readonly source: SourcePlace;
  /** The index of the rule in `spec.rules`; null for `spec.defaultBackend`. */
  readonly rule: number | null;
  /** The index of the path in the rule's `http.paths`; null for `spec.defaultBackend`. */
  readonly pathIndex: number | null;
  /** The rule's host as written (`*.example.com` included); null when the rule has none or for the default backend. */
  readonly host: string | null;
  /** The path as written (an empty ImplementationSpecific path is `/`); null for the default backend. */
  readonly path: string | null;
  /** `Exact`, `Prefix` or `ImplementationSpecific`; null for the default backend. */
  readonly pathType: string | null;
  /** The Service the backend names (in the Ingress's namespace), and its port as written; unset for a resource backend. */
  readonly backend?: { readonly namespace: string; readonly name: string; readonly port: number | string };
  /**
   * Whether the router sends some request here: a request for the path (and one below it, for a
   * prefix) on the rule's host, or for the default backend a request no path matches. False when
   * another Ingress's path wins every such request, or the Ingress is invalid.
   */
  readonly reachable: boolean;
  /** When not reachable: what serves those requests instead, or why the Ingress is left out. */
  readonly shadowedBy?: string;
  /** The Service port the backend names, when found. */
  readonly servicePort?: TopologyServicePort;
  /** The workloads the Service selects, in topology order, with their container ports. */
  readonly targets: readonly ExposureTarget[];
  /**
   * Why the backend reaches no workload, when it does not: a resource backend, no such Service,
   * no such port, an ExternalName Service, a Service without selector, or a selector that
   * matches no workload.
   */
  readonly problem?: string;
}

/**
 * A port of a NodePort or LoadBalancer Service, open to addresses outside the cluster, and the
 * workloads behind it.
 *
 * @example
 * ```ts
 * import type { ServiceExposure } from "clusterwire/connectivity";
 *
 * const text = (e: ServiceExposure) => `${e.type} ${e.service}:${e.port.port} -> ${e.targets.map((t) => t.workload).join(", ")}`;
 * ```
 */
export interface ServiceExposure {
  /** Always `"service"`. */
  readonly kind: "service";
  /** The Service, `namespace/name`. */
  readonly service: string;
  /** `NodePort` or `LoadBalancer`. */
  readonly type: string;
  /** Where the Service was read. */
  readonly source: SourcePlace;
  /** The exposed port. */
  readonly port: TopologyServicePort;
  /** The workloads the Service selects, with their container ports. */
  readonly targets: readonly ExposureTarget[];
  /** Why the port reaches no workload, when it does not (no selector, or a selector matching nothing). */
  readonly problem?: string;
}

/**
 * One way into the cluster from outside: an Ingress path, or a NodePort or LoadBalancer Service port.
 *
 * @example
 * ```ts
 * import type { Exposure } from "clusterwire/connectivity";
 *
 * const via = (e: Exposure) => (e.kind === "ingress" ? e.ingress : e.service);
 * ```
 */
export type Exposure = IngressExposure | ServiceExposure;
