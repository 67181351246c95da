// Compiling the engine's input: pods and their ports checked, policies turned
// into rules over bitsets of the pods their peers select.

import type {
  IPBlock,
  NetworkPolicy,
  NetworkPolicyPeer,
  NetworkPolicyPort,
} from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { orInto, setBit, type Bits } from "../bitset.js";
import { effectivePolicyTypes } from "../../validation/default-values.js";
import { EvaluatorInputError } from "../../model/errors.js";
import type { SkippedObject } from "../types.js";
import { PROTOCOLS, type ClusterNamespace, type ClusterPod, type ClusterPodPort, type Protocol } from "./types.js";
import { FieldPath } from "../../model/path.js";
import { duplicate, type FieldError } from "../../validation/field-error.js";
import { cidrContains, parseCIDRSloppy, parseIPSloppy, type IP } from "../../validation/rules/ip.js";
import {
  compileLabelSelector,
  labelSelectorIsEmpty,
  type LabelMatcher,
  type Labels,
} from "../../validation/rules/label-selector.js";
import { validate } from "../../validation/validate.js";
import { DEFAULT_NAMESPACE, NAMESPACE_NAME_LABEL, NETWORK_POLICY_TYPE } from "../../model/constants.js";
import type { Block, Pod, PodPort, Policy, PortEntry, Rule } from "./compiled.js";

const PROTOCOL_SET: ReadonlySet<string> = new Set(PROTOCOLS);

// ------------------------------------------------------------------ namespaces

/**
 * The input's namespaces, checked: each name's index, and each namespace's labels with its
 * `kubernetes.io/metadata.name` label, which is always there whatever the input says.
 */
export function compileNamespaces(namespaces: readonly ClusterNamespace[]): {
  nsIndex: Map<string, number>;
  nsLabels: Labels[];
} {
  const nsIndex = new Map<string, number>();
  const nsLabels: Labels[] = [];
  namespaces.forEach((ns, i) => {
    const at = `namespaces[${i}]`;
    if (ns === null || typeof ns !== "object") throw new EvaluatorInputError(at, "must be an object with a name");
    const name = stringAt(ns.name, `${at}.name`);
    if (name === "") throw new EvaluatorInputError(`${at}.name`, "must be non-empty");
    if (nsIndex.has(name)) throw new EvaluatorInputError(`${at}.name`, `duplicate namespace ${JSON.stringify(name)}`);
    nsIndex.set(name, i);
    nsLabels.push(Object.freeze({ ...labelsAt(ns.labels, `${at}.labels`), [NAMESPACE_NAME_LABEL]: name }));
  });
  return { nsIndex, nsLabels };
}

// ------------------------------------------------------------------ selected-pod sets

/**
 * The set builder over these pods: per namespace, the pods selectors can see (hostNetwork pods
 * are never selected, E12). `addressless` pods match no ipBlock (the connectivity analysis's workloads).
 */
export function setBuilderFor(
  pods: readonly Pod[],
  nsLabels: readonly Labels[],
  words: number,
  addressless = false,
): SetBuilder {
  const selectable: Bits[] = nsLabels.map(() => new Uint32Array(words));
  const members: number[][] = nsLabels.map(() => []);
  pods.forEach((p, i) => {
    if (p.hostNetwork) return;
    setBit(selectable[p.ns]!, i);
    members[p.ns]!.push(i);
  });
  return new SetBuilder(pods, nsLabels, selectable, members, words, addressless);
}

/** Builds the pod sets of selectors and peers, sharing equal selectors. */
export class SetBuilder {
  readonly #pods: readonly Pod[];
  readonly #nsLabels: readonly Labels[];
  readonly #selectable: readonly Bits[];
  readonly #members: readonly (readonly number[])[];
  readonly #words: number;
  /** The pods have no addresses (the workloads of a connectivity analysis): no ipBlock admits them. */
  readonly #addressless: boolean;
  readonly #cache = new Map<string, Bits>();

  constructor(
    pods: readonly Pod[],
    nsLabels: readonly Labels[],
    selectable: readonly Bits[],
    members: readonly (readonly number[])[],
    words: number,
    addressless = false,
  ) {
    this.#addressless = addressless;
    this.#pods = pods;
    this.#nsLabels = nsLabels;
    this.#selectable = selectable;
    this.#members = members;
    this.#words = words;
  }

