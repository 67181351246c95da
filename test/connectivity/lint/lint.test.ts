// The policy lint on small inputs, each warning firing and not firing, silencing both ways, and
// on real manifests (microservices-demo's policies). Every input goes through the real analysis.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintPolicies } from "../../../src/connectivity/lint/lint.js";
import type { LintOptions, LintWarning } from "../../../src/connectivity/lint/rules.js";
import {
  analyzeConnectivity,
  type ClusterWorkload,
  type ConnectivityInput,
  EvaluatorInputError,
  formatConnectionSet,
  fromJson,
  fromYaml,
  type NetworkPolicy,
  toJson,
} from "../../../src/networking/index.js";
import { nonEmpty } from "../../support/non-empty.js";

function np(namespace: string, name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { namespace, name },
    spec,
  } as never) as NetworkPolicy;
}

function wl(
  namespace: string,
  name: string,
  labels: Record<string, string>,
  more: Partial<ClusterWorkload> = {},
): ClusterWorkload {
  return { namespace, kind: "Deployment", name, labels, ...more };
}

function input(workloads: ClusterWorkload[], policies: NetworkPolicy[]): ConnectivityInput {
  const names = new Set([
    ...workloads.map((w) => w.namespace),
    ...policies.map((p) => p.metadata?.namespace || "default"),
  ]);
  return { namespaces: [...names].sort().map((name) => ({ name, labels: { team: name } })), workloads, policies };
}

function lint(i: ConnectivityInput, options?: LintOptions): LintWarning[] {
  return lintPolicies(analyzeConnectivity(i), i, options);
}

/** Each warning as `ID subject [rule]`. */
function brief(warnings: readonly LintWarning[]): string[] {
  return warnings.map((w) => {
    const subject = w.id === "CW1004" ? `${w.namespace} ${w.direction}` : (w.workload ?? w.policy ?? w.namespace);
    return `${w.id} ${subject}${w.id === "CW1002" && w.rule ? ` ${w.rule.direction}[${w.rule.index}]` : ""}`;
  });
}

const only = (id: string, warnings: readonly LintWarning[]) => warnings.filter((w) => w.id === id);

const fromApp = (app: string) => ({ podSelector: { matchLabels: { app } } });
const tcp = (...ports: (number | string)[]) => ports.map((port) => ({ protocol: "TCP", port }));

const shop = [
  wl("shop", "web", { app: "web", tier: "front" }),
  wl("shop", "api", { app: "api" }),
  wl("shop", "db", { app: "db" }),
];

describe("CW1001 policy-selects-nothing", () => {
  it("fires for a policy whose podSelector matches no workload, naming the selector", () => {
    const ws = lint(
      input(shop, [np("shop", "ghost", { podSelector: { matchLabels: { app: "ghost" } }, policyTypes: ["Ingress"] })]),
    );
    const [w] = only("CW1001", ws);
    expect(w).toMatchObject({
      id: "CW1001",
      name: "policy-selects-nothing",
      severity: "warning",
      policy: "shop/ghost",
      namespace: "shop",
    });
    expect(w?.message).toBe(
      "NetworkPolicy shop/ghost selects no workload: podSelector app=ghost matches none in namespace shop",
    );
  });

  it("says when the policy's namespace has no workload at all", () => {
    const ws = lint(input(shop, [np("empty", "deny", { podSelector: {}, policyTypes: ["Ingress"] })]));
    expect(only("CW1001", ws).map((w) => w.message)).toEqual([
      "NetworkPolicy empty/deny selects no workload: podSelector {} matches none in namespace empty, which has no workload at all",
    ]);
  });

  it("fires when the only workloads it matches use the node's network", () => {
    const ws = lint(
      input(
        [...shop, wl("shop", "agent", { app: "agent" }, { hostNetwork: true })],
        [np("shop", "agent", { podSelector: { matchLabels: { app: "agent" } } })],
      ),
    );
    expect(brief(only("CW1001", ws))).toEqual(["CW1001 shop/agent"]);
  });

  it("does not fire for a policy that selects a workload", () => {
    const ws = lint(
      input(shop, [
        np("shop", "web", { podSelector: { matchExpressions: [{ key: "tier", operator: "In", values: ["front"] }] } }),
      ]),
    );
    expect(only("CW1001", ws)).toEqual([]);
  });
});

