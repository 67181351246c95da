// Ingress and IngressClass validation, one test per rule of the catalogue
// (/work/shared/docs/validation-rules.md §4 as it applies to Ingress, §5.1–§5.7,
// §6, §9, §11). Every case states the exact error list as a multiset of
// {type, field}; many also pin the API server's detail text or the whole
// `field: Type: value: detail` line. Messages follow the newest upstream
// wording (content.MaxLenError "must be no more than N bytes",
// field.TooLong "must have at most N bytes").

import { describe, expect, it } from "vitest";
import {
  fromJson,
  formatFieldError,
  toJsonString,
  toStatus,
  validate,
  type FieldError,
  type FieldErrorType,
  type JsonValue,
  type NetworkingObject,
  type ValidateOptions,
} from "../../../src/networking/index.js";

// ------------------------------------------------------------------ helpers

type J = Record<string, any>;

const R: FieldErrorType = "FieldValueRequired";
const I: FieldErrorType = "FieldValueInvalid";
const NS: FieldErrorType = "FieldValueNotSupported";
const F: FieldErrorType = "FieldValueForbidden";
const TL: FieldErrorType = "FieldValueTooLong";

/** [type, field] or [type, field, exact detail]. */
type Exp = readonly [FieldErrorType, string] | readonly [FieldErrorType, string, string];

const svcBackend = (name = "svc", port: J = { number: 80 }): J => ({ service: { name, port } });

function ingressJson(): J {
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

function ingressClassJson(): J {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: { name: "nginx" },
    spec: { controller: "example.com/ingress-controller" },
  };
}

/** A minimal valid Ingress with `mut` applied. */
function ing(mut?: (o: J) => void): NetworkingObject {
  const o = ingressJson();
  mut?.(o);
  return fromJson(o as JsonValue);
}

/** A minimal valid IngressClass with `mut` applied. */
function ic(mut?: (o: J) => void): NetworkingObject {
  const o = ingressClassJson();
  mut?.(o);
  return fromJson(o as JsonValue);
}

/** The first rule's first path entry. */
const path0 = (o: J): J => o.spec.rules[0].http.paths[0];
/** Replaces the first path entry's backend. */
const setBackend = (b: J) => (o: J) => {
  path0(o).backend = b;
};
const setHost = (h: string) => (o: J) => {
  o.spec.rules[0].host = h;
};
const setPath = (path: string | undefined, pathType: string | undefined) => (o: J) => {
  const p = path0(o);
  if (path === undefined) delete p.path;
  else p.path = path;
  if (pathType === undefined) delete p.pathType;
  else p.pathType = pathType;
};

/** A stored Ingress as the update paths see it (resourceVersion and uid set). */
function storedIngress(mut?: (o: J) => void): NetworkingObject {
  return ing((o) => {
    o.metadata.resourceVersion = "7";
    o.metadata.uid = "0b9b7f36-1111-4d2c-9a57-5f3a1c000001";
    mut?.(o);
  });
}

/** The update body: same identity as storedIngress, then `mut`. */
function updatedIngress(mut?: (o: J) => void): NetworkingObject {
  return storedIngress(mut);
}

function storedClass(mut?: (o: J) => void): NetworkingObject {
  return ic((o) => {
    o.metadata.resourceVersion = "3";
    o.metadata.uid = "0b9b7f36-2222-4d2c-9a57-5f3a1c000002";
    mut?.(o);
  });
}

const key = (type: string, field: string): string => `${type} ${field}`;

/**
 * The errors equal `exp` as a multiset of {type, field}; entries that give a
 * detail must be matched by an error with exactly that detail.
 */
function expectErrors(errs: readonly FieldError[], exp: readonly Exp[]): void {
  expect(errs.map((e) => key(e.type, e.field)).sort()).toEqual(exp.map((x) => key(x[0], x[1])).sort());
  const pool = errs.map((e) => ({ e, used: false }));
  const ordered = [...exp].sort((a, b) => (b.length === 3 ? 1 : 0) - (a.length === 3 ? 1 : 0));
  for (const x of ordered) {
    const hit = pool.find(
      (p) => !p.used && p.e.type === x[0] && p.e.field === x[1] && (x.length === 2 || p.e.detail === x[2]),
    );
    expect(hit, `no error ${x[0]} ${x[1]}${x.length === 3 ? ` with detail ${JSON.stringify(x[2])}` : ""}; got ${JSON.stringify(errs.map((e) => [e.type, e.field, e.detail]))}`).toBeDefined();
    hit!.used = true;
  }
}

function check(obj: NetworkingObject, exp: readonly Exp[], opts?: ValidateOptions): FieldError[] {
  const errs = validate(obj, opts);
  expectErrors(errs, exp);
  return errs;
}

const lines = (errs: readonly FieldError[]): string[] => errs.map(formatFieldError);

// ------------------------------------------------------------ upstream text

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const LABEL_KEY_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const HTTP_PATH = "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')";
const DOMAIN_PREFIXED = 'must be a domain-prefixed path (such as "acme.io/foo")';
const NOT_IP = "must be a DNS name, not an IP address";
const PORT_RANGE = "must be between 1 and 65535, inclusive";
const EITHER = "either `defaultBackend` or `rules` must be specified";
const IMMUTABLE = "field is immutable";
const PATH_TYPES = 'supported values: "Exact", "ImplementationSpecific", "Prefix"';
const SCOPES = 'supported values: "Cluster", "Namespace"';
const NOT_FINALIZER = "name is neither a standard finalizer name nor is it fully qualified";
const maxLen = (n: number): string => `must be no more than ${n} bytes`;

const P0 = "spec.rules[0].http.paths[0]";
const B0 = `${P0}.backend`;

// ======================================================================
// §5.1 spec level
// ======================================================================

describe("§5.1 Ingress spec level", () => {
  it("the minimal Ingress used as the base of every case is valid", () => {
    check(ing(), []);
  });

  it("no rules and no defaultBackend: one Invalid on spec, value printed as a nil []networking.IngressRule", () => {
    const errs = check(ing((o) => (o.spec = {})), [[I, "spec", EITHER]]);
    expect(lines(errs)).toEqual([
      "spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified",
    ]);
  });

  it("an explicit empty rules list counts as absent", () => {
    check(ing((o) => (o.spec = { rules: [] })), [[I, "spec", EITHER]]);
  });

  it("defaultBackend alone is enough", () => {
    check(ing((o) => (o.spec = { defaultBackend: svcBackend() })), []);
  });

  it("defaultBackend is validated with the backend rules, at spec.defaultBackend", () => {
    check(ing((o) => (o.spec.defaultBackend = svcBackend("Bad", { number: 0 }))), [
      [I, "spec.defaultBackend.service.name", DNS1035],
      [R, "spec.defaultBackend", "port name or number is required"],
    ]);
  });

  it("rules: [{}] is valid (non-empty, nothing to check)", () => {
    check(ing((o) => (o.spec = { rules: [{}] })), []);
  });

  it("a rule with a host and no http is valid", () => {
    check(ing((o) => (o.spec = { rules: [{ host: "foo.example.com" }] })), []);
  });

  it("ingressClassName must be a DNS-1123 subdomain", () => {
    const errs = check(ing((o) => (o.spec.ingressClassName = "Nginx_Class")), [[I, "spec.ingressClassName", SUBDOMAIN]]);
    expect(lines(errs)).toEqual([`spec.ingressClassName: Invalid value: "Nginx_Class": ${SUBDOMAIN}`]);
  });

  it('ingressClassName "" is set and fails (§11.13)', () => {
    const errs = check(ing((o) => (o.spec.ingressClassName = "")), [[I, "spec.ingressClassName", SUBDOMAIN]]);
    expect(lines(errs)).toEqual([`spec.ingressClassName: Invalid value: "": ${SUBDOMAIN}`]);
  });

  it("a valid ingressClassName passes", () => {
    check(ing((o) => (o.spec.ingressClassName = "nginx")), []);
  });

  it("create: annotation kubernetes.io/ingress.class different from ingressClassName → Invalid at annotations.kubernetes.io/ingress.class", () => {
    const errs = check(
      ing((o) => {
        o.metadata.annotations = { "kubernetes.io/ingress.class": "nginx" };
        o.spec.ingressClassName = "traefik";
      }),
      [[I, "annotations.kubernetes.io/ingress.class", "must match `ingressClassName` when both are specified"]],
    );
    expect(lines(errs)).toEqual([
      'annotations.kubernetes.io/ingress.class: Invalid value: "nginx": must match `ingressClassName` when both are specified',
    ]);
    expect(errs[0]!.path).toEqual(["annotations", "kubernetes.io/ingress.class"]);
  });

  it("create: annotation equal to ingressClassName is accepted (1.27+)", () => {
    check(
      ing((o) => {
        o.metadata.annotations = { "kubernetes.io/ingress.class": "nginx" };
        o.spec.ingressClassName = "nginx";
      }),
      [],
    );
  });

  it("create: annotation without ingressClassName is accepted", () => {
    check(ing((o) => (o.metadata.annotations = { "kubernetes.io/ingress.class": "anything goes" })), []);
  });

  it('create: annotation "" and ingressClassName "" are equal: only the class-name format error', () => {
    check(
      ing((o) => {
        o.metadata.annotations = { "kubernetes.io/ingress.class": "" };
        o.spec.ingressClassName = "";
      }),
      [[I, "spec.ingressClassName", SUBDOMAIN]],
    );
  });

  it("the class annotation lookup is by exact key: a differently-cased key is not the class annotation", () => {
    check(
      ing((o) => {
        o.metadata.annotations = { "Kubernetes.io/ingress.class": "nginx" };
        o.spec.ingressClassName = "traefik";
      }),
      [],
    );
  });
});

