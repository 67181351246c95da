import { describe, expect, it } from "vitest";
import {
  CONNECTIVITY_CHANGE_RULES,
  connectivityDiffSarifRun,
  sarifArtifactLocation,
  sarifLog,
  type LocateObject,
  type SarifRun,
} from "../../../src/connectivity/report/sarif.js";
import { diffConnectivity } from "../../../src/networking/index.js";
import { SHOP_AFTER, SHOP_BEFORE } from "../../support/connectivity-sample.js";
import { parseSarif, type Result } from "../../support/sarif.js";

const PLACES = new Map([
  ["shop/api-in", { file: "deploy/policies.yaml", line: 1 }],
  ["shop/db-in", { file: "deploy/policies.yaml", line: 20 }],
  ["shop/Deployment/web", { file: "deploy/web.yaml", line: 1 }],
  ["shop/Deployment/api", { file: "deploy/api.yaml", line: 3 }],
  ["shop/StatefulSet/db", { file: "./deploy/db.yaml", line: 40 }],
]);

function brief(r: Result): unknown[] {
  const where = (l: Result["locations"][number]) =>
    `${l.physicalLocation.artifactLocation.uri}:${l.physicalLocation.region?.startLine} ${l.logicalLocations?.[0]?.fullyQualifiedName}`;
  const related = (r as { relatedLocations?: Result["locations"] }).relatedLocations ?? [];
  return [r.ruleId, r.level, [...r.locations, ...related].map(where)];
}

function log(run: SarifRun) {
  return parseSarif(JSON.stringify(sarifLog([run])));
}

describe("connectivityDiffSarifRun", () => {
  const diff = diffConnectivity(SHOP_BEFORE, SHOP_AFTER);

  it("gives a result per change, placed at the policies that explain it after, then at its workloads", () => {
    const sarif = log(
      connectivityDiffSarifRun(diff, {
        locate: (key, side) => (side === "after" ? PLACES.get(key) : undefined),
        toolVersion: "9.9.9",
      }),
    );
    const run = sarif.runs[0]!;
    expect(run.tool.driver.name).toBe("clusterwire");
    expect(run.tool.driver.version).toBe("9.9.9");
    expect(run.tool.driver.rules.map((r) => [r.id, r.defaultConfiguration.level])).toEqual([
      ["connection-added", "warning"],
      ["connection-removed", "note"],
      ["connection-changed", "warning"],
    ]);
    const policy = (line: number, name: string) => `deploy/policies.yaml:${line} NetworkPolicy shop/${name}`;
    const web = "deploy/web.yaml:1 Deployment shop/web";
    const api = "deploy/api.yaml:3 Deployment shop/api";
    const db = "deploy/db.yaml:40 StatefulSet shop/db";
    expect(run.results.map(brief)).toEqual([
      ["connection-changed", "warning", [policy(1, "api-in"), web, api]],
      ["connection-removed", "note", [policy(20, "db-in"), web, db]],
      ["connection-changed", "warning", [policy(20, "db-in"), api, db]],
      ["connection-removed", "note", [policy(20, "db-in"), db]],
    ]);
    expect(run.results[0]!.message.text).toBe(
      "Connection changed: shop/Deployment/web => shop/Deployment/api : TCP 8080 -> TCP 8080,9090. " +
        "Before: egress not isolated; ingress allowed by shop/api-in ingress[0]. " +
        "After: egress not isolated; ingress allowed by shop/api-in ingress[0].",
    );
    expect(run.results[3]!.message.text).toBe(
      "Connection removed: 0.0.0.0/0,::/0 => shop/StatefulSet/db : All connections. " +
        "Before: egress not isolated; ingress not isolated. After: ingress denied, isolated by shop/db-in.",
    );
    expect(run.results[3]!.properties).toEqual({ kind: "removed", from: "0.0.0.0/0,::/0", to: "shop/StatefulSet/db" });
    expect(run.properties.summary).toEqual({
      added: 0,
      removed: 2,
      changed: 2,
      workloadsAdded: 0,
      workloadsRemoved: 0,
    });
  });

  it("falls back on the snapshot before when nothing after can be placed", () => {
    const seen: string[] = [];
    const locate: LocateObject = (key, side) => {
      seen.push(`${side} ${key}`);
      return side === "before" && key === "shop/api-in" ? { file: "base/policies.yaml", line: 5 } : undefined;
    };
    const run = log(connectivityDiffSarifRun(diff, { locate })).runs[0]!;
    expect(run.results[0]!.locations.map((l) => l.physicalLocation.artifactLocation.uri)).toEqual([
      "base/policies.yaml",
    ]);
    // The removed web => db has no policy before: only its workloads, which are not placed.
    expect(run.results[1]!.locations).toBeUndefined();
    expect(seen.slice(0, 6)).toEqual([
      "after shop/api-in",
      "after shop/Deployment/web",
      "after shop/Deployment/api",
      "before shop/api-in",
      "before shop/Deployment/web",
      "before shop/Deployment/api",
    ]);
  });

  it("gives unplaced results without locate, and names each change in a stable fingerprint", () => {
    const run = connectivityDiffSarifRun(diff);
    expect(run.results.map((r) => [r.places, r.fingerprints])).toEqual([
      [[], { "connectivityChange/v1": "changed shop/Deployment/web => shop/Deployment/api" }],
      [[], { "connectivityChange/v1": "removed shop/Deployment/web => shop/StatefulSet/db" }],
      [[], { "connectivityChange/v1": "changed shop/Deployment/api => shop/StatefulSet/db" }],
      [[], { "connectivityChange/v1": "removed 0.0.0.0/0,::/0 => shop/StatefulSet/db" }],
    ]);
    expect(log(run).runs[0]!.results).toHaveLength(4);
  });
});

