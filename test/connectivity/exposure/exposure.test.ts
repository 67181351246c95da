import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type Exposure,
  exposedWorkloads,
  type IngressExposure,
  readTopology,
  type ServiceExposure,
} from "../../../src/connectivity/index.js";

const WORKLOADS = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      containers:
      - name: web
        ports:
        - {name: http, containerPort: 8080}
        - {name: dns, containerPort: 5353, protocol: UDP}
        - {name: metrics, containerPort: 9090}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web-canary, namespace: shop}
spec:
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, ports: [{name: http, containerPort: 8081}]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: other}
spec:
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, ports: [{name: http, containerPort: 7000}]}]}
`;

const SERVICES = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: http}
  - {name: plain, port: 8000, targetPort: 8080}
  - {name: dns, port: 53, targetPort: dns}
  - {name: dns-tcp, port: 5353, targetPort: dns, protocol: TCP}
---
apiVersion: v1
kind: Service
metadata: {name: nobody, namespace: shop}
spec:
  selector: {app: missing}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: manual, namespace: shop}
spec:
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: external, namespace: shop}
spec: {type: ExternalName, externalName: db.example.com}
`;

function exposures(...texts: string[]): Exposure[] {
  const topology = readTopology(texts.map((text, i) => ({ name: `f${i}.yaml`, text })));
  expect(topology.problems).toEqual([]);
  return exposedWorkloads(topology);
}

const ingresses = (list: readonly Exposure[]): IngressExposure[] =>
  list.filter((e): e is IngressExposure => e.kind === "ingress");

/** An Ingress of one rule with the given paths, each `path pathType service port`. */
function ingress(name: string, host: string | undefined, paths: string[], extra = ""): string {
  const lines = paths.map((p) => {
    const [path, pathType, service, port] = p.split(" ");
    const portField = /^\d+$/.test(port ?? "") ? `{number: ${port}}` : `{name: ${port}}`;
    return `      - {path: "${path}", pathType: ${pathType}, backend: {service: {name: ${service}, port: ${portField}}}}`;
  });
  return `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: ${name}, namespace: shop${extra}}
spec:
  rules:
  - ${host === undefined ? "" : `host: "${host}"\n    `}http:
      paths:
${lines.join("\n")}
`;
}

