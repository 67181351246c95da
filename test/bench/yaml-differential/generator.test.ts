import { describe, expect, it } from "vitest";
import { Choices, renderVariant } from "../../../bench/yaml-differential/generator.js";
import { fromYaml, toJson } from "../../../src/networking/index.js";

const POLICY = {
  apiVersion: "networking.k8s.io/v1",
  kind: "NetworkPolicy",
  metadata: { name: "web allow", namespace: "shop", labels: { app: "web" } },
  spec: {
    podSelector: { matchLabels: { app: "web" } },
    ingress: [{ ports: [{ port: 80, protocol: "TCP" }], from: [{ ipBlock: { cidr: "10.0.0.0/8" } }] }],
    policyTypes: ["Ingress"],
  },
};

describe("renderVariant", () => {
  it("is a function of its seed", () => {
    for (let seed = 0; seed < 200; seed++) expect(renderVariant([POLICY], seed)).toEqual(renderVariant([POLICY], seed));
  });

  it("varies with the seed and covers the listed surface", () => {
    const texts = new Set<string>();
    const features = new Set<string>();
    for (let seed = 0; seed < 2000; seed++) {
      const r = renderVariant([POLICY], seed);
      texts.add(r.text);
      for (const f of r.features) features.add(f);
    }
    expect(texts.size).toBeGreaterThan(1900);
    for (const f of [
      "block-scalar",
      "quoted-multiline",
      "anchor",
      "flow",
      "comment",
      "crlf",
      "bom",
      "tab",
      "unicode-break",
      "doc-marker",
    ])
      expect(features).toContain(f);
  });

  it("mostly renders texts that still read as the object", () => {
    // The generator is a differential's input, not a round-trip: some choices change the
    // value on purpose. But most renderings must be the object, or the campaign tests little.
    let same = 0;
    const want = JSON.stringify(toJson(fromYaml(JSON.stringify(POLICY))[0] as never));
    for (let seed = 0; seed < 300; seed++) {
      try {
        const objs = fromYaml(renderVariant([POLICY], seed).text);
        if (objs.length === 1 && JSON.stringify(toJson(objs[0] as never)) === want) same++;
      } catch {
        // refused: counted as not the same
      }
    }
    expect(same).toBeGreaterThan(30); // 60 of 300 when written
  });
});

describe("Choices", () => {
  it("stays in range", () => {
    const c = new Choices(7);
    for (let i = 0; i < 1000; i++) {
      const n = c.int(5);
      expect(n >= 0 && n < 5).toBe(true);
    }
    expect(() => c.pick([])).toThrow(RangeError);
  });
});
