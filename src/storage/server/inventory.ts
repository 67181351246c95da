// The seeded, configurable inventory of the reference server: the cluster, its nodes,
// SVMs, aggregates, volumes (with qtrees) and LUNs (for namespace conversion). Readable at
// /api/cluster/nodes, /api/svm/svms, /api/storage/aggregates, /api/storage/volumes and
// /api/storage/luns. Each list given in the options replaces the seeded list of that kind.

import { randomUUID } from "node:crypto";

export interface InventoryInput {
  readonly cluster?: { readonly name?: string; readonly uuid?: string };
  readonly nodes?: readonly { readonly name: string; readonly uuid?: string; readonly model?: string }[];
  readonly svms?: readonly { readonly name: string; readonly uuid?: string }[];
  readonly aggregates?: readonly { readonly name: string; readonly uuid?: string; readonly node?: string }[];
  readonly volumes?: readonly VolumeInput[];
  readonly luns?: readonly LunInput[];
}

export interface VolumeInput {
  readonly name: string;
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

export interface LunInput {
  /** Full path `/vol/<volume>[/<qtree>]/<name>`. */
  readonly name: string;
  readonly uuid?: string;
  readonly svm: string;
  readonly os_type: string;
  readonly size: number;
  readonly mapped?: boolean;
  readonly protocol_endpoint?: boolean;
  readonly foreign_import?: boolean;
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

export interface Inventory {
  readonly cluster: Ref;
  readonly nodes: Node[];
  readonly svms: Ref[];
  readonly aggregates: Aggregate[];
  readonly volumes: Volume[];
  readonly luns: Lun[];
}

/** Seed UUIDs are fixed and readable: kind letter + index, e.g. node 1 = `…-a00000000001`. */
export const seedUuid = (kind: "a" | "b" | "c" | "d" | "e" | "f", n: number): string =>
  `00000000-0000-4000-8000-${kind}${String(n).padStart(11, "0")}`;

const GiB = 1024 ** 3;

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
