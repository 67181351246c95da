// Addresses outside the cluster in an expectations file: an IP or a CIDR, read as one inclusive
// range of one family, and ranges written back as the fewest CIDRs. Kept here (and small)
// because the connectivity layer may use only networking's public entry point, which has no
// address arithmetic.

/** An inclusive range of addresses of one family, as numbers. */
export interface AddressSpan {
  readonly family: 4 | 6;
  readonly first: bigint;
  readonly last: bigint;
}

const BITS = { 4: 32, 6: 128 } as const;

/** Whether `text` is written as an address (IPv4 dotted quad, or anything with a colon) rather than a workload. */
export function looksLikeAddress(text: string): boolean {
  return /^\d+\.\d+\.\d+\.\d+(?:\/.*)?$/.test(text) || text.includes(":");
}

/**
 * An IP (`10.0.0.1`, `fd00::1`) or a CIDR (`10.0.0.0/8`; host bits are dropped, as the API
 * server's CIDR parsing does) as a range, IPv4-mapped IPv6 ones as IPv4; a string saying what is
 * wrong otherwise.
 */
export function parseAddressBlock(text: string): AddressSpan | string {
  const slash = text.indexOf("/");
  const ipText = slash < 0 ? text : text.slice(0, slash);
  const ip = parseIp(ipText);
  if (typeof ip === "string") return ip;
  const bits: number = BITS[ip.family];
  let prefix = bits;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (!/^(?:0|[1-9]\d{0,2})$/.test(p) || Number(p) > bits) {
      return `the prefix length must be a number from 0 to ${bits}, got ${JSON.stringify(p)}`;
    }
    prefix = Number(p);
  }
  const size = 1n << BigInt(bits - prefix);
  const first = (ip.value / size) * size;
  const last = first + size - 1n;
  // IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are IPv4, as the analysis counts them (Go's
  // address matching does the same); no IPv6 segment holds them.
  if (ip.family === 6 && first >= MAPPED && last <= MAPPED + 0xffffffffn) {
    return { family: 4, first: first - MAPPED, last: last - MAPPED };
  }
  return { family: ip.family, first, last };
}

/** The first IPv4-mapped IPv6 address, ::ffff:0.0.0.0. */
const MAPPED = 0xffffn << 32n;

/** One address, as a number. */
export function parseIp(text: string): { readonly family: 4 | 6; readonly value: bigint } | string {
  if (!text.includes(":")) {
    const v4 = parseIpv4(text);
    return v4 === undefined ? `${JSON.stringify(text)} is not an IPv4 address` : { family: 4, value: v4 };
  }
  const v6 = parseIpv6(text);
  return v6 === undefined ? `${JSON.stringify(text)} is not an IPv6 address` : { family: 6, value: v6 };
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // Leading zeros are refused: some readers take them as octal.
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string): bigint[] | undefined => {
    if (s === "") return [];
    const out: bigint[] = [];
    const parts = s.split(":");
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = parseIpv4(part);
        if (v4 === undefined) return undefined;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(part)) out.push(BigInt(`0x${part}`));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0] ?? "");
  const tail = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (head === undefined || tail === undefined) return undefined;
  // A dotted quad only ends the address.
  if (halves.length === 2 && (halves[0] ?? "").includes(".")) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<bigint>(halves.length === 2 ? missing : 0).fill(0n), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** An address as text: dotted quad, or IPv6 in its shortest form (RFC 5952). */
export function formatIp(family: 4 | 6, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => Number((value >> s) & 0xffffn));
  // The longest run of two or more zero groups (the first on a tie) becomes "::".
  let bestAt = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestAt = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (g: readonly number[]) => g.map((n) => n.toString(16)).join(":");
  if (bestAt < 0) return hex(groups);
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLength))}`;
}

/** The fewest CIDRs that cover exactly the range, in address order. */
export function cidrsOf(span: AddressSpan): string[] {
  const bits: number = BITS[span.family];
  const out: string[] = [];
  let at = span.first;
  while (at <= span.last) {
    let size = 1n;
    let prefix = bits;
    // Grow the block while it stays aligned at `at` and inside the range.
    while (prefix > 0 && at % (size * 2n) === 0n && at + size * 2n - 1n <= span.last) {
      size *= 2n;
      prefix--;
    }
    out.push(`${formatIp(span.family, at)}/${prefix}`);
    at += size;
  }
  return out;
}

/** The parts of `spans` outside `cut`. */
export function subtractSpans(spans: readonly AddressSpan[], cut: readonly AddressSpan[]): AddressSpan[] {
  let out = [...spans];
  for (const c of cut) {
    const next: AddressSpan[] = [];
    for (const s of out) {
      if (s.family !== c.family || c.last < s.first || c.first > s.last) {
        next.push(s);
        continue;
      }
      if (s.first < c.first) next.push({ family: s.family, first: s.first, last: c.first - 1n });
      if (c.last < s.last) next.push({ family: s.family, first: c.last + 1n, last: s.last });
    }
    out = next;
  }
  return out;
}

/** The overlap of two ranges, if any. */
export function overlap(a: AddressSpan, b: AddressSpan): AddressSpan | undefined {
  if (a.family !== b.family) return undefined;
  // Bigints: Math.max and Math.min take numbers only.
  let first = a.first;
  if (b.first > first) first = b.first;
  let last = a.last;
  if (b.last < last) last = b.last;
  return first <= last ? { family: a.family, first, last } : undefined;
}

/** Sorted (IPv4 first, then by address) and merged where ranges touch or overlap. */
export function mergeSpans(spans: readonly AddressSpan[]): AddressSpan[] {
  const sorted = [...spans].sort((a, b) =>
    a.family !== b.family ? a.family - b.family : a.first < b.first ? -1 : a.first > b.first ? 1 : 0,
  );
  const out: AddressSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last.family === s.family && s.first <= last.last + 1n) {
      if (s.last > last.last) out[out.length - 1] = { ...last, last: s.last };
    } else out.push(s);
  }
  return out;
}
