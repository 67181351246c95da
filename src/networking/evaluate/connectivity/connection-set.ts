// Connection sets: per protocol, the destination ports a connection may use, as sorted, disjoint,
// non-adjacent inclusive ranges. The public functions work on the plain values; the analysis
// interns sets in a ConnectionPool and works on small integer ids, so a union or an intersection
// seen once is a table lookup after that (a cluster has few distinct sets, and millions of pairs).

import { EvaluatorInputError } from "../../model/errors.js";
import { PROTOCOLS, type Protocol } from "../policy/types.js";
import type { ConnectionSet, PortRange } from "./types.js";

const MAX_PORT = 65535;
const FULL: readonly PortRange[] = Object.freeze([Object.freeze({ from: 1, to: MAX_PORT })]);
const NONE: readonly PortRange[] = Object.freeze([]);

/**
 * Every port of every protocol.
 *
 * @example
 * ```ts
 * import { ALL_CONNECTIONS, formatConnectionSet } from "clusterwire/networking";
 *
 * console.log(formatConnectionSet(ALL_CONNECTIONS)); // "All connections"
 * ```
 */
export const ALL_CONNECTIONS: ConnectionSet = Object.freeze({ TCP: FULL, UDP: FULL, SCTP: FULL });

/**
 * No connection at all.
 *
 * @example
 * ```ts
 * import { NO_CONNECTIONS, isEmptyConnectionSet } from "clusterwire/networking";
 *
 * console.log(isEmptyConnectionSet(NO_CONNECTIONS)); // true
 * ```
 */
export const NO_CONNECTIONS: ConnectionSet = Object.freeze({ TCP: NONE, UDP: NONE, SCTP: NONE });

/** Sorted, merged ranges from any list of ranges (overlapping or adjacent ones joined). */
export function normaliseRanges(ranges: readonly PortRange[]): readonly PortRange[] {
  if (ranges.length === 0) return NONE;
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out: PortRange[] = [];
  let cur = { from: sorted[0]!.from, to: sorted[0]!.to };
  for (let i = 1; i < sorted.length; i++) {
    const r = sorted[i]!;
    if (r.from <= cur.to + 1) {
      if (r.to > cur.to) cur.to = r.to;
    } else {
      out.push(Object.freeze(cur));
      cur = { from: r.from, to: r.to };
    }
  }
  out.push(Object.freeze(cur));
  return Object.freeze(out);
}

function unionRanges(a: readonly PortRange[], b: readonly PortRange[]): readonly PortRange[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return normaliseRanges([...a, ...b]);
}

function intersectRanges(a: readonly PortRange[], b: readonly PortRange[]): readonly PortRange[] {
  const out: PortRange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const from = Math.max(x.from, y.from);
    const to = Math.min(x.to, y.to);
    if (from <= to) out.push(Object.freeze({ from, to }));
    if (x.to < y.to) i++;
    else j++;
  }
  return out.length === 0 ? NONE : Object.freeze(out);
}

function subtractRanges(a: readonly PortRange[], b: readonly PortRange[]): readonly PortRange[] {
  if (b.length === 0 || a.length === 0) return a;
  const out: PortRange[] = [];
  for (const x of a) {
    let from = x.from;
    for (const y of b) {
      if (y.to < from || y.from > x.to) continue;
      if (y.from > from) out.push(Object.freeze({ from, to: y.from - 1 }));
      from = y.to + 1;
      if (from > x.to) break;
    }
    if (from <= x.to) out.push(Object.freeze({ from, to: x.to }));
  }
  return out.length === 0 ? NONE : Object.freeze(out);
}

function sameRanges(a: readonly PortRange[], b: readonly PortRange[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.from !== b[i]!.from || a[i]!.to !== b[i]!.to) return false;
  return true;
}

function make(tcp: readonly PortRange[], udp: readonly PortRange[], sctp: readonly PortRange[]): ConnectionSet {
  return Object.freeze({ TCP: tcp, UDP: udp, SCTP: sctp });
}

/**
 * The connections either set allows.
 *
 * @example
 * ```ts
 * import { formatConnectionSet, parseConnectionSet, unionConnectionSets } from "clusterwire/networking";
 *
 * console.log(formatConnectionSet(unionConnectionSets(parseConnectionSet("TCP 80"), parseConnectionSet("TCP 81")))); // "TCP 80-81"
 * ```
 */
export function unionConnectionSets(a: ConnectionSet, b: ConnectionSet): ConnectionSet {
  return make(unionRanges(a.TCP, b.TCP), unionRanges(a.UDP, b.UDP), unionRanges(a.SCTP, b.SCTP));
}

