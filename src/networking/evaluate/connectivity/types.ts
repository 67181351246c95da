// The public shapes of the connectivity analysis (docs/connectivity.md): which workloads, and which
// address ranges outside the cluster, may connect to which, on which protocols and ports, under
// the NetworkPolicies of one snapshot. Kept apart from the implementation (analyze.ts), as
// policy/types.ts is for the engine.

import type { SkippedObject } from "../types.js";
import type { ClusterNamespace, ClusterPodPort, PolicyRuleMatch, Protocol } from "../policy/types.js";
import type { NetworkPolicy } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";

/**
 * A workload: the pods one object runs (a Deployment's replicas, a CronJob's jobs), judged as one
 * peer because they share the pod template's labels, namespace and ports.
 *
 * @example
 * ```ts
 * import type { ClusterWorkload } from "clusterwire/networking";
 *
 * const api: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" }, ports: [{ name: "http", containerPort: 8080 }] };
 * ```
 */
export interface ClusterWorkload {
  /** The workload's namespace, which must be listed in the input's namespaces. */
  readonly namespace: string;
  /** The object's kind (`Deployment`, `Pod`, ...); `namespace/kind/name` is the workload's key. */
  readonly kind: string;
  /** The object's name. */
  readonly name: string;
  /** The pod template's labels, which pod selectors match. */
  readonly labels?: Readonly<Record<string, string>>;
  /** The pod template's container ports, for named ports. */
  readonly ports?: readonly ClusterPodPort[];
  /** Whether the pods use the node's network: policies neither isolate nor select them. */
  readonly hostNetwork?: boolean;
}

/**
 * One snapshot for {@link analyzeConnectivity}: namespaces, workloads and NetworkPolicies.
 *
 * @example
 * ```ts
 * import type { ConnectivityInput } from "clusterwire/networking";
 *
 * const input: ConnectivityInput = {
 *   namespaces: [{ name: "shop" }],
 *   workloads: [{ namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } }],
 *   policies: [],
 * };
 * ```
 */
export interface ConnectivityInput {
  /** Every namespace that workloads or policies live in. Each also carries its `kubernetes.io/metadata.name` label. */
  readonly namespaces: readonly ClusterNamespace[];
  /** The workloads; two with the same `namespace/kind/name` are an EvaluatorInputError. */
  readonly workloads: readonly ClusterWorkload[];
  /**
   * NetworkPolicy objects. A policy the API server would reject, or a second one with the same
   * `namespace/name`, is left out and listed in `skipped`, as the policy engine does.
   */
  readonly policies: readonly NetworkPolicy[];
}

/**
 * Options of {@link analyzeConnectivity}.
 *
 * @example
 * ```ts
 * import type { ConnectivityOptions } from "clusterwire/networking";
 *
 * const options: ConnectivityOptions = { externalCuts: ["10.0.0.0/8"] };
 * ```
 */
export interface ConnectivityOptions {
  /**
   * More CIDRs whose edges cut the address space outside the cluster, beside the policies' own
   * ipBlocks. {@link diffConnectivity} passes each side's blocks to the other, so both sides cut
   * the addresses alike.
   */
  readonly externalCuts?: readonly string[];
}

/**
 * An inclusive range of port numbers, 1 to 65535.
 *
 * @example
 * ```ts
 * import type { PortRange } from "clusterwire/networking";
 *
 * const web: PortRange = { from: 8080, to: 8089 };
 * ```
 */
export interface PortRange {
  /** The first port. */
  readonly from: number;
  /** The last port, at least `from`. */
  readonly to: number;
}

/**
 * A set of connections: per protocol, the destination ports allowed, as sorted, disjoint,
 * non-adjacent ranges. Every port of every protocol is `{ TCP: [{from: 1, to: 65535}], ... }`;
 * nothing is three empty lists.
 *
 * @example
 * ```ts
 * import type { ConnectionSet } from "clusterwire/networking";
 *
 * const dns: ConnectionSet = { TCP: [{ from: 53, to: 53 }], UDP: [{ from: 53, to: 53 }], SCTP: [] };
 * ```
 */
export interface ConnectionSet {
  /** TCP destination ports. */
  readonly TCP: readonly PortRange[];
  /** UDP destination ports. */
  readonly UDP: readonly PortRange[];
  /** SCTP destination ports. */
  readonly SCTP: readonly PortRange[];
}

/**
 * An inclusive range of addresses of one family outside the cluster.
 *
 * @example
 * ```ts
 * import type { AddressRange } from "clusterwire/networking";
 *
 * const net: AddressRange = { family: 4, first: "10.0.0.0", last: "10.255.255.255", cidrs: ["10.0.0.0/8"] };
 * ```
 */
