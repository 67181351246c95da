import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseClusterFile } from "../../../src/cli/shared/cluster-file.js";
import { ExpectationFileError } from "../../../src/connectivity/expect/errors.js";
import { checkExpectations, covers, meets } from "../../../src/connectivity/expect/judge.js";
import { parseExpectations } from "../../../src/connectivity/expect/parse.js";
import type { ExpectationProblem, ExpectationResult } from "../../../src/connectivity/expect/types.js";
import {
  ALL_CONNECTIONS,
  type ClusterWorkload,
  type ConnectivityInput,
  type ConnectionSet,
  NO_CONNECTIONS,
  type NetworkPolicy,
  PROTOCOLS,
  analyzeConnectivity,
  formatConnectionSet,
  fromJson,
  intersectConnectionSets,
  isEmptyConnectionSet,
  subtractConnectionSets,
  unionConnectionSets,
} from "../../../src/networking/index.js";
import { propertyRuns } from "../../support/property-runs.js";
import { placeOf } from "./place.js";
import { type FakeAnalysis, type FakeRule, fakeAnalysis, tcp } from "./fake-analysis.js";

// ------------------------------------------------------------------ with the analyzer: each kind passing and failing

function policy(namespace: string, name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { namespace, name },
    spec,
  } as never) as NetworkPolicy;
}

const app = (name: string) => ({ matchLabels: { app: name } });

/** A shop that keeps all four of the issue's expectations. */
const SHOP: ConnectivityInput = {
  namespaces: [{ name: "shop" }, { name: "payments" }, { name: "dev" }],
  workloads: [
    { namespace: "shop", kind: "Deployment", name: "frontend", labels: { app: "frontend" } },
    {
      namespace: "shop",
      kind: "Deployment",
      name: "api",
      labels: { app: "api" },
      ports: [{ name: "http", containerPort: 8080 }],
    },
    { namespace: "shop", kind: "StatefulSet", name: "db", labels: { app: "db" }, ports: [{ containerPort: 5432 }] },
    { namespace: "shop", kind: "Deployment", name: "bastion", labels: { app: "bastion" } },
    { namespace: "payments", kind: "Deployment", name: "ledger", labels: { app: "ledger" } },
    { namespace: "dev", kind: "Deployment", name: "sandbox", labels: { app: "sandbox" } },
  ],
  policies: [
    policy("shop", "default-deny", { podSelector: {}, policyTypes: ["Ingress"] }),
    policy("shop", "api-from-frontend", {
      podSelector: app("api"),
      ingress: [{ from: [{ podSelector: app("frontend") }], ports: [{ port: "http" }] }],
    }),
    policy("shop", "db-from-api", {
      podSelector: app("db"),
      ingress: [{ from: [{ podSelector: app("api") }], ports: [{ port: 5432 }] }],
    }),
    policy("payments", "own-namespace-only", {
      podSelector: {},
      policyTypes: ["Ingress", "Egress"],
      ingress: [{ from: [{ podSelector: {} }] }],
      egress: [{ to: [{ podSelector: {} }] }],
    }),
    policy("dev", "default-deny", { podSelector: {}, policyTypes: ["Ingress"] }),
  ],
};

const FOUR = {
  allow: "  - allow: {from: shop/frontend, to: shop/api, port: 8080}",
  deny: "  - deny: {from: '*', to: shop/db, port: 5432, except: [shop/api]}",
  isolated: "  - isolated: {namespace: payments, from: dev}",
  exposed: "  - deny: {from: 0.0.0.0/0, to: '*', port: 22}",
};

function real(yaml: string, input: ConnectivityInput): ExpectationResult {
  const results = checkExpectations(analyzeConnectivity(input), parseExpectations(`expectations:\n${yaml}\n`), {
    input,
  });
  expect(results).toHaveLength(1);
  return results[0] as ExpectationResult;
}

/** SHOP with its policies changed by `edit`. */
function shopWith(edit: (policies: NetworkPolicy[]) => NetworkPolicy[]): ConnectivityInput {
  return { ...SHOP, policies: edit([...SHOP.policies]) };
}

const without = (name: string) => (ps: NetworkPolicy[]) =>
  ps.filter((p) => `${p.metadata?.namespace}/${p.metadata?.name}` !== name);

