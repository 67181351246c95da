// The router over loaded manifests, and the words for its answers, as route and the demo's routes
// section print them.
import { describe, expect, it } from "vitest";
import { CliError, EXIT_USAGE } from "../../../src/cli/shared/io.js";
import type { LoadedObjects } from "../../../src/cli/shared/manifests.js";
import {
  backendJson,
  describeBackend,
  describeRulePath,
  routeSource,
  routeSummary,
  routerSetup,
} from "../../../src/cli/shared/routing.js";
import { IngressBackendSchema, create, fromYaml, type IngressBackend } from "../../../src/networking/index.js";

const INPUTS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: shop}
spec:
  ingressClassName: nginx
  defaultBackend: {resource: {apiGroup: k8s.example.com, kind: StorageBucket, name: images}}
  rules:
    - host: a.example.com
      http:
        paths:
          - {path: /v1, pathType: Prefix, backend: {service: {name: api, port: {number: 8080}}}}
          - {pathType: ImplementationSpecific, backend: {service: {name: web, port: {name: http}}}}
    - host: "*.example.com"
      http:
        paths:
          - {path: /x, pathType: Exact, backend: {service: {name: wild, port: {number: 80}}}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: other, namespace: shop}
spec:
  ingressClassName: other
  defaultBackend: {service: {name: o, port: {number: 80}}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: bad}
spec:
  defaultBackend: {service: {name: o, port: {number: 0}}}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: other}
