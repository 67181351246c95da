import { describe, expect, it } from "vitest";
import {
  describeChange,
  describeExplanation,
  explainConnectivityChange,
  rulesText,
} from "../../../src/connectivity/report/explain.js";
import {
  ALL_CONNECTIONS,
  NO_CONNECTIONS,
  diffConnectivity,
  parseConnectionSet,
  type ConnectionExplanation,
  type ConnectivityPeer,
  type DirectionExplanation,
} from "../../../src/networking/index.js";
import { SHOP_AFTER, SHOP_BEFORE, TWO_WORKLOADS } from "../../support/connectivity-sample.js";

const peer = (name: string): ConnectivityPeer => ({
  type: "workload",
  key: `ns/Deployment/${name}`,
  namespace: "ns",
  kind: "Deployment",
  name,
});

function explanation(connections: string, egress: DirectionExplanation, ingress: DirectionExplanation) {
  const e: ConnectionExplanation = {
    from: peer("a"),
    to: peer("b"),
    connections: parseConnectionSet(connections),
    egress,
    ingress,
  };
  return e;
}

const open: DirectionExplanation = {
  verdict: "not-isolated",
  isolatedBy: [],
  allowedBy: [],
  connections: ALL_CONNECTIONS,
};

function allowed(connections: string, ...allowedBy: [policy: string, ...rules: number[]][]): DirectionExplanation {
  return {
    verdict: "allowed-by-rule",
    isolatedBy: allowedBy.map(([p]) => p),
    allowedBy: allowedBy.map(([policy, ...rules]) => ({ policy, rules })),
    connections: parseConnectionSet(connections),
  };
}

function denied(...isolatedBy: string[]): DirectionExplanation {
  return {
    verdict: "denied",
    isolatedBy,
    allowedBy: [],
    connections: NO_CONNECTIONS,
  };
}

describe("describeExplanation", () => {
  it("names the rules of each direction that allow, and what a direction allows beyond the whole", () => {
    const e = explanation("TCP 80", allowed("TCP 80-90", ["ns/a", 0, 2]), allowed("TCP 80", ["ns/b", 1], ["ns/c", 0]));
    expect(describeExplanation(e)).toBe(
      "egress allowed by ns/a egress[0,2] (TCP 80-90); ingress allowed by ns/b ingress[1], ns/c ingress[0]",
    );
  });

  it("says a direction no policy isolates is not isolated", () => {
    expect(describeExplanation(explanation("All connections", open, open))).toBe(
      "egress not isolated; ingress not isolated",
    );
  });

  it("names, when denied, only the directions that deny, with the policies that isolate them", () => {
    expect(describeExplanation(explanation("No connections", open, denied("ns/x", "ns/y")))).toBe(
      "ingress denied, isolated by ns/x, ns/y",
    );
    expect(describeExplanation(explanation("No connections", denied("ns/x"), denied("ns/y")))).toBe(
      "egress denied, isolated by ns/x; ingress denied, isolated by ns/y",
    );
  });

  it("says what each direction allows when they have nothing in common", () => {
    const e = explanation("No connections", allowed("TCP 80", ["ns/a", 0]), allowed("UDP 53", ["ns/b", 3]));
    expect(describeExplanation(e)).toBe(
      "egress allows TCP 80 by ns/a egress[0]; ingress allows UDP 53 by ns/b ingress[3]; nothing in common",
    );
  });
});

describe("rulesText", () => {
  it("writes each policy with the indexes of its rules in that direction", () => {
    expect(
      rulesText("egress", [
        { policy: "a/b", rules: [1] },
        { policy: "c/d", rules: [0, 4] },
      ]),
    ).toBe("a/b egress[1], c/d egress[0,4]");
  });
});

describe("explainConnectivityChange", () => {
  it("explains both sides with each analysis, an external end by one of its addresses", () => {
    const diff = diffConnectivity(SHOP_BEFORE, SHOP_AFTER);
    const external = diff.changes.find((c) => c.from.type === "external");
    expect(external).toBeDefined();
    const why = explainConnectivityChange(diff, external!);
    expect(why.before).toEqual({
      exists: true,
      explanation: diff.before.explain("0.0.0.0", "shop/StatefulSet/db"),
    });
    expect(why.after).toEqual({ exists: true, explanation: diff.after.explain("0.0.0.0", "shop/StatefulSet/db") });
    expect(why.after.exists && why.after.explanation.ingress.isolatedBy).toEqual(["shop/db-in"]);
  });

  it("names the ends a snapshot does not have, both when both are new", () => {
    const none = { ...TWO_WORKLOADS, workloads: [] };
    const diff = diffConnectivity(none, TWO_WORKLOADS);
    const change = diff.changes.find((c) => c.from.key === "shop/Deployment/web" && c.to.key === "shop/Deployment/api");
    expect(change).toBeDefined();
    const why = explainConnectivityChange(diff, change!);
    expect(why.before).toEqual({ exists: false, missing: ["shop/Deployment/web", "shop/Deployment/api"] });
    expect(describeChange(why)).toEqual([
      "before: shop/Deployment/web and shop/Deployment/api did not exist yet",
      "after: egress not isolated; ingress not isolated",
    ]);
    const back = diffConnectivity(TWO_WORKLOADS, none);
    const gone = back.changes.find((c) => c.from.key === "shop/Deployment/web" && c.to.key === "shop/Deployment/api");
    expect(describeChange(explainConnectivityChange(back, gone!))[1]).toBe(
      "after: shop/Deployment/web and shop/Deployment/api no longer exist",
    );
  });
});
