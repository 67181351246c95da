// diffConnectivity: a hand-worked change, then on random cluster pairs every change agrees with
// the two analyses' own answers, and every pair whose answers differ is a change.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ConnectivityInput,
  type NetworkPolicy,
  diffConnectivity,
  formatConnectionSet,
  fromJson,
  sameConnectionSet,
} from "../../../../src/networking/index.js";
import { arbClusterPair } from "../../../../src/testing/index.js";
import { propertyRuns } from "../../../support/property-runs.js";

function policy(namespace: string, name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { namespace, name },
    spec,
  } as never) as NetworkPolicy;
}

const base: ConnectivityInput = {
  namespaces: [{ name: "shop" }],
  workloads: [
    { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
    { namespace: "shop", kind: "Deployment", name: "db", labels: { app: "db" } },
  ],
  policies: [
    policy("shop", "db", {
      podSelector: { matchLabels: { app: "db" } },
      ingress: [{ from: [{ podSelector: {} }], ports: [{ port: 5432 }] }],
    }),
  ],
};

describe("diffConnectivity", () => {
  it("lists added, removed and changed connections, workloads that came and went, and address ranges", () => {
    const head: ConnectivityInput = {
      ...base,
      workloads: [
        ...base.workloads.slice(1),
        { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } },
      ],
      policies: [
        policy("shop", "db", {
          podSelector: { matchLabels: { app: "db" } },
          ingress: [
            {
              from: [{ podSelector: { matchLabels: { app: "api" } } }, { ipBlock: { cidr: "10.0.0.0/8" } }],
              ports: [{ port: 5432 }, { port: 6432 }],
            },
          ],
        }),
      ],
    };
    const d = diffConnectivity(base, head);
    expect(d.addedWorkloads).toEqual(["shop/Deployment/api"]);
    expect(d.removedWorkloads).toEqual(["shop/Deployment/web"]);
    expect(
      d.changes.map(
        (c) =>
          `${c.kind} ${c.from.key} => ${c.to.key}: ${formatConnectionSet(c.before)} -> ${formatConnectionSet(c.after)}${c.workload ? ` (${c.workload})` : ""}`,
      ),
    ).toEqual([
      "removed shop/Deployment/web => shop/Deployment/db: TCP 5432 -> No connections (removed)",
      "removed shop/Deployment/web => 0.0.0.0/0,::/0: All connections -> No connections (removed)",
      "removed shop/Deployment/db => shop/Deployment/web: All connections -> No connections (removed)",
      "added shop/Deployment/db => shop/Deployment/api: No connections -> All connections (added)",
      "added shop/Deployment/api => shop/Deployment/db: No connections -> TCP 5432,6432 (added)",
      "added shop/Deployment/api => 0.0.0.0/0,::/0: No connections -> All connections (added)",
      "removed 0.0.0.0/0,::/0 => shop/Deployment/web: All connections -> No connections (removed)",
      "added 10.0.0.0/8 => shop/Deployment/db: No connections -> TCP 5432,6432",
      "added 0.0.0.0/0,::/0 => shop/Deployment/api: No connections -> All connections (added)",
    ]);
    expect(diffConnectivity(base, base).changes).toEqual([]);
  });

  it("agrees with both analyses on random pairs of policy sets", () => {
    let changes = 0;
    fc.assert(
      fc.property(arbClusterPair({ maxPods: 5, maxPolicies: 4 }), (c) => {
        const input = (policies: NetworkPolicy[]): ConnectivityInput => ({
          namespaces: c.namespaces,
          workloads: c.pods.map((p) => ({
            namespace: p.namespace,
            kind: "Pod",
            name: p.name,
            ...(p.labels ? { labels: p.labels } : {}),
            ...(p.ports ? { ports: p.ports } : {}),
          })),
          policies,
        });
        const d = diffConnectivity(input(c.policies), input(c.otherPolicies));
        const probe = (p: (typeof d.changes)[number]["from"]) => (p.type === "workload" ? p.key : p.ranges[0]!.first);
        for (const ch of d.changes) {
          expect(d.before.between(probe(ch.from), probe(ch.to))).toEqual(ch.before);
          expect(d.after.between(probe(ch.from), probe(ch.to))).toEqual(ch.after);
          expect(sameConnectionSet(ch.before, ch.after)).toBe(false);
          changes++;
        }
        // Every workload pair whose answers differ is listed.
        const listed = new Set(d.changes.map((ch) => `${ch.from.key}|${ch.to.key}`));
        for (const s of d.before.workloads) {
          for (const t of d.before.workloads) {
            if (s === t) continue;
            const differs = !sameConnectionSet(d.before.between(s.key, t.key), d.after.between(s.key, t.key));
            expect(listed.has(`${s.key}|${t.key}`)).toBe(differs);
          }
          // Segments that changed for this source appear in a line with the same before and after.
          const lines = new Set(
            d.changes
              .filter((ch) => ch.from.key === s.key && ch.to.type === "external")
              .map((ch) => `${formatConnectionSet(ch.before)}|${formatConnectionSet(ch.after)}`),
          );
          for (const seg of d.before.segments) {
            const x = d.before.between(s.key, seg.first);
            const y = d.after.between(s.key, seg.first);
            if (!sameConnectionSet(x, y))
              expect(lines.has(`${formatConnectionSet(x)}|${formatConnectionSet(y)}`)).toBe(true);
          }
        }
      }),
      { numRuns: propertyRuns(40) },
    );
    expect(changes).toBeGreaterThan(10);
  });
});
