// The contracts the testing kit's arbitraries are held to (arbitraries.test.ts and the tests of
// each module): regexes and predicates written here from the rules
// (../shared/docs/validation-rules.md), ip-num for addresses, and for whole objects validate(),
// whose own catalogue tests hold it to the API server.

import ipnum from "ip-num";
import { expect } from "vitest";
import {
  createRouter,
  decode,
  encode,
  fromJson,
  toJsonString,
  validate,
  type JsonObject,
  type NetworkingObject,
} from "../../src/networking/index.js";
import type { RoutingInput } from "../../src/testing/index.js";
import type { Contract } from "./quality.js";

export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
export const IPV4_DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export const isLabel = (s: string): boolean => s.length <= 63 && DNS1123_LABEL.test(s);
export const isSubdomain = (s: string, max = 253): boolean => s.length <= max && DNS1123_SUBDOMAIN.test(s);
export const isQualifiedName = (s: string): boolean => {
  const slash = s.indexOf("/");
  const name = slash < 0 ? s : s.slice(slash + 1);
  if (slash >= 0 && !isSubdomain(s.slice(0, slash))) return false;
  return name.length <= 63 && QUALIFIED_NAME.test(name);
};
export const isLabelValue = (s: string): boolean => s === "" || (s.length <= 63 && QUALIFIED_NAME.test(s));
export const isIPv4Text = (s: string): boolean => {
  const m = IPV4_DOTTED.exec(s);
  if (m === null) return false;
  return m.slice(1).every((p) => Number(p) <= 255);
};
/** IANA service name (IsValidPortName). */
export const isPortName = (s: string): boolean =>
  s.length >= 1 &&
  s.length <= 15 &&
  /^[-a-z0-9]+$/.test(s) &&
  /[a-z]/.test(s) &&
  !s.includes("--") &&
  !s.startsWith("-") &&
  !s.endsWith("-");
/** What Exact and Prefix paths must avoid (../shared/docs/validation-rules.md §5.3). */
export const isExactOrPrefixPath = (s: string): boolean =>
  s.startsWith("/") &&
  !["//", "/./", "/../", "%2f", "%2F"].some((bad) => s.includes(bad)) &&
  !s.endsWith("/..") &&
  !s.endsWith("/.");

/** Canonical text as ip-num writes it, for an address ip-num parses independently. */
export function ipNumCanonical(text: string): string | null {
  if (text.includes(":")) {
    const [ok] = ipnum.Validator.isValidIPv6String(text);
    return ok ? new ipnum.IPv6(text).toString() : null;
  }
  const [ok] = ipnum.Validator.isValidIPv4String(text);
  return ok ? new ipnum.IPv4(text).toString() : null;
}

/** RFC 5952 form of an ip-num IPv6 (it writes every group in full). */
export function compressV6(full: string): string {
  const groups = full.split(":").map((g) => parseInt(g, 16).toString(16));
  let best = -1;
  let len = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > len) [best, len] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (len < 2) return groups.join(":");
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + len).join(":")}`;
}

export function isCanonicalIP(s: string): boolean {
  const c = ipNumCanonical(s);
  if (c === null) return false;
  // IPv4-mapped IPv6 (::ffff:0:0/96) is refused by strict validation.
  return s.includes(":") ? compressV6(c) === s && !c.startsWith("0:0:0:0:0:ffff:") : c === s;
}

export function isCanonicalCidr(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const prefix = Number(s.slice(slash + 1));
  if (!isCanonicalIP(addr)) return false;
  const v6 = addr.includes(":");
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > (v6 ? 128 : 32)) return false;
  // Canonical: no host bits set.
  const first = v6
    ? ipnum.IPv6CidrRange.fromCidr(s).getFirst().getValue()
    : ipnum.IPv4CidrRange.fromCidr(s).getFirst().getValue();
  return first === (v6 ? new ipnum.IPv6(addr).getValue() : new ipnum.IPv4(addr).getValue());
}

/** Wire-valid: what encode writes decodes to an object that encodes to the same bytes. */
export const wireStable: Contract<NetworkingObject> = (o) => {
  const bytes = encode(o);
  return Buffer.compare(Buffer.from(encode(decode(bytes))), Buffer.from(bytes)) === 0;
};

/** JSON-carried: the JSON text reads back to the same bytes. */
export const jsonStable: Contract<NetworkingObject> = (o) =>
  Buffer.compare(Buffer.from(encode(fromJson(toJsonString(o)))), Buffer.from(encode(o))) === 0;

/** A valid object: no errors on create, nor as an update of itself once stored (resourceVersion and namespace set). */
export const validJson: Contract<JsonObject> = (json) => {
  expect(validate(fromJson(json))).toEqual([]);
  const stored = structuredClone(json) as Record<string, Record<string, unknown>>;
  const metadata: Record<string, unknown> = { ...stored["metadata"], resourceVersion: "12345" };
  if ((json["kind"] === "Ingress" || json["kind"] === "NetworkPolicy") && metadata["namespace"] === undefined)
    metadata["namespace"] = "default";
  const o = fromJson({ ...stored, metadata } as JsonObject);
  expect(validate(o, { old: o })).toEqual([]);
};

/** A fragment is valid when it validates clean inside an otherwise minimal valid object. */
export function validInside(wrap: (fragment: unknown) => JsonObject): Contract<unknown> {
  return (fragment) => {
    expect(validate(fromJson(wrap(fragment)))).toEqual([]);
  };
}

export const policyWith = (spec: Record<string, unknown>): JsonObject =>
  ({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "p", namespace: "ns" },
    spec: { podSelector: {}, ...spec },
  }) as JsonObject;
export const ingressWith = (spec: Record<string, unknown>): JsonObject =>
  ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "i", namespace: "ns" },
    spec,
  }) as JsonObject;
export const backend = { service: { name: "svc", port: { number: 80 } } };

/**
 * Every Ingress validates on its own, so the router skips only repeated
 * namespace/name pairs, which the small name vocabulary makes on purpose.
 */
export const routable: Contract<RoutingInput> = (input) => {
  for (const ing of input.ingresses) expect(validate(ing)).toEqual([]);
  for (const s of createRouter(input).skipped) expect(s.errors.map((e) => e.type)).toEqual(["FieldValueDuplicate"]);
};
