// IP addresses and CIDR values exactly as the Kubernetes API server reads them.
//
// Parsing reproduces k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy (a fork of
// Go 1.16's net.ParseIP / net.ParseCIDR that still reads "010.1.2.3" as 10.1.2.3),
// containment reproduces Go's (*net.IPNet).Contains, and the validators reproduce
// apimachinery's util/validation/ip.go message for message.
//
// Facts come from (read for rules and messages only):
//   - kubernetes/utils internal/third_party/forked/golang/net/ip.go (fb151ba1) and
//     golang/go src/net/parse.go (dtoi, xtoi): the sloppy grammar;
//   - golang/go src/net/ip.go: IP.To4, IP.Mask, IPNet.Contains, IPMask.Size, String;
//   - golang/go src/net/netip: ParseAddr / ParsePrefix, the "strict" grammar;
//   - kubernetes apimachinery pkg/util/validation/ip.go: kubernetes/kubernetes
//     692785d2 for the messages, and the current master form (Jefftree/kubernetes
//     dc3c3721, 1.36 development) for the validOldIPs / validOldCIDRs ratchet;
//   - kubernetes/utils net/ipfamily.go: IPFamilyOfCIDRString.
//
// Hot-path rules: no regular expressions, no BigInt, one pass over the input,
// and no allocation beyond the returned object. Any JavaScript string is
// accepted; anything outside ASCII simply fails to parse, as its UTF-8 bytes
// would in Go.

// ------------------------------------------------------------------ shapes

/**
 * A parsed IP address: Go's 16-byte `net.IP` as four unsigned 32-bit words,
 * most significant first (`w0` holds bytes 0-3, `w3` bytes 12-15).
 *
 * - IPv4 is stored as Go stores it, in IPv4-mapped form `::ffff:a.b.c.d`:
 *   `w0 = 0`, `w1 = 0`, `w2 = 0x0000ffff`, and `w3` is the address as a plain
 *   uint32 (`10.0.0.1` is `0x0a000001`).
 * - `family` is 4 exactly when Go's `ip.To4()` is non-nil: for dotted IPv4 text
 *   and also for IPv4-mapped IPv6 text (`::ffff:1.2.3.4`, `::ffff:102:304`),
 *   which Go cannot tell apart once parsed. Everything else is 6.
 *
 * Every `IP` this module returns has exactly these five fields, in this order,
 * so code that reads them stays monomorphic.
 */
export interface IP {
  readonly family: 4 | 6;
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
}

/**
 * A parsed CIDR: Go's `*net.IPNet` as returned by ParseCIDRSloppy.
 *
 * - `w0`..`w3`: the network address (the address with host bits cleared), in
 *   the same 16-byte form as {@link IP}. An `IPNet` is also an `IP`, so
 *   `cidrContains(a, b)` with two networks asks Go's `a.Contains(b.IP)`.
 * - `family`: 4 when Go's `network.To4()` is non-nil, else 6. Containment only
 *   ever matches addresses of the same family (see {@link cidrContains}).
 * - `m0`..`m3`: the mask Go applies in `Contains`, as 128 bits over the 16-byte
 *   form. An IPv4 `/n` is `/(96+n)` here, so the first three words are all ones.
 * - `prefix`, `bits`: what Go's `Mask.Size()` returns. Dotted IPv4 text gives
 *   `bits = 32`; IPv6 text gives `bits = 128` even when the network is an
 *   IPv4-mapped one (`::ffff:10.0.0.0/104` is `prefix 104, bits 128, family 4`
 *   and contains exactly the addresses of `10.0.0.0/8`).
 */
export interface IPNet extends IP {
  readonly m0: number;
  readonly m1: number;
  readonly m2: number;
  readonly m3: number;
  readonly prefix: number;
  readonly bits: 32 | 128;
}

/** Options of the "legacy field" validators. */
export interface LegacyFieldOptions {
  /**
   * The StrictIPCIDRValidation feature gate: alpha and off by default in
   * 1.33-1.35; KEP-4858 targets beta (on by default) in 1.36.
   */
  readonly strict: boolean;
  /**
   * Values from the old object on update (`validOldIPs` / `validOldCIDRs`).
   * A value found here is accepted with no check at all, in either mode.
   */
  readonly allowed?: readonly string[] | undefined;
}

