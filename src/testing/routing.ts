// fast-check arbitraries for Ingress routing: Ingress and IngressClass sets
// and HTTP requests drawn from small vocabularies, so that hosts, wildcards and
// paths collide, prefix each other and tie on every precedence key (R7 of
// docs/ingress-routing.md), and requests hit every host tier. Every Ingress
// passes validate(); every backend gets its own name, so a wrong pick between
// equal-looking routes shows.

import fc from "fast-check";
import {
  INGRESS_CLASS_ANNOTATION,
  fromJson,
  type Ingress,
  type IngressClass,
  type JsonObject,
  type RouteRequest,
  type RouterInput,
} from "../networking/index.js";

/**
 * The controller the generated IngressClasses mostly name.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { ROUTING_CONTROLLER, arbRouterInput } from "clusterwire/testing";
 *
 * const input = fc.sample(arbRouterInput(), 1)[0];
 * console.log(input?.controller === undefined || input.controller === ROUTING_CONTROLLER); // true
 * ```
 */
export const ROUTING_CONTROLLER = "example.com/ingress-controller";
const OTHER = "example.org/other-controller";

// ------------------------------------------------------------------ vocabularies

const NAMESPACES = ["a", "a-b", "b"];
const NAMES = ["x", "y", "z"];
const RULE_HOSTS = [
  undefined,
  undefined,
  "foo.example.com",
  "bar.example.com",
  "*.example.com",
  "a.foo.example.com",
  "*.foo.example.com",
  "example.com",
];
/** Valid for every pathType; they prefix and extend each other. */
const PATHS = ["/", "/a", "/a/", "/a/b", "/a/b/", "/ab", "/a/bc", "/b"];
/** Only ImplementationSpecific may carry these; undefined leaves the path out. */
const IS_ONLY_PATHS = [undefined, "", "//", "/a//", "/a%2Fb", "/a/./b"];
/** With ties; "absent" leaves creationTimestamp out of the JSON. */
const TIMESTAMPS = ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "2024-06-01T12:00:00Z", "2025-01-01T00:00:00Z"];
/** "ours" twice: in-scope Ingresses should be the common case. */
const CLASS_NAMES = ["ours", "ours", "ours2", "theirs", "ghost"];

const REQUEST_HOSTS = [
  "foo.example.com",
  "foo.example.com",
  "bar.example.com",
  "bar.example.com",
  "a.foo.example.com",
  "a.foo.example.com",
  "b.foo.example.com",
  "x.y.foo.example.com",
  "example.com",
  "other.test",
  ".example.com",
  "",
  "10.0.0.1",
  "[2001:db8::1]",
  "[2001:DB8::1]:8443",
];
const REQUEST_BASES = [...PATHS, "", "/A", "/x", "/a%2Fb", "/a/./b", "//"];
const EXTENSIONS = ["", "", "/x", "x", "/", "//x"];
const SUFFIXES = ["", "", "?q=1", "#frag", "?a=/b#c", "#x?y"];

// ------------------------------------------------------------------ arbitraries

type J = Record<string, unknown>;

const arbBackend: fc.Arbitrary<J> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ service: { name: "svc", port: { number: 80 } } }) },
  { weight: 1, arbitrary: fc.constant({ service: { name: "svc", port: { name: "http" } } }) },
  { weight: 1, arbitrary: fc.constant({ resource: { apiGroup: "k8s.example.com", kind: "Bucket", name: "svc" } }) },
);

const arbPath = (paths: readonly string[]): fc.Arbitrary<J> =>
  fc
    .oneof(
      fc.record({
        path: fc.constantFrom(...paths),
        pathType: fc.constantFrom("Exact", "Prefix", "ImplementationSpecific"),
      }),
      fc
        .constantFrom(...IS_ONLY_PATHS)
        .map(
          (path): J =>
            path === undefined ? { pathType: "ImplementationSpecific" } : { path, pathType: "ImplementationSpecific" },
        ),
    )
    .chain((p) => arbBackend.map((backend) => ({ ...p, backend })));

