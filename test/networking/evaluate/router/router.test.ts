// The Ingress router against ../shared/docs/semantics.md §1.1 (restated for users in
// docs/ingress-routing.md): a describe per rule
// R1–R11 of §1.1.2, then every row of the §1.1.3 "Consequences worth testing"
// table and of the §2.1.2 path-matching examples. Every expected Route is
// written from the doc: the backend is checked by identity with the object in
// the input, together with ingress, rule/path indexes, via, tier, host and
// requestPath.

import { describe, expect, it } from "vitest";
import {
  createRouter,
  EvaluatorInputError,
  fromJson,
  normaliseRequest,
  validate,
  type HostTier,
  type Ingress,
  type IngressBackend,
  type IngressClass,
  type JsonObject,
  type Route,
  type RouteRequest,
  type Router,
  type SkippedObject,
} from "../../../../src/networking/index.js";

// ------------------------------------------------------------------ helpers

type J = JsonObject;

const CTRL = "example.com/ingress-controller";
const OTHER = "example.org/other-controller";
const H = "foo.example.com";
const T0 = "2024-01-01T00:00:00Z";
const T1 = "2024-02-01T00:00:00Z";
const T2 = "2024-03-01T00:00:00Z";

const svc = (name: string, port: number | string = 80): J => ({
  service: { name, port: typeof port === "number" ? { number: port } : { name: port } },
});

const P = (path: string, backend: string): J => ({ path, pathType: "Prefix", backend: svc(backend) });
const E = (path: string, backend: string): J => ({ path, pathType: "Exact", backend: svc(backend) });
/** ImplementationSpecific; `undefined` leaves the path out. */
const IS = (path: string | undefined, backend: string): J =>
  path === undefined
    ? { pathType: "ImplementationSpecific", backend: svc(backend) }
    : { path, pathType: "ImplementationSpecific", backend: svc(backend) };

/** A rule; no host for `undefined`, no `http` when no paths are given. */
function rule(host: string | undefined, ...paths: J[]): J {
  const r: J = {};
  if (host !== undefined) r["host"] = host;
  if (paths.length > 0) r["http"] = { paths };
  return r;
}

interface IngOpts {
  readonly ns?: string;
  /** RFC 3339; null leaves creationTimestamp out. Defaults to T0. */
  readonly created?: string | null;
  readonly annotations?: Record<string, string>;
  readonly className?: string;
  readonly defaultBackend?: J;
  readonly tls?: J[];
}

function ingress(name: string, rules: J[], o: IngOpts = {}): Ingress {
  const metadata: J = { name, namespace: o.ns ?? "default" };
  const created = o.created === undefined ? T0 : o.created;
  if (created !== null) metadata["creationTimestamp"] = created;
  if (o.annotations !== undefined) metadata["annotations"] = o.annotations;
  const spec: J = {};
  if (rules.length > 0) spec["rules"] = rules;
  if (o.className !== undefined) spec["ingressClassName"] = o.className;
  if (o.defaultBackend !== undefined) spec["defaultBackend"] = o.defaultBackend;
  if (o.tls !== undefined) spec["tls"] = o.tls;
  const ing = fromJson({ apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata, spec }) as Ingress;
  return ing;
}

function ingressClass(name: string, controller: string, annotations?: Record<string, string>): IngressClass {
  const metadata: J = { name };
  if (annotations !== undefined) metadata["annotations"] = annotations;
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata,
    spec: { controller },
  }) as IngressClass;
}

const DEFAULT_CLASS = { "ingressclass.kubernetes.io/is-default-class": "true" };

function keyOf(ing: Ingress): string {
  return `${ing.metadata!.namespace}/${ing.metadata!.name}`;
}

function pathBackend(ing: Ingress, r: number, p: number): IngressBackend {
  const b = ing.spec!.rules[r]!.ingressRuleValue!.http!.paths[p]!.backend;
  if (b === undefined) throw new Error("test input has no backend there");
  return b;
}

function defaultBackend(ing: Ingress): IngressBackend {
  const b = ing.spec!.defaultBackend;
  if (b === undefined) throw new Error("test input has no defaultBackend");
  return b;
}

/** The Route of a path of the selected tier. */
function viaPath(ing: Ingress, r: number, p: number, tier: HostTier, host: string, requestPath: string): Route {
  return {
    backend: pathBackend(ing, r, p),
    ingress: keyOf(ing),
    rule: r,
    path: p,
    via: "path",
    tier,
    host,
    requestPath,
    skipped: [],
  };
}

/** The Route of an R9 fallback. */
function viaDefault(
  ing: Ingress,
  via: "tier-default" | "default",
  tier: HostTier | null,
  host: string,
  requestPath: string,
): Route {
  return {
    backend: defaultBackend(ing),
    ingress: keyOf(ing),
    rule: null,
    path: null,
    via,
    tier,
    host,
    requestPath,
    skipped: [],
  };
}

function expectRoute(actual: Route | null, expected: Route): void {
  expect(actual).toEqual(expected);
  // The very object of the input (R11), not a copy.
  expect(actual?.backend).toBe(expected.backend);
}

const router = (...ingresses: Ingress[]): Router => createRouter({ ingresses });
const go = (r: Router, host: string, path: string): Route | null => r.route({ host, path });

// ------------------------------------------------------------------ R1

describe("R1: one controller", () => {
  const classes = [ingressClass("ours", CTRL), ingressClass("theirs", OTHER)];
  // b is older and sorts first, so it would win if scoping were ignored.
  const a = ingress("a", [rule(undefined, P("/", "svc-a"))], { className: "ours", created: T1 });
  const b = ingress("b", [rule(undefined, P("/", "svc-b"))], { className: "theirs", ns: "aaa", created: T0 });

  it("evaluates for the named controller only", () => {
    const mine = createRouter({ ingresses: [a, b], ingressClasses: classes, controller: CTRL });
    expectRoute(go(mine, H, "/x"), viaPath(a, 0, 0, "host-less", H, "/x"));
    expect(mine.inScope).toEqual(["default/a"]);
    expect(mine.outOfScope.map((o) => o.ingress)).toEqual(["aaa/b"]);
  });

  it("the same inputs evaluated for the other controller", () => {
    const theirs = createRouter({ ingresses: [a, b], ingressClasses: classes, controller: OTHER });
    expectRoute(go(theirs, H, "/x"), viaPath(b, 0, 0, "host-less", H, "/x"));
    expect(theirs.inScope).toEqual(["aaa/b"]);
    expect(theirs.outOfScope.map((o) => o.ingress)).toEqual(["default/a"]);
  });
});

// ------------------------------------------------------------------ R2

