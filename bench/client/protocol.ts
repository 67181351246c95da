// The messages between bench/client/main.ts and the informer processes it forks
// (bench/client/child.ts, which describes each).

/**
 * The informers a child can run: client-node's, and clusterwire's over protobuf, over protobuf
 * with the compact store, and over JSON.
 */
export const CONTENDERS = ["client-node", "clusterwire", "clusterwire-compact", "clusterwire-json"] as const;
export type Contender = (typeof CONTENDERS)[number];

export type ToChild =
  | { readonly op: "list" }
  | { readonly op: "expect"; readonly count: number }
  | { readonly op: "stop" };
export type FromChild =
  | {
      readonly op: "listed";
      readonly ms: number;
      readonly cpuUs: number;
      /** heapUsed + arrayBuffers held by the cache (after garbage collection, minus before). */
      readonly heapBytes: number;
      readonly externalBytes: number;
      readonly size: number;
      /** Whether the previous informer (if any) was garbage before this list started. */
      readonly previousFreed: boolean;
    }
  | { readonly op: "armed" }
  | { readonly op: "seen"; readonly ms: number; readonly cpuUs: number; readonly count: number }
  | { readonly op: "error"; readonly message: string };
