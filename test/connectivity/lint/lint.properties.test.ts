// The lint's two "removing this changes nothing" warnings against the analysis itself: on random
// clusters (clusterwire/testing's arbCluster, pods as workloads, often with a copy of one policy
// added), the analysis is run again without the policy (CW1003) or without the rule (CW1002), and
// what each direction allows each workload is compared peer by peer, and the lists line by line.
//
// CLUSTERWIRE_PROPERTY_RUNS=N sets the run count (test/support/property-runs.ts).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lintPolicies } from "../../../src/connectivity/lint/lint.js";
import type { LintWarning } from "../../../src/connectivity/lint/rules.js";
import {
  analyzeConnectivity,
  type ConnectivityAnalysis,
  type ConnectivityInput,
  fromJson,
  type NetworkPolicy,
  sameConnectionSet,
  toJson,
} from "../../../src/networking/index.js";
import { arbCluster, type GeneratedCluster } from "../../../src/testing/index.js";
import { propertyRuns } from "../../support/property-runs.js";

interface PolicyJson {
  metadata: { name: string; namespace?: string };
  spec: {
    policyTypes?: string[];
    ingress?: { from?: { ipBlock?: { cidr: string; except?: string[] } }[] }[];
    egress?: { to?: { ipBlock?: { cidr: string; except?: string[] } }[] }[];
  };
}