/**
 * The detail strings the validators return, exactly as the API server prints
 * them. Every one of them is reported with type Invalid (FieldValueInvalid).
 */
export const ipMessages = Object.freeze({
  invalidIP: "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
  ipLeadingZeros: "must not have leading 0s",
  ipMapped: "must not be an IPv4-mapped IPv6 address",
  invalidCIDR: "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
  cidrLeadingZeros: "must not have leading 0s in IP or prefix length",
  cidrMapped: "must not have an IPv4-mapped IPv6 address",
  cidrHostBits: "must not have bits set beyond the prefix length",
  /** Followed by the canonical text in Go `%q` quoting, then `)`. */
  canonicalPrefix: "must be in canonical form (",
} as const);

// ------------------------------------------------------------ scanner state
//
// The scanners below write their results here instead of allocating. They are
// only called synchronously from this module's exported functions, each of
// which reads the results before returning.

const CH_0 = 48;
const CH_DOT = 46;
const CH_COLON = 58;
const ALL_ONES = 0xffffffff;

/** Eight 16-bit groups of the last IPv6 text scanned. */
const groups = new Uint16Array(8);
/** The last dotted IPv4 text scanned, as a uint32. */
let v4Value = 0;
/** Some IPv4 octet was written with a leading 0 ("01"): net/netip rejects it. */
let sawLeadingZero = false;
/** Some IPv6 field had more than 4 hex digits ("00001"): net/netip rejects it. */
let sawLongField = false;
/** Prefix length of the last CIDR scanned. */
let scannedPrefix = 0;
/** The prefix length text had a leading 0 ("/08"): net/netip rejects it. */
let prefixLeadingZero = false;

/** Value of a hex digit, or -1. Exact for any UTF-16 code unit. */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/**
 * Dotted IPv4 between `p` and `end`: exactly four decimal fields of any length
 * (leading zeros are decimal) each at most 255. Sets `v4Value`.
 */
function scanV4(s: string, p: number, end: number): boolean {
  let value = 0;
  for (let field = 0; field < 4; field++) {
    if (field > 0) {
      if (p >= end || s.charCodeAt(p) !== CH_DOT) return false;
      p++;
    }
    const start = p;
    let n = 0;
    while (p < end) {
      const d = s.charCodeAt(p) - CH_0;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
      if (n > 255) return false;
      p++;
    }
    if (p === start) return false;
    if (p - start > 1 && s.charCodeAt(start) === CH_0) sawLeadingZero = true;
    value = value * 256 + n;
  }
  if (p !== end) return false;
  v4Value = value;
  return true;
}

/**
 * IPv6 text between `p` and `end`, with Go's pre-1.17 rules: hex fields of any
 * length whose value fits in 16 bits, at most one "::" standing for at least
 * one zero field, and an optional dotted IPv4 tail in place of the last two
 * fields. Sets `groups`.
 */
function scanV6(s: string, p: number, end: number): boolean {
  groups.fill(0);
  let count = 0;
  let ellipsis = -1;
  if (end - p >= 2 && s.charCodeAt(p) === CH_COLON && s.charCodeAt(p + 1) === CH_COLON) {
    ellipsis = 0;
    p += 2;
    if (p === end) return true;
  }
  while (count < 8) {
    const start = p;
    let n = 0;
    while (p < end) {
      const d = hexDigit(s.charCodeAt(p));
      if (d < 0) break;
      n = n * 16 + d;
      if (n > 0xffff) return false;
      p++;
    }
    if (p === start) return false;
    if (p < end && s.charCodeAt(p) === CH_DOT) {
      // A dotted IPv4 tail: only in the last two fields, or anywhere after "::".
      if (ellipsis < 0 && count !== 6) return false;
      if (count + 2 > 8) return false;
      if (!scanV4(s, start, end)) return false;
      groups[count] = v4Value >>> 16;
      groups[count + 1] = v4Value & 0xffff;
      count += 2;
      p = end;
      break;
    }
    if (p - start > 4) sawLongField = true;
    groups[count++] = n;
    if (p === end) break;
    if (s.charCodeAt(p) !== CH_COLON || p + 1 === end) return false;
    p++;
    if (s.charCodeAt(p) === CH_COLON) {
      if (ellipsis >= 0) return false;
      ellipsis = count;
      p++;
      if (p === end) break;
    }
  }
  if (p !== end) return false;
  if (count < 8) {
    if (ellipsis < 0) return false;
    const shift = 8 - count;
    for (let k = count - 1; k >= ellipsis; k--) groups[k + shift] = groups[k]!;
    for (let k = ellipsis; k < ellipsis + shift; k++) groups[k] = 0;
  } else if (ellipsis >= 0) {
    return false;
  }
  return true;
}

