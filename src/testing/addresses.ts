// IP addresses and networks as plain numbers: IPv4 in 32 bits, IPv6 in 128,
// as bigint. Parsing follows the API server's sloppy rules (leading zeros read
// as decimal, IPv4-mapped IPv6 is IPv4); formatting writes what Go writes.
// Written independently of clusterwire's own IP module, so generators and the
// test oracles built on it can check that module.

/**
 * An IP version: 4 or 6.
 *
 * @example
 * ```ts
 * import { type IPFamily, formatIP } from "clusterwire/testing";
 *
 * const family: IPFamily = 6;
 * console.log(formatIP(family, 1n)); // "::1"
 * ```
 */
export type IPFamily = 4 | 6;

/**
 * A network as numbers: `address` is masked to `prefix` bits.
 *
 * @example
 * ```ts
 * import { type IPNet, formatCidr } from "clusterwire/testing";
 *
 * const net: IPNet = { family: 4, prefix: 8, address: 10n << 24n };
 * console.log(formatCidr(net)); // "10.0.0.0/8"
 * ```
 */
export interface IPNet {
  /** 4 or 6. */
  readonly family: IPFamily;
  /** The prefix length in bits. */
  readonly prefix: number;
  /** The network address as a number. */
  readonly address: bigint;
}

export function familyBits(family: IPFamily): number {
  return family === 4 ? 32 : 128;
}

export function hostMask(family: IPFamily, prefix: number): bigint {
  return (1n << BigInt(familyBits(family) - prefix)) - 1n;
}

export function maskAddress(family: IPFamily, address: bigint, prefix: number): bigint {
  const all = (1n << BigInt(familyBits(family))) - 1n;
  return address & all & ~hostMask(family, prefix);
}

/** True for ::ffff:0:0/96, which strict validation rejects as IPv4-mapped. */
export function isV4Mapped(address: bigint): boolean {
  return address >> 32n === 0xffffn;
}

export function formatIPv4(address: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((address >> s) & 0xffn)).join(".");
}

export function ipv6Groups(address: bigint): number[] {
  const g: number[] = [];
  for (let i = 7; i >= 0; i--) g.push(Number((address >> BigInt(i * 16)) & 0xffffn));
  return g;
}

/** RFC 5952 text, as Go's net.IP.String() and netip.Addr.String() write it (not for IPv4-mapped). */
export function formatIPv6(address: bigint): string {
  const g = ipv6Groups(address);
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (xs: number[]): string => xs.map((x) => x.toString(16)).join(":");
  if (bestLen < 2) return hex(g);
  return `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}

/**
 * An address in its canonical text form (dotted quad, or RFC 5952 for IPv6).
 *
 * @example
 * ```ts
 * import { formatIP } from "clusterwire/testing";
 *
 * console.log(formatIP(4, 0x7f000001n), formatIP(6, 0x20010db8n << 96n)); // "127.0.0.1" "2001:db8::"
 * ```
 */
export function formatIP(family: IPFamily, address: bigint): string {
  return family === 4 ? formatIPv4(address) : formatIPv6(address);
}

/**
 * Canonical CIDR text (what Go's IPNet.String() writes).
 *
 * @example
 * ```ts
 * import { formatCidr } from "clusterwire/testing";
 *
 * console.log(formatCidr({ family: 6, prefix: 32, address: 0x20010db8n << 96n })); // "2001:db8::/32"
 * ```
 */
export function formatCidr(net: IPNet): string {
  return `${formatIP(net.family, net.address)}/${net.prefix}`;
}

/** An address reduced to its family: IPv4 and IPv4-mapped IPv6 are both family 4, as in Go. */
export interface Address {
  readonly family: IPFamily;
  /** 32 bits for family 4, 128 bits for family 6. */
  readonly value: bigint;
}

/** Dotted quad, each part decimal; leading zeros are read as decimal (the API server's sloppy parsing). */
function parseV4Text(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^[0-9]+$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

/** RFC 4291 text: hex groups, at most one "::", optionally a dotted quad in the last 32 bits. */
function parseV6Text(text: string): bigint | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (s: string): bigint[] | null => {
    if (s === "") return [];
    const out: bigint[] = [];
    const items = s.split(":");
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (i === items.length - 1 && item.includes(".")) {
        const v4 = parseV4Text(item);
        if (v4 === null) return null;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(item)) return null;
        out.push(BigInt(parseInt(item, 16)));
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (head === null || tail === null) return null;
  // A dotted quad is only allowed at the very end.
  if (halves.length === 2 && halves[0]!.includes(".")) return null;
  let groups: bigint[];
  if (halves.length === 2) {
    if (head.length + tail.length > 7) return null;
    groups = [...head, ...new Array<bigint>(8 - head.length - tail.length).fill(0n), ...tail];
  } else {
    if (head.length !== 8) return null;
    groups = head;
  }
  let value = 0n;
  for (const g of groups) value = (value << 16n) | g;
  return value;
}

/** Parses an IP the way the API server's sloppy parser does; null when it is not one. */
export function parseAddress(text: string): Address | null {
  if (typeof text !== "string") return null;
  // Go decides by the first '.' or ':'.
  const dot = text.indexOf(".");
  const colon = text.indexOf(":");
  if (dot >= 0 && (colon < 0 || dot < colon)) {
    const v4 = parseV4Text(text);
    return v4 === null ? null : { family: 4, value: v4 };
  }
  if (colon < 0) return null;
  const v6 = parseV6Text(text);
  if (v6 === null) return null;
  // E7: an IPv4-mapped IPv6 address is an IPv4 address.
  if (isV4Mapped(v6)) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

/**
 * `addr/prefix` as Go's ParseCIDR plus IPNet.Contains see it: host bits are
 * masked off, and an IPv6-written network whose masked address is IPv4-mapped
 * is an IPv4 network of `prefix - 96` bits.
 */
export function parseNetwork(text: string): IPNet | null {
  const slash = text.indexOf("/");
  if (slash < 0) return null;
  const addrText = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  if (!/^[0-9]+$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  const v4 = addrText.includes(":") ? null : parseV4Text(addrText);
  if (v4 !== null) {
    if (prefix > 32) return null;
    return { family: 4, address: maskAddress(4, v4, prefix), prefix };
  }
  const v6 = parseV6Text(addrText);
  if (v6 === null || prefix > 128) return null;
  const masked = maskAddress(6, v6, prefix);
  if (isV4Mapped(masked)) return { family: 4, address: masked & 0xffffffffn, prefix: prefix - 96 };
  return { family: 6, address: masked, prefix };
}

/** True when `a` lies in `net` (same family, same leading `prefix` bits). */
export function inNetwork(net: IPNet, a: Address): boolean {
  return a.family === net.family && maskAddress(a.family, a.value, net.prefix) === net.address;
}
