// Semantic fast-check arbitraries for networking.k8s.io/v1 validation
// (docs/validation-rules.md, plus upstream ValidateIPAddress/ValidateServiceCIDR
// for the two kinds the catalogue does not cover).
//
// Three layers:
//
// * building blocks: names, label keys/values, port names and numbers, HTTP
//   paths, IPs and CIDRs (as numbers, rendered canonically or in the legacy
//   spellings the default apiserver still accepts), label selectors,
//   domain-prefixed controller names;
// * valid-by-construction objects, as Kubernetes JSON values (`arb*Json`) and
//   as decoded messages (`arbValid*`): every one must validate with no errors
//   under the default feature gates (StrictIPCIDRValidation and
//   RelaxedServiceNameValidation off), on create and as an update of itself;
// * targeted invalid objects: a valid object with exactly one violation applied,
//   together with the single error (type and rendered field path) the API server
//   reports for it.
//
// Everything is built with map() over records, tuples and nat() indexes, never
// chain(), so counterexamples shrink towards small objects and index 0.
//
// Only fast-check and the public API are imported, so the module can move to a
// public `clusterwire/testing` entry point unchanged.

import fc from "fast-check";
import { fromJson, type JsonObject, type JsonValue, type NetworkingObject } from "../../src/networking/index.js";

export const NETWORKING_API_VERSION = "networking.k8s.io/v1";

/** The five validated kinds. */
export const VALIDATED_KINDS = ["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"] as const;
export type ValidatedKind = (typeof VALIDATED_KINDS)[number];

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
  return fc.oneof({ weight: 6, arbitrary: short }, { weight: 1, arbitrary: stringOf(set, Math.max(min, max - 8), max) });
}

function fixLabelEdges(s: string): string {
  return s.replace(/^-/, "a").replace(/-$/, "z");
}

// ------------------------------------------------------------ names

/** DNS-1123 label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most `maxLength` (63) characters. */
export function arbDns1123Label(maxLength = 63): fc.Arbitrary<string> {
  return lengthMix(LOWER + DIGIT + "-", 1, maxLength).map(fixLabelEdges);
}

/** DNS-1035 label: `[a-z]([-a-z0-9]*[a-z0-9])?`, at most 63 characters (Service names). */
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

/** `*.` followed by a DNS-1123 subdomain, at most 253 characters in all. */
export function arbWildcardHost(): fc.Arbitrary<string> {
  return arbDns1123Subdomain(251).map((s) => `*.${s}`);
}

/**
 * True for what Go's sloppy IPv4 parser (netutils.ParseIPSloppy) accepts:
 * four dot-separated decimal parts, each <= 255, leading zeros allowed.
 */
export function looksLikeIPv4(s: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  return m !== null && m.slice(1).every((p) => Number(p) <= 255);
}

/**
 * A DNS-1123 subdomain that does not parse as an IP (Ingress rule hosts reject
 * IPs). Numeric look-alikes that are not IPs, like `1.2.3.256`, are kept.
 */
export function arbDnsHost(): fc.Arbitrary<string> {
  return arbDns1123Subdomain().map((h) => (looksLikeIPv4(h) ? `h${h.slice(1)}` : h));
}

/** An Ingress rule host: a DNS name (not an IP) or a wildcard host. */
export function arbIngressHost(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: arbDnsHost() }, { weight: 1, arbitrary: arbWildcardHost() });
}

// ------------------------------------------------------------ labels

const LABEL_NAME_SET = LOWER + UPPER + DIGIT + "-_.";

/** Qualified-name part / label value body: `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, <= 63. */
export function arbLabelName(): fc.Arbitrary<string> {
  return lengthMix(LABEL_NAME_SET, 1, 63).map((s) => s.replace(/^[-_.]/, "a").replace(/[-_.]$/, "z"));
}

/** Label key: a name, or a DNS-1123 subdomain prefix, `/` and a name. */
export function arbLabelKey(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: arbLabelName() },
    { weight: 1, arbitrary: fc.tuple(arbDns1123Subdomain(), arbLabelName()).map(([p, n]) => `${p}/${n}`) },
  );
}

/** Label value: empty, or a label name (<= 63). */
export function arbLabelValue(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant("") }, { weight: 4, arbitrary: arbLabelName() });
}

/** Annotation key: a label key, sometimes upper-cased (the API server lower-cases keys before checking). */
export function arbAnnotationKey(): fc.Arbitrary<string> {
  return fc.tuple(arbLabelKey(), fc.nat(3)).map(([k, n]) => (n === 0 ? k.toUpperCase() : k));
}

/** Any annotation value: values are not validated (only the total size). */
export function arbAnnotationValue(): fc.Arbitrary<string> {
  return fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 8 }));
}

function arbMap(key: fc.Arbitrary<string>, value: fc.Arbitrary<string>, maxSize: number): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(fc.tuple(key, value), { maxLength: maxSize, selector: ([k]) => k })
    .map((entries) => Object.fromEntries(entries) as Record<string, string>);
}

export function arbLabels(maxSize = 3): fc.Arbitrary<Record<string, string>> {
  return arbMap(arbLabelKey(), arbLabelValue(), maxSize);
}

/** Annotations; keys are unique after lower-casing, as a Go map would need for the JSON key set to matter. */
export function arbAnnotations(maxSize = 3): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(fc.tuple(arbAnnotationKey(), arbAnnotationValue()), { maxLength: maxSize, selector: ([k]) => k })
    .map((entries) => Object.fromEntries(entries) as Record<string, string>);
}

// ------------------------------------------------------------ ports

/** Port number 1..65535, with the edges often. */
export function arbPortNumber(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 65535 }) },
    { weight: 1, arbitrary: fc.constantFrom(1, 80, 443, 8080, 65535) },
  );
}

/** `[port, endPort]` with 1 <= port <= endPort <= 65535. */
export function arbPortRange(): fc.Arbitrary<[number, number]> {
  return fc
    .tuple(arbPortNumber(), fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)))
    .map(([p, n]) => [p, n === Number.MAX_SAFE_INTEGER ? 65535 : p + (n % (65536 - p))]);
}

/**
 * IANA service (port) name: <= 15 characters of `[-a-z0-9]`, at least one
 * letter, no `--`, no leading or trailing `-`.
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

function arbPathSegment(): fc.Arbitrary<string> {
  return stringOf(PATH_SEGMENT_SET, 1, 8).map((s) => (s === "." || s === ".." ? `${s}x` : s.replace(/%2f/gi, "%2e")));
}

/** A path valid for pathType Exact and Prefix. */
export function arbAbsolutePath(): fc.Arbitrary<string> {
  return fc.tuple(fc.array(arbPathSegment(), { maxLength: 4 }), fc.boolean()).map(([segs, trailing]) => {
    const p = `/${segs.join("/")}`;
    return trailing && segs.length > 0 ? `${p}/` : p;
  });
}

/** A path valid for pathType ImplementationSpecific: empty, or anything starting with `/`. */
export function arbImplementationSpecificPath(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(""),
    fc.string({ maxLength: 12 }).map((s) => `/${s}`),
    fc.constantFrom("//", "/../..", "/a%2Fb", "/foo[", "/(.*)", "/api/v[0-9]+/.*", "/./"),
  );
}

/** A path segment name (parameters and resource kind/name): not `.`/`..`, no `/` or `%`. */
export function arbPathSegmentName(): fc.Arbitrary<string> {
  const set = LOWER + UPPER + DIGIT + "-._~:@!$&'()*+,;= é";
  return lengthMix(set, 1, 30).map((s) => (s === "." || s === ".." ? `${s}x` : s));
}

// ------------------------------------------------------------ IP addresses and CIDRs

export type IPFamily = 4 | 6;

/** A network as numbers: `address` is masked to `prefix` bits. */
export interface IPNet {
  readonly family: IPFamily;
  readonly prefix: number;
  readonly address: bigint;
}

export function familyBits(family: IPFamily): number {
  return family === 4 ? 32 : 128;
}

function hostMask(family: IPFamily, prefix: number): bigint {
  return (1n << BigInt(familyBits(family) - prefix)) - 1n;
}

export function maskAddress(family: IPFamily, address: bigint, prefix: number): bigint {
  const all = (1n << BigInt(familyBits(family))) - 1n;
  return address & all & ~hostMask(family, prefix);
}

/** True for ::ffff:0:0/96, which strict validation rejects as IPv4-mapped. */
function isV4Mapped(address: bigint): boolean {
  return address >> 32n === 0xffffn;
}

export function formatIPv4(address: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((address >> s) & 0xffn)).join(".");
}

function ipv6Groups(address: bigint): number[] {
  const g: number[] = [];
  for (let i = 7; i >= 0; i--) g.push(Number((address >> BigInt(i * 16)) & 0xffffn));
  return g;
}

