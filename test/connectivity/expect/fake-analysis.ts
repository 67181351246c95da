// A hand-written ConnectivityAnalysis for unit-testing how expectations pick their pairs (the
// matcher), apart from any real policy evaluation: each rule says outright what one end may open
// to another, and `between` and `explain` answer from the rules alone, recording what they were
// asked. The judgement against real policies is tested with analyzeConnectivity.

import { cidrsOf, formatIp, parseAddressBlock, parseIp } from "../../../src/connectivity/expect/addresses.js";
import type {
  AddressRange,
  ClusterWorkload,
  ConnectionSet,
  ConnectivityAnalysis,
  ConnectivityInput,
  ConnectivityPeer,
} from "../../../src/networking/index.js";
import { NO_CONNECTIONS, unionConnectionSets } from "../../../src/networking/index.js";

/** What `from` may open to `to`: each end a workload key or a CIDR; `policy` is named in explanations. */
export interface FakeRule {
  readonly from: string;
  readonly to: string;
  readonly connections: ConnectionSet;
  readonly policy: string;
}

export interface FakeAnalysis extends ConnectivityAnalysis {
  readonly input: ConnectivityInput;
  /** Every `between` call, as `from -> to`. */
  readonly asked: string[];
}

export function tcp(...ports: number[]): ConnectionSet {
  return { TCP: ports.map((p) => ({ from: p, to: p })), UDP: [], SCTP: [] };
}

function rangeOf(cidr: string): AddressRange {
  const block = parseAddressBlock(cidr);
  if (typeof block === "string") throw new Error(block);
  return {
    family: block.family,
    first: formatIp(block.family, block.first),
    last: formatIp(block.family, block.last),
    cidrs: cidrsOf(block),
  };
}

function contains(cidr: string, address: string): boolean {
  const block = parseAddressBlock(cidr);
  const ip = parseIp(address);
  if (typeof block === "string" || typeof ip === "string") return false;
  return block.family === ip.family && block.first <= ip.value && ip.value <= block.last;
}

/**
 * An analysis of `workloads` whose address space is cut into `segments` (CIDRs, one segment each)
 * where only `rules` connect anything: every destination is isolated for ingress by the policy
 * `fake/isolate`, and each rule that connects a pair is named as allowing it.
 */
export function fakeAnalysis(options: {
  readonly workloads: readonly ClusterWorkload[];
  readonly segments?: readonly string[];
  readonly rules?: readonly FakeRule[];
}): FakeAnalysis {
  const asked: string[] = [];
  const rules = options.rules ?? [];
  const workloads = options.workloads.map((w) => ({
    type: "workload" as const,
    key: `${w.namespace}/${w.kind}/${w.name}`,
    namespace: w.namespace,
    kind: w.kind,
    name: w.name,
  }));
  const keys = new Set(workloads.map((w) => w.key));
  const segments = (options.segments ?? []).map(rangeOf);
  const matches = (end: string, peer: string) => (keys.has(peer) ? end === peer : contains(end, peer));
  const ruling = (from: string, to: string) => rules.filter((r) => matches(r.from, from) && matches(r.to, to));
  const peer = (s: string): ConnectivityPeer => {
    const w = workloads.find((x) => x.key === s);
    if (w !== undefined) return w;
    const segment = segments.find((r) => contains(r.cidrs[0] ?? "", s));
    return { type: "external", ranges: segment === undefined ? [] : [segment], key: segment?.cidrs.join(",") ?? s };
  };
  const between = (from: string, to: string) => {
    asked.push(`${from} -> ${to}`);
    return ruling(from, to).reduce((acc, r) => unionConnectionSets(acc, r.connections), NO_CONNECTIONS);
  };
  return {
    input: { namespaces: [], workloads: options.workloads, policies: [] },
    asked,
    workloads,
    segments,
    policies: [],
    skipped: [],
    lines: () => [],
    forEachLine: () => undefined,
    between,
    explain: (from, to) => {
      const found = ruling(from, to);
      const connections = found.reduce((acc, r) => unionConnectionSets(acc, r.connections), NO_CONNECTIONS);
      return {
        from: peer(from),
        to: peer(to),
        connections,
        egress: { verdict: "not-isolated", isolatedBy: [], allowedBy: [], connections },
        ingress: {
          verdict: found.length > 0 ? "allowed-by-rule" : "denied",
          isolatedBy: ["fake/isolate"],
          allowedBy: found.map((r) => ({ policy: r.policy, rules: [0] })),
          connections,
        },
      };
    },
  };
}
