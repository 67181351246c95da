// NetworkPolicy validation, rule by rule (../shared/docs/validation-rules.md §7.1–§7.5, §8,
// §9, §11). Every expected error list is a multiset of {type, field}; many
// cases pin the detail or the full `field.Error.Error()` text as well. Detail
// texts are upstream's (pkg/apis/networking/validation/validation.go,
// apimachinery util/validation, api/validate/content, util/validation/ip.go,
// apis/meta/v1/validation) as kube-apiserver v1.35.4 words them.
//
// Update mode follows pkg/registry/networking/networkpolicy/strategy.go:
//   ValidateUpdate = ValidateNetworkPolicy(new, opts)            // meta + spec
//                  + ValidateNetworkPolicyUpdate(new, old, opts) // meta update + spec again
// so every spec error appears twice on update. Before the strategy,
// rest.BeforeUpdate runs validateCommonFields (ValidateObjectMetaAccessor with
// path-segment names + ValidateObjectMetaAccessorUpdate), and the update
// accessor re-checks labels/annotations/owners: a label error appears four
// times, an immutable name twice. The
// CIDR ratchet (AllowCIDRsEvenIfInvalid, set only inside
// ValidateNetworkPolicyUpdate on its copy of opts) only silences the second pass.

import { create } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NetworkPolicyIngressRuleSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { FieldPath } from "../../../src/networking/model/path.js";
import { ruleIsValid, validateRule } from "../../../src/networking/validation/network-policy.js";
import {
  labelSelectorIsValid,
  validateLabelSelector,
} from "../../../src/networking/validation/rules/label-selector.js";
import {
  formatFieldError,
  fromJson,
  validate,
  type FieldError,
  type JsonObject,
  type JsonValue,
  type ValidateOptions,
} from "../../../src/networking/index.js";
import { propertyRuns } from "../../support/property-runs.js";

// ---------------------------------------------------------------------------
// helpers

const REQ = "FieldValueRequired";
const INV = "FieldValueInvalid";
const NS = "FieldValueNotSupported";
const FORB = "FieldValueForbidden";

type Expected = readonly (readonly [string, string])[];

function np(spec: JsonObject | undefined, meta: JsonObject = {}) {
  const o: JsonObject = {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "np", namespace: "default", ...meta },
  };
  if (spec !== undefined) o["spec"] = spec;
  return fromJson(o);
}

/** An object as stored: with a resourceVersion, so update validation has one. */
function stored(spec: JsonObject | undefined, meta: JsonObject = {}) {
  return np(spec, { resourceVersion: "7", uid: "11111111-2222-3333-4444-555555555555", ...meta });
}

function run(spec: JsonObject | undefined, opts?: ValidateOptions): FieldError[] {
  return validate(np(spec), opts);
}

const sig = (errs: readonly FieldError[]): string[] => errs.map((e) => `${e.type} ${e.field}`).sort();

function expectErrors(errs: readonly FieldError[], expected: Expected): void {
  expect(sig(errs), errs.map(formatFieldError).join("\n")).toEqual(expected.map(([t, f]) => `${t} ${f}`).sort());
}

function expectFormatted(errs: readonly FieldError[], expected: readonly string[]): void {
  expect(errs.map(formatFieldError).sort()).toEqual([...expected].sort());
}

/** Multiset with every entry doubled: what the update path reports for spec errors. */
const twice = (e: Expected): Expected => [...e, ...e];

const ing = (rule: JsonObject): JsonObject => ({ ingress: [rule] });
const port = (p: JsonObject): JsonObject => ing({ ports: [p] });
const from = (peer: JsonObject): JsonObject => ing({ from: [peer] });
const ipb = (cidr: JsonValue, except?: JsonValue[]): JsonObject =>
  from({ ipBlock: except === undefined ? { cidr } : { cidr, except } });

const P = "spec.ingress[0].ports[0]";
const R = "spec.ingress[0].from[0]";
const B = `${R}.ipBlock`;

// Upstream detail texts.
const PORT_RANGE = "must be between 1 and 65535, inclusive";
const END_GE = "must be greater than or equal to `port`";
const END_NON_NUMERIC = "may not be specified when `port` is non-numeric";
const END_NO_PORT = "may not be specified when `port` is not specified";
const PN_CHARSET = "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)";
const PN_LETTER = "must contain at least one letter (a-z)";
const PN_DOUBLE_HYPHEN = "must not contain consecutive hyphens";
const PN_EDGE_HYPHEN = "must not begin or end with a hyphen";
const PN_LEN = "must be no more than 15 characters";
const PEER_REQUIRED = "must specify a peer";
const PEER_BOTH = "may not specify both ipBlock and another peer";
const CIDR_BAD = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
const STRICT_SUBSET = "must be a strict subset of `cidr`";
const STRICT_ZEROS = "must not have leading 0s in IP or prefix length";
const STRICT_MAPPED = "must not have an IPv4-mapped IPv6 address";
const STRICT_BITS = "must not have bits set beyond the prefix length";
const TOO_MANY_TYPES = "may not specify more than two policyTypes";
const OP_INVALID = "not a valid selector operator";
const VALUES_REQUIRED = "must be specified when `operator` is 'In' or 'NotIn'";
const VALUES_FORBIDDEN = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";
const LABEL_VALUE_RE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const KEY_NAME_RE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const KEY_NAME_EMPTY = "name part must be non-empty";
const KEY_PREFIX_EMPTY = "prefix part must be non-empty";
const KEY_PREFIX_RE =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const KEY_TOO_MANY_SLASHES =
  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
const MAX63 = "must be no more than 63 bytes";
const IMMUTABLE = "field is immutable";

// ---------------------------------------------------------------------------

