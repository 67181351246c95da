// clusterwire/testing's arbitraries held to fast-check's own quality checks:
// the same values for the same seed, every value within its contract, and
// shrinking that stays within the contract and makes counterexamples smaller.
// Contracts come from the rules (../shared/docs/validation-rules.md, regexes
// written here from it), from ip-num for addresses, and, for whole objects,
// from validate(), whose own catalogue tests hold it to the API server.

import ipnum from "ip-num";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  IngressSpecSchema,
  createPolicyEngine,
  createRouter,
  decode,
  encode,
  fromJson,
  toJsonString,
  validate,
  type IngressSpec,
  type JsonObject,
  type NetworkingObject,
} from "../../src/networking/index.js";
import * as kit from "../../src/testing/index.js";
import { parseNetwork } from "../../src/testing/addresses.js";
import * as storageKit from "../../src/testing/storage/index.js";
import { checkArbitraryQuality, jsonSize, type Contract } from "./quality.js";

// ------------------------------------------------------------ contracts written from the rules

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const IPV4_DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

const isLabel = (s: string): boolean => s.length <= 63 && DNS1123_LABEL.test(s);
const isSubdomain = (s: string, max = 253): boolean => s.length <= max && DNS1123_SUBDOMAIN.test(s);
const isQualifiedName = (s: string): boolean => {
  const slash = s.indexOf("/");
  const name = slash < 0 ? s : s.slice(slash + 1);
  if (slash >= 0 && !isSubdomain(s.slice(0, slash))) return false;
  return name.length <= 63 && QUALIFIED_NAME.test(name);
};
const isLabelValue = (s: string): boolean => s === "" || (s.length <= 63 && QUALIFIED_NAME.test(s));
const isIPv4Text = (s: string): boolean => {
  const m = IPV4_DOTTED.exec(s);
  if (m === null) return false;
  return m.slice(1).every((p) => Number(p) <= 255);
};
/** IANA service name (IsValidPortName). */
const isPortName = (s: string): boolean =>
  s.length >= 1 &&
  s.length <= 15 &&
  /^[-a-z0-9]+$/.test(s) &&
  /[a-z]/.test(s) &&
  !s.includes("--") &&
  !s.startsWith("-") &&
  !s.endsWith("-");
/** What Exact and Prefix paths must avoid (../shared/docs/validation-rules.md §5.3). */
const isExactOrPrefixPath = (s: string): boolean =>
  s.startsWith("/") &&
  !["//", "/./", "/../", "%2f", "%2F"].some((bad) => s.includes(bad)) &&
  !s.endsWith("/..") &&
  !s.endsWith("/.");

/** Canonical text as ip-num writes it, for an address ip-num parses independently. */
function ipNumCanonical(text: string): string | null {
  if (text.includes(":")) {
    const [ok] = ipnum.Validator.isValidIPv6String(text);
    return ok ? new ipnum.IPv6(text).toString() : null;
  }
  const [ok] = ipnum.Validator.isValidIPv4String(text);
  return ok ? new ipnum.IPv4(text).toString() : null;
}

/** RFC 5952 form of an ip-num IPv6 (it writes every group in full). */
function compressV6(full: string): string {
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

function isCanonicalIP(s: string): boolean {
  const c = ipNumCanonical(s);
  if (c === null) return false;
  // IPv4-mapped IPv6 (::ffff:0:0/96) is refused by strict validation.
  return s.includes(":") ? compressV6(c) === s && !c.startsWith("0:0:0:0:0:ffff:") : c === s;
}

function isCanonicalCidr(s: string): boolean {
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
const wireStable: Contract<NetworkingObject> = (o) => {
  const bytes = encode(o);
  return Buffer.compare(Buffer.from(encode(decode(bytes))), Buffer.from(bytes)) === 0;
};

/** JSON-carried: the JSON text reads back to the same bytes. */
const jsonStable: Contract<NetworkingObject> = (o) =>
  Buffer.compare(Buffer.from(encode(fromJson(toJsonString(o)))), Buffer.from(encode(o))) === 0;

/** A valid object: no errors on create, nor as an update of itself once stored (resourceVersion and namespace set). */
const validJson: Contract<JsonObject> = (json) => {
  expect(validate(fromJson(json))).toEqual([]);
  const stored = structuredClone(json) as Record<string, Record<string, unknown>>;
  const metadata: Record<string, unknown> = { ...stored["metadata"], resourceVersion: "12345" };
  if ((json["kind"] === "Ingress" || json["kind"] === "NetworkPolicy") && metadata["namespace"] === undefined)
    metadata["namespace"] = "default";
  const o = fromJson({ ...stored, metadata } as JsonObject);
  expect(validate(o, { old: o })).toEqual([]);
};

/** A fragment is valid when it validates clean inside an otherwise minimal valid object. */
function validInside(wrap: (fragment: unknown) => JsonObject): Contract<unknown> {
  return (fragment) => {
    expect(validate(fromJson(wrap(fragment)))).toEqual([]);
  };
}

const policyWith = (spec: Record<string, unknown>): JsonObject =>
  ({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "p", namespace: "ns" },
    spec: { podSelector: {}, ...spec },
  }) as JsonObject;
const ingressWith = (spec: Record<string, unknown>): JsonObject =>
  ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "i", namespace: "ns" },
    spec,
  }) as JsonObject;
