// np-guard's answers beside clusterwire's, line for line (bench/connectivity/np-guard-compare.ts
// runs both): the connectivity list of one directory, or the diff between two.
//
// Both sides are brought to one form before comparing:
// - workload to workload: one value per `from => to`, workloads keyed `namespace/kind/name` (np-guard's
//   `ns/name[Kind]` rewritten);
// - workload and addresses: per workload and direction, the IPv4 space as pieces, each with its
//   value. The sides cut the space differently (np-guard cuts sources by ingress ipBlocks and
//   destinations by egress ipBlocks, one line a piece; clusterwire cuts both by every ipBlock and
//   joins the pieces with the same connections into one line), so the pieces are laid over each
//   other and compared address range by address range;
// - IPv6 (clusterwire only: np-guard reads no IPv6) and the ingress controller (np-guard only,
//   until clusterwire's exposure side is compared) are counted, not compared.
// A value is a ConnectionSet for a list, and the pair before/after for a diff.
import type {
  ConnectionSet,
  ConnectivityChange,
  ConnectivityLine,
  ConnectivityPeer,
  PortRange,
} from "../../src/networking/evaluate/connectivity/types.js";
import {
  clusterwireKey,
  ipv4Number,
  parseNpGuardConnections,
  parseNpGuardPeer,
  type NpGuardDiffLine,
  type NpGuardLine,
} from "../../test/support/np-guard/run.js";

/** How a value is compared and shown. */
export interface ValueKind<V> {
  readonly empty: V;
  equal(a: V, b: V): boolean;
  text(v: V): string;
}

/** A piece of the IPv4 space (addresses as numbers, inclusive) with its value. */
export interface Piece<V> {
  readonly first: number;
  readonly last: number;
  readonly value: V;
}

/** One side, in the form both are compared in. */
export interface Side<V> {
  /** `from => to` (workload keys) to the value. */
  readonly pairs: Map<string, V>;
  /** `workload <= addresses` and `workload => addresses` to that workload's pieces. */
  readonly external: Map<string, Piece<V>[]>;
  /** Workload keys the side names (in its lines, or its analysis). */
  readonly workloads: Set<string>;
  /** Lines from or to the ingress controller, not compared. */
  ingressController: number;
  /** IPv6 ranges in lines with addresses, not compared. */
  ipv6Ranges: number;
}

function emptySide<V>(): Side<V> {
  return { pairs: new Map(), external: new Map(), workloads: new Set(), ingressController: 0, ipv6Ranges: 0 };
}

/** A place where the sides differ. */
export interface Difference {
  /** `from => to`; an address end is a range `A-B`. */
  readonly from: string;
  readonly to: string;
  readonly npGuard: string;
  readonly clusterwire: string;
  /**
   * An end is a workload only one side names (np-guard names a Pod with a controlling owner by
   * its owner, clusterwire by the Pod; two workloads of one name collide in np-guard): a naming
   * difference, not a verdict.
   */
  readonly naming: boolean;
}

/** The comparison: how much agreed, and every difference. */
export interface Comparison {
  readonly samePairs: number;
  readonly sameRanges: number;
  readonly differences: readonly Difference[];
  readonly workloadsOnlyNpGuard: readonly string[];
  readonly workloadsOnlyClusterwire: readonly string[];
  /** np-guard's ingress-controller lines, not compared. */
  readonly ingressController: number;
  /** clusterwire's IPv6 ranges, not compared. */
  readonly ipv6Ranges: number;
}

const PROTOCOLS = ["TCP", "UDP", "SCTP"] as const;

/** No connection. */
export const NONE: ConnectionSet = { TCP: [], UDP: [], SCTP: [] };

function sameRanges(a: readonly PortRange[], b: readonly PortRange[]): boolean {
  return a.length === b.length && a.every((r, i) => r.from === b[i]?.from && r.to === b[i]?.to);
}

/** Equal sets (both sides' ranges are sorted and merged). */
export function sameSet(a: ConnectionSet, b: ConnectionSet): boolean {
  return PROTOCOLS.every((p) => sameRanges(a[p], b[p]));
}

/** clusterwire's notation: `All connections`, `TCP 80,8080-8090; UDP 53`, `No connections`. */
export function setText(c: ConnectionSet): string {
  if (PROTOCOLS.every((p) => c[p].length === 1 && c[p][0]?.from === 1 && c[p][0]?.to === 65535))
    return "All connections";
  const parts = PROTOCOLS.filter((p) => c[p].length > 0).map(
    (p) => `${p} ${c[p].map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(",")}`,
  );
  return parts.length === 0 ? "No connections" : parts.join("; ");
}