describe("§7.1 spec and policyTypes", () => {
  it("an empty spec, an absent spec and all-empty lists are valid", () => {
    expect(run({})).toEqual([]);
    expect(run(undefined)).toEqual([]);
    expect(run({ podSelector: {}, ingress: [], egress: [], policyTypes: [] })).toEqual([]);
    expect(run({ ingress: [{}], egress: [{}] })).toEqual([]);
    expect(run({ ingress: [{ from: [], ports: [] }], egress: [{ to: [], ports: [] }] })).toEqual([]);
  });

  it("more than two policyTypes: one Invalid on spec.policyTypes", () => {
    const errs = run({ policyTypes: ["Ingress", "Egress", "Ingress"] });
    expectErrors(errs, [[INV, "spec.policyTypes"]]);
    expect(errs[0]!.detail).toBe(TOO_MANY_TYPES);
  });

  it("more than two policyTypes: the per-entry checks are skipped", () => {
    expectErrors(run({ policyTypes: ["Foo", "Bar", "Baz"] }), [[INV, "spec.policyTypes"]]);
    expectErrors(run({ policyTypes: ["Ingress", "Egress", "Foo", "Bar"] }), [[INV, "spec.policyTypes"]]);
  });

  it("too many policyTypes does not suppress the rule errors found before it", () => {
    const errs = run({ ingress: [{ ports: [{ port: 0 }] }], policyTypes: ["Ingress", "Egress", "Egress"] });
    expectErrors(errs, [
      [INV, `${P}.port`],
      [INV, "spec.policyTypes"],
    ]);
  });

  it("duplicates are accepted (no Duplicate errors)", () => {
    expect(run({ policyTypes: ["Ingress", "Ingress"] })).toEqual([]);
    expect(run({ policyTypes: ["Egress", "Egress"] })).toEqual([]);
    expect(run({ policyTypes: ["Egress"] })).toEqual([]);
    expect(run({ policyTypes: ["Ingress", "Egress"] })).toEqual([]);
    expect(run({ policyTypes: ["Egress", "Ingress"] })).toEqual([]);
  });

  it("an unknown entry is NotSupported at its index (case-sensitive)", () => {
    const errs = run({ policyTypes: ["Ingress", "ingress"] });
    expectErrors(errs, [[NS, "spec.policyTypes[1]"]]);
    expectFormatted(errs, ['spec.policyTypes[1]: Unsupported value: "ingress": supported values: "Ingress", "Egress"']);
  });

  it("one NotSupported per bad entry, including the empty string", () => {
    expectErrors(run({ policyTypes: ["", "EGRESS"] }), [
      [NS, "spec.policyTypes[0]"],
      [NS, "spec.policyTypes[1]"],
    ]);
  });

  it("an empty policyTypes list is valid (it is defaulted)", () => {
    expect(run({ policyTypes: [] })).toEqual([]);
    expect(run({ policyTypes: [], egress: [{}] })).toEqual([]);
  });
});

