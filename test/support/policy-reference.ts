// A plainly written reference for the NetworkPolicy evaluator of
// ../shared/docs/semantics.md §1.2: every decision rescans every pod and every
// policy, rule by rule, and each branch names the rule (E1..E15) it follows.
// It is the oracle for the engine's property tests and the benchmark, so it
// shares no code with src/networking beyond the public types, the error
// class and validate(): its own label selectors and defaulting, and the
// address model of src/testing/addresses.ts, written independently of
// src/networking/ip.ts.
//
// Policies validate() rejects, and later policies with the same
// namespace/name, are left out and listed in every answer's `skipped`, as the
// engine's contract says. It assumes the namespaces, pods and policies
// satisfy the engine's other input rules (every pod and policy in a listed
// namespace, no duplicate pods, addresses that parse).

import type {
  NetworkPolicy,
  NetworkPolicyPeer,
  NetworkPolicyPort,
} from "../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { LabelSelector } from "../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { EvaluatorInputError } from "../../src/networking/model/errors.js";
import type {
  ClusterNamespace,
  ClusterPod,
  Connection,
  Decision,
  DirectionDecision,
  Endpoint,
  PolicyRuleMatch,
  Protocol,
  TableQuery,
  TruthTable,
  TruthTableResult,
} from "../../src/networking/evaluate/policy/types.js";
import type { SkippedObject } from "../../src/networking/evaluate/types.js";
import { validate } from "../../src/networking/validation/validate.js";
import { inNetwork, parseAddress, parseNetwork, type Address } from "../../src/testing/addresses.js";

export interface ReferenceCluster {
  readonly namespaces: readonly ClusterNamespace[];
  readonly pods: readonly ClusterPod[];
  readonly policies: readonly NetworkPolicy[];
}

const NAME_LABEL = "kubernetes.io/metadata.name";

// ------------------------------------------------------------------ addresses

function sameAddress(a: Address, b: Address): boolean {
  return a.family === b.family && a.value === b.value;
}

// ------------------------------------------------------------------ labels

type Labels = Readonly<Record<string, string>>;

/** E10: matchLabels and every matchExpression must hold; an empty selector matches everything. */
function selectorMatches(selector: LabelSelector, labels: Labels): boolean {
  const has = (k: string): boolean => Object.hasOwn(labels, k);
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (!has(k) || labels[k] !== v) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    const present = has(req.key);
    const value = labels[req.key];
    switch (req.operator) {
      case "In":
        if (!present || !req.values.includes(value!)) return false;
        break;
      case "NotIn":
        // Satisfied by a missing key.
        if (present && req.values.includes(value!)) return false;
        break;
      case "Exists":
        if (!present) return false;
        break;
      case "DoesNotExist":
        if (present) return false;
        break;
      default:
        // Valid policies have no other operator; match nothing rather than guess.
        return false;
    }
  }
  return true;
}

/** E2: the namespace's labels plus its name label. */
function namespaceLabels(cluster: ReferenceCluster, name: string): Labels | undefined {
  for (const ns of cluster.namespaces) {
    if (ns.name === name) return { ...(ns.labels ?? {}), [NAME_LABEL]: name };
  }
  return undefined;
}

// ------------------------------------------------------------------ policies

function policyNamespace(p: NetworkPolicy): string {
  const ns = p.metadata?.namespace;
  return ns === undefined || ns === "" ? "default" : ns;
}

/** The name, or the generateName prefix when there is none. */
function policyName(p: NetworkPolicy): string {
  const name = p.metadata?.name ?? "";
  return name !== "" ? name : (p.metadata?.generateName ?? "");
}

function policyKey(p: NetworkPolicy): string {
  return `${policyNamespace(p)}/${policyName(p)}`;
}

interface Sorted {
  /** The policies that take part, in input order. */
  readonly policies: readonly NetworkPolicy[];
  readonly skipped: readonly SkippedObject[];
}

/** Sorting a policy list validates every policy, so it is done once per list. */
const sortedLists = new WeakMap<readonly NetworkPolicy[], Sorted>();

/** The policies validate() accepts, first of each namespace/name; the others, with the reason. */
function sortPolicies(list: readonly NetworkPolicy[]): Sorted {
  const known = sortedLists.get(list);
  if (known !== undefined) return known;
  const policies: NetworkPolicy[] = [];
  const skipped: SkippedObject[] = [];
  const seen = new Set<string>();
  list.forEach((p, index) => {
    const name = policyName(p);
    const key = policyKey(p);
    const errors = validate(p);
    const skip = (why: SkippedObject["errors"]) =>
      skipped.push({ kind: "NetworkPolicy", name: name === "" ? `[${index}]` : key, index, errors: why });
    if (errors.length > 0) skip(errors);
    else if (seen.has(key))
      skip([
        { type: "FieldValueDuplicate", field: "metadata.name", path: ["metadata", "name"], badValue: name, detail: "" },
      ]);
    else {
      seen.add(key);
      policies.push(p);
    }
  });
  const sorted = { policies, skipped };
  sortedLists.set(list, sorted);
  return sorted;
}

