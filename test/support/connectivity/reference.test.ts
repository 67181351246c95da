// The connectivity reference (reference.ts) pinned to hand-worked examples of the NetworkPolicy
// semantics before it is used as an oracle: each expected list below was worked out by hand from
// the Kubernetes rules (default deny, namespaces, ipBlock with except, named ports, endPort,
// egress-only policies, policyTypes defaults, hostNetwork) and the design's choices (one peer per
// workload, addresses cut at ipBlock edges, adjacent pieces joined). Its CIDR writing is checked
// against ip-num, and its shortcut of judging one port per range against judging every port.

import fc from "fast-check";
import { IPv4CidrRange, IPv6CidrRange } from "ip-num";
import { describe, expect, it } from "vitest";
import type {
  AddressRange,
  ClusterWorkload,
  ConnectionSet,
  ConnectivityInput,
  ConnectivityLine,
  ConnectivityPeer,
} from "../../../src/networking/evaluate/connectivity/types.js";
import { fromJson, type ClusterNamespace, type ClusterPod, type NetworkPolicy } from "../../../src/networking/index.js";
import { parseNetwork } from "../../../src/testing/addresses.js";
import { arbClusterPair } from "../../../src/testing/index.js";
import { propertyRuns } from "../property-runs.js";
import {
  referenceCidrs,
  referenceDiff,
  referenceLines,
  referencePolicies,
  referenceSegments,
  type NumericRange,
} from "./reference.js";

// ------------------------------------------------------------------ writing the expectations

function policy(namespace: string | undefined, name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: namespace === undefined ? { name } : { namespace, name },
    spec,
  } as never) as NetworkPolicy;
}

const EVERY_PORT = [{ from: 1, to: 65535 }];
const ALL: ConnectionSet = { TCP: EVERY_PORT, UDP: EVERY_PORT, SCTP: EVERY_PORT };
const NONE: ConnectionSet = { TCP: [], UDP: [], SCTP: [] };

function ports(text: Partial<Record<"TCP" | "UDP" | "SCTP", [number, number][]>>): ConnectionSet {
  const of = (list: [number, number][] | undefined) => (list ?? []).map(([from, to]) => ({ from, to }));
  return { TCP: of(text.TCP), UDP: of(text.UDP), SCTP: of(text.SCTP) };
}

function wl(w: ClusterWorkload): ConnectivityPeer {
  return {
    type: "workload",
    key: `${w.namespace}/${w.kind}/${w.name}`,
    namespace: w.namespace,
    kind: w.kind,
    name: w.name,
  };
}

function ext(key: string, ranges: AddressRange[]): ConnectivityPeer {
  return { type: "external", key, ranges };
}

const V4_ALL: AddressRange = { family: 4, first: "0.0.0.0", last: "255.255.255.255", cidrs: ["0.0.0.0/0"] };
const V6_ALL: AddressRange = {
  family: 6,
  first: "::",
  last: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
  cidrs: ["::/0"],
};
/** Every address outside the cluster, when nothing cuts or every piece is alike. */
const ANYWHERE = ext("0.0.0.0/0,::/0", [V4_ALL, V6_ALL]);

const line = (from: ConnectivityPeer, to: ConnectivityPeer, connections: ConnectionSet): ConnectivityLine => ({
  from,
  to,
  connections,
});

function input(
  namespaces: ClusterNamespace[],
  workloads: ClusterWorkload[],
  policies: NetworkPolicy[],
): ConnectivityInput {
  return { namespaces, workloads, policies };
}

// ------------------------------------------------------------------ the hand-worked lists

