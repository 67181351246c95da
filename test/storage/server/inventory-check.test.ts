// The reference server's inventory is checked in the library: createReferenceServer refuses a
// bad one with an InventoryError carrying the field path of every problem (the CLI maps those
// paths back to lines and columns; see test/cli/storage/command.test.ts).
import { describe, expect, it } from "vitest";
import {
  DEFAULT_INVENTORY,
  InventoryError,
  checkInventory,
  createReferenceServer,
  formatInventoryPath,
  validateInventory,
  type InventoryInput,
} from "../../../src/storage/server/index.js";

async function refused(inventory: unknown): Promise<InventoryError> {
  try {
    const server = await createReferenceServer({ inventory: inventory as InventoryInput });
    await server.close();
  } catch (err) {
    expect(err).toBeInstanceOf(InventoryError);
    return err as InventoryError;
  }
  throw new Error("expected createReferenceServer to refuse the inventory");
}

const GiB = 1024 ** 3;

describe("createReferenceServer({ inventory })", () => {
  it.each([
    [
      "an unknown field",
      { volumes: [{ name: "v", svm: "svm1", sise: 1 }] },
      "volumes[0].sise",
      /unknown field "sise"; expected name, uuid, svm, size/,
    ],
    ["an unknown list", { volume: [] }, "volume", /unknown field "volume"/],
    ["a wrong type", { nodes: [{ name: 5 }] }, "nodes[0].name", /must be a non-empty string, got number 5/],
    ["a list that is not one", { svms: { name: "a" } }, "svms", /must be a list, got a mapping/],
    [
      "a bad enum",
      { volumes: [{ name: "v", svm: "svm1", style: "flexible" }] },
      "volumes[0].style",
      /must be one of flexvol, flexgroup/,
    ],
    ["a bad UUID", { svms: [{ name: "a", uuid: "svm-a" }] }, "svms[0].uuid", /must be a UUID/],
    [
      "a bad size",
      { luns: [{ name: "/vol/vol1/l", svm: "svm1", os_type: "linux", size: "1.5G" }] },
      "luns[0].size",
      /must be a size/,
    ],
    ["a negative size", { volumes: [{ name: "v", svm: "svm1", size: -1 }] }, "volumes[0].size", /must be a size/],
    [
      "a missing required field",
      { luns: [{ name: "/vol/vol1/l", svm: "svm1", size: 1 }] },
      "luns[0]",
      /missing required field "os_type"/,
    ],
    [
      "a dangling SVM",
      { svms: [{ name: "a" }], volumes: [{ name: "v", svm: "b" }] },
      "volumes[0].svm",
      /SVM "b" is not in svms \(a\)/,
    ],
    [
      "a dangling SVM of a LUN",
      { luns: [{ name: "/vol/vol1/l", svm: "nope", os_type: "linux", size: 1 }] },
      "luns[0].svm",
      /SVM "nope" is not in svms \(svm1, svm2\)/,
    ],
    [
      "a dangling node",
      { aggregates: [{ name: "a", node: "node9" }] },
      "aggregates[0].node",
      /node "node9" is not in nodes \(node1, node2\)/,
    ],
    [
      "a dangling aggregate",
      { volumes: [{ name: "v", svm: "svm1", aggregates: ["aggr1", "aggr9"] }] },
      "volumes[0].aggregates[1]",
      /aggregate "aggr9" is not in aggregates/,
    ],
    [
      "an empty list referenced",
      { aggregates: [], volumes: [{ name: "v", svm: "svm1", aggregates: ["aggr1"] }] },
      "volumes[0].aggregates[0]",
      /\(the list is empty\)/,
    ],
    ["a duplicate name", { svms: [{ name: "a" }, { name: "a" }] }, "svms[1].name", /duplicate name "a"/],
    [
      "a duplicate volume in an SVM",
      {
        volumes: [
          { name: "v", svm: "svm1" },
          { name: "v", svm: "svm1" },
        ],
      },
      "volumes[1].name",
      /duplicate volume "v" in SVM "svm1"/,
    ],
    [
      "a bad LUN path",
      { luns: [{ name: "vol1/l", svm: "svm1", os_type: "linux", size: 1 }] },
      "luns[0].name",
      /must be a LUN path \/vol\/<volume>\[\/<qtree>\]\/<name>/,
    ],
    ["not a mapping", ["svms"], "", /the inventory must be a mapping/],
  ])("rejects %s with an InventoryError at the field", async (_what, inventory, path, message) => {
    const err = await refused(inventory);
    expect(err.path).toBe(path);
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]?.message).toMatch(message);
    expect(err.message).toBe(
      path === "" ? `inventory: ${err.issues[0]?.message}` : `inventory: ${path}: ${err.issues[0]?.message}`,
    );
  });

  it("lists every problem; path is the first one's", async () => {
    const err = await refused({ foo: 1, nodes: [{ model: "x" }], svms: [{ name: "" }] });
    expect(err.issues.map((i) => formatInventoryPath(i.path))).toEqual(["foo", "nodes[0]", "svms[0].name"]);
    expect(err.issues[0]).toMatchObject({ path: ["foo"], atKey: true });
    expect(err.path).toBe("foo");
    expect(err.message).toMatch(
      /^inventory: 3 problems: foo: unknown field "foo"; .*; nodes\[0\]: missing required field "name"; svms\[0\]\.name: must be a non-empty string/,
    );
  });

  it("references are checked against the seeded lists the inventory leaves in place", async () => {
    // No svms given: the seeded svm1 is there; no aggregates given: aggr2 is seeded.
    const server = await createReferenceServer({
      inventory: { volumes: [{ name: "v", svm: "svm1", aggregates: ["aggr2"] }] },
    });
    try {
      expect(server.inventory.volumes.map((v) => v.name)).toEqual(["v"]);
      expect(server.inventory.svms.map((s) => s.name)).toEqual(DEFAULT_INVENTORY.svms.map((s) => s.name));
    } finally {
      await server.close();
    }
  });

  it("accepts the seeded inventory as given, and Size strings as bytes", async () => {
    expect(checkInventory(DEFAULT_INVENTORY).issues).toEqual([]);
    const inv = validateInventory({
      volumes: [{ name: "v", svm: "svm1", size: "20G" }],
      luns: [{ name: "/vol/v/q/l", svm: "svm1", os_type: "linux", size: "1g" }],
    });
    expect(inv.volumes?.[0]?.size).toBe(20 * GiB);
    expect(inv.luns?.[0]?.size).toBe(GiB);
    const server = await createReferenceServer({
      inventory: { volumes: [{ name: "v", svm: "svm1", size: "20G" as unknown as number }] },
    });
    try {
      expect(server.inventory.volumes[0]?.size).toBe(20 * GiB);
    } finally {
      await server.close();
    }
  });
});
