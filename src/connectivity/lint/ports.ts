// Ports for the lint: named ports resolved on a workload's container ports, and "atoms", the
// pieces a port set falls into when cut at every edge of some other sets, so that each atom lies
// wholly inside or wholly outside each of them.

import {
  type ClusterPodPort,
  type ConnectionSet,
  NO_CONNECTIONS,
  type PortRange,
  type Protocol,
} from "../../networking/index.js";

/** A named port of a rule. */
export interface NamedPort {
  readonly protocol: Protocol;
  readonly name: string;
}

/** Ports of one protocol, from `from` to `to`, that no edge of the sets it was cut by crosses. */
export interface PortAtom {
  readonly protocol: Protocol;
  readonly from: number;
  readonly to: number;
}

const PROTOCOL_LIST: readonly Protocol[] = ["TCP", "UDP", "SCTP"];

/** The ports that `named` resolves to on a workload with container ports `ports`. */
export function resolveNamedPorts(
  named: readonly NamedPort[],
  ports: readonly ClusterPodPort[] | undefined,
): ConnectionSet {
  if (named.length === 0 || ports === undefined || ports.length === 0) return NO_CONNECTIONS;
  const by: Record<Protocol, PortRange[]> = { TCP: [], UDP: [], SCTP: [] };
  for (const n of named) {
    for (const p of ports) {
      if (p.name === n.name && (p.protocol ?? "TCP") === n.protocol) {
        by[n.protocol].push({ from: p.containerPort, to: p.containerPort });
      }
    }
  }
  if (by.TCP.length + by.UDP.length + by.SCTP.length === 0) return NO_CONNECTIONS;
  return setOf(by);
}

function setOf(by: Record<Protocol, PortRange[]>): ConnectionSet {
  return Object.freeze({ TCP: merge(by.TCP), UDP: merge(by.UDP), SCTP: merge(by.SCTP) });
}

/** Sorted ranges, overlapping or adjacent ones joined. */
function merge(ranges: PortRange[]): PortRange[] {
  ranges.sort((a, b) => a.from - b.from);
  const out: PortRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && r.from <= last.to + 1) {
      out[out.length - 1] = { from: last.from, to: Math.max(last.to, r.to) };
    } else out.push(r);
  }
  return out;
}

/**
 * `target` cut at every edge of every set in `by`: each atom is inside or outside each of
 * them. Atoms come per protocol (TCP, UDP, SCTP), in port order.
 */
export function portAtoms(target: ConnectionSet, by: readonly ConnectionSet[]): PortAtom[] {
  const out: PortAtom[] = [];
  for (const protocol of PROTOCOL_LIST) {
    const ranges = target[protocol];
    if (ranges.length === 0) continue;
    const cuts = new Set<number>();
    for (const set of by) {
      for (const r of set[protocol]) {
        cuts.add(r.from);
        cuts.add(r.to + 1);
      }
    }
    const sorted = [...cuts].sort((a, b) => a - b);
    for (const r of ranges) {
      let from = r.from;
      for (const cut of sorted) {
        if (cut <= from) continue;
        if (cut > r.to) break;
        out.push({ protocol, from, to: cut - 1 });
        from = cut;
      }
      out.push({ protocol, from, to: r.to });
    }
  }
  return out;
}

/** Whether `set` holds port `port` of `protocol`. */
export function holdsPort(set: ConnectionSet, protocol: Protocol, port: number): boolean {
  const ranges = set[protocol];
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const r = ranges[mid]!;
    if (port < r.from) hi = mid - 1;
    else if (port > r.to) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The atoms as one set. */
export function atomsToSet(atoms: readonly PortAtom[]): ConnectionSet {
  const by: Record<Protocol, PortRange[]> = { TCP: [], UDP: [], SCTP: [] };
  for (const a of atoms) by[a.protocol].push({ from: a.from, to: a.to });
  return setOf(by);
}

/** Whether `set` holds every port of the atom. */
export function holdsAtom(set: ConnectionSet, atom: PortAtom): boolean {
  for (const r of set[atom.protocol]) {
    if (r.to < atom.from) continue;
    return r.from <= atom.from && atom.to <= r.to;
  }
  return false;
}

/** Whether the set has any port. */
export function hasPorts(set: ConnectionSet): boolean {
  return set.TCP.length + set.UDP.length + set.SCTP.length > 0;
}
