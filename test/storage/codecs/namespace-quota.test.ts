// NVMe namespace and quota-rule codecs: create / clone / convert rules, block-size
// defaults, rename/move refusals, quota type rules, limit floors and user_mapping.

import { describe, expect, it } from "vitest";
import {
  nvmeNamespace,
  quotaRule,
  type NvmeNamespacePostInput,
  type QuotaRulePostInput,
} from "../../../src/storage/index.js";
import { expectCodecError, raw } from "../../support/storage/codecs-helpers.js";

const create: NvmeNamespacePostInput = {
  svm: { name: "vs1" },
  name: "/vol/vol1/ns1",
  os_type: "linux",
  space: { size: "100M" },
};

describe("nvmeNamespace.encodePost: create", () => {
  it("sends the body with Sizes in bytes and the default block size", () => {
    expect(nvmeNamespace.encodePost(create)).toEqual({
      name: "/vol/vol1/ns1",
      svm: { name: "vs1" },
      os_type: "linux",
      space: { size: 104857600, block_size: 4096 },
    });
  });

  it("defaults block_size to 512 for vmware", () => {
    expect(nvmeNamespace.encodePost({ ...create, os_type: "vmware" })["space"]).toEqual({ size: 104857600, block_size: 512 });
  });

  it.each(["aix", "linux", "windows"] as const)("defaults block_size to 4096 for %s", (os_type) => {
    expect(nvmeNamespace.encodePost({ ...create, os_type })["space"]).toEqual({ size: 104857600, block_size: 4096 });
  });

  it("keeps a block_size the caller gave, and refuses one outside 512/4096", () => {
    expect(nvmeNamespace.encodePost({ ...create, os_type: "vmware", space: { size: 4096, block_size: 4096 } })["space"]).toEqual({
      size: 4096,
      block_size: 4096,
    });
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, space: { size: 4096, block_size: 1024 } })),
      "space.block_size",
      /one of 512, 4096/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, space: { size: 4096, block_size: "4096" } })),
      "space.block_size",
      /one of/,
    );
  });

  it("takes the volume and base name from location instead of a full path", () => {
    const body = nvmeNamespace.encodePost({
      svm: { uuid: "s1" },
      location: { volume: { name: "vol1" }, namespace: "ns1", qtree: { name: "q1" } },
      os_type: "windows",
      space: { size: 1073741824 },
      comment: "db",
      auto_delete: true,
    });
    expect(body).toEqual({
      svm: { uuid: "s1" },
      location: { volume: { name: "vol1" }, namespace: "ns1", qtree: { name: "q1" } },
      os_type: "windows",
      space: { size: 1073741824, block_size: 4096 },
      comment: "db",
      auto_delete: true,
    });
    expect(
      nvmeNamespace.encodePost({ svm: { name: "vs1" }, name: "ns1", location: { volume: { uuid: "v1" } }, os_type: "aix", space: { size: 4096 } }),
    ).toMatchObject({ name: "ns1", location: { volume: { uuid: "v1" } } });
    expect(nvmeNamespace.encodePost({ ...create, name: "/vol/vol1/qtree1/ns1" })["name"]).toBe("/vol/vol1/qtree1/ns1");
  });

  it("requires svm, a volume, a base name, os_type and space.size", () => {
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, svm: undefined })), "svm", /required/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, svm: {} })), "svm", /`svm.uuid` or `svm.name`/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, name: "ns1" })), "location.volume", /full path/);
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, name: undefined, location: { volume: { name: "vol1" } } })),
      "name",
      /`name` or `location.namespace`/,
    );
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, os_type: undefined })), "os_type", /required unless cloning/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, space: undefined })), "space.size", /required unless cloning/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, space: { block_size: 512 } })), "space.size", /required/);
  });

  it("refuses malformed names and a location volume that contradicts the path", () => {
    expectCodecError(() => nvmeNamespace.encodePost({ ...create, name: "/vol/vol1" }), "name", /full path/);
    expectCodecError(() => nvmeNamespace.encodePost({ ...create, name: "/volume/vol1/ns1" }), "name", /full path/);
    expectCodecError(() => nvmeNamespace.encodePost({ ...create, name: "/vol/v/q/x/ns" }), "name", /full path/);
    expectCodecError(() => nvmeNamespace.encodePost({ ...create, name: "" }), "name", /empty/);
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...create, location: { volume: { name: "vol2" } } }),
      "location.volume.name",
      /does not match/,
    );
  });

  it("refuses bad enums, read-only and unknown fields", () => {
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, os_type: "solaris" })), "os_type", /one of "aix", "linux", "vmware", "windows"/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, os_type: "Linux" })), "os_type", /one of/);
    for (const key of ["uuid", "enabled", "create_time", "status", "subsystem_map", "metric", "statistics", "_links"]) {
      expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, [key]: {} })), key, /read-only/);
    }
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, space: { size: 1, used: 0 } })), "space.used", /read-only/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, space: { size: 1, guarantee: {} } })), "space.guarantee", /read-only/);
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, location: { volume: { name: "vol1" }, qtree: { id: 1 } } })),
      "location.qtree.id",
      /read-only/,
    );
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, qos_policy: { name: "p" } })), "qos_policy", /unknown field/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, "space.block_size": 512 })), "space.block_size", /dotted keys/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, space: { size: "1.5G" } })), "space.size", /1\.5G/);
  });
});

