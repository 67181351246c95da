import { describe, expect, it } from "vitest";
import { connectivityDiffDot, connectivityListDot, dotQuote } from "../../../src/connectivity/report/dot.js";
import {
  analyzeConnectivity,
  diffConnectivity,
  parseConnectionSet,
  type ConnectivityLine,
} from "../../../src/networking/index.js";
import { ONE_WORKLOAD, SHOP_AFTER, SHOP_BEFORE, TWO_WORKLOADS } from "../../support/connectivity-sample.js";
import { parseDot } from "../../support/dot.js";

const EXTERNAL = '"x:0.0.0.0/0,::/0" [shape=ellipse, label="0.0.0.0/0\\n::/0"];';

describe("connectivityListDot", () => {
  it("draws a box per workload in its namespace's cluster, an ellipse for addresses, an edge per line", () => {
    const analysis = analyzeConnectivity(TWO_WORKLOADS);
    const web = '"w:shop/Deployment/web"';
    const api = '"w:shop/Deployment/api"';
    const ext = '"x:0.0.0.0/0,::/0"';
    const all = '[label="All connections"];';
    expect(connectivityListDot(analysis.lines())).toBe(
      [
        'digraph "connectivity" {',
        "  rankdir=LR;",
        "  node [shape=box];",
        '  subgraph "cluster_shop" {',
        '    label="shop";',
        `    ${web} [label="Deployment/web"];`,
        `    ${api} [label="Deployment/api"];`,
        "  }",
        `  ${EXTERNAL}`,
        `  ${web} -> ${api} ${all}`,
        `  ${web} -> ${ext} ${all}`,
        `  ${api} -> ${web} ${all}`,
        `  ${api} -> ${ext} ${all}`,
        `  ${ext} -> ${web} ${all}`,
        `  ${ext} -> ${api} ${all}`,
        "}",
        "",
      ].join("\n"),
    );
  });

  it("draws the workloads it is given even when no line has them", () => {
    const analysis = analyzeConnectivity(SHOP_BEFORE);
    const graph = parseDot(connectivityListDot([], { workloads: analysis.workloads, name: "g" }));
    expect(graph.name).toBe("g");
    expect(graph.nodes.map((n) => [n.id, n.subgraph])).toEqual([
      ["w:shop/Deployment/web", "cluster_shop"],
      ["w:shop/Deployment/api", "cluster_shop"],
      ["w:shop/StatefulSet/db", "cluster_shop"],
    ]);
    expect(graph.edges).toEqual([]);
  });

  it("quotes and escapes ids and labels, so that odd names neither break the graph nor merge", () => {
    const odd = (namespace: string, name: string) => ({
      type: "workload" as const,
      key: `${namespace}/Pod/${name}`,
      namespace,
      kind: "Pod",
      name,
    });
    const lines: ConnectivityLine[] = [
      { from: odd('a"b\\', 'x"}'), to: odd("c", "back\\"), connections: parseConnectionSet("TCP 80") },
      { from: odd("c", "back\\"), to: odd("c", "back\\\\"), connections: parseConnectionSet("UDP 53") },
      { from: odd("c", "two\nlines"), to: odd("c", "{}[];,=->"), connections: parseConnectionSet("SCTP 9") },
    ];
    const graph = parseDot(connectivityListDot(lines));
    expect(graph.nodes.map((n) => [n.id, n.attributes["label"], n.subgraph])).toEqual([
      ['w:a"b\\/Pod/x"}', 'Pod/x"}', 'cluster_a"b\\'],
      ["w:c/Pod/back\\", "Pod/back\\", "cluster_c"],
      ["w:c/Pod/back\\\\", "Pod/back\\\\", "cluster_c"],
      ["w:c/Pod/two\\nlines", "Pod/two\\nlines", "cluster_c"],
      ["w:c/Pod/{}[];,=->", "Pod/{}[];,=->", "cluster_c"],
    ]);
    expect(graph.subgraphs.get('cluster_a"b\\')).toEqual({ label: 'a"b\\' });
    expect(graph.edges.map((e) => [e.from, e.to, e.attributes["label"]])).toEqual([
      ['w:a"b\\/Pod/x"}', "w:c/Pod/back\\", "TCP 80"],
      ["w:c/Pod/back\\", "w:c/Pod/back\\\\", "UDP 53"],
      ["w:c/Pod/two\\nlines", "w:c/Pod/{}[];,=->", "SCTP 9"],
    ]);
  });
});

describe("connectivityDiffDot", () => {
  it("draws the changed connections only: removed red and dashed, changed orange", () => {
    const web = '"w:shop/Deployment/web"';
    const api = '"w:shop/Deployment/api"';
    const db = '"w:shop/StatefulSet/db"';
    const changed = "color=orange, fontcolor=darkorange];";
    const removed = "color=red, fontcolor=red, style=dashed];";
    expect(connectivityDiffDot(diffConnectivity(SHOP_BEFORE, SHOP_AFTER))).toBe(
      [
        'digraph "connectivity_diff" {',
        "  rankdir=LR;",
        "  node [shape=box];",
        '  subgraph "cluster_shop" {',
        '    label="shop";',
        `    ${web} [label="Deployment/web"];`,
        `    ${api} [label="Deployment/api"];`,
        `    ${db} [label="StatefulSet/db"];`,
        "  }",
        `  ${EXTERNAL}`,
        `  ${web} -> ${api} [label="TCP 8080 -> TCP 8080,9090", ${changed}`,
        `  ${web} -> ${db} [label="All connections", ${removed}`,
        `  ${api} -> ${db} [label="All connections -> TCP 5432", ${changed}`,
        `  "x:0.0.0.0/0,::/0" -> ${db} [label="All connections", ${removed}`,
        "}",
        "",
      ].join("\n"),
    );
  });

  it("draws added connections and workloads green, removed workloads red", () => {
    const added = parseDot(connectivityDiffDot(diffConnectivity(ONE_WORKLOAD, TWO_WORKLOADS)));
    expect(added.nodes.find((n) => n.id === "w:shop/Deployment/api")?.attributes).toEqual({
      label: "Deployment/api",
      color: "darkgreen",
      fontcolor: "darkgreen",
    });
    expect(added.nodes.find((n) => n.id === "w:shop/Deployment/web")?.attributes).toEqual({ label: "Deployment/web" });
    expect(added.edges).toHaveLength(4);
    for (const e of added.edges)
      expect(e.attributes).toEqual({ label: "All connections", color: "darkgreen", fontcolor: "darkgreen" });
    const removed = parseDot(connectivityDiffDot(diffConnectivity(TWO_WORKLOADS, ONE_WORKLOAD)));
    expect(removed.nodes.find((n) => n.id === "w:shop/Deployment/api")?.attributes["style"]).toBe("dashed");
    expect(removed.edges.map((e) => e.attributes["color"])).toEqual(["red", "red", "red", "red"]);
  });

  it("is an empty graph when nothing changed", () => {
    const graph = parseDot(connectivityDiffDot(diffConnectivity(SHOP_BEFORE, SHOP_BEFORE)));
    expect([graph.nodes, graph.edges]).toEqual([[], []]);
  });
});

describe("dotQuote", () => {
  it("escapes quotes and backslashes and writes line breaks as \\n", () => {
    expect(dotQuote('say "hi"\\\r\nbye\r')).toBe('"say \\"hi\\"\\\\\\nbye\\n"');
  });
});
