// The storage arbitraries of clusterwire/testing for caches (src/testing/storage/caches.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cache } from "../../../src/storage/index.js";
import { arbCacheModel, arbCachePatch, arbCachePost } from "../../../src/testing/storage/index.js";
import { startLoopback, type Loopback } from "../../support/storage/integration-harness.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import {
  GiB,
  INV,
  T,
  bytesOf,
  keysOf,
  lookup,
  volumesOfSvm,
  content,
  checkCachePost,
  checkCacheModel,
} from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbCacheModel", () => {
    checkArbitraryQuality(arbCacheModel(), { runs: 100, contract: checkCacheModel });
  });
});

describe("request bodies: the codecs accept them and the encoded body obeys the spec", () => {
  it("caches: POST (defaults only inside given sub-objects, size per constituent) and PATCH (no POST defaults)", () => {
    checkArbitraryQuality(arbCachePost(), { runs: 100, contract: (v) => checkCachePost(v, false) });
    checkArbitraryQuality(arbCachePost(T), { runs: 100, contract: (v) => checkCachePost(v, true) });
    checkArbitraryQuality(arbCachePatch(), {
      contract: (p) => {
        const body = cache.encodePatch(p);
        expect(keysOf(body).length).toBeGreaterThan(0);
        for (const key of ["writeback", "relative_size", "atime_scrub", "cifs_change_notify"] as const) {
          if (p[key] !== undefined) expect(keysOf(p[key]!).length).toBeGreaterThan(0);
          expect(body[key]).toEqual(p[key]);
        }
        if (p.prepopulate !== undefined) {
          expect(p.prepopulate.dir_paths?.length).toBeGreaterThan(0);
          expect(body["prepopulate"]).toEqual({ ...p.prepopulate, recurse: p.prepopulate.recurse ?? true });
        }
      },
    });
  });
});

describe("StorageClient against the reference server (loopback): random valid bodies", () => {
  let loop: Loopback;
  beforeAll(async () => {
    loop = await startLoopback("arbitraries-Pa55");
  });
  afterAll(() => loop.close());
  const n = propertyRuns(25);

  it("caches: the create job succeeds and GET shows what was sent plus the documented defaults; PATCH toggles apply", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(arbCachePost(T), arbCachePatch(), async (post, patch) => {
        try {
          const res = await client.caches.create(post);
          expect(res.job?.state).toBe("success");
          const svm = lookup(INV.svms, post.svm);
          const [listed, ...more] = await client.caches.all({ name: post.name, "svm.uuid": svm.uuid! });
          expect(more).toHaveLength(0);
          const got = await client.caches.get(listed!.uuid!);
          const origin = post.origins[0]!;
          const vol = lookup(volumesOfSvm(origin.svm.name!), origin.volume);
          const aggregates = post.aggregates?.map((a) => lookup(INV.aggregates, a).name);
          const cpa =
            post.constituents_per_aggregate === undefined
              ? aggregates === undefined
                ? undefined
                : 4
              : bytesOf(post.constituents_per_aggregate);
          expect(got).toMatchObject({
            name: post.name,
            svm: { uuid: svm.uuid, name: svm.name },
            ...(post.path === undefined ? {} : { path: post.path }),
            guarantee: { type: post.guarantee?.type ?? "none" },
            ...(cpa === undefined ? {} : { constituents_per_aggregate: cpa }),
            use_tiered_aggregate: post.use_tiered_aggregate ?? false,
            dr_cache: post.dr_cache ?? false,
            global_file_locking_enabled: post.global_file_locking_enabled ?? false,
            override_encryption: post.override_encryption ?? false,
            writeback: { enabled: post.writeback?.enabled ?? false },
            relative_size: {
              enabled: post.relative_size?.enabled ?? false,
              percentage: post.relative_size?.percentage ?? 10,
            },
            atime_scrub: { enabled: post.atime_scrub?.enabled ?? false, period: post.atime_scrub?.period ?? 30 },
            cifs_change_notify: { enabled: post.cifs_change_notify?.enabled ?? false },
          });
          expect(got.origins?.[0]).toMatchObject({
            svm: { name: vol.svm },
            volume: { name: vol.name, uuid: vol.uuid },
          });
          if (aggregates !== undefined) expect(got.aggregates?.map((a) => a.name)).toEqual(aggregates);
          if (post.size !== undefined) expect(got.size).toBe(bytesOf(post.size));
          else {
            // Default: 10 % of the origin (or relative_size.percentage), at least 1 GiB per constituent.
            const pct = post.relative_size?.enabled === true ? (post.relative_size.percentage ?? 10) : 10;
            expect(got.size).toBeGreaterThanOrEqual(Math.max(GiB, Math.ceil(((vol.size ?? 100 * GiB) * pct) / 100)));
          }
          expect(got).not.toHaveProperty("prepopulate");
          expect(got).not.toHaveProperty("is_disconnected_mode_off_for_locks");

          // The same input sent raw: the server's own defaults and Size reading give the same cache.
          await client.caches.delete(got.uuid!);
          expect((await loop.raw.caches.create(post)).job?.state).toBe("success");
          const [again] = await client.caches.all({ name: post.name, "svm.uuid": svm.uuid! });
          const rawGot = await client.caches.get(again!.uuid!);
          expect(content(rawGot)).toEqual(content(got));

          expect((await client.caches.update(rawGot.uuid!, patch)).job?.state).toBe("success");
          const after = await client.caches.get(rawGot.uuid!);
          for (const k of ["writeback", "relative_size", "atime_scrub", "cifs_change_notify"] as const) {
            expect(after[k]).toEqual({ ...got[k], ...patch[k] });
          }
        } finally {
          for (const c of await client.caches.all({ name: post.name })) await client.caches.delete(c.uuid!);
        }
      }),
      { numRuns: n },
    );
  });
});