describe("nvmeNamespace.encodePost: clone and convert", () => {
  const clone: NvmeNamespacePostInput = { svm: { name: "vs1" }, name: "/vol/vol1/ns2", clone: { source: { name: "/vol/vol1/ns1" } } };

  it("clones without os_type or size, and adds no block_size", () => {
    expect(nvmeNamespace.encodePost(clone)).toEqual({
      name: "/vol/vol1/ns2",
      svm: { name: "vs1" },
      clone: { source: { name: "/vol/vol1/ns1" } },
    });
    expect(nvmeNamespace.encodePost({ ...clone, clone: { source: { uuid: "src" } } })["clone"]).toEqual({ source: { uuid: "src" } });
  });

  it("allows a snapshot source in the same volume", () => {
    expect(
      nvmeNamespace.encodePost({ ...clone, clone: { source: { name: "/vol/vol1/.snapshot/snap1/ns1" } } })["clone"],
    ).toEqual({ source: { name: "/vol/vol1/.snapshot/snap1/ns1" } });
  });

  it("forbids os_type, space.size and space.block_size when cloning", () => {
    expectCodecError(() => nvmeNamespace.encodePost({ ...clone, os_type: "linux" }), "os_type", /taken from the clone source/);
    expectCodecError(() => nvmeNamespace.encodePost({ ...clone, space: { size: 4096 } }), "space.size", /taken from the clone source/);
    expectCodecError(() => nvmeNamespace.encodePost({ ...clone, space: { block_size: 512 } }), "space.block_size", /taken from the clone source/);
  });

  it("requires clone.source.uuid or .name", () => {
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...clone, clone: {} })), "clone.source", /required/);
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...clone, clone: { source: {} } })), "clone.source", /`clone.source.uuid` or `clone.source.name`/);
  });

  it("requires the clone and its source to be in the same volume", () => {
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...clone, clone: { source: { name: "/vol/vol2/ns1" } } }),
      "clone.source.name",
      /same volume/,
    );
    expectCodecError(
      () =>
        nvmeNamespace.encodePost({
          svm: { name: "vs1" },
          location: { volume: { name: "vol1" }, namespace: "ns2" },
          clone: { source: { name: "/vol/vol9/.snapshot/s/ns1" } },
        }),
      "clone.source.name",
      /same volume/,
    );
  });

  it("converts a LUN without os_type or size, and refuses clone together with convert", () => {
    expect(nvmeNamespace.encodePost({ svm: { name: "vs1" }, convert: { lun: { name: "/vol/vol1/lun1" } } })).toEqual({
      svm: { name: "vs1" },
      convert: { lun: { name: "/vol/vol1/lun1" } },
    });
    expectCodecError(() => nvmeNamespace.encodePost(raw({ svm: { name: "vs1" }, convert: { lun: {} } })), "convert.lun", /required/);
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...clone, convert: { lun: { uuid: "l1" } } }),
      "convert",
      /cannot be combined with clone/,
    );
  });

  it("refuses os_type, space.size and space.block_size when converting (taken from the LUN)", () => {
    const convert = { svm: { name: "vs1" }, convert: { lun: { name: "/vol/vol1/lun1" } } } as const;
    expectCodecError(() => nvmeNamespace.encodePost({ ...convert, os_type: "linux" }), "os_type", /taken from the LUN/);
    expectCodecError(() => nvmeNamespace.encodePost({ ...convert, space: { size: 4096 } }), "space.size", /taken from the LUN/);
    expectCodecError(() => nvmeNamespace.encodePost({ ...convert, space: { block_size: 512 } }), "space.block_size", /taken from the LUN/);
  });
});