/**
 * The connections both sets allow.
 *
 * @example
 * ```ts
 * import { formatConnectionSet, intersectConnectionSets, parseConnectionSet } from "clusterwire/networking";
 *
 * console.log(formatConnectionSet(intersectConnectionSets(parseConnectionSet("TCP 80-90"), parseConnectionSet("TCP 85-100")))); // "TCP 85-90"
 * ```
 */
export function intersectConnectionSets(a: ConnectionSet, b: ConnectionSet): ConnectionSet {
  return make(intersectRanges(a.TCP, b.TCP), intersectRanges(a.UDP, b.UDP), intersectRanges(a.SCTP, b.SCTP));
}

/**
 * The connections `a` allows and `b` does not.
 *
 * @example
 * ```ts
 * import { ALL_CONNECTIONS, formatConnectionSet, parseConnectionSet, subtractConnectionSets } from "clusterwire/networking";
 *
 * console.log(formatConnectionSet(subtractConnectionSets(parseConnectionSet("TCP 1-100"), parseConnectionSet("TCP 22")))); // "TCP 1-21,23-100"
 * ```
 */
export function subtractConnectionSets(a: ConnectionSet, b: ConnectionSet): ConnectionSet {
  return make(subtractRanges(a.TCP, b.TCP), subtractRanges(a.UDP, b.UDP), subtractRanges(a.SCTP, b.SCTP));
}

/**
 * Whether two sets allow the same connections.
 *
 * @example
 * ```ts
 * import { ALL_CONNECTIONS, parseConnectionSet, sameConnectionSet } from "clusterwire/networking";
 *
 * console.log(sameConnectionSet(parseConnectionSet("All connections"), ALL_CONNECTIONS)); // true
 * ```
 */
export function sameConnectionSet(a: ConnectionSet, b: ConnectionSet): boolean {
  return sameRanges(a.TCP, b.TCP) && sameRanges(a.UDP, b.UDP) && sameRanges(a.SCTP, b.SCTP);
}

/**
 * Whether the set allows nothing.
 *
 * @example
 * ```ts
 * import { NO_CONNECTIONS, isEmptyConnectionSet } from "clusterwire/networking";
 *
 * console.log(isEmptyConnectionSet(NO_CONNECTIONS)); // true
 * ```
 */
export function isEmptyConnectionSet(c: ConnectionSet): boolean {
  return c.TCP.length === 0 && c.UDP.length === 0 && c.SCTP.length === 0;
}

/**
 * Whether the set allows one protocol and port.
 *
 * @example
 * ```ts
 * import { connectionSetIncludes, parseConnectionSet } from "clusterwire/networking";
 *
 * console.log(connectionSetIncludes(parseConnectionSet("TCP 8000-8080; UDP 53"), "UDP", 53)); // true
 * ```
 */
export function connectionSetIncludes(c: ConnectionSet, protocol: Protocol, port: number): boolean {
  const ranges = c[protocol];
  if (ranges === undefined) return false;
  for (const r of ranges) if (port >= r.from && port <= r.to) return true;
  return false;
}

const isFull = (r: readonly PortRange[]): boolean => r.length === 1 && r[0]!.from === 1 && r[0]!.to === MAX_PORT;

/**
 * The set as text: `All connections`, `No connections`, or per protocol `TCP 80,8080-8090; UDP 53`
 * (`TCP all ports` for a whole protocol). {@link parseConnectionSet} reads it back.
 *
 * @example
 * ```ts
 * import { formatConnectionSet, parseConnectionSet } from "clusterwire/networking";
 *
 * console.log(formatConnectionSet(parseConnectionSet("UDP 53; TCP 53,8080-8090"))); // "TCP 53,8080-8090; UDP 53"
 * ```
 */
export function formatConnectionSet(c: ConnectionSet): string {
  if (isFull(c.TCP) && isFull(c.UDP) && isFull(c.SCTP)) return "All connections";
  const parts: string[] = [];
  for (const p of PROTOCOLS) {
    const ranges = c[p];
    if (ranges.length === 0) continue;
    parts.push(
      isFull(ranges)
        ? `${p} all ports`
        : `${p} ${ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(",")}`,
    );
  }
  return parts.length === 0 ? "No connections" : parts.join("; ");
}

/**
 * Reads the text {@link formatConnectionSet} writes (protocols in any order, ranges in any order,
 * case-insensitive protocol names). Throws EvaluatorInputError naming what is wrong.
 *
 * @example
 * ```ts
 * import { parseConnectionSet } from "clusterwire/networking";
 *
 * console.log(parseConnectionSet("TCP 80,443").TCP); // [{ from: 80, to: 80 }, { from: 443, to: 443 }]
 * ```
 */
