// Cluster nodes: /api/cluster/nodes and /api/cluster/nodes/<uuid>, read-only. A record is
// a node reference as the API embeds it elsewhere (`uuid`, `name`, `_links`), plus `model`.

import { decodeBody, links, obj, str, type InferModel } from "./schema.js";

const clusterNodeSchema = obj({ uuid: str, name: str, model: str, _links: links });

/**
 * A node record from `GET /api/cluster/nodes` or `GET /api/cluster/nodes/<uuid>`: every
 * member optional, as `fields` may leave any out; members the model does not name are kept.
 * A node's `uuid` is what a clone token's `node.uuid` takes.
 *
 * @example
 * import type { ClusterNode } from "clusterwire/storage";
 *
 * const node: ClusterNode = { uuid: "00000000-0000-4000-8000-a00000000001", name: "node1", model: "sim" };
 */
export type ClusterNode = InferModel<typeof clusterNodeSchema>;

/**
 * The cluster node codec: decodes a record, checking each member's type
 * (`StorageCodecError` names the member that is wrong). Nodes are read-only here.
 *
 * @example
 * import { clusterNode } from "clusterwire/storage";
 * clusterNode.decode({ name: "node1", model: "sim" }).model; // "sim"
 */
export const clusterNode = {
  /** A node record from `GET /api/cluster/nodes[/<uuid>]`. */
  decode(json: unknown): ClusterNode {
    return decodeBody(clusterNodeSchema, json);
  },
} as const;
