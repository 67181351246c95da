// The connectivity analysis: for every ordered pair of workloads, and between every workload and
// each segment of the address space outside the cluster, the set of connections (protocols and
// ports) the NetworkPolicies allow (docs/connectivity.md).
//
// It compiles policies exactly as the policy engine does (compile.ts: the same selectors, the same
// validation, the same skipped list), over workloads that have no address. A pair's connections
// are what the source's egress rules allow towards the destination, met with what the
// destination's ingress rules allow from the source. Both sides are computed once per distinct
// set of isolating policies, as arrays of interned connection-set ids over all workloads (and all
// segments), so a pair is two array reads and one memoised intersection.

import type { NetworkPolicy } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { EvaluatorInputError } from "../../model/errors.js";
import { parseCIDRSloppy, parseIPSloppy, type IP } from "../../validation/rules/ip.js";
import { forEachBit, hasBit, setBit, wordCount, type Bits } from "../bitset.js";
import {
  compileNamespaces,
  compilePolicy,
  inBlock,
  labelsAt,
  listAt,
  podPortAt,
  setBuilderFor,
  stringAt,
} from "../policy/compile.js";
import type { Pod, Policy, Rule } from "../policy/compiled.js";
import type { PolicyRuleMatch, Protocol } from "../policy/types.js";
import type { SkippedObject } from "../types.js";
import { addCut, addressOf, meets, peerRange, segmentsOf, type Segment } from "./addresses.js";
import { ALL_ID, ConnectionPool, NONE_ID, connectionSetOf } from "./connection-set.js";
import type {
  AddressRange,
  AnalyzedPolicy,
  AnalyzedRule,
  ConnectionExplanation,
  ConnectionSet,
  ConnectivityAnalysis,
  ConnectivityInput,
  ConnectivityLine,
  ConnectivityOptions,
  ConnectivityPeer,
  DirectionExplanation,
  PortRange,
} from "./types.js";

type WorkloadPeer = Extract<ConnectivityPeer, { type: "workload" }>;
type ExternalPeer = Extract<ConnectivityPeer, { type: "external" }>;

/** Workloads have no address; the pod records need one, which nothing reads (the SetBuilder is addressless). */
const NO_ADDRESS: IP = Object.freeze({ family: 4, w0: 0, w1: 0, w2: 0xffff, w3: 0 });

/** A resolved end: a workload index, or a segment index (external). */
type End = { readonly workload: number } | { readonly segment: number };

/**
 * The connectivity of one snapshot: every workload to every other, and to and from the address
 * space outside the cluster. Throws EvaluatorInputError for input it cannot give a meaning to (a
 * workload or policy in a namespace `namespaces` does not list, two workloads with one key).
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, analyzeConnectivity, create, formatConnectionSet } from "clusterwire/networking";
 *
 * const analysis = analyzeConnectivity({
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
 *     { namespace: "shop", kind: "Deployment", name: "db", labels: { app: "db" }, ports: [{ name: "pg", containerPort: 5432 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "db", namespace: "shop" },
 *       spec: {
 *         podSelector: { matchLabels: { app: "db" } },
 *         ingress: [{ from: [{ podSelector: { matchLabels: { app: "web" } } }], ports: [{ port: { type: 1n, strVal: "pg" } }] }],
 *       },
 *     }),
 *   ],
 * });
 * console.log(formatConnectionSet(analysis.between("shop/Deployment/web", "shop/Deployment/db"))); // "TCP 5432"
 * ```
 */
export function analyzeConnectivity(input: ConnectivityInput, options: ConnectivityOptions = {}): ConnectivityAnalysis {
  const cuts = { v4: new Set<bigint>(), v6: new Set<bigint>() };
  addPolicyCuts(cuts, input);
  addExtraCuts(cuts, options.externalCuts);
  return new Analysis(input, segmentsOf(cuts), new ConnectionPool());
}