  get words(): number {
    return this.#words;
  }

  /** Pods (not hostNetwork) in namespace `ns` that `pod` matches. */
  inNamespace(ns: number, pod: { key: string; match: LabelMatcher; empty: boolean }): Bits {
    return this.#cached(`n${ns}|${pod.key}`, () => {
      if (pod.empty) return this.#selectable[ns]!.slice();
      const b = new Uint32Array(this.#words);
      for (const i of this.#members[ns]!) if (pod.match(this.#pods[i]!.labels)) setBit(b, i);
      return b;
    });
  }

  /** Pods (not hostNetwork) matching `pod` in every namespace `ns` matches. */
  acrossNamespaces(
    ns: { key: string; match: LabelMatcher },
    pod: { key: string; match: LabelMatcher; empty: boolean },
  ): Bits {
    return this.#cached(`a${ns.key}|${pod.key}`, () => {
      const b = new Uint32Array(this.#words);
      this.#nsLabels.forEach((labels, i) => {
        if (ns.match(labels)) orInto(b, this.inNamespace(i, pod));
      });
      return b;
    });
  }

  /** Every pod, hostNetwork ones included (their traffic carries the node IP), whose IP is in the block. */
  inBlock(block: Block, key: string): Bits {
    return this.#cached(`b${key}`, () => {
      const b = new Uint32Array(this.#words);
      if (this.#addressless) return b;
      this.#pods.forEach((p, i) => {
        if (inBlock(block, p.ip)) setBit(b, i);
      });
      return b;
    });
  }

  #cached(key: string, build: () => Bits): Bits {
    let b = this.#cache.get(key);
    if (b === undefined) {
      b = build();
      this.#cache.set(key, b);
    }
    return b;
  }
}

export function inBlock(block: Block, ip: IP): boolean {
  if (!cidrContains(block.cidr, ip)) return false;
  for (const e of block.except) if (cidrContains(e, ip)) return false;
  return true;
}

// ------------------------------------------------------------------ policies

export function compilePolicy(
  np: NetworkPolicy,
  i: number,
  sets: SetBuilder,
  order: number,
  seen: Set<string>,
  skipped: SkippedObject[],
  nsIndex: ReadonlyMap<string, number>,
): { policy: Policy; selected: Bits } | undefined {
  if (np === null || typeof np !== "object" || (np as { $typeName?: unknown }).$typeName !== NETWORK_POLICY_TYPE) {
    throw new EvaluatorInputError(
      `policies[${i}]`,
      "must be a NetworkPolicy message (build it with fromYaml, fromJson or decode)",
    );
  }
  const meta = np.metadata;
  const namespace = meta?.namespace || DEFAULT_NAMESPACE;
  // A policy, like a pod, lives in a listed namespace: anywhere else nothing says what its labels are.
  const ns = nsIndex.get(namespace);
  if (ns === undefined) {
    throw new EvaluatorInputError(
      `policies[${i}].metadata.namespace`,
      `namespace ${JSON.stringify(namespace)}${meta?.namespace ? "" : " (a policy without a namespace is in default)"} is not listed in namespaces`,
    );
  }
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

  const spec = np.spec;
  // A missing podSelector is the empty one: every pod of the namespace.
  const subject = selectorOf(spec?.podSelector);
  const selected = sets.inNamespace(ns, subject);
  const types = spec === undefined ? ["Ingress"] : effectivePolicyTypes(spec);
  const compileRules = (rules: readonly { ports: NetworkPolicyPort[]; peers: NetworkPolicyPeer[] }[]): Rule[] =>
    rules.map((r, index) => compileRule(r.peers, r.ports, index, ns, sets));
  const policy: Policy = {
    key,
    order,
    ingress: types.includes("Ingress")
      ? compileRules((spec?.ingress ?? []).map((r) => ({ ports: r.ports, peers: r.from })))
      : null,
    egress: types.includes("Egress")
      ? compileRules((spec?.egress ?? []).map((r) => ({ ports: r.ports, peers: r.to })))
      : null,
  };
  return { policy, selected };
}

