// clusterwire/testing's arbitraries held to fast-check's own quality checks:
// the same values for the same seed, every value within its contract, and
// shrinking that stays within the contract and makes counterexamples smaller.
// The contracts are in contracts.ts. The building blocks, the clusters, the
// any-shape, routing and targeted-invalid arbitraries are checked by their own
// modules' tests (building-blocks/, clusters/, any-shape.test.ts,
// routing.test.ts, targeted-invalid/index.test.ts); this catalogue holds the
// rest, and checks that every arbitrary the kit exports is checked somewhere.

import { describe, expect, it } from "vitest";
import { validate, type JsonObject } from "../../src/networking/index.js";
import * as anyShape from "../../src/testing/any-shape.js";
import * as kit from "../../src/testing/index.js";
import * as ip from "../../src/testing/building-blocks/ip.js";
import * as cluster from "../../src/testing/clusters/cluster.js";
import * as connections from "../../src/testing/clusters/connections.js";
import * as labels from "../../src/testing/building-blocks/labels.js";
import * as names from "../../src/testing/building-blocks/names.js";
import * as paths from "../../src/testing/building-blocks/paths.js";
import * as ports from "../../src/testing/building-blocks/ports.js";
import * as routing from "../../src/testing/routing.js";
import * as storageKit from "../../src/testing/storage/index.js";
import * as targeted from "../../src/testing/targeted-invalid/index.js";
import { jsonSize } from "./quality.js";
import { checkEntries, covered, entry, type Entry } from "./catalogue.js";
import { validJson, validInside, policyWith, ingressWith, backend } from "./contracts.js";

const OWN_CATALOGUES: readonly object[] = [
  ip,
  labels,
  names,
  paths,
  ports,
  cluster,
  connections,
  anyShape,
  routing,
  targeted,
];

const ENTRIES: Entry[] = [
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
  // evaluator inputs (the clusters: clusters/cluster.test.ts; routing: routing.test.ts)
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
];

describe("clusterwire/testing arbitraries pass fast-check's quality checks", () => {
  checkEntries(ENTRIES);

  it("every exported arbitrary factory is in the catalogue above", () => {
    const names = covered(ENTRIES);
    // Each of these modules' tests holds its arbitraries to the same checks.
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
