// Targeted invalid objects: a valid object with exactly one violation
// applied, together with the single error (type and rendered field path) the
// API server reports for it, on create and as an update of itself.

import fc from "fast-check";
import {
  DEFAULT_KUBERNETES_VERSION,
  defaultFeatureGates,
  fromJson,
  INGRESS_CLASS_ANNOTATION,
  type JsonObject,
  type KubernetesVersion,
  type NetworkingObject,
} from "../networking/index.js";
import {
  familyBits,
  formatCidr,
  formatIP,
  formatIPv4,
  formatIPv6,
  hostMask,
  ipv6Groups,
  isV4Mapped,
  maskAddress,
  type IPFamily,
  type IPNet,
} from "./addresses.js";
import {
  arbAbsolutePath,
  arbAnnotationValue,
  arbCanonicalCidr,
  arbDns1035Label,
  arbDns1123Label,
  arbDns1123Subdomain,
  arbIPBlock,
  type IPBlockOptions,
  arbIPNet,
  arbIPValue,
  arbLabelKey,
  arbLabelSelector,
  arbLabelValue,
  arbPathSegment,
  arbPathSegmentName,
  arbPortName,
  arbPortNumber,
  formatLegacyCidr,
  MAX_V6,
} from "./building-blocks.js";
import {
  arbResourceBackend,
  arbServiceBackend,
  arbValidJson,
  type ValidatedKind,
  type ValidObjectOptions,
} from "./valid-objects.js";

// ------------------------------------------------------------ targeted invalid objects

/**
 * The field error types a targeted mutation can expect.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) =>
 *     validate(t.object).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export type ExpectedErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong";

/**
 * The one field error the API server reports for a targeted invalid object.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) =>
 *     validate(t.object).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export interface ExpectedError {
  /** The error's type. */
  readonly type: ExpectedErrorType;
  /** The rendered path (`field.Path.String()`), e.g. `spec.rules[0].host`. */
  readonly field: string;
}

/**
 * A valid object with exactly one violation, and the error the API server reports for it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) =>
 *     validate(t.object).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export interface TargetedInvalid {
  /** The object's kind. */
  readonly kind: ValidatedKind;
  /** The mutation's name, e.g. `ingress.host.wildcard-inside`. */
  readonly mutation: string;
  /** The invalid object as Kubernetes JSON. */
  readonly json: JsonObject;
  /** The invalid object, decoded. */
  readonly object: NetworkingObject;
  /** The single error the API server reports for it. */
  readonly expected: ExpectedError;
}

/**
 * One targeted violation: its name, kind, the rule it breaks, and an arbitrary of objects that break it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { targetedMutations } from "clusterwire/testing";
 *
 * const hostRules = targetedMutations().filter((m) => m.name.startsWith("ingress.host."));
 * for (const m of hostRules) console.log(m.name, m.rule, fc.sample(m.arbitrary, 1)[0]?.expected);
 * ```
 */
export interface Mutation {
  /** The mutation's name, e.g. `ingress.host.wildcard-inside`. */
  readonly name: string;
  /** The kind it mutates. */
  readonly kind: ValidatedKind;
  /** The validation rule the expectation comes from, in a few words (or the upstream function). */
  readonly rule: string;
  /** Objects with this violation and no other. */
  readonly arbitrary: fc.Arbitrary<TargetedInvalid>;
}

// The mutation functions edit a structuredClone of the generated JSON in place.
// biome-ignore lint/suspicious/noExplicitAny: the mutations walk and edit untyped generated JSON (o["spec"]["rules"][0]...); unknown would need a cast at every step
type Obj = Record<string, any>;

const REQUIRED = "FieldValueRequired";
const INVALID = "FieldValueInvalid";
const NOT_SUPPORTED = "FieldValueNotSupported";
const FORBIDDEN = "FieldValueForbidden";
const TOO_LONG = "FieldValueTooLong";

function mutation<P>(
  name: string,
  kind: ValidatedKind,
  rule: string,
  params: fc.Arbitrary<P> | ((options: ValidObjectOptions) => fc.Arbitrary<P>),
  apply: (o: Obj, p: P) => ExpectedError,
): Mutation {
  const build = (options: ValidObjectOptions) =>
    fc
      .tuple(arbValidJson(kind, options), typeof params === "function" ? params(options) : params)
      .map(([base, p]): TargetedInvalid => {
        const json = structuredClone(base) as Obj;
        const expected = apply(json, p);
        const t: TargetedInvalid = {
          kind,
          mutation: name,
          json: json as JsonObject,
          object: fromJson(json as JsonObject),
          expected,
        };
        // Counterexamples print as the JSON and the expectation, not the decoded message.
        Object.defineProperty(t, fc.toStringMethod, {
          value: () => `${name}: ${stringifyJson(json)} -> ${expected.type} ${expected.field}`,
          enumerable: false,
        });
        return t;
      });
  const m: Mutation = { name, kind, rule, arbitrary: build({}) };
  ON_VALID_FOR.set(m, (version) => build({ version }));
  return m;
}

/** Each mutation's arbitrary over objects that are valid for a given release before the mutation. */
const ON_VALID_FOR = new WeakMap<Mutation, (version: KubernetesVersion) => fc.Arbitrary<TargetedInvalid>>();

function stringifyJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)).replace(
    /"x{40,}"/g,
    (m) => `"x...(${m.length - 2})"`,
  );
}

const err = (type: ExpectedErrorType, field: string): ExpectedError => ({ type, field });

function ensureObj(o: Obj, key: string): Obj {
  const v = o[key];
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Obj;
  const fresh: Obj = {};
  o[key] = fresh;
  return fresh;
}

function ensureArr(o: Obj, key: string): Obj[] {
  const v = o[key];
  if (Array.isArray(v)) return v as Obj[];
  const fresh: Obj[] = [];
  o[key] = fresh;
  return fresh;
}

function pick<T>(xs: readonly T[], n: number): T {
  return xs[n % xs.length] as T;
}

// ---- shared metadata mutations

/** Names that fail NameIsDNSSubdomain with exactly one message. */
const BAD_SUBDOMAIN_NAMES = [
  "Bad_Name",
  "UPPER",
  "-lead",
  "trail-",
  "a..b",
  "a b",
  "x.",
  "a".repeat(254),
  `${"a".repeat(200)}.${"b".repeat(54)}`,
];
/** Label keys failing IsQualifiedName with exactly one message. */
const BAD_LABEL_KEYS = ["a/b/c", "-a", "a_", "has space", "example.com/-x", "Example_.com/x", "a".repeat(64), "/x"];
/** Label values failing IsValidLabelValue with exactly one message. */
const BAD_LABEL_VALUES = ["-a", "a-", "_", "a b", "a/b", "a".repeat(64), "é"];
/** Annotation keys failing IsQualifiedName (after lower-casing) with exactly one message. */
const BAD_ANNOTATION_KEYS = ["a b", "-a", "a/b/c", "_x", "Example.COM/-X"];