describe("CW1002 rule-shadowed", () => {
  it("fires for a rule of the same policy that another admits all of", () => {
    const p = np("shop", "db", {
      podSelector: fromApp("db").podSelector,
      policyTypes: ["Ingress"],
      ingress: [
        { from: [fromApp("api")], ports: tcp(5432) },
        { from: [fromApp("api"), fromApp("web")], ports: tcp(5432, 5433) },
      ],
    });
    const [w, ...rest] = only("CW1002", lint(input(shop, [p])));
    expect(rest).toEqual([]);
    expect(w).toMatchObject({
      policy: "shop/db",
      rule: { direction: "ingress", index: 0 },
      shadowedBy: { policy: "shop/db", rule: { direction: "ingress", index: 1 } },
    });
    expect(w?.message).toBe(
      "ingress rule 0 of NetworkPolicy shop/db is shadowed by ingress rule 1: every peer and port it admits, that rule admits too",
    );
  });

  it("reports the later of two equal rules only", () => {
    const rule = { from: [fromApp("api")], ports: tcp(5432) };
    const ws = only(
      "CW1002",
      lint(input(shop, [np("shop", "db", { podSelector: fromApp("db").podSelector, ingress: [rule, rule] })])),
    );
    expect(brief(ws)).toEqual(["CW1002 shop/db ingress[1]"]);
    expect(ws[0]?.shadowedBy).toEqual({ policy: "shop/db", rule: { direction: "ingress", index: 0 } });
    expect(ws[0]?.message).toContain("the two admit the same peers and ports");
  });

  it("fires across policies when the other isolates every workload this one selects", () => {
    const narrow = np("shop", "db", {
      podSelector: fromApp("db").podSelector,
      ingress: [{ from: [fromApp("api")], ports: tcp(5432) }],
    });
    const wide = np("shop", "same-namespace", { podSelector: {}, ingress: [{ from: [{ podSelector: {} }] }] });
    const ws = only("CW1002", lint(input(shop, [narrow, wide])));
    expect(brief(ws)).toEqual(["CW1002 shop/db ingress[0]"]);
    expect(ws[0]?.shadowedBy).toEqual({ policy: "shop/same-namespace", rule: { direction: "ingress", index: 0 } });
    expect(ws[0]?.message).toBe(
      "ingress rule 0 of NetworkPolicy shop/db is shadowed by ingress rule 0 of shop/same-namespace: every peer and port it admits, that rule admits too, for every workload shop/db selects",
    );
  });

  it("does not fire across policies when the other leaves some selected workload alone", () => {
    const front = np("shop", "front", { podSelector: {}, ingress: [{ from: [fromApp("api")], ports: tcp(80) }] });
    const wide = np("shop", "db-only", { podSelector: fromApp("db").podSelector, ingress: [{}] });
    expect(only("CW1002", lint(input(shop, [front, wide])))).toEqual([]);
  });

  it("does not fire when ports or peers differ", () => {
    const p = np("shop", "db", {
      podSelector: fromApp("db").podSelector,
      ingress: [
        { from: [fromApp("api")], ports: tcp(5432) },
        { from: [fromApp("api")], ports: tcp(5433) },
        { from: [fromApp("web")], ports: tcp(5432) },
      ],
    });
    expect(only("CW1002", lint(input(shop, [p])))).toEqual([]);
  });

  it("resolves named ports on each selected workload", () => {
    const ports = (containerPort: number) => ({ ports: [{ name: "http", containerPort }] });
    const rules = [
      { from: [fromApp("api")], ports: tcp("http") },
      { from: [fromApp("api")], ports: tcp(8080, 8081) },
    ];
    const one = [wl("shop", "a", { app: "a", tier: "x" }, ports(8080)), wl("shop", "api", { app: "api" })];
    const two = [...one, wl("shop", "b", { app: "b", tier: "x" }, ports(9090))];
    const policy = np("shop", "x", { podSelector: { matchLabels: { tier: "x" } }, ingress: rules });
    expect(brief(only("CW1002", lint(input(one, [policy]))))).toEqual(["CW1002 shop/x ingress[0]"]);
    expect(only("CW1002", lint(input(two, [policy])))).toEqual([]);
  });

  it("compares address ranges, except blocks included", () => {
    const p = np("shop", "egress", {
      podSelector: fromApp("api").podSelector,
      policyTypes: ["Egress"],
      egress: [
        { to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ports: tcp(443) },
        { to: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }], ports: tcp(443) },
        { to: [{ ipBlock: { cidr: "10.0.0.0/7" } }], ports: tcp(80) },
      ],
    });
    const ws = only("CW1002", lint(input(shop, [p])));
    expect(brief(ws)).toEqual(["CW1002 shop/egress egress[1]"]);
    expect(ws[0]?.shadowedBy?.rule).toEqual({ direction: "egress", index: 0 });
  });

  it("passes over a rule that admits nothing", () => {
    const p = np("shop", "db", {
      podSelector: fromApp("db").podSelector,
      ingress: [{ from: [fromApp("ghost")] }, { from: [fromApp("api")] }],
    });
    expect(only("CW1002", lint(input(shop, [p])))).toEqual([]);
  });
});

