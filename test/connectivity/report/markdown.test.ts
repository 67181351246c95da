import { describe, expect, it } from "vitest";
import {
  connectivityDiffMarkdown,
  connectivityListMarkdown,
  escapeMarkdown,
  GITHUB_COMMENT_LIMIT,
} from "../../../src/connectivity/report/markdown.js";
import {
  ALL_CONNECTIONS,
  analyzeConnectivity,
  diffConnectivity,
  fromJson,
  type ConnectivityInput,
  type ConnectivityLine,
  type NetworkPolicy,
} from "../../../src/networking/index.js";
import { SHOP_AFTER, SHOP_BEFORE, TWO_WORKLOADS } from "../../support/connectivity-sample.js";

const SHOP_DIFF = [
  "## Connectivity changes",
  "",
  "0 connections added, 2 removed, 2 changed; 0 workloads added, 0 removed.",
  "",
  "| Change | Count |",
  "| --- | ---: |",
  "| Connections added | 0 |",
  "| Connections removed | 2 |",
  "| Connections changed | 2 |",
  "| Workloads added | 0 |",
  "| Workloads removed | 0 |",
  "",
  "<details><summary>Changes by namespace (2)</summary>",
  "",
  "| Namespace | Added | Removed | Changed |",
  "| --- | ---: | ---: | ---: |",
  "| shop | 0 | 2 | 2 |",
  "| addresses outside the cluster | 0 | 1 | 0 |",
  "",
  "</details>",
  "",
  "<details><summary>Connections removed (2)</summary>",
  "",
  "| From | To | Before | Why |",
  "| --- | --- | --- | --- |",
  "| shop/Deployment/web | shop/StatefulSet/db | All connections | before: egress not isolated; ingress not isolated<br>after: ingress denied, isolated by shop/db-in |",
  "| 0.0.0.0/0, ::/0 | shop/StatefulSet/db | All connections | before: egress not isolated; ingress not isolated<br>after: ingress denied, isolated by shop/db-in |",
  "",
  "</details>",
  "",
  "<details><summary>Connections changed (2)</summary>",
  "",
  "| From | To | Before | After | Why |",
  "| --- | --- | --- | --- | --- |",
  "| shop/Deployment/web | shop/Deployment/api | TCP 8080 | TCP 8080,9090 | before: egress not isolated; ingress allowed by shop/api-in ingress\\[0\\]<br>after: egress not isolated; ingress allowed by shop/api-in ingress\\[0\\] |",
  "| shop/Deployment/api | shop/StatefulSet/db | All connections | TCP 5432 | before: egress not isolated; ingress not isolated<br>after: egress not isolated; ingress allowed by shop/db-in ingress\\[0\\] |",
  "",
  "</details>",
  "",
].join("\n");

/** The cells of a table row, split at the pipes that are not escaped. */
function cells(row: string): string[] {
  return row
    .slice(2, -2)
    .split(/(?<!\\) \| /)
    .map((c) => c.trim());
}

/** The rows of the table that follows `summary`, and its `... N more` count (0 when whole). */
function section(markdown: string, summary: RegExp): { rows: string[]; more: number } {
  const found = markdown.split("\n").filter((l) => summary.test(l));
  expect(found).toHaveLength(1);
  const start = markdown.split("\n").indexOf(found[0]!);
  const rest = markdown.split("\n").slice(start + 4);
  const rows = rest.slice(
    0,
    rest.findIndex((l) => !l.startsWith("| ")),
  );
  const more = /^\.\.\. (\d+) more$/.exec(rest[rows.length + 1] ?? "");
  return { rows, more: more === null ? 0 : Number(more[1]) };
}

