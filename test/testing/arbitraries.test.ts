// clusterwire/testing's arbitraries held to fast-check's own quality checks:
// the same values for the same seed, every value within its contract, and
// shrinking that stays within the contract and makes counterexamples smaller.
// The contracts are in contracts.ts. The building blocks and the clusters are
// checked by their own modules' tests (building-blocks/, clusters/); this
// catalogue holds the rest, and checks that every arbitrary the kit exports is
// checked somewhere.

import { describe, expect, it } from "vitest";
import { equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { IngressSpecSchema, encode, validate, type IngressSpec, type JsonObject } from "../../src/networking/index.js";
import * as kit from "../../src/testing/index.js";
import * as ip from "../../src/testing/building-blocks/ip.js";
import * as cluster from "../../src/testing/clusters/cluster.js";
import * as connections from "../../src/testing/clusters/connections.js";
import * as labels from "../../src/testing/building-blocks/labels.js";
import * as names from "../../src/testing/building-blocks/names.js";
import * as paths from "../../src/testing/building-blocks/paths.js";
import * as ports from "../../src/testing/building-blocks/ports.js";
import * as storageKit from "../../src/testing/storage/index.js";
import { jsonSize } from "./quality.js";
import { checkEntries, covered, entry, type Entry } from "./catalogue.js";
import {
  wireStable,
  jsonStable,
  validJson,
  validInside,
  policyWith,
  ingressWith,
  backend,
  routable,
} from "./contracts.js";

const OWN_CATALOGUES: readonly object[] = [ip, labels, names, paths, ports, cluster, connections];

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
  // evaluator inputs (the clusters: clusters/cluster.test.ts)
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
  checkEntries(ENTRIES);

  it("every exported arbitrary factory is in the catalogue above", () => {
    const names = covered(ENTRIES);
    // Each of these modules' tests holds its arbitraries to the same checks (test/testing/building-blocks/, clusters/).
    for (const module of OWN_CATALOGUES) for (const k of Object.keys(module)) names.add(k);
    // arbValidJson(kind) returns exactly these, so its entries check them.
    for (const same of [
      "arbIngressJson",
      "arbIngressClassJson",
      "arbNetworkPolicyJson",
      "arbIPAddressJson",
      "arbServiceCIDRJson",
    ])
      names.add(same);
    // storage.test.ts holds the storage arbitraries to the same checks.
    for (const k of Object.keys(storageKit)) names.add(k);
    const missing = Object.keys(kit).filter((k) => k.startsWith("arb") && !names.has(k));
    expect(missing).toEqual([]);
  });
});
