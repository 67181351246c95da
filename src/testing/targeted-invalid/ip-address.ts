// IPAddress mutations: one violation each of the IPAddress rules.

import fc from "fast-check";
import { formatIPv4, formatIPv6, ipv6Groups } from "../addresses.js";
import { arbIPValue } from "../building-blocks/ip.js";
import type { ValidatedKind } from "../valid-objects.js";
import { type Mutation, REQUIRED, INVALID, mutation, err, ensureObj } from "./mutation.js";
import { metaMutations } from "./metadata.js";
import { BAD_SEGMENT_NAMES } from "./bad-values.js";

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

export function ipAddressMutations(): Mutation[] {
  const K: ValidatedKind = "IPAddress";
  return [
    mutation(
      "ipaddress.name.not-canonical-ip",
      K,
      "ValidateIPAddressName = strict IsValidIP",
      arbBadIPName(),
      (o, name) => {
        ensureObj(o, "metadata")["name"] = name;
        return err(INVALID, "metadata.name");
      },
    ),
    mutation("ipaddress.parentRef.missing", K, "validateIPAddressParentReference: nil", fc.boolean(), (o, noSpec) => {
      if (noSpec) delete o["spec"];
      else o["spec"] = {};
      return err(REQUIRED, "spec.parentRef");
    }),
    mutation(
      "ipaddress.parentRef.required",
      K,
      "validateIPAddressParentReference: resource/name Required",
      fc.tuple(fc.constantFrom("resource", "name"), fc.boolean()),
      (o, [which, explicit]) => {
        const ref = ensureObj(ensureObj(o, "spec"), "parentRef");
        if (explicit) ref[which] = "";
        else delete ref[which];
        return err(REQUIRED, `spec.parentRef.${which}`);
      },
    ),
    mutation(
      "ipaddress.parentRef.segment",
      K,
      "validateIPAddressParentReference: path segment names",
      fc.tuple(fc.constantFrom("resource", "name"), fc.constantFrom(...BAD_SEGMENT_NAMES)),
      (o, [which, bad]) => {
        ensureObj(ensureObj(o, "spec"), "parentRef")[which] = bad;
        return err(INVALID, `spec.parentRef.${which}`);
      },
    ),
    mutation(
      "ipaddress.parentRef.group",
      K,
      "validateIPAddressParentReference: group DNS-1123 subdomain",
      fc.constantFrom("Bad_Group", "example.com.", "UPPER.io", "a".repeat(254)),
      (o, g) => {
        ensureObj(ensureObj(o, "spec"), "parentRef")["group"] = g;
        return err(INVALID, "spec.parentRef.group");
      },
    ),
    mutation(
      "ipaddress.parentRef.namespace",
      K,
      "validateIPAddressParentReference: namespace",
      fc.constantFrom("a/b", "..", "a%b"),
      (o, ns) => {
        ensureObj(ensureObj(o, "spec"), "parentRef")["namespace"] = ns;
        return err(INVALID, "spec.parentRef.namespace");
      },
    ),
    ...metaMutations(K),
  ];
}
