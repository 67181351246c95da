// IngressClass validation, one test per rule (spec.controller, spec.parameters
// and its scope, metadata), each stating the exact error list.

import { describe, expect, it } from "vitest";
import { validate } from "../../../src/networking/index.js";
import {
  type J,
  R,
  I,
  NS,
  F,
  TL,
  ic,
  storedClass,
  check,
  lines,
  SUBDOMAIN,
  DNS1123_LABEL,
  HTTP_PATH,
  DOMAIN_PREFIXED,
  IMMUTABLE,
  SCOPES,
  maxLen,
} from "../../support/ingress-validation.js";

describe("§6 IngressClass", () => {
  const params = (p: J) => (o: J) => {
    o.spec.parameters = p;
  };
  const PARAMS = { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "external-lb" };

  it("the base IngressClass is valid", () => {
    check(ic(), []);
  });

  it("metadata.name: Required without name or generateName, Invalid when not a subdomain", () => {
    check(
      ic((o) => delete o.metadata.name),
      [[R, "metadata.name", "name or generateName is required"]],
    );
    check(
      ic((o) => (o.metadata.name = "Nginx_Class")),
      [[I, "metadata.name", SUBDOMAIN]],
    );
  });

  it("metadata.namespace on an IngressClass is silently cleared (no error)", () => {
    check(
      ic((o) => (o.metadata.namespace = "kube-system")),
      [],
    );
    check(
      ic((o) => (o.metadata.namespace = "Not A Namespace")),
      [],
    );
  });

  it("empty controller → a single Required", () => {
    const errs = check(
      ic((o) => (o.spec = {})),
      [[R, "spec.controller", ""]],
    );
    expect(lines(errs)).toEqual(["spec.controller: Required value"]);
  });

  it("controller of 250 bytes is accepted", () => {
    const c = `example.com/${"a".repeat(238)}`;
    expect(c.length).toBe(250);
    check(
      ic((o) => (o.spec.controller = c)),
      [],
    );
  });

  it("controller over 250 bytes but otherwise valid → TooLong only", () => {
    const c = `example.com/${"a".repeat(239)}`;
    const errs = check(
      ic((o) => (o.spec.controller = c)),
      [[TL, "spec.controller", "may not be more than 250 bytes"]],
    );
    expect(lines(errs)).toEqual(["spec.controller: Too long: may not be more than 250 bytes"]);
  });

  it("controller over 250 bytes with no '/' → TooLong and Invalid (domain-prefixed path)", () => {
    const c = "a".repeat(251);
    const errs = check(
      ic((o) => (o.spec.controller = c)),
      [
        [TL, "spec.controller", "may not be more than 250 bytes"],
        [I, "spec.controller", DOMAIN_PREFIXED],
      ],
    );
    expect(lines(errs)).toEqual([
      "spec.controller: Too long: may not be more than 250 bytes",
      `spec.controller: Invalid value: "${c}": ${DOMAIN_PREFIXED}`,
    ]);
  });

  it("controller over 250 bytes with a host part over 253 → TooLong and the host length message", () => {
    const host = "a".repeat(254);
    check(
      ic((o) => (o.spec.controller = `${host}/x`)),
      [
        [TL, "spec.controller"],
        [I, "spec.controller", maxLen(253)],
      ],
    );
  });

  it("controller without '/' → one Invalid", () => {
    const errs = check(
      ic((o) => (o.spec.controller = "nginx")),
      [[I, "spec.controller", DOMAIN_PREFIXED]],
    );
    expect(lines(errs)).toEqual([`spec.controller: Invalid value: "nginx": ${DOMAIN_PREFIXED}`]);
  });

  for (const c of ["/foo", "example.com/", "/"]) {
    it(`controller ${JSON.stringify(c)} (an empty part) → one Invalid`, () => {
      check(
        ic((o) => (o.spec.controller = c)),
        [[I, "spec.controller", DOMAIN_PREFIXED]],
      );
    });
  }

  it("controller host part not a subdomain → Invalid reporting the host part as the value", () => {
    const errs = check(
      ic((o) => (o.spec.controller = "Example.com/foo")),
      [[I, "spec.controller", SUBDOMAIN]],
    );
    expect(lines(errs)).toEqual([`spec.controller: Invalid value: "Example.com": ${SUBDOMAIN}`]);
  });

  it("controller path part with a forbidden character → Invalid reporting the path part", () => {
    const errs = check(
      ic((o) => (o.spec.controller = "example.com/foo bar")),
      [[I, "spec.controller", HTTP_PATH]],
    );
    expect(lines(errs)).toEqual([`spec.controller: Invalid value: "foo bar": ${HTTP_PATH}`]);
  });

  it("controller with a bad host and a bad path → two Invalid", () => {
    check(
      ic((o) => (o.spec.controller = "Bad_Host/foo bar")),
      [
        [I, "spec.controller", SUBDOMAIN],
        [I, "spec.controller", HTTP_PATH],
      ],
    );
  });

  it("controller splits on the first '/' only: further slashes and RFC 3986 sub-delims are fine", () => {
    check(
      ic((o) => (o.spec.controller = "example.com/a/b/c~%!$&'()*+,;=:")),
      [],
    );
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
    const errs = check(ic(params({ ...PARAMS, scope: "cluster", namespace: "Bad_NS" })), [
      [NS, "spec.parameters.scope", SCOPES],
    ]);
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
    expect(lines(errs)).toEqual([
      "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
    ]);
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
    check(ic(params({ ...PARAMS, scope: "Namespace", namespace: "Team_A" })), [
      [I, "spec.parameters.namespace", DNS1123_LABEL],
    ]);
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
    const errs = check(
      storedClass((o) => (o.spec.controller = "example.com/other")),
      [[I, "spec.controller", IMMUTABLE]],
      { old },
    );
    expect(lines(errs)).toEqual(['spec.controller: Invalid value: "example.com/other": field is immutable']);
  });

  it("update: a changed, invalid controller → immutable plus the create rules", () => {
    const old = storedClass();
    check(
      storedClass((o) => (o.spec.controller = "nginx")),
      [
        [I, "spec.controller", IMMUTABLE],
        [I, "spec.controller", DOMAIN_PREFIXED],
      ],
      { old },
    );
  });

  it("update: the create rules run again on the new object", () => {
    const old = storedClass();
    check(storedClass(params({ kind: "K", name: "n", scope: "Namespace" })), [[R, "spec.parameters.namespace"]], {
      old,
    });
  });

  it("update: parameters may change", () => {
    const old = storedClass(params({ ...PARAMS }));
    check(storedClass(params({ kind: "Other", name: "p2", scope: "Namespace", namespace: "ns" })), [], { old });
  });

  it("update: an unchanged too-long controller is still TooLong (no ratchet)", () => {
    const long = `example.com/${"a".repeat(239)}`;
    const old = storedClass((o) => (o.spec.controller = long));
    check(
      storedClass((o) => (o.spec.controller = long)),
      [[TL, "spec.controller"]],
      { old },
    );
  });
});