describe("R2: class scoping", () => {
  const ours = ingressClass("ours", CTRL);
  const oursDefault = ingressClass("ours-default", CTRL, DEFAULT_CLASS);
  const theirs = ingressClass("theirs", OTHER);
  const theirsDefault = ingressClass("theirs-default", OTHER, DEFAULT_CLASS);
  const ann = (cls: string): Record<string, string> => ({ "kubernetes.io/ingress.class": cls });
  const one = (name: string, o: IngOpts): Ingress => ingress(name, [rule(undefined, P("/", `svc-${name}`))], o);
  const scoped = (ingresses: Ingress[], classes: IngressClass[]): Router =>
    createRouter({ ingresses, ingressClasses: classes, controller: CTRL });

  it("no class list: every Ingress is in scope, whatever class it names", () => {
    const list = [
      one("named-unknown", { className: "ghost" }),
      one("annotated-theirs", { annotations: ann("theirs") }),
      one("classless", {}),
    ];
    for (const r of [createRouter({ ingresses: list }), createRouter({ ingresses: list, controller: CTRL })]) {
      expect(r.inScope).toEqual(["default/named-unknown", "default/annotated-theirs", "default/classless"]);
      expect(r.outOfScope).toEqual([]);
      expect(r.skipped).toEqual([]);
      // All three tie on R7.1–R7.3; the smallest namespace/name wins.
      expectRoute(go(r, H, "/"), viaPath(list[1]!, 0, 0, "host-less", H, "/"));
    }
  });

  it("ingressClassName naming one of this controller's classes: in scope", () => {
    const ing = one("a", { className: "ours" });
    const r = scoped([ing], [theirs, ours]);
    expect(r.inScope).toEqual(["default/a"]);
    expect(r.outOfScope).toEqual([]);
    expectRoute(go(r, H, "/"), viaPath(ing, 0, 0, "host-less", H, "/"));
  });

  it("ingressClassName naming another controller's class: out of scope", () => {
    const r = scoped([one("a", { className: "theirs" })], [ours, theirs]);
    expect(r.inScope).toEqual([]);
    expect(r.outOfScope).toHaveLength(1);
    expect(r.outOfScope[0]!.ingress).toBe("default/a");
    expect(r.outOfScope[0]!.reason).toContain("theirs");
    expect(go(r, H, "/")).toBeNull();
  });

  it("ingressClassName naming a class that is not in the list: out of scope", () => {
    const r = scoped([one("a", { className: "ghost" })], [ours, oursDefault]);
    expect(r.inScope).toEqual([]);
    expect(r.outOfScope.map((o) => o.ingress)).toEqual(["default/a"]);
    expect(r.outOfScope[0]!.reason).toContain("ghost");
    expect(go(r, H, "/")).toBeNull();
  });

  it("ingressClassName decides when both it and the annotation are set (validation makes them agree)", () => {
    const out = one("both-theirs", { className: "theirs", annotations: ann("theirs") });
    const inn = one("both-ours", { className: "ours", annotations: ann("ours") });
    const r = scoped([out, inn], [ours, theirs]);
    expect(r.inScope).toEqual(["default/both-ours"]);
    expect(r.outOfScope.map((o) => o.ingress)).toEqual(["default/both-theirs"]);
    expectRoute(go(r, H, "/"), viaPath(inn, 0, 0, "host-less", H, "/"));
  });

  it("ingressClassName and an annotation that disagree: rejected by validation, skipped", () => {
    const bad = one("mixed", { className: "ours", annotations: ann("theirs") });
    const errors = validate(bad);
    expect(errors.map((e) => [e.type, e.field])).toEqual([
      ["FieldValueInvalid", "annotations.kubernetes.io/ingress.class"],
    ]);
    const r = scoped([bad], [ours, theirs]);
    expect(r.skipped).toEqual([{ kind: "Ingress", name: "default/mixed", index: 0, errors }]);
    expect(r.inScope).toEqual([]);
    expect(r.outOfScope).toEqual([]);
    expect(go(r, H, "/")).toBeNull();
  });

  it("the kubernetes.io/ingress.class annotation applies when ingressClassName is unset", () => {
    const a = one("a", { annotations: ann("ours") });
    const b = one("b", { annotations: ann("theirs") });
    const c = one("c", { annotations: ann("ghost") });
    const r = scoped([a, b, c], [ours, theirs]);
    expect(r.inScope).toEqual(["default/a"]);
    expect(r.outOfScope.map((o) => o.ingress)).toEqual(["default/b", "default/c"]);
    for (const o of r.outOfScope) expect(o.reason).not.toBe("");
    expectRoute(go(r, H, "/"), viaPath(a, 0, 0, "host-less", H, "/"));
  });

  it("class-less Ingresses are in scope when one of this controller's classes is the default", () => {
    const ing = one("a", {});
    const r = scoped([ing], [ours, oursDefault, theirs]);
    expect(r.inScope).toEqual(["default/a"]);
    expectRoute(go(r, H, "/"), viaPath(ing, 0, 0, "host-less", H, "/"));
  });

  it("class-less Ingresses are out of scope without a default class of this controller", () => {
    const ing = one("a", {});
    const cases: IngressClass[][] = [
      [ours, theirs],
      [ours, theirsDefault],
      [ingressClass("ours-false", CTRL, { "ingressclass.kubernetes.io/is-default-class": "false" })],
      [ingressClass("ours-caps", CTRL, { "ingressclass.kubernetes.io/is-default-class": "True" })],
    ];
    for (const classes of cases) {
      const r = scoped([ing], classes);
      expect(r.inScope).toEqual([]);
      expect(r.outOfScope.map((o) => o.ingress)).toEqual(["default/a"]);
      expect(r.outOfScope[0]!.reason).not.toBe("");
      expect(go(r, H, "/")).toBeNull();
    }
  });

  it("a default class does not take in an Ingress that names an unknown or foreign class", () => {
    const list = [
      one("named-ghost", { className: "ghost" }),
      one("annotated-ghost", { annotations: ann("ghost") }),
      one("named-theirs", { className: "theirs" }),
      one("annotated-theirs", { annotations: ann("theirs") }),
    ];
    const r = scoped(list, [oursDefault, theirs]);
    expect(r.inScope).toEqual([]);
    expect(r.outOfScope.map((o) => o.ingress)).toEqual(list.map(keyOf));
  });

  it("inScope and outOfScope keep input order", () => {
    const list = [
      one("z", { className: "ours" }),
      one("y", { className: "theirs" }),
      one("x", {}),
      one("w", { annotations: ann("ours") }),
      one("v", { className: "ghost" }),
    ];
    const r = scoped(list, [ours, theirs]);
    expect(r.inScope).toEqual(["default/z", "default/w"]);
    expect(r.outOfScope.map((o) => o.ingress)).toEqual(["default/y", "default/x", "default/v"]);
  });

  it("an empty class list puts every Ingress out of scope", () => {
    const r = scoped([one("a", {}), one("b", { className: "ours" })], []);
    expect(r.inScope).toEqual([]);
    expect(r.outOfScope.map((o) => o.ingress)).toEqual(["default/a", "default/b"]);
  });

  it("a class list without a controller is an EvaluatorInputError", () => {
    for (const ingressClasses of [[ours], []]) {
      expect(() => createRouter({ ingresses: [one("a", {})], ingressClasses })).toThrow(EvaluatorInputError);
    }
  });

  it("out-of-scope Ingresses supply neither paths nor default backends", () => {
    const foreign = ingress("foreign", [rule(H, P("/", "svc-f"))], {
      className: "theirs",
      defaultBackend: svc("dflt-f"),
      created: T0,
    });
    const mine = ingress("mine", [rule("other.example.com", P("/", "svc-m"))], { className: "ours", created: T1 });
    const r = scoped([foreign, mine], [ours, theirs]);
    expect(go(r, H, "/")).toBeNull();
    const withDefault = ingress("mine2", [], { className: "ours", created: T2, defaultBackend: svc("dflt-m") });
    expectRoute(
      go(scoped([foreign, mine, withDefault], [ours, theirs]), H, "/"),
      viaDefault(withDefault, "default", null, H, "/"),
    );
  });

  it("an IngressClass that fails validation is skipped and counts as absent", () => {
    const bad = fromJson({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "ours", annotations: DEFAULT_CLASS },
      spec: {},
    }) as IngressClass;
    const errors = validate(bad);
    expect(errors.length).toBeGreaterThan(0);
    const r = scoped([one("a", { className: "ours" }), one("b", {})], [bad]);
    expect(r.skipped).toEqual([{ kind: "IngressClass", name: "ours", index: 0, errors }]);
    expect(r.inScope).toEqual([]);
    expect(r.outOfScope.map((o) => o.ingress)).toEqual(["default/a", "default/b"]);
  });
});

