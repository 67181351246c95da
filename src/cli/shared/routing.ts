import {
  DEFAULT_NAMESPACE,
  EvaluatorInputError,
  createRouter,
  kindOf,
  type Ingress,
  type IngressBackend,
  type IngressClass,
  type Route,
  type Router,
} from "../../networking/index.js";
import { CliError, EXIT_USAGE, usageError } from "./io.js";
import type { LoadedObjects } from "./manifests.js";
import { skippedLines } from "./notes.js";

// The router over loaded manifests and the words for its answers, shared by route and the demo's routes section.

/** An in-scope (or out-of-scope but valid) Ingress, and where it came from. */
export interface SourcedIngress {
  readonly ingress: Ingress;
  readonly source: string;
}

/** The router over the inputs, with what is needed to explain its answers. */
export interface RouterSetup {
  readonly router: Router;
  readonly controller: string | undefined;
  /** The Ingresses the router did not skip, by `namespace/name` (unique among them). */
  readonly ingresses: ReadonlyMap<string, SourcedIngress>;
  /** Where each of `router.skipped` came from. */
  readonly skippedSources: readonly string[];
  /** Lines for stderr: ignored inputs, skipped objects, out-of-scope Ingresses. */
  readonly notes: readonly string[];
}

/** Builds the router; IngressClasses in the inputs make --controller required. */
export function routerSetup(loaded: LoadedObjects, controller: string | undefined, command = "route"): RouterSetup {
  const ingresses: Ingress[] = [];
  const ingressSources: string[] = [];
  const classes: IngressClass[] = [];
  const classSources: string[] = [];
  const ignored = new Map<string, number>();
  for (const { object, source } of loaded.objects) {
    const kind = kindOf(object).kind;
    if (kind === "Ingress") {
      ingresses.push(object as Ingress);
      ingressSources.push(source);
    } else if (kind === "IngressClass") {
      classes.push(object as IngressClass);
      classSources.push(source);
    } else {
      ignored.set(kind, (ignored.get(kind) ?? 0) + 1);
    }
  }
  if (ingresses.length === 0) throw usageError("no Ingress in the inputs", command);
  const notes: string[] = [];
  for (const [kind, n] of ignored)
    notes.push(`ignored ${n} ${kind} ${n === 1 ? "object" : "objects"}: route reads Ingress and IngressClass`);
  if (loaded.watchEvents.length > 0) {
    const n = loaded.watchEvents.length;
    notes.push(`ignored ${n} watch ${n === 1 ? "event" : "events"}: a watch stream is a history, not a set of objects`);
  }
  if (classes.length > 0 && controller === undefined) {
    const seen = [...new Set(classes.map((c) => c.spec?.controller ?? "").filter((c) => c !== ""))].sort();
    const list = seen.length === 0 ? "none set" : seen.join(", ");
    throw usageError(
      `the inputs hold IngressClasses, so name the controller to evaluate with --controller (controllers seen: ${list})`,
      command,
    );
  }
  if (classes.length === 0 && controller !== undefined) {
    notes.push("no IngressClass in the inputs: class filtering is skipped and every Ingress is in scope (R2)");
  }
  let router: Router;
  try {
    router = createRouter(
      classes.length > 0 && controller !== undefined
        ? { ingresses, ingressClasses: classes, controller }
        : { ingresses },
    );
  } catch (e) {
    if (e instanceof EvaluatorInputError) throw new CliError(`cannot build the router: ${e.message}`, EXIT_USAGE);
    throw e;
  }
  const skippedIngress = new Set(router.skipped.filter((s) => s.kind === "Ingress").map((s) => s.index));
  const byKey = new Map<string, SourcedIngress>();
  ingresses.forEach((ingress, i) => {
    if (!skippedIngress.has(i)) byKey.set(ingressKey(ingress), { ingress, source: ingressSources[i] ?? "?" });
  });
  const skippedSources = router.skipped.map(
    (s) => (s.kind === "IngressClass" ? classSources : ingressSources)[s.index] ?? "?",
  );
  router.skipped.forEach((s, i) => {
    notes.push(...skippedLines(s, skippedSources[i] ?? "?"));
  });
  for (const o of router.outOfScope)
    notes.push(`out of scope: Ingress ${o.ingress} (${byKey.get(o.ingress)?.source ?? "?"}): ${o.reason}`);
  return { router, controller, ingresses: byKey, skippedSources, notes };
}