describe("§7.2 ports", () => {
  it("protocol TCP, UDP, SCTP and an absent protocol are valid", () => {
    for (const protocol of ["TCP", "UDP", "SCTP"]) expect(run(port({ protocol, port: 80 }))).toEqual([]);
    expect(run(port({ port: 80 }))).toEqual([]);
    expect(run(port({}))).toEqual([]);
  });

  it('protocol "" is NotSupported (not defaulted)', () => {
    const errs = run(port({ protocol: "", port: 80 }));
    expectErrors(errs, [[NS, `${P}.protocol`]]);
    expectFormatted(errs, [`${P}.protocol: Unsupported value: "": supported values: "TCP", "UDP", "SCTP"`]);
  });

  it("a lower-case protocol is NotSupported", () => {
    const errs = run(port({ protocol: "tcp", port: 80 }));
    expectErrors(errs, [[NS, `${P}.protocol`]]);
    expectFormatted(errs, [`${P}.protocol: Unsupported value: "tcp": supported values: "TCP", "UDP", "SCTP"`]);
    expectErrors(run(port({ protocol: "ICMP" })), [[NS, `${P}.protocol`]]);
  });

  it("numeric port 1 and 65535 are valid", () => {
    expect(run(port({ port: 1 }))).toEqual([]);
    expect(run(port({ port: 65535 }))).toEqual([]);
  });

  it("numeric port outside 1-65535 is Invalid: 0, -1, 70000", () => {
    for (const p of [0, -1, 70000]) {
      const errs = run(port({ port: p }));
      expectFormatted(errs, [`${P}.port: Invalid value: ${p}: ${PORT_RANGE}`]);
    }
    expectFormatted(run(port({ port: 65536 })), [`${P}.port: Invalid value: 65536: ${PORT_RANGE}`]);
  });

  it("endPort equal to or above port is valid", () => {
    expect(run(port({ port: 80, endPort: 80 }))).toEqual([]);
    expect(run(port({ port: 32000, endPort: 32768 }))).toEqual([]);
    expect(run(port({ port: 1, endPort: 65535 }))).toEqual([]);
  });

  it("endPort below port is Invalid on endPort, the value shown is the port (1.35)", () => {
    const errs = run(port({ port: 8080, endPort: 80 }));
    expectFormatted(errs, [`${P}.endPort: Invalid value: 8080: ${END_GE}`]);
  });

  it("endPort below port: 1.37 shows the endPort as the value", () => {
    const errs = run(port({ port: 8080, endPort: 80 }), { version: "1.37" });
    expectFormatted(errs, [`${P}.endPort: Invalid value: 80: ${END_GE}`]);
    expect(run(port({ port: 80, endPort: 0 }), { version: "1.37" }).map(formatFieldError)).toEqual([
      `${P}.endPort: Invalid value: 0: ${END_GE}`,
      `${P}.endPort: Invalid value: 0: ${PORT_RANGE}`,
    ]);
  });

  it("endPort out of range is Invalid", () => {
    expectFormatted(run(port({ port: 80, endPort: 70000 })), [`${P}.endPort: Invalid value: 70000: ${PORT_RANGE}`]);
  });

  it("port 80 with endPort 0 gives two errors on endPort, 'greater than' first", () => {
    const errs = run(port({ port: 80, endPort: 0 }));
    expect(errs.map(formatFieldError)).toEqual([
      `${P}.endPort: Invalid value: 80: ${END_GE}`,
      `${P}.endPort: Invalid value: 0: ${PORT_RANGE}`,
    ]);
  });

  it("bad port and bad endPort are reported independently", () => {
    // port 0 is out of range; endPort 10 >= 0 and in range.
    expectErrors(run(port({ port: 0, endPort: 10 })), [[INV, `${P}.port`]]);
    // port 70000 out of range; endPort 80 < 70000.
    expectErrors(run(port({ port: 70000, endPort: 80 })), [
      [INV, `${P}.port`],
      [INV, `${P}.endPort`],
    ]);
  });

  it("named port with endPort: the endPort error comes first, then the port-name errors", () => {
    const errs = run(port({ port: "HTTP", endPort: 90 }));
    expect(errs.map(formatFieldError)).toEqual([
      `${P}.endPort: Invalid value: 90: ${END_NON_NUMERIC}`,
      `${P}.port: Invalid value: "HTTP": ${PN_CHARSET}`,
      `${P}.port: Invalid value: "HTTP": ${PN_LETTER}`,
    ]);
  });

  it("a valid named port with endPort still fails on endPort", () => {
    expectFormatted(run(port({ port: "http", endPort: 90 })), [`${P}.endPort: Invalid value: 90: ${END_NON_NUMERIC}`]);
  });

  it('a quoted number "80" is a named port and lacks a letter', () => {
    const errs = run(port({ port: "80" }));
    expectFormatted(errs, [`${P}.port: Invalid value: "80": ${PN_LETTER}`]);
  });

  it("HTTP as a port name gives two Invalid errors on the same field", () => {
    const errs = run(port({ port: "HTTP" }));
    expectErrors(errs, [
      [INV, `${P}.port`],
      [INV, `${P}.port`],
    ]);
    expectFormatted(errs, [
      `${P}.port: Invalid value: "HTTP": ${PN_CHARSET}`,
      `${P}.port: Invalid value: "HTTP": ${PN_LETTER}`,
    ]);
  });

  it("port-name sub-rules: length, consecutive hyphens, leading/trailing hyphen, empty", () => {
    expect(run(port({ port: "http" }))).toEqual([]);
    expect(run(port({ port: "my-http-2" }))).toEqual([]);
    expect(run(port({ port: "abcdefghijklmno" }))).toEqual([]); // 15
    expectFormatted(run(port({ port: "abcdefghijklmnop" })), [
      `${P}.port: Invalid value: "abcdefghijklmnop": ${PN_LEN}`,
    ]);
    expectFormatted(run(port({ port: "my--http" })), [`${P}.port: Invalid value: "my--http": ${PN_DOUBLE_HYPHEN}`]);
    expectFormatted(run(port({ port: "-http" })), [`${P}.port: Invalid value: "-http": ${PN_EDGE_HYPHEN}`]);
    expectFormatted(run(port({ port: "http-" })), [`${P}.port: Invalid value: "http-": ${PN_EDGE_HYPHEN}`]);
    expectFormatted(run(port({ port: "" })), [
      `${P}.port: Invalid value: "": ${PN_CHARSET}`,
      `${P}.port: Invalid value: "": ${PN_LETTER}`,
    ]);
    // "-" fails charset? no: '-' is in the charset; it lacks a letter and starts/ends with a hyphen.
    expectFormatted(run(port({ port: "-" })), [
      `${P}.port: Invalid value: "-": ${PN_LETTER}`,
      `${P}.port: Invalid value: "-": ${PN_EDGE_HYPHEN}`,
    ]);
  });

  it("endPort without port is Invalid", () => {
    expectFormatted(run(port({ endPort: 90 })), [`${P}.endPort: Invalid value: 90: ${END_NO_PORT}`]);
    expectFormatted(run(port({ protocol: "UDP", endPort: 0 })), [`${P}.endPort: Invalid value: 0: ${END_NO_PORT}`]);
  });

  it("protocol and port errors accumulate", () => {
    expectErrors(run(port({ protocol: "tcp", port: 0 })), [
      [NS, `${P}.protocol`],
      [INV, `${P}.port`],
    ]);
  });

  it("egress ports use the egress path and every index", () => {
    const errs = run({
      egress: [{}, { ports: [{ port: 80 }, { port: 53, protocol: "UDP" }, { port: 0 }] }],
    });
    expectFormatted(errs, [`spec.egress[1].ports[2].port: Invalid value: 0: ${PORT_RANGE}`]);
  });
});

describe("§7.3 peers", () => {
  it("an empty peer is Required on the peer path", () => {
    const errs = run(from({}));
    expectFormatted(errs, [`${R}: Required value: ${PEER_REQUIRED}`]);
  });

  it("an empty egress peer is Required on spec.egress[i].to[j]", () => {
    const errs = run({ egress: [{ to: [{ podSelector: {} }, {}] }] });
    expectFormatted(errs, [`spec.egress[0].to[1]: Required value: ${PEER_REQUIRED}`]);
  });

  it("ipBlock together with podSelector is Forbidden on the peer path", () => {
    const errs = run(from({ podSelector: {}, ipBlock: { cidr: "10.0.0.0/8" } }));
    expectFormatted(errs, [`${R}: Forbidden: ${PEER_BOTH}`]);
  });

  it("ipBlock together with namespaceSelector, or with both selectors: one Forbidden", () => {
    expectErrors(run(from({ namespaceSelector: {}, ipBlock: { cidr: "10.0.0.0/8" } })), [[FORB, R]]);
    expectErrors(run(from({ podSelector: {}, namespaceSelector: {}, ipBlock: { cidr: "10.0.0.0/8" } })), [[FORB, R]]);
  });

  it("the Forbidden error comes after the errors of the individual members", () => {
    const errs = run(
      from({
        podSelector: { matchExpressions: [{ key: "a", operator: "in", values: ["x"] }] },
        namespaceSelector: { matchLabels: { k: "bad value!" } },
        ipBlock: { cidr: "abc" },
      }),
    );
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual([
      `${INV} ${R}.podSelector.matchExpressions[0].operator`,
      `${INV} ${R}.namespaceSelector.matchLabels`,
      `${INV} ${B}.cidr`,
      `${FORB} ${R}`,
    ]);
  });

  it("podSelector with namespaceSelector is valid (intersection)", () => {
    expect(
      run(from({ podSelector: { matchLabels: { app: "web" } }, namespaceSelector: { matchLabels: { team: "a" } } })),
    ).toEqual([]);
  });

  it("empty selectors count as set and are valid", () => {
    expect(run(from({ podSelector: {} }))).toEqual([]);
    expect(run(from({ namespaceSelector: {} }))).toEqual([]);
    expect(run({ egress: [{ to: [{ namespaceSelector: {} }] }] })).toEqual([]);
  });

  it("every peer of every rule is checked", () => {
    const errs = run({
      ingress: [{ from: [{ podSelector: {} }] }, { from: [{ ipBlock: { cidr: "10.0.0.0/8" } }, {}] }],
      egress: [{ to: [{}] }],
    });
    expectErrors(errs, [
      [REQ, "spec.ingress[1].from[1]"],
      [REQ, "spec.egress[0].to[0]"],
    ]);
  });
});