// ======================================================================
// §5.2 rules and hosts
// ======================================================================

describe("§5.2 rule hosts", () => {
  it("an IPv4 literal gives exactly one error (it also matches the subdomain regex)", () => {
    const errs = check(ing(setHost("10.0.0.1")), [[I, "spec.rules[0].host", NOT_IP]]);
    expect(lines(errs)).toEqual(['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address']);
  });

  it("an IPv4 literal with leading zeros parses sloppily: one IP error", () => {
    check(ing(setHost("010.001.002.003")), [[I, "spec.rules[0].host", NOT_IP]]);
  });

  it("an IPv6 literal gives two errors: IP first, then the subdomain regex", () => {
    const errs = check(ing(setHost("2001:db8::1")), [
      [I, "spec.rules[0].host", NOT_IP],
      [I, "spec.rules[0].host", SUBDOMAIN],
    ]);
    expect(lines(errs)).toEqual([
      'spec.rules[0].host: Invalid value: "2001:db8::1": must be a DNS name, not an IP address',
      `spec.rules[0].host: Invalid value: "2001:db8::1": ${SUBDOMAIN}`,
    ]);
  });

  it("an IPv4-mapped IPv6 literal is an IP too: two errors", () => {
    check(ing(setHost("::ffff:10.0.0.1")), [
      [I, "spec.rules[0].host", NOT_IP],
      [I, "spec.rules[0].host", SUBDOMAIN],
    ]);
  });

  for (const host of ["foo.com:80", "Foo.com", "foo.com.", "foo_bar.com"]) {
    it(`${JSON.stringify(host)} → one Invalid (subdomain regex)`, () => {
      const errs = check(ing(setHost(host)), [[I, "spec.rules[0].host", SUBDOMAIN]]);
      expect(lines(errs)).toEqual([`spec.rules[0].host: Invalid value: ${JSON.stringify(host)}: ${SUBDOMAIN}`]);
    });
  }

  for (const host of ["*", "foo.*.com", "*foo.com", "*.*.foo.com"]) {
    it(`${JSON.stringify(host)} → one Invalid (wildcard regex)`, () => {
      const errs = check(ing(setHost(host)), [[I, "spec.rules[0].host", WILDCARD]]);
      expect(lines(errs)).toEqual([`spec.rules[0].host: Invalid value: ${JSON.stringify(host)}: ${WILDCARD}`]);
    });
  }

  for (const host of ["*.com", "*.foo.example.com", `${"a".repeat(64)}.example.com`, "123", "1.2.3", ""]) {
    it(`${JSON.stringify(host.length > 20 ? `${host.slice(0, 12)}…` : host)} is a valid host`, () => {
      check(ing(setHost(host)), []);
    });
  }

  it("a host longer than 253 bytes is Invalid (not TooLong), one length message", () => {
    const host = `${"a".repeat(63)}.`.repeat(3) + "a".repeat(62); // 254
    expect(host.length).toBe(254);
    const errs = check(ing(setHost(host)), [[I, "spec.rules[0].host", maxLen(253)]]);
    expect(lines(errs)).toEqual([`spec.rules[0].host: Invalid value: "${host}": must be no more than 253 bytes`]);
  });

  it("a 253-byte host is valid", () => {
    check(ing(setHost(`${"a".repeat(63)}.`.repeat(3) + "a".repeat(61))), []);
  });

  it("a wildcard host longer than 253 bytes: one length message from the wildcard check", () => {
    const host = `*.${`${"a".repeat(63)}.`.repeat(3)}${"a".repeat(60)}`; // 254
    expect(host.length).toBe(254);
    check(ing(setHost(host)), [[I, "spec.rules[0].host", maxLen(253)]]);
  });

  it("a host that is too long and malformed gets both messages", () => {
    const host = `${"A".repeat(254)}`;
    check(ing(setHost(host)), [
      [I, "spec.rules[0].host", maxLen(253)],
      [I, "spec.rules[0].host", SUBDOMAIN],
    ]);
  });

  it("errors carry the rule's own index", () => {
    check(
      ing((o) => {
        o.spec.rules.push({ host: "Bad_Host" }, { host: "ok.example.com" }, { host: "*" });
      }),
      [
        [I, "spec.rules[1].host", SUBDOMAIN],
        [I, "spec.rules[3].host", WILDCARD],
      ],
    );
  });

  it("the rule value of a wildcard-host rule is validated on create", () => {
    check(
      ing((o) => {
        o.spec.rules[0].host = "*.example.com";
        delete path0(o).pathType;
      }),
      [[R, `${P0}.pathType`, "pathType must be specified"]],
    );
  });
});

// ======================================================================
// §5.3 HTTP paths
// ======================================================================

describe("§5.3 HTTP paths", () => {
  it("http present with no paths → Required on paths", () => {
    const errs = check(ing((o) => (o.spec.rules[0].http = {})), [[R, "spec.rules[0].http.paths", ""]]);
    expect(lines(errs)).toEqual(["spec.rules[0].http.paths: Required value"]);
  });

  it("http with an empty paths list → Required on paths", () => {
    check(ing((o) => (o.spec.rules[0].http = { paths: [] })), [[R, "spec.rules[0].http.paths"]]);
  });

  it("missing pathType → Required, and the rest of the entry (path, backend) is not checked", () => {
    const errs = check(
      ing((o) => {
        const p = path0(o);
        delete p.pathType;
        p.path = "no-slash//x";
        p.backend = {};
      }),
      [[R, `${P0}.pathType`, "pathType must be specified"]],
    );
    expect(lines(errs)).toEqual([`${P0}.pathType: Required value: pathType must be specified`]);
  });

  it("missing pathType on one entry does not stop the next entry", () => {
    check(
      ing((o) => {
        delete path0(o).pathType;
        o.spec.rules[0].http.paths.push({ path: "rel", pathType: "Exact", backend: svcBackend() });
      }),
      [
        [R, `${P0}.pathType`],
        [I, "spec.rules[0].http.paths[1].path", "must be an absolute path"],
      ],
    );
  });

  it("unknown pathType → NotSupported; the path text is not checked", () => {
    const errs = check(ing(setPath("relative//..", "Regex")), [[NS, `${P0}.pathType`, PATH_TYPES]]);
    expect(lines(errs)).toEqual([`${P0}.pathType: Unsupported value: "Regex": ${PATH_TYPES}`]);
  });

  it("pathType is case-sensitive", () => {
    check(ing(setPath("/", "prefix")), [[NS, `${P0}.pathType`, PATH_TYPES]]);
  });

  it('pathType "" counts as set → NotSupported', () => {
    const errs = check(ing(setPath("/", "")), [[NS, `${P0}.pathType`, PATH_TYPES]]);
    expect(lines(errs)).toEqual([`${P0}.pathType: Unsupported value: "": ${PATH_TYPES}`]);
  });

  it("unknown pathType still checks the backend", () => {
    check(
      ing((o) => {
        setPath("x", "Foo")(o);
        path0(o).backend = {};
      }),
      [
        [NS, `${P0}.pathType`],
        [I, B0, "resource or service backend is required"],
      ],
    );
  });

  for (const pt of ["Exact", "Prefix"]) {
    it(`${pt}: a relative path → "must be an absolute path"`, () => {
      const errs = check(ing(setPath("foo", pt)), [[I, `${P0}.path`, "must be an absolute path"]]);
      expect(lines(errs)).toEqual([`${P0}.path: Invalid value: "foo": must be an absolute path`]);
    });

    it(`${pt}: an empty path → only "must be an absolute path"`, () => {
      check(ing(setPath("", pt)), [[I, `${P0}.path`, "must be an absolute path"]]);
    });

    it(`${pt}: an absent path is the empty path`, () => {
      check(ing(setPath(undefined, pt)), [[I, `${P0}.path`, "must be an absolute path"]]);
    });
  }

  const seqCases: [string, string][] = [
    ["/a//b", "must not contain '//'"],
    ["/a/./b", "must not contain '/./'"],
    ["/a/../b", "must not contain '/../'"],
    ["/a%2fb", "must not contain '%2f'"],
    ["/a%2Fb", "must not contain '%2F'"],
    ["/foo/..", "cannot end with '/..'"],
    ["/foo/.", "cannot end with '/.'"],
  ];
  for (const [p, detail] of seqCases) {
    it(`Prefix ${JSON.stringify(p)} → one Invalid: ${detail}`, () => {
      const errs = check(ing(setPath(p, "Prefix")), [[I, `${P0}.path`, detail]]);
      expect(lines(errs)).toEqual([`${P0}.path: Invalid value: ${JSON.stringify(p)}: ${detail}`]);
    });
  }

  it("Exact applies the same sequence checks", () => {
    check(ing(setPath("/a%2Fb", "Exact")), [[I, `${P0}.path`, "must not contain '%2F'"]]);
  });

  it('errors accumulate: Prefix "a//b" → absolute-path + "//"', () => {
    const errs = check(ing(setPath("a//b", "Prefix")), [
      [I, `${P0}.path`, "must be an absolute path"],
      [I, `${P0}.path`, "must not contain '//'"],
    ]);
    expect(lines(errs)).toEqual([
      `${P0}.path: Invalid value: "a//b": must be an absolute path`,
      `${P0}.path: Invalid value: "a//b": must not contain '//'`,
    ]);
  });

  it('"/a//./b" → two sequence errors', () => {
    check(ing(setPath("/a//./b", "Prefix")), [
      [I, `${P0}.path`, "must not contain '//'"],
      [I, `${P0}.path`, "must not contain '/./'"],
    ]);
  });

  it("one error per sequence and suffix found", () => {
    check(ing(setPath("/a//b%2f%2F/..", "Exact")), [
      [I, `${P0}.path`, "must not contain '//'"],
      [I, `${P0}.path`, "must not contain '%2f'"],
      [I, `${P0}.path`, "must not contain '%2F'"],
      [I, `${P0}.path`, "cannot end with '/..'"],
    ]);
  });

  for (const p of ["/api/(.*)", "/.well-known/acme-challenge", "/foo[", "/a b", "/~user/*", "/"]) {
    it(`Prefix ${JSON.stringify(p)} is accepted (no character restriction)`, () => {
      check(ing(setPath(p, "Prefix")), []);
    });
  }

  for (const p of ["//", "/a/../b", "/a%2Fb/..", "/foo[", "/api/(.*)", ""]) {
    it(`ImplementationSpecific ${JSON.stringify(p)} is accepted`, () => {
      check(ing(setPath(p, "ImplementationSpecific")), []);
    });
  }

  it("ImplementationSpecific: a non-empty relative path → Invalid", () => {
    const errs = check(ing(setPath("foo//bar", "ImplementationSpecific")), [[I, `${P0}.path`, "must be an absolute path"]]);
    expect(lines(errs)).toEqual([`${P0}.path: Invalid value: "foo//bar": must be an absolute path`]);
  });

  it("ImplementationSpecific: an absent path is accepted", () => {
    check(ing(setPath(undefined, "ImplementationSpecific")), []);
  });
});

