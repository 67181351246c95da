// The Ingress router's precedence, in one home: which host tier a rule joins
// and a request host reaches (R4), which class an Ingress names (R2's order),
// how a path is matched and measured (R6, R7.1), the order between paths (R7)
// and between Ingresses (R7.3, R7.4, R9), and the lookup of the best path of a
// tier by key. The router (router.ts) is built on it, and so is the
// ingress-capture guard of clusterwire/admission, which asks tier by tier who
// answers a request before and after a candidate Ingress. This file is the one
// internal entry the admission layer may import besides clusterwire/networking
// (the layer table names it), so both read the same rules.

import type { Ingress } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { ObjectMeta } from "../../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { DEFAULT_NAMESPACE, INGRESS_CLASS_ANNOTATION } from "../../model/constants.js";
import { isZeroTime } from "../../model/zero.js";
import type { HostTier } from "./types.js";

// ------------------------------------------------------------------ host tiers

/**
 * R4: the tier a rule's host joins, and its key there: the host for a
 * precise host, the suffix after `*.` for a wildcard, "" for none.
 *
 * @example
 * ```ts
 * import { ruleTier } from "./precedence.js";
 *
 * console.log(ruleTier("*.example.com")); // { kind: "wildcard", key: "example.com" }
 * console.log(ruleTier("")); // { kind: "host-less", key: "" }
 * ```
 */
export function ruleTier(host: string): { readonly kind: HostTier; readonly key: string } {
  if (host === "") return { kind: "host-less", key: "" };
  return host.startsWith("*.") ? { kind: "wildcard", key: host.slice(2) } : { kind: "precise", key: host };
}

/**
 * R4: the wildcard key (see {@link ruleTier}) whose tier serves a request host
 * that no precise tier claims: everything after its first label; undefined
 * when the host has no dot after a first label.
 *
 * @example
 * ```ts
 * import { wildcardKey } from "./precedence.js";
 *
 * console.log(wildcardKey("shop.example.com")); // "example.com"
 * console.log(wildcardKey("localhost")); // undefined
 * ```
 */
export function wildcardKey(host: string): string | undefined {
  const dot = host.indexOf(".");
  return dot > 0 ? host.slice(dot + 1) : undefined;
}

// ------------------------------------------------------------------ classes

/**
 * R2's order: the class an Ingress names, by `spec.ingressClassName`, else by
 * the `kubernetes.io/ingress.class` annotation; undefined when it names none.
 *
 * @example
 * ```ts
 * import { IngressSchema, create } from "clusterwire/networking";
 * import { ingressClassOf } from "./precedence.js";
 *
 * const ing = create(IngressSchema, { spec: { ingressClassName: "nginx" } });
 * console.log(ingressClassOf(ing)); // { name: "nginx", via: "ingressClassName" }
 * ```
 */
export function ingressClassOf(
  ing: Ingress,
): { readonly name: string; readonly via: "ingressClassName" | "annotation" } | undefined {
  const spec = ing.spec;
  if (spec !== undefined && Object.hasOwn(spec, "ingressClassName")) {
    return { name: spec.ingressClassName, via: "ingressClassName" };
  }
  const annotations = ing.metadata?.annotations;
  if (annotations !== undefined && Object.hasOwn(annotations, INGRESS_CLASS_ANNOTATION)) {
    return { name: annotations[INGRESS_CLASS_ANNOTATION]!, via: "annotation" };
  }
  return undefined;
}

// ------------------------------------------------------------------ ordering Ingresses

/**
 * The name an Ingress goes by (a generateName-only object by its prefix), its
 * namespace (`namespace`, else its own, else "default") and `namespace/name`,
 * the key R7.4 orders by.
 *
 * @example
 * ```ts
 * import { identifyIngress } from "./precedence.js";
 *
 * console.log(identifyIngress(undefined).key); // "default/"
 * ```
 */
export function identifyIngress(
  meta: ObjectMeta | undefined,
  namespace?: string,
): { readonly name: string; readonly namespace: string; readonly key: string } {
  const name = meta === undefined ? "" : meta.name !== "" ? meta.name : meta.generateName;
  const ns = namespace ?? (meta?.namespace || DEFAULT_NAMESPACE);
  return { name, namespace: ns, key: `${ns}/${name}` };
}

/** A creation time as [seconds, nanos], or undefined when the Ingress has none. */
export type CreationTime = readonly [bigint, number] | undefined;

/**
 * An Ingress's creationTimestamp as [seconds, nanos]; undefined without one.
 * Decoded objects carry Go's zero time (an empty Time) where the timestamp
 * was absent, so that counts as absent too.
 *
 * @example
 * ```ts
 * import { IngressSchema, create } from "clusterwire/networking";
 * import { creationTime } from "./precedence.js";
 *
 * console.log(creationTime(create(IngressSchema, {}))); // undefined
 * ```
 */
export function creationTime(ing: Ingress): CreationTime {
  const t = ing.metadata?.creationTimestamp;
  return t === undefined || isZeroTime(t) ? undefined : [t.seconds, t.nanos];
}

/**
 * What Ingresses are ordered by: age and `namespace/name`.
 *
 * @example
 * ```ts
 * import type { RankKey } from "./precedence.js";
 *
 * const older: RankKey = { time: [1_700_000_000n, 0], key: "web/shop" };
 * ```
 */
export interface RankKey {
  /** The creation time ({@link creationTime}); an Ingress without one ranks after every one with one. */
  readonly time: CreationTime;
  /** `namespace/name` ({@link identifyIngress}), the tie-break at the same age. */
  readonly key: string;
}

