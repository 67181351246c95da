// The NetworkPolicy evaluator: which connections the NetworkPolicies of one
// cluster snapshot allow, as the API defines it (isolation is per direction,
// the rules of every policy isolating a pod add up, nothing ever denies).
//
// Everything that does not depend on the connection is computed once, when the
// engine is built: each namespace's labels (with its name label), each pod's parsed addresses
// and ports, each policy's selected pods, and for every rule the set of pods
// its peers admit, all as bitsets over pod indexes. A single decision then
// reads bits; a truth table is a few word-wide unions per pod, then one AND
// per word.

import type { NetworkPolicy } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { forEachBit, fullBits, hasBit, orAndInto, orInto, setBit, wordCount, type Bits } from "../bitset.js";
import { EvaluatorInputError } from "../../model/errors.js";
import type {
  Cell,
  ClusterNamespace,
  ClusterPod,
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
  TableQuery,
  TruthMatrix,
  TruthTableResult,
  ConnectionChange,
} from "./types.js";
import type { SkippedObject } from "../types.js";
import { parseIPSloppy } from "../../validation/rules/ip.js";
import {
  compileNamespaces,
  compilePod,
  compilePolicy,
  inBlock,
  ipKey,
  listAt,
  portNumberAt,
  protocolAt,
  sameIP,
  setBuilderFor,
} from "./compile.js";
import type { Pod, Policy, ResolvedEndpoint, Rule } from "./compiled.js";
import { ALL, Matrix, NONE, PortSets, declares, lazyTable, namedPort } from "./matrix.js";

/**
 * One cluster snapshot for {@link createPolicyEngine}: its namespaces, pods and NetworkPolicies.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, type PolicyEngineInput } from "clusterwire/networking";
 *
 * const input: PolicyEngineInput = ({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * ```
 */
export interface PolicyEngineInput {
  /** Every namespace that pods or policies live in. Each also carries its `kubernetes.io/metadata.name` label. */
  readonly namespaces: readonly ClusterNamespace[];
  /** Each in a listed namespace: a pod elsewhere is an EvaluatorInputError. */
  readonly pods: readonly ClusterPod[];
  /**
   * NetworkPolicy objects, with or without the API server's defaults. Each is
   * in a listed namespace (a policy without one is in `default`), as pods
   * are: a policy elsewhere is an EvaluatorInputError at
   * `policies[i].metadata.namespace`. A policy the API server would reject,
   * or a second one with the same `namespace/name`, is left out and listed
   * in `skipped`.
   */
  readonly policies: readonly NetworkPolicy[];
}

// ------------------------------------------------------------------ construction