function metaMutations(kind: ValidatedKind): Mutation[] {
  const out: Mutation[] = [
    mutation(`${kind}.meta.name-missing`, kind, "metadata.name Required", fc.boolean(), (o, explicit) => {
      const m = ensureObj(o, "metadata");
      if (explicit) m["name"] = "";
      else delete m["name"];
      delete m["generateName"];
      return err(REQUIRED, "metadata.name");
    }),
    mutation(
      `${kind}.meta.label-value`,
      kind,
      "metadata.labels value",
      fc.tuple(fc.constantFrom(...BAD_LABEL_VALUES), arbLabelKey()),
      (o, [v, k]) => {
        const labels = ensureObj(ensureObj(o, "metadata"), "labels");
        labels[k] = v;
        return err(INVALID, "metadata.labels");
      },
    ),
    mutation(
      `${kind}.meta.label-key`,
      kind,
      "metadata.labels key",
      fc.tuple(fc.constantFrom(...BAD_LABEL_KEYS), arbLabelValue()),
      (o, [k, v]) => {
        ensureObj(ensureObj(o, "metadata"), "labels")[k] = v;
        return err(INVALID, "metadata.labels");
      },
    ),
    mutation(
      `${kind}.meta.annotation-key`,
      kind,
      "metadata.annotations key",
      fc.tuple(fc.constantFrom(...BAD_ANNOTATION_KEYS), arbAnnotationValue()),
      (o, [k, v]) => {
        ensureObj(ensureObj(o, "metadata"), "annotations")[k] = v;
        return err(INVALID, "metadata.annotations");
      },
    ),
    mutation(`${kind}.meta.annotations-too-long`, kind, "metadata.annotations > 256 KiB", fc.nat(100), (o, extra) => {
      const annotations = ensureObj(ensureObj(o, "metadata"), "annotations");
      annotations["example.com/big"] = "x".repeat(262144 + extra);
      return err(TOO_LONG, "metadata.annotations");
    }),
  ];
  if (kind !== "IPAddress") {
    out.push(
      mutation(
        `${kind}.meta.name-invalid`,
        kind,
        "metadata.name DNS-1123 subdomain",
        fc.constantFrom(...BAD_SUBDOMAIN_NAMES),
        (o, name) => {
          ensureObj(o, "metadata")["name"] = name;
          return err(INVALID, "metadata.name");
        },
      ),
    );
  }
  return out;
}

// ---- Ingress

const FALLBACK_PATH: Obj = {
  path: "/",
  pathType: "Prefix",
  backend: { service: { name: "svc", port: { number: 80 } } },
};

interface PathSite {
  readonly at: string;
  readonly path: Obj;
}

/** A path entry chosen by `n`; adds a rule with one path when there is none. */
function ingressPathSite(o: Obj, n: number): PathSite {
  const spec = ensureObj(o, "spec");
  const rules = ensureArr(spec, "rules");
  const sites: PathSite[] = [];
  rules.forEach((r, i) => {
    const paths = r["http"]?.["paths"];
    if (Array.isArray(paths))
      paths.forEach((p: Obj, j: number) => {
        sites.push({ at: `spec.rules[${i}].http.paths[${j}]`, path: p });
      });
  });
  if (sites.length > 0) return pick(sites, n);
  const path = structuredClone(FALLBACK_PATH);
  rules.push({ http: { paths: [path] } });
  return { at: `spec.rules[${rules.length - 1}].http.paths[0]`, path };
}

interface BackendSite {
  readonly at: string;
  readonly set: (b: Obj) => void;
}

/** A backend (defaultBackend or a path's) chosen by `n`. */
function ingressBackendSite(o: Obj, n: number): BackendSite {
  const spec = ensureObj(o, "spec");
  const sites: BackendSite[] = [];
  if (spec["defaultBackend"] !== undefined)
    sites.push({ at: "spec.defaultBackend", set: (b) => (spec["defaultBackend"] = b) });
  for (const [i, r] of (Array.isArray(spec["rules"]) ? (spec["rules"] as Obj[]) : []).entries()) {
    const paths = r["http"]?.["paths"];
    if (Array.isArray(paths)) {
      paths.forEach((p: Obj, j: number) => {
        sites.push({ at: `spec.rules[${i}].http.paths[${j}].backend`, set: (b) => (p["backend"] = b) });
      });
    }
  }
  if (sites.length > 0) return pick(sites, n);
  const site = ingressPathSite(o, 0);
  return { at: `${site.at}.backend`, set: (b) => (site.path["backend"] = b) };
}

function ingressRuleIndex(o: Obj, n: number): number {
  const rules = ensureArr(ensureObj(o, "spec"), "rules");
  if (rules.length === 0) rules.push({});
  return n % rules.length;
}

const BAD_RULE_HOSTS = [
  "foo.*.example.com",
  "*",
  "*foo.com",
  "*.*.foo.com",
  "Foo.com",
  "foo.com.",
  "foo_bar.com",
  "foo.com:80",
  "10.0.0.1",
  "1.2.3.4",
  "010.0.0.1",
];
const BAD_TLS_HOSTS = ["foo.*.example.com", "*", "*foo.com", "Foo.com", "foo_bar.com", "foo.com:80"];
const BAD_PATH_SEQUENCES = ["//x", "/./x", "/../x", "/%2fx", "/%2Fx", "/a//"];
const BAD_PATH_TYPES = ["", "prefix", "exact", "implementationSpecific", "Regex", "PREFIX"];
const BAD_PORT_NAMES = ["80", "-http", "http-", "a--b", "abcdefghijklmnop", "http_x", "web.1"];
const BAD_PORT_NUMBERS = [65536, 70000, -1, -80, 2147483647, -2147483648];
const BAD_SERVICE_NAMES = ["1abc", "Svc", "svc.ns", "svc_1", "-svc", "a".repeat(64)];
const BAD_SEGMENT_NAMES = [".", "..", "a/b", "a%b", "%", "/"];
const BAD_SUBDOMAINS_INCL_EMPTY = ["", "Bad_Group", "example.com.", "UPPER.io", "a".repeat(254)];
const BAD_SECRET_NAMES = ["ns/name", "Secret", "my_secret", "a".repeat(254), ".secret"];