/** Each failing pair as `from => to: offending | egress verdict by policies | ingress verdict by policies`. */
function explained(r: ExpectationResult): string[] {
  const side = (d: ExpectationResult["failures"][number]["explanation"]["egress"]) =>
    `${d.verdict}${d.isolatedBy.length > 0 ? ` by ${d.isolatedBy.join(",")}` : ""}${
      d.allowedBy.length > 0
        ? ` allowed by ${d.allowedBy.map((m) => `${m.policy}[${m.rules.join(",")}]`).join(",")}`
        : ""
    }`;
  return r.failures.map(
    (f) =>
      `${f.from.key} => ${f.to.key}: ${formatConnectionSet(f.offending)} | ${side(f.explanation.egress)} | ${side(f.explanation.ingress)}`,
  );
}

describe("checkExpectations with the analyzer: the issue's four expectations", () => {
  it("all four hold on the shop", () => {
    const analysis = analyzeConnectivity(SHOP);
    const yaml = Object.values(FOUR).join("\n");
    const results = checkExpectations(analysis, parseExpectations(`expectations:\n${yaml}\n`), { input: SHOP });
    expect(results.map((r) => [r.expectation.kind, r.passed, r.checked])).toEqual([
      ["allow", true, 1],
      // frontend, bastion, ledger, sandbox => db (api left out, db not paired with itself)
      ["deny", true, 4],
      // ledger <=> sandbox, both ways
      ["isolated", true, 2],
      // every segment of 0.0.0.0/0 (nothing cuts it here: one) to each of the six workloads
      ["deny", true, 6],
    ]);
  });

  it("allow fails when the rule that admits the frontend is gone, naming the isolating policy", () => {
    const r = real(FOUR.allow, shopWith(without("shop/api-from-frontend")));
    expect(r).toMatchObject({ passed: false, checked: 1, failed: 1 });
    expect(explained(r)).toEqual([
      "shop/Deployment/frontend => shop/Deployment/api: TCP 8080 | not-isolated | denied by shop/default-deny",
    ]);
  });

  it("allow fails on a port the rule does not open, naming the rule that opens another", () => {
    const r = real("  - allow: {from: shop/frontend, to: shop/api, port: 9090}", SHOP);
    expect(explained(r)).toEqual([
      "shop/Deployment/frontend => shop/Deployment/api: TCP 9090 | not-isolated | allowed-by-rule by shop/default-deny,shop/api-from-frontend allowed by shop/api-from-frontend[0]",
    ]);
    expect(formatConnectionSet(r.failures[0]?.allowed ?? NO_CONNECTIONS)).toBe("TCP 8080");
  });

  it("deny with except fails when the database admits the whole namespace, naming the rule", () => {
    const input = shopWith((ps) => [
      ...without("shop/db-from-api")(ps),
      policy("shop", "db-from-shop", {
        podSelector: app("db"),
        ingress: [{ from: [{ podSelector: {} }], ports: [{ port: 5432 }] }],
      }),
    ]);
    const r = real(FOUR.deny, input);
    expect(r).toMatchObject({ passed: false, checked: 4, failed: 2 });
    expect(explained(r)).toEqual([
      "shop/Deployment/frontend => shop/StatefulSet/db: TCP 5432 | not-isolated | allowed-by-rule by shop/default-deny,shop/db-from-shop allowed by shop/db-from-shop[0]",
      "shop/Deployment/bastion => shop/StatefulSet/db: TCP 5432 | not-isolated | allowed-by-rule by shop/default-deny,shop/db-from-shop allowed by shop/db-from-shop[0]",
    ]);
  });

  it("isolated fails both ways without the payments policy, where nothing isolates", () => {
    const r = real(FOUR.isolated, shopWith(without("payments/own-namespace-only")));
    expect(r).toMatchObject({ passed: false, checked: 2, failed: 1 });
    // dev denies ingress by default, so only dev => payments is open: no policy isolates either side.
    expect(explained(r)).toEqual([
      "dev/Deployment/sandbox => payments/Deployment/ledger: All connections | not-isolated | not-isolated",
    ]);
    const open = real(
      FOUR.isolated,
      shopWith((ps) => without("dev/default-deny")(without("payments/own-namespace-only")(ps))),
    );
    expect(open).toMatchObject({ passed: false, checked: 2, failed: 2 });
  });

  it("exposure to 0.0.0.0/0 on 22 fails for the range a policy opens, cut where its ipBlock cuts", () => {
    const input = shopWith((ps) => [
      ...ps,
      policy("shop", "bastion-ssh", {
        podSelector: app("bastion"),
        ingress: [{ from: [{ ipBlock: { cidr: "0.0.0.0/0", except: ["10.0.0.0/8"] } }], ports: [{ port: 22 }] }],
      }),
    ]);
    const r = real(FOUR.exposed, input);
    // The ipBlock cuts 0.0.0.0/0 into three segments; six workloads each.
    expect(r).toMatchObject({ passed: false, checked: 18, failed: 2 });
    expect(explained(r)).toEqual([
      "0.0.0.0/5,8.0.0.0/7 => shop/Deployment/bastion: TCP 22 | not-isolated | allowed-by-rule by shop/default-deny,shop/bastion-ssh allowed by shop/bastion-ssh[0]",
      "11.0.0.0/8,12.0.0.0/6,16.0.0.0/4,32.0.0.0/3,64.0.0.0/2,128.0.0.0/1 => shop/Deployment/bastion: TCP 22 | not-isolated | allowed-by-rule by shop/default-deny,shop/bastion-ssh allowed by shop/bastion-ssh[0]",
    ]);
    // From inside 10.0.0.0/8 nothing reaches port 22, and the file can say so.
    expect(real("  - deny: {from: 10.0.0.0/8, to: '*', port: 22}", input)).toMatchObject({ passed: true, checked: 6 });
  });
});

