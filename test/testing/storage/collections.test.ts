// The storage arbitraries of clusterwire/testing for collection pages (src/testing/storage/collections.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneToken, collection } from "../../../src/storage/index.js";
import {
  arbCloneTokenModel,
  arbCloneTokenPatch,
  arbCloneTokenPost,
  arbCollectionModel,
} from "../../../src/testing/storage/index.js";
import { startLoopback, type Loopback } from "../../support/storage/integration-harness.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import { INV, T, secondsOf, lifetimeSeconds, asJson } from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbCollectionModel: pages of any item arbitrary that collection.decode keeps", () => {
    checkArbitraryQuality(arbCollectionModel(arbCloneTokenModel(), { path: "/api/storage/file/clone/tokens" }), {
      runs: 100,
      contract: (page) => {
        expect(collection.decode(asJson(page), cloneToken)).toStrictEqual(page);
        if (page.records !== undefined) expect(page.num_records).toBe(page.records.length);
        const next = collection.nextHref(page);
        if (next !== undefined) {
          expect(next.startsWith("/api/storage/file/clone/tokens?")).toBe(true);
          expect(next).not.toBe(page._links?.self?.href);
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

  it("collections: random page sizes return every record once, in creation order; count agrees; a PATCH by query changes the matches", async () => {
    const { client } = loop;
    const path = client.cloneTokens.path;
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbCloneTokenPost(T), { maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        arbCloneTokenPatch(),
        async (posts, pageSize, patch) => {
          const made: { nodeUuid: string; uuid: string }[] = [];
          try {
            for (const p of posts)
              made.push({ nodeUuid: p.node.uuid, uuid: (await client.cloneTokens.create(p)).record!.uuid! });
            const sizes: number[] = [];
            for await (const page of client.pages(path, { max_records: pageSize }))
              sizes.push(page.records?.length ?? 0);
            const full = Math.floor(made.length / pageSize);
            const rest = made.length % pageSize;
            expect(sizes).toEqual(
              made.length === 0 ? [0] : [...Array<number>(full).fill(pageSize), ...(rest === 0 ? [] : [rest])],
            );
            expect((await client.cloneTokens.all({ max_records: pageSize })).map((t) => t.uuid)).toEqual(
              made.map((k) => k.uuid),
            );
            expect(await client.cloneTokens.count()).toBe(made.length);
            // A PATCH by query changes exactly the matching tokens.
            const node = INV.nodes![0]!.uuid!;
            const bulk = await client.cloneTokens.updateMatching({ node: { uuid: node } }, patch);
            expect(bulk.numRecords).toBe(made.filter((k) => k.nodeUuid === node).length);
            for (const [i, k] of made.entries()) {
              const limit = secondsOf((await client.cloneTokens.get(k)).expiry_time?.limit);
              const sent = posts[i]!.expiry_time?.limit;
              expect(limit).toBe(
                k.nodeUuid === node
                  ? lifetimeSeconds(patch.expiry_time.limit)
                  : sent === undefined
                    ? 60
                    : lifetimeSeconds(sent),
              );
            }
          } finally {
            for (const k of made) await client.cloneTokens.delete(k);
          }
        },
      ),
      { numRuns: n },
    );
  });
});
