// Synthetic but plausible inputs for the evaluator benchmarks: a cluster of
// 200 namespaces, 2,000 pods and 500 NetworkPolicies shaped like a
// multi-team platform, and Ingress sets of any size. Seeded, so every run
// measures the same objects.

import {
  fromJson,
  type ClusterNamespace,
  type ClusterPod,
  type Ingress,
  type NetworkPolicy,
} from "../src/networking/index.js";

/** mulberry32: a small, fast, seeded PRNG; quality is not the point here. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BenchCluster {
  readonly namespaces: ClusterNamespace[];
  readonly pods: ClusterPod[];
  readonly policies: NetworkPolicy[];
}

const ROLES = ["web", "api", "db", "worker", "cache"] as const;
const ENVS = ["prod", "staging", "dev"] as const;

export function benchCluster(options: {
  namespaces: number;
  pods: number;
  policies: number;
  seed?: number;
}): BenchCluster {
  const rnd = prng(options.seed ?? 42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const teams = Math.max(1, Math.floor(options.namespaces / 5));
  const namespaces: ClusterNamespace[] = [];
  for (let i = 0; i < options.namespaces; i++) {
    namespaces.push({
      name: i === 0 ? "kube-system" : `team${i % teams}-${ENVS[i % 3]}-${i}`,
      labels: { team: `team${i % teams}`, env: ENVS[i % 3]!, ...(i % 7 === 0 ? { monitoring: "enabled" } : {}) },
    });
  }
  const nodes = 50;
  const pods: ClusterPod[] = [];
  for (let i = 0; i < options.pods; i++) {
    const ns = namespaces[i % namespaces.length]!;
    const role = pick(ROLES);
    const hostNetwork = i % 40 === 39;
    const node = `192.168.0.${(Math.floor(i / 7) % nodes) + 1}`;
    const v6 = i % 10 === 3;
    pods.push({
      namespace: ns.name,
      name: `${role}-${i}`,
      labels: { app: `app${i % 9}`, role, version: `v${i % 3}` },
      ip: hostNetwork
        ? node
        : v6
          ? `fd00::${(i >> 8).toString(16)}:${(i & 255).toString(16)}`
          : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      hostIP: node,
      ...(hostNetwork ? { hostNetwork: true } : {}),
      ports: [
        { name: "http", containerPort: 8080 },
        { name: "metrics", containerPort: 9090 },
        ...(role === "db" ? [{ name: "pg", containerPort: 5432 }] : []),
        ...(ns.name === "kube-system" ? [{ name: "dns", containerPort: 53, protocol: "UDP" as const }] : []),
      ],
    });
  }
  const policies: NetworkPolicy[] = [];
  for (let i = 0; i < options.policies; i++) {
    const ns = namespaces[(i * 7) % namespaces.length]!;
    const team = ns.labels!["team"]!;
    const base = {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: `p${i}`, namespace: ns.name },
    };
    let spec: object;
    switch (i % 6) {
      case 0: // default deny, both ways, with DNS allowed out
        spec = {
          podSelector: {},
          policyTypes: ["Ingress", "Egress"],
          egress: [
            {
              to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } } }],
              ports: [{ protocol: "UDP", port: 53 }],
            },
          ],
        };
        break;
      case 1: // the api takes the web tier of the namespace on a named port
        spec = {
          podSelector: { matchLabels: { role: "api" } },
          ingress: [{ from: [{ podSelector: { matchLabels: { role: "web" } } }], ports: [{ port: "http" }] }],
        };
        break;
      case 2: // the team's other namespaces may reach web
        spec = {
          podSelector: { matchLabels: { role: "web" } },
          ingress: [
            {
              from: [
                {
                  namespaceSelector: { matchLabels: { team } },
                  podSelector: { matchExpressions: [{ key: "role", operator: "In", values: ["web", "api"] }] },
                },
              ],
              ports: [{ port: 8080 }, { port: 8443 }],
            },
          ],
        };
        break;
      case 3: // monitoring scrapes everything on metrics
        spec = {
          podSelector: { matchExpressions: [{ key: "role", operator: "NotIn", values: ["db"] }] },
          ingress: [
            {
              from: [{ namespaceSelector: { matchLabels: { monitoring: "enabled" } } }],
              ports: [{ port: "metrics" }, { port: 9000, endPort: 9100 }],
            },
          ],
        };
        break;
      case 4: // workers egress to the pod network, minus one team's range
        spec = {
          podSelector: { matchLabels: { role: "worker" } },
          policyTypes: ["Egress"],
          egress: [
            {
              to: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.0.4.0/24"] } }, { ipBlock: { cidr: "fd00::/64" } }],
              ports: [{ port: 8000, endPort: 9000 }],
            },
            { to: [{ podSelector: { matchLabels: { role: "db" } } }], ports: [{ port: "pg" }] },
          ],
        };
        break;
      default: // db only from api of the same app version
        spec = {
          podSelector: { matchLabels: { role: "db" } },
          ingress: [
            {
              from: [{ podSelector: { matchLabels: { role: "api", version: `v${i % 3}` } } }],
              ports: [{ protocol: "TCP", port: 5432 }],
            },
            { from: [{ podSelector: { matchExpressions: [{ key: "debug", operator: "Exists" }] } }] },
          ],
        };
    }
    policies.push(fromJson({ ...base, spec } as never) as NetworkPolicy);
  }
  return { namespaces, pods, policies };
}

/** Ingresses with one host each (every tenth a wildcard) and four paths. */
export function benchIngresses(count: number): Ingress[] {
  const out: Ingress[] = [];
  for (let i = 0; i < count; i++) {
    const host = i % 10 === 9 ? `*.tenant${i}.example.com` : `svc${i}.example.com`;
    const backend = (name: string): object => ({ service: { name, port: { number: 8080 } } });
    out.push(
      fromJson({
        apiVersion: "networking.k8s.io/v1",
        kind: "Ingress",
        metadata: {
          name: `ing${i}`,
          namespace: `ns${i % 50}`,
          creationTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 3600)).toISOString().replace(".000", ""),
        },
        spec: {
          rules: [
            {
              host,
              http: {
                paths: [
                  { path: "/", pathType: "Prefix", backend: backend(`web${i}`) },
                  { path: "/api", pathType: "Prefix", backend: backend(`api${i}`) },
                  { path: "/static/", pathType: "Prefix", backend: backend(`static${i}`) },
                  { path: "/healthz", pathType: "Exact", backend: backend(`health${i}`) },
                ],
              },
            },
          ],
        },
      } as never) as Ingress,
    );
  }
  return out;
}

/**
 * Requests spread uniformly over the hosts of `benchIngresses(count)`, hitting
 * every kind of path. Host headers as clients send them: mostly lower case
 * without a port, a fifth with a port, a tenth in upper case.
 */
export function benchRequests(count: number, n: number, seed = 7): { host: string; path: string }[] {
  const rnd = prng(seed);
  const paths = ["/api/v1/orders/1234?expand=items", "/static/app.3f2a.js", "/healthz", "/checkout/cart", "/", "/apix"];
  const out: { host: string; path: string }[] = [];
  for (let k = 0; k < n; k++) {
    const i = Math.floor(rnd() * count);
    const name = i % 10 === 9 ? `shop.tenant${i}.example.com` : `svc${i}.example.com`;
    const u = rnd();
    const host = u < 0.7 ? name : u < 0.9 ? `${name}:8443` : name.toUpperCase();
    out.push({ host, path: paths[k % paths.length]! });
  }
  return out;
}