const backend = { service: { name: "svc", port: { number: 80 } } };

/**
 * Every Ingress validates on its own, so the router skips only repeated
 * namespace/name pairs, which the small name vocabulary makes on purpose.
 */
const routable: Contract<kit.RoutingInput> = (input) => {
  for (const ing of input.ingresses) expect(validate(ing)).toEqual([]);
  for (const s of createRouter(input).skipped) expect(s.errors.map((e) => e.type)).toEqual(["FieldValueDuplicate"]);
};

// ------------------------------------------------------------ the catalogue

interface Entry {
  readonly name: string;
  readonly arb: fc.Arbitrary<unknown>;
  readonly contract: Contract<never>;
  readonly size?: (v: never) => number;
  readonly runs?: number;
  readonly seeds?: number[];
}

const entry = <T>(
  name: string,
  arb: fc.Arbitrary<T>,
  contract: Contract<T>,
  extra: { size?: (v: T) => number; runs?: number; seeds?: number[] } = {},
): Entry => ({ name, arb, contract, ...extra }) as unknown as Entry;

const INT32 = 2 ** 31;
const INT64 = 2n ** 63n;

const ENTRIES: Entry[] = [
  // any shape
  entry("arbString", kit.arbString(), (s) => typeof s === "string" && Buffer.from(s, "utf8").toString("utf8") === s),
  entry("arbInt32", kit.arbInt32(), (n) => Number.isInteger(n) && n >= -INT32 && n < INT32, { size: Math.abs }),
  entry("arbInt64", kit.arbInt64(), (n) => typeof n === "bigint" && n >= -INT64 && n < INT64, {
    size: (n) => Number(n < 0n ? -n : n),
  }),
  entry("arbFieldsV1Text", kit.arbFieldsV1Text(), (t) => {
    const v: unknown = JSON.parse(t);
    return v !== null && typeof v === "object" && !Array.isArray(v) && JSON.stringify(v) === t;
  }),
  entry("arbObject", kit.arbObject(), wireStable, { runs: 100, size: (o) => encode(o).length, seeds: [1, 2] }),
  entry(
    "arbMessage(IngressSpec)",
    kit.arbMessage<IngressSpec>(IngressSpecSchema),
    (m) => equals(IngressSpecSchema, fromBinary(IngressSpecSchema, toBinary(IngressSpecSchema, m)), m),
    {
      size: (m) => toBinary(IngressSpecSchema, m).length,
    },
  ),
  entry(
    "arbObject({ json: true })",
    kit.arbObject({ json: true }),
    (o) => wireStable(o) !== false && jsonStable(o) !== false,
    {
      runs: 100,
      seeds: [1, 2],
      size: (o) => encode(o).length,
    },
  ),
  ...kit.NETWORKING_KINDS.filter((k) => k.endsWith("List")).map((k) =>
    entry(`arbObjectOf(${k})`, kit.arbObjectOf(k), (o) => wireStable(o) !== false && o.$typeName.endsWith(k), {
      runs: 30,
      size: (o) => encode(o).length,
      seeds: [1],
    }),
  ),
  // building blocks
  entry("arbDns1123Label", kit.arbDns1123Label(), isLabel),
  entry("arbDns1035Label", kit.arbDns1035Label(), (s) => s.length <= 63 && DNS1035_LABEL.test(s)),
  entry("arbDns1123Subdomain", kit.arbDns1123Subdomain(), (s) => isSubdomain(s)),
  entry(
    "arbWildcardHost",
    kit.arbWildcardHost(),
    (s) => s.startsWith("*.") && s.length <= 253 && isSubdomain(s.slice(2)),
  ),
  entry("arbDnsHost", kit.arbDnsHost(), (s) => isSubdomain(s) && !isIPv4Text(s)),
  entry("arbIngressHost", kit.arbIngressHost(), (s) =>
    s.startsWith("*.") ? isSubdomain(s.slice(2), 251) : isSubdomain(s) && !isIPv4Text(s),
  ),
  entry("arbLabelName", kit.arbLabelName(), (s) => s.length <= 63 && QUALIFIED_NAME.test(s)),
  entry("arbLabelKey", kit.arbLabelKey(), isQualifiedName),
  entry("arbLabelValue", kit.arbLabelValue(), isLabelValue),
  entry("arbAnnotationValue", kit.arbAnnotationValue(), (s) => typeof s === "string"),
  entry("arbAnnotations", kit.arbAnnotations(), (m) => Object.keys(m).every((k) => isQualifiedName(k.toLowerCase()))),
  entry("arbAnnotationKey", kit.arbAnnotationKey(), (s) => isQualifiedName(s.toLowerCase())),
  entry("arbLabels", kit.arbLabels(), (m) =>
    Object.entries(m).every(([k, v]) => isQualifiedName(k) && isLabelValue(v)),
  ),
  entry("arbPortNumber", kit.arbPortNumber(), (n) => Number.isInteger(n) && n >= 1 && n <= 65535, { size: (n) => n }),
  entry(
    "arbPortRange",
    kit.arbPortRange(),
    ([a, b]) => Number.isInteger(a) && Number.isInteger(b) && a >= 1 && a <= b && b <= 65535,
    { size: ([a, b]) => a + b },
  ),
  entry("arbPortName", kit.arbPortName(), isPortName),
  entry("arbAbsolutePath", kit.arbAbsolutePath(), isExactOrPrefixPath),
  entry(
    "arbPathSegmentName",
    kit.arbPathSegmentName(),
    (s) => s !== "" && s !== "." && s !== ".." && !s.includes("/") && !s.includes("%"),
  ),
  entry("arbImplementationSpecificPath", kit.arbImplementationSpecificPath(), (s) => s === "" || s.startsWith("/")),
  entry("arbCanonicalIP", kit.arbCanonicalIP(), isCanonicalIP),
  entry("arbCanonicalIP(6)", kit.arbCanonicalIP(6), (s) => s.includes(":") && isCanonicalIP(s)),
  entry(
    "arbIPValue",
    kit.arbIPValue(),
    (v) =>
      (v.family === 4 ? v.address < 2n ** 32n : v.address < 2n ** 128n && v.address >> 32n !== 0xffffn) &&
      v.address >= 0n,
    {
      size: (v) => v.address.toString().length,
    },
  ),
  entry("arbCanonicalCidr", kit.arbCanonicalCidr(), isCanonicalCidr),
  entry("arbIPNet", kit.arbIPNet(), (n) => isCanonicalCidr(kit.formatCidr(n)), {
    size: (n) => kit.formatCidr(n).length,
  }),
  entry("arbLegacyOnlyCidr", kit.arbLegacyOnlyCidr(), (s) => {
    // Accepted by the default API server, refused with StrictIPCIDRValidation.
    const p = fromJson(policyWith({ ingress: [{ from: [{ ipBlock: { cidr: s } }] }] }));
    expect(validate(p)).toEqual([]);
    expect(validate(p, { featureGates: { StrictIPCIDRValidation: true } }).length).toBeGreaterThan(0);
  }),
  entry(
    "arbIPBlock",
    kit.arbIPBlock(),
    validInside((b) => policyWith({ ingress: [{ from: [{ ipBlock: b }] }] })),
  ),
  entry(
    "arbLabelSelector",
    kit.arbLabelSelector(),
    validInside((s) => policyWith({ podSelector: s })),
  ),
  entry(
    "arbLabelSelectorRequirement",
    kit.arbLabelSelectorRequirement(),
    validInside((r) => policyWith({ podSelector: { matchExpressions: [r] } })),
  ),
  entry("arbControllerName", kit.arbControllerName(), (s) => {
    const slash = s.indexOf("/");
    return s.length <= 250 && slash > 0 && isSubdomain(s.slice(0, slash)) && slash < s.length - 1;
  }),
  entry(
    "arbIngressBackend",
    kit.arbIngressBackend(),
    validInside((b) => ingressWith({ defaultBackend: b })),
  ),
  entry(
    "arbHttpIngressPath",
    kit.arbHttpIngressPath(),
    validInside((p) => ingressWith({ rules: [{ host: "a.example.com", http: { paths: [p] } }] })),
  ),
  entry(
    "arbIngressRule",
    kit.arbIngressRule(),
    validInside((r) => ingressWith({ rules: [r] })),
  ),
  entry(
    "arbIngressTLS",
    kit.arbIngressTLS(),
    validInside((t) => ingressWith({ defaultBackend: backend, tls: [t] })),
  ),
  entry(
    "arbNetworkPolicyPort",
    kit.arbNetworkPolicyPort(),
    validInside((p) => policyWith({ ingress: [{ ports: [p] }] })),
  ),
  entry(
    "arbNetworkPolicyPeer",
    kit.arbNetworkPolicyPeer(),
    validInside((p) => policyWith({ egress: [{ to: [p] }], policyTypes: ["Egress"] })),
  ),
  entry(
    "arbObjectMeta",
    kit.arbObjectMeta({ namespaced: true }),
    validInside((m) => ({ ...ingressWith({ defaultBackend: backend }), metadata: m }) as JsonObject),
  ),
  // valid by construction
  ...kit.VALIDATED_KINDS.map((k) =>
    entry(`arbValidJson(${k})`, kit.arbValidJson(k), (j) => j["kind"] === k && validJson(j) !== false, {
      runs: 60,
      seeds: [1, 2],
    }),
  ),
  entry("arbAnyValidJson", kit.arbAnyValidJson(), validJson, { runs: 60, seeds: [1] }),
  entry(
    "arbValidObject",
    kit.arbValidObject("Ingress"),
    (o) => {
      expect(validate(o)).toEqual([]);
    },
    { runs: 60, seeds: [1] },
  ),
  // targeted invalid: exactly the one error
  ...kit.VALIDATED_KINDS.map((k) =>
    entry(
      `arbTargetedInvalid(${k})`,
      kit.arbTargetedInvalid(k),
      (t) => {
        expect(t.kind).toBe(k);
        expect(validate(t.object).map((e) => ({ type: e.type, field: e.field }))).toEqual([t.expected]);
      },
      { runs: 60, size: (t) => jsonSize(t.json), seeds: [1, 2] },
    ),
  ),
  // ... and for 1.37: built on objects valid for 1.37, never a name its relaxed rule admits
  ...kit.VALIDATED_KINDS.map((k) =>
    entry(
      `arbTargetedInvalid(${k}, { version: "1.37" })`,
      kit.arbTargetedInvalid(k, { version: "1.37" }),
      (t) => {
        expect(t.kind).toBe(k);
        expect(validate(t.object, { version: "1.37" }).map((e) => ({ type: e.type, field: e.field }))).toEqual([
          t.expected,
        ]);
      },
      { runs: 60, size: (t) => jsonSize(t.json), seeds: [1, 2] },
    ),
  ),
  // evaluator inputs
  entry(
    "arbCluster",
    kit.arbCluster(),
    (c) => {
      for (const p of c.policies) expect(validate(p)).toEqual([]);
      const keys = c.pods.map((p) => `${p.namespace}/${p.name}`);
      expect(new Set(keys).size).toBe(keys.length);
      createPolicyEngine(c);
    },
    { runs: 100 },
  ),
  entry(
    "arbClusterPair",
    kit.arbClusterPair(),
    (c) => {
      for (const p of c.otherPolicies) expect(validate(p)).toEqual([]);
      createPolicyEngine({ ...c, policies: c.otherPolicies });
    },
    { runs: 60 },
  ),
  entry("arbRoutingInputJson", kit.arbRoutingInputJson(), (j) => routable(kit.toRouterInput(j)), { runs: 100 }),
  entry("arbRouterInput", kit.arbRouterInput(kit.LARGE_ROUTING), routable, {
    runs: 30,
    size: (input) => input.ingresses.length,
  }),
  entry(
    "arbAdmissionCase",
    kit.arbAdmissionCase(),
    (c) => {
      const errors = validate(c.object).map((e) => ({ type: e.type, field: e.field }));
      expect(errors).toEqual(c.expected === null ? [] : [c.expected]);
      expect(c.mutation === null).toBe(c.expected === null);
    },
    { runs: 150, size: (c) => jsonSize(c.json) },
  ),
  entry("arbRouteRequest", kit.arbRouteRequest(), (r) => typeof r.host === "string" && typeof r.path === "string"),
];

