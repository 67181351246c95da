// The collection codec (src/storage/codecs/collection.ts).

import { describe, expect, it } from "vitest";
import { cache, collection, nvmeNamespace } from "../../../src/storage/index.js";
import { expectCodecError } from "../../support/storage/codecs-helpers.js";

describe("collection", () => {
  it("decodes records with the item codec and keeps num_records and _links.next", () => {
    const json = {
      records: [
        { uuid: "c1", name: "cache1", _links: { self: { href: "/api/storage/cache/caches/c1" } } },
        { uuid: "c2", name: "cache2", _links: { self: { href: "/api/storage/cache/caches/c2" } } },
      ],
      num_records: 2,
      _links: {
        self: { href: "/api/storage/cache/caches?max_records=2" },
        next: { href: "/api/storage/cache/caches?start.uuid=c2&max_records=2" },
      },
    };
    const page = collection.decode(json, cache);
    expect(page).toEqual(json);
    expect(collection.nextHref(page)).toBe("/api/storage/cache/caches?start.uuid=c2&max_records=2");
    expect(collection.nextHref(collection.decode({ records: [], num_records: 0 }, cache))).toBeUndefined();
  });

  it("keeps a count-only answer without inventing records", () => {
    expect(collection.decode({ num_records: 7 }, cache)).toEqual({ num_records: 7 });
  });

  it("reports errors inside records with records[i].<field>", () => {
    expectCodecError(
      () => collection.decode({ records: [{}, { space: { size: "x" } }] }, nvmeNamespace),
      "records[1].space.size",
      /integer/,
    );
    expectCodecError(() => collection.decode({ records: [1] }, cache), "records[0]", /object/);
    expectCodecError(() => collection.decode({ records: {} }, cache), "records", /array/);
    expectCodecError(() => collection.decode({ num_records: "2" }, cache), "num_records", /integer/);
    expectCodecError(() => collection.decode({ _links: { next: { href: 3 } } }, cache), "_links.next.href", /string/);
    expectCodecError(() => collection.decode([], cache), "", /object/);
  });
});
