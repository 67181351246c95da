// A deliberately naive Ingress router for differential tests: ../shared/docs/semantics.md
// §1.1.2 R1–R11 read literally, with no index. Every request rescans every
// in-scope Ingress, rule and path, sorts the matches by the R7 keys and falls
// back per R9. Nothing here is shared with src/networking/evaluate/router/router.ts except the
// types and validate(), so a misreading in one is not copied into the other.

import type {
  HTTPIngressPath,
  Ingress,
  IngressBackend,
  IngressClass,
} from "../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { Time } from "../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import type { SkippedObject } from "../../src/networking/evaluate/types.js";
import type { HostTier, Route, RouteRequest } from "../../src/networking/evaluate/router/types.js";
import type { FieldError } from "../../src/networking/validation/field-error.js";
import { validate } from "../../src/networking/validation/validate.js";

export interface ReferenceInput {
  readonly ingresses: readonly Ingress[];
  readonly ingressClasses?: readonly IngressClass[];
  readonly controller?: string;
}

const CLASS_ANNOTATION = "kubernetes.io/ingress.class";
const DEFAULT_CLASS_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";

/** The name, or the generateName prefix when there is none. */
function nameOf(meta: { readonly name: string; readonly generateName: string } | undefined): string {
  const name = meta?.name ?? "";
  return name !== "" ? name : (meta?.generateName ?? "");
}

function keyOf(ing: Ingress): string {
  const ns = ing.metadata?.namespace ?? "";
  return `${ns === "" ? "default" : ns}/${nameOf(ing.metadata)}`;
}

/** The error a second object of the same name is left out with. */
function duplicateName(name: string): FieldError {
  return {
    type: "FieldValueDuplicate",
    field: "metadata.name",
    path: ["metadata", "name"],
    badValue: name,
    detail: "",
  };
}

/** Valid Ingresses, first of each namespace/name only; the others, with the reason. */
function sortIngresses(list: readonly Ingress[]): { valid: Ingress[]; skipped: SkippedObject[] } {
  const seen = new Set<string>();
  const valid: Ingress[] = [];
  const skipped: SkippedObject[] = [];
  list.forEach((ing, index) => {
    const key = keyOf(ing);
    const errors = validate(ing);
    const why = errors.length > 0 ? errors : seen.has(key) ? [duplicateName(nameOf(ing.metadata))] : [];
    if (why.length > 0) {
      skipped.push({ kind: "Ingress", name: nameOf(ing.metadata) === "" ? `[${index}]` : key, index, errors: why });
      return;
    }
    seen.add(key);
    valid.push(ing);
  });
  return { valid, skipped };
}

/** Valid IngressClasses, first of each name only; the others, with the reason. */
function sortClasses(list: readonly IngressClass[]): { valid: IngressClass[]; skipped: SkippedObject[] } {
  const seen = new Set<string>();
  const valid: IngressClass[] = [];
  const skipped: SkippedObject[] = [];
  list.forEach((c, index) => {
    const name = c.metadata?.name ?? "";
    const errors = validate(c);
    const why = errors.length > 0 ? errors : seen.has(name) ? [duplicateName(name)] : [];
    if (why.length > 0) {
      skipped.push({ kind: "IngressClass", name: name === "" ? `[${index}]` : name, index, errors: why });
      return;
    }
    seen.add(name);
    valid.push(c);
  });
  return { valid, skipped };
}

/** R2, checked in the order the doc lists. */
function inScope(ing: Ingress, classes: readonly IngressClass[] | undefined, controller: string): boolean {
  if (classes === undefined) return true;
  const ours = (name: string): boolean =>
    classes.some((c) => (c.metadata?.name ?? "") === name && c.spec?.controller === controller);
  const className = ing.spec?.ingressClassName ?? "";
  if (className !== "") return ours(className);
  const annotations = ing.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, CLASS_ANNOTATION)) return ours(annotations[CLASS_ANNOTATION] ?? "");
  return classes.some(
    (c) => c.spec?.controller === controller && c.metadata?.annotations?.[DEFAULT_CLASS_ANNOTATION] === "true",
  );
}