describe("clusterwire/testing arbitraries pass fast-check's quality checks", () => {
  for (const e of ENTRIES) {
    it(e.name, () => {
      const options = {
        contract: e.contract,
        ...(e.size !== undefined ? { size: e.size } : {}),
        ...(e.runs !== undefined ? { runs: e.runs } : {}),
        ...(e.seeds !== undefined ? { shrinkSeeds: e.seeds } : {}),
      };
      checkArbitraryQuality(e.arb as fc.Arbitrary<never>, options);
    });
  }

  it("arbConnection: connections into the cluster they were drawn for, always evaluable", () => {
    const arb = kit
      .arbCluster()
      .chain((c) => fc.tuple(fc.constant(c), fc.array(kit.arbConnection(c), { minLength: 1, maxLength: 5 })));
    checkArbitraryQuality(arb, {
      contract: ([c, conns]) => {
        const engine = createPolicyEngine(c);
        const pods = new Set(c.pods.map((p) => `${p.namespace}/${p.name}`));
        for (const conn of conns) {
          for (const end of [conn.from, conn.to]) if ("pod" in end) expect(pods.has(end.pod)).toBe(true);
          // Named ports always resolve, so evaluate never refuses the input.
          engine.evaluate(conn);
        }
      },
      runs: 60,
    });
  });

  it("arbIPBlock keeps IPv4-mapped excepts out of plain IPv6 cidrs, which the API server refuses", () => {
    // Go reads ::ffff:0:0/96 as an IPv4 network, and IPNet.Contains is false across the two
    // address lengths, so that except is not a subset of ::/80 (found by a CI-style random seed).
    const refused = fromJson(
      policyWith({ ingress: [{ from: [{ ipBlock: { cidr: "::/80", except: ["::ffff:0:0/96"] } }] }] }),
    );
    expect(validate(refused).map((e) => e.field)).toEqual(["spec.ingress[0].from[0].ipBlock.except[0]"]);
    // The bad pairs are rare (2 in 200,000 before the fix, with this seed), so check every
    // generated block's shape directly rather than through validate().
    // The kit's parser reads addresses as Go does, so a mapped except parses as family 4.
    const family = (text: string) => parseNetwork(text)?.family;
    const bad = fc
      .sample(kit.arbIPBlock({ family: 6 }), { numRuns: 200_000, seed: 7 })
      .filter((b) => (b["except"] as string[] | undefined)?.some((x) => family(x) !== family(b["cidr"] as string)));
    expect(bad).toEqual([]);
  });

  it("every exported arbitrary factory is in the catalogue above", () => {
    const covered = new Set(ENTRIES.map((e) => e.name.replace(/\(.*$/, "")));
    covered.add("arbConnection");
    // arbValidJson(kind) returns exactly these, so its entries check them.
    for (const same of [
      "arbIngressJson",
      "arbIngressClassJson",
      "arbNetworkPolicyJson",
      "arbIPAddressJson",
      "arbServiceCIDRJson",
    ])
      covered.add(same);
    // storage.test.ts holds the storage arbitraries to the same checks.
    for (const k of Object.keys(storageKit)) covered.add(k);
    const missing = Object.keys(kit).filter((k) => k.startsWith("arb") && !covered.has(k));
    expect(missing).toEqual([]);
  });
});
