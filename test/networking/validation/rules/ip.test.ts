// src/networking/ip.ts against three references:
//   1. ip-num 1.6.2, the test oracle, on well-formed canonical input, plus the
//      places where ip-num and Go disagree (each documented where it is tested);
//   2. a plain model of Go's net package written here over byte arrays, string
//      splitting and BigInt, compared on random and mutated input;
//   3. hand-written tables of Go / Kubernetes edge cases with the exact
//      messages of every validator.
//
// Property runs default to 1000; CLUSTERWIRE_PROPERTY_RUNS=N sets them to N (test/support/property-runs.ts).

import fc from "fast-check";
import ipnum from "ip-num";
import { describe, expect, it } from "vitest";
import {
  cidrContains,
  cidrForLegacyField,
  exceptIsStrictSubset,
  formatCIDR,
  formatIP,
  ipFamilyOfCIDRString,
  ipForLegacyField,
  ipMessages,
  isValidCIDR,
  isValidIP,
  parseCIDRSloppy,
  parseIPSloppy,
} from "../../../../src/networking/validation/rules/ip.js";
import type { IP, IPNet } from "../../../../src/networking/validation/rules/ip.js";
import { expectSubquadratic } from "../../../support/growth.js";
import { propertyRuns } from "../../../support/property-runs.js";

const { IPv4, IPv6, IPv4CidrRange, IPv6CidrRange } = ipnum;

const RUNS = propertyRuns(1000);
const assertProperty = <T>(arb: fc.Arbitrary<T>, check: (value: T) => void): void => {
  fc.assert(fc.property(arb, check), { numRuns: RUNS });
};

// Messages, spelled out again here rather than imported, so a typo in the
// module cannot make both sides agree.
const INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const IP_LEADING_ZEROS = "must not have leading 0s";
const IP_MAPPED = "must not be an IPv4-mapped IPv6 address";
const INVALID_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
const CIDR_LEADING_ZEROS = "must not have leading 0s in IP or prefix length";
const CIDR_MAPPED = "must not have an IPv4-mapped IPv6 address";
const CIDR_HOST_BITS = "must not have bits set beyond the prefix length";
const canonical = (text: string): string => `must be in canonical form ("${text}")`;

// ====================================================== helpers on results

const ipBig = (ip: IP): bigint =>
  (BigInt(ip.w0) << 96n) | (BigInt(ip.w1) << 64n) | (BigInt(ip.w2) << 32n) | BigInt(ip.w3);

const ipBytes = (ip: IP): number[] => {
  const out: number[] = [];
  for (const w of [ip.w0, ip.w1, ip.w2, ip.w3]) out.push(w >>> 24, (w >>> 16) & 255, (w >>> 8) & 255, w & 255);
  return out;
};

const netMaskBig = (net: IPNet): bigint =>
  (BigInt(net.m0) << 96n) | (BigInt(net.m1) << 64n) | (BigInt(net.m2) << 32n) | BigInt(net.m3);

const MAPPED_PREFIX = 0xffffn << 32n;
const isMappedBig = (v: bigint): boolean => v >> 32n === 0xffffn;

/** Eight full hex fields of a 128-bit value: "0:db8:..." (no "::"). */
const expandedV6 = (v: bigint): string => {
  const fields: string[] = [];
  for (let k = 7; k >= 0; k--) fields.push(((v >> BigInt(16 * k)) & 0xffffn).toString(16));
  return fields.join(":");
};

const dotted = (v: number): string => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");

// ======================================= reference model of Go's net package
//
// Written plainly from the Go rules, with a different technique from the
// module (splitting strings, regular expressions, byte arrays, BigInt).

type GoIP = number[]; // 4 or 16 bytes, like net.IP
interface GoIPNet {
  ip: GoIP;
  mask: number[];
}

const V4_IN_V6 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255];
const DIGITS = /^[0-9]+$/;
const HEX = /^[0-9a-fA-F]+$/;

const sameBytes = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Go 1.16 parseIPv4: four decimal fields <= 255, leading zeros ignored. Returns 16 bytes. */
function refParseIPv4(s: string): GoIP | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const out = [...V4_IN_V6];
  for (const part of parts) {
    if (!DIGITS.test(part) || BigInt(part) > 255n) return null;
    out.push(Number(part));
  }
  return out;
}

/** Go 1.16 parseIPv6, by splitting on "::" and ":" rather than scanning. */
function refParseIPv6(s: string): GoIP | null {
  let text = s;
  if (text.includes(".")) {
    // The dotted part is everything after the last colon and becomes two fields.
    const colon = text.lastIndexOf(":");
    if (colon < 0) return null;
    const v4 = refParseIPv4(text.slice(colon + 1));
    if (v4 === null) return null;
    const hi = (v4[12]! << 8) | v4[13]!;
    const lo = (v4[14]! << 8) | v4[15]!;
    text = `${text.slice(0, colon + 1)}${hi.toString(16)}:${lo.toString(16)}`;
  }
  const gap = text.indexOf("::");
  if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) return null;
  const head = gap >= 0 ? text.slice(0, gap) : text;
  const tail = gap >= 0 ? text.slice(gap + 2) : "";
  const headFields = head === "" ? [] : head.split(":");
  const tailFields = tail === "" ? [] : tail.split(":");
  for (const f of [...headFields, ...tailFields]) {
    if (!HEX.test(f) || BigInt(`0x${f}`) > 0xffffn) return null;
  }
  const count = headFields.length + tailFields.length;
  if (gap < 0 ? count !== 8 : count > 7) return null;
  const fields = [...headFields, ...Array<string>(8 - count).fill("0"), ...tailFields].map((f) =>
    Number(BigInt(`0x${f}`)),
  );
  return fields.flatMap((f) => [f >> 8, f & 255]);
}

/** Go ParseIP: the grammar is chosen by the first '.' or ':'. */
function refParseIP(s: string): GoIP | null {
  const at = s.search(/[.:]/);
  if (at < 0) return null;
  return s[at] === "." ? refParseIPv4(s) : refParseIPv6(s);
}

function refTo4(ip: GoIP): GoIP | null {
  if (ip.length === 4) return ip;
  if (ip.length === 16 && sameBytes(ip.slice(0, 12), V4_IN_V6)) return ip.slice(12);
  return null;
}

/** Go CIDRMask: `ones` leading one bits out of `bits`, as bytes. */
function refCIDRMask(ones: number, bits: number): number[] {
  const bitString = "1".repeat(ones) + "0".repeat(bits - ones);
  const out: number[] = [];
  for (let i = 0; i < bits; i += 8) out.push(parseInt(bitString.slice(i, i + 8), 2));
  return out;
}

/** Go IP.Mask. */
function refIPMask(ip: GoIP, mask: number[]): GoIP | null {
  let m = mask;
  let a = ip;
  if (m.length === 16 && a.length === 4 && m.slice(0, 12).every((b) => b === 255)) m = m.slice(12);
  if (m.length === 4 && a.length === 16 && sameBytes(a.slice(0, 12), V4_IN_V6)) a = a.slice(12);
  if (a.length !== m.length) return null;
  return a.map((b, i) => b & m[i]!);
}

