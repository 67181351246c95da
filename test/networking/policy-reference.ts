// A plainly written reference for the NetworkPolicy evaluator of
// shared/docs/semantics.md §1.2: every decision rescans every pod and every
// policy, rule by rule, and each branch names the rule (E1..E15) it follows.
// It is the oracle for the engine's property tests and the benchmark, so it
// shares no code with src/networking beyond the public types and the error
// class: its own address parsing, its own label selectors, its own defaulting.
//
// It assumes the policies are valid (callers leave out what validate()
// rejects) and that the namespaces and pods satisfy the engine's input rules.

import type { NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from "../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { LabelSelector } from "../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { EvaluatorInputError } from "../../src/networking/errors.js";
import type {
  ClusterNamespace,
  ClusterPod,
  Connection,
  Decision,
  DirectionDecision,
  Endpoint,
  PolicyRuleMatch,
  PortQuery,
  Protocol,
  TruthTable,
} from "../../src/networking/evaluator-types.js";

export interface ReferenceCluster {
  readonly namespaces: readonly ClusterNamespace[];
  readonly pods: readonly ClusterPod[];
  readonly policies: readonly NetworkPolicy[];
}

const NAME_LABEL = "kubernetes.io/metadata.name";

// ------------------------------------------------------------------ addresses

/** An address reduced to its family: IPv4 and IPv4-mapped IPv6 are both family 4, as in Go. */
export interface Address {
  readonly family: 4 | 6;
  /** 32 bits for family 4, 128 bits for family 6. */
  readonly value: bigint;
}

/** The addresses inside one CIDR: same family, same leading `bits` bits. */
export interface Network {
  readonly family: 4 | 6;
  readonly base: bigint;
  readonly bits: number;
}

const MAPPED_PREFIX = 0xffffn; // ::ffff:0:0/96, shifted right by 32

/** Dotted quad, each part decimal; leading zeros are read as decimal (the API server's sloppy parsing). */
function parseV4Text(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^[0-9]+$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

/** RFC 4291 text: hex groups, at most one "::", optionally a dotted quad in the last 32 bits. */
function parseV6Text(text: string): bigint | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (s: string): bigint[] | null => {
    if (s === "") return [];
    const out: bigint[] = [];
    const items = s.split(":");
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (i === items.length - 1 && item.includes(".")) {
        const v4 = parseV4Text(item);
        if (v4 === null) return null;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(item)) return null;
        out.push(BigInt(parseInt(item, 16)));
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (head === null || tail === null) return null;
  // A dotted quad is only allowed at the very end.
  if (halves.length === 2 && halves[0]!.includes(".")) return null;
  let groups: bigint[];
  if (halves.length === 2) {
    if (head.length + tail.length > 7) return null;
    groups = [...head, ...new Array<bigint>(8 - head.length - tail.length).fill(0n), ...tail];
  } else {
    if (head.length !== 8) return null;
    groups = head;
  }
  let value = 0n;
  for (const g of groups) value = (value << 16n) | g;
  return value;
}

/** Parses an IP the way the API server's sloppy parser does; null when it is not one. */
export function parseAddress(text: string): Address | null {
  if (typeof text !== "string") return null;
  // Go decides by the first '.' or ':'.
  const dot = text.indexOf(".");
  const colon = text.indexOf(":");
  if (dot >= 0 && (colon < 0 || dot < colon)) {
    const v4 = parseV4Text(text);
    return v4 === null ? null : { family: 4, value: v4 };
  }
  if (colon < 0) return null;
  const v6 = parseV6Text(text);
  if (v6 === null) return null;
  // E7: an IPv4-mapped IPv6 address is an IPv4 address.
  if (v6 >> 32n === MAPPED_PREFIX) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

/**
 * `addr/prefix` as Go's ParseCIDR plus IPNet.Contains see it: host bits are
 * masked off, and an IPv6-written network whose masked address is IPv4-mapped
 * is an IPv4 network of `prefix - 96` bits.
 */
export function parseNetwork(text: string): Network | null {
  const slash = text.indexOf("/");
  if (slash < 0) return null;
  const addrText = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  if (!/^[0-9]+$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  const v4 = addrText.includes(":") ? null : parseV4Text(addrText);
  if (v4 !== null) {
    if (prefix > 32) return null;
    return { family: 4, base: v4 & maskOf(prefix, 32), bits: prefix };
  }
  const v6 = parseV6Text(addrText);
  if (v6 === null || prefix > 128) return null;
  const masked = v6 & maskOf(prefix, 128);
  if (masked >> 32n === MAPPED_PREFIX) return { family: 4, base: masked & 0xffffffffn, bits: prefix - 96 };
  return { family: 6, base: masked, bits: prefix };
}

function maskOf(bits: number, width: number): bigint {
  const all = (1n << BigInt(width)) - 1n;
  return (all >> BigInt(width - bits)) << BigInt(width - bits);
}

function inNetwork(net: Network, a: Address): boolean {
  // E7: the other family never matches.
  if (net.family !== a.family) return false;
  const width = a.family === 4 ? 32 : 128;
  return (a.value & maskOf(net.bits, width)) === net.base;
}

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

function policyKey(p: NetworkPolicy): string {
  return `${policyNamespace(p)}/${p.metadata?.name ?? ""}`;
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
  if (protocol !== "TCP" && protocol !== "UDP" && protocol !== "SCTP") throw new EvaluatorInputError(at, "must be TCP, UDP or SCTP");
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
function peerMatches(cluster: ReferenceCluster, policy: NetworkPolicy, peer: NetworkPolicyPeer, end: Resolved): boolean {
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
    return (to.pod.ports ?? []).some((d) => d.name === p.strVal && podProtocol(d) === entryProtocol && d.containerPort === port);
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
function egressOf(cluster: ReferenceCluster, from: Resolved, to: Resolved, protocol: Protocol, port: number): DirectionDecision {
  if (!isSubject(from)) return NOT_APPLICABLE_; // E4, E12, E14
  if (samePod(from, to)) return SELF_; // E13
  return judge(cluster, "Egress", from.pod, to, protocol, port, to);
}

/** §1.2.3 ingress: not-applicable → self → node-local → not-isolated → allowed-by-rule / denied. */
function ingressOf(cluster: ReferenceCluster, from: Resolved, to: Resolved, protocol: Protocol, port: number): DirectionDecision {
  if (!isSubject(to)) return NOT_APPLICABLE_; // E4, E12, E14
  if (samePod(from, to)) return SELF_; // E13
  // E11: an address or hostNetwork pod carrying the destination's node IP; no hostIP, no node.
  const fromIsNode = from.kind === "address" || from.pod.hostNetwork === true;
  if (fromIsNode && to.pod.hostIP !== undefined && sameAddress(from.addr, mustParse(to.pod.hostIP, "hostIP"))) return NODE_LOCAL_;
  return judge(cluster, "Ingress", to.pod, from, protocol, port, to);
}

function decide(cluster: ReferenceCluster, from: Resolved, to: Resolved, protocol: Protocol, port: number): Decision {
  const egress = egressOf(cluster, from, to, protocol, port);
  const ingress = ingressOf(cluster, from, to, protocol, port);
  // Verdict: deny iff some direction is denied (E4).
  const allowed = egress.verdict !== "denied" && ingress.verdict !== "denied";
  return { allowed, protocol, port, egress: copy(egress), ingress: copy(ingress) };
}

/** Fresh objects per decision, so callers can't alias the shared constants. */
function copy(d: DirectionDecision): DirectionDecision {
  return { verdict: d.verdict, policies: d.policies.map((p) => ({ policy: p.policy, rules: [...p.rules] })) };
}

// ------------------------------------------------------------------ entry points

/** One connection, decided by rescanning every policy (semantics §1.2). */
export function referenceEvaluate(cluster: ReferenceCluster, connection: Connection): Decision {
  if (connection === null || typeof connection !== "object") throw new EvaluatorInputError("connection", "must be an object");
  const from = resolveEndpoint(cluster, connection.from, "connection.from");
  const to = resolveEndpoint(cluster, connection.to, "connection.to");
  const protocol = checkProtocol(connection.protocol, "connection.protocol");
  const port = resolvePort(connection.port, protocol, to);
  return decide(cluster, from, to, protocol, port);
}

/** Every ordered pod pair, diagonal included, for one protocol and numeric port. */
export function referenceTruthTable(cluster: ReferenceCluster, query: PortQuery): TruthTable {
  const protocol = checkProtocol(query.protocol, "query.protocol");
  const port = checkPort(query.port, "query.port");
  const table: TruthTable = {};
  for (const src of cluster.pods) {
    const row: Record<string, "allow" | "deny"> = {};
    for (const dst of cluster.pods) {
      const d = referenceEvaluate(cluster, { from: { pod: podKey(src) }, to: { pod: podKey(dst) }, protocol, port });
      row[podKey(dst)] = d.allowed ? "allow" : "deny";
    }
    table[podKey(src)] = row;
  }
  return table;
}