/** The policies that take part, and what was left out. */
export function referenceSkipped(cluster: ReferenceCluster): readonly SkippedObject[] {
  return sortPolicies(cluster.policies).skipped;
}

/** E1: missing or empty policyTypes is Ingress, plus Egress when spec.egress has an element. */
function policyTypes(p: NetworkPolicy): readonly string[] {
  const given = p.spec?.policyTypes ?? [];
  if (given.length > 0) return given;
  return (p.spec?.egress ?? []).length > 0 ? ["Ingress", "Egress"] : ["Ingress"];
}

/** E3 + E12: the policy selects the pod with spec.podSelector (missing means {}, E1). */
function selectsPod(p: NetworkPolicy, pod: ClusterPod): boolean {
  if (pod.hostNetwork === true) return false; // E12
  if (policyNamespace(p) !== pod.namespace) return false; // E3: own namespace only
  const sel = p.spec?.podSelector;
  if (sel === undefined) return true; // E1
  return selectorMatches(sel, pod.labels ?? {});
}

// ------------------------------------------------------------------ endpoints

type Resolved =
  | { readonly kind: "pod"; readonly key: string; readonly pod: ClusterPod; readonly addr: Address }
  | { readonly kind: "address"; readonly addr: Address };

function podKey(pod: ClusterPod): string {
  return `${pod.namespace}/${pod.name}`;
}

function mustParse(text: string, at: string): Address {
  const a = parseAddress(text);
  if (a === null) throw new EvaluatorInputError(at, `${JSON.stringify(text)} is not an IP address`);
  return a;
}

function resolveEndpoint(cluster: ReferenceCluster, e: Endpoint, at: string): Resolved {
  if (e === null || typeof e !== "object") throw new EvaluatorInputError(at, "must be {pod} or {ip}");
  const hasPod = Object.hasOwn(e, "pod");
  if (hasPod === Object.hasOwn(e, "ip")) throw new EvaluatorInputError(at, "must have exactly one of pod and ip");
  if (hasPod) {
    const key = (e as { pod: unknown }).pod;
    for (let i = 0; i < cluster.pods.length; i++) {
      const pod = cluster.pods[i]!;
      if (podKey(pod) === key) return { kind: "pod", key, pod, addr: mustParse(pod.ip, `pods[${i}].ip`) };
    }
    throw new EvaluatorInputError(`${at}.pod`, `no pod ${JSON.stringify(key)}`);
  }
  const ip = (e as { ip: unknown }).ip;
  if (typeof ip !== "string") throw new EvaluatorInputError(`${at}.ip`, "must be a string");
  // E15: an {ip} endpoint is an address, never looked up among the pods.
  return { kind: "address", addr: mustParse(ip, `${at}.ip`) };
}

/** Policy subjects are pods that are not hostNetwork (§1.2.3 not-applicable, E12). */
function isSubject(r: Resolved): r is Extract<Resolved, { kind: "pod" }> {
  return r.kind === "pod" && r.pod.hostNetwork !== true;
}

function podProtocol(p: { readonly protocol?: Protocol }): Protocol {
  return p.protocol ?? "TCP";
}

function checkPort(port: unknown, at: string): number {
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new EvaluatorInputError(at, "must be an integer from 1 to 65535");
  }
  return port;
}

function checkProtocol(protocol: unknown, at: string): Protocol {
  if (protocol === undefined) return "TCP";
  if (protocol !== "TCP" && protocol !== "UDP" && protocol !== "SCTP")
    throw new EvaluatorInputError(at, "must be TCP, UDP or SCTP");
  return protocol;
}

/** E9: a port name is resolved on the destination pod by name and protocol. */
function resolvePort(port: number | string, protocol: Protocol, to: Resolved): number {
  if (typeof port !== "string") return checkPort(port, "connection.port");
  if (port === "") throw new EvaluatorInputError("connection.port", "must be a number or a port name");
  if (to.kind !== "pod") throw new EvaluatorInputError("connection.port", "a port name needs a pod destination");
  for (const p of to.pod.ports ?? []) {
    if (p.name === port && podProtocol(p) === protocol) return p.containerPort;
  }
  throw new EvaluatorInputError("connection.port", `no ${protocol} port named ${JSON.stringify(port)}`);
}

