// The building blocks for DNS names, Ingress hosts and controller names
// (src/testing/building-blocks/names.ts), held to fast-check's quality checks (../quality.ts)
// against the contracts of ../contracts.ts.

import { describe, expect, it } from "vitest";
import * as names from "../../../src/testing/building-blocks/names.js";
import { checkEntries, entry, expectCatalogued } from "../catalogue.js";
import { DNS1035_LABEL, isLabel, isSubdomain, isIPv4Text } from "../contracts.js";

const ENTRIES = [
  entry("arbDns1123Label", names.arbDns1123Label(), isLabel),
  entry("arbDns1035Label", names.arbDns1035Label(), (s) => s.length <= 63 && DNS1035_LABEL.test(s)),
  entry("arbDns1123Subdomain", names.arbDns1123Subdomain(), (s) => isSubdomain(s)),
  entry(
    "arbWildcardHost",
    names.arbWildcardHost(),
    (s) => s.startsWith("*.") && s.length <= 253 && isSubdomain(s.slice(2)),
  ),
  entry("arbDnsHost", names.arbDnsHost(), (s) => isSubdomain(s) && !isIPv4Text(s)),
  entry("arbIngressHost", names.arbIngressHost(), (s) =>
    s.startsWith("*.") ? isSubdomain(s.slice(2), 251) : isSubdomain(s) && !isIPv4Text(s),
  ),
  entry("arbControllerName", names.arbControllerName(), (s) => {
    const slash = s.indexOf("/");
    return s.length <= 250 && slash > 0 && isSubdomain(s.slice(0, slash)) && slash < s.length - 1;
  }),
];

describe("building blocks: DNS names, Ingress hosts and controller names", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of names.ts is in the catalogue above", () => {
    expectCatalogued(names, ENTRIES);
  });

  it("looksLikeIPv4 is Go's sloppy IPv4 reading: four decimal parts up to 255, leading zeros allowed", () => {
    expect(["1.2.3.4", "010.0.0.255", "255.255.255.255"].map(names.looksLikeIPv4)).toEqual([true, true, true]);
    expect(["1.2.3.256", "1.2.3", "1.2.3.4.5", "a.b.c.d", "1.2.3.-4", ""].map(names.looksLikeIPv4)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
