// The quota-rule codec (src/storage/codecs/quota-rule.ts): type rules, limit floors and user_mapping.

import { describe, expect, it } from "vitest";
import { quotaRule, type QuotaRulePostInput } from "../../../src/storage/index.js";
import { expectCodecError, raw } from "../../support/storage/codecs-helpers.js";

const base = { svm: { name: "vs1" }, volume: { name: "vol1" } };
const treeRule: QuotaRulePostInput = { ...base, type: "tree", qtree: { name: "qt1" } };
const userRule: QuotaRulePostInput = { ...base, type: "user", qtree: { name: "" }, users: [{ name: "jdoe" }] };
const groupRule: QuotaRulePostInput = { ...base, type: "group", qtree: { name: "" }, group: { name: "eng" } };

describe("quotaRule.encodePost", () => {
  it("sends the three rule types", () => {
    expect(quotaRule.encodePost(treeRule)).toEqual({
      svm: { name: "vs1" },
      volume: { name: "vol1" },
      type: "tree",
      qtree: { name: "qt1" },
    });
    expect(quotaRule.encodePost(userRule)).toEqual({ ...userRule });
    expect(quotaRule.encodePost(groupRule)).toEqual({ ...groupRule });
    expect(
      quotaRule.encodePost({
        ...userRule,
        users: [{ id: "1001" }, { name: "DOMAIN\\bob" }, { id: "S-1-5-21-1-2-3-500" }],
      })["users"],
    ).toEqual([{ id: "1001" }, { name: "DOMAIN\\bob" }, { id: "S-1-5-21-1-2-3-500" }]);
    expect(quotaRule.encodePost({ ...treeRule, qtree: { name: "" } })["qtree"]).toEqual({ name: "" });
  });

  it.each([
    [0, 1024],
    [1, 1024],
    [1023, 1024],
    [1024, 1024],
    [1025, 1025],
    ["1K", 1024],
    ["512B", 1024],
    ["1G", 1073741824],
    [-1, -1],
    ["-1", -1],
  ])("raises a space limit %j below 1024 to 1024 → %d (-1 = unlimited passes)", (input, bytes) => {
    const body = quotaRule.encodePost({ ...treeRule, space: { hard_limit: input, soft_limit: input } });
    expect(body["space"]).toEqual({ hard_limit: bytes, soft_limit: bytes });
    expect(quotaRule.encodePatch({ space: { hard_limit: input } })).toEqual({ space: { hard_limit: bytes } });
  });

  it("sends files limits as counts, not raised, -1 passing", () => {
    expect(quotaRule.encodePost({ ...treeRule, files: { hard_limit: 20, soft_limit: 0 } })["files"]).toEqual({
      hard_limit: 20,
      soft_limit: 0,
    });
    expect(quotaRule.encodePatch({ files: { hard_limit: -1 } })).toEqual({ files: { hard_limit: -1 } });
    expectCodecError(
      () => quotaRule.encodePatch(raw({ files: { hard_limit: "10K" } })),
      "files.hard_limit",
      /file count/,
    );
    expectCodecError(() => quotaRule.encodePatch(raw({ files: { hard_limit: -2 } })), "files.hard_limit", /file count/);
    expectCodecError(
      () => quotaRule.encodePatch(raw({ files: { soft_limit: 1.5 } })),
      "files.soft_limit",
      /file count/,
    );
  });

  it("refuses negative space limits other than -1", () => {
    expectCodecError(() => quotaRule.encodePatch(raw({ space: { hard_limit: -2 } })), "space.hard_limit", /negative/);
    expectCodecError(() => quotaRule.encodePatch(raw({ space: { soft_limit: "-1K" } })), "space.soft_limit");
  });

  it('accepts user_mapping "on" and sends true; booleans pass', () => {
    expect(quotaRule.encodePost({ ...userRule, user_mapping: "on" })["user_mapping"]).toBe(true);
    expect(quotaRule.encodePost({ ...userRule, user_mapping: "off" })["user_mapping"]).toBe(false);
    expect(quotaRule.encodePost({ ...userRule, user_mapping: true })["user_mapping"]).toBe(true);
    expect(quotaRule.encodePatch({ user_mapping: "on" })).toEqual({ user_mapping: true });
    expectCodecError(() => quotaRule.encodePatch(raw({ user_mapping: "yes" })), "user_mapping", /boolean or "on"/);
    expectCodecError(() => quotaRule.encodePatch(raw({ user_mapping: 1 })), "user_mapping");
  });

  it("enforces the type rules", () => {
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...userRule, users: undefined })),
      "users",
      /required for a user rule/,
    );
    expectCodecError(() => quotaRule.encodePost(raw({ ...userRule, users: [] })), "users", /at least one/);
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...groupRule, group: undefined })),
      "group",
      /required for a group rule/,
    );
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...groupRule, users: [{ name: "x" }] })),
      "users",
      /only on a user rule/,
    );
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...treeRule, users: [{ name: "x" }] })),
      "users",
      /only on a user rule/,
    );
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, group: { name: "g" } })), "group", /tree rule/);
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...treeRule, user_mapping: true })),
      "user_mapping",
      /only on a user rule/,
    );
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...groupRule, user_mapping: "on" })),
      "user_mapping",
      /only on a user rule/,
    );
    for (const rule of [treeRule, userRule, groupRule]) {
      expectCodecError(() => quotaRule.encodePost(raw({ ...rule, qtree: undefined })), "qtree.name", /required/);
      expectCodecError(() => quotaRule.encodePost(raw({ ...rule, qtree: {} })), "qtree.name", /required/);
    }
  });

  it("requires each user to be a name or an id, not both", () => {
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...userRule, users: [{ name: "a", id: "1" }] })),
      "users[0]",
      /not both/,
    );
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...userRule, users: [{ name: "a" }, {}] })),
      "users[1]",
      /name or an id/,
    );
    expectCodecError(() => quotaRule.encodePost(raw({ ...userRule, users: [{ id: 1001 }] })), "users[0].id", /string/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...groupRule, group: {} })), "group", /group.name` or `group.id/);
  });

  it("requires svm, volume and type; refuses a bad type", () => {
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, svm: undefined })), "svm", /required/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, svm: {} })), "svm", /`svm.uuid` or `svm.name`/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, volume: undefined })), "volume", /required/);
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...treeRule, volume: { _links: {} } })),
      "volume._links",
      /read-only/,
    );
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, type: undefined })), "type", /required/);
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...treeRule, type: "qtree" })),
      "type",
      /one of "tree", "user", "group"/,
    );
  });

  it("refuses a quota policy name and read-only fields", () => {
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...treeRule, policy: { name: "default" } })),
      "policy",
      /unknown field/,
    );
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, uuid: "u" })), "uuid", /read-only/);
    expectCodecError(
      () => quotaRule.encodePost(raw({ ...treeRule, qtree: { name: "q", id: 1 } })),
      "qtree.id",
      /read-only/,
    );
  });
});

