// Ingress and IngressClass validation, one test per rule of the catalogue
// (../shared/docs/validation-rules.md §4 as it applies to Ingress, §5.1–§5.7,
// §6, §9, §11). Every case states the exact error list as a multiset of
// {type, field}; many also pin the API server's detail text or the whole
// `field: Type: value: detail` line. Messages follow kube-apiserver v1.35.4's
// wording (util/validation's MaxLenError "must be no more than N characters",
// content.MaxLenError "must be no more than N bytes" for label keys and values,
// field.TooLong "may not be more than N bytes").

import { create } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HTTPIngressRuleValueSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { FieldPath } from "../../../src/networking/model/path.js";
import {
  SUSPICIOUS_PATH,
  backendIsValid,
  hasSuspiciousSequence,
  httpPathIsValid,
  validateBackend,
  validateHttpPath,
} from "../../../src/networking/validation/ingress.js";
import { validate, type FieldError, type ValidateOptions } from "../../../src/networking/index.js";
import {
  type J,
  R,
  I,
  NS,
  svcBackend,
  ing,
  path0,
  setBackend,
  setHost,
  setPath,
  storedIngress,
  updatedIngress,
  expectErrors,
  check,
  lines,
  SUBDOMAIN,
  WILDCARD,
  DNS1035,
  DNS1123_LABEL,
  NOT_IP,
  PORT_RANGE,
  EITHER,
  PATH_TYPES,
  maxLen,
  P0,
  B0,
} from "../../support/ingress-validation.js";
import { propertyRuns } from "../../support/property-runs.js";

