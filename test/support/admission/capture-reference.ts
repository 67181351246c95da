// A plainly written reference for the Ingress capture guard: build the router
// (createRouter, with IngressClasses so that its own R2 rules scope the
// competition) over the other Ingresses, and again with the candidate ranked
// oldest, then compare the routes of probe requests that reach every host
// tier and every set of matching paths. Nothing is shared with
// src/admission/guards/ingress-capture.ts.

import {
  createRouter,
  fromJson,
  INGRESS_CLASS_ANNOTATION,
  type Ingress,
  type IngressClass,
  type JsonObject,
  type Route,
  type Router,
} from "../../../src/networking/index.js";

// biome-ignore lint/suspicious/noExplicitAny: fixtures are read and spoiled through deep paths; unknown would need a cast at every step
type J = Record<string, any>;

/** The candidate ranks before every Ingress: older than any timestamp the tests use. */
const OLDEST = "2000-01-01T00:00:00Z";
const PROBE_SEGMENT = "~probe~";

export interface ReferenceCapture {
  readonly victim: string;
  readonly host: string;
  readonly path: string;
}

function keyOf(o: J): string {
  return `${o["metadata"]?.["namespace"] || "default"}/${o["metadata"]?.["name"]}`;
}

function classObject(name: string, controller: string, isDefault: boolean): J {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: isDefault ? { name, annotations: { "ingressclass.kubernetes.io/is-default-class": "true" } } : { name },
    spec: { controller },
  };
}

function classOf(o: J, defaultClass: string): string {
  if (o["spec"] !== undefined && "ingressClassName" in o["spec"]) return o["spec"]["ingressClassName"];
  const a = o["metadata"]?.["annotations"]?.[INGRESS_CLASS_ANNOTATION];
  return a ?? defaultClass;
}

/**
 * How the guard is scoped: by class name with a default class name, or by
 * controller from IngressClass objects (JSON).
 */
export type ReferenceScoping = { readonly defaultClass: string } | { readonly classes: readonly JsonObject[] };

/** The routers of the world without and with the candidate, one pair per controller that serves it, and the probes. */
export function referenceWorlds(
  existing: readonly JsonObject[],
  candidate: JsonObject,
  scoping: ReferenceScoping | string,
): { pairs: { before: Router; after: Router }[]; before: Router; after: Router; hosts: string[]; paths: string[] } {
  const scope: ReferenceScoping = typeof scoping === "string" ? { defaultClass: scoping } : scoping;
  const self = keyOf(candidate);
  // Later objects of one name replace earlier ones, as watch events do.
  const byKey = new Map<string, J>();
  for (const o of existing) byKey.set(keyOf(o), o);
  byKey.delete(self);
  const others = [...byKey.values()];
  const ranked = structuredClone(candidate) as J;
  ranked["metadata"]["creationTimestamp"] = OLDEST;
  const all = [...others, ranked];
  const classJson: J[] = [];
  if ("defaultClass" in scope) {
    // Every class name is a controller of its own; the default class serves Ingresses without one.
    const names = new Set<string>([scope.defaultClass, ...all.map((o) => classOf(o, scope.defaultClass))]);
    for (const name of names) classJson.push(classObject(name, `example.com/${name}`, name === scope.defaultClass));
  } else {
    classJson.push(...(scope.classes as J[]));
    const known = new Set(classJson.map((c) => c["metadata"]["name"] as string));
    // A class name no IngressClass defines stands for a controller of its own.
    for (const o of all) {
      const name = classOf(o, "");
      if (name !== "" && !known.has(name)) {
        known.add(name);
        classJson.push(classObject(name, `example.com/unknown-${name}`, false));
      }
    }
    // Without any default class, Ingresses that name none compete with each other only.
    const hasDefault = classJson.some(
      (c) => c["metadata"]["annotations"]?.["ingressclass.kubernetes.io/is-default-class"] === "true",
    );
    if (!hasDefault) classJson.push(classObject("zz-no-default", "example.com/none", true));
  }
  const classes = classJson.map((c) => fromJson(c as JsonObject) as IngressClass);
  const decode = (list: J[]): Ingress[] => list.map((o) => fromJson(o as JsonObject) as Ingress);
  const controllers = new Set(classJson.map((c) => c["spec"]["controller"] as string));
  const pairs: { before: Router; after: Router }[] = [];
  for (const controller of controllers) {
    const after = createRouter({ ingresses: decode(all), ingressClasses: classes, controller });
    // Only the controllers that serve the candidate (R2, as the router reads it).
    if (!after.inScope.includes(self)) continue;
    pairs.push({ before: createRouter({ ingresses: decode(others), ingressClasses: classes, controller }), after });
  }
  const first = pairs[0] ?? {
    before: createRouter({ ingresses: [] }),
    after: createRouter({ ingresses: [] }),
  };

  const hosts = new Set<string>(["", "elsewhere.test"]);
  const paths = new Set<string>(["", "/", `/${PROBE_SEGMENT}`]);
  for (const o of all) {
    for (const r of (o["spec"]?.["rules"] ?? []) as J[]) {
      const h: string = r["host"] ?? "";
      if (h.startsWith("*.")) hosts.add(`${PROBE_SEGMENT.slice(1, -1)}.${h.slice(2)}`);
      else if (h !== "") hosts.add(h);
      for (const p of (r["http"]?.["paths"] ?? []) as J[]) {
        const v: string = p["path"] ?? "";
        const trimmed = v.endsWith("/") ? v.slice(0, -1) : v;
        for (const base of [v, trimmed]) {
          paths.add(base);
          paths.add(`${base}/${PROBE_SEGMENT}`);
        }
      }
    }
  }
  return { pairs, before: first.before, after: first.after, hosts: [...hosts], paths: [...paths] };
}

/** Whether the candidate takes this request from an Ingress in another namespace (the guard's definition). */
export function takenFrom(b: Route | null, a: Route | null, namespace: string): string | undefined {
  if (b === null || b.via === "default") return undefined;
  if (b.ingress.slice(0, b.ingress.indexOf("/")) === namespace) return undefined;
  if (a?.ingress === b.ingress) return undefined;
  if (b.tier === "host-less" && a?.tier !== "host-less") return undefined;
  return b.ingress;
}

/** Every victim, with every probe request taken from it. */
export function referenceCaptures(
  existing: readonly JsonObject[],
  candidate: JsonObject,
  scoping: ReferenceScoping | string,
): Map<string, ReferenceCapture[]> {
  const { pairs, hosts, paths } = referenceWorlds(existing, candidate, scoping);
  const namespace = (candidate as J)["metadata"]?.["namespace"] || "default";
  const out = new Map<string, ReferenceCapture[]>();
  for (const { before, after } of pairs) {
    for (const host of hosts) {
      for (const path of paths) {
        const victim = takenFrom(before.route({ host, path }), after.route({ host, path }), namespace);
        if (victim === undefined) continue;
        const list = out.get(victim) ?? [];
        list.push({ victim, host, path });
        out.set(victim, list);
      }
    }
  }
  return out;
}
