// Building blocks for valid networking.k8s.io/v1 objects: DNS names, label
// keys and values, port names and numbers, HTTP paths, IPs and CIDRs (as
// numbers, rendered canonically or in the legacy spellings the default API
// server still accepts), label selectors and domain-prefixed controller names.
// The rules are the API server's validation, as src/networking/validation implements it.
//
// Everything is built with map() over records, tuples and nat() indexes, never
// chain(), so counterexamples shrink towards short values and index 0.

import fc from "fast-check";
import type { JsonObject } from "../networking/index.js";
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
} from "./addresses.js";

// ------------------------------------------------------------ characters

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT = "0123456789";

/** One character from `set`; shrinks towards the first one. */
function charOf(set: string): fc.Arbitrary<string> {
  return fc.constantFrom(...Array.from(set));
}

function stringOf(set: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: charOf(set), minLength, maxLength });
}

/** Mostly short strings, sometimes close to `max` (fast-check's default size would never get there). */
function lengthMix(set: string, min: number, max: number, shortMax = 12): fc.Arbitrary<string> {
  const short = stringOf(set, min, Math.min(max, Math.max(min, shortMax)));
  if (max <= shortMax) return short;
  return fc.oneof(
    { weight: 6, arbitrary: short },
    { weight: 1, arbitrary: stringOf(set, Math.max(min, max - 8), max) },
  );
}

function fixLabelEdges(s: string): string {
  return s.replace(/^-/, "a").replace(/-$/, "z");
}

// ------------------------------------------------------------ names

/**
 * DNS-1123 label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most `maxLength` (63) characters.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbDns1123Label } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbDns1123Label(), (s) => /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(s) && s.length <= 63));
 * ```
 */
export function arbDns1123Label(maxLength = 63): fc.Arbitrary<string> {
  return lengthMix(LOWER + DIGIT + "-", 1, maxLength).map(fixLabelEdges);
}

/**
 * DNS-1035 label: `[a-z]([-a-z0-9]*[a-z0-9])?`, at most 63 characters (Service names).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbDns1035Label } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbDns1035Label(15), (s) => /^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(s) && s.length <= 15));
 * ```
 */
export function arbDns1035Label(maxLength = 63): fc.Arbitrary<string> {
  return lengthMix(LOWER + DIGIT + "-", 1, maxLength).map((s) => s.replace(/^[^a-z]/, "a").replace(/-$/, "z"));
}

/** Cuts a dotted name to `max` characters, keeping it a valid subdomain. */
function fitSubdomain(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max).replace(/[-.]+$/, "");
}

/**
 * DNS-1123 subdomain of at most `maxLength` (253) characters. Labels may be
 * longer than 63 characters: subdomains have no per-label limit.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbDns1123Subdomain } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbDns1123Subdomain(), (s) => s.length <= 253 && s === s.toLowerCase()));
 * ```
 */
export function arbDns1123Subdomain(maxLength = 253): fc.Arbitrary<string> {
  const set = LOWER + DIGIT + "-";
  const label = fc
    .oneof({ weight: 12, arbitrary: stringOf(set, 1, 10) }, { weight: 1, arbitrary: stringOf(set, 60, 70) })
    .map(fixLabelEdges);
  const normal = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => fitSubdomain(ls.join("."), maxLength));
  const long = fc
    .array(stringOf(set, 40, 70).map(fixLabelEdges), { minLength: 4, maxLength: 7 })
    .map((ls) => fitSubdomain(ls.join("."), maxLength));
  return fc.oneof({ weight: 9, arbitrary: normal }, { weight: 1, arbitrary: long });
}

/**
 * `*.` followed by a DNS-1123 subdomain, at most 253 characters in all.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbWildcardHost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbWildcardHost(), (host) => host.startsWith("*.")));
 * ```
 */
export function arbWildcardHost(): fc.Arbitrary<string> {
  return arbDns1123Subdomain(251).map((s) => `*.${s}`);
}

/**
 * True for what Go's sloppy IPv4 parser (netutils.ParseIPSloppy) accepts:
 * four dot-separated decimal parts, each <= 255, leading zeros allowed.
 */
export function looksLikeIPv4(s: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (m === null) return false;
  return m.slice(1).every((p) => Number(p) <= 255);
}

/**
 * A DNS-1123 subdomain that does not parse as an IP (Ingress rule hosts reject
 * IPs). Numeric look-alikes that are not IPs, like `1.2.3.256`, are kept.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbDnsHost } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbDnsHost(), 3));
 * ```
 */
