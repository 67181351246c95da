// The storage arbitraries of clusterwire/testing for the whole storage kit: what holds across resources (src/testing/storage/index.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cache,
  cloneToken,
  job,
  nvmeNamespace,
  quotaRule,
  software,
  softwareDownload,
  softwareHistory,
  type CachePatchInput,
  type JsonObject,
  type NvmeNamespacePatchInput,
  type QuotaRulePatchInput,
} from "../../../src/storage/index.js";
import {
  arbApiErrorModel,
  arbCacheModel,
  arbCachePatch,
  arbCachePost,
  arbCloneTokenModel,
  arbCloneTokenPatch,
  arbCloneTokenPost,
  arbCollectionModel,
  arbJobAcceptedModel,
  arbJobModel,
  arbNvmeNamespaceModel,
  arbNvmeNamespacePatch,
  arbNvmeNamespacePost,
  arbQuotaRuleModel,
  arbQuotaRulePatch,
  arbQuotaRulePost,
  arbSoftwareDownloadPost,
  arbSoftwareDownloadProgressModel,
  arbSoftwareHistoryModel,
  arbSoftwarePackageModel,
  arbSoftwarePatch,
  arbSoftwarePatchQuery,
  arbSoftwareProfileModel,
  arbStorageReference,
} from "../../../src/testing/storage/index.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import { T, secondsOf, asJson, plain, decodesUnchanged } from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("newerServer: unknown enum values and members occur, and decode keeps them as given", () => {
    const KNOWN_OS = ["aix", "linux", "vmware", "windows"];
    const arb = arbNvmeNamespaceModel({ newerServer: true });
    checkArbitraryQuality(arb, {
      runs: 100,
      shrinkSeeds: [2],
      contract: (n) => decodesUnchanged(nvmeNamespace.decode, n),
    });
    const sample = fc.sample(arb, { seed: 11, numRuns: 300 });
    expect(sample.some((n) => n.os_type !== undefined && !KNOWN_OS.includes(n.os_type))).toBe(true);
    expect(sample.some((n) => ["snaplock", "anti_ransomware", "tiering"].some((k) => k in n))).toBe(true);
    checkArbitraryQuality(arbSoftwareProfileModel({ newerServer: true }), {
      runs: 50,
      shrinkSeeds: [3],
      contract: (p) => decodesUnchanged(software.decode, p),
    });
    checkArbitraryQuality(arbQuotaRuleModel({ newerServer: true }), {
      runs: 100,
      contract: (r) => decodesUnchanged(quotaRule.decode, r),
    });
  });
});

describe("independence", () => {
  it("generated values share no objects or arrays, within or across values (mutating one never changes another)", () => {
    const all: [string, fc.Arbitrary<unknown>][] = [
      ["arbStorageReference", arbStorageReference()],
      ["arbCloneTokenModel", arbCloneTokenModel()],
      ["arbCloneTokenPost", arbCloneTokenPost(T)],
      ["arbCloneTokenPatch", arbCloneTokenPatch()],
      ["arbCacheModel", arbCacheModel({ newerServer: true })],
      ["arbCachePost", arbCachePost(T)],
      ["arbCachePatch", arbCachePatch()],
      ["arbNvmeNamespaceModel", arbNvmeNamespaceModel({ newerServer: true })],
      ["arbNvmeNamespacePost", arbNvmeNamespacePost()],
      ["arbNvmeNamespacePatch", arbNvmeNamespacePatch()],
      ["arbQuotaRuleModel", arbQuotaRuleModel()],
      ["arbQuotaRulePost", arbQuotaRulePost(T)],
      ["arbQuotaRulePatch", arbQuotaRulePatch()],
      ["arbSoftwareProfileModel", arbSoftwareProfileModel()],
      ["arbSoftwarePackageModel", arbSoftwarePackageModel()],
      ["arbSoftwareHistoryModel", arbSoftwareHistoryModel()],
      ["arbSoftwareDownloadProgressModel", arbSoftwareDownloadProgressModel()],
      ["arbSoftwareDownloadPost", arbSoftwareDownloadPost()],
      ["arbSoftwarePatch", arbSoftwarePatch()],
      ["arbSoftwarePatchQuery", arbSoftwarePatchQuery()],
      ["arbJobModel", arbJobModel()],
      ["arbJobAcceptedModel", arbJobAcceptedModel()],
      ["arbCollectionModel", arbCollectionModel(arbQuotaRuleModel())],
      ["arbApiErrorModel", arbApiErrorModel()],
    ];
    for (const [name, arb] of all) {
      const seen = new Set<object>();
      const walk = (v: unknown): void => {
        if (typeof v !== "object" || v === null) return;
        expect(seen.has(v), `${name}: an object is shared`).toBe(false);
        seen.add(v);
        for (const x of Object.values(v)) walk(x);
      };
      for (const v of fc.sample(arb, { seed: 5, numRuns: 100 })) walk(v);
    }
  });
});

