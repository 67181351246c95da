// The Ingress router of shared/docs/semantics.md §1.1 (rules R1-R11).
//
// createRouter compiles the in-scope Ingresses into one index: a map from
// precise host to its tier, one from wildcard suffix to its tier, and the
// host-less tier. Inside a tier, exact paths and prefix paths are maps keyed
// by the path a request must equal or extend, each holding the single best
// candidate (R7). A lookup is then a few map reads per path segment, however
// many Ingresses there are.

import type { Ingress, IngressBackend, IngressClass } from "../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { ObjectMeta } from "../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { EvaluatorInputError } from "./errors.js";
import type { HostTier, OutOfScope, Route, RouteRequest, Router, SkippedObject } from "./evaluator-types.js";
import { duplicate, FieldPath, type FieldError } from "./field-error.js";
import { validate } from "./validate.js";

export interface RouterInput {
  readonly ingresses: readonly Ingress[];
  /** When given, only Ingresses of `controller`'s classes are in scope (R2). */
  readonly ingressClasses?: readonly IngressClass[];
  /** The evaluated controller, an IngressClass `spec.controller` value (R1). Required with `ingressClasses`. */
  readonly controller?: string;
}

const INGRESS_TYPE = "k8s.io.api.networking.v1.Ingress";
const INGRESS_CLASS_TYPE = "k8s.io.api.networking.v1.IngressClass";
const CLASS_ANNOTATION = "kubernetes.io/ingress.class";
const DEFAULT_CLASS_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";
const DEFAULT_NAMESPACE = "default";

/** One path of one rule, with what R7 orders by. */
interface Candidate {
  /** Position of the Ingress by age, then namespace/name (R7.3, R7.4). */
  readonly rank: number;
  readonly ingress: string;
  readonly rule: number;
  readonly path: number;
  /** Length of the path as written (R7.1); an empty ImplementationSpecific path counts as "/". */
  readonly length: number;
  readonly exact: boolean;
  readonly backend: IngressBackend;
}

interface Fallback {
  readonly rank: number;
  readonly ingress: string;
  readonly backend: IngressBackend;
}

class Tier {
  readonly kind: HostTier;
  /** Exact paths by the path a request must equal. */
  readonly exact = new Map<string, Candidate>();
  /** Prefix paths by the path a request must equal or extend with "/" (R6). */
  readonly prefix = new Map<string, Candidate>();
  /** The best Prefix "/" (or empty ImplementationSpecific path), which matches everything. */
  catchAll: Candidate | undefined;
  /** The defaultBackend of the best Ingress contributing rules here (R9.1). */
  fallback: Fallback | undefined;

  constructor(kind: HostTier) {
    this.kind = kind;
  }
}

/** Builds a router for one controller (R1). Throws EvaluatorInputError for inputs that are not Ingress / IngressClass messages. */
export function createRouter(input: RouterInput): Router {
  return new IngressRouter(input);
}

