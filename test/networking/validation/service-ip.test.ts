// IPAddress and ServiceCIDR validation (networking.k8s.io/v1). The rule
// catalogue does not cover these kinds; the expectations come from upstream:
//   pkg/apis/networking/validation/validation.go: ValidateIPAddress,
//     ValidateIPAddressName, validateIPAddressParentReference,
//     ValidateIPAddressUpdate, ValidateServiceCIDR, validateServiceCIDRSpec,
//     ValidateServiceCIDRUpdate, ValidateServiceCIDRStatusUpdate
//   apimachinery util/validation/ip.go: IsValidIP, IsValidCIDR (strict parsing)
//   apimachinery api/validate/content/path.go: IsPathSegmentName
//   pkg/registry/networking/ipaddress/strategy.go:
//     ValidateUpdate = ValidateIPAddress(new) + ValidateIPAddressUpdate(new, old)
//   pkg/registry/networking/servicecidr/strategy.go:
//     ValidateUpdate = ValidateServiceCIDRUpdate(new, old) only (no ValidateServiceCIDR;
//     newest strategy.go, and strategy_test.go expects 1 error for
//     ["10.10.0.0/24"] -> ["bad cidr"]);
//     status: spec reset from the old object and metav1.ResetObjectMetaForStatus
//     (labels, annotations, finalizers, ownerReferences, generation from the
//     old object), then ValidateServiceCIDRStatusUpdate (ObjectMeta update rules).
//   apimachinery ValidateObjectMetaAccessorUpdate also validates labels,
//   annotations, ownerReferences and managedFields.
//   apiserver rest.BeforeUpdate: PrepareForUpdate, then validateCommonFields
//   (ValidateObjectMetaAccessor with path-segment names +
//   ValidateObjectMetaAccessorUpdate), then strategy.ValidateUpdate; so
//   metadata errors repeat on every update.

import { describe, expect, it } from "vitest";
import {
  formatFieldError,
  fromJson,
  validate,
  type FieldError,
  type JsonObject,
  type JsonValue,
} from "../../../src/networking/index.js";

const REQ = "FieldValueRequired";
const INV = "FieldValueInvalid";

type Expected = readonly (readonly [string, string])[];
const sig = (errs: readonly FieldError[]): string[] => errs.map((e) => `${e.type} ${e.field}`).sort();
function expectErrors(errs: readonly FieldError[], expected: Expected): void {
  expect(sig(errs), errs.map(formatFieldError).join("\n")).toEqual(expected.map(([t, f]) => `${t} ${f}`).sort());
}
function expectFormatted(errs: readonly FieldError[], expected: readonly string[]): void {
  expect(errs.map(formatFieldError).sort()).toEqual([...expected].sort());
}