describe("exposedWorkloads: from a backend to container ports", () => {
  it("resolves a named targetPort on each selected workload by name and protocol, and a number as is", () => {
    const list = ingresses(
      exposures(
        WORKLOADS,
        SERVICES,
        ingress("web", "shop.example.com", ["/ Prefix web http", "/plain Prefix web 8000", "/dns Prefix web dns-tcp"]),
      ),
    );
    expect(list.map((e) => [e.path, e.servicePort?.port, e.targets, e.problem])).toEqual([
      [
        "/",
        80,
        [
          { workload: "shop/Deployment/web", port: 8080, protocol: "TCP" },
          { workload: "shop/StatefulSet/web-canary", port: 8081, protocol: "TCP" },
        ],
        undefined,
      ],
      [
        "/plain",
        8000,
        [
          { workload: "shop/Deployment/web", port: 8080, protocol: "TCP" },
          { workload: "shop/StatefulSet/web-canary", port: 8080, protocol: "TCP" },
        ],
        undefined,
      ],
      [
        // The container's dns port is UDP: the TCP Service port finds no port of that name and protocol.
        "/dns",
        5353,
        [
          { workload: "shop/Deployment/web", protocol: "TCP", problem: 'no container port named "dns" (TCP)' },
          { workload: "shop/StatefulSet/web-canary", protocol: "TCP", problem: 'no container port named "dns" (TCP)' },
        ],
        undefined,
      ],
    ]);
    expect(list[0]).toMatchObject({
      kind: "ingress",
      ingress: "shop/web",
      source: { file: "f2.yaml", line: 1 },
      rule: 0,
      pathIndex: 0,
      host: "shop.example.com",
      pathType: "Prefix",
      backend: { namespace: "shop", name: "web", port: "http" },
      reachable: true,
    });
  });

  it("says why a backend reaches no workload", () => {
    const list = ingresses(
      exposures(
        WORKLOADS,
        SERVICES,
        ingress("web", "shop.example.com", [
          "/gone Exact gone 80",
          "/noport Exact web 81",
          "/noname Exact web admin",
          "/nobody Exact nobody 80",
          "/manual Exact manual 80",
          "/external Exact external 80",
        ]),
        `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: assets, namespace: shop}
spec:
  defaultBackend: {resource: {apiGroup: k8s.example.com, kind: StorageBucket, name: static}}
`,
      ),
    );
    expect(list.map((e) => [e.path, e.targets, e.problem])).toEqual([
      ["/gone", [], "no Service shop/gone in the manifests"],
      ["/noport", [], "Service shop/web has no port 81"],
      ["/noname", [], 'Service shop/web has no port "admin"'],
      ["/nobody", [], "the selector of Service shop/nobody (app=missing) matches no workload in shop"],
      ["/manual", [], "Service shop/manual has no selector: its endpoints are not chosen from workloads"],
      ["/external", [], "Service shop/external is an ExternalName Service: it names a host outside, not workloads"],
      [
        null,
        [],
        "a resource backend (k8s.example.com/StorageBucket static): not a Service, so no workload is reached through it",
      ],
    ]);
    expect(list[6]?.backend).toBeUndefined();
    expect(list.every((e) => e.reachable)).toBe(true);
  });

  it("lists each port of NodePort and LoadBalancer Services, and no ClusterIP one", () => {
    const list = exposures(
      WORKLOADS,
      `apiVersion: v1
kind: Service
metadata: {name: lb, namespace: shop}
spec:
  type: LoadBalancer
  selector: {app: web, tier: front}
  ports: [{name: http, port: 80, targetPort: http}, {name: m, port: 9090, targetPort: metrics}]
---
apiVersion: v1
kind: Service
metadata: {name: np, namespace: other}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{port: 80, targetPort: 7000, nodePort: 30080}]
---
apiVersion: v1
kind: Service
metadata: {name: inside, namespace: shop}
spec: {selector: {app: web}, ports: [{port: 80}]}
`,
    );
    expect(list.every((e) => e.kind === "service")).toBe(true);
    expect(
      (list as ServiceExposure[]).map((e) => [
        e.service,
        e.type,
        e.port.port,
        e.port.nodePort,
        e.targets,
        e.source.line,
      ]),
    ).toEqual([
      ["shop/lb", "LoadBalancer", 80, undefined, [{ workload: "shop/Deployment/web", port: 8080, protocol: "TCP" }], 1],
      [
        "shop/lb",
        "LoadBalancer",
        9090,
        undefined,
        [{ workload: "shop/Deployment/web", port: 9090, protocol: "TCP" }],
        1,
      ],
      ["other/np", "NodePort", 80, 30080, [{ workload: "other/Deployment/web", port: 7000, protocol: "TCP" }], 9],
    ]);
  });
});