/** Go IPMask.Size. */
function refMaskSize(mask: number[]): [number, number] {
  const bitString = mask.map((b) => b.toString(2).padStart(8, "0")).join("");
  const ones = /^1*/.exec(bitString)![0].length;
  return /^1*0*$/.test(bitString) ? [ones, bitString.length] : [0, 0];
}

/** Go IPNet.String: an IPv4 network with a 16-byte mask prints the mask's last 4 bytes. */
function refNetString(net: GoIPNet): string {
  const v4 = refTo4(net.ip);
  const mask = v4 !== null && net.mask.length === 16 ? net.mask.slice(12) : net.mask;
  return `${refString(net.ip)}/${refMaskSize(mask)[0]}`;
}

/** Go ParseCIDR (1.16 grammar): the address as written and the network. */
function refParseCIDR(s: string): { ip: GoIP; net: GoIPNet } | null {
  const slash = s.indexOf("/");
  if (slash < 0) return null;
  const addr = s.slice(0, slash);
  const maskText = s.slice(slash + 1);
  let bits = 32;
  let ip = refParseIPv4(addr);
  if (ip === null) {
    bits = 128;
    ip = refParseIPv6(addr);
  }
  if (ip === null || !DIGITS.test(maskText) || BigInt(maskText) > BigInt(bits)) return null;
  const mask = refCIDRMask(Number(maskText), bits);
  return { ip, net: { ip: refIPMask(ip, mask)!, mask } };
}

/** Go IPNet.Contains, including networkNumberAndMask. */
function refContains(net: GoIPNet, ip: GoIP): boolean {
  let nn = refTo4(net.ip);
  if (nn === null) {
    nn = net.ip;
    if (nn.length !== 16) return false;
  }
  let m = net.mask;
  if (m.length === 4 && nn.length !== 4) return false;
  if (m.length === 16 && nn.length === 4) m = m.slice(12);
  const x = refTo4(ip) ?? ip;
  if (x.length !== nn.length) return false;
  return x.every((b, i) => (b & m[i]!) === (nn[i]! & m[i]!));
}

const to16 = (ip: GoIP): GoIP => (ip.length === 4 ? [...V4_IN_V6, ...ip] : ip);
const bytesBig = (bytes: GoIP): bigint => bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);

/** Go net.IP.String, with the WHATWG URL serialiser as the RFC 5952 reference. */
function refString(ip: GoIP): string {
  const v4 = refTo4(ip);
  if (v4 !== null) return v4.join(".");
  return new URL(`http://[${expandedV6(bytesBig(ip))}]`).hostname.slice(1, -1);
}

/** Whether net/netip.ParseAddr accepts text that the sloppy parser accepted. */
function refNetipAccepts(s: string): boolean {
  const leadingZero = (octet: string): boolean => octet.length > 1 && octet.startsWith("0");
  if (!s.includes(":")) return !s.split(".").some(leadingZero);
  let hex = s;
  if (s.includes(".")) {
    const colon = s.lastIndexOf(":");
    if (
      s
        .slice(colon + 1)
        .split(".")
        .some(leadingZero)
    )
      return false;
    hex = s.slice(0, colon + 1);
  }
  return hex.split(":").every((field) => field.length <= 4);
}

// Reference validators, composed from the reference model.

function refLegacyIP(s: string, strict: boolean): string[] {
  const ip = refParseIP(s);
  if (ip === null) return [INVALID_IP];
  if (!strict) return [];
  if (!refNetipAccepts(s)) return [IP_LEADING_ZEROS];
  if (s.includes(":") && sameBytes(ip.slice(0, 12), V4_IN_V6)) return [IP_MAPPED];
  return [];
}

function refIsValidIP(s: string): string[] {
  const errors = refLegacyIP(s, true);
  if (errors.length !== 0) return errors;
  const text = refString(refParseIP(s)!);
  return text === s ? [] : [canonical(text)];
}

function refLegacyCIDR(s: string, strict: boolean): string[] {
  const parsed = refParseCIDR(s);
  if (parsed === null) return [INVALID_CIDR];
  if (!strict) return [];
  const slash = s.indexOf("/");
  const addr = s.slice(0, slash);
  const maskText = s.slice(slash + 1);
  if (!refNetipAccepts(addr) || (maskText.length > 1 && maskText.startsWith("0"))) return [CIDR_LEADING_ZEROS];
  if (addr.includes(":") && sameBytes(parsed.ip.slice(0, 12), V4_IN_V6)) return [CIDR_MAPPED];
  if (!sameBytes(to16(parsed.ip), to16(parsed.net.ip))) return [CIDR_HOST_BITS];
  return [];
}

function refIsValidCIDR(s: string): string[] {
  const errors = refLegacyCIDR(s, true);
  if (errors.length !== 0) return errors;
  const text = refNetString(refParseCIDR(s)!.net);
  return text === s ? [] : [canonical(text)];
}

// ============================================================== arbitraries

const prefix4 = fc.integer({ min: 0, max: 32 });
const prefix6 = fc.integer({ min: 0, max: 128 });
const u128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });

/** Characters that matter to the grammar, and a few that must never parse. */
const ALPHABET = [..."0123456789abcdefABCDEF.:/%", "x", " ", "+", "-", "\t", "\u0660", "\uff11", "\ud800", "\udc00"];
const PIECES = [...ALPHABET, "::", "ffff", "255", "256", "00", "::ffff:", "1.2.3.4", "/", "/08", "/128"];

interface Edit {
  at: number;
  op: "insert" | "delete" | "replace";
  ch: string;
}
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom("insert" as const, "delete" as const, "replace" as const),
  ch: fc.constantFrom(...ALPHABET),
});
const applyEdits = (s: string, edits: readonly Edit[]): string =>
  edits.reduce((acc, e) => {
    const at = acc.length === 0 ? 0 : e.at % (acc.length + (e.op === "insert" ? 1 : 0));
    if (e.op === "insert") return acc.slice(0, at) + e.ch + acc.slice(at);
    if (e.op === "delete") return acc.slice(0, at) + acc.slice(at + 1);
    return acc.slice(0, at) + e.ch + acc.slice(at + 1);
  }, s);
const mutated = (base: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(base, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([s, edits]) => applyEdits(s, edits));

/** IPv4 text with leading zeros added to some octets. */
const zeroPadded = fc
  .tuple(fc.ipV4(), fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }), fc.integer({ min: 1, max: 3 }))
  .map(([s, which, zeros]) =>
    s
      .split(".")
      .map((o, i) => (which.includes(i) ? "0".repeat(zeros) + o : o))
      .join("."),
  );

const v4CIDR = fc.tuple(fc.ipV4(), prefix4).map(([a, p]) => `${a}/${p}`);
const v6CIDR = fc.tuple(fc.ipV6(), prefix6).map(([a, p]) => `${a}/${p}`);
const mappedText = fc
  .tuple(fc.ipV4(), fc.constantFrom("::ffff:", "0:0:0:0:0:ffff:", "::FFFF:", "::0:ffff:"))
  .map(([v4, head]) => head + v4);
const mappedCIDR = fc.tuple(mappedText, fc.integer({ min: 0, max: 128 })).map(([a, p]) => `${a}/${p}`);