function ingressMutations(): Mutation[] {
  const K: ValidatedKind = "Ingress";
  return [
    mutation("ingress.spec.no-rules-no-default", K, "spec", fc.constant(null), (o) => {
      const spec = ensureObj(o, "spec");
      delete spec["rules"];
      delete spec["defaultBackend"];
      return err(INVALID, "spec");
    }),
    mutation(
      "ingress.host.invalid",
      K,
      "host",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_RULE_HOSTS)),
      (o, [n, host]) => {
        const i = ingressRuleIndex(o, n);
        o["spec"]["rules"][i]["host"] = host;
        return err(INVALID, `spec.rules[${i}].host`);
      },
    ),
    mutation(
      "ingress.host.too-long",
      K,
      "host > 253 (Invalid, not TooLong)",
      fc.tuple(fc.nat(), fc.integer({ min: 254, max: 300 })),
      (o, [n, len]) => {
        const i = ingressRuleIndex(o, n);
        o["spec"]["rules"][i]["host"] = `${"a".repeat(63)}.`.repeat(5).slice(0, len - 1) + "z";
        return err(INVALID, `spec.rules[${i}].host`);
      },
    ),
    mutation("ingress.host.wildcard-too-long", K, "wildcard host > 253", fc.nat(), (o, n) => {
      const i = ingressRuleIndex(o, n);
      o["spec"]["rules"][i]["host"] = `*.${"b".repeat(100)}.${"c".repeat(151)}`; // 254
      return err(INVALID, `spec.rules[${i}].host`);
    }),
    mutation("ingress.http.paths-empty", K, "paths Required", fc.tuple(fc.nat(), fc.boolean()), (o, [n, explicit]) => {
      const i = ingressRuleIndex(o, n);
      o["spec"]["rules"][i]["http"] = explicit ? { paths: [] } : {};
      return err(REQUIRED, `spec.rules[${i}].http.paths`);
    }),
    mutation(
      "ingress.path.pathType-missing",
      K,
      "pathType Required (entry not checked further)",
      fc.tuple(fc.nat(), fc.string({ maxLength: 4 })),
      (o, [n, junk]) => {
        const site = ingressPathSite(o, n);
        delete site.path["pathType"];
        site.path["path"] = junk; // not examined once pathType is missing
        return err(REQUIRED, `${site.at}.pathType`);
      },
    ),
    mutation(
      "ingress.path.pathType-unknown",
      K,
      "pathType NotSupported (path not checked)",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_PATH_TYPES), fc.string({ maxLength: 4 })),
      (o, [n, t, junk]) => {
        const site = ingressPathSite(o, n);
        site.path["pathType"] = t;
        site.path["path"] = junk;
        return err(NOT_SUPPORTED, `${site.at}.pathType`);
      },
    ),
    mutation(
      "ingress.path.relative",
      K,
      "Exact/Prefix absolute path",
      fc.tuple(fc.nat(), fc.constantFrom("Exact", "Prefix"), arbAbsolutePath()),
      (o, [n, t, p]) => {
        const site = ingressPathSite(o, n);
        site.path["pathType"] = t;
        site.path["path"] = p.slice(1);
        return err(INVALID, `${site.at}.path`);
      },
    ),
    mutation(
      "ingress.path.impl-specific-relative",
      K,
      "ImplementationSpecific non-empty relative",
      fc.tuple(fc.nat(), arbPathSegment()),
      (o, [n, seg]) => {
        const site = ingressPathSite(o, n);
        site.path["pathType"] = "ImplementationSpecific";
        site.path["path"] = seg;
        return err(INVALID, `${site.at}.path`);
      },
    ),
    mutation(
      "ingress.path.bad-sequence",
      K,
      "//, /./, /../, %2f, %2F",
      fc.tuple(fc.nat(), fc.constantFrom("Exact", "Prefix"), arbAbsolutePath(), fc.constantFrom(...BAD_PATH_SEQUENCES)),
      (o, [n, t, p, seq]) => {
        const site = ingressPathSite(o, n);
        site.path["pathType"] = t;
        site.path["path"] = p.replace(/\/$/, "") + seq;
        return err(INVALID, `${site.at}.path`);
      },
    ),
    mutation(
      "ingress.path.bad-suffix",
      K,
      "/. and /.. suffixes",
      fc.tuple(fc.nat(), fc.constantFrom("Exact", "Prefix"), arbAbsolutePath(), fc.constantFrom("/.", "/..")),
      (o, [n, t, p, suffix]) => {
        const site = ingressPathSite(o, n);
        site.path["pathType"] = t;
        site.path["path"] = p.replace(/\/$/, "") + suffix;
        return err(INVALID, `${site.at}.path`);
      },
    ),
    mutation(
      "ingress.backend.both",
      K,
      "both service and resource",
      fc.tuple(fc.nat(), arbServiceBackend(), arbResourceBackend()),
      (o, [n, s, r]) => {
        const site = ingressBackendSite(o, n);
        site.set({ ...s, ...r });
        return err(INVALID, site.at);
      },
    ),
    mutation("ingress.backend.neither", K, "neither service nor resource", fc.nat(), (o, n) => {
      const site = ingressBackendSite(o, n);
      site.set({});
      return err(INVALID, site.at);
    }),
    mutation(
      "ingress.backend.port-missing",
      K,
      "port name or number Required (on the backend)",
      fc.tuple(fc.nat(), arbDns1035Label(), fc.nat(2)),
      (o, [n, name, shape]) => {
        const site = ingressBackendSite(o, n);
        const service: Obj = { name };
        if (shape === 1) service["port"] = {};
        if (shape === 2) service["port"] = { name: "", number: 0 };
        site.set({ service });
        return err(REQUIRED, site.at);
      },
    ),
    mutation(
      "ingress.backend.port-both",
      K,
      "port name and number (on the backend)",
      fc.tuple(
        fc.nat(),
        arbDns1035Label(),
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.integer({ min: -100000, max: 100000 }).filter((x) => x !== 0),
      ),
      (o, [n, name, pn, num]) => {
        const site = ingressBackendSite(o, n);
        site.set({ service: { name, port: { name: pn, number: num } } });
        return err(INVALID, site.at);
      },
    ),
    mutation(
      "ingress.backend.port-number",
      K,
      "port number range",
      fc.tuple(fc.nat(), arbDns1035Label(), fc.constantFrom(...BAD_PORT_NUMBERS)),
      (o, [n, name, num]) => {
        const site = ingressBackendSite(o, n);
        site.set({ service: { name, port: { number: num } } });
        return err(INVALID, `${site.at}.service.port.number`);
      },
    ),
    mutation(
      "ingress.backend.port-name",
      K,
      "IANA port name (one sub-rule)",
      fc.tuple(fc.nat(), arbDns1035Label(), fc.constantFrom(...BAD_PORT_NAMES)),
      (o, [n, name, pn]) => {
        const site = ingressBackendSite(o, n);
        site.set({ service: { name, port: { name: pn } } });
        return err(INVALID, `${site.at}.service.port.name`);
      },
    ),
    mutation(
      "ingress.backend.service-name-missing",
      K,
      "service.name Required",
      fc.tuple(fc.nat(), arbPortNumber()),
      (o, [n, num]) => {
        const site = ingressBackendSite(o, n);
        site.set({ service: { port: { number: num } } });
        return err(REQUIRED, `${site.at}.service.name`);
      },
    ),
    mutation(
      "ingress.backend.service-name",
      K,
      "service.name DNS-1035",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_SERVICE_NAMES), arbPortName()),
      (o, [n, name, pn]) => {
        const site = ingressBackendSite(o, n);
        site.set({ service: { name, port: { name: pn } } });
        return err(INVALID, `${site.at}.service.name`);
      },
    ),
    mutation(
      "ingress.backend.resource-kind-missing",
      K,
      "resource.kind Required",
      fc.tuple(fc.nat(), arbPathSegmentName()),
      (o, [n, name]) => {
        const site = ingressBackendSite(o, n);
        site.set({ resource: { kind: "", name } });
        return err(REQUIRED, `${site.at}.resource.kind`);
      },
    ),
    mutation(
      "ingress.backend.resource-name-missing",
      K,
      "resource.name Required",
      fc.tuple(fc.nat(), arbPathSegmentName(), arbDns1123Subdomain()),
      (o, [n, kind, apiGroup]) => {
        const site = ingressBackendSite(o, n);
        site.set({ resource: { apiGroup, kind } });
        return err(REQUIRED, `${site.at}.resource.name`);
      },
    ),
    mutation(
      "ingress.backend.resource-segment",
      K,
      "path segment name",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_SEGMENT_NAMES), arbPathSegmentName(), fc.constantFrom("kind", "name")),
      (o, [n, bad, good, which]) => {
        const site = ingressBackendSite(o, n);
        site.set({ resource: which === "kind" ? { kind: bad, name: good } : { kind: good, name: bad } });
        return err(INVALID, `${site.at}.resource.${which}`);
      },
    ),
    mutation(
      "ingress.backend.resource-apiGroup",
      K,
      'resource.apiGroup ("" counts)',
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_SUBDOMAINS_INCL_EMPTY), arbPathSegmentName()),
      (o, [n, g, name]) => {
        const site = ingressBackendSite(o, n);
        site.set({ resource: { apiGroup: g, kind: "Bucket", name } });
        return err(INVALID, `${site.at}.resource.apiGroup`);
      },
    ),
    mutation(
      "ingress.tls.secretName",
      K,
      "secretName",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_SECRET_NAMES)),
      (o, [n, name]) => {
        const tls = ensureArr(ensureObj(o, "spec"), "tls");
        if (tls.length === 0) tls.push({});
        const i = n % tls.length;
        (tls[i] as Obj)["secretName"] = name;
        return err(INVALID, `spec.tls[${i}].secretName`);
      },
    ),
    mutation(
      "ingress.tls.host",
      K,
      "TLS host",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_TLS_HOSTS)),
      (o, [n, host]) => {
        const tls = ensureArr(ensureObj(o, "spec"), "tls");
        if (tls.length === 0) tls.push({});
        const i = n % tls.length;
        const hosts = ensureArr(tls[i] as Obj, "hosts") as unknown as string[];
        hosts.push(host);
        return err(INVALID, `spec.tls[${i}].hosts[${hosts.length - 1}]`);
      },
    ),
    mutation(
      "ingress.ingressClassName",
      K,
      'ingressClassName ("" counts)',
      fc.constantFrom(...BAD_SUBDOMAINS_INCL_EMPTY),
      (o, name) => {
        ensureObj(o, "spec")["ingressClassName"] = name;
        const annotations = o["metadata"]?.["annotations"];
        if (annotations !== undefined) delete annotations[INGRESS_CLASS_ANNOTATION];
        return err(INVALID, "spec.ingressClassName");
      },
    ),
    mutation(
      "ingress.class-annotation-mismatch",
      K,
      "annotation differs from ingressClassName (create)",
      fc.tuple(arbDns1123Subdomain(), fc.string({ maxLength: 12 })),
      (o, [fallback, value]) => {
        const spec = ensureObj(o, "spec");
        if (typeof spec["ingressClassName"] !== "string") spec["ingressClassName"] = fallback;
        const cls = spec["ingressClassName"] as string;
        ensureObj(ensureObj(o, "metadata"), "annotations")[INGRESS_CLASS_ANNOTATION] =
          value === cls ? `${value}x` : value;
        return err(INVALID, `annotations.${INGRESS_CLASS_ANNOTATION}`);
      },
    ),
    ...metaMutations(K),
  ];
}