describe("§7.4 ipBlock", () => {
  it("valid IPv4 and IPv6 blocks", () => {
    expect(run(ipb("10.0.0.0/8"))).toEqual([]);
    expect(run(ipb("192.168.0.0/16", ["192.168.1.0/24", "192.168.0.0/17", "192.168.255.255/32"]))).toEqual([]);
    expect(run(ipb("0.0.0.0/0", ["10.0.0.0/8"]))).toEqual([]);
    expect(run(ipb("fd00:192:168::/48", ["fd00:192:168:3::/64"]))).toEqual([]);
    expect(run(ipb("::/0", ["fd00::/8"]))).toEqual([]);
  });

  it("an empty cidr is Required and except is not examined", () => {
    const errs = run(ipb("", ["bad", "10.0.0.0/8"]));
    expectFormatted(errs, [`${B}.cidr: Required value`]);
  });

  it("an absent cidr (ipBlock: {}) is Required", () => {
    expectErrors(run(from({ ipBlock: {} })), [[REQ, `${B}.cidr`]]);
  });

  it("an unparseable cidr is Invalid and except is not examined", () => {
    for (const cidr of ["192.168.5.6", "fd00::", "10.0.0.0/33", "abc", "fd00::/129", "10.0.0.0/", " 10.0.0.0/8"]) {
      const errs = run(ipb(cidr, ["", "300.300.300.300/32", "11.0.0.0/8"]));
      expect(errs.map(formatFieldError), cidr).toEqual([
        `${B}.cidr: Invalid value: ${JSON.stringify(cidr)}: ${CIDR_BAD}`,
      ]);
    }
  });

  it("unparseable except entries are Invalid and the other entries are still checked", () => {
    const errs = run(ipb("192.168.0.0/16", ["", " ", "300.300.300.300/32", "192.168.1.0/24", "10.0.0.0/8"]));
    expectFormatted(errs, [
      `${B}.except[0]: Invalid value: "": ${CIDR_BAD}`,
      `${B}.except[1]: Invalid value: " ": ${CIDR_BAD}`,
      `${B}.except[2]: Invalid value: "300.300.300.300/32": ${CIDR_BAD}`,
      `${B}.except[4]: Invalid value: "10.0.0.0/8": ${STRICT_SUBSET}`,
    ]);
  });

  it("except outside cidr is not a strict subset", () => {
    expectFormatted(run(ipb("192.168.0.0/16", ["10.0.0.0/24"])), [
      `${B}.except[0]: Invalid value: "10.0.0.0/24": ${STRICT_SUBSET}`,
    ]);
  });

  it("except equal to cidr is not a strict subset", () => {
    expectFormatted(run(ipb("192.168.0.0/16", ["192.168.0.0/16"])), [
      `${B}.except[0]: Invalid value: "192.168.0.0/16": ${STRICT_SUBSET}`,
    ]);
  });

  it("except containing cidr (shorter prefix) is not a strict subset", () => {
    expectErrors(run(ipb("192.168.0.0/16", ["192.168.0.0/15"])), [[INV, `${B}.except[0]`]]);
    expectErrors(run(ipb("192.168.0.0/16", ["192.0.0.0/8"])), [[INV, `${B}.except[0]`]]);
  });

  it("except of the other IP family is not a strict subset", () => {
    expectFormatted(run(ipb("10.0.0.0/8", ["fd00::/64"])), [
      `${B}.except[0]: Invalid value: "fd00::/64": ${STRICT_SUBSET}`,
    ]);
    expectErrors(run(ipb("fd00::/8", ["10.0.0.0/16"])), [[INV, `${B}.except[0]`]]);
  });

  it("IPv6: fd00:192:168::/48 with /64 excepts inside and outside", () => {
    const errs = run(ipb("fd00:192:168::/48", ["fd00:192:168:3::/64", "fd00:192:169::/64", "fd00:192:168::/48"]));
    expectFormatted(errs, [
      `${B}.except[1]: Invalid value: "fd00:192:169::/64": ${STRICT_SUBSET}`,
      `${B}.except[2]: Invalid value: "fd00:192:168::/48": ${STRICT_SUBSET}`,
    ]);
  });

  it("legacy (default) mode accepts host bits, leading zeros and IPv4-mapped IPv6", () => {
    expect(run(ipb("10.0.0.1/8"))).toEqual([]);
    expect(run(ipb("001.002.003.000/0"))).toEqual([]);
    expect(run(ipb("::ffff:10.0.0.0/104"))).toEqual([]);
    expect(run(ipb("10.0.0.0/08"))).toEqual([]);
    // except with host bits: the subset check uses the masked network.
    expect(run(ipb("10.0.0.0/8", ["10.1.2.3/16"]))).toEqual([]);
    expect(run(ipb("10.0.0.1/8", ["10.1.0.0/16"]))).toEqual([]);
  });

  it("strict mode rejects host bits, leading zeros and IPv4-mapped IPv6 with the ip.go messages", () => {
    const strict = { featureGates: { StrictIPCIDRValidation: true } };
    expectFormatted(run(ipb("10.0.0.1/8"), strict), [`${B}.cidr: Invalid value: "10.0.0.1/8": ${STRICT_BITS}`]);
    expectFormatted(run(ipb("001.002.003.000/0"), strict), [
      `${B}.cidr: Invalid value: "001.002.003.000/0": ${STRICT_ZEROS}`,
    ]);
    expectFormatted(run(ipb("10.0.0.0/08"), strict), [`${B}.cidr: Invalid value: "10.0.0.0/08": ${STRICT_ZEROS}`]);
    expectFormatted(run(ipb("::ffff:10.0.0.0/104"), strict), [
      `${B}.cidr: Invalid value: "::ffff:10.0.0.0/104": ${STRICT_MAPPED}`,
    ]);
    // Canonical values stay valid; unparseable ones keep the generic message.
    expect(run(ipb("10.0.0.0/8", ["10.1.0.0/16"]), strict)).toEqual([]);
    expect(run(ipb("fd00:192:168::/48", ["fd00:192:168:3::/64"]), strict)).toEqual([]);
    expectFormatted(run(ipb("abc"), strict), [`${B}.cidr: Invalid value: "abc": ${CIDR_BAD}`]);
  });

  it("strict mode: a strict-format cidr error does not stop except checks (the cidr still parses)", () => {
    const strict = { featureGates: { StrictIPCIDRValidation: true } };
    const errs = run(ipb("10.0.0.1/8", ["10.1.0.1/16", "11.0.0.0/16"]), strict);
    expectFormatted(errs, [
      `${B}.cidr: Invalid value: "10.0.0.1/8": ${STRICT_BITS}`,
      `${B}.except[0]: Invalid value: "10.1.0.1/16": ${STRICT_BITS}`,
      `${B}.except[1]: Invalid value: "11.0.0.0/16": ${STRICT_SUBSET}`,
    ]);
  });
});

