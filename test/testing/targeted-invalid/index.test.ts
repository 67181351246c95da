// targetedMutations() puts the five kinds' mutations together in a fixed order: a seeded draw of
// arbTargetedInvalid() picks a mutation by its index, so the conformance campaign's golden files
// (test/conformance/campaign/golden.test.ts) change when the order does. Each kind's file keeps
// its own order; this file pins how they are put together. arbTargetedInvalid, per kind and
// release, is held to fast-check's quality checks in the catalogue form (../catalogue.ts): exactly
// the one expected error from validate().

import { describe, expect, it } from "vitest";
import { validate } from "../../../src/networking/index.js";
import { VALIDATED_KINDS } from "../../../src/testing/index.js";
import * as targeted from "../../../src/testing/targeted-invalid/index.js";
import { targetedMutations } from "../../../src/testing/targeted-invalid/index.js";
import { checkEntries, entry, expectCatalogued, type Entry } from "../catalogue.js";
import { jsonSize } from "../quality.js";
import { ingressClassMutations } from "../../../src/testing/targeted-invalid/ingress-class.js";
import { ingressMutations } from "../../../src/testing/targeted-invalid/ingress.js";
import { ipAddressMutations } from "../../../src/testing/targeted-invalid/ip-address.js";
import { networkPolicyMutations } from "../../../src/testing/targeted-invalid/network-policy.js";
import { serviceCidrMutations } from "../../../src/testing/targeted-invalid/service-cidr.js";

const names = (ms: readonly { readonly name: string }[]): string[] => ms.map((m) => m.name);

describe("targetedMutations", () => {
  it("is each kind's mutations in turn: Ingress, IngressClass, NetworkPolicy, IPAddress, ServiceCIDR", () => {
    expect(names(targetedMutations())).toEqual([
      ...names(ingressMutations()),
      ...names(ingressClassMutations()),
      ...names(networkPolicyMutations()),
      ...names(ipAddressMutations()),
      ...names(serviceCidrMutations()),
    ]);
  });

  it("each kind's file holds only that kind's mutations, metadata ones last, every name once", () => {
    const files = [
      ["Ingress", ingressMutations()],
      ["IngressClass", ingressClassMutations()],
      ["NetworkPolicy", networkPolicyMutations()],
      ["IPAddress", ipAddressMutations()],
      ["ServiceCIDR", serviceCidrMutations()],
    ] as const;
    for (const [kind, ms] of files) {
      expect(ms.length).toBeGreaterThan(0);
      expect(new Set(ms.map((m) => m.kind))).toEqual(new Set([kind]));
      const meta = ms.findIndex((m) => m.name.startsWith(`${kind}.meta.`));
      expect(meta).toBeGreaterThan(0);
      expect(ms.slice(meta).every((m) => m.name.startsWith(`${kind}.meta.`))).toBe(true);
    }
    const all = names(targetedMutations());
    expect(new Set(all).size).toBe(all.length);
  });

  it("returns the same list on every call (the arbitraries are built once)", () => {
    expect(targetedMutations()).toBe(targetedMutations());
  });
});

const ENTRIES: Entry[] = [
  // targeted invalid: exactly the one error
  ...VALIDATED_KINDS.map((k) =>
    entry(
      `arbTargetedInvalid(${k})`,
      targeted.arbTargetedInvalid(k),
      (t) => {
        expect(t.kind).toBe(k);
        expect(validate(t.object).map((e) => ({ type: e.type, field: e.field }))).toEqual([t.expected]);
      },
      { runs: 60, size: (t) => jsonSize(t.json), seeds: [1, 2] },
    ),
  ),
  // ... and for 1.37: built on objects valid for 1.37, never a name its relaxed rule admits
  ...VALIDATED_KINDS.map((k) =>
    entry(
      `arbTargetedInvalid(${k}, { version: "1.37" })`,
      targeted.arbTargetedInvalid(k, { version: "1.37" }),
      (t) => {
        expect(t.kind).toBe(k);
        expect(validate(t.object, { version: "1.37" }).map((e) => ({ type: e.type, field: e.field }))).toEqual([
          t.expected,
        ]);
      },
      { runs: 60, size: (t) => jsonSize(t.json), seeds: [1, 2] },
    ),
  ),
];

describe("arbTargetedInvalid passes fast-check's quality checks", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of targeted-invalid/index.ts is in the catalogue above", () => {
    expectCatalogued(targeted, ENTRIES);
  });
});