describe("nvmeNamespace.encodePatch", () => {
  it("sends comment, auto_delete, space.size, svm and clone", () => {
    expect(
      nvmeNamespace.encodePatch({ comment: "c", auto_delete: false, space: { size: "2G" }, svm: { name: "vs1" }, clone: { source: { uuid: "u" } } }),
    ).toEqual({ svm: { name: "vs1" }, space: { size: 2147483648 }, comment: "c", auto_delete: false, clone: { source: { uuid: "u" } } });
  });

  it("adds no POST default in PATCH (no block_size)", () => {
    expect(nvmeNamespace.encodePatch({ space: { size: 4096 } })).toEqual({ space: { size: 4096 } });
  });

  it("refuses a rename or a move", () => {
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ name: "/vol/vol1/other" })), "name", /cannot be renamed/);
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ location: { volume: { name: "vol2" } } })), "location", /cannot be moved/);
  });

  it("refuses POST-only and read-only fields", () => {
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ os_type: "linux" })), "os_type", /not accepted in PATCH/);
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ convert: { lun: { uuid: "l" } } })), "convert", /not accepted in PATCH/);
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ space: { block_size: 512 } })), "space.block_size", /not accepted in PATCH/);
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ enabled: true })), "enabled", /read-only/);
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ clone: { source: {} } })), "clone.source", /required/);
  });
});

describe("nvmeNamespace.decode", () => {
  it("decodes expensive fields, metrics and unknown enum values", () => {
    const json = {
      uuid: "n1",
      name: "/vol/vol1/ns1",
      svm: { name: "vs1", uuid: "s1", _links: { self: { href: "/api/svm/svms/s1" } } },
      location: { volume: { name: "vol1", uuid: "v1" }, namespace: "ns1", qtree: { name: "", id: 0 } },
      os_type: "linux",
      space: { size: 104857600, block_size: 4096, used: 0, guarantee: { requested: false, reserved: false } },
      comment: "",
      enabled: true,
      create_time: "2024-05-01T10:00:00-04:00",
      auto_delete: false,
      status: { state: "online", container_state: "online", read_only: false, mapped: true },
      subsystem_map: { nsid: "00000001h", anagrpid: "00000001h", subsystem: { name: "ss1", uuid: "ss" }, _links: { self: { href: "/x" } } },
      metric: {
        timestamp: "2024-05-01T10:00:00Z",
        status: "ok",
        duration: "PT15S",
        throughput: { total: 1, read: 1, write: 0 },
        iops: { other: 0, total: 1, read: 1, write: 0 },
        latency: { other: 0, total: 1, read: 1, write: 0 },
      },
      statistics: {
        timestamp: "2024-05-01T10:00:00Z",
        status: "brand_new_status",
        iops_raw: { other: 0, total: 1, read: 1, write: 0 },
        latency_raw: { other: 0, total: 1, read: 1, write: 0 },
        throughput_raw: { total: 1, read: 1, write: 0 },
      },
      _links: { self: { href: "/api/storage/namespaces/n1" } },
    };
    expect(nvmeNamespace.decode(json)).toEqual(json);
    expect(nvmeNamespace.decode({ os_type: "hpux" }).os_type).toBe("hpux");
  });

  it("refuses wrong types with the path", () => {
    expectCodecError(() => nvmeNamespace.decode({ space: { block_size: "4096" } }), "space.block_size", /integer/);
    expectCodecError(() => nvmeNamespace.decode({ status: { mapped: "yes" } }), "status.mapped", /boolean/);
    expectCodecError(() => nvmeNamespace.decode({ metric: { iops: { read: "1" } } }), "metric.iops.read", /integer/);
  });
});

// ---- quota rules ------------------------------------------------------------------

const base = { svm: { name: "vs1" }, volume: { name: "vol1" } };
const treeRule: QuotaRulePostInput = { ...base, type: "tree", qtree: { name: "qt1" } };
const userRule: QuotaRulePostInput = { ...base, type: "user", qtree: { name: "" }, users: [{ name: "jdoe" }] };
const groupRule: QuotaRulePostInput = { ...base, type: "group", qtree: { name: "" }, group: { name: "eng" } };

