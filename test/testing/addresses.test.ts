// IP addresses and networks as numbers, written independently of clusterwire's own IP module:
// formatting as Go writes addresses (RFC 5952 for IPv6, checked against the URL standard's
// serializer), and parsing as the API server's sloppy parser reads them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  familyBits,
  formatCidr,
  formatIP,
  formatIPv4,
  formatIPv6,
  hostMask,
  inNetwork,
  ipv6Groups,
  isV4Mapped,
  maskAddress,
  parseAddress,
  parseNetwork,
  type IPFamily,
} from "../../src/testing/addresses.js";
import { propertyRuns } from "../support/property-runs.js";

/** The WHATWG URL serializer's text for an IPv6 address: RFC 5952's compressed form. */
const urlV6 = (text: string): string => new URL(`http://[${text}]/`).hostname.slice(1, -1);

/** Addresses with runs of zero groups, which is what compression is about. */
const arbV6 = fc
  .array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 })
  .map((groups) => groups.reduce((a, g) => (a << 16n) | BigInt(g), 0n))
  .filter((a) => !isV4Mapped(a));
const arbV4 = fc.bigInt({ min: 0n, max: 2n ** 32n - 1n });

describe("masks", () => {
  it("familyBits, hostMask and maskAddress", () => {
    expect([familyBits(4), familyBits(6)]).toEqual([32, 128]);
    expect(hostMask(4, 24)).toBe(0xffn);
    expect(hostMask(4, 32)).toBe(0n);
    expect(hostMask(4, 0)).toBe(2n ** 32n - 1n);
    expect(hostMask(6, 64)).toBe(2n ** 64n - 1n);
    expect(maskAddress(4, 0x0a0b0c0dn, 16)).toBe(0x0a0b0000n);
    expect(maskAddress(4, 0x1_0a0b0c0dn, 32)).toBe(0x0a0b0c0dn);
    expect(maskAddress(6, 2n ** 128n - 1n, 8)).toBe(0xffn << 120n);
    expect(maskAddress(6, 2n ** 128n - 1n, 0)).toBe(0n);
  });

  it("isV4Mapped is ::ffff:0:0/96 exactly", () => {
    expect(isV4Mapped(0xffff_0a00_0001n)).toBe(true);
    expect(isV4Mapped(0xffff_0000_0000n)).toBe(true);
    expect(isV4Mapped(0xfffe_ffff_ffffn)).toBe(false);
    expect(isV4Mapped(0x1_ffff_0000_0000n)).toBe(false);
  });
});

