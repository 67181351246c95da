// The JSON reports: documented, versioned shapes (docs/connectivity.md) for a list and for a diff,
// as plain values for JSON.stringify.

import {
  formatConnectionSet,
  type ConnectionExplanation,
  type ConnectionSet,
  type ConnectivityAnalysis,
  type ConnectivityDiff,
  type ConnectivityLine,
  type ConnectivityPeer,
  type DirectionExplanation,
  type PortRange,
} from "../../networking/index.js";
import {
  describeExplanation,
  describeSnapshot,
  explainConnectivityChange,
  explainLine,
  type SnapshotExplanation,
} from "./explain.js";
import { diffCounts, diffSummary } from "./text.js";

/**
 * A peer in the JSON reports: a workload, or addresses outside the cluster as CIDRs.
 *
 * @example
 * ```ts
 * import type { PeerJson } from "clusterwire/connectivity";
 *
 * const name = (p: PeerJson) => (p.type === "workload" ? p.name : p.cidrs.join(","));
 * ```
 */
export type PeerJson =
  | {
      readonly type: "workload";
      /** `namespace/kind/name`. */
      readonly key: string;
      /** The workload's namespace. */
      readonly namespace: string;
      /** Its kind (`Deployment`, ...). */
      readonly kind: string;
      /** Its name. */
      readonly name: string;
    }
  | {
      readonly type: "external";
      /** The CIDRs joined by `,`. */
      readonly key: string;
      /** The CIDRs, IPv4 first, in address order. */
      readonly cidrs: readonly string[];
    };

/**
 * A connection set in the JSON reports: its text (as `formatConnectionSet` writes it, which
 * `parseConnectionSet` reads back) and its port ranges per protocol.
 *
 * @example
 * ```ts
 * import type { ConnectionsJson } from "clusterwire/connectivity";
 *
 * const tcpPorts = (c: ConnectionsJson) => c.TCP.map((r) => `${r.from}-${r.to}`);
 * ```
 */
export interface ConnectionsJson {
  /** `All connections`, `TCP 80,8080-8090; UDP 53` or `No connections`. */
  readonly text: string;
  /** TCP destination ports, as sorted, disjoint ranges. */
  readonly TCP: readonly PortRange[];
  /** UDP destination ports. */
  readonly UDP: readonly PortRange[];
  /** SCTP destination ports. */
  readonly SCTP: readonly PortRange[];
}

/**
 * One direction of an explanation in the JSON reports.
 *
 * @example
 * ```ts
 * import type { DirectionJson } from "clusterwire/connectivity";
 *
 * const policies = (d: DirectionJson) => d.allowedBy.map((m) => m.policy);
 * ```
 */
export interface DirectionJson {
  /** `not-isolated`, `allowed-by-rule` or `denied`. */
  readonly verdict: DirectionExplanation["verdict"];
  /** What this direction allows, as `formatConnectionSet` writes it (`parseConnectionSet` reads it back). */
  readonly connections: string;
  /** `namespace/name` of each policy that isolates the subject in this direction. */
  readonly isolatedBy: readonly string[];
  /** The rules that admit the peer: the policy's `namespace/name` and indexes into its rules of this direction. */
  readonly allowedBy: readonly { readonly policy: string; readonly rules: readonly number[] }[];
}

/**
 * Why a connection is allowed or denied in one snapshot, in the JSON reports; `missing` instead
 * when an end is a workload the snapshot does not have.
 *
 * @example
 * ```ts
 * import type { WhyJson } from "clusterwire/connectivity";
 *
 * const line = (w: WhyJson) => w.text;
 * ```
 */
export type WhyJson =
  | {
      /** The reason in a line, as the text report writes it. */
      readonly text: string;
      /** What both directions allow together, as `formatConnectionSet` writes it. */
      readonly connections: string;
      /** Egress, judged on the source. */
      readonly egress: DirectionJson;
      /** Ingress, judged on the destination. */
      readonly ingress: DirectionJson;
    }
  | {
      /** The reason in a line, as the text report writes it. */
      readonly text: string;
      /** Keys of the ends that the snapshot does not have. */
      readonly missing: readonly string[];
    };

