// The Reach pane's reader against the CLI's (cli/shared/cluster-file.ts, the
// reader of `clusterwire reach`): the same cluster gives the same verdicts.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clusterEngine, parseClusterFile } from "../../src/cli/shared/cluster-file.js";
import type { PolicyEngine, Protocol } from "../../src/networking/index.js";
import { explain, readCluster } from "../../src/playground/reach.js";
import { SAMPLE_CLUSTER } from "../../src/playground/sample.js";
import { propertyRuns } from "../support/property-runs.js";

const SHOP = readFileSync(new URL("../../examples/clusters/shop.yaml", import.meta.url), "utf8");

function engineOf(text: string): PolicyEngine {
  const r = readCluster(text);
  if ("error" in r) throw new Error(r.error);
  return r.engine;
}

describe("readCluster", () => {
  for (const [name, text] of [
    ["examples/clusters/shop.yaml", SHOP],
    ["the sample", SAMPLE_CLUSTER],
  ] as const) {
    it(`${name}: every verdict is the CLI reader's`, () => {
      const mine = engineOf(text);
      const cli = clusterEngine(parseClusterFile("c.yaml", text));
      expect(mine.pods).toEqual(cli.pods);
      expect(mine.skipped).toEqual(cli.skipped);
      let allowed = 0;
      for (const [protocol, port] of [
        ["TCP", 80],
        ["TCP", 8080],
        ["TCP", 5432],
        ["UDP", 53],
      ] as [Protocol, number][]) {
        const a = mine.matrix({ protocol, port });
        const b = cli.matrix({ protocol, port });
        const n = a.pods.length;
        for (let f = 0; f < n; f++) {
          for (let t = 0; t < n; t++) {
            expect(a.allowed(f, t)).toBe(b.allowed(f, t));
            expect(a.egressAllowed(f, t)).toBe(b.egressAllowed(f, t));
            expect(a.ingressAllowed(f, t)).toBe(b.ingressAllowed(f, t));
          }
        }
        allowed += a.countAllowed();
        expect(a.countAllowed()).toBeLessThan(n * n); // policies deny something
      }
      expect(allowed).toBeGreaterThan(0);
    });
  }

  it("says what is wrong, with the field path, and never throws for bad input", () => {
    for (const [text, message] of [
      ["pods: 3\n", /^pods: expected a list/],
      ["pods:\n  - name: a\n    namespace: x\n", /^pods\[0\]\.ip: expected a string/],
      [
        "pods:\n  - {name: a, namespace: x, ip: 10.0.0.1, ports: [{containerPort: 0}]}\n",
        /^pods\[0\]\.ports\[0\]\.containerPort/,
      ],
      ["policies:\n  - spec: {podSelector: 3}\n", /^policies\[0\]: json decode error/],
      ["pods:\n  - {name: a, namespace: missing, ip: 10.0.0.1}\n", /missing/],
      ["nodes: []\n", /^nodes: unknown field/],
      ["a: 1\n---\nb: 2\n", /one YAML document/],
      ["a: [\n", /^yaml: /],
      ["", /one YAML document, not 0/],
    ] as const) {
      const r = readCluster(text);
      expect("error" in r ? r.error : "no error").toMatch(message);
    }
  });

  it("explains a cell with each direction's verdict and the deciding policies", () => {
    const e = engineOf(SAMPLE_CLUSTER);
    const d = e.evaluate({ from: { pod: "edge/proxy" }, to: { pod: "shop/db" }, protocol: "TCP", port: 8080 });
    expect(d.allowed).toBe(false);
    const lines = explain(e, "edge/proxy", "shop/db", "TCP", 8080);
    expect(lines[0]).toBe("edge/proxy -> shop/db TCP/8080: denied");
    expect(lines.join("\n")).toContain("shop/default-deny");
    expect(explain(e, "edge/proxy", "shop/web", "TCP", 8080)[0]).toMatch(/: allowed$/);
  });

  it("never throws on any edit of a cluster description", () => {
    const runs = propertyRuns(100);
    const edited = fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 8 })).map(([at, len, insert]) => {
      const i = at % (SHOP.length + 1);
      return SHOP.slice(0, i) + insert + SHOP.slice(i + len);
    });
    fc.assert(
      fc.property(fc.oneof(edited, fc.string()), (text) => {
        const r = readCluster(text);
        if ("engine" in r) expect(r.engine.pods.length).toBeGreaterThanOrEqual(0);
        else expect(typeof r.error).toBe("string");
      }),
      { numRuns: runs },
    );
  });
});