/** R3. */
export function referenceHost(header: string): string {
  let name: string;
  if (header.startsWith("[")) {
    const end = header.indexOf("]");
    name = end < 0 ? header : header.slice(1, end);
  } else {
    const colon = header.indexOf(":");
    name = colon < 0 ? header : header.slice(0, colon);
  }
  return name.toLowerCase();
}

/** R5. */
export function referencePath(target: string): string {
  let end = target.length;
  const q = target.indexOf("?");
  const h = target.indexOf("#");
  if (q >= 0) end = Math.min(end, q);
  if (h >= 0) end = Math.min(end, h);
  return target.slice(0, end);
}

/** The path as R6/R7 see it: an empty ImplementationSpecific path is "/". */
function writtenPath(p: HTTPIngressPath): string {
  return p.pathType === "ImplementationSpecific" && p.path === "" ? "/" : p.path;
}

/** R6. */
function pathMatches(p: HTTPIngressPath, request: string): boolean {
  const rule = writtenPath(p);
  if (p.pathType === "Exact") return request === rule;
  if (rule === "/") return true;
  const base = rule.endsWith("/") ? rule.slice(0, -1) : rule;
  return request === base || request.startsWith(base + "/");
}

/** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds. */
const GO_ZERO_SECONDS = -62135596800n;

/**
 * creationTimestamp, or undefined when it is missing. JSON and YAML without the
 * field decode to Go's zero time (a Time with neither seconds nor nanos set),
 * so that counts as missing too.
 */
function created(ing: Ingress): Time | undefined {
  const t = ing.metadata?.creationTimestamp;
  if (t === undefined) return undefined;
  if (Object.hasOwn(t, "seconds")) return t.seconds === GO_ZERO_SECONDS ? undefined : t;
  return Object.hasOwn(t, "nanos") ? t : undefined;
}

/** R7.3: older first; no timestamp counts as newest. */
function compareAge(a: Ingress, b: Ingress): number {
  const ta = created(a);
  const tb = created(b);
  if (ta === undefined || tb === undefined) return ta === tb ? 0 : ta === undefined ? 1 : -1;
  if (ta.seconds !== tb.seconds) return ta.seconds < tb.seconds ? -1 : 1;
  return ta.nanos - tb.nanos;
}

