// IngressClass mutations: one violation each of the IngressClass rules.

import fc from "fast-check";
import { arbDns1123Label, arbDns1123Subdomain } from "../building-blocks/names.js";
import type { ValidatedKind } from "../valid-objects.js";
import {
  type Mutation,
  type Obj,
  REQUIRED,
  INVALID,
  NOT_SUPPORTED,
  FORBIDDEN,
  TOO_LONG,
  mutation,
  err,
  ensureObj,
} from "./mutation.js";
import { metaMutations } from "./metadata.js";
import { BAD_SEGMENT_NAMES, BAD_SUBDOMAINS_INCL_EMPTY } from "./bad-values.js";

function ensureParameters(o: Obj): Obj {
  const spec = ensureObj(o, "spec");
  const p = spec["parameters"];
  if (p !== null && typeof p === "object") return p as Obj;
  const fresh: Obj = { kind: "ConfigMap", name: "params" };
  spec["parameters"] = fresh;
  return fresh;
}

export function ingressClassMutations(): Mutation[] {
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
