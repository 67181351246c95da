// Clone tokens (/api/storage/file/clone/tokens): models and request bodies.

import fc from "fast-check";
import {
  formatDuration,
  type CloneToken,
  type CloneTokenPatchInput,
  type CloneTokenPostInput,
} from "../../storage/index.js";
import type { StorageModelOptions, StorageBodyOptions } from "./options.js";
import {
  KiB,
  GiB,
  TiB,
  DAY,
  some,
  maybe,
  selfLink,
  halOrPlain,
  withNewer,
  need,
  nodeName,
  TOKENS,
  NODES,
} from "./shared.js";
import { arbStorageSize, arbStorageSizeInput, arbCloneTokenLifetime, arbStorageUuid } from "./building-blocks.js";

/**
 * Clone tokens as a server returns them: `uuid` and `node.uuid` always; `reserve_size` ≥ 4096
 * bytes; `expiry_time.limit` ≥ 1 s and `left` ≤ `limit`, both canonical ISO durations; `_links`
 * pointing at `/api/storage/file/clone/tokens/<node.uuid>/<uuid>` (absent in plain JSON).
 * `cloneToken.decode` returns each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCloneTokenModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCloneTokenModel({ newerServer: true }), 2));
 * ```
 */
export function arbCloneTokenModel(o: StorageModelOptions = {}): fc.Arbitrary<CloneToken> {
  const expiry = fc
    .tuple(fc.integer({ min: 1, max: 7 * DAY }), fc.nat())
    .map(([limit, k]) => ({ limit: formatDuration(limit), left: formatDuration(k % (limit + 1)) }));
  const token = some(
    {
      node: fc
        .tuple(arbStorageUuid(), maybe(nodeName))
        .map(([uuid, name]) => (name === undefined ? { uuid } : { uuid, name })),
      uuid: arbStorageUuid(),
      reserve_size: arbStorageSize({ min: 4 * KiB, max: 100 * GiB }),
      expiry_time: expiry,
    },
    ["node", "uuid"],
  ).map(
    (t): CloneToken => ({
      ...t,
      node: { ...t.node, _links: selfLink(`${NODES}/${t.node.uuid}`) },
      _links: selfLink(`${TOKENS}/${t.node.uuid}/${t.uuid}`),
    }),
  );
  return withNewer(halOrPlain(token), o);
}

/**
 * Clone-token POST bodies: `node.uuid` (a target node's, when targets are given) and
 * `reserve_size` (0 .. 1 TiB, any accepted spelling; below 4 KiB the codec raises it to
 * 4096), and optionally `expiry_time` with or without `limit` (1 s .. 7 days).
 * `cloneToken.encodePost` accepts every value.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { cloneToken } from "clusterwire/storage";
 * import { arbCloneTokenPost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbCloneTokenPost(), (input) => typeof cloneToken.encodePost(input) === "object"));
 * ```
 */
export function arbCloneTokenPost(options: StorageBodyOptions = {}): fc.Arbitrary<CloneTokenPostInput> {
  const t = options.targets;
  const nodeUuid =
    t === undefined
      ? arbStorageUuid()
      : fc.constantFrom(
          ...need(
            (t.nodes ?? []).flatMap((n) => (n.uuid === undefined ? [] : [n.uuid])),
            "node with a uuid",
            "arbCloneTokenPost",
          ),
        );
  return some(
    {
      node: nodeUuid.map((uuid) => ({ uuid })),
      reserve_size: arbStorageSizeInput({ max: TiB }),
      expiry_time: some({ limit: arbCloneTokenLifetime() }),
    },
    ["node", "reserve_size"],
  );
}

/**
 * Clone-token PATCH bodies `{expiry_time: {limit}}` (1 s .. 7 days); `cloneToken.encodePatch` accepts them.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { cloneToken } from "clusterwire/storage";
 * import { arbCloneTokenPatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbCloneTokenPatch(), (input) => typeof cloneToken.encodePatch(input) === "object"));
 * ```
 */
export function arbCloneTokenPatch(): fc.Arbitrary<CloneTokenPatchInput> {
  return arbCloneTokenLifetime().map((limit) => ({ expiry_time: { limit } }));
}
