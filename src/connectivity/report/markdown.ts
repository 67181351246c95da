// The Markdown reports, for a pull-request comment: a heading, a summary table, then collapsible
// sections with a table each, cut to fit GitHub's comment limit.

import {
  formatConnectionSet,
  type ConnectivityChange,
  type ConnectivityChangeKind,
  type ConnectivityDiff,
  type ConnectivityLine,
  type ConnectivityPeer,
} from "../../networking/index.js";
import { describeChange, explainConnectivityChange } from "./explain.js";
import { diffCounts, diffSummary } from "./text.js";

/**
 * The most characters a GitHub comment may hold: the Markdown reports' default `maxLength`.
 *
 * @example
 * ```ts
 * import { GITHUB_COMMENT_LIMIT } from "clusterwire/connectivity";
 *
 * console.log(GITHUB_COMMENT_LIMIT); // 65536
 * ```
 */
export const GITHUB_COMMENT_LIMIT = 65_536;

/**
 * Options of {@link connectivityDiffMarkdown} and {@link connectivityListMarkdown}.
 *
 * @example
 * ```ts
 * import type { MarkdownOptions } from "clusterwire/connectivity";
 *
 * const options: MarkdownOptions = { title: "Connectivity changes in this pull request", maxLength: 60_000 };
 * ```
 */
export interface MarkdownOptions {
  /** The heading's text (Markdown in it is escaped). Default: `Connectivity changes` for a diff, `Connectivity` for a list. */
  readonly title?: string;
  /**
   * The most UTF-16 code units the report may have (default 65,536, GitHub's comment limit). Rows
   * that do not fit are left out, each cut table ending in a `... N more` line; the budget is
   * shared so that every section shows what it can. A RangeError when not even the headings,
   * the summary and the empty tables fit.
   */
  readonly maxLength?: number;
}

/**
 * A diff as Markdown for a pull-request comment: a heading, the summary line, a table of counts
 * (connections added, removed and changed, workloads added and removed), then collapsible
 * `<details>` sections: the changes per namespace, a table per kind of change (From, To, the
 * connections before and/or after, and Why: the reasons before and after), and the workloads
 * added and removed. Cell text is escaped (`|`, `<`, `>`, `&`, backticks and other Markdown
 * punctuation), and the whole fits `maxLength`.
 *
 * @example
 * ```ts
 * import { connectivityDiffMarkdown } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const web = { namespace: "shop", kind: "Deployment", name: "web" };
 * const api = { namespace: "shop", kind: "Deployment", name: "api" };
 * const diff = diffConnectivity({ namespaces, workloads: [web], policies: [] }, { namespaces, workloads: [web, api], policies: [] });
 * console.log(connectivityDiffMarkdown(diff, { title: "Connectivity changes in this pull request" }));
 * ```
 */
export function connectivityDiffMarkdown(diff: ConnectivityDiff, options: MarkdownOptions = {}): string {
  const maxLength = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  let head = `## ${escapeMarkdown(options.title ?? "Connectivity changes")}\n\n${diffSummary(diff)}\n`;
  const n = diffCounts(diff);
  if (diff.changes.length === 0 && n.workloadsAdded === 0 && n.workloadsRemoved === 0) {
    return fitReport(head, [], maxLength);
  }
  head +=
    "\n| Change | Count |\n| --- | ---: |\n" +
    `| Connections added | ${n.added} |\n| Connections removed | ${n.removed} |\n` +
    `| Connections changed | ${n.changed} |\n| Workloads added | ${n.workloadsAdded} |\n` +
    `| Workloads removed | ${n.workloadsRemoved} |\n`;
  const sections: Section[] = [];
  const namespaces = namespaceRows(diff.changes);
  if (namespaces.length > 0) {
    sections.push({
      summary: `Changes by namespace (${namespaces.length})`,
      columns: ["Namespace", "Added", "Removed", "Changed"],
      align: ["---", "---:", "---:", "---:"],
      rows: namespaces,
    });
  }
  const byKind: Record<ConnectivityChangeKind, ConnectivityChange[]> = { added: [], removed: [], changed: [] };
  for (const c of diff.changes) byKind[c.kind].push(c);
  for (const kind of ["added", "removed", "changed"] as const) {
    const changes = byKind[kind];
    if (changes.length === 0) continue;
    const sets =
      kind === "added"
        ? (["After"] as const)
        : kind === "removed"
          ? (["Before"] as const)
          : (["Before", "After"] as const);
    sections.push({
      summary: `Connections ${kind} (${changes.length})`,
      columns: ["From", "To", ...sets, "Why"],
      align: ["---", "---", ...sets.map(() => "---"), "---"],
      // Rows are written lazily: explaining every change of a large diff only to cut most of them
      // would cost more than the report.
      rows: changes.map((c) => () => {
        const cells = [peerCell(c.from), peerCell(c.to)];
        if (kind !== "added") cells.push(escapeMarkdown(formatConnectionSet(c.before)));
        if (kind !== "removed") cells.push(escapeMarkdown(formatConnectionSet(c.after)));
        cells.push(describeChange(explainConnectivityChange(diff, c)).map(escapeMarkdown).join("<br>"));
        return cells;
      }),
    });
  }
  const workloads = [
    ...diff.addedWorkloads.map((k) => [escapeMarkdown(k), "added"]),
    ...diff.removedWorkloads.map((k) => [escapeMarkdown(k), "removed"]),
  ];
  if (workloads.length > 0) {
    sections.push({
      summary: `Workloads added and removed (${workloads.length})`,
      columns: ["Workload", "Change"],
      align: ["---", "---"],
      rows: workloads,
    });
  }
  return fitReport(head, sections, maxLength);
}