/** ParseIPSloppy: 4 (dotted text), 6 (IPv6 text) or 0 (nil). */
function scanIP(s: string): 0 | 4 | 6 {
  sawLeadingZero = false;
  sawLongField = false;
  const len = s.length;
  // Go picks the grammar by the first '.' or ':' in the text.
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c === CH_DOT) return scanV4(s, 0, len) ? 4 : 0;
    if (c === CH_COLON) return scanV6(s, 0, len) ? 6 : 0;
  }
  return 0;
}

/** ParseCIDRSloppy: 4 (dotted address), 6 (IPv6 address) or 0 (error). */
function scanCIDR(s: string): 0 | 4 | 6 {
  const len = s.length;
  const slash = s.indexOf("/");
  if (slash < 0) return 0;
  let kind: 0 | 4 | 6 = 0;
  sawLeadingZero = false;
  sawLongField = false;
  if (scanV4(s, 0, slash)) {
    kind = 4;
  } else {
    sawLeadingZero = false;
    if (!scanV6(s, 0, slash)) return 0;
    kind = 6;
  }
  const maxBits = kind === 4 ? 32 : 128;
  let p = slash + 1;
  if (p === len) return 0;
  let n = 0;
  while (p < len) {
    const d = s.charCodeAt(p) - CH_0;
    if (d < 0 || d > 9) return 0;
    n = n * 10 + d;
    if (n > maxBits) return 0;
    p++;
  }
  scannedPrefix = n;
  prefixLeadingZero = len - slash > 2 && s.charCodeAt(slash + 1) === CH_0;
  return kind;
}

/** The top `n` bits of a 32-bit word set, for `n` clamped to 0..32. */
function maskWord(n: number): number {
  if (n <= 0) return 0;
  if (n >= 32) return ALL_ONES;
  return (ALL_ONES << (32 - n)) >>> 0;
}

/** The scanned IPv6 groups are the IPv4-mapped prefix ::ffff:0:0/96. */
function groupsAreMapped(): boolean {
  return (
    groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff
  );
}

// ----------------------------------------------------------------- parsing

function makeIP(family: 4 | 6, w0: number, w1: number, w2: number, w3: number): IP {
  return { family, w0, w1, w2, w3 };
}

function makeNet(
  family: 4 | 6,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  m0: number,
  m1: number,
  m2: number,
  m3: number,
  prefix: number,
  bits: 32 | 128,
): IPNet {
  return { family, w0, w1, w2, w3, m0, m1, m2, m3, prefix, bits };
}

/**
 * Go `netutils.ParseIPSloppy`: the address, or null where Go returns nil.
 * Leading zeros in IPv4 octets are read as decimal (`010.0.0.1` is 10.0.0.1);
 * IPv4-mapped IPv6 is accepted (and is family 4); zones (`fe80::1%eth0`),
 * brackets, ports, CIDRs and surrounding whitespace are not.
 */
