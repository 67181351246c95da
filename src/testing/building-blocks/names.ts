// Names valid for the API server (as src/networking/validation implements its rules): DNS-1123
// labels and subdomains, DNS-1035 labels, Ingress rule hosts (wildcards included, IPs never) and
// domain-prefixed controller names.

import fc from "fast-check";
import { DIGIT, LOWER, UPPER, fixLabelEdges, lengthMix, stringOf } from "./text.js";

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