/** Values of a list. */
export const LIST: ValueKind<ConnectionSet> = { empty: NONE, equal: sameSet, text: setText };

/** A diff's value: what one line allowed before and after. */
export interface Change {
  readonly before: ConnectionSet;
  readonly after: ConnectionSet;
}

/** Values of a diff. */
export const DIFF: ValueKind<Change> = {
  empty: { before: NONE, after: NONE },
  equal: (a, b) => sameSet(a.before, b.before) && sameSet(a.after, b.after),
  text: (v) => (sameSet(v.before, v.after) ? "no change" : `${setText(v.before)} -> ${setText(v.after)}`),
};

function addPiece<V>(side: Side<V>, key: string, piece: Piece<V>): void {
  const list = side.external.get(key);
  if (list === undefined) side.external.set(key, [piece]);
  else list.push(piece);
}

/** Puts one np-guard line (list or diff) into `side`. */
function addNpGuard<V>(side: Side<V>, src: string, dst: string, value: V): void {
  const from = parseNpGuardPeer(src);
  const to = parseNpGuardPeer(dst);
  if (from.type === "ingress-controller" || to.type === "ingress-controller") {
    side.ingressController++;
    if (to.type === "workload") side.workloads.add(clusterwireKey(to));
    return;
  }
  if (from.type === "workload") side.workloads.add(clusterwireKey(from));
  if (to.type === "workload") side.workloads.add(clusterwireKey(to));
  if (from.type === "workload" && to.type === "workload") {
    side.pairs.set(`${clusterwireKey(from)} => ${clusterwireKey(to)}`, value);
    return;
  }
  const [workload, addresses, key] =
    from.type === "workload" && to.type === "external"
      ? [from, to, `${clusterwireKey(from)} => addresses`]
      : from.type === "external" && to.type === "workload"
        ? [to, from, `${clusterwireKey(to)} <= addresses`]
        : [undefined, undefined, ""];
  if (workload === undefined || addresses === undefined)
    throw new Error(`np-guard line between two address ranges: ${src} => ${dst}`);
  for (const r of addresses.ranges)
    addPiece(side, key, { first: ipv4Number(r.first), last: ipv4Number(r.last), value });
}

/** np-guard's list in the compared form. */
export function npGuardListSide(lines: readonly NpGuardLine[]): Side<ConnectionSet> {
  const side = emptySide<ConnectionSet>();
  for (const l of lines) addNpGuard(side, l.src, l.dst, parseNpGuardConnections(l.conn));
  return side;
}

/** np-guard's diff in the compared form. */
export function npGuardDiffSide(lines: readonly NpGuardDiffLine[]): Side<Change> {
  const side = emptySide<Change>();
  for (const l of lines)
    addNpGuard(side, l.src, l.dst, {
      before: parseNpGuardConnections(l.before),
      after: parseNpGuardConnections(l.after),
    });
  return side;
}

/** Puts one clusterwire line or change into `side`. */
function addClusterwire<V>(side: Side<V>, from: ConnectivityPeer, to: ConnectivityPeer, value: V): void {
  if (from.type === "workload") side.workloads.add(from.key);
  if (to.type === "workload") side.workloads.add(to.key);
  if (from.type === "workload" && to.type === "workload") {
    side.pairs.set(`${from.key} => ${to.key}`, value);
    return;
  }
  const [workload, addresses, key] =
    from.type === "workload" && to.type === "external"
      ? [from, to, `${from.key} => addresses`]
      : from.type === "external" && to.type === "workload"
        ? [to, from, `${to.key} <= addresses`]
        : [undefined, undefined, ""];
  if (workload === undefined || addresses === undefined)
    throw new Error(`clusterwire line between two address ranges: ${from.key} => ${to.key}`);
  for (const r of addresses.ranges) {
    if (r.family === 6) side.ipv6Ranges++;
    else addPiece(side, key, { first: ipv4Number(r.first), last: ipv4Number(r.last), value });
  }
}

/** clusterwire's list (`analysis.lines()`) in the compared form; `workloads`: the analysis's workload keys. */
export function clusterwireListSide(
  lines: readonly ConnectivityLine[],
  workloads: readonly string[] = [],
): Side<ConnectionSet> {
  const side = emptySide<ConnectionSet>();
  for (const w of workloads) side.workloads.add(w);
  for (const l of lines) addClusterwire(side, l.from, l.to, l.connections);
  return side;
}

