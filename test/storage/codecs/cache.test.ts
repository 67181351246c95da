// The cache codec (src/storage/codecs/cache.ts): every body rule of ../shared/spec/interface-spec.md Area A
// for caches, plus the ../shared/docs/storage-api.md §4 decisions that concern them.

import { describe, expect, it } from "vitest";
import { cache, type CachePatchInput, type CachePostInput } from "../../../src/storage/index.js";
import { expectCodecError, raw } from "../../support/storage/codecs-helpers.js";

const minimalCache: CachePostInput = {
  name: "vol_cache",
  svm: { name: "vs1" },
  origins: [{ svm: { name: "vs0" }, volume: { name: "vol_origin" } }],
};

describe("cache.encodePost", () => {
  it("sends the minimal body unchanged (no top-level defaults invented)", () => {
    expect(cache.encodePost(minimalCache)).toEqual(minimalCache);
  });

  it("converts Sizes and keeps schema order", () => {
    const body = cache.encodePost({
      ...minimalCache,
      size: "10G",
      constituents_per_aggregate: "4",
      aggregates: [{ name: "aggr1" }],
      path: "/vol_cache",
    });
    expect(body["size"]).toBe(10737418240);
    expect(body["constituents_per_aggregate"]).toBe(4);
    expect(Object.keys(body)).toEqual([
      "name",
      "svm",
      "origins",
      "aggregates",
      "path",
      "size",
      "constituents_per_aggregate",
    ]);
  });

  it("fills the sub-object defaults only inside sub-objects given", () => {
    const body = cache.encodePost({
      ...minimalCache,
      guarantee: {},
      writeback: {},
      relative_size: {},
      atime_scrub: { enabled: true },
      cifs_change_notify: {},
      prepopulate: { dir_paths: ["/dir1"] },
    });
    expect(body).toMatchObject({
      guarantee: { type: "none" },
      writeback: { enabled: false },
      relative_size: { enabled: false, percentage: 10 },
      atime_scrub: { enabled: true, period: 30 },
      cifs_change_notify: { enabled: false },
      prepopulate: { dir_paths: ["/dir1"], recurse: true },
    });
    expect(JSON.stringify(body["relative_size"])).toBe('{"enabled":false,"percentage":10}');
    const plain = cache.encodePost(minimalCache);
    for (const key of [
      "guarantee",
      "writeback",
      "relative_size",
      "atime_scrub",
      "cifs_change_notify",
      "prepopulate",
      "dr_cache",
      "use_tiered_aggregate",
      "constituents_per_aggregate",
      "size",
    ]) {
      expect(plain).not.toHaveProperty(key);
    }
  });

  it("keeps the values the caller gave over defaults", () => {
    const body = cache.encodePost({
      ...minimalCache,
      guarantee: { type: "volume" },
      relative_size: { enabled: true, percentage: 25 },
      atime_scrub: { enabled: true, period: 7 },
      prepopulate: { dir_paths: ["/a"], exclude_dir_paths: ["/a/tmp"], recurse: false },
    });
    expect(body).toMatchObject({
      guarantee: { type: "volume" },
      relative_size: { enabled: true, percentage: 25 },
      atime_scrub: { enabled: true, period: 7 },
      prepopulate: { dir_paths: ["/a"], exclude_dir_paths: ["/a/tmp"], recurse: false },
    });
  });

  it("accepts the P-only and boolean POST fields", () => {
    const body = cache.encodePost({
      ...minimalCache,
      use_tiered_aggregate: true,
      is_disconnected_mode_off_for_locks: true,
      dr_cache: true,
      global_file_locking_enabled: true,
      override_encryption: true,
    });
    expect(body).toMatchObject({ is_disconnected_mode_off_for_locks: true, dr_cache: true });
  });

  it("refuses is_disconnected_mode_off_for_locks false with global file locking", () => {
    expectCodecError(
      () =>
        cache.encodePost({
          ...minimalCache,
          global_file_locking_enabled: true,
          is_disconnected_mode_off_for_locks: false,
        }),
      "is_disconnected_mode_off_for_locks",
      /always true/,
    );
  });

  it("requires name, svm name/uuid and origins with volume and svm.name", () => {
    const { name: _n, ...noName } = minimalCache;
    expectCodecError(() => cache.encodePost(raw(noName)), "name", /required/);
    expectCodecError(() => cache.encodePost(raw({ ...minimalCache, svm: undefined })), "svm", /required/);
    expectCodecError(() => cache.encodePost(raw({ ...minimalCache, svm: {} })), "svm", /`svm.name` or `svm.uuid`/);
    expectCodecError(() => cache.encodePost(raw({ ...minimalCache, origins: undefined })), "origins", /at least one/);
    expectCodecError(() => cache.encodePost(raw({ ...minimalCache, origins: [] })), "origins", /at least one/);
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, origins: [{ svm: { name: "vs0" }, volume: {} }] })),
      "origins[0].volume",
      /volume.name` or `origins\[0\].volume.uuid/,
    );
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, origins: [{ svm: { name: "vs0" } }] })),
      "origins[0].volume",
      /required/,
    );
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, origins: [{ svm: { uuid: "u" }, volume: { uuid: "v" } }] })),
      "origins[0].svm.name",
      /required/,
    );
    expect(
      cache.encodePost(
        raw({ ...minimalCache, svm: { uuid: "s" }, origins: [{ svm: { name: "vs0" }, volume: { uuid: "v" } }] }),
      ),
    ).toMatchObject({ svm: { uuid: "s" } });
  });

  it.each([["relative"], ["/ends/"], ["/"], [""]])("rejects the path %j", (path) => {
    expectCodecError(() => cache.encodePost({ ...minimalCache, path }), "path", /must (start|not end)/);
  });

  it("accepts a valid path", () => {
    expect(cache.encodePost({ ...minimalCache, path: "/cache/vol1" })["path"]).toBe("/cache/vol1");
  });

  it("refuses read-only fields and bad enums", () => {
    expectCodecError(() => cache.encodePost(raw({ ...minimalCache, uuid: "u" })), "uuid", /read-only/);
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, origins: [{ ...minimalCache.origins[0], state: "online" }] })),
      "origins[0].state",
      /read-only/,
    );
    expectCodecError(
      () =>
        cache.encodePost(raw({ ...minimalCache, origins: [{ ...minimalCache.origins[0], ip_address: "10.0.0.1" }] })),
      "origins[0].ip_address",
      /read-only/,
    );
    expectCodecError(
      () =>
        cache.encodePost(raw({ ...minimalCache, origins: [{ ...minimalCache.origins[0], cluster: { name: "c" } }] })),
      "origins[0].cluster",
      /read-only/,
    );
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, guarantee: { type: "file" } })),
      "guarantee.type",
      /one of "volume", "none"/,
    );
    expectCodecError(() => cache.encodePost(raw({ ...minimalCache, dr_cache: "true" })), "dr_cache", /boolean/);
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, relative_size: { percentage: 1.5 } })),
      "relative_size.percentage",
      /integer/,
    );
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, prepopulate: { dir_paths: "/a" } })),
      "prepopulate.dir_paths",
      /array/,
    );
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, prepopulate: { dir_paths: ["/a", 3] } })),
      "prepopulate.dir_paths[1]",
      /string/,
    );
    expectCodecError(
      () => cache.encodePost(raw({ ...minimalCache, cifs: { enabled: true } })),
      "cifs",
      /unknown field/,
    );
  });
});

