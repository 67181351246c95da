// The public shapes of the Ingress router (docs/ingress-routing.md). Kept
// apart from the implementation so the CLI, the HTML report and the tests
// depend on the contract, not on the index structures.

import type { IngressBackend } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { SkippedObject } from "../types.js";

/**
 * One HTTP request to route: what {@link Router.route} looks at.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, createRouter } from "clusterwire/networking";
 *
 * const router = createRouter({
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * });
 * const request: import("clusterwire/networking").RouteRequest = { host: "Shop.Example.com:443", path: "/cart?id=1", scheme: "https" };
 * console.log(router.route(request)?.ingress); // "web/shop"
 * ```
 */
export interface RouteRequest {
  /** The HTTP Host header, port and all (`Shop.Example.com:8443`, `[2001:db8::1]:443`). */
  readonly host: string;
  /** The request target; everything from the first `?` or `#` is ignored (R5). */
  readonly path: string;
  /** The TLS SNI name. It selects a certificate only and never changes the route (R10). */
  readonly sni?: string;
  /** `http` or `https`. It never changes the route (R10). */
  readonly scheme?: string;
}

/**
 * A request's host and path as the router reads them: what
 * {@link normaliseRequest} returns, and what a {@link Route} carries in its
 * `host` and `requestPath`.
 *
 * @example
 * ```ts
 * import { normaliseRequest } from "clusterwire/networking";
 *
 * const { host, requestPath } = normaliseRequest({ host: "[2001:DB8::1]:8443", path: "/a#top" });
 * console.log(host, requestPath); // "2001:db8::1" "/a"
 * ```
 */
export interface NormalisedRequest {
  /** The Host header without its port (and an IPv6 literal's brackets), lower-cased (R3). */
  readonly host: string;
  /** The request target up to its first `?` or `#` (R5). */
  readonly requestPath: string;
}

/**
 * Which host tier was selected for a request (R4).
 *
 * @example
 * ```ts
 * import { IngressSchema, create, createRouter } from "clusterwire/networking";
 *
 * const router = createRouter({
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * });
 * const tier = router.route({ host: "shop.example.com", path: "/" })?.tier; // null: only a defaultBackend matched
 * ```
 */
export type HostTier = "precise" | "wildcard" | "host-less";

/**
 * Where a request goes: the backend, the Ingress, rule and path that chose it, and why.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, createRouter } from "clusterwire/networking";
 *
 * const router = createRouter({
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * });
 * const route = router.route({ host: "shop.example.com", path: "/" });
 * if (route) console.log(route.ingress, route.rule, route.path, route.via, route.backend.service?.port?.number);
 * ```
 */
export interface Route {
  /** The IngressBackend exactly as written in the winning path or defaultBackend (R11). */
  readonly backend: IngressBackend;
  /** `namespace/name` of the Ingress that supplied the backend. */
  readonly ingress: string;
  /** Index into that Ingress's `spec.rules`, or null when the backend is its `defaultBackend`. */
  readonly rule: number | null;
  /** Index into the rule's `http.paths`, or null when the backend is a `defaultBackend`. */
  readonly path: number | null;
  /**
   * How the backend was chosen: `path` (a path of the selected tier matched, R7),
   * `tier-default` (R9.1) or `default` (R9.2).
   */
  readonly via: "path" | "tier-default" | "default";
  /** The selected host tier, or null when no rule of any tier matched the host. */
  readonly tier: HostTier | null;
  /** The request host after R3 normalisation. */
  readonly host: string;
  /** The request path after R5 (query and fragment removed). */
  readonly requestPath: string;
  /**
   * The inputs the router left out (its `skipped`): every route is given
   * without them, so it says so. Empty when every input was taken.
   */
  readonly skipped: readonly SkippedObject[];
}

/**
 * A request's answer whether or not anything serves it: the route, or null
 * for the controller's own 404, with the inputs left out either way.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, createRouter } from "clusterwire/networking";
 *
 * const router = createRouter({
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * });
 * const { route, skipped } = router.resolve({ host: "other.example.com", path: "/" });
 * console.log(route === null ? "404" : route.ingress, skipped.length);
 * ```
 */
export interface RouteResult {
  /** What `route` returns for the request. */
  readonly route: Route | null;
  /** The inputs the router left out (its `skipped`). */
  readonly skipped: readonly SkippedObject[];
}

/**
 * Why an Ingress is not served by the evaluated controller (R2).
 *
 * @example
 * ```ts
 * import { IngressSchema, create, createRouter } from "clusterwire/networking";
 *
 * const router = createRouter({
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * });
 * for (const { ingress, reason } of router.outOfScope) console.log(ingress, reason);
 * ```
 */
export interface OutOfScope {
  /** `namespace/name` of the Ingress. */
  readonly ingress: string;
  /** Why the controller does not serve it, in words. */
  readonly reason: string;
}

/**
 * An Ingress controller's routing over a set of Ingresses, built by {@link createRouter}.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, createRouter } from "clusterwire/networking";
 *
 * const router = createRouter({
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * });
 * console.log(router.inScope, router.route({ host: "shop.example.com", path: "/" })?.backend.service?.name);
 * ```
 */
export interface Router {
  /** The route for one request, or null when nothing in scope serves it (the controller's 404). */
  route(request: RouteRequest): Route | null;
  /** The same answer with the inputs left out, also when nothing serves the request. */
  resolve(request: RouteRequest): RouteResult;
  /** Valid Ingresses the controller serves, as `namespace/name`, in input order. */
  readonly inScope: readonly string[];
  /** Valid Ingresses it does not serve, and why. */
  readonly outOfScope: readonly OutOfScope[];
  /**
   * Inputs left out because the API server would reject them, or because an
   * earlier input has the same name: IngressClasses first, then Ingresses,
   * each in input order. Every route carries this list too.
   */
  readonly skipped: readonly SkippedObject[];
}