class IngressRouter implements Router {
  readonly inScope: readonly string[];
  readonly outOfScope: readonly OutOfScope[];
  readonly skipped: readonly SkippedObject[];
  readonly #precise = new Map<string, Tier>();
  readonly #wildcard = new Map<string, Tier>();
  #hostless: Tier | undefined;
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
        throw new EvaluatorInputError(`ingresses[${index}]`, "must be an Ingress message (build it with fromYaml, fromJson or decode)");
      }
      const { name, key } = identify(ing.metadata);
      const errors = validate(ing);
      const skip = (errs: readonly FieldError[]): void => {
        skipped.push({ kind: "Ingress", name: name === "" ? `[${index}]` : key, index, errors: errs });
      };
      if (errors.length > 0) return skip(errors);
      if (seen.has(key)) return skip([duplicate(FieldPath.root("metadata").child("name"), name)]);
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
    const ranked = inScope.map((v) => ({ ...v, time: creationTime(v.ing) })).sort(
      (a, b) => compareTime(a.time, b.time) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
    ranked.forEach((v, rank) => this.#add(v.ing, v.key, rank));
  }

  #classes(input: RouterInput, skipped: SkippedObject[]): Classes {
    const list = listOf(input.ingressClasses, "ingressClasses");
    const controller = input.controller;
    if (typeof controller !== "string" || controller === "") {
      throw new EvaluatorInputError("controller", "the evaluated controller is required when ingressClasses are given (R1)");
    }
    const byName = new Map<string, string>();
    let hasDefault = false;
    list.forEach((ic, index) => {
      if (ic === null || typeof ic !== "object" || (ic as { $typeName?: unknown }).$typeName !== INGRESS_CLASS_TYPE) {
        throw new EvaluatorInputError(`ingressClasses[${index}]`, "must be an IngressClass message");
      }
      const name = ic.metadata?.name ?? "";
      const errors = validate(ic);
      if (errors.length === 0 && byName.has(name)) errors.push(duplicate(FieldPath.root("metadata").child("name"), name));
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

  #add(ing: Ingress, key: string, rank: number): void {
    const spec = ing.spec;
    if (spec === undefined) return;
    const fallback = spec.defaultBackend === undefined ? undefined : { rank, ingress: key, backend: spec.defaultBackend };
    if (fallback !== undefined && (this.#fallback === undefined || rank < this.#fallback.rank)) this.#fallback = fallback;
    spec.rules.forEach((rule, ruleIndex) => {
      const tier = this.#tier(rule.host);
      // R9.1: the first-ranked contributor that has a defaultBackend.
      if (fallback !== undefined && (tier.fallback === undefined || rank < tier.fallback.rank)) tier.fallback = fallback;
      // R8: a rule without http selects its tier but adds no paths.
      const paths = rule.ingressRuleValue?.http?.paths ?? [];
      paths.forEach((p, pathIndex) => {
        if (p.backend === undefined) return; // validation requires it
        const written = p.pathType === "ImplementationSpecific" && p.path === "" ? "/" : p.path;
        const c: Candidate = {
          rank,
          ingress: key,
          rule: ruleIndex,
          path: pathIndex,
          length: written.length,
          exact: p.pathType === "Exact",
          backend: p.backend,
        };
        if (c.exact) keepBest(tier.exact, written, c);
        else if (written === "/") {
          if (tier.catchAll === undefined || better(c, tier.catchAll)) tier.catchAll = c;
        } else keepBest(tier.prefix, written.endsWith("/") ? written.slice(0, -1) : written, c);
      });
    });
  }

  #tier(host: string): Tier {
    let map: Map<string, Tier>;
    let k = host;
    let kind: HostTier;
    if (host === "") {
      return (this.#hostless ??= new Tier("host-less"));
    } else if (host.startsWith("*.")) {
      map = this.#wildcard;
      k = host.slice(2);
      kind = "wildcard";
    } else {
      map = this.#precise;
      kind = "precise";
    }
    let t = map.get(k);
    if (t === undefined) map.set(k, (t = new Tier(kind)));
    return t;
  }

  route(request: RouteRequest): Route | null {
    if (request === null || typeof request !== "object") throw new EvaluatorInputError("request", "must be { host, path }");
    if (typeof request.host !== "string") throw new EvaluatorInputError("request.host", "must be a string (the Host header)");
    if (typeof request.path !== "string") throw new EvaluatorInputError("request.path", "must be a string (the request target)");
    const host = normaliseHost(request.host);
    const path = requestPath(request.path);
    const tier = this.#selectTier(host);
    if (tier !== undefined) {
      const c = bestMatch(tier, path);
      if (c !== undefined) {
        return { backend: c.backend, ingress: c.ingress, rule: c.rule, path: c.path, via: "path", tier: tier.kind, host, requestPath: path };
      }
      const f = tier.fallback;
      if (f !== undefined) {
        return { backend: f.backend, ingress: f.ingress, rule: null, path: null, via: "tier-default", tier: tier.kind, host, requestPath: path };
      }
    }
    const f = this.#fallback;
    if (f === undefined) return null;
    return { backend: f.backend, ingress: f.ingress, rule: null, path: null, via: "default", tier: tier?.kind ?? null, host, requestPath: path };
  }

  /** R4: the first non-empty tier; an empty Host reaches only host-less rules (R3). */
  #selectTier(host: string): Tier | undefined {
    if (host !== "") {
      const precise = this.#precise.get(host);
      if (precise !== undefined) return precise;
      const dot = host.indexOf(".");
      if (dot > 0) {
        const wildcard = this.#wildcard.get(host.slice(dot + 1));
        if (wildcard !== undefined) return wildcard;
      }
    }
    return this.#hostless;
  }
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
  const spec = ing.spec;
  const byClass = (name: string, via: string): string | undefined => {
    const owner = classes.byName.get(name);
    if (owner === undefined) return `${via} ${JSON.stringify(name)} names no known IngressClass`;
    if (owner !== classes.controller) return `${via} ${JSON.stringify(name)} belongs to controller ${JSON.stringify(owner)}`;
    return undefined;
  };
  if (spec !== undefined && Object.hasOwn(spec, "ingressClassName")) return byClass(spec.ingressClassName, "ingressClassName");
  const annotations = ing.metadata?.annotations;
  if (annotations !== undefined && Object.hasOwn(annotations, CLASS_ANNOTATION)) {
    return byClass(annotations[CLASS_ANNOTATION]!, `annotation ${CLASS_ANNOTATION}`);
  }
  if (classes.hasDefault) return undefined;
  return `no class, and controller ${JSON.stringify(classes.controller)} has no default IngressClass`;
}

// ------------------------------------------------------------------ matching

/** R7: longer as written, Exact first, then Ingress rank, rule index, path index. */
function better(a: Candidate, b: Candidate): boolean {
  if (a.length !== b.length) return a.length > b.length;
  if (a.exact !== b.exact) return a.exact;
  if (a.rank !== b.rank) return a.rank < b.rank;
  if (a.rule !== b.rule) return a.rule < b.rule;
  return a.path < b.path;
}

function keepBest(map: Map<string, Candidate>, key: string, c: Candidate): void {
  const old = map.get(key);
  if (old === undefined || better(c, old)) map.set(key, c);
}

/** R6 + R7 over one tier: the request path equals an exact key, or equals or extends a prefix key. */
function bestMatch(tier: Tier, path: string): Candidate | undefined {
  let best = tier.exact.get(path);
  const consider = (c: Candidate | undefined): void => {
    if (c !== undefined && (best === undefined || better(c, best))) best = c;
  };
  consider(tier.catchAll);
  if (tier.prefix.size > 0) {
    consider(tier.prefix.get(path));
    // Every proper prefix of the path that is followed by "/".
    for (let i = path.indexOf("/", 1); i > 0; i = path.indexOf("/", i + 1)) consider(tier.prefix.get(path.slice(0, i)));
  }
  return best;
}

/** R3: drop the port (and the brackets of an IPv6 literal), lower-case. */
export function normaliseHost(header: string): string {
  let h = header;
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    if (end > 0) h = h.slice(1, end);
  } else {
    const colon = h.indexOf(":");
    // Only one colon can be a port separator; an unbracketed IPv6 literal keeps all of its.
    if (colon >= 0 && h.indexOf(":", colon + 1) < 0) h = h.slice(0, colon);
  }
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

// ------------------------------------------------------------------ ordering

/** The name and `namespace/name`; a generateName-only object goes by its prefix. */
function identify(meta: ObjectMeta | undefined): { name: string; key: string } {
  const name = meta === undefined ? "" : meta.name !== "" ? meta.name : meta.generateName;
  return { name, key: `${meta?.namespace || DEFAULT_NAMESPACE}/${name}` };
}

/** [seconds, nanos]; an Ingress without a timestamp ranks after every one with a timestamp. */
function creationTime(ing: Ingress): readonly [bigint, number] | undefined {
  const t = ing.metadata?.creationTimestamp;
  return t === undefined ? undefined : [t.seconds, t.nanos];
}

function compareTime(a: readonly [bigint, number] | undefined, b: readonly [bigint, number] | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
}

function listOf<T>(v: readonly T[] | undefined, at: string): readonly T[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EvaluatorInputError(at, "must be a list");
  return v;
}