// ---------------------------------------------------------------------------

type Position = { readonly name: string; readonly path: string; readonly spec: (sel: JsonObject) => JsonObject };
const POSITIONS: readonly Position[] = [
  { name: "spec.podSelector", path: "spec.podSelector", spec: (s) => ({ podSelector: s }) },
  { name: "ingress podSelector", path: `${R}.podSelector`, spec: (s) => from({ podSelector: s }) },
  { name: "ingress namespaceSelector", path: `${R}.namespaceSelector`, spec: (s) => from({ namespaceSelector: s }) },
  {
    name: "egress podSelector",
    path: "spec.egress[0].to[0].podSelector",
    spec: (s) => ({ egress: [{ to: [{ podSelector: s }] }] }),
  },
  {
    name: "egress namespaceSelector",
    path: "spec.egress[0].to[0].namespaceSelector",
    spec: (s) => ({ egress: [{ to: [{ namespaceSelector: s }] }] }),
  },
];
const expr = (key: string, operator: string, values?: string[]): JsonObject => ({
  matchExpressions: [values === undefined ? { key, operator } : { key, operator, values }],
});

describe.each(POSITIONS)("§7.5 label selectors at $name", ({ path: S, spec }) => {
  const sel = (s: JsonObject) => run(spec(s));

  it("valid selectors", () => {
    expect(sel({})).toEqual([]);
    expect(sel({ matchLabels: { app: "web", "example.com/tier": "", "a.b_c-d": "X.y_z-1" } })).toEqual([]);
    expect(sel(expr("app", "In", ["a", "b"]))).toEqual([]);
    expect(sel(expr("app", "NotIn", [""]))).toEqual([]);
    expect(sel(expr("app", "Exists"))).toEqual([]);
    expect(sel(expr("example.com/app", "DoesNotExist", []))).toEqual([]);
  });

  it("matchLabels key errors are on the map path", () => {
    expectFormatted(sel({ matchLabels: { "bad key!": "v" } }), [
      `${S}.matchLabels: Invalid value: "bad key!": ${KEY_NAME_RE}`,
    ]);
  });

  it("matchLabels value errors are on the map path", () => {
    expectFormatted(sel({ matchLabels: { k: "bad value!" } }), [
      `${S}.matchLabels: Invalid value: "bad value!": ${LABEL_VALUE_RE}`,
    ]);
    const long = "a".repeat(64);
    expectFormatted(sel({ matchLabels: { k: long } }), [`${S}.matchLabels: Invalid value: "${long}": ${MAX63}`]);
  });

  it("an unknown or mis-cased operator is Invalid (not NotSupported)", () => {
    expectFormatted(sel(expr("app", "in", ["a"])), [
      `${S}.matchExpressions[0].operator: Invalid value: "in": ${OP_INVALID}`,
    ]);
  });

  it("In / NotIn without values: Required on values", () => {
    expectFormatted(sel(expr("app", "In")), [`${S}.matchExpressions[0].values: Required value: ${VALUES_REQUIRED}`]);
    expectErrors(sel(expr("app", "NotIn", [])), [[REQ, `${S}.matchExpressions[0].values`]]);
  });

  it("Exists / DoesNotExist with values: Forbidden on values", () => {
    expectFormatted(sel(expr("app", "Exists", ["a"])), [
      `${S}.matchExpressions[0].values: Forbidden: ${VALUES_FORBIDDEN}`,
    ]);
    expectErrors(sel(expr("app", "DoesNotExist", ["a"])), [[FORB, `${S}.matchExpressions[0].values`]]);
  });

  it('key "" gives two Invalid errors on key', () => {
    expectFormatted(sel(expr("", "Exists")), [
      `${S}.matchExpressions[0].key: Invalid value: "": ${KEY_NAME_EMPTY}`,
      `${S}.matchExpressions[0].key: Invalid value: "": ${KEY_NAME_RE}`,
    ]);
  });

  it("bad values are Invalid at values[v] for every operator", () => {
    const K = `${S}.matchExpressions[0]`;
    for (const op of ["In", "NotIn"]) {
      expectFormatted(sel(expr("app", op, ["ok", "bad value!"])), [
        `${K}.values[1]: Invalid value: "bad value!": ${LABEL_VALUE_RE}`,
      ]);
    }
    for (const op of ["Exists", "DoesNotExist"]) {
      expectErrors(sel(expr("app", op, ["bad value!"])), [
        [FORB, `${K}.values`],
        [INV, `${K}.values[0]`],
      ]);
    }
    expectErrors(sel(expr("app", "Foo", ["bad value!", "ok"])), [
      [INV, `${K}.operator`],
      [INV, `${K}.values[0]`],
    ]);
  });
});

