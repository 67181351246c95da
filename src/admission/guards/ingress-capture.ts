// The Ingress capture guard (no I/O): an index of the cluster's Ingresses by
// class and host, and the answer, for an Ingress being created or updated, to
// "which requests already served by an Ingress in another namespace would it
// take?", by the router's rules (R1-R11 of docs/ingress-routing.md).
//
// What counts as a capture. Let `before` be the routes of the indexed
// Ingresses without the candidate (its own earlier version is left out: an
// update never conflicts with itself), and `after` the same Ingresses plus the
// candidate. A request is captured from V when
//   - `before` routes it to V, V is in another namespace than the candidate,
//     and V answered through one of its paths or its tier's defaultBackend
//     (R7, R9.1), not as the catch-all defaultBackend of R9.2;
//   - `after` routes it anywhere but V;
//   - and it is not a request V answered in the host-less tier that the
//     candidate pulls into a host tier of its own: naming a host is claiming
//     it out of the catch-all, not taking it from someone who named it.
// So: the same host and path, a more specific path on someone else's host
// (precise, wildcard or host-less tier), a precise host under someone else's
// wildcard, and a tier defaultBackend taking a host's unmatched paths are
// captures; a wildcard never takes a precisely named host (R4), and claiming
// a host that only a catch-all served is not a capture.
//
// Age. R7.3 and R9 let the older Ingress win ties. The guard ranks the
// candidate as if it were the oldest: an equal claim (same host, path length
// and type) is refused whatever the ages, since a tie decided by age flips
// when the older Ingress is re-created, and creationTimestamp has one-second
// resolution.
//
// Classes. Ingresses compete only when one controller serves both (R1, R2).
// With IngressClass objects (`byController`, fed by `replaceClasses`), an
// Ingress belongs to the controller of the class it names
// (spec.ingressClassName, else the kubernetes.io/ingress.class annotation),
// and one naming no class to every controller with a default class, as the
// router scopes them. Two deliberate departures keep Ingresses guarded: a
// class name no IngressClass defines, and "no class" while no class is the
// default, are each a scope of their own (the router would serve them with
// no controller at all). Without IngressClass objects, the class name is the
// scope, and Ingresses naming none take `defaultClass` (or compete only with
// each other).
//
// Speed. The index keeps, per scope, the Ingresses contributing rules to each
// host tier; a check looks only at the tiers the candidate's rules name (and,
// for a precise host, the wildcard tier above it), never the whole cluster,
// and looks paths up by key, a map read per path segment.
//
// Precedence is the router's own: the tiers (R4), the class an Ingress names
// (R2), path keys (R6), the orders between paths and between Ingresses (R7,
// R9) and the lookup by key come from its precedence module, the one internal
// entry this layer may import. What stays here is the index by scope and host
// tier, and the report of who would lose which request.

import {
  DEFAULT_CLASS_ANNOTATION,
  DEFAULT_NAMESPACE,
  validate,
  type Ingress,
  type IngressClass,
} from "../../networking/index.js";
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
  type CreationTime,
  type RankedPath,
} from "../../networking/evaluate/router/precedence.js";

/**
 * Which side of a conflict: a path of a rule, a rule that selects a host tier, or the defaultBackend.
 *
 * @example
 * ```ts
 * import { IngressCaptureIndex } from "clusterwire/admission";
 * import { IngressSchema, create } from "clusterwire/networking";
 *
 * const backend = (name: string) => ({ service: { name, port: { number: 80 } } });
 * const shop = create(IngressSchema, {
 *   metadata: { name: "shop", namespace: "web" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/", pathType: "Prefix", backend: backend("shop") }] } } }] },
 * });
 * const index = new IngressCaptureIndex();
 * index.replaceAll([shop]); // the cluster's Ingresses, from a list (then keep it current with set and remove)
 *
 * // Another namespace claims a longer path on the same host: it would take /cart from web/shop.
 * const candidate = create(IngressSchema, {
 *   metadata: { name: "grab", namespace: "other" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/cart", pathType: "Prefix", backend: backend("x") }] } } }] },
 * });
 * for (const c of index.check(candidate)) console.log(c.victimRule.value, c.candidateRule.value); // "/" "/cart"
 * ```
 */