describe("exposedWorkloads: which path the router really takes", () => {
  it("marks the path of the younger of two Ingresses with the same host and path as shadowed", () => {
    const list = ingresses(
      exposures(
        WORKLOADS,
        SERVICES,
        ingress("young", "shop.example.com", ["/api Prefix web 80"], ', creationTimestamp: "2024-02-01T00:00:00Z"'),
        ingress("old", "shop.example.com", ["/api Prefix web 8000"], ', creationTimestamp: "2024-01-01T00:00:00Z"'),
      ),
    );
    expect(list.map((e) => [e.ingress, e.reachable, e.shadowedBy])).toEqual([
      ["shop/young", false, "Ingress shop/old rule 0 path 0"],
      ["shop/old", true, undefined],
    ]);
  });

  it("keeps a Prefix path that an Exact path of the same text covers only at itself", () => {
    const list = ingresses(
      exposures(WORKLOADS, SERVICES, ingress("web", "shop.example.com", ["/api Exact web 80", "/api Prefix web 8000"])),
    );
    expect(list.map((e) => [e.pathType, e.reachable])).toEqual([
      ["Exact", true],
      ["Prefix", true],
    ]);
  });

  it("probes a wildcard host with a label no precise rule takes", () => {
    const list = ingresses(
      exposures(
        WORKLOADS,
        SERVICES,
        ingress("wild", "*.example.com", ["/ Prefix web 80"]),
        ingress("precise", "clusterwire-probe.example.com", ["/ Prefix web 8000"]),
      ),
    );
    expect(list.map((e) => [e.host, e.reachable])).toEqual([
      ["*.example.com", true],
      ["clusterwire-probe.example.com", true],
    ]);
  });

  it("finds a default backend unreachable when a path catches every request, and says what does", () => {
    const withDefault = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: fallback, namespace: shop}
spec:
  defaultBackend: {service: {name: web, port: {number: 80}}}
`;
    const reachable = ingresses(
      exposures(WORKLOADS, SERVICES, withDefault, ingress("site", "shop.example.com", ["/ Prefix web 80"])),
    );
    expect(reachable.map((e) => [e.ingress, e.rule, e.reachable])).toEqual([
      ["shop/fallback", null, true],
      ["shop/site", 0, true],
    ]);
    const caught = ingresses(
      exposures(WORKLOADS, SERVICES, withDefault, ingress("all", undefined, ["/ Prefix web 8000"])),
    );
    expect(caught.map((e) => [e.ingress, e.rule, e.reachable, e.shadowedBy])).toEqual([
      ["shop/fallback", null, false, "a path, whatever the host: no request reaches a default backend"],
      ["shop/all", 0, true, undefined],
    ]);
  });

  it("names the winning default backend when an older Ingress's one serves the unmatched requests", () => {
    const fallback = (name: string, time: string) => `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: ${name}, namespace: shop, creationTimestamp: "${time}"}
spec:
  defaultBackend: {service: {name: web, port: {number: 80}}}
`;
    const list = ingresses(
      exposures(
        WORKLOADS,
        SERVICES,
        fallback("second", "2024-02-01T00:00:00Z"),
        fallback("first", "2024-01-01T00:00:00Z"),
      ),
    );
    expect(list.map((e) => [e.ingress, e.reachable, e.shadowedBy])).toEqual([
      ["shop/second", false, "the default backend of Ingress shop/first"],
      ["shop/first", true, undefined],
    ]);
  });

  it("reports an Ingress the router leaves out as unreachable, with the API server's reason", () => {
    const list = ingresses(exposures(WORKLOADS, SERVICES, ingress("bad", "shop.example.com", ["api Prefix web 80"])));
    expect(list).toHaveLength(1);
    expect(list[0]?.reachable).toBe(false);
    expect(list[0]?.shadowedBy).toMatch(
      /^left out by the router: spec\.rules\[0\]\.http\.paths\[0\]\.path: Invalid value: "api"/,
    );
    // What it would reach is still worked out.
    expect(list[0]?.targets.map((t) => t.workload)).toEqual(["shop/Deployment/web", "shop/StatefulSet/web-canary"]);
  });

  it("routes istio's bookinfo Ingress to the productpage workload", () => {
    const dir = new URL("../../fixtures/real-world/istio/samples/bookinfo/platform/kube/", import.meta.url);
    const topology = readTopology(
      ["bookinfo.yaml", "bookinfo-ingress.yaml"].map((name) => ({
        name,
        text: readFileSync(new URL(name, dir), "utf8"),
      })),
    );
    const list = exposedWorkloads(topology);
    expect(list.map((e) => (e.kind === "ingress" ? `${e.path} ${e.pathType} ${e.reachable}` : e.service))).toEqual([
      "/productpage Exact true",
      "/static/ Prefix true",
      "/login Exact true",
      "/logout Exact true",
      "/api/v1/products Prefix true",
    ]);
    for (const e of list)
      expect(e.targets).toEqual([{ workload: "default/Deployment/productpage-v1", port: 9080, protocol: "TCP" }]);
  });
});
