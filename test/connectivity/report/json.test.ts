import { describe, expect, it } from "vitest";
import {
  connectivityDiffJson,
  connectivityListJson,
  connectionsJson,
  peerJson,
} from "../../../src/connectivity/report/json.js";
import {
  ALL_CONNECTIONS,
  NO_CONNECTIONS,
  analyzeConnectivity,
  diffConnectivity,
  parseConnectionSet,
  sameConnectionSet,
} from "../../../src/networking/index.js";
import { ONE_WORKLOAD, SHOP_AFTER, SHOP_BEFORE, TWO_WORKLOADS } from "../../support/connectivity-sample.js";

const EVERY = [{ from: 1, to: 65535 }];
const ALL = { text: "All connections", TCP: EVERY, UDP: EVERY, SCTP: EVERY };
const NONE = { text: "No connections", TCP: [], UDP: [], SCTP: [] };
const OPEN = { verdict: "not-isolated", connections: "All connections", isolatedBy: [], allowedBy: [] };
const web = { type: "workload", key: "shop/Deployment/web", namespace: "shop", kind: "Deployment", name: "web" };
const api = { type: "workload", key: "shop/Deployment/api", namespace: "shop", kind: "Deployment", name: "api" };
const db = { type: "workload", key: "shop/StatefulSet/db", namespace: "shop", kind: "StatefulSet", name: "db" };
const outside = { type: "external", key: "0.0.0.0/0,::/0", cidrs: ["0.0.0.0/0", "::/0"] };

/** The value as JSON.parse reads JSON.stringify's text of it. */
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("connectivityListJson", () => {
  it("writes version 1 and each line's peers and connections", () => {
    const report = connectivityListJson(analyzeConnectivity(TWO_WORKLOADS).lines());
    expect(roundTrip(report)).toEqual({
      version: 1,
      lines: [
        { from: web, to: api, connections: ALL },
        { from: web, to: outside, connections: ALL },
        { from: api, to: web, connections: ALL },
        { from: api, to: outside, connections: ALL },
        { from: outside, to: web, connections: ALL },
        { from: outside, to: api, connections: ALL },
      ],
    });
  });

  it("adds why to each line when given the analysis", () => {
    const analysis = analyzeConnectivity(SHOP_BEFORE);
    const lines = connectivityListJson(analysis.lines(), { analysis }).lines;
    expect(roundTrip(lines[0])).toEqual({
      from: web,
      to: api,
      connections: { text: "TCP 8080", TCP: [{ from: 8080, to: 8080 }], UDP: [], SCTP: [] },
      why: {
        text: "egress not isolated; ingress allowed by shop/api-in ingress[0]",
        connections: "TCP 8080",
        egress: OPEN,
        ingress: {
          verdict: "allowed-by-rule",
          connections: "TCP 8080",
          isolatedBy: ["shop/api-in"],
          allowedBy: [{ policy: "shop/api-in", rules: [0] }],
        },
      },
    });
    expect(lines.every((l) => l.why !== undefined)).toBe(true);
  });
});

describe("connectivityDiffJson", () => {
  it("writes version 1, the counts, and each change with both sets and why before and after", () => {
    const report = connectivityDiffJson(diffConnectivity(SHOP_BEFORE, SHOP_AFTER));
    expect(roundTrip(report.summary)).toEqual({
      added: 0,
      removed: 2,
      changed: 2,
      workloadsAdded: [],
      workloadsRemoved: [],
      text: "0 connections added, 2 removed, 2 changed; 0 workloads added, 0 removed.",
    });
    expect(report.changes.map((c) => [c.kind, c.from.key, c.to.key, c.before.text, c.after.text])).toEqual([
      ["changed", web.key, api.key, "TCP 8080", "TCP 8080,9090"],
      ["removed", web.key, db.key, "All connections", "No connections"],
      ["changed", api.key, db.key, "All connections", "TCP 5432"],
      ["removed", outside.key, db.key, "All connections", "No connections"],
    ]);
    expect(roundTrip(report.changes[1])).toEqual({
      kind: "removed",
      from: web,
      to: db,
      before: ALL,
      after: NONE,
      why: {
        before: {
          text: "egress not isolated; ingress not isolated",
          connections: "All connections",
          egress: OPEN,
          ingress: OPEN,
        },
        after: {
          text: "ingress denied, isolated by shop/db-in",
          connections: "No connections",
          egress: OPEN,
          ingress: { verdict: "denied", connections: "No connections", isolatedBy: ["shop/db-in"], allowedBy: [] },
        },
      },
    });
  });

  it("marks changes of a workload that one side lacks, and why names it", () => {
    const report = connectivityDiffJson(diffConnectivity(ONE_WORKLOAD, TWO_WORKLOADS));
    expect(report.summary.workloadsAdded).toEqual(["shop/Deployment/api"]);
    expect(report.changes.map((c) => c.workload)).toEqual(["added", "added", "added", "added"]);
    expect(report.changes[0]!.why.before).toEqual({
      text: "shop/Deployment/api did not exist yet",
      missing: ["shop/Deployment/api"],
    });
    const gone = connectivityDiffJson(diffConnectivity(TWO_WORKLOADS, ONE_WORKLOAD));
    expect(gone.summary.workloadsRemoved).toEqual(["shop/Deployment/api"]);
    expect(gone.changes[0]!.why.after).toEqual({
      text: "shop/Deployment/api no longer exists",
      missing: ["shop/Deployment/api"],
    });
  });

  it("leaves workload out of changes between workloads both sides have", () => {
    for (const c of connectivityDiffJson(diffConnectivity(SHOP_BEFORE, SHOP_AFTER)).changes) {
      expect("workload" in c).toBe(false);
    }
  });
});

describe("connectionsJson and peerJson", () => {
  it("write text that parseConnectionSet reads back to the same set", () => {
    for (const text of ["TCP 80,8080-8090; UDP 53", "SCTP 1-65535", "All connections", "No connections"]) {
      const json = connectionsJson(parseConnectionSet(text));
      expect(sameConnectionSet(parseConnectionSet(json.text), parseConnectionSet(text))).toBe(true);
      expect(sameConnectionSet(json, parseConnectionSet(text))).toBe(true);
    }
    expect(connectionsJson(ALL_CONNECTIONS)).toEqual(ALL);
    expect(connectionsJson(NO_CONNECTIONS)).toEqual(NONE);
  });

  it("lists an external peer's CIDRs", () => {
    expect(
      peerJson({
        type: "external",
        key: "10.0.0.0/8,11.0.0.0/8,::/0",
        ranges: [
          { family: 4, first: "10.0.0.0", last: "11.255.255.255", cidrs: ["10.0.0.0/8", "11.0.0.0/8"] },
          { family: 6, first: "::", last: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", cidrs: ["::/0"] },
        ],
      }),
    ).toEqual({ type: "external", key: "10.0.0.0/8,11.0.0.0/8,::/0", cidrs: ["10.0.0.0/8", "11.0.0.0/8", "::/0"] });
  });
});