/** RFC 5952 text, as Go's net.IP.String() and netip.Addr.String() write it (not for IPv4-mapped). */
export function formatIPv6(address: bigint): string {
  const g = ipv6Groups(address);
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (xs: number[]): string => xs.map((x) => x.toString(16)).join(":");
  if (bestLen < 2) return hex(g);
  return `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}

export function formatIP(family: IPFamily, address: bigint): string {
  return family === 4 ? formatIPv4(address) : formatIPv6(address);
}

/** Canonical CIDR text (what Go's IPNet.String() writes). */
export function formatCidr(net: IPNet): string {
  return `${formatIP(net.family, net.address)}/${net.prefix}`;
}

const MAX_V6 = (1n << 128n) - 1n;

/** Random 128-bit values with runs of zero groups (so `::` compression gets exercised). */
function arbV6Bits(): fc.Arbitrary<bigint> {
  return fc.tuple(fc.bigInt({ min: 0n, max: MAX_V6 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 })).map(([v, keep]) => {
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

/** An IP address (as a number) valid for IsValidIP: IPv6 never IPv4-mapped. */
export function arbIPValue(family?: IPFamily): fc.Arbitrary<{ family: IPFamily; address: bigint }> {
  return fc.tuple(arbFamily(family), arbAddressBits(4), arbAddressBits(6)).map(([f, v4, v6]) => ({
    family: f,
    address: f === 4 ? v4 : isV4Mapped(v6) ? v6 | (1n << 127n) : v6,
  }));
}

/** A canonical IP string (IPAddress metadata.name): what apimachinery's strict IsValidIP accepts. */
export function arbCanonicalIP(family?: IPFamily): fc.Arbitrary<string> {
  return arbIPValue(family).map(({ family: f, address }) => formatIP(f, address));
}

/** A network with a canonical address; IPv6 never in ::ffff:0:0/96. */
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

/** Canonical, strict CIDR text (ServiceCIDR spec.cidrs entries). */
export function arbCanonicalCidr(family?: IPFamily): fc.Arbitrary<string> {
  return arbIPNet(family).map(formatCidr);
}

/**
 * How a legacy CIDR field (ipBlock cidr/except) may spell a network and still be
 * accepted by the default apiserver (StrictIPCIDRValidation off).
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
 */
export function arbLegacyOnlyCidr(): fc.Arbitrary<string> {
  return fc
    .tuple(arbIPNet(), fc.constantFrom<LegacyCidrStyle>("hostBits", "leadingZeros", "prefixZero", "v4mapped"), fc.bigInt({ min: 1n, max: MAX_V6 }))
    .map(([net, style, noise]) => {
      const bits = familyBits(net.family);
      if (style === "hostBits") {
        const n = net.prefix === bits ? { ...net, prefix: bits - 1, address: maskAddress(net.family, net.address, bits - 1) } : net;
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
    { weight: 1, arbitrary: fc.constantFrom<LegacyCidrStyle>("hostBits", "leadingZeros", "prefixZero", "expanded", "v4mapped") },
  );
}

export interface IPBlockOptions {
  /**
   * Also use the spellings only the legacy (default) parser accepts: host bits,
   * leading zeros, IPv4-mapped IPv6. Default true. Set false for objects that
   * must also pass with StrictIPCIDRValidation on.
   */
  readonly legacy?: boolean;
  readonly family?: IPFamily;
}

/** A valid ipBlock: a cidr and 0..3 `except` entries, each a strict subset of the cidr. */
export function arbIPBlock(options: IPBlockOptions = {}): fc.Arbitrary<JsonObject> {
  const legacy = options.legacy !== false;
  const except = fc.tuple(fc.nat(), fc.bigInt({ min: 0n, max: MAX_V6 }), arbLegacyStyle(legacy), fc.bigInt({ min: 0n, max: MAX_V6 }));
  return fc
    .tuple(arbIPNet(options.family), arbLegacyStyle(legacy), fc.bigInt({ min: 0n, max: MAX_V6 }), fc.array(except, { maxLength: 3 }), fc.nat(2))
    .map(([net, style, noise, excepts, exceptKey]) => {
      const bits = familyBits(net.family);
      const out: JsonObject = {};
      const list: string[] = [];
      if (net.prefix < bits) {
        for (const [n, raw, s, xNoise] of excepts) {
          const q = net.prefix + 1 + (n % (bits - net.prefix));
          const address = maskAddress(net.family, net.address | (raw & hostMask(net.family, net.prefix)), q);
          // An IPv4-mapped except or cidr never contains anything (Go's IPNet.Contains compares lengths).
          list.push(formatLegacyCidr({ family: net.family, prefix: q, address }, s === "v4mapped" ? "canonical" : s, xNoise));
        }
      }
      out["cidr"] = formatLegacyCidr(net, list.length > 0 && style === "v4mapped" ? "canonical" : style, noise);
      if (list.length > 0 || exceptKey === 1) out["except"] = list;
      return out;
    });
}

// ------------------------------------------------------------ label selectors

export const SELECTOR_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;

/** A valid matchExpressions entry, all four operators used correctly. */
export function arbLabelSelectorRequirement(): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    fc
      .record({ key: arbLabelKey(), operator: fc.constantFrom("In", "NotIn"), values: fc.array(arbLabelValue(), { minLength: 1, maxLength: 3 }) })
      .map((r) => r as unknown as JsonObject),
    fc
      .tuple(arbLabelKey(), fc.constantFrom("Exists", "DoesNotExist"), fc.boolean())
      .map(([key, operator, emptyValues]) => (emptyValues ? { key, operator, values: [] } : { key, operator })),
  );
}

/** A valid label selector; `{}` (select everything) included. */
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

/** A domain-prefixed path (IngressClass controller): subdomain `/` path, at most 250 characters. */
export function arbControllerName(): fc.Arbitrary<string> {
  return fc
    .tuple(arbDns1123Subdomain(100), lengthMix(HTTP_PATH_SET, 1, 250, 16))
    .map(([host, path]) => `${host}/${path}`.slice(0, 250));
}

// ------------------------------------------------------------ ObjectMeta

export interface MetaOptions {
  /** Namespaced kinds may carry metadata.namespace (a DNS-1123 label) or leave it to the request. */
  readonly namespaced: boolean;
  /** metadata.name; default a DNS-1123 subdomain. */
  readonly name?: fc.Arbitrary<string>;
}

export function arbObjectMeta(options: MetaOptions): fc.Arbitrary<JsonObject> {
  const model: Record<string, fc.Arbitrary<unknown>> = {
    name: options.name ?? arbDns1123Subdomain(),
    labels: arbLabels(),
    annotations: arbAnnotations(),
  };
  if (options.namespaced) model["namespace"] = arbDns1123Label();
  return fc.record(model, { requiredKeys: ["name"] }).map((m) => m as JsonObject);
}

function object(kind: ValidatedKind, metadata: JsonObject, spec: JsonObject | undefined, extra: JsonObject = {}): JsonObject {
  const out: JsonObject = { apiVersion: NETWORKING_API_VERSION, kind, metadata };
  if (spec !== undefined) out["spec"] = spec;
  return { ...out, ...extra };
}

/** Drops undefined values so the object is a JSON value. */
function compact(o: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

// ------------------------------------------------------------ Ingress

export const INGRESS_CLASS_ANNOTATION = "kubernetes.io/ingress.class";

export function arbServiceBackend(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(arbDns1035Label(), fc.oneof(arbPortNumber().map((number) => ({ number })), arbPortName().map((name) => ({ name }))))
    .map(([name, port]) => ({ service: { name, port } }));
}

export function arbResourceBackend(): fc.Arbitrary<JsonObject> {
  return fc
    .record({ apiGroup: arbDns1123Subdomain(), kind: arbPathSegmentName(), name: arbPathSegmentName() }, { requiredKeys: ["kind", "name"] })
    .map((resource) => ({ resource: resource as JsonObject }));
}

/** A valid IngressBackend: a Service (port by number or name) or a typed resource. */
export function arbIngressBackend(): fc.Arbitrary<JsonObject> {
  return fc.oneof({ weight: 3, arbitrary: arbServiceBackend() }, { weight: 1, arbitrary: arbResourceBackend() });
}

/** A valid HTTPIngressPath for each pathType. */
export function arbHttpIngressPath(): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    fc
      .tuple(fc.constantFrom("Prefix", "Exact"), arbAbsolutePath(), arbIngressBackend())
      .map(([pathType, path, backend]) => ({ path, pathType, backend })),
    fc
      .tuple(fc.option(arbImplementationSpecificPath(), { nil: undefined }), arbIngressBackend())
      .map(([path, backend]) => compact({ path, pathType: "ImplementationSpecific", backend })),
  );
}

/** A valid IngressRule; `{}` and host-only rules included. */
export function arbIngressRule(): fc.Arbitrary<JsonObject> {
  return fc
    .record({ host: arbIngressHost(), paths: fc.array(arbHttpIngressPath(), { minLength: 1, maxLength: 3 }) }, { requiredKeys: [] })
    .map((r) => compact({ host: r.host, http: r.paths === undefined ? undefined : { paths: r.paths } }));
}

/** A valid IngressTLS; hosts may be IPv4 literals (no IP check in TLS). */
export function arbIngressTLS(): fc.Arbitrary<JsonObject> {
  const host = fc.oneof(
    { weight: 4, arbitrary: arbDns1123Subdomain() },
    { weight: 2, arbitrary: arbWildcardHost() },
    { weight: 1, arbitrary: arbCanonicalIP(4) },
  );
  return fc
    .record({ hosts: fc.array(host, { maxLength: 3 }), secretName: arbDns1123Subdomain() }, { requiredKeys: [] })
    .map((t) => t as unknown as JsonObject);
}

/** A valid Ingress status (only read by the status subresource). */
export function arbIngressStatus(): fc.Arbitrary<JsonObject> {
  const entry = fc
    .record(
      {
        // A legacy IP field: leading zeros, IPv4-mapped and non-canonical IPv6 are accepted by default.
        ip: fc.oneof(
          { weight: 4, arbitrary: arbCanonicalIP() },
          { weight: 1, arbitrary: arbCanonicalIP(4).map((ip) => `0${ip}`) },
          { weight: 1, arbitrary: arbCanonicalIP(4).map((ip) => `::ffff:${ip}`) },
          { weight: 1, arbitrary: arbCanonicalIP(6).map((ip) => ip.toUpperCase()) },
        ),
        hostname: arbDnsHost(),
        // Ports, protocols and errors are not validated by the API server.
        ports: fc.array(
          fc.record({ port: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), protocol: fc.string({ maxLength: 6 }), error: fc.string({ maxLength: 400 }) }, { requiredKeys: ["port", "protocol"] }),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    )
    .map((e) => e as unknown as JsonObject);
  return fc.array(entry, { maxLength: 3 }).map((ingress) => ({ loadBalancer: { ingress } }));
}

/**
 * A valid Ingress as Kubernetes JSON: rules with DNS or wildcard hosts and
 * http paths of all three types, Service and resource backends, an optional
 * defaultBackend (always present when there are no rules), TLS entries,
 * ingressClassName, and sometimes the class annotation (equal to
 * ingressClassName when that is set).
 */
export function arbIngressJson(): fc.Arbitrary<JsonObject> {
  return fc
    .record({
      metadata: arbObjectMeta({ namespaced: true }),
      defaultBackend: arbIngressBackend(),
      useDefault: fc.boolean(),
      rules: fc.array(arbIngressRule(), { maxLength: 3 }),
      tls: fc.option(fc.array(arbIngressTLS(), { maxLength: 2 }), { nil: undefined }),
      className: fc.option(arbDns1123Subdomain(), { nil: undefined, freq: 2 }),
      annotation: fc.option(fc.string({ maxLength: 10 }), { nil: undefined, freq: 2 }),
      status: fc.option(arbIngressStatus(), { nil: undefined, freq: 4 }),
    })
    .map((r) => {
      const metadata: JsonObject = { ...r.metadata };
      if (r.annotation !== undefined) {
        // With ingressClassName set, the annotation (create-only check) must equal it.
        const value = r.className ?? r.annotation;
        metadata["annotations"] = { ...((metadata["annotations"] as JsonObject | undefined) ?? {}), [INGRESS_CLASS_ANNOTATION]: value };
      }
      const spec = compact({
        defaultBackend: r.useDefault || r.rules.length === 0 ? r.defaultBackend : undefined,
        rules: r.rules.length > 0 ? r.rules : undefined,
        tls: r.tls,
        ingressClassName: r.className,
      });
      return object("Ingress", metadata, spec, r.status === undefined ? {} : { status: r.status });
    });
}

// ------------------------------------------------------------ IngressClass

/** Valid parameters: scope absent (defaulted to Cluster), Cluster, or Namespace with a namespace. */
export function arbIngressClassParameters(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(
      fc.option(arbDns1123Subdomain(), { nil: undefined }),
      arbPathSegmentName(),
      arbPathSegmentName(),
      fc.constantFrom("default", "Cluster", "Namespace"),
      arbDns1123Label(),
    )
    .map(([apiGroup, kind, name, scope, namespace]) =>
      compact({
        apiGroup,
        kind,
        name,
        scope: scope === "default" ? undefined : scope,
        namespace: scope === "Namespace" ? namespace : undefined,
      }),
    );
}

export function arbIngressClassJson(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(arbObjectMeta({ namespaced: false }), arbControllerName(), fc.option(arbIngressClassParameters(), { nil: undefined }))
    .map(([metadata, controller, parameters]) => object("IngressClass", metadata, compact({ controller, parameters })));
}

// ------------------------------------------------------------ NetworkPolicy

/** A valid NetworkPolicyPort: protocol TCP/UDP/SCTP or absent; numeric port (maybe with endPort) or named port or none. */
export function arbNetworkPolicyPort(): fc.Arbitrary<JsonObject> {
  const protocol = fc.option(fc.constantFrom("TCP", "UDP", "SCTP"), { nil: undefined });
  const port = fc.oneof(
    arbPortNumber().map((p): [JsonValue | undefined, number | undefined] => [p, undefined]),
    arbPortRange().map(([p, e]): [JsonValue | undefined, number | undefined] => [p, e]),
    arbPortName().map((n): [JsonValue | undefined, number | undefined] => [n, undefined]),
    fc.constant<[JsonValue | undefined, number | undefined]>([undefined, undefined]),
  );
  return fc.tuple(protocol, port).map(([protocol, [p, endPort]]) => compact({ protocol, port: p, endPort }));
}

/** A valid peer: podSelector, namespaceSelector, both, or an ipBlock alone. */
export function arbNetworkPolicyPeer(options: IPBlockOptions = {}): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    arbLabelSelector().map((podSelector) => ({ podSelector })),
    arbLabelSelector().map((namespaceSelector) => ({ namespaceSelector })),
    fc.tuple(arbLabelSelector(), arbLabelSelector()).map(([podSelector, namespaceSelector]) => ({ podSelector, namespaceSelector })),
    arbIPBlock(options).map((ipBlock) => ({ ipBlock })),
  );
}

function arbPolicyRule(peerKey: "from" | "to", options: IPBlockOptions): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      { ports: fc.array(arbNetworkPolicyPort(), { maxLength: 3 }), peers: fc.array(arbNetworkPolicyPeer(options), { maxLength: 3 }) },
      { requiredKeys: [] },
    )
    .map((r) => compact({ ports: r.ports, [peerKey]: r.peers }));
}

export function arbNetworkPolicyJson(options: IPBlockOptions = {}): fc.Arbitrary<JsonObject> {
  const spec = fc.record(
    {
      podSelector: arbLabelSelector(),
      policyTypes: fc.array(fc.constantFrom("Ingress", "Egress"), { maxLength: 2 }),
      ingress: fc.array(arbPolicyRule("from", options), { maxLength: 3 }),
      egress: fc.array(arbPolicyRule("to", options), { maxLength: 3 }),
    },
    { requiredKeys: ["podSelector"] },
  );
  return fc
    .tuple(arbObjectMeta({ namespaced: true }), spec)
    .map(([metadata, s]) => object("NetworkPolicy", metadata, s as unknown as JsonObject));
}

// ------------------------------------------------------------ IPAddress

export function arbParentReference(): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      {
        group: fc.oneof(fc.constant(""), arbDns1123Subdomain()),
        resource: arbPathSegmentName(),
        // A DNS-1123 label satisfies both upstream variants (path segment / namespace name).
        namespace: arbDns1123Label(),
        name: arbPathSegmentName(),
      },
      { requiredKeys: ["resource", "name"] },
    )
    .map((r) => r as unknown as JsonObject);
}

/** A valid IPAddress: metadata.name a canonical IP (strict IsValidIP), spec.parentRef with resource and name. */
export function arbIPAddressJson(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(arbObjectMeta({ namespaced: false, name: arbCanonicalIP() }), arbParentReference())
    .map(([metadata, parentRef]) => object("IPAddress", metadata, { parentRef }));
}

// ------------------------------------------------------------ ServiceCIDR

/** spec.cidrs: one canonical CIDR, or one of each family in either order. */
export function arbServiceCidrs(): fc.Arbitrary<string[]> {
  return fc.tuple(arbCanonicalCidr(4), arbCanonicalCidr(6), fc.constantFrom("4", "6", "46", "64")).map(([v4, v6, shape]) => {
    switch (shape) {
      case "4":
        return [v4];
      case "6":
        return [v6];
      case "46":
        return [v4, v6];
      default:
        return [v6, v4];
    }
  });
}

export function arbServiceCIDRJson(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(arbObjectMeta({ namespaced: false }), arbServiceCidrs())
    .map(([metadata, cidrs]) => object("ServiceCIDR", metadata, { cidrs }));
}

// ------------------------------------------------------------ valid objects by kind

const VALID_JSON: Record<ValidatedKind, () => fc.Arbitrary<JsonObject>> = {
  Ingress: arbIngressJson,
  IngressClass: arbIngressClassJson,
  NetworkPolicy: () => arbNetworkPolicyJson(),
  IPAddress: arbIPAddressJson,
  ServiceCIDR: arbServiceCIDRJson,
};

/** A valid object of `kind` as Kubernetes JSON. */
export function arbValidJson(kind: ValidatedKind): fc.Arbitrary<JsonObject> {
  return VALID_JSON[kind]();
}

/** A valid object of `kind`, decoded. */
export function arbValidObject(kind: ValidatedKind): fc.Arbitrary<NetworkingObject> {
  return arbValidJson(kind).map((j) => fromJson(j));
}

/** A valid object of any of the five kinds, as JSON. */
export function arbAnyValidJson(): fc.Arbitrary<JsonObject> {
  return fc.oneof(...VALIDATED_KINDS.map((k) => arbValidJson(k)));
}

// ------------------------------------------------------------ targeted invalid objects

export type ExpectedErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong";

export interface ExpectedError {
  readonly type: ExpectedErrorType;
  /** The rendered path (`field.Path.String()`), e.g. `spec.rules[0].host`. */
  readonly field: string;
}

export interface TargetedInvalid {
  readonly kind: ValidatedKind;
  /** The mutation's name, e.g. `ingress.host.wildcard-inside`. */
  readonly mutation: string;
  /** The invalid object as Kubernetes JSON. */
  readonly json: JsonObject;
  readonly object: NetworkingObject;
  /** The single error the API server reports for it. */
  readonly expected: ExpectedError;
}

export interface Mutation {
  readonly name: string;
  readonly kind: ValidatedKind;
  /** Catalogue section (or upstream function) the expectation comes from. */
  readonly rule: string;
  readonly arbitrary: fc.Arbitrary<TargetedInvalid>;
}

// The mutation functions edit a structuredClone of the generated JSON in place.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const REQUIRED = "FieldValueRequired";
const INVALID = "FieldValueInvalid";
const NOT_SUPPORTED = "FieldValueNotSupported";
const FORBIDDEN = "FieldValueForbidden";
const TOO_LONG = "FieldValueTooLong";

function mutation<P>(
  name: string,
  kind: ValidatedKind,
  rule: string,
  params: fc.Arbitrary<P>,
  apply: (o: Obj, p: P) => ExpectedError,
): Mutation {
  const arbitrary = fc.tuple(arbValidJson(kind), params).map(([base, p]): TargetedInvalid => {
    const json = structuredClone(base) as Obj;
    const expected = apply(json, p);
    const t: TargetedInvalid = { kind, mutation: name, json: json as JsonObject, object: fromJson(json as JsonObject), expected };
    // Counterexamples print as the JSON and the expectation, not the decoded message.
    Object.defineProperty(t, fc.toStringMethod, {
      value: () => `${name}: ${stringifyJson(json)} -> ${expected.type} ${expected.field}`,
      enumerable: false,
    });
    return t;
  });
  return { name, kind, rule, arbitrary };
}

function stringifyJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)).replace(/"x{40,}"/g, (m) => `"x...(${m.length - 2})"`);
}

const err = (type: ExpectedErrorType, field: string): ExpectedError => ({ type, field });

function ensureObj(o: Obj, key: string): Obj {
  const v = o[key];
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Obj;
  const fresh: Obj = {};
  o[key] = fresh;
  return fresh;
}

function ensureArr(o: Obj, key: string): Obj[] {
  const v = o[key];
  if (Array.isArray(v)) return v as Obj[];
  const fresh: Obj[] = [];
  o[key] = fresh;
  return fresh;
}

function pick<T>(xs: readonly T[], n: number): T {
  return xs[n % xs.length] as T;
}

// ---- shared metadata mutations

/** Names that fail NameIsDNSSubdomain with exactly one message. */
const BAD_SUBDOMAIN_NAMES = ["Bad_Name", "UPPER", "-lead", "trail-", "a..b", "a b", "x.", "a".repeat(254), `${"a".repeat(200)}.${"b".repeat(54)}`];
/** Label keys failing IsQualifiedName with exactly one message. */
const BAD_LABEL_KEYS = ["a/b/c", "-a", "a_", "has space", "example.com/-x", "Example_.com/x", "a".repeat(64), "/x"];
/** Label values failing IsValidLabelValue with exactly one message. */
const BAD_LABEL_VALUES = ["-a", "a-", "_", "a b", "a/b", "a".repeat(64), "é"];
/** Annotation keys failing IsQualifiedName (after lower-casing) with exactly one message. */
const BAD_ANNOTATION_KEYS = ["a b", "-a", "a/b/c", "_x", "Example.COM/-X"];

function metaMutations(kind: ValidatedKind): Mutation[] {
  const out: Mutation[] = [
    mutation(`${kind}.meta.name-missing`, kind, "§4 metadata.name Required", fc.boolean(), (o, explicit) => {
      const m = ensureObj(o, "metadata");
      if (explicit) m["name"] = "";
      else delete m["name"];
      delete m["generateName"];
      return err(REQUIRED, "metadata.name");
    }),
    mutation(`${kind}.meta.label-value`, kind, "§4 metadata.labels value", fc.tuple(fc.constantFrom(...BAD_LABEL_VALUES), arbLabelKey()), (o, [v, k]) => {
      const labels = ensureObj(ensureObj(o, "metadata"), "labels");
      labels[k] = v;
      return err(INVALID, "metadata.labels");
    }),
    mutation(`${kind}.meta.label-key`, kind, "§4 metadata.labels key", fc.tuple(fc.constantFrom(...BAD_LABEL_KEYS), arbLabelValue()), (o, [k, v]) => {
      ensureObj(ensureObj(o, "metadata"), "labels")[k] = v;
      return err(INVALID, "metadata.labels");
    }),
    mutation(`${kind}.meta.annotation-key`, kind, "§4 metadata.annotations key", fc.tuple(fc.constantFrom(...BAD_ANNOTATION_KEYS), arbAnnotationValue()), (o, [k, v]) => {
      ensureObj(ensureObj(o, "metadata"), "annotations")[k] = v;
      return err(INVALID, "metadata.annotations");
    }),
    mutation(`${kind}.meta.annotations-too-long`, kind, "§4 metadata.annotations > 256 KiB", fc.nat(100), (o, extra) => {
      const annotations = ensureObj(ensureObj(o, "metadata"), "annotations");
      annotations["example.com/big"] = "x".repeat(262144 + extra);
      return err(TOO_LONG, "metadata.annotations");
    }),
  ];
  if (kind !== "IPAddress") {
    out.push(
      mutation(`${kind}.meta.name-invalid`, kind, "§4 metadata.name DNS-1123 subdomain", fc.constantFrom(...BAD_SUBDOMAIN_NAMES), (o, name) => {
        ensureObj(o, "metadata")["name"] = name;
        return err(INVALID, "metadata.name");
      }),
    );
  }
  return out;
}

// ---- Ingress

const FALLBACK_PATH: Obj = { path: "/", pathType: "Prefix", backend: { service: { name: "svc", port: { number: 80 } } } };

interface PathSite {
  readonly at: string;
  readonly path: Obj;
}

/** A path entry chosen by `n`; adds a rule with one path when there is none. */
function ingressPathSite(o: Obj, n: number): PathSite {
  const spec = ensureObj(o, "spec");
  const rules = ensureArr(spec, "rules");
  const sites: PathSite[] = [];
  rules.forEach((r, i) => {
    const paths = r["http"]?.["paths"];
    if (Array.isArray(paths)) paths.forEach((p: Obj, j: number) => sites.push({ at: `spec.rules[${i}].http.paths[${j}]`, path: p }));
  });
  if (sites.length > 0) return pick(sites, n);
  const path = structuredClone(FALLBACK_PATH);
  rules.push({ http: { paths: [path] } });
  return { at: `spec.rules[${rules.length - 1}].http.paths[0]`, path };
}

interface BackendSite {
  readonly at: string;
  readonly set: (b: Obj) => void;
}

/** A backend (defaultBackend or a path's) chosen by `n`. */
function ingressBackendSite(o: Obj, n: number): BackendSite {
  const spec = ensureObj(o, "spec");
  const sites: BackendSite[] = [];
  if (spec["defaultBackend"] !== undefined) sites.push({ at: "spec.defaultBackend", set: (b) => (spec["defaultBackend"] = b) });
  for (const [i, r] of (Array.isArray(spec["rules"]) ? (spec["rules"] as Obj[]) : []).entries()) {
    const paths = r["http"]?.["paths"];
    if (Array.isArray(paths)) {
      paths.forEach((p: Obj, j: number) => sites.push({ at: `spec.rules[${i}].http.paths[${j}].backend`, set: (b) => (p["backend"] = b) }));
    }
  }
  if (sites.length > 0) return pick(sites, n);
  const site = ingressPathSite(o, 0);
  return { at: `${site.at}.backend`, set: (b) => (site.path["backend"] = b) };
}

function ingressRuleIndex(o: Obj, n: number): number {
  const rules = ensureArr(ensureObj(o, "spec"), "rules");
  if (rules.length === 0) rules.push({});
  return n % rules.length;
}

const BAD_RULE_HOSTS = ["foo.*.example.com", "*", "*foo.com", "*.*.foo.com", "Foo.com", "foo.com.", "foo_bar.com", "foo.com:80", "10.0.0.1", "1.2.3.4", "010.0.0.1"];
const BAD_TLS_HOSTS = ["foo.*.example.com", "*", "*foo.com", "Foo.com", "foo_bar.com", "foo.com:80"];
const BAD_PATH_SEQUENCES = ["//x", "/./x", "/../x", "/%2fx", "/%2Fx", "/a//"];
const BAD_PATH_TYPES = ["", "prefix", "exact", "implementationSpecific", "Regex", "PREFIX"];
const BAD_PORT_NAMES = ["80", "-http", "http-", "a--b", "abcdefghijklmnop", "http_x", "web.1"];
const BAD_PORT_NUMBERS = [65536, 70000, -1, -80, 2147483647, -2147483648];
const BAD_SERVICE_NAMES = ["1abc", "Svc", "svc.ns", "svc_1", "-svc", "a".repeat(64)];
const BAD_SEGMENT_NAMES = [".", "..", "a/b", "a%b", "%", "/"];
const BAD_SUBDOMAINS_INCL_EMPTY = ["", "Bad_Group", "example.com.", "UPPER.io", "a".repeat(254)];
const BAD_SECRET_NAMES = ["ns/name", "Secret", "my_secret", "a".repeat(254), ".secret"];

function ingressMutations(): Mutation[] {
  const K: ValidatedKind = "Ingress";
  return [
    mutation("ingress.spec.no-rules-no-default", K, "§5.1 spec", fc.constant(null), (o) => {
      const spec = ensureObj(o, "spec");
      delete spec["rules"];
      delete spec["defaultBackend"];
      return err(INVALID, "spec");
    }),
    mutation("ingress.host.invalid", K, "§5.2 host", fc.tuple(fc.nat(), fc.constantFrom(...BAD_RULE_HOSTS)), (o, [n, host]) => {
      const i = ingressRuleIndex(o, n);
      o["spec"]["rules"][i]["host"] = host;
      return err(INVALID, `spec.rules[${i}].host`);
    }),
    mutation("ingress.host.too-long", K, "§5.2 host > 253 (Invalid, not TooLong)", fc.tuple(fc.nat(), fc.integer({ min: 254, max: 300 })), (o, [n, len]) => {
      const i = ingressRuleIndex(o, n);
      o["spec"]["rules"][i]["host"] = `${"a".repeat(63)}.`.repeat(5).slice(0, len - 1) + "z";
      return err(INVALID, `spec.rules[${i}].host`);
    }),
    mutation("ingress.host.wildcard-too-long", K, "§5.2 wildcard host > 253", fc.nat(), (o, n) => {
      const i = ingressRuleIndex(o, n);
      o["spec"]["rules"][i]["host"] = `*.${"b".repeat(100)}.${"c".repeat(151)}`; // 254
      return err(INVALID, `spec.rules[${i}].host`);
    }),
    mutation("ingress.http.paths-empty", K, "§5.3 paths Required", fc.tuple(fc.nat(), fc.boolean()), (o, [n, explicit]) => {
      const i = ingressRuleIndex(o, n);
      o["spec"]["rules"][i]["http"] = explicit ? { paths: [] } : {};
      return err(REQUIRED, `spec.rules[${i}].http.paths`);
    }),
    mutation("ingress.path.pathType-missing", K, "§5.3 pathType Required (entry not checked further)", fc.tuple(fc.nat(), fc.string({ maxLength: 4 })), (o, [n, junk]) => {
      const site = ingressPathSite(o, n);
      delete site.path["pathType"];
      site.path["path"] = junk; // not examined once pathType is missing
      return err(REQUIRED, `${site.at}.pathType`);
    }),
    mutation("ingress.path.pathType-unknown", K, "§5.3 pathType NotSupported (path not checked)", fc.tuple(fc.nat(), fc.constantFrom(...BAD_PATH_TYPES), fc.string({ maxLength: 4 })), (o, [n, t, junk]) => {
      const site = ingressPathSite(o, n);
      site.path["pathType"] = t;
      site.path["path"] = junk;
      return err(NOT_SUPPORTED, `${site.at}.pathType`);
    }),
    mutation("ingress.path.relative", K, "§5.3 Exact/Prefix absolute path", fc.tuple(fc.nat(), fc.constantFrom("Exact", "Prefix"), arbAbsolutePath()), (o, [n, t, p]) => {
      const site = ingressPathSite(o, n);
      site.path["pathType"] = t;
      site.path["path"] = p.slice(1);
      return err(INVALID, `${site.at}.path`);
    }),
    mutation("ingress.path.impl-specific-relative", K, "§5.3 ImplementationSpecific non-empty relative", fc.tuple(fc.nat(), arbPathSegment()), (o, [n, seg]) => {
      const site = ingressPathSite(o, n);
      site.path["pathType"] = "ImplementationSpecific";
      site.path["path"] = seg;
      return err(INVALID, `${site.at}.path`);
    }),
    mutation("ingress.path.bad-sequence", K, "§5.3 //, /./, /../, %2f, %2F", fc.tuple(fc.nat(), fc.constantFrom("Exact", "Prefix"), arbAbsolutePath(), fc.constantFrom(...BAD_PATH_SEQUENCES)), (o, [n, t, p, seq]) => {
      const site = ingressPathSite(o, n);
      site.path["pathType"] = t;
      site.path["path"] = p.replace(/\/$/, "") + seq;
      return err(INVALID, `${site.at}.path`);
    }),
    mutation("ingress.path.bad-suffix", K, "§5.3 /. and /.. suffixes", fc.tuple(fc.nat(), fc.constantFrom("Exact", "Prefix"), arbAbsolutePath(), fc.constantFrom("/.", "/..")), (o, [n, t, p, suffix]) => {
      const site = ingressPathSite(o, n);
      site.path["pathType"] = t;
      site.path["path"] = p.replace(/\/$/, "") + suffix;
      return err(INVALID, `${site.at}.path`);
    }),
    mutation("ingress.backend.both", K, "§5.4 both service and resource", fc.tuple(fc.nat(), arbServiceBackend(), arbResourceBackend()), (o, [n, s, r]) => {
      const site = ingressBackendSite(o, n);
      site.set({ ...s, ...r });
      return err(INVALID, site.at);
    }),
    mutation("ingress.backend.neither", K, "§5.4 neither service nor resource", fc.nat(), (o, n) => {
      const site = ingressBackendSite(o, n);
      site.set({});
      return err(INVALID, site.at);
    }),
    mutation("ingress.backend.port-missing", K, "§5.4 port name or number Required (on the backend)", fc.tuple(fc.nat(), arbDns1035Label(), fc.nat(2)), (o, [n, name, shape]) => {
      const site = ingressBackendSite(o, n);
      const service: Obj = { name };
      if (shape === 1) service["port"] = {};
      if (shape === 2) service["port"] = { name: "", number: 0 };
      site.set({ service });
      return err(REQUIRED, site.at);
    }),
    mutation("ingress.backend.port-both", K, "§5.4 port name and number (on the backend)", fc.tuple(fc.nat(), arbDns1035Label(), fc.string({ minLength: 1, maxLength: 6 }), fc.integer({ min: -100000, max: 100000 }).filter((x) => x !== 0)), (o, [n, name, pn, num]) => {
      const site = ingressBackendSite(o, n);
      site.set({ service: { name, port: { name: pn, number: num } } });
      return err(INVALID, site.at);
    }),
    mutation("ingress.backend.port-number", K, "§5.4 port number range", fc.tuple(fc.nat(), arbDns1035Label(), fc.constantFrom(...BAD_PORT_NUMBERS)), (o, [n, name, num]) => {
      const site = ingressBackendSite(o, n);
      site.set({ service: { name, port: { number: num } } });
      return err(INVALID, `${site.at}.service.port.number`);
    }),
    mutation("ingress.backend.port-name", K, "§5.4 / §3 IANA port name (one sub-rule)", fc.tuple(fc.nat(), arbDns1035Label(), fc.constantFrom(...BAD_PORT_NAMES)), (o, [n, name, pn]) => {
      const site = ingressBackendSite(o, n);
      site.set({ service: { name, port: { name: pn } } });
      return err(INVALID, `${site.at}.service.port.name`);
    }),
    mutation("ingress.backend.service-name-missing", K, "§5.4 service.name Required", fc.tuple(fc.nat(), arbPortNumber()), (o, [n, num]) => {
      const site = ingressBackendSite(o, n);
      site.set({ service: { port: { number: num } } });
      return err(REQUIRED, `${site.at}.service.name`);
    }),
    mutation("ingress.backend.service-name", K, "§5.4 service.name DNS-1035", fc.tuple(fc.nat(), fc.constantFrom(...BAD_SERVICE_NAMES), arbPortName()), (o, [n, name, pn]) => {
      const site = ingressBackendSite(o, n);
      site.set({ service: { name, port: { name: pn } } });
      return err(INVALID, `${site.at}.service.name`);
    }),
    mutation("ingress.backend.resource-kind-missing", K, "§5.4 resource.kind Required", fc.tuple(fc.nat(), arbPathSegmentName()), (o, [n, name]) => {
      const site = ingressBackendSite(o, n);
      site.set({ resource: { kind: "", name } });
      return err(REQUIRED, `${site.at}.resource.kind`);
    }),
    mutation("ingress.backend.resource-name-missing", K, "§5.4 resource.name Required", fc.tuple(fc.nat(), arbPathSegmentName(), arbDns1123Subdomain()), (o, [n, kind, apiGroup]) => {
      const site = ingressBackendSite(o, n);
      site.set({ resource: { apiGroup, kind } });
      return err(REQUIRED, `${site.at}.resource.name`);
    }),
    mutation("ingress.backend.resource-segment", K, "§5.4 / §3 path segment name", fc.tuple(fc.nat(), fc.constantFrom(...BAD_SEGMENT_NAMES), arbPathSegmentName(), fc.constantFrom("kind", "name")), (o, [n, bad, good, which]) => {
      const site = ingressBackendSite(o, n);
      site.set({ resource: which === "kind" ? { kind: bad, name: good } : { kind: good, name: bad } });
      return err(INVALID, `${site.at}.resource.${which}`);
    }),
    mutation("ingress.backend.resource-apiGroup", K, "§5.4 resource.apiGroup (\"\" counts)", fc.tuple(fc.nat(), fc.constantFrom(...BAD_SUBDOMAINS_INCL_EMPTY), arbPathSegmentName()), (o, [n, g, name]) => {
      const site = ingressBackendSite(o, n);
      site.set({ resource: { apiGroup: g, kind: "Bucket", name } });
      return err(INVALID, `${site.at}.resource.apiGroup`);
    }),
    mutation("ingress.tls.secretName", K, "§5.5 secretName", fc.tuple(fc.nat(), fc.constantFrom(...BAD_SECRET_NAMES)), (o, [n, name]) => {
      const tls = ensureArr(ensureObj(o, "spec"), "tls");
      if (tls.length === 0) tls.push({});
      const i = n % tls.length;
      (tls[i] as Obj)["secretName"] = name;
      return err(INVALID, `spec.tls[${i}].secretName`);
    }),
    mutation("ingress.tls.host", K, "§5.5 TLS host", fc.tuple(fc.nat(), fc.constantFrom(...BAD_TLS_HOSTS)), (o, [n, host]) => {
      const tls = ensureArr(ensureObj(o, "spec"), "tls");
      if (tls.length === 0) tls.push({});
      const i = n % tls.length;
      const hosts = ensureArr(tls[i] as Obj, "hosts") as unknown as string[];
      hosts.push(host);
      return err(INVALID, `spec.tls[${i}].hosts[${hosts.length - 1}]`);
    }),
    mutation("ingress.ingressClassName", K, "§5.1 ingressClassName (\"\" counts)", fc.constantFrom(...BAD_SUBDOMAINS_INCL_EMPTY), (o, name) => {
      ensureObj(o, "spec")["ingressClassName"] = name;
      const annotations = o["metadata"]?.["annotations"];
      if (annotations !== undefined) delete annotations[INGRESS_CLASS_ANNOTATION];
      return err(INVALID, "spec.ingressClassName");
    }),
    mutation("ingress.class-annotation-mismatch", K, "§5.1 / §2 annotation differs from ingressClassName (create)", fc.tuple(arbDns1123Subdomain(), fc.string({ maxLength: 12 })), (o, [fallback, value]) => {
      const spec = ensureObj(o, "spec");
      if (typeof spec["ingressClassName"] !== "string") spec["ingressClassName"] = fallback;
      const cls = spec["ingressClassName"] as string;
      ensureObj(ensureObj(o, "metadata"), "annotations")[INGRESS_CLASS_ANNOTATION] = value === cls ? `${value}x` : value;
      return err(INVALID, `annotations.${INGRESS_CLASS_ANNOTATION}`);
    }),
    ...metaMutations(K),
  ];
}

// ---- IngressClass

function ensureParameters(o: Obj): Obj {
  const spec = ensureObj(o, "spec");
  const p = spec["parameters"];
  if (p !== null && typeof p === "object") return p as Obj;
  const fresh: Obj = { kind: "ConfigMap", name: "params" };
  spec["parameters"] = fresh;
  return fresh;
}

function ingressClassMutations(): Mutation[] {
  const K: ValidatedKind = "IngressClass";
  return [
    mutation("ingressclass.controller.missing", K, "§6 controller Required", fc.boolean(), (o, explicit) => {
      const spec = ensureObj(o, "spec");
      if (explicit) spec["controller"] = "";
      else delete spec["controller"];
      return err(REQUIRED, "spec.controller");
    }),
    mutation("ingressclass.controller.not-domain-prefixed", K, "§6 / §3 domain-prefixed path", fc.oneof(fc.constantFrom("example.com", "/foo", "example.com/", "nginx"), arbDns1123Subdomain(250)), (o, c) => {
      ensureObj(o, "spec")["controller"] = c;
      return err(INVALID, "spec.controller");
    }),
    mutation("ingressclass.controller.bad-host", K, "§6 / §3 host part", fc.tuple(fc.constantFrom("Example.com", "ex_ample.com", "-a.com", "a..b"), fc.constantFrom("ctrl", "a/b")), (o, [h, p]) => {
      ensureObj(o, "spec")["controller"] = `${h}/${p}`;
      return err(INVALID, "spec.controller");
    }),
    mutation("ingressclass.controller.bad-path", K, "§6 / §3 path part charset", fc.tuple(arbDns1123Subdomain(60), fc.constantFrom("a b", "é", "a#b", "a?b", "a\"b", "[x]")), (o, [h, p]) => {
      ensureObj(o, "spec")["controller"] = `${h}/${p}`;
      return err(INVALID, "spec.controller");
    }),
    mutation("ingressclass.controller.too-long", K, "§6 controller > 250 (TooLong only)", fc.tuple(arbDns1123Subdomain(60), fc.integer({ min: 251, max: 400 })), (o, [h, len]) => {
      const head = `${h}/`;
      ensureObj(o, "spec")["controller"] = head + "p".repeat(len - head.length);
      return err(TOO_LONG, "spec.controller");
    }),
    mutation("ingressclass.parameters.kind-missing", K, "§6 parameters.kind Required", fc.boolean(), (o, explicit) => {
      const p = ensureParameters(o);
      if (explicit) p["kind"] = "";
      else delete p["kind"];
      return err(REQUIRED, "spec.parameters.kind");
    }),
    mutation("ingressclass.parameters.name-missing", K, "§6 parameters.name Required", fc.boolean(), (o, explicit) => {
      const p = ensureParameters(o);
      if (explicit) p["name"] = "";
      else delete p["name"];
      return err(REQUIRED, "spec.parameters.name");
    }),
    mutation("ingressclass.parameters.segment", K, "§6 / §3 path segment name", fc.tuple(fc.constantFrom(...BAD_SEGMENT_NAMES), fc.constantFrom("kind", "name")), (o, [bad, which]) => {
      ensureParameters(o)[which] = bad;
      return err(INVALID, `spec.parameters.${which}`);
    }),
    mutation("ingressclass.parameters.apiGroup", K, "§6 parameters.apiGroup (\"\" counts)", fc.constantFrom(...BAD_SUBDOMAINS_INCL_EMPTY), (o, g) => {
      ensureParameters(o)["apiGroup"] = g;
      return err(INVALID, "spec.parameters.apiGroup");
    }),
    mutation("ingressclass.parameters.scope-unsupported", K, "§6 scope NotSupported (namespace not checked)", fc.tuple(fc.constantFrom("", "cluster", "namespace", "Global"), fc.option(fc.string({ maxLength: 5 }), { nil: undefined })), (o, [scope, ns]) => {
      const p = ensureParameters(o);
      p["scope"] = scope;
      if (ns === undefined) delete p["namespace"];
      else p["namespace"] = ns;
      return err(NOT_SUPPORTED, "spec.parameters.scope");
    }),
    mutation("ingressclass.parameters.cluster-with-namespace", K, "§6 / §8 Cluster (or defaulted) scope with namespace: Forbidden", fc.tuple(fc.boolean(), fc.oneof(fc.constant(""), arbDns1123Label())), (o, [explicitScope, ns]) => {
      const p = ensureParameters(o);
      if (explicitScope) p["scope"] = "Cluster";
      else delete p["scope"];
      p["namespace"] = ns;
      return err(FORBIDDEN, "spec.parameters.namespace");
    }),
    mutation("ingressclass.parameters.namespace-missing", K, "§6 Namespace scope without namespace: Required", fc.constant(null), (o) => {
      const p = ensureParameters(o);
      p["scope"] = "Namespace";
      delete p["namespace"];
      return err(REQUIRED, "spec.parameters.namespace");
    }),
    mutation("ingressclass.parameters.namespace-invalid", K, "§6 Namespace scope, namespace not a DNS-1123 label", fc.constantFrom("", "Bad", "a.b", "a_b", "-a", "a".repeat(64)), (o, ns) => {
      const p = ensureParameters(o);
      p["scope"] = "Namespace";
      p["namespace"] = ns;
      return err(INVALID, "spec.parameters.namespace");
    }),
    ...metaMutations(K),
  ];
}

// ---- NetworkPolicy

interface ListSite {
  readonly at: string;
  readonly list: Obj[];
  readonly index: number;
}

function policyRules(o: Obj): { dir: "ingress" | "egress"; peers: "from" | "to"; rule: Obj; i: number }[] {
  const spec = ensureObj(o, "spec");
  const out: { dir: "ingress" | "egress"; peers: "from" | "to"; rule: Obj; i: number }[] = [];
  for (const [dir, peers] of [["ingress", "from"], ["egress", "to"]] as const) {
    const rules = spec[dir];
    if (Array.isArray(rules)) rules.forEach((rule: Obj, i: number) => out.push({ dir, peers, rule, i }));
  }
  return out;
}

/** A port entry chosen by `n` (added to a new ingress rule when there is none). */
function policyPortSite(o: Obj, n: number): ListSite {
  const sites: ListSite[] = [];
  for (const { dir, rule, i } of policyRules(o)) {
    const ports = rule["ports"];
    if (Array.isArray(ports)) ports.forEach((_p, k) => sites.push({ at: `spec.${dir}[${i}].ports[${k}]`, list: ports as Obj[], index: k }));
  }
  if (sites.length > 0) return pick(sites, n);
  const ingress = ensureArr(ensureObj(o, "spec"), "ingress");
  ingress.push({ ports: [{ port: 80 }] });
  return { at: `spec.ingress[${ingress.length - 1}].ports[0]`, list: ingress[ingress.length - 1]!["ports"] as Obj[], index: 0 };
}

/** A peer entry chosen by `n` (added to a new egress rule when there is none). */
function policyPeerSite(o: Obj, n: number): ListSite {
  const sites: ListSite[] = [];
  for (const { dir, peers, rule, i } of policyRules(o)) {
    const list = rule[peers];
    if (Array.isArray(list)) list.forEach((_p, k) => sites.push({ at: `spec.${dir}[${i}].${peers}[${k}]`, list: list as Obj[], index: k }));
  }
  if (sites.length > 0) return pick(sites, n);
  const egress = ensureArr(ensureObj(o, "spec"), "egress");
  egress.push({ to: [{ podSelector: {} }] });
  return { at: `spec.egress[${egress.length - 1}].to[0]`, list: egress[egress.length - 1]!["to"] as Obj[], index: 0 };
}

interface SelectorSite {
  readonly at: string;
  readonly selector: Obj;
}

/** spec.podSelector or a peer's podSelector/namespaceSelector, chosen by `n`. */
function policySelectorSite(o: Obj, n: number): SelectorSite {
  const spec = ensureObj(o, "spec");
  const sites: SelectorSite[] = [{ at: "spec.podSelector", selector: ensureObj(spec, "podSelector") }];
  for (const { dir, peers, rule, i } of policyRules(o)) {
    const list = rule[peers];
    if (!Array.isArray(list)) continue;
    list.forEach((peer: Obj, k: number) => {
      for (const key of ["podSelector", "namespaceSelector"]) {
        const s = peer[key];
        if (s !== null && typeof s === "object") sites.push({ at: `spec.${dir}[${i}].${peers}[${k}].${key}`, selector: s as Obj });
      }
    });
  }
  return pick(sites, n);
}

function pushRequirement(site: SelectorSite, req: Obj): string {
  const exprs = ensureArr(site.selector, "matchExpressions");
  exprs.push(req);
  return `${site.at}.matchExpressions[${exprs.length - 1}]`;
}

const BAD_PROTOCOLS = ["", "tcp", "udp", "ICMP", "HTTP", "sctp"];
const BAD_POLICY_PORTS = [0, -1, 65536, 70000, 2147483647, -2147483648];
const BAD_OPERATORS = ["in", "notin", "exists", "Equals", "", "!="];
const BAD_CIDRS = ["10.0.0.0/33", "192.168.5.6", "fd00::", "abc", "10.0.0.0/-1", "fd00::/129", "10.0.0/8", " 10.0.0.0/8", "300.0.0.0/8"];
const UNPARSEABLE_CIDRS = ["", " ", "300.300.300.300/32", "10.0.0.0", "abc", "::/", "10.0.0.0/8/8"];

/** A network with prefix >= 1 (so an address outside it exists). */
function arbNonRootNet(): fc.Arbitrary<IPNet> {
  return arbIPNet().map((net) => (net.prefix > 0 ? net : { ...net, prefix: 1, address: maskAddress(net.family, net.address, 1) }));
}

function setIpBlockPeer(o: Obj, n: number, ipBlock: Obj): string {
  const site = policyPeerSite(o, n);
  site.list[site.index] = { ipBlock };
  return `${site.at}.ipBlock`;
}

function networkPolicyMutations(): Mutation[] {
  const K: ValidatedKind = "NetworkPolicy";
  return [
    mutation("networkpolicy.port.protocol", K, "§7.2 protocol NotSupported (\"\" not defaulted)", fc.tuple(fc.nat(), fc.constantFrom(...BAD_PROTOCOLS)), (o, [n, p]) => {
      const site = policyPortSite(o, n);
      (site.list[site.index] as Obj)["protocol"] = p;
      return err(NOT_SUPPORTED, `${site.at}.protocol`);
    }),
    mutation("networkpolicy.port.number-range", K, "§7.2 port outside 1-65535", fc.tuple(fc.nat(), fc.constantFrom(...BAD_POLICY_PORTS)), (o, [n, p]) => {
      const site = policyPortSite(o, n);
      const port = site.list[site.index] as Obj;
      port["port"] = p;
      delete port["endPort"];
      return err(INVALID, `${site.at}.port`);
    }),
    mutation("networkpolicy.port.name", K, "§7.2 named port, one failed sub-rule (\"80\" is a string)", fc.tuple(fc.nat(), fc.constantFrom(...BAD_PORT_NAMES)), (o, [n, p]) => {
      const site = policyPortSite(o, n);
      const port = site.list[site.index] as Obj;
      port["port"] = p;
      delete port["endPort"];
      return err(INVALID, `${site.at}.port`);
    }),
    mutation("networkpolicy.port.endPort-with-named-port", K, "§7.2 endPort with non-numeric port", fc.tuple(fc.nat(), arbPortName(), fc.integer({ min: -5, max: 70000 })), (o, [n, name, end]) => {
      const site = policyPortSite(o, n);
      const port = site.list[site.index] as Obj;
      port["port"] = name;
      port["endPort"] = end;
      return err(INVALID, `${site.at}.endPort`);
    }),
    mutation("networkpolicy.port.endPort-without-port", K, "§7.2 endPort without port", fc.tuple(fc.nat(), fc.integer({ min: -5, max: 70000 })), (o, [n, end]) => {
      const site = policyPortSite(o, n);
      const port = site.list[site.index] as Obj;
      delete port["port"];
      port["endPort"] = end;
      return err(INVALID, `${site.at}.endPort`);
    }),
    mutation("networkpolicy.port.endPort-below-port", K, "§7.2 endPort < port", fc.tuple(fc.nat(), fc.integer({ min: 2, max: 65535 }), fc.nat()), (o, [n, p, k]) => {
      const site = policyPortSite(o, n);
      const port = site.list[site.index] as Obj;
      port["port"] = p;
      port["endPort"] = 1 + (k % (p - 1));
      return err(INVALID, `${site.at}.endPort`);
    }),
    mutation("networkpolicy.port.endPort-range", K, "§7.2 endPort > 65535 (and >= port)", fc.tuple(fc.nat(), arbPortNumber(), fc.integer({ min: 65536, max: 2147483647 })), (o, [n, p, end]) => {
      const site = policyPortSite(o, n);
      const port = site.list[site.index] as Obj;
      port["port"] = p;
      port["endPort"] = end;
      return err(INVALID, `${site.at}.endPort`);
    }),
    mutation("networkpolicy.peer.empty", K, "§7.3 empty peer Required", fc.nat(), (o, n) => {
      const site = policyPeerSite(o, n);
      site.list[site.index] = {};
      return err(REQUIRED, site.at);
    }),
    mutation("networkpolicy.peer.ipBlock-with-selector", K, "§7.3 ipBlock with a selector: Forbidden on the peer", fc.tuple(fc.nat(), arbIPBlock(), arbLabelSelector(), arbLabelSelector(), fc.nat(2)), (o, [n, ipBlock, a, b, which]) => {
      const site = policyPeerSite(o, n);
      const peer: Obj = { ipBlock };
      if (which !== 1) peer["podSelector"] = a;
      if (which !== 0) peer["namespaceSelector"] = b;
      site.list[site.index] = peer;
      return err(FORBIDDEN, site.at);
    }),
    mutation("networkpolicy.ipBlock.cidr-missing", K, "§7.4 cidr Required (except not examined)", fc.tuple(fc.nat(), fc.array(fc.constantFrom(...UNPARSEABLE_CIDRS), { maxLength: 2 }), fc.boolean()), (o, [n, except, explicit]) => {
      const at = setIpBlockPeer(o, n, explicit ? { cidr: "", except } : { except });
      return err(REQUIRED, `${at}.cidr`);
    }),
    mutation("networkpolicy.ipBlock.cidr-invalid", K, "§7.4 cidr unparseable (except not examined)", fc.tuple(fc.nat(), fc.constantFrom(...BAD_CIDRS), fc.array(fc.constantFrom(...UNPARSEABLE_CIDRS), { maxLength: 2 })), (o, [n, cidr, except]) => {
      const at = setIpBlockPeer(o, n, { cidr, except });
      return err(INVALID, `${at}.cidr`);
    }),
    mutation("networkpolicy.ipBlock.except-unparseable", K, "§7.4 except unparseable", fc.tuple(fc.nat(), arbIPBlock(), fc.constantFrom(...UNPARSEABLE_CIDRS), fc.nat()), (o, [n, block, bad, pos]) => {
      const except = [...((block["except"] as string[] | undefined) ?? [])];
      const k = pos % (except.length + 1);
      except.splice(k, 0, bad);
      const at = setIpBlockPeer(o, n, { cidr: block["cidr"] as string, except });
      return err(INVALID, `${at}.except[${k}]`);
    }),
    mutation("networkpolicy.ipBlock.except-outside", K, "§7.4 except outside cidr", fc.tuple(fc.nat(), arbNonRootNet(), fc.nat(), fc.nat(), fc.bigInt({ min: 0n, max: MAX_V6 })), (o, [n, net, flip, q, raw]) => {
      const bits = familyBits(net.family);
      const bit = flip % net.prefix; // a bit inside the prefix
      const prefix = net.prefix + (q % (bits - net.prefix + 1));
      const outside = maskAddress(net.family, (net.address | (raw & hostMask(net.family, net.prefix))) ^ (1n << BigInt(bits - 1 - bit)), prefix);
      // An IPv4-mapped except would be a different rule in disguise; practically never drawn, replaced by a fixed pair.
      const block =
        net.family === 6 && isV4Mapped(outside)
          ? { cidr: "2001:db8::/32", except: ["2001:db9::/48"] }
          : { cidr: formatCidr(net), except: [formatCidr({ family: net.family, prefix, address: outside })] };
      const at = setIpBlockPeer(o, n, block);
      return err(INVALID, `${at}.except[0]`);
    }),
    mutation("networkpolicy.ipBlock.except-not-narrower", K, "§7.4 except prefix <= cidr prefix (equal fails)", fc.tuple(fc.nat(), arbIPNet(), fc.nat()), (o, [n, net, k]) => {
      const prefix = k % (net.prefix + 1); // 0..cidr prefix: the same network or a supernet
      const except = formatCidr({ family: net.family, prefix, address: maskAddress(net.family, net.address, prefix) });
      const at = setIpBlockPeer(o, n, { cidr: formatCidr(net), except: [except] });
      return err(INVALID, `${at}.except[0]`);
    }),
    mutation("networkpolicy.ipBlock.except-other-family", K, "§7.4 except of the other IP family", fc.tuple(fc.nat(), arbIPNet(4), arbIPNet(6), fc.boolean()), (o, [n, v4, v6, v4cidr]) => {
      const [cidr, except] = v4cidr ? [v4, v6] : [v6, v4];
      const at = setIpBlockPeer(o, n, { cidr: formatCidr(cidr), except: [formatCidr(except)] });
      return err(INVALID, `${at}.except[0]`);
    }),
    mutation("networkpolicy.selector.operator", K, "§7.5 operator Invalid (not NotSupported)", fc.tuple(fc.nat(), fc.constantFrom(...BAD_OPERATORS), arbLabelKey(), fc.array(arbLabelValue(), { maxLength: 2 })), (o, [n, op, key, values]) => {
      const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
      return err(INVALID, `${at}.operator`);
    }),
    mutation("networkpolicy.selector.values-required", K, "§7.5 In/NotIn without values", fc.tuple(fc.nat(), fc.constantFrom("In", "NotIn"), arbLabelKey(), fc.boolean()), (o, [n, op, key, explicit]) => {
      const at = pushRequirement(policySelectorSite(o, n), explicit ? { key, operator: op, values: [] } : { key, operator: op });
      return err(REQUIRED, `${at}.values`);
    }),
    mutation("networkpolicy.selector.values-forbidden", K, "§7.5 Exists/DoesNotExist with values", fc.tuple(fc.nat(), fc.constantFrom("Exists", "DoesNotExist"), arbLabelKey(), fc.array(arbLabelValue(), { minLength: 1, maxLength: 2 })), (o, [n, op, key, values]) => {
      const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
      return err(FORBIDDEN, `${at}.values`);
    }),
    mutation("networkpolicy.selector.value", K, "§7.5 values[v] label value (1.26+)", fc.tuple(fc.nat(), fc.constantFrom("In", "NotIn"), arbLabelKey(), fc.array(arbLabelValue(), { maxLength: 2 }), fc.constantFrom(...BAD_LABEL_VALUES)), (o, [n, op, key, good, bad]) => {
      const values = [...good, bad];
      const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
      return err(INVALID, `${at}.values[${values.length - 1}]`);
    }),
    mutation("networkpolicy.selector.key", K, "§7.5 key label-key rule", fc.tuple(fc.nat(), fc.constantFrom(...BAD_LABEL_KEYS), fc.constantFrom("Exists", "DoesNotExist")), (o, [n, key, op]) => {
      const at = pushRequirement(policySelectorSite(o, n), { key, operator: op });
      return err(INVALID, `${at}.key`);
    }),
    mutation("networkpolicy.selector.matchLabels-value", K, "§7.5 matchLabels value (on the map path)", fc.tuple(fc.nat(), arbLabelKey(), fc.constantFrom(...BAD_LABEL_VALUES)), (o, [n, key, v]) => {
      const site = policySelectorSite(o, n);
      ensureObj(site.selector, "matchLabels")[key] = v;
      return err(INVALID, `${site.at}.matchLabels`);
    }),
    mutation("networkpolicy.selector.matchLabels-key", K, "§7.5 matchLabels key (on the map path)", fc.tuple(fc.nat(), fc.constantFrom(...BAD_LABEL_KEYS), arbLabelValue()), (o, [n, key, v]) => {
      const site = policySelectorSite(o, n);
      ensureObj(site.selector, "matchLabels")[key] = v;
      return err(INVALID, `${site.at}.matchLabels`);
    }),
    mutation("networkpolicy.policyTypes.too-many", K, "§7.1 more than 2 policyTypes (entries not checked)", fc.array(fc.constantFrom("Ingress", "Egress", "ingress", "", "Both"), { minLength: 3, maxLength: 5 }), (o, types) => {
      ensureObj(o, "spec")["policyTypes"] = types;
      return err(INVALID, "spec.policyTypes");
    }),
    mutation("networkpolicy.policyTypes.unsupported", K, "§7.1 policyTypes[k] NotSupported", fc.tuple(fc.option(fc.constantFrom("Ingress", "Egress"), { nil: undefined }), fc.constantFrom("ingress", "EGRESS", "", "Both", "All"), fc.boolean()), (o, [good, bad, badFirst]) => {
      const types = good === undefined ? [bad] : badFirst ? [bad, good] : [good, bad];
      ensureObj(o, "spec")["policyTypes"] = types;
      return err(NOT_SUPPORTED, `spec.policyTypes[${types.indexOf(bad)}]`);
    }),
    ...metaMutations(K),
  ];
}

// ---- IPAddress

/** metadata.name values that fail strict IsValidIP with exactly one message. */
function arbBadIPName(): fc.Arbitrary<string> {
  return fc.oneof(
    // non-canonical IPv6: all eight groups padded to four digits, last group 0 (so never canonical)
    fc.tuple(fc.bigInt({ min: 0n, max: (1n << 112n) - 1n }), fc.boolean()).map(([v, upper]) => {
      const address = (0x2001n << 112n) | (v & ~0xffffn);
      const text = ipv6Groups(address)
        .map((g) => g.toString(16).padStart(4, "0"))
        .join(":");
      return upper ? text.toUpperCase() : text;
    }),
    // upper-case IPv6 with at least one letter
    arbIPValue(6).map(({ address }) => formatIPv6(address | 0xan).toUpperCase()),
    // leading zero in an IPv4 octet
    arbIPValue(4).map(({ address }) => `0${formatIPv4(address)}`),
    // IPv4-mapped IPv6
    arbIPValue(4).map(({ address }) => `::ffff:${formatIPv4(address)}`),
    fc.constantFrom("foo", "10.0.0.256", "10.0.0.0/8", "fe80::1%eth0", "1.2.3", "::g", "10.0.0.1 ", "2001:db8::1::1"),
  );
}

function ipAddressMutations(): Mutation[] {
  const K: ValidatedKind = "IPAddress";
  return [
    mutation("ipaddress.name.not-canonical-ip", K, "ValidateIPAddressName = strict IsValidIP", arbBadIPName(), (o, name) => {
      ensureObj(o, "metadata")["name"] = name;
      return err(INVALID, "metadata.name");
    }),
    mutation("ipaddress.parentRef.missing", K, "validateIPAddressParentReference: nil", fc.boolean(), (o, noSpec) => {
      if (noSpec) delete o["spec"];
      else o["spec"] = {};
      return err(REQUIRED, "spec.parentRef");
    }),
    mutation("ipaddress.parentRef.required", K, "validateIPAddressParentReference: resource/name Required", fc.tuple(fc.constantFrom("resource", "name"), fc.boolean()), (o, [which, explicit]) => {
      const ref = ensureObj(ensureObj(o, "spec"), "parentRef");
      if (explicit) ref[which] = "";
      else delete ref[which];
      return err(REQUIRED, `spec.parentRef.${which}`);
    }),
    mutation("ipaddress.parentRef.segment", K, "validateIPAddressParentReference: path segment names", fc.tuple(fc.constantFrom("resource", "name"), fc.constantFrom(...BAD_SEGMENT_NAMES)), (o, [which, bad]) => {
      ensureObj(ensureObj(o, "spec"), "parentRef")[which] = bad;
      return err(INVALID, `spec.parentRef.${which}`);
    }),
    mutation("ipaddress.parentRef.group", K, "validateIPAddressParentReference: group DNS-1123 subdomain", fc.constantFrom("Bad_Group", "example.com.", "UPPER.io", "a".repeat(254)), (o, g) => {
      ensureObj(ensureObj(o, "spec"), "parentRef")["group"] = g;
      return err(INVALID, "spec.parentRef.group");
    }),
    mutation("ipaddress.parentRef.namespace", K, "validateIPAddressParentReference: namespace", fc.constantFrom("a/b", "..", "a%b"), (o, ns) => {
      ensureObj(ensureObj(o, "spec"), "parentRef")["namespace"] = ns;
      return err(INVALID, "spec.parentRef.namespace");
    }),
    ...metaMutations(K),
  ];
}

// ---- ServiceCIDR

/** Single CIDRs that fail strict IsValidCIDR with exactly one message. */
function arbBadStrictCidr(): fc.Arbitrary<string> {
  return fc.oneof(
    // host bits set beyond the prefix
    fc.tuple(arbIPNet(), fc.bigInt({ min: 1n, max: MAX_V6 })).map(([net, noise]) => {
      const bits = familyBits(net.family);
      const n = net.prefix === bits ? { ...net, prefix: bits - 1, address: maskAddress(net.family, net.address, bits - 1) } : net;
      let a = n.address | (noise & hostMask(n.family, n.prefix));
      if (a === n.address) a |= 1n; // at least one host bit
      if (n.family === 6 && isV4Mapped(a)) a |= 1n << 127n;
      return `${formatIP(n.family, a)}/${n.prefix}`;
    }),
    // leading zeros in the address or the prefix
    arbIPNet(4).map((net) => formatLegacyCidr(net, "leadingZeros", 0n)).filter((t) => /(^|\.)0\d/.test(t)),
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

function serviceCidrMutations(): Mutation[] {
  const K: ValidatedKind = "ServiceCIDR";
  return [
    mutation("servicecidr.cidrs.empty", K, "validateServiceCIDRSpec: Required", fc.boolean(), (o, explicit) => {
      const spec = ensureObj(o, "spec");
      if (explicit) spec["cidrs"] = [];
      else delete spec["cidrs"];
      return err(REQUIRED, "spec.cidrs");
    }),
    mutation("servicecidr.cidrs.too-many", K, "validateServiceCIDRSpec: more than 2 (entries not checked)", fc.array(fc.oneof(arbCanonicalCidr(), fc.constantFrom("x", "")), { minLength: 3, maxLength: 5 }), (o, cidrs) => {
      ensureObj(o, "spec")["cidrs"] = cidrs;
      return err(INVALID, "spec.cidrs");
    }),
    mutation("servicecidr.cidrs.same-family", K, "validateServiceCIDRSpec: two of one family", fc.tuple(fc.boolean(), arbCanonicalCidr(4), arbCanonicalCidr(4), arbCanonicalCidr(6), arbCanonicalCidr(6)), (o, [v4, a4, b4, a6, b6]) => {
      ensureObj(o, "spec")["cidrs"] = v4 ? [a4, b4] : [a6, b6];
      return err(INVALID, "spec.cidrs");
    }),
    // 1.33+ validateServiceCIDRSpec: entries first; the family check only when both parse (<= 1.32 said Invalid on spec.cidrs).
    mutation("servicecidr.cidrs.pair-unparseable", K, "validateServiceCIDRSpec: an unparseable entry of two", fc.tuple(arbCanonicalCidr(), fc.constantFrom("abc", "10.0.0.0", "10.0.0.0/33", "::/129", "fd00::"), fc.boolean()), (o, [good, bad, badFirst]) => {
      ensureObj(o, "spec")["cidrs"] = badFirst ? [bad, good] : [good, bad];
      return err(INVALID, `spec.cidrs[${badFirst ? 0 : 1}]`);
    }),
    mutation("servicecidr.cidrs.single-invalid", K, "validateServiceCIDRSpec: strict IsValidCIDR", arbBadStrictCidr().filter((c) => c !== ""), (o, c) => {
      ensureObj(o, "spec")["cidrs"] = [c];
      return err(INVALID, "spec.cidrs[0]");
    }),
    mutation("servicecidr.cidrs.dual-invalid", K, "validateServiceCIDRSpec: strict IsValidCIDR per entry", fc.tuple(fc.boolean(), fc.boolean(), arbCanonicalCidr(4), arbCanonicalCidr(6), arbBadDualEntry(4), arbBadDualEntry(6)), (o, [v4bad, badFirst, good4, good6, bad4, bad6]) => {
      const [good, bad] = v4bad ? [good6, bad4] : [good4, bad6];
      ensureObj(o, "spec")["cidrs"] = badFirst ? [bad, good] : [good, bad];
      return err(INVALID, `spec.cidrs[${badFirst ? 0 : 1}]`);
    }),
    ...metaMutations(K),
  ];
}

/** A strictly-invalid but parseable CIDR of `family` (so the dual-stack check still passes). */
function arbBadDualEntry(family: IPFamily): fc.Arbitrary<string> {
  return fc
    .tuple(arbIPNet(family), fc.bigInt({ min: 1n, max: MAX_V6 }), fc.nat(2))
    .map(([net, noise, style]) => {
      if (style === 0) return formatLegacyCidr(net, "prefixZero", 0n);
      if (style === 1 && family === 4) return `0${formatCidr(net)}`; // a leading zero in the first octet
      if (style === 1) {
        const text = formatLegacyCidr(net, "expanded", 1n);
        if (text !== formatCidr(net)) return text;
      }
      const bits = familyBits(family);
      const n = net.prefix === bits ? { ...net, prefix: bits - 1, address: maskAddress(family, net.address, bits - 1) } : net;
      let a = n.address | (noise & hostMask(family, n.prefix));
      if (a === n.address) a |= 1n;
      if (family === 6 && isV4Mapped(a)) a |= 1n << 127n;
      return `${formatIP(family, a)}/${n.prefix}`;
    });
}

// ------------------------------------------------------------ update to itself

/**
 * The errors a targeted invalid object yields when it is validated as an
 * update of itself (same object as `old`, resourceVersion and namespace set),
 * as a multiset. An update runs the generic registry's validateCommonFields
 * (ValidateObjectMetaAccessor with ValidatePathSegmentName as the name rule,
 * then ValidateObjectMetaAccessorUpdate) and then the strategy's ValidateUpdate:
 *
 * * labels and annotations are checked by ObjectMetaAccessor,
 *   ObjectMetaAccessorUpdate, and the strategy's ObjectMeta and ObjectMetaUpdate:
 *   four times;
 * * an empty name is Required twice (common ObjectMetaAccessor and the
 *   strategy's ObjectMeta); a bad name once, plus once per path-segment
 *   message (`/`, `%`, `.`, `..`) from the common check;
 * * the NetworkPolicy strategy appends ValidateNetworkPolicy and
 *   ValidateNetworkPolicyUpdate, which both validate the spec: spec errors
 *   twice. IPAddress and ServiceCIDR strategies also run create + update
 *   validation, but their update halves only add metadata and immutability;
 * * ratchets (§5.7, §7.5, §9) drop the error: an invalid TLS secretName
 *   (AllowInvalidSecretName), an invalid rule value under a wildcard host
 *   (AllowInvalidWildcardHostRule), a Service name that is a DNS-1123 label
 *   (relaxed service-name rule), an invalid value in spec.podSelector's
 *   matchExpressions (AllowInvalidLabelValueInSelector looks at the old
 *   top-level podSelector only), the class annotation (create-only), and an
 *   ipBlock CIDR string already present in the old object (§7.4, 1.33+;
 *   KEP-4858 `validOldCIDRs` accepts such values without any format check,
 *   and an unparseable one then skips the subset checks).
 *
 * ServiceCIDR is not covered: its 1.33+ update strategy is not pinned down
 * (up to 1.32 it ran ValidateServiceCIDR and ValidateServiceCIDRUpdate).
 */
export function expectedOnSelfUpdate(t: TargetedInvalid): ExpectedError[] {
  const e = t.expected;
  const json = t.json as Obj;
  const times = (n: number): ExpectedError[] => Array.from({ length: n }, () => e);
  if (t.mutation === "ingress.tls.secretName" || t.mutation === "ingress.class-annotation-mismatch") return [];
  if (t.kind === "Ingress") {
    const m = /^spec\.rules\[(\d+)\]\.http/.exec(e.field);
    const host = m === null ? undefined : (json["spec"]?.["rules"]?.[Number(m[1])]?.["host"] as string | undefined);
    if (host !== undefined && host.includes("*")) return [];
    if (t.mutation === "ingress.backend.service-name" && e.field.endsWith(".service.name")) {
      const name = backendAt(json, e.field.slice(0, -".service.name".length))?.["service"]?.["name"];
      if (typeof name === "string" && name.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) return [];
    }
  }
  if (e.field === "metadata.labels" || e.field === "metadata.annotations") return times(4);
  if (e.field === "metadata.name") {
    const name = (json["metadata"]?.["name"] as string | undefined) ?? "";
    if (name === "") return times(2);
    const segment = name === "." || name === ".." ? 1 : ["/", "%"].filter((c) => name.includes(c)).length;
    return times(1 + segment);
  }
  if (t.kind === "NetworkPolicy" && e.field.startsWith("spec")) {
    if (t.mutation === "networkpolicy.selector.value" && e.field.startsWith("spec.podSelector.")) return [];
    if (t.mutation === "networkpolicy.ipBlock.cidr-invalid" || t.mutation === "networkpolicy.ipBlock.except-unparseable") return [];
    return times(2);
  }
  return times(1);
}

/** The backend object at a rendered path like `spec.rules[0].http.paths[1].backend`. */
function backendAt(json: Obj, field: string): Obj | undefined {
  let cur: unknown = json;
  for (const part of field.split(/\.|(?=\[)/)) {
    if (cur === null || typeof cur !== "object") return undefined;
    const idx = /^\[(\d+)\]$/.exec(part);
    cur = idx === null ? (cur as Obj)[part] : (cur as unknown[])[Number(idx[1])];
  }
  return cur !== null && typeof cur === "object" ? (cur as Obj) : undefined;
}

// ------------------------------------------------------------ all mutations

let mutationsCache: readonly Mutation[] | undefined;

/** Every targeted mutation, for all five kinds. */
export function targetedMutations(): readonly Mutation[] {
  mutationsCache ??= [
    ...ingressMutations(),
    ...ingressClassMutations(),
    ...networkPolicyMutations(),
    ...ipAddressMutations(),
    ...serviceCidrMutations(),
  ];
  return mutationsCache;
}

/** A valid object of `kind` (or any kind) with exactly one violation, and the one error it yields. */
export function arbTargetedInvalid(kind?: ValidatedKind): fc.Arbitrary<TargetedInvalid> {
  const ms = targetedMutations().filter((m) => kind === undefined || m.kind === kind);
  return fc.oneof(...ms.map((m) => m.arbitrary));
}
