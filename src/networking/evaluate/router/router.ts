// The Ingress router: rules R1-R11 of docs/ingress-routing.md. The precedence
// rules themselves (tiers, classes, path keys, the orders of R7 and R9 and the
// lookup by key) live in precedence.ts, which the ingress-capture guard shares.
//
// createRouter compiles the in-scope Ingresses into one index: a map from
// precise host to its tier, one from wildcard suffix to its tier, and the
// host-less tier. Inside a tier, exact paths and prefix paths are maps keyed
// by the path a request must equal or extend, each holding the single best
// candidate (R7). A lookup is then a few map reads per path segment, however
// many Ingresses there are.

import type { Ingress, IngressBackend, IngressClass } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { EvaluatorInputError } from "../../model/errors.js";
import type { SkippedObject } from "../types.js";
import type { HostTier, NormalisedRequest, OutOfScope, Route, RouteRequest, RouteResult, Router } from "./types.js";
import { FieldPath } from "../../model/path.js";
import { duplicate, type FieldError } from "../../validation/field-error.js";
import { validate } from "../../validation/validate.js";
import {
  DEFAULT_CLASS_ANNOTATION,
  INGRESS_CLASS_ANNOTATION,
  INGRESS_CLASS_TYPE,
  INGRESS_TYPE,
} from "../../model/constants.js";
import {
  PathIndex,
  betterPath,
  compareRank,
  creationTime,
  identifyIngress,
  ingressClassOf,
  pathShape,
  ruleTier,
  wildcardKey,
  type RankedPath,
} from "./precedence.js";

/**
 * The objects {@link createRouter} routes over, and the controller it evaluates.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, IngressSchema, type RouterInput, create, createRouter } from "clusterwire/networking";
 *
 * const input: RouterInput = {
 *   controller: "k8s.io/ingress-nginx",
 *   ingressClasses: [create(IngressClassSchema, { metadata: { name: "nginx" }, spec: { controller: "k8s.io/ingress-nginx" } })],
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { ingressClassName: "nginx", defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * };
 * console.log(createRouter(input).inScope); // [ "web/shop" ]
 * ```
 */
export interface RouterInput {
  /** The Ingresses, in any order: precedence between them is by age, then namespace/name. */
  readonly ingresses: readonly Ingress[];
  /** When given, only Ingresses of `controller`'s classes are in scope (R2). */
  readonly ingressClasses?: readonly IngressClass[];
  /** The evaluated controller, an IngressClass `spec.controller` value (R1). Required with `ingressClasses`. */
  readonly controller?: string;
}

/** One path of one rule, with what R7 orders by (rank: the Ingress's position by age, then namespace/name). */
interface Candidate extends RankedPath {
  readonly ingress: string;
  readonly backend: IngressBackend;
}

interface Fallback {
  readonly rank: number;
  readonly ingress: string;
  readonly backend: IngressBackend;
}

class Tier {
  readonly kind: HostTier;
  /** Every path of the tier, best first by R7 once sealed: the first that matches wins. */
  readonly candidates: Candidate[] = [];
  /** The paths by the key a request must equal or extend (R6; large tiers only). */
  paths: PathIndex<Candidate> | undefined;
  /** The defaultBackend of the best Ingress contributing rules here (R9.1). */
  fallback: Fallback | undefined;

  constructor(kind: HostTier) {
    this.kind = kind;
  }

  /** Orders the candidates and appends the tier to `data`, returning its offset; a tier too large to scan also gets the maps. */
  seal(intern: Map<string, string>, data: unknown[]): number {
    const at = data.length;
    this.candidates.sort((a, b) => (betterPath(a, b) ? -1 : betterPath(b, a) ? 1 : 0));
    if (this.candidates.length <= SCAN_LIMIT) {
      let exactBits = 0;
      data.push(this, this.kind, 0, this.candidates.length);
      this.candidates.forEach((c, i) => {
        if (c.exact) exactBits |= 1 << i;
        let k = intern.get(c.key);
        if (k === undefined) {
          k = c.key;
          intern.set(k, k);
        }
        data.push(k, c.backend, c.ingress, c.rule, c.path);
      });
      data[at + 2] = exactBits;
      return at;
    }
    const paths = new PathIndex<Candidate>();
    for (const c of this.candidates) paths.add(c);
    this.paths = paths;
    data.push(this, this.kind, -1, 0);
    return at;
  }
}