const json = (p: NetworkPolicy) => toJson(p) as unknown as PolicyJson;
const policyOf = (j: PolicyJson) =>
  fromJson({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", ...j } as never) as NetworkPolicy;

/** The cluster as connectivity input, each pod a workload; `copy` adds a renamed copy of a policy. */
function inputOf(cluster: GeneratedCluster, copy: number | undefined): ConnectivityInput {
  const policies = [...cluster.policies];
  const original = copy === undefined ? undefined : policies[copy % Math.max(1, policies.length)];
  if (original !== undefined) {
    const j = json(original);
    policies.push(policyOf({ ...j, metadata: { ...j.metadata, name: `${j.metadata.name}-copy` } }));
  }
  return {
    namespaces: cluster.namespaces,
    workloads: cluster.pods.map((p) => ({
      namespace: p.namespace,
      kind: "Pod",
      name: p.name,
      ...(p.labels !== undefined ? { labels: p.labels } : {}),
      ...(p.ports !== undefined ? { ports: p.ports } : {}),
      ...(p.hostNetwork === true ? { hostNetwork: true } : {}),
    })),
    policies,
  };
}

/** Every CIDR a policy's ipBlocks name, so that the analysis without it cuts addresses alike. */
function cutsOf(policies: readonly NetworkPolicy[]): string[] {
  const out: string[] = [];
  for (const p of policies) {
    const spec = json(p).spec;
    for (const peer of [
      ...(spec.ingress ?? []).flatMap((r) => r.from ?? []),
      ...(spec.egress ?? []).flatMap((r) => r.to ?? []),
    ]) {
      if (peer.ipBlock === undefined) continue;
      out.push(peer.ipBlock.cidr, ...(peer.ipBlock.except ?? []));
    }
  }
  return out;
}

/**
 * The first difference between two analyses of the same workloads: a line, or what a direction
 * allows one of `subjects` (workload keys: those the removed policies select, as no other can
 * change) with some peer: each other workload, and one address of each segment of `a` (outside
 * the cluster nothing is isolated, so there `between` is what the subject's direction allows).
 */
function difference(a: ConnectivityAnalysis, b: ConnectivityAnalysis, subjects: readonly string[]): string | undefined {
  const lines = (x: ConnectivityAnalysis) => JSON.stringify(x.lines());
  if (lines(a) !== lines(b)) return "the lines";
  for (const s of subjects) {
    for (const w of a.workloads) {
      if (w.key === s) continue;
      if (!sameConnectionSet(a.explain(w.key, s).ingress.connections, b.explain(w.key, s).ingress.connections)) {
        return `ingress of ${s} from ${w.key}`;
      }
      if (!sameConnectionSet(a.explain(s, w.key).egress.connections, b.explain(s, w.key).egress.connections)) {
        return `egress of ${s} to ${w.key}`;
      }
    }
    for (const { first } of a.segments) {
      if (!sameConnectionSet(a.between(first, s), b.between(first, s))) return `ingress of ${s} from ${first}`;
      if (!sameConnectionSet(a.between(s, first), b.between(s, first))) return `egress of ${s} to ${first}`;
    }
  }
  return undefined;
}

function without(input: ConnectivityInput, drop: readonly NetworkPolicy[]): ConnectivityAnalysis {
  return analyzeConnectivity(
    { ...input, policies: input.policies.filter((p) => !drop.includes(p)) },
    { externalCuts: cutsOf(drop) },
  );
}

const arb = fc.record({
  cluster: arbCluster({ maxNamespaces: 2, maxPods: 5, maxPolicies: 4 }),
  copy: fc.option(fc.nat(), { nil: undefined }),
});

describe("CW1003 against the analysis without the policy", () => {
  it("reports a policy exactly when removing it alone changes nothing, but for a later equal one reported instead", () => {
    fc.assert(
      fc.property(arb, ({ cluster, copy }) => {
        const input = inputOf(cluster, copy);
        const analysis = analyzeConnectivity(input);
        const warnings = lintPolicies(analysis, input);
        const reported = (id: string) => new Set(warnings.filter((w) => w.id === id).map((w) => w.policy));
        const redundant = reported("CW1003");
        const empty = reported("CW1001");
        for (const p of analysis.policies) {
          const change = difference(analysis, without(input, [input.policies[p.index]!]), p.selects);
          if (redundant.has(p.key) || empty.has(p.key)) {
            expect(change, `${p.key} is reported, yet removing it changes ${change}`).toBeUndefined();
          } else if (change === undefined) {
            // Not reported although removing it changes nothing: a later policy that shares a
            // workload and a direction with it was reported in its stead.
            const shares = analysis.policies.some(
              (q) =>
                q.index > p.index &&
                redundant.has(q.key) &&
                q.selects.some((w) => p.selects.includes(w)) &&
                ((q.ingress !== null && p.ingress !== null) || (q.egress !== null && p.egress !== null)),
            );
            expect(shares, `removing ${p.key} changes nothing, yet it is not reported`).toBe(true);
          }
        }
        // All reported ones can go together.
        const dropped = analysis.policies.filter((p) => redundant.has(p.key));
        const subjects = [...new Set(dropped.flatMap((p) => p.selects))];
        const drop = dropped.map((p) => input.policies[p.index]!);
        expect(difference(analysis, without(input, drop), subjects)).toBeUndefined();
      }),
      { numRuns: propertyRuns(25) },
    );
  });
});

describe("CW1002 against the analysis without the rule", () => {
  it("reports only rules whose removal changes nothing", () => {
    fc.assert(
      fc.property(arb, ({ cluster, copy }) => {
        const input = inputOf(cluster, copy);
        const analysis = analyzeConnectivity(input);
        for (const w of lintPolicies(analysis, input).filter(
          (x): x is LintWarning & Required<Pick<LintWarning, "rule">> => x.id === "CW1002" && x.rule !== undefined,
        )) {
          const analysed = analysis.policies.find((p) => p.key === w.policy)!;
          const original = input.policies[analysed.index]!;
          const j = json(original);
          const types = [
            ...(analysed.ingress !== null ? ["Ingress"] : []),
            ...(analysed.egress !== null ? ["Egress"] : []),
          ];
          const rules = j.spec[w.rule.direction] ?? [];
          const edited = policyOf({
            ...j,
            spec: { ...j.spec, policyTypes: types, [w.rule.direction]: rules.filter((_, i) => i !== w.rule.index) },
          });
          const after = analyzeConnectivity(
            { ...input, policies: input.policies.map((p) => (p === original ? edited : p)) },
            { externalCuts: cutsOf([original]) },
          );
          const change = difference(analysis, after, analysed.selects);
          expect(change, `${w.message}, yet removing it changes ${change}`).toBeUndefined();
        }
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});