describe("reference lines, worked by hand", () => {
  const web: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } };
  const api: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } };
  const client: ClusterWorkload = { namespace: "other", kind: "Pod", name: "client", labels: { app: "client" } };
  const shopAndOther = [{ name: "shop" }, { name: "other" }];

  it("no policies: everything to everything, self excluded, addresses as one line each way", () => {
    expect(referenceLines(input([{ name: "shop" }], [web, api], []))).toStrictEqual([
      line(wl(web), wl(api), ALL),
      line(wl(web), ANYWHERE, ALL),
      line(wl(api), wl(web), ALL),
      line(wl(api), ANYWHERE, ALL),
      line(ANYWHERE, wl(web), ALL),
      line(ANYWHERE, wl(api), ALL),
    ]);
  });

  it("default deny for ingress closes the namespace's workloads to everyone, itself included", () => {
    const want = [
      line(wl(web), wl(client), ALL),
      line(wl(web), ANYWHERE, ALL),
      line(wl(api), wl(client), ALL),
      line(wl(api), ANYWHERE, ALL),
      line(wl(client), ANYWHERE, ALL),
      line(ANYWHERE, wl(client), ALL),
    ];
    const explicit = policy("shop", "deny", { podSelector: {}, policyTypes: ["Ingress"] });
    expect(referenceLines(input(shopAndOther, [web, api, client], [explicit]))).toStrictEqual(want);
    // policyTypes left out, no egress rules: Ingress only.
    const defaulted = policy("shop", "deny", { podSelector: {} });
    expect(referenceLines(input(shopAndOther, [web, api, client], [defaulted]))).toStrictEqual(want);
    // `egress: []` is no egress rule, so still Ingress only.
    const emptyEgress = policy("shop", "deny", { podSelector: {}, egress: [] });
    expect(referenceLines(input(shopAndOther, [web, api, client], [emptyEgress]))).toStrictEqual(want);
  });

  it("policyTypes defaulted with egress rules isolates both ways", () => {
    // Ingress and Egress: shop's workloads may only send to app=api (which admits nobody).
    const p = policy("shop", "only-api", {
      podSelector: {},
      egress: [{ to: [{ podSelector: { matchLabels: { app: "api" } } }] }],
    });
    expect(referenceLines(input(shopAndOther, [web, api, client], [p]))).toStrictEqual([
      line(wl(client), ANYWHERE, ALL),
      line(ANYWHERE, wl(client), ALL),
    ]);
    // The same rule under policyTypes [Egress] leaves ingress open: web -> api and api -> nothing but itself.
    const egressOnly = policy("shop", "only-api", {
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [{ to: [{ podSelector: { matchLabels: { app: "api" } } }] }],
    });
    expect(referenceLines(input(shopAndOther, [web, api, client], [egressOnly]))).toStrictEqual([
      line(wl(web), wl(api), ALL),
      line(wl(client), wl(web), ALL),
      line(wl(client), wl(api), ALL),
      line(wl(client), ANYWHERE, ALL),
      line(ANYWHERE, wl(web), ALL),
      line(ANYWHERE, wl(api), ALL),
      line(ANYWHERE, wl(client), ALL),
    ]);
  });

  it("allow from a namespace by its labels, and by its name label with a pod selector", () => {
    const namespaces = [{ name: "shop" }, { name: "web", labels: { team: "frontend" } }, { name: "dev" }];
    const shopApi: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } };
    const site: ClusterWorkload = { namespace: "web", kind: "Deployment", name: "site", labels: { app: "site" } };
    const debug: ClusterWorkload = { namespace: "dev", kind: "Pod", name: "debug", labels: { role: "debug" } };
    const other: ClusterWorkload = { namespace: "dev", kind: "Pod", name: "other", labels: { role: "other" } };
    const p = policy("shop", "allow-frontend", {
      podSelector: { matchLabels: { app: "api" } },
      ingress: [
        { from: [{ namespaceSelector: { matchLabels: { team: "frontend" } } }], ports: [{ port: 8080 }] },
        {
          from: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "dev" } },
              podSelector: { matchExpressions: [{ key: "role", operator: "In", values: ["debug"] }] },
            },
          ],
          ports: [{ protocol: "UDP", port: 9000, endPort: 9010 }],
        },
      ],
    });
    expect(referenceLines(input(namespaces, [shopApi, site, debug, other], [p]))).toStrictEqual([
      line(wl(shopApi), wl(site), ALL),
      line(wl(shopApi), wl(debug), ALL),
      line(wl(shopApi), wl(other), ALL),
      line(wl(shopApi), ANYWHERE, ALL),
      line(wl(site), wl(shopApi), ports({ TCP: [[8080, 8080]] })),
      line(wl(site), wl(debug), ALL),
      line(wl(site), wl(other), ALL),
      line(wl(site), ANYWHERE, ALL),
      line(wl(debug), wl(shopApi), ports({ UDP: [[9000, 9010]] })),
      line(wl(debug), wl(site), ALL),
      line(wl(debug), wl(other), ALL),
      line(wl(debug), ANYWHERE, ALL),
      line(wl(other), wl(site), ALL),
      line(wl(other), wl(debug), ALL),
      line(wl(other), ANYWHERE, ALL),
      line(ANYWHERE, wl(site), ALL),
      line(ANYWHERE, wl(debug), ALL),
      line(ANYWHERE, wl(other), ALL),
    ]);
  });

  it("NotIn, Exists and DoesNotExist select as the label rules say", () => {
    const a: ClusterWorkload = { namespace: "shop", kind: "Pod", name: "a", labels: { tier: "front" } };
    const b: ClusterWorkload = { namespace: "shop", kind: "Pod", name: "b", labels: { tier: "back" } };
    const c: ClusterWorkload = { namespace: "shop", kind: "Pod", name: "c" };
    // Isolates every pod without tier=back (a and c); admits from pods that have a tier (a and b)
    // on TCP 1, and from pods without one (c) on TCP 2.
    const p = policy("shop", "labels", {
      podSelector: { matchExpressions: [{ key: "tier", operator: "NotIn", values: ["back"] }] },
      ingress: [
        { from: [{ podSelector: { matchExpressions: [{ key: "tier", operator: "Exists" }] } }], ports: [{ port: 1 }] },
        {
          from: [{ podSelector: { matchExpressions: [{ key: "tier", operator: "DoesNotExist" }] } }],
          ports: [{ port: 2 }],
        },
      ],
    });
    expect(referenceLines(input([{ name: "shop" }], [a, b, c], [p]))).toStrictEqual([
      line(wl(a), wl(b), ALL),
      line(wl(a), wl(c), ports({ TCP: [[1, 1]] })),
      line(wl(a), ANYWHERE, ALL),
      line(wl(b), wl(a), ports({ TCP: [[1, 1]] })),
      line(wl(b), wl(c), ports({ TCP: [[1, 1]] })),
      line(wl(b), ANYWHERE, ALL),
      line(wl(c), wl(a), ports({ TCP: [[2, 2]] })),
      line(wl(c), wl(b), ALL),
      line(wl(c), ANYWHERE, ALL),
      line(ANYWHERE, wl(b), ALL),
    ]);
  });

  it("ipBlock with except: the policy's edges cut the addresses, alike pieces join", () => {
    const p = policy("shop", "from-ten", {
      podSelector: { matchLabels: { app: "api" } },
      ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }], ports: [{ port: 443 }] }],
    });
    const q = policy("shop", "web-out", {
      podSelector: { matchLabels: { app: "web" } },
      policyTypes: ["Egress"],
      egress: [{ to: [{ ipBlock: { cidr: "2001:db8::/32" } }] }],
    });
    const ten = ext(
      "10.0.0.0/16,10.2.0.0/15,10.4.0.0/14,10.8.0.0/13,10.16.0.0/12,10.32.0.0/11,10.64.0.0/10,10.128.0.0/9",
      [
        { family: 4, first: "10.0.0.0", last: "10.0.255.255", cidrs: ["10.0.0.0/16"] },
        {
          family: 4,
          first: "10.2.0.0",
          last: "10.255.255.255",
          cidrs: [
            "10.2.0.0/15",
            "10.4.0.0/14",
            "10.8.0.0/13",
            "10.16.0.0/12",
            "10.32.0.0/11",
            "10.64.0.0/10",
            "10.128.0.0/9",
          ],
        },
      ],
    );
    const docs = ext("2001:db8::/32", [
      { family: 6, first: "2001:db8::", last: "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", cidrs: ["2001:db8::/32"] },
    ]);
    expect(referenceLines(input([{ name: "shop" }], [api, web], [p, q]))).toStrictEqual([
      line(wl(api), wl(web), ALL),
      // api's egress is open: every piece alike, joined back into the whole space.
      line(wl(api), ANYWHERE, ALL),
      line(wl(web), docs, ALL),
      // Lines from addresses come by destination.
      line(ten, wl(api), ports({ TCP: [[443, 443]] })),
      line(ANYWHERE, wl(web), ALL),
    ]);
  });

  it("the cut of the address space does not change the lines", () => {
    const p = policy("shop", "from-ten", {
      podSelector: { matchLabels: { app: "api" } },
      ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8" } }] }],
    });
    const cluster = input([{ name: "shop" }], [api, web], [p]);
    const ten = ext("10.0.0.0/8", [{ family: 4, first: "10.0.0.0", last: "10.255.255.255", cidrs: ["10.0.0.0/8"] }]);
    const want = [
      line(wl(api), wl(web), ALL),
      line(wl(api), ANYWHERE, ALL),
      line(wl(web), ANYWHERE, ALL),
      line(ten, wl(api), ALL),
      line(ANYWHERE, wl(web), ALL),
    ];
    expect(referenceLines(cluster)).toStrictEqual(want);
    expect(referenceLines(cluster, { externalCuts: ["10.1.2.0/24", "0.0.0.0/1", "2001:db8::/64"] })).toStrictEqual(
      want,
    );
  });

  it("named ports resolve on the destination's container ports by name and protocol; towards addresses, nothing", () => {
    const napi: ClusterWorkload = {
      ...api,
      ports: [
        { name: "http", containerPort: 8080 },
        { name: "dns", containerPort: 53, protocol: "UDP" },
        { name: "metrics", containerPort: 9090 },
      ],
    };
    const nweb: ClusterWorkload = { ...web, ports: [{ name: "http", containerPort: 80 }] };
    const inApi = policy("shop", "in-api", {
      podSelector: { matchLabels: { app: "api" } },
      // metrics is a TCP port: the UDP entry names nothing.
      ingress: [{ ports: [{ port: "http" }, { protocol: "UDP", port: "dns" }, { protocol: "UDP", port: "metrics" }] }],
    });
    const outWeb = policy("shop", "out-web", {
      podSelector: { matchLabels: { app: "web" } },
      policyTypes: ["Egress"],
      egress: [{ ports: [{ port: "http" }] }],
    });
    expect(referenceLines(input([{ name: "shop" }], [napi, nweb], [inApi, outWeb]))).toStrictEqual([
      line(wl(napi), wl(nweb), ALL),
      line(wl(napi), ANYWHERE, ALL),
      // web's egress: http on api is TCP 8080; api's ingress takes TCP 8080 and UDP 53.
      line(wl(nweb), wl(napi), ports({ TCP: [[8080, 8080]] })),
      line(ANYWHERE, wl(napi), ports({ TCP: [[8080, 8080]], UDP: [[53, 53]] })),
      line(ANYWHERE, wl(nweb), ALL),
    ]);
  });

  it("endPort: a range of ports, joined with an adjacent entry", () => {
    const p = policy("shop", "range", {
      podSelector: { matchLabels: { app: "api" } },
      ingress: [{ ports: [{ port: 32000, endPort: 32768 }, { port: 32769 }, { protocol: "SCTP", port: 7 }] }],
    });
    expect(referenceLines(input([{ name: "shop" }], [api, web], [p]))).toStrictEqual([
      line(wl(api), wl(web), ALL),
      line(wl(api), ANYWHERE, ALL),
      line(wl(web), wl(api), ports({ TCP: [[32000, 32769]], SCTP: [[7, 7]] })),
      line(wl(web), ANYWHERE, ALL),
      line(ANYWHERE, wl(api), ports({ TCP: [[32000, 32769]], SCTP: [[7, 7]] })),
      line(ANYWHERE, wl(web), ALL),
    ]);
  });

  it("an egress-only policy limits its workloads' sending and leaves their receiving open", () => {
    const db: ClusterWorkload = { namespace: "shop", kind: "StatefulSet", name: "db", labels: { app: "db" } };
    const p = policy("shop", "api-out", {
      podSelector: { matchLabels: { app: "api" } },
      policyTypes: ["Egress"],
      egress: [
        { to: [{ podSelector: { matchLabels: { app: "db" } } }], ports: [{ port: 5432 }] },
        { to: [{ ipBlock: { cidr: "0.0.0.0/0" } }], ports: [{ protocol: "UDP", port: 53 }] },
      ],
    });
    const v4 = ext("0.0.0.0/0", [V4_ALL]);
    expect(referenceLines(input([{ name: "shop" }], [api, db, web], [p]))).toStrictEqual([
      line(wl(api), wl(db), ports({ TCP: [[5432, 5432]] })),
      line(wl(api), v4, ports({ UDP: [[53, 53]] })),
      line(wl(db), wl(api), ALL),
      line(wl(db), wl(web), ALL),
      line(wl(db), ANYWHERE, ALL),
      line(wl(web), wl(api), ALL),
      line(wl(web), wl(db), ALL),
      line(wl(web), ANYWHERE, ALL),
      line(ANYWHERE, wl(api), ALL),
      line(ANYWHERE, wl(db), ALL),
      line(ANYWHERE, wl(web), ALL),
    ]);
  });

  it("a hostNetwork workload is never isolated and never selected", () => {
    const agent: ClusterWorkload = {
      namespace: "infra",
      kind: "DaemonSet",
      name: "agent",
      labels: { app: "agent" },
      hostNetwork: true,
    };
    const infraApi: ClusterWorkload = { namespace: "infra", kind: "Deployment", name: "api", labels: { app: "api" } };
    const deny = policy("infra", "deny-all", { podSelector: {}, policyTypes: ["Ingress", "Egress"] });
    const fromAgent = policy("infra", "from-agent", {
      podSelector: { matchLabels: { app: "api" } },
      ingress: [{ from: [{ podSelector: { matchLabels: { app: "agent" } } }] }],
    });
    const namespaces = [{ name: "infra" }, { name: "other" }];
    expect(referenceLines(input(namespaces, [agent, infraApi, client], [deny, fromAgent]))).toStrictEqual([
      line(wl(agent), wl(client), ALL),
      line(wl(agent), ANYWHERE, ALL),
      line(wl(client), wl(agent), ALL),
      line(wl(client), ANYWHERE, ALL),
      line(ANYWHERE, wl(agent), ALL),
      line(ANYWHERE, wl(client), ALL),
    ]);
  });

  it("a policy without a namespace is in default; invalid and second same-named policies are left out", () => {
    const a: ClusterWorkload = { namespace: "default", kind: "Pod", name: "a" };
    const b: ClusterWorkload = { namespace: "default", kind: "Pod", name: "b" };
    const deny = policy(undefined, "deny", { podSelector: {} });
    const again = policy("default", "deny", { podSelector: {}, ingress: [{}] });
    const invalid = policy("default", "bad", {
      podSelector: {},
      ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/33" } }] }],
    });
    const cluster = input([{ name: "default" }], [a, b], [deny, again, invalid]);
    expect(referencePolicies(cluster)).toStrictEqual([{ key: "default/deny", index: 0 }]);
    expect(referenceLines(cluster)).toStrictEqual([line(wl(a), ANYWHERE, ALL), line(wl(b), ANYWHERE, ALL)]);
  });
});