spec: {controller: example.com/other}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: p, namespace: shop}
spec: {podSelector: {}}
`;

const objects = fromYaml(INPUTS).map((object, i) => ({ object, source: `in.yaml (document ${i + 1})` }));
const loaded = (n = objects.length, watchEvents: string[] = []): LoadedObjects => ({
  objects: objects.slice(0, n),
  watchEvents,
});

function usage(f: () => unknown): CliError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return e as CliError;
  }
  throw new Error("did not throw");
}

describe("routerSetup", () => {
  const setup = routerSetup(loaded(objects.length, ["w.jsonl (event 1)"]), "k8s.io/ingress-nginx");

  it("notes what it ignores, skips and leaves out of scope, each with its source", () => {
    expect(setup.notes).toEqual([
      "ignored 1 NetworkPolicy object: route reads Ingress and IngressClass",
      "ignored 1 watch event: a watch stream is a history, not a set of objects",
      "skipped Ingress default/bad (in.yaml (document 3)): spec.defaultBackend: Required value: port name or number is required",
      'out of scope: Ingress shop/other (in.yaml (document 2)): ingressClassName "other" belongs to controller "example.com/other"',
    ]);
    expect(setup.skippedSources).toEqual(["in.yaml (document 3)"]);
    expect(setup.controller).toBe("k8s.io/ingress-nginx");
    expect([...setup.ingresses].map(([key, v]) => [key, v.source])).toEqual([
      ["shop/web", "in.yaml (document 1)"],
      ["shop/other", "in.yaml (document 2)"],
    ]);
  });

  it("counts what it ignores in the plural", () => {
    const more = fromYaml(`${INPUTS}---\n${INPUTS.slice(INPUTS.lastIndexOf("apiVersion"))}`);
    const s = routerSetup(
      { objects: more.map((object) => ({ object, source: "x" })), watchEvents: ["a", "b"] },
      "k8s.io/ingress-nginx",
    );
    expect(s.notes.slice(0, 2)).toEqual([
      "ignored 2 NetworkPolicy objects: route reads Ingress and IngressClass",
      "ignored 2 watch events: a watch stream is a history, not a set of objects",
    ]);
  });

  it("needs an Ingress, and --controller when there are IngressClasses, naming the controllers seen", () => {
    expect(usage(() => routerSetup(loaded(0), undefined, "demo"))).toMatchObject({
      message: "no Ingress in the inputs",
      exitCode: EXIT_USAGE,
      help: "clusterwire demo --help",
    });
    expect(usage(() => routerSetup({ objects: objects.slice(3), watchEvents: [] }, undefined)).message).toBe(
      "no Ingress in the inputs",
    );
    expect(usage(() => routerSetup(loaded(), undefined))).toMatchObject({
      message:
        "the inputs hold IngressClasses, so name the controller to evaluate with --controller (controllers seen: example.com/other, k8s.io/ingress-nginx)",
      help: "clusterwire route --help",
    });
  });

  it("without IngressClasses, a --controller is noted as unused, and every Ingress is in scope", () => {
    const s = routerSetup(loaded(2), "k8s.io/ingress-nginx");
    expect(s.notes).toEqual([
      "no IngressClass in the inputs: class filtering is skipped and every Ingress is in scope (R2)",
    ]);
    expect(s.router.inScope).toEqual(["shop/web", "shop/other"]);
    expect(routerSetup(loaded(2), undefined).notes).toEqual([]);
  });

  it("keys Ingresses as the router does: default namespace, and generateName for an unnamed one", () => {
    const gen = fromYaml(
      "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {generateName: gen-}\nspec:\n  defaultBackend: {service: {name: o, port: {number: 80}}}\n",
    );
    const plain = fromYaml(INPUTS.replace("namespace: shop}", "}"))[0];
    const s = routerSetup(
      {
        objects: [...gen, plain].map((object) => ({ object: object as never, source: "s" })),
        watchEvents: [],
      },
      undefined,
    );
    expect([...s.ingresses.keys()]).toEqual(["default/gen-", "default/web"]);
    expect(s.router.inScope).toEqual([...s.ingresses.keys()]);
  });

  it("routeSummary: one line per request, naming the backend, the entry that won, the host tier and why", () => {
    const line = (host: string, path: string) =>
      routeSummary(`${host} ${path}`, setup.router.route({ host, path }), setup);
    expect(line("a.example.com", "/v1/cart")).toBe(
      "a.example.com /v1/cart -> service api:8080 (shop/web spec.rules[0].http.paths[0] Prefix /v1; precise host; via path)",
    );
    expect(line("a.example.com", "/")).toBe(
      'a.example.com / -> service web:http (shop/web spec.rules[0].http.paths[1] ImplementationSpecific (no path, so "/"); precise host; via path)',
    );
    expect(line("b.example.com", "/x")).toBe(
      "b.example.com /x -> service wild:80 (shop/web spec.rules[1].http.paths[0] Exact /x; wildcard host; via path)",
    );
    expect(line("b.example.com", "/y")).toBe(
      "b.example.com /y -> resource k8s.example.com/StorageBucket images (shop/web spec.defaultBackend; wildcard host; via tier-default)",
    );
    expect(line("elsewhere", "/")).toBe(
      "elsewhere / -> resource k8s.example.com/StorageBucket images (shop/web spec.defaultBackend; no host tier; via default)",
    );
    const only = routerSetup(loaded(2), undefined);
    const none = routerSetup({ objects: objects.slice(1, 2), watchEvents: [] }, undefined);
    expect(routeSummary("x /", none.router.route({ host: "a.example.com", path: "/" }), none)).toBe(
      "x / -> service o:80 (shop/other spec.defaultBackend; no host tier; via default)",
    );
    expect(routeSummary("x /", null, only)).toBe("x / -> no backend");
  });
});

describe("routeSource and describeRulePath", () => {
  const setup = routerSetup(loaded(), "k8s.io/ingress-nginx");
  const sourceOf = (host: string, path: string) => {
    const route = setup.router.route({ host, path });
    if (route === null) throw new Error("no route");
    return routeSource(route, setup.ingresses.get(route.ingress)?.ingress);
  };

  it("is the winning path with its type and path as written, or the default backend", () => {
    expect(sourceOf("a.example.com", "/v1")).toEqual({
      field: "spec.rules[0].http.paths[0]",
      pathType: "Prefix",
      rulePath: "/v1",
    });
    expect(sourceOf("a.example.com", "/z")).toEqual({
      field: "spec.rules[0].http.paths[1]",
      pathType: "ImplementationSpecific",
      rulePath: "",
    });
    expect(sourceOf("q", "/")).toEqual({ field: "spec.defaultBackend", pathType: null, rulePath: null });
    const route = setup.router.route({ host: "a.example.com", path: "/v1" });
    if (route === null) throw new Error("no route");
    // Without the Ingress, the field is still known.
    expect(routeSource(route, undefined)).toEqual({
      field: "spec.rules[0].http.paths[0]",
      pathType: null,
      rulePath: null,
    });
  });

  it("words a path, an empty ImplementationSpecific one as what it means, and none as nothing", () => {
    expect(describeRulePath({ field: "f", pathType: "Exact", rulePath: "/a" })).toBe("Exact /a");
    expect(describeRulePath({ field: "f", pathType: "ImplementationSpecific", rulePath: "" })).toBe(
      'ImplementationSpecific (no path, so "/")',
    );
    expect(describeRulePath({ field: "f", pathType: "Prefix", rulePath: null })).toBe('Prefix (no path, so "/")');
    expect(describeRulePath({ field: "f", pathType: null, rulePath: "/a" })).toBe("");
  });
});

describe("describeBackend and backendJson", () => {
  const backend = (init: object): IngressBackend => create(IngressBackendSchema, init);

  it("a service with a port number, a port name, or no port", () => {
    const byNumber = backend({ service: { name: "api", port: { number: 8080 } } });
    expect(describeBackend(byNumber)).toBe("service api:8080");
    expect(backendJson(byNumber)).toEqual({
      service: { name: "api", port: { name: null, number: 8080 } },
      resource: null,
    });
    const byName = backend({ service: { name: "web", port: { name: "http" } } });
    expect(describeBackend(byName)).toBe("service web:http");
    expect(backendJson(byName)).toEqual({
      service: { name: "web", port: { name: "http", number: null } },
      resource: null,
    });
    const noPort = backend({ service: { name: "x" } });
    expect(describeBackend(noPort)).toBe("service x");
    expect(backendJson(noPort)).toEqual({ service: { name: "x", port: null }, resource: null });
    expect(describeBackend(backend({ service: { name: "x", port: {} } }))).toBe("service x");
  });

  it("a resource with or without an API group, and an empty backend", () => {
    const grouped = backend({ resource: { apiGroup: "k8s.example.com", kind: "Bucket", name: "b" } });
    expect(describeBackend(grouped)).toBe("resource k8s.example.com/Bucket b");
    expect(backendJson(grouped)).toEqual({
      service: null,
      resource: { apiGroup: "k8s.example.com", kind: "Bucket", name: "b" },
    });
    const core = backend({ resource: { kind: "Bucket", name: "b" } });
    expect(describeBackend(core)).toBe("resource Bucket b");
    expect(backendJson(core)).toEqual({ service: null, resource: { apiGroup: null, kind: "Bucket", name: "b" } });
    expect(describeBackend(backend({ resource: { apiGroup: "", kind: "K", name: "n" } }))).toBe("resource K n");
    expect(describeBackend(backend({}))).toBe("(empty backend)");
    expect(backendJson(backend({}))).toEqual({ service: null, resource: null });
  });
});