export function arbDnsHost(): fc.Arbitrary<string> {
  return arbDns1123Subdomain().map((h) => (looksLikeIPv4(h) ? `h${h.slice(1)}` : h));
}

/**
 * An Ingress rule host: a DNS name (not an IP) or a wildcard host.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbIngressHost } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbIngressHost(), 3));
 * ```
 */
export function arbIngressHost(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: arbDnsHost() }, { weight: 1, arbitrary: arbWildcardHost() });
}

// ------------------------------------------------------------ labels

const LABEL_NAME_SET = LOWER + UPPER + DIGIT + "-_.";

/**
 * Qualified-name part / label value body: `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, <= 63.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelName } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabelName(), 3));
 * ```
 */
export function arbLabelName(): fc.Arbitrary<string> {
  return lengthMix(LABEL_NAME_SET, 1, 63).map((s) => s.replace(/^[-_.]/, "a").replace(/[-_.]$/, "z"));
}

/**
 * Label key: a name, or a DNS-1123 subdomain prefix, `/` and a name.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelKey } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabelKey(), 3));
 * ```
 */
export function arbLabelKey(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: arbLabelName() },
    { weight: 1, arbitrary: fc.tuple(arbDns1123Subdomain(), arbLabelName()).map(([p, n]) => `${p}/${n}`) },
  );
}

/**
 * Label value: empty, or a label name (<= 63).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelValue } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabelValue(), 3));
 * ```
 */
export function arbLabelValue(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant("") }, { weight: 4, arbitrary: arbLabelName() });
}

/**
 * Annotation key: a label key, sometimes upper-cased (the API server lower-cases keys before checking).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAnnotationKey } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbAnnotationKey(), 3));
 * ```
 */
export function arbAnnotationKey(): fc.Arbitrary<string> {
  return fc.tuple(arbLabelKey(), fc.nat(3)).map(([k, n]) => (n === 0 ? k.toUpperCase() : k));
}

/**
 * Any annotation value: values are not validated (only the total size).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAnnotationValue } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbAnnotationValue(), 3));
 * ```
 */
export function arbAnnotationValue(): fc.Arbitrary<string> {
  return fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 8 }));
}

function arbMap(
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<string>,
  maxSize: number,
): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(fc.tuple(key, value), { maxLength: maxSize, selector: ([k]) => k })
    .map((entries) => Object.fromEntries(entries) as Record<string, string>);
}

/**
 * Label maps of up to `maxSize` entries, with keys and values the API server accepts.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabels } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabels(5), 3));
 * ```
 */
export function arbLabels(maxSize = 3): fc.Arbitrary<Record<string, string>> {
  return arbMap(arbLabelKey(), arbLabelValue(), maxSize);
}

/**
 * Annotations; keys are unique after lower-casing, as a Go map would need for the JSON key set to matter.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAnnotations } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbAnnotations(5), 3));
 * ```
 */
export function arbAnnotations(maxSize = 3): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(fc.tuple(arbAnnotationKey(), arbAnnotationValue()), { maxLength: maxSize, selector: ([k]) => k })
    .map((entries) => Object.fromEntries(entries) as Record<string, string>);
}

// ------------------------------------------------------------ ports

/**
 * Port number 1..65535, with the edges often.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPortNumber } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbPortNumber(), (port) => port >= 1 && port <= 65535));
 * ```
 */
export function arbPortNumber(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 65535 }) },
    { weight: 1, arbitrary: fc.constantFrom(1, 80, 443, 8080, 65535) },
  );
}

/**
 * `[port, endPort]` with 1 <= port <= endPort <= 65535.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPortRange } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbPortRange(), ([from, to]) => from <= to));
 * ```
 */
export function arbPortRange(): fc.Arbitrary<[number, number]> {
  return fc
    .tuple(arbPortNumber(), fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)))
    .map(([p, n]) => [p, n === Number.MAX_SAFE_INTEGER ? 65535 : p + (n % (65536 - p))]);
}

/**
 * IANA service (port) name: <= 15 characters of `[-a-z0-9]`, at least one
 * letter, no `--`, no leading or trailing `-`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPortName } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbPortName(), (name) => name.length <= 15));
 * ```
 */
export function arbPortName(): fc.Arbitrary<string> {
  return fc.array(stringOf(LOWER + DIGIT, 1, 6), { minLength: 1, maxLength: 4 }).map((parts) => {
    let s = parts.join("-");
    if (s.length > 15) s = s.slice(0, 15).replace(/-+$/, "");
    if (!/[a-z]/.test(s)) s = `a${s.slice(1)}`;
    return s;
  });
}

