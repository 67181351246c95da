// The cluster node codec (src/storage/codecs/cluster-node.ts).

import { describe, expect, it } from "vitest";
import { clusterNode } from "../../../src/storage/index.js";
import { expectCodecError } from "../../support/storage/codecs-helpers.js";

describe("clusterNode", () => {
  it("decodes a record, keeping members the model does not name", () => {
    const json = {
      uuid: "00000000-0000-4000-8000-a00000000001",
      name: "node1",
      model: "sim",
      _links: { self: { href: "/api/cluster/nodes/00000000-0000-4000-8000-a00000000001" } },
    };
    expect(clusterNode.decode(json)).toEqual(json);
    expect(clusterNode.decode({ name: "node1", serial_number: "1" })).toEqual({ name: "node1", serial_number: "1" });
  });

  it("names the member of the wrong type", () => {
    expectCodecError(() => clusterNode.decode({ model: 1 }), "model", /string/);
    expectCodecError(() => clusterNode.decode({ uuid: null }), "uuid");
    expectCodecError(() => clusterNode.decode("node1"), "");
  });
});
