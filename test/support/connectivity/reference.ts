// A plainly written reference for the connectivity analysis (analyzeConnectivity and
// diffConnectivity of clusterwire/networking; the shapes are src/networking/evaluate/connectivity/types.ts,
// the semantics the documented choices of the issue 29 design). It is the oracle of the analyzer's
// tests, so it is written for being obviously right, not fast, and shares nothing with the analyzer:
// it reads the NetworkPolicy messages field by field, matches label selectors itself, judges one
// (protocol, port, source, destination) at a time, and only then gathers the answers into port
// ranges and lines. The one thing it borrows is the API server's reading of CIDR text
// (parseNetwork of src/testing/addresses.ts, itself written apart from clusterwire's IP module), and
// `validate`, which decides which policies the API server would have refused.
//
// The semantics, one rule a line (each function below names the one it follows):
//   S1  A workload is one peer; its key is namespace/kind/name. A workload's connections to itself are not listed.
//   S2  A policy without a namespace is in `default`. A policy `validate` rejects is left out, and so
//       is a second policy with the same namespace/name (the first one stays).
//   S3  policyTypes, when empty, is Ingress, plus Egress when spec.egress has at least one rule.
//   S4  A policy isolates, for each of its policyTypes, the workloads of its namespace its podSelector
//       matches (a missing podSelector matches every workload). hostNetwork workloads are never isolated.
//   S5  A connection is allowed when the source's egress allows it and the destination's ingress
//       allows it. A direction whose subject no policy isolates (or whose subject is an address outside
//       the cluster) allows everything; an isolated one allows what at least one rule of at least one
//       isolating policy admits, by peer and by port.
//   S6  A rule with no peers admits every workload and every address; otherwise one of its peers must.
//       A selector peer admits workloads only (never addresses, never hostNetwork workloads):
//       podSelector alone means the policy's namespace, namespaceSelector alone every workload of the
//       matching namespaces, both together the matching workloads of the matching namespaces. An
//       ipBlock peer admits addresses only (workloads have no addresses): those in cidr and in none of except.
//   S7  A rule with no ports admits every port of every protocol. A port entry's protocol defaults to TCP;
//       without a port it is every port of that protocol; a number is that port, up to endPort when set;
//       a name is each container port of the destination workload with that name and protocol (towards
//       an address it is nothing).
//   S8  Label selectors: every matchLabels pair and every matchExpression must hold (In, NotIn, Exists,
//       DoesNotExist); the empty selector matches everything. Namespaces carry the label
//       kubernetes.io/metadata.name with their own name (over any such label given).
//   S9  Addresses outside the cluster: all of IPv4 and all of IPv6, cut at both edges of every cidr and
//       except of every policy kept by S2 (plus any extra cuts). Each piece is judged at its first address;
//       no ipBlock's edge falls inside a piece, so every address of it is judged alike.
//   S10 For each workload and direction, the pieces with the same connections make one line; adjacent
//       pieces join into one range, written as the fewest CIDRs that cover it exactly.
//
// The diff compares two such lists: workload pairs by key, and, per workload and direction, the
// pieces of a cut common to both sides (every ipBlock edge of either), each piece's connections
// read back from the list lines that hold it; pieces with the same before and after make one change.

import type { NetworkPolicyPeer, NetworkPolicyPort } from "../../../src/networking/index.js";
import { validate } from "../../../src/networking/index.js";
import type { LabelSelector } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import type {
  AddressRange,
  ClusterWorkload,
  ConnectionSet,
  ConnectivityChange,
  ConnectivityInput,
  ConnectivityLine,
  ConnectivityPeer,
  PortRange,
} from "../../../src/networking/evaluate/connectivity/types.js";
import { formatIP, parseNetwork, type IPNet } from "../../../src/testing/addresses.js";

export type Protocol = "TCP" | "UDP" | "SCTP";
export const REFERENCE_PROTOCOLS: readonly Protocol[] = ["TCP", "UDP", "SCTP"];

const NAME_LABEL = "kubernetes.io/metadata.name";
const LAST_PORT = 65535;

/** Options of {@link referenceLines}. */
export interface ReferenceOptions {
  /** More CIDRs to cut the address space at (S9). */
  readonly externalCuts?: readonly string[];
  /**
   * `representative` (the default) judges each port range at one port (see representativePorts);
   * `every` judges all 65,535 ports of each protocol one by one, for checking the former on small inputs.
   */
  readonly ports?: "representative" | "every";
}