/** R7.3 then R7.4; also the priority R9 uses. */
function compareIngress(a: Ingress, b: Ingress): number {
  const age = compareAge(a, b);
  if (age !== 0) return age;
  const ka = keyOf(a);
  const kb = keyOf(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

interface Candidate {
  readonly ing: Ingress;
  readonly rule: number;
  readonly path: number;
  readonly p: HTTPIngressPath;
}

function compareCandidates(a: Candidate, b: Candidate): number {
  const la = writtenPath(a.p).length;
  const lb = writtenPath(b.p).length;
  if (la !== lb) return lb - la;
  const ea = a.p.pathType === "Exact";
  const eb = b.p.pathType === "Exact";
  if (ea !== eb) return ea ? -1 : 1;
  return compareIngress(a.ing, b.ing) || a.rule - b.rule || a.path - b.path;
}

function wildcardMatches(ruleHost: string, host: string): boolean {
  if (!ruleHost.startsWith("*.")) return false;
  const dot = host.indexOf(".");
  return dot > 0 && host.slice(dot + 1) === ruleHost.slice(2);
}

function classify(input: ReferenceInput): { inScope: Ingress[]; outOfScope: Ingress[]; skipped: SkippedObject[] } {
  const classes = input.ingressClasses === undefined ? undefined : sortClasses(input.ingressClasses);
  if (classes !== undefined && input.controller === undefined)
    throw new Error("controller is required with ingressClasses");
  const controller = input.controller ?? "";
  const ingresses = sortIngresses(input.ingresses);
  return {
    inScope: ingresses.valid.filter((ing) => inScope(ing, classes?.valid, controller)),
    outOfScope: ingresses.valid.filter((ing) => !inScope(ing, classes?.valid, controller)),
    // IngressClasses first, then Ingresses, as the router's contract lists them.
    skipped: [...(classes?.skipped ?? []), ...ingresses.skipped],
  };
}

/**
 * R2 over the valid Ingresses (as `namespace/name`, input order), the input
 * positions of skipped Ingresses, and every skipped object with its reason.
 */
export function referenceScope(input: ReferenceInput): {
  inScope: string[];
  outOfScope: string[];
  skipped: number[];
  skippedObjects: SkippedObject[];
} {
  const c = classify(input);
  return {
    inScope: c.inScope.map(keyOf),
    outOfScope: c.outOfScope.map(keyOf),
    skipped: c.skipped.filter((s) => s.kind === "Ingress").map((s) => s.index),
    skippedObjects: c.skipped,
  };
}

/** The route ../shared/docs/semantics.md §1.1.2 gives for one request, with the inputs left out. */
export function referenceRoute(input: ReferenceInput, request: RouteRequest): Route | null {
  const { inScope: ingresses, skipped } = classify(input);
  const route = (
    backend: IngressBackend,
    ing: Ingress,
    rule: number | null,
    path: number | null,
    via: Route["via"],
    tier: HostTier | null,
    host: string,
    requestPath: string,
  ): Route => ({ backend, ingress: keyOf(ing), rule, path, via, tier, host, requestPath, skipped });

  const host = referenceHost(request.host);
  const requestPath = referencePath(request.path);

  // R4: the rules of each tier, across all in-scope Ingresses (R8: http-less rules count).
  const tests: [HostTier, (ruleHost: string) => boolean][] = [
    ["precise", (h) => h !== "" && h === host],
    ["wildcard", (h) => wildcardMatches(h, host)],
    ["host-less", (h) => h === ""],
  ];
  let tier: HostTier | null = null;
  let tierRules: { ing: Ingress; rule: number }[] = [];
  for (const [kind, test] of tests) {
    const found: { ing: Ingress; rule: number }[] = [];
    for (const ing of ingresses) {
      (ing.spec?.rules ?? []).forEach((r, i) => {
        if (test(r.host)) found.push({ ing, rule: i });
      });
    }
    if (found.length > 0) {
      tier = kind;
      tierRules = found;
      break;
    }
  }

  // R6 + R7.
  const candidates: Candidate[] = [];
  for (const { ing, rule } of tierRules) {
    const paths = ing.spec?.rules[rule]?.ingressRuleValue?.http?.paths ?? [];
    paths.forEach((p, i) => {
      if (pathMatches(p, requestPath)) candidates.push({ ing, rule, path: i, p });
    });
  }
  candidates.sort(compareCandidates);
  const best = candidates[0];
  if (best !== undefined && best.p.backend !== undefined) {
    return route(best.p.backend, best.ing, best.rule, best.path, "path", tier, host, requestPath);
  }

  // R9.
  const withDefault = (list: Ingress[]): Ingress | undefined =>
    list.filter((ing) => ing.spec?.defaultBackend !== undefined).sort(compareIngress)[0];
  if (tier !== null) {
    const local = withDefault([...new Set(tierRules.map((t) => t.ing))]);
    if (local?.spec?.defaultBackend !== undefined) {
      return route(local.spec.defaultBackend, local, null, null, "tier-default", tier, host, requestPath);
    }
  }
  const global = withDefault(ingresses);
  if (global?.spec?.defaultBackend !== undefined) {
    return route(global.spec.defaultBackend, global, null, null, "default", tier, host, requestPath);
  }
  return null;
}