export interface CaptureRuleRef {
  /** Index into `spec.rules`; null for `spec.defaultBackend`. */
  readonly rule: number | null;
  /** Index into that rule's `http.paths`; null for the defaultBackend, or for a rule that took the host without a matching path. */
  readonly path: number | null;
  /** The rule's host as written (`*.example.com`, "" for none); null for the defaultBackend. */
  readonly host: string | null;
  /** The path as written; null when `path` is null. */
  readonly value: string | null;
  /** Exact, Prefix or ImplementationSpecific; null when `path` is null. */
  readonly pathType: string | null;
}

/**
 * One Ingress whose requests a candidate Ingress would take, with a request it would take and the two rules.
 *
 * @example
 * ```ts
 * import { IngressCaptureIndex } from "clusterwire/admission";
 * import { IngressSchema, create } from "clusterwire/networking";
 *
 * const backend = (name: string) => ({ service: { name, port: { number: 80 } } });
 * const shop = create(IngressSchema, {
 *   metadata: { name: "shop", namespace: "web" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/", pathType: "Prefix", backend: backend("shop") }] } } }] },
 * });
 * const index = new IngressCaptureIndex();
 * index.replaceAll([shop]); // the cluster's Ingresses, from a list (then keep it current with set and remove)
 *
 * // Another namespace claims a longer path on the same host: it would take /cart from web/shop.
 * const candidate = create(IngressSchema, {
 *   metadata: { name: "grab", namespace: "other" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/cart", pathType: "Prefix", backend: backend("x") }] } } }] },
 * });
 * for (const c of index.check(candidate)) console.log(c.victim, c.request); // "web/shop" { host: "shop.example.com", path: "/cart" }
 * ```
 */
export interface CaptureConflict {
  /** `namespace/name` of the Ingress the requests are taken from. */
  readonly victim: string;
  /** One request taken: the Host header ("" reaches only host-less rules, R3) and the path. */
  readonly request: { readonly host: string; readonly path: string };
  /** The victim's path (or defaultBackend) that answered the request before. */
  readonly victimRule: CaptureRuleRef;
  /** The candidate's path, rule or defaultBackend that makes it answer differently. */
  readonly candidateRule: CaptureRuleRef;
}

/**
 * Options of {@link IngressCaptureIndex}: how Ingresses are grouped into competing scopes.
 *
 * @example
 * ```ts
 * import { IngressCaptureIndex } from "clusterwire/admission";
 *
 * const byClassName = new IngressCaptureIndex({ defaultClass: "nginx" });
 * const byController = new IngressCaptureIndex({ byController: true }); // feed it replaceClasses() too
 * ```
 */
export interface IngressCaptureIndexOptions {
  /**
   * The class of Ingresses that name none (the cluster's default
   * IngressClass), when IngressClass objects are not given.
   */
  readonly defaultClass?: string;
  /**
   * Scope by controller, from IngressClass objects given with
   * `replaceClasses` (and `setClass`/`removeClass`); the index is not synced
   * until they are. Default false: scope by class name.
   */
  readonly byController?: boolean;
}

/** One path, as written and as R6 and R7 read it (pathShape). */
interface PathEntry {
  readonly rule: number;
  readonly path: number;
  readonly host: string;
  readonly value: string;
  readonly pathType: string;
  readonly length: number;
  readonly exact: boolean;
  readonly key: string;
}

interface Entry {
  readonly key: string;
  readonly namespace: string;
  /** The class the Ingress names (R2's order), or undefined for none. */
  readonly className: string | undefined;
  readonly time: CreationTime;
  readonly hasDefault: boolean;
  /** Tier key ("p:host", "w:suffix", "h:") to the rule indices contributing to it. */
  readonly tiers: ReadonlyMap<string, readonly number[]>;
  /** Paths by tier key. */
  readonly paths: ReadonlyMap<string, readonly PathEntry[]>;
}