/** The router's `namespace/name`: a missing namespace is "default", a generateName-only object goes by its prefix. */
function ingressKey(ing: Ingress): string {
  const meta = ing.metadata;
  const name = meta === undefined ? "" : meta.name !== "" ? meta.name : meta.generateName;
  return `${meta?.namespace || DEFAULT_NAMESPACE}/${name}`;
}

// ------------------------------------------------------------------ explaining a route

/** `service shop-api:8080`, `service web:http`, `resource k8s.example.com/StorageBucket images`. */
export function describeBackend(b: IngressBackend): string {
  if (b.service !== undefined) {
    const port = b.service.port;
    const p = port === undefined ? "" : port.name !== "" ? `:${port.name}` : port.number !== 0 ? `:${port.number}` : "";
    return `service ${b.service.name}${p}`;
  }
  if (b.resource !== undefined) {
    const r = b.resource;
    const group = Object.hasOwn(r, "apiGroup") && r.apiGroup !== "" ? `${r.apiGroup}/` : "";
    return `resource ${group}${r.kind} ${r.name}`;
  }
  return "(empty backend)";
}

/** The backend for `route -o json`: service and resource, each null when unset, with their fields null when unset. */
export function backendJson(b: IngressBackend): Record<"service" | "resource", unknown> {
  // The same keys for every backend (`route -o json`): what the backend does not set is null.
  const r = b.resource;
  const service = b.service;
  const port = service?.port;
  return {
    service:
      service === undefined
        ? null
        : {
            name: service.name,
            port:
              port === undefined
                ? null
                : { name: port.name !== "" ? port.name : null, number: port.number !== 0 ? port.number : null },
          },
    resource:
      r === undefined
        ? null
        : { apiGroup: Object.hasOwn(r, "apiGroup") ? (r.apiGroup ?? null) : null, kind: r.kind, name: r.name },
  };
}

/** What the winning entry of the Ingress is: its field path, and for a path its pathType and path as written. */
export interface RouteSource {
  /** `spec.rules[1].http.paths[0]` or `spec.defaultBackend`. */
  readonly field: string;
  readonly pathType: string | null;
  /** The rule's path as written ("" for an empty ImplementationSpecific path). */
  readonly rulePath: string | null;
}

export function routeSource(route: Route, ingress: Ingress | undefined): RouteSource {
  if (route.rule === null || route.path === null)
    return { field: "spec.defaultBackend", pathType: null, rulePath: null };
  const p = ingress?.spec?.rules[route.rule]?.ingressRuleValue?.http?.paths[route.path];
  return {
    field: `spec.rules[${route.rule}].http.paths[${route.path}]`,
    pathType: p?.pathType ?? null,
    rulePath: p?.path ?? null,
  };
}

/** `Prefix /v1/cart`; an empty ImplementationSpecific path is shown as what it means. */
export function describeRulePath(src: RouteSource): string {
  if (src.pathType === null) return "";
  if (src.rulePath === "" || src.rulePath === null) return `${src.pathType} (no path, so "/")`;
  return `${src.pathType} ${src.rulePath}`;
}

/** One line for the demo: `HOST PATH -> BACKEND (INGRESS FIELD ..., via)`. */
export function routeSummary(label: string, route: Route | null, setup: RouterSetup): string {
  if (route === null) return `${label} -> no backend`;
  const src = routeSource(route, setup.ingresses.get(route.ingress)?.ingress);
  const rule = describeRulePath(src);
  const tier = route.tier === null ? "no host tier" : `${route.tier} host`;
  return `${label} -> ${describeBackend(route.backend)} (${route.ingress} ${src.field}${rule === "" ? "" : ` ${rule}`}; ${tier}; via ${route.via})`;
}
