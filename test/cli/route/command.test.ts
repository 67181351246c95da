import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseUrl } from "../../../src/cli/route/command.js";
import { cli, expectNoStack } from "../../support/cli/harness.js";

// clusterwire route, run in-process. Expected backends are worked out from
// ../shared/docs/semantics.md §1.1 for the inputs written here and in examples/.

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-route-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SHOP = ["examples/ingress-shop.yaml", "examples/ingressclass-public.yaml"];
const NGINX = ["--controller", "k8s.io/ingress-nginx"];
const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

function file(name: string, content: string): string {
  const d = mkdtempSync(join(tmp, "case-"));
  const path = join(d, name);
  writeFileSync(path, content);
  return path;
}

const CLASS = (name: string, controller: string) =>
  `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: ${name}\nspec:\n  controller: ${controller}\n`;

/** An Ingress with one rule; `meta` and `spec` lines are indented by the caller. */
const INGRESS = (ns: string, name: string, meta: string, spec: string) =>
  `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n${meta}spec:\n${spec}`;

const RULE = (host: string, path: string, pathType: string, service: string, port: string) =>
  `  rules:\n  - ${host === "" ? "" : `host: ${host}\n    `}http:\n      paths:\n      - path: ${path}\n        pathType: ${pathType}\n        backend:\n          service:\n            name: ${service}\n            port: {${port}}\n`;

// Two classes of two controllers; web-new and web-old serve the same host and
// path, web-old being older (R7.3); intra belongs to the other controller;
// bad has a relative path; legacy is classed by annotation and host-less.
const MIXED = [
  CLASS("public", "example.com/edge"),
  CLASS("internal", "example.com/intranet"),
  INGRESS(
    "a",
    "web-new",
    '  creationTimestamp: "2026-01-01T00:00:00Z"\n',
    "  ingressClassName: public\n" + RULE("web.example.com", "/app", "Prefix", "app", "number: 8080"),
  ),
  INGRESS(
    "b",
    "web-old",
    '  creationTimestamp: "2025-01-01T00:00:00Z"\n',
    "  ingressClassName: public\n" + RULE("web.example.com", "/app", "Prefix", "app-old", "number: 80"),
  ),
  INGRESS(
    "c",
    "intra",
    "",
    "  ingressClassName: internal\n" + RULE("web.example.com", "/", "Prefix", "intra", "number: 80"),
  ),
  INGRESS(
    "d",
    "bad",
    "",
    "  ingressClassName: public\n" + RULE("web.example.com", "app", "Prefix", "bad", "number: 80"),
  ),
  INGRESS(
    "e",
    "legacy",
    "  annotations:\n    kubernetes.io/ingress.class: public\n",
    RULE("", "/status", "Exact", "status", "name: http"),
  ),
  "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: np\nspec:\n  podSelector: {}\n",
].join("---\n");