// ------------------------------------------------------------------ the diff

describe("reference diff, worked by hand", () => {
  const api: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } };
  const web: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } };
  const worker: ClusterWorkload = { namespace: "shop", kind: "Deployment", name: "worker", labels: { app: "worker" } };
  const before = input([{ name: "shop" }], [api, web], []);
  const after = input(
    [{ name: "shop" }],
    [api, web, worker],
    [
      policy("shop", "api-in", {
        podSelector: { matchLabels: { app: "api" } },
        ingress: [
          { from: [{ podSelector: { matchLabels: { app: "web" } } }], ports: [{ port: 8080 }] },
          { from: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ports: [{ port: 443 }] },
        ],
      }),
    ],
  );
  const ten = ext("10.0.0.0/8", [{ family: 4, first: "10.0.0.0", last: "10.255.255.255", cidrs: ["10.0.0.0/8"] }]);
  const rest = ext("0.0.0.0/5,8.0.0.0/7,11.0.0.0/8,12.0.0.0/6,16.0.0.0/4,32.0.0.0/3,64.0.0.0/2,128.0.0.0/1,::/0", [
    { family: 4, first: "0.0.0.0", last: "9.255.255.255", cidrs: ["0.0.0.0/5", "8.0.0.0/7"] },
    {
      family: 4,
      first: "11.0.0.0",
      last: "255.255.255.255",
      cidrs: ["11.0.0.0/8", "12.0.0.0/6", "16.0.0.0/4", "32.0.0.0/3", "64.0.0.0/2", "128.0.0.0/1"],
    },
    V6_ALL,
  ]);

  const forward = [
    { kind: "added", from: wl(api), to: wl(worker), before: NONE, after: ALL, workload: "added" },
    { kind: "changed", from: wl(web), to: wl(api), before: ALL, after: ports({ TCP: [[8080, 8080]] }) },
    { kind: "added", from: wl(web), to: wl(worker), before: NONE, after: ALL, workload: "added" },
    { kind: "added", from: wl(worker), to: wl(web), before: NONE, after: ALL, workload: "added" },
    { kind: "added", from: wl(worker), to: ANYWHERE, before: NONE, after: ALL, workload: "added" },
    // Lines from addresses come by destination, then by their first range.
    { kind: "removed", from: rest, to: wl(api), before: ALL, after: NONE },
    { kind: "changed", from: ten, to: wl(api), before: ALL, after: ports({ TCP: [[443, 443]] }) },
    { kind: "added", from: ANYWHERE, to: wl(worker), before: NONE, after: ALL, workload: "added" },
  ];

  it("a policy and a workload added", () => {
    expect(referenceDiff(before, after)).toStrictEqual({
      changes: forward,
      addedWorkloads: ["shop/Deployment/worker"],
      removedWorkloads: [],
    });
  });

  it("the same change backwards: removed where it was added", () => {
    const flip = { added: "removed", removed: "added", changed: "changed" } as const;
    expect(referenceDiff(after, before)).toStrictEqual({
      changes: forward.map((c) => ({
        ...c,
        kind: flip[c.kind as keyof typeof flip],
        before: c.after,
        after: c.before,
        ...(c.workload === undefined ? {} : { workload: "removed" }),
      })),
      addedWorkloads: [],
      removedWorkloads: ["shop/Deployment/worker"],
    });
  });

  it("no change: nothing listed", () => {
    expect(referenceDiff(after, after)).toStrictEqual({ changes: [], addedWorkloads: [], removedWorkloads: [] });
  });

  it("on random clusters, the diff backwards is the diff flipped, and each side's lines do not depend on the other's cuts", () => {
    const workloads = (pods: readonly ClusterPod[]): ClusterWorkload[] =>
      pods.map((p) => ({
        namespace: p.namespace,
        kind: "Pod",
        name: p.name,
        ...(p.labels !== undefined ? { labels: p.labels } : {}),
        ...(p.ports !== undefined ? { ports: p.ports } : {}),
        ...(p.hostNetwork === true ? { hostNetwork: true } : {}),
      }));
    const flip = { added: "removed", removed: "added", changed: "changed" } as const;
    fc.assert(
      fc.property(arbClusterPair({ maxPods: 5, maxPolicies: 4 }), fc.nat(), (pair, drop) => {
        const all = workloads(pair.pods);
        const a = input(pair.namespaces, all, pair.policies);
        const b = input(
          pair.namespaces,
          all.filter((_, i) => i !== drop % all.length),
          pair.otherPolicies,
        );
        const forwards = referenceDiff(a, b);
        const backwards = referenceDiff(b, a);
        const flipped = (c: (typeof forwards.changes)[number]) => ({
          ...c,
          kind: flip[c.kind],
          before: c.after,
          after: c.before,
          ...(c.workload === undefined ? {} : { workload: c.workload === "added" ? "removed" : "added" }),
        });
        const byPeers = (c: { from: ConnectivityPeer; to: ConnectivityPeer }) => `${c.from.key} ${c.to.key}`;
        const sorted = <T extends { from: ConnectivityPeer; to: ConnectivityPeer }>(xs: T[]) =>
          [...xs].sort((x, y) => (byPeers(x) < byPeers(y) ? -1 : byPeers(x) > byPeers(y) ? 1 : 0));
        expect(sorted(backwards.changes)).toStrictEqual(sorted(forwards.changes.map(flipped)));
        expect(backwards.addedWorkloads).toStrictEqual(forwards.removedWorkloads);
        const cuts = b.policies.flatMap((p) =>
          [...(p.spec?.ingress ?? []).flatMap((r) => r.from), ...(p.spec?.egress ?? []).flatMap((r) => r.to)].flatMap(
            (peer) => (peer.ipBlock === undefined ? [] : [peer.ipBlock.cidr, ...peer.ipBlock.except]),
          ),
        );
        const valid = cuts.filter((c) => parseNetwork(c) !== null);
        expect(referenceLines(a, { externalCuts: valid })).toStrictEqual(referenceLines(a));
      }),
      { numRuns: propertyRuns(20) },
    );
  });
});