describe("sarifLog", () => {
  const rules = [
    { id: "lint-a", short: "A", full: "All about A.", level: "warning" as const, helpUri: "https://example.com/a" },
    { id: "lint-b", short: "B", level: "error" as const },
  ];

  it("writes the rules, and each result with its rule's index and level, its places and its properties", () => {
    const sarif = log({
      toolName: "clusterwire lint",
      informationUri: "https://example.com",
      rules,
      results: [
        {
          ruleId: "lint-b",
          message: "b happened",
          places: [
            { file: "/abs/path/x.yaml", line: 2, object: "NetworkPolicy ns/p", message: "here" },
            { file: "rel/y.yaml", line: 9 },
          ],
          properties: { count: 2 },
        },
        { ruleId: "lint-a", message: "a happened" },
      ],
      properties: { summary: { warnings: 1 } },
    });
    const run = sarif.runs[0] as unknown as Record<string, unknown>;
    expect(run["tool"]).toEqual({
      driver: {
        name: "clusterwire lint",
        informationUri: "https://example.com",
        rules: [
          {
            id: "lint-a",
            shortDescription: { text: "A" },
            fullDescription: { text: "All about A." },
            help: { text: "All about A." },
            defaultConfiguration: { level: "warning" },
            helpUri: "https://example.com/a",
          },
          {
            id: "lint-b",
            shortDescription: { text: "B" },
            fullDescription: { text: "B" },
            help: { text: "B" },
            defaultConfiguration: { level: "error" },
          },
        ],
      },
    });
    expect(run["results"]).toEqual([
      {
        ruleId: "lint-b",
        ruleIndex: 1,
        level: "error",
        message: { text: "b happened" },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri: "file:///abs/path/x.yaml" }, region: { startLine: 2 } },
            logicalLocations: [{ fullyQualifiedName: "NetworkPolicy ns/p", kind: "resource" }],
            message: { text: "here" },
          },
        ],
        relatedLocations: [
          {
            id: 1,
            physicalLocation: {
              artifactLocation: { uri: "rel/y.yaml", uriBaseId: "%SRCROOT%" },
              region: { startLine: 9 },
            },
          },
        ],
        properties: { count: 2 },
      },
      { ruleId: "lint-a", ruleIndex: 0, level: "warning", message: { text: "a happened" } },
    ]);
    expect(run["properties"]).toEqual({ summary: { warnings: 1 } });
  });

  it("holds several runs", () => {
    const both = sarifLog([
      { rules, results: [] },
      { rules: CONNECTIVITY_CHANGE_RULES, results: [] },
    ]);
    expect(both.version).toBe("2.1.0");
    expect(both.runs).toHaveLength(2);
  });

  it("makes lone surrogates U+FFFD, everywhere", () => {
    const sarif = log({
      rules: [{ id: "r", short: "bad \ud800 text", level: "note" }],
      results: [
        {
          ruleId: "r",
          message: "x\udc00y",
          places: [{ file: "a\ud800.yaml", line: 1, object: "\ud800" }],
          properties: { ["k\ud800"]: ["\udc00"] },
        },
      ],
    });
    const result = sarif.runs[0]!.results[0]!;
    expect(result.message.text).toBe("x\ufffdy");
    expect(result.properties).toEqual({ "k\ufffd": ["\ufffd"] });
    expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe("a%EF%BF%BD.yaml");
  });

  it("refuses a repeated rule, an unknown rule, an empty message and a line that is not a positive integer", () => {
    const run = (over: Partial<SarifRun>): SarifRun => ({ rules, results: [], ...over });
    expect(() => sarifLog([run({ rules: [...rules, rules[0]!] })])).toThrow(/"lint-a" is listed twice/);
    expect(() => sarifLog([run({ results: [{ ruleId: "nope", message: "x" }] })])).toThrow(
      /"nope", which is not listed/,
    );
    expect(() => sarifLog([run({ results: [{ ruleId: "lint-a", message: "" }] })])).toThrow(/empty message/);
    for (const line of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        sarifLog([run({ results: [{ ruleId: "lint-a", message: "m", places: [{ file: "f", line }] }] })]),
      ).toThrow(RangeError);
    }
  });
});

describe("sarifArtifactLocation", () => {
  it("makes relative paths URI references under %SRCROOT%, absolute ones file: URIs, each segment encoded", () => {
    expect(sarifArtifactLocation("./deploy/my app.yaml")).toEqual({
      uri: "deploy/my%20app.yaml",
      uriBaseId: "%SRCROOT%",
    });
    expect(sarifArtifactLocation("a:b/c#d?e.yaml")).toEqual({ uri: "a%3Ab/c%23d%3Fe.yaml", uriBaseId: "%SRCROOT%" });
    expect(sarifArtifactLocation("/srv/repo/x.yaml")).toEqual({ uri: "file:///srv/repo/x.yaml" });
    expect(sarifArtifactLocation("C:\\repo\\x y.yaml")).toEqual({ uri: "file:///C:/repo/x%20y.yaml" });
    expect(sarifArtifactLocation("d:/repo/x.yaml")).toEqual({ uri: "file:///d:/repo/x.yaml" });
  });
});