export function parseIPSloppy(s: string): IP | null {
  const kind = scanIP(s);
  if (kind === 4) return makeIP(4, 0, 0, 0xffff, v4Value);
  if (kind === 0) return null;
  return makeIP(
    groupsAreMapped() ? 4 : 6,
    groups[0]! * 0x10000 + groups[1]!,
    groups[2]! * 0x10000 + groups[3]!,
    groups[4]! * 0x10000 + groups[5]!,
    groups[6]! * 0x10000 + groups[7]!,
  );
}

/**
 * Go `netutils.ParseCIDRSloppy`: the network (address masked to the prefix),
 * or null where Go returns an error. The address part follows
 * {@link parseIPSloppy}; the prefix length is decimal digits only (leading
 * zeros allowed, no sign, no spaces), at most 32 after dotted IPv4 and at most
 * 128 after IPv6 text (including IPv4-mapped IPv6 text). Host bits are allowed
 * and cleared.
 */
export function parseCIDRSloppy(s: string): IPNet | null {
  const kind = scanCIDR(s);
  if (kind === 0) return null;
  const prefix = scannedPrefix;
  if (kind === 4) {
    const m3 = maskWord(prefix);
    return makeNet(4, 0, 0, 0xffff, (v4Value & m3) >>> 0, ALL_ONES, ALL_ONES, ALL_ONES, m3, prefix, 32);
  }
  const m0 = maskWord(prefix);
  const m1 = maskWord(prefix - 32);
  const m2 = maskWord(prefix - 64);
  const m3 = maskWord(prefix - 96);
  const w0 = ((groups[0]! * 0x10000 + groups[1]!) & m0) >>> 0;
  const w1 = ((groups[2]! * 0x10000 + groups[3]!) & m1) >>> 0;
  const w2 = ((groups[4]! * 0x10000 + groups[5]!) & m2) >>> 0;
  const w3 = ((groups[6]! * 0x10000 + groups[7]!) & m3) >>> 0;
  // Go's To4() on the masked network: only possible when prefix >= 96 and the
  // text was IPv4-mapped; Contains then compares IPv4 with the last mask word.
  const family = w0 === 0 && w1 === 0 && w2 === 0xffff ? 4 : 6;
  return makeNet(family, w0, w1, w2, w3, m0, m1, m2, m3, prefix, 128);
}

/**
 * Go `(*net.IPNet).Contains(ip)`. Go converts `ip` with `To4()` first and only
 * compares addresses of the same length as the network, so:
 * - an IPv4 network (dotted, or IPv4-mapped IPv6 with prefix >= 96) contains
 *   IPv4 addresses and IPv4-mapped IPv6 addresses, never other IPv6;
 * - an IPv6 network never contains an IPv4 or IPv4-mapped address, not even
 *   `::/0` or `::ffff:0:0/95`.
 */
export function cidrContains(net: IPNet, ip: IP): boolean {
  if (net.family !== ip.family) return false;
  if (net.family === 4) return ((ip.w3 ^ net.w3) & net.m3) === 0;
  return (
    ((ip.w0 ^ net.w0) & net.m0) === 0 &&
    ((ip.w1 ^ net.w1) & net.m1) === 0 &&
    ((ip.w2 ^ net.w2) & net.m2) === 0 &&
    ((ip.w3 ^ net.w3) & net.m3) === 0
  );
}

/**
 * The NetworkPolicy ipBlock rule "`except` must be a strict subset of `cidr`",
 * exactly as upstream tests it: `cidr.Contains(except.IP)` and cidr's
 * `Mask.Size()` ones below except's. The prefix lengths are compared as Go
 * reports them, even across 32- and 128-bit masks: `10.0.0.0/8` with except
 * `::ffff:10.0.0.0/104` passes (8 < 104) although both cover the same
 * addresses, and `::ffff:10.0.0.0/104` with except `10.1.0.0/16` fails.
 */
export function exceptIsStrictSubset(cidr: IPNet, except: IPNet): boolean {
  return cidr.prefix < except.prefix && cidrContains(cidr, except);
}

/**
 * `netutils.IPFamilyOfCIDRString`: the family of the CIDR's address as written
 * (before masking), or undefined when ParseCIDRSloppy fails. IPv4-mapped text
 * is 4 whatever the prefix: `::ffff:1.2.3.4/24` is 4 although its network,
 * `::/24`, is an IPv6 network.
 */