// ------------------------------------------------------------ HTTP paths

// Exact/Prefix paths only forbid //, /./, /../, %2f, %2F and the /. and /..
// suffixes; regex syntax, spaces and non-ASCII are all accepted.
const PATH_SEGMENT_SET = LOWER + UPPER + DIGIT + "-._~%!$&'()*+,;=:@[]{}^|?\\ é日";

export function arbPathSegment(): fc.Arbitrary<string> {
  return stringOf(PATH_SEGMENT_SET, 1, 8).map((s) => (s === "." || s === ".." ? `${s}x` : s.replace(/%2f/gi, "%2e")));
}

/**
 * A path valid for pathType Exact and Prefix.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAbsolutePath } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbAbsolutePath(), (p) => p.startsWith("/")));
 * ```
 */
export function arbAbsolutePath(): fc.Arbitrary<string> {
  return fc.tuple(fc.array(arbPathSegment(), { maxLength: 4 }), fc.boolean()).map(([segs, trailing]) => {
    const p = `/${segs.join("/")}`;
    return trailing && segs.length > 0 ? `${p}/` : p;
  });
}

/**
 * A path valid for pathType ImplementationSpecific: empty, or anything starting with `/`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbImplementationSpecificPath } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbImplementationSpecificPath(), 3));
 * ```
 */
export function arbImplementationSpecificPath(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(""),
    fc.string({ maxLength: 12 }).map((s) => `/${s}`),
    fc.constantFrom("//", "/../..", "/a%2Fb", "/foo[", "/(.*)", "/api/v[0-9]+/.*", "/./"),
  );
}

/**
 * A path segment name (parameters and resource kind/name): not `.`/`..`, no `/` or `%`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPathSegmentName } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbPathSegmentName(), 3));
 * ```
 */
export function arbPathSegmentName(): fc.Arbitrary<string> {
  const set = LOWER + UPPER + DIGIT + "-._~:@!$&'()*+,;= é";
  return lengthMix(set, 1, 30).map((s) => (s === "." || s === ".." ? `${s}x` : s));
}

// ------------------------------------------------------------ IP addresses and CIDRs

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

// ------------------------------------------------------------ label selectors

/**
 * The operators of a label selector requirement.
 *
 * @example
 * ```ts
 * import { SELECTOR_OPERATORS } from "clusterwire/testing";
 *
 * console.log(SELECTOR_OPERATORS); // [ "In", "NotIn", "Exists", "DoesNotExist" ]
 * ```
 */
export const SELECTOR_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;

/**
 * A valid matchExpressions entry, all four operators used correctly.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelSelectorRequirement, SELECTOR_OPERATORS } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbLabelSelectorRequirement(), (r) => SELECTOR_OPERATORS.includes(r["operator"] as never)));
 * ```
 */
export function arbLabelSelectorRequirement(): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    fc
      .record({
        key: arbLabelKey(),
        operator: fc.constantFrom("In", "NotIn"),
        values: fc.array(arbLabelValue(), { minLength: 1, maxLength: 3 }),
      })
      .map((r) => r as unknown as JsonObject),
    fc
      .tuple(arbLabelKey(), fc.constantFrom("Exists", "DoesNotExist"), fc.boolean())
      .map(([key, operator, emptyValues]) => (emptyValues ? { key, operator, values: [] } : { key, operator })),
  );
}

/**
 * A valid label selector; `{}` (select everything) included.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelSelector } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbLabelSelector(), (selector) => "matchLabels" in selector || "matchExpressions" in selector || Object.keys(selector).length === 0));
 * ```
 */
export function arbLabelSelector(): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      { matchLabels: arbLabels(3), matchExpressions: fc.array(arbLabelSelectorRequirement(), { maxLength: 3 }) },
      { requiredKeys: [] },
    )
    .map((r) => r as unknown as JsonObject);
}

// ------------------------------------------------------------ controller names

const HTTP_PATH_SET = LOWER + UPPER + DIGIT + "/-._~%!$&'()*+,;=:";

/**
 * A domain-prefixed path (IngressClass controller): subdomain `/` path, at most 250 characters.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbControllerName } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbControllerName(), 3));
 * ```
 */
export function arbControllerName(): fc.Arbitrary<string> {
  return fc
    .tuple(arbDns1123Subdomain(100), lengthMix(HTTP_PATH_SET, 1, 250, 16))
    .map(([host, path]) => `${host}/${path}`.slice(0, 250));
}
