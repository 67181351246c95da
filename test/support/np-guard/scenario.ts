// One small cluster written two ways: as the manifests np-guard reads from a directory
// (Namespaces, workloads of every kind it reads, NetworkPolicies), and as the ConnectivityInput
// clusterwire's analyzer takes, so np-guard's answers can be set beside clusterwire's on the same
// cluster without going through clusterwire's own manifest reader.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fromJson, type ConnectivityInput, type JsonValue, type NetworkPolicy } from "../../../src/networking/index.js";

import type { ClusterPodPort } from "../../../src/networking/evaluate/policy/types.js";

/** The workload kinds np-guard reads (and clusterwire). */
export const WORKLOAD_KINDS = [
  "Pod",
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Job",
  "CronJob",
  "ReplicationController",
] as const;

export interface ScenarioWorkload {
  readonly namespace: string;
  readonly kind: (typeof WORKLOAD_KINDS)[number];
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly ports?: readonly ClusterPodPort[];
  /** Replicas (Job: parallelism); np-guard makes two pods of a workload with more than one. */
  readonly replicas?: number;
  /** The pods use the node's network (np-guard takes no notice of it). */
  readonly hostNetwork?: boolean;
}

export interface Scenario {
  /** Namespaces written as Namespace objects (others that workloads name get no object). */
  readonly namespaces: readonly { readonly name: string; readonly labels?: Readonly<Record<string, string>> }[];
  readonly workloads: readonly ScenarioWorkload[];
  /** NetworkPolicy objects as JSON (apiVersion, kind, metadata, spec). */
  readonly policies: readonly Record<string, unknown>[];
}

function podSpec(w: ScenarioWorkload): Record<string, unknown> {
  const ports = (w.ports ?? []).map((p) => ({
    ...(p.name === undefined ? {} : { name: p.name }),
    containerPort: p.containerPort,
    ...(p.protocol === undefined ? {} : { protocol: p.protocol }),
  }));
  return {
    ...(w.hostNetwork === true ? { hostNetwork: true } : {}),
    containers: [{ name: "main", image: "registry.example/app:1", ...(ports.length > 0 ? { ports } : {}) }],
  };
}

/** The object a workload is written as. */
export function workloadManifest(w: ScenarioWorkload): Record<string, unknown> {
  const metadata = { name: w.name, namespace: w.namespace };
  const template = { metadata: { labels: w.labels }, spec: podSpec(w) };
  const replicas = w.replicas === undefined ? {} : { replicas: w.replicas };
  switch (w.kind) {
    case "Pod":
      return { apiVersion: "v1", kind: "Pod", metadata: { ...metadata, labels: w.labels }, spec: podSpec(w) };
    case "Deployment":
    case "ReplicaSet":
    case "StatefulSet":
      return {
        apiVersion: "apps/v1",
        kind: w.kind,
        metadata,
        spec: { ...replicas, selector: { matchLabels: w.labels }, template },
      };
    case "DaemonSet":
      return { apiVersion: "apps/v1", kind: w.kind, metadata, spec: { selector: { matchLabels: w.labels }, template } };
    case "ReplicationController":
      return { apiVersion: "v1", kind: w.kind, metadata, spec: { ...replicas, selector: w.labels, template } };
    case "Job":
      return {
        apiVersion: "batch/v1",
        kind: "Job",
        metadata,
        spec: { ...(w.replicas === undefined ? {} : { parallelism: w.replicas }), template },
      };
    case "CronJob":
      return {
        apiVersion: "batch/v1",
        kind: "CronJob",
        metadata,
        spec: { schedule: "0 3 * * *", jobTemplate: { spec: { template } } },
      };
  }
}

/** Every object of the scenario: Namespaces, workloads, then policies. */
export function scenarioObjects(s: Scenario): Record<string, unknown>[] {
  return [
    ...s.namespaces.map((n) => ({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: n.name, ...(n.labels === undefined ? {} : { labels: n.labels }) },
    })),
    ...s.workloads.map(workloadManifest),
    ...s.policies,
  ];
}

/**
 * Writes the scenario's manifests into `dir` (created), one JSON file an object, named by its
 * position, kind, namespace and name. (A YAML stream of JSON documents would not do: np-guard's
 * reader, kubectl's, takes a file that starts with `{` for one JSON text.)
 */
export function writeScenario(dir: string, s: Scenario): void {
  mkdirSync(dir, { recursive: true });
  scenarioObjects(s).forEach((o, i) => {
    const meta = (o["metadata"] ?? {}) as { name?: string; namespace?: string };
    const name = [String(i).padStart(4, "0"), String(o["kind"]), meta.namespace ?? "", meta.name ?? ""].join("-");
    writeFileSync(join(dir, `${name.toLowerCase()}.json`), `${JSON.stringify(o, null, 2)}\n`);
  });
}

/** The scenario as clusterwire's analyzer takes it: every namespace named, sorted by name. */
export function scenarioInput(s: Scenario): ConnectivityInput {
  const labels = new Map(s.namespaces.map((n) => [n.name, n.labels ?? {}]));
  for (const w of s.workloads) if (!labels.has(w.namespace)) labels.set(w.namespace, {});
  for (const p of s.policies) {
    const ns = (p["metadata"] as { namespace?: string } | undefined)?.namespace ?? "default";
    if (!labels.has(ns)) labels.set(ns, {});
  }
  return {
    namespaces: [...labels.keys()].sort().map((name) => ({ name, labels: labels.get(name) ?? {} })),
    workloads: s.workloads.map((w) => ({
      namespace: w.namespace,
      kind: w.kind,
      name: w.name,
      labels: w.labels,
      ...(w.ports === undefined ? {} : { ports: w.ports }),
      ...(w.hostNetwork === undefined ? {} : { hostNetwork: w.hostNetwork }),
    })),
    policies: s.policies.map((p) => fromJson(p as JsonValue) as NetworkPolicy),
  };
}