// ------------------------------------------------------------------ the input, read plainly

interface Policy {
  readonly key: string;
  readonly namespace: string;
  readonly podSelector: LabelSelector | undefined;
  /** null when the policy does not isolate for ingress (S3). */
  readonly ingress: readonly Rule[] | null;
  readonly egress: readonly Rule[] | null;
}

interface Rule {
  readonly peers: readonly NetworkPolicyPeer[];
  readonly ports: readonly NetworkPolicyPort[];
}

interface Snapshot {
  readonly workloads: readonly ClusterWorkload[];
  readonly namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
  readonly policies: readonly Policy[];
}

/** S2: the policies kept (namespace/name and position in the input), in input order. */
export function referencePolicies(input: ConnectivityInput): { key: string; index: number }[] {
  return keptPolicies(input).map(({ policy, index }) => ({ key: policy.key, index }));
}

function keptPolicies(input: ConnectivityInput): { policy: Policy; index: number }[] {
  const kept: { policy: Policy; index: number }[] = [];
  const seen = new Set<string>();
  input.policies.forEach((np, index) => {
    const namespace = np.metadata?.namespace || "default";
    const name = np.metadata?.name || np.metadata?.generateName || "";
    const key = `${namespace}/${name}`;
    if (validate(np).length > 0) return;
    if (seen.has(key)) return;
    seen.add(key);
    const spec = np.spec;
    const ingressRules = spec?.ingress ?? [];
    const egressRules = spec?.egress ?? [];
    let types = spec?.policyTypes ?? [];
    if (types.length === 0) types = egressRules.length > 0 ? ["Ingress", "Egress"] : ["Ingress"];
    kept.push({
      index,
      policy: {
        key,
        namespace,
        podSelector: spec?.podSelector,
        ingress: types.includes("Ingress") ? ingressRules.map((r) => ({ peers: r.from, ports: r.ports })) : null,
        egress: types.includes("Egress") ? egressRules.map((r) => ({ peers: r.to, ports: r.ports })) : null,
      },
    });
  });
  return kept;
}

function snapshotOf(input: ConnectivityInput): Snapshot {
  const namespaceLabels = new Map<string, Readonly<Record<string, string>>>();
  for (const ns of input.namespaces) namespaceLabels.set(ns.name, { ...ns.labels, [NAME_LABEL]: ns.name });
  const keys = new Set<string>();
  for (const w of input.workloads) {
    if (!namespaceLabels.has(w.namespace)) throw new Error(`reference: workload ${keyOf(w)}: namespace not listed`);
    if (keys.has(keyOf(w))) throw new Error(`reference: workload ${keyOf(w)} twice`);
    keys.add(keyOf(w));
  }
  const policies = keptPolicies(input).map((k) => k.policy);
  for (const p of policies) {
    if (!namespaceLabels.has(p.namespace)) throw new Error(`reference: policy ${p.key}: namespace not listed`);
  }
  return { workloads: input.workloads, namespaceLabels, policies };
}

function keyOf(w: ClusterWorkload): string {
  return `${w.namespace}/${w.kind}/${w.name}`;
}

// ------------------------------------------------------------------ S8: label selectors

function selectorMatches(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (selector === undefined) return true;
  for (const [key, value] of Object.entries(selector.matchLabels)) {
    if (!Object.hasOwn(labels, key) || labels[key] !== value) return false;
  }
  for (const expression of selector.matchExpressions) {
    const has = Object.hasOwn(labels, expression.key);
    const value = labels[expression.key];
    let holds: boolean;
    switch (expression.operator) {
      case "In":
        holds = has && expression.values.includes(value as string);
        break;
      case "NotIn":
        holds = !has || !expression.values.includes(value as string);
        break;
      case "Exists":
        holds = has;
        break;
      case "DoesNotExist":
        holds = !has;
        break;
      default:
        throw new Error(`reference: operator ${expression.operator} passed validation`);
    }
    if (!holds) return false;
  }
  return true;
}

// ------------------------------------------------------------------ the two ends of a connection

/** An address outside the cluster, as a number of its family. */
interface Address {
  readonly family: 4 | 6;
  readonly value: bigint;
}

