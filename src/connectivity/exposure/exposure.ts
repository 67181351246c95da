// Which workloads Ingresses and NodePort/LoadBalancer Services expose: each Ingress backend
// through the router (which path really wins when Ingresses overlap), the Service it names, the
// workloads its selector matches, and the container port its targetPort reaches.

import {
  type ClusterWorkload,
  createRouter,
  formatFieldError,
  type Ingress,
  type IngressBackend,
  type Route,
  type Router,
} from "../../networking/index.js";
import type { Topology, TopologyService, TopologyServicePort } from "../topology/types.js";
import type { Exposure, ExposureTarget, IngressExposure, ServiceExposure } from "./types.js";

/** A path segment no rule is likely to name: the probe below a prefix path. */
const PROBE_SEGMENT = "clusterwire-probe";
/** A request path for the default backends: it matches what only a `/` prefix (or wider) matches. */
const UNMATCHED_PATH = `/${PROBE_SEGMENT}/unmatched`;

/**
 * The ways into the cluster from outside, in the topology's order: for each Ingress, its
 * `defaultBackend` and every path of every rule; then each port of each NodePort and
 * LoadBalancer Service. Each names the Service and the workloads (of the Service's namespace)
 * its selector matches, with the container port its `targetPort` reaches (a number as is, a
 * name resolved on the workload's container ports by name and protocol).
 *
 * Whether an Ingress path is `reachable` is the router's answer (`createRouter` of
 * clusterwire/networking, every valid Ingress in scope): one request for the path on the rule's
 * host (and one below it, for a prefix), kept when the router sends it to this path. A path
 * another Ingress wins says so in `shadowedBy`. A resource backend reaches no Service, and says so.
 *
 * @example
 * ```ts
 * import { exposedWorkloads, readTopology } from "clusterwire/connectivity";
 *
 * const text = `apiVersion: apps/v1
 * kind: Deployment
 * metadata: {name: web, namespace: shop}
 * spec:
 *   template:
 *     metadata: {labels: {app: web}}
 *     spec: {containers: [{name: web, ports: [{name: http, containerPort: 8080}]}]}
 * ---
 * apiVersion: v1
 * kind: Service
 * metadata: {name: web, namespace: shop}
 * spec: {selector: {app: web}, ports: [{port: 80, targetPort: http}]}
 * ---
 * apiVersion: networking.k8s.io/v1
 * kind: Ingress
 * metadata: {name: web, namespace: shop}
 * spec:
 *   rules:
 *   - host: shop.example.com
 *     http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
 * `;
 * for (const e of exposedWorkloads(readTopology([{ name: "shop.yaml", text }]))) {
 *   if (e.kind === "ingress") console.log(e.host, e.path, e.targets.map((t) => `${t.workload}:${t.port}`)); // shop.example.com / [ "shop/Deployment/web:8080" ]
 * }
 * ```
 */