function compileRule(
  peers: readonly NetworkPolicyPeer[],
  ports: readonly NetworkPolicyPort[],
  index: number,
  ns: number,
  sets: SetBuilder,
): Rule {
  const peerPods = new Uint32Array(sets.words);
  const ipBlocks: Block[] = [];
  for (const peer of peers) {
    if (peer.ipBlock !== undefined) {
      const block = compileBlock(peer.ipBlock);
      ipBlocks.push(block);
      orInto(peerPods, sets.inBlock(block, `${peer.ipBlock.cidr}-${peer.ipBlock.except.join(",")}`));
      continue;
    }
    // A podSelector alone selects pods of the policy's own namespace only.
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
  // The protocol defaults to TCP. Validation guarantees the rest.
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
    key: JSON.stringify([
      Object.entries(sel.matchLabels).sort(),
      sel.matchExpressions.map((e) => [e.key, e.operator, e.values]),
    ]),
    match: compileLabelSelector(sel),
    empty,
  };
}

// ------------------------------------------------------------------ input checks

export function compilePod(p: ClusterPod, at: string, nsIndex: ReadonlyMap<string, number>): Pod {
  if (p === null || typeof p !== "object") throw new EvaluatorInputError(at, "must be an object");
  const namespace = stringAt(p.namespace, `${at}.namespace`);
  const name = stringAt(p.name, `${at}.name`);
  if (name === "") throw new EvaluatorInputError(`${at}.name`, "must be non-empty");
  const ns = nsIndex.get(namespace);
  if (ns === undefined)
    throw new EvaluatorInputError(
      `${at}.namespace`,
      `namespace ${JSON.stringify(namespace)} is not listed in namespaces`,
    );
  const ip = ipAt(p.ip, `${at}.ip`);
  const hostNetwork = p.hostNetwork === undefined ? false : booleanAt(p.hostNetwork, `${at}.hostNetwork`);
  let hostIP = p.hostIP === undefined ? undefined : ipAt(p.hostIP, `${at}.hostIP`);
  if (hostNetwork) {
    // A hostNetwork pod's traffic carries its node's IP.
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

export function podPortAt(pp: ClusterPodPort, at: string): PodPort {
  if (pp === null || typeof pp !== "object") throw new EvaluatorInputError(at, "must be an object with containerPort");
  const name = pp.name === undefined ? "" : stringAt(pp.name, `${at}.name`);
  return {
    name,
    containerPort: portNumberAt(pp.containerPort, `${at}.containerPort`),
    protocol: protocolAt(pp.protocol, `${at}.protocol`),
  };
}

export function listAt<T>(v: readonly T[] | undefined, at: string): readonly T[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EvaluatorInputError(at, "must be a list");
  return v;
}

export function stringAt(v: unknown, at: string): string {
  if (typeof v !== "string") throw new EvaluatorInputError(at, "must be a string");
  return v;
}

function booleanAt(v: unknown, at: string): boolean {
  if (typeof v !== "boolean") throw new EvaluatorInputError(at, "must be true or false");
  return v;
}

export function labelsAt(v: unknown, at: string): Labels {
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

export function portNumberAt(v: unknown, at: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 65535) {
    throw new EvaluatorInputError(
      at,
      `${typeof v === "number" ? v : JSON.stringify(v)} is not a port number (1-65535)`,
    );
  }
  return v;
}

export function protocolAt(v: unknown, at: string): Protocol {
  if (v === undefined) return "TCP";
  if (typeof v !== "string" || !PROTOCOL_SET.has(v))
    throw new EvaluatorInputError(at, `${JSON.stringify(v)} is not one of TCP, UDP, SCTP`);
  return v as Protocol;
}

export function sameIP(a: IP, b: IP): boolean {
  return a.family === b.family && a.w0 === b.w0 && a.w1 === b.w1 && a.w2 === b.w2 && a.w3 === b.w3;
}

export function ipKey(ip: IP): string {
  return `${ip.family}:${ip.w0}:${ip.w1}:${ip.w2}:${ip.w3}`;
}