// ------------------------------------------------------------------ R3

describe("R3: host normalisation", () => {
  const precise = ingress("precise", [rule(H, P("/", "svc-precise"))]);
  const hostless = ingress("hostless", [rule(undefined, P("/", "svc-hostless"))]);
  const r = router(precise, hostless);

  it("drops the port and lower-cases", () => {
    expectRoute(go(r, "Foo.Example.COM:8080", "/"), viaPath(precise, 0, 0, "precise", H, "/"));
    expectRoute(go(r, "FOO.EXAMPLE.COM", "/"), viaPath(precise, 0, 0, "precise", H, "/"));
    expectRoute(go(r, `${H}:443`, "/"), viaPath(precise, 0, 0, "precise", H, "/"));
  });

  it("a bracketed IPv6 literal loses brackets and port", () => {
    expectRoute(go(r, "[2001:db8::1]:8443", "/"), viaPath(hostless, 0, 0, "host-less", "2001:db8::1", "/"));
    expectRoute(go(r, "[2001:DB8::1]", "/"), viaPath(hostless, 0, 0, "host-less", "2001:db8::1", "/"));
  });

  it("an IPv4 literal with a port", () => {
    expectRoute(go(r, "192.0.2.7:8080", "/"), viaPath(hostless, 0, 0, "host-less", "192.0.2.7", "/"));
  });

  it("an empty Host only matches host-less rules", () => {
    expectRoute(go(r, "", "/"), viaPath(hostless, 0, 0, "host-less", "", "/"));
    const wild = ingress("wild", [rule("*.example.com", P("/", "svc-wild"))], { defaultBackend: svc("dflt") });
    const noHostless = router(precise, wild);
    expectRoute(go(noHostless, "", "/"), viaDefault(wild, "default", null, "", "/"));
  });

  it("rule hosts are compared as written, so a different name misses", () => {
    expect(go(router(precise), "bar.example.com", "/")).toBeNull();
  });
});

// ------------------------------------------------------------------ R4

describe("R4: host tiers", () => {
  // The host-less rule is oldest, first by name and has the longest path: only the tier decides.
  const hostless = ingress("a-hostless", [rule(undefined, P("/app", "svc-hostless"))], { created: T0 });
  const wildcard = ingress("b-wildcard", [rule("*.example.com", P("/", "svc-wild"))], { created: T1 });
  const precise = ingress("c-precise", [rule(H, P("/", "svc-precise"))], { created: T2 });
  const r = router(hostless, wildcard, precise);

  it("precise beats wildcard beats host-less", () => {
    expectRoute(go(r, H, "/app"), viaPath(precise, 0, 0, "precise", H, "/app"));
    expectRoute(go(r, "bar.example.com", "/app"), viaPath(wildcard, 0, 0, "wildcard", "bar.example.com", "/app"));
    expectRoute(go(r, "example.org", "/app"), viaPath(hostless, 0, 0, "host-less", "example.org", "/app"));
  });

  it("a wildcard covers exactly one non-empty label", () => {
    expectRoute(go(r, "a.b.example.com", "/app"), viaPath(hostless, 0, 0, "host-less", "a.b.example.com", "/app"));
    expectRoute(go(r, "example.com", "/app"), viaPath(hostless, 0, 0, "host-less", "example.com", "/app"));
    expectRoute(go(r, ".example.com", "/app"), viaPath(hostless, 0, 0, "host-less", ".example.com", "/app"));
    const onlyWild = router(wildcard);
    expectRoute(go(onlyWild, "x-1.example.com", "/"), viaPath(wildcard, 0, 0, "wildcard", "x-1.example.com", "/"));
    expect(go(onlyWild, "a.b.example.com", "/")).toBeNull();
    expect(go(onlyWild, "example.com", "/")).toBeNull();
    expect(go(onlyWild, ".example.com", "/")).toBeNull();
  });

  it("a path miss in the precise tier does not fall through", () => {
    const api = ingress("api", [rule(H, P("/api", "svc-api"))]);
    const rr = router(api, wildcard, ingress("catch", [rule(undefined, P("/", "svc-catch"))]));
    expectRoute(go(rr, H, "/api/v1"), viaPath(api, 0, 0, "precise", H, "/api/v1"));
    expect(go(rr, H, "/web")).toBeNull();
  });

  it("a path miss in the wildcard tier does not fall through", () => {
    const wildApi = ingress("wild-api", [rule("*.example.com", E("/api", "svc-api"))]);
    const rr = router(wildApi, ingress("catch", [rule(undefined, P("/", "svc-catch"))]));
    expectRoute(go(rr, "bar.example.com", "/api"), viaPath(wildApi, 0, 0, "wildcard", "bar.example.com", "/api"));
    expect(go(rr, "bar.example.com", "/api/")).toBeNull();
  });

  it("a tier collects the rules of every in-scope Ingress for the host", () => {
    const one = ingress("one", [rule(H, P("/a", "svc-a"))]);
    const two = ingress("two", [rule("other.example.com", P("/", "x")), rule(H, P("/b", "svc-b"))]);
    const rr = router(one, two);
    expectRoute(go(rr, H, "/a"), viaPath(one, 0, 0, "precise", H, "/a"));
    expectRoute(go(rr, H, "/b/c"), viaPath(two, 1, 0, "precise", H, "/b/c"));
    expect(go(rr, H, "/c")).toBeNull();
  });

  it("a host matching no rule and no host-less rule selects no tier", () => {
    expect(go(router(precise, wildcard), "example.net", "/")).toBeNull();
  });
});

// ------------------------------------------------------------------ R5

