// etcd behind a control plane of start.ts, reached through its HTTP/JSON gateway (the v3 API as
// JSON on the client URL; no etcd client package): read the current revision, and compact to it.
// After a compaction, a watch or an Exact list from an older resourceVersion fails with 410 Gone,
// but only where kube-apiserver reads etcd: start the plane with apiserverFlags
// ["--watch-cache=false"]. With the watch cache on (the default), a watch from a compacted
// resourceVersion still inside the cache's window is served from the cache (its events replayed),
// and an Exact list or an old continue token too, so no 410 comes back (seen on v1.35.4 and v1.37.2).
//
// Only `import type` here: the bench imports this file from dist/, where start.ts's scripts/ import
// would not resolve.
import type { ControlPlane } from "./start.js";

/** The part of a control plane this needs. */
export type EtcdPlane = Pick<ControlPlane, "etcdUrl">;

/** An answer of etcd's gateway that was not 200, or not the JSON expected. */
export class EtcdGatewayError extends Error {
  override readonly name = "EtcdGatewayError";
  constructor(
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`etcd ${path}: HTTP ${status}: ${body.slice(0, 500)}`);
  }
}

async function post(plane: EtcdPlane, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(path, plane.etcdUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new EtcdGatewayError(path, res.status, text);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new EtcdGatewayError(path, res.status, text);
  }
}

/** The gateway writes int64s as JSON strings; a revision always fits a double (below 2^53). */
function revisionOf(path: string, answer: Record<string, unknown>): number {
  const header = answer["header"] as { revision?: unknown } | undefined;
  const revision = Number(header?.revision);
  if (!Number.isSafeInteger(revision) || revision < 1) {
    throw new EtcdGatewayError(path, 200, `no header.revision in ${JSON.stringify(answer)}`);
  }
  return revision;
}

/**
 * etcd's current revision: the header of a count-only range read. kube-apiserver's resourceVersions
 * are etcd revisions, so this is at least the resourceVersion of the last write.
 */
export async function etcdRevision(plane: EtcdPlane): Promise<number> {
  const path = "/v3/kv/range";
  // Any key will do: the header carries the store's revision whatever the range holds.
  const answer = await post(plane, path, { key: Buffer.from("/").toString("base64"), count_only: true });
  return revisionOf(path, answer);
}

/** What etcd says when asked to compact at or below the revision it has already compacted to. */
const ALREADY_COMPACTED = /required revision has been compacted/;

/**
 * Compacts etcd to its current revision, physically (the call returns once the old revisions are
 * gone), so every resourceVersion older than that revision is expired. Returns the revision. A
 * compaction already at that revision (kube-apiserver compacts on its own every 5 minutes) counts
 * as done.
 */
export async function compactEtcd(plane: EtcdPlane): Promise<{ readonly revision: number }> {
  const revision = await etcdRevision(plane);
  try {
    await post(plane, "/v3/kv/compaction", { revision: String(revision), physical: true });
  } catch (e) {
    if (!(e instanceof EtcdGatewayError && ALREADY_COMPACTED.test(e.body))) throw e;
  }
  return { revision };
}