// ------------------------------------------------------------------ its own shortcuts, checked

describe("reference shortcuts", () => {
  it("judging one port per range gives what judging every port gives", () => {
    const a: ClusterWorkload = {
      namespace: "shop",
      kind: "Pod",
      name: "a",
      labels: { app: "a" },
      ports: [
        { name: "http", containerPort: 8080 },
        { name: "top", containerPort: 65535, protocol: "UDP" },
      ],
    };
    const b: ClusterWorkload = {
      namespace: "shop",
      kind: "Pod",
      name: "b",
      labels: { app: "b" },
      ports: [{ name: "http", containerPort: 1 }],
    };
    const p = policy("shop", "mixed", {
      podSelector: {},
      policyTypes: ["Ingress", "Egress"],
      ingress: [
        {
          from: [{ podSelector: { matchLabels: { app: "b" } } }],
          ports: [{ port: "http" }, { port: 100, endPort: 200 }],
        },
        {
          from: [{ ipBlock: { cidr: "10.0.0.0/8" } }],
          ports: [
            { protocol: "UDP", port: "top" },
            { port: 65000, endPort: 65535 },
          ],
        },
      ],
      egress: [{ ports: [{ port: 150, endPort: 8080 }, { protocol: "UDP" }, { protocol: "SCTP", port: 2 }] }],
    });
    const cluster = input([{ name: "shop" }], [a, b], [p]);
    const every = referenceLines(cluster, { ports: "every" });
    expect(every.length).toBeGreaterThan(2);
    expect(referenceLines(cluster)).toStrictEqual(every);
  });

  it("the fewest CIDRs, as ip-num reads them: they cover the range exactly and none could be one bit shorter", () => {
    const check = (range: NumericRange): void => {
      const cidrs = referenceCidrs(range);
      let next = range.first;
      for (const text of cidrs) {
        const parsed = range.family === 4 ? IPv4CidrRange.fromCidr(text) : IPv6CidrRange.fromCidr(text);
        // ip-num masks the host bits off; the CIDR must have had none.
        expect(parsed.getFirst().value).toBe(next);
        next = parsed.getLast().value + 1n;
        const prefix = Number(parsed.getPrefix().value);
        if (prefix > 0) {
          const address = text.slice(0, text.indexOf("/"));
          const wider =
            range.family === 4
              ? IPv4CidrRange.fromCidr(`${address}/${prefix - 1}`)
              : IPv6CidrRange.fromCidr(`${address}/${prefix - 1}`);
          const inside = wider.getFirst().value >= range.first && wider.getLast().value <= range.last;
          expect(inside).toBe(false);
        }
      }
      expect(next).toBe(range.last + 1n);
    };
    check({ family: 4, first: 0n, last: 0xffffffffn });
    check({ family: 6, first: 0n, last: (1n << 128n) - 1n });
    expect(referenceCidrs({ family: 4, first: 0n, last: 0x09ffffffn })).toStrictEqual(["0.0.0.0/5", "8.0.0.0/7"]);
    expect(referenceCidrs({ family: 6, first: 1n, last: 1n })).toStrictEqual(["::1/128"]);
    // A random start and a length of random bit width, so ranges of every size come up.
    const rangeOf = (family: 4 | 6) => {
      const top = (1n << (family === 4 ? 32n : 128n)) - 1n;
      return fc.tuple(fc.bigInt({ min: 0n, max: top }), fc.nat(family === 4 ? 32 : 128)).chain(([first, bits]) =>
        fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }).map((length) => ({
          family,
          first,
          last: first + length > top ? top : first + length,
        })),
      );
    };
    fc.assert(
      fc.property(fc.oneof(rangeOf(4), rangeOf(6)), (range) => {
        check(range);
      }),
      { numRuns: propertyRuns(20) },
    );
  });

  it("segments cover both families without gaps, cut at each CIDR's first address and the one after its last", () => {
    const segments = referenceSegments(["10.0.0.0/8", "10.1.0.0/16", "255.255.255.0/24", "2001:db8::/32", "::/0"]);
    const v4 = segments.filter((s) => s.family === 4).map((s) => [s.first, s.last]);
    expect(v4).toStrictEqual([
      [0n, 0x09ffffffn],
      [0x0a000000n, 0x0a00ffffn],
      [0x0a010000n, 0x0a01ffffn],
      [0x0a020000n, 0x0affffffn],
      [0x0b000000n, 0xfffffeffn],
      [0xffffff00n, 0xffffffffn],
    ]);
    const docs = 0x20010db8n << 96n;
    expect(segments.filter((s) => s.family === 6).map((s) => [s.first, s.last])).toStrictEqual([
      [0n, docs - 1n],
      [docs, docs + (1n << 96n) - 1n],
      [docs + (1n << 96n), (1n << 128n) - 1n],
    ]);
  });
});