export function parseConnectionSet(text: string): ConnectionSet {
  if (typeof text !== "string") throw new EvaluatorInputError("connections", "must be a string");
  const t = text.trim();
  if (/^all connections$/i.test(t)) return ALL_CONNECTIONS;
  if (/^no connections$/i.test(t)) return NO_CONNECTIONS;
  const by: Record<Protocol, PortRange[]> = { TCP: [], UDP: [], SCTP: [] };
  for (const part of t.split(";")) {
    const m = /^\s*([A-Za-z]+)\s+(.+?)\s*$/.exec(part);
    const protocol = m?.[1]?.toUpperCase();
    if (m === null || protocol === undefined || !(PROTOCOLS as readonly string[]).includes(protocol)) {
      throw new EvaluatorInputError(
        "connections",
        `${JSON.stringify(part.trim())} is not "PROTOCOL PORTS" (TCP, UDP or SCTP, then ports such as 80,8000-8080 or "all ports")`,
      );
    }
    const list = by[protocol as Protocol];
    if (/^all ports$/i.test(m[2]!)) {
      list.push({ from: 1, to: MAX_PORT });
      continue;
    }
    for (const item of m[2]!.split(",")) {
      const r = /^\s*(\d{1,5})(?:\s*-\s*(\d{1,5}))?\s*$/.exec(item);
      const from = r === null ? Number.NaN : Number(r[1]);
      const to = r === null ? Number.NaN : r[2] === undefined ? from : Number(r[2]);
      if (!(from >= 1 && to <= MAX_PORT && from <= to)) {
        throw new EvaluatorInputError(
          "connections",
          `${JSON.stringify(item.trim())} is not a port or a range of ports from 1 to ${MAX_PORT}`,
        );
      }
      list.push({ from, to });
    }
  }
  return make(normaliseRanges(by.TCP), normaliseRanges(by.UDP), normaliseRanges(by.SCTP));
}

/** A set built from ranges per protocol, normalised. */
export function connectionSetOf(by: Partial<Record<Protocol, readonly PortRange[]>>): ConnectionSet {
  return make(normaliseRanges(by.TCP ?? NONE), normaliseRanges(by.UDP ?? NONE), normaliseRanges(by.SCTP ?? NONE));
}

// ------------------------------------------------------------------ interning

/** The id of {@link NO_CONNECTIONS} in every pool. */
export const NONE_ID = 0;
/** The id of {@link ALL_CONNECTIONS} in every pool. */
export const ALL_ID = 1;

function keyOf(c: ConnectionSet): string {
  let k = "";
  for (const p of PROTOCOLS) {
    k += "|";
    for (const r of c[p]) k += `${r.from}-${r.to},`;
  }
  return k;
}

/** Interned connection sets: equal sets share an id, and unions and intersections are memoised by id pair. */
export class ConnectionPool {
  readonly #sets: ConnectionSet[] = [];
  readonly #ids = new Map<string, number>();
  readonly #union = new Map<number, number>();
  readonly #meet = new Map<number, number>();

  constructor() {
    this.id(NO_CONNECTIONS);
    this.id(ALL_CONNECTIONS);
  }

  id(c: ConnectionSet): number {
    const k = keyOf(c);
    let id = this.#ids.get(k);
    if (id === undefined) {
      id = this.#sets.length;
      this.#sets.push(c);
      this.#ids.set(k, id);
    }
    return id;
  }

  set(id: number): ConnectionSet {
    return this.#sets[id]!;
  }

  union(a: number, b: number): number {
    if (a === b || b === NONE_ID || a === ALL_ID) return a;
    if (a === NONE_ID || b === ALL_ID) return b;
    const k = a < b ? a * 0x100000 + b : b * 0x100000 + a;
    let id = this.#union.get(k);
    if (id === undefined) {
      id = this.id(unionConnectionSets(this.#sets[a]!, this.#sets[b]!));
      this.#union.set(k, id);
    }
    return id;
  }

  meet(a: number, b: number): number {
    if (a === b || b === ALL_ID || a === NONE_ID) return a;
    if (a === ALL_ID || b === NONE_ID) return b;
    const k = a < b ? a * 0x100000 + b : b * 0x100000 + a;
    let id = this.#meet.get(k);
    if (id === undefined) {
      id = this.id(intersectConnectionSets(this.#sets[a]!, this.#sets[b]!));
      this.#meet.set(k, id);
    }
    return id;
  }
}
