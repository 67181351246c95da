import { describe, expect, it } from "vitest";
import { EXPECTATIONS_FILE, loadExpectations } from "../../../src/cli/demo/expectations.js";
import { REPO } from "../../support/cli/harness.js";


describe("the demo's expected answers", () => {
  it("reads examples/demo/expected.yaml from the package root", async () => {
    const e = await loadExpectations({ cwd: REPO });
    expect(e.source).toBe(EXPECTATIONS_FILE);
    expect(e.routes.files).toEqual(["ingress-shop.yaml", "ingressclass-public.yaml", "catalog-stack.yaml"]);
    expect(e.routes.controller).toBe("k8s.io/ingress-nginx");
    expect(e.routes.requests).toHaveLength(9);
    expect(e.routes.requests[0]).toEqual({ host: "api.shop.example.com", path: "/v1/cart/items?id=7", backend: "service cart:9000", ingress: "shop/storefront", field: "spec.rules[1].http.paths[1]", via: "path", tier: "precise" });
    expect(e.routes.requests[6]?.sni).toBe("catalog.shop.example.com");
    expect(e.routes.requests[7]?.tier).toBeNull();
    expect(e.reach.file).toBe("clusters/shop.yaml");
    expect(e.reach.pods).toHaveLength(8);
    expect(e.reach.tables.map((t) => [t.protocol, t.port, t.rows.length])).toEqual([["TCP", 8080, 8], ["TCP", 5432, 8]]);
    expect(e.reach.tables[0]?.rows[0]).toBe("✓✓····✓✓");
    expect(e.reach.connections.map((c) => c.port)).toEqual(["dns", "http", 443, 443, 8080]);
    expect(e.storage.cloneToken).toEqual({ status: 201, reserveSize: 41943040, limit: "PT1H", leftAfter10Minutes: "PT50M" });
    expect(e.storage.softwareValidate).toEqual([{ version: "9.15.1", passes: true }, { version: "9.16.1", passes: false }]);
  });
});
