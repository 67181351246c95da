// The hand-written name matchers against the upstream regexes they replace,
// and the message lists of the name checks.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dns1123LabelIsValid,
  dns1123SubdomainIsValid,
  hasSlashOrPercent,
  isDns1123Label,
  isDns1123Subdomain,
  isDomainPrefixedPath,
  isLabelKey,
  isLabelValue,
  isPathSegmentName,
  isValidPortName,
  matchers,
  pathSegmentNameIsValid,
  utf8Length,
} from "../../../../src/networking/validation/rules/names.js";
import { propertyRuns } from "../../../support/property-runs.js";

const RUNS = propertyRuns(3000);

// Upstream's formats verbatim (capturing groups and all), as an independent oracle.
const DNS_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS_SUBDOMAIN = `${DNS_LABEL}(\\.${DNS_LABEL})*`;
const LABEL_NAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const oracle = {
  dns1123Label: new RegExp(`^${DNS_LABEL}$`),
  dns1123Subdomain: new RegExp(`^${DNS_SUBDOMAIN}$`),
  dns1035Label: /^[a-z]([-a-z0-9]*[a-z0-9])?$/,
  wildcard: new RegExp(`^\\*\\.${DNS_SUBDOMAIN}$`),
  labelName: new RegExp(`^${LABEL_NAME}$`),
  labelValue: new RegExp(`^(${LABEL_NAME})?$`),
};

// Strings over the characters that matter, at lengths either side of the loop/regex switch.
const nameish = fc.string({
  unit: fc.constantFrom(..."ab9Z-._/*%é ".split(""), "\u{1F600}"),
  maxLength: 40,
});