describe("CW1003 policy-redundant", () => {
  const allowApi = (name: string) =>
    np("shop", name, {
      podSelector: fromApp("db").podSelector,
      ingress: [{ from: [fromApp("api")], ports: tcp(5432) }],
    });

  it("reports the later of two policies that admit the same, naming the other", () => {
    const ws = only("CW1003", lint(input(shop, [allowApi("first"), allowApi("second")])));
    expect(brief(ws)).toEqual(["CW1003 shop/second"]);
    expect(ws[0]?.message).toBe(
      "removing NetworkPolicy shop/second would change no connection: for every workload it selects, shop/first isolates it for ingress too, and already admits everything it admits",
    );
  });

  it("fires for a policy that admits everything where no other policy isolates", () => {
    const ws = only("CW1003", lint(input(shop, [np("shop", "open", { podSelector: {}, ingress: [{}] })])));
    expect(ws.map((w) => w.message)).toEqual([
      "removing NetworkPolicy shop/open would change no connection: it admits every peer on every port, and no other policy isolates the workloads it selects for ingress",
    ]);
  });

  it("fires for a second default deny", () => {
    const deny = (name: string) => np("shop", name, { podSelector: {}, policyTypes: ["Ingress", "Egress"] });
    expect(brief(only("CW1003", lint(input(shop, [deny("a"), deny("b")]))))).toEqual(["CW1003 shop/b"]);
  });

  it("does not fire for a policy that allows more than the others, or isolates alone", () => {
    const deny = np("shop", "deny", { podSelector: {}, policyTypes: ["Ingress"] });
    expect(only("CW1003", lint(input(shop, [deny, allowApi("db")])))).toEqual([]);
    expect(
      only(
        "CW1003",
        lint(
          input(shop, [np("shop", "no-egress", { podSelector: fromApp("api").podSelector, policyTypes: ["Egress"] })]),
        ),
      ),
    ).toEqual([]);
    // Everything but one port is still a change.
    const almost = np("shop", "almost", {
      podSelector: {},
      ingress: [{ ports: [{ protocol: "TCP", port: 1, endPort: 65534 }] }],
    });
    expect(only("CW1003", lint(input(shop, [almost])))).toEqual([]);
  });

  it("needs the others to isolate the policy's every workload in each direction it isolates", () => {
    const both = np("shop", "both", {
      podSelector: fromApp("db").podSelector,
      policyTypes: ["Ingress", "Egress"],
      ingress: [{ from: [fromApp("api")] }],
    });
    const ingressOnly = np("shop", "wide", { podSelector: {}, ingress: [{}] });
    expect(only("CW1003", lint(input(shop, [ingressOnly, both])))).toEqual([]);
  });
});