type End = { readonly workload: ClusterWorkload } | { readonly address: Address };

function networkContains(net: IPNet, a: Address): boolean {
  if (net.family !== a.family) return false;
  const bits = BigInt((a.family === 4 ? 32 : 128) - net.prefix);
  return a.value >> bits === net.address >> bits;
}

/** Parsed CIDRs, by text (parsing is the slow part of judging one address). */
const PARSED = new Map<string, IPNet>();

function cidr(text: string): IPNet {
  let net = PARSED.get(text);
  if (net === undefined) {
    const parsed = parseNetwork(text);
    if (parsed === null) throw new Error(`reference: ${text} passed validation but is not a CIDR`);
    net = parsed;
    PARSED.set(text, net);
  }
  return net;
}

/** S6: whether one peer of a rule of a policy in `namespace` admits `end`. */
function peerAdmits(s: Snapshot, namespace: string, peer: NetworkPolicyPeer, end: End): boolean {
  if ("address" in end) {
    if (peer.ipBlock === undefined) return false;
    const block = peer.ipBlock;
    return (
      networkContains(cidr(block.cidr), end.address) && !block.except.some((e) => networkContains(cidr(e), end.address))
    );
  }
  if (peer.ipBlock !== undefined) return false;
  const w = end.workload;
  if (w.hostNetwork === true) return false;
  const namespaceOk =
    peer.namespaceSelector === undefined
      ? w.namespace === namespace
      : selectorMatches(peer.namespaceSelector, s.namespaceLabels.get(w.namespace) ?? {});
  const podOk = peer.podSelector === undefined || selectorMatches(peer.podSelector, w.labels ?? {});
  return namespaceOk && podOk;
}

/** S7: whether one port entry admits `port` of `protocol` towards `destination`. */
function portEntryAdmits(entry: NetworkPolicyPort, destination: End, protocol: Protocol, port: number): boolean {
  const entryProtocol = entry.protocol === "" ? "TCP" : entry.protocol;
  if (entryProtocol !== protocol) return false;
  if (entry.port === undefined) return true;
  if (entry.port.type === 1n) {
    if ("address" in destination) return false;
    const name = entry.port.strVal;
    return (destination.workload.ports ?? []).some(
      (p) => p.name === name && (p.protocol ?? "TCP") === protocol && p.containerPort === port,
    );
  }
  const first = entry.port.intVal;
  const last = entry.endPort > 0 ? entry.endPort : first;
  return first <= port && port <= last;
}

/** S4: whether `policy` selects `w` (ignoring policyTypes). */
function selects(policy: Policy, w: ClusterWorkload): boolean {
  return (
    w.hostNetwork !== true && policy.namespace === w.namespace && selectorMatches(policy.podSelector, w.labels ?? {})
  );
}

/**
 * S5, S6: one direction of a connection before its port is known. `subject` is the end the
 * direction belongs to (the source for egress, the destination for ingress), `peer` the other end.
 * null when no policy isolates the subject for this direction (addresses and hostNetwork workloads
 * never are); otherwise the rules of the isolating policies whose peers admit `peer`, one of which
 * must then admit the port (S7).
 */
function rulesAdmittingPeer(s: Snapshot, direction: "ingress" | "egress", subject: End, peer: End): Rule[] | null {
  if (!("workload" in subject)) return null;
  const isolating = s.policies.filter((p) => p[direction] !== null && selects(p, subject.workload));
  if (isolating.length === 0) return null;
  return isolating.flatMap((p) =>
    (p[direction] ?? []).filter(
      (r) => r.peers.length === 0 || r.peers.some((one) => peerAdmits(s, p.namespace, one, peer)),
    ),
  );
}

/** S5, S7: whether one direction allows `port` of `protocol` towards `destination`. */
function directionAllows(rules: readonly Rule[] | null, destination: End, protocol: Protocol, port: number): boolean {
  if (rules === null) return true;
  return rules.some(
    (r) => r.ports.length === 0 || r.ports.some((e) => portEntryAdmits(e, destination, protocol, port)),
  );
}

// ------------------------------------------------------------------ ports