/**
 * Every sealed tier lives in one shared array, at the offset its host maps
 * to, so a lookup touches one array after the host map. With 10,000
 * Ingresses and requests spread over all their hosts, cache misses dominate.
 *   [at] the Tier; [at+1] its kind; [at+2] a bit per Exact path, or -1 for a
 *   large tier matched through its maps; [at+3] the number of paths; then per
 *   path, best first: key, backend, ingress, rule index, path index.
 */
const FIRST = 4;
const STRIDE = 5;

/**
 * Up to this many paths, a tier is scanned in precedence order; that beats
 * map lookups per path segment and keeps a tier in one cache-friendly array.
 */
const SCAN_LIMIT = 30;

/**
 * Builds a router for one controller (R1). Throws EvaluatorInputError for
 * inputs that are not Ingress / IngressClass messages. Objects the API server
 * would reject, and later duplicates of a name, are left out and listed in
 * `skipped`, and so is every route the router gives.
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
 * const route = router.route({ host: "shop.example.com", path: "/cart" });
 * console.log(route?.backend.service?.name, route?.via); // "shop" "default"
 * ```
 */
export function createRouter(input: RouterInput): Router {
  return new IngressRouter(input);
}

class IngressRouter implements Router {
  readonly inScope: readonly string[];
  readonly outOfScope: readonly OutOfScope[];
  readonly skipped: readonly SkippedObject[];
  readonly #precise = new Map<string, number>();
  readonly #wildcard = new Map<string, number>();
  #hostless = -1;
  readonly #data: unknown[] = [];
  #fallback: Fallback | undefined;

  constructor(input: RouterInput) {
    if (input === null || typeof input !== "object") throw new EvaluatorInputError("", "the input must be an object");
    const ingresses = listOf(input.ingresses, "ingresses");
    const skipped: SkippedObject[] = [];
    const classes = input.ingressClasses === undefined ? undefined : this.#classes(input, skipped);

    const valid: { ing: Ingress; key: string; index: number }[] = [];
    const seen = new Set<string>();
    ingresses.forEach((ing, index) => {
      if (ing === null || typeof ing !== "object" || (ing as { $typeName?: unknown }).$typeName !== INGRESS_TYPE) {
        throw new EvaluatorInputError(
          `ingresses[${index}]`,
          "must be an Ingress message (build it with fromYaml, fromJson or decode)",
        );
      }
      const { name, key } = identifyIngress(ing.metadata);
      const errors = validate(ing);
      const skip = (errs: readonly FieldError[]): void => {
        skipped.push({ kind: "Ingress", name: name === "" ? `[${index}]` : key, index, errors: errs });
      };
      if (errors.length > 0) {
        skip(errors);
        return;
      }
      if (seen.has(key)) {
        skip([duplicate(FieldPath.root("metadata").child("name"), name)]);
        return;
      }
      seen.add(key);
      valid.push({ ing, key, index });
    });

    const inScope: { ing: Ingress; key: string }[] = [];
    const outOfScope: OutOfScope[] = [];
    for (const v of valid) {
      const reason = classes === undefined ? undefined : outOfScopeReason(v.ing, classes);
      if (reason === undefined) inScope.push(v);
      else outOfScope.push({ ingress: v.key, reason });
    }
    this.inScope = Object.freeze(inScope.map((v) => v.key));
    this.outOfScope = Object.freeze(outOfScope);
    this.skipped = Object.freeze(skipped);

    // R7.3/R7.4 and R9: one priority order over Ingresses, oldest first.
    const ranked = inScope.map((v) => ({ ...v, time: creationTime(v.ing) })).sort(compareRank);
    const tiers = new Tiers();
    ranked.forEach((v, rank) => {
      addIngress(tiers, v.ing, v.key, rank);
    });
    this.#fallback = tiers.fallback;
    // Many tiers share their paths ("/", "/api"): one string each keeps scans in cache.
    const intern = new Map<string, string>();
    for (const [host, t] of tiers.precise) this.#precise.set(flatKey(host), t.seal(intern, this.#data));
    for (const [suffix, t] of tiers.wildcard) this.#wildcard.set(flatKey(suffix), t.seal(intern, this.#data));
    if (tiers.hostless !== undefined) this.#hostless = tiers.hostless.seal(intern, this.#data);
  }