describe("quotaRule.encodePost", () => {
  it("sends the three rule types", () => {
    expect(quotaRule.encodePost(treeRule)).toEqual({ svm: { name: "vs1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "qt1" } });
    expect(quotaRule.encodePost(userRule)).toEqual({ ...userRule });
    expect(quotaRule.encodePost(groupRule)).toEqual({ ...groupRule });
    expect(quotaRule.encodePost({ ...userRule, users: [{ id: "1001" }, { name: "DOMAIN\\bob" }, { id: "S-1-5-21-1-2-3-500" }] })["users"]).toEqual([
      { id: "1001" },
      { name: "DOMAIN\\bob" },
      { id: "S-1-5-21-1-2-3-500" },
    ]);
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
    expect(quotaRule.encodePost({ ...treeRule, files: { hard_limit: 20, soft_limit: 0 } })["files"]).toEqual({ hard_limit: 20, soft_limit: 0 });
    expect(quotaRule.encodePatch({ files: { hard_limit: -1 } })).toEqual({ files: { hard_limit: -1 } });
    expectCodecError(() => quotaRule.encodePatch(raw({ files: { hard_limit: "10K" } })), "files.hard_limit", /file count/);
    expectCodecError(() => quotaRule.encodePatch(raw({ files: { hard_limit: -2 } })), "files.hard_limit", /file count/);
    expectCodecError(() => quotaRule.encodePatch(raw({ files: { soft_limit: 1.5 } })), "files.soft_limit", /file count/);
  });

  it("refuses negative space limits other than -1", () => {
    expectCodecError(() => quotaRule.encodePatch(raw({ space: { hard_limit: -2 } })), "space.hard_limit", /negative/);
    expectCodecError(() => quotaRule.encodePatch(raw({ space: { soft_limit: "-1K" } })), "space.soft_limit");
  });

  it("accepts user_mapping \"on\" and sends true; booleans pass", () => {
    expect(quotaRule.encodePost({ ...userRule, user_mapping: "on" })["user_mapping"]).toBe(true);
    expect(quotaRule.encodePost({ ...userRule, user_mapping: "off" })["user_mapping"]).toBe(false);
    expect(quotaRule.encodePost({ ...userRule, user_mapping: true })["user_mapping"]).toBe(true);
    expect(quotaRule.encodePatch({ user_mapping: "on" })).toEqual({ user_mapping: true });
    expectCodecError(() => quotaRule.encodePatch(raw({ user_mapping: "yes" })), "user_mapping", /boolean or "on"/);
    expectCodecError(() => quotaRule.encodePatch(raw({ user_mapping: 1 })), "user_mapping");
  });

  it("enforces the type rules", () => {
    expectCodecError(() => quotaRule.encodePost(raw({ ...userRule, users: undefined })), "users", /required for a user rule/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...userRule, users: [] })), "users", /at least one/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...groupRule, group: undefined })), "group", /required for a group rule/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...groupRule, users: [{ name: "x" }] })), "users", /only on a user rule/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, users: [{ name: "x" }] })), "users", /only on a user rule/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, group: { name: "g" } })), "group", /tree rule/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, user_mapping: true })), "user_mapping", /only on a user rule/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...groupRule, user_mapping: "on" })), "user_mapping", /only on a user rule/);
    for (const rule of [treeRule, userRule, groupRule]) {
      expectCodecError(() => quotaRule.encodePost(raw({ ...rule, qtree: undefined })), "qtree.name", /required/);
      expectCodecError(() => quotaRule.encodePost(raw({ ...rule, qtree: {} })), "qtree.name", /required/);
    }
  });

  it("requires each user to be a name or an id, not both", () => {
    expectCodecError(() => quotaRule.encodePost(raw({ ...userRule, users: [{ name: "a", id: "1" }] })), "users[0]", /not both/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...userRule, users: [{ name: "a" }, {}] })), "users[1]", /name or an id/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...userRule, users: [{ id: 1001 }] })), "users[0].id", /string/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...groupRule, group: {} })), "group", /group.name` or `group.id/);
  });

  it("requires svm, volume and type; refuses a bad type", () => {
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, svm: undefined })), "svm", /required/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, svm: {} })), "svm", /`svm.uuid` or `svm.name`/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, volume: undefined })), "volume", /required/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, volume: { _links: {} } })), "volume._links", /read-only/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, type: undefined })), "type", /required/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, type: "qtree" })), "type", /one of "tree", "user", "group"/);
  });

  it("refuses a quota policy name and read-only fields", () => {
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, policy: { name: "default" } })), "policy", /unknown field/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, uuid: "u" })), "uuid", /read-only/);
    expectCodecError(() => quotaRule.encodePost(raw({ ...treeRule, qtree: { name: "q", id: 1 } })), "qtree.id", /read-only/);
  });
});

describe("quotaRule.encodePatch", () => {
  it("accepts only space, files and user_mapping", () => {
    expect(quotaRule.encodePatch({ user_mapping: false, files: { soft_limit: 5 }, space: { soft_limit: "10M" } })).toEqual({
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