describe("route: answers", () => {
  it("prints the backend, the Ingress, the path as written, the tier and why", async () => {
    const r = await cli([
      "route",
      ...NGINX,
      "--host",
      "api.shop.example.com",
      "--path",
      "/v1/cart/items?id=7",
      ...SHOP,
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      "api.shop.example.com /v1/cart/items?id=7 -> service cart:9000",
      "  ingress  shop/storefront",
      "  from     spec.rules[1].http.paths[1]: Prefix /v1/cart",
      "  host     api.shop.example.com (precise tier)",
      "  path     /v1/cart/items",
      "  via      path: the best matching path of the selected tier (R7: longest as written, Exact first, then oldest Ingress)",
    ]);
  });

  it("names the tier default and the global default, and says SNI changes nothing", async () => {
    const r = await cli([
      "route",
      ...NGINX,
      "--url",
      "https://API.Shop.Example.com:443/healthz/",
      "--url",
      "http://deep.tenant.shop.example.com",
      "--url",
      "https://tenant-a.shop.example.com/v1/images/x",
      "--sni",
      "api.shop.example.com",
      ...SHOP,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n\n").map(lines)).toEqual([
      [
        // Exact /healthz does not match /healthz/, and nothing else of the precise tier does (R9.1).
        "https://API.Shop.Example.com:443/healthz/ -> service not-found:8080",
        "  ingress  shop/storefront",
        "  from     spec.defaultBackend",
        "  host     api.shop.example.com (precise tier)",
        "  path     /healthz/",
        "  sni      api.shop.example.com (selects a certificate only; routing follows the Host header, R10)",
        "  via      tier-default: no path of the precise tier matched; the defaultBackend of the oldest Ingress with rules in that tier (R9.1)",
      ],
      [
        // *.shop.example.com covers one label only (R4), and there are no host-less rules (R9.2).
        "http://deep.tenant.shop.example.com -> service not-found:8080",
        "  ingress  shop/storefront",
        "  from     spec.defaultBackend",
        "  host     deep.tenant.shop.example.com (no rule matches this host, and there are no host-less rules)",
        "  path     /",
        "  sni      api.shop.example.com (selects a certificate only; routing follows the Host header, R10)",
        "  via      default: no host tier was selected; the defaultBackend of the oldest in-scope Ingress that sets one (R9.2)",
      ],
      [
        // The wildcard tier wins over the API host's /v1/images, which SNI names.
        "https://tenant-a.shop.example.com/v1/images/x -> service storefront-web:http",
        "  ingress  shop/storefront",
        "  from     spec.rules[0].http.paths[0]: Prefix /",
        "  host     tenant-a.shop.example.com (wildcard tier)",
        "  path     /v1/images/x",
        "  sni      api.shop.example.com (selects a certificate only; routing follows the Host header, R10)",
        "  via      path: the best matching path of the selected tier (R7: longest as written, Exact first, then oldest Ingress)",
      ],
    ]);
  });

  it("prints a resource backend as apiGroup/Kind name", async () => {
    const r = await cli(["route", ...NGINX, "--host", "api.shop.example.com", "--path", "/v1/images/cat.png", ...SHOP]);
    expect(lines(r.stdout).slice(0, 3)).toEqual([
      "api.shop.example.com /v1/images/cat.png -> resource k8s.example.com/StorageBucket product-images",
      "  ingress  shop/storefront",
      "  from     spec.rules[1].http.paths[3]: ImplementationSpecific /v1/images",
    ]);
  });

  it("scopes by class, prefers the older Ingress, and exits 1 when nothing serves a request", async () => {
    const path = file("mixed.yaml", MIXED);
    const r = await cli([
      "route",
      "--controller",
      "example.com/edge",
      "--url",
      "http://web.example.com/app/x",
      "--url",
      "http://web.example.com/other",
      "--url",
      "http://10.0.0.1:8080/status",
      path,
    ]);
    expect(r.code).toBe(1);
    const [older, missing, hostless, leftOut, ...more] = r.stdout.split("\n\n").map(lines);
    expect(more).toEqual([]);
    // Same path and length: the older creationTimestamp wins (R7.3); c/intra is another controller's.
    expect(older?.slice(0, 3)).toEqual([
      "http://web.example.com/app/x -> service app-old:80",
      "  ingress  b/web-old",
      "  from     spec.rules[0].http.paths[0]: Prefix /app",
    ]);
    // The precise tier is selected but misses, and no in-scope Ingress has a defaultBackend (R9.3).
    expect(missing).toEqual([
      "http://web.example.com/other -> no backend (the controller answers itself, usually 404)",
      "  host     web.example.com",
      "  path     /other",
      "  why      no path matched and no in-scope Ingress sets a defaultBackend (R9.3)",
    ]);
    // An IP literal reaches host-less rules only (R3); the annotation puts legacy in scope (R2.2).
    expect(hostless?.slice(0, 4)).toEqual([
      "http://10.0.0.1:8080/status -> service status:http",
      "  ingress  e/legacy",
      "  from     spec.rules[0].http.paths[0]: Exact /status",
      "  host     10.0.0.1 (host-less tier)",
    ]);
    // Every answer was given without d/bad, and the output says so after them.
    expect(leftOut).toEqual([
      `left out: Ingress d/bad (${path} (document 6)): the API server would reject it (1 error)`,
    ]);
    expect(lines(r.stderr)).toEqual([
      "clusterwire: ignored 1 NetworkPolicy object: route reads Ingress and IngressClass",
      `clusterwire: skipped Ingress d/bad (${path} (document 6)): spec.rules[0].http.paths[0].path: Invalid value: "app": must be an absolute path`,
      `clusterwire: out of scope: Ingress c/intra (${path} (document 5)): ingressClassName "internal" belongs to controller "example.com/intranet"`,
    ]);
    const quiet = await cli([
      "route",
      "-q",
      "--controller",
      "example.com/edge",
      "--host",
      "web.example.com",
      "--path",
      "/app",
      path,
    ]);
    expect(quiet).toMatchObject({ code: 0, stderr: "" });
    // -q silences the notes, not the answer's own account of what it was given without.
    expect(lines(quiet.stdout).at(-1)).toBe(
      `left out: Ingress d/bad (${path} (document 6)): the API server would reject it (1 error)`,
    );
  });

  it("puts every Ingress in scope without IngressClasses, and says so when given a controller", async () => {
    const path = file(
      "ing.yaml",
      INGRESS(
        "x",
        "only",
        "",
        "  ingressClassName: nowhere\n" + RULE("a.example.com", "/", "Prefix", "a", "number: 1"),
      ),
    );
    const r = await cli(["route", "--controller", "example.com/edge", "--host", "a.example.com", path]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toBe("a.example.com / -> service a:1");
    expect(r.stderr).toBe(
      "clusterwire: no IngressClass in the inputs: class filtering is skipped and every Ingress is in scope (R2)\n",
    );
    expect((await cli(["route", "--host", "a.example.com", path])).stderr).toBe("");
  });

  it("reads standard input and Lists", async () => {
    const list = JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressList",
      metadata: {},
      items: [
        {
          metadata: { name: "l", namespace: "n" },
          spec: { defaultBackend: { service: { name: "fallback", port: { number: 80 } } } },
        },
      ],
    });
    const r = await cli(["route", "--host", "anything", "-"], { stdin: list });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).slice(0, 3)).toEqual([
      "anything / -> service fallback:80",
      "  ingress  n/l",
      "  from     spec.defaultBackend",
    ]);
  });

  it("walks directories, skipping duplicates, invalid objects, watch streams, other kinds and non-manifest files", async () => {
    const r = await cli(["route", ...NGINX, "--host", "promo.shop.example.com", "examples"]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).slice(0, 2)).toEqual([
      "promo.shop.example.com / -> service promo:80",
      "  ingress  shop/promo",
    ]);
    // The answer ends with a line per object left out, as many as the notes on stderr name.
    const leftOut = lines(r.stdout.split("\n\n").at(-1) ?? "");
    expect(leftOut).toContain(
      "left out: IngressClass Public_Edge (examples/invalid/ingressclass-bad.yaml): the API server would reject it (3 errors)",
    );
    expect(leftOut).toContain(
      "left out: Ingress shop/storefront (examples/ingress.pb): an earlier Ingress has the same namespace/name",
    );
    expect(leftOut).toContain(
      "left out: Ingress shop/promo (examples/invalid/ingress-bad-routes.yaml): the API server would reject it (4 errors)",
    );
    expect(leftOut.every((l) => l.startsWith("left out: "))).toBe(true);
    expect(leftOut).toHaveLength(
      lines(r.stderr).filter((l) => /^clusterwire: skipped Ingress(Class)? /.test(l)).length,
    );
    const err = lines(r.stderr);
    // Files that are not manifests and documents of other kinds get validate's own skip lines.
    expect(err).toContain("clusterwire: examples/clusters/shop.yaml: skipped: no kind: not a Kubernetes manifest");
    expect(err).toContain("clusterwire: examples/storage/inventory.yaml: skipped: no kind: not a Kubernetes manifest");
    expect(err).toContain(
      "clusterwire: examples/shop-deploy.yaml:10 Deployment shop/checkout: skipped: apps/v1 Deployment is not a networking.k8s.io/v1 kind",
    );
    expect(err).toContain("clusterwire: ignored 6 watch events: a watch stream is a history, not a set of objects");
    expect(err).toContain(
      'clusterwire: skipped Ingress shop/storefront (examples/ingress.pb): metadata.name: Duplicate value: "storefront"',
    );
    expect(err).toContain(
      'clusterwire: skipped Ingress shop/promo (examples/ingress-lifecycle.yaml (document 2)): metadata.name: Duplicate value: "promo"',
    );
    // Several errors: a heading, then the API server's lines, indented and unprefixed.
    const at = err.indexOf(
      "clusterwire: skipped IngressClass Public_Edge (examples/invalid/ingressclass-bad.yaml): 3 errors",
    );
    expect(at).toBeGreaterThan(-1);
    expect(err[at + 2]).toBe(
      '  spec.controller: Invalid value: "ingress-nginx": must be a domain-prefixed path (such as "acme.io/foo")',
    );
  });
});

