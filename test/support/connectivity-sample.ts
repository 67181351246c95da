// Small snapshots for the connectivity reports' tests, each change of which is worked out by hand
// in the tests that use them.
import { fromJson, type ConnectivityInput, type NetworkPolicy } from "../../src/networking/index.js";

const namespaces = [{ name: "shop" }];
const web = { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } };
const api = {
  namespace: "shop",
  kind: "Deployment",
  name: "api",
  labels: { app: "api" },
  ports: [{ name: "http", containerPort: 8080 }],
};
const db = { namespace: "shop", kind: "StatefulSet", name: "db", labels: { app: "db" } };

/** A policy in `shop` that selects `app: subject` for ingress, from `app: from` on the TCP ports given. */
export function ingressFrom(name: string, subject: string, from: string, ports: readonly number[]): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name, namespace: "shop" },
    spec: {
      podSelector: { matchLabels: { app: subject } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: { matchLabels: { app: from } } }], ports: ports.map((port) => ({ port })) }],
    },
  }) as NetworkPolicy;
}

/**
 * web, api and db in `shop`; only api is isolated (ingress from web on TCP 8080). Nothing cuts the
 * addresses outside the cluster.
 */
export const SHOP_BEFORE: ConnectivityInput = {
  namespaces,
  workloads: [web, api, db],
  policies: [ingressFrom("api-in", "api", "web", [8080])],
};

/**
 * SHOP_BEFORE with api also open to web on 9090, and db isolated to api on 5432: web => api and
 * api => db change, web => db and the addresses => db are removed.
 */
export const SHOP_AFTER: ConnectivityInput = {
  namespaces,
  workloads: [web, api, db],
  policies: [ingressFrom("api-in", "api", "web", [8080, 9090]), ingressFrom("db-in", "db", "api", [5432])],
};

/** web alone, and web and api with no policy: a workload, and with it four connections, are added. */
export const ONE_WORKLOAD: ConnectivityInput = { namespaces, workloads: [web], policies: [] };
export const TWO_WORKLOADS: ConnectivityInput = { namespaces, workloads: [web, api], policies: [] };
