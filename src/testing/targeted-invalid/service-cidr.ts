// ServiceCIDR mutations: one violation each of the ServiceCIDR rules.

import fc from "fast-check";
import { familyBits, formatCidr, formatIP, hostMask, isV4Mapped, maskAddress, type IPFamily } from "../addresses.js";
import { arbCanonicalCidr, arbIPNet, formatLegacyCidr, MAX_V6 } from "../building-blocks/ip.js";
import type { ValidatedKind } from "../valid-objects.js";
import { type Mutation, REQUIRED, INVALID, mutation, err, ensureObj } from "./mutation.js";
import { metaMutations } from "./metadata.js";

/** Single CIDRs that fail strict IsValidCIDR with exactly one message. */
function arbBadStrictCidr(): fc.Arbitrary<string> {
  return fc.oneof(
    // host bits set beyond the prefix
    fc.tuple(arbIPNet(), fc.bigInt({ min: 1n, max: MAX_V6 })).map(([net, noise]) => {
      const bits = familyBits(net.family);
      const n =
        net.prefix === bits
          ? { ...net, prefix: bits - 1, address: maskAddress(net.family, net.address, bits - 1) }
          : net;
      let a = n.address | (noise & hostMask(n.family, n.prefix));
      if (a === n.address) a |= 1n; // at least one host bit
      if (n.family === 6 && isV4Mapped(a)) a |= 1n << 127n;
      return `${formatIP(n.family, a)}/${n.prefix}`;
    }),
    // leading zeros in the address or the prefix
    arbIPNet(4)
      .map((net) => formatLegacyCidr(net, "leadingZeros", 0n))
      .filter((t) => /(^|\.)0\d/.test(t)),
    arbIPNet().map((net) => formatLegacyCidr(net, "prefixZero", 0n)),
    // IPv4-mapped
    arbIPNet(4).map((net) => formatLegacyCidr(net, "v4mapped", 0n)),
    // non-canonical IPv6 text
    arbIPNet(6)
      .map((net) => [formatLegacyCidr(net, "expanded", 1n), formatCidr(net)])
      .filter(([text, canonical]) => text !== canonical)
      .map(([text]) => text as string),
    fc.constantFrom("2001:DB8::/64", "fd00:0:0:0::/64", "abc", "10.0.0.0", "10.0.0.0/33", "::/129", ""),
  );
}

export function serviceCidrMutations(): Mutation[] {
  const K: ValidatedKind = "ServiceCIDR";
  return [
    mutation("servicecidr.cidrs.empty", K, "validateServiceCIDRSpec: Required", fc.boolean(), (o, explicit) => {
      const spec = ensureObj(o, "spec");
      if (explicit) spec["cidrs"] = [];
      else delete spec["cidrs"];
      return err(REQUIRED, "spec.cidrs");
    }),
    mutation(
      "servicecidr.cidrs.too-many",
      K,
      "validateServiceCIDRSpec: more than 2 (entries not checked)",
      fc.array(fc.oneof(arbCanonicalCidr(), fc.constantFrom("x", "")), { minLength: 3, maxLength: 5 }),
      (o, cidrs) => {
        ensureObj(o, "spec")["cidrs"] = cidrs;
        return err(INVALID, "spec.cidrs");
      },
    ),
    mutation(
      "servicecidr.cidrs.same-family",
      K,
      "validateServiceCIDRSpec: two of one family",
      fc.tuple(fc.boolean(), arbCanonicalCidr(4), arbCanonicalCidr(4), arbCanonicalCidr(6), arbCanonicalCidr(6)),
      (o, [v4, a4, b4, a6, b6]) => {
        ensureObj(o, "spec")["cidrs"] = v4 ? [a4, b4] : [a6, b6];
        return err(INVALID, "spec.cidrs");
      },
    ),
    // 1.33+ validateServiceCIDRSpec: entries first; the family check only when both parse (<= 1.32 said Invalid on spec.cidrs).
    mutation(
      "servicecidr.cidrs.pair-unparseable",
      K,
      "validateServiceCIDRSpec: an unparseable entry of two",
      fc.tuple(arbCanonicalCidr(), fc.constantFrom("abc", "10.0.0.0", "10.0.0.0/33", "::/129", "fd00::"), fc.boolean()),
      (o, [good, bad, badFirst]) => {
        ensureObj(o, "spec")["cidrs"] = badFirst ? [bad, good] : [good, bad];
        return err(INVALID, `spec.cidrs[${badFirst ? 0 : 1}]`);
      },
    ),
    mutation(
      "servicecidr.cidrs.single-invalid",
      K,
      "validateServiceCIDRSpec: strict IsValidCIDR",
      arbBadStrictCidr().filter((c) => c !== ""),
      (o, c) => {
        ensureObj(o, "spec")["cidrs"] = [c];
        return err(INVALID, "spec.cidrs[0]");
      },
    ),
    mutation(
      "servicecidr.cidrs.dual-invalid",
      K,
      "validateServiceCIDRSpec: strict IsValidCIDR per entry",
      fc.tuple(
        fc.boolean(),
        fc.boolean(),
        arbCanonicalCidr(4),
        arbCanonicalCidr(6),
        arbBadDualEntry(4),
        arbBadDualEntry(6),
      ),
      (o, [v4bad, badFirst, good4, good6, bad4, bad6]) => {
        const [good, bad] = v4bad ? [good6, bad4] : [good4, bad6];
        ensureObj(o, "spec")["cidrs"] = badFirst ? [bad, good] : [good, bad];
        return err(INVALID, `spec.cidrs[${badFirst ? 0 : 1}]`);
      },
    ),
    ...metaMutations(K),
  ];
}

/** A strictly-invalid but parseable CIDR of `family` (so the dual-stack check still passes). */
function arbBadDualEntry(family: IPFamily): fc.Arbitrary<string> {
  return fc.tuple(arbIPNet(family), fc.bigInt({ min: 1n, max: MAX_V6 }), fc.nat(2)).map(([net, noise, style]) => {
    if (style === 0) return formatLegacyCidr(net, "prefixZero", 0n);
    if (style === 1 && family === 4) return `0${formatCidr(net)}`; // a leading zero in the first octet
    if (style === 1) {
      const text = formatLegacyCidr(net, "expanded", 1n);
      if (text !== formatCidr(net)) return text;
    }
    const bits = familyBits(family);
    const n =
      net.prefix === bits ? { ...net, prefix: bits - 1, address: maskAddress(family, net.address, bits - 1) } : net;
    let a = n.address | (noise & hostMask(family, n.prefix));
    if (a === n.address) a |= 1n;
    if (family === 6 && isV4Mapped(a)) a |= 1n << 127n;
    return `${formatIP(family, a)}/${n.prefix}`;
  });
}