/**
 * Vocabularies and counts for generated routing inputs.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { type RoutingSizes, SMALL_ROUTING, arbRouterInput } from "clusterwire/testing";
 *
 * const sizes: RoutingSizes = { ...SMALL_ROUTING, hosts: ["shop.example.com", "*.example.com", undefined], classes: false };
 * console.log(fc.sample(arbRouterInput(sizes), 1));
 * ```
 */
export interface RoutingSizes {
  /** The rule hosts drawn from (undefined: a rule without host). */
  readonly hosts: readonly (string | undefined)[];
  /** The paths drawn from. */
  readonly paths: readonly string[];
  /** The Ingress and Service names drawn from. */
  readonly names: readonly string[];
  /** How many Ingresses, [min, max]. */
  readonly ingresses: readonly [number, number];
  /** How many rules per Ingress, [min, max]. */
  readonly rules: readonly [number, number];
  /** How many paths per rule, [min, max]. */
  readonly pathsPerRule: readonly [number, number];
  /** The creation timestamps drawn from (undefined: none), for precedence by age. */
  readonly timestamps: readonly (string | undefined)[];
  /** Whether to draw IngressClass lists at all. */
  readonly classes: boolean;
}

const arbRule = (s: RoutingSizes): fc.Arbitrary<J> =>
  fc
    .record({
      host: fc.constantFrom(...s.hosts),
      // R8: some rules have no http section at all.
      paths: fc.option(fc.array(arbPath(s.paths), { minLength: s.pathsPerRule[0], maxLength: s.pathsPerRule[1] }), {
        freq: 6,
      }),
    })
    .map(({ host, paths }) => {
      const r: J = {};
      if (host !== undefined) r["host"] = host;
      if (paths !== null) r["http"] = { paths };
      return r;
    });

/** How an Ingress names its class: nothing, ingressClassName, the annotation, or both agreeing. */
const arbClassChoice = fc.oneof(
  { weight: 2, arbitrary: fc.constant({}) },
  fc.constantFrom(...CLASS_NAMES).map((c) => ({ className: c })),
  fc.constantFrom(...CLASS_NAMES).map((c) => ({ annotation: c })),
  fc.constantFrom(...CLASS_NAMES).map((c) => ({ className: c, annotation: c })),
);

const arbIngress = (s: RoutingSizes): fc.Arbitrary<JsonObject> =>
  fc
    .record({
      ns: fc.constantFrom(...NAMESPACES),
      name: fc.constantFrom(...s.names),
      created: fc.constantFrom(...s.timestamps),
      rules: fc.array(arbRule(s), { minLength: s.rules[0], maxLength: s.rules[1] }),
      defaultBackend: fc.option(arbBackend, { freq: 3 }),
      cls: arbClassChoice,
      tls: fc.boolean(),
    })
    .map((g) => {
      const metadata: J = { name: g.name, namespace: g.ns };
      if (g.created !== undefined) metadata["creationTimestamp"] = g.created;
      if ("annotation" in g.cls) metadata["annotations"] = { [INGRESS_CLASS_ANNOTATION]: g.cls.annotation };
      const spec: J = {};
      if (g.rules.length > 0) spec["rules"] = g.rules;
      // Validation needs rules or a defaultBackend.
      if (g.defaultBackend !== null || g.rules.length === 0) {
        spec["defaultBackend"] = g.defaultBackend ?? { service: { name: "svc", port: { number: 80 } } };
      }
      if ("className" in g.cls) spec["ingressClassName"] = g.cls.className;
      if (g.tls) spec["tls"] = [{ hosts: ["foo.example.com"], secretName: "cert" }];
      return { apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata, spec } as JsonObject;
    });

