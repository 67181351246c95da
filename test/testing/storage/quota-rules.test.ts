// The storage arbitraries of clusterwire/testing for quota rules (src/testing/storage/quota-rules.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StorageApiError, type SizeInput } from "../../../src/storage/index.js";
import { arbQuotaRuleModel, arbQuotaRulePatch, arbQuotaRulePost } from "../../../src/testing/storage/index.js";
import { startLoopback, thrown, type Loopback } from "../../support/storage/integration-harness.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import {
  INV,
  T,
  bytesOf,
  lookup,
  volumesOfSvm,
  content,
  checkQuotaPost,
  checkQuotaPatch,
  checkQuotaModel,
} from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbQuotaRuleModel", () => {
    checkArbitraryQuality(arbQuotaRuleModel(), { contract: checkQuotaModel });
  });
});

describe("request bodies: the codecs accept them and the encoded body obeys the spec", () => {
  it("quota rules: POSTs of each type, and PATCHes", () => {
    checkArbitraryQuality(arbQuotaRulePost(), { contract: (v) => checkQuotaPost(v, false) });
    checkArbitraryQuality(arbQuotaRulePost(T), { contract: (v) => checkQuotaPost(v, true) });
    const types = new Set(fc.sample(arbQuotaRulePost(T), { seed: 1, numRuns: 100 }).map((v) => v.type));
    expect(types).toEqual(new Set(["tree", "user", "group"]));
    checkArbitraryQuality(arbQuotaRulePatch(), { contract: (p) => checkQuotaPatch(p, true) });
    checkArbitraryQuality(arbQuotaRulePatch({ type: "tree" }), { contract: (p) => checkQuotaPatch(p, false) });
  });
});

describe("StorageClient against the reference server (loopback): random valid bodies", () => {
  let loop: Loopback;
  beforeAll(async () => {
    loop = await startLoopback("arbitraries-Pa55");
  });
  afterAll(() => loop.close());
  const n = propertyRuns(25);

  it("quota rules: GET shows the rule as sent (limits floored, -1 unset); a PATCH applies, or is refused when soft would exceed hard", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(
        arbQuotaRulePost(T),
        arbQuotaRulePatch({ type: "user" }),
        arbQuotaRulePatch({ type: "tree" }),
        fc.boolean(),
        async (post, userPatch, otherPatch, echo) => {
          const svm = lookup(INV.svms, post.svm);
          const vol = lookup(volumesOfSvm(svm.name), post.volume);
          try {
            const created = await client.quotaRules.create(post, { query: { return_records: echo } });
            let uuid = created.record!.uuid!;
            const qtreeId = (vol.qtrees ?? []).indexOf(post.qtree.name) + 1;
            const got = await client.quotaRules.get(uuid);
            const applied = (
              given: { hard_limit?: SizeInput; soft_limit?: SizeInput } | undefined,
              space: boolean,
              into: Record<string, number> = {},
            ) => {
              const out = { ...into };
              for (const k of ["hard_limit", "soft_limit"] as const) {
                const x = given?.[k];
                if (x === undefined) continue;
                if (x === -1) delete out[k];
                else out[k] = space ? Math.max(1024, bytesOf(x)) : bytesOf(x);
              }
              return Object.keys(out).length === 0 ? undefined : out;
            };
            expect(got).toMatchObject({
              svm: { uuid: svm.uuid, name: svm.name },
              volume: { uuid: vol.uuid, name: vol.name },
              type: post.type,
              qtree: post.qtree.name === "" ? { name: "" } : { id: qtreeId, name: post.qtree.name },
            });
            expect(got.space).toEqual(applied(post.space, true));
            expect(got.files).toEqual(applied(post.files, false));
            expect(got.users).toEqual(post.users);
            expect(got.group).toEqual(post.group);
            expect(got.user_mapping).toBe(
              post.type === "user" ? post.user_mapping === true || post.user_mapping === "on" : undefined,
            );
            if (echo) expect(created.record).toEqual(got);
            else expect(got).toMatchObject(created.record!);
            // Unless the rule is itself the volume-level default of its type, the server adds that default.
            const isDefault =
              post.type === "tree" ||
              isDeepStrictEqual(post.users, [{ name: "" }]) ||
              isDeepStrictEqual(post.group, { name: "" });
            const rules = await client.quotaRules.all({ "volume.uuid": vol.uuid!, fields: "*" });
            expect(rules).toHaveLength(isDefault && post.qtree.name === "" ? 1 : 2);
            const defaults = { tree: {}, user: { users: [{ name: "" }] }, group: { group: { name: "" } } }[post.type];
            expect(
              rules.some(
                (r) =>
                  r.type === post.type &&
                  r.qtree?.name === "" &&
                  isDeepStrictEqual(
                    { ...(r.users ? { users: r.users } : {}), ...(r.group ? { group: r.group } : {}) },
                    defaults,
                  ),
              ),
            ).toBe(true);

            // Sent raw: the server's 1024 floor, -1 and "on" handling give the same rule.
            await client.quotaRules.deleteMatching({ "volume.uuid": vol.uuid! });
            uuid = (await loop.raw.quotaRules.create(post)).record!.uuid!;
            expect(content(await client.quotaRules.get(uuid))).toEqual(content(got));

            const patch = post.type === "user" ? userPatch : otherPatch;
            const want = {
              space: applied(patch.space, true, got.space),
              files: applied(patch.files, false, got.files),
            };
            const clash = (["space", "files"] as const).find((k) => {
              const l = want[k];
              return (
                l?.["hard_limit"] !== undefined && l["soft_limit"] !== undefined && l["soft_limit"] > l["hard_limit"]
              );
            });
            if (clash !== undefined) {
              const err = await thrown(() => client.quotaRules.update(uuid, patch));
              expect(err).toBeInstanceOf(StorageApiError);
              expect((err as StorageApiError).target).toBe(`${clash}.soft_limit`);
              expect(content(await client.quotaRules.get(uuid))).toEqual(content(got));
            } else {
              await client.quotaRules.update(uuid, patch);
              const after = await client.quotaRules.get(uuid);
              expect(after.space).toEqual(want.space);
              expect(after.files).toEqual(want.files);
              if (patch.user_mapping !== undefined)
                expect(after.user_mapping).toBe(patch.user_mapping === true || patch.user_mapping === "on");
            }
          } finally {
            // Also removes the default rule the server added next to the first explicit one.
            await client.quotaRules.deleteMatching({ "volume.uuid": vol.uuid! });
          }
        },
      ),
      { numRuns: n },
    );
  });
});
