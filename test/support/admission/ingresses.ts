import type { JsonObject } from "../../../src/networking/index.js";

// The Ingress the capture guard's tests put into a cluster: one host, one
// Prefix path, created at one fixed time (so ranking falls to namespace/name).

/** An Ingress `ns/name` serving `host` + `path` (a Prefix) to service s:80. */
export function hostIngress(ns: string, name: string, host: string, path = "/"): JsonObject {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace: ns, creationTimestamp: "2024-01-01T00:00:00Z" },
    spec: {
      rules: [
        {
          host,
          http: { paths: [{ path, pathType: "Prefix", backend: { service: { name: "s", port: { number: 80 } } } }] },
        },
      ],
    },
  };
}
