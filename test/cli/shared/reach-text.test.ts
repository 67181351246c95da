// The words for the policy engine's answers on a cluster file, as reach and the demo print them:
// notes on left-out policies, the truth table, and one connection explained direction by direction.
import { describe, expect, it } from "vitest";
import { clusterEngine, parseClusterFile, type ExtraPolicy } from "../../../src/cli/shared/cluster-file.js";
import {
  explainDecision,
  hostNetworkPods,
  leftOutNotes,
  skippedNotes,
  summaryLine,
  truthGrid,
} from "../../../src/cli/shared/reach-text.js";
import { fromYaml, type NetworkPolicy, type TruthMatrix } from "../../../src/networking/index.js";

const CLUSTER = `namespaces:
  - name: shop
  - name: kube-system
pods:
  - {namespace: shop, name: web, labels: {app: web}, ip: 10.0.0.1, hostIP: 192.168.0.1, ports: [{name: http, containerPort: 8080}]}
  - {namespace: shop, name: db, labels: {app: db}, ip: 10.0.0.2}
  - {namespace: kube-system, name: agent, ip: 192.168.0.1, hostNetwork: true}
policies:
  - metadata: {name: default-deny, namespace: shop}
    spec: {podSelector: {}, policyTypes: [Ingress]}
  - metadata: {name: web-in, namespace: shop}
    spec:
      podSelector: {matchLabels: {app: web}}
      ingress: [{ports: [{port: 9090}]}, {ports: [{port: http}]}]
  - metadata: {name: broken, namespace: shop}
    spec:
      podSelector: {}
      ingress: [{ports: [{port: 0}, {port: 70000}]}]
`;

const cluster = parseClusterFile("c.yaml", CLUSTER);
const extra: ExtraPolicy[] = [
  {
    source: "more.yaml",
    policy: fromYaml(
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: bad-port\n  namespace: shop\nspec:\n  podSelector: {}\n  egress: [{ports: [{port: 0}]}]\n",
    )[0] as NetworkPolicy,
  },
];
const engine = clusterEngine(cluster, extra);

/** The lines for one connection, evaluated on the cluster. */
function explain(from: string, to: string, port: number | string): string[] {
  const end = (s: string) => (s.includes("/") ? { pod: s } : { ip: s });
  return explainDecision(cluster, from, to, port, engine.evaluate({ from: end(from), to: end(to), port }));
}

describe("notes on the policies left out", () => {
  it("locate each in the cluster file, or name the --policies file it came from", () => {
    expect(skippedNotes(engine, cluster, extra)).toEqual([
      "skipped NetworkPolicy shop/broken (c.yaml:15:5): 2 errors",
      "  spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
      "  spec.ingress[0].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
      "skipped NetworkPolicy shop/bad-port (more.yaml): spec.egress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
    ]);
    expect(leftOutNotes(engine.skipped, cluster, extra)).toEqual([
      "left out: NetworkPolicy shop/broken (c.yaml:15:5): the API server would reject it (2 errors)",
      "left out: NetworkPolicy shop/bad-port (more.yaml): the API server would reject it (1 error)",
    ]);
  });

  it("hostNetworkPods names the hostNetwork pods only", () => {
    expect([...hostNetworkPods(cluster)]).toEqual(["kube-system/agent"]);
  });
});

describe("truthGrid", () => {
  const matrix = engine.matrix({ port: 8080 });

  it("numbers the pods, marks hostNetwork ones, and ends with the summary", () => {
    expect(truthGrid(matrix, hostNetworkPods(cluster))).toEqual([
      "TCP port 8080: rows are sources, columns destinations; ✓ allowed, · denied",
      "from \\ to                           1 2 3",
      "1  shop/web                         ✓ · ✓",
      "2  shop/db                          ✓ ✓ ✓",
      "3  kube-system/agent (hostNetwork)  ✓ · ✓",
      "7 of 9 pairs allowed",
    ]);
    expect(summaryLine(matrix)).toBe("7 of 9 pairs allowed");
  });

  it("colours the glyphs on a terminal, and nothing else", () => {
    const plain = truthGrid(matrix);
    const coloured = truthGrid(matrix, new Set(), true);
    expect(coloured[2]).toBe("1  shop/web           \u001b[32m✓\u001b[0m \u001b[2m·\u001b[0m \u001b[32m✓\u001b[0m");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is stripped
    expect(coloured.map((l) => l.replace(/\u001b\[\d+m/g, ""))).toEqual(plain);
  });

  it("widens the columns for ten pods or more", () => {
    const pods = Array.from({ length: 10 }, (_, i) => `ns/p${i}`);
    const diagonal: TruthMatrix = {
      pods,
      protocol: "UDP",
      port: 53,
      allowed: (f, t) => f === t,
      egressAllowed: () => true,
      ingressAllowed: (f, t) => f === t,
      countAllowed: () => 10,
      skipped: [],
    };
    const lines = truthGrid(diagonal);
    expect(lines[1]).toBe(`from \\ to ${Array.from({ length: 10 }, (_, i) => String(i + 1).padStart(3)).join("")}`);
    expect(lines[2]).toBe(` 1  ns/p0   ✓${"  ·".repeat(9)}`);
    expect(lines[11]).toBe(`10  ns/p9 ${"  ·".repeat(9)}  ✓`);
    expect(lines.at(-1)).toBe("10 of 100 pairs allowed");
  });
});

describe("explainDecision", () => {
  it("says why each direction allows or denies, naming the deciding policies and rules", () => {
    expect(explain("shop/db", "shop/web", "http")).toEqual([
      "shop/db -> shop/web, TCP port 8080 (http): allow",
      "  egress   not isolated: no NetworkPolicy in shop selects shop/db for egress, so all egress is allowed",
      "  ingress  allowed by spec.ingress[1] of shop/web-in",
    ]);
    expect(explain("shop/web", "shop/db", 5432)).toEqual([
      "shop/web -> shop/db, TCP port 5432: deny",
      "  egress   not isolated: no NetworkPolicy in shop selects shop/web for egress, so all egress is allowed",
      "  ingress  denied: shop/db is isolated for ingress by shop/default-deny, and no ingress rule of it matches",
    ]);
    expect(explain("shop/db", "shop/web", 5432)[2]).toBe(
      "  ingress  denied: shop/web is isolated for ingress by shop/default-deny, shop/web-in, and no ingress rule of theirs matches",
    );
  });

  it("explains hostNetwork sources, the node-local exception, traffic to itself and plain addresses", () => {
    expect(explain("kube-system/agent", "shop/web", "http")).toEqual([
      "kube-system/agent -> shop/web, TCP port 8080 (http): allow",
      "  egress   not applicable: kube-system/agent is a hostNetwork pod, which no policy selects (E12)",
      "  ingress  node-local: kube-system/agent is shop/web's node (192.168.0.1), so the ingress check is skipped (E11)",
    ]);
    expect(explain("shop/web", "shop/web", 80).slice(1)).toEqual([
      "  egress   self: a pod's traffic to itself is always allowed (E13)",
      "  ingress  self: a pod's traffic to itself is always allowed (E13)",
    ]);
    expect(explain("203.0.113.9", "shop/db", 80)).toEqual([
      "203.0.113.9 -> shop/db, TCP port 80: deny",
      "  egress   not applicable: 203.0.113.9 is an address, not a pod",
      "  ingress  denied: shop/db is isolated for ingress by shop/default-deny, and no ingress rule of it matches",
    ]);
  });
});
