// Where a random cluster's pods and nodes live (two /24s of pod addresses, one node range, the
// same in IPv6), the addresses outside all of them, and the spellings an IPv4 address is written
// in: plain, IPv4-mapped IPv6, or with zero-padded octets.

import { formatIPv4, formatIPv6, type Address } from "../addresses.js";

/** Addresses outside every pod and node range. */
export const OUTSIDE_V4 = 0xcb007100n; // 203.0.113.0
export const OUTSIDE_V6 = 0x20010db8n << 96n; // 2001:db8::

export type Spelling = "plain" | "mapped" | "zeros";

/** IPv4 plainly, IPv4-mapped (`::ffff:a.b.c.d`) or with zero-padded octets (read as decimal). */
export function renderV4(v: bigint, spelling: Spelling = "plain"): string {
  if (spelling === "zeros")
    return formatIPv4(v)
      .split(".")
      .map((o) => o.padStart(3, "0"))
      .join(".");
  return spelling === "mapped" ? `::ffff:${formatIPv4(v)}` : formatIPv4(v);
}

export function renderAddress(a: Address, spelling: Spelling = "plain"): string {
  return a.family === 4 ? renderV4(a.value, spelling) : formatIPv6(a.value);
}

export function podAddress(family: 4 | 6, subnet: number, host: number): Address {
  // 10.0.<subnet>.<host> and fd00::<subnet>:<host>
  return family === 4
    ? { family, value: (10n << 24n) | (BigInt(subnet) << 8n) | BigInt(host) }
    : { family, value: (0xfd00n << 112n) | (BigInt(subnet) << 16n) | BigInt(host) };
}

export function nodeAddress(family: 4 | 6, node: number): Address {
  // 10.1.0.<n+1> and fd00:1::<n+1>
  return family === 4
    ? { family, value: (10n << 24n) | (1n << 16n) | BigInt(node + 1) }
    : { family, value: (0xfd00n << 112n) | (1n << 96n) | BigInt(node + 1) };
}
