import { describe, expect, it } from "vitest";
import { formatExpectationResults } from "../../../src/connectivity/expect/format.js";
import { checkExpectations } from "../../../src/connectivity/expect/judge.js";
import { parseExpectations } from "../../../src/connectivity/expect/parse.js";
import {
  type ConnectivityInput,
  type NetworkPolicy,
  analyzeConnectivity,
  fromJson,
} from "../../../src/networking/index.js";

function policy(name: string, spec: object): NetworkPolicy {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { namespace: "shop", name },
    spec,
  } as never) as NetworkPolicy;
}

const app = (name: string) => ({ matchLabels: { app: name } });

const SHOP: ConnectivityInput = {
  namespaces: [{ name: "shop" }],
  workloads: [
    { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
    {
      namespace: "shop",
      kind: "Deployment",
      name: "api",
      labels: { app: "api" },
      ports: [{ name: "http", containerPort: 8080 }],
    },
    { namespace: "shop", kind: "StatefulSet", name: "db", labels: { app: "db" } },
  ],
  policies: [
    policy("api-in", {
      podSelector: app("api"),
      ingress: [{ from: [{ podSelector: app("web") }], ports: [{ port: 80 }] }],
    }),
    policy("db-in", { podSelector: app("db"), ingress: [{ from: [{ podSelector: {} }] }] }),
    policy("web-ssh", {
      podSelector: app("web"),
      ingress: [{ from: [{ ipBlock: { cidr: "128.0.0.0/1" } }], ports: [{ port: 22 }] }],
    }),
  ],
};

function run(lines: readonly string[], maxFailures?: number): string {
  const expectations = parseExpectations(["expectations:", ...lines, ""].join("\n"), "ci.yaml");
  const results = checkExpectations(analyzeConnectivity(SHOP), expectations, {
    input: SHOP,
    ...(maxFailures !== undefined ? { maxFailures } : {}),
  });
  return formatExpectationResults(results);
}

describe("formatExpectationResults", () => {
  it("prints each expectation, and under a failing one its place, pairs, deciding policies and the rest counted", () => {
    const text = run(
      [
        "  - name: the web reaches the api",
        "    allow: {from: shop/web, to: shop/api, port: 8080}",
        "  - deny: {from: '*', to: shop/db, port: 5432}",
        "  - deny: {from: 0.0.0.0/0, to: shop/web, port: 22}",
        "  - deny: {from: shop/api, to: shop/web}",
      ],
      1,
    );
    expect(text).toBe(
      [
        "FAIL  the web reaches the api (1 of 1 pair failed)",
        "      ci.yaml:2:5: allow shop/web => shop/api on TCP 8080",
        "      shop/Deployment/web => shop/Deployment/api: TCP 8080 not allowed (allowed: TCP 80)",
        "        egress not isolated; ingress allowed by shop/api-in ingress[0]",
        "FAIL  deny * => shop/db on TCP 5432 (2 of 2 pairs failed)",
        "      ci.yaml:4:5: deny * => shop/db on TCP 5432",
        "      shop/Deployment/web => shop/StatefulSet/db: TCP 5432 allowed",
        "        egress not isolated; ingress allowed by shop/db-in ingress[0]",
        "      ... and 1 more pair",
        "FAIL  deny 0.0.0.0/0 => shop/web on TCP 22 (1 of 2 pairs failed)",
        "      ci.yaml:5:5: deny 0.0.0.0/0 => shop/web on TCP 22",
        "      128.0.0.0/1 => shop/Deployment/web: TCP 22 allowed",
        "        egress not isolated; ingress allowed by shop/web-ssh ingress[0]",
        "PASS  deny shop/api => shop/web (1 pair)",
        "",
        "3 of 4 expectations failed.",
        "",
      ].join("\n"),
    );
  });

  it("names the isolating policy of a direction no rule admits", () => {
    expect(run(["  - allow: {from: shop/api, to: shop/web}"]).split("\n")).toEqual([
      "FAIL  allow shop/api => shop/web (1 of 1 pair failed)",
      "      ci.yaml:2:5: allow shop/api => shop/web",
      "      shop/Deployment/api => shop/Deployment/web: All connections not allowed (allowed: No connections)",
      "        ingress denied, isolated by shop/web-ssh",
      "",
      "1 of 1 expectation failed.",
      "",
    ]);
  });

  it("says when all passed", () => {
    expect(run(["  - deny: {from: 'shop/*', to: shop/web}"])).toBe(
      "PASS  deny shop/* => shop/web (2 pairs)\n\n1 expectation passed.\n",
    );
  });
});