describe("R5: request path", () => {
  it("query and fragment are cut at the first ? or #", () => {
    const ing = ingress("a", [rule(undefined, E("/foo", "svc"))]);
    const r = router(ing);
    expectRoute(go(r, H, "/foo?x=1#y"), viaPath(ing, 0, 0, "host-less", H, "/foo"));
    expectRoute(go(r, H, "/foo#y?x=1"), viaPath(ing, 0, 0, "host-less", H, "/foo"));
    expectRoute(go(r, H, "/foo?"), viaPath(ing, 0, 0, "host-less", H, "/foo"));
    expect(go(r, H, "/foo/?x")).toBeNull();
  });

  it("an empty path (only a query) matches Prefix / but not Exact /", () => {
    const ing = ingress("a", [rule(undefined, E("/", "svc-exact"), P("/", "svc-prefix"))]);
    expectRoute(go(router(ing), H, "?q=1"), viaPath(ing, 0, 1, "host-less", H, ""));
    expectRoute(go(router(ing), H, "/"), viaPath(ing, 0, 0, "host-less", H, "/"));
  });

  it("percent-encoded slashes are not decoded", () => {
    const ing = ingress("a", [rule(undefined, IS("/a%2Fb", "svc-enc"), P("/a/b", "svc-ab"), P("/a", "svc-a"))]);
    const r = router(ing);
    expectRoute(go(r, H, "/a%2Fb"), viaPath(ing, 0, 0, "host-less", H, "/a%2Fb"));
    expectRoute(go(r, H, "/a/b"), viaPath(ing, 0, 1, "host-less", H, "/a/b"));
    expect(go(router(ingress("b", [rule(undefined, P("/a", "svc-a"))])), H, "/a%2Fb")).toBeNull();
  });

  it("dot segments are not removed", () => {
    const ing = ingress("a", [rule(undefined, P("/a/b", "svc-ab"), P("/a", "svc-a"), IS("/a/./c", "svc-dot"))]);
    const r = router(ing);
    expectRoute(go(r, H, "/a/./b"), viaPath(ing, 0, 1, "host-less", H, "/a/./b"));
    expectRoute(go(r, H, "/a/../a/b"), viaPath(ing, 0, 1, "host-less", H, "/a/../a/b"));
    expectRoute(go(r, H, "/a/./c"), viaPath(ing, 0, 2, "host-less", H, "/a/./c"));
  });

  it("slashes are not merged", () => {
    const ing = ingress("a", [rule(undefined, P("/a/b", "svc-ab"), IS("/a//b", "svc-double"))]);
    const r = router(ing);
    expect(go(r, H, "//a/b")).toBeNull();
    expectRoute(go(r, H, "/a//b"), viaPath(ing, 0, 1, "host-less", H, "/a//b"));
    expect(go(router(ingress("b", [rule(undefined, P("/a/b", "svc-ab"))])), H, "/a//b")).toBeNull();
  });
});

// ------------------------------------------------------------------ R3 and R5, without routing