describe("examples/clusters/shop-expectations.yaml", () => {
  // The shop of examples/clusters/shop.yaml, each pod a workload.
  const cluster = parseClusterFile("shop.yaml", readFileSync("examples/clusters/shop.yaml", "utf8"));
  const input: ConnectivityInput = {
    namespaces: cluster.namespaces,
    policies: cluster.policies,
    workloads: cluster.pods.map((p) => ({
      namespace: p.namespace,
      kind: "Pod",
      name: p.name,
      ...(p.labels !== undefined ? { labels: p.labels } : {}),
      ...(p.ports !== undefined ? { ports: p.ports } : {}),
      ...(p.hostNetwork === true ? { hostNetwork: true } : {}),
    })),
  };
  const file = "examples/clusters/shop-expectations.yaml";
  const expectations = parseExpectations(readFileSync(file, "utf8"), file);

  it("holds on the shop", () => {
    const results = checkExpectations(analyzeConnectivity(input), expectations, { input });
    expect(results.map((r) => [r.expectation.name, r.passed])).toEqual(expectations.map((e) => [e.name, true]));
    expect(results.every((r) => r.checked > 0)).toBe(true);
  });

  it("fails where the shop's policies change", () => {
    const loose = {
      ...input,
      // Without the storefront's ingress rule and the shop's egress rules, the shop's default
      // deny keeps the controller out and the shop in.
      policies: input.policies.filter((p) => !["storefront-from-ingress", "egress"].includes(p.metadata?.name ?? "")),
    };
    const results = checkExpectations(analyzeConnectivity(loose), expectations, { input: loose });
    expect(results.filter((r) => !r.passed).map((r) => r.expectation.name)).toEqual([
      "the ingress controller reaches the storefront",
      "shop workloads resolve names",
      "the shop calls HTTPS on the internet",
    ]);
    expect(results[0]?.failures[0]?.explanation.ingress.isolatedBy).toEqual(["shop/default-deny"]);
  });
});

// ------------------------------------------------------------------ the matcher, over a hand-written analysis

