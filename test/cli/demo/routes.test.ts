import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadExpectations } from "../../../src/cli/demo/expectations.js";
import { runRouteSection } from "../../../src/cli/demo/routes.js";
import { REPO, capture, cli } from "../../support/cli/harness.js";

// The demo's routes section, against the answers in examples/demo/expected.yaml.

const EXAMPLES = join(REPO, "examples");
const tmp = mkdtempSync(join(tmpdir(), "clusterwire-demo-routes-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

describe("demo: routes section", () => {
  it("routes the bundled examples as the rules say", async () => {
    const r = await cli(["demo", "--no-storage", "examples"]);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    const at = out.indexOf(
      "routes: examples/ingress-shop.yaml, examples/ingressclass-public.yaml, examples/catalog-stack.yaml; controller k8s.io/ingress-nginx",
    );
    expect(at).toBeGreaterThan(0);
    expect(out.slice(at + 1, at + 11)).toEqual([
      "  api.shop.example.com /v1/cart/items?id=7 -> service cart:9000 (shop/storefront spec.rules[1].http.paths[1] Prefix /v1/cart; precise host; via path)  ok",
      "  API.Shop.Example.com:443 /healthz -> service shop-api:health (shop/storefront spec.rules[1].http.paths[0] Exact /healthz; precise host; via path)  ok",
      "  api.shop.example.com /healthz/ -> service not-found:8080 (shop/storefront spec.defaultBackend; precise host; via tier-default)  ok",
      "  api.shop.example.com /v1/images/cat.png -> resource k8s.example.com/StorageBucket product-images (shop/storefront spec.rules[1].http.paths[3] ImplementationSpecific /v1/images; precise host; via path)  ok",
      "  api.shop.example.com /v1/imagesX -> service shop-api:9000 (shop/storefront spec.rules[1].http.paths[2] Prefix /v1; precise host; via path)  ok",
      "  tenant-a.shop.example.com /static/app.js -> service storefront-assets:8080 (shop/storefront spec.rules[0].http.paths[1] Prefix /static; wildcard host; via path)  ok",
      "  tenant-b.shop.example.com / (SNI catalog.shop.example.com) -> service storefront-web:http (shop/storefront spec.rules[0].http.paths[0] Prefix /; wildcard host; via path)  ok",
      "  deep.tenant.shop.example.com / -> service not-found:8080 (shop/storefront spec.defaultBackend; no host tier; via default)  ok",
      "  catalog.shop.example.com /books?page=2 -> service catalog:http (shop/catalog spec.rules[0].http.paths[0] Prefix /; precise host; via path)  ok",
      "ok: routes 9/9 as expected",
    ]);
  });

  it("fails when an example routes differently", async () => {
    const d = mkdtempSync(join(tmp, "demo-"));
    for (const f of ["ingressclass-public.yaml", "catalog-stack.yaml"]) cpSync(join(EXAMPLES, f), join(d, f));
    // /v1/cart becomes /v1/carts: /v1/cart/items now falls to /v1.
    writeFileSync(
      join(d, "ingress-shop.yaml"),
      readFileSync(join(EXAMPLES, "ingress-shop.yaml"), "utf8").replace("path: /v1/cart\n", "path: /v1/carts\n"),
    );
    const r = await cli(["demo", "--no-storage", d]);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    const at = out.findIndex((l) => l.startsWith("  api.shop.example.com /v1/cart/items?id=7 -> "));
    expect(out.slice(at, at + 3)).toEqual([
      "  api.shop.example.com /v1/cart/items?id=7 -> service shop-api:9000 (shop/storefront spec.rules[1].http.paths[2] Prefix /v1; precise host; via path)  FAILED",
      "    - expected backend service cart:9000, got service shop-api:9000",
      "    - expected field spec.rules[1].http.paths[1], got spec.rules[1].http.paths[2]",
    ]);
    expect(out).toContain("FAILED: routes 8/9 as expected");
  });

  it("fails when one of the section's files is missing, and is left out for a directory without them", async () => {
    const d = mkdtempSync(join(tmp, "demo-"));
    cpSync(join(EXAMPLES, "ingress-shop.yaml"), join(d, "ingress-shop.yaml"));
    const r = await cli(["demo", "--no-storage", d]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `FAILED: routes: ${join(d, "catalog-stack.yaml")}: cannot read: no such file or directory\n`,
    );

    const other = mkdtempSync(join(tmp, "demo-"));
    mkdirSync(join(other, "sub"));
    cpSync(join(EXAMPLES, "netpol-default-deny.yaml"), join(other, "sub", "np.yaml"));
    const plain = await cli(["demo", "--no-storage", other]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain("routes:");
    expect(plain.stdout).not.toContain("reach:");
  });

  it("fails when an expected answer in examples/demo/expected.yaml changes, and passes with it as written", async () => {
    const expected = (await loadExpectations({ cwd: REPO })).routes;
    const good = capture();
    expect(await runRouteSection(good.io, "examples", expected)).toBe(true);
    expect(lines(good.out()).at(-1)).toBe("ok: routes 9/9 as expected");

    // A wrong answer: the cart request expected at shop-api, via the tier's default.
    const requests = expected.requests.map((r, i) =>
      i === 0 ? { ...r, backend: "service shop-api:9000", via: "tier-default" as const } : r,
    );
    const bad = capture();
    expect(await runRouteSection(bad.io, "examples", { ...expected, requests })).toBe(false);
    const out = lines(bad.out());
    const at = out.findIndex((l) => l.startsWith("  api.shop.example.com /v1/cart/items?id=7 -> "));
    expect(out.slice(at, at + 3)).toEqual([
      "  api.shop.example.com /v1/cart/items?id=7 -> service cart:9000 (shop/storefront spec.rules[1].http.paths[1] Prefix /v1/cart; precise host; via path)  FAILED",
      "    - expected backend service shop-api:9000, got service cart:9000",
      "    - expected via tier-default, got path",
    ]);
    expect(out.at(-1)).toBe("FAILED: routes 8/9 as expected");
  });
});
