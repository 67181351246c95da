// The text reports: np-guard's txt shape for a list, and a diff with the reasons under each change.

import {
  formatConnectionSet,
  type ConnectivityChange,
  type ConnectivityDiff,
  type ConnectivityLine,
} from "../../networking/index.js";
import { describeChange, explainConnectivityChange } from "./explain.js";

/**
 * A connectivity list as text: one `FROM => TO : CONNECTIONS` line per line of the list, in its
 * order, each ending in a newline. Workloads are `namespace/kind/name`, addresses their CIDRs.
 *
 * @example
 * ```ts
 * import { connectivityListText } from "clusterwire/connectivity";
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
 * process.stdout.write(connectivityListText(analysis.lines()));
 * // shop/Deployment/web => shop/Deployment/api : All connections
 * // ...
 * ```
 */
export function connectivityListText(lines: readonly ConnectivityLine[]): string {
  let out = "";
  for (const line of lines) out += `${line.from.key} => ${line.to.key} : ${formatConnectionSet(line.connections)}\n`;
  return out;
}

/**
 * A diff as text: a line per change (`+ FROM => TO : AFTER`, `- FROM => TO : BEFORE`,
 * `~ FROM => TO : BEFORE -> AFTER`), with, indented under it, why before and why after (the
 * rules that allow it, or the policies that isolate its ends), then workloads added and removed,
 * and a summary line.
 *
 * @example
 * ```ts
 * import { connectivityDiffText } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const web = { namespace: "shop", kind: "Deployment", name: "web" };
 * const api = { namespace: "shop", kind: "Deployment", name: "api" };
 * const diff = diffConnectivity({ namespaces, workloads: [web], policies: [] }, { namespaces, workloads: [web, api], policies: [] });
 * process.stdout.write(connectivityDiffText(diff));
 * // + shop/Deployment/web => shop/Deployment/api : All connections
 * //     before: shop/Deployment/api did not exist yet
 * //     after: egress not isolated; ingress not isolated
 * // ...
 * ```
 */
export function connectivityDiffText(diff: ConnectivityDiff): string {
  let out = "";
  for (const change of diff.changes) {
    out += `${changeLine(change)}\n`;
    for (const why of describeChange(explainConnectivityChange(diff, change))) out += `    ${why}\n`;
  }
  for (const key of diff.addedWorkloads) out += `+ workload ${key}\n`;
  for (const key of diff.removedWorkloads) out += `- workload ${key}\n`;
  return `${out}${diffSummary(diff)}\n`;
}

/** `+ FROM => TO : AFTER` and the like. */
export function changeLine(change: ConnectivityChange): string {
  const ends = `${change.from.key} => ${change.to.key}`;
  switch (change.kind) {
    case "added":
      return `+ ${ends} : ${formatConnectionSet(change.after)}`;
    case "removed":
      return `- ${ends} : ${formatConnectionSet(change.before)}`;
    case "changed":
      return `~ ${ends} : ${formatConnectionSet(change.before)} -> ${formatConnectionSet(change.after)}`;
  }
}

/** The counts of a diff. */
export interface DiffCounts {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  readonly workloadsAdded: number;
  readonly workloadsRemoved: number;
}

export function diffCounts(diff: ConnectivityDiff): DiffCounts {
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const c of diff.changes) {
    if (c.kind === "added") added++;
    else if (c.kind === "removed") removed++;
    else changed++;
  }
  return {
    added,
    removed,
    changed,
    workloadsAdded: diff.addedWorkloads.length,
    workloadsRemoved: diff.removedWorkloads.length,
  };
}

/** `3 connections added, 1 removed, 2 changed; workloads: 1 added, 0 removed` (or `no change`). */
export function diffSummary(diff: ConnectivityDiff): string {
  const n = diffCounts(diff);
  if (diff.changes.length === 0 && n.workloadsAdded === 0 && n.workloadsRemoved === 0) {
    return "No connectivity change.";
  }
  return (
    `${plural(n.added, "connection")} added, ${n.removed} removed, ${n.changed} changed; ` +
    `${plural(n.workloadsAdded, "workload")} added, ${n.workloadsRemoved} removed.`
  );
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
