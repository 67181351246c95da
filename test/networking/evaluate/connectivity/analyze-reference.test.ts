// analyzeConnectivity and diffConnectivity against the plainly written reference of
// test/support/connectivity/reference.ts (itself pinned to hand-worked lists in its own test):
// every line of the list, and every change of the diff, on random clusters (the policy engine's
// cluster arbitraries, their pods taken as workloads, with now and then an invalid policy, a second
// policy of the same name, and workloads that exist on one side of a diff only).
//
// Then the same on the real repositories of test/fixtures/connectivity (SOURCES.md): each
// revision's list read with readTopology, and the diff between its two revisions both ways.
//
// CLUSTERWIRE_PROPERTY_RUNS=N sets every property's run count to N (test/support/property-runs.ts).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeConnectivity,
  diffConnectivity,
  fromJson,
  toJson,
  type ClusterPod,
  type ClusterWorkload,
  type ConnectivityChange,
  type ConnectivityInput,
  type ConnectivityLine,
  type ConnectivityPeer,
  type NetworkPolicy,
} from "../../../../src/networking/index.js";
import { readTopology, type ManifestFile } from "../../../../src/connectivity/index.js";
import { arbCluster, arbClusterPair } from "../../../../src/testing/index.js";
import { referenceDiff, referenceLines, referencePolicies } from "../../../support/connectivity/reference.js";
import { nonEmpty } from "../../../support/non-empty.js";
import { propertyRuns } from "../../../support/property-runs.js";

const KINDS = ["Deployment", "Pod", "StatefulSet", "DaemonSet", "Job"];

/** A generated pod as a workload (pods are unique by namespace/name, so workloads by key). */
function workloadOf(pod: ClusterPod, i: number): ClusterWorkload {
  return {
    namespace: pod.namespace,
    kind: KINDS[i % KINDS.length]!,
    name: pod.name,
    ...(pod.labels !== undefined ? { labels: pod.labels } : {}),
    ...(pod.ports !== undefined ? { ports: pod.ports } : {}),
    ...(pod.hostNetwork === true ? { hostNetwork: true } : {}),
  };
}

function policyFrom(json: object): NetworkPolicy {
  return fromJson({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", ...json } as never) as NetworkPolicy;
}

/** Now and then a policy validate() rejects, and a second policy under an earlier one's name. */
const arbExtras = fc.record({
  invalid: fc.option(fc.nat(), { freq: 4 }),
  duplicate: fc.option(fc.tuple(fc.nat(), fc.nat()), { freq: 3 }),
});

function withExtras(
  namespaces: readonly { name: string }[],
  policies: readonly NetworkPolicy[],
  extras: { invalid: number | null; duplicate: [number, number] | null },
): NetworkPolicy[] {
  const out = [...policies];
  if (extras.duplicate !== null && policies.length > 0) {
    // The name of one policy over the spec of another: the second of the name must be left out.
    const named = policies[extras.duplicate[0] % policies.length]!;
    const spec = policies[extras.duplicate[1] % policies.length]!;
    const meta = named.metadata;
    out.push(
      policyFrom({
        metadata: { name: meta?.name ?? "", ...(meta?.namespace ? { namespace: meta.namespace } : {}) },
        spec: (toJson(spec) as { spec?: unknown }).spec ?? {},
      }),
    );
  }
  if (extras.invalid !== null) {
    const at = namespaces[extras.invalid % namespaces.length]!.name;
    out.splice(
      extras.invalid % (out.length + 1),
      0,
      policyFrom({
        metadata: { name: "invalid", namespace: at },
        spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/33" } }] }] },
      }),
    );
  }
  return out;
}

const arbInput: fc.Arbitrary<ConnectivityInput> = fc
  .record({ cluster: arbCluster({ maxPods: 6, maxPolicies: 5 }), extras: arbExtras })
  .map(({ cluster, extras }) => ({
    namespaces: cluster.namespaces,
    workloads: cluster.pods.map(workloadOf),
    policies: withExtras(cluster.namespaces, cluster.policies, extras),
  }));

/** Two snapshots: often one edit of the policies apart, with workloads dropped from either side. */
const arbInputPair: fc.Arbitrary<{ before: ConnectivityInput; after: ConnectivityInput }> = fc
  .record({
    pair: arbClusterPair({ maxPods: 6, maxPolicies: 4 }),
    dropBefore: fc.option(fc.nat(), { freq: 3 }),
    dropAfter: fc.option(fc.nat(), { freq: 3 }),
  })
  .map(({ pair, dropBefore, dropAfter }) => {
    const workloads = pair.pods.map(workloadOf);
    const without = (drop: number | null) =>
      drop === null || workloads.length === 0 ? workloads : workloads.filter((_, i) => i !== drop % workloads.length);
    return {
      before: { namespaces: pair.namespaces, workloads: without(dropBefore), policies: pair.policies },
      after: { namespaces: pair.namespaces, workloads: without(dropAfter), policies: pair.otherPolicies },
    };
  });

// ------------------------------------------------------------------ the contract's fields only

function peer(p: ConnectivityPeer): ConnectivityPeer {
  if (p.type === "workload")
    return { type: "workload", key: p.key, namespace: p.namespace, kind: p.kind, name: p.name };
  return {
    type: "external",
    key: p.key,
    ranges: p.ranges.map((r) => ({ family: r.family, first: r.first, last: r.last, cidrs: [...r.cidrs] })),
  };
}

function connections(c: ConnectivityLine["connections"]): ConnectivityLine["connections"] {
  const ranges = (list: readonly { from: number; to: number }[]) => list.map((r) => ({ from: r.from, to: r.to }));
  return { TCP: ranges(c.TCP), UDP: ranges(c.UDP), SCTP: ranges(c.SCTP) };
}

function lineOf(l: ConnectivityLine): ConnectivityLine {
  return { from: peer(l.from), to: peer(l.to), connections: connections(l.connections) };
}

function changeOf(c: ConnectivityChange): ConnectivityChange {
  return {
    kind: c.kind,
    from: peer(c.from),
    to: peer(c.to),
    before: connections(c.before),
    after: connections(c.after),
    ...(c.workload !== undefined ? { workload: c.workload } : {}),
  };
}

function shown(input: ConnectivityInput): unknown {
  return {
    namespaces: input.namespaces,
    workloads: input.workloads,
    policies: input.policies.map((p) => {
      const j = toJson(p) as { metadata?: unknown; spec?: unknown };
      return { metadata: j.metadata, spec: j.spec };
    }),
  };
}

/** Runs the check; on failure the message carries the inputs as JSON. */
function explained(inputs: Record<string, ConnectivityInput>, check: () => void): void {
  try {
    check();
  } catch (e) {
    if (e instanceof Error) {
      const all = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, shown(v)]));
      e.message = `${e.message}\ninputs: ${JSON.stringify(all, null, 1)}`;
    }
    throw e;
  }
}

