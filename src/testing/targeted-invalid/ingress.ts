// Ingress mutations: one violation each of the Ingress rules.

import fc from "fast-check";
import { defaultFeatureGates, INGRESS_CLASS_ANNOTATION } from "../../networking/index.js";
import { arbDns1035Label, arbDns1123Subdomain } from "../building-blocks/names.js";
import { arbAbsolutePath, arbPathSegment, arbPathSegmentName } from "../building-blocks/paths.js";
import { arbPortName, arbPortNumber } from "../building-blocks/ports.js";
import {
  arbResourceBackend,
  arbServiceBackend,
  type ValidatedKind,
  type ValidObjectOptions,
} from "../valid-objects.js";
import {
  type Mutation,
  type Obj,
  REQUIRED,
  INVALID,
  NOT_SUPPORTED,
  mutation,
  err,
  ensureObj,
  ensureArr,
  pick,
} from "./mutation.js";
import { metaMutations } from "./metadata.js";
import { BAD_PORT_NAMES, BAD_SEGMENT_NAMES, BAD_SUBDOMAINS_INCL_EMPTY } from "./bad-values.js";

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
const BAD_PORT_NUMBERS = [65536, 70000, -1, -80, 2147483647, -2147483648];
/** DNS-1123 labels that are no DNS-1035 label: bad Service names until RelaxedServiceName (on from 1.37). */
const STRICT_ONLY_SERVICE_NAMES = ["1abc"];
const BAD_SERVICE_NAMES = [...STRICT_ONLY_SERVICE_NAMES, "Svc", "svc.ns", "svc_1", "-svc", "a".repeat(64)];

/** The Service names `options.version` refuses. */
function badServiceNames(options: ValidObjectOptions): string[] {
  if (!defaultFeatureGates(options.version).RelaxedServiceNameValidation) return BAD_SERVICE_NAMES;
  return BAD_SERVICE_NAMES.filter((n) => !STRICT_ONLY_SERVICE_NAMES.includes(n));
}
const BAD_SECRET_NAMES = ["ns/name", "Secret", "my_secret", "a".repeat(254), ".secret"];

export function ingressMutations(): Mutation[] {
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
      (v) => fc.tuple(fc.nat(), fc.constantFrom(...badServiceNames(v)), arbPortName()),
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