/** The edges of every ipBlock of the input's policies (invalid ones too: a cut more changes no answer). */
export function addPolicyCuts(cuts: { v4: Set<bigint>; v6: Set<bigint> }, input: ConnectivityInput): void {
  if (input === null || typeof input !== "object" || !Array.isArray(input.policies)) return;
  const seen = new Set<string>();
  for (const np of input.policies as readonly (NetworkPolicy | null | undefined)[]) {
    const spec = np?.spec;
    if (spec === undefined || spec === null) continue;
    const peers = [
      ...(spec.ingress ?? []).flatMap((r) => r.from ?? []),
      ...(spec.egress ?? []).flatMap((r) => r.to ?? []),
    ];
    for (const peer of peers) {
      const block = peer?.ipBlock;
      if (block === undefined || block === null) continue;
      for (const text of [block.cidr, ...(block.except ?? [])]) {
        if (typeof text !== "string" || seen.has(text)) continue;
        seen.add(text);
        const net = parseCIDRSloppy(text);
        if (net !== null) addCut(cuts, net);
      }
    }
  }
}

export function addExtraCuts(cuts: { v4: Set<bigint>; v6: Set<bigint> }, extra: readonly string[] | undefined): void {
  if (extra === undefined) return;
  listAt(extra, "options.externalCuts").forEach((text, i) => {
    const net = typeof text === "string" ? parseCIDRSloppy(text) : null;
    if (net === null)
      throw new EvaluatorInputError(`options.externalCuts[${i}]`, `${JSON.stringify(text)} is not a CIDR`);
    addCut(cuts, net);
  });
}

interface CompiledRule {
  readonly rule: Rule;
  /** The segments its ipBlocks admit. */
  readonly segments: Bits;
  /** Its numbered ports, interned. */
  readonly base: number;
  readonly named: readonly { readonly protocol: Protocol; readonly name: string }[];
  /** Per destination workload, the rule's ports there (named ports resolved), computed on first use; -1 unknown. */
  readonly perDestination: Int32Array | null;
}

interface CompiledPolicy {
  readonly policy: Policy;
  readonly index: number;
  readonly selected: Bits;
  readonly ingress: readonly CompiledRule[] | null;
  readonly egress: readonly CompiledRule[] | null;
}

/** One side of a direction for a group of workloads isolated alike: ids towards every workload and segment. */
interface Side {
  readonly workloads: Int32Array;
  readonly segments: Int32Array;
}

export class Analysis implements ConnectivityAnalysis {
  readonly workloads: readonly WorkloadPeer[];
  readonly skipped: readonly SkippedObject[];

  readonly pool: ConnectionPool;
  readonly #segments: readonly Segment[];
  readonly #pods: readonly Pod[];
  readonly #index: ReadonlyMap<string, number>;
  readonly #policies: readonly CompiledPolicy[];
  readonly #ingressIsolators: readonly (readonly CompiledPolicy[])[];
  readonly #egressIsolators: readonly (readonly CompiledPolicy[])[];
  readonly #egressKeys: readonly string[];
  readonly #ingressKeys: readonly string[] = [];
  readonly #egressSides = new Map<string, Side>();
  readonly #ingressSides = new Map<string, Side>();
  /** Per workload, its sides once looked up (undefined: not yet; null: not isolated). */
  readonly #egressOf: (Side | null | undefined)[];
  readonly #ingressOf: (Side | null | undefined)[];
  readonly #all: Bits;
  #analyzed: readonly AnalyzedPolicy[] | undefined;
  #lines: readonly ConnectivityLine[] | undefined;
  readonly #externalPeers = new Map<string, ExternalPeer>();