describe("hand-written matchers agree with upstream's regexes", () => {
  for (const name of Object.keys(oracle) as (keyof typeof oracle)[]) {
    it(name, () => {
      fc.assert(
        fc.property(nameish, (s) => {
          expect(matchers[name](s)).toBe(oracle[name].test(s));
        }),
        { numRuns: RUNS },
      );
    });
  }

  it("the backtracking-free regexes match exactly what upstream's match", () => {
    const R = matchers.regexes;
    const pairs: [RegExp, RegExp][] = [
      [R.DNS1123_LABEL, oracle.dns1123Label],
      [R.DNS1123_SUBDOMAIN, oracle.dns1123Subdomain],
      [R.DNS1035_LABEL, oracle.dns1035Label],
      [R.WILDCARD, oracle.wildcard],
      [R.LABEL_KEY, oracle.labelName],
      [R.LABEL_VALUE, oracle.labelValue],
      [R.LABEL_KEY_PREFIXED, new RegExp(`^${DNS_SUBDOMAIN}/${LABEL_NAME}$`)],
    ];
    fc.assert(
      fc.property(nameish, (s) => {
        for (const [ours, theirs] of pairs) expect([ours.source, ours.test(s)]).toEqual([ours.source, theirs.test(s)]);
      }),
      { numRuns: RUNS },
    );
  });

  it("the loop forms agree on every length", () => {
    fc.assert(
      fc.property(nameish, (s) => {
        expect(matchers.dns1123SubdomainLoop(s)).toBe(oracle.dns1123Subdomain.test(s));
        expect(matchers.dns1123LabelLoop(s)).toBe(oracle.dns1123Label.test(s));
        expect(matchers.dns1035LabelLoop(s)).toBe(oracle.dns1035Label.test(s));
        expect(matchers.labelNameLoop(s)).toBe(oracle.labelName.test(s));
      }),
      { numRuns: RUNS },
    );
  });

  it("the whole-key check agrees with upstream's split-then-check definition", () => {
    const upstreamValid = (key: string): boolean => {
      const parts = key.split("/");
      if (parts.length > 2) return false;
      const name = parts[parts.length - 1]!;
      if (name.length === 0 || utf8Length(name) > 63 || !oracle.labelName.test(name)) return false;
      if (parts.length === 1) return true;
      const prefix = parts[0]!;
      return prefix.length > 0 && utf8Length(prefix) <= 253 && oracle.dns1123Subdomain.test(prefix);
    };
    const long = fc
      .tuple(fc.integer({ min: 60, max: 260 }), fc.constantFrom("a", "a.b", "A"))
      .map(([n, u]) => u.repeat(Math.ceil(n / u.length)).slice(0, n));
    const key = fc.oneof(
      nameish,
      fc.tuple(long, fc.constantFrom("/", ""), long).map(([a, s, b]) => a + s + b),
    );
    fc.assert(
      fc.property(key, (k) => {
        expect(matchers.labelKey(k)).toBe(upstreamValid(k));
        expect(isLabelKey(k).length === 0).toBe(upstreamValid(k));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("the domain-prefixed path fast check", () => {
  // Upstream's definition: split at the first "/", a DNS-1123 subdomain of at
  // most 253 bytes before it, and a non-empty path of its characters after.
  const upstreamValid = (v: string): boolean => {
    const slash = v.indexOf("/");
    if (slash <= 0 || slash === v.length - 1) return false;
    const host = v.slice(0, slash);
    const path = v.slice(slash + 1);
    return (
      utf8Length(host) <= 253 && oracle.dns1123Subdomain.test(host) && /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(path)
    );
  };
  const pathish = fc.string({ unit: fc.constantFrom(..."a9Z-._/~%!$&'()*+,;=: é#?@".split("")), maxLength: 20 });
  const longHost = fc.integer({ min: 250, max: 256 }).map((n) => "a.".repeat(n).slice(0, n).replace(/\.$/, "b"));
  const value = fc.oneof(
    nameish,
    fc.tuple(nameish, pathish).map(([h, p]) => `${h}/${p}`),
    fc.tuple(longHost, pathish).map(([h, p]) => `${h}/${p}`),
  );

  it("agrees with upstream's split-then-check definition, and with the message list", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(matchers.domainPrefixedPath(v)).toBe(upstreamValid(v));
        expect(isDomainPrefixedPath(v).length === 0).toBe(upstreamValid(v));
      }),
      { numRuns: RUNS },
    );
  });

  it("edge cases", () => {
    for (const v of ["a/b", "example.com/ingress-controller", "a/b/c", "a//", "a/b?", "/a", "a/", "A/b", "a.-b/c"])
      expect(matchers.domainPrefixedPath(v), v).toBe(upstreamValid(v));
    expect(matchers.domainPrefixedPath(`${"a".repeat(253)}/x`)).toBe(true);
    expect(matchers.domainPrefixedPath(`${"a".repeat(254)}/x`)).toBe(false);
  });
});

describe("the path segment scan", () => {
  it("agrees with looking for each character", () => {
    fc.assert(
      fc.property(nameish, (s) => {
        expect(hasSlashOrPercent(s)).toBe(s.includes("/") || s.includes("%"));
      }),
      { numRuns: RUNS },
    );
    for (const s of ["", "/", "%", "a", "a/", "%a", "\u012f", "\u2025"])
      expect(hasSlashOrPercent(s), s).toBe(s.includes("/") || s.includes("%"));
  });
});

describe("the boolean forms agree with the message lists", () => {
  // Near misses around what the boolean forms shortcut: the 63 and 253 limits
  // (in UTF-16 units and in bytes), "-" and "." at either end, upper case, non-ASCII, empty.
  const atLimit = fc
    .tuple(
      fc.integer({ min: 60, max: 66 }),
      fc.integer({ min: 250, max: 256 }),
      fc.constantFrom("a", "-", ".", "A", "é", "\u{1F600}", ""),
      fc.boolean(),
    )
    .map(([short, long, edge, front]) => {
      const body = "a.b-c".repeat(60);
      const n = front ? short : long;
      const s = body.slice(0, n).replace(/[.-]$/, "z");
      return front ? edge + s : s + edge;
    });
  const value = fc.oneof(nameish, atLimit, fc.constantFrom("", ".", "..", "-", "a", "a.", ".a", "a-", "-a", "a..b"));

  it("dns1123SubdomainIsValid, dns1123LabelIsValid, pathSegmentNameIsValid", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(dns1123SubdomainIsValid(v)).toBe(isDns1123Subdomain(v).length === 0);
        expect(dns1123LabelIsValid(v)).toBe(isDns1123Label(v).length === 0);
        expect(pathSegmentNameIsValid(v)).toBe(isPathSegmentName(v).length === 0);
      }),
      { numRuns: RUNS },
    );
    expect(dns1123SubdomainIsValid("a".repeat(253))).toBe(true);
    expect(dns1123SubdomainIsValid("a".repeat(254))).toBe(false);
    expect(dns1123LabelIsValid("a".repeat(63))).toBe(true);
    expect(dns1123LabelIsValid("a".repeat(64))).toBe(false);
    for (const v of [".", ".."]) expect(pathSegmentNameIsValid(v)).toBe(false);
  });
});