const ipText = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  zeroPadded,
  mappedText,
  mutated(fc.ipV4()),
  mutated(fc.ipV6()),
  mutated(mappedText),
  fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 12 }),
);
const prefixText = fc.oneof(
  fc.integer({ min: 0, max: 130 }).map(String),
  fc.constantFrom("", "0", "00", "08", "032", "0128", "+8", "-1", " 8", "8 ", "1e1", "٣"),
);
const cidrText = fc.oneof(
  v4CIDR,
  v6CIDR,
  mappedCIDR,
  fc.tuple(ipText, prefixText).map(([a, p]) => `${a}/${p}`),
  mutated(v4CIDR),
  mutated(v6CIDR),
  mutated(mappedCIDR),
  fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 12 }),
);

/** Any UTF-16 code units at all, lone surrogates included. */
const anyCodeUnits = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

/** An IPv4 address inside the network half the time. */
const v4Probe = (net: IPNet): fc.Arbitrary<string> =>
  fc.oneof(
    fc.ipV4(),
    fc.nat({ max: 0xffffffff }).map((host) => dotted(((net.w3 & net.m3) | (host & ~net.m3)) >>> 0)),
  );
/** An IPv6 address inside the network half the time, as eight full fields. */
const v6Probe = (net: IPNet): fc.Arbitrary<string> =>
  u128.map((r) => {
    const mask = netMaskBig(net);
    return expandedV6(r & 1n ? r : (ipBig(net) & mask) | (r & ~mask & ((1n << 128n) - 1n)));
  });

// ==================================================== differential: ip-num

describe("differential against ip-num 1.6.2 (canonical input)", () => {
  it("parses fc.ipV4() to the same uint32, family 4, printed back unchanged", () => {
    assertProperty(fc.ipV4(), (s) => {
      const ip = parseIPSloppy(s)!;
      expect(ip).toEqual({
        family: 4,
        w0: 0,
        w1: 0,
        w2: 0xffff,
        w3: Number(IPv4.fromDecimalDottedString(s).getValue()),
      });
      expect(formatIP(ip)).toBe(s);
      expect(isValidIP(s)).toEqual([]);
    });
  });

  it("parses fc.ipV6() to the same 128-bit value (embedded IPv4 tails included)", () => {
    assertProperty(fc.ipV6(), (s) => {
      const ip = parseIPSloppy(s)!;
      const expected = IPv6.fromHexadecatet(s).getValue();
      expect(ipBig(ip)).toBe(expected);
      expect(ip.family).toBe(isMappedBig(expected) ? 4 : 6);
    });
  });

  it("parses IPv4 CIDRs to ip-num's first address and agrees on containment and subsets", () => {
    assertProperty(
      fc.tuple(v4CIDR, v4CIDR).chain(([a, b]) => {
        const net = parseCIDRSloppy(a)!;
        return fc.tuple(fc.constant(a), fc.constant(b), v4Probe(net));
      }),
      ([a, b, probe]) => {
        const net = parseCIDRSloppy(a)!;
        const range = IPv4CidrRange.fromCidr(a);
        expect(net.family).toBe(4);
        expect(net.bits).toBe(32);
        expect(net.prefix).toBe(Number(a.split("/")[1]));
        expect(net.w3).toBe(Number(range.getFirst().getValue()));
        expect(cidrContains(net, parseIPSloppy(probe)!)).toBe(range.contains(IPv4.fromDecimalDottedString(probe)));
        // Go's strict subset is ip-num's inclusive containment plus a longer prefix.
        const other = parseCIDRSloppy(b)!;
        const otherRange = IPv4CidrRange.fromCidr(b);
        expect(exceptIsStrictSubset(net, other)).toBe(range.contains(otherRange) && net.prefix < other.prefix);
      },
    );
  });

  it("parses IPv6 CIDRs to ip-num's first address and agrees on containment", () => {
    // ip-num's IPv6 CIDR parser refuses dotted tails (see the differences below),
    // so the canonical comparison keeps to hex text.
    const hexCIDR = fc
      .tuple(
        fc.ipV6().filter((s) => !s.includes(".")),
        prefix6,
      )
      .map(([a, p]) => `${a}/${p}`);
    assertProperty(
      hexCIDR.chain((a) => fc.tuple(fc.constant(a), v6Probe(parseCIDRSloppy(a)!))),
      ([a, probe]) => {
        const net = parseCIDRSloppy(a)!;
        const range = IPv6CidrRange.fromCidr(a);
        expect(ipBig(net)).toBe(range.getFirst().getValue());
        expect(net.prefix).toBe(Number(a.split("/")[1]));
        expect(net.bits).toBe(128);
        const ip = parseIPSloppy(probe)!;
        const ipnumSays = range.contains(IPv6.fromHexadecatet(probe));
        // Go compares IPv4-mapped addresses as IPv4 only (see the differences below).
        const goSays = ip.family === net.family && ipnumSays;
        expect(cidrContains(net, ip)).toBe(goSays);
      },
    );
  });
});

