// The seeded, configurable inventory of the reference server: the cluster, its nodes,
// SVMs, aggregates, volumes (with qtrees) and LUNs (for namespace conversion). Readable at
// /api/cluster/nodes, /api/svm/svms, /api/storage/aggregates, /api/storage/volumes and
// /api/storage/luns. Each list given in the options replaces the seeded list of that kind.

import { randomUUID } from "node:crypto";

/**
 * The inventory a reference server starts with. Each list given replaces the seeded list of that kind ({@link
 * DEFAULT_INVENTORY}); sizes are bytes.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer({
 *   inventory: {
 *     svms: [{ name: "vs0" }],
 *     volumes: [{ name: "data", svm: "vs0", size: 10 * 1024 ** 3, qtrees: ["home"] }],
 *     luns: [], // the seeded LUNs are in vol1 of svm1
 *   },
 * });
 * console.log(server.inventory.volumes.map((v) => v.name)); // [ "data" ]
 * await server.close();
 * ```
 */
export interface InventoryInput {
  /** The cluster's name and uuid. */
  readonly cluster?: { readonly name?: string; readonly uuid?: string };
  /** The cluster's nodes. */
  readonly nodes?: readonly { readonly name: string; readonly uuid?: string; readonly model?: string }[];
  /** The SVMs. */
  readonly svms?: readonly { readonly name: string; readonly uuid?: string }[];
  /** The aggregates, each on a node. */
  readonly aggregates?: readonly { readonly name: string; readonly uuid?: string; readonly node?: string }[];
  /** The volumes, each in an SVM. */
  readonly volumes?: readonly VolumeInput[];
  /** The LUNs, each in a volume of an SVM. */
  readonly luns?: readonly LunInput[];
}

/**
 * A volume of the inventory.
 *
 * @example
 * ```ts
 * import type { VolumeInput } from "clusterwire/storage/server";
 *
 * const volume: VolumeInput = { name: "data", svm: "svm1", size: 50 * 1024 ** 3, path: "/data", aggregates: ["aggr1"], qtrees: ["q1"] };
 * ```
 */
export interface VolumeInput {
  /** The volume's name. */
  readonly name: string;
  /** Its uuid; default a random one. */
  readonly uuid?: string;
  /** SVM name. */
  readonly svm: string;
  /** Bytes; default 100 GiB. */
  readonly size?: number;
  /** `flexgroup` volumes cannot be cache origins; default `flexvol`. */
  readonly style?: "flexvol" | "flexgroup";
  /** `offline` origins make cache creation jobs fail; default `online`. */
  readonly state?: "online" | "offline";
  /** Junction path in the SVM namespace (taken into account for cache path uniqueness). */
  readonly path?: string;
  /** Aggregate names. */
  readonly aggregates?: readonly string[];
  /** Qtree names (ids are assigned 1, 2, ...). */
  readonly qtrees?: readonly string[];
  /** Whether quota is enabled on the volume (default true). */
  readonly quota_enabled?: boolean;
}

/**
 * A LUN of the inventory, which NVMe namespace conversion reads.
 *
 * @example
 * ```ts
 * import type { LunInput } from "clusterwire/storage/server";
 *
 * const lun: LunInput = { name: "/vol/vol1/lun0", svm: "svm1", os_type: "linux", size: 10 * 1024 ** 3 };
 * ```
 */
export interface LunInput {
  /** Full path `/vol/<volume>[/<qtree>]/<name>`. */
  readonly name: string;
  /** Its uuid; default a random one. */
  readonly uuid?: string;
  /** The SVM's name. */
  readonly svm: string;
  /** The LUN's OS type, e.g. `linux`. */
  readonly os_type: string;
  /** Size in bytes. */
  readonly size: number;
  /** Whether it is mapped to an initiator group; default false. */
  readonly mapped?: boolean;
  /** Whether it is a protocol endpoint; default false. */
  readonly protocol_endpoint?: boolean;
  /** Whether a foreign LUN import is running on it; default false. */
  readonly foreign_import?: boolean;
  /** Whether it is a bound vVol; default false. */
  readonly vvol_bound?: boolean;
}

