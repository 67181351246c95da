import type { InventoryInput } from "../../storage/server/index.js";

/**
 * Options of the model arbitraries.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbCacheModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbCacheModel({ newerServer: true }), 2));
 * // newerServer: also fields a newer server may add, which decoders must keep or ignore
 * ```
 */
export interface StorageModelOptions {
  /**
   * Also produce what a newer server may send: enum values outside the known sets and an
   * unknown top-level member. The codecs keep both as given.
   */
  readonly newerServer?: boolean;
}

/**
 * Options of the request-body arbitraries.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { DEFAULT_INVENTORY } from "clusterwire/storage/server";
 * import { arbQuotaRulePost } from "clusterwire/testing";
 *
 * // Bodies that name only the SVMs, volumes and qtrees of the reference server's seeded inventory.
 * console.log(fc.sample(arbQuotaRulePost({ targets: DEFAULT_INVENTORY }), 2));
 * ```
 */
export interface StorageBodyOptions {
  /**
   * The objects bodies may name: nodes, SVMs, aggregates, volumes (with their SVM and
   * qtrees) and LUNs, e.g. the reference server's `DEFAULT_INVENTORY` or your cluster's.
   * Lists left out count as empty. Without targets, names and UUIDs are random.
   */
  readonly targets?: InventoryInput;
}

/**
 * Size bounds in bytes (inclusive).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbStorageSize } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbStorageSize({ min: 4096, max: 1024 ** 3 }), 3));
 * ```
 */
export interface StorageSizeRange {
  /** The smallest size, in bytes. */
  readonly min?: number;
  /** The largest size, in bytes. */
  readonly max?: number;
}