// ---- IngressClass

function ensureParameters(o: Obj): Obj {
  const spec = ensureObj(o, "spec");
  const p = spec["parameters"];
  if (p !== null && typeof p === "object") return p as Obj;
  const fresh: Obj = { kind: "ConfigMap", name: "params" };
  spec["parameters"] = fresh;
  return fresh;
}

function ingressClassMutations(): Mutation[] {
  const K: ValidatedKind = "IngressClass";
  return [
    mutation("ingressclass.controller.missing", K, "controller Required", fc.boolean(), (o, explicit) => {
      const spec = ensureObj(o, "spec");
      if (explicit) spec["controller"] = "";
      else delete spec["controller"];
      return err(REQUIRED, "spec.controller");
    }),
    mutation(
      "ingressclass.controller.not-domain-prefixed",
      K,
      "domain-prefixed path",
      fc.oneof(fc.constantFrom("example.com", "/foo", "example.com/", "nginx"), arbDns1123Subdomain(250)),
      (o, c) => {
        ensureObj(o, "spec")["controller"] = c;
        return err(INVALID, "spec.controller");
      },
    ),
    mutation(
      "ingressclass.controller.bad-host",
      K,
      "host part",
      fc.tuple(fc.constantFrom("Example.com", "ex_ample.com", "-a.com", "a..b"), fc.constantFrom("ctrl", "a/b")),
      (o, [h, p]) => {
        ensureObj(o, "spec")["controller"] = `${h}/${p}`;
        return err(INVALID, "spec.controller");
      },
    ),
    mutation(
      "ingressclass.controller.bad-path",
      K,
      "path part charset",
      fc.tuple(arbDns1123Subdomain(60), fc.constantFrom("a b", "é", "a#b", "a?b", 'a"b', "[x]")),
      (o, [h, p]) => {
        ensureObj(o, "spec")["controller"] = `${h}/${p}`;
        return err(INVALID, "spec.controller");
      },
    ),
    mutation(
      "ingressclass.controller.too-long",
      K,
      "controller > 250 (TooLong only)",
      fc.tuple(arbDns1123Subdomain(60), fc.integer({ min: 251, max: 400 })),
      (o, [h, len]) => {
        const head = `${h}/`;
        ensureObj(o, "spec")["controller"] = head + "p".repeat(len - head.length);
        return err(TOO_LONG, "spec.controller");
      },
    ),
    mutation("ingressclass.parameters.kind-missing", K, "parameters.kind Required", fc.boolean(), (o, explicit) => {
      const p = ensureParameters(o);
      if (explicit) p["kind"] = "";
      else delete p["kind"];
      return err(REQUIRED, "spec.parameters.kind");
    }),
    mutation("ingressclass.parameters.name-missing", K, "parameters.name Required", fc.boolean(), (o, explicit) => {
      const p = ensureParameters(o);
      if (explicit) p["name"] = "";
      else delete p["name"];
      return err(REQUIRED, "spec.parameters.name");
    }),
    mutation(
      "ingressclass.parameters.segment",
      K,
      "path segment name",
      fc.tuple(fc.constantFrom(...BAD_SEGMENT_NAMES), fc.constantFrom("kind", "name")),
      (o, [bad, which]) => {
        ensureParameters(o)[which] = bad;
        return err(INVALID, `spec.parameters.${which}`);
      },
    ),
    mutation(
      "ingressclass.parameters.apiGroup",
      K,
      'parameters.apiGroup ("" counts)',
      fc.constantFrom(...BAD_SUBDOMAINS_INCL_EMPTY),
      (o, g) => {
        ensureParameters(o)["apiGroup"] = g;
        return err(INVALID, "spec.parameters.apiGroup");
      },
    ),
    mutation(
      "ingressclass.parameters.scope-unsupported",
      K,
      "scope NotSupported (namespace not checked)",
      fc.tuple(
        fc.constantFrom("", "cluster", "namespace", "Global"),
        fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
      ),
      (o, [scope, ns]) => {
        const p = ensureParameters(o);
        p["scope"] = scope;
        if (ns === undefined) delete p["namespace"];
        else p["namespace"] = ns;
        return err(NOT_SUPPORTED, "spec.parameters.scope");
      },
    ),
    mutation(
      "ingressclass.parameters.cluster-with-namespace",
      K,
      "Cluster (or defaulted) scope with namespace: Forbidden",
      fc.tuple(fc.boolean(), fc.oneof(fc.constant(""), arbDns1123Label())),
      (o, [explicitScope, ns]) => {
        const p = ensureParameters(o);
        if (explicitScope) p["scope"] = "Cluster";
        else delete p["scope"];
        p["namespace"] = ns;
        return err(FORBIDDEN, "spec.parameters.namespace");
      },
    ),
    mutation(
      "ingressclass.parameters.namespace-missing",
      K,
      "Namespace scope without namespace: Required",
      fc.constant(null),
      (o) => {
        const p = ensureParameters(o);
        p["scope"] = "Namespace";
        delete p["namespace"];
        return err(REQUIRED, "spec.parameters.namespace");
      },
    ),
    mutation(
      "ingressclass.parameters.namespace-invalid",
      K,
      "Namespace scope, namespace not a DNS-1123 label",
      fc.constantFrom("", "Bad", "a.b", "a_b", "-a", "a".repeat(64)),
      (o, ns) => {
        const p = ensureParameters(o);
        p["scope"] = "Namespace";
        p["namespace"] = ns;
        return err(INVALID, "spec.parameters.namespace");
      },
    ),
    ...metaMutations(K),
  ];
}

// ---- NetworkPolicy

interface ListSite {
  readonly at: string;
  readonly list: Obj[];
  readonly index: number;
}

function policyRules(o: Obj): { dir: "ingress" | "egress"; peers: "from" | "to"; rule: Obj; i: number }[] {
  const spec = ensureObj(o, "spec");
  const out: { dir: "ingress" | "egress"; peers: "from" | "to"; rule: Obj; i: number }[] = [];
  for (const [dir, peers] of [
    ["ingress", "from"],
    ["egress", "to"],
  ] as const) {
    const rules = spec[dir];
    if (Array.isArray(rules)) {
      rules.forEach((rule: Obj, i: number) => {
        out.push({ dir, peers, rule, i });
      });
    }
  }
  return out;
}

/** A port entry chosen by `n` (added to a new ingress rule when there is none). */
/** A policy port whose `port` is one of `values` (numbers out of range or bad names), without endPort. */
function badPolicyPort(name: string, description: string, values: readonly (number | string)[]): Mutation {
  return mutation(name, "NetworkPolicy", description, fc.tuple(fc.nat(), fc.constantFrom(...values)), (o, [n, p]) => {
    const site = policyPortSite(o, n);
    const port = site.list[site.index] as Obj;
    port["port"] = p;
    delete port["endPort"];
    return err(INVALID, `${site.at}.port`);
  });
}