describe("route: --output json", () => {
  it("prints routes with their request, plus skipped and out-of-scope inputs", async () => {
    const path = file("mixed.yaml", MIXED);
    const r = await cli([
      "route",
      "-o",
      "json",
      "--controller",
      "example.com/edge",
      "--url",
      "https://web.example.com/app?q",
      path,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      routes: [
        {
          request: { host: "web.example.com", path: "/app?q", scheme: "https", sni: null },
          route: {
            backend: { service: { name: "app-old", port: { name: null, number: 80 } }, resource: null },
            backendText: "service app-old:80",
            ingress: "b/web-old",
            rule: 0,
            path: 0,
            field: "spec.rules[0].http.paths[0]",
            pathType: "Prefix",
            rulePath: "/app",
            via: "path",
            tier: "precise",
            host: "web.example.com",
            requestPath: "/app",
          },
        },
      ],
      skipped: [
        {
          kind: "Ingress",
          name: "d/bad",
          source: `${path} (document 6)`,
          errors: ['spec.rules[0].http.paths[0].path: Invalid value: "app": must be an absolute path'],
        },
      ],
      outOfScope: [
        {
          ingress: "c/intra",
          reason: 'ingressClassName "internal" belongs to controller "example.com/intranet"',
          source: `${path} (document 5)`,
        },
      ],
    });
  });

  it("gives every request, route and backend the same keys, null where they do not apply", async () => {
    const resource =
      "  defaultBackend:\n    resource:\n      kind: StorageBucket\n      name: images\n" +
      RULE("web.example.com", "/named", "Exact", "named", "name: http") +
      "  - host: web.example.com\n    http:\n      paths:\n      - path: /grouped\n        pathType: Prefix\n        backend:\n          resource:\n            apiGroup: k8s.example.com\n            kind: StorageBucket\n            name: media\n";
    const path = file(
      "shapes.yaml",
      [CLASS("public", "example.com/edge"), INGRESS("a", "web", "", "  ingressClassName: public\n" + resource)].join(
        "---\n",
      ),
    );
    const r = await cli([
      "route",
      "-o",
      "json",
      "-q",
      "--controller",
      "example.com/edge",
      "--url",
      "https://web.example.com/named",
      "--url",
      "http://web.example.com/grouped/x",
      "--url",
      "http://other.example.com/",
      "--url",
      "http://web.example.com/none",
      "--sni",
      "web.example.com",
      path,
    ]);
    const { routes } = JSON.parse(r.stdout) as {
      routes: { request: Record<string, unknown>; route: Record<string, unknown> | null }[];
    };
    expect(routes.map((x) => (x.route?.["backend"] as Record<string, unknown> | undefined) ?? null)).toEqual([
      { service: { name: "named", port: { name: "http", number: null } }, resource: null },
      { service: null, resource: { apiGroup: "k8s.example.com", kind: "StorageBucket", name: "media" } },
      { service: null, resource: { apiGroup: null, kind: "StorageBucket", name: "images" } },
      { service: null, resource: { apiGroup: null, kind: "StorageBucket", name: "images" } },
    ]);
    const keys = (o: unknown): string => JSON.stringify(Object.keys(o as object));
    for (const { request, route } of routes) {
      expect(keys(request)).toBe(keys(routes[0]?.request));
      expect(keys(route)).toBe(keys(routes[0]?.route));
      expect(keys(route?.["backend"])).toBe(keys(routes[0]?.route?.["backend"]));
    }
  });

  it("gives null for a request nothing serves, and a defaultBackend route null indexes", async () => {
    const path = file("mixed.yaml", MIXED);
    const r = await cli([
      "route",
      "-o",
      "json",
      "-q",
      "--controller",
      "example.com/edge",
      "--host",
      "web.example.com",
      "--path",
      "/nope",
      path,
    ]);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { routes: unknown[] }).routes).toEqual([
      { request: { host: "web.example.com", path: "/nope", scheme: null, sni: null }, route: null },
    ]);
    const d = await cli([
      "route",
      "-o",
      "json",
      ...NGINX,
      "--host",
      "api.shop.example.com",
      "--path",
      "/healthz/",
      "--sni",
      "s",
      ...SHOP,
    ]);
    const [entry] = (JSON.parse(d.stdout) as { routes: { request: unknown; route: Record<string, unknown> }[] }).routes;
    expect(entry?.request).toEqual({ host: "api.shop.example.com", path: "/healthz/", scheme: null, sni: "s" });
    expect(entry?.route).toMatchObject({
      rule: null,
      path: null,
      field: "spec.defaultBackend",
      pathType: null,
      rulePath: null,
      via: "tier-default",
      backendText: "service not-found:8080",
    });
  });
});

