// The router's public shapes (src/networking/evaluate/router/types.ts) against what createRouter
// answers: a Route has exactly its documented fields, `via` and `tier` take each documented value
// where docs/ingress-routing.md says they do, the host and path are given as normalised (R3, R5),
// the backend is the Ingress's own object (R11), a RouteRequest's sni and scheme never change the
// answer (R10), and RouteResult and OutOfScope hold what they say.

import { describe, expect, it } from "vitest";
import {
  createRouter,
  fromJson,
  type Ingress,
  type IngressClass,
  type JsonObject,
  type Route,
  type RouteRequest,
} from "../../../../src/networking/index.js";

const ROUTE_FIELDS = ["backend", "host", "ingress", "path", "requestPath", "rule", "skipped", "tier", "via"];
const svc = (name: string): JsonObject => ({ service: { name, port: { number: 80 } } });
const ingress = (name: string, spec: JsonObject, className?: string): Ingress =>
  fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace: "web" },
    spec: className === undefined ? spec : { ...spec, ingressClassName: className },
  }) as Ingress;

const shop = ingress("shop", {
  defaultBackend: svc("shop-default"),
  rules: [
    { host: "shop.example.com", http: { paths: [{ path: "/cart", pathType: "Prefix", backend: svc("cart") }] } },
    { host: "*.example.com", http: { paths: [{ path: "/", pathType: "Prefix", backend: svc("wild") }] } },
  ],
});
const edge = ingress("edge", { defaultBackend: svc("edge") });
const router = createRouter({ ingresses: [shop, edge] });

function routeOf(request: RouteRequest): Route {
  const route = router.route(request);
  if (route === null) throw new Error(`no route for ${JSON.stringify(request)}`);
  expect(Object.keys(route).sort()).toEqual(ROUTE_FIELDS);
  return route;
}

describe("Route", () => {
  it("via a path of the precise tier: indexes set, host and path normalised, the backend as written", () => {
    const route = routeOf({ host: "Shop.Example.com:8443", path: "/cart/items?id=1#top" });
    expect(route).toMatchObject({
      ingress: "web/shop",
      rule: 0,
      path: 0,
      via: "path",
      tier: "precise",
      host: "shop.example.com",
      requestPath: "/cart/items",
      skipped: [],
    });
    expect(route.backend).toBe(shop.spec?.rules[0]?.ingressRuleValue?.http?.paths[0]?.backend);
  });

  it("via a path of the wildcard tier", () => {
    expect(routeOf({ host: "a.example.com", path: "/" })).toMatchObject({ rule: 1, path: 0, tier: "wildcard" });
  });

  it("tier-default: the selected tier's Ingress defaultBackend, no rule or path", () => {
    const route = routeOf({ host: "shop.example.com", path: "/other" });
    expect(route).toMatchObject({ ingress: "web/shop", rule: null, path: null, via: "tier-default", tier: "precise" });
    expect(route.backend).toBe(shop.spec?.defaultBackend);
  });

  it("default: no tier has the host, so the fallback defaultBackend, tier null", () => {
    const route = routeOf({ host: "elsewhere.test", path: "/" });
    expect(route).toMatchObject({ rule: null, path: null, via: "default", tier: null, host: "elsewhere.test" });
  });

  it("sni and scheme never change the answer", () => {
    for (const request of [
      { host: "shop.example.com", path: "/cart" },
      { host: "a.example.com", path: "/x" },
      { host: "elsewhere.test", path: "/" },
    ]) {
      expect(router.route({ ...request, sni: "other.example.org", scheme: "http" })).toEqual(router.route(request));
      expect(router.route({ ...request, scheme: "https" })).toEqual(router.route(request));
    }
  });
});

describe("RouteResult and Router", () => {
  it("resolve() is the route, or null for the controller's own 404, with the skipped inputs", () => {
    expect(router.resolve({ host: "shop.example.com", path: "/cart" })).toEqual({
      route: router.route({ host: "shop.example.com", path: "/cart" }),
      skipped: [],
    });
    const none = createRouter({ ingresses: [ingress("only", { rules: [{ host: "a.test", http: { paths: [] } }] })] });
    const miss = none.resolve({ host: "b.test", path: "/" });
    expect(Object.keys(miss).sort()).toEqual(["route", "skipped"]);
    expect(miss.route).toBeNull();
    expect(none.route({ host: "b.test", path: "/" })).toBeNull();
  });

  it("inScope in input order; outOfScope names each Ingress left to another controller, with a reason", () => {
    const cls = (name: string, controller: string): IngressClass =>
      fromJson({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name },
        spec: { controller },
      }) as IngressClass;
    const r = createRouter({
      ingresses: [
        ingress("theirs", { defaultBackend: svc("t") }, "other"),
        ingress("ours", { defaultBackend: svc("o") }, "ours"),
      ],
      ingressClasses: [cls("ours", "example.com/ours"), cls("other", "example.com/other")],
      controller: "example.com/ours",
    });
    expect(r.inScope).toEqual(["web/ours"]);
    expect(r.outOfScope.map((o) => [Object.keys(o).sort(), o.ingress])).toEqual([
      [["ingress", "reason"], "web/theirs"],
    ]);
    expect(r.outOfScope[0]?.reason).toMatch(/\S/);
    expect(router.inScope).toEqual(["web/shop", "web/edge"]);
    expect(router.outOfScope).toEqual([]);
  });
});