describe("CW1004 namespace-without-default-deny", () => {
  const deny = (namespace: string, types: string[]) =>
    np(namespace, "default-deny", { podSelector: {}, policyTypes: types });
  const workloads = [
    ...shop,
    wl("dev", "tool", { app: "tool" }),
    wl("ops", "agent", { app: "agent" }, { hostNetwork: true }),
  ];

  it("fires for a namespace with workloads that lacks the default deny another has, per direction", () => {
    const ws = only("CW1004", lint(input(workloads, [deny("shop", ["Ingress"])])));
    expect(brief(ws)).toEqual(["CW1004 dev ingress"]);
    expect(ws[0]?.message).toBe(
      "namespace dev has no default-deny policy for ingress (podSelector: {} with no ingress rules), while shop has one",
    );
  });

  it("accepts any policy with an empty podSelector that isolates the direction", () => {
    const sameNamespace = np("dev", "same-namespace", { podSelector: {}, ingress: [{ from: [{ podSelector: {} }] }] });
    expect(only("CW1004", lint(input(workloads, [deny("shop", ["Ingress"]), sameNamespace])))).toEqual([]);
  });

  it("does not count a selective policy as a default deny", () => {
    const selective = np("dev", "tool", { podSelector: fromApp("tool").podSelector, policyTypes: ["Ingress"] });
    expect(brief(only("CW1004", lint(input(workloads, [deny("shop", ["Ingress"]), selective]))))).toEqual([
      "CW1004 dev ingress",
    ]);
  });

  it("does not fire without a default deny anywhere", () => {
    const sameNamespace = np("shop", "same-namespace", { podSelector: {}, ingress: [{ from: [{ podSelector: {} }] }] });
    expect(only("CW1004", lint(input(workloads, [sameNamespace])))).toEqual([]);
  });
});

describe("CW1005 exposed-to-all-namespaces", () => {
  const others = wl("dev", "tool", { app: "tool" });

  it("fires for a rule with namespaceSelector {} and no pod selector, with its ports", () => {
    const p = np("shop", "web", {
      podSelector: fromApp("web").podSelector,
      ingress: [{ from: [{ namespaceSelector: {} }], ports: tcp(8080) }],
    });
    const ws = only("CW1005", lint(input([...shop, others], [p])));
    const web = ws.find((w) => w.workload === "shop/Deployment/web");
    expect(web).toMatchObject({ policy: "shop/web", rule: { direction: "ingress", index: 0 }, namespace: "shop" });
    expect(formatConnectionSet(web!.connections!)).toBe("TCP 8080");
    expect(web?.message).toBe(
      "any pod in any namespace may connect to shop/Deployment/web on TCP 8080, as far as its ingress goes: ingress rule 0 of NetworkPolicy shop/web admits every pod of every namespace (namespaceSelector: {})",
    );
  });

  it("fires for a workload no policy isolates while others are isolated", () => {
    const p = np("shop", "db", { podSelector: fromApp("db").podSelector, ingress: [{ from: [fromApp("api")] }] });
    const ws = only("CW1005", lint(input([...shop, others], [p])));
    expect(ws.map((w) => w.workload)).toEqual(["shop/Deployment/web", "shop/Deployment/api", "dev/Deployment/tool"]);
    expect(ws[0]?.message).toBe(
      "any pod in any namespace may connect to shop/Deployment/web, on every port, as far as its ingress goes: no NetworkPolicy isolates it for ingress, while 1 other workload is isolated",
    );
  });

  it("does not fire for narrower peers, for hostNetwork workloads, or where nothing is isolated", () => {
    const narrow = np("shop", "web", {
      podSelector: fromApp("web").podSelector,
      ingress: [
        {
          from: [
            { namespaceSelector: {}, podSelector: fromApp("api").podSelector },
            { namespaceSelector: { matchLabels: { team: "dev" } } },
          ],
        },
      ],
    });
    expect(only("CW1005", lint(input([shop[0]!], [narrow])))).toEqual([]);
    const deny = np("shop", "deny", { podSelector: {}, policyTypes: ["Ingress"] });
    const host = wl("shop", "agent", { app: "agent" }, { hostNetwork: true });
    expect(only("CW1005", lint(input([...shop, host], [deny])))).toEqual([]);
    expect(only("CW1005", lint(input([...shop, others], [])))).toEqual([]);
  });
});

