// The address space outside the cluster, cut into segments at every edge of every ipBlock, so
// that each rule admits a segment whole or not at all. Addresses are BigInts here: the cuts are
// made once per analysis (a few per policy), never per connection.
//
// Families follow Go's net.IPNet.Contains, as the policy engine's cidrContains does: IPv4 and
// IPv4-mapped IPv6 addresses are family 4; an IPv6 network never contains them. So the IPv4
// space is 0.0.0.0-255.255.255.255, and the IPv6 space is every 128-bit address except the
// IPv4-mapped block ::ffff:0:0/96.

import { formatIP, type IP, type IPNet } from "../../validation/rules/ip.js";
import type { AddressRange } from "./types.js";

const V4_TOP = (1n << 32n) - 1n;
const V6_TOP = (1n << 128n) - 1n;
const MAPPED_FIRST = 0xffffn << 32n;
const MAPPED_LAST = MAPPED_FIRST + V4_TOP;

/** A segment: family, first and last address, and a representative address for containment tests. */
export interface Segment {
  readonly range: AddressRange;
  readonly family: 4 | 6;
  readonly first: bigint;
  readonly last: bigint;
  readonly probe: IP;
}

/** Where a CIDR starts and ends, in its family's space. */
export function netBounds(net: IPNet): { family: 4 | 6; first: bigint; last: bigint } {
  if (net.family === 4) {
    const prefix = net.bits === 128 ? net.prefix - 96 : net.prefix;
    const first = BigInt(net.w3 >>> 0);
    return { family: 4, first, last: first + (1n << BigInt(32 - prefix)) - 1n };
  }
  const first = toBig(net);
  return { family: 6, first, last: first + (1n << BigInt(128 - net.prefix)) - 1n };
}

function toBig(ip: IP): bigint {
  return (
    (BigInt(ip.w0 >>> 0) << 96n) | (BigInt(ip.w1 >>> 0) << 64n) | (BigInt(ip.w2 >>> 0) << 32n) | BigInt(ip.w3 >>> 0)
  );
}

function ipOf(family: 4 | 6, a: bigint): IP {
  if (family === 4) return { family: 4, w0: 0, w1: 0, w2: 0xffff, w3: Number(a) };
  return {
    family: 6,
    w0: Number((a >> 96n) & 0xffffffffn),
    w1: Number((a >> 64n) & 0xffffffffn),
    w2: Number((a >> 32n) & 0xffffffffn),
    w3: Number(a & 0xffffffffn),
  };
}

/** The text of one address of a family. */
export function formatAddress(family: 4 | 6, a: bigint): string {
  return formatIP(ipOf(family, a));
}

/** The address an IP is, as a family and a BigInt. */
export function addressOf(ip: IP): { family: 4 | 6; value: bigint } {
  return ip.family === 4 ? { family: 4, value: BigInt(ip.w3 >>> 0) } : { family: 6, value: toBig(ip) };
}

/** The fewest CIDRs covering exactly first..last. */
export function cidrCover(family: 4 | 6, first: bigint, last: bigint): string[] {
  const bits = family === 4 ? 32n : 128n;
  const out: string[] = [];
  let a = first;
  while (a <= last) {
    // The largest aligned block starting at a that fits.
    let size = 0n;
    while (size < bits) {
      const next = size + 1n;
      const block = 1n << next;
      if ((a & (block - 1n)) !== 0n || a + block - 1n > last) break;
      size = next;
    }
    out.push(`${formatAddress(family, a)}/${bits - size}`);
    a += 1n << size;
  }
  return out;
}

/** An AddressRange value for first..last. */
export function addressRange(family: 4 | 6, first: bigint, last: bigint): AddressRange {
  return Object.freeze({
    family,
    first: formatAddress(family, first),
    last: formatAddress(family, last),
    cidrs: Object.freeze(cidrCover(family, first, last)),
  });
}

/**
 * A range of several segments as users read it. No IPv6 network contains an IPv4-mapped address,
 * so an IPv6 range that ends just before the mapped block, or starts just after it, may take the
 * block in: `::/0` then reads as it should, every IPv6 address, rather than as ninety-odd CIDRs
 * around the hole.
 */
export function peerRange(family: 4 | 6, first: bigint, last: bigint): AddressRange {
  if (family === 6) {
    if (last === MAPPED_FIRST - 1n) last = MAPPED_LAST;
    if (first === MAPPED_LAST + 1n) first = MAPPED_FIRST;
  }
  return addressRange(family, first, last);
}

/** Whether two IPv6 ranges meet, counting the IPv4-mapped block between them as no gap. */
export function meets(family: 4 | 6, last: bigint, next: bigint): boolean {
  return last + 1n === next || (family === 6 && last + 1n === MAPPED_FIRST && next === MAPPED_LAST + 1n);
}

/**
 * The segments of both families, cut where a cut set says: each cut is the first address of a
 * new segment. IPv4 comes first; the IPv4-mapped block is left out of the IPv6 space.
 */
export function segmentsOf(cuts: { readonly v4: ReadonlySet<bigint>; readonly v6: ReadonlySet<bigint> }): Segment[] {
  const out: Segment[] = [];
  const add = (family: 4 | 6, top: bigint, cutSet: Iterable<bigint>, skip?: [bigint, bigint]): void => {
    const starts = new Set<bigint>([0n]);
    for (const c of cutSet) if (c > 0n && c <= top) starts.add(c);
    if (skip !== undefined) {
      starts.add(skip[0]);
      if (skip[1] < top) starts.add(skip[1] + 1n);
    }
    const sorted = [...starts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (let i = 0; i < sorted.length; i++) {
      const first = sorted[i]!;
      const last = i + 1 < sorted.length ? sorted[i + 1]! - 1n : top;
      if (skip !== undefined && first >= skip[0] && last <= skip[1]) continue;
      out.push({ range: addressRange(family, first, last), family, first, last, probe: ipOf(family, first) });
    }
  };
  add(4, V4_TOP, cuts.v4);
  add(6, V6_TOP, cuts.v6, [MAPPED_FIRST, MAPPED_LAST]);
  return out;
}

/** Adds the edges of a CIDR to a cut set: its first address, and the one after its last. */
export function addCut(cuts: { v4: Set<bigint>; v6: Set<bigint> }, net: IPNet): void {
  const b = netBounds(net);
  const set = b.family === 4 ? cuts.v4 : cuts.v6;
  set.add(b.first);
  set.add(b.last + 1n);
}
