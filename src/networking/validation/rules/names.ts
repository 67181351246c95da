// The API server's name and format checks (apimachinery util/validation and
// api/validate/content). Each returns the detail messages upstream returns, in
// upstream order; an empty array means valid. Lengths are UTF-8 bytes, as in Go.

const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
const WILDCARD_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

// The formats above are upstream's and appear in messages. Matching uses
// equivalent patterns written so that each character is consumed one way
// only (no backtracking), which V8 runs 12-25% faster on realistic names.
// The tests hold them to upstream's.
const LABEL_M = "[a-z0-9]+(?:-+[a-z0-9]+)*";
const SUBDOMAIN_M = `${LABEL_M}(?:\\.${LABEL_M})*`;
const NAME_M = "[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*";
const anchored = (pattern: string) => new RegExp(`^${pattern}$`);
const DNS1123_LABEL = anchored(LABEL_M);
const DNS1123_SUBDOMAIN = anchored(SUBDOMAIN_M);
const DNS1035_LABEL = anchored("[a-z][a-z0-9]*(?:-+[a-z0-9]+)*");
const WILDCARD = anchored(`\\*\\.${SUBDOMAIN_M}`);
const LABEL_KEY = anchored(NAME_M);
const LABEL_VALUE = anchored(`(?:${NAME_M})?`);
const HTTP_PATH = new RegExp(`^${HTTP_PATH_FMT}$`);
// A whole valid domain-prefixed path: the host can hold no "/", so its
// subdomain ends at the first one, as upstream's split does. One regex call
// instead of slicing and two checks, for the valid case.
const DOMAIN_PREFIXED_PATH = new RegExp(`^${SUBDOMAIN_M}/${HTTP_PATH_FMT}$`);

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
export const DNS1035_LABEL_MAX = 63;
export const LABEL_NAME_MAX = 63;
export const LABEL_VALUE_MAX = 63;
export const PORT_NAME_MAX = 15;

// Two upstream packages say "too long" in their own words, both counting bytes: the older
// util/validation ("characters": DNS names, port names) and api/validate/content ("bytes": label
// keys, with their DNS-subdomain prefix, and label values).
export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

export function contentMaxLenError(n: number): string {
  return `must be no more than ${n} bytes`;
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Upstream appends "'x', " per example and " or " between them: two spaces before "or".
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

export const EMPTY_ERROR = "must be non-empty";

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Length in UTF-8 bytes, as Go's len() counts a string. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // four bytes for two UTF-16 units
        i++;
      } else n += 2; // a lone surrogate becomes U+FFFD: three bytes
    } else n += 2;
  }
  return n;
}

// Shared and typed readonly. Not frozen: V8 iterates a frozen array with
// for-of several times slower, and every check's result is iterated.
const NO_ERRORS: readonly string[] = [];

/** utf8Length(s) > max, without counting when the UTF-16 length settles it (a unit is 1 to 3 bytes). */
export function exceedsBytes(s: string, max: number): boolean {
  if (s.length > max) return true;
  return s.length * 3 > max && utf8Length(s) > max;
}

// Hand-written matchers for the hot path; each is equivalent to its regex
// above (the tests hold them to it). A regex call costs more than these
// loops on the short strings names are.
const LOWER_ALNUM = 1; // [a-z0-9]
const ALNUM = 2; // [A-Za-z0-9]
const KEY_EXT = 4; // [-A-Za-z0-9_.]
const LOWER = 8; // [a-z]
// Indexed by any UTF-16 unit, so lookups need no range check; non-ASCII is 0.
const CLASS = new Uint8Array(65536);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let f = 0;
  if (/[a-z0-9]/.test(ch)) f |= LOWER_ALNUM;
  if (/[A-Za-z0-9]/.test(ch)) f |= ALNUM;
  if (/[-A-Za-z0-9_.]/.test(ch)) f |= KEY_EXT;
  if (/[a-z]/.test(ch)) f |= LOWER;
  CLASS[c] = f;
}

function has(c: number, flag: number): boolean {
  return (CLASS[c]! & flag) !== 0;
}

/** `[a-z0-9]([-a-z0-9]*[a-z0-9])?` over s[start, end); `first` narrows the first character. */
function matchDnsLabel(s: string, start: number, end: number, first: number): boolean {
  if (end <= start) return false;
  if (!has(s.charCodeAt(start), first) || !has(s.charCodeAt(end - 1), LOWER_ALNUM)) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x2d && !has(c, LOWER_ALNUM)) return false;
  }
  return true;
}