// ======================================================================
// §5.4 backends
// ======================================================================

describe("§5.4 backends", () => {
  it("service and resource both set → one Invalid on the backend, nothing else checked", () => {
    const errs = check(
      ing(setBackend({ service: { name: "Bad_Name", port: { name: "HTTP", number: 70000 } }, resource: { kind: "", name: "" } })),
      [[I, B0, "cannot set both resource and service backends"]],
    );
    expect(lines(errs)).toEqual([`${B0}: Invalid value: "": cannot set both resource and service backends`]);
  });

  it("neither service nor resource → Invalid on the backend", () => {
    const errs = check(ing(setBackend({})), [[I, B0, "resource or service backend is required"]]);
    expect(lines(errs)).toEqual([`${B0}: Invalid value: "": resource or service backend is required`]);
  });

  it("an absent backend is the empty backend", () => {
    check(ing((o) => delete path0(o).backend), [[I, B0, "resource or service backend is required"]]);
  });

  it("service.name empty → Required (the port is still checked)", () => {
    check(ing(setBackend({ service: { port: { number: 80 } } })), [[R, `${B0}.service.name`, ""]]);
  });

  it("service: {} → Required name and Required port on the backend", () => {
    const errs = check(ing(setBackend({ service: {} })), [
      [R, `${B0}.service.name`],
      [R, B0, "port name or number is required"],
    ]);
    expect(lines(errs)).toEqual([
      `${B0}.service.name: Required value`,
      `${B0}: Required value: port name or number is required`,
    ]);
  });

  it("service.name must be a DNS-1035 label: a leading digit fails", () => {
    const errs = check(ing(setBackend(svcBackend("1-svc"))), [[I, `${B0}.service.name`, DNS1035]]);
    expect(lines(errs)).toEqual([`${B0}.service.name: Invalid value: "1-svc": ${DNS1035}`]);
  });

  it("service.name with dots gets the DNS-1035 regex message", () => {
    check(ing(setBackend(svcBackend("a.b"))), [[I, `${B0}.service.name`, DNS1035]]);
  });

  it("service.name of 64 characters: the length message only", () => {
    check(ing(setBackend(svcBackend("a".repeat(64)))), [[I, `${B0}.service.name`, maxLen(63)]]);
  });

  it("service.name too long and malformed: two messages", () => {
    check(ing(setBackend(svcBackend(`9${"a".repeat(63)}`))), [
      [I, `${B0}.service.name`, maxLen(63)],
      [I, `${B0}.service.name`, DNS1035],
    ]);
  });

  it("port name and number both set → one Invalid on the backend; neither is checked further", () => {
    const errs = check(ing(setBackend(svcBackend("svc", { name: "HTTP", number: 70000 }))), [
      [I, B0, "cannot set both port name & port number"],
    ]);
    expect(lines(errs)).toEqual([`${B0}: Invalid value: "": cannot set both port name & port number`]);
  });

  it('port name "HTTP" → two Invalid (charset, no lower-case letter)', () => {
    const errs = check(ing(setBackend(svcBackend("svc", { name: "HTTP" }))), [
      [I, `${B0}.service.port.name`, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"],
      [I, `${B0}.service.port.name`, "must contain at least one letter (a-z)"],
    ]);
    expect(lines(errs)).toEqual([
      `${B0}.service.port.name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      `${B0}.service.port.name: Invalid value: "HTTP": must contain at least one letter (a-z)`,
    ]);
  });

  it('port name "80" (a string) → one Invalid: no letter', () => {
    check(ing(setBackend(svcBackend("svc", { name: "80" }))), [
      [I, `${B0}.service.port.name`, "must contain at least one letter (a-z)"],
    ]);
  });

  it("port name: one message per failed sub-rule (length, --, leading/trailing hyphen)", () => {
    check(ing(setBackend(svcBackend("svc", { name: "-abcdefgh--ijklmn" }))), [
      [I, `${B0}.service.port.name`, maxLen(15)],
      [I, `${B0}.service.port.name`, "must not contain consecutive hyphens"],
      [I, `${B0}.service.port.name`, "must not begin or end with a hyphen"],
    ]);
  });

  it("a valid port name passes", () => {
    check(ing(setBackend(svcBackend("svc", { name: "http-alt" }))), []);
  });

  for (const n of [70000, 65536, -1]) {
    it(`port number ${n} → Invalid`, () => {
      const errs = check(ing(setBackend(svcBackend("svc", { number: n }))), [[I, `${B0}.service.port.number`, PORT_RANGE]]);
      expect(lines(errs)).toEqual([`${B0}.service.port.number: Invalid value: ${n}: ${PORT_RANGE}`]);
    });
  }

  it("port numbers 1 and 65535 are valid", () => {
    check(ing(setBackend(svcBackend("svc", { number: 1 }))), []);
    check(ing(setBackend(svcBackend("svc", { number: 65535 }))), []);
  });

  it("no port name and number 0 (= unset) → Required on the backend", () => {
    check(ing(setBackend(svcBackend("svc", { number: 0 }))), [[R, B0, "port name or number is required"]]);
    check(ing(setBackend({ service: { name: "svc" } })), [[R, B0, "port name or number is required"]]);
  });

  it("a resource backend with apiGroup, kind and name is valid", () => {
    check(ing(setBackend({ resource: { apiGroup: "k8s.example.com", kind: "StorageBucket", name: "static" } })), []);
  });

  it("a resource backend without apiGroup is valid", () => {
    check(ing(setBackend({ resource: { kind: "StorageBucket", name: "static" } })), []);
  });

  it('resource.apiGroup "" counts as set → Invalid; empty kind and name → Required', () => {
    const errs = check(ing(setBackend({ resource: { apiGroup: "", kind: "", name: "" } })), [
      [I, `${B0}.resource.apiGroup`, SUBDOMAIN],
      [R, `${B0}.resource.kind`, ""],
      [R, `${B0}.resource.name`, ""],
    ]);
    expect(lines(errs)).toEqual([
      `${B0}.resource.apiGroup: Invalid value: "": ${SUBDOMAIN}`,
      `${B0}.resource.kind: Required value`,
      `${B0}.resource.name: Required value`,
    ]);
  });

  it("resource.apiGroup must be a DNS-1123 subdomain", () => {
    check(ing(setBackend({ resource: { apiGroup: "Example.COM", kind: "K", name: "n" } })), [
      [I, `${B0}.resource.apiGroup`, SUBDOMAIN],
    ]);
  });

  it("resource kind/name: path-segment rules, one error per forbidden substring", () => {
    const errs = check(ing(setBackend({ resource: { kind: "a/b%c", name: ".." } })), [
      [I, `${B0}.resource.kind`, "may not contain '/'"],
      [I, `${B0}.resource.kind`, "may not contain '%'"],
      [I, `${B0}.resource.name`, "may not be '..'"],
    ]);
    expect(lines(errs)).toEqual([
      `${B0}.resource.kind: Invalid value: "a/b%c": may not contain '/'`,
      `${B0}.resource.kind: Invalid value: "a/b%c": may not contain '%'`,
      `${B0}.resource.name: Invalid value: "..": may not be '..'`,
    ]);
  });

  it('resource kind "." → may not be \'.\'', () => {
    check(ing(setBackend({ resource: { kind: ".", name: "x" } })), [[I, `${B0}.resource.kind`, "may not be '.'"]]);
  });

  it("resource kind/name have no character class or length limit beyond the path-segment rules", () => {
    check(ing(setBackend({ resource: { kind: "Any Kind!", name: "X".repeat(300) } })), []);
  });

  it("a resource default backend is checked at spec.defaultBackend.resource", () => {
    check(ing((o) => (o.spec.defaultBackend = { resource: { kind: "", name: "n" } })), [
      [R, "spec.defaultBackend.resource.kind"],
    ]);
  });
});

// ======================================================================
// §5.5 TLS
// ======================================================================

describe("§5.5 TLS", () => {
  it("TLS hosts: wildcard pattern when they contain '*', subdomain otherwise; indexed per host", () => {
    const errs = check(
      ing((o) => (o.spec.tls = [{ hosts: ["*.example.com", "ok.example.com"], secretName: "tls" }, { hosts: ["a.example.com", "Foo.com", "*"] }])),
      [
        [I, "spec.tls[1].hosts[1]", SUBDOMAIN],
        [I, "spec.tls[1].hosts[2]", WILDCARD],
      ],
    );
    expect(lines(errs)).toEqual([
      `spec.tls[1].hosts[1]: Invalid value: "Foo.com": ${SUBDOMAIN}`,
      `spec.tls[1].hosts[2]: Invalid value: "*": ${WILDCARD}`,
    ]);
  });

  it("TLS hosts have no IP check: IPv4 literals are accepted", () => {
    check(ing((o) => (o.spec.tls = [{ hosts: ["10.0.0.1", "010.0.0.1"] }])), []);
  });

  it("an IPv6 literal TLS host fails only the subdomain regex (one error)", () => {
    check(ing((o) => (o.spec.tls = [{ hosts: ["2001:db8::1"] }])), [[I, "spec.tls[0].hosts[0]", SUBDOMAIN]]);
  });

  it("TLS host over 253 bytes → Invalid length", () => {
    check(ing((o) => (o.spec.tls = [{ hosts: [`${"a".repeat(63)}.`.repeat(3) + "a".repeat(62)] }])), [
      [I, "spec.tls[0].hosts[0]", maxLen(253)],
    ]);
  });

  it("empty TLS entries are valid: tls: [{}], hosts: [], no secretName", () => {
    check(ing((o) => (o.spec.tls = [{}, { hosts: [] }, { secretName: "" }])), []);
  });

  it('secretName "ns/name" → Invalid', () => {
    const errs = check(ing((o) => (o.spec.tls = [{ secretName: "ns/name" }])), [[I, "spec.tls[0].secretName", SUBDOMAIN]]);
    expect(lines(errs)).toEqual([`spec.tls[0].secretName: Invalid value: "ns/name": ${SUBDOMAIN}`]);
  });

  it("secretName with upper case or '_' → Invalid", () => {
    check(ing((o) => (o.spec.tls = [{ secretName: "My_Secret" }, { secretName: "ok-secret" }])), [
      [I, "spec.tls[0].secretName", SUBDOMAIN],
    ]);
  });

  it("no cross-check between TLS hosts and rule hosts", () => {
    check(ing((o) => (o.spec.tls = [{ hosts: ["other.example.org"], secretName: "tls" }])), []);
  });
});

// ======================================================================
// §5.6 status (only through the status subresource)
// ======================================================================

describe("§5.6 Ingress status via the status subresource", () => {
  const withStatus = (ingress: J[]) => (o: J) => {
    o.status = { loadBalancer: { ingress } };
  };
  const statusUpdate = (newLb: J[], oldLb: J[] = [], gates?: ValidateOptions["featureGates"]): FieldError[] => {
    const old = storedIngress(withStatus(oldLb));
    const opts: ValidateOptions = gates === undefined ? { old, subresource: "status" } : { old, subresource: "status", featureGates: gates };
    return validate(updatedIngress(withStatus(newLb)), opts);
  };
  const IP0 = "status.loadBalancer.ingress[0].ip";
  const HN0 = "status.loadBalancer.ingress[0].hostname";
  const BAD_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

  it("valid ip and hostname entries pass", () => {
    expectErrors(statusUpdate([{ ip: "10.0.0.1" }, { ip: "2001:db8::1" }, { hostname: "lb.example.com" }, {}]), []);
  });

  it("an unparseable ip → Invalid", () => {
    const errs = statusUpdate([{ ip: "1.2.3" }]);
    expectErrors(errs, [[I, IP0, BAD_IP]]);
    expect(lines(errs)).toEqual([`${IP0}: Invalid value: "1.2.3": ${BAD_IP}`]);
  });

  it("legacy parsing (default gates): leading zeros and IPv4-mapped IPv6 are accepted", () => {
    expectErrors(statusUpdate([{ ip: "010.001.002.003" }, { ip: "::ffff:10.0.0.1" }]), []);
  });

  it("StrictIPCIDRValidation: leading zeros → Invalid", () => {
    const errs = statusUpdate([{ ip: "010.001.002.003" }], [], { StrictIPCIDRValidation: true });
    expectErrors(errs, [[I, IP0, "must not have leading 0s"]]);
    expect(lines(errs)).toEqual([`${IP0}: Invalid value: "010.001.002.003": must not have leading 0s`]);
  });

  it("StrictIPCIDRValidation: IPv4-mapped IPv6 → Invalid", () => {
    expectErrors(statusUpdate([{ ip: "::ffff:10.0.0.1" }], [], { StrictIPCIDRValidation: true }), [
      [I, IP0, "must not be an IPv4-mapped IPv6 address"],
    ]);
  });

  it("StrictIPCIDRValidation: an ip already in the old status is accepted unchanged", () => {
    expectErrors(statusUpdate([{ ip: "010.001.002.003" }], [{ ip: "010.001.002.003" }], { StrictIPCIDRValidation: true }), []);
  });

  it("StrictIPCIDRValidation: the old-value allowance is by value, not by index", () => {
    expectErrors(
      statusUpdate([{ ip: "10.0.0.9" }, { ip: "010.001.002.003" }], [{ ip: "010.001.002.003" }], { StrictIPCIDRValidation: true }),
      [],
    );
  });

  it("StrictIPCIDRValidation: a new non-standard ip next to an old one is still rejected", () => {
    expectErrors(
      statusUpdate([{ ip: "010.001.002.003" }, { ip: "010.001.002.004" }], [{ ip: "010.001.002.003" }], { StrictIPCIDRValidation: true }),
      [[I, "status.loadBalancer.ingress[1].ip", "must not have leading 0s"]],
    );
  });

  it("an unchanged unparseable ip from the old status is accepted", () => {
    expectErrors(statusUpdate([{ ip: "not-an-ip" }], [{ ip: "not-an-ip" }]), []);
  });

  it("hostname not a DNS-1123 subdomain → Invalid", () => {
    const errs = statusUpdate([{ hostname: "LB_1.example.com" }]);
    expectErrors(errs, [[I, HN0, SUBDOMAIN]]);
    expect(lines(errs)).toEqual([`${HN0}: Invalid value: "LB_1.example.com": ${SUBDOMAIN}`]);
  });

  it("hostname that is an IPv4 address → one Invalid (not a DNS name)", () => {
    const errs = statusUpdate([{ hostname: "10.0.0.1" }]);
    expectErrors(errs, [[I, HN0, NOT_IP]]);
    expect(lines(errs)).toEqual([`${HN0}: Invalid value: "10.0.0.1": ${NOT_IP}`]);
  });

  it("hostname that is an IPv6 address → regex error then IP error", () => {
    const errs = statusUpdate([{ hostname: "2001:db8::1" }]);
    expectErrors(errs, [
      [I, HN0, SUBDOMAIN],
      [I, HN0, NOT_IP],
    ]);
    expect(errs.map((e) => e.detail)).toEqual([SUBDOMAIN, NOT_IP]);
  });

  it("ip and hostname are both checked in one entry", () => {
    expectErrors(statusUpdate([{ ip: "x", hostname: "Y" }]), [
      [I, IP0, BAD_IP],
      [I, HN0, SUBDOMAIN],
    ]);
  });

  it("ports (port, protocol, error) are not validated", () => {
    expectErrors(
      statusUpdate([{ ip: "10.0.0.1", ports: [{ port: 0, protocol: "BOGUS", error: "Not A Valid Error!!" }, { port: -5, protocol: "" }] }]),
      [],
    );
  });

  it("a status update ignores spec changes (spec is copied from the stored object)", () => {
    const old = storedIngress();
    const bad = updatedIngress((o) => (o.spec = { rules: [{ host: "Bad_Host" }], ingressClassName: "X" }));
    expectErrors(validate(bad, { old, subresource: "status" }), []);
  });

  it("a status update with a bad spec and a bad status reports only the status", () => {
    const old = storedIngress();
    const bad = updatedIngress((o) => {
      o.spec = {};
      withStatus([{ ip: "nope" }])(o);
    });
    expectErrors(validate(bad, { old, subresource: "status" }), [[I, IP0, BAD_IP]]);
  });
});

// ======================================================================
// §5.7 / §9 create vs update
// ======================================================================

describe("§5.7 create vs update (Ingress)", () => {
  it("create: status is wiped, so a bad status is not reported", () => {
    check(
      ing((o) => (o.status = { loadBalancer: { ingress: [{ ip: "not-an-ip", hostname: "10.0.0.1" }] } })),
      [],
    );
  });

  it("update (main resource): status changes are ignored", () => {
    const old = storedIngress();
    const upd = updatedIngress((o) => (o.status = { loadBalancer: { ingress: [{ ip: "not-an-ip" }] } }));
    check(upd, [], { old });
  });

  it("update: the spec is fully validated", () => {
    const old = storedIngress();
    check(updatedIngress(setHost("Bad_Host")), [[I, "spec.rules[0].host", SUBDOMAIN]], { old });
  });

  it("update: the class annotation vs ingressClassName mismatch is not checked", () => {
    const old = storedIngress();
    const upd = updatedIngress((o) => {
      o.metadata.annotations = { "kubernetes.io/ingress.class": "nginx" };
      o.spec.ingressClassName = "traefik";
    });
    check(upd, [], { old });
  });

  it("update: ingressClassName format is still checked", () => {
    const old = storedIngress();
    check(updatedIngress((o) => (o.spec.ingressClassName = "Bad_Class")), [[I, "spec.ingressClassName", SUBDOMAIN]], { old });
  });

  it("update: an invalid secretName is rejected when the old object's secretNames were all valid", () => {
    const old = storedIngress((o) => (o.spec.tls = [{ secretName: "good" }]));
    check(updatedIngress((o) => (o.spec.tls = [{ secretName: "Bad_Secret" }])), [[I, "spec.tls[0].secretName", SUBDOMAIN]], { old });
  });

  it("update: secretName checks are skipped when any old secretName was invalid", () => {
    const old = storedIngress((o) => (o.spec.tls = [{ secretName: "good" }, { secretName: "ns/name" }]));
    check(updatedIngress((o) => (o.spec.tls = [{ secretName: "Other_Bad" }, { secretName: "x/y" }])), [], { old });
  });

  it("update: the secretName ratchet does not cover TLS hosts", () => {
    const old = storedIngress((o) => (o.spec.tls = [{ secretName: "ns/name" }]));
    check(updatedIngress((o) => (o.spec.tls = [{ secretName: "ns/name", hosts: ["Bad_Host"] }])), [[I, "spec.tls[0].hosts[0]", SUBDOMAIN]], {
      old,
    });
  });

  const wildcardNoPathType = (host = "*.example.com") => (o: J) => {
    o.spec.rules = [{ host, http: { paths: [{ path: "/", backend: svcBackend() }] } }];
  };

  it("update: a wildcard rule's invalid value is rejected when the old object had none", () => {
    const old = storedIngress();
    check(updatedIngress(wildcardNoPathType()), [[R, `${P0}.pathType`]], { old });
  });

  it("update: wildcard-host rule values are skipped when the old object had an invalid one", () => {
    const old = storedIngress(wildcardNoPathType());
    const upd = updatedIngress((o) => {
      wildcardNoPathType("*.other.example.com")(o);
      o.spec.rules[0].http.paths.push({ path: "rel", pathType: "Exact", backend: {} });
    });
    check(upd, [], { old });
  });

  it("update: the wildcard ratchet skips only wildcard-host rules (other rules and hosts still checked)", () => {
    const old = storedIngress(wildcardNoPathType());
    const upd = updatedIngress((o) => {
      wildcardNoPathType()(o);
      o.spec.rules.push({ host: "plain.example.com", http: { paths: [{ path: "/", backend: svcBackend() }] } }, { host: "*.*.bad.com" });
    });
    check(
      upd,
      [
        [R, "spec.rules[1].http.paths[0].pathType"],
        [I, "spec.rules[2].host", WILDCARD],
      ],
      { old },
    );
  });

  it("update: an invalid rule value under a non-wildcard old host does not switch the wildcard ratchet on", () => {
    const old = storedIngress((o) => delete path0(o).pathType);
    check(updatedIngress(wildcardNoPathType()), [[R, `${P0}.pathType`]], { old });
  });

  it("RelaxedServiceNameValidation off, create: a DNS-1123-but-not-1035 name is rejected", () => {
    check(ing(setBackend(svcBackend("1-svc"))), [[I, `${B0}.service.name`, DNS1035]], {
      featureGates: { RelaxedServiceNameValidation: false },
    });
  });

  it("RelaxedServiceNameValidation on, create: DNS-1123 label rule (leading digit allowed)", () => {
    check(ing(setBackend(svcBackend("1-svc"))), [], { featureGates: { RelaxedServiceNameValidation: true } });
  });

  it("RelaxedServiceNameValidation on: names failing DNS-1123 label get the label messages", () => {
    const gates = { featureGates: { RelaxedServiceNameValidation: true } };
    check(ing(setBackend(svcBackend("a.b"))), [[I, `${B0}.service.name`, "must not contain dots"]], gates);
    check(ing(setBackend(svcBackend("Bad_Svc"))), [[I, `${B0}.service.name`, DNS1123_LABEL]], gates);
  });

  it("update, gate off: relaxed rule when the old object had a DNS-1123-but-not-1035 rule backend name", () => {
    const old = storedIngress(setBackend(svcBackend("1-svc")));
    check(updatedIngress(setBackend(svcBackend("2-svc"))), [], { old });
  });

  it("update, gate off: relaxed rule when the old default backend had such a name; still DNS-1123 label", () => {
    const old = storedIngress((o) => (o.spec.defaultBackend = svcBackend("0-default")));
    const upd = updatedIngress((o) => {
      o.spec.defaultBackend = svcBackend("0-default");
      path0(o).backend = svcBackend("Bad_Svc");
    });
    check(upd, [[I, `${B0}.service.name`, DNS1123_LABEL]], { old });
  });

  it("update, gate off: an old name invalid under both rules does not relax", () => {
    const old = storedIngress(setBackend(svcBackend("Bad_Svc")));
    check(updatedIngress(setBackend(svcBackend("1-svc"))), [[I, `${B0}.service.name`, DNS1035]], { old });
  });

  it("update, gate off: an old object with only valid names keeps DNS-1035", () => {
    const old = storedIngress();
    check(updatedIngress(setBackend(svcBackend("1-svc"))), [[I, `${B0}.service.name`, DNS1035]], { old });
  });
});

// ======================================================================
// §4 ObjectMeta as it applies to Ingress
// ======================================================================

describe("§4 ObjectMeta (Ingress)", () => {
  it("no name and no generateName → Required", () => {
    const errs = check(
      ing((o) => delete o.metadata.name),
      [[R, "metadata.name", "name or generateName is required"]],
    );
    expect(lines(errs)).toEqual(["metadata.name: Required value: name or generateName is required"]);
  });

  it("a name that is not a DNS-1123 subdomain → Invalid", () => {
    const errs = check(ing((o) => (o.metadata.name = "Web_1")), [[I, "metadata.name", SUBDOMAIN]]);
    expect(lines(errs)).toEqual([`metadata.name: Invalid value: "Web_1": ${SUBDOMAIN}`]);
  });

  it("a name longer than 253 bytes → one length message", () => {
    check(ing((o) => (o.metadata.name = "a".repeat(254))), [[I, "metadata.name", maxLen(253)]]);
  });

  it("a 253-byte dotted name is valid", () => {
    check(ing((o) => (o.metadata.name = `${"a".repeat(63)}.`.repeat(3) + "a".repeat(61))), []);
  });

  it("generateName with a trailing dash is a valid prefix", () => {
    check(ing((o) => {
      delete o.metadata.name;
      o.metadata.generateName = "web-";
    }), []);
  });

  it("a bad generateName prefix → Invalid on generateName and on the generated name", () => {
    const errs = check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = "Web_";
      }),
      [
        [I, "metadata.generateName", SUBDOMAIN],
        [I, "metadata.name", SUBDOMAIN],
      ],
    );
    expect(formatFieldError(errs.find((e) => e.field === "metadata.generateName")!)).toBe(
      `metadata.generateName: Invalid value: "Web_": ${SUBDOMAIN}`,
    );
    const gen = errs.find((e) => e.field === "metadata.name")!;
    expect(gen.badValue).toMatch(/^Web_[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it("the generated name uses the prefix cut to 58 characters: a bad character past 58 only fails generateName", () => {
    check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = `${"a".repeat(58)}_x-`;
      }),
      [[I, "metadata.generateName", SUBDOMAIN]],
    );
  });

  it("a bad character at position 58 is kept in the generated name", () => {
    check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = `${"a".repeat(57)}_`;
      }),
      [
        [I, "metadata.generateName", SUBDOMAIN],
        [I, "metadata.name", SUBDOMAIN],
      ],
    );
  });

  it("a very long generateName fails the length rule, the generated (63-char) name is fine", () => {
    check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = `${"a".repeat(300)}-`;
      }),
      [[I, "metadata.generateName", maxLen(253)]],
    );
  });

  it("an empty namespace is filled from the request: no error", () => {
    check(ing((o) => delete o.metadata.namespace), []);
    check(ing((o) => delete o.metadata.namespace), [], { namespace: "team-a" });
  });

  it("label key and label value errors are reported at metadata.labels", () => {
    const errs = check(
      ing((o) => (o.metadata.labels = { "a b": "ok", good: "bad value!", fine: "" })),
      [
        [I, "metadata.labels", LABEL_KEY_NAME],
        [I, "metadata.labels", LABEL_VALUE],
      ],
    );
    expect(lines(errs).sort()).toEqual(
      [`metadata.labels: Invalid value: "a b": ${LABEL_KEY_NAME}`, `metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE}`].sort(),
    );
    for (const e of errs) expect(e.path).toEqual(["metadata", "labels"]);
  });

  it("a 64-character label value → length message", () => {
    check(ing((o) => (o.metadata.labels = { app: "v".repeat(64) })), [[I, "metadata.labels", maxLen(63)]]);
  });

  it('an empty label key → two messages ("must be non-empty" + regex)', () => {
    check(ing((o) => (o.metadata.labels = { "": "v" })), [
      [I, "metadata.labels", "name part must be non-empty"],
      [I, "metadata.labels", LABEL_KEY_NAME],
    ]);
  });

  it("a label key with an empty prefix → prefix part must be non-empty", () => {
    check(ing((o) => (o.metadata.labels = { "/app": "v" })), [[I, "metadata.labels", "prefix part must be non-empty"]]);
  });

  it("a label key with three parts → one error", () => {
    check(ing((o) => (o.metadata.labels = { "a/b/c": "v" })), [[I, "metadata.labels"]]);
  });

  it("a label key with an upper-case prefix is invalid (labels are case-sensitive)", () => {
    check(ing((o) => (o.metadata.labels = { "Example.COM/app": "v" })), [[I, "metadata.labels", `prefix part ${SUBDOMAIN}`]]);
  });

  it("annotation keys are checked lower-cased: an upper-case prefix is fine", () => {
    check(ing((o) => (o.metadata.annotations = { "Example.COM/App": "anything at all ✓" })), []);
  });

  it("an invalid annotation key → Invalid at metadata.annotations, value is the original key", () => {
    const errs = check(ing((o) => (o.metadata.annotations = { "Bad Key": "v" })), [[I, "metadata.annotations", LABEL_KEY_NAME]]);
    expect(lines(errs)).toEqual([`metadata.annotations: Invalid value: "Bad Key": ${LABEL_KEY_NAME}`]);
  });

  it("annotations totalling 256 KiB are accepted", () => {
    check(ing((o) => (o.metadata.annotations = { a: "x".repeat(262143) })), []);
  });

  it("annotations over 256 KiB (keys + values) → TooLong at metadata.annotations", () => {
    const errs = check(ing((o) => (o.metadata.annotations = { a: "x".repeat(131072), b: "y".repeat(131072) })), [
      [TL, "metadata.annotations", "must have at most 262144 bytes"],
    ]);
    expect(lines(errs)).toEqual(["metadata.annotations: Too long: must have at most 262144 bytes"]);
  });

  it("annotation size counts UTF-8 bytes", () => {
    // 131072 × "é" is 262144 bytes in UTF-8 (131072 UTF-16 units); with the key that is one byte over.
    check(ing((o) => (o.metadata.annotations = { a: "é".repeat(131072) })), [[TL, "metadata.annotations"]]);
  });

  it("an unqualified non-standard finalizer → Invalid at metadata.finalizers[i]", () => {
    const errs = check(ing((o) => (o.metadata.finalizers = ["example.com/ok", "custom"])), [
      [I, "metadata.finalizers[1]", NOT_FINALIZER],
    ]);
    expect(lines(errs)).toEqual([`metadata.finalizers[1]: Invalid value: "custom": ${NOT_FINALIZER}`]);
  });

  it("standard finalizer names are accepted unqualified", () => {
    check(ing((o) => (o.metadata.finalizers = ["kubernetes", "orphan"])), []);
    check(ing((o) => (o.metadata.finalizers = ["foregroundDeletion"])), []);
  });

  it("a finalizer that is not a qualified name → Invalid at metadata.finalizers (no index) plus the [i] check", () => {
    const errs = check(ing((o) => (o.metadata.finalizers = ["a b"])), [
      [I, "metadata.finalizers", LABEL_KEY_NAME],
      [I, "metadata.finalizers[0]", NOT_FINALIZER],
    ]);
    expect(lines(errs)).toEqual([
      `metadata.finalizers: Invalid value: "a b": ${LABEL_KEY_NAME}`,
      `metadata.finalizers[0]: Invalid value: "a b": ${NOT_FINALIZER}`,
    ]);
  });

  it("orphan together with foregroundDeletion → Invalid at metadata.finalizers", () => {
    check(ing((o) => (o.metadata.finalizers = ["orphan", "foregroundDeletion"])), [
      [I, "metadata.finalizers", "finalizer orphan and foregroundDeletion cannot be both set"],
    ]);
  });

  it("ownerReferences: empty apiVersion/kind/name/uid → Invalid, paths without an index", () => {
    check(ing((o) => (o.metadata.ownerReferences = [{ apiVersion: "", kind: "", name: "", uid: "" }])), [
      [I, "metadata.ownerReferences.apiVersion", "version must not be empty"],
      [I, "metadata.ownerReferences.kind", "must not be empty"],
      [I, "metadata.ownerReferences.name", "must not be empty"],
      [I, "metadata.ownerReferences.uid", "must not be empty"],
    ]);
  });

  it("ownerReferences: two controllers → Invalid on metadata.ownerReferences", () => {
    const ref = (name: string, uid: string): J => ({ apiVersion: "apps/v1", kind: "Deployment", name, uid, controller: true });
    const errs = check(ing((o) => (o.metadata.ownerReferences = [ref("a", "1"), ref("b", "2")])), [[I, "metadata.ownerReferences"]]);
    expect(errs[0]!.detail).toBe('Only one reference can have Controller set to true. Found "true" in references for Deployment/a and Deployment/b');
  });

  it("create: a negative generation is not reported (PrepareForCreate sets generation to 1)", () => {
    check(ing((o) => (o.metadata.generation = -3)), []);
  });

  // Update: the generic registry (rest.BeforeUpdate → validateCommonFields) runs
  // ValidateObjectMetaAccessor and ValidateObjectMetaAccessorUpdate itself, and
  // then the Ingress strategy runs ValidateObjectMetaUpdate and ValidateObjectMeta
  // again, so update metadata errors come out more than once.

  it("update: a changed name → Invalid field is immutable (generic registry + strategy)", () => {
    const old = storedIngress();
    const errs = check(updatedIngress((o) => (o.metadata.name = "web2")), [
      [I, "metadata.name", IMMUTABLE],
      [I, "metadata.name", IMMUTABLE],
    ], { old });
    expect(formatFieldError(errs[0]!)).toBe('metadata.name: Invalid value: "web2": field is immutable');
  });

  it("update: a changed uid → Invalid field is immutable", () => {
    const old = storedIngress();
    const errs = check(updatedIngress((o) => (o.metadata.uid = "other-uid")), [
      [I, "metadata.uid", IMMUTABLE],
      [I, "metadata.uid", IMMUTABLE],
    ], { old });
    expect(formatFieldError(errs[0]!)).toBe('metadata.uid: Invalid value: "other-uid": field is immutable');
  });

  it("update: a changed namespace → Invalid field is immutable", () => {
    const old = storedIngress();
    check(updatedIngress((o) => (o.metadata.namespace = "other")), [
      [I, "metadata.namespace", IMMUTABLE],
      [I, "metadata.namespace", IMMUTABLE],
    ], { old, namespace: "other" });
  });

  it("update: an omitted uid is taken from the stored object", () => {
    const old = storedIngress();
    check(updatedIngress((o) => delete o.metadata.uid), [], { old });
  });

  it("update: an omitted resourceVersion is filled by the store (unconditional update)", () => {
    const old = storedIngress();
    check(updatedIngress((o) => delete o.metadata.resourceVersion), [], { old });
  });

  it("update: an omitted namespace is filled from the request", () => {
    const old = storedIngress();
    check(updatedIngress((o) => delete o.metadata.namespace), [], { old });
  });

  it("update: bad labels are reported by all four metadata checks", () => {
    const old = storedIngress();
    check(updatedIngress((o) => (o.metadata.labels = { "a b": "v" })), [
      [I, "metadata.labels", LABEL_KEY_NAME],
      [I, "metadata.labels", LABEL_KEY_NAME],
      [I, "metadata.labels", LABEL_KEY_NAME],
      [I, "metadata.labels", LABEL_KEY_NAME],
    ], { old });
  });

  it("update: an unqualified finalizer is reported by the strategy's update and create meta checks", () => {
    const old = storedIngress();
    check(updatedIngress((o) => (o.metadata.finalizers = ["custom"])), [
      [I, "metadata.finalizers[0]", NOT_FINALIZER],
      [I, "metadata.finalizers[0]", NOT_FINALIZER],
    ], { old });
  });

  it("update: no new finalizers once deletion has started → Forbidden", () => {
    const deleting = (o: J) => {
      o.metadata.deletionTimestamp = "2025-01-02T03:04:05Z";
      o.metadata.deletionGracePeriodSeconds = 0;
      o.metadata.finalizers = ["example.com/a"];
    };
    const old = storedIngress(deleting);
    const detail = 'no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}';
    check(
      updatedIngress((o) => {
        deleting(o);
        o.metadata.finalizers.push("example.com/b");
      }),
      [
        [F, "metadata.finalizers", detail],
        [F, "metadata.finalizers", detail],
      ],
      { old },
    );
  });

  it("update: removing a finalizer while deleting is fine", () => {
    const deleting = (o: J) => {
      o.metadata.deletionTimestamp = "2025-01-02T03:04:05Z";
      o.metadata.deletionGracePeriodSeconds = 0;
      o.metadata.finalizers = ["example.com/a", "example.com/b"];
    };
    const old = storedIngress(deleting);
    check(updatedIngress((o) => {
      deleting(o);
      o.metadata.finalizers = ["example.com/b"];
    }), [], { old });
  });

  it("status update: metadata is checked by the generic registry and ValidateObjectMetaUpdate (no create meta)", () => {
    const old = storedIngress();
    check(updatedIngress((o) => (o.metadata.labels = { "a b": "v" })), [
      [I, "metadata.labels", LABEL_KEY_NAME],
      [I, "metadata.labels", LABEL_KEY_NAME],
      [I, "metadata.labels", LABEL_KEY_NAME],
    ], { old, subresource: "status" });
  });
});

// ======================================================================
// Multi-error objects and the 422 Status
// ======================================================================

describe("several errors in one Ingress", () => {
  it("errors accumulate in validation order: meta, rules (host, path, backend), tls, class name, annotation", () => {
    const obj = ing((o) => {
      o.metadata.name = "Bad_Name";
      o.metadata.annotations = { "kubernetes.io/ingress.class": "other" };
      o.spec = {
        rules: [
          {
            host: "Foo.com",
            http: { paths: [{ path: "a//b", pathType: "Prefix", backend: svcBackend("svc", { number: 0 }) }] },
          },
        ],
        tls: [{ secretName: "ns/name" }],
        ingressClassName: "Nginx",
      };
    });
    const errs = validate(obj);
    expect(lines(errs)).toEqual([
      `metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`,
      `spec.rules[0].host: Invalid value: "Foo.com": ${SUBDOMAIN}`,
      `${P0}.path: Invalid value: "a//b": must be an absolute path`,
      `${P0}.path: Invalid value: "a//b": must not contain '//'`,
      `${B0}: Required value: port name or number is required`,
      `spec.tls[0].secretName: Invalid value: "ns/name": ${SUBDOMAIN}`,
      `spec.ingressClassName: Invalid value: "Nginx": ${SUBDOMAIN}`,
      'annotations.kubernetes.io/ingress.class: Invalid value: "other": must match `ingressClassName` when both are specified',
    ]);
  });

  it("spec-level error, then defaultBackend, then rules", () => {
    const obj = ing((o) => {
      o.spec = { defaultBackend: {}, rules: [{ host: "*", http: { paths: [] } }] };
    });
    expect(lines(validate(obj))).toEqual([
      'spec.defaultBackend: Invalid value: "": resource or service backend is required',
      `spec.rules[0].host: Invalid value: "*": ${WILDCARD}`,
      "spec.rules[0].http.paths: Required value",
    ]);
  });

  it("errors across several rules and paths keep their indexes and order", () => {
    const obj = ing((o) => {
      o.spec.rules = [
        { host: "a.example.com", http: { paths: [{ path: "/", pathType: "Exact", backend: svcBackend() }, { path: "/x", backend: {} }] } },
        { host: "10.1.1.1", http: { paths: [{ path: "/y/.", pathType: "Exact", backend: svcBackend("svc", { number: 99999 }) }] } },
      ];
    });
    expect(lines(validate(obj))).toEqual([
      "spec.rules[0].http.paths[1].pathType: Required value: pathType must be specified",
      'spec.rules[1].host: Invalid value: "10.1.1.1": must be a DNS name, not an IP address',
      `spec.rules[1].http.paths[0].path: Invalid value: "/y/.": cannot end with '/.'`,
      `spec.rules[1].http.paths[0].backend.service.port.number: Invalid value: 99999: ${PORT_RANGE}`,
    ]);
  });
});

describe("toStatus: the 422 response body", () => {
  const statusJson = (name: string, causes: { reason: string; message: string; field: string }[], message: string): string =>
    JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason: "Invalid",
      details: { name, group: "networking.k8s.io", kind: "Ingress", causes },
      code: 422,
    });

  it("several errors: bracketed, comma-separated message; one cause per error", () => {
    const obj = ing((o) => {
      o.metadata.name = "shop";
      o.spec.rules[0].host = "Shop.example.com";
      path0(o).backend = svcBackend("svc", { number: 70000 });
    });
    const errs = validate(obj);
    const hostBody = `Invalid value: "Shop.example.com": ${SUBDOMAIN}`;
    const portBody = `Invalid value: 70000: ${PORT_RANGE}`;
    const expected = statusJson(
      "shop",
      [
        { reason: "FieldValueInvalid", message: hostBody, field: "spec.rules[0].host" },
        { reason: "FieldValueInvalid", message: portBody, field: `${B0}.service.port.number` },
      ],
      `Ingress.networking.k8s.io "shop" is invalid: [spec.rules[0].host: ${hostBody}, ${B0}.service.port.number: ${portBody}]`,
    );
    expect(toJsonString(toStatus(obj, errs))).toBe(expected);
  });

  it("a single error: no brackets", () => {
    const obj = ing((o) => {
      o.metadata.name = "shop";
      o.spec = {};
    });
    const errs = validate(obj);
    const body = "Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified";
    expect(toJsonString(toStatus(obj, errs))).toBe(
      statusJson("shop", [{ reason: "FieldValueInvalid", message: body, field: "spec" }], `Ingress.networking.k8s.io "shop" is invalid: spec: ${body}`),
    );
  });

  it("duplicate messages are dropped from the message but kept in the causes", () => {
    const obj = ing((o) => {
      o.metadata.name = "shop";
      o.metadata.finalizers = ["a b", "a b"];
    });
    const errs = validate(obj);
    const qn = `Invalid value: "a b": ${LABEL_KEY_NAME}`;
    const nf = `Invalid value: "a b": ${NOT_FINALIZER}`;
    expect(lines(errs)).toEqual([
      `metadata.finalizers: ${qn}`,
      `metadata.finalizers: ${qn}`,
      `metadata.finalizers[0]: ${nf}`,
      `metadata.finalizers[1]: ${nf}`,
    ]);
    expect(toJsonString(toStatus(obj, errs))).toBe(
      statusJson(
        "shop",
        [
          { reason: "FieldValueInvalid", message: qn, field: "metadata.finalizers" },
          { reason: "FieldValueInvalid", message: qn, field: "metadata.finalizers" },
          { reason: "FieldValueInvalid", message: nf, field: "metadata.finalizers[0]" },
          { reason: "FieldValueInvalid", message: nf, field: "metadata.finalizers[1]" },
        ],
        `Ingress.networking.k8s.io "shop" is invalid: [metadata.finalizers: ${qn}, metadata.finalizers[0]: ${nf}, metadata.finalizers[1]: ${nf}]`,
      ),
    );
  });

  it("Required causes render without a value", () => {
    const obj = ing((o) => delete path0(o).pathType);
    const status = JSON.parse(toJsonString(toStatus(obj, validate(obj))));
    expect(status.details.causes).toEqual([
      { reason: "FieldValueRequired", message: "Required value: pathType must be specified", field: `${P0}.pathType` },
    ]);
    expect(status.message).toBe(`Ingress.networking.k8s.io "web" is invalid: ${P0}.pathType: Required value: pathType must be specified`);
  });
});

// ======================================================================
// §6 IngressClass
// ======================================================================

describe("§6 IngressClass", () => {
  const params = (p: J) => (o: J) => {
    o.spec.parameters = p;
  };
  const PARAMS = { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "external-lb" };

  it("the base IngressClass is valid", () => {
    check(ic(), []);
  });

  it("metadata.name: Required without name or generateName, Invalid when not a subdomain", () => {
    check(ic((o) => delete o.metadata.name), [[R, "metadata.name", "name or generateName is required"]]);
    check(ic((o) => (o.metadata.name = "Nginx_Class")), [[I, "metadata.name", SUBDOMAIN]]);
  });

  it("metadata.namespace on an IngressClass is silently cleared (no error)", () => {
    check(ic((o) => (o.metadata.namespace = "kube-system")), []);
    check(ic((o) => (o.metadata.namespace = "Not A Namespace")), []);
  });

  it("empty controller → a single Required", () => {
    const errs = check(ic((o) => (o.spec = {})), [[R, "spec.controller", ""]]);
    expect(lines(errs)).toEqual(["spec.controller: Required value"]);
  });

  it("controller of 250 bytes is accepted", () => {
    const c = `example.com/${"a".repeat(238)}`;
    expect(c.length).toBe(250);
    check(ic((o) => (o.spec.controller = c)), []);
  });

  it("controller over 250 bytes but otherwise valid → TooLong only", () => {
    const c = `example.com/${"a".repeat(239)}`;
    const errs = check(ic((o) => (o.spec.controller = c)), [[TL, "spec.controller", "must have at most 250 bytes"]]);
    expect(lines(errs)).toEqual(["spec.controller: Too long: must have at most 250 bytes"]);
  });

  it("controller over 250 bytes with no '/' → TooLong and Invalid (domain-prefixed path)", () => {
    const c = "a".repeat(251);
    const errs = check(ic((o) => (o.spec.controller = c)), [
      [TL, "spec.controller", "must have at most 250 bytes"],
      [I, "spec.controller", DOMAIN_PREFIXED],
    ]);
    expect(lines(errs)).toEqual(["spec.controller: Too long: must have at most 250 bytes", `spec.controller: Invalid value: "${c}": ${DOMAIN_PREFIXED}`]);
  });

  it("controller over 250 bytes with a host part over 253 → TooLong and the host length message", () => {
    const host = "a".repeat(254);
    check(ic((o) => (o.spec.controller = `${host}/x`)), [
      [TL, "spec.controller"],
      [I, "spec.controller", maxLen(253)],
    ]);
  });

  it("controller without '/' → one Invalid", () => {
    const errs = check(ic((o) => (o.spec.controller = "nginx")), [[I, "spec.controller", DOMAIN_PREFIXED]]);
    expect(lines(errs)).toEqual([`spec.controller: Invalid value: "nginx": ${DOMAIN_PREFIXED}`]);
  });

  for (const c of ["/foo", "example.com/", "/"]) {
    it(`controller ${JSON.stringify(c)} (an empty part) → one Invalid`, () => {
      check(ic((o) => (o.spec.controller = c)), [[I, "spec.controller", DOMAIN_PREFIXED]]);
    });
  }

  it("controller host part not a subdomain → Invalid reporting the host part as the value", () => {
    const errs = check(ic((o) => (o.spec.controller = "Example.com/foo")), [[I, "spec.controller", SUBDOMAIN]]);
    expect(lines(errs)).toEqual([`spec.controller: Invalid value: "Example.com": ${SUBDOMAIN}`]);
  });

  it("controller path part with a forbidden character → Invalid reporting the path part", () => {
    const errs = check(ic((o) => (o.spec.controller = "example.com/foo bar")), [[I, "spec.controller", HTTP_PATH]]);
    expect(lines(errs)).toEqual([`spec.controller: Invalid value: "foo bar": ${HTTP_PATH}`]);
  });

  it("controller with a bad host and a bad path → two Invalid", () => {
    check(ic((o) => (o.spec.controller = "Bad_Host/foo bar")), [
      [I, "spec.controller", SUBDOMAIN],
      [I, "spec.controller", HTTP_PATH],
    ]);
  });

  it("controller splits on the first '/' only: further slashes and RFC 3986 sub-delims are fine", () => {
    check(ic((o) => (o.spec.controller = "example.com/a/b/c~%!$&'()*+,;=:")), []);
  });

  it("parameters with apiGroup, kind, name and no scope are valid (scope defaults to Cluster)", () => {
    check(ic(params({ ...PARAMS })), []);
  });

  it('parameters.apiGroup "" counts as set → Invalid', () => {
    const errs = check(ic(params({ ...PARAMS, apiGroup: "" })), [[I, "spec.parameters.apiGroup", SUBDOMAIN]]);
    expect(lines(errs)).toEqual([`spec.parameters.apiGroup: Invalid value: "": ${SUBDOMAIN}`]);
  });

  it("parameters.apiGroup absent is fine", () => {
    check(ic(params({ kind: "K", name: "n" })), []);
  });

  it("parameters without kind and name → Required on both", () => {
    const errs = check(ic(params({})), [
      [R, "spec.parameters.kind", ""],
      [R, "spec.parameters.name", ""],
    ]);
    expect(lines(errs)).toEqual(["spec.parameters.kind: Required value", "spec.parameters.name: Required value"]);
  });

  it("parameters kind/name path-segment rules", () => {
    check(ic(params({ ...PARAMS, kind: ".", name: "a/b%c" })), [
      [I, "spec.parameters.kind", "may not be '.'"],
      [I, "spec.parameters.name", "may not contain '/'"],
      [I, "spec.parameters.name", "may not contain '%'"],
    ]);
    check(ic(params({ ...PARAMS, kind: "..", name: "%" })), [
      [I, "spec.parameters.kind", "may not be '..'"],
      [I, "spec.parameters.name", "may not contain '%'"],
    ]);
  });

  it("a namespace without scope: scope defaults to Cluster, then Forbidden on spec.parameters.namespace", () => {
    const errs = check(ic(params({ ...PARAMS, namespace: "team-a" })), [
      [F, "spec.parameters.namespace", "`parameters.scope` is set to 'Cluster'"],
    ]);
    expect(lines(errs)).toEqual(["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]);
  });

  it('scope Cluster with namespace "" → Forbidden (set counts)', () => {
    check(ic(params({ ...PARAMS, scope: "Cluster", namespace: "" })), [[F, "spec.parameters.namespace"]]);
  });

  it("scope Cluster without namespace is valid", () => {
    check(ic(params({ ...PARAMS, scope: "Cluster" })), []);
  });

  it('scope "cluster" (wrong case) → NotSupported; namespace not examined further', () => {
    const errs = check(ic(params({ ...PARAMS, scope: "cluster", namespace: "Bad_NS" })), [[NS, "spec.parameters.scope", SCOPES]]);
    expect(lines(errs)).toEqual([`spec.parameters.scope: Unsupported value: "cluster": ${SCOPES}`]);
  });

  it('scope "" → NotSupported', () => {
    check(ic(params({ ...PARAMS, scope: "" })), [[NS, "spec.parameters.scope", SCOPES]]);
  });

  it("scope Namespace with a namespace is valid", () => {
    check(ic(params({ ...PARAMS, scope: "Namespace", namespace: "team-a" })), []);
  });

  it("scope Namespace without namespace → Required", () => {
    const errs = check(ic(params({ ...PARAMS, scope: "Namespace" })), [
      [R, "spec.parameters.namespace", "`parameters.scope` is set to 'Namespace'"],
    ]);
    expect(lines(errs)).toEqual(["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"]);
  });

  it('scope Namespace with namespace "" → Invalid (DNS-1123 label)', () => {
    const errs = check(ic(params({ ...PARAMS, scope: "Namespace", namespace: "" })), [
      [I, "spec.parameters.namespace", DNS1123_LABEL],
    ]);
    expect(lines(errs)).toEqual([`spec.parameters.namespace: Invalid value: "": ${DNS1123_LABEL}`]);
  });

  it("scope Namespace: a dotted namespace → must not contain dots; 64 chars → length", () => {
    check(ic(params({ ...PARAMS, scope: "Namespace", namespace: "team.a" })), [
      [I, "spec.parameters.namespace", "must not contain dots"],
    ]);
    check(ic(params({ ...PARAMS, scope: "Namespace", namespace: "n".repeat(64) })), [
      [I, "spec.parameters.namespace", maxLen(63)],
    ]);
    check(ic(params({ ...PARAMS, scope: "Namespace", namespace: "Team_A" })), [[I, "spec.parameters.namespace", DNS1123_LABEL]]);
  });

  it("all parameter errors accumulate, in field order", () => {
    const errs = validate(ic(params({ apiGroup: "Bad_Group", kind: "", name: "..", scope: "Namespace" })));
    expect(lines(errs)).toEqual([
      `spec.parameters.apiGroup: Invalid value: "Bad_Group": ${SUBDOMAIN}`,
      "spec.parameters.kind: Required value",
      `spec.parameters.name: Invalid value: "..": may not be '..'`,
      "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
    ]);
  });

  it("update: a changed controller → Invalid field is immutable at spec.controller", () => {
    const old = storedClass();
    const errs = check(storedClass((o) => (o.spec.controller = "example.com/other")), [[I, "spec.controller", IMMUTABLE]], { old });
    expect(lines(errs)).toEqual(['spec.controller: Invalid value: "example.com/other": field is immutable']);
  });

  it("update: a changed, invalid controller → immutable plus the create rules", () => {
    const old = storedClass();
    check(storedClass((o) => (o.spec.controller = "nginx")), [
      [I, "spec.controller", IMMUTABLE],
      [I, "spec.controller", DOMAIN_PREFIXED],
    ], { old });
  });

  it("update: the create rules run again on the new object", () => {
    const old = storedClass();
    check(storedClass(params({ kind: "K", name: "n", scope: "Namespace" })), [[R, "spec.parameters.namespace"]], { old });
  });

  it("update: parameters may change", () => {
    const old = storedClass(params({ ...PARAMS }));
    check(storedClass(params({ kind: "Other", name: "p2", scope: "Namespace", namespace: "ns" })), [], { old });
  });

  it("update: an unchanged too-long controller is still TooLong (no ratchet)", () => {
    const long = `example.com/${"a".repeat(239)}`;
    const old = storedClass((o) => (o.spec.controller = long));
    check(storedClass((o) => (o.spec.controller = long)), [[TL, "spec.controller"]], { old });
  });
});
