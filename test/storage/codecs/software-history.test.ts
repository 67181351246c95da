// The software history codec (src/storage/codecs/software-history.ts).

import { describe, expect, it } from "vitest";
import { softwareHistory } from "../../../src/storage/index.js";
import { expectCodecError } from "../../support/storage/codecs-helpers.js";

describe("softwareHistory", () => {
  it("decodes history records", () => {
    const record = {
      node: { name: "node1", uuid: "n1", _links: { self: { href: "/api/cluster/nodes/n1" } } },
      from_version: "9.15.1",
      to_version: "9.16.1",
      state: "successful",
      start_time: "2024-01-01T00:00:00Z",
      end_time: "2024-01-01T01:00:00Z",
    };
    expect(softwareHistory.decode(record)).toEqual(record);
    expect(softwareHistory.decode({ state: "skip_upgrade" }).state).toBe("skip_upgrade");
    expect(softwareHistory.decode({ state: "something_new" }).state).toBe("something_new");
    expectCodecError(() => softwareHistory.decode({ node: [] }), "node", /object/);
  });
});