const WORKLOADS: ClusterWorkload[] = [
  { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web", tier: "front" } },
  {
    namespace: "shop",
    kind: "Deployment",
    name: "api",
    labels: { app: "api", tier: "back" },
    ports: [{ name: "http", containerPort: 8080 }],
  },
  {
    namespace: "shop",
    kind: "StatefulSet",
    name: "db",
    labels: { app: "db", tier: "back" },
    ports: [{ name: "pg", containerPort: 5432 }],
  },
  { namespace: "dev", kind: "Pod", name: "debug", labels: { app: "debug" } },
];

function judge(yaml: string, rules: readonly FakeRule[], segments?: readonly string[], maxFailures?: number) {
  const analysis = fakeAnalysis({ workloads: WORKLOADS, rules, ...(segments ? { segments } : {}) });
  const expectations = parseExpectations(`expectations:\n${yaml}`, "expect.yaml");
  const results = checkExpectations(analysis, expectations, {
    input: analysis.input,
    ...(maxFailures !== undefined ? { maxFailures } : {}),
  });
  return { results, analysis };
}

function only(yaml: string, rules: readonly FakeRule[], segments?: readonly string[]): ExpectationResult {
  const { results } = judge(yaml, rules, segments);
  expect(results).toHaveLength(1);
  return results[0] as ExpectationResult;
}

function problemsOf(run: () => unknown): ExpectationProblem[] {
  try {
    run();
  } catch (e) {
    if (e instanceof ExpectationFileError) return [...e.problems];
    throw e;
  }
  throw new Error("no ExpectationFileError");
}

const rule = (from: string, to: string, connections = ALL_CONNECTIONS, policy = "shop/open"): FakeRule => ({
  from,
  to,
  connections,
  policy,
});

describe("checkExpectations: the pairs each expectation judges (hand-written analysis)", () => {
  it("allow: every matched pair, self left out", () => {
    const r = only("  - allow: {from: 'shop/*', to: shop/api, port: 8080}", [
      rule("shop/Deployment/web", "shop/Deployment/api", tcp(8080)),
      rule("shop/StatefulSet/db", "shop/Deployment/api", tcp(80)),
    ]);
    expect(r).toMatchObject({ passed: false, checked: 2, failed: 1 });
    const [f] = r.failures;
    expect(f?.from.key).toBe("shop/StatefulSet/db");
    expect(formatConnectionSet(f?.offending ?? NO_CONNECTIONS)).toBe("TCP 8080");
    expect(formatConnectionSet(f?.allowed ?? NO_CONNECTIONS)).toBe("TCP 80");
    expect(f?.explanation.ingress.allowedBy).toEqual([{ policy: "shop/open", rules: [0] }]);
  });

  it("allow of a range wants every port of it", () => {
    const rules = [rule("shop/Deployment/web", "shop/Deployment/api", tcp(8000, 8001, 8003))];
    const r = only("  - allow: {from: shop/web, to: shop/api, port: 8000-8003}", rules);
    expect(formatConnectionSet(r.failures[0]?.offending ?? NO_CONNECTIONS)).toBe("TCP 8002");
  });

  it("allow without a port wants some connection, of the protocol when given", () => {
    const rules = [rule("shop/Deployment/web", "shop/Deployment/api", tcp(1))];
    expect(only("  - allow: {from: shop/web, to: shop/api}", rules).passed).toBe(true);
    const udp = only("  - allow: {from: shop/web, to: shop/api, protocol: UDP}", rules);
    expect(udp.passed).toBe(false);
    expect(formatConnectionSet(udp.failures[0]?.offending ?? NO_CONNECTIONS)).toBe("UDP all ports");
  });

  it("deny: no matched pair, except peers left out at either end", () => {
    const rules = [rule("shop/Deployment/api", "shop/StatefulSet/db", tcp(5432))];
    const r = only("  - deny: {from: '*', to: shop/db, port: 5432, except: [shop/api]}", rules);
    expect(r).toMatchObject({ passed: true, checked: 2 });
    const broken = only("  - deny: {from: '*', to: shop/db, port: 5432}", rules);
    expect(broken).toMatchObject({ passed: false, checked: 3, failed: 1 });
    expect(broken.failures[0]?.from.key).toBe("shop/Deployment/api");
  });

  it("deny of a range fails on any port of it", () => {
    const rules = [rule("shop/Deployment/web", "shop/Deployment/api", tcp(8005))];
    expect(only("  - deny: {from: shop/web, to: shop/api, port: 8000-8004}", rules).passed).toBe(true);
    const r = only("  - deny: {from: shop/web, to: shop/api, port: 8000-8010}", rules);
    expect(formatConnectionSet(r.failures[0]?.offending ?? NO_CONNECTIONS)).toBe("TCP 8005");
  });

  it("isolated: both ways, every port", () => {
    const pass = only("  - isolated: {namespace: dev, from: shop}", [
      rule("shop/Deployment/web", "shop/Deployment/api"),
    ]);
    expect(pass).toMatchObject({ passed: true, checked: 6 });
    const r = only("  - isolated: {namespace: dev}", [rule("shop/Deployment/api", "dev/Pod/debug", tcp(9))]);
    expect(r).toMatchObject({ passed: false, checked: 6, failed: 1 });
    expect([r.failures[0]?.from.key, r.failures[0]?.to.key]).toEqual(["shop/Deployment/api", "dev/Pod/debug"]);
  });

  it("addresses: one pair per overlapping segment, judged at its first address", () => {
    const segments = ["0.0.0.0/5", "8.0.0.0/7", "10.0.0.0/8", "11.0.0.0/8", "12.0.0.0/6", "::/0"];
    const rules = [rule("10.0.0.0/8", "shop/Deployment/web", tcp(22))];
    const { results, analysis } = judge("  - deny: {from: 8.0.0.0/6, to: shop/web, port: 22}", rules, segments);
    const r = results[0];
    expect(r).toMatchObject({ passed: false, checked: 3, failed: 1 });
    expect((analysis as FakeAnalysis).asked).toEqual([
      "8.0.0.0 -> shop/Deployment/web",
      "10.0.0.0 -> shop/Deployment/web",
      "11.0.0.0 -> shop/Deployment/web",
    ]);
    expect(r?.failures[0]?.from).toMatchObject({ type: "external", key: "10.0.0.0/8" });
    // 9.0.0.0/7 is 8.0.0.0/7 once its host bit is dropped: one segment, which no rule opens.
    const hostBits = judge("  - deny: {from: 9.0.0.0/7, to: shop/web, port: 22}", rules, segments);
    expect(hostBits.results[0]).toMatchObject({ passed: true, checked: 1 });
    expect((hostBits.analysis as FakeAnalysis).asked).toEqual(["8.0.0.0 -> shop/Deployment/web"]);
  });

  it("addresses: the expectation's block, less except, cut by the segments", () => {
    const segments = ["0.0.0.0/1", "128.0.0.0/1"];
    const rules = [rule("0.0.0.0/0", "shop/Deployment/web", tcp(22))];
    const { results, analysis } = judge(
      "  - deny: {from: 0.0.0.0/0, to: shop/web, port: 22, except: [10.0.0.0/8, 128.0.0.0/1]}",
      rules,
      segments,
    );
    expect((analysis as FakeAnalysis).asked).toEqual(["0.0.0.0 -> shop/Deployment/web"]);
    expect(results[0]?.failures[0]?.from).toMatchObject({
      type: "external",
      key: "0.0.0.0/5,8.0.0.0/7,11.0.0.0/8,12.0.0.0/6,16.0.0.0/4,32.0.0.0/3,64.0.0.0/2",
    });
  });

  it("addresses: allow needs every overlapping segment, and egress towards addresses is judged too", () => {
    const segments = ["0.0.0.0/1", "128.0.0.0/1"];
    const rules = [rule("shop/Deployment/web", "128.0.0.0/1", tcp(443))];
    const r = only("  - allow: {from: shop/web, to: 0.0.0.0/0, port: 443}", rules, segments);
    expect(r).toMatchObject({ passed: false, checked: 2, failed: 1 });
    expect(r.failures[0]?.to.key).toBe("0.0.0.0/1");
    expect(only("  - allow: {from: shop/web, to: 200.0.0.0/8, port: 443}", rules, segments).passed).toBe(true);
  });

  it("named ports: looked up on each destination, which is left out when it has none", () => {
    const rules = [rule("shop/Deployment/web", "shop/Deployment/api", tcp(8080))];
    const r = only("  - allow: {from: shop/web, to: 'shop/*', port: http}", rules);
    expect(r).toMatchObject({ passed: true, checked: 1 });
    const udp = only("  - allow: {from: shop/web, to: shop/api, port: http, protocol: TCP}", rules);
    expect(udp.passed).toBe(true);
  });

  it("label patterns and kind globs", () => {
    const rules = [rule("shop/Deployment/web", "shop/Deployment/api")];
    const back = only("  - deny: {from: {labels: {tier: front}}, to: {namespace: shop, labels: {tier: back}}}", rules);
    expect(back).toMatchObject({ passed: false, checked: 2, failed: 1 });
    const sts = only("  - deny: {from: shop/web, to: shop/statefulset/*}", rules);
    expect(sts).toMatchObject({ passed: true, checked: 1 });
  });

  it("lists at most maxFailures pairs, and counts them all", () => {
    const rules = [
      rule("shop/Deployment/web", "shop/Deployment/api"),
      rule("shop/StatefulSet/db", "shop/Deployment/api"),
    ];
    const { results } = judge("  - deny: {from: '*', to: shop/api}", rules, undefined, 1);
    expect(results[0]).toMatchObject({ passed: false, checked: 3, failed: 2 });
    expect(results[0]?.failures).toHaveLength(1);
  });
});

describe("checkExpectations: mistakes only the analysis can show", () => {
  const text = [
    "expectations:",
    "  - allow: {from: shop/frontend, to: shop/api}",
    "  - deny: {from: '*', to: shop/api, except: [{labels: {app: nope}}]}",
    "  - isolated: {namespace: payments, from: [dev, qa]}",
    "  - allow: {from: shop/web, to: shop/web}",
    "  - allow: {from: shop/web, to: shop/db, port: http}",
    "",
  ].join("\n");

  it("names every pattern that matches nothing, every empty pair list and unknown port name, with its place", () => {
    const analysis = fakeAnalysis({ workloads: WORKLOADS });
    const problems = problemsOf(() =>
      checkExpectations(analysis, parseExpectations(text, "ci.yaml"), { input: analysis.input }),
    );
    const at = (needle: string, nth = 1) => {
      const p = placeOf(text, needle, nth);
      return `ci.yaml:${p.line}:${p.column}`;
    };
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.path}: ${p.message}`)).toEqual([
      `${at("shop/frontend")}: expectations[0].allow.from: shop/frontend matches no workload`,
      `${at("{labels")}: expectations[1].deny.except[0]: {labels: {app: nope}} matches no workload`,
      `${at("payments")}: expectations[2].isolated.namespace: no workload is in namespace payments`,
      `${at("qa")}: expectations[2].isolated.from[1]: no workload is in namespace qa`,
      `${at("allow", 2)}: expectations[3]: no pair is left to judge (a workload paired with itself, or all left out by except)`,
      `${at("http")}: expectations[4].allow.port: no destination workload has a port named "http"`,
    ]);
  });
});

describe("meets and covers, the judge's allocation-free set tests", () => {
  // Small ports (and the top of the range) so that ranges touch, overlap and nest often.
  const port = fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constantFrom(65534, 65535));
  const range = fc.tuple(fc.constantFrom(...PROTOCOLS), port, port);
  const set = fc
    .array(range, { maxLength: 5 })
    .map((rs) =>
      rs.reduce<ConnectionSet>(
        (acc, [p, a, b]) =>
          unionConnectionSets(acc, { TCP: [], UDP: [], SCTP: [], [p]: [{ from: Math.min(a, b), to: Math.max(a, b) }] }),
        NO_CONNECTIONS,
      ),
    );

  it("agree with the networking set operations (property)", () => {
    fc.assert(
      fc.property(set, set, (a, b) => {
        expect(meets(a, b)).toBe(!isEmptyConnectionSet(intersectConnectionSets(a, b)));
        expect(covers(a, b)).toBe(isEmptyConnectionSet(subtractConnectionSets(b, a)));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it("handle the edges", () => {
    expect(meets(ALL_CONNECTIONS, NO_CONNECTIONS)).toBe(false);
    expect(covers(NO_CONNECTIONS, NO_CONNECTIONS)).toBe(true);
    expect(covers(ALL_CONNECTIONS, ALL_CONNECTIONS)).toBe(true);
    expect(covers(tcp(80), tcp(80, 81))).toBe(false);
  });
});