/**
 * R7.3, R7.4 and R9: negative when `a` takes precedence over `b`. Older first
 * (no timestamp last), then the smaller `namespace/name`. Sorting by it gives
 * each Ingress its rank.
 *
 * @example
 * ```ts
 * import { compareRank } from "./precedence.js";
 *
 * const a = { time: [1n, 0] as const, key: "b/x" };
 * const b = { time: undefined, key: "a/x" };
 * console.log(compareRank(a, b) < 0); // true: a timestamp beats none
 * ```
 */
export function compareRank(a: RankKey, b: RankKey): number {
  const x = a.time;
  const y = b.time;
  if (x === undefined || y === undefined) {
    if (x !== y) return x === undefined ? 1 : -1;
  } else if (x[0] !== y[0]) {
    return x[0] < y[0] ? -1 : 1;
  } else if (x[1] !== y[1]) {
    return x[1] - y[1];
  }
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

// ------------------------------------------------------------------ paths

/**
 * How R6 and R7.1 read a path: its length as written (an empty
 * ImplementationSpecific path counts as "/"), whether it is Exact, and the
 * key a request path is compared with: the path itself for Exact; for the
 * others the path with one trailing "/" removed, and "" for "/", which
 * matches every request.
 *
 * @example
 * ```ts
 * import { pathShape } from "./precedence.js";
 *
 * console.log(pathShape("Prefix", "/api/")); // { length: 5, exact: false, key: "/api" }
 * ```
 */
export function pathShape(
  pathType: string,
  path: string,
): { readonly length: number; readonly exact: boolean; readonly key: string } {
  const written = pathType === "ImplementationSpecific" && path === "" ? "/" : path;
  const exact = pathType === "Exact";
  return {
    length: written.length,
    exact,
    key: exact ? written : written.endsWith("/") ? written.slice(0, -1) : written,
  };
}

/**
 * One path of one rule of a tier, with what R7 orders by.
 *
 * @example
 * ```ts
 * import { type RankedPath, pathShape } from "./precedence.js";
 *
 * const p: RankedPath = { rank: 0, rule: 0, path: 1, ...pathShape("Exact", "/healthz") };
 * ```
 */
export interface RankedPath {
  /** The position of its Ingress in the order of {@link compareRank}: lower wins. */
  readonly rank: number;
  /** Index of the rule in `spec.rules`. */
  readonly rule: number;
  /** Index of the path in the rule's `http.paths`. */
  readonly path: number;
  /** {@link pathShape}'s length. */
  readonly length: number;
  /** {@link pathShape}'s exact. */
  readonly exact: boolean;
  /** {@link pathShape}'s key. */
  readonly key: string;
}

/**
 * R7: whether `a` wins over `b` when both match a request: longer as written,
 * Exact first, then the Ingress's rank, the rule index, the path index.
 *
 * @example
 * ```ts
 * import { betterPath, pathShape } from "./precedence.js";
 *
 * const prefix = { rank: 0, rule: 0, path: 0, ...pathShape("Prefix", "/foo") };
 * const exact = { rank: 1, rule: 0, path: 0, ...pathShape("Exact", "/foo") };
 * console.log(betterPath(exact, prefix)); // true (R7.2)
 * ```
 */
export function betterPath(a: RankedPath, b: RankedPath): boolean {
  if (a.length !== b.length) return a.length > b.length;
  if (a.exact !== b.exact) return a.exact;
  if (a.rank !== b.rank) return a.rank < b.rank;
  if (a.rule !== b.rule) return a.rule < b.rule;
  return a.path < b.path;
}

/**
 * The paths of one tier, keyed as R6 compares them, keeping the best (R7) per
 * key: a request can match only the Exact key equal to it, the catch-all
 * (""), and the Prefix keys equal to it or to a part of it that ends before a
 * "/", so a lookup costs a map read per path segment however many paths the
 * tier has.
 *
 * @example
 * ```ts
 * import { PathIndex, pathShape } from "./precedence.js";
 *
 * const tier = new PathIndex();
 * tier.add({ rank: 0, rule: 0, path: 0, ...pathShape("Prefix", "/") });
 * tier.add({ rank: 1, rule: 0, path: 0, ...pathShape("Prefix", "/api") });
 * console.log(tier.best("/api/v1")?.rank, tier.best("/apix")?.rank); // 1 0
 * ```
 */
export class PathIndex<C extends RankedPath = RankedPath> {
  /** Exact paths by the path a request must equal. */
  readonly exact = new Map<string, C>();
  /** Prefix and ImplementationSpecific paths by the path a request must equal or extend with "/". */
  readonly prefix = new Map<string, C>();
  /** The length of the longest key. */
  longest = 0;

  /** Adds a path; it replaces the one held under its key only when it wins (R7). */
  add(c: C): void {
    const map = c.exact ? this.exact : this.prefix;
    const held = map.get(c.key);
    if (held === undefined || betterPath(c, held)) map.set(c.key, c);
    if (c.key.length > this.longest) this.longest = c.key.length;
  }

  /** R6 + R7: the best path matching the request path `path`, if any. */
  best(path: string): C | undefined {
    let best = this.exact.get(path);
    const consider = (c: C | undefined): void => {
      if (c !== undefined && (best === undefined || betterPath(c, best))) best = c;
    };
    const prefix = this.prefix;
    consider(prefix.get(""));
    consider(prefix.get(path));
    for (let i = path.indexOf("/", 1); i > 0; i = path.indexOf("/", i + 1)) consider(prefix.get(path.slice(0, i)));
    return best;
  }

  /** Every key held: the Exact ones, then the others. */
  *keys(): Iterable<string> {
    yield* this.exact.keys();
    yield* this.prefix.keys();
  }
}