describe("normaliseRequest: the host and path as the router reads them", () => {
  it("applies R3 to the host and R5 to the path", () => {
    expect(normaliseRequest({ host: "Foo.Example.COM:8080", path: "/foo?x=1#y" })).toEqual({
      host: "foo.example.com",
      requestPath: "/foo",
    });
    expect(normaliseRequest({ host: "[2001:DB8::1]:8443", path: "/a#b?c" })).toEqual({
      host: "2001:db8::1",
      requestPath: "/a",
    });
    // An unbracketed IPv6 literal has more than one colon, so none of them is a port separator.
    expect(normaliseRequest({ host: "2001:DB8::1", path: "?q=1" })).toEqual({ host: "2001:db8::1", requestPath: "" });
    expect(normaliseRequest({ host: "", path: "/a%2Fb/./c" })).toEqual({ host: "", requestPath: "/a%2Fb/./c" });
  });

  it("gives what a Route carries, also for a request nothing serves", () => {
    const ing = ingress("a", [rule(H, P("/app", "svc"))]);
    const r = router(ing);
    const request = { host: "FOO.example.com:443", path: "/app/x?id=1", sni: "other.example", scheme: "https" };
    const route = r.route(request);
    expect(route).not.toBeNull();
    expect(normaliseRequest(request)).toEqual({ host: route?.host, requestPath: route?.requestPath });
    expect(r.route({ host: "Bar.example.com", path: "/app" })).toBeNull();
    expect(normaliseRequest({ host: "Bar.example.com", path: "/app" })).toEqual({
      host: "bar.example.com",
      requestPath: "/app",
    });
  });

  it("refuses what route() refuses, with the same error", () => {
    const r = router();
    for (const bad of [null, { host: 1, path: "/" }, { host: "a", path: undefined }] as unknown as RouteRequest[]) {
      const fromRoute = (() => {
        try {
          r.route(bad);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(fromRoute).toBeInstanceOf(EvaluatorInputError);
      expect(() => normaliseRequest(bad)).toThrow((fromRoute as Error).message);
    }
  });
});

// ------------------------------------------------------------------ R6

describe("R6: path matching", () => {
  it("Exact is case-sensitive string equality", () => {
    const ing = ingress("a", [rule(undefined, E("/foo", "svc"))]);
    const r = router(ing);
    expectRoute(go(r, H, "/foo"), viaPath(ing, 0, 0, "host-less", H, "/foo"));
    for (const p of ["/Foo", "/foo/", "/fo", "/foo/bar", "/foobar", "foo", ""]) expect(go(r, H, p), p).toBeNull();
  });

  it("Exact with a trailing slash matches only that", () => {
    const ing = ingress("a", [rule(undefined, E("/foo/", "svc"))]);
    expectRoute(go(router(ing), H, "/foo/"), viaPath(ing, 0, 0, "host-less", H, "/foo/"));
    expect(go(router(ing), H, "/foo")).toBeNull();
  });

  it("Prefix / matches every request path", () => {
    const ing = ingress("a", [rule(undefined, P("/", "svc"))]);
    for (const p of ["/", "/x", "//", "/a/b/c", "x", ""]) {
      expectRoute(go(router(ing), H, p), viaPath(ing, 0, 0, "host-less", H, p));
    }
  });

  it("Prefix matches whole elements", () => {
    const ing = ingress("a", [rule(undefined, P("/foo/bar", "svc"))]);
    const r = router(ing);
    for (const p of ["/foo/bar", "/foo/bar/", "/foo/bar/baz", "/foo/bar//"]) {
      expectRoute(go(r, H, p), viaPath(ing, 0, 0, "host-less", H, p));
    }
    for (const p of ["/foo/barbaz", "/foo/ba", "/foo", "/Foo/bar", "/foo/bar.txt"]) expect(go(r, H, p), p).toBeNull();
  });

  it("Prefix strips exactly one trailing slash from the rule path", () => {
    // "/a//" is only valid as ImplementationSpecific, which R6 evaluates as Prefix: p = "/a/".
    const ing = ingress("a", [rule(undefined, IS("/a//", "svc"))]);
    const r = router(ing);
    for (const p of ["/a/", "/a//", "/a//x"]) expectRoute(go(r, H, p), viaPath(ing, 0, 0, "host-less", H, p));
    for (const p of ["/a", "/a/x"]) expect(go(r, H, p), p).toBeNull();
  });

  it("ImplementationSpecific is evaluated as Prefix", () => {
    const ing = ingress("a", [rule(undefined, IS("/foo", "svc"))]);
    const r = router(ing);
    for (const p of ["/foo", "/foo/", "/foo/x"]) expectRoute(go(r, H, p), viaPath(ing, 0, 0, "host-less", H, p));
    for (const p of ["/foobar", "/fo", "/"]) expect(go(r, H, p), p).toBeNull();
  });

  it("an absent or empty ImplementationSpecific path means /", () => {
    const absent = ingress("a", [rule(undefined, IS(undefined, "svc"))]);
    const empty = ingress("b", [rule(undefined, IS("", "svc"))]);
    for (const ing of [absent, empty]) {
      for (const p of ["/", "/anything/at/all", ""])
        expectRoute(go(router(ing), H, p), viaPath(ing, 0, 0, "host-less", H, p));
    }
  });
});

// ------------------------------------------------------------------ R7

describe("R7: precedence", () => {
  it("R7.1 the longer rule path as written wins, trailing slash included", () => {
    // The shorter path wins every later key (older, smaller name, rule 0, path 0).
    const short = ingress("a", [rule(undefined, P("/foo", "svc-short"))], { created: T0 });
    const long = ingress("b", [rule(undefined, P("/foo/", "svc-long"))], { created: T1 });
    const r = router(short, long);
    expectRoute(go(r, H, "/foo"), viaPath(long, 0, 0, "host-less", H, "/foo"));
    expectRoute(go(r, H, "/foo/x"), viaPath(long, 0, 0, "host-less", H, "/foo/x"));
  });

  it("R7.1 length beats Exact", () => {
    const ing = ingress("a", [rule(undefined, E("/foo", "svc-exact"), P("/foo/", "svc-prefix"))]);
    expectRoute(go(router(ing), H, "/foo"), viaPath(ing, 0, 1, "host-less", H, "/foo"));
  });

  it("R7.1 an empty ImplementationSpecific path counts as length 1", () => {
    // "" as length 0 would lose to Prefix "/" on R7.1; as "/" the tie goes on to age.
    const is = ingress("a", [rule(undefined, IS("", "svc-is"))], { created: T0 });
    const prefix = ingress("b", [rule(undefined, P("/", "svc-prefix"))], { created: T1 });
    expectRoute(go(router(prefix, is), H, "/x"), viaPath(is, 0, 0, "host-less", H, "/x"));
    const exactSlash = ingress("c", [rule(undefined, E("/", "svc-exact"))], { created: T2 });
    expectRoute(go(router(prefix, is, exactSlash), H, "/"), viaPath(exactSlash, 0, 0, "host-less", H, "/"));
  });

  it("R7.2 at equal length Exact beats Prefix and ImplementationSpecific", () => {
    const prefix = ingress("a", [rule(undefined, P("/foo", "svc-prefix"), IS("/foo", "svc-is"))], { created: T0 });
    const exact = ingress("b", [rule(undefined, E("/foo", "svc-exact"))], { created: T1 });
    expectRoute(go(router(prefix, exact), H, "/foo"), viaPath(exact, 0, 0, "host-less", H, "/foo"));
  });

  it("R7.2 Prefix and ImplementationSpecific are not ordered against each other", () => {
    const is = ingress("a", [rule(undefined, IS("/foo", "svc-is"))], { created: T0 });
    const prefix = ingress("b", [rule(undefined, P("/foo", "svc-prefix"))], { created: T1 });
    expectRoute(go(router(prefix, is), H, "/foo"), viaPath(is, 0, 0, "host-less", H, "/foo"));
    const prefixOld = ingress("b", [rule(undefined, P("/foo", "svc-prefix"))], { created: T0 });
    const isNew = ingress("a", [rule(undefined, IS("/foo", "svc-is"))], { created: T1 });
    expectRoute(go(router(isNew, prefixOld), H, "/foo"), viaPath(prefixOld, 0, 0, "host-less", H, "/foo"));
  });

  it("R7.3 the older creationTimestamp wins", () => {
    const young = ingress("a", [rule(H, P("/foo", "svc-young"))], { created: T2, ns: "a" });
    const old = ingress("z", [rule(H, P("/foo", "svc-old"))], { created: T1, ns: "z" });
    expectRoute(go(router(young, old), H, "/foo"), viaPath(old, 0, 0, "precise", H, "/foo"));
  });

  it("R7.3 creationTimestamp absent from the message counts as the newest", () => {
    const none = ingress("a", [rule(H, P("/foo", "svc-none"))]);
    delete none.metadata!.creationTimestamp;
    const dated = ingress("z", [rule(H, P("/foo", "svc-dated"))], { created: T2 });
    expectRoute(go(router(none, dated), H, "/foo"), viaPath(dated, 0, 0, "precise", H, "/foo"));
  });

  // JSON/YAML without the field decode to Go's zero time (an empty Time message):
  // that is the missing timestamp users write, so it must rank as newest too.
  it("R7.3 an Ingress decoded without creationTimestamp counts as the newest", () => {
    const none = ingress("a", [rule(H, P("/foo", "svc-none"))], { created: null });
    const dated = ingress("z", [rule(H, P("/foo", "svc-dated"))], { created: T2 });
    expectRoute(go(router(none, dated), H, "/foo"), viaPath(dated, 0, 0, "precise", H, "/foo"));
    const none2 = ingress("b", [rule(H, P("/foo", "svc-none2"))], { created: null });
    expectRoute(go(router(none2, none), H, "/foo"), viaPath(none, 0, 0, "precise", H, "/foo"));
  });

  it("R7.4 at equal age the smaller namespace/name string wins", () => {
    const b = ingress("a", [rule(H, P("/foo", "svc-b"))], { ns: "ns-b" });
    const a = ingress("z", [rule(H, P("/foo", "svc-a"))], { ns: "ns-a" });
    expectRoute(go(router(b, a), H, "/foo"), viaPath(a, 0, 0, "precise", H, "/foo"));
  });

  it("R7.4 compares the joined string, not namespace then name", () => {
    // "a-b/x" < "a/y" because "-" (0x2d) < "/" (0x2f), although namespace "a" < "a-b".
    const ab = ingress("x", [rule(H, P("/foo", "svc-ab"))], { ns: "a-b" });
    const a = ingress("y", [rule(H, P("/foo", "svc-a"))], { ns: "a" });
    expectRoute(go(router(a, ab), H, "/foo"), viaPath(ab, 0, 0, "precise", H, "/foo"));
  });

  it("R7.5 the lower rule index wins", () => {
    const ing = ingress("a", [rule(H, P("/other", "x"), P("/foo", "svc-r0")), rule(H, P("/foo", "svc-r1"))]);
    expectRoute(go(router(ing), H, "/foo/bar"), viaPath(ing, 0, 1, "precise", H, "/foo/bar"));
  });

  it("R7.6 the lower path index wins", () => {
    const ing = ingress("a", [rule(H, P("/other", "x"), IS("/foo", "svc-p1"), P("/foo", "svc-p2"))]);
    expectRoute(go(router(ing), H, "/foo"), viaPath(ing, 0, 1, "precise", H, "/foo"));
  });

  it("precedence is computed across Ingresses within the selected tier", () => {
    const a = ingress("a", [rule(H, P("/", "svc-root"), E("/x", "svc-x"))], { created: T0 });
    const b = ingress("b", [rule(H, P("/x/y", "svc-xy"))], { created: T2 });
    const r = router(a, b);
    expectRoute(go(r, H, "/x/y/z"), viaPath(b, 0, 0, "precise", H, "/x/y/z"));
    expectRoute(go(r, H, "/x"), viaPath(a, 0, 1, "precise", H, "/x"));
    expectRoute(go(r, H, "/x/z"), viaPath(a, 0, 0, "precise", H, "/x/z"));
  });
});

// ------------------------------------------------------------------ R8

describe("R8: rules without http", () => {
  const hostless = ingress("catch", [rule(undefined, P("/", "svc-catch"))], { created: T0 });

  it("a host-only rule selects its tier; the miss goes to that Ingress's defaultBackend", () => {
    const bare = ingress("bare", [rule(H)], { created: T1, defaultBackend: svc("dflt-bare") });
    const r = router(hostless, bare);
    expectRoute(go(r, H, "/"), viaDefault(bare, "tier-default", "precise", H, "/"));
    expectRoute(go(r, "other.example.com", "/"), viaPath(hostless, 0, 0, "host-less", "other.example.com", "/"));
  });

  it("a host-only rule without a defaultBackend falls to the global default", () => {
    const bare = ingress("bare", [rule(H)], { created: T0 });
    const global = ingress("global", [], { created: T1, defaultBackend: svc("dflt-global") });
    expectRoute(go(router(hostless, bare, global), H, "/x"), viaDefault(global, "default", "precise", H, "/x"));
    expect(go(router(hostless, bare), H, "/x")).toBeNull();
  });

  it("a wildcard host-only rule selects the wildcard tier", () => {
    const bare = ingress("bare", [rule("*.example.com")], { created: T1, defaultBackend: svc("dflt-bare") });
    const r = router(hostless, bare);
    expectRoute(go(r, "bar.example.com", "/"), viaDefault(bare, "tier-default", "wildcard", "bar.example.com", "/"));
  });

  it("a host-only rule next to path rules for the same host adds no paths", () => {
    const paths = ingress("paths", [rule(H, E("/a", "svc-a"))], { created: T0 });
    const bare = ingress("bare", [rule(H)], { created: T1, defaultBackend: svc("dflt-bare") });
    const r = router(paths, bare);
    expectRoute(go(r, H, "/a"), viaPath(paths, 0, 0, "precise", H, "/a"));
    expectRoute(go(r, H, "/b"), viaDefault(bare, "tier-default", "precise", H, "/b"));
  });
});

// ------------------------------------------------------------------ R9

describe("R9: fallback when no path matches", () => {
  it("R9.1 the tier's highest-priority Ingress with a defaultBackend: oldest first", () => {
    const young = ingress("a", [rule(H, E("/a", "svc-a"))], { created: T2, defaultBackend: svc("dflt-young") });
    const old = ingress("b", [rule(H, E("/b", "svc-b"))], { created: T1, defaultBackend: svc("dflt-old") });
    const noDefault = ingress("c", [rule(H, E("/c", "svc-c"))], { created: T0 });
    expectRoute(go(router(young, old, noDefault), H, "/z"), viaDefault(old, "tier-default", "precise", H, "/z"));
  });

  it("R9.1 at equal age the smaller namespace/name", () => {
    const b = ingress("b", [rule(H, E("/a", "svc-a"))], { defaultBackend: svc("dflt-b") });
    const a = ingress("a", [rule(H, E("/b", "svc-b"))], { defaultBackend: svc("dflt-a") });
    expectRoute(go(router(b, a), H, "/z"), viaDefault(a, "tier-default", "precise", H, "/z"));
  });

  it("R9.1 a missing creationTimestamp counts as the newest", () => {
    const none = ingress("a", [rule(H, E("/a", "svc-a"))], { created: null, defaultBackend: svc("dflt-none") });
    const dated = ingress("b", [rule(H, E("/b", "svc-b"))], { created: T2, defaultBackend: svc("dflt-dated") });
    expectRoute(go(router(none, dated), H, "/z"), viaDefault(dated, "tier-default", "precise", H, "/z"));
  });

  it("R9.1 the tier's default beats an older Ingress outside the tier", () => {
    const outside = ingress("a", [rule("other.example.com", P("/", "x"))], {
      created: T0,
      defaultBackend: svc("dflt-out"),
    });
    const inside = ingress("b", [rule(H, E("/a", "svc-a"))], { created: T2, defaultBackend: svc("dflt-in") });
    expectRoute(go(router(outside, inside), H, "/z"), viaDefault(inside, "tier-default", "precise", H, "/z"));
    expectRoute(
      go(router(outside, inside), "other.example.com", "/z"),
      viaPath(outside, 0, 0, "precise", "other.example.com", "/z"),
    );
  });

  it("R9.1 only Ingresses with rules in the selected tier count", () => {
    // wild has a rule in the wildcard tier, not in the precise one that H selects.
    const wild = ingress("wild", [rule("*.example.com", E("/w", "svc-w"))], {
      created: T1,
      defaultBackend: svc("dflt-wild"),
    });
    const precise = ingress("precise", [rule(H, E("/p", "svc-p"))], { created: T2 });
    const global = ingress("global", [rule("x.example.org", E("/", "svc-g"))], {
      created: T0,
      defaultBackend: svc("dflt-global"),
    });
    const r = router(wild, precise, global);
    expectRoute(go(r, H, "/w"), viaDefault(global, "default", "precise", H, "/w"));
    expectRoute(go(r, "bar.example.com", "/p"), viaDefault(wild, "tier-default", "wildcard", "bar.example.com", "/p"));
  });

  it("R9.2 no default in the tier: the highest-priority in-scope Ingress with one", () => {
    const tier = ingress("tier", [rule(H, E("/a", "svc-a"))], { created: T0 });
    const g2 = ingress("g2", [rule("other.example.com", P("/", "x"))], { created: T2, defaultBackend: svc("dflt-g2") });
    const g1 = ingress("g1", [], { created: T1, defaultBackend: svc("dflt-g1") });
    expectRoute(go(router(tier, g2, g1), H, "/b"), viaDefault(g1, "default", "precise", H, "/b"));
  });

  it("R9.2 no tier selected: the global default, with tier null", () => {
    const precise = ingress("precise", [rule(H, P("/", "svc-p"))], { created: T0 });
    const g = ingress("g", [], { created: T1, defaultBackend: svc("dflt-g") });
    expectRoute(
      go(router(precise, g), "elsewhere.example.net:80", "/q?x"),
      viaDefault(g, "default", null, "elsewhere.example.net", "/q"),
    );
  });

  it("R9.2 an Ingress with only a defaultBackend serves every unmatched request", () => {
    const only = ingress("only", [], { defaultBackend: svc("dflt") });
    const r = router(only);
    for (const host of ["", "a.example.com", "[::1]:80"]) {
      const expected = viaDefault(only, "default", null, host === "[::1]:80" ? "::1" : host, "/p");
      expectRoute(go(r, host, "/p"), expected);
    }
  });

  it("R9.3 no default anywhere: null", () => {
    const r = router(ingress("a", [rule(H, E("/a", "svc-a"))]), ingress("b", [rule(undefined, E("/b", "svc-b"))]));
    expect(go(r, H, "/b")).toBeNull();
    expect(go(r, "x.example.com", "/a")).toBeNull();
    expect(router().route({ host: H, path: "/" })).toBeNull();
  });
});

// ------------------------------------------------------------------ R10

describe("R10: TLS and SNI", () => {
  const a = ingress("a", [rule("a.example.com", P("/", "svc-a")), rule("b.example.com", P("/", "svc-b"))], {
    tls: [{ hosts: ["a.example.com"], secretName: "a-cert" }],
  });

  it("routing uses the Host header even when SNI differs", () => {
    const r = router(a);
    expectRoute(
      r.route({ host: "b.example.com", path: "/", sni: "a.example.com" }),
      viaPath(a, 1, 0, "precise", "b.example.com", "/"),
    );
    expectRoute(
      r.route({ host: "a.example.com", path: "/", sni: "b.example.com" }),
      viaPath(a, 0, 0, "precise", "a.example.com", "/"),
    );
  });

  it("the scheme does not change the route", () => {
    const r = router(a);
    for (const scheme of ["http", "https"]) {
      expectRoute(
        r.route({ host: "a.example.com", path: "/x", scheme }),
        viaPath(a, 0, 0, "precise", "a.example.com", "/x"),
      );
    }
  });

  it("TLS entries create no routes", () => {
    const tlsOnly = ingress("t", [rule("a.example.com", P("/", "svc-a"))], {
      tls: [{ hosts: ["secure.example.com"], secretName: "s" }],
    });
    expect(
      router(tlsOnly).route({ host: "secure.example.com", path: "/", sni: "secure.example.com", scheme: "https" }),
    ).toBeNull();
  });
});

// ------------------------------------------------------------------ R11

describe("R11: backends as written", () => {
  it("a named service port stays a name", () => {
    const ing = ingress("a", [rule(undefined, { path: "/", pathType: "Prefix", backend: svc("web", "http") })]);
    const route = go(router(ing), H, "/");
    expectRoute(route, viaPath(ing, 0, 0, "host-less", H, "/"));
    expect(route!.backend.service!.name).toBe("web");
    expect(route!.backend.service!.port!.name).toBe("http");
    expect(route!.backend.service!.port!.number).toBe(0);
  });

  it("resource backends in paths and defaultBackend", () => {
    const res = (name: string): J => ({ resource: { apiGroup: "k8s.example.com", kind: "StorageBucket", name } });
    const ing = ingress("a", [rule(undefined, { path: "/static", pathType: "Prefix", backend: res("assets") })], {
      defaultBackend: res("fallback"),
    });
    const r = router(ing);
    const hit = go(r, H, "/static/x.png");
    expectRoute(hit, viaPath(ing, 0, 0, "host-less", H, "/static/x.png"));
    expect(hit!.backend.resource).toMatchObject({ apiGroup: "k8s.example.com", kind: "StorageBucket", name: "assets" });
    expect(hit!.backend.service).toBeUndefined();
    const miss = go(r, H, "/other");
    expectRoute(miss, viaDefault(ing, "tier-default", "host-less", H, "/other"));
    expect(miss!.backend.resource!.name).toBe("fallback");
  });
});

// ------------------------------------------------------------------ skipped inputs

describe("invalid Ingresses are skipped", () => {
  const good = ingress("good", [rule(undefined, P("/", "svc-good"))], { created: T2 });

  it("a bad pathType", () => {
    const bad = ingress("bad", [rule(undefined, { path: "/", pathType: "Regex", backend: svc("svc-bad") })], {
      created: T0,
    });
    const errors = validate(bad);
    expect(errors.map((e) => [e.type, e.field])).toEqual([
      ["FieldValueNotSupported", "spec.rules[0].http.paths[0].pathType"],
    ]);
    const r = router(bad, good);
    const skipped: SkippedObject[] = [{ kind: "Ingress", name: "default/bad", index: 0, errors }];
    expect(r.skipped).toEqual(skipped);
    expect(r.inScope).toEqual(["default/good"]);
    expect(r.outOfScope).toEqual([]);
    expectRoute(go(r, H, "/"), { ...viaPath(good, 0, 0, "host-less", H, "/"), skipped });
  });

  it("a Prefix path containing //, with a defaultBackend that is not used either", () => {
    const bad = ingress("bad", [rule(H, P("/a//b", "svc-bad"))], {
      created: T0,
      defaultBackend: svc("dflt-bad"),
      ns: "ns1",
    });
    const errors = validate(bad);
    expect(errors.length).toBeGreaterThan(0);
    const r = router(good, bad);
    const skipped: SkippedObject[] = [{ kind: "Ingress", name: "ns1/bad", index: 1, errors }];
    expect(r.skipped).toEqual(skipped);
    expect(r.inScope).toEqual(["default/good"]);
    expectRoute(go(r, H, "/a//b"), { ...viaPath(good, 0, 0, "host-less", H, "/a//b"), skipped });
    expect(go(router(bad), H, "/a//b")).toBeNull();
    // Nothing serves it, and the answer still says what was left out.
    expect(router(bad).resolve({ host: H, path: "/a//b" })).toEqual({ route: null, skipped: router(bad).skipped });
    expect(
      router(bad)
        .resolve({ host: H, path: "/a//b" })
        .skipped.map((x) => x.name),
    ).toEqual(["ns1/bad"]);
  });

  it("skipped even when no class list is given and when out of scope would apply", () => {
    const bad = ingress("bad", [rule(undefined, E("relative", "svc"))], { className: "ours" });
    const r = createRouter({ ingresses: [bad], ingressClasses: [ingressClass("ours", CTRL)], controller: CTRL });
    expect(r.skipped.map((s) => [s.kind, s.name, s.index])).toEqual([["Ingress", "default/bad", 0]]);
    expect(r.skipped[0]!.errors).toEqual(validate(bad));
    expect(r.inScope).toEqual([]);
    expect(r.outOfScope).toEqual([]);
  });

  it("a duplicate namespace/name: the later one is skipped", () => {
    const first = ingress("dup", [rule(undefined, P("/", "svc-first"))], { created: T2 });
    const second = ingress("dup", [rule(undefined, P("/", "svc-second"))], { created: T0 });
    const r = router(first, second);
    expect(r.inScope).toEqual(["default/dup"]);
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]).toMatchObject({ kind: "Ingress", name: "default/dup", index: 1 });
    expect(r.skipped[0]!.errors.map((e) => e.type)).toEqual(["FieldValueDuplicate"]);
    expectRoute(go(r, H, "/"), { ...viaPath(first, 0, 0, "host-less", H, "/"), skipped: r.skipped });
  });
});

describe("every answer carries the skipped inputs", () => {
  const good = ingress("good", [rule(H, P("/", "svc-good"))], { created: T2, className: "ours" });
  // Taken, it would win /api (longer path, older) and be the global default.
  const bad = ingress("bad", [rule(H, P("/api", "svc-bad"), E("relative", "x"))], {
    created: T0,
    className: "ours",
    defaultBackend: svc("dflt-bad"),
  });
  const badClass = ingressClass("Bad_Name", CTRL);
  const r = createRouter({
    ingresses: [good, bad],
    ingressClasses: [ingressClass("ours", CTRL), badClass, ingressClass("ours", OTHER)],
    controller: CTRL,
  });

  it("IngressClasses first, then Ingresses, each in input order", () => {
    expect(r.skipped.map((s) => [s.kind, s.name, s.index, s.errors.map((e) => e.type)])).toEqual([
      ["IngressClass", "Bad_Name", 1, validate(badClass).map((e) => e.type)],
      ["IngressClass", "ours", 2, ["FieldValueDuplicate"]],
      ["Ingress", "default/bad", 1, validate(bad).map((e) => e.type)],
    ]);
  });

  it("every route carries the list, the router's own", () => {
    const route = go(r, H, "/api/x");
    expectRoute(route, { ...viaPath(good, 0, 0, "precise", H, "/api/x"), skipped: r.skipped });
    expect(route?.skipped).toBe(r.skipped);
  });

  it("resolve() gives the route or null, with the list either way", () => {
    expect(r.resolve({ host: H, path: "/" })).toEqual({ route: go(r, H, "/"), skipped: r.skipped });
    const miss = r.resolve({ host: "elsewhere.example", path: "/" });
    expect(miss.route).toBeNull();
    expect(miss.skipped).toHaveLength(3);
    expect(router(good).resolve({ host: "elsewhere.example", path: "/" })).toEqual({ route: null, skipped: [] });
  });

  it("resolve() checks the request as route() does", () => {
    expect(() => r.resolve({ host: 1 as unknown as string, path: "/" })).toThrow(EvaluatorInputError);
  });
});

// ------------------------------------------------------------------ §1.1.3

describe("§1.1.3 consequences worth testing", () => {
  const one = (...paths: J[]): Ingress => ingress("a", [rule(undefined, ...paths)]);

  it("Prefix /foo/bar, request /foo/barbaz: no match", () => {
    expect(go(router(one(P("/foo/bar", "s"))), H, "/foo/barbaz")).toBeNull();
  });

  it("Prefix /foo/, request /foo: match", () => {
    const ing = one(P("/foo/", "s"));
    expectRoute(go(router(ing), H, "/foo"), viaPath(ing, 0, 0, "host-less", H, "/foo"));
  });

  it("Exact /foo, request /foo/: no match", () => {
    expect(go(router(one(E("/foo", "s"))), H, "/foo/")).toBeNull();
  });

  it("Prefix /foo and Exact /foo, request /foo: Exact", () => {
    const ing = one(P("/foo", "prefix"), E("/foo", "exact"));
    expectRoute(go(router(ing), H, "/foo"), viaPath(ing, 0, 1, "host-less", H, "/foo"));
  });

  it("Exact /foo/bar and Prefix /foo/bar/, request /foo/bar: the Prefix", () => {
    const ing = one(E("/foo/bar", "exact"), P("/foo/bar/", "prefix"));
    expectRoute(go(router(ing), H, "/foo/bar"), viaPath(ing, 0, 1, "host-less", H, "/foo/bar"));
  });

  it("request /foo?x=1#y is matched as /foo", () => {
    const ing = one(E("/foo", "s"));
    expectRoute(go(router(ing), H, "/foo?x=1#y"), viaPath(ing, 0, 0, "host-less", H, "/foo"));
  });

  it("Host Foo.Example.COM:8080 is normalised to foo.example.com", () => {
    const ing = ingress("a", [rule(H, P("/", "s"))]);
    expectRoute(go(router(ing), "Foo.Example.COM:8080", "/"), viaPath(ing, 0, 0, "precise", H, "/"));
  });

  it("a Host that is an IP literal only reaches host-less rules", () => {
    const hosted = ingress("a", [rule(H, P("/", "s")), rule("*.example.com", P("/", "w"))]);
    const hostless = ingress("b", [rule(undefined, E("/only", "h"))]);
    const r = router(hosted, hostless);
    expectRoute(go(r, "10.1.2.3", "/only"), viaPath(hostless, 0, 0, "host-less", "10.1.2.3", "/only"));
    expectRoute(go(r, "[fe80::1]:80", "/only"), viaPath(hostless, 0, 0, "host-less", "fe80::1", "/only"));
    expect(go(router(hosted), "10.1.2.3", "/")).toBeNull();
  });

  it("a precise rule whose paths miss: R9 fallback, host-less and wildcard not consulted", () => {
    const precise = ingress("p", [rule(H, E("/x", "p"))], { created: T2, defaultBackend: svc("dflt-p") });
    const wild = ingress("w", [rule("*.example.com", P("/", "w"))], { created: T0 });
    const hostless = ingress("h", [rule(undefined, P("/", "h"))], { created: T0 });
    expectRoute(go(router(precise, wild, hostless), H, "/y"), viaDefault(precise, "tier-default", "precise", H, "/y"));
  });

  it("the same host and path in two Ingresses: the older wins, then the smaller namespace/name", () => {
    const newer = ingress("a", [rule(H, P("/p", "newer"))], { created: T1 });
    const older = ingress("b", [rule(H, P("/p", "older"))], { created: T0 });
    expectRoute(go(router(newer, older), H, "/p"), viaPath(older, 0, 0, "precise", H, "/p"));
    const sameAgeB = ingress("b", [rule(H, P("/p", "b"))], { created: T0 });
    const sameAgeA = ingress("a", [rule(H, P("/p", "a"))], { created: T0 });
    expectRoute(go(router(sameAgeB, sameAgeA), H, "/p"), viaPath(sameAgeA, 0, 0, "precise", H, "/p"));
  });

  it("SNI a.example.com with Host b.example.com is routed as b.example.com", () => {
    const ing = ingress("a", [rule("a.example.com", P("/", "a")), rule("b.example.com", P("/", "b"))]);
    expectRoute(
      router(ing).route({ host: "b.example.com", path: "/", sni: "a.example.com", scheme: "https" }),
      viaPath(ing, 1, 0, "precise", "b.example.com", "/"),
    );
  });
});

// ------------------------------------------------------------------ §2.1.2

describe("§2.1.2 path-matching examples", () => {
  const one = (...paths: J[]): Ingress => ingress("a", [rule(undefined, ...paths)]);
  const hits = (ing: Ingress, path: number, requests: string[]): void => {
    for (const p of requests) expectRoute(go(router(ing), H, p), viaPath(ing, 0, path, "host-less", H, p));
  };
  const misses = (ing: Ingress, requests: string[]): void => {
    for (const p of requests) expect(go(router(ing), H, p), p).toBeNull();
  };

  it("Prefix / matches anything", () => hits(one(P("/", "s")), 0, ["/", "/foo", "/foo/bar/", "/FOO"]));

  it("Exact /foo: /foo matches, /bar and /foo/ do not", () => {
    hits(one(E("/foo", "s")), 0, ["/foo"]);
    misses(one(E("/foo", "s")), ["/bar", "/foo/"]);
  });

  it("Exact /foo/ does not match /foo", () => misses(one(E("/foo/", "s")), ["/foo"]));

  it("Prefix /foo or /foo/ match /foo and /foo/", () => {
    hits(one(P("/foo", "s")), 0, ["/foo", "/foo/"]);
    hits(one(P("/foo/", "s")), 0, ["/foo", "/foo/"]);
  });

  it("Prefix /aaa/bb does not match /aaa/bbb", () => misses(one(P("/aaa/bb", "s")), ["/aaa/bbb"]));

  it("Prefix /aaa/bbb matches /aaa/bbb, /aaa/bbb/, /aaa/bbb/ccc", () => {
    hits(one(P("/aaa/bbb", "s")), 0, ["/aaa/bbb", "/aaa/bbb/", "/aaa/bbb/ccc"]);
  });

  it("Prefix /aaa/bbb does not match /aaa/bbbxyz", () => misses(one(P("/aaa/bbb", "s")), ["/aaa/bbbxyz"]));

  it("Prefix /, /aaa, /aaa/bbb: the longest matching prefix", () => {
    const ing = one(P("/", "root"), P("/aaa", "aaa"), P("/aaa/bbb", "bbb"));
    const r = router(ing);
    expectRoute(go(r, H, "/aaa/bbb"), viaPath(ing, 0, 2, "host-less", H, "/aaa/bbb"));
    expectRoute(go(r, H, "/aaa/ccc"), viaPath(ing, 0, 1, "host-less", H, "/aaa/ccc"));
    expectRoute(go(r, H, "/ccc"), viaPath(ing, 0, 0, "host-less", H, "/ccc"));
  });

  it("Prefix /aaa only, request /ccc: no match, the default backend", () => {
    const ing = ingress("a", [rule(undefined, P("/aaa", "s"))], { defaultBackend: svc("dflt") });
    expectRoute(go(router(ing), H, "/ccc"), viaDefault(ing, "tier-default", "host-less", H, "/ccc"));
    misses(one(P("/aaa", "s")), ["/ccc"]);
  });

  it("Prefix /foo + Exact /foo, request /foo: Exact wins", () => {
    const ing = one(E("/foo", "exact"), P("/foo", "prefix"));
    hits(ing, 0, ["/foo"]);
  });

  it("case: /FOO never matches rule /foo", () => {
    misses(one(P("/foo", "s"), E("/foo", "e"), IS("/foo", "i")), ["/FOO", "/Foo/x"]);
  });
});
