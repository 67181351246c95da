import { datetime, decodeBody, enm, f, links, obj, str, type InferModel } from "./schema.js";
import { ref } from "./software.js";

/**
 * The values the API defines for an upgrade history record's `state`.
 *
 * @example
 * ```ts
 * import { SOFTWARE_HISTORY_STATES, type SoftwareHistoryState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_HISTORY_STATES as readonly unknown[]).includes(value);
 * const first: SoftwareHistoryState = SOFTWARE_HISTORY_STATES[0];
 * ```
 */
export const SOFTWARE_HISTORY_STATES = ["successful", "canceled", "skip_upgrade"] as const;
/**
 * An upgrade history record's `state`: one of {@link SOFTWARE_HISTORY_STATES}.
 *
 * @example
 * ```ts
 * import { SOFTWARE_HISTORY_STATES, type SoftwareHistoryState } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (SOFTWARE_HISTORY_STATES as readonly unknown[]).includes(value);
 * const first: SoftwareHistoryState = SOFTWARE_HISTORY_STATES[0];
 * ```
 */
export type SoftwareHistoryState = (typeof SOFTWARE_HISTORY_STATES)[number];

const historySchema = obj({
  node: f("G", ref),
  from_version: f("G", str),
  to_version: f("G", str),
  state: f("G", enm(SOFTWARE_HISTORY_STATES)),
  start_time: f("G", datetime),
  end_time: f("G", datetime),
  _links: f("G", links),
});

/**
 * A software installation history record (`GET /api/cluster/software/history`).
 *
 * @example
 * ```ts
 * import { type SoftwareHistoryRecord, type StorageClient } from "clusterwire/storage";
 *
 * const upgrades = async (client: StorageClient): Promise<SoftwareHistoryRecord[]> => client.software.history.all();
 * ```
 */
export type SoftwareHistoryRecord = InferModel<typeof historySchema>;

/**
 * The codec of upgrade history records.
 *
 * @example
 * ```ts
 * import { softwareHistory } from "clusterwire/storage";
 *
 * console.log(softwareHistory.decode({ from_version: "9.14.1", to_version: "9.15.1", state: "successful" }).state);
 * ```
 */
export const softwareHistory = {
  decode(json: unknown): SoftwareHistoryRecord {
    return decodeBody(historySchema, json);
  },
} as const;