describe("§7.5 label-key rule details", () => {
  const S = "spec.podSelector";
  const key = (k: string) => run({ podSelector: { matchLabels: { [k]: "v" } } });

  it("prefixed keys", () => {
    expect(key("example.com/app")).toEqual([]);
    expectFormatted(key("/app"), [`${S}.matchLabels: Invalid value: "/app": ${KEY_PREFIX_EMPTY}`]);
    expectFormatted(key("Example.com/app"), [`${S}.matchLabels: Invalid value: "Example.com/app": ${KEY_PREFIX_RE}`]);
    expectFormatted(key("example.com/"), [
      `${S}.matchLabels: Invalid value: "example.com/": ${KEY_NAME_EMPTY}`,
      `${S}.matchLabels: Invalid value: "example.com/": ${KEY_NAME_RE}`,
    ]);
  });

  it("more than one slash is one error", () => {
    expectFormatted(key("a/b/c"), [`${S}.matchLabels: Invalid value: "a/b/c": ${KEY_TOO_MANY_SLASHES}`]);
  });

  it("a 64-character name part is too long", () => {
    const k = "a".repeat(64);
    expectFormatted(key(k), [`${S}.matchLabels: Invalid value: "${k}": name part ${MAX63}`]);
  });

  it("matchExpressions errors are indexed", () => {
    const errs = run({
      podSelector: {
        matchExpressions: [
          { key: "a", operator: "Exists" },
          { key: "b", operator: "In", values: ["x", "y", "-z"] },
          { key: "c d", operator: "Exists" },
        ],
      },
    });
    expectErrors(errs, [
      [INV, "spec.podSelector.matchExpressions[1].values[2]"],
      [INV, "spec.podSelector.matchExpressions[2].key"],
    ]);
  });
});

// ---------------------------------------------------------------------------

describe("multi-error objects", () => {
  it("reports every error across podSelector, ingress, egress and policyTypes", () => {
    const errs = run({
      podSelector: { matchLabels: { "-bad": "ok" }, matchExpressions: [{ key: "k", operator: "In" }] },
      ingress: [
        {
          ports: [{ protocol: "tcp", port: "HTTP", endPort: 90 }, { port: 0 }],
          from: [{}, { ipBlock: { cidr: "10.0.0.0/8", except: ["10.0.0.0/8", "x"] }, podSelector: {} }],
        },
      ],
      egress: [{ ports: [{ endPort: 5 }], to: [{ ipBlock: { cidr: "" } }] }],
      policyTypes: ["Ingress", "Sideways"],
    });
    expectErrors(errs, [
      [INV, "spec.podSelector.matchLabels"],
      [REQ, "spec.podSelector.matchExpressions[0].values"],
      [NS, "spec.ingress[0].ports[0].protocol"],
      [INV, "spec.ingress[0].ports[0].endPort"],
      [INV, "spec.ingress[0].ports[0].port"],
      [INV, "spec.ingress[0].ports[0].port"],
      [INV, "spec.ingress[0].ports[1].port"],
      [REQ, "spec.ingress[0].from[0]"],
      [INV, "spec.ingress[0].from[1].ipBlock.except[0]"],
      [INV, "spec.ingress[0].from[1].ipBlock.except[1]"],
      [FORB, "spec.ingress[0].from[1]"],
      [INV, "spec.egress[0].ports[0].endPort"],
      [REQ, "spec.egress[0].to[0].ipBlock.cidr"],
      [NS, "spec.policyTypes[1]"],
    ]);
  });

  it("metadata and spec errors together", () => {
    const errs = validate(
      np({ ingress: [{ ports: [{ port: -5 }] }] }, { name: "Bad_Name", labels: { k: "bad value!" } }),
    );
    expectErrors(errs, [
      [INV, "metadata.name"],
      [INV, "metadata.labels"],
      [INV, `${P}.port`],
    ]);
  });
});

// ---------------------------------------------------------------------------

