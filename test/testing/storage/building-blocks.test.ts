// The storage arbitraries of clusterwire/testing for sizes, durations, names, UUIDs, references, versions, paths and timestamps (src/testing/storage/building-blocks.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cache,
  cloneToken,
  formatDuration,
  formatSize,
  nvmeNamespace,
  parseDuration,
  parseSize,
  quotaRule,
} from "../../../src/storage/index.js";
import {
  arbCloneTokenLifetime,
  arbNvmeNamespaceName,
  arbStorageDateTime,
  arbStorageDuration,
  arbStorageName,
  arbStoragePath,
  arbStorageReference,
  arbStorageSize,
  arbStorageSizeInput,
  arbStorageUuid,
  arbStorageVersion,
} from "../../../src/testing/storage/index.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import {
  KiB,
  TiB,
  bytesOf,
  secondsOf,
  lifetimeSeconds,
  UUID4,
  NAME,
  NS_BASE,
  DATE_TIME,
  VERSION,
  keysOf,
} from "./spec.js";

describe("building blocks", () => {
  it("arbStorageSize: safe byte counts that parseSize and formatSize round-trip", () => {
    checkArbitraryQuality(arbStorageSize(), {
      contract: (n) => {
        expect(Number.isSafeInteger(n) && n >= 0 && n <= KiB ** 5).toBe(true);
        expect(parseSize(n)).toBe(n);
        expect(bytesOf(formatSize(n))).toBe(n);
      },
      size: (n) => n,
    });
    checkArbitraryQuality(arbStorageSize({ min: 4096, max: 128 * TiB }), {
      contract: (n) => n >= 4096 && n <= 128 * TiB && parseSize(formatSize(n)) === n,
      size: (n) => n,
    });
    expect(() => arbStorageSize({ min: 10, max: 9 })).toThrow(RangeError);
  });

  it("arbStorageSize reaches the codecs' edge when asked: 7P is accepted, nothing above 2^53 − 1", () => {
    const big = fc.sample(arbStorageSize({ min: 7 * KiB ** 5, max: Number.MAX_SAFE_INTEGER }), {
      seed: 3,
      numRuns: 50,
    });
    expect(big.every((n) => Number.isSafeInteger(n) && parseSize(n) === n)).toBe(true);
    expect(big).toContain(7 * KiB ** 5); // the whole-PiB branch lands on 7P itself
  });

  it("arbStorageSizeInput: every spelling names a byte count in range, read alike by parseSize and by the spec", () => {
    checkArbitraryQuality(arbStorageSizeInput({ min: 4096, max: TiB }), {
      contract: (v) => {
        const n = bytesOf(v);
        expect(n >= 4096 && n <= TiB).toBe(true);
        expect(parseSize(v)).toBe(n);
        expect(parseSize(formatSize(parseSize(v)))).toBe(n);
      },
      size: bytesOf,
    });
    // All the spellings occur: numbers, digits, each suffix in both cases, bare B.
    const seen = new Set(
      fc
        .sample(arbStorageSizeInput(), { seed: 9, numRuns: 2000 })
        .map((v) => (typeof v === "number" ? "number" : v.replace(/^[0-9]+/, ""))),
    );
    for (const s of ["number", "", "B", "b", "K", "k", "KB", "kb", "M", "mb", "G", "gb", "T", "tb"])
      expect(seen, s).toContain(s);
  });

  it("arbStorageDuration: ISO 8601 durations parseDuration reads as the spec says; canonical ones are formatDuration's", () => {
    checkArbitraryQuality(arbStorageDuration(), {
      contract: (d) => {
        const s = secondsOf(d);
        expect(s >= 0 && s <= 30 * 86400).toBe(true);
        expect(parseDuration(d)).toBe(s);
        expect(parseDuration(formatDuration(s))).toBe(s);
      },
      size: secondsOf,
    });
    checkArbitraryQuality(arbStorageDuration({ canonical: true, min: 1, max: 86400 }), {
      contract: (d) => {
        const s = secondsOf(d);
        expect(s >= 1 && s <= 86400).toBe(true);
        expect(formatDuration(s)).toBe(d);
      },
      size: secondsOf,
    });
    expect(
      fc.sample(arbStorageDuration(), { seed: 4, numRuns: 300 }).some((d) => formatDuration(parseDuration(d)) !== d),
    ).toBe(true);
  });

  it("arbCloneTokenLifetime: seconds, digit strings or durations that encodePatch sends as their seconds", () => {
    checkArbitraryQuality(arbCloneTokenLifetime(), {
      contract: (v) => {
        const s = lifetimeSeconds(v);
        expect(s >= 1 && s <= 7 * 86400).toBe(true);
        expect(cloneToken.encodePatch({ expiry_time: { limit: v } })).toEqual({ expiry_time: { limit: String(s) } });
      },
    });
  });

  it("arbStorageName, arbStorageUuid, arbStorageReference, arbStorageVersion", () => {
    checkArbitraryQuality(arbStorageName(), {
      contract: (n) => NAME.test(n) && n.length <= 17 && !n.includes("__") && NS_BASE.test(n),
    });
    checkArbitraryQuality(arbStorageUuid(), {
      contract: (u) => UUID4.test(u),
      // All UUIDs print alike; shrinking moves their digits towards 0 and f.
      size: (u) => u.replace(/[-0f]/g, "").length,
    });
    checkArbitraryQuality(arbStorageReference(), {
      contract: (r) => {
        expect(keysOf(r).length).toBeGreaterThan(0);
        expect(keysOf(r).every((k) => k === "name" || k === "uuid")).toBe(true);
        if (r.name !== undefined) expect(r.name).toMatch(NAME);
        if (r.uuid !== undefined) expect(r.uuid).toMatch(UUID4);
        // A reference is what a body's svm takes.
        quotaRule.encodePost({ svm: r, volume: r, type: "tree", qtree: { name: "" } });
      },
    });
    checkArbitraryQuality(arbStorageVersion(), {
      contract: (v) => VERSION.test(v),
      // Versions print in few lengths; shrinking lowers their numbers.
      size: (v) => v.split(/[.P]/).reduce((sum, part) => sum + Number(part), 0),
    });
  });

  it("arbStoragePath, arbNvmeNamespaceName, arbStorageDateTime: the shapes the codecs and the spec take", () => {
    const origin = [{ svm: { name: "svm1" }, volume: { name: "vol1" } }];
    checkArbitraryQuality(arbStoragePath(), {
      contract: (p) => {
        expect(p.startsWith("/") && !p.endsWith("/") && !p.includes("//")).toBe(true);
        cache.encodePost({
          name: "c",
          svm: { name: "svm1" },
          origins: origin,
          path: p,
          prepopulate: { dir_paths: [p] },
        });
      },
    });
    checkArbitraryQuality(arbNvmeNamespaceName(), {
      contract: (n) => {
        expect(n).toMatch(/^\/vol\/[a-z][a-z0-9_]*\/(?:[a-z][a-z0-9_]*\/)?[a-z][a-z0-9_.-]*$/);
        nvmeNamespace.encodePost({ svm: { name: "svm1" }, name: n, os_type: "linux", space: { size: "1G" } });
      },
    });
    checkArbitraryQuality(arbStorageDateTime(), {
      contract: (d) => {
        expect(d).toMatch(DATE_TIME);
        const t = Date.parse(d);
        expect(t % 1000).toBe(0);
        expect(t >= Date.UTC(2018, 0, 1) && t <= Date.UTC(2031, 0, 1)).toBe(true);
      },
      // Timestamps print in two lengths; shrinking moves them towards 2018.
      size: (d) => Date.parse(d) / 1000 - Date.UTC(2018, 0, 1) / 1000,
    });
  });
});

describe("codec round trips", () => {
  const n = propertyRuns(100);

  it("sizes and durations: the parse/format pairs are inverse on every generated value", () => {
    fc.assert(
      fc.property(arbStorageSizeInput({ max: Number.MAX_SAFE_INTEGER }), (v) => {
        expect(parseSize(formatSize(parseSize(v)))).toBe(parseSize(v));
      }),
      { numRuns: n },
    );
    fc.assert(
      fc.property(arbStorageDuration({ max: 10 ** 9 }), (d) => {
        expect(parseDuration(formatDuration(parseDuration(d)))).toBe(parseDuration(d));
      }),
      { numRuns: n },
    );
  });
});