interface Scope {
  /** Tier key to the Ingresses contributing rules to it. */
  readonly tiers: Map<string, Set<Entry>>;
  readonly members: Set<Entry>;
  /** Members with a defaultBackend, best first (R9.2); rebuilt on demand after a change. */
  defaults: Entry[] | undefined;
  /** Per tier key, its Ingresses in the router's order (compareRank); built on demand, dropped when the tier changes. */
  readonly ranked: Map<string, Entry[]>;
}

/** A path competing in a tier, ranked: its Ingress (undefined: the candidate, which ranks first) and the path. */
interface Competitor extends RankedPath {
  readonly entry: Entry | undefined;
  readonly p: PathEntry;
}

/** Who answers a request: an Ingress and how. */
interface Answer {
  readonly entry: Entry | undefined;
  /** The path that matched; undefined for a defaultBackend. */
  readonly c: Competitor | undefined;
  /** "global" is R9.2, never protected. */
  readonly via: "path" | "tier-default" | "global";
}

/** The host tier keys of the index: "p:host", "w:suffix" and "h:". */
const TIER_PREFIX = { precise: "p:", wildcard: "w:", "host-less": "h:" } as const;

/**
 * The cluster's Ingresses, indexed for capture checks. Feed it from a watch:
 * `replaceAll` on each (re)list, `set`/`remove` per event. It answers only
 * once `synced` (after the first `replaceAll`); Ingresses that validate()
 * rejects are not indexed (the router leaves them out too).
 *
 * @example
 * ```ts
 * import { IngressCaptureIndex } from "clusterwire/admission";
 * import { IngressSchema, create } from "clusterwire/networking";
 *
 * const backend = (name: string) => ({ service: { name, port: { number: 80 } } });
 * const shop = create(IngressSchema, {
 *   metadata: { name: "shop", namespace: "web" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/", pathType: "Prefix", backend: backend("shop") }] } } }] },
 * });
 * const index = new IngressCaptureIndex();
 * index.replaceAll([shop]); // the cluster's Ingresses, from a list (then keep it current with set and remove)
 *
 * // Another namespace claims a longer path on the same host: it would take /cart from web/shop.
 * const candidate = create(IngressSchema, {
 *   metadata: { name: "grab", namespace: "other" },
 *   spec: { rules: [{ host: "shop.example.com", ingressRuleValue: { http: { paths: [{ path: "/cart", pathType: "Prefix", backend: backend("x") }] } } }] },
 * });
 * console.log(index.synced, index.check(candidate).length); // true 1
 * ```
 */
export class IngressCaptureIndex {
  readonly #byKey = new Map<string, Entry>();
  /** Every Ingress given, valid or not, with the resourceVersion it had. */
  readonly #seen = new Map<string, { readonly rv: string; readonly entry: Entry | undefined }>();
  readonly #scopes = new Map<string, Scope>();
  readonly #defaultClass: string | undefined;
  readonly #byController: boolean;
  /** IngressClass objects by name, as given. */
  readonly #classObjects = new Map<string, IngressClass>();
  /** Valid classes' controllers by class name, and the controllers with a default class (R2). */
  #classes: { readonly byName: ReadonlyMap<string, string>; readonly defaults: readonly string[] } | undefined;
  #synced = false;
  #classesSynced = false;

  constructor(options: IngressCaptureIndexOptions = {}) {
    this.#defaultClass = options.defaultClass;
    this.#byController = options.byController === true;
  }

  /** Whether Ingresses are scoped by the controllers of IngressClass objects. */
  get byController(): boolean {
    return this.#byController;
  }

  /** Whether a full list has been loaded (of IngressClasses too, when scoping by controller). */
  get synced(): boolean {
    return this.#synced && (!this.#byController || this.#classesSynced);
  }