export interface Ref {
  readonly uuid: string;
  readonly name: string;
}
export interface Node extends Ref {
  readonly model: string;
}
export interface Aggregate extends Ref {
  readonly node: string;
}
export interface Volume extends Ref {
  readonly svm: Ref;
  readonly size: number;
  readonly style: "flexvol" | "flexgroup";
  readonly state: "online" | "offline";
  readonly path: string | undefined;
  readonly aggregates: readonly string[];
  readonly qtrees: readonly { readonly id: number; readonly name: string }[];
  readonly quotaEnabled: boolean;
}
export interface Lun extends Ref {
  readonly svm: Ref;
  readonly os_type: string;
  readonly size: number;
  readonly mapped: boolean;
  readonly protocolEndpoint: boolean;
  readonly foreignImport: boolean;
  readonly vvolBound: boolean;
}

/**
 * The server's live inventory: what its collections list, as the requests so far have changed it.
 *
 * @example
 * ```ts
 * import { createReferenceServer } from "clusterwire/storage/server";
 *
 * const server = await createReferenceServer();
 * console.log(server.inventory.cluster.name, server.inventory.nodes.map((n) => n.name)); // "cluster1" [ "node1", "node2" ]
 * await server.close();
 * ```
 */
export interface Inventory {
  /** The cluster's name and uuid. */
  readonly cluster: Ref;
  /** The nodes. */
  readonly nodes: Node[];
  /** The SVMs. */
  readonly svms: Ref[];
  /** The aggregates. */
  readonly aggregates: Aggregate[];
  /** The volumes. */
  readonly volumes: Volume[];
  /** The LUNs. */
  readonly luns: Lun[];
}

/**
 * Seed UUIDs are fixed and readable: kind letter + index, e.g. node 1 = `…-a00000000001`.
 *
 * @example
 * ```ts
 * import { seedUuid } from "clusterwire/storage/server";
 *
 * console.log(seedUuid("b", 1)); // "00000000-0000-4000-8000-b00000000001": the uuid of svm1
 * ```
 */
export const seedUuid = (kind: "a" | "b" | "c" | "d" | "e" | "f", n: number): string =>
  `00000000-0000-4000-8000-${kind}${String(n).padStart(11, "0")}`;

const GiB = 1024 ** 3;

/**
 * The inventory the reference server is seeded with: cluster1, nodes node1 and node2, SVMs svm1 and svm2,
 * aggregates aggr1 and aggr2, and volumes and LUNs in them (see the value).
 *
 * @example
 * ```ts
 * import { DEFAULT_INVENTORY, createReferenceServer } from "clusterwire/storage/server";
 *
 * console.log(DEFAULT_INVENTORY.svms.map((s) => s.name)); // [ "svm1", "svm2" ]
 * // Keep the seeded volumes, and add one.
 * const server = await createReferenceServer({
 *   inventory: { volumes: [...DEFAULT_INVENTORY.volumes, { name: "extra", svm: "svm2" }] },
 * });
 * await server.close();
 * ```
 */
