import { describe, expect, it } from "vitest";
import { formatExpectationResults } from "../../../src/connectivity/expect/format.js";
import { checkExpectations } from "../../../src/connectivity/expect/judge.js";
import { parseExpectations } from "../../../src/connectivity/expect/parse.js";
import type { ClusterWorkload, ConnectivityPeer, DirectionExplanation } from "../../../src/networking/index.js";
import { ALL_CONNECTIONS } from "../../../src/networking/index.js";
import { fakeAnalysis, tcp } from "./fake-analysis.js";

const WORKLOADS: ClusterWorkload[] = [
  { namespace: "shop", kind: "Deployment", name: "web" },
  { namespace: "shop", kind: "Deployment", name: "api" },
  { namespace: "shop", kind: "StatefulSet", name: "db" },
];

describe("formatExpectationResults", () => {
  it("prints each expectation, and under a failing one its place, pairs, deciding policies and the rest counted", () => {
    const analysis = fakeAnalysis({
      workloads: WORKLOADS,
      segments: ["0.0.0.0/1", "128.0.0.0/1"],
      rules: [
        { from: "shop/Deployment/web", to: "shop/Deployment/api", connections: tcp(80), policy: "shop/api-in" },
        { from: "shop/Deployment/web", to: "shop/StatefulSet/db", connections: ALL_CONNECTIONS, policy: "shop/db-in" },
        { from: "shop/Deployment/api", to: "shop/StatefulSet/db", connections: tcp(5432), policy: "shop/db-in" },
        { from: "128.0.0.0/1", to: "shop/Deployment/web", connections: tcp(22), policy: "shop/ssh" },
      ],
    });
    const file = [
      "expectations:",
      "  - name: the web reaches the api",
      "    allow: {from: shop/web, to: shop/api, port: 8080}",
      "  - deny: {from: '*', to: shop/db, port: 5432}",
      "  - deny: {from: 0.0.0.0/0, to: shop/web, port: 22}",
      "  - deny: {from: shop/api, to: shop/web}",
      "",
    ].join("\n");
    const results = checkExpectations(analysis, parseExpectations(file, "ci.yaml"), {
      input: analysis.input,
      maxFailures: 1,
    });
    expect(formatExpectationResults(results)).toBe(
      [
        "FAIL  the web reaches the api (1 of 1 pair failed)",
        "      ci.yaml:2:5: allow shop/web => shop/api on TCP 8080",
        "      shop/Deployment/web => shop/Deployment/api: TCP 8080 not allowed (allowed: TCP 80)",
        "        egress from shop/Deployment/web: not isolated (no policy selects it for egress)",
        "        ingress to shop/Deployment/api: isolated by fake/isolate; allowed by shop/api-in (spec.ingress[0]): TCP 80",
        "FAIL  deny * => shop/db on TCP 5432 (2 of 2 pairs failed)",
        "      ci.yaml:4:5: deny * => shop/db on TCP 5432",
        "      shop/Deployment/web => shop/StatefulSet/db: TCP 5432 allowed",
        "        egress from shop/Deployment/web: not isolated (no policy selects it for egress)",
        "        ingress to shop/StatefulSet/db: isolated by fake/isolate; allowed by shop/db-in (spec.ingress[0]): All connections",
        "      ... and 1 more pair",
        "FAIL  deny 0.0.0.0/0 => shop/web on TCP 22 (1 of 2 pairs failed)",
        "      ci.yaml:5:5: deny 0.0.0.0/0 => shop/web on TCP 22",
        "      128.0.0.0/1 => shop/Deployment/web: TCP 22 allowed",
        "        egress from 128.0.0.0/1: not isolated (outside the cluster)",
        "        ingress to shop/Deployment/web: isolated by fake/isolate; allowed by shop/ssh (spec.ingress[0]): TCP 22",
        "PASS  deny shop/api => shop/web (1 pair)",
        "",
        "3 of 4 expectations failed.",
        "",
      ].join("\n"),
    );
  });

  it("says when all passed, and words a denied direction", () => {
    const analysis = fakeAnalysis({ workloads: WORKLOADS });
    const results = checkExpectations(
      analysis,
      parseExpectations("expectations:\n  - allow: {from: shop/web, to: shop/api}\n"),
      { input: analysis.input },
    );
    expect(formatExpectationResults(results).split("\n")).toEqual([
      "FAIL  allow shop/web => shop/api (1 of 1 pair failed)",
      "      expectations.yaml:2:5: allow shop/web => shop/api",
      "      shop/Deployment/web => shop/Deployment/api: All connections not allowed (allowed: No connections)",
      "        egress from shop/Deployment/web: not isolated (no policy selects it for egress)",
      "        ingress to shop/Deployment/api: isolated by fake/isolate; no rule admits shop/Deployment/web",
      "",
      "1 of 1 expectation failed.",
      "",
    ]);
    const passing = checkExpectations(
      analysis,
      parseExpectations("expectations:\n  - deny: {from: 'shop/*', to: 'shop/*'}\n"),
      { input: analysis.input },
    );
    expect(formatExpectationResults(passing)).toBe("PASS  deny shop/* => shop/* (6 pairs)\n\n1 expectation passed.\n");
  });

  it("words an isolated subject inside the cluster that no policy selects", () => {
    // The hand-written analysis always isolates for ingress; a direction that is not isolated
    // is worded from the explanation alone.
    const analysis = fakeAnalysis({ workloads: WORKLOADS, rules: [] });
    const open: DirectionExplanation = {
      verdict: "not-isolated",
      isolatedBy: [],
      allowedBy: [],
      connections: ALL_CONNECTIONS,
    };
    const explain = analysis.explain;
    const peer = (key: string): ConnectivityPeer => analysis.workloads.find((w) => w.key === key) as ConnectivityPeer;
    const wrapped = {
      ...analysis,
      between: () => ALL_CONNECTIONS,
      explain: (from: string, to: string) => ({ ...explain(from, to), ingress: open, from: peer(from), to: peer(to) }),
    };
    const results = checkExpectations(
      wrapped,
      parseExpectations("expectations:\n  - deny: {from: shop/web, to: shop/db, port: 5432}\n"),
      { input: analysis.input },
    );
    expect(formatExpectationResults(results)).toContain(
      "        ingress to shop/StatefulSet/db: not isolated (no policy selects it for ingress)\n",
    );
  });
});