export const NO_CONNECTIONS_REFERENCE: ConnectionSet = { TCP: [], UDP: [], SCTP: [] };
const EVERY_PORT: readonly PortRange[] = [{ from: 1, to: LAST_PORT }];
export const ALL_CONNECTIONS_REFERENCE: ConnectionSet = { TCP: EVERY_PORT, UDP: EVERY_PORT, SCTP: EVERY_PORT };

/**
 * The ports at which each protocol's answer is judged; each stands for itself and the ports after
 * it up to the next one.
 *
 * Why that is exhaustive: for a fixed source, destination and protocol, `allowed` depends on the
 * port only through two kinds of test (directionAllows), `first <= port <= last` for numbered entries (last = first
 * without endPort) and `port === containerPort` for named ones. Every `first` and `last + 1`, every
 * containerPort and containerPort + 1, and port 1 are in the list. Take any port q and the largest
 * listed port r <= q. If one of those tests answered differently at r and at q, its interval (or
 * its single port) would start or end between them: some `first` or `containerPort` in (r, q], or
 * some `last + 1` or `containerPort + 1` in (r, q]. Each of those is listed, contradicting r being
 * the largest listed port <= q. So every test, and thus `allowed`, answers at q what it answers at r.
 */
function representativePorts(input: ConnectivityInput): number[] {
  const ports = new Set<number>([1]);
  const add = (p: number): void => {
    if (p >= 1 && p <= LAST_PORT) ports.add(p);
  };
  for (const np of input.policies) {
    for (const rule of [...(np.spec?.ingress ?? []), ...(np.spec?.egress ?? [])]) {
      for (const entry of rule.ports) {
        if (entry.port === undefined || entry.port.type === 1n) continue;
        const first = entry.port.intVal;
        const last = entry.endPort > 0 ? entry.endPort : first;
        add(first);
        add(last + 1);
      }
    }
  }
  for (const w of input.workloads) {
    for (const p of w.ports ?? []) {
      add(p.containerPort);
      add(p.containerPort + 1);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

function everyPort(): number[] {
  const out: number[] = [];
  for (let p = 1; p <= LAST_PORT; p++) out.push(p);
  return out;
}

/**
 * S5: the connections from `from` to `to`, allowed when the source's egress and the destination's
 * ingress both allow them: each listed port judged, and held up to the next listed one.
 */
function connectionsBetween(s: Snapshot, ports: readonly number[], from: End, to: End): ConnectionSet {
  const egress = rulesAdmittingPeer(s, "egress", from, to);
  const ingress = rulesAdmittingPeer(s, "ingress", to, from);
  // Shortcuts of the loop below: neither direction isolated allows every port; a direction where
  // no rule admits the peer allows none.
  if (egress === null && ingress === null) return ALL_CONNECTIONS_REFERENCE;
  if (egress?.length === 0 || ingress?.length === 0) return NO_CONNECTIONS_REFERENCE;
  const allowed = (protocol: Protocol, port: number): boolean =>
    directionAllows(egress, to, protocol, port) && directionAllows(ingress, to, protocol, port);
  const out: Record<Protocol, PortRange[]> = { TCP: [], UDP: [], SCTP: [] };
  for (const protocol of REFERENCE_PROTOCOLS) {
    const ranges = out[protocol];
    for (let i = 0; i < ports.length; i++) {
      const port = ports[i]!;
      const until = i + 1 < ports.length ? ports[i + 1]! - 1 : LAST_PORT;
      if (!allowed(protocol, port)) continue;
      const previous = ranges[ranges.length - 1];
      if (previous !== undefined && previous.to === port - 1)
        ranges[ranges.length - 1] = { from: previous.from, to: until };
      else ranges.push({ from: port, to: until });
    }
  }
  return out;
}

function isEmpty(c: ConnectionSet): boolean {
  return c.TCP.length === 0 && c.UDP.length === 0 && c.SCTP.length === 0;
}

function connectionKey(c: ConnectionSet): string {
  return REFERENCE_PROTOCOLS.map((p) => c[p].map((r) => `${r.from}-${r.to}`).join(",")).join(";");
}

// ------------------------------------------------------------------ S9, S10: addresses outside the cluster

/** An inclusive range of addresses of one family, as numbers. */
export interface NumericRange {
  readonly family: 4 | 6;
  readonly first: bigint;
  readonly last: bigint;
}

function familyEnd(family: 4 | 6): bigint {
  return (1n << (family === 4 ? 32n : 128n)) - 1n;
}

/** Every cidr and except of every policy S2 keeps, whether or not its rules are in force. */
function allBlockCidrs(input: ConnectivityInput): string[] {
  const out: string[] = [];
  for (const { index } of keptPolicies(input)) {
    const spec = input.policies[index]?.spec;
    for (const rule of spec?.ingress ?? []) {
      for (const peer of rule.from) if (peer.ipBlock !== undefined) out.push(peer.ipBlock.cidr, ...peer.ipBlock.except);
    }
    for (const rule of spec?.egress ?? []) {
      for (const peer of rule.to) if (peer.ipBlock !== undefined) out.push(peer.ipBlock.cidr, ...peer.ipBlock.except);
    }
  }
  return out;
}
/** S9: both families cut at the first address of each CIDR and the address after its last. */
export function referenceSegments(cidrs: readonly string[]): NumericRange[] {
  const out: NumericRange[] = [];
  for (const family of [4, 6] as const) {
    const end = familyEnd(family);
    const starts = new Set<bigint>([0n]);
    for (const text of cidrs) {
      const net = cidr(text);
      if (net.family !== family) continue;
      const size = 1n << BigInt((family === 4 ? 32 : 128) - net.prefix);
      starts.add(net.address);
      if (net.address + size <= end) starts.add(net.address + size);
    }
    const sorted = [...starts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    sorted.forEach((first, i) => {
      const next = sorted[i + 1];
      out.push({ family, first, last: next === undefined ? end : next - 1n });
    });
  }
  return out;
}

/**
 * The fewest CIDRs that cover exactly first..last: from the start, each time the largest block
 * that starts there (aligned to its size) and does not pass `last`.
 */
export function referenceCidrs(range: NumericRange): string[] {
  const width = range.family === 4 ? 32 : 128;
  const out: string[] = [];
  let at = range.first;
  while (at <= range.last) {
    let prefix = width;
    // Grow the block while it stays aligned at `at` and inside the range.
    while (prefix > 0) {
      const bigger = 1n << BigInt(width - prefix + 1);
      if (at % bigger !== 0n || at + bigger - 1n > range.last) break;
      prefix--;
    }
    out.push(`${formatIP(range.family, at)}/${prefix}`);
    at += 1n << BigInt(width - prefix);
  }
  return out;
}

/** S10: adjacent pieces joined, IPv4 first, in address order, as AddressRanges. */
function addressRanges(pieces: readonly NumericRange[]): AddressRange[] {
  const sorted = [...pieces].sort(compareNumeric);
  const joined: NumericRange[] = [];
  for (const p of sorted) {
    const previous = joined[joined.length - 1];
    if (previous !== undefined && previous.family === p.family && previous.last + 1n === p.first) {
      joined[joined.length - 1] = { family: p.family, first: previous.first, last: p.last };
    } else joined.push(p);
  }
  return joined.map((r) => {
    const range: AddressRange = {
      family: r.family,
      first: formatIP(r.family, r.first),
      last: formatIP(r.family, r.last),
      cidrs: referenceCidrs(r),
    };
    NUMBERS.set(range, r);
    return range;
  });
}

function compareNumeric(a: NumericRange, b: NumericRange): number {
  if (a.family !== b.family) return a.family - b.family;
  if (a.first !== b.first) return a.first < b.first ? -1 : 1;
  return a.last < b.last ? -1 : a.last > b.last ? 1 : 0;
}

function externalPeer(pieces: readonly NumericRange[]): ConnectivityPeer {
  const ranges = addressRanges(pieces);
  return { type: "external", ranges, key: ranges.flatMap((r) => r.cidrs).join(",") };
}

function workloadPeer(w: ClusterWorkload): ConnectivityPeer {
  return { type: "workload", key: keyOf(w), namespace: w.namespace, kind: w.kind, name: w.name };
}

// ------------------------------------------------------------------ order of lines

/** Workloads by their position in `order`, before addresses; addresses by their ranges. */
function comparePeers(order: ReadonlyMap<string, number>, a: ConnectivityPeer, b: ConnectivityPeer): number {
  if (a.type === "workload" && b.type === "workload") return (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0);
  if (a.type === "workload") return -1;
  if (b.type === "workload") return 1;
  const ra = a.type === "external" ? a.ranges : [];
  const rb = b.type === "external" ? b.ranges : [];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    const c = compareNumeric(numeric(ra[i]!), numeric(rb[i]!));
    if (c !== 0) return c;
  }
  return ra.length - rb.length;
}

/** The numbers behind each AddressRange this module made (text is not read back: IPv6 text can look IPv4-mapped). */
const NUMBERS = new WeakMap<AddressRange, NumericRange>();

function numeric(r: AddressRange): NumericRange {
  const n = NUMBERS.get(r);
  if (n === undefined) throw new Error("reference: an address range the reference did not make");
  return n;
}

/**
 * The contract's order: lines from workloads first, by source, then destination (workloads before
 * addresses); then lines from addresses, by destination, then source.
 */
function sortLines<T extends { from: ConnectivityPeer; to: ConnectivityPeer }>(
  lines: T[],
  order: ReadonlyMap<string, number>,
): T[] {
  return lines.sort((x, y) => {
    const fromAddresses = (l: T): number => (l.from.type === "external" ? 1 : 0);
    if (fromAddresses(x) !== fromAddresses(y)) return fromAddresses(x) - fromAddresses(y);
    if (fromAddresses(x) === 1) return comparePeers(order, x.to, y.to) || comparePeers(order, x.from, y.from);
    return comparePeers(order, x.from, y.from) || comparePeers(order, x.to, y.to);
  });
}

// ------------------------------------------------------------------ the list

/**
 * Every line of the connectivity list of `input` (S1..S10), in the contract's order: each workload
 * (in input order) with its destinations, workloads in input order and then addresses by their
 * ranges; then the lines from addresses, by destination workload, then by their ranges.
 */
export function referenceLines(input: ConnectivityInput, options: ReferenceOptions = {}): ConnectivityLine[] {
  const s = snapshotOf(input);
  const ports = options.ports === "every" ? everyPort() : representativePorts(input);
  const segments = referenceSegments([...allBlockCidrs(input), ...(options.externalCuts ?? [])]);
  const lines: ConnectivityLine[] = [];
  for (const from of s.workloads) {
    for (const to of s.workloads) {
      if (from === to) continue;
      const connections = connectionsBetween(s, ports, { workload: from }, { workload: to });
      if (!isEmpty(connections)) lines.push({ from: workloadPeer(from), to: workloadPeer(to), connections });
    }
  }
  for (const w of s.workloads) {
    for (const direction of ["egress", "ingress"] as const) {
      const groups = new Map<string, { connections: ConnectionSet; pieces: NumericRange[] }>();
      for (const segment of segments) {
        const address: End = { address: { family: segment.family, value: segment.first } };
        const connections =
          direction === "egress"
            ? connectionsBetween(s, ports, { workload: w }, address)
            : connectionsBetween(s, ports, address, { workload: w });
        if (isEmpty(connections)) continue;
        const key = connectionKey(connections);
        const group = groups.get(key) ?? { connections, pieces: [] };
        group.pieces.push(segment);
        groups.set(key, group);
      }
      for (const { connections, pieces } of groups.values()) {
        const external = externalPeer(pieces);
        lines.push(
          direction === "egress"
            ? { from: workloadPeer(w), to: external, connections }
            : { from: external, to: workloadPeer(w), connections },
        );
      }
    }
  }
  return sortLines(lines, new Map(s.workloads.map((w, i) => [keyOf(w), i])));
}

// ------------------------------------------------------------------ the diff

/** What {@link referenceDiff} answers: the `changes`, `addedWorkloads` and `removedWorkloads` of a ConnectivityDiff. */
export interface ReferenceDiff {
  readonly changes: ConnectivityChange[];
  readonly addedWorkloads: string[];
  readonly removedWorkloads: string[];
}

function sameConnections(a: ConnectionSet, b: ConnectionSet): boolean {
  return connectionKey(a) === connectionKey(b);
}

/** The connections a list gives from one workload to another: its line's, or none. */
function betweenWorkloads(lines: readonly ConnectivityLine[], from: string, to: string): ConnectionSet {
  const line = lines.find(
    (l) => l.from.type === "workload" && l.to.type === "workload" && l.from.key === from && l.to.key === to,
  );
  return line === undefined ? NO_CONNECTIONS_REFERENCE : line.connections;
}

/** The connections a list gives between a workload and the addresses of `piece`, which no line holds only part of. */
function withAddresses(
  lines: readonly ConnectivityLine[],
  workload: string,
  direction: "egress" | "ingress",
  piece: NumericRange,
): ConnectionSet {
  for (const l of lines) {
    const mine = direction === "egress" ? l.from : l.to;
    const other = direction === "egress" ? l.to : l.from;
    if (mine.type !== "workload" || mine.key !== workload || other.type !== "external") continue;
    for (const r of other.ranges) {
      const n = numeric(r);
      if (n.family !== piece.family) continue;
      if (n.first <= piece.first && piece.last <= n.last) return l.connections;
      if (!(piece.last < n.first || n.last < piece.first)) throw new Error("reference: a line holds part of a piece");
    }
  }
  return NO_CONNECTIONS_REFERENCE;
}

/**
 * The changes from `before` to `after`: the two reference lists compared workload pair by workload
 * pair (by key), and workload by workload against the pieces of the address space cut at every
 * ipBlock edge of both sides. Sorted as the lists are, the workloads of `before` first, then those
 * only `after` has, in its order.
 */
export function referenceDiff(before: ConnectivityInput, after: ConnectivityInput): ReferenceDiff {
  const cuts = [...allBlockCidrs(before), ...allBlockCidrs(after)];
  const beforeLines = referenceLines(before, { externalCuts: cuts });
  const afterLines = referenceLines(after, { externalCuts: cuts });
  const beforeKeys = new Set(before.workloads.map(keyOf));
  const afterKeys = new Set(after.workloads.map(keyOf));
  const all: ClusterWorkload[] = [...before.workloads, ...after.workloads.filter((w) => !beforeKeys.has(keyOf(w)))];
  const flag = (...keys: string[]): { workload?: "added" | "removed" } => {
    if (keys.some((k) => !beforeKeys.has(k))) return { workload: "added" };
    if (keys.some((k) => !afterKeys.has(k))) return { workload: "removed" };
    return {};
  };
  const change = (
    from: ConnectivityPeer,
    to: ConnectivityPeer,
    was: ConnectionSet,
    is: ConnectionSet,
    workload: { workload?: "added" | "removed" },
  ): ConnectivityChange => ({
    kind: isEmpty(was) ? "added" : isEmpty(is) ? "removed" : "changed",
    from,
    to,
    before: was,
    after: is,
    ...workload,
  });

  const changes: ConnectivityChange[] = [];
  for (const from of all) {
    for (const to of all) {
      if (from === to) continue;
      const was = betweenWorkloads(beforeLines, keyOf(from), keyOf(to));
      const is = betweenWorkloads(afterLines, keyOf(from), keyOf(to));
      if (sameConnections(was, is)) continue;
      changes.push(change(workloadPeer(from), workloadPeer(to), was, is, flag(keyOf(from), keyOf(to))));
    }
  }
  const pieces = referenceSegments(cuts);
  for (const w of all) {
    for (const direction of ["egress", "ingress"] as const) {
      const groups = new Map<string, { was: ConnectionSet; is: ConnectionSet; pieces: NumericRange[] }>();
      for (const piece of pieces) {
        const was = withAddresses(beforeLines, keyOf(w), direction, piece);
        const is = withAddresses(afterLines, keyOf(w), direction, piece);
        if (sameConnections(was, is)) continue;
        const key = `${connectionKey(was)}|${connectionKey(is)}`;
        const group = groups.get(key) ?? { was, is, pieces: [] };
        group.pieces.push(piece);
        groups.set(key, group);
      }
      for (const g of groups.values()) {
        const external = externalPeer(g.pieces);
        const [from, to] = direction === "egress" ? [workloadPeer(w), external] : [external, workloadPeer(w)];
        changes.push(change(from, to, g.was, g.is, flag(keyOf(w))));
      }
    }
  }
  return {
    changes: sortLines(changes, new Map(all.map((w, i) => [keyOf(w), i]))),
    addedWorkloads: after.workloads.map(keyOf).filter((k) => !beforeKeys.has(k)),
    removedWorkloads: before.workloads.map(keyOf).filter((k) => !afterKeys.has(k)),
  };
}