export interface AddressRange {
  /** 4 or 6. */
  readonly family: 4 | 6;
  /** The first address. */
  readonly first: string;
  /** The last address. */
  readonly last: string;
  /** The fewest CIDRs that cover exactly this range, in address order. */
  readonly cidrs: readonly string[];
}

/**
 * One end of a connection in an analysis: a workload, or a set of address ranges outside the
 * cluster that every policy treats alike for this line.
 *
 * @example
 * ```ts
 * import type { ConnectivityPeer } from "clusterwire/networking";
 *
 * const api: ConnectivityPeer = { type: "workload", key: "shop/Deployment/api", namespace: "shop", kind: "Deployment", name: "api" };
 * ```
 */
export type ConnectivityPeer =
  | {
      readonly type: "workload";
      /** `namespace/kind/name`. */
      readonly key: string;
      readonly namespace: string;
      readonly kind: string;
      readonly name: string;
    }
  | {
      readonly type: "external";
      /** The ranges, IPv4 first, in address order. */
      readonly ranges: readonly AddressRange[];
      /** The ranges as CIDRs, joined by `,` (e.g. `0.0.0.0/5,8.0.0.0/7`). */
      readonly key: string;
    };

/**
 * One line of a connectivity list: what `from` may open to `to`. Lines with no connection are
 * left out, as are a workload's connections to itself.
 *
 * @example
 * ```ts
 * import type { ConnectivityLine } from "clusterwire/networking";
 *
 * const describe = (l: ConnectivityLine) => `${l.from.key} => ${l.to.key}`;
 * ```
 */
export interface ConnectivityLine {
  /** The source: a workload, or addresses outside the cluster. */
  readonly from: ConnectivityPeer;
  /** The destination: a workload, or addresses outside the cluster. */
  readonly to: ConnectivityPeer;
  /** What is allowed, never empty. */
  readonly connections: ConnectionSet;
}

/**
 * Why one direction of a connection is allowed or denied.
 *
 * @example
 * ```ts
 * import type { DirectionExplanation } from "clusterwire/networking";
 *
 * const open = (d: DirectionExplanation) => d.isolatedBy.length === 0;
 * ```
 */
export interface DirectionExplanation {
  /**
   * `not-isolated`: no policy selects the subject for this direction (or the subject is outside
   * the cluster, or uses the node's network); `allowed-by-rule`: some rule admits the peer on some
   * port; `denied`: policies select the subject and none admits the peer.
   */
  readonly verdict: "not-isolated" | "allowed-by-rule" | "denied";
  /** `namespace/name` of each policy that isolates the subject in this direction, in input order. */
  readonly isolatedBy: readonly string[];
  /** The rules that admit the peer (on some port), by policy, in input order. */
  readonly allowedBy: readonly PolicyRuleMatch[];
  /** What this direction allows (everything when not isolated). */
  readonly connections: ConnectionSet;
}

/**
 * Why a connection is allowed or denied: egress judged on the source, ingress on the destination.
 *
 * @example
 * ```ts
 * import type { ConnectionExplanation } from "clusterwire/networking";
 *
 * const policies = (e: ConnectionExplanation) => [...e.egress.allowedBy, ...e.ingress.allowedBy].map((m) => m.policy);
 * ```
 */
export interface ConnectionExplanation {
  /** The source: the workload, or the segment of addresses the given IP is in. */
  readonly from: ConnectivityPeer;
  /** The destination, likewise. */
  readonly to: ConnectivityPeer;
  /** What both directions allow together. */
  readonly connections: ConnectionSet;
  /** Judged on the source (not isolated when the source is an address). */
  readonly egress: DirectionExplanation;
  /** Judged on the destination (not isolated when the destination is an address). */
  readonly ingress: DirectionExplanation;
}

/**
 * One rule of an analysed policy: the workloads and addresses its peers admit, and its ports.
 *
 * @example
 * ```ts
 * import type { AnalyzedRule } from "clusterwire/networking";
 *
 * const open = (r: AnalyzedRule) => r.anyPeer && r.anyPort;
 * ```
 */
export interface AnalyzedRule {
  /** The rule's index in `spec.ingress` or `spec.egress`. */
  readonly index: number;
  /** No peers listed: every workload and every address. */
  readonly anyPeer: boolean;
  /** Keys of the workloads the rule's selector peers admit (empty when `anyPeer`). */
  readonly workloads: readonly string[];
  /** The address ranges its ipBlocks admit (empty when `anyPeer`). */
  readonly addresses: readonly AddressRange[];
  /** No ports listed: every port of every protocol. */
  readonly anyPort: boolean;
  /** Numbered ports and ranges (named ports are in `namedPorts`). */
  readonly ports: ConnectionSet;
  /** Named ports, resolved on each destination workload. */
  readonly namedPorts: readonly { readonly protocol: Protocol; readonly name: string }[];
}