  /** Replaces the IngressClasses (a list or relist); Ingresses are scoped again by their controllers. */
  replaceClasses(classes: Iterable<IngressClass>): void {
    this.#classObjects.clear();
    for (const c of classes) this.#classObjects.set(c.metadata?.name ?? "", c);
    this.#classesSynced = true;
    this.#rescope();
  }

  /** Adds or replaces one IngressClass. */
  setClass(ingressClass: IngressClass): void {
    this.#classObjects.set(ingressClass.metadata?.name ?? "", ingressClass);
    this.#rescope();
  }

  /** Removes one IngressClass. */
  removeClass(name: string): void {
    if (this.#classObjects.delete(name)) this.#rescope();
  }

  #rescope(): void {
    const byName = new Map<string, string>();
    const defaults = new Set<string>();
    for (const [name, c] of this.#classObjects) {
      // The router leaves out classes that validate() rejects.
      if (name === "" || validate(c).length > 0) continue;
      const controller = c.spec?.controller ?? "";
      byName.set(name, controller);
      if (c.metadata?.annotations[DEFAULT_CLASS_ANNOTATION] === "true") defaults.add(controller);
    }
    this.#classes = { byName, defaults: [...defaults] };
    const entries = [...this.#byKey.values()];
    this.#byKey.clear();
    this.#scopes.clear();
    for (const e of entries) this.#insert(e);
  }

  /**
   * The scopes an Ingress competes in. By class name: its class, else the
   * default class, else "" (no class). By controller (R2): the controller of
   * its class; for no class, every controller with a default class. A class
   * with no IngressClass object (or no default class anywhere) stays a scope
   * of its own rather than leaving the Ingress unguarded.
   */
  #scopesOf(className: string | undefined): readonly string[] {
    const classes = this.#classes;
    if (!this.#byController || classes === undefined) {
      const name = className ?? this.#defaultClass;
      return [name === undefined ? "" : `=${name}`];
    }
    if (className !== undefined) {
      const controller = classes.byName.get(className);
      return [controller === undefined ? `=${className}` : `c:${controller}`];
    }
    return classes.defaults.length > 0 ? classes.defaults.map((c) => `c:${c}`) : [""];
  }

  /** How many Ingresses are indexed. */
  get size(): number {
    return this.#byKey.size;
  }

  /** Replaces the whole index (a list or relist) and marks it synced. */
  replaceAll(ingresses: Iterable<Ingress>): void {
    // A relist mostly returns what the index holds: an object whose resourceVersion
    // is unchanged keeps its entry instead of being validated again (10,000
    // Ingresses take about a second to validate, time the event loop would not serve reviews).
    const previous = new Map(this.#seen);
    this.#byKey.clear();
    this.#scopes.clear();
    this.#seen.clear();
    for (const ing of ingresses) {
      const { key, namespace } = identifyIngress(ing.metadata);
      const rv = ing.metadata?.resourceVersion ?? "";
      // A later object of one name replaces an earlier one, as with set().
      if (this.#seen.has(key)) this.remove(namespace, key.slice(namespace.length + 1));
      const known = previous.get(key);
      if (rv !== "" && known?.rv === rv) {
        this.#seen.set(key, known);
        if (known.entry !== undefined) this.#insert(known.entry);
      } else {
        this.#add(ing, key, namespace);
      }
    }
    this.#synced = true;
  }

  /** Adds or replaces one Ingress (ADDED, MODIFIED); an invalid one is removed instead. */
  set(ingress: Ingress): void {
    const { key, namespace } = identifyIngress(ingress.metadata);
    this.remove(namespace, key.slice(namespace.length + 1));
    this.#add(ingress, key, namespace);
  }

  #add(ingress: Ingress, key: string, namespace: string): void {
    const rv = ingress.metadata?.resourceVersion ?? "";
    if (validate(ingress).length > 0) {
      this.#seen.set(key, { rv, entry: undefined });
      return;
    }
    const entry = toEntry(ingress, key, namespace);
    this.#seen.set(key, { rv, entry });
    this.#insert(entry);
  }

  #insert(entry: Entry): void {
    this.#byKey.set(entry.key, entry);
    for (const name of this.#scopesOf(entry.className)) {
      const scope = this.#scope(name);
      scope.members.add(entry);
      if (entry.hasDefault) scope.defaults = undefined;
      for (const tier of entry.tiers.keys()) {
        const set = scope.tiers.get(tier);
        if (set === undefined) scope.tiers.set(tier, new Set([entry]));
        else set.add(entry);
        scope.ranked.delete(tier);
      }
    }
  }

