import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadExpectations } from "../../../src/cli/demo/expectations.js";
import { runReachSection } from "../../../src/cli/demo/reach.js";
import { REPO, capture, cli } from "../../support/cli/harness.js";
import { HEADER, grid } from "../../support/cli/shop.js";

// The demo's reach section, against the answers in examples/demo/expected.yaml.

const EXAMPLES = join(REPO, "examples");
const tmp = mkdtempSync(join(tmpdir(), "clusterwire-demo-reach-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

describe("demo: reach section", () => {
  it("checks the shop's tables and connections", async () => {
    const r = await cli(["demo", "--no-storage", "examples"]);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    const at = out.indexOf("reach: examples/clusters/shop.yaml");
    expect(at).toBeGreaterThan(0);
    expect(out.slice(at + 1, at + 13)).toEqual([
      "  TCP port 8080: rows are sources, columns destinations; ✓ allowed, · denied",
      `  ${HEADER}`,
      ...grid(["✓✓····✓✓", "·✓✓✓····", "··✓·····", "···✓····", "✓···✓·✓✓", "✓····✓✓✓", "✓·····✓✓", "✓✓····✓✓"]).map(
        (l) => `  ${l}`,
      ),
      "  24 of 64 pairs allowed",
      "  table ok",
    ]);
    expect(out).toContain("  shop/checkout-84c2 -> 10.20.0.5, TCP port 443: deny  ok");
    expect(out.at(-1)).toBe("ok: reach 2 tables (128 cells) and 5 connections as expected");
  });

  it("fails when a cell differs from the expected table", async () => {
    const d = mkdtempSync(join(tmp, "demo-"));
    mkdirSync(join(d, "clusters"));
    cpSync(join(EXAMPLES, "netpol-default-deny.yaml"), join(d, "np.yaml"));
    // The storefront moves to another node: node-exporter is no longer node-local to it.
    const shop = readFileSync(join(EXAMPLES, "clusters", "shop.yaml"), "utf8").replace(
      "ip: 10.0.1.21\n    hostIP: 192.168.0.11",
      "ip: 10.0.1.21\n    hostIP: 192.168.0.12",
    );
    writeFileSync(join(d, "clusters", "shop.yaml"), shop);
    const r = await cli(["demo", "--no-storage", d]);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out.filter((l) => l.includes("table FAILED") || l.startsWith("    - kube-system/node-exporter"))).toEqual([
      "  table FAILED: 1 cell differs",
      "    - kube-system/node-exporter-n1 -> shop/storefront-6c5d: expected allow, got deny",
      "  table FAILED: 1 cell differs",
      "    - kube-system/node-exporter-n1 -> shop/storefront-6c5d: expected allow, got deny",
    ]);
    expect(out).toContain("  kube-system/node-exporter-n1 -> shop/storefront-6c5d, TCP port 8080: deny  FAILED");
    expect(out.at(-1)).toBe("FAILED: reach 2 tables (128 cells) and 5 connections: 4 differences");
  });

  it("fails when an expected cell or connection in examples/demo/expected.yaml changes", async () => {
    const expected = (await loadExpectations({ cwd: REPO })).reach;
    const good = capture();
    expect(await runReachSection(good.io, "examples", expected)).toBe(true);

    // The controller -> catalog cell of TCP 8080 flipped to allowed, and the denied connection expected allowed.
    const [first, ...rest] = expected.tables;
    const rows = (first?.rows ?? []).map((r, i) => (i === 0 ? `${r.slice(0, 2)}✓${r.slice(3)}` : r));
    const tables = first === undefined ? [] : [{ ...first, rows }, ...rest];
    const connections = expected.connections.map((c) => (c.to === "10.20.0.5" ? { ...c, allowed: true } : c));
    const bad = capture();
    expect(await runReachSection(bad.io, "examples", { ...expected, tables, connections })).toBe(false);
    const out = lines(bad.out());
    expect(out).toContain("  table FAILED: 1 cell differs");
    expect(out).toContain("    - ingress-nginx/controller-7d9f -> shop/catalog-5f7b: expected allow, got deny");
    expect(out).toContain("  shop/checkout-84c2 -> 10.20.0.5, TCP port 443: deny  FAILED");
    expect(out).toContain("    - expected allow");
    expect(out.at(-1)).toBe("FAILED: reach 2 tables (128 cells) and 5 connections: 2 differences");
  });
});
