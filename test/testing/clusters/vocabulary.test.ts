// The vocabularies random clusters are drawn from (src/testing/clusters/vocabulary.ts): each
// holds one value nothing else has, so that misses are drawn too, and the shared arbitraries
// keep to their words and odds.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  LABEL_KEYS,
  LABEL_VALUES,
  NAME_VALUES,
  NAMESPACE_NAMES,
  OPERATORS,
  POLICY_ONLY_NAMESPACE,
  PORT_NAMES,
  PROTOCOLS,
  RULE_PORT_NAMES,
  chance,
  labelsArb,
} from "../../../src/testing/clusters/vocabulary.js";

describe("cluster vocabularies", () => {
  it("each list a rule may name from holds one value no pod or namespace has", () => {
    expect(NAME_VALUES.filter((n) => !(NAMESPACE_NAMES as readonly string[]).includes(n))).toEqual(["w"]);
    expect(RULE_PORT_NAMES.filter((n) => !PORT_NAMES.includes(n))).toEqual(["nope"]);
    expect([...NAMESPACE_NAMES, "w"]).not.toContain(POLICY_ONLY_NAMESPACE);
  });

  it("every protocol, and none; every selector operator", () => {
    expect(PROTOCOLS).toEqual([undefined, "TCP", "UDP", "SCTP"]);
    expect(OPERATORS).toEqual(["In", "NotIn", "Exists", "DoesNotExist"]);
  });

  it("labelsArb: up to three labels from the vocabulary, none at all included", () => {
    const sample = fc.sample(labelsArb(), { seed: 2, numRuns: 300 });
    for (const labels of sample) {
      expect(Object.keys(labels).length).toBeLessThanOrEqual(3);
      for (const [k, v] of Object.entries(labels))
        expect([LABEL_KEYS.includes(k), LABEL_VALUES.includes(v)]).toEqual([true, true]);
    }
    expect(sample.some((l) => Object.keys(l).length === 0)).toBe(true);
    expect(sample.some((l) => Object.keys(l).length === 3)).toBe(true);
  });

  it("chance(p): true about p in 100 times, never at 0, always at 100, and shrinking to false", () => {
    const rate = (p: number) => fc.sample(chance(p), { seed: 9, numRuns: 2000 }).filter(Boolean).length / 2000;
    expect(rate(0)).toBe(0);
    expect(rate(100)).toBe(1);
    expect(rate(25)).toBeGreaterThan(0.2);
    expect(rate(25)).toBeLessThan(0.3);
    const failure = fc.check(
      fc.property(chance(50), () => false),
      { seed: 1 },
    );
    expect(failure.counterexample).toEqual([false]);
  });
});