  /** Removes one Ingress (DELETED); unknown names are ignored. */
  remove(namespace: string, name: string): void {
    const key = `${namespace || DEFAULT_NAMESPACE}/${name}`;
    this.#seen.delete(key);
    const entry = this.#byKey.get(key);
    if (entry === undefined) return;
    this.#byKey.delete(key);
    for (const name of this.#scopesOf(entry.className)) {
      const scope = this.#scopes.get(name);
      if (scope === undefined) continue;
      scope.members.delete(entry);
      if (entry.hasDefault) scope.defaults = undefined;
      for (const tier of entry.tiers.keys()) {
        const set = scope.tiers.get(tier);
        set?.delete(entry);
        if (set?.size === 0) scope.tiers.delete(tier);
        scope.ranked.delete(tier);
      }
      if (scope.members.size === 0) this.#scopes.delete(name);
    }
  }

  /**
   * The Ingresses in other namespaces whose requests `candidate` would take,
   * one conflict per victim (the first found: tiers in the order the candidate's rules name them).
   * `namespace` is the request's namespace when the object carries none. The
   * candidate is assumed valid (admit() validates first).
   */
  check(candidate: Ingress, namespace = ""): CaptureConflict[] {
    const ns = candidate.metadata?.namespace || namespace || DEFAULT_NAMESPACE;
    const { key: self } = identifyIngress(candidate.metadata, ns);
    const cand = toEntry(candidate, self, ns);
    const found = new Map<string, CaptureConflict>();
    // Each controller that would serve the candidate is checked on its own (R1).
    for (const name of this.#scopesOf(cand.className)) {
      const scope = this.#scopes.get(name);
      if (scope === undefined) continue;
      const others = (tier: string): Entry[] => ranked(scope, tier).filter((e) => e.key !== self);
      for (const [tier, rules] of cand.tiers) {
        const existing = others(tier);
        if (existing.length > 0) {
          this.#inTier(cand, scope, tier, existing, found);
        } else if (tier.startsWith("p:")) {
          const suffix = wildcardKey(tier.slice(2));
          if (suffix === undefined) continue;
          const wildTier = TIER_PREFIX.wildcard + suffix;
          const above = others(wildTier);
          if (above.length > 0) this.#underWildcard(cand, scope, tier, wildTier, rules[0] ?? 0, above, found);
        }
        // A new wildcard or host-less tier takes only what a catch-all served.
      }
    }
    return [...found.values()];
  }

