// What changed between two snapshots: both are analysed over one cut of the address space (the
// union of both sides' ipBlock edges) and one pool of connection sets, so a workload pair, or a
// workload and a segment, compares by id; segments that changed alike for a workload are one line.

import { ConnectionPool, NONE_ID } from "./connection-set.js";
import { segmentsOf } from "./addresses.js";
import { Analysis, addPolicyCuts } from "./analyze.js";
import type {
  ConnectivityChange,
  ConnectivityChangeKind,
  ConnectivityDiff,
  ConnectivityInput,
  ConnectivityPeer,
} from "./types.js";

type WorkloadPeer = Extract<ConnectivityPeer, { type: "workload" }>;

/**
 * The connections that differ between two snapshots: added (allowed after, nothing before),
 * removed (nothing after) and changed (other ports or protocols), workload to workload and
 * between workloads and addresses outside the cluster.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, diffConnectivity, formatConnectionSet } from "clusterwire/networking";
 *
 * const base = {
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
 *     { namespace: "shop", kind: "Deployment", name: "db", labels: { app: "db" } },
 *   ],
 *   policies: [],
 * };
 * const head = {
 *   ...base,
 *   policies: [create(NetworkPolicySchema, { metadata: { name: "deny", namespace: "shop" }, spec: { podSelector: { matchLabels: { app: "db" } } } })],
 * };
 * for (const c of diffConnectivity(base, head).changes) console.log(c.kind, c.from.key, c.to.key, formatConnectionSet(c.before));
 * ```
 */
export function diffConnectivity(before: ConnectivityInput, after: ConnectivityInput): ConnectivityDiff {
  const cuts = { v4: new Set<bigint>(), v6: new Set<bigint>() };
  addPolicyCuts(cuts, before);
  addPolicyCuts(cuts, after);
  const segments = segmentsOf(cuts);
  const pool = new ConnectionPool();
  const a = new Analysis(before, segments, pool);
  const b = new Analysis(after, segments, pool);

  // Every workload key, before's order first.
  const keys: { key: string; peer: WorkloadPeer; ia: number | undefined; ib: number | undefined }[] = [];
  for (const peer of a.workloads)
    keys.push({ key: peer.key, peer, ia: a.workloadIndex(peer.key), ib: b.workloadIndex(peer.key) });
  for (const peer of b.workloads) {
    if (a.workloadIndex(peer.key) === undefined)
      keys.push({ key: peer.key, peer, ia: undefined, ib: b.workloadIndex(peer.key) });
  }
  const changes: ConnectivityChange[] = [];
  const push = (
    from: ConnectivityPeer,
    to: ConnectivityPeer,
    x: number,
    y: number,
    workload?: "added" | "removed",
  ): void => {
    const kind: ConnectivityChangeKind = x === NONE_ID ? "added" : y === NONE_ID ? "removed" : "changed";
    changes.push({
      kind,
      from,
      to,
      before: pool.set(x),
      after: pool.set(y),
      ...(workload === undefined ? {} : { workload }),
    });
  };
  const presence = (...ends: (typeof keys)[number][]): "added" | "removed" | undefined => {
    if (ends.some((e) => e.ia === undefined)) return "added";
    if (ends.some((e) => e.ib === undefined)) return "removed";
    return undefined;
  };
  const m = segments.length;
  for (const s of keys) {
    for (const d of keys) {
      if (d === s) continue;
      const x = s.ia === undefined || d.ia === undefined ? NONE_ID : a.pairId(s.ia, d.ia);
      const y = s.ib === undefined || d.ib === undefined ? NONE_ID : b.pairId(s.ib, d.ib);
      if (x !== y) push(s.peer, d.peer, x, y, presence(s, d));
    }
    for (const [xy, segs] of changedSegments(m, (g) => [
      s.ia === undefined ? NONE_ID : a.outId(s.ia, g),
      s.ib === undefined ? NONE_ID : b.outId(s.ib, g),
    ])) {
      push(s.peer, a.externalPeer(segs), xy[0], xy[1], presence(s));
    }
  }
  for (const d of keys) {
    for (const [xy, segs] of changedSegments(m, (g) => [
      d.ia === undefined ? NONE_ID : a.inId(g, d.ia),
      d.ib === undefined ? NONE_ID : b.inId(g, d.ib),
    ])) {
      push(a.externalPeer(segs), d.peer, xy[0], xy[1], presence(d));
    }
  }
  return {
    before: a,
    after: b,
    changes: Object.freeze(changes),
    addedWorkloads: Object.freeze(keys.filter((k) => k.ia === undefined).map((k) => k.key)),
    removedWorkloads: Object.freeze(keys.filter((k) => k.ib === undefined).map((k) => k.key)),
  };
}

/** Segments whose (before, after) ids differ, grouped by that pair, in order of first segment. */
function changedSegments(m: number, ids: (g: number) => [number, number]): Map<[number, number], number[]> {
  const byKey = new Map<string, { xy: [number, number]; segs: number[] }>();
  for (let g = 0; g < m; g++) {
    const xy = ids(g);
    if (xy[0] === xy[1]) continue;
    const k = `${xy[0]},${xy[1]}`;
    const e = byKey.get(k);
    if (e === undefined) byKey.set(k, { xy, segs: [g] });
    else e.segs.push(g);
  }
  return new Map([...byKey.values()].map((e) => [e.xy, e.segs]));
}
