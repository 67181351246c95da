import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { checkExpectations } from "../../../src/connectivity/expect/judge.js";
import { junitXml } from "../../../src/connectivity/expect/junit.js";
import { parseExpectations } from "../../../src/connectivity/expect/parse.js";
import type { ExpectationResult } from "../../../src/connectivity/expect/types.js";
import {
  type ConnectivityInput,
  type NetworkPolicy,
  analyzeConnectivity,
  fromJson,
} from "../../../src/networking/index.js";

const INPUT: ConnectivityInput = {
  namespaces: [{ name: "shop" }],
  workloads: [
    { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
    { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } },
  ],
  policies: [
    fromJson({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { namespace: "shop", name: "api-in" },
      spec: {
        podSelector: { matchLabels: { app: "api" } },
        ingress: [{ from: [{ podSelector: { matchLabels: { app: "web" } } }], ports: [{ port: 8080 }] }],
      },
    } as never) as NetworkPolicy,
  ],
};

function results(yaml: string): ExpectationResult[] {
  return checkExpectations(analyzeConnectivity(INPUT), parseExpectations(`expectations:\n${yaml}`, "ci/expect.yaml"), {
    input: INPUT,
  });
}

interface Parsed {
  testsuites: {
    "@name": string;
    "@tests": string;
    "@failures": string;
    testsuite: {
      "@name": string;
      "@tests": string;
      "@failures": string;
      "@errors": string;
      testcase: {
        "@name": string;
        "@classname": string;
        "@file": string;
        failure?: { "@message": string; "@type": string; "#text": string };
      }[];
    };
  };
}

function parse(xml: string): Parsed {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    htmlEntities: true,
    trimValues: false,
    isArray: (name) => name === "testcase",
  });
  return parser.parse(xml) as Parsed;
}

describe("junitXml", () => {
  it("writes one testcase per expectation, a failing one with its message and explained pairs", () => {
    const xml = junitXml(
      results(
        [
          "  - name: the web reaches the api",
          "    allow: {from: shop/web, to: shop/api, port: 8080}",
          "  - deny: {from: shop/web, to: shop/api, port: 8080}",
          "  - deny: {from: shop/web, to: shop/api, port: 9090}",
        ].join("\n"),
      ),
      { suiteName: "shop" },
    );
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="shop" tests="3" failures="1" errors="0">\n',
      ),
    ).toBe(true);
    const { testsuites } = parse(xml);
    const suite = testsuites.testsuite;
    expect([suite["@name"], suite["@tests"], suite["@failures"], suite["@errors"]]).toEqual(["shop", "3", "1", "0"]);
    expect(suite.testcase.map((t) => [t["@name"], t["@classname"], t["@file"], t.failure !== undefined])).toEqual([
      ["the web reaches the api", "shop", "ci/expect.yaml", false],
      ["deny shop/web => shop/api on TCP 8080", "shop", "ci/expect.yaml", true],
      ["deny shop/web => shop/api on TCP 9090", "shop", "ci/expect.yaml", false],
    ]);
    const failure = suite.testcase[1]?.failure;
    expect(failure?.["@type"]).toBe("deny");
    expect(failure?.["@message"]).toBe("1 of 1 pairs break it: deny shop/web => shop/api on TCP 8080");
    expect(failure?.["#text"].split("\n")).toEqual([
      "ci/expect.yaml:4:5: deny shop/web => shop/api on TCP 8080",
      "shop/Deployment/web => shop/Deployment/api: TCP 8080 allowed",
      "  egress not isolated; ingress allowed by shop/api-in ingress[0]",
    ]);
  });

  it('escapes <, & and " in names, suite names and failure bodies, and keeps line breaks in attributes', () => {
    const name = "a <b> & \"c\"\n'd'";
    const xml = junitXml(results(`  - name: ${JSON.stringify(name)}\n    deny: {from: shop/web, to: shop/api}`), {
      suiteName: 'x"<&>',
    });
    expect(xml).toContain("name=\"a &lt;b&gt; &amp; &quot;c&quot;&#10;'d'\"");
    const { testsuites } = parse(xml);
    expect(testsuites["@name"]).toBe('x"<&>');
    expect(testsuites.testsuite.testcase[0]?.["@name"]).toBe(name);
    const failure = testsuites.testsuite.testcase[0]?.failure;
    expect(failure?.["@message"]).toBe("1 of 1 pairs break it: deny shop/web => shop/api");
    // The failure body is escaped too (a program may build results with any text).
    const [r] = results("  - deny: {from: shop/web, to: shop/api}");
    if (r === undefined) throw new Error("no result");
    const odd = junitXml([{ ...r, expectation: { ...r.expectation, text: "a </failure> & <b>" } }]);
    expect(odd).toContain("a &lt;/failure&gt; &amp; &lt;b&gt;");
    expect(parse(odd).testsuites.testsuite.testcase[0]?.failure?.["#text"]).toMatch(
      /^ci\/expect\.yaml:2:5: a <\/failure> & <b>\n/,
    );
  });

  it("replaces the characters XML cannot carry", () => {
    const name = "bell\u0007 nul\u0000 lone\ud800 pair\ud83d\ude00 tab\t end\uffff";
    // YAML refuses control characters, but results are plain values a program may build.
    const [r] = results("  - deny: {from: shop/api, to: shop/web}");
    if (r === undefined) throw new Error("no result");
    const xml = junitXml([{ ...r, expectation: { ...r.expectation, name } }]);
    const { testsuites } = parse(xml);
    expect(testsuites["@name"]).toBe("clusterwire expectations");
    expect(testsuites.testsuite.testcase[0]?.["@name"]).toBe(
      "bell\ufffd nul\ufffd lone\ufffd pair\ud83d\ude00 tab\t end\ufffd",
    );
  });

  it("writes an empty suite for no results", () => {
    const { testsuites } = parse(junitXml([]));
    expect([testsuites["@tests"], testsuites["@failures"]]).toEqual(["0", "0"]);
  });

  it("fails what every pair of an allow misses", () => {
    const xml = junitXml(results("  - allow: {from: shop/web, to: shop/api, port: 9090}"));
    expect(parse(xml).testsuites.testsuite.testcase[0]?.failure?.["#text"]).toContain(
      "shop/Deployment/web => shop/Deployment/api: TCP 9090 not allowed (allowed: TCP 8080)",
    );
  });
});
