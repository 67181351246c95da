// The tiny vocabularies random clusters are drawn from (three label keys, three values, four
// namespaces, a handful of ports and port names), so that selectors, ipBlocks and named ports
// actually match something; and the few arbitraries every part of a cluster draws with.

import fc from "fast-check";
import type { Protocol } from "../../networking/index.js";

export const NAMESPACE_NAMES = ["default", "x", "y", "z"] as const;
/** Names selectors may ask for: the namespaces plus one that never exists. */
export const NAME_VALUES = [...NAMESPACE_NAMES, "w"];
/** A namespace only policies live in: listed, without labels, holding no pods. */
export const POLICY_ONLY_NAMESPACE = "v";
export const LABEL_KEYS = ["app", "tier", "team"];
export const LABEL_VALUES = ["a", "b", "c"];
export const POD_NAMES = "abcdefghijklmnopqrstuvwxyz";
export const PORT_NAMES = ["http", "dns", "metrics"];
/** What rules may name: the pod vocabulary plus a name no pod declares. */
export const RULE_PORT_NAMES = [...PORT_NAMES, "nope"];
export const PORT_NUMBERS = [80, 53, 81, 443, 8080];
export const POLICY_NAMES = ["web", "allow", "deny", "db", "zeta"];
export const PROTOCOLS: readonly (Protocol | undefined)[] = [undefined, "TCP", "UDP", "SCTP"];
export const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;
export const V4_PREFIXES = [32, 24, 28, 16, 0, 30, 8, 23, 31];
export const V6_PREFIXES = [128, 112, 64, 120, 0, 48, 127];

/** `true` with the given percentage; shrinks to false. */
export const chance = (percent: number): fc.Arbitrary<boolean> =>
  fc.integer({ min: 0, max: 99 }).map((n) => n >= 100 - percent);

export const labelsArb = (): fc.Arbitrary<Record<string, string>> =>
  fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), { maxKeys: 3 });