/** Gives every backend its own service or resource name, so equal-looking routes can't hide a wrong pick. */
function numberBackends(ingresses: JsonObject[]): JsonObject[] {
  let n = 0;
  // A copy of each backend: the drawn ones are shared constants, and structuredClone keeps two
  // references to one object as one, so renaming in place gave every use of it the last name.
  const renamed = (b: unknown): unknown => {
    const o = structuredClone(b) as { service?: { name: string }; resource?: { name: string } };
    if (o.service !== undefined) o.service.name = `svc-${n++}`;
    if (o.resource !== undefined) o.resource.name = `res-${n++}`;
    return o;
  };
  const out = structuredClone(ingresses) as unknown as { spec: J }[];
  for (const ing of out) {
    if (ing.spec["defaultBackend"] !== undefined) ing.spec["defaultBackend"] = renamed(ing.spec["defaultBackend"]);
    for (const r of (ing.spec["rules"] ?? []) as { http?: { paths: { backend: unknown }[] } }[]) {
      for (const p of r.http?.paths ?? []) p.backend = renamed(p.backend);
    }
  }
  return out as unknown as JsonObject[];
}

/**
 * A generated routing input as Kubernetes JSON.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbRoutingInputJson } from "clusterwire/testing";
 *
 * for (const input of fc.sample(arbRoutingInputJson(), 2)) console.log(input.ingresses.length, input.classes?.length);
 * ```
 */
export interface RoutingInputJson {
  /** The Ingresses, as Kubernetes JSON. */
  readonly ingresses: JsonObject[];
  /** undefined: no class list, so no class filtering (R2). */
  readonly classes: JsonObject[] | undefined;
}

const arbClasses: fc.Arbitrary<JsonObject[] | undefined> = fc
  .option(
    fc
      .subarray(
        [
          { name: "ours", controller: ROUTING_CONTROLLER },
          { name: "ours2", controller: ROUTING_CONTROLLER },
          { name: "theirs", controller: OTHER },
        ],
        // An empty list (nothing in scope) now and then, not a third of the time.
        { minLength: 1 },
      )
      .chain((list) => fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 8, arbitrary: fc.constant(list) }))
      .chain((list) => fc.tuple(...list.map((c) => fc.boolean().map((isDefault) => ({ ...c, isDefault })))))
      .map((list) =>
        list.map(({ name, controller, isDefault }) => {
          const metadata: J = { name };
          if (isDefault) metadata["annotations"] = { "ingressclass.kubernetes.io/is-default-class": "true" };
          return {
            apiVersion: "networking.k8s.io/v1",
            kind: "IngressClass",
            metadata,
            spec: { controller },
          } as JsonObject;
        }),
      ),
    { freq: 2 },
  )
  .map((c) => c ?? undefined);

const arbInput = (s: RoutingSizes): fc.Arbitrary<RoutingInputJson> =>
  fc
    .record({
      ingresses: fc.array(arbIngress(s), { minLength: s.ingresses[0], maxLength: s.ingresses[1] }),
      classes: s.classes ? arbClasses : fc.constant(undefined),
    })
    .map(({ ingresses, classes }) => ({ ingresses: numberBackends(ingresses), classes }));

const arbRequest: fc.Arbitrary<RouteRequest> = fc
  .record({
    host: fc.constantFrom(...REQUEST_HOSTS),
    port: fc.constantFrom("", "", ":8080", ":443"),
    upper: fc.constantFrom("none", "none", "all", "first"),
    base: fc.constantFrom(...REQUEST_BASES),
    ext: fc.constantFrom(...EXTENSIONS),
    suffix: fc.constantFrom(...SUFFIXES),
    sni: fc.option(fc.constantFrom("foo.example.com", "bar.example.com"), { nil: undefined }),
    scheme: fc.option(fc.constantFrom("http", "https"), { nil: undefined }),
  })
  .map((g) => {
    let host = g.host.endsWith("]") || !g.host.includes(":") ? g.host + g.port : g.host;
    if (g.upper === "all") host = host.toUpperCase();
    if (g.upper === "first") host = host.charAt(0).toUpperCase() + host.slice(1);
    const req: { host: string; path: string; sni?: string; scheme?: string } = {
      host,
      path: g.base + g.ext + g.suffix,
    };
    if (g.sni !== undefined) req.sni = g.sni;
    if (g.scheme !== undefined) req.scheme = g.scheme;
    return req;
  });

