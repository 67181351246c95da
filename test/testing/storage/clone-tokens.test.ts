// The storage arbitraries of clusterwire/testing for clone tokens (src/testing/storage/clone-tokens.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneToken, formatDuration } from "../../../src/storage/index.js";
import { arbCloneTokenModel, arbCloneTokenPatch, arbCloneTokenPost } from "../../../src/testing/storage/index.js";
import { startLoopback, type Loopback } from "../../support/storage/integration-harness.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import {
  INV,
  T,
  bytesOf,
  secondsOf,
  lifetimeSeconds,
  UUID4,
  sub,
  decodesUnchanged,
  lookup,
  checkCloneTokenPost,
} from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbCloneTokenModel", () => {
    checkArbitraryQuality(arbCloneTokenModel(), {
      contract: (t) => {
        decodesUnchanged(cloneToken.decode, t);
        expect(t.uuid).toMatch(UUID4);
        expect(t.node?.uuid).toMatch(UUID4);
        if (t.reserve_size !== undefined) expect(t.reserve_size).toBeGreaterThanOrEqual(4096);
        if (t.expiry_time !== undefined) {
          const limit = secondsOf(t.expiry_time.limit);
          expect(limit).toBeGreaterThanOrEqual(1);
          expect(secondsOf(t.expiry_time.left)).toBeLessThanOrEqual(limit);
          expect(formatDuration(limit)).toBe(t.expiry_time.limit);
        }
        if (t._links !== undefined)
          expect(t._links.self?.href).toBe(`/api/storage/file/clone/tokens/${t.node?.uuid}/${t.uuid}`);
      },
    });
  });
});

describe("request bodies: the codecs accept them and the encoded body obeys the spec", () => {
  it("clone tokens: POST (4 KiB floor, limit default) and PATCH", () => {
    checkArbitraryQuality(arbCloneTokenPost(), { contract: (v) => checkCloneTokenPost(v, false) });
    checkArbitraryQuality(arbCloneTokenPost(T), { contract: (v) => checkCloneTokenPost(v, true) });
    checkArbitraryQuality(arbCloneTokenPatch(), {
      contract: (p) => {
        const body = cloneToken.encodePatch(p);
        expect(body).toEqual({ expiry_time: { limit: String(lifetimeSeconds(p.expiry_time.limit)) } });
        expect(Number(sub(body, "expiry_time")["limit"])).toBeGreaterThanOrEqual(1);
      },
    });
    expect(() => arbCloneTokenPost({ targets: { nodes: [{ name: "n1" }] } })).toThrow(/node with a uuid/);
  });
});

describe("StorageClient against the reference server (loopback): random valid bodies", () => {
  let loop: Loopback;
  beforeAll(async () => {
    loop = await startLoopback("arbitraries-Pa55");
  });
  afterAll(() => loop.close());
  const n = propertyRuns(25);

  it("clone tokens: created with the 4 KiB floor and the limit sent (default 60 s), patched, deleted", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(arbCloneTokenPost(T), arbCloneTokenPatch(), fc.boolean(), async (post, patch, echo) => {
        const created = await client.cloneTokens.create(post, { query: { return_records: echo } });
        const key = { nodeUuid: post.node.uuid, uuid: created.record!.uuid! };
        try {
          const reserve = Math.max(4096, bytesOf(post.reserve_size));
          expect(created.record?.reserve_size).toBe(reserve);
          const limit = post.expiry_time?.limit === undefined ? 60 : lifetimeSeconds(post.expiry_time.limit);
          const got = await client.cloneTokens.get(key);
          expect(got).toMatchObject({
            node: { uuid: post.node.uuid, name: lookup(INV.nodes, { uuid: post.node.uuid }).name },
            reserve_size: reserve,
          });
          expect(secondsOf(got.expiry_time?.limit)).toBe(limit);
          expect(secondsOf(got.expiry_time?.left)).toBe(limit);
          // The POST answer is the record (all of it with return_records), as decoded.
          if (echo) expect(created.record).toEqual(got);
          else expect(got).toMatchObject(created.record!);
          await client.cloneTokens.update(key, patch);
          expect(secondsOf((await client.cloneTokens.get(key)).expiry_time?.limit)).toBe(
            lifetimeSeconds(patch.expiry_time.limit),
          );

          // Sent raw (the wire takes the limit only as a digit string): the server's 4 KiB floor and
          // "60" default give the same token as the codec's.
          const rawLimit = post.expiry_time?.limit;
          if (typeof rawLimit !== "number" && (rawLimit === undefined || /^[0-9]+$/.test(rawLimit))) {
            const r = await loop.raw.cloneTokens.create(post);
            const rawKey = { nodeUuid: post.node.uuid, uuid: (r.record as { uuid: string }).uuid };
            const rawGot = await client.cloneTokens.get(rawKey);
            await client.cloneTokens.delete(rawKey);
            expect(rawGot).toMatchObject({
              reserve_size: reserve,
              expiry_time: got.expiry_time,
              node: { uuid: post.node.uuid },
            });
          }
        } finally {
          await client.cloneTokens.delete(key);
        }
      }),
      { numRuns: n },
    );
  });
});
