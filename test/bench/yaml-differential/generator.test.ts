import { describe, expect, it } from "vitest";
import { Choices, renderVariant, type Rendering } from "../../../bench/yaml-differential/generator.js";
import { WIDE_FEATURES, type WideFeature } from "../../../bench/yaml-differential/wide.js";
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

const INGRESS = {
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name: "web", annotations: { "kubernetes.io/ingress.class": "nginx" } },
  spec: {
    tls: [{ hosts: ["a.example.com"], secretName: "tls" }],
    rules: [
      {
        host: "a.example.com",
        http: {
          paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "web", port: { number: 8080 } } } }],
        },
      },
    ],
  },
};

const N = 3000;
/** Renderings of two objects over N seeds, computed once: the generator is deterministic. */
const RENDERINGS: readonly Rendering[] = Array.from({ length: N }, (_, seed) => renderVariant([POLICY, INGRESS], seed));

function withFeature(f: WideFeature): Rendering[] {
  return RENDERINGS.filter((r) => r.features.includes(f));
}

describe("renderVariant's wider surface", () => {
  it("stays a function of its seed with both streams of choices", () => {
    for (let seed = 0; seed < 300; seed++) expect(renderVariant([POLICY, INGRESS], seed)).toEqual(RENDERINGS[seed]);
  });

  it("writes each wide choice at a small seeded rate", () => {
    const counts = new Map<string, number>();
    for (const r of RENDERINGS) for (const f of r.features) counts.set(f, (counts.get(f) ?? 0) + 1);
    for (const f of WIDE_FEATURES) {
      const rate = (counts.get(f) ?? 0) / N;
      // 1.4% (yaml11-int) to 13.8% (tab-flow) of documents when written; the bounds leave room for retuning.
      expect({ f, seen: rate >= 0.003 }).toEqual({ f, seen: true });
      expect({ f, small: rate <= 0.2 }).toEqual({ f, small: true });
    }
  });

  it("leaves most documents to the first generator's surface", () => {
    const touched = RENDERINGS.filter((r) => r.features.some((f) => (WIDE_FEATURES as string[]).includes(f))).length;
    expect(touched / N).toBeLessThan(0.75); // 0.606 when written
  });

  it("renders well-formed strings only, which encode as valid UTF-8", () => {
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    for (const r of RENDERINGS) {
      expect(loneSurrogate.test(r.text)).toBe(false);
      expect(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(new TextEncoder().encode(r.text))).toBe(
        r.text,
      );
    }
  });

  it("puts CR-only line ends and a BOM past the start where it says so", () => {
    for (const r of withFeature("cr")) expect(r.text).toMatch(/\r(?!\n)/);
    for (const r of withFeature("bom-middle")) expect(r.text.slice(1)).toContain("\ufeff");
  });

  it("writes what each feature names", () => {
    const some = (f: WideFeature, test: (t: string) => boolean): void => {
      const rs = withFeature(f);
      expect(rs.length).toBeGreaterThan(0);
      // Read past the text-level surface: BOMs, CR and CRLF line ends.
      const plain = (t: string): string => t.replaceAll("\ufeff", "").replace(/\r\n?/g, "\n");
      expect({ f, all: rs.every((r) => test(plain(r.text))) }).toEqual({ f, all: true });
    };
    some("tag-directive", (t) => /^%TAG !{1,2}(e!)? \S+[ \t]*$/m.test(t) && /%TAG[\s\S]*\n---/.test(t));
    some("deep", (t) => /\[{94,105}1\]|(\{a: ){94,105}1|(- ){94,105}v|\n {93,104}a:\n/.test(t));
    some("long-key", (t) => t.split(/\r\n|\r|\n/).some((l) => /^\s*"?(k{1000,}|(é){500,})"?: v/.test(l)));
    some("doc-end-text", (t) => /^\.\.\./m.test(t));

    some("json-style", (t) => /"[^"\n]*":/.test(t));
    some("merge-list", (t) => /<<: [[{*]/.test(t));
    some("surrogate", (t) => /\\u[dD][89a-fA-F]|\\U0000d8|\\u[dD]7FF|\\uE000|\\U0001F600/.test(t));
    some("tag", (t) => /![!<A-Za-z%e]|! /.test(t));
    some("tag-anchor", (t) => /&t\d+ !|! ?\S* &t\d+/.test(t));
    some("compact", (t) => /- - |-\s+- /.test(t));
    some("trailing-whitespace", (t) => /[ \t](\n|$)/.test(t));
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