describe("where ip-num and Go disagree, the module follows Go", () => {
  const ipnumV4 = (s: string): bigint | "throws" => {
    try {
      return IPv4.fromDecimalDottedString(s).getValue();
    } catch {
      return "throws";
    }
  };
  const ipnumV6 = (s: string): bigint | "throws" => {
    try {
      return IPv6.fromHexadecatet(s).getValue();
    } catch {
      return "throws";
    }
  };

  it("leading zeros in IPv4 octets: ip-num rejects, Go (ParseIPSloppy) reads them as decimal", () => {
    assertProperty(
      zeroPadded.filter((s) => s.split(".").some((o) => o.length > 1 && o.startsWith("0"))),
      (s) => {
        expect(ipnumV4(s)).toBe("throws");
        const plain = s
          .split(".")
          .map((o) => String(Number(o)))
          .join(".");
        expect(parseIPSloppy(s)).toEqual(parseIPSloppy(plain));
        expect(ipForLegacyField(s, { strict: false })).toEqual([]);
        expect(ipForLegacyField(s, { strict: true })).toEqual([IP_LEADING_ZEROS]);
      },
    );
  });

  it("extra characters, out-of-range octets and too many fields: both reject", () => {
    const extra = fc
      .tuple(fc.ipV4(), fc.constantFrom(" ", "x", "%", "/", "+", "-", ".", "\t", "\u00a0"), fc.boolean())
      .map(([s, c, before]) => (before ? c + s : s + c));
    const outOfRange = fc
      .tuple(fc.ipV4(), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 256, max: 99999 }))
      .map(([s, i, v]) =>
        s
          .split(".")
          .map((o, k) => (k === i ? String(v) : o))
          .join("."),
      );
    assertProperty(fc.oneof(extra, outOfRange), (s) => {
      expect(ipnumV4(s)).toBe("throws");
      expect(parseIPSloppy(s)).toBeNull();
      expect(parseCIDRSloppy(`${s}/8`)).toBeNull();
    });
    const tooMany = fc
      .tuple(u128, fc.constantFrom(":1", ":0", "::", ":1.2.3.4"))
      .map(([v, tail]) => expandedV6(v) + tail);
    assertProperty(tooMany, (s) => {
      expect(ipnumV6(s)).toBe("throws");
      expect(parseIPSloppy(s)).toBeNull();
    });
  });

  it("IPv6 zones: ip-num accepts them (also in CIDRs), Go's ParseIP refuses any '%'", () => {
    assertProperty(fc.tuple(fc.ipV6(), fc.constantFrom("eth0", "1", "lo")), ([s, zone]) => {
      expect(ipnumV6(`${s}%${zone}`)).not.toBe("throws");
      expect(parseIPSloppy(`${s}%${zone}`)).toBeNull();
      expect(isValidIP(`${s}%${zone}`)).toEqual([INVALID_IP]);
    });
    expect(IPv6CidrRange.fromCidr("fe80::1%eth0/64").getPrefix().getValue()).toBe(64n);
    expect(parseCIDRSloppy("fe80::1%eth0/64")).toBeNull();
  });

  it("IPv6 fields longer than 4 hex digits: ip-num rejects, Go's sloppy parser accepts them when the value fits", () => {
    expect(ipnumV6("00001::")).toBe("throws");
    expect(formatIP(parseIPSloppy("00001::")!)).toBe("1::");
    expect(formatIP(parseIPSloppy("::000000000000ffff:1.2.3.4")!)).toBe("1.2.3.4");
    expect(parseIPSloppy("10000::")).toBeNull();
  });

  it("host bits: ip-num keeps them silently; Go masks them, and only strict validation rejects them", () => {
    const withHostBits = fc
      .tuple(fc.nat({ max: 0xffffffff }), fc.integer({ min: 0, max: 31 }))
      .filter(([v, p]) => (v & ~(p === 0 ? 0 : -1 << (32 - p))) !== 0)
      .map(([v, p]) => `${dotted(v)}/${p}`);
    assertProperty(withHostBits, (s) => {
      const range = IPv4CidrRange.fromCidr(s);
      expect(range.toCidrString()).toBe(s); // ip-num keeps the address as written
      const net = parseCIDRSloppy(s)!;
      expect(net.w3).toBe(Number(range.getFirst().getValue()));
      expect(formatCIDR(net)).not.toBe(s);
      expect(cidrForLegacyField(s, { strict: false })).toEqual([]);
      expect(cidrForLegacyField(s, { strict: true })).toEqual([CIDR_HOST_BITS]);
      expect(isValidCIDR(s)).toEqual([CIDR_HOST_BITS]);
    });
  });

  // ip-num refuses most dotted mapped CIDRs but not all (it took
  // "::ffff:250.250.250.250/96"), so it is no oracle here; the IPv4 view is.
  it("IPv4-mapped IPv6 CIDRs: Go treats prefix >= 96 as an IPv4 network", () => {
    assertProperty(
      fc.tuple(fc.ipV4(), fc.integer({ min: 96, max: 128 })).chain(([v4, p]) => {
        const s = `::ffff:${v4}/${p}`;
        return fc.tuple(fc.constant(s), v4Probe(parseCIDRSloppy(s)!));
      }),
      ([s, probe]) => {
        const net = parseCIDRSloppy(s)!;
        const [v4, p] = s.slice("::ffff:".length).split("/") as [string, string];
        const asV4 = parseCIDRSloppy(`${v4}/${Number(p) - 96}`)!;
        expect(net.family).toBe(4);
        expect(net.prefix).toBe(Number(p));
        expect(net.bits).toBe(128);
        expect(formatCIDR(net)).toBe(formatCIDR(asV4));
        const ip = parseIPSloppy(probe)!;
        expect(cidrContains(net, ip)).toBe(
          IPv4CidrRange.fromCidr(formatCIDR(asV4)).contains(IPv4.fromDecimalDottedString(probe)),
        );
        expect(cidrContains(net, parseIPSloppy(`::ffff:${probe}`)!)).toBe(cidrContains(net, ip));
      },
    );
  });

  it("IPv6 prefix lengths with leading zeros: ip-num rejects '/064' (but takes '/08' for IPv4); Go takes both", () => {
    expect(() => IPv6CidrRange.fromCidr("2001:db8::/064")).toThrow();
    expect(IPv4CidrRange.fromCidr("10.0.0.0/08").toCidrString()).toBe("10.0.0.0/8");
    expect(parseCIDRSloppy("2001:db8::/064")!.prefix).toBe(64);
    expect(parseCIDRSloppy("10.0.0.0/08")!.prefix).toBe(8);
  });

  it("IPv4-mapped addresses against IPv6 networks: ip-num's ::/0 contains them, Go's never does", () => {
    expect(IPv6CidrRange.fromCidr("::/0").contains(IPv6.fromHexadecatet("::ffff:1.2.3.4"))).toBe(true);
    expect(cidrContains(parseCIDRSloppy("::/0")!, parseIPSloppy("::ffff:1.2.3.4")!)).toBe(false);
  });
});

// ================================================ differential: plain model