export const DEFAULT_INVENTORY: Required<InventoryInput> = {
  cluster: { name: "cluster1", uuid: seedUuid("f", 1) },
  nodes: [
    { name: "node1", uuid: seedUuid("a", 1), model: "sim" },
    { name: "node2", uuid: seedUuid("a", 2), model: "sim" },
  ],
  svms: [
    { name: "svm1", uuid: seedUuid("b", 1) },
    { name: "svm2", uuid: seedUuid("b", 2) },
  ],
  aggregates: [
    { name: "aggr1", uuid: seedUuid("c", 1), node: "node1" },
    { name: "aggr2", uuid: seedUuid("c", 2), node: "node2" },
  ],
  volumes: [
    {
      name: "vol1",
      uuid: seedUuid("d", 1),
      svm: "svm1",
      size: 100 * GiB,
      path: "/vol1",
      aggregates: ["aggr1"],
      qtrees: ["q1", "q2"],
    },
    {
      name: "vol2",
      uuid: seedUuid("d", 2),
      svm: "svm1",
      size: 20 * GiB,
      path: "/vol2",
      aggregates: ["aggr2"],
      qtrees: [],
    },
    {
      name: "vol3",
      uuid: seedUuid("d", 3),
      svm: "svm2",
      size: 50 * GiB,
      path: "/vol3",
      aggregates: ["aggr1"],
      qtrees: ["qa"],
    },
    {
      name: "fg1",
      uuid: seedUuid("d", 4),
      svm: "svm1",
      size: 200 * GiB,
      style: "flexgroup",
      aggregates: ["aggr1", "aggr2"],
      qtrees: [],
    },
    {
      name: "vol_offline",
      uuid: seedUuid("d", 5),
      svm: "svm1",
      size: 10 * GiB,
      state: "offline",
      aggregates: ["aggr1"],
      qtrees: [],
    },
  ],
  luns: [
    { name: "/vol/vol1/lun1", uuid: seedUuid("e", 1), svm: "svm1", os_type: "linux", size: GiB },
    { name: "/vol/vol1/lun_mapped", uuid: seedUuid("e", 2), svm: "svm1", os_type: "linux", size: GiB, mapped: true },
    { name: "/vol/vol1/lun_hyperv", uuid: seedUuid("e", 3), svm: "svm1", os_type: "hyper_v", size: GiB },
  ],
};

// createReferenceServer checks the inventory first (inventory-check.ts), so this never fires there.
function mustFind<T extends Ref>(list: readonly T[], name: string, what: string): T {
  const found = list.find((x) => x.name === name);
  if (found === undefined) throw new Error(`inventory: ${what} "${name}" does not exist`);
  return found;
}

/** Builds the inventory from the options (each given list replaces the seeded one). */
export function buildInventory(input: InventoryInput = {}): Inventory {
  const d = DEFAULT_INVENTORY;
  const cluster = {
    name: input.cluster?.name ?? d.cluster.name ?? "cluster1",
    uuid: input.cluster?.uuid ?? d.cluster.uuid ?? randomUUID(),
  };
  const nodes = (input.nodes ?? d.nodes).map((n) => ({
    name: n.name,
    uuid: n.uuid ?? randomUUID(),
    model: n.model ?? "sim",
  }));
  const svms = (input.svms ?? d.svms).map((s) => ({ name: s.name, uuid: s.uuid ?? randomUUID() }));
  const aggregates = (input.aggregates ?? d.aggregates).map((a) => ({
    name: a.name,
    uuid: a.uuid ?? randomUUID(),
    node: a.node ?? nodes[0]?.name ?? "",
  }));
  const volumes: Volume[] = (input.volumes ?? d.volumes).map((v) => ({
    name: v.name,
    uuid: v.uuid ?? randomUUID(),
    svm: mustFind(svms, v.svm, "SVM"),
    size: v.size ?? 100 * GiB,
    style: v.style ?? "flexvol",
    state: v.state ?? "online",
    path: v.path,
    aggregates: v.aggregates ?? [],
    qtrees: (v.qtrees ?? []).map((name, i) => ({ id: i + 1, name })),
    quotaEnabled: v.quota_enabled ?? true,
  }));
  const luns: Lun[] = (input.luns ?? d.luns).map((l) => ({
    name: l.name,
    uuid: l.uuid ?? randomUUID(),
    svm: mustFind(svms, l.svm, "SVM"),
    os_type: l.os_type,
    size: l.size,
    mapped: l.mapped ?? false,
    protocolEndpoint: l.protocol_endpoint ?? false,
    foreignImport: l.foreign_import ?? false,
    vvolBound: l.vvol_bound ?? false,
  }));
  return { cluster, nodes, svms, aggregates, volumes, luns };
}