export function exposedWorkloads(topology: Topology): Exposure[] {
  const services = new Map<string, TopologyService>();
  for (const s of topology.services) services.set(`${s.namespace}/${s.name}`, s);
  const workloads = topology.input.workloads;
  const out: Exposure[] = [];
  const ingresses = topology.ingresses.map((i) => i.ingress);
  const router = createRouter({ ingresses });
  const probes = new Probes(router, ingresses);
  topology.ingresses.forEach(({ ingress, source }, index) => {
    const namespace = ingress.metadata?.namespace ?? "";
    const key = `${namespace}/${ingress.metadata?.name ?? ""}`;
    const skipped = router.skipped.find((s) => s.kind === "Ingress" && s.index === index);
    const left =
      skipped === undefined ? undefined : `left out by the router: ${skipped.errors.map(formatFieldError).join("; ")}`;
    const spec = ingress.spec;
    const entry = (
      backend: IngressBackend | undefined,
      at: Pick<IngressExposure, "rule" | "pathIndex" | "host" | "path" | "pathType">,
      reach: { reachable: boolean; shadowedBy?: string },
    ): IngressExposure => {
      const resolved = resolveBackend(backend, namespace, services, workloads);
      return {
        kind: "ingress",
        ingress: key,
        source,
        ...at,
        ...resolved,
        reachable: left === undefined && reach.reachable,
        ...(left !== undefined
          ? { shadowedBy: left }
          : reach.shadowedBy !== undefined
            ? { shadowedBy: reach.shadowedBy }
            : {}),
      };
    };
    if (spec?.defaultBackend !== undefined) {
      out.push(
        entry(
          spec.defaultBackend,
          { rule: null, pathIndex: null, host: null, path: null, pathType: null },
          probes.defaultBackend(key),
        ),
      );
    }
    (spec?.rules ?? []).forEach((rule, r) => {
      (rule.ingressRuleValue?.http?.paths ?? []).forEach((p, i) => {
        const path = p.path === "" ? "/" : p.path;
        out.push(
          entry(
            p.backend,
            { rule: r, pathIndex: i, host: rule.host === "" ? null : rule.host, path, pathType: p.pathType },
            probes.path(key, r, i, rule.host, path, p.pathType),
          ),
        );
      });
    });
  });
  for (const service of topology.services) {
    if (service.type !== "NodePort" && service.type !== "LoadBalancer") continue;
    for (const port of service.ports) {
      const { targets, problem } = serviceTargets(service, port, workloads);
      const exposure: ServiceExposure = {
        kind: "service",
        service: `${service.namespace}/${service.name}`,
        type: service.type,
        source: service.source,
        port,
        targets,
        ...(problem !== undefined ? { problem } : {}),
      };
      out.push(exposure);
    }
  }
  return out;
}

/** The Service, port and workloads of an Ingress backend, or why there are none. */
function resolveBackend(
  backend: IngressBackend | undefined,
  namespace: string,
  services: ReadonlyMap<string, TopologyService>,
  workloads: readonly ClusterWorkload[],
): Pick<IngressExposure, "backend" | "servicePort" | "targets" | "problem"> {
  const service = backend?.service;
  if (service === undefined) {
    const r = backend?.resource;
    const what =
      r === undefined ? "no backend" : `a resource backend (${r.apiGroup ? `${r.apiGroup}/` : ""}${r.kind} ${r.name})`;
    return { targets: [], problem: `${what}: not a Service, so no workload is reached through it` };
  }
  const port: number | string = service.port?.number ? service.port.number : (service.port?.name ?? "");
  const named = { backend: { namespace, name: service.name, port } };
  const key = `${namespace}/${service.name}`;
  const found = services.get(key);
  if (found === undefined) return { ...named, targets: [], problem: `no Service ${key} in the manifests` };
  // An ExternalName Service needs no ports: what it names is outside, whichever port is asked for.
  if (found.type === "ExternalName") return { ...named, targets: [], problem: externalNameProblem(key) };
  const servicePort = found.ports.find((p) => (typeof port === "number" ? p.port === port : p.name === port));
  if (servicePort === undefined) {
    return {
      ...named,
      targets: [],
      problem: `Service ${key} has no port ${typeof port === "number" ? port : JSON.stringify(port)}`,
    };
  }
  const { targets, problem } = serviceTargets(found, servicePort, workloads);
  return { ...named, servicePort, targets, ...(problem !== undefined ? { problem } : {}) };
}

/** The workloads a Service port sends traffic to, with their container ports. */
function serviceTargets(
  service: TopologyService,
  port: TopologyServicePort,
  workloads: readonly ClusterWorkload[],
): { targets: ExposureTarget[]; problem?: string } {
  const key = `${service.namespace}/${service.name}`;
  const selector = service.selector;
  if (selector === undefined || Object.keys(selector).length === 0) {
    return { targets: [], problem: `Service ${key} has no selector: its endpoints are not chosen from workloads` };
  }
  const targets: ExposureTarget[] = [];
  for (const w of workloads) {
    if (w.namespace !== service.namespace || !selects(selector, w.labels ?? {})) continue;
    const workload = `${w.namespace}/${w.kind}/${w.name}`;
    if (typeof port.targetPort === "number") {
      targets.push({ workload, port: port.targetPort, protocol: port.protocol });
      continue;
    }
    const name = port.targetPort;
    const container = (w.ports ?? []).find((p) => p.name === name && (p.protocol ?? "TCP") === port.protocol);
    targets.push(
      container === undefined
        ? {
            workload,
            protocol: port.protocol,
            problem: `no container port named ${JSON.stringify(name)} (${port.protocol})`,
          }
        : { workload, port: container.containerPort, protocol: port.protocol },
    );
  }
  if (targets.length === 0) {
    const text = Object.entries(selector)
      .map(([k, v]) => `${k}=${v}`)
      .join(",");
    return { targets, problem: `the selector of Service ${key} (${text}) matches no workload in ${service.namespace}` };
  }
  return { targets };
}

