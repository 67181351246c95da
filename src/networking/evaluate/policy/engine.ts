// The NetworkPolicy evaluator of shared/docs/semantics.md §1.2 (rules E1-E15).
//
// Everything that does not depend on the connection is computed once, when the
// engine is built: each namespace's labels (E2), each pod's parsed addresses
// and ports, each policy's selected pods, and for every rule the set of pods
// its peers admit, all as bitsets over pod indexes. A single decision then
// reads bits; a truth table is a few word-wide unions per pod, then one AND
// per word (semantics §2.2.7).

import type { IPBlock, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import {
  forEachBit,
  fullBits,
  hasBit,
  orAndInto,
  orInto,
  popcount32,
  setBit,
  wordCount,
  type Bits,
} from "../bitset.js";
import { effectivePolicyTypes } from "../../validation/defaults.js";
import { EvaluatorInputError } from "../../model/errors.js";
import type {
  Cell,
  ClusterNamespace,
  ClusterPod,
  ClusterPodPort,
  Connection,
  Decision,
  DiffOptions,
  DirectionDecision,
  Endpoint,
  PolicyDiff,
  PolicyEngine,
  PolicyRuleMatch,
  PortQuery,
  Protocol,
  SkippedObject,
  TruthMatrix,
  TruthTable,
  ConnectionChange,
} from "../types.js";
import { FieldPath } from "../../model/path.js";
import { duplicate, type FieldError } from "../../validation/field-error.js";
import { cidrContains, parseCIDRSloppy, parseIPSloppy, type IP, type IPNet } from "../../validation/rules/ip.js";
import { compileLabelSelector, labelSelectorIsEmpty, type LabelMatcher, type Labels } from "../../validation/rules/label-selector.js";
import { validate } from "../../validation/validate.js";
import { DEFAULT_NAMESPACE, NAMESPACE_NAME_LABEL, NETWORK_POLICY_TYPE } from "../../model/constants.js";

export interface PolicyEngineInput {
  readonly namespaces: readonly ClusterNamespace[];
  readonly pods: readonly ClusterPod[];
  readonly policies: readonly NetworkPolicy[];
}

const PROTOCOL_SET: ReadonlySet<string> = new Set(["TCP", "UDP", "SCTP"]);

// ------------------------------------------------------------------ compiled input

interface Pod {
  readonly key: string;
  readonly ns: number;
  readonly labels: Labels;
  readonly ip: IP;
  /** Undefined when the input gives no hostIP (then nothing is node-local to it). */
  readonly hostIP: IP | undefined;
  readonly hostNetwork: boolean;
  readonly ports: readonly PodPort[];
}

interface PodPort {
  readonly name: string;
  readonly containerPort: number;
  readonly protocol: Protocol;
}

/** One `ports` entry after E1. */
type PortEntry =
  | { readonly kind: "all"; readonly protocol: Protocol }
  | { readonly kind: "range"; readonly protocol: Protocol; readonly lo: number; readonly hi: number }
  | { readonly kind: "named"; readonly protocol: Protocol; readonly name: string };

interface Rule {
  /** Index in spec.ingress / spec.egress. */
  readonly index: number;
  /** No peers listed: every endpoint matches (E5). */
  readonly anyPeer: boolean;
  /** The pods some peer admits (E6, E7): selector peers and ipBlocks together. */
  readonly peerPods: Bits;
  /** The ipBlocks, for endpoints that are addresses. */
  readonly ipBlocks: readonly Block[];
  /** No ports listed: every port of every protocol (E5). */
  readonly anyPort: boolean;
  readonly ports: readonly PortEntry[];
}

interface Block {
  readonly cidr: IPNet;
  readonly except: readonly IPNet[];
}

interface Policy {
  readonly key: string;
  /** Position among the accepted policies, which is input order. */
  readonly order: number;
  readonly ingress: readonly Rule[] | null;
  readonly egress: readonly Rule[] | null;
}

type ResolvedEndpoint = { readonly pod: number; readonly ip: IP } | { readonly pod: -1; readonly ip: IP };

// ------------------------------------------------------------------ construction

/**
 * Builds an engine over one cluster snapshot. Throws EvaluatorInputError for
 * namespaces or pods it cannot give a meaning to; policies the API server
 * would reject are left out and listed in `skipped`.
 */
export function createPolicyEngine(input: PolicyEngineInput): PolicyEngine {
  return new Engine(input);
}

class Engine implements PolicyEngine {
  readonly pods: readonly string[];
  readonly skipped: readonly SkippedObject[];

  readonly #pods: readonly Pod[];
  readonly #podIndex: ReadonlyMap<string, number>;
  readonly #policies: readonly Policy[];
  /** Per pod: the policies isolating it, in input order (E3); empty for hostNetwork pods (E12). */
  readonly #ingressIsolators: readonly (readonly Policy[])[];
  readonly #egressIsolators: readonly (readonly Policy[])[];
  /** Per pod: its egress isolators as a string, so pods isolated alike share one computed row. */
  readonly #egressKeys: readonly string[];
  readonly #words: number;
  /** Every pod. */
  readonly #all: Bits;
  /** Per node address: the hostNetwork pods that carry it, as sources of node-local traffic (E11). */
  readonly #hostNetworkByIP: ReadonlyMap<string, Bits>;

  constructor(input: PolicyEngineInput) {
    if (input === null || typeof input !== "object") throw new EvaluatorInputError("", "the input must be an object");
    const namespaces = listAt(input.namespaces, "namespaces");
    const podsIn = listAt(input.pods, "pods");
    const policiesIn = listAt(input.policies, "policies");

    const nsIndex = new Map<string, number>();
    const nsLabels: Labels[] = [];
    namespaces.forEach((ns, i) => {
      const at = `namespaces[${i}]`;
      if (ns === null || typeof ns !== "object") throw new EvaluatorInputError(at, "must be an object with a name");
      const name = stringAt(ns.name, `${at}.name`);
      if (name === "") throw new EvaluatorInputError(`${at}.name`, "must be non-empty");
      if (nsIndex.has(name)) throw new EvaluatorInputError(`${at}.name`, `duplicate namespace ${JSON.stringify(name)}`);
      nsIndex.set(name, i);
      // E2: the name label is always there, whatever the input says.
      nsLabels.push(Object.freeze({ ...labelsAt(ns.labels, `${at}.labels`), [NAMESPACE_NAME_LABEL]: name }));
    });

    const pods: Pod[] = [];
    const podIndex = new Map<string, number>();
    podsIn.forEach((p, i) => {
      const pod = compilePod(p, `pods[${i}]`, nsIndex);
      if (podIndex.has(pod.key)) throw new EvaluatorInputError(`pods[${i}].name`, `duplicate pod ${JSON.stringify(pod.key)}`);
      podIndex.set(pod.key, i);
      pods.push(pod);
    });
    const n = pods.length;
    const words = wordCount(n);
    this.#words = words;
    this.#all = fullBits(n, words);
    this.#pods = pods;
    this.#podIndex = podIndex;
    this.pods = Object.freeze(pods.map((p) => p.key));

    const hostNetworkByIP = new Map<string, Bits>();
    pods.forEach((p, i) => {
      if (!p.hostNetwork) return;
      const k = ipKey(p.ip);
      let b = hostNetworkByIP.get(k);
      if (b === undefined) hostNetworkByIP.set(k, (b = new Uint32Array(words)));
      setBit(b, i);
    });
    this.#hostNetworkByIP = hostNetworkByIP;

    // Pods by namespace, without hostNetwork pods: the only pods selectors see (E6, E12).
    const selectable: Bits[] = namespaces.map(() => new Uint32Array(words));
    const members: number[][] = namespaces.map(() => []);
    pods.forEach((p, i) => {
      if (p.hostNetwork) return;
      setBit(selectable[p.ns]!, i);
      members[p.ns]!.push(i);
    });
    const sets = new SetBuilder(pods, nsLabels, selectable, members, words);

    const skipped: SkippedObject[] = [];
    const policies: Policy[] = [];
    const ingressIsolators: Policy[][] = pods.map(() => []);
    const egressIsolators: Policy[][] = pods.map(() => []);
    const seen = new Set<string>();
    policiesIn.forEach((np, i) => {
      const compiled = compilePolicy(np, i, sets, policies.length, seen, skipped, nsIndex);
      if (compiled === undefined) return;
      policies.push(compiled.policy);
      forEachBit(compiled.selected, (p) => {
        if (compiled.policy.ingress !== null) ingressIsolators[p]!.push(compiled.policy);
        if (compiled.policy.egress !== null) egressIsolators[p]!.push(compiled.policy);
      });
    });
    this.#policies = policies;
    this.#ingressIsolators = ingressIsolators;
    this.#egressIsolators = egressIsolators;
    this.#egressKeys = egressIsolators.map((ps) => ps.map((p) => p.order).join(","));
    this.skipped = Object.freeze(skipped);
  }

  // -------------------------------------------------------------- one connection

  evaluate(connection: Connection): Decision {
    if (connection === null || typeof connection !== "object") {
      throw new EvaluatorInputError("connection", "must be an object with from, to and port");
    }
    const from = this.#endpoint(connection.from, "connection.from");
    const to = this.#endpoint(connection.to, "connection.to");
    const protocol = protocolAt(connection.protocol, "connection.protocol");
    const port = this.#resolvePort(connection.port, protocol, to);
    const egress = this.#egress(from, to, protocol, port);
    const ingress = this.#ingress(from, to, protocol, port);
    return {
      allowed: egress.verdict !== "denied" && ingress.verdict !== "denied",
      protocol,
      port,
      egress,
      ingress,
    };
  }

  #endpoint(e: Endpoint | undefined, at: string): ResolvedEndpoint {
    if (e === null || typeof e !== "object") throw new EvaluatorInputError(at, 'must be { pod: "namespace/name" } or { ip: "address" }');
    const hasPod = Object.hasOwn(e, "pod");
    const hasIP = Object.hasOwn(e, "ip");
    if (hasPod === hasIP) throw new EvaluatorInputError(at, 'must have exactly one of "pod" and "ip"');
    if (hasPod) {
      const key = (e as { pod: unknown }).pod;
      if (typeof key !== "string") throw new EvaluatorInputError(`${at}.pod`, 'must be a string "namespace/name"');
      const i = this.#podIndex.get(key);
      if (i === undefined) throw new EvaluatorInputError(`${at}.pod`, `no pod ${JSON.stringify(key)} in the cluster`);
      return { pod: i, ip: this.#pods[i]!.ip };
    }
    const text = (e as { ip: unknown }).ip;
    if (typeof text !== "string") throw new EvaluatorInputError(`${at}.ip`, "must be a string");
    const ip = parseIPSloppy(text);
    if (ip === null) throw new EvaluatorInputError(`${at}.ip`, `${JSON.stringify(text)} is not an IP address`);
    return { pod: -1, ip };
  }

  /** E9: a name is resolved on the destination pod by name and protocol. */
  #resolvePort(port: unknown, protocol: Protocol, to: ResolvedEndpoint): number {
    if (typeof port === "number") return portNumberAt(port, "connection.port");
    if (typeof port !== "string" || port === "") throw new EvaluatorInputError("connection.port", "must be a port number or a port name");
    if (to.pod < 0) {
      throw new EvaluatorInputError("connection.port", `the port name ${JSON.stringify(port)} needs a pod destination to resolve on`);
    }
    const pod = this.#pods[to.pod]!;
    for (const p of pod.ports) if (p.name === port && p.protocol === protocol) return p.containerPort;
    throw new EvaluatorInputError(
      "connection.port",
      `pod ${JSON.stringify(pod.key)} declares no ${protocol} port named ${JSON.stringify(port)}`,
    );
  }

  #egress(from: ResolvedEndpoint, to: ResolvedEndpoint, protocol: Protocol, port: number): DirectionDecision {
    if (from.pod < 0 || this.#pods[from.pod]!.hostNetwork) return NOT_APPLICABLE;
    if (from.pod === to.pod) return SELF;
    return this.#judge(this.#egressIsolators[from.pod]!, "egress", from, to, protocol, port);
  }

  #ingress(from: ResolvedEndpoint, to: ResolvedEndpoint, protocol: Protocol, port: number): DirectionDecision {
    if (to.pod < 0) return NOT_APPLICABLE;
    const dst = this.#pods[to.pod]!;
    if (dst.hostNetwork) return NOT_APPLICABLE;
    if (from.pod === to.pod) return SELF;
    if (dst.hostIP !== undefined && (from.pod < 0 || this.#pods[from.pod]!.hostNetwork) && sameIP(from.ip, dst.hostIP)) {
      return NODE_LOCAL;
    }
    return this.#judge(this.#ingressIsolators[to.pod]!, "ingress", from, to, protocol, port);
  }

  /** E3, E5: the union of the rules of every isolating policy. */
  #judge(
    isolators: readonly Policy[],
    direction: "ingress" | "egress",
    from: ResolvedEndpoint,
    to: ResolvedEndpoint,
    protocol: Protocol,
    port: number,
  ): DirectionDecision {
    if (isolators.length === 0) return NOT_ISOLATED;
    const peer = direction === "ingress" ? from : to;
    const matched: PolicyRuleMatch[] = [];
    for (const p of isolators) {
      const rules: number[] = [];
      for (const r of p[direction]!) {
        if (this.#peerMatches(r, peer) && this.#portMatches(r, protocol, port, to)) rules.push(r.index);
      }
      if (rules.length > 0) matched.push({ policy: p.key, rules });
    }
    if (matched.length > 0) return { verdict: "allowed-by-rule", policies: matched };
    return { verdict: "denied", policies: isolators.map((p) => ({ policy: p.key, rules: [] })) };
  }

  #peerMatches(r: Rule, peer: ResolvedEndpoint): boolean {
    if (r.anyPeer) return true;
    if (peer.pod >= 0) return hasBit(r.peerPods, peer.pod);
    for (const b of r.ipBlocks) if (inBlock(b, peer.ip)) return true;
    return false;
  }

  #portMatches(r: Rule, protocol: Protocol, port: number, to: ResolvedEndpoint): boolean {
    if (r.anyPort) return true;
    for (const e of r.ports) {
      if (e.protocol !== protocol) continue;
      if (e.kind === "all") return true;
      if (e.kind === "range") {
        if (port >= e.lo && port <= e.hi) return true;
      } else if (to.pod >= 0 && declares(this.#pods[to.pod]!, e.name, protocol, port)) {
        return true;
      }
    }
    return false;
  }

  // -------------------------------------------------------------- whole tables

  matrix(query: PortQuery): TruthMatrix {
    return this.#query(query);
  }

  truthTable(query: PortQuery): TruthTable {
    return lazyTable(this.#query(query));
  }

  #query(query: PortQuery): Matrix {
    if (query === null || typeof query !== "object") throw new EvaluatorInputError("query", "must be { protocol?, port }");
    const protocol = protocolAt(query.protocol, "query.protocol");
    const port = portNumberAt(query.port, "query.port");
    return this.#matrix(protocol, port);
  }

  #matrix(protocol: Protocol, port: number): Matrix {
    const pods = this.#pods;
    const n = pods.length;
    const words = this.#words;
    const portSets = new PortSets(pods, words, protocol, port);

    // Egress: row s holds the destinations s may send to.
    const egress = new Uint32Array(n * words);
    const egressMemo = new Map<string, Bits>();
    for (let s = 0; s < n; s++) {
      const row = egress.subarray(s * words, (s + 1) * words);
      const isolators = this.#egressIsolators[s]!;
      if (isolators.length === 0) {
        row.set(this.#all); // not-applicable or not-isolated
        continue;
      }
      const key = this.#egressKeys[s]!;
      let allowed = egressMemo.get(key);
      if (allowed === undefined) {
        allowed = new Uint32Array(words);
        for (const p of isolators) {
          for (const r of p.egress!) {
            const dst = portSets.destinations(r);
            if (dst === ALL) orInto(allowed, r.anyPeer ? this.#all : r.peerPods);
            else if (dst !== NONE) orAndInto(allowed, r.anyPeer ? this.#all : r.peerPods, dst);
          }
        }
        egressMemo.set(key, allowed);
      }
      row.set(allowed);
      setBit(row, s); // E13
    }

    // Ingress, stored transposed: row s holds the destinations that let s in.
    const open = new Uint32Array(words);
    for (let d = 0; d < n; d++) if (this.#ingressIsolators[d]!.length === 0) setBit(open, d);
    const ingress = new Uint32Array(n * words);
    for (let s = 0; s < n; s++) ingress.set(open, s * words);
    const sources = new Uint32Array(words);
    const ingressMemo = new Map<string, Bits>();
    for (let d = 0; d < n; d++) {
      const isolators = this.#ingressIsolators[d]!;
      if (isolators.length === 0) continue;
      // Rules whose ports admit this destination; named ports make it per pod.
      let key = "";
      const admitted: Rule[] = [];
      for (const p of isolators) {
        for (const r of p.ingress!) {
          const dst = portSets.destinations(r);
          if (dst === ALL || (dst !== NONE && hasBit(dst, d))) {
            admitted.push(r);
            key += `${p.order}.${r.index},`;
          }
        }
      }
      let allowed = ingressMemo.get(key);
      if (allowed === undefined) {
        allowed = new Uint32Array(words);
        for (const r of admitted) orInto(allowed, r.anyPeer ? this.#all : r.peerPods);
        ingressMemo.set(key, allowed);
      }
      sources.set(allowed);
      setBit(sources, d); // E13
      const hostIP = pods[d]!.hostIP;
      const local = hostIP === undefined ? undefined : this.#hostNetworkByIP.get(ipKey(hostIP));
      if (local !== undefined) orInto(sources, local); // E11
      const w = d >>> 5;
      const bit = 1 << (d & 31);
      forEachBit(sources, (s) => {
        ingress[s * words + w]! |= bit;
      });
    }
    return new Matrix(this.pods, protocol, port, words, egress, ingress);
  }

  // -------------------------------------------------------------- diff

  diff(other: PolicyEngine, options: DiffOptions = {}): PolicyDiff {
    if (!(other instanceof Engine)) throw new TypeError("diff: the other engine must come from createPolicyEngine");
    const protocols = options.protocols ?? (["TCP", "UDP", "SCTP"] as const);
    protocols.forEach((p, i) => protocolAt(p, `options.protocols[${i}]`));
    const otherIndex = other.#podIndex;
    const common: [number, number][] = [];
    this.pods.forEach((key, i) => {
      const j = otherIndex.get(key);
      if (j !== undefined) common.push([i, j]);
    });
    const changes: ConnectionChange[] = [];
    for (const protocol of protocols) {
      const ranges =
        options.ports === undefined
          ? portClasses(protocol, [this, other])
          : options.ports.map((p, i) => {
              const n = portNumberAt(p, `options.ports[${i}]`);
              return { from: n, to: n };
            });
      // Open changes per pair, merged while consecutive ranges keep the same change.
      const open = new Map<number, { change: { from: string; to: string; before: Cell; after: Cell; lo: number }; hi: number }>();
      const flush = (k: number): void => {
        const o = open.get(k)!;
        changes.push({
          from: o.change.from,
          to: o.change.to,
          protocol,
          ports: { from: o.change.lo, to: o.hi },
          before: o.change.before,
          after: o.change.after,
        });
        open.delete(k);
      };
      for (const range of ranges) {
        const a = this.#matrix(protocol, range.from);
        const b = other.#matrix(protocol, range.from);
        for (let x = 0; x < common.length; x++) {
          const [fi, fj] = common[x]!;
          for (let y = 0; y < common.length; y++) {
            const [ti, tj] = common[y]!;
            const k = x * common.length + y;
            const before = a.allowed(fi, ti);
            const after = b.allowed(fj, tj);
            const o = open.get(k);
            if (before === after) {
              if (o !== undefined) flush(k);
              continue;
            }
            const cellBefore: Cell = before ? "allow" : "deny";
            if (o !== undefined && o.change.before === cellBefore && o.hi + 1 === range.from) {
              o.hi = range.to;
              continue;
            }
            if (o !== undefined) flush(k);
            open.set(k, {
              change: { from: this.pods[fi]!, to: this.pods[ti]!, before: cellBefore, after: after ? "allow" : "deny", lo: range.from },
              hi: range.to,
            });
          }
        }
      }
      for (const k of [...open.keys()]) flush(k);
    }
    const protocolOrder = (p: Protocol): number => protocols.indexOf(p);
    const order = new Map(this.pods.map((k, i) => [k, i]));
    changes.sort(
      (x, y) =>
        order.get(x.from)! - order.get(y.from)! ||
        order.get(x.to)! - order.get(y.to)! ||
        protocolOrder(x.protocol) - protocolOrder(y.protocol) ||
        x.ports.from - y.ports.from,
    );
    return {
      changes,
      removedPods: this.pods.filter((k) => !otherIndex.has(k)),
      addedPods: other.pods.filter((k) => !this.#podIndex.has(k)),
    };
  }

  /** Ports where a verdict can change for this protocol: rule ranges and declared container ports. */
  boundaries(protocol: Protocol, out: Set<number>): void {
    for (const p of this.#policies) {
      for (const rules of [p.ingress, p.egress]) {
        if (rules === null) continue;
        for (const r of rules) {
          for (const e of r.ports) {
            if (e.protocol !== protocol || e.kind !== "range") continue;
            out.add(e.lo);
            out.add(e.hi + 1);
          }
        }
      }
    }
    for (const pod of this.#pods) {
      for (const pp of pod.ports) {
        if (pp.protocol !== protocol) continue;
        out.add(pp.containerPort);
        out.add(pp.containerPort + 1);
      }
    }
  }
}

/** The port ranges over which no verdict of either engine can change. */
function portClasses(protocol: Protocol, engines: readonly Engine[]): { from: number; to: number }[] {
  const cuts = new Set<number>([1, 65536]);
  for (const e of engines) e.boundaries(protocol, cuts);
  const sorted = [...cuts].filter((c) => c >= 1 && c <= 65536).sort((a, b) => a - b);
  const out: { from: number; to: number }[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) out.push({ from: sorted[i]!, to: sorted[i + 1]! - 1 });
  return out;
}

const NOT_APPLICABLE: DirectionDecision = Object.freeze({ verdict: "not-applicable", policies: Object.freeze([]) });
const NOT_ISOLATED: DirectionDecision = Object.freeze({ verdict: "not-isolated", policies: Object.freeze([]) });
const SELF: DirectionDecision = Object.freeze({ verdict: "self", policies: Object.freeze([]) });
const NODE_LOCAL: DirectionDecision = Object.freeze({ verdict: "node-local", policies: Object.freeze([]) });

// ------------------------------------------------------------------ matrices

class Matrix implements TruthMatrix {
  readonly pods: readonly string[];
  readonly protocol: Protocol;
  readonly port: number;
  readonly #words: number;
  readonly #egress: Uint32Array;
  readonly #ingress: Uint32Array;

  constructor(pods: readonly string[], protocol: Protocol, port: number, words: number, egress: Uint32Array, ingress: Uint32Array) {
    this.pods = pods;
    this.protocol = protocol;
    this.port = port;
    this.#words = words;
    this.#egress = egress;
    this.#ingress = ingress;
  }

  #check(from: number, to: number): number {
    const n = this.pods.length;
    if (!Number.isInteger(from) || from < 0 || from >= n) throw new RangeError(`from: ${from} is not a pod index below ${n}`);
    if (!Number.isInteger(to) || to < 0 || to >= n) throw new RangeError(`to: ${to} is not a pod index below ${n}`);
    return from * this.#words + (to >>> 5);
  }

  allowed(from: number, to: number): boolean {
    const w = this.#check(from, to);
    return (((this.#egress[w]! & this.#ingress[w]!) >>> (to & 31)) & 1) !== 0;
  }

  egressAllowed(from: number, to: number): boolean {
    return ((this.#egress[this.#check(from, to)]! >>> (to & 31)) & 1) !== 0;
  }

  ingressAllowed(from: number, to: number): boolean {
    return ((this.#ingress[this.#check(from, to)]! >>> (to & 31)) & 1) !== 0;
  }

  countAllowed(): number {
    let c = 0;
    const e = this.#egress;
    const i = this.#ingress;
    for (let w = 0; w < e.length; w++) c += popcount32(e[w]! & i[w]!);
    return c;
  }

  /** Row `from` as packed words (bit `to`), for renderers. */
  row(from: number): Uint32Array {
    const words = this.#words;
    const out = new Uint32Array(words);
    for (let w = 0; w < words; w++) out[w] = this.#egress[from * words + w]! & this.#ingress[from * words + w]!;
    return out;
  }
}

/**
 * The string-keyed table. Every decision is already made in the matrix; a row
 * object is built the first time it is read, because building millions of
 * string-keyed properties costs far more than deciding them.
 */
function lazyTable(m: Matrix): TruthTable {
  const table: TruthTable = {};
  const pods = m.pods;
  // Node's inspector would print unread rows as [Getter/Setter]; show the values.
  Object.defineProperty(table, Symbol.for("nodejs.util.inspect.custom"), {
    enumerable: false,
    value: (_depth: number, options: object, inspect: (v: unknown, o: object) => string) => inspect({ ...table }, options),
  });
  pods.forEach((from, i) => {
    Object.defineProperty(table, from, {
      enumerable: true,
      configurable: true,
      get() {
        const row: Record<string, Cell> = {};
        const bits = m.row(i);
        for (let j = 0; j < pods.length; j++) row[pods[j]!] = ((bits[j >>> 5]! >>> (j & 31)) & 1) !== 0 ? "allow" : "deny";
        Object.defineProperty(table, from, { value: row, enumerable: true, configurable: true, writable: true });
        return row;
      },
      set(value: Record<string, Cell>) {
        Object.defineProperty(table, from, { value, enumerable: true, configurable: true, writable: true });
      },
    });
  });
  return table;
}

// ------------------------------------------------------------------ per-query port sets

const ALL: unique symbol = Symbol("all");
const NONE: unique symbol = Symbol("none");

/** For one (protocol, port): which destinations each rule's ports admit (E8). */
class PortSets {
  readonly #pods: readonly Pod[];
  readonly #words: number;
  readonly #protocol: Protocol;
  readonly #port: number;
  readonly #named = new Map<string, Bits>();
  readonly #rules = new Map<Rule, Bits | typeof ALL | typeof NONE>();

  constructor(pods: readonly Pod[], words: number, protocol: Protocol, port: number) {
    this.#pods = pods;
    this.#words = words;
    this.#protocol = protocol;
    this.#port = port;
  }

  destinations(r: Rule): Bits | typeof ALL | typeof NONE {
    if (r.anyPort) return ALL;
    let got = this.#rules.get(r);
    if (got !== undefined) return got;
    let named: Bits | undefined;
    got = NONE;
    for (const e of r.ports) {
      if (e.protocol !== this.#protocol) continue;
      if (e.kind === "all" || (e.kind === "range" && this.#port >= e.lo && this.#port <= e.hi)) {
        got = ALL;
        break;
      }
      if (e.kind === "named") {
        named ??= new Uint32Array(this.#words);
        orInto(named, this.#namedSet(e.name));
      }
    }
    if (got !== ALL && named !== undefined) got = named;
    this.#rules.set(r, got);
    return got;
  }

  /** Pods declaring `name` for this protocol on this port; hostNetwork pods too (they are pods). */
  #namedSet(name: string): Bits {
    let b = this.#named.get(name);
    if (b !== undefined) return b;
    b = new Uint32Array(this.#words);
    this.#pods.forEach((p, i) => {
      if (declares(p, name, this.#protocol, this.#port)) setBit(b!, i);
    });
    this.#named.set(name, b);
    return b;
  }
}

function declares(pod: Pod, name: string, protocol: Protocol, port: number): boolean {
  for (const p of pod.ports) if (p.name === name && p.protocol === protocol && p.containerPort === port) return true;
  return false;
}

// ------------------------------------------------------------------ selected-pod sets

/** Builds the pod sets of selectors and peers, sharing equal selectors. */
class SetBuilder {
  readonly #pods: readonly Pod[];
  readonly #nsLabels: readonly Labels[];
  readonly #selectable: readonly Bits[];
  readonly #members: readonly (readonly number[])[];
  readonly #words: number;
  readonly #cache = new Map<string, Bits>();

  constructor(pods: readonly Pod[], nsLabels: readonly Labels[], selectable: readonly Bits[], members: readonly (readonly number[])[], words: number) {
    this.#pods = pods;
    this.#nsLabels = nsLabels;
    this.#selectable = selectable;
    this.#members = members;
    this.#words = words;
  }

  get words(): number {
    return this.#words;
  }

  /** Pods (not hostNetwork) in namespace `ns` (-1: an unlisted one, which has none) that `pod` matches. */
  inNamespace(ns: number, pod: { key: string; match: LabelMatcher; empty: boolean }): Bits {
    if (ns < 0) return new Uint32Array(this.#words);
    return this.#cached(`n${ns}|${pod.key}`, () => {
      if (pod.empty) return this.#selectable[ns]!.slice();
      const b = new Uint32Array(this.#words);
      for (const i of this.#members[ns]!) if (pod.match(this.#pods[i]!.labels)) setBit(b, i);
      return b;
    });
  }

  /** Pods (not hostNetwork) matching `pod` in every namespace `ns` matches. */
  acrossNamespaces(ns: { key: string; match: LabelMatcher }, pod: { key: string; match: LabelMatcher; empty: boolean }): Bits {
    return this.#cached(`a${ns.key}|${pod.key}`, () => {
      const b = new Uint32Array(this.#words);
      this.#nsLabels.forEach((labels, i) => {
        if (ns.match(labels)) orInto(b, this.inNamespace(i, pod));
      });
      return b;
    });
  }

  /** Every pod, hostNetwork ones included, whose IP is in the block (E7, E12). */
  inBlock(block: Block, key: string): Bits {
    return this.#cached(`b${key}`, () => {
      const b = new Uint32Array(this.#words);
      this.#pods.forEach((p, i) => {
        if (inBlock(block, p.ip)) setBit(b, i);
      });
      return b;
    });
  }

  #cached(key: string, build: () => Bits): Bits {
    let b = this.#cache.get(key);
    if (b === undefined) this.#cache.set(key, (b = build()));
    return b;
  }
}

function inBlock(block: Block, ip: IP): boolean {
  if (!cidrContains(block.cidr, ip)) return false;
  for (const e of block.except) if (cidrContains(e, ip)) return false;
  return true;
}

// ------------------------------------------------------------------ policies

function compilePolicy(
  np: NetworkPolicy,
  i: number,
  sets: SetBuilder,
  order: number,
  seen: Set<string>,
  skipped: SkippedObject[],
  nsIndex: ReadonlyMap<string, number>,
): { policy: Policy; selected: Bits } | undefined {
  if (np === null || typeof np !== "object" || (np as { $typeName?: unknown }).$typeName !== NETWORK_POLICY_TYPE) {
    throw new EvaluatorInputError(`policies[${i}]`, "must be a NetworkPolicy message (build it with fromYaml, fromJson or decode)");
  }
  const meta = np.metadata;
  const namespace = meta?.namespace || DEFAULT_NAMESPACE;
  const name = meta === undefined ? "" : meta.name !== "" ? meta.name : meta.generateName;
  const key = `${namespace}/${name}`;
  const errors = validate(np);
  const skip = (errs: readonly FieldError[]): undefined => {
    skipped.push({ kind: "NetworkPolicy", name: name === "" ? `[${i}]` : key, index: i, errors: errs });
    return undefined;
  };
  if (errors.length > 0) return skip(errors);
  if (seen.has(key)) return skip([duplicate(FieldPath.root("metadata").child("name"), name)]);
  seen.add(key);

  const ns = nsIndex.get(namespace) ?? -1;
  const spec = np.spec;
  // E1: a missing podSelector is the empty one.
  const subject = selectorOf(spec?.podSelector);
  const selected = sets.inNamespace(ns, subject);
  const types = spec === undefined ? ["Ingress"] : effectivePolicyTypes(spec);
  const compileRules = (rules: readonly { ports: NetworkPolicyPort[]; peers: NetworkPolicyPeer[] }[]): Rule[] =>
    rules.map((r, index) => compileRule(r.peers, r.ports, index, ns, sets));
  const policy: Policy = {
    key,
    order,
    ingress: types.includes("Ingress") ? compileRules((spec?.ingress ?? []).map((r) => ({ ports: r.ports, peers: r.from }))) : null,
    egress: types.includes("Egress") ? compileRules((spec?.egress ?? []).map((r) => ({ ports: r.ports, peers: r.to }))) : null,
  };
  return { policy, selected };
}

function compileRule(peers: readonly NetworkPolicyPeer[], ports: readonly NetworkPolicyPort[], index: number, ns: number, sets: SetBuilder): Rule {
  const peerPods = new Uint32Array(sets.words);
  const ipBlocks: Block[] = [];
  for (const peer of peers) {
    if (peer.ipBlock !== undefined) {
      const block = compileBlock(peer.ipBlock);
      ipBlocks.push(block);
      orInto(peerPods, sets.inBlock(block, `${peer.ipBlock.cidr}-${peer.ipBlock.except.join(",")}`));
      continue;
    }
    // E6: podSelector alone is scoped to the policy's namespace.
    const pod = selectorOf(peer.podSelector);
    if (peer.namespaceSelector === undefined) orInto(peerPods, sets.inNamespace(ns, pod));
    else orInto(peerPods, sets.acrossNamespaces(selectorOf(peer.namespaceSelector), pod));
  }
  return {
    index,
    anyPeer: peers.length === 0,
    peerPods,
    ipBlocks,
    anyPort: ports.length === 0,
    ports: ports.map(compilePort),
  };
}

function compilePort(p: NetworkPolicyPort): PortEntry {
  // E1: protocol defaults to TCP. Validation guarantees the rest.
  const protocol = (Object.hasOwn(p, "protocol") ? p.protocol : "TCP") as Protocol;
  const port = p.port;
  if (port === undefined) return { kind: "all", protocol };
  if (port.type === 1n) return { kind: "named", protocol, name: port.strVal };
  const lo = port.intVal;
  return { kind: "range", protocol, lo, hi: Object.hasOwn(p, "endPort") ? p.endPort : lo };
}

function compileBlock(b: IPBlock): Block {
  // Validation guarantees these parse (with the API server's sloppy grammar).
  return { cidr: parseCIDRSloppy(b.cidr)!, except: b.except.map((e) => parseCIDRSloppy(e)!) };
}

function selectorOf(s: { matchLabels: { [k: string]: string }; matchExpressions: unknown[] } | undefined): {
  key: string;
  match: LabelMatcher;
  empty: boolean;
} {
  if (s === undefined) return { key: "{}", match: () => true, empty: true };
  const sel = s as Parameters<typeof compileLabelSelector>[0];
  const empty = labelSelectorIsEmpty(sel);
  return {
    key: JSON.stringify([Object.entries(sel.matchLabels).sort(), sel.matchExpressions.map((e) => [e.key, e.operator, e.values])]),
    match: compileLabelSelector(sel),
    empty,
  };
}

// ------------------------------------------------------------------ input checks

function compilePod(p: ClusterPod, at: string, nsIndex: ReadonlyMap<string, number>): Pod {
  if (p === null || typeof p !== "object") throw new EvaluatorInputError(at, "must be an object");
  const namespace = stringAt(p.namespace, `${at}.namespace`);
  const name = stringAt(p.name, `${at}.name`);
  if (name === "") throw new EvaluatorInputError(`${at}.name`, "must be non-empty");
  const ns = nsIndex.get(namespace);
  if (ns === undefined) throw new EvaluatorInputError(`${at}.namespace`, `namespace ${JSON.stringify(namespace)} is not listed in namespaces`);
  const ip = ipAt(p.ip, `${at}.ip`);
  const hostNetwork = p.hostNetwork === undefined ? false : booleanAt(p.hostNetwork, `${at}.hostNetwork`);
  let hostIP = p.hostIP === undefined ? undefined : ipAt(p.hostIP, `${at}.hostIP`);
  if (hostNetwork) {
    // E12: a hostNetwork pod's traffic carries its node's IP.
    if (hostIP !== undefined && !sameIP(hostIP, ip)) {
      throw new EvaluatorInputError(`${at}.hostIP`, "a hostNetwork pod's ip is its node's IP, so hostIP must equal ip");
    }
    hostIP = ip;
  }
  const portsIn = p.ports === undefined ? [] : listAt(p.ports, `${at}.ports`);
  const ports = portsIn.map((pp, i) => podPortAt(pp, `${at}.ports[${i}]`));
  return {
    key: `${namespace}/${name}`,
    ns,
    labels: Object.freeze({ ...labelsAt(p.labels, `${at}.labels`) }),
    ip,
    hostIP,
    hostNetwork,
    ports,
  };
}

function podPortAt(pp: ClusterPodPort, at: string): PodPort {
  if (pp === null || typeof pp !== "object") throw new EvaluatorInputError(at, "must be an object with containerPort");
  const name = pp.name === undefined ? "" : stringAt(pp.name, `${at}.name`);
  return {
    name,
    containerPort: portNumberAt(pp.containerPort, `${at}.containerPort`),
    protocol: protocolAt(pp.protocol, `${at}.protocol`),
  };
}

function listAt<T>(v: readonly T[] | undefined, at: string): readonly T[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EvaluatorInputError(at, "must be a list");
  return v;
}

function stringAt(v: unknown, at: string): string {
  if (typeof v !== "string") throw new EvaluatorInputError(at, "must be a string");
  return v;
}

function booleanAt(v: unknown, at: string): boolean {
  if (typeof v !== "boolean") throw new EvaluatorInputError(at, "must be true or false");
  return v;
}

function labelsAt(v: unknown, at: string): Labels {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new EvaluatorInputError(at, "must be a map of strings");
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== "string") throw new EvaluatorInputError(`${at}[${JSON.stringify(k)}]`, "must be a string");
    // defineProperty: a "__proto__" label stays a label, not a prototype.
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function ipAt(v: unknown, at: string): IP {
  const s = stringAt(v, at);
  const ip = parseIPSloppy(s);
  if (ip === null) throw new EvaluatorInputError(at, `${JSON.stringify(s)} is not an IP address`);
  return ip;
}

function portNumberAt(v: unknown, at: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 65535) {
    throw new EvaluatorInputError(at, `${typeof v === "number" ? v : JSON.stringify(v)} is not a port number (1-65535)`);
  }
  return v;
}

function protocolAt(v: unknown, at: string): Protocol {
  if (v === undefined) return "TCP";
  if (typeof v !== "string" || !PROTOCOL_SET.has(v)) throw new EvaluatorInputError(at, `${JSON.stringify(v)} is not one of TCP, UDP, SCTP`);
  return v as Protocol;
}

function sameIP(a: IP, b: IP): boolean {
  return a.family === b.family && a.w0 === b.w0 && a.w1 === b.w1 && a.w2 === b.w2 && a.w3 === b.w3;
}

function ipKey(ip: IP): string {
  return `${ip.family}:${ip.w0}:${ip.w1}:${ip.w2}:${ip.w3}`;
}
