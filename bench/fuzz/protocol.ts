import type { Failure, Limits, Row } from "./campaign.js";

/** What the main thread tells a new worker. */
export interface WorkerInit {
  readonly seed: number;
  /** Selected strategies, as strategyKey() names. */
  readonly strategies: readonly string[];
  readonly fixtureRoot: string;
  readonly limits: Limits;
  /** Retained heap growth over the worker's life that counts as a leak, in MiB. */
  readonly maxGrowthMb: number;
  readonly shared: SharedArrayBuffer;
  readonly slot: number;
}

export type ToWorker = { readonly type: "run"; readonly start: number; readonly end: number };
export type FromWorker =
  | { readonly type: "ready" }
  | {
      readonly type: "done";
      readonly start: number;
      readonly end: number;
      readonly rows: Row[];
      readonly failures: Failure[];
      readonly heapMb: number;
    };

/** Words per worker in the shared Int32Array: the index being run (-1 when idle), and a counter bumped per input. */
export const SLOT_WORDS = 2;