const API = "networking.k8s.io/v1";
const IMMUTABLE = "field is immutable";
const STORED: JsonObject = { resourceVersion: "42", uid: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee" };

// ---------------------------------------------------------------------------
// IPAddress

const SVC_REF: JsonObject = { group: "", resource: "services", namespace: "default", name: "kubernetes" };

/** `parentRef: "absent"` leaves spec.parentRef out. */
function ipAddress(name: string, parentRef: JsonValue | "absent" = SVC_REF, meta: JsonObject = {}) {
  const spec: JsonObject = parentRef === "absent" ? {} : { parentRef };
  return fromJson({ apiVersion: API, kind: "IPAddress", metadata: { name, ...meta }, spec });
}

const IP_INVALID = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const IP_ZEROS = "must not have leading 0s";
const IP_MAPPED = "must not be an IPv4-mapped IPv6 address";
const SUBDOMAIN_RE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe("IPAddress name (ValidateIPAddressName = IsValidIP, strict and canonical)", () => {
  it("canonical IPv4 and IPv6 names are valid", () => {
    expect(validate(ipAddress("192.168.1.5"))).toEqual([]);
    expect(validate(ipAddress("2001:db8::1"))).toEqual([]);
    expect(validate(ipAddress("10.0.0.0"))).toEqual([]);
    expect(validate(ipAddress("::1"))).toEqual([]);
    expect(validate(ipAddress("fd00::a:b"))).toEqual([]);
  });

  it("IPv4 with leading zeros", () => {
    expectFormatted(validate(ipAddress("192.168.001.5")), [
      `metadata.name: Invalid value: "192.168.001.5": ${IP_ZEROS}`,
    ]);
  });

  it("IPv6 not in canonical (lower-case, compressed) form", () => {
    expectFormatted(validate(ipAddress("2001:DB8::1")), [
      'metadata.name: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")',
    ]);
    expectFormatted(validate(ipAddress("2001:db8:0:0:0:0:0:1")), [
      'metadata.name: Invalid value: "2001:db8:0:0:0:0:0:1": must be in canonical form ("2001:db8::1")',
    ]);
  });

  it("IPv4-mapped IPv6", () => {
    expectFormatted(validate(ipAddress("::ffff:1.2.3.4")), [
      `metadata.name: Invalid value: "::ffff:1.2.3.4": ${IP_MAPPED}`,
    ]);
  });

  it("not an IP at all", () => {
    for (const name of ["foo", "10.0.0.0/8", "1.2.3", "300.1.1.1"]) {
      expectFormatted(validate(ipAddress(name)), [
        `metadata.name: Invalid value: ${JSON.stringify(name)}: ${IP_INVALID}`,
      ]);
    }
  });

  it("an empty name is Required", () => {
    expectErrors(validate(ipAddress("")), [[REQ, "metadata.name"]]);
  });

  it("a namespace in the body of this cluster-scoped kind is cleared, not rejected", () => {
    expect(validate(ipAddress("192.168.1.5", SVC_REF, { namespace: "default" }))).toEqual([]);
  });
});

describe("IPAddress spec.parentRef", () => {
  const P = "spec.parentRef";
  const ref = (r: JsonObject) => validate(ipAddress("10.0.0.1", r));

  it("missing parentRef is Required", () => {
    expectFormatted(validate(ipAddress("10.0.0.1", "absent")), [`${P}: Required value`]);
  });

  it("empty parentRef: resource and name are Required; group and namespace are optional", () => {
    expectFormatted(ref({}), [`${P}.resource: Required value`, `${P}.name: Required value`]);
    expect(ref({ resource: "services", name: "a" })).toEqual([]);
  });

  it("group is validated as a DNS-1123 subdomain when non-empty", () => {
    expect(ref({ group: "gateway.networking.k8s.io", resource: "gateways", name: "a" })).toEqual([]);
    expectFormatted(ref({ group: "Bad_Group", resource: "services", name: "a" }), [
      `${P}.group: Invalid value: "Bad_Group": ${SUBDOMAIN_RE}`,
    ]);
    const long = "a".repeat(254);
    expectFormatted(ref({ group: long, resource: "services", name: "a" }), [
      `${P}.group: Invalid value: "${long}": must be no more than 253 characters`,
    ]);
  });

  it("resource: path-segment rules", () => {
    expectFormatted(ref({ resource: ".", name: "a" }), [`${P}.resource: Invalid value: ".": may not be '.'`]);
    expectFormatted(ref({ resource: "..", name: "a" }), [`${P}.resource: Invalid value: "..": may not be '..'`]);
    expectFormatted(ref({ resource: "a/b%c", name: "a" }), [
      `${P}.resource: Invalid value: "a/b%c": may not contain '/'`,
      `${P}.resource: Invalid value: "a/b%c": may not contain '%'`,
    ]);
    // No DNS rule and no length limit: anything else goes.
    expect(ref({ resource: "Services_V2.x", name: "a" })).toEqual([]);
    expect(ref({ resource: "r".repeat(300), name: "a" })).toEqual([]);
  });

  it("name: path-segment rules", () => {
    expectFormatted(ref({ resource: "services", name: ".." }), [`${P}.name: Invalid value: "..": may not be '..'`]);
    expectFormatted(ref({ resource: "services", name: "ns/name" }), [
      `${P}.name: Invalid value: "ns/name": may not contain '/'`,
    ]);
    expectFormatted(ref({ resource: "services", name: "100%" }), [
      `${P}.name: Invalid value: "100%": may not contain '%'`,
    ]);
    expect(ref({ resource: "services", name: "Not_A_DNS.Name" })).toEqual([]);
  });

  it("namespace: optional, path-segment rules when set (not a DNS label rule)", () => {
    expect(ref({ resource: "services", name: "a", namespace: "" })).toEqual([]);
    expect(ref({ resource: "services", name: "a", namespace: "Not_A_Label" })).toEqual([]);
    expectFormatted(ref({ resource: "services", name: "a", namespace: "." }), [
      `${P}.namespace: Invalid value: ".": may not be '.'`,
    ]);
    expectFormatted(ref({ resource: "services", name: "a", namespace: "a/b" }), [
      `${P}.namespace: Invalid value: "a/b": may not contain '/'`,
    ]);
  });

  it("all parentRef errors accumulate", () => {
    expectErrors(ref({ group: "-x-", resource: "", name: "/", namespace: "%" }), [
      [INV, `${P}.group`],
      [REQ, `${P}.resource`],
      [INV, `${P}.name`],
      [INV, `${P}.namespace`],
    ]);
  });
});

describe("IPAddress update", () => {
  const old = () => ipAddress("10.0.0.1", SVC_REF, STORED);
  const upd = (parentRef: JsonValue | "absent", meta: JsonObject = {}, name = "10.0.0.1") =>
    validate(ipAddress(name, parentRef, { ...STORED, ...meta }), { old: old() });

  it("an unchanged object, and label changes, are valid", () => {
    expect(upd(SVC_REF)).toEqual([]);
    expect(upd(SVC_REF, { labels: { a: "b" } })).toEqual([]);
  });

  it("parentRef is immutable", () => {
    const errs = upd({ ...SVC_REF, name: "other" });
    expectErrors(errs, [[INV, "spec.parentRef"]]);
    expect(errs[0]!.detail).toBe(IMMUTABLE);
    expectErrors(upd({ ...SVC_REF, namespace: "kube-system" }), [[INV, "spec.parentRef"]]);
    expectErrors(upd({ ...SVC_REF, group: "example.com" }), [[INV, "spec.parentRef"]]);
  });

  it("removing parentRef: Required (ValidateIPAddress) and immutable (ValidateIPAddressUpdate)", () => {
    const errs = upd("absent");
    expectErrors(errs, [
      [REQ, "spec.parentRef"],
      [INV, "spec.parentRef"],
    ]);
  });

  it("changing parentRef to an invalid one: the create rules run too", () => {
    expectErrors(upd({ ...SVC_REF, resource: "" }), [
      [REQ, "spec.parentRef.resource"],
      [INV, "spec.parentRef"],
    ]);
  });

  it("a label error four times: validateCommonFields (2) + ValidateIPAddress (1) + ValidateIPAddressUpdate (1)", () => {
    expectErrors(upd(SVC_REF, { labels: { k: "bad value!" } }), [
      [INV, "metadata.labels"],
      [INV, "metadata.labels"],
      [INV, "metadata.labels"],
      [INV, "metadata.labels"],
    ]);
  });

  it("the name is immutable: reported by validateCommonFields and by ValidateIPAddressUpdate", () => {
    expectFormatted(upd(SVC_REF, {}, "10.0.0.2"), [
      `metadata.name: Invalid value: "10.0.0.2": ${IMMUTABLE}`,
      `metadata.name: Invalid value: "10.0.0.2": ${IMMUTABLE}`,
    ]);
  });

  it("IPAddress has no status subresource", () => {
    expect(() => validate(ipAddress("10.0.0.1", SVC_REF, STORED), { old: old(), subresource: "status" })).toThrow(
      TypeError,
    );
  });
});

// ---------------------------------------------------------------------------
// ServiceCIDR

function serviceCIDR(cidrs: JsonValue[] | undefined, meta: JsonObject = {}, status?: JsonObject) {
  const o: JsonObject = {
    apiVersion: API,
    kind: "ServiceCIDR",
    metadata: { name: "kubernetes", ...meta },
    spec: cidrs === undefined ? {} : { cidrs },
  };
  if (status !== undefined) o["status"] = status;
  return fromJson(o);
}
const cidrs = (list: JsonValue[] | undefined) => validate(serviceCIDR(list));

const CIDR_BAD = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
const CIDR_ZEROS = "must not have leading 0s in IP or prefix length";
const CIDR_MAPPED = "must not have an IPv4-mapped IPv6 address";
const CIDR_BITS = "must not have bits set beyond the prefix length";
const FAMILY = "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64";

describe("ServiceCIDR create", () => {
  it("single-stack and dual-stack (either order) are valid", () => {
    expect(cidrs(["10.96.0.0/12"])).toEqual([]);
    expect(cidrs(["fd00:10:96::/112"])).toEqual([]);
    expect(cidrs(["10.96.0.0/12", "fd00:10:96::/112"])).toEqual([]);
    expect(cidrs(["2001:db8::/64", "192.168.0.0/24"])).toEqual([]);
    expect(cidrs(["0.0.0.0/0"])).toEqual([]);
  });

  it("no CIDRs: Required on spec.cidrs", () => {
    expectFormatted(cidrs(undefined), ["spec.cidrs: Required value: at least one CIDR required"]);
    expectFormatted(cidrs([]), ["spec.cidrs: Required value: at least one CIDR required"]);
  });

  it("three CIDRs: one Invalid on spec.cidrs, per-entry checks skipped", () => {
    const errs = cidrs(["bad", "10.0.0.1/8", "2001:db8::/64"]);
    expectErrors(errs, [[INV, "spec.cidrs"]]);
    expect(errs[0]!.detail).toBe("may only hold up to 2 values");
  });

  it("two CIDRs of the same family: Invalid on spec.cidrs", () => {
    expectFormatted(cidrs(["10.0.0.0/8", "192.168.0.0/16"]), [
      `spec.cidrs: Invalid value: ["10.0.0.0/8","192.168.0.0/16"]: ${FAMILY}`,
    ]);
    const v6 = cidrs(["2001:db8::/64", "fd00::/64"]);
    expectErrors(v6, [[INV, "spec.cidrs"]]);
    expect(v6[0]!.detail).toBe(FAMILY);
  });

  it("family check and per-entry check together", () => {
    expectFormatted(cidrs(["10.0.0.0/8", "10.0.0.1/8"]), [
      `spec.cidrs[1]: Invalid value: "10.0.0.1/8": ${CIDR_BITS}`,
      `spec.cidrs: Invalid value: ["10.0.0.0/8","10.0.0.1/8"]: ${FAMILY}`,
    ]);
  });

  it("an unparseable entry has no family, so no family error", () => {
    expectErrors(cidrs(["10.0.0.0/8", "bad"]), [[INV, "spec.cidrs[1]"]]);
    expectErrors(cidrs(["bad", "worse"]), [
      [INV, "spec.cidrs[0]"],
      [INV, "spec.cidrs[1]"],
    ]);
  });

  it("unparseable CIDRs", () => {
    for (const c of ["", "10.0.0.0", "10.0.0.0/33", "2001:db8::/129", "abc", "10.0.0.0/8 "]) {
      expectFormatted(cidrs([c]), [`spec.cidrs[0]: Invalid value: ${JSON.stringify(c)}: ${CIDR_BAD}`]);
    }
  });

  it("non-canonical CIDRs are Invalid with IsValidCIDR's strict messages", () => {
    expectFormatted(cidrs(["10.0.0.1/8"]), [`spec.cidrs[0]: Invalid value: "10.0.0.1/8": ${CIDR_BITS}`]);
    expectFormatted(cidrs(["10.0.0.0/08"]), [`spec.cidrs[0]: Invalid value: "10.0.0.0/08": ${CIDR_ZEROS}`]);
    expectFormatted(cidrs(["010.0.0.0/8"]), [`spec.cidrs[0]: Invalid value: "010.0.0.0/8": ${CIDR_ZEROS}`]);
    expectFormatted(cidrs(["::ffff:10.0.0.0/104"]), [
      `spec.cidrs[0]: Invalid value: "::ffff:10.0.0.0/104": ${CIDR_MAPPED}`,
    ]);
    expectFormatted(cidrs(["2001:DB8::/64"]), [
      'spec.cidrs[0]: Invalid value: "2001:DB8::/64": must be in canonical form ("2001:db8::/64")',
    ]);
    expectFormatted(cidrs(["2001:db8:0::/64"]), [
      'spec.cidrs[0]: Invalid value: "2001:db8:0::/64": must be in canonical form ("2001:db8::/64")',
    ]);
    expectFormatted(cidrs(["2001:db8::1/64"]), [`spec.cidrs[0]: Invalid value: "2001:db8::1/64": ${CIDR_BITS}`]);
  });

  it("metadata.name must be a DNS-1123 subdomain", () => {
    expectFormatted(validate(serviceCIDR(["10.0.0.0/8"], { name: "Bad_Name" })), [
      `metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_RE}`,
    ]);
  });

  it("a namespace in the body of this cluster-scoped kind is cleared, not rejected", () => {
    expect(validate(serviceCIDR(["10.0.0.0/8"], { namespace: "default" }))).toEqual([]);
  });
});

describe("ServiceCIDR update (ValidateServiceCIDRUpdate only)", () => {
  const upd = (oldList: string[], newList: JsonValue[], meta: JsonObject = {}) =>
    validate(serviceCIDR(newList, { ...STORED, ...meta }), { old: serviceCIDR(oldList, STORED) });

  it("unchanged CIDRs are valid", () => {
    expect(upd(["10.0.0.0/24"], ["10.0.0.0/24"])).toEqual([]);
    expect(upd(["10.0.0.0/24", "2001:db8::/64"], ["10.0.0.0/24", "2001:db8::/64"])).toEqual([]);
  });

  it("same length: a changed entry is immutable at its index", () => {
    expectFormatted(upd(["10.0.0.0/24", "2001:db8::/64"], ["10.0.1.0/24", "2001:db8::/64"]), [
      `spec.cidrs[0]: Invalid value: "10.0.1.0/24": ${IMMUTABLE}`,
    ]);
    expectErrors(upd(["10.0.0.0/24", "2001:db8::/64"], ["10.0.1.0/24", "2001:db8:1::/64"]), [
      [INV, "spec.cidrs[0]"],
      [INV, "spec.cidrs[1]"],
    ]);
    // Swapping the order is a change of both entries.
    expectErrors(upd(["10.0.0.0/24", "2001:db8::/64"], ["2001:db8::/64", "10.0.0.0/24"]), [
      [INV, "spec.cidrs[0]"],
      [INV, "spec.cidrs[1]"],
    ]);
  });

  it("same length: the create rules do not run, so a changed bad value is only 'immutable'", () => {
    expectFormatted(upd(["10.0.0.0/24"], ["bad"]), [`spec.cidrs[0]: Invalid value: "bad": ${IMMUTABLE}`]);
  });

  it("1 -> 2: upgrading to dual-stack is allowed when the first entry is unchanged", () => {
    expect(upd(["10.0.0.0/24"], ["10.0.0.0/24", "2001:db8::/64"])).toEqual([]);
    expect(upd(["2001:db8::/64"], ["2001:db8::/64", "10.0.0.0/24"])).toEqual([]);
  });

  it("1 -> 2: the spec rules run on the new list", () => {
    expectErrors(upd(["10.0.0.0/24"], ["10.0.0.0/24", "10.1.0.0/24"]), [[INV, "spec.cidrs"]]);
    expectFormatted(upd(["10.0.0.0/24"], ["10.0.0.0/24", "2001:DB8::/64"]), [
      'spec.cidrs[1]: Invalid value: "2001:DB8::/64": must be in canonical form ("2001:db8::/64")',
    ]);
  });

  it("1 -> 2: changing the first entry is immutable at [0]", () => {
    expectFormatted(upd(["10.0.0.0/24"], ["10.0.1.0/24", "2001:db8::/64"]), [
      `spec.cidrs[0]: Invalid value: "10.0.1.0/24": ${IMMUTABLE}`,
    ]);
  });

  it("any other length change is Invalid on spec.cidrs", () => {
    expectFormatted(upd(["10.0.0.0/24", "2001:db8::/64"], ["10.0.0.0/24"]), [
      `spec.cidrs: Invalid value: ["10.0.0.0/24"]: ${IMMUTABLE}`,
    ]);
    const grow3 = upd(["10.0.0.0/24"], ["10.0.0.0/24", "2001:db8::/64", "10.1.0.0/24"]);
    expectErrors(grow3, [[INV, "spec.cidrs"]]);
    expect(grow3[0]!.detail).toBe(IMMUTABLE);
    const emptied = upd(["10.0.0.0/24"], []);
    expectErrors(emptied, [[INV, "spec.cidrs"]]);
    expect(emptied[0]!.detail).toBe(IMMUTABLE);
  });

  it("metadata: validateCommonFields (2) + ValidateServiceCIDRUpdate's ObjectMeta update (1) = a label error three times", () => {
    expectErrors(upd(["10.0.0.0/24"], ["10.0.0.0/24"], { labels: { k: "bad value!" } }), [
      [INV, "metadata.labels"],
      [INV, "metadata.labels"],
      [INV, "metadata.labels"],
    ]);
    expectFormatted(upd(["10.0.0.0/24"], ["10.0.0.0/24"], { name: "other" }), [
      `metadata.name: Invalid value: "other": ${IMMUTABLE}`,
      `metadata.name: Invalid value: "other": ${IMMUTABLE}`,
    ]);
  });
});

describe("ServiceCIDR status update (ValidateServiceCIDRStatusUpdate: metadata only)", () => {
  const old = () => serviceCIDR(["10.0.0.0/24"], STORED);
  const status: JsonObject = {
    conditions: [
      { type: "Ready", status: "True", reason: "", message: "", lastTransitionTime: "2024-01-01T00:00:00Z" },
    ],
  };

  it("a status change is valid; status content is not validated", () => {
    expect(validate(serviceCIDR(["10.0.0.0/24"], STORED, status), { old: old(), subresource: "status" })).toEqual([]);
    const odd: JsonObject = { conditions: [{ type: "", status: "Bogus", reason: "not a reason!" }] };
    expect(validate(serviceCIDR(["10.0.0.0/24"], STORED, odd), { old: old(), subresource: "status" })).toEqual([]);
  });

  it("spec changes (even invalid ones) and label changes are ignored", () => {
    expect(
      validate(serviceCIDR(["bad", "worse", "10.0.0.1/8"], STORED, status), { old: old(), subresource: "status" }),
    ).toEqual([]);
    expect(
      validate(serviceCIDR(["10.0.0.0/24"], { ...STORED, labels: { k: "bad value!" } }), {
        old: old(),
        subresource: "status",
      }),
    ).toEqual([]);
  });

  it("the ObjectMeta update rules still apply: the name is immutable (validateCommonFields + status strategy)", () => {
    const errs = validate(serviceCIDR(["10.0.0.0/24"], { ...STORED, name: "other" }), {
      old: old(),
      subresource: "status",
    });
    expectFormatted(errs, [
      `metadata.name: Invalid value: "other": ${IMMUTABLE}`,
      `metadata.name: Invalid value: "other": ${IMMUTABLE}`,
    ]);
  });
});
