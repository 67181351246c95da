// Shared server state: the inventory, the job store, the clock, and lookups of referenced
// objects in request bodies.

import type { ServerClock } from "./clock.js";
import { conflict, required, unknownReference } from "./errors.js";
import type { Inventory, Lun, Ref, Volume } from "./inventory.js";
import type { JobStore } from "./jobs.js";
import type { JsonObject } from "./json.js";
import { selfLink } from "./http.js";
import { text } from "./values.js";

export interface ServerState {
  readonly inventory: Inventory;
  readonly jobs: JobStore;
  readonly clock: ServerClock;
  /** Monotonic sequence for record creation order. */
  nextSeq(): number;
}

/** Finds `{uuid?, name?}` in `list`; both given must name the same object. */
export function resolveRef<T extends Ref>(
  list: readonly T[],
  given: JsonObject | undefined,
  target: string,
  what: string,
  mandatory = true,
): T | undefined {
  const uuid = text(given, "uuid");
  const name = text(given, "name");
  if (uuid === undefined && name === undefined) {
    if (!mandatory) return undefined;
    throw required(`${target}.uuid`, `Field "${target}.uuid" or "${target}.name" is required.`);
  }
  const byUuid = uuid === undefined ? undefined : list.find((x) => x.uuid === uuid);
  const byName = name === undefined ? undefined : list.find((x) => x.name === name);
  if (uuid !== undefined && byUuid === undefined) throw unknownReference(`${target}.uuid`, `${what} with this UUID`);
  if (name !== undefined && byName === undefined) throw unknownReference(`${target}.name`, `${what} "${name}"`);
  if (byUuid !== undefined && byName !== undefined && byUuid !== byName) {
    throw conflict(target, `"${target}.uuid" and "${target}.name" name different objects.`);
  }
  return (byUuid ?? byName) as T;
}

export const nodeRef = (n: Ref): JsonObject => ({
  uuid: n.uuid,
  name: n.name,
  _links: selfLink(`/api/cluster/nodes/${n.uuid}`),
});
export const svmRef = (s: Ref): JsonObject => ({
  uuid: s.uuid,
  name: s.name,
  _links: selfLink(`/api/svm/svms/${s.uuid}`),
});
export const volumeRef = (v: Ref): JsonObject => ({
  uuid: v.uuid,
  name: v.name,
  _links: selfLink(`/api/storage/volumes/${v.uuid}`),
});

/** The volume named by a body reference, which must belong to `svm`. */
export function resolveVolume(state: ServerState, given: JsonObject | undefined, target: string, svm: Ref): Volume {
  const inSvm = state.inventory.volumes.filter((v) => v.svm.uuid === svm.uuid);
  return resolveRef(inSvm, given, target, `Volume in SVM "${svm.name}"`) as Volume;
}

export function resolveLun(state: ServerState, given: JsonObject | undefined, target: string, svm: Ref): Lun {
  const inSvm = state.inventory.luns.filter((l) => l.svm.uuid === svm.uuid);
  return resolveRef(inSvm, given, target, `LUN in SVM "${svm.name}"`) as Lun;
}
