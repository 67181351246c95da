import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXPECTATIONS_FILE, loadExpectations, parseExpectations } from "../../../src/cli/demo/expectations.js";
import { CliError } from "../../../src/cli/shared/io.js";
import { REPO, cli } from "../../support/cli/harness.js";

const TEXT = readFileSync(join(REPO, EXPECTATIONS_FILE), "utf8");

describe("the demo's expected answers", () => {
  it("reads examples/demo/expected.yaml from the package root", async () => {
    const e = await loadExpectations({ cwd: REPO });
    expect(e.source).toBe(EXPECTATIONS_FILE);
    expect(e.routes.files).toEqual(["ingress-shop.yaml", "ingressclass-public.yaml", "catalog-stack.yaml"]);
    expect(e.routes.controller).toBe("k8s.io/ingress-nginx");
    expect(e.routes.requests).toHaveLength(9);
    expect(e.routes.requests[0]).toEqual({
      host: "api.shop.example.com",
      path: "/v1/cart/items?id=7",
      backend: "service cart:9000",
      ingress: "shop/storefront",
      field: "spec.rules[1].http.paths[1]",
      via: "path",
      tier: "precise",
    });
    expect(e.routes.requests[6]?.sni).toBe("catalog.shop.example.com");
    expect(e.routes.requests[7]?.tier).toBeNull();
    expect(e.reach.file).toBe("clusters/shop.yaml");
    expect(e.reach.pods).toHaveLength(8);
    expect(e.reach.tables.map((t) => [t.protocol, t.port, t.rows.length])).toEqual([
      ["TCP", 8080, 8],
      ["TCP", 5432, 8],
    ]);
    expect(e.reach.tables[0]?.rows[0]).toBe("✓✓····✓✓");
    expect(e.reach.connections.map((c) => c.port)).toEqual(["dns", "http", 443, 443, 8080]);
    expect(e.storage.cloneToken).toEqual({
      status: 201,
      reserveSize: 41943040,
      limit: "PT1H",
      leftAfter10Minutes: "PT50M",
    });
    expect(e.storage.softwareValidate).toEqual([
      { version: "9.15.1", passes: true },
      { version: "9.16.1", passes: false },
    ]);
  });
});

/** The CliError parseExpectations throws for `text`, as the CLI would print it. */
function problem(text: string): { message: string; exitCode: number } {
  try {
    parseExpectations("expected.yaml", text);
  } catch (e) {
    if (e instanceof CliError) return { message: e.message, exitCode: e.exitCode };
    throw e;
  }
  throw new Error("parsed without an error");
}

describe("a malformed expectations file", () => {
  it("is a usage error (exit 2) naming file, line, column and field, never a crash", () => {
    const text = TEXT.replace("      via: path, tier: precise }", "").replace(/via: tier-default/, "via: tier_default");
    expect(problem(text)).toEqual({
      exitCode: 2,
      message: expect.stringMatching(
        /^expected\.yaml:\d+:\d+: routes\.requests\[2\]\.via: must be one of path, tier-default, default, got "tier_default"$/,
      ),
    });
    const line = TEXT.split("\n").findIndex((l) => l.includes("via: tier-default")) + 1;
    expect(problem(text).message).toMatch(new RegExp(`^expected\\.yaml:${line}:\\d+: `));
  });

  it("reports a YAML syntax error at its line", () => {
    expect(problem("routes:\n  files: [a\n")).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^expected\.yaml:\d+:\d+: yaml: /),
    });
    expect(problem("routes: 1\nroutes: 2\n").message).toBe('expected.yaml:2:1: yaml: key "routes" already set in map');
  });

  it("lists every problem: unknown and missing fields, wrong types, rows that are not one glyph per pod", () => {
    const text = TEXT.replace("  controller: k8s.io/ingress-nginx\n", "  controler: k8s.io/ingress-nginx\n")
      .replace("port: 5432", "port: 70000")
      .replace("- ·✓✓✓····  #", "- ·✓✓✓···x  #")
      .replace("allowed: false", "allowed: nope") // (`no` is the bool false in YAML 1.1, as go-yaml reads it)
      .replace("reserve_size: 41943040", "reserve_size: 40M");
    const { message, exitCode } = problem(text);
    expect(exitCode).toBe(2);
    const lines = message.split("\n");
    expect(lines[0]).toBe("expected.yaml: 6 errors in the demo's expected answers:");
    expect(lines.slice(1).map((l) => l.replace(/^ {2}expected\.yaml:\d+:\d+: /, ""))).toEqual([
      'routes: unknown field "controler"; expected files, controller, requests',
      "routes.controller: missing required field",
      'reach.tables[0].rows[1]: must be 8 cells, each ✓ (allowed) or · (denied), got "·✓✓✓···x"',
      "reach.tables[1].port: must be an integer from 1 to 65535, got 70000",
      'reach.connections[3].allowed: must be true or false, got "nope"',
      'storage.clone-token.reserve_size: must be an integer from 0 to 9007199254740991, got "40M"',
    ]);
  });

  it("says so when a section is missing or the file is empty", () => {
    expect(problem("")).toEqual({
      exitCode: 2,
      message: "expected.yaml:1:1: (top level): must be a map with routes, reach, storage",
    });
    const noStorage = TEXT.slice(0, TEXT.indexOf("\nstorage:"));
    expect(problem(noStorage).message).toMatch(/^expected\.yaml:\d+:1: storage: missing required field$/);
    const noCache = TEXT.replace(/\n {2}cache:\n(?: {4}.*\n)+/, "\n");
    expect(problem(noCache).message).toMatch(/^expected\.yaml:\d+:3: storage\.cache: missing required field$/);
  });

  it("names the file when it cannot be read", async () => {
    await expect(loadExpectations({ cwd: REPO }, "no/such/expected.yaml")).rejects.toMatchObject({
      exitCode: 2,
      message: "no/such/expected.yaml: cannot read the demo's expected answers: no such file or directory",
    });
  });
});

describe("manifest walks pass demo/ over as not a manifest", () => {
  it("validate reports it skipped, route notes it, and the demo walks past it quietly", async () => {
    const v = await cli(["validate", "examples"]);
    expect(v.stdout).toContain("examples/demo/expected.yaml: skipped: no kind: not a Kubernetes manifest\n");
    const r = await cli(["route", "--controller", "k8s.io/ingress-nginx", "--host", "shop.example.com", "examples"]);
    expect(r.stderr).toContain(
      "clusterwire: examples/demo/expected.yaml: skipped: no kind: not a Kubernetes manifest\n",
    );
    const d = await cli(["demo", "--no-storage", "examples"]);
    expect(d).toMatchObject({ code: 0, stderr: "" });
    expect(d.stdout).not.toContain("expected.yaml");
  });
});