  #classes(input: RouterInput, skipped: SkippedObject[]): Classes {
    const list = listOf(input.ingressClasses, "ingressClasses");
    const controller = input.controller;
    if (typeof controller !== "string" || controller === "") {
      throw new EvaluatorInputError(
        "controller",
        "the evaluated controller is required when ingressClasses are given (R1)",
      );
    }
    const byName = new Map<string, string>();
    let hasDefault = false;
    list.forEach((ic, index) => {
      if (ic === null || typeof ic !== "object" || (ic as { $typeName?: unknown }).$typeName !== INGRESS_CLASS_TYPE) {
        throw new EvaluatorInputError(`ingressClasses[${index}]`, "must be an IngressClass message");
      }
      const name = ic.metadata?.name ?? "";
      const errors = validate(ic);
      if (errors.length === 0 && byName.has(name))
        errors.push(duplicate(FieldPath.root("metadata").child("name"), name));
      if (errors.length > 0) {
        skipped.push({ kind: "IngressClass", name: name === "" ? `[${index}]` : name, index, errors });
        return;
      }
      const owner = ic.spec?.controller ?? "";
      byName.set(name, owner);
      if (owner === controller && ic.metadata?.annotations[DEFAULT_CLASS_ANNOTATION] === "true") hasDefault = true;
    });
    return { controller, byName, hasDefault };
  }

  route(request: RouteRequest): Route | null {
    checkRequest(request);
    const host = normaliseHost(request.host);
    const path = requestPath(request.path);
    const at = this.#selectTier(host);
    const t = this.#data;
    if (at >= 0) {
      const kind = t[at + 1] as HostTier;
      const exactBits = t[at + 2] as number;
      if (exactBits >= 0) {
        for (let i = at + FIRST, end = i + STRIDE * (t[at + 3] as number), bit = 1; i < end; i += STRIDE, bit <<= 1) {
          const k = t[i] as string;
          const hit =
            (exactBits & bit) !== 0
              ? path === k
              : k === "" || (path.startsWith(k) && (path.length === k.length || path.charCodeAt(k.length) === 0x2f));
          if (hit) {
            const backend = t[i + 1] as IngressBackend;
            const ingress = t[i + 2] as string;
            return {
              backend,
              ingress,
              rule: t[i + 3] as number,
              path: t[i + 4] as number,
              via: "path",
              tier: kind,
              host,
              requestPath: path,
              skipped: this.skipped,
            };
          }
        }
      } else {
        const c = (t[at] as Tier).paths!.best(path);
        if (c !== undefined) {
          return {
            backend: c.backend,
            ingress: c.ingress,
            rule: c.rule,
            path: c.path,
            via: "path",
            tier: kind,
            host,
            requestPath: path,
            skipped: this.skipped,
          };
        }
      }
      const f = (t[at] as Tier).fallback;
      if (f !== undefined) {
        return {
          backend: f.backend,
          ingress: f.ingress,
          rule: null,
          path: null,
          via: "tier-default",
          tier: kind,
          host,
          requestPath: path,
          skipped: this.skipped,
        };
      }
    }
    const f = this.#fallback;
    if (f === undefined) return null;
    const kind = at < 0 ? null : (t[at + 1] as HostTier);
    return {
      backend: f.backend,
      ingress: f.ingress,
      rule: null,
      path: null,
      via: "default",
      tier: kind,
      host,
      requestPath: path,
      skipped: this.skipped,
    };
  }

  resolve(request: RouteRequest): RouteResult {
    return { route: this.route(request), skipped: this.skipped };
  }

  /** R4: the first non-empty tier; an empty Host reaches only host-less rules (R3). */
  #selectTier(host: string): number {
    if (host !== "") {
      const precise = this.#precise.get(host);
      if (precise !== undefined) return precise;
      const suffix = wildcardKey(host);
      if (suffix !== undefined) {
        const wildcard = this.#wildcard.get(suffix);
        if (wildcard !== undefined) return wildcard;
      }
    }
    return this.#hostless;
  }
}

/**
 * A flat copy of a host key. Hosts built by concatenation or sliced from a
 * longer string make every probe that compares keys chase a pointer; with
 * 10,000 hosts this measured about 25% more lookups/s.
 */
function flatKey(s: string): string {
  return s.split("").join("");
}

/** The tiers while they are being filled, before they are sealed into lookups. */
class Tiers {
  readonly precise = new Map<string, Tier>();
  readonly wildcard = new Map<string, Tier>();
  hostless: Tier | undefined;
  /** The best in-scope Ingress with a defaultBackend (R9.2). */
  fallback: Fallback | undefined;

  of(host: string): Tier {
    const { kind, key } = ruleTier(host);
    if (kind === "host-less") {
      this.hostless ??= new Tier(kind);
      return this.hostless;
    }
    const map = kind === "wildcard" ? this.wildcard : this.precise;
    let t = map.get(key);
    if (t === undefined) {
      t = new Tier(kind);
      map.set(key, t);
    }
    return t;
  }
}