/**
 * Builds an engine over one cluster snapshot. Throws EvaluatorInputError for
 * namespaces, pods or policies it cannot give a meaning to, such as a pod or
 * a policy in a namespace `namespaces` does not list. Policies the API server
 * would reject are left out and listed in `skipped`, and so is every answer
 * the engine gives.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const decision = engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: 8080 });
 * console.log(decision.allowed, decision.ingress.verdict); // false "denied"
 * ```
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

    const { nsIndex, nsLabels } = compileNamespaces(namespaces);

    const pods: Pod[] = [];
    const podIndex = new Map<string, number>();
    podsIn.forEach((p, i) => {
      const pod = compilePod(p, `pods[${i}]`, nsIndex);
      if (podIndex.has(pod.key))
        throw new EvaluatorInputError(`pods[${i}].name`, `duplicate pod ${JSON.stringify(pod.key)}`);
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
      if (b === undefined) {
        b = new Uint32Array(words);
        hostNetworkByIP.set(k, b);
      }
      setBit(b, i);
    });
    this.#hostNetworkByIP = hostNetworkByIP;

    const sets = setBuilderFor(pods, nsLabels, words);

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
      skipped: this.skipped,
    };
  }

  #endpoint(e: Endpoint | undefined, at: string): ResolvedEndpoint {
    if (e === null || typeof e !== "object")
      throw new EvaluatorInputError(at, 'must be { pod: "namespace/name" } or { ip: "address" }');
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
    if (typeof port !== "string" || port === "")
      throw new EvaluatorInputError("connection.port", "must be a port number or a port name");
    if (to.pod < 0) {
      throw new EvaluatorInputError(
        "connection.port",
        `the port name ${JSON.stringify(port)} needs a pod destination to resolve on`,
      );
    }
    const pod = this.#pods[to.pod]!;
    const resolved = namedPort(pod, port, protocol);
    if (resolved !== undefined) return resolved;
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
    if (
      dst.hostIP !== undefined &&
      (from.pod < 0 || this.#pods[from.pod]!.hostNetwork) &&
      sameIP(from.ip, dst.hostIP)
    ) {
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
    const protocol = this.#queryProtocol(query);
    if (typeof query.port === "string") {
      throw new EvaluatorInputError(
        "query.port",
        `a matrix is for one port number; the port name ${JSON.stringify(query.port)} resolves per destination pod, so use truthTable`,
      );
    }
    return this.#matrix(protocol, portNumberAt(query.port, "query.port"));
  }

  truthTable(query: TableQuery): TruthTableResult {
    const protocol = this.#queryProtocol(query);
    if (typeof query.port === "string") return this.#namedTable(protocol, query.port);
    const m = this.#matrix(protocol, portNumberAt(query.port, "query.port"));
    return lazyTable(m, { skipped: this.skipped, unresolved: NO_PODS });
  }

  #queryProtocol(query: TableQuery): Protocol {
    if (query === null || typeof query !== "object")
      throw new EvaluatorInputError("query", "must be { protocol?, port }");
    return protocolAt(query.protocol, "query.protocol");
  }

  /**
   * A table for a port name: each destination's column is taken from the
   * matrix of its own port of that name (E9), one matrix per distinct port
   * number; pods without the name get no column.
   */
  #namedTable(protocol: Protocol, name: string): TruthTableResult {
    if (name === "") throw new EvaluatorInputError("query.port", "must be a port number or a port name");
    const words = this.#words;
    const columns = new Uint32Array(words);
    const byPort = new Map<number, Bits>();
    const unresolved: string[] = [];
    this.#pods.forEach((pod, d) => {
      const port = namedPort(pod, name, protocol);
      if (port === undefined) {
        unresolved.push(pod.key);
        return;
      }
      let mask = byPort.get(port);
      if (mask === undefined) {
        mask = new Uint32Array(words);
        byPort.set(port, mask);
      }
      setBit(mask, d);
      setBit(columns, d);
    });
    if (byPort.size === 0) {
      throw new EvaluatorInputError(
        "query.port",
        `no pod declares a ${protocol} port named ${JSON.stringify(name)}, so the table would have no column`,
      );
    }
    const allowed = new Uint32Array(this.#pods.length * words);
    for (const [port, mask] of byPort) this.#matrix(protocol, port).allowedInto(allowed, mask);
    const rows = { pods: this.pods, row: (from: number) => allowed.slice(from * words, (from + 1) * words) };
    return lazyTable(rows, { skipped: this.skipped, unresolved: Object.freeze(unresolved) }, columns);
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
      setBit(row, s); // a pod always reaches itself
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
      setBit(sources, d); // a pod always reaches itself
      const hostIP = pods[d]!.hostIP;
      const local = hostIP === undefined ? undefined : this.#hostNetworkByIP.get(ipKey(hostIP));
      if (local !== undefined) orInto(sources, local); // traffic from its own node is always allowed
      const w = d >>> 5;
      const bit = 1 << (d & 31);
      forEachBit(sources, (s) => {
        ingress[s * words + w]! |= bit;
      });
    }
    return new Matrix(this.pods, protocol, port, words, egress, ingress, this.skipped);
  }

  // -------------------------------------------------------------- diff

  diff(other: PolicyEngine, options: DiffOptions = {}): PolicyDiff {
    if (!(other instanceof Engine)) throw new TypeError("diff: the other engine must come from createPolicyEngine");
    const protocols = options.protocols ?? (["TCP", "UDP", "SCTP"] as const);
    protocols.forEach((p, i) => {
      protocolAt(p, `options.protocols[${i}]`);
    });
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
      const open = new Map<
        number,
        { change: { from: string; to: string; before: Cell; after: Cell; lo: number }; hi: number }
      >();
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
              change: {
                from: this.pods[fi]!,
                to: this.pods[ti]!,
                before: cellBefore,
                after: after ? "allow" : "deny",
                lo: range.from,
              },
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
      skipped: { before: this.skipped, after: other.skipped },
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

const NO_PODS: readonly string[] = Object.freeze([]);
const NOT_APPLICABLE: DirectionDecision = Object.freeze({ verdict: "not-applicable", policies: Object.freeze([]) });
const NOT_ISOLATED: DirectionDecision = Object.freeze({ verdict: "not-isolated", policies: Object.freeze([]) });
const SELF: DirectionDecision = Object.freeze({ verdict: "self", policies: Object.freeze([]) });
const NODE_LOCAL: DirectionDecision = Object.freeze({ verdict: "node-local", policies: Object.freeze([]) });
