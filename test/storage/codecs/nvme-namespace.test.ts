// The NVMe namespace codec (src/storage/codecs/nvme-namespace.ts): create / clone / convert
// rules, block-size defaults, rename/move refusals.

import { describe, expect, it } from "vitest";
import { nvmeNamespace, type NvmeNamespacePostInput } from "../../../src/storage/index.js";
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
    expect(nvmeNamespace.encodePost({ ...create, os_type: "vmware" })["space"]).toEqual({
      size: 104857600,
      block_size: 512,
    });
  });

  it.each(["aix", "linux", "windows"] as const)("defaults block_size to 4096 for %s", (os_type) => {
    expect(nvmeNamespace.encodePost({ ...create, os_type })["space"]).toEqual({ size: 104857600, block_size: 4096 });
  });

  it("keeps a block_size the caller gave, and refuses one outside 512/4096", () => {
    expect(
      nvmeNamespace.encodePost({ ...create, os_type: "vmware", space: { size: 4096, block_size: 4096 } })["space"],
    ).toEqual({
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
      nvmeNamespace.encodePost({
        svm: { name: "vs1" },
        name: "ns1",
        location: { volume: { uuid: "v1" } },
        os_type: "aix",
        space: { size: 4096 },
      }),
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
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, os_type: undefined })),
      "os_type",
      /required unless cloning/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, space: undefined })),
      "space.size",
      /required unless cloning/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, space: { block_size: 512 } })),
      "space.size",
      /required/,
    );
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
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, os_type: "solaris" })),
      "os_type",
      /one of "aix", "linux", "vmware", "windows"/,
    );
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, os_type: "Linux" })), "os_type", /one of/);
    for (const key of ["uuid", "enabled", "create_time", "status", "subsystem_map", "metric", "statistics", "_links"]) {
      expectCodecError(() => nvmeNamespace.encodePost(raw({ ...create, [key]: {} })), key, /read-only/);
    }
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, space: { size: 1, used: 0 } })),
      "space.used",
      /read-only/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, space: { size: 1, guarantee: {} } })),
      "space.guarantee",
      /read-only/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, location: { volume: { name: "vol1" }, qtree: { id: 1 } } })),
      "location.qtree.id",
      /read-only/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, qos_policy: { name: "p" } })),
      "qos_policy",
      /unknown field/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, "space.block_size": 512 })),
      "space.block_size",
      /dotted keys/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...create, space: { size: "1.5G" } })),
      "space.size",
      /1\.5G/,
    );
  });
});

describe("nvmeNamespace.encodePost: clone and convert", () => {
  const clone: NvmeNamespacePostInput = {
    svm: { name: "vs1" },
    name: "/vol/vol1/ns2",
    clone: { source: { name: "/vol/vol1/ns1" } },
  };

  it("clones without os_type or size, and adds no block_size", () => {
    expect(nvmeNamespace.encodePost(clone)).toEqual({
      name: "/vol/vol1/ns2",
      svm: { name: "vs1" },
      clone: { source: { name: "/vol/vol1/ns1" } },
    });
    expect(nvmeNamespace.encodePost({ ...clone, clone: { source: { uuid: "src" } } })["clone"]).toEqual({
      source: { uuid: "src" },
    });
  });

  it("allows a snapshot source in the same volume", () => {
    expect(
      nvmeNamespace.encodePost({ ...clone, clone: { source: { name: "/vol/vol1/.snapshot/snap1/ns1" } } })["clone"],
    ).toEqual({ source: { name: "/vol/vol1/.snapshot/snap1/ns1" } });
  });

  it("forbids os_type, space.size and space.block_size when cloning", () => {
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...clone, os_type: "linux" }),
      "os_type",
      /taken from the clone source/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...clone, space: { size: 4096 } }),
      "space.size",
      /taken from the clone source/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...clone, space: { block_size: 512 } }),
      "space.block_size",
      /taken from the clone source/,
    );
  });

  it("requires clone.source.uuid or .name", () => {
    expectCodecError(() => nvmeNamespace.encodePost(raw({ ...clone, clone: {} })), "clone.source", /required/);
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ ...clone, clone: { source: {} } })),
      "clone.source",
      /`clone.source.uuid` or `clone.source.name`/,
    );
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
    expectCodecError(
      () => nvmeNamespace.encodePost(raw({ svm: { name: "vs1" }, convert: { lun: {} } })),
      "convert.lun",
      /required/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...clone, convert: { lun: { uuid: "l1" } } }),
      "convert",
      /cannot be combined with clone/,
    );
  });

  it("refuses os_type, space.size and space.block_size when converting (taken from the LUN)", () => {
    const convert = { svm: { name: "vs1" }, convert: { lun: { name: "/vol/vol1/lun1" } } } as const;
    expectCodecError(() => nvmeNamespace.encodePost({ ...convert, os_type: "linux" }), "os_type", /taken from the LUN/);
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...convert, space: { size: 4096 } }),
      "space.size",
      /taken from the LUN/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePost({ ...convert, space: { block_size: 512 } }),
      "space.block_size",
      /taken from the LUN/,
    );
  });
});

describe("nvmeNamespace.encodePatch", () => {
  it("sends comment, auto_delete, space.size, svm and clone", () => {
    expect(
      nvmeNamespace.encodePatch({
        comment: "c",
        auto_delete: false,
        space: { size: "2G" },
        svm: { name: "vs1" },
        clone: { source: { uuid: "u" } },
      }),
    ).toEqual({
      svm: { name: "vs1" },
      space: { size: 2147483648 },
      comment: "c",
      auto_delete: false,
      clone: { source: { uuid: "u" } },
    });
  });

  it("adds no POST default in PATCH (no block_size)", () => {
    expect(nvmeNamespace.encodePatch({ space: { size: 4096 } })).toEqual({ space: { size: 4096 } });
  });

  it("refuses a rename or a move", () => {
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ name: "/vol/vol1/other" })), "name", /cannot be renamed/);
    expectCodecError(
      () => nvmeNamespace.encodePatch(raw({ location: { volume: { name: "vol2" } } })),
      "location",
      /cannot be moved/,
    );
  });

  it("refuses POST-only and read-only fields", () => {
    expectCodecError(() => nvmeNamespace.encodePatch(raw({ os_type: "linux" })), "os_type", /not accepted in PATCH/);
    expectCodecError(
      () => nvmeNamespace.encodePatch(raw({ convert: { lun: { uuid: "l" } } })),
      "convert",
      /not accepted in PATCH/,
    );
    expectCodecError(
      () => nvmeNamespace.encodePatch(raw({ space: { block_size: 512 } })),
      "space.block_size",
      /not accepted in PATCH/,
    );
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
      subsystem_map: {
        nsid: "00000001h",
        anagrpid: "00000001h",
        subsystem: { name: "ss1", uuid: "ss" },
        _links: { self: { href: "/x" } },
      },
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