export function ipFamilyOfCIDRString(s: string): 4 | 6 | undefined {
  const kind = scanCIDR(s);
  if (kind === 0) return undefined;
  if (kind === 4) return 4;
  return groupsAreMapped() ? 4 : 6;
}

// -------------------------------------------------------------- formatting

function formatV4(v: number): string {
  return `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
}

/** RFC 5952 text of eight 16-bit fields, as Go prints a non-IPv4 address. */
function formatFields(
  f0: number,
  f1: number,
  f2: number,
  f3: number,
  f4: number,
  f5: number,
  f6: number,
  f7: number,
): string {
  const f = [f0, f1, f2, f3, f4, f5, f6, f7];
  // The longest run of two or more zero fields becomes "::" (the first one on a tie).
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (f[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && f[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += "::";
      i += bestLen - 1;
      continue;
    }
    if (i > 0 && i !== bestStart + bestLen) out += ":";
    out += f[i]!.toString(16);
  }
  return out;
}

function formatWords(w0: number, w1: number, w2: number, w3: number): string {
  return formatFields(w0 >>> 16, w0 & 0xffff, w1 >>> 16, w1 & 0xffff, w2 >>> 16, w2 & 0xffff, w3 >>> 16, w3 & 0xffff);
}

/** Go `net.IP.String()`: dotted for family 4, RFC 5952 (lower case, "::") otherwise. */
export function formatIP(ip: IP): string {
  return ip.family === 4 ? formatV4(ip.w3) : formatWords(ip.w0, ip.w1, ip.w2, ip.w3);
}

/**
 * Go `(*net.IPNet).String()`: the network and its prefix length. An
 * IPv4-mapped network prints as IPv4 (`::ffff:10.0.0.0/104` is `10.0.0.0/8`).
 */
export function formatCIDR(net: IPNet): string {
  if (net.family === 4) return `${formatV4(net.w3)}/${net.bits === 128 ? net.prefix - 96 : net.prefix}`;
  return `${formatWords(net.w0, net.w1, net.w2, net.w3)}/${net.prefix}`;
}

function canonicalMessage(canonical: string): string {
  // Go %q: the canonical text is plain ASCII (digits, hex, '.', ':', '/').
  return `${ipMessages.canonicalPrefix}"${canonical}")`;
}

// -------------------------------------------------------------- validators
//
// All upstream checks here report field.Invalid, so each validator returns the
// list of details: empty when the value is valid.

/**
 * The strict checks of apimachinery's parseIP, after ParseIPSloppy succeeded
 * with `kind`: net/netip.ParseAddr must accept the text (it refuses IPv4
 * octets with leading zeros and IPv6 fields longer than 4 hex digits) and the
 * address must not be IPv4-mapped IPv6.
 */
function strictIPErrors(kind: 4 | 6, errors: string[]): void {
  if (sawLeadingZero || sawLongField) errors.push(ipMessages.ipLeadingZeros);
  else if (kind === 6 && groupsAreMapped()) errors.push(ipMessages.ipMapped);
}

/**
 * apimachinery `IsValidIP` (strict, canonical; used for IPAddress names):
 * ParseIPSloppy must accept it, net/netip.ParseAddr must accept it, it must not
 * be IPv4-mapped IPv6, and it must equal Go's `ip.String()` (so IPv6 must be
 * RFC 5952 lower case with "::" compression).
 */
export function isValidIP(value: string): string[] {
  const errors: string[] = [];
  const kind = scanIP(value);
  if (kind === 0) {
    errors.push(ipMessages.invalidIP);
    return errors;
  }
  strictIPErrors(kind, errors);
  if (errors.length !== 0) return errors;
  const canonical =
    kind === 4
      ? formatV4(v4Value)
      : formatFields(groups[0]!, groups[1]!, groups[2]!, groups[3]!, groups[4]!, groups[5]!, groups[6]!, groups[7]!);
  if (canonical !== value) errors.push(canonicalMessage(canonical));
  return errors;
}

/**
 * Core `IsValidIPForLegacyField` (status.loadBalancer.ingress[].ip and the
 * other pre-1.33 IP fields). A value listed in `allowed` is accepted with no
 * check at all, in both modes. Otherwise ParseIPSloppy must accept it; with
 * `strict` (StrictIPCIDRValidation) it additionally must not have leading
 * zeros and must not be IPv4-mapped IPv6. Canonical form is never required.
 */
export function ipForLegacyField(value: string, options: LegacyFieldOptions): string[] {
  const errors: string[] = [];
  if (options.allowed?.includes(value)) return errors;
  const kind = scanIP(value);
  if (kind === 0) {
    errors.push(ipMessages.invalidIP);
    return errors;
  }
  if (options.strict) strictIPErrors(kind, errors);
  return errors;
}

/**
 * The strict checks of apimachinery's parseCIDR after ParseCIDRSloppy
 * succeeded with `kind`, as one else-if chain: netip.ParsePrefix must accept
 * the text (no leading zeros in the address or the prefix length), the
 * address must not be IPv4-mapped IPv6, and no bit may be set beyond the
 * prefix length.
 */
function strictCIDRErrors(kind: 4 | 6, errors: string[]): void {
  if (sawLeadingZero || sawLongField || prefixLeadingZero) {
    errors.push(ipMessages.cidrLeadingZeros);
    return;
  }
  if (kind === 6 && groupsAreMapped()) {
    errors.push(ipMessages.cidrMapped);
    return;
  }
  const prefix = scannedPrefix;
  let hostBits: number;
  if (kind === 4) {
    hostBits = v4Value & ~maskWord(prefix);
  } else {
    hostBits =
      ((groups[0]! * 0x10000 + groups[1]!) & ~maskWord(prefix)) |
      ((groups[2]! * 0x10000 + groups[3]!) & ~maskWord(prefix - 32)) |
      ((groups[4]! * 0x10000 + groups[5]!) & ~maskWord(prefix - 64)) |
      ((groups[6]! * 0x10000 + groups[7]!) & ~maskWord(prefix - 96));
  }
  if (hostBits !== 0) errors.push(ipMessages.cidrHostBits);
}

/**
 * apimachinery `IsValidCIDR` (strict, canonical; used for ServiceCIDR
 * spec.cidrs): the strict CIDR checks, then the value must equal Go's
 * `ipnet.String()`.
 */
export function isValidCIDR(value: string): string[] {
  const errors: string[] = [];
  const kind = scanCIDR(value);
  if (kind === 0) {
    errors.push(ipMessages.invalidCIDR);
    return errors;
  }
  strictCIDRErrors(kind, errors);
  if (errors.length !== 0) return errors;
  // No host bits are left, so the address is the network address.
  const address =
    kind === 4
      ? formatV4(v4Value)
      : formatFields(groups[0]!, groups[1]!, groups[2]!, groups[3]!, groups[4]!, groups[5]!, groups[6]!, groups[7]!);
  const canonical = `${address}/${scannedPrefix}`;
  if (canonical !== value) errors.push(canonicalMessage(canonical));
  return errors;
}

/**
 * Core `IsValidCIDRForLegacyField` (NetworkPolicy ipBlock cidr / except and the
 * other pre-1.33 CIDR fields). A value listed in `allowed` is accepted with no
 * check at all, in both modes. Otherwise ParseCIDRSloppy must accept it (host
 * bits, leading zeros and IPv4-mapped IPv6 are fine); with `strict` the
 * leading-zero, IPv4-mapped and host-bits checks apply, at most one of them.
 */
export function cidrForLegacyField(value: string, options: LegacyFieldOptions): string[] {
  const errors: string[] = [];
  if (options.allowed?.includes(value)) return errors;
  const kind = scanCIDR(value);
  if (kind === 0) {
    errors.push(ipMessages.invalidCIDR);
    return errors;
  }
  if (options.strict) strictCIDRErrors(kind, errors);
  return errors;
}