/**
 * The DNS-1123 subdomain pattern over s[start, s.length), in one pass: a label
 * starts after the start or a dot and holds no dot; a "-" may not start a
 * label, a "." may not follow "." or "-", and the last character is neither.
 * Measured about 25% faster than finding each dot and matching each label.
 */
function matchDnsSubdomain(s: string, start: number): boolean {
  const n = s.length;
  if (n <= start) return false;
  let prev = 0x2e;
  for (let i = start; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((CLASS[c]! & LOWER_ALNUM) !== 0) prev = c;
    else if (c === 0x2d) {
      if (prev === 0x2e) return false;
      prev = c;
    } else if (c === 0x2e) {
      if (prev === 0x2e || prev === 0x2d) return false;
      prev = c;
    } else return false;
  }
  return prev !== 0x2e && prev !== 0x2d;
}

/** `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]` over s[start, end). */
function matchLabelName(s: string, start: number, end: number): boolean {
  if (end <= start) return false;
  if (!has(s.charCodeAt(start), ALNUM) || !has(s.charCodeAt(end - 1), ALNUM)) return false;
  for (let i = start + 1; i < end - 1; i++) if (!has(s.charCodeAt(i), KEY_EXT)) return false;
  return true;
}

// Measured on Node 20: the JS loops win on short strings, V8's compiled
// regexes on long ones (a 43-character prefixed key: 6.2M/s loop, 12.4M/s
// regex). Strings up to this length take the loop.
const SHORT = 12;

// A prefixed key (the slash is known to be there): without an optional
// prefix group the regex has no second way to try when the prefix fails.
const LABEL_KEY_PREFIXED = anchored(`${SUBDOMAIN_M}/${NAME_M}`);

/** Whether a whole label key is valid: a DNS-1123 prefix of at most 253 bytes and a slash, then a name of at most 63. */
function isValidLabelKey(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) {
    if (s.length > LABEL_NAME_MAX) return false;
    return s.length <= SHORT ? matchLabelName(s, 0, s.length) : LABEL_KEY.test(s);
  }
  // Non-ASCII never matches, so the UTF-16 lengths here are byte lengths.
  if (slash > DNS1123_SUBDOMAIN_MAX || s.length - slash - 1 > LABEL_NAME_MAX) return false;
  return LABEL_KEY_PREFIXED.test(s);
}

/** The DNS-1123 subdomain pattern over the whole of s. */
function isDnsSubdomainText(s: string): boolean {
  return s.length <= SHORT ? matchDnsSubdomain(s, 0) : DNS1123_SUBDOMAIN.test(s);
}

/** Boolean forms of isLabelKey and isLabelValue for hot loops: no result arrays. */
export const labelKeyIsValid = isValidLabelKey;

// A value that matches is ASCII, so its UTF-16 length is its byte length.
export function labelValueIsValid(v: string): boolean {
  return v.length <= LABEL_VALUE_MAX && matchers.labelValue(v);
}

/** The matchers, exposed so tests can hold them to the regexes. */
export const matchers = {
  dns1123Label: (s: string) =>
    s.length <= SHORT ? matchDnsLabel(s, 0, s.length, LOWER_ALNUM) && s.indexOf(".") < 0 : DNS1123_LABEL.test(s),
  dns1123LabelLoop: (s: string) => matchDnsLabel(s, 0, s.length, LOWER_ALNUM) && s.indexOf(".") < 0,
  dns1123Subdomain: isDnsSubdomainText,
  dns1123SubdomainLoop: (s: string) => matchDnsSubdomain(s, 0),
  labelNameLoop: (s: string) => matchLabelName(s, 0, s.length),
  dns1035Label: (s: string) =>
    s.length <= SHORT ? matchDnsLabel(s, 0, s.length, LOWER) && s.indexOf(".") < 0 : DNS1035_LABEL.test(s),
  dns1035LabelLoop: (s: string) => matchDnsLabel(s, 0, s.length, LOWER) && s.indexOf(".") < 0,
  wildcard: (s: string) => WILDCARD.test(s),
  labelName: (s: string) => matchLabelName(s, 0, s.length),
  labelKey: isValidLabelKey,
  labelValue: (s: string) =>
    s.length === 0 || (s.length <= SHORT ? matchLabelName(s, 0, s.length) : LABEL_VALUE.test(s)),
  domainPrefixedPath: domainPrefixedPathIsValid,
  regexes: {
    DNS1123_LABEL,
    DNS1123_SUBDOMAIN,
    DNS1035_LABEL,
    WILDCARD,
    LABEL_KEY,
    LABEL_VALUE,
    LABEL_KEY_PREFIXED,
  },
};