// ------------------------------------------------------------------ rules

/** E6 + E7: does one peer admit the endpoint at the far end of the rule? */
function peerMatches(
  cluster: ReferenceCluster,
  policy: NetworkPolicy,
  peer: NetworkPolicyPeer,
  end: Resolved,
): boolean {
  if (peer.ipBlock !== undefined) {
    // E7: by address alone, so pods (hostNetwork ones too, E12) are covered.
    const cidr = parseNetwork(peer.ipBlock.cidr);
    if (cidr === null || !inNetwork(cidr, end.addr)) return false;
    for (const ex of peer.ipBlock.except) {
      const n = parseNetwork(ex);
      if (n !== null && inNetwork(n, end.addr)) return false;
    }
    return true;
  }
  // E6/E12: selectors never see addresses or hostNetwork pods.
  if (!isSubject(end)) return false;
  if (peer.namespaceSelector !== undefined) {
    const nsLabels = namespaceLabels(cluster, end.pod.namespace);
    if (nsLabels === undefined || !selectorMatches(peer.namespaceSelector, nsLabels)) return false;
  } else if (end.pod.namespace !== policyNamespace(policy)) {
    // E6: podSelector alone is scoped to the policy's namespace.
    return false;
  }
  if (peer.podSelector !== undefined && !selectorMatches(peer.podSelector, end.pod.labels ?? {})) return false;
  return true;
}

/** E8: one ports entry against the connection; the destination is what named ports look at. */
function portEntryMatches(entry: NetworkPolicyPort, protocol: Protocol, port: number, to: Resolved): boolean {
  const entryProtocol = Object.hasOwn(entry, "protocol") ? entry.protocol : "TCP"; // E1
  if (entryProtocol !== protocol) return false;
  const p = entry.port;
  if (p === undefined) return true; // every port of that protocol
  if (p.type === 1n) {
    // Named: only a pod destination that declares the name with this protocol and number.
    if (to.kind !== "pod") return false;
    return (to.pod.ports ?? []).some(
      (d) => d.name === p.strVal && podProtocol(d) === entryProtocol && d.containerPort === port,
    );
  }
  if (Object.hasOwn(entry, "endPort")) return port >= p.intVal && port <= entry.endPort;
  return port === p.intVal;
}

/** E5: (no peers or some peer) and (no ports or some entry). */
function ruleMatches(
  cluster: ReferenceCluster,
  policy: NetworkPolicy,
  peers: readonly NetworkPolicyPeer[],
  ports: readonly NetworkPolicyPort[],
  far: Resolved,
  protocol: Protocol,
  port: number,
  to: Resolved,
): boolean {
  const peerOk = peers.length === 0 || peers.some((peer) => peerMatches(cluster, policy, peer, far));
  const portOk = ports.length === 0 || ports.some((e) => portEntryMatches(e, protocol, port, to));
  return peerOk && portOk;
}

const NOT_APPLICABLE_: DirectionDecision = { verdict: "not-applicable", policies: [] };
const SELF_: DirectionDecision = { verdict: "self", policies: [] };
const NOT_ISOLATED_: DirectionDecision = { verdict: "not-isolated", policies: [] };
const NODE_LOCAL_: DirectionDecision = { verdict: "node-local", policies: [] };

/** E3: isolated by the policies that select the subject for the direction; allowed by any of their rules. */
function judge(
  cluster: ReferenceCluster,
  direction: "Ingress" | "Egress",
  subject: ClusterPod,
  far: Resolved,
  protocol: Protocol,
  port: number,
  to: Resolved,
): DirectionDecision {
  const isolating: NetworkPolicy[] = [];
  for (const p of cluster.policies) {
    if (selectsPod(p, subject) && policyTypes(p).includes(direction)) isolating.push(p);
  }
  if (isolating.length === 0) return NOT_ISOLATED_;
  const matched: PolicyRuleMatch[] = [];
  for (const p of isolating) {
    const rules: number[] = [];
    if (direction === "Ingress") {
      (p.spec?.ingress ?? []).forEach((r, i) => {
        if (ruleMatches(cluster, p, r.from, r.ports, far, protocol, port, to)) rules.push(i);
      });
    } else {
      (p.spec?.egress ?? []).forEach((r, i) => {
        if (ruleMatches(cluster, p, r.to, r.ports, far, protocol, port, to)) rules.push(i);
      });
    }
    if (rules.length > 0) matched.push({ policy: policyKey(p), rules });
  }
  if (matched.length > 0) return { verdict: "allowed-by-rule", policies: matched };
  return { verdict: "denied", policies: isolating.map((p) => ({ policy: policyKey(p), rules: [] })) };
}