describe("CW1006 exposed-to-internet", () => {
  const isolate = (ingress: object[]) => np("shop", "web", { podSelector: fromApp("web").podSelector, ingress });
  const exposed = (ingress: object[]) =>
    only("CW1006", lint(input(shop, [isolate(ingress)]))).filter((w) => w.workload === "shop/Deployment/web");

  it("fires for 0.0.0.0/0, with the ports", () => {
    const [w, ...rest] = exposed([{ from: [{ ipBlock: { cidr: "0.0.0.0/0" } }], ports: tcp(443) }]);
    expect(rest).toEqual([]);
    expect(w?.message).toBe(
      "every address of 0.0.0.0/0 on TCP 443 (through shop/web) may connect to shop/Deployment/web",
    );
    expect(formatConnectionSet(w!.connections!)).toBe("TCP 443");
  });

  it("fires when several rules together cover every IPv4 address on a port, and for ::/0", () => {
    const halves = exposed([
      { from: [{ ipBlock: { cidr: "0.0.0.0/1" } }], ports: tcp(80, 443) },
      { from: [{ ipBlock: { cidr: "128.0.0.0/1" } }], ports: tcp(443) },
      { from: [{ ipBlock: { cidr: "::/0" } }] },
    ]);
    expect(halves.map((w) => w.message)).toEqual([
      "every address of 0.0.0.0/0 on TCP 443 (through shop/web), and every address of ::/0 on All connections (through shop/web) may connect to shop/Deployment/web",
    ]);
  });

  it("does not fire when a range is cut out, or the halves open different ports", () => {
    expect(exposed([{ from: [{ ipBlock: { cidr: "0.0.0.0/0", except: ["10.0.0.0/8"] } }] }])).toEqual([]);
    expect(
      exposed([
        { from: [{ ipBlock: { cidr: "0.0.0.0/1" } }], ports: tcp(80) },
        { from: [{ ipBlock: { cidr: "128.0.0.0/1" } }], ports: tcp(443) },
      ]),
    ).toEqual([]);
  });

  it("fires for a rule without peers, and for workloads left open while others are isolated", () => {
    const ws = only("CW1006", lint(input(shop, [isolate([{ ports: tcp(8080) }])])));
    expect(ws.map((w) => [w.workload, formatConnectionSet(w.connections!)])).toEqual([
      ["shop/Deployment/web", "TCP 8080"],
      ["shop/Deployment/api", "All connections"],
      ["shop/Deployment/db", "All connections"],
    ]);
  });
});

describe("silencing", () => {
  const policies = [
    np("shop", "ghost", { podSelector: fromApp("ghost").podSelector }),
    np("shop", "web", { podSelector: fromApp("web").podSelector, ingress: [{ from: [{ namespaceSelector: {} }] }] }),
  ];
  const all = brief(lint(input(shop, policies)));

  it("reports everything without options", () => {
    expect(all).toEqual([
      "CW1001 shop/ghost",
      "CW1005 shop/Deployment/web",
      "CW1005 shop/Deployment/api",
      "CW1005 shop/Deployment/db",
      "CW1006 shop/Deployment/api",
      "CW1006 shop/Deployment/db",
    ]);
  });

  it("silences ids and names for the whole run", () => {
    expect(brief(lint(input(shop, policies), { ignore: { ids: ["CW1005", "policy-selects-nothing"] } }))).toEqual([
      "CW1006 shop/Deployment/api",
      "CW1006 shop/Deployment/db",
    ]);
  });

  it("silences per policy, workload and namespace, as their annotations list", () => {
    const perObject = new Map([
      ["shop/ghost", ["CW1001"]],
      ["shop/Deployment/api", ["exposed-to-all-namespaces", "CW1006"]],
      ["shop/web", ["CW1005"]], // a policy's annotation does not silence a workload's warning
    ]);
    expect(brief(lint(input(shop, policies), { ignore: { perObject } }))).toEqual([
      "CW1005 shop/Deployment/web",
      "CW1005 shop/Deployment/db",
      "CW1006 shop/Deployment/db",
    ]);
    const deny = np("shop", "deny", { podSelector: {}, policyTypes: ["Egress"] });
    const dev = input([...shop, wl("dev", "tool", { app: "tool" })], [deny]);
    expect(brief(only("CW1004", lint(dev)))).toEqual(["CW1004 dev egress"]);
    expect(only("CW1004", lint(dev, { ignore: { perObject: new Map([["dev", ["CW1004"]]]) } }))).toEqual([]);
  });

  it("refuses an unknown id for the whole run", () => {
    expect(() => lint(input(shop, policies), { ignore: { ids: ["CW9999"] } })).toThrow(EvaluatorInputError);
  });
});

