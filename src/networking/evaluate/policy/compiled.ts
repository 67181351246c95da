// The policy engine's compiled input: what createPolicyEngine builds once per cluster snapshot.

import type { Bits } from "../bitset.js";
import type { Protocol } from "./types.js";
import type { IP, IPNet } from "../../validation/rules/ip.js";
import type { Labels } from "../../validation/rules/label-selector.js";

// ------------------------------------------------------------------ compiled input

export interface Pod {
  readonly key: string;
  readonly ns: number;
  readonly labels: Labels;
  readonly ip: IP;
  /** Undefined when the input gives no hostIP (then nothing is node-local to it). */
  readonly hostIP: IP | undefined;
  readonly hostNetwork: boolean;
  readonly ports: readonly PodPort[];
}

export interface PodPort {
  readonly name: string;
  readonly containerPort: number;
  readonly protocol: Protocol;
}

/** One `ports` entry after defaulting: a missing protocol is TCP. */
export type PortEntry =
  | { readonly kind: "all"; readonly protocol: Protocol }
  | { readonly kind: "range"; readonly protocol: Protocol; readonly lo: number; readonly hi: number }
  | { readonly kind: "named"; readonly protocol: Protocol; readonly name: string };

export interface Rule {
  /** Index in spec.ingress / spec.egress. */
  readonly index: number;
  /** No peers listed: every endpoint matches. */
  readonly anyPeer: boolean;
  /** The pods some peer admits: selector peers and ipBlocks together. */
  readonly peerPods: Bits;
  /** The ipBlocks, for endpoints that are addresses. */
  readonly ipBlocks: readonly Block[];
  /** No ports listed: every port of every protocol. */
  readonly anyPort: boolean;
  readonly ports: readonly PortEntry[];
}

export interface Block {
  readonly cidr: IPNet;
  readonly except: readonly IPNet[];
}

export interface Policy {
  readonly key: string;
  /** Position among the accepted policies, which is input order. */
  readonly order: number;
  readonly ingress: readonly Rule[] | null;
  readonly egress: readonly Rule[] | null;
}

export type ResolvedEndpoint = { readonly pod: number; readonly ip: IP } | { readonly pod: -1; readonly ip: IP };