describe("§9 update", () => {
  const update = (
    oldSpec: JsonObject,
    newSpec: JsonObject,
    opts: Omit<ValidateOptions, "old"> = {},
    newMeta: JsonObject = {},
  ) => validate(stored(newSpec, newMeta), { ...opts, old: stored(oldSpec) });

  it("an unchanged valid object, and a valid change, have no errors", () => {
    const s = ingSpec();
    expect(update(s, s)).toEqual([]);
    expect(update(s, { ...s, policyTypes: ["Ingress", "Egress"], egress: [{}] })).toEqual([]);
  });

  it("spec errors are reported twice (ValidateNetworkPolicy + ValidateNetworkPolicyUpdate)", () => {
    const errs = update(ingSpec(), port({ port: 70000 }));
    expectFormatted(errs, [
      `${P}.port: Invalid value: 70000: ${PORT_RANGE}`,
      `${P}.port: Invalid value: 70000: ${PORT_RANGE}`,
    ]);
  });

  it("several spec errors: each one twice", () => {
    const errs = update({}, { ...from({}), policyTypes: ["Ingress", "Egress", "Egress"] });
    expectErrors(
      errs,
      twice([
        [REQ, R],
        [INV, "spec.policyTypes"],
      ]),
    );
  });

  it("metadata errors: a label error four times, an immutable name twice", () => {
    // rest.BeforeUpdate's validateCommonFields (ValidateObjectMetaAccessor + ValidateObjectMetaAccessorUpdate)
    // then the strategy's ValidateObjectMeta + ValidateObjectMetaUpdate: labels are checked by all four.
    expectErrors(update({}, {}, {}, { labels: { k: "bad value!" } }), twice(twice([[INV, "metadata.labels"]])));
    const errs = update({}, {}, {}, { name: "np2" });
    expectFormatted(errs, [
      `metadata.name: Invalid value: "np2": ${IMMUTABLE}`,
      `metadata.name: Invalid value: "np2": ${IMMUTABLE}`,
    ]);
  });

  it("the CIDR rules still run on update in legacy mode (twice)", () => {
    expectErrors(update(ingSpec(), ipb("10.0.0.0/8", ["11.0.0.0/16"])), twice([[INV, `${B}.except[0]`]]));
    expect(update(ipb("10.0.0.1/8"), ipb("10.0.0.1/8"))).toEqual([]);
  });

  describe("strict mode CIDR ratchet", () => {
    const strict = { featureGates: { StrictIPCIDRValidation: true } };

    it("a new strict-invalid CIDR is reported by both passes", () => {
      const errs = update(ipb("10.0.0.0/8"), ipb("10.0.0.1/8"), strict);
      expectFormatted(errs, [
        `${B}.cidr: Invalid value: "10.0.0.1/8": ${STRICT_BITS}`,
        `${B}.cidr: Invalid value: "10.0.0.1/8": ${STRICT_BITS}`,
      ]);
    });

    it("a CIDR string already in the old ipBlocks is reported once: the ratchet only covers the update pass", () => {
      const errs = update(ipb("10.0.0.1/8"), ipb("10.0.0.1/8"), strict);
      expectFormatted(errs, [`${B}.cidr: Invalid value: "10.0.0.1/8": ${STRICT_BITS}`]);
    });

    it("the ratchet matches strings anywhere in the old ipBlocks (cidr or except, ingress or egress)", () => {
      const old = {
        ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["010.1.0.0/16"] } }] }],
        egress: [{ to: [{ ipBlock: { cidr: "192.168.0.1/16" } }] }],
      };
      const next = {
        ingress: [{ from: [{ ipBlock: { cidr: "192.168.0.1/16", except: ["192.168.1.0/24"] } }] }],
        egress: [{ to: [{ ipBlock: { cidr: "010.1.0.0/16" } }] }],
      };
      expectFormatted(update(old, next, strict), [
        `${B}.cidr: Invalid value: "192.168.0.1/16": ${STRICT_BITS}`,
        `spec.egress[0].to[0].ipBlock.cidr: Invalid value: "010.1.0.0/16": ${STRICT_ZEROS}`,
      ]);
    });

    it("the ratchet compares exact strings: an equivalent spelling is new", () => {
      const errs = update(ipb("10.0.0.1/8"), ipb("10.0.0.01/8"), strict);
      expectErrors(errs, twice([[INV, `${B}.cidr`]]));
    });

    it("the strict-subset check still runs on ratcheted values", () => {
      const errs = update(ipb("10.0.0.1/8", ["10.0.0.1/8"]), ipb("10.0.0.1/8", ["10.0.0.1/8"]), strict);
      // pass 1: cidr bits, except bits, except subset; pass 2: except subset only.
      expectFormatted(errs, [
        `${B}.cidr: Invalid value: "10.0.0.1/8": ${STRICT_BITS}`,
        `${B}.except[0]: Invalid value: "10.0.0.1/8": ${STRICT_BITS}`,
        `${B}.except[0]: Invalid value: "10.0.0.1/8": ${STRICT_SUBSET}`,
        `${B}.except[0]: Invalid value: "10.0.0.1/8": ${STRICT_SUBSET}`,
      ]);
    });
  });

  describe("selector-value ratchet", () => {
    const badPodSelector = { podSelector: expr("app", "In", ["bad value!"]) };

    it("on create, bad selector values are reported", () => {
      expectErrors(run(badPodSelector), [[INV, "spec.podSelector.matchExpressions[0].values[0]"]]);
    });

    it("old top-level podSelector invalid: value errors are skipped everywhere in the new object", () => {
      expect(update(badPodSelector, badPodSelector)).toEqual([]);
      const next = {
        podSelector: expr("app", "In", ["other bad!"]),
        ingress: [{ from: [{ podSelector: expr("a", "NotIn", ["bad!"]), namespaceSelector: expr("b", "In", ["@"]) }] }],
        egress: [{ to: [{ namespaceSelector: expr("c", "In", ["bad!"]) }] }],
      };
      expect(update(badPodSelector, next)).toEqual([]);
    });

    it("any error in the old top-level podSelector enables it, not only value errors", () => {
      const old = { podSelector: { matchLabels: { "bad key!": "v" } } };
      expect(update(old, { podSelector: expr("app", "In", ["bad value!"]) })).toEqual([]);
    });

    it("the ratchet skips only values: other selector errors are still reported (twice)", () => {
      const next = { podSelector: { matchExpressions: [{ key: "app", operator: "in", values: ["bad value!"] }] } };
      expectErrors(update(badPodSelector, next), twice([[INV, "spec.podSelector.matchExpressions[0].operator"]]));
    });

    it("does NOT apply when only old peer selectors were invalid", () => {
      const peerBad = from({ podSelector: expr("app", "In", ["bad value!"]) });
      expectErrors(update(peerBad, peerBad), twice([[INV, `${R}.podSelector.matchExpressions[0].values[0]`]]));
    });

    it("does not apply when the old podSelector was valid", () => {
      expectErrors(
        update({ podSelector: {} }, badPodSelector),
        twice([[INV, "spec.podSelector.matchExpressions[0].values[0]"]]),
      );
    });
  });

  it("NetworkPolicy has no status subresource", () => {
    expect(() => validate(stored({}), { old: stored({}), subresource: "status" })).toThrow(TypeError);
  });
});

function ingSpec(): JsonObject {
  return {
    podSelector: { matchLabels: { app: "db" } },
    ingress: [
      { from: [{ namespaceSelector: { matchLabels: { team: "a" } } }], ports: [{ protocol: "TCP", port: 5432 }] },
    ],
    policyTypes: ["Ingress"],
  };
}

// ---------------------------------------------------------------------------

