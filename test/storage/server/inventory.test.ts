// The reference server's inventory (src/storage/server/inventory.ts): the seeded cluster the docs
// describe, its readable uuids, and buildInventory, where each list given replaces the seeded list
// of that kind and every member left out gets its documented default.
import { describe, expect, it } from "vitest";
import { DEFAULT_INVENTORY, buildInventory, seedUuid } from "../../../src/storage/server/inventory.js";

const GiB = 1024 ** 3;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("seedUuid", () => {
  it("is a fixed v4-shaped uuid: the kind letter, then the 1-based position in 11 digits", () => {
    expect(seedUuid("a", 1)).toBe("00000000-0000-4000-8000-a00000000001");
    expect(seedUuid("f", 12345678901)).toBe("00000000-0000-4000-8000-f12345678901");
    for (const kind of ["a", "b", "c", "d", "e", "f"] as const) expect(seedUuid(kind, 7)).toMatch(UUID_V4);
  });
});

describe("DEFAULT_INVENTORY", () => {
  it("is the seeded cluster the docs list", () => {
    const d = DEFAULT_INVENTORY;
    expect(d.cluster).toEqual({ name: "cluster1", uuid: seedUuid("f", 1) });
    expect(d.nodes.map((n) => [n.name, n.uuid, n.model])).toEqual([
      ["node1", seedUuid("a", 1), "sim"],
      ["node2", seedUuid("a", 2), "sim"],
    ]);
    expect(d.svms.map((s) => [s.name, s.uuid])).toEqual([
      ["svm1", seedUuid("b", 1)],
      ["svm2", seedUuid("b", 2)],
    ]);
    expect(d.aggregates.map((a) => [a.name, a.node])).toEqual([
      ["aggr1", "node1"],
      ["aggr2", "node2"],
    ]);
    expect(
      d.volumes.map((v) => [v.name, v.svm, v.size, v.path, v.style ?? "flexvol", v.state ?? "online", v.qtrees]),
    ).toEqual([
      ["vol1", "svm1", 100 * GiB, "/vol1", "flexvol", "online", ["q1", "q2"]],
      ["vol2", "svm1", 20 * GiB, "/vol2", "flexvol", "online", []],
      ["vol3", "svm2", 50 * GiB, "/vol3", "flexvol", "online", ["qa"]],
      ["fg1", "svm1", 200 * GiB, undefined, "flexgroup", "online", []],
      ["vol_offline", "svm1", 10 * GiB, undefined, "flexvol", "offline", []],
    ]);
    expect(d.volumes.find((v) => v.name === "fg1")?.aggregates).toEqual(["aggr1", "aggr2"]);
    expect(d.luns.map((l) => [l.name, l.svm, l.os_type, l.size, l.mapped ?? false])).toEqual([
      ["/vol/vol1/lun1", "svm1", "linux", GiB, false],
      ["/vol/vol1/lun_mapped", "svm1", "linux", GiB, true],
      ["/vol/vol1/lun_hyperv", "svm1", "hyper_v", GiB, false],
    ]);
  });

  it("gives every seeded object a distinct seed uuid of its kind", () => {
    const d = DEFAULT_INVENTORY;
    const kinds: [string, readonly { uuid?: string }[]][] = [
      ["a", d.nodes],
      ["b", d.svms],
      ["c", d.aggregates],
      ["d", d.volumes],
      ["e", d.luns],
    ];
    for (const [kind, list] of kinds) {
      expect(list.map((x) => x.uuid)).toEqual(list.map((_, i) => seedUuid(kind as "a", i + 1)));
    }
  });
});

