// Benchmark inputs: every HEAD fixture kind plus a realistic ~1 KB NetworkPolicy
// for the codec groups, and a realistic object of each kind for validation.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { DescMessage } from "@bufbuild/protobuf";
import {
  NetworkPolicySchema,
  create,
  decode,
  encode,
  fromJson,
  lookupKind,
  readEnvelope,
  toJsonString,
  type NetworkPolicy,
} from "../src/networking/index.js";

export interface BenchInput {
  /** Short label, unique per input. */
  readonly name: string;
  /** Where it came from, for the header. */
  readonly source: string;
  readonly desc: DescMessage;
  /** The API server body: `k8s\0` + runtime.Unknown + object. */
  readonly envelope: Uint8Array;
  /** The object bytes alone, copied out of the envelope (what the peers read). */
  readonly raw: Uint8Array;
  /** Compact Kubernetes JSON, as the API server sends it. */
  readonly json: string;
  /** The fixture's indented JSON, when there is one, to check toJsonString against. */
  readonly fixtureJson?: string;
}

/** The repository root: the nearest ancestor with clusterwire's package.json (works from bench/ and dist/bench/). */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: unknown }).name === "clusterwire")
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`bench: no clusterwire package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export function fixtureDir(): string {
  return resolve(repoRoot(), "../shared/testdata/k8s-api/HEAD");
}

const FIXTURE = /^networking\.k8s\.io\.v1\.([A-Za-z]+)\.pb$/;

/** All benchmark inputs, HEAD fixtures first (sorted by kind), then the realistic object. */
export function loadInputs(): BenchInput[] {
  const dir = fixtureDir();
  if (!existsSync(dir)) throw new Error(`bench: fixture folder not found: ${dir}`);
  const inputs: BenchInput[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = FIXTURE.exec(file);
    if (m === null) continue;
    const envelope = new Uint8Array(readFileSync(join(dir, file)));
    const fixtureJson = readFileSync(join(dir, file.replace(/\.pb$/, ".json")), "utf8");
    inputs.push(makeInput(`${m[1]} (HEAD)`, `HEAD/${file}`, envelope, fixtureJson));
  }
  if (inputs.length === 0) throw new Error(`bench: no *.pb fixtures in ${dir}`);
  inputs.push(makeInput("NetworkPolicy (realistic)", "bench/fixtures.ts", encode(realisticNetworkPolicy())));
  return inputs;
}

/**
 * The validation inputs: the realistic NetworkPolicy, Ingress and IngressClass,
 * all valid, so a validator has to check every field and finds nothing.
 */
export function loadValidationInputs(): BenchInput[] {
  const fromText = (obj: unknown): Uint8Array => encode(fromJson(JSON.stringify(obj)));
  return [
    makeInput("NetworkPolicy (realistic)", "bench/fixtures.ts", encode(realisticNetworkPolicy())),
    makeInput("Ingress (realistic)", "bench/fixtures.ts", fromText(realisticIngressJson())),
    makeInput("IngressClass (realistic)", "bench/fixtures.ts", fromText(realisticIngressClassJson())),
  ];
}

function makeInput(name: string, source: string, envelope: Uint8Array, fixtureJson?: string): BenchInput {
  const env = readEnvelope(envelope);
  const info = lookupKind(env.apiVersion, env.kind);
  if (info === undefined) throw new Error(`bench: ${source}: unsupported ${env.apiVersion}/${env.kind}`);
  return {
    name,
    source,
    desc: info.desc,
    envelope,
    // A copy, so the peers get a standalone buffer as they would off the wire.
    raw: envelope.slice(env.rawStart, env.rawEnd),
    json: asReceived(toJsonString(decode(envelope))),
    ...(fixtureJson !== undefined ? { fixtureJson } : {}),
  };
}

const utf8 = new TextEncoder();

/**
 * A NetworkPolicy shaped like one a Helm chart installs and the API server
 * stores: labels, an annotation, a managedFields entry, selectors with
 * expressions, named and numeric ports, endPort, IPv4 and IPv6 ipBlocks.
 */
export function realisticNetworkPolicy(): NetworkPolicy {
  const created = { seconds: 1718035200n, nanos: 0 };
  const fieldsV1 = {
    "f:metadata": {
      "f:annotations": { ".": {}, "f:meta.helm.sh/release-name": {} },
      "f:labels": {
        ".": {},
        "f:app.kubernetes.io/instance": {},
        "f:app.kubernetes.io/managed-by": {},
        "f:app.kubernetes.io/name": {},
        "f:env": {},
        "f:team": {},
      },
    },
    "f:spec": { "f:egress": {}, "f:ingress": {}, "f:podSelector": {}, "f:policyTypes": {} },
  };
  const tcp = (port: number | string, endPort?: number) => ({
    protocol: "TCP",
    port: typeof port === "number" ? { type: 0n, intVal: port, strVal: "" } : { type: 1n, intVal: 0, strVal: port },
    ...(endPort !== undefined ? { endPort } : {}),
  });
  return create(NetworkPolicySchema, {
    metadata: {
      name: "payments-api-ingress",
      namespace: "payments",
      uid: "5f3c1d2e-8a4b-4c6d-9e0f-1a2b3c4d5e6f",
      resourceVersion: "48213907",
      generation: 3n,
      creationTimestamp: created,
      labels: {
        "app.kubernetes.io/instance": "payments",
        "app.kubernetes.io/managed-by": "Helm",
        "app.kubernetes.io/name": "payments-api",
        env: "prod",
        team: "payments",
      },
      annotations: { "meta.helm.sh/release-name": "payments" },
      managedFields: [
        {
          manager: "helm",
          operation: "Update",
          apiVersion: "networking.k8s.io/v1",
          time: created,
          fieldsType: "FieldsV1",
          fieldsV1: { Raw: utf8.encode(JSON.stringify(fieldsV1)) },
        },
      ],
    },
    spec: {
      podSelector: {
        matchLabels: { "app.kubernetes.io/name": "payments-api" },
        matchExpressions: [{ key: "tier", operator: "In", values: ["api", "worker"] }],
      },
      ingress: [
        {
          ports: [tcp("https"), tcp(8080, 8090)],
          from: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "frontend" } },
              podSelector: { matchLabels: { "app.kubernetes.io/name": "web" } },
            },
            { ipBlock: { cidr: "10.0.0.0/8", except: ["10.96.0.0/12"] } },
          ],
        },
        {
          ports: [tcp("metrics")],
          from: [
            { ipBlock: { cidr: "2001:db8::/32", except: ["2001:db8:dead::/48"] } },
            {
              namespaceSelector: {
                matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["monitoring"] }],
              },
            },
          ],
        },
      ],
      egress: [
        {
          ports: [
            { protocol: "UDP", port: { type: 0n, intVal: 53, strVal: "" } },
            { protocol: "TCP", port: { type: 0n, intVal: 53, strVal: "" } },
          ],
          to: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
              podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
            },
          ],
        },
      ],
      policyTypes: ["Ingress", "Egress"],
    },
  });
}

/** A server-side-apply managedFields entry (FieldsV1 given as plain JSON). */
function managedBy(manager: string, fieldsV1: unknown): unknown {
  return {
    manager,
    operation: "Update",
    apiVersion: "networking.k8s.io/v1",
    time: "2024-06-10T16:00:00Z",
    fieldsType: "FieldsV1",
    fieldsV1,
  };
}

/**
 * An Ingress as ingress-nginx + cert-manager users write it and the API server
 * returns it: ingressClassName, two TLS entries (one wildcard), three rules
 * (one wildcard host) with Prefix, Exact and ImplementationSpecific paths,
 * named and numbered service ports, a resource backend, and a status.
 */
export function realisticIngressJson(): Record<string, unknown> {
  const svc = (name: string, port: { name: string } | { number: number }) => ({ service: { name, port } });
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: {
      name: "shop-web",
      namespace: "shop",
      uid: "0b6f2c4e-1d3a-4f5b-8c7d-9e0a1b2c3d4e",
      resourceVersion: "48214410",
      generation: 4,
      creationTimestamp: "2024-06-10T16:00:00Z",
      labels: {
        "app.kubernetes.io/instance": "shop",
        "app.kubernetes.io/managed-by": "Helm",
        "app.kubernetes.io/name": "shop-web",
        "app.kubernetes.io/version": "2.14.1",
        env: "prod",
      },
      annotations: {
        "cert-manager.io/cluster-issuer": "letsencrypt-prod",
        "meta.helm.sh/release-name": "shop",
        "meta.helm.sh/release-namespace": "shop",
        "nginx.ingress.kubernetes.io/proxy-body-size": "8m",
        "nginx.ingress.kubernetes.io/ssl-redirect": "true",
      },
      managedFields: [
        managedBy("helm", {
          "f:metadata": {
            "f:annotations": { ".": {}, "f:cert-manager.io/cluster-issuer": {} },
            "f:labels": { ".": {}, "f:env": {} },
          },
          "f:spec": { "f:ingressClassName": {}, "f:rules": {}, "f:tls": {} },
        }),
      ],
    },
    spec: {
      ingressClassName: "nginx",
      tls: [
        { hosts: ["shop.example.com", "www.shop.example.com"], secretName: "shop-example-com-tls" },
        { hosts: ["*.api.example.com"], secretName: "api-example-com-wildcard-tls" },
      ],
      rules: [
        {
          host: "shop.example.com",
          http: {
            paths: [
              { path: "/", pathType: "Prefix", backend: svc("shop-web", { name: "http" }) },
              { path: "/api", pathType: "Prefix", backend: svc("shop-api", { number: 8080 }) },
              { path: "/healthz", pathType: "Exact", backend: svc("shop-web", { number: 8081 }) },
              {
                path: "/static",
                pathType: "Prefix",
                backend: { resource: { apiGroup: "storage.example.com", kind: "StorageBucket", name: "shop-static" } },
              },
            ],
          },
        },
        {
          host: "www.shop.example.com",
          http: { paths: [{ path: "/", pathType: "Prefix", backend: svc("shop-web", { name: "http" }) }] },
        },
        {
          host: "*.api.example.com",
          http: {
            paths: [
              { path: "/v1", pathType: "ImplementationSpecific", backend: svc("shop-api", { number: 8080 }) },
              { path: "/v2", pathType: "Prefix", backend: svc("shop-api-v2", { name: "grpc-web" }) },
            ],
          },
        },
      ],
    },
    status: { loadBalancer: { ingress: [{ ip: "203.0.113.10" }, { hostname: "lb-1234.elb.example.com" }] } },
  };
}

/** The IngressClass of an ingress-nginx install, with namespaced parameters. */
export function realisticIngressClassJson(): Record<string, unknown> {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: {
      name: "nginx",
      uid: "7c1e5a9b-2f4d-4e6a-b8c0-d1e2f3a4b5c6",
      resourceVersion: "48200001",
      generation: 1,
      creationTimestamp: "2024-06-10T16:00:00Z",
      labels: {
        "app.kubernetes.io/component": "controller",
        "app.kubernetes.io/instance": "ingress-nginx",
        "app.kubernetes.io/managed-by": "Helm",
        "app.kubernetes.io/name": "ingress-nginx",
        "app.kubernetes.io/version": "1.11.2",
      },
      annotations: {
        "ingressclass.kubernetes.io/is-default-class": "true",
        "meta.helm.sh/release-name": "ingress-nginx",
        "meta.helm.sh/release-namespace": "ingress-nginx",
      },
      managedFields: [managedBy("helm", { "f:spec": { "f:controller": {}, "f:parameters": {} } })],
    },
    spec: {
      controller: "k8s.io/ingress-nginx",
      parameters: {
        apiGroup: "k8s.nginx.org",
        kind: "IngressParameters",
        name: "external-lb",
        scope: "Namespace",
        namespace: "ingress-nginx",
      },
    },
  };
}

/**
 * The text as a program receives it: decoded from bytes into one flat string.
 * toJsonString builds its output by concatenation, and V8 keeps that as a
 * tree of pieces until something flattens it; JSON.parse flattens on entry,
 * but the first character reads of a hand-written reader would pay for it
 * instead. Text read from a socket or a file is flat, so every contender gets that.
 */
export function asReceived(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}