// ------------------------------------------------------------------ the properties

describe("analyzeConnectivity against the reference", () => {
  it("every line of the list, in order, and the policies kept", () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        explained({ input }, () => {
          const analysis = analyzeConnectivity(input);
          expect(analysis.lines().map(lineOf)).toStrictEqual(referenceLines(input));
          expect(analysis.policies.map((p) => ({ key: p.key, index: p.index }))).toStrictEqual(
            referencePolicies(input),
          );
        });
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it("every change of the diff, and the workloads added and removed", () => {
    fc.assert(
      fc.property(arbInputPair, ({ before, after }) => {
        explained({ before, after }, () => {
          const diff = diffConnectivity(before, after);
          const want = referenceDiff(before, after);
          expect(diff.changes.map(changeOf)).toStrictEqual(want.changes);
          expect([...diff.addedWorkloads]).toStrictEqual(want.addedWorkloads);
          expect([...diff.removedWorkloads]).toStrictEqual(want.removedWorkloads);
        });
      }),
      { numRuns: propertyRuns(25) },
    );
  });
});

// ------------------------------------------------------------------ the real repositories

const FIXTURES = fileURLToPath(new URL("../../../fixtures/connectivity/", import.meta.url));

function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Every file under `dir`, named by its path below it, as `reach DIR` would show it. */
function manifestFiles(dir: string, prefix = ""): ManifestFile[] {
  const out: ManifestFile[] = [];
  for (const d of readdirSync(dir + prefix, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const name = `${prefix}${d.name}`;
    if (d.isDirectory()) out.push(...manifestFiles(dir, `${name}/`));
    else out.push({ name, text: readFileSync(dir + name, "utf8") });
  }
  return out;
}

function snapshot(repo: string, revision: string): ConnectivityInput {
  const topology = readTopology(
    nonEmpty(manifestFiles(`${FIXTURES}${repo}/${revision}/`), `files of ${repo}/${revision}`),
  );
  expect(topology.problems).toStrictEqual([]);
  nonEmpty(topology.input.workloads, `workloads of ${repo}/${revision}`);
  nonEmpty(topology.input.policies, `NetworkPolicies of ${repo}/${revision}`);
  return topology.input;
}

describe("analyzeConnectivity against the reference on real repositories", () => {
  // Listed before the loop so that a missing folder fails one named test, not the whole file.
  const repos = existsSync(FIXTURES) ? folders(FIXTURES) : [];
  it("the repositories are there", () => {
    nonEmpty(repos, `repositories in ${FIXTURES}`);
  });
  for (const repo of repos) {
    const revisions = nonEmpty(folders(`${FIXTURES}${repo}`), `revisions of ${repo}`, 2);
    for (const revision of revisions) {
      it(`${repo} at ${revision}: every line`, () => {
        const input = snapshot(repo, revision);
        expect(analyzeConnectivity(input).lines().map(lineOf)).toStrictEqual(nonEmpty(referenceLines(input), "lines"));
      });
    }
    // Both ways, so the test does not depend on which revision is the older.
    for (const before of revisions) {
      for (const after of revisions) {
        if (before === after) continue;
        it(`${repo}: ${before} to ${after}, every change`, () => {
          const [a, b] = [snapshot(repo, before), snapshot(repo, after)];
          const diff = diffConnectivity(a, b);
          const want = referenceDiff(a, b);
          nonEmpty(want.changes, `changes from ${before} to ${after}`);
          expect(diff.changes.map(changeOf)).toStrictEqual(want.changes);
          expect([...diff.addedWorkloads]).toStrictEqual(want.addedWorkloads);
          expect([...diff.removedWorkloads]).toStrictEqual(want.removedWorkloads);
        });
      }
    }
  }
});
