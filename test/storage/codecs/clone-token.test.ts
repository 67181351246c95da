// The clone-token codec (src/storage/codecs/clone-token.ts): every body rule of
// ../shared/spec/interface-spec.md Area A for clone tokens, plus the ../shared/docs/storage-api.md §4 decisions that concern them.

import { describe, expect, it } from "vitest";
import { cloneToken, type CloneTokenPatchInput, type CloneTokenPostInput } from "../../../src/storage/index.js";
import { expectCodecError, raw } from "../../support/storage/codecs-helpers.js";

const NODE = "0b0a3a50-6f5e-11ea-9cb8-005056bb5d87";

describe("cloneToken.encodePost", () => {
  it("sends the spec example: 40M comes out as 41943040 bytes", () => {
    expect(
      cloneToken.encodePost({ node: { uuid: NODE }, reserve_size: "40M", expiry_time: { limit: "4200" } }),
    ).toEqual({
      node: { uuid: NODE },
      reserve_size: 41943040,
      expiry_time: { limit: "4200" },
    });
  });

  it("keeps the body exact: schema order, nothing added", () => {
    const body = cloneToken.encodePost({ expiry_time: { limit: 60 }, reserve_size: 8192, node: { uuid: NODE } });
    expect(JSON.stringify(body)).toBe(`{"node":{"uuid":"${NODE}"},"reserve_size":8192,"expiry_time":{"limit":"60"}}`);
  });

  it.each([
    [0, 4096],
    [1, 4096],
    [4095, 4096],
    ["1K", 4096],
    ["4095B", 4096],
    [4096, 4096],
    [4097, 4097],
    ["1M", 1048576],
  ])("raises reserve_size %j to the 4 KiB minimum → %d", (input, bytes) => {
    expect(cloneToken.encodePost({ node: { uuid: NODE }, reserve_size: input }).reserve_size).toBe(bytes);
  });

  it("leaves expiry_time out when absent (the server applies its default 60)", () => {
    expect(cloneToken.encodePost({ node: { uuid: NODE }, reserve_size: 4096 })).toEqual({
      node: { uuid: NODE },
      reserve_size: 4096,
    });
  });

  it('fills the default limit "60" inside a supplied empty expiry_time', () => {
    expect(cloneToken.encodePost({ node: { uuid: NODE }, reserve_size: 4096, expiry_time: {} }).expiry_time).toEqual({
      limit: "60",
    });
  });

  it.each([
    [4200, "4200"],
    ["4200", "4200"],
    ["0060", "60"],
    ["PT1H10M", "4200"],
    ["P1D", "86400"],
    ["PT90M", "5400"],
  ])("sends expiry_time.limit %j as the string of seconds %j", (limit, sent) => {
    expect(
      cloneToken.encodePost({ node: { uuid: NODE }, reserve_size: 4096, expiry_time: { limit } }).expiry_time,
    ).toEqual({
      limit: sent,
    });
  });

  it.each([[-1], [1.5], ["1h"], ["P1M"], ["PT"], [true], [""], [" 60"]])("rejects the lifetime %j", (limit) => {
    expectCodecError(
      () => cloneToken.encodePost(raw({ node: { uuid: NODE }, reserve_size: 4096, expiry_time: { limit } })),
      "expiry_time.limit",
    );
  });

  it("requires node.uuid and reserve_size", () => {
    expectCodecError(() => cloneToken.encodePost(raw({ reserve_size: 4096 })), "node.uuid", /required/);
    expectCodecError(() => cloneToken.encodePost(raw({ node: {}, reserve_size: 4096 })), "node.uuid", /required/);
    expectCodecError(() => cloneToken.encodePost(raw({ node: { uuid: NODE } })), "reserve_size", /required/);
  });

  it("rejects read-only and unknown fields instead of dropping them", () => {
    const base = { node: { uuid: NODE }, reserve_size: 4096 };
    expectCodecError(() => cloneToken.encodePost(raw({ ...base, uuid: "x" })), "uuid", /read-only/);
    expectCodecError(() => cloneToken.encodePost(raw({ ...base, _links: {} })), "_links", /read-only/);
    expectCodecError(
      () => cloneToken.encodePost(raw({ ...base, node: { uuid: NODE, name: "n1" } })),
      "node.name",
      /read-only/,
    );
    expectCodecError(
      () => cloneToken.encodePost(raw({ ...base, expiry_time: { limit: "60", left: "PT1M" } })),
      "expiry_time.left",
      /read-only/,
    );
    expectCodecError(() => cloneToken.encodePost(raw({ ...base, size: 1 })), "size", /unknown field/);
    expectCodecError(
      () => cloneToken.encodePost(raw({ ...base, "expiry_time.limit": "60" })),
      "expiry_time.limit",
      /dotted keys/,
    );
  });

  it("rejects structurally wrong input with the path", () => {
    expectCodecError(() => cloneToken.encodePost(raw(null)), "", /must be an object/);
    expectCodecError(() => cloneToken.encodePost(raw([])), "", /must be an object/);
    expectCodecError(
      () => cloneToken.encodePost(raw({ node: NODE, reserve_size: 1 })),
      "node",
      /must be an object, got a string/,
    );
    expectCodecError(() => cloneToken.encodePost(raw({ node: { uuid: 7 }, reserve_size: 1 })), "node.uuid", /string/);
    expectCodecError(
      () => cloneToken.encodePost(raw({ node: { uuid: NODE }, reserve_size: "1.5G" })),
      "reserve_size",
      /1\.5G/,
    );
    expectCodecError(
      () => cloneToken.encodePost(raw({ node: { uuid: NODE }, reserve_size: "8P" })),
      "reserve_size",
      /larger/,
    );
  });

  it("treats undefined members as absent", () => {
    expect(cloneToken.encodePost(raw({ node: { uuid: NODE }, reserve_size: 4096, expiry_time: undefined }))).toEqual({
      node: { uuid: NODE },
      reserve_size: 4096,
    });
  });
});