describe("differential against a plain model of Go's net package", () => {
  it("ParseIPSloppy: same acceptance, same 16 bytes, family = To4() != nil", () => {
    assertProperty(fc.oneof(ipText, anyCodeUnits), (s) => {
      const ip = parseIPSloppy(s);
      const ref = refParseIP(s);
      if (ref === null) {
        expect(ip).toBeNull();
        return;
      }
      expect(ip).not.toBeNull();
      expect(ipBytes(ip!)).toEqual(ref);
      expect(ip!.family).toBe(refTo4(ref) === null ? 6 : 4);
      expect(formatIP(ip!)).toBe(refString(ref));
    });
  });

  it("ParseCIDRSloppy: same acceptance, network, Mask.Size(), network family and IPFamilyOfCIDRString", () => {
    assertProperty(fc.oneof(cidrText, anyCodeUnits), (s) => {
      const net = parseCIDRSloppy(s);
      const ref = refParseCIDR(s);
      if (ref === null) {
        expect(net).toBeNull();
        expect(ipFamilyOfCIDRString(s)).toBeUndefined();
        return;
      }
      expect(net).not.toBeNull();
      expect(ipBytes(net!)).toEqual(to16(ref.net.ip));
      expect(net!.family).toBe(refTo4(ref.net.ip) === null ? 6 : 4);
      expect([net!.prefix, net!.bits]).toEqual(refMaskSize(ref.net.mask));
      expect(ipFamilyOfCIDRString(s)).toBe(refTo4(ref.ip) === null ? 6 : 4);
      expect(formatCIDR(net!)).toBe(refNetString(ref.net));
    });
  });

  it("IPNet.Contains: byte model and BigInt mask arithmetic agree with cidrContains, for every family mix", () => {
    const anyCIDR = fc.oneof(v4CIDR, v6CIDR, mappedCIDR, cidrText).filter((s) => refParseCIDR(s) !== null);
    const anyIP = fc.oneof(fc.ipV4(), fc.ipV6(), mappedText, zeroPadded);
    const pair = anyCIDR.chain((c) => {
      const net = parseCIDRSloppy(c)!;
      return fc.tuple(
        fc.constant(c),
        fc.oneof(
          anyIP,
          net.family === 4 ? v4Probe(net) : v6Probe(net),
          v4Probe(net).map((p) => `::ffff:${p}`),
        ),
      );
    });
    assertProperty(pair, ([c, a]) => {
      const net = parseCIDRSloppy(c)!;
      const ip = parseIPSloppy(a)!;
      const expected = refContains(refParseCIDR(c)!.net, refParseIP(a)!);
      expect(cidrContains(net, ip)).toBe(expected);
      // BigInt: same family and equal under the 128-bit mask.
      const mask = netMaskBig(net);
      expect(net.family === ip.family && (ipBig(ip) & mask) === (ipBig(net) & mask)).toBe(expected);
      // A network used as an address means its network address, like Go's except.IP.
      const other = parseCIDRSloppy(`${a}/${ip.family === 4 && !a.includes(":") ? 32 : 128}`)!;
      expect(cidrContains(net, other)).toBe(expected);
    });
  });

  it("BigInt mask arithmetic: network = address & mask, mask = prefix ones over 128 bits", () => {
    assertProperty(fc.tuple(u128, prefix6), ([v, p]) => {
      const net = parseCIDRSloppy(`${expandedV6(v)}/${p}`)!;
      const mask = p === 0 ? 0n : ((1n << BigInt(p)) - 1n) << BigInt(128 - p);
      expect(netMaskBig(net)).toBe(mask);
      expect(ipBig(net)).toBe(v & mask);
      expect(net.family).toBe(p >= 96 && (v & mask) >> 32n === MAPPED_PREFIX >> 32n ? 4 : 6);
    });
    assertProperty(fc.tuple(fc.nat({ max: 0xffffffff }), prefix4), ([v, p]) => {
      const net = parseCIDRSloppy(`${dotted(v)}/${p}`)!;
      const mask32 = p === 0 ? 0n : ((1n << BigInt(p)) - 1n) << BigInt(32 - p);
      expect(netMaskBig(net)).toBe((((1n << 96n) - 1n) << 32n) | mask32);
      expect(BigInt(net.w3)).toBe(BigInt(v) & mask32);
    });
  });

  it("validators: same messages as the model for every input", () => {
    assertProperty(fc.oneof(ipText, anyCodeUnits), (s) => {
      expect(isValidIP(s)).toEqual(refIsValidIP(s));
      expect(ipForLegacyField(s, { strict: false })).toEqual(refLegacyIP(s, false));
      expect(ipForLegacyField(s, { strict: true })).toEqual(refLegacyIP(s, true));
    });
    assertProperty(fc.oneof(cidrText, anyCodeUnits), (s) => {
      expect(isValidCIDR(s)).toEqual(refIsValidCIDR(s));
      expect(cidrForLegacyField(s, { strict: false })).toEqual(refLegacyCIDR(s, false));
      expect(cidrForLegacyField(s, { strict: true })).toEqual(refLegacyCIDR(s, true));
    });
  });

  it("formatIP of an IPv6 address is RFC 5952, as the WHATWG URL serialiser prints it", () => {
    assertProperty(
      u128.filter((v) => !isMappedBig(v)),
      (v) => {
        const ip = parseIPSloppy(expandedV6(v))!;
        expect(formatIP(ip)).toBe(new URL(`http://[${expandedV6(v)}]`).hostname.slice(1, -1));
        expect(parseIPSloppy(formatIP(ip))).toEqual(ip);
        expect(isValidIP(formatIP(ip))).toEqual([]);
      },
    );
  });
});

// ===================================================== hand-written tables

interface IPRow {
  value: string;
  /** IsValidIP */
  strictCanonical: string[];
  /** IsValidIPForLegacyField, gate off */
  legacy: string[];
  /** IsValidIPForLegacyField, gate on */
  strict: string[];
}
const ok: string[] = [];
const badIP = [INVALID_IP];
const ipRow = (value: string, strictCanonical: string[], legacy: string[], strict: string[]): IPRow => ({
  value,
  strictCanonical,
  legacy,
  strict,
});

