// Random clusters (src/testing/clusters/cluster.ts) held to fast-check's quality checks
// (../quality.ts): every policy passes validate(), pod keys are unique, and the engine takes the
// cluster; sizes stay within the options; and every policy has its namespace listed.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPolicyEngine, fromJson, validate, type NetworkPolicy } from "../../../src/networking/index.js";
import * as cluster from "../../../src/testing/clusters/cluster.js";
import { checkEntries, entry, expectCatalogued } from "../catalogue.js";

const ENTRIES = [
  entry(
    "arbCluster",
    cluster.arbCluster(),
    (c) => {
      for (const p of c.policies) expect(validate(p)).toEqual([]);
      const keys = c.pods.map((p) => `${p.namespace}/${p.name}`);
      expect(new Set(keys).size).toBe(keys.length);
      createPolicyEngine(c);
    },
    { runs: 100 },
  ),
  entry(
    "arbClusterPair",
    cluster.arbClusterPair(),
    (c) => {
      for (const p of c.otherPolicies) expect(validate(p)).toEqual([]);
      createPolicyEngine({ ...c, policies: c.otherPolicies });
    },
    { runs: 60 },
  ),
];

const policyIn = (namespace: string | undefined): NetworkPolicy =>
  fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: namespace === undefined ? { name: "p" } : { name: "p", namespace },
    spec: { podSelector: {} },
  }) as NetworkPolicy;

describe("random clusters", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of cluster.ts is in the catalogue above", () => {
    expectCatalogued(cluster, ENTRIES);
  });

  it("sizes stay within the options", () => {
    const options = { maxNamespaces: 2, minPods: 3, maxPods: 4, maxPolicies: 2 };
    for (const c of fc.sample(cluster.arbCluster(options), { seed: 5, numRuns: 200 })) {
      expect(c.pods.length).toBeGreaterThanOrEqual(3);
      expect(c.pods.length).toBeLessThanOrEqual(4);
      expect(c.policies.length).toBeLessThanOrEqual(2);
      // The namespaces drawn, plus at most one per policy that lives where no pod does.
      expect(c.namespaces.length).toBeLessThanOrEqual(2 + c.policies.length);
    }
    for (const pair of fc.sample(cluster.arbClusterPair({ maxPolicies: 1 }), { seed: 5, numRuns: 100 })) {
      expect(pair.policies.length).toBeLessThanOrEqual(1);
      // An edit keeps at most one policy and adds up to two; an unrelated set has up to maxPolicies.
      expect(pair.otherPolicies.length).toBeLessThanOrEqual(3);
      expect(new Set(pair.otherPolicies.map((p) => p.metadata?.namespace || "default"))).toSatisfy(
        (homes: Set<string>) => [...homes].every((h) => pair.namespaces.some((n) => n.name === h)),
      );
    }
  });

  it("withPolicyHomes lists a policy's namespace, default for none, once and without labels", () => {
    const listed = [{ name: "x", labels: { team: "a" } }];
    expect(cluster.withPolicyHomes(listed, [policyIn("x"), policyIn("v"), policyIn(undefined), policyIn("v")])).toEqual(
      [{ name: "x", labels: { team: "a" } }, { name: "v" }, { name: "default" }],
    );
    expect(cluster.withPolicyHomes(listed, [])).toEqual(listed);
  });
});