// §8 (defaulting) is in defaults.test.ts, at applyDefaults' mirrored path.

// ---------------------------------------------------------------------------

describe("§11 traps", () => {
  it("no Duplicate errors anywhere, even with repeated entries", () => {
    const errs = run({
      policyTypes: ["Ingress", "Ingress"],
      ingress: [
        { ports: [{ port: 80 }, { port: 80 }], from: [{ podSelector: {} }, { podSelector: {} }] },
        { ports: [{ port: 80 }] },
      ],
      podSelector: {
        matchExpressions: [
          { key: "a", operator: "Exists" },
          { key: "a", operator: "Exists" },
        ],
        matchLabels: { a: "b" },
      },
    });
    expect(errs).toEqual([]);
    const bad = run({
      ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16", "10.1.0.0/16"] } }] }],
    });
    expect(bad).toEqual([]);
  });

  it("label-selector operator errors are Invalid, never NotSupported", () => {
    const errs = run({ podSelector: expr("a", "Equals", ["x"]) });
    expect(errs.map((e) => e.type)).toEqual([INV]);
  });

  it("CIDRs with host bits are accepted by default", () => {
    expect(run({ egress: [{ to: [{ ipBlock: { cidr: "192.168.1.77/24", except: ["192.168.1.128/25"] } }] }] })).toEqual(
      [],
    );
  });

  it("early exits: only the documented ones", () => {
    // Empty and unparseable cidr stop the ipBlock; too many policyTypes stops the entries.
    expectErrors(run(ipb("", ["x"])), [[REQ, `${B}.cidr`]]);
    expectErrors(run(ipb("x", ["y"])), [[INV, `${B}.cidr`]]);
    // Everything else accumulates: protocol + port + endPort in one port entry.
    expectErrors(run(port({ protocol: "tcp", port: 8080, endPort: 0 })), [
      [NS, `${P}.protocol`],
      [INV, `${P}.endPort`],
      [INV, `${P}.endPort`],
    ]);
  });
});

describe("the valid-rule fast check", () => {
  // ruleIsValid lets a valid rule skip validateRule: whenever it says valid,
  // the full rule reports nothing, and without ipBlock peers it says valid
  // exactly then; labelSelectorIsValid likewise for selectors.
  const RUNS = propertyRuns(3000);
  const text = fc.oneof(
    fc.string({ unit: fc.constantFrom(..."ab9Z-._/%".split(""), "é"), maxLength: 8 }),
    fc.constantFrom("", "app", "app.kubernetes.io/name", "a".repeat(63), "a".repeat(64), "http", "web-1"),
  );
  const labels = fc.dictionary(text, text, { maxKeys: 3 });
  const requirement = fc.record({
    key: text,
    operator: fc.constantFrom("In", "NotIn", "Exists", "DoesNotExist", "", "Bad"),
    values: fc.array(text, { maxLength: 2 }),
  });
  const selector = fc.option(
    fc.record({ matchLabels: labels, matchExpressions: fc.array(requirement, { maxLength: 2 }) }),
    { nil: undefined },
  );
  const port = fc.record(
    {
      protocol: fc.constantFrom("TCP", "UDP", "SCTP", "", "tcp"),
      port: fc.oneof(
        fc.record({ type: fc.constant(0n), intVal: fc.integer({ min: -1, max: 65537 }) }),
        fc.record({ type: fc.constant(1n), strVal: text }),
      ),
      endPort: fc.integer({ min: -1, max: 65537 }),
    },
    { requiredKeys: [] },
  );
  const peer = fc.record(
    {
      podSelector: selector,
      namespaceSelector: selector,
      ipBlock: fc.record({
        cidr: fc.constantFrom("", "10.0.0.0/8", "10.0.0.1/8", "010.0.0.0/8", "2001:db8::/32", "nope", "10.0.0.0"),
        except: fc.array(fc.constantFrom("10.1.0.0/16", "10.0.0.0/8", "11.0.0.0/16", "2001:db8:1::/48", "x", ""), {
          maxLength: 2,
        }),
      }),
    },
    { requiredKeys: [] },
  );
  const strip = (o: object): object => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

  it("agrees with validateRule", () => {
    fc.assert(
      fc.property(
        fc.array(port, { maxLength: 2 }),
        fc.array(peer, { maxLength: 2 }),
        fc.boolean(),
        fc.boolean(),
        (ports, peers, allowInvalid, strict) => {
          const rule = create(NetworkPolicyIngressRuleSchema, { ports, from: peers.map(strip) } as never);
          const options = {
            allowInvalidLabelValueInSelector: allowInvalid,
            allowCIDRs: [],
            strictIPCIDRValidation: false,
            endPortErrorShowsEndPort: false,
          };
          const errs: FieldError[] = [];
          validateRule(rule.ports, rule.from, "from", options, FieldPath.root("r"), errs);
          const fast = ruleIsValid(rule.ports, rule.from, options);
          if (fast) expect(errs).toEqual([]);
          if (!strict || rule.from.every((p) => p.ipBlock === undefined)) expect(fast).toBe(errs.length === 0);
          for (const p of rule.from) {
            const s = p.podSelector;
            const serrs: FieldError[] = [];
            validateLabelSelector(s, options, FieldPath.root("p"), "podSelector", serrs);
            expect(labelSelectorIsValid(s, options)).toBe(serrs.length === 0);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("takes the fast path for a plain valid rule", () => {
    const rule = create(NetworkPolicyIngressRuleSchema, {
      ports: [{ protocol: "TCP", port: { type: 0n, intVal: 80 } }],
      from: [
        { podSelector: { matchLabels: { "app.kubernetes.io/name": "web" } } },
        { ipBlock: { cidr: "10.0.0.0/8", except: ["10.96.0.0/12"] } },
      ],
    });
    const options = {
      allowInvalidLabelValueInSelector: false,
      allowCIDRs: [],
      strictIPCIDRValidation: false,
      endPortErrorShowsEndPort: false,
    };
    expect(ruleIsValid(rule.ports, rule.from, options)).toBe(true);
  });
});