/**
 * A policy as the analysis compiled it, for lint and explanations.
 *
 * @example
 * ```ts
 * import type { AnalyzedPolicy } from "clusterwire/networking";
 *
 * const selectsNothing = (p: AnalyzedPolicy) => p.selects.length === 0;
 * ```
 */
export interface AnalyzedPolicy {
  /** `namespace/name`. */
  readonly key: string;
  /** Its index in the input's `policies`. */
  readonly index: number;
  /** Keys of the workloads its podSelector selects (hostNetwork workloads never). */
  readonly selects: readonly string[];
  /** Its ingress rules, or null when it does not isolate for ingress. */
  readonly ingress: readonly AnalyzedRule[] | null;
  /** Its egress rules, or null when it does not isolate for egress. */
  readonly egress: readonly AnalyzedRule[] | null;
}

/**
 * The connectivity of one snapshot, from {@link analyzeConnectivity}.
 *
 * @example
 * ```ts
 * import { analyzeConnectivity, formatConnectionSet } from "clusterwire/networking";
 *
 * const analysis = analyzeConnectivity({
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
 *     { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } },
 *   ],
 *   policies: [],
 * });
 * for (const line of analysis.lines()) console.log(line.from.key, "=>", line.to.key, formatConnectionSet(line.connections));
 * ```
 */
export interface ConnectivityAnalysis {
  /** The workloads, in input order. */
  readonly workloads: readonly Extract<ConnectivityPeer, { type: "workload" }>[];
  /** The address space outside the cluster, cut where any policy's ipBlock (or `externalCuts`) starts or ends. */
  readonly segments: readonly AddressRange[];
  /** The policies taken into account, in input order. */
  readonly policies: readonly AnalyzedPolicy[];
  /** The policies left out (invalid, or a second one of the same name). */
  readonly skipped: readonly SkippedObject[];
  /**
   * Every allowed connection: workload to workload (a workload to itself left out), workload to
   * addresses and addresses to workload. For each workload and direction, the segments with the
   * same connections are one line. Order: each workload in input order with its destinations
   * (workloads in input order, then addresses by their first segment); then the lines from
   * addresses, by destination workload.
   */
  lines(): readonly ConnectivityLine[];
  /**
   * What `from` may open to `to`: workload keys, or an address (IP) outside the cluster; one end
   * at least a workload. A workload to itself is judged as two of its pods (replicas) would be.
   */
  between(from: string, to: string): ConnectionSet;
  /** Why: the same ends as `between`. */
  explain(from: string, to: string): ConnectionExplanation;
}

/**
 * How a line changed between two snapshots.
 *
 * @example
 * ```ts
 * import type { ConnectivityChangeKind } from "clusterwire/networking";
 *
 * const kind: ConnectivityChangeKind = "added";
 * ```
 */
export type ConnectivityChangeKind = "added" | "removed" | "changed";

/**
 * A connection that differs between two snapshots.
 *
 * @example
 * ```ts
 * import type { ConnectivityChange } from "clusterwire/networking";
 *
 * const text = (c: ConnectivityChange) => `${c.kind}: ${c.from.key} => ${c.to.key}`;
 * ```
 */
export interface ConnectivityChange {
  /** Added, removed or changed. */
  readonly kind: ConnectivityChangeKind;
  /** The source. */
  readonly from: ConnectivityPeer;
  /** The destination. */
  readonly to: ConnectivityPeer;
  /** Before; empty when added. */
  readonly before: ConnectionSet;
  /** After; empty when removed. */
  readonly after: ConnectionSet;
  /** Set when a workload at either end exists on one side only. */
  readonly workload?: "added" | "removed";
}

/**
 * The changes between two snapshots, from {@link diffConnectivity}.
 *
 * @example
 * ```ts
 * import type { ConnectivityDiff } from "clusterwire/networking";
 *
 * const changed = (d: ConnectivityDiff) => d.changes.length > 0;
 * ```
 */
export interface ConnectivityDiff {
  /** The first snapshot's analysis; both are cut alike outside the cluster. */
  readonly before: ConnectivityAnalysis;
  /** The second snapshot's analysis. */
  readonly after: ConnectivityAnalysis;
  /** Sorted as `lines()` sorts, workloads of `after` after those of `before`. */
  readonly changes: readonly ConnectivityChange[];
  /** Workload keys only `after` has. */
  readonly addedWorkloads: readonly string[];
  /** Workload keys only `before` has. */
  readonly removedWorkloads: readonly string[];
}