/** clusterwire's diff (`diff.changes`) in the compared form. */
export function clusterwireDiffSide(
  changes: readonly ConnectivityChange[],
  workloads: readonly string[] = [],
): Side<Change> {
  const side = emptySide<Change>();
  for (const w of workloads) side.workloads.add(w);
  for (const c of changes) addClusterwire(side, c.from, c.to, { before: c.before, after: c.after });
  return side;
}

const LAST_IPV4 = 2 ** 32 - 1;

/** An IPv4 number in dotted form. */
export function ipv4Text(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");
}

/** Both sides' pieces laid over each other: the ranges where they differ, and how many agree. */
export function overlay<V>(
  a: readonly Piece<V>[],
  b: readonly Piece<V>[],
  kind: ValueKind<V>,
): { same: number; differ: { first: number; last: number; a: V; b: V }[] } {
  const sortedA = [...a].sort((x, y) => x.first - y.first);
  const sortedB = [...b].sort((x, y) => x.first - y.first);
  const cuts = new Set<number>([0]);
  for (const p of [...sortedA, ...sortedB]) {
    cuts.add(p.first);
    if (p.last < LAST_IPV4) cuts.add(p.last + 1);
  }
  const starts = [...cuts].sort((x, y) => x - y);
  const at = (pieces: readonly Piece<V>[], index: { i: number }, n: number): V => {
    while (index.i < pieces.length && (pieces[index.i]?.last ?? LAST_IPV4) < n) index.i++;
    const p = pieces[index.i];
    return p !== undefined && p.first <= n ? p.value : kind.empty;
  };
  const ia = { i: 0 };
  const ib = { i: 0 };
  const merged: { first: number; last: number; a: V; b: V }[] = [];
  for (let k = 0; k < starts.length; k++) {
    const first = starts[k] ?? 0;
    const last = (starts[k + 1] ?? LAST_IPV4 + 1) - 1;
    const va = at(sortedA, ia, first);
    const vb = at(sortedB, ib, first);
    const prev = merged[merged.length - 1];
    if (prev !== undefined && prev.last + 1 === first && kind.equal(prev.a, va) && kind.equal(prev.b, vb))
      prev.last = last;
    else merged.push({ first, last, a: va, b: vb });
  }
  const differ = merged.filter((m) => !kind.equal(m.a, m.b));
  return { same: merged.length - differ.length, differ };
}

/** Compares np-guard's side with clusterwire's. */
export function compareSides<V>(npGuard: Side<V>, clusterwire: Side<V>, kind: ValueKind<V>): Comparison {
  const onlyNpGuard = [...npGuard.workloads].filter((w) => !clusterwire.workloads.has(w)).sort();
  const onlyClusterwire = [...clusterwire.workloads].filter((w) => !npGuard.workloads.has(w)).sort();
  const unmatched = new Set([...onlyNpGuard, ...onlyClusterwire]);
  const differences: Difference[] = [];
  let samePairs = 0;
  for (const key of new Set([...npGuard.pairs.keys(), ...clusterwire.pairs.keys()])) {
    const a = npGuard.pairs.get(key) ?? kind.empty;
    const b = clusterwire.pairs.get(key) ?? kind.empty;
    if (kind.equal(a, b)) {
      samePairs++;
      continue;
    }
    const [from = "", to = ""] = key.split(" => ");
    differences.push({
      from,
      to,
      npGuard: kind.text(a),
      clusterwire: kind.text(b),
      naming: unmatched.has(from) || unmatched.has(to),
    });
  }
  let sameRanges = 0;
  for (const key of new Set([...npGuard.external.keys(), ...clusterwire.external.keys()])) {
    const { same, differ } = overlay(npGuard.external.get(key) ?? [], clusterwire.external.get(key) ?? [], kind);
    sameRanges += same;
    const outbound = key.endsWith(" => addresses");
    const workload = key.replace(/ (=>|<=) addresses$/, "");
    for (const d of differ) {
      const range = `${ipv4Text(d.first)}-${ipv4Text(d.last)}`;
      differences.push({
        from: outbound ? workload : range,
        to: outbound ? range : workload,
        npGuard: kind.text(d.a),
        clusterwire: kind.text(d.b),
        naming: unmatched.has(workload),
      });
    }
  }
  differences.sort((x, y) => (x.from === y.from ? x.to.localeCompare(y.to) : x.from.localeCompare(y.from)));
  return {
    samePairs,
    sameRanges,
    differences,
    workloadsOnlyNpGuard: onlyNpGuard,
    workloadsOnlyClusterwire: onlyClusterwire,
    ingressController: npGuard.ingressController,
    ipv6Ranges: clusterwire.ipv6Ranges,
  };
}
