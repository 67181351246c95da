// What the lint reads from an analysis and its input, in the form its checks use: each peer (the
// workloads, then the address segments outside the cluster) is a small integer, each rule's peers
// a bit set over them, and, per direction, the policies that isolate each workload.

import {
  ALL_CONNECTIONS,
  type AnalyzedRule,
  type ClusterPodPort,
  type ConnectionSet,
  type ConnectivityAnalysis,
  type ConnectivityInput,
  EvaluatorInputError,
  type NetworkPolicy,
} from "../../networking/index.js";
import { type Bits, emptyBits, fullBits, setBit } from "./bitset.js";
import type { NamedPort } from "./ports.js";

/** A direction of traffic, as policies isolate it. */
export type Direction = "ingress" | "egress";

/** Both directions, ingress first. */
export const DIRECTIONS: readonly Direction[] = ["ingress", "egress"];

/** One rule of one policy, as the lint compares it with others. */
export interface RuleView {
  /** The policy's index in the analysis' `policies`. */
  readonly policy: number;
  readonly direction: Direction;
  /** Its index in `spec.ingress` or `spec.egress`. */
  readonly index: number;
  /** The peers it admits: workloads, then segments. */
  readonly peers: Bits;
  /** Its numbered ports (every port when it lists none). */
  readonly ports: ConnectionSet;
  /** Its named ports. */
  readonly named: readonly NamedPort[];
  /** No peers listed: every workload and address. */
  readonly anyPeer: boolean;
}

/** One policy as the lint sees it. */
export interface PolicyView {
  /** `namespace/name`. */
  readonly key: string;
  readonly namespace: string;
  /** Its index in the analysis' `policies`. */
  readonly position: number;
  /** The object, from the input. */
  readonly object: NetworkPolicy;
  /** Indexes of the workloads it selects. */
  readonly selects: readonly number[];
  readonly ingress: readonly RuleView[] | null;
  readonly egress: readonly RuleView[] | null;
}

/** The lint's view of one analysis. */
export interface LintModel {
  /** Workload keys, in the analysis' order. */
  readonly workloadKeys: readonly string[];
  readonly workloadNamespaces: readonly string[];
  readonly workloadPorts: readonly (readonly ClusterPodPort[] | undefined)[];
  /** Per workload, a key equal for workloads with the same container ports. */
  readonly portKeys: readonly string[];
  readonly hostNetwork: readonly boolean[];
  /** Number of workloads; peers from here on are segments. */
  readonly workloadCount: number;
  /** Number of peers: workloads and segments. */
  readonly size: number;
  /** The segments of each family, as peers. */
  readonly ipv4: Bits;
  readonly ipv6: Bits;
  readonly policies: readonly PolicyView[];
  /** Per direction, per workload: the positions of the policies that isolate it, in order. */
  readonly isolating: Readonly<Record<Direction, readonly (readonly number[])[]>>;
  /** Whether any rule of the direction has a named port. */
  readonly namedPorts: Readonly<Record<Direction, boolean>>;
  /** Sets of the model's size for the checks' own use, so they need not allocate. */
  readonly scratch: readonly [Bits, Bits, Bits, Bits];
}

/** The key the analysis gives a policy. */
export function policyKey(p: NetworkPolicy): string {
  const ns = p.metadata?.namespace ?? "";
  return `${ns === "" ? "default" : ns}/${p.metadata?.name ?? ""}`;
}

/**
 * The lint's view of `analysis`, which `analyzeConnectivity` made from `input`. Throws an
 * EvaluatorInputError when the two do not belong together.
 */