function samePod(a: Resolved, b: Resolved): boolean {
  return a.kind === "pod" && b.kind === "pod" && a.key === b.key;
}

/** §1.2.3 egress: not-applicable → self → not-isolated → allowed-by-rule / denied. */
function egressOf(
  cluster: ReferenceCluster,
  from: Resolved,
  to: Resolved,
  protocol: Protocol,
  port: number,
): DirectionDecision {
  if (!isSubject(from)) return NOT_APPLICABLE_; // E4, E12, E14
  if (samePod(from, to)) return SELF_; // E13
  return judge(cluster, "Egress", from.pod, to, protocol, port, to);
}

/** §1.2.3 ingress: not-applicable → self → node-local → not-isolated → allowed-by-rule / denied. */
function ingressOf(
  cluster: ReferenceCluster,
  from: Resolved,
  to: Resolved,
  protocol: Protocol,
  port: number,
): DirectionDecision {
  if (!isSubject(to)) return NOT_APPLICABLE_; // E4, E12, E14
  if (samePod(from, to)) return SELF_; // E13
  // E11: an address or hostNetwork pod carrying the destination's node IP; no hostIP, no node.
  const fromIsNode = from.kind === "address" || from.pod.hostNetwork === true;
  if (fromIsNode && to.pod.hostIP !== undefined && sameAddress(from.addr, mustParse(to.pod.hostIP, "hostIP")))
    return NODE_LOCAL_;
  return judge(cluster, "Ingress", to.pod, from, protocol, port, to);
}

function decide(cluster: ReferenceCluster, from: Resolved, to: Resolved, protocol: Protocol, port: number): Decision {
  const { policies, skipped } = sortPolicies(cluster.policies);
  const taking = { ...cluster, policies };
  const egress = egressOf(taking, from, to, protocol, port);
  const ingress = ingressOf(taking, from, to, protocol, port);
  // Verdict: deny iff some direction is denied (E4).
  const allowed = egress.verdict !== "denied" && ingress.verdict !== "denied";
  return { allowed, protocol, port, egress: copy(egress), ingress: copy(ingress), skipped };
}

/** Fresh objects per decision, so callers can't alias the shared constants. */
function copy(d: DirectionDecision): DirectionDecision {
  return { verdict: d.verdict, policies: d.policies.map((p) => ({ policy: p.policy, rules: [...p.rules] })) };
}

// ------------------------------------------------------------------ entry points

/** One connection, decided by rescanning every policy (semantics §1.2). */
export function referenceEvaluate(cluster: ReferenceCluster, connection: Connection): Decision {
  if (connection === null || typeof connection !== "object")
    throw new EvaluatorInputError("connection", "must be an object");
  const from = resolveEndpoint(cluster, connection.from, "connection.from");
  const to = resolveEndpoint(cluster, connection.to, "connection.to");
  const protocol = checkProtocol(connection.protocol, "connection.protocol");
  const port = resolvePort(connection.port, protocol, to);
  return decide(cluster, from, to, protocol, port);
}

/**
 * Every ordered pod pair, diagonal included, for one protocol and port. A
 * port name is resolved by each connection on its own destination (E9);
 * destinations that do not declare it get no column, and are listed in
 * `unresolved`.
 */
export function referenceTruthTable(cluster: ReferenceCluster, query: TableQuery): TruthTableResult {
  const protocol = checkProtocol(query.protocol, "query.protocol");
  const port = typeof query.port === "string" ? query.port : checkPort(query.port, "query.port");
  if (port === "") throw new EvaluatorInputError("query.port", "must be a number or a port name");
  const declares = (pod: ClusterPod): boolean =>
    typeof port === "number" || (pod.ports ?? []).some((p) => p.name === port && podProtocol(p) === protocol);
  const columns = cluster.pods.filter(declares);
  if (typeof port === "string" && columns.length === 0)
    throw new EvaluatorInputError("query.port", `no pod declares a ${protocol} port named ${port}`);
  const table: TruthTable = {};
  for (const src of cluster.pods) {
    const row: Record<string, "allow" | "deny"> = {};
    for (const dst of columns) {
      const d = referenceEvaluate(cluster, { from: { pod: podKey(src) }, to: { pod: podKey(dst) }, protocol, port });
      row[podKey(dst)] = d.allowed ? "allow" : "deny";
    }
    table[podKey(src)] = row;
  }
  const unresolved = cluster.pods.filter((p) => !declares(p)).map(podKey);
  Object.defineProperty(table, "skipped", { value: referenceSkipped(cluster), enumerable: false });
  Object.defineProperty(table, "unresolved", { value: unresolved, enumerable: false });
  return table as TruthTableResult;
}