describe("connectivityDiffMarkdown", () => {
  it("writes the heading, the summary, the counts, and a collapsible table per namespace and kind of change", () => {
    expect(connectivityDiffMarkdown(diffConnectivity(SHOP_BEFORE, SHOP_AFTER))).toBe(SHOP_DIFF);
  });

  it("lists the workloads added, and counts changes with a new workload as added", () => {
    const md = connectivityDiffMarkdown(diffConnectivity({ ...TWO_WORKLOADS, workloads: [] }, TWO_WORKLOADS), {
      title: "PR #7 <b>`x`</b>",
    });
    expect(
      md.startsWith(
        "## PR #7 &lt;b&gt;\\`x\\`&lt;/b&gt;\n\n6 connections added, 0 removed, 0 changed; 2 workloads added",
      ),
    ).toBe(true);
    expect(section(md, />Workloads added and removed \(2\)/).rows).toEqual([
      "| shop/Deployment/web | added |",
      "| shop/Deployment/api | added |",
    ]);
    expect(section(md, />Connections added \(6\)/).rows[0]).toBe(
      "| shop/Deployment/web | shop/Deployment/api | All connections | before: shop/Deployment/web and shop/Deployment/api did not exist yet<br>after: egress not isolated; ingress not isolated |",
    );
  });

  it("says so when nothing changed", () => {
    expect(connectivityDiffMarkdown(diffConnectivity(SHOP_BEFORE, SHOP_BEFORE))).toBe(
      "## Connectivity changes\n\nNo connectivity change.\n",
    );
  });

  it("cuts the rows that do not fit, with a `... N more` line, and keeps every section", () => {
    const diff = diffConnectivity(SHOP_BEFORE, SHOP_AFTER);
    const whole = connectivityDiffMarkdown(diff);
    const sections = (md: string) =>
      [/>Connections removed/, />Connections changed/, />Changes by namespace/].map((s) => section(md, s));
    const full = sections(whole);
    let cut = 0;
    let tried = 0;
    for (let maxLength = whole.length; ; maxLength -= 5) {
      let md: string;
      try {
        md = connectivityDiffMarkdown(diff, { maxLength });
      } catch (e) {
        // Only once not even the headings, the summary and the empty tables fit.
        expect(e).toBeInstanceOf(RangeError);
        break;
      }
      tried++;
      expect(md.length).toBeLessThanOrEqual(maxLength);
      for (const [i, s] of sections(md).entries()) {
        // What is shown is the start of the table, and what is not is counted.
        expect(s.rows).toEqual(full[i]!.rows.slice(0, s.rows.length));
        expect(s.rows.length + s.more).toBe(full[i]!.rows.length);
        if (s.more > 0) cut++;
      }
    }
    // Down to the frame: every row of the four changes and two namespaces cut, one by one.
    expect(tried).toBeGreaterThan(100);
    expect(cut).toBeGreaterThan(tried);
  });

  it("fits GitHub's comment limit by default, sharing it between the sections", () => {
    // 40 workloads open to each other, then a deny-all in shop: 40 * 39 + 40 connections removed,
    // and one workload added, whose short section still shows whole.
    const workloads = Array.from({ length: 40 }, (_, i) => ({
      namespace: "shop",
      kind: "Deployment",
      name: `w${String(i).padStart(2, "0")}`,
    }));
    const before: ConnectivityInput = { namespaces: [{ name: "shop" }], workloads, policies: [] };
    const denyAll = fromJson({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "deny-all", namespace: "shop" },
      spec: { podSelector: {}, policyTypes: ["Ingress"] },
    }) as NetworkPolicy;
    const after: ConnectivityInput = {
      ...before,
      workloads: [...workloads, { namespace: "shop", kind: "Job", name: "new" }],
      policies: [denyAll],
    };
    const diff = diffConnectivity(before, after);
    const md = connectivityDiffMarkdown(diff);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT - 1000);
    const removed = section(md, />Connections removed \(1600\)/);
    expect(removed.more).toBeGreaterThan(0);
    expect(removed.rows.length + removed.more).toBe(1600);
    expect(section(md, />Workloads added and removed \(1\)/)).toEqual({ rows: ["| shop/Job/new | added |"], more: 0 });
    expect(md.endsWith("\n</details>\n")).toBe(true);
  });

  it("refuses a maxLength that not even the frame fits", () => {
    expect(() => connectivityDiffMarkdown(diffConnectivity(SHOP_BEFORE, SHOP_AFTER), { maxLength: 100 })).toThrow(
      RangeError,
    );
  });
});

describe("connectivityListMarkdown", () => {
  it("writes a table of the lines", () => {
    const all = "0.0.0.0/0, ::/0";
    expect(connectivityListMarkdown(analyzeConnectivity(TWO_WORKLOADS).lines())).toBe(
      [
        "## Connectivity",
        "",
        "6 connections.",
        "",
        "| From | To | Connections |",
        "| --- | --- | --- |",
        "| shop/Deployment/web | shop/Deployment/api | All connections |",
        `| shop/Deployment/web | ${all} | All connections |`,
        "| shop/Deployment/api | shop/Deployment/web | All connections |",
        `| shop/Deployment/api | ${all} | All connections |`,
        `| ${all} | shop/Deployment/web | All connections |`,
        `| ${all} | shop/Deployment/api | All connections |`,
        "",
      ].join("\n"),
    );
    expect(connectivityListMarkdown([], { title: "None" })).toBe("## None\n\n0 connections.\n");
  });

  it("escapes what would break the table or read as Markdown or HTML", () => {
    const odd = "a|b<img src=x>`c`*d*_e_[f](g)~h~\\i&j\nk";
    const line: ConnectivityLine = {
      from: { type: "workload", key: `shop/Pod/${odd}`, namespace: "shop", kind: "Pod", name: odd },
      to: { type: "workload", key: "shop/Pod/b", namespace: "shop", kind: "Pod", name: "b" },
      connections: ALL_CONNECTIONS,
    };
    const md = connectivityListMarkdown([line]);
    const row = md.split("\n").find((l) => l.startsWith("| shop/Pod/a"));
    expect(row).toBe(
      "| shop/Pod/a\\|b&lt;img src=x&gt;\\`c\\`\\*d\\*\\_e\\_\\[f\\](g)\\~h\\~\\\\i&amp;j k | shop/Pod/b | All connections |",
    );
    expect(cells(row!)).toHaveLength(3);
    expect(md).not.toMatch(/<(?!br>)/);
  });

  it("cuts a long list with a `... N more` line", () => {
    const lines = analyzeConnectivity(TWO_WORKLOADS).lines();
    const md = connectivityListMarkdown(lines, { maxLength: 300 });
    const table = section(md, /^6 connections\.$/);
    expect(md.length).toBeLessThanOrEqual(300);
    expect(table.rows.length).toBeGreaterThan(0);
    expect(table.rows.length + table.more).toBe(6);
  });
});

describe("escapeMarkdown", () => {
  it("leaves plain names and connection sets as they are", () => {
    for (const s of ["shop/Deployment/api", "TCP 80,8080-8090; UDP 53", "10.0.0.0/8", "All connections"]) {
      expect(escapeMarkdown(s)).toBe(s);
    }
  });
});