describe("buildInventory", () => {
  it("without input is the seeded inventory, each volume and LUN tied to its SVM", () => {
    const inv = buildInventory();
    expect(inv.cluster).toEqual({ name: "cluster1", uuid: seedUuid("f", 1) });
    expect(inv.nodes.map((n) => n.name)).toEqual(["node1", "node2"]);
    const vol1 = inv.volumes[0];
    expect(vol1).toEqual({
      name: "vol1",
      uuid: seedUuid("d", 1),
      svm: { name: "svm1", uuid: seedUuid("b", 1) },
      size: 100 * GiB,
      style: "flexvol",
      state: "online",
      path: "/vol1",
      aggregates: ["aggr1"],
      qtrees: [
        { id: 1, name: "q1" },
        { id: 2, name: "q2" },
      ],
      quotaEnabled: true,
    });
    expect(vol1?.svm).toBe(inv.svms[0]);
    expect(inv.luns[1]).toEqual({
      name: "/vol/vol1/lun_mapped",
      uuid: seedUuid("e", 2),
      svm: inv.svms[0],
      os_type: "linux",
      size: GiB,
      mapped: true,
      protocolEndpoint: false,
      foreignImport: false,
      vvolBound: false,
    });
  });

  it("replaces only the lists given, and fills each member left out with its default", () => {
    const inv = buildInventory({
      svms: [{ name: "vs0" }],
      volumes: [{ name: "data", svm: "vs0" }],
      luns: [{ name: "/vol/data/l", svm: "vs0", os_type: "linux", size: 4096, vvol_bound: true }],
      aggregates: [{ name: "ag" }],
    });
    expect(inv.nodes.map((n) => n.name)).toEqual(["node1", "node2"]);
    expect(inv.svms).toHaveLength(1);
    expect(inv.svms[0]?.uuid).toMatch(UUID_V4);
    expect(inv.aggregates).toEqual([{ name: "ag", uuid: expect.stringMatching(UUID_V4), node: "node1" }]);
    expect(inv.volumes[0]).toMatchObject({
      name: "data",
      svm: inv.svms[0],
      size: 100 * GiB,
      style: "flexvol",
      state: "online",
      path: undefined,
      aggregates: [],
      qtrees: [],
      quotaEnabled: true,
    });
    expect(inv.luns[0]).toMatchObject({
      mapped: false,
      protocolEndpoint: false,
      foreignImport: false,
      vvolBound: true,
    });
  });

  it("takes the cluster's name and uuid, and node models, as given", () => {
    const inv = buildInventory({
      cluster: { name: "shop" },
      nodes: [{ name: "n1", model: "AFF-A900" }, { name: "n2" }],
    });
    expect(inv.cluster).toEqual({ name: "shop", uuid: seedUuid("f", 1) });
    expect(inv.nodes.map((n) => [n.name, n.model])).toEqual([
      ["n1", "AFF-A900"],
      ["n2", "sim"],
    ]);
    expect(inv.nodes[0]?.uuid).not.toBe(inv.nodes[1]?.uuid);
  });

  it("an aggregate without a node goes on the first node, or none when there are no nodes", () => {
    expect(buildInventory({ nodes: [], aggregates: [{ name: "ag" }] }).aggregates[0]?.node).toBe("");
  });

  it("refuses a volume or LUN naming an SVM that does not exist", () => {
    expect(() => buildInventory({ svms: [{ name: "vs0" }], volumes: [{ name: "v", svm: "svm1" }], luns: [] })).toThrow(
      'inventory: SVM "svm1" does not exist',
    );
    expect(() =>
      buildInventory({ volumes: [], luns: [{ name: "/vol/v/l", svm: "nope", os_type: "linux", size: 1 }] }),
    ).toThrow('inventory: SVM "nope" does not exist');
  });

  it("builds fresh objects each time: changing one inventory changes neither the seed nor another", () => {
    const a = buildInventory();
    const b = buildInventory();
    a.volumes.pop();
    a.svms[0] = { name: "changed", uuid: "x" };
    expect(b.volumes).toHaveLength(5);
    expect(b.svms[0]?.name).toBe("svm1");
    expect(DEFAULT_INVENTORY.volumes).toHaveLength(5);
    expect(DEFAULT_INVENTORY.svms[0]?.name).toBe("svm1");
  });
});
