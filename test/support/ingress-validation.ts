// Helpers for the Ingress and IngressClass validation tests: objects to
// mutate, an exact error-list check, and the upstream message texts.

import { expect } from "vitest";
import {
  fromJson,
  formatFieldError,
  validate,
  type FieldError,
  type FieldErrorType,
  type JsonValue,
  type NetworkingObject,
  type ValidateOptions,
} from "../../src/networking/index.js";

// ------------------------------------------------------------------ helpers

// biome-ignore lint/suspicious/noExplicitAny: tests spoil fixtures in place through deep paths (o.spec.rules[0].http.paths[0]); unknown would need a cast at every step
export type J = Record<string, any>;

export const R: FieldErrorType = "FieldValueRequired";
export const I: FieldErrorType = "FieldValueInvalid";
export const NS: FieldErrorType = "FieldValueNotSupported";
export const F: FieldErrorType = "FieldValueForbidden";
export const TL: FieldErrorType = "FieldValueTooLong";

/** [type, field] or [type, field, exact detail]. */
export type Exp = readonly [FieldErrorType, string] | readonly [FieldErrorType, string, string];

export const svcBackend = (name = "svc", port: J = { number: 80 }): J => ({ service: { name, port } });

export function ingressJson(): J {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "web", namespace: "default" },
    spec: {
      rules: [
        {
          host: "foo.example.com",
          http: { paths: [{ path: "/", pathType: "Prefix", backend: svcBackend() }] },
        },
      ],
    },
  };
}

export function ingressClassJson(): J {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: { name: "nginx" },
    spec: { controller: "example.com/ingress-controller" },
  };
}

/** A minimal valid Ingress with `mut` applied. */
export function ing(mut?: (o: J) => void): NetworkingObject {
  const o = ingressJson();
  mut?.(o);
  return fromJson(o as JsonValue);
}

/** A minimal valid IngressClass with `mut` applied. */
export function ic(mut?: (o: J) => void): NetworkingObject {
  const o = ingressClassJson();
  mut?.(o);
  return fromJson(o as JsonValue);
}

/** The first rule's first path entry. */
export const path0 = (o: J): J => o.spec.rules[0].http.paths[0];
/** Replaces the first path entry's backend. */
export const setBackend = (b: J) => (o: J) => {
  path0(o).backend = b;
};
export const setHost = (h: string) => (o: J) => {
  o.spec.rules[0].host = h;
};
export const setPath = (path: string | undefined, pathType: string | undefined) => (o: J) => {
  const p = path0(o);
  if (path === undefined) delete p.path;
  else p.path = path;
  if (pathType === undefined) delete p.pathType;
  else p.pathType = pathType;
};

/** A stored Ingress as the update paths see it (resourceVersion and uid set). */
export function storedIngress(mut?: (o: J) => void): NetworkingObject {
  return ing((o) => {
    o.metadata.resourceVersion = "7";
    o.metadata.uid = "0b9b7f36-1111-4d2c-9a57-5f3a1c000001";
    mut?.(o);
  });
}

/** The update body: same identity as storedIngress, then `mut`. */
export function updatedIngress(mut?: (o: J) => void): NetworkingObject {
  return storedIngress(mut);
}

export function storedClass(mut?: (o: J) => void): NetworkingObject {
  return ic((o) => {
    o.metadata.resourceVersion = "3";
    o.metadata.uid = "0b9b7f36-2222-4d2c-9a57-5f3a1c000002";
    mut?.(o);
  });
}

export const key = (type: string, field: string): string => `${type} ${field}`;

/**
 * The errors equal `exp` as a multiset of {type, field}; entries that give a
 * detail must be matched by an error with exactly that detail.
 */
export function expectErrors(errs: readonly FieldError[], exp: readonly Exp[]): void {
  expect(errs.map((e) => key(e.type, e.field)).sort()).toEqual(exp.map((x) => key(x[0], x[1])).sort());
  const pool = errs.map((e) => ({ e, used: false }));
  const ordered = [...exp].sort((a, b) => (b.length === 3 ? 1 : 0) - (a.length === 3 ? 1 : 0));
  for (const x of ordered) {
    const hit = pool.find(
      (p) => !p.used && p.e.type === x[0] && p.e.field === x[1] && (x.length === 2 || p.e.detail === x[2]),
    );
    expect(
      hit,
      `no error ${x[0]} ${x[1]}${x.length === 3 ? ` with detail ${JSON.stringify(x[2])}` : ""}; got ${JSON.stringify(errs.map((e) => [e.type, e.field, e.detail]))}`,
    ).toBeDefined();
    hit!.used = true;
  }
}

export function check(obj: NetworkingObject, exp: readonly Exp[], opts?: ValidateOptions): FieldError[] {
  const errs = validate(obj, opts);
  expectErrors(errs, exp);
  return errs;
}

export const lines = (errs: readonly FieldError[]): string[] => errs.map(formatFieldError);

// ------------------------------------------------------------ upstream text

export const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const WILDCARD =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
export const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const LABEL_KEY_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
export const HTTP_PATH = "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')";
export const DOMAIN_PREFIXED = 'must be a domain-prefixed path (such as "acme.io/foo")';
export const NOT_IP = "must be a DNS name, not an IP address";
export const PORT_RANGE = "must be between 1 and 65535, inclusive";
export const EITHER = "either `defaultBackend` or `rules` must be specified";
export const IMMUTABLE = "field is immutable";
export const PATH_TYPES = 'supported values: "Exact", "ImplementationSpecific", "Prefix"';
export const SCOPES = 'supported values: "Cluster", "Namespace"';
export const NOT_FINALIZER = "name is neither a standard finalizer name nor is it fully qualified";
// apimachinery util/validation's MaxLenError (DNS names, port names) says "characters";
// api/validate/content's (label keys and values) says "bytes". Both count bytes.
export const maxLen = (n: number): string => `must be no more than ${n} characters`;
export const contentMaxLen = (n: number): string => `must be no more than ${n} bytes`;

export const P0 = "spec.rules[0].http.paths[0]";
export const B0 = `${P0}.backend`;

// ======================================================================
// §5.1 spec level
// ======================================================================