const IP_TABLE: IPRow[] = [
  ipRow("1.2.3.4", ok, ok, ok),
  ipRow("0.0.0.0", ok, ok, ok),
  ipRow("255.255.255.255", ok, ok, ok),
  ipRow("2001:db8::1", ok, ok, ok),
  ipRow("::", ok, ok, ok),
  ipRow("::1", ok, ok, ok),
  ipRow("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ok, ok, ok),
  // leading zeros: decimal for Go 1.16 / ParseIPSloppy, refused by net/netip
  ipRow("010.0.0.1", [IP_LEADING_ZEROS], ok, [IP_LEADING_ZEROS]),
  ipRow("1.1.1.01", [IP_LEADING_ZEROS], ok, [IP_LEADING_ZEROS]),
  ipRow("001.002.003.004", [IP_LEADING_ZEROS], ok, [IP_LEADING_ZEROS]),
  ipRow("0.0.0.00", [IP_LEADING_ZEROS], ok, [IP_LEADING_ZEROS]),
  ipRow("00001::", [IP_LEADING_ZEROS], ok, [IP_LEADING_ZEROS]), // netip: at most 4 hex digits per field
  // IPv4-mapped IPv6
  ipRow("::ffff:1.2.3.4", [IP_MAPPED], ok, [IP_MAPPED]),
  ipRow("::ffff:102:304", [IP_MAPPED], ok, [IP_MAPPED]),
  ipRow("0:0:0:0:0:ffff:1.2.3.4", [IP_MAPPED], ok, [IP_MAPPED]),
  ipRow("::ffff:01.2.3.4", [IP_LEADING_ZEROS], ok, [IP_LEADING_ZEROS]), // netip fails first, so no mapped error
  // valid but not canonical: only IsValidIP cares
  ipRow("::1.2.3.4", [canonical("::102:304")], ok, ok),
  ipRow("2001:DB8::1", [canonical("2001:db8::1")], ok, ok),
  ipRow("0:0:0:0:0:0:0:0", [canonical("::")], ok, ok),
  ipRow("0001:002:03:4::", [canonical("1:2:3:4::")], ok, ok),
  ipRow("1:2:3:4:5:6:7::", [canonical("1:2:3:4:5:6:7:0")], ok, ok),
  ipRow("1:0:0:2:0:0:3:4", [canonical("1::2:0:0:3:4")], ok, ok),
  ipRow("1:0:0:2:0:0:0:4", [canonical("1:0:0:2::4")], ok, ok),
  ipRow("fe80:0:0:0:0:0:0:0abc", [canonical("fe80::abc")], ok, ok),
  // not IP addresses at all
  ipRow("", badIP, badIP, badIP),
  ipRow(" ", badIP, badIP, badIP),
  ipRow(" 1.2.3.4", badIP, badIP, badIP),
  ipRow("1.2.3.4 ", badIP, badIP, badIP),
  ipRow("1.2.3.4\n", badIP, badIP, badIP),
  ipRow("\t::1", badIP, badIP, badIP),
  ipRow("fe80::1%eth0", badIP, badIP, badIP),
  ipRow("169.254.0.0%eth0", badIP, badIP, badIP),
  ipRow("1.2.3.0/24", badIP, badIP, badIP),
  ipRow("1.2.3", badIP, badIP, badIP),
  ipRow("1.2.3.4.5", badIP, badIP, badIP),
  ipRow("1.2.3.256", badIP, badIP, badIP),
  ipRow("1.2.3.400", badIP, badIP, badIP),
  ipRow("-1.0.0.0", badIP, badIP, badIP),
  ipRow("+1.2.3.4", badIP, badIP, badIP),
  ipRow("0x7f.0.0.1", badIP, badIP, badIP),
  ipRow("1.2.3.4:80", badIP, badIP, badIP),
  ipRow("[2001:db8::1]", badIP, badIP, badIP),
  ipRow("[2001:db8::1]:80", badIP, badIP, badIP),
  ipRow("example.com:80", badIP, badIP, badIP),
  ipRow("myhost.mydomain", badIP, badIP, badIP),
  ipRow("aaaaaaa", badIP, badIP, badIP),
  ipRow("2001:db8::10005", badIP, badIP, badIP),
  ipRow("10000::", badIP, badIP, badIP),
  ipRow("1::2::3", badIP, badIP, badIP),
  ipRow(":::", badIP, badIP, badIP),
  ipRow("1:2:3:4:5:6:7:8:9", badIP, badIP, badIP),
  ipRow("::1:2:3:4:5:6:7:8", badIP, badIP, badIP),
  ipRow("1:2:3:4:5:6:7", badIP, badIP, badIP),
  ipRow("1::2:", badIP, badIP, badIP),
  ipRow(":1::2", badIP, badIP, badIP),
  ipRow("1:2:3:4:5:6:7:1.2.3.4", badIP, badIP, badIP),
  ipRow("1.2.3.4::", badIP, badIP, badIP),
  ipRow("::1.2.3", badIP, badIP, badIP),
  ipRow("１.２.３.４", badIP, badIP, badIP), // full-width digits: non-ASCII never parses
  ipRow("1.2.3.\u0664", badIP, badIP, badIP),
  ipRow("1.2.3.4\ud800", badIP, badIP, badIP),
  ipRow("\udc00", badIP, badIP, badIP),
];

interface CIDRRow {
  value: string;
  /** IsValidCIDR */
  strictCanonical: string[];
  /** IsValidCIDRForLegacyField, gate off */
  legacy: string[];
  /** IsValidCIDRForLegacyField, gate on */
  strict: string[];
}
const badCIDR = [INVALID_CIDR];
const cidrRow = (value: string, strictCanonical: string[], legacy: string[], strict: string[]): CIDRRow => ({
  value,
  strictCanonical,
  legacy,
  strict,
});

const CIDR_TABLE: CIDRRow[] = [
  cidrRow("10.0.0.0/8", ok, ok, ok),
  cidrRow("0.0.0.0/0", ok, ok, ok),
  cidrRow("1.1.1.1/32", ok, ok, ok),
  cidrRow("2001:4860:4860::/48", ok, ok, ok),
  cidrRow("::/0", ok, ok, ok),
  cidrRow("::1/128", ok, ok, ok),
  cidrRow("fd00:192:168::/48", ok, ok, ok),
  // host bits
  cidrRow("10.0.0.1/8", [CIDR_HOST_BITS], ok, [CIDR_HOST_BITS]),
  cidrRow("1.2.3.4/24", [CIDR_HOST_BITS], ok, [CIDR_HOST_BITS]),
  cidrRow("2001:db8::1/64", [CIDR_HOST_BITS], ok, [CIDR_HOST_BITS]),
  cidrRow("192.168.5.6/0", [CIDR_HOST_BITS], ok, [CIDR_HOST_BITS]),
  // leading zeros in the address or the prefix length (one message for both)
  cidrRow("001.002.003.000/0", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  cidrRow("1.1.01.0/24", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  cidrRow("192.168.0.0/016", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  cidrRow("10.0.0.0/08", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  cidrRow("10.0.0.0/00", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  cidrRow("2001:db8::/064", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  cidrRow("00001::/16", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  cidrRow("010.0.0.1/8", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]), // one error: the checks are an else-if chain
  cidrRow(`10.0.0.0/${"0".repeat(100)}8`, [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  // IPv4-mapped IPv6, whatever the prefix
  cidrRow("::ffff:10.0.0.0/104", [CIDR_MAPPED], ok, [CIDR_MAPPED]),
  cidrRow("::ffff:1.1.1.0/24", [CIDR_MAPPED], ok, [CIDR_MAPPED]),
  cidrRow("::ffff:1.1.1.0/120", [CIDR_MAPPED], ok, [CIDR_MAPPED]),
  cidrRow("::ffff:1.1.1.1/104", [CIDR_MAPPED], ok, [CIDR_MAPPED]), // mapped wins over host bits
  cidrRow("::ffff:1.2.3.0/33", [CIDR_MAPPED], ok, [CIDR_MAPPED]), // IPv6 text: 33 is a fine prefix
  cidrRow("::ffff:a00:0/104", [CIDR_MAPPED], ok, [CIDR_MAPPED]),
  cidrRow("::ffff:01.1.1.0/120", [CIDR_LEADING_ZEROS], ok, [CIDR_LEADING_ZEROS]),
  // valid but not canonical: only IsValidCIDR cares
  cidrRow("2a00:79e0:2:0::/64", [canonical("2a00:79e0:2::/64")], ok, ok),
  cidrRow("2001:DB8::/64", [canonical("2001:db8::/64")], ok, ok),
  cidrRow("0:0:0:0:0:0:0:0/0", [canonical("::/0")], ok, ok),
  cidrRow("::1.2.3.0/120", [canonical("::102:300/120")], ok, ok),
  // not CIDRs
  cidrRow("", badCIDR, badCIDR, badCIDR),
  cidrRow(" ", badCIDR, badCIDR, badCIDR),
  cidrRow("1.2.3.4", badCIDR, badCIDR, badCIDR),
  cidrRow("fd00::", badCIDR, badCIDR, badCIDR),
  cidrRow("abc", badCIDR, badCIDR, badCIDR),
  cidrRow("192.168.5.6", badCIDR, badCIDR, badCIDR),
  cidrRow("1.2.3.4/33", badCIDR, badCIDR, badCIDR),
  cidrRow("10.0.0.0/33", badCIDR, badCIDR, badCIDR),
  cidrRow("::/129", badCIDR, badCIDR, badCIDR),
  cidrRow("300.300.300.300/32", badCIDR, badCIDR, badCIDR),
  cidrRow("192.168.0.1/healthz", badCIDR, badCIDR, badCIDR),
  cidrRow("192.168.0.1/0/99", badCIDR, badCIDR, badCIDR),
  cidrRow("192.168.0.0/-16", badCIDR, badCIDR, badCIDR),
  cidrRow("192.168.0.0/+16", badCIDR, badCIDR, badCIDR),
  cidrRow("10.0.0.0/ 8", badCIDR, badCIDR, badCIDR),
  cidrRow("10.0.0.0/8 ", badCIDR, badCIDR, badCIDR),
  cidrRow(" 10.0.0.0/8", badCIDR, badCIDR, badCIDR),
  cidrRow("10.0.0.0/", badCIDR, badCIDR, badCIDR),
  cidrRow("/8", badCIDR, badCIDR, badCIDR),
  cidrRow("10.0.0.0/8.0", badCIDR, badCIDR, badCIDR),
  cidrRow("10.0.0.0/0x8", badCIDR, badCIDR, badCIDR),
  cidrRow("fe80::1%eth0/64", badCIDR, badCIDR, badCIDR),
  cidrRow("[2001:db8::]/64", badCIDR, badCIDR, badCIDR),
  cidrRow("10.0.0.0/٨", badCIDR, badCIDR, badCIDR),
];

describe("hand-written tables (exact messages)", () => {
  it.each(IP_TABLE)("IP $value", (row) => {
    expect(isValidIP(row.value)).toEqual(row.strictCanonical);
    expect(ipForLegacyField(row.value, { strict: false })).toEqual(row.legacy);
    expect(ipForLegacyField(row.value, { strict: true })).toEqual(row.strict);
    // And the plain model agrees with the table.
    expect(refIsValidIP(row.value)).toEqual(row.strictCanonical);
    expect(refLegacyIP(row.value, false)).toEqual(row.legacy);
    expect(refLegacyIP(row.value, true)).toEqual(row.strict);
  });

  it.each(CIDR_TABLE)("CIDR $value", (row) => {
    expect(isValidCIDR(row.value)).toEqual(row.strictCanonical);
    expect(cidrForLegacyField(row.value, { strict: false })).toEqual(row.legacy);
    expect(cidrForLegacyField(row.value, { strict: true })).toEqual(row.strict);
    expect(refIsValidCIDR(row.value)).toEqual(row.strictCanonical);
    expect(refLegacyCIDR(row.value, false)).toEqual(row.legacy);
    expect(refLegacyCIDR(row.value, true)).toEqual(row.strict);
  });

  it("the exported message constants are the upstream strings", () => {
    expect(ipMessages.invalidIP).toBe(INVALID_IP);
    expect(ipMessages.ipLeadingZeros).toBe(IP_LEADING_ZEROS);
    expect(ipMessages.ipMapped).toBe(IP_MAPPED);
    expect(ipMessages.invalidCIDR).toBe(INVALID_CIDR);
    expect(ipMessages.cidrLeadingZeros).toBe(CIDR_LEADING_ZEROS);
    expect(ipMessages.cidrMapped).toBe(CIDR_MAPPED);
    expect(ipMessages.cidrHostBits).toBe(CIDR_HOST_BITS);
  });

  it("the update ratchet: a value listed in `allowed` skips every check, in both modes", () => {
    for (const strict of [false, true]) {
      expect(ipForLegacyField("010.1.2.3", { strict, allowed: ["010.1.2.3"] })).toEqual([]);
      expect(ipForLegacyField("not an ip", { strict, allowed: ["not an ip"] })).toEqual([]);
      expect(cidrForLegacyField("10.0.0.1/8", { strict, allowed: ["10.0.0.1/8"] })).toEqual([]);
      expect(cidrForLegacyField("not a cidr", { strict, allowed: ["x", "not a cidr"] })).toEqual([]);
      expect(cidrForLegacyField("10.0.0.0/8", { strict, allowed: [] })).toEqual([]);
      expect(cidrForLegacyField("10.0.0.0/8", { strict, allowed: undefined })).toEqual([]);
    }
    // Exact string match only: the same address spelled differently is checked.
    expect(ipForLegacyField("010.1.2.3", { strict: true, allowed: ["10.1.2.3", "010.001.002.003"] })).toEqual([
      IP_LEADING_ZEROS,
    ]);
    expect(cidrForLegacyField("10.0.0.1/8", { strict: true, allowed: ["10.0.0.0/8"] })).toEqual([CIDR_HOST_BITS]);
    expect(cidrForLegacyField("junk", { strict: false, allowed: ["10.0.0.0/8"] })).toEqual([INVALID_CIDR]);
  });
});

describe("hand-written tables (parse results and Go semantics)", () => {
  it.each([
    // value, network as Go prints it, Mask.Size(), network family, IPFamilyOfCIDRString
    ["10.0.0.1/8", "10.0.0.0/8", 8, 32, 4, 4],
    ["001.002.003.000/0", "0.0.0.0/0", 0, 32, 4, 4],
    ["10.0.0.0/08", "10.0.0.0/8", 8, 32, 4, 4],
    ["1.2.3.4/32", "1.2.3.4/32", 32, 32, 4, 4],
    ["::ffff:10.0.0.0/104", "10.0.0.0/8", 104, 128, 4, 4],
    ["::ffff:10.1.2.3/104", "10.0.0.0/8", 104, 128, 4, 4],
    ["::ffff:1.2.3.4/96", "0.0.0.0/0", 96, 128, 4, 4],
    ["::ffff:1.2.3.4/128", "1.2.3.4/32", 128, 128, 4, 4],
    ["::ffff:1.2.3.4/95", "::fffe:0:0/95", 95, 128, 6, 4],
    ["::ffff:1.2.3.4/24", "::/24", 24, 128, 6, 4],
    ["::ffff:1.2.3.0/33", "::/33", 33, 128, 6, 4],
    ["::/0", "::/0", 0, 128, 6, 6],
    ["2001:db8::1/64", "2001:db8::/64", 64, 128, 6, 6],
    ["2001:DB8:0:0:0:0:0:1/128", "2001:db8::1/128", 128, 128, 6, 6],
    ["::1.2.3.4/128", "::102:304/128", 128, 128, 6, 6],
    [`1.2.3.4/${"0".repeat(1000)}8`, "1.0.0.0/8", 8, 32, 4, 4],
  ] as const)("parseCIDRSloppy(%j)", (value, printed, prefix, bits, family, textFamily) => {
    const net = parseCIDRSloppy(value)!;
    expect(formatCIDR(net)).toBe(printed);
    expect([net.prefix, net.bits, net.family]).toEqual([prefix, bits, family]);
    expect(ipFamilyOfCIDRString(value)).toBe(textFamily);
  });

  it.each([
    ["010.0.0.1", "10.0.0.1", 4],
    ["::ffff:1.2.3.4", "1.2.3.4", 4],
    ["::FFFF:0102:0304", "1.2.3.4", 4],
    ["::1.2.3.4", "::102:304", 6],
    ["1::", "1::", 6],
    [`${"0".repeat(1000)}1.2.3.4`, "1.2.3.4", 4],
    [`::${"0".repeat(1000)}1`, "::1", 6],
  ] as const)("parseIPSloppy(%j) is %s", (value, printed, family) => {
    const ip = parseIPSloppy(value)!;
    expect(formatIP(ip)).toBe(printed);
    expect(ip.family).toBe(family);
  });

  it("parseIPSloppy returns the documented shape", () => {
    expect(parseIPSloppy("10.0.0.1")).toEqual({ family: 4, w0: 0, w1: 0, w2: 0xffff, w3: 0x0a000001 });
    expect(Object.keys(parseIPSloppy("2001:db8::1")!)).toEqual(["family", "w0", "w1", "w2", "w3"]);
    expect(parseIPSloppy("2001:db8::1")).toEqual({ family: 6, w0: 0x20010db8, w1: 0, w2: 0, w3: 1 });
    expect(parseIPSloppy("255.255.255.255")!.w3).toBe(0xffffffff);
    expect(Object.keys(parseCIDRSloppy("10.0.0.0/8")!)).toEqual([
      "family",
      "w0",
      "w1",
      "w2",
      "w3",
      "m0",
      "m1",
      "m2",
      "m3",
      "prefix",
      "bits",
    ]);
  });

  it.each([
    ["10.0.0.0/8", "10.255.255.255", true],
    ["10.0.0.0/8", "11.0.0.0", false],
    ["10.0.0.0/8", "::ffff:10.1.2.3", true],
    ["10.0.0.1/8", "10.200.0.1", true],
    ["0.0.0.0/0", "1.2.3.4", true],
    ["0.0.0.0/0", "2001:db8::1", false],
    ["0.0.0.0/0", "::ffff:1.2.3.4", true],
    ["::ffff:10.0.0.0/104", "10.1.2.3", true],
    ["::ffff:10.0.0.0/104", "::ffff:10.9.9.9", true],
    ["::ffff:10.0.0.0/104", "11.0.0.1", false],
    ["::ffff:0.0.0.0/96", "8.8.8.8", true],
    ["::ffff:1.2.3.4/24", "::1", true],
    ["::ffff:1.2.3.4/24", "1.2.3.4", false],
    ["::ffff:1.2.3.4/24", "::ffff:1.2.3.4", false],
    ["::/0", "2001:db8::1", true],
    ["::/0", "1.2.3.4", false],
    ["::/0", "::ffff:1.2.3.4", false],
    ["2001:db8::/32", "2001:db8:ffff::1", true],
    ["2001:db8::/32", "2001:db9::", false],
    ["::1.2.3.0/120", "::1.2.3.99", true],
    ["::1.2.3.0/120", "1.2.3.99", false],
  ] as const)("cidrContains(%s, %s) is %s", (cidr, ip, expected) => {
    expect(cidrContains(parseCIDRSloppy(cidr)!, parseIPSloppy(ip)!)).toBe(expected);
    expect(refContains(refParseCIDR(cidr)!.net, refParseIP(ip)!)).toBe(expected);
  });

  it.each([
    ["10.0.0.0/8", "10.1.0.0/16", true],
    ["10.0.0.0/8", "10.0.0.0/8", false],
    ["10.0.0.0/16", "10.0.0.0/8", false],
    ["10.0.0.0/8", "11.0.0.0/16", false],
    ["10.0.0.1/8", "10.0.0.0/24", true],
    ["10.0.0.0/8", "::ffff:10.1.0.0/112", true],
    ["10.0.0.0/8", "::ffff:10.0.0.0/104", true],
    ["::ffff:10.0.0.0/104", "10.1.0.0/16", false],
    ["::ffff:10.0.0.0/104", "::ffff:10.1.0.0/112", true],
    ["fd00:192:168::/48", "fd00:192:168:3::/64", true],
    ["fd00:192:168::/48", "fd00:192:169::/64", false],
    ["10.0.0.0/8", "fd00::/64", false],
    ["::/0", "10.0.0.0/8", false],
  ] as const)("exceptIsStrictSubset(%s, %s) is %s", (cidr, except, expected) => {
    expect(exceptIsStrictSubset(parseCIDRSloppy(cidr)!, parseCIDRSloppy(except)!)).toBe(expected);
  });

  it.each([
    ["10.0.0.0/8", 4],
    ["2001:db8::/32", 6],
    ["::ffff:1.2.3.4/24", 4],
    ["::ffff:0:0/96", 4],
    ["010.0.0.0/8", 4],
    ["10.0.0.0", undefined],
    ["", undefined],
    ["::/129", undefined],
  ] as const)("ipFamilyOfCIDRString(%j) is %s", (value, family) => {
    expect(ipFamilyOfCIDRString(value)).toBe(family);
  });
});

// ============================================================ hostile input

describe("hostile input", () => {
  const everything = (s: string): void => {
    parseIPSloppy(s);
    parseCIDRSloppy(s);
    ipFamilyOfCIDRString(s);
    isValidIP(s);
    isValidCIDR(s);
    ipForLegacyField(s, { strict: false });
    ipForLegacyField(s, { strict: true, allowed: [s.slice(1)] });
    cidrForLegacyField(s, { strict: false });
    cidrForLegacyField(s, { strict: true });
  };

  it("never throws on any string of UTF-16 code units", () => {
    assertProperty(fc.oneof(anyCodeUnits, fc.string({ unit: "binary" }), ipText, cidrText), (s) => {
      expect(() => everything(s)).not.toThrow();
    });
  });

  // Hostile strings as a function of their length: each is answered without throwing at 1 MB, and
  // its cost grows linearly with its length (compared between two lengths, not with a budget).
  const MB = 1 << 20;
  const hostile: readonly (readonly [string, (n: number) => string])[] = [
    ["ones", (n) => "1".repeat(n)],
    ["zeros", (n) => "0".repeat(n)],
    ["colons", (n) => ":".repeat(n)],
    ["hex letters", (n) => "f".repeat(n)],
    ["dots", (n) => ".".repeat(n)],
    ["slashes", (n) => "/".repeat(n)],
    ["digit-dot pairs", (n) => "1.".repeat(n / 2)],
    ["digit-colon pairs", (n) => "1:".repeat(n / 2)],
    ["lone surrogates", (n) => "\ud800".repeat(n)],
    ["zeros before an IPv4 address", (n) => `${"0".repeat(n)}1.2.3.4`],
    ["zeros in an IPv6 group", (n) => `::${"0".repeat(n)}1`],
    ["zeros in a prefix length", (n) => `1.2.3.4/${"0".repeat(n)}8`],
    ["ones before a prefix length", (n) => `${"1".repeat(n)}/8`],
    ["nines as a prefix length", (n) => `10.0.0.0/${"9".repeat(n)}`],
  ];

  it("answers 1 MB strings", () => {
    for (const [, make] of hostile) everything(make(MB));
    expect(formatIP(parseIPSloppy(`${"0".repeat(MB)}1.2.3.4`)!)).toBe("1.2.3.4");
    expect(formatIP(parseIPSloppy(`::${"0".repeat(MB)}1`)!)).toBe("::1");
    expect(parseCIDRSloppy(`1.2.3.4/${"0".repeat(MB)}8`)!.prefix).toBe(8);
    expect(parseIPSloppy("1".repeat(MB))).toBeNull();
    expect(parseCIDRSloppy(`10.0.0.0/${"9".repeat(MB)}`)).toBeNull();
  });

  it.each(hostile)("%s: the cost grows linearly with the length", async (name, make) => {
    // The strings are built beforehand, so only the answering is timed; 16 answers per run
    // lift the smaller size above the timer's resolution.
    const built = new Map<number, string>();
    const answer16 = (n: number): void => {
      const s = built.get(n) ?? built.set(n, make(n)).get(n)!;
      for (let i = 0; i < 16; i++) everything(s);
    };
    await expectSubquadratic(name, answer16, 1 << 15, { factor: 16 });
  });
});