describe("formatting", () => {
  it("IPv4 as a dotted quad, IPv6 in RFC 5952's form", () => {
    expect(formatIPv4(0x7f000001n)).toBe("127.0.0.1");
    expect(formatIP(4, 0n)).toBe("0.0.0.0");
    expect(ipv6Groups(0x20010db8n << 96n)).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    for (const [address, text] of [
      [0n, "::"],
      [1n, "::1"],
      [0x20010db8n << 96n, "2001:db8::"],
      // One zero group is not compressed; of two equal runs, the first is.
      [0x2001_0db8_0000_0001_0001_0001_0001_0001n, "2001:db8:0:1:1:1:1:1"],
      [0x2001_0000_0000_0001_0000_0000_0001_0001n, "2001::1:0:0:1:1"],
      // The longest run wins over an earlier shorter one.
      [0x2001_0000_0001_0000_0000_0000_0001_0001n, "2001:0:1::1:1"],
    ] as const) {
      expect(formatIPv6(address)).toBe(text);
      expect(formatIP(6, address)).toBe(text);
    }
    expect(formatCidr({ family: 6, prefix: 32, address: 0x20010db8n << 96n })).toBe("2001:db8::/32");
    expect(formatCidr({ family: 4, prefix: 8, address: 10n << 24n })).toBe("10.0.0.0/8");
  });

  it("IPv6 as the URL standard serializes it, and IPv4 as it reads back", () => {
    fc.assert(
      fc.property(arbV6, (a) => {
        expect(formatIPv6(a)).toBe(urlV6(formatIPv6(a)));
      }),
      { numRuns: propertyRuns(300) },
    );
    fc.assert(
      fc.property(arbV4, (a) => {
        expect(new URL(`http://${formatIPv4(a)}/`).hostname).toBe(formatIPv4(a));
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe("parseAddress", () => {
  it("reads back what formatIP writes", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.tuple(fc.constant<IPFamily>(4), arbV4), fc.tuple(fc.constant<IPFamily>(6), arbV6)),
        ([f, a]) => {
          expect(parseAddress(formatIP(f, a))).toEqual({ family: f, value: a });
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });

  it("reads as the API server's sloppy parser: leading zeros as decimal, a mapped IPv6 address as IPv4", () => {
    expect(parseAddress("010.001.0.09")).toEqual({ family: 4, value: 0x0a010009n });
    expect(parseAddress("::ffff:10.0.0.1")).toEqual({ family: 4, value: 0x0a000001n });
    expect(parseAddress("::FFFF:a00:1")).toEqual({ family: 4, value: 0x0a000001n });
    expect(parseAddress("::1.2.3.4")).toEqual({ family: 6, value: 0x01020304n });
    expect(parseAddress("1:2:3:4:5:6:7:8")).toEqual({ family: 6, value: 0x0001_0002_0003_0004_0005_0006_0007_0008n });
    expect(parseAddress("1::")).toEqual({ family: 6, value: 1n << 112n });
  });

  it("refuses what is not an address", () => {
    for (const bad of [
      "",
      "1.2.3",
      "1.2.3.4.5",
      "256.0.0.1",
      "1.2.3.-4",
      "a.b.c.d",
      "1.2.3.4:80",
      "::1::",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "12345::",
      "g::",
      "1.2.3.4::",
      "::1.2.3",
      "localhost",
      "1::2:3:4:5:6:7:8",
    ])
      expect(parseAddress(bad), bad).toBeNull();
    expect(parseAddress(7 as unknown as string)).toBeNull();
  });
});

describe("parseNetwork and inNetwork", () => {
  it("masks the host bits, as Go's ParseCIDR does", () => {
    expect(parseNetwork("10.1.2.3/8")).toEqual({ family: 4, prefix: 8, address: 10n << 24n });
    expect(parseNetwork("010.0.0.0/8")).toEqual({ family: 4, prefix: 8, address: 10n << 24n });
    expect(parseNetwork("2001:db8::1/32")).toEqual({ family: 6, prefix: 32, address: 0x20010db8n << 96n });
    expect(parseNetwork("0.0.0.0/0")).toEqual({ family: 4, prefix: 0, address: 0n });
  });

  it("reads a network written in IPv6 whose address is IPv4-mapped as an IPv4 network", () => {
    expect(parseNetwork("::ffff:10.0.0.0/104")).toEqual({ family: 4, prefix: 8, address: 10n << 24n });
    expect(parseNetwork("::ffff:0:0/96")).toEqual({ family: 4, prefix: 0, address: 0n });
    // Masked short of the mapped prefix, it stays IPv6.
    expect(parseNetwork("::ffff:10.0.0.0/80")).toEqual({ family: 6, prefix: 80, address: 0n });
  });

  it("refuses a missing or out-of-range prefix, and a bad address", () => {
    for (const bad of [
      "10.0.0.0",
      "10.0.0.0/33",
      "::/129",
      "10.0.0.0/-1",
      "10.0.0.0/ 8",
      "10.0.0.0/8/8",
      "10.0.0/8",
      "x/8",
      "/8",
    ])
      expect(parseNetwork(bad), bad).toBeNull();
  });

  it("inNetwork: same family and the same leading bits", () => {
    const net = parseNetwork("10.0.0.0/8")!;
    expect(inNetwork(net, parseAddress("10.255.0.1")!)).toBe(true);
    expect(inNetwork(net, parseAddress("11.0.0.0")!)).toBe(false);
    // A mapped address is IPv4, so it is in an IPv4 network; an IPv6 address never is.
    expect(inNetwork(net, parseAddress("::ffff:10.0.0.1")!)).toBe(true);
    expect(inNetwork(net, { family: 6, value: 10n << 24n })).toBe(false);
    expect(inNetwork(parseNetwork("::/0")!, parseAddress("2001:db8::1")!)).toBe(true);
    expect(inNetwork(parseNetwork("::/0")!, parseAddress("10.0.0.1")!)).toBe(false);
  });
});