describe("cache.encodePatch", () => {
  it("sends the PATCH fields; only prepopulate.recurse is defaulted", () => {
    const input: CachePatchInput = {
      prepopulate: { dir_paths: ["/d"] },
      writeback: { enabled: true },
      relative_size: { enabled: true },
      atime_scrub: { period: 10 },
      cifs_change_notify: { enabled: true },
    };
    expect(cache.encodePatch(input)).toEqual({
      writeback: { enabled: true },
      relative_size: { enabled: true },
      atime_scrub: { period: 10 },
      cifs_change_notify: { enabled: true },
      prepopulate: { dir_paths: ["/d"], recurse: true },
    });
    expect(cache.encodePatch({ writeback: {} })).toEqual({ writeback: {} });
    expect(cache.encodePatch({})).toEqual({});
  });

  it.each([
    ["name"],
    ["svm"],
    ["origins"],
    ["aggregates"],
    ["path"],
    ["size"],
    ["guarantee"],
    ["dr_cache"],
    ["use_tiered_aggregate"],
    ["is_disconnected_mode_off_for_locks"],
    ["global_file_locking_enabled"],
    ["override_encryption"],
    ["constituents_per_aggregate"],
  ])("refuses %s in PATCH", (key) => {
    expectCodecError(() => cache.encodePatch(raw({ [key]: "x" })), key, /not accepted in PATCH/);
  });

  it("refuses read-only fields in PATCH", () => {
    expectCodecError(() => cache.encodePatch(raw({ uuid: "u" })), "uuid", /read-only/);
  });
});

describe("cache.decode", () => {
  it("decodes a full record, keeping _links and unknown fields, leniently on enums", () => {
    const json = {
      uuid: "c1",
      name: "vol_cache",
      svm: { name: "vs1", uuid: "s1", _links: { self: { href: "/api/svm/svms/s1" } } },
      origins: [
        {
          svm: { name: "vs0", uuid: "s0" },
          volume: { name: "vol_origin", uuid: "v0" },
          cluster: { name: "c", uuid: "cl" },
          ip_address: "10.0.0.1",
          size: 10737418240,
          state: "degraded_future_state",
          create_time: "2024-01-01T00:00:00+00:00",
        },
      ],
      aggregates: [{ name: "aggr1", uuid: "a1" }],
      path: "/vol_cache",
      size: 1073741824,
      guarantee: { type: "none" },
      constituents_per_aggregate: 4,
      dr_cache: false,
      writeback: { enabled: false },
      relative_size: { enabled: false, percentage: 10 },
      atime_scrub: { enabled: false, period: 30 },
      cifs_change_notify: { enabled: false },
      cifs: { enabled: true },
      _links: { self: { href: "/api/storage/cache/caches/c1" } },
    };
    expect(cache.decode(json)).toEqual(json);
  });

  it("refuses wrong shapes with the path", () => {
    expectCodecError(() => cache.decode({ origins: {} }), "origins", /array/);
    expectCodecError(() => cache.decode({ origins: [{ size: "1G" }] }), "origins[0].size", /integer/);
    expectCodecError(() => cache.decode({ guarantee: { type: 1 } }), "guarantee.type", /string/);
    expectCodecError(() => cache.decode({ writeback: true }), "writeback", /object/);
  });
});