function policyPortSite(o: Obj, n: number): ListSite {
  const sites: ListSite[] = [];
  for (const { dir, rule, i } of policyRules(o)) {
    const ports = rule["ports"];
    if (Array.isArray(ports))
      ports.forEach((_p, k) => {
        sites.push({ at: `spec.${dir}[${i}].ports[${k}]`, list: ports as Obj[], index: k });
      });
  }
  if (sites.length > 0) return pick(sites, n);
  const ingress = ensureArr(ensureObj(o, "spec"), "ingress");
  ingress.push({ ports: [{ port: 80 }] });
  return {
    at: `spec.ingress[${ingress.length - 1}].ports[0]`,
    list: ingress[ingress.length - 1]!["ports"] as Obj[],
    index: 0,
  };
}

/** A peer entry chosen by `n` (added to a new egress rule when there is none). */
function policyPeerSite(o: Obj, n: number): ListSite {
  const sites: ListSite[] = [];
  for (const { dir, peers, rule, i } of policyRules(o)) {
    const list = rule[peers];
    if (Array.isArray(list))
      list.forEach((_p, k) => {
        sites.push({ at: `spec.${dir}[${i}].${peers}[${k}]`, list: list as Obj[], index: k });
      });
  }
  if (sites.length > 0) return pick(sites, n);
  const egress = ensureArr(ensureObj(o, "spec"), "egress");
  egress.push({ to: [{ podSelector: {} }] });
  return { at: `spec.egress[${egress.length - 1}].to[0]`, list: egress[egress.length - 1]!["to"] as Obj[], index: 0 };
}

interface SelectorSite {
  readonly at: string;
  readonly selector: Obj;
}

/** spec.podSelector or a peer's podSelector/namespaceSelector, chosen by `n`. */
function policySelectorSite(o: Obj, n: number): SelectorSite {
  const spec = ensureObj(o, "spec");
  const sites: SelectorSite[] = [{ at: "spec.podSelector", selector: ensureObj(spec, "podSelector") }];
  for (const { dir, peers, rule, i } of policyRules(o)) {
    const list = rule[peers];
    if (!Array.isArray(list)) continue;
    list.forEach((peer: Obj, k: number) => {
      for (const key of ["podSelector", "namespaceSelector"]) {
        const s = peer[key];
        if (s !== null && typeof s === "object")
          sites.push({ at: `spec.${dir}[${i}].${peers}[${k}].${key}`, selector: s as Obj });
      }
    });
  }
  return pick(sites, n);
}

function pushRequirement(site: SelectorSite, req: Obj): string {
  const exprs = ensureArr(site.selector, "matchExpressions");
  exprs.push(req);
  return `${site.at}.matchExpressions[${exprs.length - 1}]`;
}

const BAD_PROTOCOLS = ["", "tcp", "udp", "ICMP", "HTTP", "sctp"];
const BAD_POLICY_PORTS = [0, -1, 65536, 70000, 2147483647, -2147483648];
const BAD_OPERATORS = ["in", "notin", "exists", "Equals", "", "!="];
const BAD_CIDRS = [
  "10.0.0.0/33",
  "192.168.5.6",
  "fd00::",
  "abc",
  "10.0.0.0/-1",
  "fd00::/129",
  "10.0.0/8",
  " 10.0.0.0/8",
  "300.0.0.0/8",
];
const UNPARSEABLE_CIDRS = ["", " ", "300.300.300.300/32", "10.0.0.0", "abc", "::/", "10.0.0.0/8/8"];

/** Legacy CIDR spellings in a valid ipBlock only where the release still accepts them (up to 1.35). */
function legacyFor(options: ValidObjectOptions): IPBlockOptions {
  return { legacy: !defaultFeatureGates(options.version).StrictIPCIDRValidation };
}

/** A network with prefix >= 1 (so an address outside it exists). */
function arbNonRootNet(): fc.Arbitrary<IPNet> {
  return arbIPNet().map((net) =>
    net.prefix > 0 ? net : { ...net, prefix: 1, address: maskAddress(net.family, net.address, 1) },
  );
}

function setIpBlockPeer(o: Obj, n: number, ipBlock: Obj): string {
  const site = policyPeerSite(o, n);
  site.list[site.index] = { ipBlock };
  return `${site.at}.ipBlock`;
}