  /** The candidate competes in a tier that already exists. */
  #inTier(
    cand: Entry,
    scope: Scope,
    tier: string,
    existing: readonly Entry[],
    found: Map<string, CaptureConflict>,
  ): void {
    const { before, tierDefault: tierDefaultBefore } = rankedTier(existing, tier);
    const mine = candidatePaths(cand, tier);
    const host = witnessHost(tier, cand, scope);
    for (const path of probes(before, mine)) {
      // The candidate changes a request only by a better path, or by its defaultBackend where no path matches.
      const win = mine.best(path);
      if (win === undefined && !cand.hasDefault) continue;
      const old = answerIn(before, path, tierDefaultBefore);
      if (old === undefined || old.via === "global" || old.entry === undefined) continue;
      if (old.entry.namespace === cand.namespace) continue;
      let now: Answer | undefined;
      if (win !== undefined && (old.c === undefined || betterPath(win, old.c))) {
        now = { entry: undefined, c: win, via: "path" };
      } else if (old.via === "tier-default" && win === undefined && cand.hasDefault) {
        now = { entry: undefined, c: undefined, via: "tier-default" };
      }
      if (now === undefined) continue;
      record(found, old, now, cand, tier, { host, path });
    }
  }

  /** A new precise host of the candidate under a wildcard tier that served it before (R4). */
  #underWildcard(
    cand: Entry,
    scope: Scope,
    tier: string,
    wildTier: string,
    rule: number,
    above: readonly Entry[],
    found: Map<string, CaptureConflict>,
  ): void {
    const { before, tierDefault: tierDefaultBefore } = rankedTier(above, wildTier);
    const mine = candidatePaths(cand, tier);
    // After: only the candidate's rules in the new tier, then its defaultBackend, then R9.2 without it.
    const globalAfter = cand.hasDefault ? undefined : this.#globalDefault(scope, cand.key);
    const host = tier.slice(2);
    for (const path of probes(before, mine)) {
      const old = answerIn(before, path, tierDefaultBefore);
      if (old === undefined || old.via === "global" || old.entry === undefined) continue;
      if (old.entry.namespace === cand.namespace) continue;
      const win = mine.best(path);
      const now: Answer =
        win !== undefined
          ? { entry: undefined, c: win, via: "path" }
          : cand.hasDefault
            ? { entry: undefined, c: undefined, via: "tier-default" }
            : { entry: globalAfter, c: undefined, via: "global" };
      if (now.entry !== undefined && now.entry === old.entry) continue;
      record(found, old, now, cand, tier, { host, path }, rule);
    }
  }

  /** R9.2 among the scope's Ingresses other than `self`. */
  #globalDefault(scope: Scope, self: string): Entry | undefined {
    scope.defaults ??= [...scope.members].filter((e) => e.hasDefault).sort(compareRank);
    return scope.defaults.find((e) => e.key !== self);
  }

  #scope(name: string): Scope {
    const found = this.#scopes.get(name);
    if (found !== undefined) return found;
    const s: Scope = { tiers: new Map(), members: new Set(), defaults: undefined, ranked: new Map() };
    this.#scopes.set(name, s);
    return s;
  }
}

/** A request host that selects `tier`: the host itself, a label under a wildcard no precise tier claims, or "" (R3). */
function witnessHost(tier: string, cand: Entry, scope: Scope): string {
  if (tier.startsWith("p:")) return tier.slice(2);
  if (tier === "h:") return "";
  const suffix = tier.slice(2);
  for (let i = 0; ; i++) {
    const host = `capture-probe-${i}.${suffix}`;
    if (!scope.tiers.has(`p:${host}`) && !cand.tiers.has(`p:${host}`)) return host;
  }
}

/** Keeps the first conflict per victim. */
function record(
  found: Map<string, CaptureConflict>,
  old: Answer,
  now: Answer,
  cand: Entry,
  tier: string,
  request: { host: string; path: string },
  tierRule?: number,
): void {
  const victim = old.entry!.key;
  if (found.has(victim)) return;
  const candidateRule: CaptureRuleRef =
    now.entry === undefined && now.c !== undefined
      ? ref(now.c.p)
      : now.entry === undefined && now.via === "tier-default"
        ? { rule: null, path: null, host: null, value: null, pathType: null }
        : {
            rule: tierRule ?? cand.tiers.get(tier)?.[0] ?? 0,
            path: null,
            host: hostOfTier(tier),
            value: null,
            pathType: null,
          };
  const victimRule: CaptureRuleRef =
    old.c === undefined ? { rule: null, path: null, host: null, value: null, pathType: null } : ref(old.c.p);
  found.set(victim, { victim, request, victimRule, candidateRule });
}

function ref(p: PathEntry): CaptureRuleRef {
  return { rule: p.rule, path: p.path, host: p.host, value: p.value, pathType: p.pathType };
}