/**
 * One line of {@link ConnectivityListJson}.
 *
 * @example
 * ```ts
 * import type { ConnectivityLineJson } from "clusterwire/connectivity";
 *
 * const text = (l: ConnectivityLineJson) => `${l.from.key} => ${l.to.key} : ${l.connections.text}`;
 * ```
 */
export interface ConnectivityLineJson {
  /** The source. */
  readonly from: PeerJson;
  /** The destination. */
  readonly to: PeerJson;
  /** What `from` may open to `to`. */
  readonly connections: ConnectionsJson;
  /** Why, when the analysis was given. */
  readonly why?: WhyJson;
}

/**
 * The JSON report of a connectivity list: `{ version: 1, lines }`.
 *
 * @example
 * ```ts
 * import type { ConnectivityListJson } from "clusterwire/connectivity";
 *
 * const count = (r: ConnectivityListJson) => r.lines.length;
 * ```
 */
export interface ConnectivityListJson {
  /** The shape's version: 1. A change that would break a reader of version 1 gets a new number. */
  readonly version: 1;
  /** The lines, in the list's order. */
  readonly lines: readonly ConnectivityLineJson[];
}

/**
 * One change of {@link ConnectivityDiffJson}.
 *
 * @example
 * ```ts
 * import type { ConnectivityChangeJson } from "clusterwire/connectivity";
 *
 * const opened = (c: ConnectivityChangeJson) => c.kind === "added";
 * ```
 */
export interface ConnectivityChangeJson {
  /** `added`, `removed` or `changed`. */
  readonly kind: "added" | "removed" | "changed";
  /** The source. */
  readonly from: PeerJson;
  /** The destination. */
  readonly to: PeerJson;
  /** What was allowed before (`No connections` when added). */
  readonly before: ConnectionsJson;
  /** What is allowed after (`No connections` when removed). */
  readonly after: ConnectionsJson;
  /** Set when a workload at either end exists on one side only. */
  readonly workload?: "added" | "removed";
  /** Why, in each snapshot. */
  readonly why: { readonly before: WhyJson; readonly after: WhyJson };
}

/**
 * The JSON report of a diff: `{ version: 1, summary, changes }`.
 *
 * @example
 * ```ts
 * import type { ConnectivityDiffJson } from "clusterwire/connectivity";
 *
 * const changed = (r: ConnectivityDiffJson) => r.changes.length > 0;
 * ```
 */
export interface ConnectivityDiffJson {
  /** The shape's version: 1. */
  readonly version: 1;
  /** The counts, the workloads added and removed, and the summary line of the text report. */
  readonly summary: {
    /** Connections added. */
    readonly added: number;
    /** Connections removed. */
    readonly removed: number;
    /** Connections whose ports or protocols changed. */
    readonly changed: number;
    /** Keys of the workloads only the snapshot after has. */
    readonly workloadsAdded: readonly string[];
    /** Keys of the workloads only the snapshot before has. */
    readonly workloadsRemoved: readonly string[];
    /** The text report's summary line. */
    readonly text: string;
  };
  /** The changes, in the diff's order. */
  readonly changes: readonly ConnectivityChangeJson[];
}

/**
 * Options of {@link connectivityListJson}.
 *
 * @example
 * ```ts
 * import type { ConnectivityListJsonOptions } from "clusterwire/connectivity";
 *
 * const options: ConnectivityListJsonOptions = {};
 * ```
 */
export interface ConnectivityListJsonOptions {
  /** The analysis the lines came from: each line then carries `why`, from its `explain`. */
  readonly analysis?: ConnectivityAnalysis;
}