describe("quotaRule.encodePatch", () => {
  it("accepts only space, files and user_mapping", () => {
    expect(
      quotaRule.encodePatch({ user_mapping: false, files: { soft_limit: 5 }, space: { soft_limit: "10M" } }),
    ).toEqual({
      space: { soft_limit: 10485760 },
      files: { soft_limit: 5 },
      user_mapping: false,
    });
    for (const key of ["svm", "volume", "type", "qtree", "users", "group"]) {
      expectCodecError(() => quotaRule.encodePatch(raw({ [key]: {} })), key, /not accepted in PATCH/);
    }
    expectCodecError(() => quotaRule.encodePatch(raw({ uuid: "u" })), "uuid", /read-only/);
  });
});

describe("quotaRule.decode", () => {
  it("decodes a rule with -1 limits and the volume-level qtree absent", () => {
    const json = {
      uuid: "r1",
      svm: { name: "vs1", uuid: "s1" },
      volume: { name: "vol1", uuid: "v1" },
      type: "user",
      users: [{ name: "" }],
      space: { hard_limit: -1, soft_limit: 1024 },
      files: { hard_limit: -1, soft_limit: 0 },
      user_mapping: true,
      _links: { self: { href: "/api/storage/quota/rules/r1" } },
    };
    expect(quotaRule.decode(json)).toEqual(json);
  });

  it("keeps unknown types and refuses a string user_mapping in a response", () => {
    expect(quotaRule.decode({ type: "project" }).type).toBe("project");
    expectCodecError(() => quotaRule.decode({ user_mapping: "on" }), "user_mapping", /boolean/);
    expectCodecError(() => quotaRule.decode({ users: [{ name: 3 }] }), "users[0].name", /string/);
  });
});