describe("cloneToken.encodePatch", () => {
  it("sends only expiry_time.limit, as a string of seconds", () => {
    expect(cloneToken.encodePatch({ expiry_time: { limit: "PT2H" } })).toEqual({ expiry_time: { limit: "7200" } });
    expect(cloneToken.encodePatch({ expiry_time: { limit: 300 } })).toEqual({ expiry_time: { limit: "300" } });
  });

  it("requires expiry_time.limit and adds no default", () => {
    expectCodecError(() => cloneToken.encodePatch(raw({})), "expiry_time.limit", /required/);
    expectCodecError(() => cloneToken.encodePatch(raw({ expiry_time: {} })), "expiry_time.limit", /required/);
  });

  it("refuses fields PATCH does not accept", () => {
    const limit = { expiry_time: { limit: 60 } };
    expectCodecError(
      () => cloneToken.encodePatch(raw({ ...limit, reserve_size: 4096 })),
      "reserve_size",
      /not accepted in PATCH/,
    );
    expectCodecError(
      () => cloneToken.encodePatch(raw({ ...limit, node: { uuid: NODE } })),
      "node",
      /not accepted in PATCH/,
    );
    expectCodecError(
      () => cloneToken.encodePatch(raw({ expiry_time: { limit: 60, left: "PT1S" } })),
      "expiry_time.left",
      /read-only/,
    );
  });
});

describe("cloneToken.decode", () => {
  it("decodes a token; durations stay strings; nothing is defaulted", () => {
    const json = {
      node: { uuid: NODE, name: "node1", _links: { self: { href: `/api/cluster/nodes/${NODE}` } } },
      uuid: "tok-1",
      reserve_size: 41943040,
      expiry_time: { limit: "PT1H10M", left: "PT1H9M50S" },
      _links: { self: { href: `/api/storage/file/clone/tokens/${NODE}/tok-1` } },
    };
    expect(cloneToken.decode(json)).toEqual(json);
    expect(cloneToken.decode({ uuid: "t" })).toEqual({ uuid: "t" });
  });

  it("keeps unknown fields a newer server sends", () => {
    expect(cloneToken.decode({ uuid: "t", future: { x: 1 } })).toEqual({ uuid: "t", future: { x: 1 } });
  });

  it("refuses structurally wrong responses with the path", () => {
    expectCodecError(() => cloneToken.decode("x"), "", /object/);
    expectCodecError(() => cloneToken.decode({ node: "n" }), "node", /object/);
    expectCodecError(() => cloneToken.decode({ reserve_size: "40M" }), "reserve_size", /integer/);
    expectCodecError(() => cloneToken.decode({ reserve_size: 1.5 }), "reserve_size", /safe integer/);
    expectCodecError(() => cloneToken.decode({ reserve_size: 2 ** 53 }), "reserve_size", /safe integer/);
    expectCodecError(() => cloneToken.decode({ expiry_time: { left: 60 } }), "expiry_time.left", /string/);
    expectCodecError(() => cloneToken.decode({ _links: { self: { href: 1 } } }), "_links.self.href", /string/);
    expectCodecError(() => cloneToken.decode({ _links: { self: "x" } }), "_links.self", /object/);
    expectCodecError(() => cloneToken.decode({ uuid: null }), "uuid", /got null/);
  });

  it("returns a fresh object", () => {
    const json = { expiry_time: { limit: "PT1M" } };
    const decoded = cloneToken.decode(json);
    expect(decoded.expiry_time).not.toBe(json.expiry_time);
  });
});

describe("types", () => {
  it("the input types describe what the encoders accept", () => {
    const post: CloneTokenPostInput = { node: { uuid: NODE }, reserve_size: "4K" };
    const patch: CloneTokenPatchInput = { expiry_time: { limit: "PT1M" } };
    expect(cloneToken.encodePost(post)).toBeTruthy();
    expect(cloneToken.encodePatch(patch)).toBeTruthy();
  });
});