describe("message lists", () => {
  it("length messages count UTF-8 bytes", () => {
    // 32 two-byte characters are 64 bytes: within 63 UTF-16 units, over 63 bytes.
    expect(isLabelValue("é".repeat(32))).toHaveLength(2);
    expect(isLabelValue("a".repeat(63))).toEqual([]);
    expect(isLabelValue("a".repeat(64))[0]).toBe("must be no more than 63 bytes");
  });

  it("DNS names say characters (util/validation), label keys and values bytes (api/validate/content)", () => {
    expect(isDns1123Label("a".repeat(64))).toEqual(["must be no more than 63 characters"]);
    expect(isDns1123Subdomain("a".repeat(254))).toEqual(["must be no more than 253 characters"]);
    expect(isLabelKey("a".repeat(64))).toEqual(["name part must be no more than 63 bytes"]);
    expect(isLabelKey(`${"a".repeat(254)}/x`)).toEqual(["prefix part must be no more than 253 bytes"]);
    expect(isLabelValue("a".repeat(64))).toEqual(["must be no more than 63 bytes"]);
  });

  it("a label is told about dots when it would be a valid subdomain", () => {
    expect(isDns1123Label("a.b")).toEqual(["must not contain dots"]);
    expect(isDns1123Label("A")[0]).toMatch(/^a lowercase RFC 1123 label must consist of/);
  });

  it("examples are listed the way upstream's RegexError writes them", () => {
    expect(isDns1123Label("A")[0]).toContain("(e.g. 'my-name',  or '123-abc', regex used for validation is");
    expect(isDns1123Subdomain("A")[0]).toContain("(e.g. 'example.com', regex used for validation is");
  });

  it("label keys: prefix and name parts are reported separately", () => {
    expect(isLabelKey("/a")).toEqual(["prefix part must be non-empty"]);
    expect(isLabelKey("a/")).toHaveLength(2);
    expect(isLabelKey("a/b/c")).toHaveLength(1);
    expect(isLabelKey("a/b/c")[0]).toMatch(/^a valid label key must consist of/);
    expect(isLabelKey("Example.com/x")[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain/);
  });

  it("port names give one message per failed rule", () => {
    expect(isValidPortName("HTTP")).toHaveLength(2);
    expect(isValidPortName("80")).toEqual(["must contain at least one letter (a-z)"]);
    expect(isValidPortName("")).toHaveLength(2);
    expect(isValidPortName("-a--b-")).toEqual([
      "must not contain consecutive hyphens",
      "must not begin or end with a hyphen",
    ]);
    expect(isValidPortName("a".repeat(16))).toEqual(["must be no more than 15 characters"]);
    expect(isValidPortName("http")).toEqual([]);
  });
});
