// The software package codec (src/storage/codecs/software-package.ts).

import { describe, expect, it } from "vitest";
import { softwarePackage } from "../../../src/storage/index.js";
import { expectCodecError } from "../../support/storage/codecs-helpers.js";

describe("softwarePackage", () => {
  it("decodes packages", () => {
    const pkg = {
      version: "9.16.1",
      create_time: "2024-01-01T00:00:00+00:00",
      _links: { self: { href: "/api/cluster/software/packages/9.16.1" } },
    };
    expect(softwarePackage.decode(pkg)).toEqual(pkg);
    expectCodecError(() => softwarePackage.decode({ version: 9 }), "version", /string/);
  });
});
