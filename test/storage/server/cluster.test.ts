// The reference server's inventory endpoints (src/storage/server/cluster.ts) over real HTTP on loopback.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedUuid } from "../../../src/storage/server/index.js";
import { start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(async () => {
  await h.close();
});

const NODE1 = seedUuid("a", 1);

describe("inventory", () => {
  it("serves nodes, SVMs and volumes with qtrees", async () => {
    const svms = await h.call("GET", "/api/svm/svms");
    expect(svms.body.records.map((s: { name: string }) => s.name)).toEqual(["svm1", "svm2"]);
    const vols = await h.call("GET", "/api/storage/volumes?fields=qtrees,svm.name&name=vol1");
    expect(vols.body.records).toHaveLength(1);
    expect(vols.body.records[0].qtrees).toEqual([
      { id: 1, name: "q1" },
      { id: 2, name: "q2" },
    ]);
    expect(vols.body.records[0].svm.name).toBe("svm1");
    const node = await h.call("GET", `/api/cluster/nodes/${NODE1}`);
    expect(node.body).toMatchObject({ uuid: NODE1, name: "node1" });
  });

  it("takes a configured inventory", async () => {
    const other = await start({
      inventory: {
        nodes: [{ name: "n-a" }],
        svms: [{ name: "vs0" }],
        volumes: [{ name: "v0", svm: "vs0", qtrees: ["t"] }],
        aggregates: [],
        luns: [],
      },
    });
    try {
      const nodes = await other.call("GET", "/api/cluster/nodes");
      expect(nodes.body.records.map((n: { name: string }) => n.name)).toEqual(["n-a"]);
      const vols = await other.call("GET", "/api/storage/volumes?fields=**");
      expect(vols.body.records[0]).toMatchObject({ name: "v0", svm: { name: "vs0" }, qtrees: [{ id: 1, name: "t" }] });
    } finally {
      await other.close();
    }
  });
});