/** Adds an Ingress's rules and defaultBackend; Ingresses come best rank first. */
function addIngress(tiers: Tiers, ing: Ingress, key: string, rank: number): void {
  const spec = ing.spec;
  if (spec === undefined) return;
  const fallback = spec.defaultBackend === undefined ? undefined : { rank, ingress: key, backend: spec.defaultBackend };
  if (fallback !== undefined) tiers.fallback ??= fallback;
  spec.rules.forEach((rule, ruleIndex) => {
    const tier = tiers.of(rule.host);
    // R9.1: the best-ranked contributor that has a defaultBackend.
    if (fallback !== undefined) tier.fallback ??= fallback;
    // R8: a rule without http selects its tier but adds no paths.
    const paths = rule.ingressRuleValue?.http?.paths ?? [];
    paths.forEach((p, pathIndex) => {
      if (p.backend === undefined) return; // validation requires it
      tier.candidates.push({
        rank,
        ingress: key,
        rule: ruleIndex,
        path: pathIndex,
        ...pathShape(p.pathType, p.path),
        backend: p.backend,
      });
    });
  });
}

interface Classes {
  readonly controller: string;
  /** Valid classes: name to controller. */
  readonly byName: ReadonlyMap<string, string>;
  /** Whether one of the controller's classes is marked default. */
  readonly hasDefault: boolean;
}

/** R2, in its order; undefined when the Ingress is in scope. */
function outOfScopeReason(ing: Ingress, classes: Classes): string | undefined {
  const byClass = (name: string, via: string): string | undefined => {
    const owner = classes.byName.get(name);
    if (owner === undefined) return `${via} ${JSON.stringify(name)} names no known IngressClass`;
    if (owner !== classes.controller)
      return `${via} ${JSON.stringify(name)} belongs to controller ${JSON.stringify(owner)}`;
    return undefined;
  };
  const named = ingressClassOf(ing);
  if (named !== undefined) {
    return byClass(named.name, named.via === "annotation" ? `annotation ${INGRESS_CLASS_ANNOTATION}` : named.via);
  }
  if (classes.hasDefault) return undefined;
  return `no class, and controller ${JSON.stringify(classes.controller)} has no default IngressClass`;
}

// ------------------------------------------------------------------ matching

/** What route() and normaliseRequest() accept: an object with a string host and path. */
function checkRequest(request: RouteRequest): void {
  if (request === null || typeof request !== "object")
    throw new EvaluatorInputError("request", "must be { host, path }");
  if (typeof request.host !== "string")
    throw new EvaluatorInputError("request.host", "must be a string (the Host header)");
  if (typeof request.path !== "string")
    throw new EvaluatorInputError("request.path", "must be a string (the request target)");
}

/**
 * A request's host and path as the router reads them, whether or not any
 * Ingress serves it: the Host header without its port, lower-cased (R3 of
 * docs/ingress-routing.md), and the target up to its first `?` or `#` (R5). A
 * {@link Route} carries the same two values; this gives them for a request
 * that `route` answers with null too. Throws {@link EvaluatorInputError} for
 * what `route` refuses (a host or path that is not a string).
 *
 * @example
 * ```ts
 * import { normaliseRequest } from "clusterwire/networking";
 *
 * console.log(normaliseRequest({ host: "Shop.Example.com:8443", path: "/cart?id=7" }));
 * // { host: "shop.example.com", requestPath: "/cart" }
 * ```
 */
export function normaliseRequest(request: RouteRequest): NormalisedRequest {
  checkRequest(request);
  return { host: normaliseHost(request.host), requestPath: requestPath(request.path) };
}

/** R3: drop the port (and the brackets of an IPv6 literal), lower-case. */
export function normaliseHost(header: string): string {
  let h = header;
  if (h.charCodeAt(0) === 0x5b) {
    const end = h.indexOf("]");
    if (end > 0) h = h.slice(1, end);
  } else {
    const colon = h.indexOf(":");
    // Only one colon can be a port separator; an unbracketed IPv6 literal keeps all of its.
    if (colon >= 0 && h.indexOf(":", colon + 1) < 0) h = h.slice(0, colon);
  }
  // V8 returns the same string when nothing changes; a scan for capitals first measured slower.
  return h.toLowerCase();
}

/** R5: the target up to the first "?" or "#", compared literally. */
export function requestPath(target: string): string {
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === 0x3f || c === 0x23) return target.slice(0, i);
  }
  return target;
}

function listOf<T>(v: readonly T[] | undefined, at: string): readonly T[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EvaluatorInputError(at, "must be a list");
  return v;
}
