// IP addresses and CIDRs as numbers, rendered canonically or in the legacy spellings the default
// API server still accepts (host bits, leading zeros, IPv4-mapped IPv6), and valid ipBlocks.

import fc from "fast-check";
import type { JsonObject } from "../../networking/index.js";
import {
  familyBits,
  formatCidr,
  formatIP,
  formatIPv4,
  hostMask,
  ipv6Groups,
  isV4Mapped,
  maskAddress,
  type IPFamily,
  type IPNet,
} from "../addresses.js";

export const MAX_V6 = (1n << 128n) - 1n;

/** Random 128-bit values with runs of zero groups (so `::` compression gets exercised). */
function arbV6Bits(): fc.Arbitrary<bigint> {
  return fc
    .tuple(fc.bigInt({ min: 0n, max: MAX_V6 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
    .map(([v, keep]) => {
      let mask = 0n;
      keep.forEach((k, i) => {
        if (k) mask |= 0xffffn << BigInt((7 - i) * 16);
      });
      return v & mask;
    });
}

function arbAddressBits(family: IPFamily): fc.Arbitrary<bigint> {
  return family === 4 ? fc.bigInt({ min: 0n, max: 0xffffffffn }) : arbV6Bits();
}

function arbFamily(family?: IPFamily): fc.Arbitrary<IPFamily> {
  return family === undefined ? fc.constantFrom<IPFamily>(4, 6) : fc.constant(family);
}

/**
 * An IP address (as a number) valid for IsValidIP: IPv6 never IPv4-mapped.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbIPValue, formatIP } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbIPValue(), 3).map(({ family, address }) => formatIP(family, address)));
 * ```
 */
export function arbIPValue(family?: IPFamily): fc.Arbitrary<{ family: IPFamily; address: bigint }> {
  return fc.tuple(arbFamily(family), arbAddressBits(4), arbAddressBits(6)).map(([f, v4, v6]) => ({
    family: f,
    address: f === 4 ? v4 : isV4Mapped(v6) ? v6 | (1n << 127n) : v6,
  }));
}

/**
 * A canonical IP string (IPAddress metadata.name): what apimachinery's strict IsValidIP accepts.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCanonicalIP } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCanonicalIP(6), 3));
 * ```
 */
export function arbCanonicalIP(family?: IPFamily): fc.Arbitrary<string> {
  return arbIPValue(family).map(({ family: f, address }) => formatIP(f, address));
}

/**
 * A network with a canonical address; IPv6 never in ::ffff:0:0/96.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbIPNet, formatCidr } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbIPNet(4), 3).map(formatCidr));
 * ```
 */
export function arbIPNet(family?: IPFamily): fc.Arbitrary<IPNet> {
  // Not chain(): both families' bits are drawn and the family picks one, which shrinks better.
  return fc
    .tuple(arbFamily(family), fc.nat(), fc.bigInt({ min: 0n, max: 0xffffffffn }), arbV6Bits())
    .map(([f, n, v4, v6]) => {
      const prefix = n % (familyBits(f) + 1);
      let address = maskAddress(f, f === 4 ? v4 : v6, prefix);
      if (f === 6 && isV4Mapped(address)) address |= 1n << 127n;
      return { family: f, prefix, address };
    });
}

/**
 * Canonical, strict CIDR text (ServiceCIDR spec.cidrs entries).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCanonicalCidr } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCanonicalCidr(6), 3));
 * ```
 */
export function arbCanonicalCidr(family?: IPFamily): fc.Arbitrary<string> {
  return arbIPNet(family).map(formatCidr);
}

/**
 * How a legacy CIDR field (ipBlock cidr/except) may spell a network and still be
 * accepted by the default apiserver (StrictIPCIDRValidation off).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLegacyOnlyCidr } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLegacyOnlyCidr(), 3)); // host bits, leading zeros, IPv4-mapped IPv6
 * ```
 */
export type LegacyCidrStyle =
  | "canonical"
  | "hostBits" // 10.0.0.1/8
  | "leadingZeros" // 010.000.001.000/24
  | "prefixZero" // 10.0.0.0/08
  | "expanded" // 2001:0DB8:0000:...:0000/64, also accepted by strict mode (IPv4: canonical)
  | "v4mapped"; // ::ffff:10.0.0.0/104

/** Renders `net` in `style`; `noise` supplies host bits for "hostBits". */
export function formatLegacyCidr(net: IPNet, style: LegacyCidrStyle, noise: bigint): string {
  const f = net.family;
  switch (style) {
    case "canonical":
      return formatCidr(net);
    case "hostBits": {
      const a = net.address | (noise & hostMask(f, net.prefix));
      const withBits = f === 6 && isV4Mapped(a) ? net.address : a;
      return `${formatIP(f, withBits)}/${net.prefix}`;
    }
    case "leadingZeros":
      if (f === 6) return formatLegacyCidr(net, "expanded", noise);
      return `${[24n, 16n, 8n, 0n].map((s) => String((net.address >> s) & 0xffn).padStart(3, "0")).join(".")}/${net.prefix}`;
    case "prefixZero":
      return `${formatIP(f, net.address)}/0${net.prefix}`;
    case "expanded": {
      if (f === 4) return formatCidr(net); // IPv4 has no strict-compatible non-canonical spelling
      const upper = (noise & 1n) === 1n;
      const text = ipv6Groups(net.address)
        .map((g) => g.toString(16).padStart(4, "0"))
        .join(":");
      return `${upper ? text.toUpperCase() : text}/${net.prefix}`;
    }
    case "v4mapped":
      if (f === 6) return formatCidr(net);
      return `::ffff:${formatIPv4(net.address)}/${96 + net.prefix}`;
  }
}

/**
 * A CIDR only the legacy parser accepts: host bits set, leading zeros in the
 * address or prefix, or IPv4-mapped IPv6. With StrictIPCIDRValidation on, an
 * ipBlock cidr/except holding it gets exactly one Invalid.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLegacyOnlyCidr } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLegacyOnlyCidr(), 3));
 * ```
 */
export function arbLegacyOnlyCidr(): fc.Arbitrary<string> {
  return fc
    .tuple(
      arbIPNet(),
      fc.constantFrom<LegacyCidrStyle>("hostBits", "leadingZeros", "prefixZero", "v4mapped"),
      fc.bigInt({ min: 1n, max: MAX_V6 }),
    )
    .map(([net, style, noise]) => {
      const bits = familyBits(net.family);
      if (style === "hostBits") {
        const n =
          net.prefix === bits
            ? { ...net, prefix: bits - 1, address: maskAddress(net.family, net.address, bits - 1) }
            : net;
        let a = n.address | (noise & hostMask(n.family, n.prefix));
        if (a === n.address) a |= 1n;
        if (n.family === 6 && isV4Mapped(a)) a |= 1n << 127n;
        return `${formatIP(n.family, a)}/${n.prefix}`;
      }
      if (style === "leadingZeros" && net.family === 4) return `0${formatCidr(net)}`;
      if (style === "v4mapped" && net.family === 4) return formatLegacyCidr(net, "v4mapped", 0n);
      return formatLegacyCidr(net, "prefixZero", 0n);
    });
}

function arbLegacyStyle(legacy: boolean): fc.Arbitrary<LegacyCidrStyle> {
  if (!legacy) return fc.constantFrom<LegacyCidrStyle>("canonical", "expanded");
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<LegacyCidrStyle>("canonical") },
    {
      weight: 1,
      arbitrary: fc.constantFrom<LegacyCidrStyle>("hostBits", "leadingZeros", "prefixZero", "expanded", "v4mapped"),
    },
  );
}

/**
 * Options of {@link arbIPBlock} and the NetworkPolicy arbitraries: which address spellings to draw.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNetworkPolicyJson } from "clusterwire/testing";
 *
 * // Policies that stay valid with the StrictIPCIDRValidation feature gate on.
 * const strict = arbNetworkPolicyJson({ legacy: false });
 * console.log(fc.sample(strict, 1));
 * ```
 */
export interface IPBlockOptions {
  /**
   * Also use the spellings only the legacy (default) parser accepts: host bits,
   * leading zeros, IPv4-mapped IPv6. Default true. Set false for objects that
   * must also pass with StrictIPCIDRValidation on.
   */
  readonly legacy?: boolean;
  /** Draw only this IP family; default both. */
  readonly family?: IPFamily;
}

/**
 * A valid ipBlock: a cidr and 0..3 `except` entries, each a strict subset of the cidr.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbIPBlock } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbIPBlock({ legacy: false, family: 4 }), (ipBlock) => typeof ipBlock["cidr"] === "string"));
 * ```
 */
export function arbIPBlock(options: IPBlockOptions = {}): fc.Arbitrary<JsonObject> {
  const legacy = options.legacy !== false;
  const except = fc.tuple(
    fc.nat(),
    fc.bigInt({ min: 0n, max: MAX_V6 }),
    arbLegacyStyle(legacy),
    fc.bigInt({ min: 0n, max: MAX_V6 }),
  );
  return fc
    .tuple(
      arbIPNet(options.family),
      arbLegacyStyle(legacy),
      fc.bigInt({ min: 0n, max: MAX_V6 }),
      fc.array(except, { maxLength: 3 }),
      fc.nat(2),
    )
    .map(([net, style, noise, excepts, exceptKey]) => {
      const bits = familyBits(net.family);
      const out: JsonObject = {};
      const list: string[] = [];
      if (net.prefix < bits) {
        for (const [n, raw, s, xNoise] of excepts) {
          const q = net.prefix + 1 + (n % (bits - net.prefix));
          const address = maskAddress(net.family, net.address | (raw & hostMask(net.family, net.prefix)), q);
          // Go reads an address in ::ffff:0:0/96 as IPv4, and IPNet.Contains is false across the
          // two lengths: inside ::/80, ::ffff:0:0/96 is not a subset to the API server. Skip those.
          if (net.family === 6 && isV4Mapped(address) !== isV4Mapped(net.address)) continue;
          // An IPv4-mapped except or cidr never contains anything (Go's IPNet.Contains compares lengths).
          list.push(
            formatLegacyCidr({ family: net.family, prefix: q, address }, s === "v4mapped" ? "canonical" : s, xNoise),
          );
        }
      }
      out["cidr"] = formatLegacyCidr(net, list.length > 0 && style === "v4mapped" ? "canonical" : style, noise);
      if (list.length > 0 || exceptKey === 1) out["except"] = list;
      return out;
    });
}