function hostOfTier(tier: string): string {
  return tier.startsWith("w:") ? `*.${tier.slice(2)}` : tier.slice(2);
}

/** The Ingresses of a tier of a scope, best first by the router's order (R7.3, R7.4). */
function ranked(scope: Scope, tier: string): readonly Entry[] {
  let list = scope.ranked.get(tier);
  if (list === undefined) {
    const set = scope.tiers.get(tier);
    // A tier nobody uses yet (a fresh host) is not remembered.
    if (set === undefined) return [];
    list = [...set].sort(compareRank);
    scope.ranked.set(tier, list);
  }
  return list;
}

/**
 * The paths of a tier's Ingresses (given best first) ranked in that order,
 * after the candidate (rank 0), and R9.1's tier default: the best-ranked
 * Ingress with a defaultBackend.
 */
function rankedTier(
  entries: readonly Entry[],
  tier: string,
): { before: PathIndex<Competitor>; tierDefault: Entry | undefined } {
  const before = new PathIndex<Competitor>();
  entries.forEach((e, i) => {
    for (const p of e.paths.get(tier) ?? []) before.add(competitor(e, i + 1, p));
  });
  return { before, tierDefault: entries.find((e) => e.hasDefault) };
}

function candidatePaths(cand: Entry, tier: string): PathIndex<Competitor> {
  const mine = new PathIndex<Competitor>();
  for (const p of cand.paths.get(tier) ?? []) mine.add(competitor(undefined, 0, p));
  return mine;
}

function competitor(entry: Entry | undefined, rank: number, p: PathEntry): Competitor {
  return { rank, rule: p.rule, path: p.path, length: p.length, exact: p.exact, key: p.key, entry, p };
}

/** R7 and R9.1 inside one tier. */
function answerIn(paths: PathIndex<Competitor>, path: string, tierDefault: Entry | undefined): Answer | undefined {
  const c = paths.best(path);
  if (c !== undefined) return { entry: c.entry, c, via: "path" };
  if (tierDefault !== undefined) return { entry: tierDefault, c: undefined, via: "tier-default" };
  return undefined;
}

/**
 * Request paths that reach every distinct set of matching paths: each key
 * itself, each key extended by a segment no key contains, and such a segment
 * alone. Any request matches the same paths as one of these (R6).
 */
function probes(a: PathIndex<Competitor>, b: PathIndex<Competitor>): Set<string> {
  const fresh = `/${"z".repeat(Math.max(a.longest, b.longest) + 1)}`;
  const out = new Set<string>([fresh]);
  for (const lookup of [a, b]) {
    for (const key of lookup.keys()) {
      out.add(key);
      out.add(key + fresh);
    }
  }
  return out;
}

function toEntry(ing: Ingress, key: string, namespace: string): Entry {
  const tiers = new Map<string, number[]>();
  const paths = new Map<string, PathEntry[]>();
  const spec = ing.spec;
  spec?.rules.forEach((rule, ruleIndex) => {
    const host = rule.host;
    const { kind, key: tierKey } = ruleTier(host);
    const tier = TIER_PREFIX[kind] + tierKey;
    const rules = tiers.get(tier) ?? [];
    tiers.set(tier, rules);
    rules.push(ruleIndex);
    const list = paths.get(tier) ?? [];
    paths.set(tier, list);
    (rule.ingressRuleValue?.http?.paths ?? []).forEach((p, pathIndex) => {
      if (p.backend === undefined) return;
      const { length, exact, key } = pathShape(p.pathType, p.path);
      list.push({ rule: ruleIndex, path: pathIndex, host, value: p.path, pathType: p.pathType, length, exact, key });
    });
  });
  return {
    key,
    namespace,
    className: ingressClassOf(ing)?.name,
    time: creationTime(ing),
    hasDefault: spec?.defaultBackend !== undefined,
    tiers,
    paths,
  };
}