describe("route: usage errors exit 2", () => {
  it.each([
    [["route", ...SHOP], /give the request: --host HOST \[--path PATH\], or --url URL/],
    [["route", "--path", "/x", ...SHOP], /--path needs --host/],
    [["route", "--host", "a", "--url", "http://a/", ...SHOP], /give either --host\/--path or --url, not both/],
    [
      ["route", "--url", "a.example.com/x", ...SHOP],
      /--url must look like https:\/\/host\/path, got "a\.example\.com\/x"/,
    ],
    [["route", "--host", "a", "-o", "yaml", ...SHOP], /--output must be text or json, got "yaml"/],
    [["route", "--host", "a", ...NGINX, "examples/netpol-default-deny.yaml"], /no Ingress in the inputs/],
    [
      ["route", "--host", "a", "examples/no-such.yaml"],
      /examples\/no-such\.yaml: cannot read: no such file or directory/,
    ],
  ])("%j", async (argv, message) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
    expectNoStack(r);
  });

  it("requires --controller when there are IngressClasses, naming the controllers seen", async () => {
    const path = file("mixed.yaml", MIXED);
    const r = await cli(["route", "--host", "a", path]);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      "clusterwire: the inputs hold IngressClasses, so name the controller to evaluate with --controller (controllers seen: example.com/edge, example.com/intranet)",
      "Run 'clusterwire route --help' for usage.",
    ]);
  });

  it("reports an undecodable input with its location and routes nothing", async () => {
    const typo = file("typo.yaml", INGRESS("a", "b", "", "  defaultBackend:\n    servic: {}\n"));
    const r = await cli(["route", "--host", "a", ...SHOP, typo]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `clusterwire: ${typo}:8:13 Ingress a/b: error: strict decoding error: unknown field "spec.defaultBackend.servic"\n`,
    );
  });

  it("prints its help", async () => {
    const r = await cli(["route", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: clusterwire route --host HOST/);
    expect((await cli(["help", "route"])).stdout).toBe(r.stdout);
    expect((await cli(["--help"])).stdout).toContain(
      "  route     route HTTP requests through Ingresses: the backend chosen, and why\n",
    );
  });
});

describe("route: --url", () => {
  it("splits a URL as a client sends it, without normalising the path", () => {
    expect(parseUrl("https://user@Shop.example.com:8443/a/./b%2F?x#y")).toEqual({
      host: "Shop.example.com:8443",
      path: "/a/./b%2F?x#y",
      scheme: "https",
    });
    expect(parseUrl("http://[2001:db8::1]:80")).toEqual({ host: "[2001:db8::1]:80", path: "/", scheme: "http" });
    expect(parseUrl("HTTP://a?x")).toEqual({ host: "a", path: "/?x", scheme: "http" });
  });
});