/**
 * Small inputs: colliding hosts, paths, classes and R7 ties.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { SMALL_ROUTING, arbRouterInput } from "clusterwire/testing";
 *
 * const fewer = arbRouterInput({ ...SMALL_ROUTING, ingresses: [1, 3] });
 * console.log(fc.sample(fewer, 1));
 * ```
 */
export const SMALL_ROUTING: RoutingSizes = {
  hosts: RULE_HOSTS,
  paths: PATHS,
  names: NAMES,
  ingresses: [1, 7],
  rules: [0, 3],
  pathsPerRule: [1, 3],
  timestamps: TIMESTAMPS,
  classes: true,
};

/**
 * Few hosts and many paths: tiers past the router's linear-scan limit (30 paths).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { LARGE_ROUTING, arbRouterInput } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbRouterInput(LARGE_ROUTING), 1)[0]?.ingresses.length); // 12 to 18
 * ```
 */
export const LARGE_ROUTING: RoutingSizes = {
  hosts: [undefined, "foo.example.com", "*.example.com"],
  paths: PATHS,
  names: ["p", "q", "r", "s", "t", "u", "v", "w"],
  ingresses: [12, 18],
  rules: [1, 3],
  pathsPerRule: [4, 8],
  timestamps: TIMESTAMPS,
  classes: false,
};

/**
 * Routing inputs as JSON, ingresses and (sometimes) an IngressClass list.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbRoutingInputJson, toRouterInput } from "clusterwire/testing";
 *
 * const [json] = fc.sample(arbRoutingInputJson(), 1);
 * if (json) console.log(JSON.stringify(json.ingresses[0]), toRouterInput(json).ingresses.length);
 * ```
 */
export function arbRoutingInputJson(sizes: RoutingSizes = SMALL_ROUTING): fc.Arbitrary<RoutingInputJson> {
  return arbInput(sizes);
}

/**
 * A decoded routing input: `createRouter` takes it as it is.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createRouter } from "clusterwire/networking";
 * import { arbRouteRequest, arbRouterInput } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbRouterInput(), arbRouteRequest(), (input, request) => {
 *     const route = createRouter(input).route(request);
 *     return route === null || input.ingresses.length > 0;
 *   }),
 * );
 * ```
 */
export type RoutingInput = RouterInput & { readonly ingresses: Ingress[] };

/**
 * Decodes a generated input for `createRouter`; a class list brings the controller with it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createRouter } from "clusterwire/networking";
 * import { arbRoutingInputJson, toRouterInput } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbRoutingInputJson(), (json) => createRouter(toRouterInput(json)).skipped.length >= 0));
 * ```
 */
export function toRouterInput(j: RoutingInputJson): RoutingInput {
  const ingresses = j.ingresses.map((o) => fromJson(o) as Ingress);
  if (j.classes === undefined) return { ingresses };
  return {
    ingresses,
    ingressClasses: j.classes.map((o) => fromJson(o) as IngressClass),
    controller: ROUTING_CONTROLLER,
  };
}

/**
 * Routing inputs, decoded, ready for `createRouter`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createRouter } from "clusterwire/networking";
 * import { arbRouteRequest, arbRouterInput } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbRouterInput(), arbRouteRequest(), (input, request) => {
 *     const route = createRouter(input).route(request);
 *     return route === null || input.ingresses.length > 0;
 *   }),
 * );
 * ```
 */
export function arbRouterInput(sizes: RoutingSizes = SMALL_ROUTING): fc.Arbitrary<RoutingInput> {
  return arbInput(sizes).map(toRouterInput);
}

/**
 * Requests as clients send them: hosts of every tier (and none), ports,
 * upper case, IP literals, query strings and fragments, SNI and scheme.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createRouter } from "clusterwire/networking";
 * import { arbRouteRequest, arbRouterInput } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbRouterInput(), arbRouteRequest(), (input, request) => {
 *     const route = createRouter(input).route(request);
 *     return route === null || input.ingresses.length > 0;
 *   }),
 * );
 * ```
 */
export function arbRouteRequest(): fc.Arbitrary<RouteRequest> {
  return arbRequest;
}