const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const LABEL_KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

// The pattern messages never depend on the value, so they are built once.
const DNS1123_LABEL_ERROR = regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc");
const DNS1123_SUBDOMAIN_ERROR = regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com");
const DNS1035_LABEL_ERROR = regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123");
const WILDCARD_ERROR = regexError(WILDCARD_MSG, WILDCARD_FMT, "*.example.com");
const LABEL_VALUE_ERROR = regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345");

// The shape most upstream checks share: a byte limit, then a pattern, each
// with its own message.
function lengthAndPattern(
  value: string,
  max: number,
  matches: boolean,
  patternError: string,
  lengthError: (n: number) => string = maxLenError,
): readonly string[] {
  const tooLong = exceedsBytes(value, max);
  if (!tooLong && matches) return NO_ERRORS;
  const errs: string[] = [];
  if (tooLong) errs.push(lengthError(max));
  if (!matches) errs.push(patternError);
  return errs;
}

export function isDns1123Label(value: string): readonly string[] {
  const matches = matchers.dns1123Label(value);
  // A valid subdomain that is not a label can only have failed on its dots.
  const patternError = matches || !isDnsSubdomainText(value) ? DNS1123_LABEL_ERROR : "must not contain dots";
  return lengthAndPattern(value, DNS1123_LABEL_MAX, matches, patternError);
}

export function isDns1123Subdomain(value: string): readonly string[] {
  return lengthAndPattern(value, DNS1123_SUBDOMAIN_MAX, isDnsSubdomainText(value), DNS1123_SUBDOMAIN_ERROR);
}

// The content package's copy, which a label key's prefix is checked with.
function isContentDns1123Subdomain(value: string): readonly string[] {
  const matches = isDnsSubdomainText(value);
  return lengthAndPattern(value, DNS1123_SUBDOMAIN_MAX, matches, DNS1123_SUBDOMAIN_ERROR, contentMaxLenError);
}

export function isDns1035Label(value: string): readonly string[] {
  return lengthAndPattern(value, DNS1035_LABEL_MAX, matchers.dns1035Label(value), DNS1035_LABEL_ERROR);
}

export function isWildcardDns1123Subdomain(value: string): readonly string[] {
  return lengthAndPattern(value, DNS1123_SUBDOMAIN_MAX, matchers.wildcard(value), WILDCARD_ERROR);
}

/** A label key, also called a qualified name: an optional DNS-subdomain prefix, a slash, and a name. */
export function isLabelKey(value: string): readonly string[] {
  const slash = value.indexOf("/");
  if (isValidLabelKey(value)) return NO_ERRORS;
  const errs: string[] = [];
  let name: string;
  if (slash < 0) {
    name = value;
  } else if (value.indexOf("/", slash + 1) >= 0) {
    errs.push(
      `a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    );
    return errs;
  } else {
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else for (const m of isContentDns1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (utf8Length(name) > LABEL_NAME_MAX) errs.push(`name part ${contentMaxLenError(LABEL_NAME_MAX)}`);
  if (!matchLabelName(name, 0, name.length))
    errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")}`);
  return errs.length === 0 ? NO_ERRORS : errs;
}

export function isLabelValue(value: string): readonly string[] {
  return lengthAndPattern(value, LABEL_VALUE_MAX, matchers.labelValue(value), LABEL_VALUE_ERROR, contentMaxLenError);
}

export function isValidPortNum(port: number): readonly string[] {
  return port >= 1 && port <= 65535 ? NO_ERRORS : [inclusiveRangeError(1, 65535)];
}

const PORT_NAME_CHARSET = /^[-a-z0-9]+$/;
const HAS_LETTER = /[a-z]/;

/** An IANA service name: at most 15 of [-a-z0-9], a letter, no "--", no hyphen at either end. */
export function isValidPortName(port: string): readonly string[] {
  if (isValidPortNameFast(port)) return NO_ERRORS;
  const errs: string[] = [];
  if (utf8Length(port) > PORT_NAME_MAX) errs.push(maxLenError(PORT_NAME_MAX));
  if (!PORT_NAME_CHARSET.test(port))
    errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!HAS_LETTER.test(port)) errs.push("must contain at least one letter (a-z)");
  if (port.includes("--")) errs.push("must not contain consecutive hyphens");
  if (port.length > 0 && (port.startsWith("-") || port.endsWith("-"))) errs.push("must not begin or end with a hyphen");
  return errs.length === 0 ? NO_ERRORS : errs;
}