/**
 * The JSON report of a connectivity list, to pass to `JSON.stringify`.
 *
 * @example
 * ```ts
 * import { connectivityListJson } from "clusterwire/connectivity";
 * import { analyzeConnectivity } from "clusterwire/networking";
 *
 * const analysis = analyzeConnectivity({
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web" },
 *     { namespace: "shop", kind: "Deployment", name: "api" },
 *   ],
 *   policies: [],
 * });
 * console.log(JSON.stringify(connectivityListJson(analysis.lines(), { analysis }), null, 2));
 * ```
 */
export function connectivityListJson(
  lines: readonly ConnectivityLine[],
  options: ConnectivityListJsonOptions = {},
): ConnectivityListJson {
  const { analysis } = options;
  return {
    version: 1,
    lines: lines.map((line): ConnectivityLineJson => {
      const out = { from: peerJson(line.from), to: peerJson(line.to), connections: connectionsJson(line.connections) };
      if (analysis === undefined) return out;
      return { ...out, why: explanationJson(explainLine(analysis, line.from, line.to)) };
    }),
  };
}

/**
 * The JSON report of a diff, to pass to `JSON.stringify`: each change with both connection sets
 * and why, before and after.
 *
 * @example
 * ```ts
 * import { connectivityDiffJson } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const web = { namespace: "shop", kind: "Deployment", name: "web" };
 * const api = { namespace: "shop", kind: "Deployment", name: "api" };
 * const diff = diffConnectivity({ namespaces, workloads: [web], policies: [] }, { namespaces, workloads: [web, api], policies: [] });
 * console.log(JSON.stringify(connectivityDiffJson(diff), null, 2));
 * ```
 */
export function connectivityDiffJson(diff: ConnectivityDiff): ConnectivityDiffJson {
  const changes = diff.changes.map((c): ConnectivityChangeJson => {
    const why = explainConnectivityChange(diff, c);
    const out = {
      kind: c.kind,
      from: peerJson(c.from),
      to: peerJson(c.to),
      before: connectionsJson(c.before),
      after: connectionsJson(c.after),
    };
    const reasons = { before: snapshotJson("before", why.before), after: snapshotJson("after", why.after) };
    return c.workload === undefined ? { ...out, why: reasons } : { ...out, workload: c.workload, why: reasons };
  });
  const { added, removed, changed } = diffCounts(diff);
  return {
    version: 1,
    summary: {
      added,
      removed,
      changed,
      workloadsAdded: [...diff.addedWorkloads],
      workloadsRemoved: [...diff.removedWorkloads],
      text: diffSummary(diff),
    },
    changes,
  };
}

/** A peer as JSON. */
export function peerJson(peer: ConnectivityPeer): PeerJson {
  if (peer.type === "workload") {
    return { type: "workload", key: peer.key, namespace: peer.namespace, kind: peer.kind, name: peer.name };
  }
  return { type: "external", key: peer.key, cidrs: peer.ranges.flatMap((r) => r.cidrs) };
}

/** A connection set as JSON. */
export function connectionsJson(c: ConnectionSet): ConnectionsJson {
  return { text: formatConnectionSet(c), TCP: ranges(c.TCP), UDP: ranges(c.UDP), SCTP: ranges(c.SCTP) };
}

function ranges(list: readonly PortRange[]): PortRange[] {
  return list.map((r) => ({ from: r.from, to: r.to }));
}

function explanationJson(e: ConnectionExplanation): WhyJson {
  return {
    text: describeExplanation(e),
    connections: formatConnectionSet(e.connections),
    egress: directionJson(e.egress),
    ingress: directionJson(e.ingress),
  };
}

function snapshotJson(side: "before" | "after", s: SnapshotExplanation): WhyJson {
  if (s.exists) return explanationJson(s.explanation);
  return { text: describeSnapshot(side, s), missing: [...s.missing] };
}

function directionJson(d: DirectionExplanation): DirectionJson {
  return {
    verdict: d.verdict,
    connections: formatConnectionSet(d.connections),
    isolatedBy: [...d.isolatedBy],
    allowedBy: d.allowedBy.map((m) => ({ policy: m.policy, rules: [...m.rules] })),
  };
}
