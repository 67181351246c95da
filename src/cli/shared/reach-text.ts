import type { Decision, DirectionDecision, PolicyEngine, SkippedObject, TruthMatrix } from "../../networking/index.js";
import { policySource, type ClusterFile, type ExtraPolicy } from "./cluster-file.js";
import { leftOutLines, skippedLines } from "./notes.js";

// The words for the policy engine's answers on a cluster file: truth tables and explained
// connections, shared by reach and the demo's reach section.

/** One line per skipped policy (or a header and its errors), located in the cluster file when it came from there. */
export function skippedNotes(engine: PolicyEngine, cluster: ClusterFile, extra: readonly ExtraPolicy[]): string[] {
  return engine.skipped.flatMap((s) => skippedLines(s, policySource(cluster, extra, s.index)));
}

/** The lines that end an answer (a table or a connection) computed without some policies: what was left out, and where it is. */
export function leftOutNotes(
  skipped: readonly SkippedObject[],
  cluster: ClusterFile,
  extra: readonly ExtraPolicy[],
): string[] {
  return leftOutLines(skipped, (s) => policySource(cluster, extra, s.index));
}

/** The `namespace/name` of every hostNetwork pod, marked in the truth table. */
export function hostNetworkPods(cluster: ClusterFile): ReadonlySet<string> {
  return new Set(cluster.pods.filter((p) => p.hostNetwork === true).map((p) => `${p.namespace}/${p.name}`));
}

// ------------------------------------------------------------------ the truth table

export const ALLOWED_GLYPH = "✓";
export const DENIED_GLYPH = "·";

/** `24 of 64 pairs allowed`. */
export function summaryLine(matrix: TruthMatrix): string {
  const n = matrix.pods.length;
  return `${matrix.countAllowed()} of ${n * n} pairs allowed`;
}

/**
 * The table as terminal lines: a heading, a header of column numbers, one
 * row per source pod (its number, its key) with a glyph per destination,
 * and the summary. Column i is the pod of row i.
 */
export function truthGrid(matrix: TruthMatrix, hostNetwork: ReadonlySet<string> = new Set(), colour = false): string[] {
  const pods = matrix.pods;
  const n = pods.length;
  const digits = String(Math.max(n, 1)).length;
  const cell = digits + 1;
  const labels = pods.map(
    (p, i) => `${String(i + 1).padStart(digits)}  ${p}${hostNetwork.has(p) ? " (hostNetwork)" : ""}`,
  );
  const corner = "from \\ to";
  const width = Math.max(corner.length, ...labels.map((l) => l.length));
  const paint = (allowed: boolean): string => {
    const glyph = allowed ? ALLOWED_GLYPH : DENIED_GLYPH;
    return colour ? `${allowed ? "\u001b[32m" : "\u001b[2m"}${glyph}\u001b[0m` : glyph;
  };
  const lines = [
    `${matrix.protocol} port ${matrix.port}: rows are sources, columns destinations; ${ALLOWED_GLYPH} allowed, ${DENIED_GLYPH} denied`,
    `${corner.padEnd(width)} ${pods.map((_, i) => String(i + 1).padStart(cell)).join("")}`,
  ];
  labels.forEach((label, from) => {
    let row = `${label.padEnd(width)} `;
    for (let to = 0; to < n; to++) row += " ".repeat(cell - 1) + paint(matrix.allowed(from, to));
    lines.push(row);
  });
  lines.push(summaryLine(matrix));
  return lines;
}

// ------------------------------------------------------------------ one connection

/** The text answer for one connection: a headline with the verdict, then each direction in words. */
export function explainDecision(
  cluster: ClusterFile,
  from: string,
  to: string,
  port: number | string,
  d: Decision,
): string[] {
  const named = typeof port === "string" ? ` (${port})` : "";
  return [
    `${from} -> ${to}, ${d.protocol} port ${d.port}${named}: ${d.allowed ? "allow" : "deny"}`,
    `  egress   ${directionWords(cluster, "egress", from, to, d.egress)}`,
    `  ingress  ${directionWords(cluster, "ingress", from, to, d.ingress)}`,
  ];
}

/** One direction's verdict in words, naming the policies and rules (`spec.ingress[0] of shop/web`). */
export function directionWords(
  cluster: ClusterFile,
  direction: "ingress" | "egress",
  from: string,
  to: string,
  d: DirectionDecision,
): string {
  const subject = direction === "egress" ? from : to;
  const namespace = subject.slice(0, subject.indexOf("/"));
  switch (d.verdict) {
    case "not-applicable":
      return subject.includes("/")
        ? `not applicable: ${subject} is a hostNetwork pod, which no policy selects (E12)`
        : `not applicable: ${subject} is an address, not a pod`;
    case "self":
      return "self: a pod's traffic to itself is always allowed (E13)";
    case "node-local": {
      const pod = cluster.pods.find((p) => `${p.namespace}/${p.name}` === to);
      const node = pod?.hostIP ?? (pod?.hostNetwork === true ? pod.ip : undefined);
      return `node-local: ${from} is ${to}'s node${node === undefined ? "" : ` (${node})`}, so the ingress check is skipped (E11)`;
    }
    case "not-isolated":
      return `not isolated: no NetworkPolicy in ${namespace} selects ${subject} for ${direction}, so all ${direction} is allowed`;
    case "allowed-by-rule":
      return `allowed by ${d.policies.map((p) => `${p.rules.map((r) => `spec.${direction}[${r}]`).join(", ")} of ${p.policy}`).join("; ")}`;
    case "denied": {
      const names = d.policies.map((p) => p.policy).join(", ");
      return `denied: ${subject} is isolated for ${direction} by ${names}, and no ${direction} rule of ${d.policies.length === 1 ? "it" : "theirs"} matches`;
    }
  }
}
