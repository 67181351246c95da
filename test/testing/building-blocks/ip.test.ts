// The building blocks for IP addresses, CIDRs and ipBlocks (src/testing/building-blocks/ip.ts),
// held to fast-check's quality checks (../quality.ts) against the contracts of ../contracts.ts.

import { describe, expect, it } from "vitest";
import { fromJson, validate } from "../../../src/networking/index.js";
import * as ip from "../../../src/testing/building-blocks/ip.js";
import * as kit from "../../../src/testing/index.js";
import { checkEntries, entry, expectCatalogued } from "../catalogue.js";
import fc from "fast-check";
import { parseNetwork } from "../../../src/testing/addresses.js";
import { isCanonicalIP, isCanonicalCidr, validInside, policyWith } from "../contracts.js";

const ENTRIES = [
  entry("arbCanonicalIP", ip.arbCanonicalIP(), isCanonicalIP),
  entry("arbCanonicalIP(6)", ip.arbCanonicalIP(6), (s) => s.includes(":") && isCanonicalIP(s)),
  entry(
    "arbIPValue",
    ip.arbIPValue(),
    (v) =>
      (v.family === 4 ? v.address < 2n ** 32n : v.address < 2n ** 128n && v.address >> 32n !== 0xffffn) &&
      v.address >= 0n,
    {
      size: (v) => v.address.toString().length,
    },
  ),
  entry("arbCanonicalCidr", ip.arbCanonicalCidr(), isCanonicalCidr),
  entry("arbIPNet", ip.arbIPNet(), (n) => isCanonicalCidr(kit.formatCidr(n)), {
    size: (n) => kit.formatCidr(n).length,
  }),
  entry("arbLegacyOnlyCidr", ip.arbLegacyOnlyCidr(), (s) => {
    // Accepted by the default API server, refused with StrictIPCIDRValidation.
    const p = fromJson(policyWith({ ingress: [{ from: [{ ipBlock: { cidr: s } }] }] }));
    expect(validate(p)).toEqual([]);
    expect(validate(p, { featureGates: { StrictIPCIDRValidation: true } }).length).toBeGreaterThan(0);
  }),
  entry(
    "arbIPBlock",
    ip.arbIPBlock(),
    validInside((b) => policyWith({ ingress: [{ from: [{ ipBlock: b }] }] })),
  ),
];

describe("building blocks: IP addresses, CIDRs and ipBlocks", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of ip.ts is in the catalogue above", () => {
    expectCatalogued(ip, ENTRIES);
  });

  it("arbIPBlock keeps IPv4-mapped excepts out of plain IPv6 cidrs, which the API server refuses", () => {
    // Go reads ::ffff:0:0/96 as an IPv4 network, and IPNet.Contains is false across the two
    // address lengths, so that except is not a subset of ::/80 (found by a CI-style random seed).
    const refused = fromJson(
      policyWith({ ingress: [{ from: [{ ipBlock: { cidr: "::/80", except: ["::ffff:0:0/96"] } }] }] }),
    );
    expect(validate(refused).map((e) => e.field)).toEqual(["spec.ingress[0].from[0].ipBlock.except[0]"]);
    // The bad pairs are rare (2 in 200,000 before the fix, with this seed), so check every
    // generated block's shape directly rather than through validate().
    // The kit's parser reads addresses as Go does, so a mapped except parses as family 4.
    const family = (text: string) => parseNetwork(text)?.family;
    const bad = fc
      .sample(ip.arbIPBlock({ family: 6 }), { numRuns: 200_000, seed: 7 })
      .filter((b) => (b["except"] as string[] | undefined)?.some((x) => family(x) !== family(b["cidr"] as string)));
    expect(bad).toEqual([]);
  });

  it("formatLegacyCidr spells one network each way the default API server accepts", () => {
    const v4 = { family: 4 as const, prefix: 8, address: 0x0a000000n };
    const v6 = { family: 6 as const, prefix: 32, address: 0x20010db8n << 96n };
    const noise = 0x00010203n;
    expect(
      (["canonical", "hostBits", "leadingZeros", "prefixZero", "expanded", "v4mapped"] as const).map((style) => [
        ip.formatLegacyCidr(v4, style, noise),
        ip.formatLegacyCidr(v6, style, noise),
      ]),
    ).toEqual([
      ["10.0.0.0/8", "2001:db8::/32"],
      ["10.1.2.3/8", "2001:db8::1:203/32"],
      // IPv6 has no leading-zero spelling of its own: the expanded one, upper case for an odd noise.
      ["010.000.000.000/8", "2001:0DB8:0000:0000:0000:0000:0000:0000/32"],
      ["10.0.0.0/08", "2001:db8::/032"],
      ["10.0.0.0/8", "2001:0DB8:0000:0000:0000:0000:0000:0000/32"],
      ["::ffff:10.0.0.0/104", "2001:db8::/32"],
    ]);
    expect(ip.formatLegacyCidr(v6, "expanded", 2n)).toBe("2001:0db8:0000:0000:0000:0000:0000:0000/32");
    for (const style of ["canonical", "expanded"] as const)
      for (const net of [v4, v6]) {
        const p = fromJson(
          policyWith({ ingress: [{ from: [{ ipBlock: { cidr: ip.formatLegacyCidr(net, style, noise) } }] }] }),
        );
        expect(validate(p, { featureGates: { StrictIPCIDRValidation: true } })).toEqual([]);
      }
    expect(ip.MAX_V6).toBe(2n ** 128n - 1n);
  });
});
