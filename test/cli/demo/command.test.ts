import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli/harness.js";

// clusterwire demo (npm start), run in-process: the whole run over examples/ here; the
// manifests section's failures in steps.test.ts, the routes, reach and storage sections in
// their own files in test/cli/demo/.

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-demo-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("demo", () => {
  it("round-trips and validates every example and exits 0", async () => {
    const r = await cli(["demo", "--no-storage", "examples"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const all = r.stdout.trimEnd().split("\n");
    // The manifests part ends at its summary; the routes and reach sections follow (test/cli/demo/routes.test.ts, reach.test.ts).
    const lines = all.slice(
      0,
      all.findIndex((l) => l.startsWith("routes: ")),
    );
    // The storage inventory, the cluster description, the demo's answers and the connectivity
    // expectations are passed over as non-manifests.
    expect(lines[0]).toMatch(
      /^clusterwire demo: \d+ manifest files in examples \(5 other files are not manifests\) \(steps: round-trip, validate\)$/,
    );
    expect(lines.at(-1)).toMatch(
      /^ok: (\d+) objects from \d+ files; round-trip \1\/\1 ok; validate \1\/\1 ok \(4 invalid as expected\)$/,
    );
    expect(all.at(-1)).toBe("ok: reach 2 tables (128 cells) and 5 connections as expected");
    const objectLines = lines.slice(1, -1).filter((l) => !l.startsWith(" "));
    expect(
      objectLines.every((l) => / {2}round-trip ok {2}(validate ok|validate: \d+ errors?, as expected)$/.test(l)),
      r.stdout,
    ).toBe(true);
    // Only the files under examples/invalid fail validation, and they must.
    expect(objectLines.filter((l) => l.endsWith("as expected")).every((l) => l.startsWith("examples/invalid/"))).toBe(
      true,
    );
    expect(objectLines.filter((l) => l.startsWith("examples/invalid/")).every((l) => l.endsWith("as expected"))).toBe(
      true,
    );
    for (const want of [
      /examples\/ingress-shop\.yaml\s+Ingress\s+shop\/storefront\s+pb\s+\d+ B\s+json\s+\d+ B\s+round-trip ok {2}validate ok/,
      /examples\/ingressclass-public\.yaml\s+IngressClass\s+nginx-public\s/,
      /examples\/catalog-stack\.yaml #3\s+NetworkPolicy\s+shop\/catalog-egress\s/,
      /examples\/ingress-watch\.pb #3\s+DELETED Ingress\s+shop\/promo\s/,
      /examples\/ingress\.pb\s+Ingress\s+shop\/storefront\s/,
      /examples\/netpol-named-ports\.json\s+NetworkPolicy\s+shop\/checkout-from-storefront\s/,
      /examples\/invalid\/netpol-bad-rules\.yaml #2\s+NetworkPolicy\s+shop\/media-relay-broken\s.*round-trip ok {2}validate: 2 errors, as expected/,
    ]) {
      expect(
        objectLines.some((l) => want.test(l)),
        String(want),
      ).toBe(true);
    }
    // The expected errors are shown under their object, as the API server words them.
    const at = lines.findIndex((l) => l.startsWith("examples/invalid/netpol-bad-rules.yaml #2"));
    expect(lines.slice(at + 1, at + 3)).toEqual([
      "      spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
      "      spec.ingress[0].ports[1].endPort: Invalid value: 60999: may not be specified when `port` is non-numeric",
    ]);
  });
});

describe("demo with the storage section", () => {
  it("runs the networking demo, then the storage scenario, and exits 0", async () => {
    const r = await cli(["demo", "examples"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    const blank = lines.indexOf("");
    // The networking part: the manifests summary, then the routes and reach sections.
    expect(lines.slice(0, blank).filter((l) => /^(ok|FAILED): /.test(l))).toEqual([
      expect.stringMatching(
        /^ok: (\d+) objects from \d+ files; round-trip \1\/\1 ok; validate \1\/\1 ok \(4 invalid as expected\)$/,
      ),
      "ok: routes 9/9 as expected",
      "ok: reach 2 tables (128 cells) and 5 connections as expected",
    ]);
    expect(lines[blank + 1]).toMatch(/^clusterwire demo: storage scenario /);
    expect(lines.at(-1)).toMatch(/^ok: storage scenario 5\/5 steps ok;/);
    // --no-storage leaves the networking demo exactly as it was.
    const networking = await cli(["demo", "--no-storage", "examples"]);
    expect(networking.stdout).toBe(`${lines.slice(0, blank).join("\n")}\n`);
  });

  it("exits 1 when the networking part fails, even though the storage scenario passes", async () => {
    const dir = mkdtempSync(join(tmp, "demo-"));
    writeFileSync(
      join(dir, "typo.yaml"),
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: x\nspec:\n  podSelectr: {}\n",
    );
    const r = await cli(["demo", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\nFAILED: 0 objects from 1 files; .*\n\nclusterwire demo: storage scenario /);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(/^ok: storage scenario 5\/5 steps ok;/);
  });
});
