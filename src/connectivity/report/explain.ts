// Why a line of a list is allowed, and why a change happened: the analysis's explain() on each
// side of a diff, and a one-line reading of it that the text, Markdown and SARIF reports share.

import {
  formatConnectionSet,
  isEmptyConnectionSet,
  sameConnectionSet,
  type ConnectionExplanation,
  type ConnectivityAnalysis,
  type ConnectivityChange,
  type ConnectivityDiff,
  type ConnectivityPeer,
  type DirectionExplanation,
  type PolicyRuleMatch,
} from "../../networking/index.js";

/**
 * One snapshot's side of a change: the analysis's explanation, or, when an end of the connection
 * is a workload that snapshot does not have, which.
 *
 * @example
 * ```ts
 * import type { SnapshotExplanation } from "clusterwire/connectivity";
 *
 * const allowed = (s: SnapshotExplanation) => s.exists && s.explanation.egress.verdict !== "denied";
 * ```
 */
export type SnapshotExplanation =
  | { readonly exists: true; readonly explanation: ConnectionExplanation }
  | { readonly exists: false /** Keys of the ends the snapshot does not have. */; readonly missing: readonly string[] };

/**
 * Why a connection changed: its explanation before and after.
 *
 * @example
 * ```ts
 * import { explainConnectivityChange } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const diff = diffConnectivity(
 *   { namespaces: [{ name: "shop" }], workloads: [], policies: [] },
 *   { namespaces: [{ name: "shop" }], workloads: [], policies: [] },
 * );
 * for (const change of diff.changes) console.log(explainConnectivityChange(diff, change).after);
 * ```
 */
export interface ChangeExplanation {
  /** Why in the snapshot before. */
  readonly before: SnapshotExplanation;
  /** Why in the snapshot after. */
  readonly after: SnapshotExplanation;
}

/**
 * Explains one change of a diff on both sides, with `explain` of each analysis: on the side where
 * the connection is allowed, the rules that allow it in each direction; on the other, the
 * policies that isolate the ends.
 *
 * @example
 * ```ts
 * import { explainConnectivityChange } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const workloads = [
 *   { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
 *   { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } },
 * ];
 * const diff = diffConnectivity({ namespaces, workloads: workloads.slice(0, 1), policies: [] }, { namespaces, workloads, policies: [] });
 * const why = explainConnectivityChange(diff, diff.changes[0]!);
 * console.log(why.before.exists); // false: shop/Deployment/api was not there
 * ```
 */
export function explainConnectivityChange(diff: ConnectivityDiff, change: ConnectivityChange): ChangeExplanation {
  return {
    before: explainIn(diff.before, change.from, change.to),
    after: explainIn(diff.after, change.from, change.to),
  };
}

/** The explanation of a line in the analysis it came from. */
export function explainLine(analysis: ConnectivityAnalysis, from: ConnectivityPeer, to: ConnectivityPeer) {
  return analysis.explain(endOf(from), endOf(to));
}

function explainIn(analysis: ConnectivityAnalysis, from: ConnectivityPeer, to: ConnectivityPeer): SnapshotExplanation {
  const missing = [from, to].filter((p) => p.type === "workload" && !hasWorkload(analysis, p.key)).map((p) => p.key);
  if (missing.length > 0) return { exists: false, missing };
  return { exists: true, explanation: explainLine(analysis, from, to) };
}

const workloadKeys = new WeakMap<ConnectivityAnalysis, ReadonlySet<string>>();

function hasWorkload(analysis: ConnectivityAnalysis, key: string): boolean {
  let keys = workloadKeys.get(analysis);
  if (keys === undefined) {
    keys = new Set(analysis.workloads.map((w) => w.key));
    workloadKeys.set(analysis, keys);
  }
  return keys.has(key);
}

/** What explain() takes for a peer: a workload's key, or one address of an external peer's ranges (all are alike). */
function endOf(peer: ConnectivityPeer): string {
  if (peer.type === "workload") return peer.key;
  const first = peer.ranges[0];
  if (first === undefined) throw new RangeError(`external peer ${JSON.stringify(peer.key)} has no address range`);
  return first.first;
}

/**
 * An explanation in a line, as the reports write it: when the connection is allowed, each
 * direction (`not isolated`, or the rules that allow it, as `namespace/name ingress[0,2]`, with
 * what the direction allows when that is more than both together); when denied, the directions
 * that deny and the policies that isolate them; when both directions allow something but nothing
 * in common, what each allows.
 *
 * @example
 * ```ts
 * import { describeExplanation } from "clusterwire/connectivity";
 * import { analyzeConnectivity } from "clusterwire/networking";
 *
 * const analysis = analyzeConnectivity({
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web" },
 *     { namespace: "shop", kind: "Deployment", name: "api" },
 *   ],
 *   policies: [],
 * });
 * console.log(describeExplanation(analysis.explain("shop/Deployment/web", "shop/Deployment/api")));
 * // egress not isolated; ingress not isolated
 * ```
 */
export function describeExplanation(e: ConnectionExplanation): string {
  const directions = [
    ["egress", e.egress],
    ["ingress", e.ingress],
  ] as const;
  if (!isEmptyConnectionSet(e.connections)) {
    return directions.map(([name, d]) => allowedText(name, d, e)).join("; ");
  }
  const denied = directions.filter(([, d]) => d.verdict === "denied");
  if (denied.length > 0) {
    return denied.map(([name, d]) => `${name} denied, isolated by ${d.isolatedBy.join(", ")}`).join("; ");
  }
  return (
    directions
      .map(([name, d]) =>
        d.verdict === "not-isolated"
          ? `${name} not isolated`
          : `${name} allows ${formatConnectionSet(d.connections)} by ${rulesText(name, d.allowedBy)}`,
      )
      .join("; ") + "; nothing in common"
  );
}

function allowedText(name: "egress" | "ingress", d: DirectionExplanation, e: ConnectionExplanation): string {
  if (d.verdict === "not-isolated") return `${name} not isolated`;
  const own = sameConnectionSet(d.connections, e.connections) ? "" : ` (${formatConnectionSet(d.connections)})`;
  return `${name} allowed by ${rulesText(name, d.allowedBy)}${own}`;
}

/** `shop/allow-web ingress[0,2], shop/other ingress[1]`. */
export function rulesText(direction: "egress" | "ingress", matches: readonly PolicyRuleMatch[]): string {
  return matches.map((m) => `${m.policy} ${direction}[${m.rules.join(",")}]`).join(", ");
}

/** One side of a change in a line, without the side's name. */
export function describeSnapshot(side: "before" | "after", s: SnapshotExplanation): string {
  if (s.exists) return describeExplanation(s.explanation);
  const gone = s.missing.length === 1 ? "no longer exists" : "no longer exist";
  return `${s.missing.join(" and ")} ${side === "before" ? "did not exist yet" : gone}`;
}

/** Both sides of a change, before first: `before: ...`, `after: ...`. */
export function describeChange(why: ChangeExplanation): readonly string[] {
  return [`before: ${describeSnapshot("before", why.before)}`, `after: ${describeSnapshot("after", why.after)}`];
}