export function buildModel(analysis: ConnectivityAnalysis, input: ConnectivityInput): LintModel {
  const workloadCount = analysis.workloads.length;
  if (input.workloads.length !== workloadCount) {
    throw new EvaluatorInputError(
      "input.workloads",
      `has ${input.workloads.length} workloads and the analysis ${workloadCount}: lint needs the input the analysis was made from`,
    );
  }
  const workloadIndex = new Map<string, number>();
  const workloadKeys: string[] = [];
  const workloadNamespaces: string[] = [];
  const workloadPorts: (readonly ClusterPodPort[] | undefined)[] = [];
  const hostNetwork: boolean[] = [];
  analysis.workloads.forEach((peer, i) => {
    const w = input.workloads[i]!;
    if (`${w.namespace}/${w.kind}/${w.name}` !== peer.key) {
      throw new EvaluatorInputError(
        `input.workloads[${i}]`,
        `is ${w.namespace}/${w.kind}/${w.name} where the analysis has ${peer.key}: lint needs the input the analysis was made from`,
      );
    }
    workloadIndex.set(peer.key, i);
    workloadKeys.push(peer.key);
    workloadNamespaces.push(peer.namespace);
    workloadPorts.push(w.ports);
    hostNetwork.push(w.hostNetwork === true);
  });

  const size = workloadCount + analysis.segments.length;
  const ipv4 = emptyBits(size);
  const ipv6 = emptyBits(size);
  const segmentStart = new Map<string, number>();
  const segmentEnd = new Map<string, number>();
  analysis.segments.forEach((s, i) => {
    const peer = workloadCount + i;
    setBit(s.family === 4 ? ipv4 : ipv6, peer);
    segmentStart.set(`${s.family}|${s.first}`, peer);
    segmentEnd.set(`${s.family}|${s.last}`, peer);
  });

  const all = fullBits(size);
  const namedPorts: Record<Direction, boolean> = { ingress: false, egress: false };
  const view = (position: number, direction: Direction, rule: AnalyzedRule, path: string): RuleView => {
    let peers: Bits;
    if (rule.anyPeer) peers = all;
    else {
      peers = emptyBits(size);
      for (const key of rule.workloads) {
        const i = workloadIndex.get(key);
        if (i === undefined)
          throw new EvaluatorInputError(`${path}.workloads`, `names ${key}, which is no workload of the analysis`);
        setBit(peers, i);
      }
      for (const range of rule.addresses) {
        const first = segmentStart.get(`${range.family}|${range.first}`);
        const last = segmentEnd.get(`${range.family}|${range.last}`);
        if (first === undefined || last === undefined || last < first) {
          throw new EvaluatorInputError(
            `${path}.addresses`,
            `${range.first}-${range.last} is not made of the analysis' segments`,
          );
        }
        for (let p = first; p <= last; p++) setBit(peers, p);
      }
    }
    if (rule.namedPorts.length > 0) namedPorts[direction] = true;
    return {
      policy: position,
      direction,
      index: rule.index,
      peers,
      ports: rule.anyPort ? ALL_CONNECTIONS : rule.ports,
      named: rule.anyPort ? [] : rule.namedPorts,
      anyPeer: rule.anyPeer,
    };
  };

  const isolating: Record<Direction, number[][]> = {
    ingress: analysis.workloads.map(() => []),
    egress: analysis.workloads.map(() => []),
  };
  const policies = analysis.policies.map((p, position): PolicyView => {
    const object = input.policies[p.index];
    if (object === undefined || policyKey(object) !== p.key) {
      throw new EvaluatorInputError(
        `input.policies[${p.index}]`,
        `is not ${p.key}, as the analysis says: lint needs the input the analysis was made from`,
      );
    }
    const selects = p.selects.map((key) => {
      const i = workloadIndex.get(key);
      if (i === undefined)
        throw new EvaluatorInputError(
          `policies[${position}].selects`,
          `names ${key}, which is no workload of the analysis`,
        );
      return i;
    });
    const rules = (direction: Direction): RuleView[] | null => {
      const list = p[direction];
      if (list === null) return null;
      for (const w of selects) isolating[direction][w]!.push(position);
      return list.map((r, j) => view(position, direction, r, `policies[${position}].${direction}[${j}]`));
    };
    const slash = p.key.indexOf("/");
    return {
      key: p.key,
      namespace: p.key.slice(0, slash),
      position,
      object,
      selects,
      ingress: rules("ingress"),
      egress: rules("egress"),
    };
  });

  return {
    workloadKeys,
    workloadNamespaces,
    workloadPorts,
    portKeys: workloadPorts.map((ports) => JSON.stringify(ports ?? [])),
    hostNetwork,
    workloadCount,
    size,
    ipv4,
    ipv6,
    policies,
    isolating,
    namedPorts,
    scratch: [emptyBits(size), emptyBits(size), emptyBits(size), emptyBits(size)],
  };
}