describe("input checks", () => {
  it("refuses an input the analysis was not made from", () => {
    const i = input(shop, [np("shop", "a", { podSelector: {} })]);
    const analysis = analyzeConnectivity(i);
    expect(() => lintPolicies(analysis, { ...i, workloads: shop.slice(1) })).toThrow(
      /input\.workloads: has 2 workloads/,
    );
    expect(() => lintPolicies(analysis, { ...i, workloads: [shop[1]!, shop[0]!, shop[2]!] })).toThrow(
      EvaluatorInputError,
    );
    expect(() => lintPolicies(analysis, { ...i, policies: [np("shop", "b", { podSelector: {} })] })).toThrow(
      /input\.policies\[0\]: is not shop\/a/,
    );
  });
});

describe("real manifests: microservices-demo's network policies", () => {
  const dir = join(
    import.meta.dirname,
    "../../fixtures/real-world/microservices-demo/kustomize/components/network-policies",
  );
  const files = nonEmpty(
    [
      "network-policy-deny-all.yaml",
      "network-policy-cartservice.yaml",
      "network-policy-checkoutservice.yaml",
      "network-policy-frontend.yaml",
      "network-policy-loadgenerator.yaml",
    ],
    "microservices-demo policies",
  );
  // The project's kustomization sets one namespace for everything; YOUR_NAMESPACE is its placeholder.
  const policies = files.flatMap(
    (f) => fromYaml(readFileSync(join(dir, f), "utf8").replaceAll("YOUR_NAMESPACE", "default")) as NetworkPolicy[],
  );
  // The Deployments' pod template labels and container ports (kubernetes-manifests/*.yaml).
  const deployment = (name: string, port?: number) =>
    wl("default", name, { app: name }, port === undefined ? {} : { ports: [{ containerPort: port }] });
  const workloads = [
    deployment("frontend", 8080),
    deployment("cartservice", 7070),
    deployment("checkoutservice", 5050),
    deployment("loadgenerator"),
    deployment("redis-cart", 6379),
  ];

  it("reads five policies, and finds the frontend open to every namespace and to the internet, and nothing else", () => {
    expect(policies.map((p) => p.metadata?.name)).toEqual([
      "deny-all",
      "cartservice",
      "checkoutservice",
      "frontend",
      "loadgenerator",
    ]);
    const ws = lint(input(workloads, policies));
    expect(brief(ws)).toEqual(["CW1005 default/Deployment/frontend", "CW1006 default/Deployment/frontend"]);
    expect(ws[0]?.message).toContain(
      "ingress rule 0 of NetworkPolicy default/frontend admits every pod of every namespace (it lists no peers)",
    );
    expect(ws[1]?.message).toBe(
      "every address of 0.0.0.0/0 on All connections (through default/frontend), and every address of ::/0 on All connections (through default/frontend) may connect to default/Deployment/frontend",
    );
  });

  it("finds the redundancy when the frontend policy is applied twice, and a namespace left out of the default deny", () => {
    const again = np("default", "frontend-copy", (toJson(policies[3]!) as { spec: object }).spec);
    const ws = lint(input([...workloads, wl("staging", "frontend", { app: "frontend" })], [...policies, again]));
    expect(brief(ws.filter((w) => w.id !== "CW1005" && w.id !== "CW1006"))).toEqual([
      "CW1002 default/frontend-copy ingress[0]",
      "CW1002 default/frontend-copy egress[0]",
      "CW1003 default/frontend-copy",
      "CW1004 staging ingress",
      "CW1004 staging egress",
    ]);
  });
});