describe("codec round trips", () => {
  const n = propertyRuns(100);

  it("an encoded POST body is a valid input that encodes to itself", () => {
    const fixed =
      <I>(encode: (input: I) => JsonObject) =>
      (v: I) => {
        const once = encode(v);
        expect(encode(asJson(once) as unknown as I)).toStrictEqual(once);
      };
    fc.assert(fc.property(arbCloneTokenPost(), fixed(cloneToken.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbCachePost(), fixed(cache.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbNvmeNamespacePost(), fixed(nvmeNamespace.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbQuotaRulePost(), fixed(quotaRule.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbSoftwareDownloadPost(), fixed(softwareDownload.encodePost)), { numRuns: n });
    fc.assert(fc.property(arbCachePatch(), fixed(cache.encodePatch)), { numRuns: n });
    fc.assert(fc.property(arbQuotaRulePatch(), fixed(quotaRule.encodePatch)), { numRuns: n });
  });

  it("decode is idempotent: a decoded model decodes to itself", () => {
    const twice =
      <M>(decode: (json: unknown) => M) =>
      (m: M) => {
        const once = decode(asJson(m));
        expect(decode(asJson(once))).toStrictEqual(once);
      };
    fc.assert(fc.property(arbCacheModel({ newerServer: true }), twice(cache.decode)), { numRuns: n });
    fc.assert(fc.property(arbJobModel({ newerServer: true }), twice(job.decode)), { numRuns: n });
    fc.assert(fc.property(arbSoftwareHistoryModel({ newerServer: true }), twice(softwareHistory.decode)), {
      numRuns: n,
    });
  });

  it("a decoded model's writable values re-encode as a PATCH unchanged (PATCH adds no defaults)", () => {
    fc.assert(
      fc.property(arbCloneTokenModel(), (t) => {
        const m = cloneToken.decode(asJson(t));
        if (m.expiry_time?.limit === undefined) return;
        // Output is a duration, input is seconds (the spec's in/out asymmetry).
        expect(cloneToken.encodePatch({ expiry_time: { limit: m.expiry_time.limit } })).toEqual({
          expiry_time: { limit: String(secondsOf(m.expiry_time.limit)) },
        });
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbCacheModel(), (c) => {
        const m = cache.decode(asJson(c));
        const patch = {
          writeback: m.writeback,
          relative_size: m.relative_size,
          atime_scrub: m.atime_scrub,
          cifs_change_notify: m.cifs_change_notify,
        };
        expect(cache.encodePatch(plain<CachePatchInput>(patch))).toEqual(plain(patch));
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbQuotaRuleModel(), (r) => {
        const m = quotaRule.decode(asJson(r));
        const patch = plain<QuotaRulePatchInput>({ space: m.space, files: m.files, user_mapping: m.user_mapping });
        expect(quotaRule.encodePatch(patch)).toEqual(patch);
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbNvmeNamespaceModel(), (ns) => {
        const m = nvmeNamespace.decode(asJson(ns));
        const patch = plain<NvmeNamespacePatchInput>({
          comment: m.comment,
          auto_delete: m.auto_delete,
          space: m.space === undefined ? undefined : { size: m.space.size },
        });
        expect(nvmeNamespace.encodePatch(patch)).toEqual(patch);
      }),
      { numRuns: n },
    );
  });
});
