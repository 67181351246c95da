// The address segments and their CIDR covers, against ip-num as a second implementation.

import fc from "fast-check";
import { IPv4, IPv4CidrRange, IPv6, IPv6CidrRange } from "ip-num";
import { describe, expect, it } from "vitest";
import { cidrCover, peerRange, segmentsOf } from "../../../../src/networking/evaluate/connectivity/addresses.js";
import { propertyRuns } from "../../../support/property-runs.js";

function coverBounds(family: 4 | 6, cidrs: readonly string[]): [bigint, bigint][] {
  return cidrs.map((c) => {
    const r = family === 4 ? IPv4CidrRange.fromCidr(c) : IPv6CidrRange.fromCidr(c);
    return [r.getFirst().getValue(), r.getLast().getValue()];
  });
}

describe("cidrCover", () => {
  it("covers exactly the range with the fewest aligned blocks, as ip-num reads them", () => {
    const top4 = (1n << 32n) - 1n;
    const top6 = (1n << 128n) - 1n;
    const arb = fc.oneof(
      fc.tuple(fc.constant(4 as const), fc.bigInt({ min: 0n, max: top4 }), fc.bigInt({ min: 0n, max: top4 })),
      fc.tuple(fc.constant(6 as const), fc.bigInt({ min: 0n, max: top6 }), fc.bigInt({ min: 0n, max: top6 })),
    );
    fc.assert(
      fc.property(arb, ([family, x, y]) => {
        const [first, last] = x <= y ? [x, y] : [y, x];
        const bounds = coverBounds(family, cidrCover(family, first, last));
        expect(bounds[0]![0]).toBe(first);
        expect(bounds.at(-1)![1]).toBe(last);
        for (let i = 1; i < bounds.length; i++) expect(bounds[i]![0]).toBe(bounds[i - 1]![1] + 1n);
        // Fewest: no two neighbours of one size could join into one aligned block.
        for (let i = 1; i < bounds.length; i++) {
          const [a0, a1] = bounds[i - 1]!;
          const [b0, b1] = bounds[i]!;
          const size = a1 - a0 + 1n;
          if (b1 - b0 + 1n === size) expect(a0 % (size * 2n) === 0n).toBe(false);
        }
      }),
      { numRuns: propertyRuns(60) },
    );
    expect(new IPv4("10.0.0.0").getValue()).toBe(167772160n);
    expect(new IPv6("::1").getValue()).toBe(1n);
  });
});

describe("segmentsOf", () => {
  it("cuts each family at the given edges and leaves the IPv4-mapped block out of IPv6", () => {
    const segs = segmentsOf({ v4: new Set([167772160n, 184549376n]), v6: new Set() });
    expect(segs.map((s) => `${s.range.first}-${s.range.last}`)).toEqual([
      "0.0.0.0-9.255.255.255",
      "10.0.0.0-10.255.255.255",
      "11.0.0.0-255.255.255.255",
      "::-::fffe:ffff:ffff",
      "::1:0:0:0-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ]);
    // Next to the mapped block, an IPv6 range takes it in: no IPv6 CIDR matches those addresses anyway.
    expect(peerRange(6, 0n, (0xfffen << 32n) + 0xffffffffn).cidrs).toEqual(["::/80"]);
    expect(peerRange(6, 0n, (1n << 128n) - 1n).cidrs).toEqual(["::/0"]);
    expect(peerRange(4, 0n, 5n).cidrs).toEqual(["0.0.0.0/30", "0.0.0.4/31"]);
  });
});