function isValidPortNameFast(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > PORT_NAME_MAX || s.charCodeAt(0) === 0x2d || s.charCodeAt(n - 1) === 0x2d) return false;
  let letter = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2d) {
      if (s.charCodeAt(i + 1) === 0x2d) return false;
    } else if (has(c, LOWER)) letter = true;
    else if (!has(c, LOWER_ALNUM)) return false;
  }
  return letter;
}

/**
 * A domain-prefixed path such as `acme.io/foo` (IngressClass controller).
 * Each entry pairs the message with the value upstream reports it against:
 * the host part, the path part, or the whole string.
 */
export function isDomainPrefixedPath(value: string): readonly { readonly value: string; readonly detail: string }[] {
  if (domainPrefixedPathIsValid(value)) return NO_PATH_ERRORS;
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) {
    return [{ value, detail: 'must be a domain-prefixed path (such as "acme.io/foo")' }];
  }
  const host = value.slice(0, slash);
  const path = value.slice(slash + 1);
  const out: { value: string; detail: string }[] = [];
  for (const detail of isDns1123Subdomain(host)) out.push({ value: host, detail });
  if (!HTTP_PATH.test(path)) out.push({ value: path, detail: regexError("Invalid path", HTTP_PATH_FMT) });
  return out;
}

const NO_PATH_ERRORS: readonly { readonly value: string; readonly detail: string }[] = [];

/** isDomainPrefixedPath(value) is empty: a match is ASCII, so the host's length is its byte length. */
export function domainPrefixedPathIsValid(value: string): boolean {
  // A value of at most 254 units has its first "/" at index 253 or before: no search needed.
  return (
    DOMAIN_PREFIXED_PATH.test(value) &&
    (value.length <= DNS1123_SUBDOMAIN_MAX + 1 || value.indexOf("/") <= DNS1123_SUBDOMAIN_MAX)
  );
}

/** Whether a name can be used as a REST path segment; empty names are the caller's business. */
export function isPathSegmentName(name: string): readonly string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  return isPathSegmentPrefix(name);
}

/** Whether a name can start a REST path segment (generateName): no '/' or '%'. */
export function isPathSegmentPrefix(name: string): readonly string[] {
  if (!hasSlashOrPercent(name)) return NO_ERRORS;
  const errs: string[] = [];
  if (name.includes("/")) errs.push("may not contain '/'");
  if (name.includes("%")) errs.push("may not contain '%'");
  return errs;
}

/**
 * name.includes("/") || name.includes("%"), exported for the tests, which
 * hold it to the two calls. A scan by hand wins only on names of a few
 * characters; from about six, the two native searches cost less (measured
 * on Node 20: 17 characters, 67 ns scanned, 27 ns searched), and kinds and
 * names are mostly longer.
 */
export function hasSlashOrPercent(name: string): boolean {
  return name.indexOf("/") >= 0 || name.indexOf("%") >= 0;
}

/** isPathSegmentName(name) is empty, without a result array. */
export function pathSegmentNameIsValid(name: string): boolean {
  return name !== "." && name !== ".." && !hasSlashOrPercent(name);
}

/** isDns1123Subdomain(value) is empty: a match is ASCII, so its UTF-16 length is its byte length. */
export function dns1123SubdomainIsValid(value: string): boolean {
  return value.length <= DNS1123_SUBDOMAIN_MAX && isDnsSubdomainText(value);
}

/** isDns1123Label(value) is empty (as dns1123SubdomainIsValid). */
export function dns1123LabelIsValid(value: string): boolean {
  return value.length <= DNS1123_LABEL_MAX && matchers.dns1123Label(value);
}

// generateName prefixes may end in "-": upstream swaps it for a letter before checking.
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

/** apimachinery NameIsDNSSubdomain: object names, secret names, ingress class names. */
export function nameIsDnsSubdomain(name: string, prefix: boolean): readonly string[] {
  return isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

/** apimachinery NameIsDNSLabel: namespace names, relaxed service names. */
export function nameIsDnsLabel(name: string, prefix: boolean): readonly string[] {
  return isDns1123Label(prefix ? maskTrailingDash(name) : name);
}

/** apimachinery NameIsDNS1035Label: service names. */
export function nameIsDns1035Label(name: string, prefix: boolean): readonly string[] {
  return isDns1035Label(prefix ? maskTrailingDash(name) : name);
}