function networkPolicyMutations(): Mutation[] {
  const K: ValidatedKind = "NetworkPolicy";
  return [
    mutation(
      "networkpolicy.port.protocol",
      K,
      'protocol NotSupported ("" not defaulted)',
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_PROTOCOLS)),
      (o, [n, p]) => {
        const site = policyPortSite(o, n);
        (site.list[site.index] as Obj)["protocol"] = p;
        return err(NOT_SUPPORTED, `${site.at}.protocol`);
      },
    ),
    badPolicyPort("networkpolicy.port.number-range", "port outside 1-65535", BAD_POLICY_PORTS),
    badPolicyPort("networkpolicy.port.name", 'named port, one failed sub-rule ("80" is a string)', BAD_PORT_NAMES),
    mutation(
      "networkpolicy.port.endPort-with-named-port",
      K,
      "endPort with non-numeric port",
      fc.tuple(fc.nat(), arbPortName(), fc.integer({ min: -5, max: 70000 })),
      (o, [n, name, end]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        port["port"] = name;
        port["endPort"] = end;
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation(
      "networkpolicy.port.endPort-without-port",
      K,
      "endPort without port",
      fc.tuple(fc.nat(), fc.integer({ min: -5, max: 70000 })),
      (o, [n, end]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        delete port["port"];
        port["endPort"] = end;
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation(
      "networkpolicy.port.endPort-below-port",
      K,
      "endPort < port",
      fc.tuple(fc.nat(), fc.integer({ min: 2, max: 65535 }), fc.nat()),
      (o, [n, p, k]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        port["port"] = p;
        port["endPort"] = 1 + (k % (p - 1));
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation(
      "networkpolicy.port.endPort-range",
      K,
      "endPort > 65535 (and >= port)",
      fc.tuple(fc.nat(), arbPortNumber(), fc.integer({ min: 65536, max: 2147483647 })),
      (o, [n, p, end]) => {
        const site = policyPortSite(o, n);
        const port = site.list[site.index] as Obj;
        port["port"] = p;
        port["endPort"] = end;
        return err(INVALID, `${site.at}.endPort`);
      },
    ),
    mutation("networkpolicy.peer.empty", K, "empty peer Required", fc.nat(), (o, n) => {
      const site = policyPeerSite(o, n);
      site.list[site.index] = {};
      return err(REQUIRED, site.at);
    }),
    mutation(
      "networkpolicy.peer.ipBlock-with-selector",
      K,
      "ipBlock with a selector: Forbidden on the peer",
      (v) => fc.tuple(fc.nat(), arbIPBlock(legacyFor(v)), arbLabelSelector(), arbLabelSelector(), fc.nat(2)),
      (o, [n, ipBlock, a, b, which]) => {
        const site = policyPeerSite(o, n);
        const peer: Obj = { ipBlock };
        if (which !== 1) peer["podSelector"] = a;
        if (which !== 0) peer["namespaceSelector"] = b;
        site.list[site.index] = peer;
        return err(FORBIDDEN, site.at);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.cidr-missing",
      K,
      "cidr Required (except not examined)",
      fc.tuple(fc.nat(), fc.array(fc.constantFrom(...UNPARSEABLE_CIDRS), { maxLength: 2 }), fc.boolean()),
      (o, [n, except, explicit]) => {
        const at = setIpBlockPeer(o, n, explicit ? { cidr: "", except } : { except });
        return err(REQUIRED, `${at}.cidr`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.cidr-invalid",
      K,
      "cidr unparseable (except not examined)",
      fc.tuple(
        fc.nat(),
        fc.constantFrom(...BAD_CIDRS),
        fc.array(fc.constantFrom(...UNPARSEABLE_CIDRS), { maxLength: 2 }),
      ),
      (o, [n, cidr, except]) => {
        const at = setIpBlockPeer(o, n, { cidr, except });
        return err(INVALID, `${at}.cidr`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-unparseable",
      K,
      "except unparseable",
      (v) => fc.tuple(fc.nat(), arbIPBlock(legacyFor(v)), fc.constantFrom(...UNPARSEABLE_CIDRS), fc.nat()),
      (o, [n, block, bad, pos]) => {
        const except = [...((block["except"] as string[] | undefined) ?? [])];
        const k = pos % (except.length + 1);
        except.splice(k, 0, bad);
        const at = setIpBlockPeer(o, n, { cidr: block["cidr"] as string, except });
        return err(INVALID, `${at}.except[${k}]`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-outside",
      K,
      "except outside cidr",
      fc.tuple(fc.nat(), arbNonRootNet(), fc.nat(), fc.nat(), fc.bigInt({ min: 0n, max: MAX_V6 })),
      (o, [n, net, flip, q, raw]) => {
        const bits = familyBits(net.family);
        const bit = flip % net.prefix; // a bit inside the prefix
        const prefix = net.prefix + (q % (bits - net.prefix + 1));
        const outside = maskAddress(
          net.family,
          (net.address | (raw & hostMask(net.family, net.prefix))) ^ (1n << BigInt(bits - 1 - bit)),
          prefix,
        );
        // An IPv4-mapped except would be a different rule in disguise; practically never drawn, replaced by a fixed pair.
        const block =
          net.family === 6 && isV4Mapped(outside)
            ? { cidr: "2001:db8::/32", except: ["2001:db9::/48"] }
            : { cidr: formatCidr(net), except: [formatCidr({ family: net.family, prefix, address: outside })] };
        const at = setIpBlockPeer(o, n, block);
        return err(INVALID, `${at}.except[0]`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-not-narrower",
      K,
      "except prefix <= cidr prefix (equal fails)",
      fc.tuple(fc.nat(), arbIPNet(), fc.nat()),
      (o, [n, net, k]) => {
        const prefix = k % (net.prefix + 1); // 0..cidr prefix: the same network or a supernet
        const except = formatCidr({
          family: net.family,
          prefix,
          address: maskAddress(net.family, net.address, prefix),
        });
        const at = setIpBlockPeer(o, n, { cidr: formatCidr(net), except: [except] });
        return err(INVALID, `${at}.except[0]`);
      },
    ),
    mutation(
      "networkpolicy.ipBlock.except-other-family",
      K,
      "except of the other IP family",
      fc.tuple(fc.nat(), arbIPNet(4), arbIPNet(6), fc.boolean()),
      (o, [n, v4, v6, v4cidr]) => {
        const [cidr, except] = v4cidr ? [v4, v6] : [v6, v4];
        const at = setIpBlockPeer(o, n, { cidr: formatCidr(cidr), except: [formatCidr(except)] });
        return err(INVALID, `${at}.except[0]`);
      },
    ),
    mutation(
      "networkpolicy.selector.operator",
      K,
      "operator Invalid (not NotSupported)",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_OPERATORS), arbLabelKey(), fc.array(arbLabelValue(), { maxLength: 2 })),
      (o, [n, op, key, values]) => {
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
        return err(INVALID, `${at}.operator`);
      },
    ),
    mutation(
      "networkpolicy.selector.values-required",
      K,
      "In/NotIn without values",
      fc.tuple(fc.nat(), fc.constantFrom("In", "NotIn"), arbLabelKey(), fc.boolean()),
      (o, [n, op, key, explicit]) => {
        const at = pushRequirement(
          policySelectorSite(o, n),
          explicit ? { key, operator: op, values: [] } : { key, operator: op },
        );
        return err(REQUIRED, `${at}.values`);
      },
    ),
    mutation(
      "networkpolicy.selector.values-forbidden",
      K,
      "Exists/DoesNotExist with values",
      fc.tuple(
        fc.nat(),
        fc.constantFrom("Exists", "DoesNotExist"),
        arbLabelKey(),
        fc.array(arbLabelValue(), { minLength: 1, maxLength: 2 }),
      ),
      (o, [n, op, key, values]) => {
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
        return err(FORBIDDEN, `${at}.values`);
      },
    ),
    mutation(
      "networkpolicy.selector.value",
      K,
      "values[v] label value (1.26+)",
      fc.tuple(
        fc.nat(),
        fc.constantFrom("In", "NotIn"),
        arbLabelKey(),
        fc.array(arbLabelValue(), { maxLength: 2 }),
        fc.constantFrom(...BAD_LABEL_VALUES),
      ),
      (o, [n, op, key, good, bad]) => {
        const values = [...good, bad];
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op, values });
        return err(INVALID, `${at}.values[${values.length - 1}]`);
      },
    ),
    mutation(
      "networkpolicy.selector.key",
      K,
      "key label-key rule",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_LABEL_KEYS), fc.constantFrom("Exists", "DoesNotExist")),
      (o, [n, key, op]) => {
        const at = pushRequirement(policySelectorSite(o, n), { key, operator: op });
        return err(INVALID, `${at}.key`);
      },
    ),
    mutation(
      "networkpolicy.selector.matchLabels-value",
      K,
      "matchLabels value (on the map path)",
      fc.tuple(fc.nat(), arbLabelKey(), fc.constantFrom(...BAD_LABEL_VALUES)),
      (o, [n, key, v]) => {
        const site = policySelectorSite(o, n);
        ensureObj(site.selector, "matchLabels")[key] = v;
        return err(INVALID, `${site.at}.matchLabels`);
      },
    ),
    mutation(
      "networkpolicy.selector.matchLabels-key",
      K,
      "matchLabels key (on the map path)",
      fc.tuple(fc.nat(), fc.constantFrom(...BAD_LABEL_KEYS), arbLabelValue()),
      (o, [n, key, v]) => {
        const site = policySelectorSite(o, n);
        ensureObj(site.selector, "matchLabels")[key] = v;
        return err(INVALID, `${site.at}.matchLabels`);
      },
    ),
    mutation(
      "networkpolicy.policyTypes.too-many",
      K,
      "more than 2 policyTypes (entries not checked)",
      fc.array(fc.constantFrom("Ingress", "Egress", "ingress", "", "Both"), { minLength: 3, maxLength: 5 }),
      (o, types) => {
        ensureObj(o, "spec")["policyTypes"] = types;
        return err(INVALID, "spec.policyTypes");
      },
    ),
    mutation(
      "networkpolicy.policyTypes.unsupported",
      K,
      "policyTypes[k] NotSupported",
      fc.tuple(
        fc.option(fc.constantFrom("Ingress", "Egress"), { nil: undefined }),
        fc.constantFrom("ingress", "EGRESS", "", "Both", "All"),
        fc.boolean(),
      ),
      (o, [good, bad, badFirst]) => {
        const types = good === undefined ? [bad] : badFirst ? [bad, good] : [good, bad];
        ensureObj(o, "spec")["policyTypes"] = types;
        return err(NOT_SUPPORTED, `spec.policyTypes[${types.indexOf(bad)}]`);
      },
    ),
    ...metaMutations(K),
  ];
}

// ---- IPAddress

/** metadata.name values that fail strict IsValidIP with exactly one message. */
function arbBadIPName(): fc.Arbitrary<string> {
  return fc.oneof(
    // non-canonical IPv6: all eight groups padded to four digits, last group 0 (so never canonical)
    fc.tuple(fc.bigInt({ min: 0n, max: (1n << 112n) - 1n }), fc.boolean()).map(([v, upper]) => {
      const address = (0x2001n << 112n) | (v & ~0xffffn);
      const text = ipv6Groups(address)
        .map((g) => g.toString(16).padStart(4, "0"))
        .join(":");
      return upper ? text.toUpperCase() : text;
    }),
    // upper-case IPv6 with at least one letter
    arbIPValue(6).map(({ address }) => formatIPv6(address | 0xan).toUpperCase()),
    // leading zero in an IPv4 octet
    arbIPValue(4).map(({ address }) => `0${formatIPv4(address)}`),
    // IPv4-mapped IPv6
    arbIPValue(4).map(({ address }) => `::ffff:${formatIPv4(address)}`),
    fc.constantFrom("foo", "10.0.0.256", "10.0.0.0/8", "fe80::1%eth0", "1.2.3", "::g", "10.0.0.1 ", "2001:db8::1::1"),
  );
}

function ipAddressMutations(): Mutation[] {
  const K: ValidatedKind = "IPAddress";
  return [
    mutation(
      "ipaddress.name.not-canonical-ip",
      K,
      "ValidateIPAddressName = strict IsValidIP",
      arbBadIPName(),
      (o, name) => {
        ensureObj(o, "metadata")["name"] = name;
        return err(INVALID, "metadata.name");
      },
    ),
    mutation("ipaddress.parentRef.missing", K, "validateIPAddressParentReference: nil", fc.boolean(), (o, noSpec) => {
      if (noSpec) delete o["spec"];
      else o["spec"] = {};
      return err(REQUIRED, "spec.parentRef");
    }),
    mutation(
      "ipaddress.parentRef.required",
      K,
      "validateIPAddressParentReference: resource/name Required",
      fc.tuple(fc.constantFrom("resource", "name"), fc.boolean()),
      (o, [which, explicit]) => {
        const ref = ensureObj(ensureObj(o, "spec"), "parentRef");
        if (explicit) ref[which] = "";
        else delete ref[which];
        return err(REQUIRED, `spec.parentRef.${which}`);
      },
    ),
    mutation(
      "ipaddress.parentRef.segment",
      K,
      "validateIPAddressParentReference: path segment names",
      fc.tuple(fc.constantFrom("resource", "name"), fc.constantFrom(...BAD_SEGMENT_NAMES)),
      (o, [which, bad]) => {
        ensureObj(ensureObj(o, "spec"), "parentRef")[which] = bad;
        return err(INVALID, `spec.parentRef.${which}`);
      },
    ),
    mutation(
      "ipaddress.parentRef.group",
      K,
      "validateIPAddressParentReference: group DNS-1123 subdomain",
      fc.constantFrom("Bad_Group", "example.com.", "UPPER.io", "a".repeat(254)),
      (o, g) => {
        ensureObj(ensureObj(o, "spec"), "parentRef")["group"] = g;
        return err(INVALID, "spec.parentRef.group");
      },
    ),
    mutation(
      "ipaddress.parentRef.namespace",
      K,
      "validateIPAddressParentReference: namespace",
      fc.constantFrom("a/b", "..", "a%b"),
      (o, ns) => {
        ensureObj(ensureObj(o, "spec"), "parentRef")["namespace"] = ns;
        return err(INVALID, "spec.parentRef.namespace");
      },
    ),
    ...metaMutations(K),
  ];
}

// ---- ServiceCIDR

/** Single CIDRs that fail strict IsValidCIDR with exactly one message. */
function arbBadStrictCidr(): fc.Arbitrary<string> {
  return fc.oneof(
    // host bits set beyond the prefix
    fc.tuple(arbIPNet(), fc.bigInt({ min: 1n, max: MAX_V6 })).map(([net, noise]) => {
      const bits = familyBits(net.family);
      const n =
        net.prefix === bits
          ? { ...net, prefix: bits - 1, address: maskAddress(net.family, net.address, bits - 1) }
          : net;
      let a = n.address | (noise & hostMask(n.family, n.prefix));
      if (a === n.address) a |= 1n; // at least one host bit
      if (n.family === 6 && isV4Mapped(a)) a |= 1n << 127n;
      return `${formatIP(n.family, a)}/${n.prefix}`;
    }),
    // leading zeros in the address or the prefix
    arbIPNet(4)
      .map((net) => formatLegacyCidr(net, "leadingZeros", 0n))
      .filter((t) => /(^|\.)0\d/.test(t)),
    arbIPNet().map((net) => formatLegacyCidr(net, "prefixZero", 0n)),
    // IPv4-mapped
    arbIPNet(4).map((net) => formatLegacyCidr(net, "v4mapped", 0n)),
    // non-canonical IPv6 text
    arbIPNet(6)
      .map((net) => [formatLegacyCidr(net, "expanded", 1n), formatCidr(net)])
      .filter(([text, canonical]) => text !== canonical)
      .map(([text]) => text as string),
    fc.constantFrom("2001:DB8::/64", "fd00:0:0:0::/64", "abc", "10.0.0.0", "10.0.0.0/33", "::/129", ""),
  );
}

function serviceCidrMutations(): Mutation[] {
  const K: ValidatedKind = "ServiceCIDR";
  return [
    mutation("servicecidr.cidrs.empty", K, "validateServiceCIDRSpec: Required", fc.boolean(), (o, explicit) => {
      const spec = ensureObj(o, "spec");
      if (explicit) spec["cidrs"] = [];
      else delete spec["cidrs"];
      return err(REQUIRED, "spec.cidrs");
    }),
    mutation(
      "servicecidr.cidrs.too-many",
      K,
      "validateServiceCIDRSpec: more than 2 (entries not checked)",
      fc.array(fc.oneof(arbCanonicalCidr(), fc.constantFrom("x", "")), { minLength: 3, maxLength: 5 }),
      (o, cidrs) => {
        ensureObj(o, "spec")["cidrs"] = cidrs;
        return err(INVALID, "spec.cidrs");
      },
    ),
    mutation(
      "servicecidr.cidrs.same-family",
      K,
      "validateServiceCIDRSpec: two of one family",
      fc.tuple(fc.boolean(), arbCanonicalCidr(4), arbCanonicalCidr(4), arbCanonicalCidr(6), arbCanonicalCidr(6)),
      (o, [v4, a4, b4, a6, b6]) => {
        ensureObj(o, "spec")["cidrs"] = v4 ? [a4, b4] : [a6, b6];
        return err(INVALID, "spec.cidrs");
      },
    ),
    // 1.33+ validateServiceCIDRSpec: entries first; the family check only when both parse (<= 1.32 said Invalid on spec.cidrs).
    mutation(
      "servicecidr.cidrs.pair-unparseable",
      K,
      "validateServiceCIDRSpec: an unparseable entry of two",
      fc.tuple(arbCanonicalCidr(), fc.constantFrom("abc", "10.0.0.0", "10.0.0.0/33", "::/129", "fd00::"), fc.boolean()),
      (o, [good, bad, badFirst]) => {
        ensureObj(o, "spec")["cidrs"] = badFirst ? [bad, good] : [good, bad];
        return err(INVALID, `spec.cidrs[${badFirst ? 0 : 1}]`);
      },
    ),
    mutation(
      "servicecidr.cidrs.single-invalid",
      K,
      "validateServiceCIDRSpec: strict IsValidCIDR",
      arbBadStrictCidr().filter((c) => c !== ""),
      (o, c) => {
        ensureObj(o, "spec")["cidrs"] = [c];
        return err(INVALID, "spec.cidrs[0]");
      },
    ),
    mutation(
      "servicecidr.cidrs.dual-invalid",
      K,
      "validateServiceCIDRSpec: strict IsValidCIDR per entry",
      fc.tuple(
        fc.boolean(),
        fc.boolean(),
        arbCanonicalCidr(4),
        arbCanonicalCidr(6),
        arbBadDualEntry(4),
        arbBadDualEntry(6),
      ),
      (o, [v4bad, badFirst, good4, good6, bad4, bad6]) => {
        const [good, bad] = v4bad ? [good6, bad4] : [good4, bad6];
        ensureObj(o, "spec")["cidrs"] = badFirst ? [bad, good] : [good, bad];
        return err(INVALID, `spec.cidrs[${badFirst ? 0 : 1}]`);
      },
    ),
    ...metaMutations(K),
  ];
}

/** A strictly-invalid but parseable CIDR of `family` (so the dual-stack check still passes). */
function arbBadDualEntry(family: IPFamily): fc.Arbitrary<string> {
  return fc.tuple(arbIPNet(family), fc.bigInt({ min: 1n, max: MAX_V6 }), fc.nat(2)).map(([net, noise, style]) => {
    if (style === 0) return formatLegacyCidr(net, "prefixZero", 0n);
    if (style === 1 && family === 4) return `0${formatCidr(net)}`; // a leading zero in the first octet
    if (style === 1) {
      const text = formatLegacyCidr(net, "expanded", 1n);
      if (text !== formatCidr(net)) return text;
    }
    const bits = familyBits(family);
    const n =
      net.prefix === bits ? { ...net, prefix: bits - 1, address: maskAddress(family, net.address, bits - 1) } : net;
    let a = n.address | (noise & hostMask(family, n.prefix));
    if (a === n.address) a |= 1n;
    if (family === 6 && isV4Mapped(a)) a |= 1n << 127n;
    return `${formatIP(family, a)}/${n.prefix}`;
  });
}

// ------------------------------------------------------------ update to itself

/**
 * The errors a targeted invalid object yields when it is validated as an
 * update of itself (same object as `old`, resourceVersion and namespace set),
 * as a multiset. An update runs the generic registry's validateCommonFields
 * (ValidateObjectMetaAccessor with ValidatePathSegmentName as the name rule,
 * then ValidateObjectMetaAccessorUpdate) and then the strategy's ValidateUpdate:
 *
 * * labels and annotations are checked by ObjectMetaAccessor,
 *   ObjectMetaAccessorUpdate, and the strategy's ObjectMeta and ObjectMetaUpdate:
 *   four times;
 * * an empty name is Required twice (common ObjectMetaAccessor and the
 *   strategy's ObjectMeta); a bad name once, plus once per path-segment
 *   message (`/`, `%`, `.`, `..`) from the common check;
 * * the NetworkPolicy strategy appends ValidateNetworkPolicy and
 *   ValidateNetworkPolicyUpdate, which both validate the spec: spec errors
 *   twice. IPAddress and ServiceCIDR strategies also run create + update
 *   validation, but their update halves only add metadata and immutability;
 * * ratchets drop the error: an invalid TLS secretName
 *   (AllowInvalidSecretName), an invalid rule value under a wildcard host
 *   (AllowInvalidWildcardHostRule), a Service name that is a DNS-1123 label
 *   (relaxed service-name rule), an invalid value in spec.podSelector's
 *   matchExpressions (AllowInvalidLabelValueInSelector looks at the old
 *   top-level podSelector only), the class annotation (create-only), and an
 *   ipBlock CIDR string already present in the old object (1.33+;
 *   KEP-4858 `validOldCIDRs` accepts such values without any format check,
 *   and an unparseable one then skips the subset checks).
 *
 * ServiceCIDR is not covered: its 1.33+ update strategy is not pinned down
 * (up to 1.32 it ran ValidateServiceCIDR and ValidateServiceCIDRUpdate).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid, expectedOnSelfUpdate } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) => {
 *     const errors = validate(t.object, { old: t.object });
 *     return expectedOnSelfUpdate(t).every((want) => errors.some((e) => e.field === want.field));
 *   }),
 * );
 * ```
 */
export function expectedOnSelfUpdate(t: TargetedInvalid): ExpectedError[] {
  const e = t.expected;
  const json = t.json as Obj;
  const times = (n: number): ExpectedError[] => Array.from({ length: n }, () => e);
  if (t.mutation === "ingress.tls.secretName" || t.mutation === "ingress.class-annotation-mismatch") return [];
  if (t.kind === "Ingress") {
    const m = /^spec\.rules\[(\d+)\]\.http/.exec(e.field);
    const host = m === null ? undefined : (json["spec"]?.["rules"]?.[Number(m[1])]?.["host"] as string | undefined);
    if (host?.includes("*")) return [];
    if (
      t.mutation === "ingress.backend.service-name" &&
      e.field.endsWith(".service.name") &&
      relaxedServiceNameAdmits(t)
    )
      return [];
  }
  if (e.field === "metadata.labels" || e.field === "metadata.annotations") return times(4);
  if (e.field === "metadata.name") {
    const name = (json["metadata"]?.["name"] as string | undefined) ?? "";
    if (name === "") return times(2);
    const segment = name === "." || name === ".." ? 1 : ["/", "%"].filter((c) => name.includes(c)).length;
    return times(1 + segment);
  }
  if (t.kind === "NetworkPolicy" && e.field.startsWith("spec")) {
    if (t.mutation === "networkpolicy.selector.value" && e.field.startsWith("spec.podSelector.")) return [];
    if (
      t.mutation === "networkpolicy.ipBlock.cidr-invalid" ||
      t.mutation === "networkpolicy.ipBlock.except-unparseable"
    )
      return [];
    return times(2);
  }
  return times(1);
}

/** The backend object at a rendered path like `spec.rules[0].http.paths[1].backend`. */
function backendAt(json: Obj, field: string): Obj | undefined {
  let cur: unknown = json;
  for (const part of field.split(/\.|(?=\[)/)) {
    if (cur === null || typeof cur !== "object") return undefined;
    const idx = /^\[(\d+)\]$/.exec(part);
    cur = idx === null ? (cur as Obj)[part] : (cur as unknown[])[Number(idx[1])];
  }
  return cur !== null && typeof cur === "object" ? (cur as Obj) : undefined;
}

// ------------------------------------------------------------ all mutations

let mutationsCache: readonly Mutation[] | undefined;

/**
 * Every targeted mutation, for all five kinds.
 *
 * @example
 * ```ts
 * import { targetedMutations } from "clusterwire/testing";
 *
 * console.log(targetedMutations().length, targetedMutations().map((m) => m.name).slice(0, 5));
 * ```
 */
export function targetedMutations(): readonly Mutation[] {
  mutationsCache ??= [
    ...ingressMutations(),
    ...ingressClassMutations(),
    ...networkPolicyMutations(),
    ...ipAddressMutations(),
    ...serviceCidrMutations(),
  ];
  return mutationsCache;
}

/**
 * Options of {@link arbTargetedInvalid}.
 *
 * @example
 * ```ts
 * import type { TargetedInvalidOptions } from "clusterwire/testing";
 *
 * const options: TargetedInvalidOptions = { version: "1.37" };
 * ```
 */
export interface TargetedInvalidOptions {
  /**
   * The release the objects must be invalid for (default 1.35, the
   * validator's default). From 1.37 a backend Service name may be any
   * DNS-1123 label (RelaxedServiceName, on by default), so a name such as
   * `1abc` is drawn only for 1.35.
   */
  readonly version?: KubernetesVersion;
}

/**
 * A valid object of `kind` (or any kind) with exactly one violation, and the one error it yields
 * under `options.version` (default 1.35).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress", { version: "1.37" }), (t) =>
 *     validate(t.object, { version: "1.37" }).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export function arbTargetedInvalid(
  kind?: ValidatedKind,
  options: TargetedInvalidOptions = {},
): fc.Arbitrary<TargetedInvalid> {
  const ms = targetedMutations().filter((m) => kind === undefined || m.kind === kind);
  const version = options.version ?? DEFAULT_KUBERNETES_VERSION;
  // The default release keeps each mutation's own arbitrary, so seeded draws stay as they were.
  const any = fc.oneof(
    ...ms.map((m) =>
      version === DEFAULT_KUBERNETES_VERSION ? m.arbitrary : (ON_VALID_FOR.get(m)?.(version) ?? m.arbitrary),
    ),
  );
  if (!defaultFeatureGates(version).RelaxedServiceNameValidation) return any;
  // The relaxed rule admits a DNS-1123 label; every other bad name stays bad.
  return any.filter((t) => t.mutation !== "ingress.backend.service-name" || !relaxedServiceNameAdmits(t));
}

/** Whether the service-name mutation of `t` drew a name the relaxed (1.37) rule accepts. */
function relaxedServiceNameAdmits(t: TargetedInvalid): boolean {
  const field = t.expected.field;
  const name = backendAt(t.json as Obj, field.slice(0, -".service.name".length))?.["service"]?.["name"];
  return typeof name === "string" && name.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
}
