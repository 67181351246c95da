// What the server holds before the creates are sent: the objects kube-apiserver makes itself
// (the ServiceCIDR and IPAddress of its service range) and the campaign's stored objects. A
// create of one of those names is refused by storage after validation passed; the campaign
// marks such requests, since that is server state and not something validation could know.
import type { ApiClient } from "./http.js";
import type { CampaignRequest } from "./request.js";
import { bodyValue, pluralOf } from "./request.js";
import { VALIDATED_KINDS } from "../../src/testing/index.js";

/** `kind/namespace/name` of every object of the five kinds the server holds. */
export async function existingNames(client: ApiClient): Promise<Set<string>> {
  const out = new Set<string>();
  for (const kind of VALIDATED_KINDS) {
    const a = await client.send(
      "GET",
      `/apis/networking.k8s.io/v1/${pluralOf(kind)}`,
      undefined,
      "",
      "application/json",
    );
    if (a.status !== 200) throw new Error(`listing ${pluralOf(kind)}: ${a.status}`);
    const list = JSON.parse(Buffer.from(a.body).toString("utf8")) as {
      items: { metadata: { name: string; namespace?: string } }[];
    };
    for (const item of list.items) out.add(`${kind}/${item.metadata.namespace ?? ""}/${item.metadata.name}`);
  }
  return out;
}

/** The name and namespace a create's body names, read with an independent reader where it can be. */
function identity(r: CampaignRequest): { name: string; namespace: string } | undefined {
  const value = bodyValue(r);
  const meta = (value as { metadata?: { name?: unknown; namespace?: unknown } } | null)?.metadata;
  if (typeof meta?.name !== "string" || meta.name === "") return undefined;
  const own = typeof meta.namespace === "string" ? meta.namespace : "";
  return { name: meta.name, namespace: own !== "" ? own : (r.namespace ?? "") };
}

/** The requests, with `exists` set on each create of a name in `existing`. */
export function markExisting(requests: readonly CampaignRequest[], existing: ReadonlySet<string>): CampaignRequest[] {
  return requests.map((r) => {
    if (r.operation !== "create") return r;
    const id = identity(r);
    if (id === undefined) return r;
    const namespaced = r.namespace !== undefined;
    return existing.has(`${r.kind}/${namespaced ? id.namespace : ""}/${id.name}`) ? { ...r, exists: true } : r;
  });
}