describe("§5.1 Ingress spec level", () => {
  it("the minimal Ingress used as the base of every case is valid", () => {
    check(ing(), []);
  });

  it("no rules and no defaultBackend: one Invalid on spec, value printed as null", () => {
    const errs = check(
      ing((o) => (o.spec = {})),
      [[I, "spec", EITHER]],
    );
    expect(lines(errs)).toEqual(["spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"]);
  });

  it("an explicit empty rules list counts as absent", () => {
    check(
      ing((o) => (o.spec = { rules: [] })),
      [[I, "spec", EITHER]],
    );
  });

  it("defaultBackend alone is enough", () => {
    check(
      ing((o) => (o.spec = { defaultBackend: svcBackend() })),
      [],
    );
  });

  it("defaultBackend is validated with the backend rules, at spec.defaultBackend", () => {
    check(
      ing((o) => (o.spec.defaultBackend = svcBackend("Bad", { number: 0 }))),
      [
        [I, "spec.defaultBackend.service.name", DNS1035],
        [R, "spec.defaultBackend", "port name or number is required"],
      ],
    );
  });

  it("rules: [{}] is valid (non-empty, nothing to check)", () => {
    check(
      ing((o) => (o.spec = { rules: [{}] })),
      [],
    );
  });

  it("a rule with a host and no http is valid", () => {
    check(
      ing((o) => (o.spec = { rules: [{ host: "foo.example.com" }] })),
      [],
    );
  });

  it("ingressClassName must be a DNS-1123 subdomain", () => {
    const errs = check(
      ing((o) => (o.spec.ingressClassName = "Nginx_Class")),
      [[I, "spec.ingressClassName", SUBDOMAIN]],
    );
    expect(lines(errs)).toEqual([`spec.ingressClassName: Invalid value: "Nginx_Class": ${SUBDOMAIN}`]);
  });

  it('ingressClassName "" is set and fails (§11.13)', () => {
    const errs = check(
      ing((o) => (o.spec.ingressClassName = "")),
      [[I, "spec.ingressClassName", SUBDOMAIN]],
    );
    expect(lines(errs)).toEqual([`spec.ingressClassName: Invalid value: "": ${SUBDOMAIN}`]);
  });

  it("a valid ingressClassName passes", () => {
    check(
      ing((o) => (o.spec.ingressClassName = "nginx")),
      [],
    );
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
    check(
      ing((o) => (o.metadata.annotations = { "kubernetes.io/ingress.class": "anything goes" })),
      [],
    );
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
    expect(lines(errs)).toEqual([
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
    ]);
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
    expect(lines(errs)).toEqual([`spec.rules[0].host: Invalid value: "${host}": must be no more than 253 characters`]);
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
    const errs = check(
      ing((o) => (o.spec.rules[0].http = {})),
      [[R, "spec.rules[0].http.paths", ""]],
    );
    expect(lines(errs)).toEqual(["spec.rules[0].http.paths: Required value"]);
  });

  it("http with an empty paths list → Required on paths", () => {
    check(
      ing((o) => (o.spec.rules[0].http = { paths: [] })),
      [[R, "spec.rules[0].http.paths"]],
    );
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
    const errs = check(ing(setPath("foo//bar", "ImplementationSpecific")), [
      [I, `${P0}.path`, "must be an absolute path"],
    ]);
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
      ing(
        setBackend({
          service: { name: "Bad_Name", port: { name: "HTTP", number: 70000 } },
          resource: { kind: "", name: "" },
        }),
      ),
      [[I, B0, "cannot set both resource and service backends"]],
    );
    expect(lines(errs)).toEqual([`${B0}: Invalid value: "": cannot set both resource and service backends`]);
  });

  it("neither service nor resource → Invalid on the backend", () => {
    const errs = check(ing(setBackend({})), [[I, B0, "resource or service backend is required"]]);
    expect(lines(errs)).toEqual([`${B0}: Invalid value: "": resource or service backend is required`]);
  });

  it("an absent backend is the empty backend", () => {
    check(
      ing((o) => delete path0(o).backend),
      [[I, B0, "resource or service backend is required"]],
    );
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
      const errs = check(ing(setBackend(svcBackend("svc", { number: n }))), [
        [I, `${B0}.service.port.number`, PORT_RANGE],
      ]);
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

  it("resource kind \".\" → may not be '.'", () => {
    check(ing(setBackend({ resource: { kind: ".", name: "x" } })), [[I, `${B0}.resource.kind`, "may not be '.'"]]);
  });

  it("resource kind/name have no character class or length limit beyond the path-segment rules", () => {
    check(ing(setBackend({ resource: { kind: "Any Kind!", name: "X".repeat(300) } })), []);
  });

  it("a resource default backend is checked at spec.defaultBackend.resource", () => {
    check(
      ing((o) => (o.spec.defaultBackend = { resource: { kind: "", name: "n" } })),
      [[R, "spec.defaultBackend.resource.kind"]],
    );
  });
});

// ======================================================================
// §5.5 TLS
// ======================================================================

describe("§5.5 TLS", () => {
  it("TLS hosts: wildcard pattern when they contain '*', subdomain otherwise; indexed per host", () => {
    const errs = check(
      ing(
        (o) =>
          (o.spec.tls = [
            { hosts: ["*.example.com", "ok.example.com"], secretName: "tls" },
            { hosts: ["a.example.com", "Foo.com", "*"] },
          ]),
      ),
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
    check(
      ing((o) => (o.spec.tls = [{ hosts: ["10.0.0.1", "010.0.0.1"] }])),
      [],
    );
  });

  it("an IPv6 literal TLS host fails only the subdomain regex (one error)", () => {
    check(
      ing((o) => (o.spec.tls = [{ hosts: ["2001:db8::1"] }])),
      [[I, "spec.tls[0].hosts[0]", SUBDOMAIN]],
    );
  });

  it("TLS host over 253 bytes → Invalid length", () => {
    check(
      ing((o) => (o.spec.tls = [{ hosts: [`${"a".repeat(63)}.`.repeat(3) + "a".repeat(62)] }])),
      [[I, "spec.tls[0].hosts[0]", maxLen(253)]],
    );
  });

  it("empty TLS entries are valid: tls: [{}], hosts: [], no secretName", () => {
    check(
      ing((o) => (o.spec.tls = [{}, { hosts: [] }, { secretName: "" }])),
      [],
    );
  });

  it('secretName "ns/name" → Invalid', () => {
    const errs = check(
      ing((o) => (o.spec.tls = [{ secretName: "ns/name" }])),
      [[I, "spec.tls[0].secretName", SUBDOMAIN]],
    );
    expect(lines(errs)).toEqual([`spec.tls[0].secretName: Invalid value: "ns/name": ${SUBDOMAIN}`]);
  });

  it("secretName with upper case or '_' → Invalid", () => {
    check(
      ing((o) => (o.spec.tls = [{ secretName: "My_Secret" }, { secretName: "ok-secret" }])),
      [[I, "spec.tls[0].secretName", SUBDOMAIN]],
    );
  });

  it("no cross-check between TLS hosts and rule hosts", () => {
    check(
      ing((o) => (o.spec.tls = [{ hosts: ["other.example.org"], secretName: "tls" }])),
      [],
    );
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
    const opts: ValidateOptions =
      gates === undefined ? { old, subresource: "status" } : { old, subresource: "status", featureGates: gates };
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
    expectErrors(
      statusUpdate([{ ip: "010.001.002.003" }], [{ ip: "010.001.002.003" }], { StrictIPCIDRValidation: true }),
      [],
    );
  });

  it("StrictIPCIDRValidation: the old-value allowance is by value, not by index", () => {
    expectErrors(
      statusUpdate([{ ip: "10.0.0.9" }, { ip: "010.001.002.003" }], [{ ip: "010.001.002.003" }], {
        StrictIPCIDRValidation: true,
      }),
      [],
    );
  });

  it("StrictIPCIDRValidation: a new non-standard ip next to an old one is still rejected", () => {
    expectErrors(
      statusUpdate([{ ip: "010.001.002.003" }, { ip: "010.001.002.004" }], [{ ip: "010.001.002.003" }], {
        StrictIPCIDRValidation: true,
      }),
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
      statusUpdate([
        {
          ip: "10.0.0.1",
          ports: [
            { port: 0, protocol: "BOGUS", error: "Not A Valid Error!!" },
            { port: -5, protocol: "" },
          ],
        },
      ]),
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
    check(
      updatedIngress((o) => (o.spec.ingressClassName = "Bad_Class")),
      [[I, "spec.ingressClassName", SUBDOMAIN]],
      { old },
    );
  });

  it("update: an invalid secretName is rejected when the old object's secretNames were all valid", () => {
    const old = storedIngress((o) => (o.spec.tls = [{ secretName: "good" }]));
    check(
      updatedIngress((o) => (o.spec.tls = [{ secretName: "Bad_Secret" }])),
      [[I, "spec.tls[0].secretName", SUBDOMAIN]],
      { old },
    );
  });

  it("update: secretName checks are skipped when any old secretName was invalid", () => {
    const old = storedIngress((o) => (o.spec.tls = [{ secretName: "good" }, { secretName: "ns/name" }]));
    check(
      updatedIngress((o) => (o.spec.tls = [{ secretName: "Other_Bad" }, { secretName: "x/y" }])),
      [],
      { old },
    );
  });

  it("update: the secretName ratchet does not cover TLS hosts", () => {
    const old = storedIngress((o) => (o.spec.tls = [{ secretName: "ns/name" }]));
    check(
      updatedIngress((o) => (o.spec.tls = [{ secretName: "ns/name", hosts: ["Bad_Host"] }])),
      [[I, "spec.tls[0].hosts[0]", SUBDOMAIN]],
      {
        old,
      },
    );
  });

  const wildcardNoPathType =
    (host = "*.example.com") =>
    (o: J) => {
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
      o.spec.rules.push(
        { host: "plain.example.com", http: { paths: [{ path: "/", backend: svcBackend() }] } },
        { host: "*.*.bad.com" },
      );
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
        {
          host: "a.example.com",
          http: {
            paths: [
              { path: "/", pathType: "Exact", backend: svcBackend() },
              { path: "/x", backend: {} },
            ],
          },
        },
        {
          host: "10.1.1.1",
          http: { paths: [{ path: "/y/.", pathType: "Exact", backend: svcBackend("svc", { number: 99999 }) }] },
        },
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

describe("the valid-rule fast check", () => {
  // httpRuleIsValid lets a valid rule skip validateHttpRule: whenever it says
  // valid, the full rule must report nothing; and for service backends and
  // paths without a suspicious sequence it must say valid exactly then.
  const RUNS = propertyRuns(3000);
  const word = fc.string({ unit: fc.constantFrom(..."ab9Z-._/%".split(""), "é"), maxLength: 8 });
  const nameish = fc.oneof(
    word,
    fc.constantFrom("", "svc", "a", "1svc", "web-app", "a".repeat(63), "a".repeat(64), `x${"1".repeat(62)}`),
  );
  const pathText = fc.oneof(word, fc.constantFrom("", "/", "/api", "/a/../b", "/a/.", "//x", "/x%2f", "api"));
  const pathType = fc.constantFrom(undefined, "", "Exact", "Prefix", "ImplementationSpecific", "Other");
  const port = fc.oneof(
    fc.constant(undefined),
    fc.record({
      name: fc.option(nameish, { nil: undefined }),
      number: fc.option(fc.integer({ min: -2, max: 65537 }), { nil: undefined }),
    }),
  );
  const resource = fc.record(
    { apiGroup: fc.constantFrom("", "example.com", "Bad_Group"), kind: nameish, name: nameish },
    { requiredKeys: [] },
  );
  const backend = fc.oneof(
    fc.constant(undefined),
    fc.record(
      { service: fc.option(fc.record({ name: nameish, port }), { nil: undefined }), resource },
      { requiredKeys: [] },
    ),
  );
  const httpPath = fc.record({ path: fc.option(pathText, { nil: undefined }), pathType, backend });
  const rule = fc.array(httpPath, { maxLength: 3 });
  const strip = <T extends object>(o: T): T =>
    Object.fromEntries(
      Object.entries(o)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, v !== null && typeof v === "object" && !Array.isArray(v) ? strip(v) : v]),
    ) as T;
  const SUSPICIOUS = /\/[/.]|%2/;

  it("agrees with validateHttpPath and validateBackend", () => {
    fc.assert(
      fc.property(rule, fc.boolean(), (paths, relaxed) => {
        const http = create(HTTPIngressRuleValueSchema, { paths: paths.map((p) => strip(p)) } as never);
        const options = {
          allowInvalidSecretName: false,
          allowInvalidWildcardHostRule: false,
          allowRelaxedServiceNameValidation: relaxed,
        };
        for (const p of http.paths) {
          const errs: FieldError[] = [];
          validateHttpPath(p, options, FieldPath.root("p"), errs);
          const fast = httpPathIsValid(p, options);
          if (fast) expect(errs).toEqual([]);
          if (!SUSPICIOUS.test(p.path)) expect(fast).toBe(errs.length === 0);
          if (p.backend === undefined) continue;
          const berrs: FieldError[] = [];
          validateBackend(p.backend, options, FieldPath.root("b"), berrs);
          expect(backendIsValid(p.backend, options)).toBe(berrs.length === 0);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("scans for suspicious sequences as the regex matches", () => {
    const text = fc.string({ unit: fc.constantFrom(..."/.%2a9F".split(""), "\u022f", "\u2f2f"), maxLength: 10 });
    fc.assert(
      fc.property(text, (p) => {
        expect(hasSuspiciousSequence(p)).toBe(SUSPICIOUS_PATH.test(p));
      }),
      { numRuns: RUNS },
    );
    for (const p of ["", "/", "%", "%2", "//", "/.", "a/", "a%2", "/a/b", "%3", "/%"])
      expect(hasSuspiciousSequence(p), p).toBe(SUSPICIOUS_PATH.test(p));
  });

  it("takes the fast path for a plain valid rule", () => {
    const options = {
      allowInvalidSecretName: false,
      allowInvalidWildcardHostRule: false,
      allowRelaxedServiceNameValidation: false,
    };
    const http = create(HTTPIngressRuleValueSchema, {
      paths: [
        { path: "/api", pathType: "Prefix", backend: { service: { name: "web", port: { number: 80 } } } },
        {
          path: "/s",
          pathType: "Exact",
          backend: { resource: { apiGroup: "example.com", kind: "Bucket", name: "b" } },
        },
      ],
    });
    for (const p of http.paths) expect(httpPathIsValid(p, options)).toBe(true);
  });
});
