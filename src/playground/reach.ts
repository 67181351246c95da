// The Reach pane's reading of a cluster description (the format of
// `clusterwire reach`, examples/clusters/shop.yaml): namespaces, pods and
// NetworkPolicies, into createPolicyEngine. The CLI's reader lives in
// cli/shared and uses internals the playground may not import, so this one is
// rebuilt on the public API: parseYamlDocuments reads the text as kubectl and
// the API server do (go-yaml v2), and each policy goes through fromJson.
// It is a smaller reader than the CLI's: its errors name the field path but
// not the line.
import {
  DecodeError,
  EvaluatorInputError,
  NETWORKING_API_VERSION,
  createPolicyEngine,
  fromJson,
  parseYamlDocuments,
  type ClusterNamespace,
  type ClusterPod,
  type ClusterPodPort,
  type JsonValue,
  type NetworkPolicy,
  type PolicyEngine,
  type Protocol,
} from "../networking/index.js";

/** A reading of a cluster description: the engine, or why there is none. */
export type ClusterReading = { readonly engine: PolicyEngine } | { readonly error: string };

const PROTOCOLS: readonly string[] = ["TCP", "UDP", "SCTP"];

class Bad extends Error {}

function at(path: string, message: string): Bad {
  return new Bad(`${path}: ${message}`);
}

function object(v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw at(path, "expected a mapping");
  return v as Record<string, unknown>;
}

function list(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw at(path, "expected a list");
  return v;
}

function text(v: unknown, path: string): string {
  if (typeof v !== "string") throw at(path, "expected a string");
  return v;
}

function labels(v: unknown, path: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  const o = object(v, path);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(o)) out[k] = text(value, `${path}.${k}`);
  return out;
}

function protocol(v: unknown, path: string): Protocol | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !PROTOCOLS.includes(v)) throw at(path, "expected TCP, UDP or SCTP");
  return v as Protocol;
}

function port(v: unknown, path: string): ClusterPodPort {
  const o = object(v, path);
  const n = o["containerPort"];
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 65535)
    throw at(`${path}.containerPort`, "expected a port number, 1 to 65535");
  const name = o["name"] === undefined ? undefined : text(o["name"], `${path}.name`);
  const proto = protocol(o["protocol"], `${path}.protocol`);
  return {
    containerPort: n,
    ...(name !== undefined ? { name } : {}),
    ...(proto !== undefined ? { protocol: proto } : {}),
  };
}

function pod(v: unknown, path: string): ClusterPod {
  const o = object(v, path);
  const l = labels(o["labels"], `${path}.labels`);
  const ports = list(o["ports"], `${path}.ports`).map((p, i) => port(p, `${path}.ports[${i}]`));
  const hostNetwork = o["hostNetwork"];
  if (hostNetwork !== undefined && typeof hostNetwork !== "boolean")
    throw at(`${path}.hostNetwork`, "expected a boolean");
  return {
    namespace: text(o["namespace"], `${path}.namespace`),
    name: text(o["name"], `${path}.name`),
    ip: text(o["ip"], `${path}.ip`),
    ...(l !== undefined ? { labels: l } : {}),
    ...(ports.length > 0 ? { ports } : {}),
    ...(o["hostIP"] !== undefined ? { hostIP: text(o["hostIP"], `${path}.hostIP`) } : {}),
    ...(hostNetwork !== undefined ? { hostNetwork } : {}),
  };
}

function policy(v: unknown, path: string): NetworkPolicy {
  const o = { apiVersion: NETWORKING_API_VERSION, kind: "NetworkPolicy", ...object(v, path) };
  try {
    return fromJson(o as JsonValue) as NetworkPolicy;
  } catch (e) {
    if (e instanceof DecodeError) throw at(path, e.message);
    throw e;
  }
}

/** Reads a cluster description and builds its policy engine. */
export function readCluster(source: string): ClusterReading {
  try {
    let docs: JsonValue[];
    try {
      docs = parseYamlDocuments(source, { uniqueKeys: true });
    } catch (e) {
      if (e instanceof DecodeError) throw new Bad(`yaml: ${e.reason}`);
      throw e;
    }
    if (docs.length !== 1) throw new Bad(`a cluster description is one YAML document, not ${docs.length}`);
    const root = object(docs[0], "(top)");
    for (const key of Object.keys(root)) {
      if (!["namespaces", "pods", "policies"].includes(key))
        throw at(key, "unknown field (namespaces, pods, policies)");
    }
    const namespaces: ClusterNamespace[] = list(root["namespaces"], "namespaces").map((n, i) => {
      const o = object(n, `namespaces[${i}]`);
      const l = labels(o["labels"], `namespaces[${i}].labels`);
      return { name: text(o["name"], `namespaces[${i}].name`), ...(l !== undefined ? { labels: l } : {}) };
    });
    const pods = list(root["pods"], "pods").map((p, i) => pod(p, `pods[${i}]`));
    const policies = list(root["policies"], "policies").map((p, i) => policy(p, `policies[${i}]`));
    return { engine: createPolicyEngine({ namespaces, pods, policies }) };
  } catch (e) {
    if (e instanceof Bad || e instanceof EvaluatorInputError) return { error: e.message };
    throw e;
  }
}

/** The largest cluster the pane draws as a grid (each cell is a button). */
export const MAX_GRID_PODS = 40;

const VERDICTS: Readonly<Record<string, string>> = {
  "not-applicable": "not checked (no policy selects the pod for this direction)",
  "not-isolated": "no policy isolates the pod in this direction",
  "allowed-by-rule": "allowed by a rule",
  denied: "denied: policies isolate the pod and none of their rules match",
  "node-local": "allowed: traffic from the pod's own node",
  self: "allowed: a pod talking to itself",
};

/** Why a connection is allowed or not, in words: each direction's verdict and the policies that decided. */
export function explain(engine: PolicyEngine, from: string, to: string, protocol: Protocol, port: number): string[] {
  const d = engine.evaluate({ from: { pod: from }, to: { pod: to }, protocol, port });
  const lines = [`${from} -> ${to} ${d.protocol}/${d.port}: ${d.allowed ? "allowed" : "denied"}`];
  for (const [name, dir] of [
    ["Egress (judged on the source)", d.egress],
    ["Ingress (judged on the destination)", d.ingress],
  ] as const) {
    lines.push(`${name}: ${VERDICTS[dir.verdict] ?? dir.verdict}`);
    for (const p of dir.policies)
      lines.push(
        `  ${p.policy}${p.rules.length > 0 ? ` (rules ${p.rules.join(", ")})` : " (isolates, no rule matches)"}`,
      );
  }
  for (const s of d.skipped) lines.push(`Left out: ${s.kind} ${s.name}`);
  return lines;
}
