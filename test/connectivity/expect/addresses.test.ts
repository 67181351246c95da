import fc from "fast-check";
import ipnum from "ip-num";
import { describe, expect, it } from "vitest";
import {
  type AddressSpan,
  cidrsOf,
  formatIp,
  looksLikeAddress,
  mergeSpans,
  overlap,
  parseAddressBlock,
  parseIp,
  subtractSpans,
} from "../../../src/connectivity/expect/addresses.js";
import { propertyRuns } from "../../support/property-runs.js";

const v4 = (first: string, last: string): AddressSpan => {
  const a = parseIp(first);
  const b = parseIp(last);
  if (typeof a === "string" || typeof b === "string") throw new Error("bad test address");
  return { family: 4, first: a.value, last: b.value };
};

describe("addresses", () => {
  it("tells addresses from workload patterns", () => {
    expect(looksLikeAddress("10.0.0.0/8")).toBe(true);
    expect(looksLikeAddress("1.2.3.4")).toBe(true);
    expect(looksLikeAddress("::1")).toBe(true);
    expect(looksLikeAddress("shop/api")).toBe(false);
    expect(looksLikeAddress("shop/Deployment/api")).toBe(false);
    expect(looksLikeAddress("*")).toBe(false);
  });

  it("reads IPv4-mapped IPv6 blocks as IPv4, as the analysis counts them", () => {
    expect(parseAddressBlock("::ffff:10.1.2.3/104")).toEqual(v4("10.0.0.0", "10.255.255.255"));
    expect(parseAddressBlock("::ffff:0:0/96")).toEqual(v4("0.0.0.0", "255.255.255.255"));
    // A block larger than the mapped one stays IPv6.
    expect(parseAddressBlock("::ffff:0:0/95")).toMatchObject({ family: 6 });
  });

  it("writes IPv6 in its shortest form", () => {
    const six = (s: string) => {
      const ip = parseIp(s);
      if (typeof ip === "string") throw new Error(ip);
      return formatIp(6, ip.value);
    };
    expect(six("0:0:0:0:0:0:0:0")).toBe("::");
    expect(six("0:0:0:0:0:0:0:1")).toBe("::1");
    expect(six("FD00:0:0:0:0:0:0:0")).toBe("fd00::");
    expect(six("1:0:0:2:0:0:0:3")).toBe("1:0:0:2::3");
    expect(six("1:0:2:3:4:5:6:7")).toBe("1:0:2:3:4:5:6:7");
    expect(six("1:0:0:2:3:0:0:4")).toBe("1::2:3:0:0:4");
    expect(six("::ffff:1.2.3.4")).toBe("::ffff:102:304");
  });

  it("covers a range with the fewest CIDRs", () => {
    expect(cidrsOf(v4("10.0.0.0", "10.255.255.255"))).toEqual(["10.0.0.0/8"]);
    expect(cidrsOf(v4("0.0.0.0", "9.255.255.255"))).toEqual(["0.0.0.0/5", "8.0.0.0/7"]);
    expect(cidrsOf(v4("10.0.0.1", "10.0.0.6"))).toEqual(["10.0.0.1/32", "10.0.0.2/31", "10.0.0.4/31", "10.0.0.6/32"]);
    expect(cidrsOf({ family: 6, first: 0n, last: (1n << 128n) - 1n })).toEqual(["::/0"]);
  });

  it("subtracts, overlaps and merges ranges", () => {
    const all = v4("0.0.0.0", "255.255.255.255");
    const ten = v4("10.0.0.0", "10.255.255.255");
    const holes = subtractSpans([all], [ten]);
    expect(holes.flatMap(cidrsOf).slice(0, 3)).toEqual(["0.0.0.0/5", "8.0.0.0/7", "11.0.0.0/8"]);
    expect(mergeSpans([...holes, ten])).toEqual([all]);
    expect(overlap(ten, v4("10.1.0.0", "11.0.0.0"))).toEqual(v4("10.1.0.0", "10.255.255.255"));
    expect(overlap(ten, v4("11.0.0.0", "11.0.0.0"))).toBeUndefined();
    expect(overlap(ten, { family: 6, first: 0n, last: 10n })).toBeUndefined();
    expect(subtractSpans([ten], [{ family: 6, first: 0n, last: (1n << 128n) - 1n }])).toEqual([ten]);
  });

  it("reads and writes every address as ip-num does (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
        fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }),
        (a6, a4) => {
          const six = formatIp(6, a6);
          expect(ipnum.IPv6.fromString(six).getValue()).toBe(a6);
          expect(parseIp(six)).toEqual({ family: 6, value: a6 });
          const four = formatIp(4, a4);
          expect(ipnum.IPv4.fromString(four).getValue()).toBe(a4);
          expect(parseIp(four)).toEqual({ family: 4, value: a4 });
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it("covers any range exactly with aligned CIDRs (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }),
        fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }),
        (x, y) => {
          const [first, last] = [x, y].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) as [bigint, bigint];
          const span: AddressSpan = { family: 4, first, last };
          const cidrs = cidrsOf(span);
          expect(cidrs.length).toBeLessThanOrEqual(62);
          let next = span.first;
          const problems: string[] = [];
          for (const cidr of cidrs) {
            const block = parseAddressBlock(cidr);
            if (typeof block === "string") throw new Error(block);
            // Each block is written as its own network address (no host bits), and they follow on.
            if (`${formatIp(4, block.first)}/${cidr.split("/")[1]}` !== cidr) problems.push(`${cidr} has host bits`);
            if (block.first !== next) problems.push(`${cidr} does not follow on`);
            next = block.last + 1n;
          }
          expect(problems).toEqual([]);
          expect(next).toBe(span.last + 1n);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