  constructor(input: ConnectivityInput, segments: readonly Segment[], pool: ConnectionPool) {
    if (input === null || typeof input !== "object") throw new EvaluatorInputError("", "the input must be an object");
    this.pool = pool;
    this.#segments = segments;
    const namespaces = listAt(input.namespaces, "namespaces");
    const workloadsIn = listAt(input.workloads, "workloads");
    const policiesIn = listAt(input.policies, "policies");

    const { nsIndex, nsLabels } = compileNamespaces(namespaces);

    const pods: Pod[] = [];
    const peers: WorkloadPeer[] = [];
    const index = new Map<string, number>();
    workloadsIn.forEach((w, i) => {
      const at = `workloads[${i}]`;
      if (w === null || typeof w !== "object") throw new EvaluatorInputError(at, "must be an object");
      const namespace = stringAt(w.namespace, `${at}.namespace`);
      const kind = stringAt(w.kind, `${at}.kind`);
      const name = stringAt(w.name, `${at}.name`);
      if (kind === "") throw new EvaluatorInputError(`${at}.kind`, "must be non-empty");
      if (name === "") throw new EvaluatorInputError(`${at}.name`, "must be non-empty");
      const ns = nsIndex.get(namespace);
      if (ns === undefined)
        throw new EvaluatorInputError(
          `${at}.namespace`,
          `namespace ${JSON.stringify(namespace)} is not listed in namespaces`,
        );
      const key = `${namespace}/${kind}/${name}`;
      if (index.has(key)) throw new EvaluatorInputError(`${at}.name`, `duplicate workload ${JSON.stringify(key)}`);
      let hostNetwork = false;
      if (w.hostNetwork !== undefined) {
        if (typeof w.hostNetwork !== "boolean")
          throw new EvaluatorInputError(`${at}.hostNetwork`, "must be true or false");
        hostNetwork = w.hostNetwork;
      }
      const ports = listAt(w.ports, `${at}.ports`).map((pp, j) => podPortAt(pp, `${at}.ports[${j}]`));
      index.set(key, i);
      pods.push({
        key,
        ns,
        labels: Object.freeze({ ...labelsAt(w.labels, `${at}.labels`) }),
        ip: NO_ADDRESS,
        hostIP: undefined,
        hostNetwork,
        ports,
      });
      peers.push(Object.freeze({ type: "workload", key, namespace, kind, name }));
    });
    this.#pods = pods;
    this.#index = index;
    this.workloads = Object.freeze(peers);
    const n = pods.length;
    const words = wordCount(n);
    this.#all = new Uint32Array(words);
    for (let i = 0; i < n; i++) setBit(this.#all, i);

    const sets = setBuilderFor(pods, nsLabels, words, true);

    const skipped: SkippedObject[] = [];
    const policies: CompiledPolicy[] = [];
    const ingressIsolators: CompiledPolicy[][] = pods.map(() => []);
    const egressIsolators: CompiledPolicy[][] = pods.map(() => []);
    const seen = new Set<string>();
    policiesIn.forEach((np, i) => {
      const compiled = compilePolicy(np, i, sets, policies.length, seen, skipped, nsIndex);
      if (compiled === undefined) return;
      const p = compiled.policy;
      const cp: CompiledPolicy = {
        policy: p,
        index: i,
        selected: compiled.selected,
        ingress: p.ingress === null ? null : p.ingress.map((r) => this.#compileRule(r, n)),
        egress: p.egress === null ? null : p.egress.map((r) => this.#compileRule(r, n)),
      };
      policies.push(cp);
      forEachBit(compiled.selected, (w) => {
        if (cp.ingress !== null) ingressIsolators[w]!.push(cp);
        if (cp.egress !== null) egressIsolators[w]!.push(cp);
      });
    });
    this.#policies = policies;
    this.#ingressIsolators = ingressIsolators;
    this.#egressIsolators = egressIsolators;
    this.#egressKeys = egressIsolators.map((ps) => ps.map((p) => p.policy.order).join(","));
    this.skipped = Object.freeze(skipped);
    // Destinations isolated alike share a side, unless their named ports resolve differently.
    this.#ingressKeys = ingressIsolators.map((ps, d) => {
      let key = ps.map((p) => p.policy.order).join(",");
      for (const p of ps) for (const r of p.ingress!) if (r.named.length > 0) key += `#${this.#portsTo(r, d)}`;
      return key;
    });
    this.#egressOf = new Array<Side | null | undefined>(n).fill(undefined);
    this.#ingressOf = new Array<Side | null | undefined>(n).fill(undefined);
  }

  #compileRule(rule: Rule, n: number): CompiledRule {
    const segments = new Uint32Array(wordCount(this.#segments.length));
    for (const block of rule.ipBlocks) {
      this.#segments.forEach((s, g) => {
        if (inBlock(block, s.probe)) setBit(segments, g);
      });
    }
    let base = ALL_ID;
    const named: { protocol: Protocol; name: string }[] = [];
    if (!rule.anyPort) {
      const by: Record<Protocol, PortRange[]> = { TCP: [], UDP: [], SCTP: [] };
      for (const e of rule.ports) {
        if (e.kind === "all") by[e.protocol].push({ from: 1, to: 65535 });
        else if (e.kind === "range") by[e.protocol].push({ from: e.lo, to: e.hi });
        else named.push({ protocol: e.protocol, name: e.name });
      }
      base = this.pool.id(connectionSetOf(by));
    }
    return { rule, segments, base, named, perDestination: named.length > 0 ? new Int32Array(n).fill(-1) : null };
  }