/**
 * A connectivity list as Markdown: a heading, the number of lines, and a table (From, To,
 * Connections), cut to fit `maxLength` with a `... N more` line.
 *
 * @example
 * ```ts
 * import { connectivityListMarkdown } from "clusterwire/connectivity";
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
 * console.log(connectivityListMarkdown(analysis.lines()));
 * ```
 */
export function connectivityListMarkdown(lines: readonly ConnectivityLine[], options: MarkdownOptions = {}): string {
  const head =
    `## ${escapeMarkdown(options.title ?? "Connectivity")}\n\n` +
    `${lines.length} ${lines.length === 1 ? "connection" : "connections"}.\n`;
  if (lines.length === 0) return fitReport(head, [], options.maxLength ?? GITHUB_COMMENT_LIMIT);
  const table: Section = {
    columns: ["From", "To", "Connections"],
    align: ["---", "---", "---"],
    rows: lines.map((l) => [peerCell(l.from), peerCell(l.to), escapeMarkdown(formatConnectionSet(l.connections))]),
  };
  return fitReport(head, [table], options.maxLength ?? GITHUB_COMMENT_LIMIT);
}

/**
 * Text made safe for a Markdown table cell and for the HTML GitHub allows in it: `&`, `<` and `>`
 * become entities, Markdown's punctuation (`\`, backticks, `*`, `_`, `[`, `]`, `|`, `~`) is
 * escaped with a backslash, and line breaks become spaces.
 *
 * @example
 * ```ts
 * import { escapeMarkdown } from "clusterwire/connectivity";
 *
 * console.log(escapeMarkdown("a|b <c>")); // a\|b &lt;c&gt;
 * ```
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[&<>\\`*_[\]|~\r\n]/g, (c) => ESCAPES[c] ?? `\\${c}`);
}

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": " ", "\n": " " };

function peerCell(peer: ConnectivityPeer): string {
  // Many CIDRs would make the column wide; a space after each comma lets it wrap.
  return escapeMarkdown(peer.type === "workload" ? peer.key : peer.key.replaceAll(",", ", "));
}

/** The changes per namespace of either end (addresses outside the cluster last), a change counted once per namespace. */
function namespaceRows(changes: readonly ConnectivityChange[]): string[][] {
  const counts = new Map<string, Record<ConnectivityChangeKind, number>>();
  const outside: Record<ConnectivityChangeKind, number> = { added: 0, removed: 0, changed: 0 };
  for (const c of changes) {
    const names = new Set<string>();
    for (const p of [c.from, c.to]) {
      if (p.type === "workload") names.add(p.namespace);
    }
    if (c.from.type === "external" || c.to.type === "external") outside[c.kind]++;
    for (const name of names) {
      let row = counts.get(name);
      if (row === undefined) {
        row = { added: 0, removed: 0, changed: 0 };
        counts.set(name, row);
      }
      row[c.kind]++;
    }
  }
  const cells = (label: string, row: Record<ConnectivityChangeKind, number>) => [
    label,
    String(row.added),
    String(row.removed),
    String(row.changed),
  ];
  const rows = [...counts.keys()].sort().map((name) => cells(escapeMarkdown(name), counts.get(name)!));
  if (outside.added + outside.removed + outside.changed > 0) rows.push(cells("addresses outside the cluster", outside));
  return rows;
}

/** A table, in a collapsible section when it has a summary; rows as cells, or made when shown. */
interface Section {
  readonly summary?: string;
  readonly columns: readonly string[];
  readonly align: readonly string[];
  readonly rows: readonly (readonly string[] | (() => readonly string[]))[];
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |\n`;
}

function more(n: number): string {
  return `\n... ${n} more\n`;
}

/**
 * head, then each section, within maxLength: the fixed parts (and room for a `... N more` line
 * per section) first, then rows, the budget shared out smallest section (in rows) first, so that a long
 * section cannot crowd out a short one.
 */
function fitReport(head: string, sections: readonly Section[], maxLength: number): string {
  const opens = sections.map(
    (s) =>
      `\n${s.summary === undefined ? "" : `<details><summary>${s.summary}</summary>\n\n`}` +
      tableRow(s.columns) +
      tableRow(s.align),
  );
  const closes = sections.map((s) => (s.summary === undefined ? "" : "\n</details>\n"));
  let fixed = head.length;
  for (let i = 0; i < sections.length; i++) {
    fixed += opens[i]!.length + closes[i]!.length + more(sections[i]!.rows.length).length;
  }
  if (!(maxLength >= fixed)) {
    throw new RangeError(`maxLength ${maxLength} is less than the ${fixed} characters the report needs without rows`);
  }
  // Each section's rows, made one at a time until they no longer fit its share.
  const shown: string[][] = sections.map(() => []);
  const order = sections.map((_, i) => i).sort((a, b) => sections[a]!.rows.length - sections[b]!.rows.length);
  let remaining = maxLength - fixed;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const share = Math.floor(remaining / (order.length - k));
    let used = 0;
    for (const row of sections[i]!.rows) {
      const text = tableRow(typeof row === "function" ? row() : row);
      if (used + text.length > share) break;
      shown[i]!.push(text);
      used += text.length;
    }
    remaining -= used;
  }
  let out = head;
  for (let i = 0; i < sections.length; i++) {
    const left = sections[i]!.rows.length - shown[i]!.length;
    out += opens[i]! + shown[i]!.join("") + (left > 0 ? more(left) : "") + closes[i]!;
  }
  return out;
}