function externalNameProblem(key: string): string {
  return `Service ${key} is an ExternalName Service: it names a host outside, not workloads`;
}

/** Whether every pair of the selector is among the labels. */
function selects(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(selector)) {
    if (!Object.hasOwn(labels, k) || labels[k] !== v) return false;
  }
  return true;
}

/** The router asked, one request at a time, which path or default backend serves what. */
class Probes {
  /** Precise hosts of every rule: a wildcard's probe host must not be one. */
  private readonly precise = new Set<string>();
  /** `namespace/name` of each Ingress whose default backend some request reaches. */
  private defaults: Map<string, Route> | undefined;

  constructor(
    private readonly router: Router,
    private readonly ingresses: readonly Ingress[],
  ) {
    for (const ing of ingresses) {
      for (const rule of ing.spec?.rules ?? [])
        if (rule.host !== "" && !rule.host.startsWith("*.")) this.precise.add(rule.host);
    }
  }

  /** A request host that the rule's host selects: itself, one label under a wildcard, or none for a rule without host. */
  private hostFor(host: string): string {
    if (!host.startsWith("*.")) return host;
    const suffix = host.slice(1);
    let label = PROBE_SEGMENT;
    for (let n = 1; this.precise.has(label + suffix); n++) label = `${PROBE_SEGMENT}-${n}`;
    return label + suffix;
  }

  path(
    ingress: string,
    rule: number,
    path: number,
    host: string,
    written: string,
    pathType: string,
  ): { reachable: boolean; shadowedBy?: string } {
    const requestHost = this.hostFor(host);
    const paths =
      pathType === "Exact"
        ? [written]
        : [written, written.endsWith("/") ? written + PROBE_SEGMENT : `${written}/${PROBE_SEGMENT}`];
    let first: Route | null | undefined;
    for (const p of paths) {
      const route = this.router.route({ host: requestHost, path: p });
      if (
        route !== null &&
        route.via === "path" &&
        route.ingress === ingress &&
        route.rule === rule &&
        route.path === path
      ) {
        return { reachable: true };
      }
      if (first === undefined) first = route;
    }
    return { reachable: false, shadowedBy: describeRoute(first ?? null) };
  }

  defaultBackend(ingress: string): { reachable: boolean; shadowedBy?: string } {
    if (this.defaults === undefined) {
      // One request no path is likely to match, for every host a rule selects and for a host none does.
      this.defaults = new Map();
      const hosts = new Set<string>([""]);
      for (const ing of this.ingresses) for (const rule of ing.spec?.rules ?? []) hosts.add(this.hostFor(rule.host));
      for (const host of hosts) {
        const route = this.router.route({ host, path: UNMATCHED_PATH });
        if (route !== null && route.rule === null && !this.defaults.has(route.ingress))
          this.defaults.set(route.ingress, route);
      }
    }
    if (this.defaults.has(ingress)) return { reachable: true };
    const [other] = this.defaults.values();
    return {
      reachable: false,
      shadowedBy:
        other === undefined ? "a path, whatever the host: no request reaches a default backend" : describeRoute(other),
    };
  }
}

function describeRoute(route: Route | null): string {
  if (route === null) return "nothing (the controller answers itself)";
  if (route.rule === null) return `the default backend of Ingress ${route.ingress}`;
  return `Ingress ${route.ingress} rule ${route.rule} path ${route.path}`;
}