  /** The rule's ports towards a workload (-1: towards an address, where names resolve to nothing). */
  #portsTo(r: CompiledRule, d: number): number {
    if (r.perDestination === null || d < 0) return r.base;
    let id = r.perDestination[d]!;
    if (id >= 0) return id;
    const by: Record<Protocol, PortRange[]> = { TCP: [], UDP: [], SCTP: [] };
    for (const nm of r.named) {
      for (const p of this.#pods[d]!.ports) {
        if (p.name === nm.name && p.protocol === nm.protocol)
          by[nm.protocol].push({ from: p.containerPort, to: p.containerPort });
      }
    }
    id = this.pool.union(r.base, this.pool.id(connectionSetOf(by)));
    r.perDestination[d] = id;
    return id;
  }

  /** What a source's egress rules allow, towards every workload and segment; null when not isolated. */
  #egressSide(s: number): Side | null {
    let side = this.#egressOf[s];
    if (side === undefined) {
      side = this.#buildEgressSide(s);
      this.#egressOf[s] = side;
    }
    return side;
  }

  /** What a destination's ingress rules allow, from every workload and segment; null when not isolated. */
  #ingressSide(d: number): Side | null {
    let side = this.#ingressOf[d];
    if (side === undefined) {
      side = this.#buildIngressSide(d);
      this.#ingressOf[d] = side;
    }
    return side;
  }

  #buildEgressSide(s: number): Side | null {
    // Towards a workload, named ports resolve on it; towards an address (-1), to nothing.
    return this.#buildSide(this.#egressIsolators[s]!, "egress", this.#egressKeys[s]!, this.#egressSides, (r, peer) =>
      this.#portsTo(r, peer),
    );
  }

  #buildIngressSide(d: number): Side | null {
    // Named ports resolve on the destination, whoever the peer is.
    return this.#buildSide(this.#ingressIsolators[d]!, "ingress", this.#ingressKeys[d]!, this.#ingressSides, (r) =>
      this.#portsTo(r, d),
    );
  }

  /**
   * The union of the rules of a subject's isolating policies, towards every peer workload and
   * segment; `ports(rule, peer)` is the rule's ports for a workload peer, or for an address (-1).
   * Subjects isolated alike share the side through `cache`.
   */
  #buildSide(
    isolators: readonly CompiledPolicy[],
    direction: "ingress" | "egress",
    key: string,
    cache: Map<string, Side>,
    ports: (r: CompiledRule, peer: number) => number,
  ): Side | null {
    if (isolators.length === 0) return null;
    let side = cache.get(key);
    if (side !== undefined) return side;
    const pool = this.pool;
    const n = this.#pods.length;
    const workloads = new Int32Array(n);
    const segments = new Int32Array(this.#segments.length);
    for (const p of isolators) {
      for (const r of p[direction]!) {
        const toAddresses = ports(r, -1);
        if (r.rule.anyPeer) {
          for (let w = 0; w < n; w++) workloads[w] = pool.union(workloads[w]!, ports(r, w));
          for (let g = 0; g < segments.length; g++) segments[g] = pool.union(segments[g]!, toAddresses);
          continue;
        }
        forEachBit(r.rule.peerPods, (w) => {
          workloads[w] = pool.union(workloads[w]!, ports(r, w));
        });
        forEachBit(r.segments, (g) => {
          segments[g] = pool.union(segments[g]!, toAddresses);
        });
      }
    }
    side = { workloads, segments };
    cache.set(key, side);
    return side;
  }

  // -------------------------------------------------------------- answers by id

  /** Workload to workload. */
  pairId(s: number, d: number): number {
    const e = this.#egressSide(s);
    const i = this.#ingressSide(d);
    return this.pool.meet(e === null ? ALL_ID : e.workloads[d]!, i === null ? ALL_ID : i.workloads[s]!);
  }

  /** Workload to segment. */
  outId(s: number, g: number): number {
    const e = this.#egressSide(s);
    return e === null ? ALL_ID : e.segments[g]!;
  }

  /** Segment to workload. */
  inId(g: number, d: number): number {
    const i = this.#ingressSide(d);
    return i === null ? ALL_ID : i.segments[g]!;
  }

  workloadIndex(key: string): number | undefined {
    return this.#index.get(key);
  }

  get segmentCount(): number {
    return this.#segments.length;
  }

  /** The external peer for a list of segment indexes, shared between lines. */
  externalPeer(segments: readonly number[]): ExternalPeer {
    const id = segments.join(",");
    let peer = this.#externalPeers.get(id);
    if (peer === undefined) {
      const ranges = mergeSegments(segments.map((g) => this.#segments[g]!));
      peer = Object.freeze({
        type: "external",
        ranges: Object.freeze(ranges),
        key: ranges.flatMap((r) => r.cidrs).join(","),
      });
      this.#externalPeers.set(id, peer);
    }
    return peer;
  }

  // -------------------------------------------------------------- the public answers

  lines(): readonly ConnectivityLine[] {
    if (this.#lines !== undefined) return this.#lines;
    const out: ConnectivityLine[] = [];
    this.forEachLine((line) => {
      out.push(line);
    });
    this.#lines = Object.freeze(out);
    return this.#lines;
  }

  forEachLine(visit: (line: ConnectivityLine) => void): void {
    if (this.#lines !== undefined) {
      for (const line of this.#lines) visit(line);
      return;
    }
    const n = this.#pods.length;
    const m = this.#segments.length;
    const pool = this.pool;
    const ingress = Array.from({ length: n }, (_, d) => this.#ingressSide(d));
    for (let s = 0; s < n; s++) {
      const from = this.workloads[s]!;
      const egress = this.#egressSide(s);
      for (let d = 0; d < n; d++) {
        if (d === s) continue;
        const i = ingress[d]!;
        const id = pool.meet(egress === null ? ALL_ID : egress.workloads[d]!, i === null ? ALL_ID : i.workloads[s]!);
        if (id !== NONE_ID) visit({ from, to: this.workloads[d]!, connections: pool.set(id) });
      }
      for (const [id, segs] of groupBy(m, (g) => this.outId(s, g))) {
        visit({ from, to: this.externalPeer(segs), connections: pool.set(id) });
      }
    }
    for (let d = 0; d < n; d++) {
      const to = this.workloads[d]!;
      for (const [id, segs] of groupBy(m, (g) => this.inId(g, d))) {
        visit({ from: this.externalPeer(segs), to, connections: pool.set(id) });
      }
    }
  }

  between(from: string, to: string): ConnectionSet {
    const a = this.#end(from, "from");
    const b = this.#end(to, "to");
    return this.pool.set(this.#id(a, b));
  }

  #id(a: End, b: End): number {
    if ("workload" in a) {
      if ("workload" in b) return this.pairId(a.workload, b.workload);
      return this.outId(a.workload, b.segment);
    }
    if ("workload" in b) return this.inId(a.segment, b.workload);
    throw new EvaluatorInputError(
      "to",
      "one end at least must be a workload: traffic between addresses outside the cluster is not judged by NetworkPolicies",
    );
  }

  #end(text: string, at: string): End {
    if (typeof text !== "string") throw new EvaluatorInputError(at, "must be a workload key or an IP address");
    const w = this.#index.get(text);
    if (w !== undefined) return { workload: w };
    const ip = parseIPSloppy(text);
    if (ip === null) {
      throw new EvaluatorInputError(
        at,
        `${JSON.stringify(text)} is neither a workload (namespace/kind/name) of the input nor an IP address`,
      );
    }
    const { family, value } = addressOf(ip);
    const g = this.#segments.findIndex((s) => s.family === family && s.first <= value && value <= s.last);
    if (g < 0) throw new EvaluatorInputError(at, `${JSON.stringify(text)} is in no segment`);
    return { segment: g };
  }

  #peer(e: End): ConnectivityPeer {
    return "workload" in e ? this.workloads[e.workload]! : this.externalPeer([e.segment]);
  }

  explain(from: string, to: string): ConnectionExplanation {
    const a = this.#end(from, "from");
    const b = this.#end(to, "to");
    const connections = this.pool.set(this.#id(a, b));
    const egress = "workload" in a ? this.#explainDirection(this.#egressIsolators[a.workload]!, "egress", b, b) : OPEN;
    const ingress =
      "workload" in b ? this.#explainDirection(this.#ingressIsolators[b.workload]!, "ingress", a, b) : OPEN;
    return { from: this.#peer(a), to: this.#peer(b), connections, egress, ingress };
  }

  /** One direction: the subject's isolating policies, judged against the peer; `dest` resolves named ports. */
  #explainDirection(
    isolators: readonly CompiledPolicy[],
    direction: "ingress" | "egress",
    peer: End,
    dest: End,
  ): DirectionExplanation {
    if (isolators.length === 0) return OPEN;
    const pool = this.pool;
    const d = "workload" in dest ? dest.workload : -1;
    let allowed = NONE_ID;
    const allowedBy: PolicyRuleMatch[] = [];
    for (const p of isolators) {
      const rules: number[] = [];
      for (const r of p[direction]!) {
        const admits =
          r.rule.anyPeer ||
          ("workload" in peer ? hasBit(r.rule.peerPods, peer.workload) : hasBit(r.segments, peer.segment));
        if (!admits) continue;
        const ports = this.#portsTo(r, d);
        if (ports === NONE_ID) continue;
        rules.push(r.rule.index);
        allowed = pool.union(allowed, ports);
      }
      if (rules.length > 0) allowedBy.push(Object.freeze({ policy: p.policy.key, rules: Object.freeze(rules) }));
    }
    return Object.freeze({
      verdict: allowedBy.length > 0 ? "allowed-by-rule" : "denied",
      isolatedBy: Object.freeze(isolators.map((p) => p.policy.key)),
      allowedBy: Object.freeze(allowedBy),
      connections: pool.set(allowed),
    });
  }

  #segmentRanges: readonly AddressRange[] | undefined;

  get segments(): readonly AddressRange[] {
    this.#segmentRanges ??= Object.freeze(this.#segments.map((s) => s.range));
    return this.#segmentRanges;
  }

  get policies(): readonly AnalyzedPolicy[] {
    if (this.#analyzed !== undefined) return this.#analyzed;
    const keysOf = (bits: Bits): string[] => {
      const out: string[] = [];
      forEachBit(bits, (i) => {
        out.push(this.workloads[i]!.key);
      });
      return out;
    };
    const rule = (r: CompiledRule): AnalyzedRule => {
      const segs: number[] = [];
      forEachBit(r.segments, (g) => {
        segs.push(g);
      });
      return Object.freeze({
        index: r.rule.index,
        anyPeer: r.rule.anyPeer,
        workloads: Object.freeze(r.rule.anyPeer ? [] : keysOf(r.rule.peerPods)),
        addresses: Object.freeze(r.rule.anyPeer ? [] : mergeSegments(segs.map((g) => this.#segments[g]!))),
        anyPort: r.rule.anyPort,
        ports: this.pool.set(r.rule.anyPort ? ALL_ID : r.base),
        namedPorts: Object.freeze(r.named.map((x) => Object.freeze({ ...x }))),
      });
    };
    this.#analyzed = Object.freeze(
      this.#policies.map((p) =>
        Object.freeze({
          key: p.policy.key,
          index: p.index,
          selects: Object.freeze(keysOf(p.selected)),
          ingress: p.ingress === null ? null : Object.freeze(p.ingress.map(rule)),
          egress: p.egress === null ? null : Object.freeze(p.egress.map(rule)),
        }),
      ),
    );
    return this.#analyzed;
  }
}

const OPEN: DirectionExplanation = Object.freeze({
  verdict: "not-isolated",
  isolatedBy: Object.freeze([]),
  allowedBy: Object.freeze([]),
  connections: Object.freeze({
    TCP: Object.freeze([Object.freeze({ from: 1, to: 65535 })]),
    UDP: Object.freeze([Object.freeze({ from: 1, to: 65535 })]),
    SCTP: Object.freeze([Object.freeze({ from: 1, to: 65535 })]),
  }),
});

/** Indexes 0..m-1 grouped by a non-empty id, in order of each id's first index. */
function groupBy(m: number, idOf: (g: number) => number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (let g = 0; g < m; g++) {
    const id = idOf(g);
    if (id === NONE_ID) continue;
    const list = groups.get(id);
    if (list === undefined) groups.set(id, [g]);
    else list.push(g);
  }
  return groups;
}

/** Segments (in address order) as ranges, adjacent ones of a family joined (IPv6 across the IPv4-mapped block). */
export function mergeSegments(segments: readonly Segment[]): AddressRange[] {
  const out: AddressRange[] = [];
  let cur: { family: 4 | 6; first: bigint; last: bigint } | undefined;
  const flush = (): void => {
    if (cur !== undefined) out.push(peerRange(cur.family, cur.first, cur.last));
  };
  for (const s of segments) {
    if (cur !== undefined && cur.family === s.family && meets(s.family, cur.last, s.first)) {
      cur.last = s.last;
      continue;
    }
    flush();
    cur = { family: s.family, first: s.first, last: s.last };
  }
  flush();
  return out;
}
