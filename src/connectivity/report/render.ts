// One call per report kind and format, for the CLI's `-o` and for callers that pick a format at run time.

import type { ConnectivityAnalysis, ConnectivityDiff, ConnectivityLine } from "../../networking/index.js";
import { connectivityDiffDot, connectivityListDot } from "./dot.js";
import { connectivityDiffJson, connectivityListJson } from "./json.js";
import { connectivityDiffMarkdown, connectivityListMarkdown } from "./markdown.js";
import { connectivityDiffSarifRun, sarifLog, type LocateObject } from "./sarif.js";
import { connectivityDiffText, connectivityListText } from "./text.js";

/**
 * The formats of a connectivity list's report.
 *
 * @example
 * ```ts
 * import { LIST_REPORT_FORMATS } from "clusterwire/connectivity";
 *
 * console.log(LIST_REPORT_FORMATS.join("|")); // text|json|md|dot
 * ```
 */
export const LIST_REPORT_FORMATS = ["text", "json", "md", "dot"] as const;

/**
 * The formats of a diff's report.
 *
 * @example
 * ```ts
 * import { DIFF_REPORT_FORMATS } from "clusterwire/connectivity";
 *
 * console.log(DIFF_REPORT_FORMATS.join("|")); // text|json|md|sarif|dot
 * ```
 */
export const DIFF_REPORT_FORMATS = ["text", "json", "md", "sarif", "dot"] as const;

/**
 * A format of a connectivity list's report.
 *
 * @example
 * ```ts
 * import type { ListReportFormat } from "clusterwire/connectivity";
 *
 * const format: ListReportFormat = "md";
 * ```
 */
export type ListReportFormat = (typeof LIST_REPORT_FORMATS)[number];

/**
 * A format of a diff's report.
 *
 * @example
 * ```ts
 * import type { DiffReportFormat } from "clusterwire/connectivity";
 *
 * const format: DiffReportFormat = "sarif";
 * ```
 */
export type DiffReportFormat = (typeof DIFF_REPORT_FORMATS)[number];

/**
 * Options of {@link renderConnectivityList} and {@link renderConnectivityDiff}; each format reads
 * those it has.
 *
 * @example
 * ```ts
 * import type { ReportOptions } from "clusterwire/connectivity";
 *
 * const options: ReportOptions = { title: "Connectivity changes", maxLength: 60_000, toolVersion: "1.0.0" };
 * ```
 */
export interface ReportOptions {
  /** List, JSON and DOT: the analysis the lines came from (each JSON line gets `why`; DOT draws every workload). */
  readonly analysis?: ConnectivityAnalysis;
  /** Markdown: the heading. */
  readonly title?: string;
  /** Markdown: the most UTF-16 code units (default 65,536). */
  readonly maxLength?: number;
  /** Diff, SARIF: where workloads and policies are written. */
  readonly locate?: LocateObject;
  /** Diff, SARIF: the tool's version. */
  readonly toolVersion?: string;
}

/**
 * A connectivity list's report in one of {@link LIST_REPORT_FORMATS}: text
 * ({@link connectivityListText}), JSON ({@link connectivityListJson}, indented, with a final
 * newline), Markdown ({@link connectivityListMarkdown}) or DOT ({@link connectivityListDot}). A
 * RangeError for another format.
 *
 * @example
 * ```ts
 * import { renderConnectivityList } from "clusterwire/connectivity";
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
 * console.log(renderConnectivityList(analysis.lines(), "md", { analysis }));
 * ```
 */
export function renderConnectivityList(
  lines: readonly ConnectivityLine[],
  format: ListReportFormat,
  options: ReportOptions = {},
): string {
  const { analysis } = options;
  switch (format) {
    case "text":
      return connectivityListText(lines);
    case "json":
      return jsonText(connectivityListJson(lines, analysis === undefined ? {} : { analysis }));
    case "md":
      return connectivityListMarkdown(lines, markdownOptions(options));
    case "dot":
      return connectivityListDot(lines, analysis === undefined ? {} : { workloads: analysis.workloads });
    default:
      throw unknownFormat(format, LIST_REPORT_FORMATS);
  }
}

/**
 * A diff's report in one of {@link DIFF_REPORT_FORMATS}: text ({@link connectivityDiffText}),
 * JSON ({@link connectivityDiffJson}, indented, with a final newline), Markdown
 * ({@link connectivityDiffMarkdown}), SARIF (a log of one {@link connectivityDiffSarifRun}) or
 * DOT ({@link connectivityDiffDot}). A RangeError for another format.
 *
 * @example
 * ```ts
 * import { renderConnectivityDiff } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const web = { namespace: "shop", kind: "Deployment", name: "web" };
 * const api = { namespace: "shop", kind: "Deployment", name: "api" };
 * const diff = diffConnectivity({ namespaces, workloads: [web], policies: [] }, { namespaces, workloads: [web, api], policies: [] });
 * console.log(renderConnectivityDiff(diff, "text"));
 * ```
 */
export function renderConnectivityDiff(
  diff: ConnectivityDiff,
  format: DiffReportFormat,
  options: ReportOptions = {},
): string {
  switch (format) {
    case "text":
      return connectivityDiffText(diff);
    case "json":
      return jsonText(connectivityDiffJson(diff));
    case "md":
      return connectivityDiffMarkdown(diff, markdownOptions(options));
    case "sarif": {
      const { locate, toolVersion } = options;
      const run = connectivityDiffSarifRun(diff, {
        ...(locate === undefined ? {} : { locate }),
        ...(toolVersion === undefined ? {} : { toolVersion }),
      });
      return jsonText(sarifLog([run]));
    }
    case "dot":
      return connectivityDiffDot(diff);
    default:
      throw unknownFormat(format, DIFF_REPORT_FORMATS);
  }
}

function markdownOptions(options: ReportOptions): { title?: string; maxLength?: number } {
  const out: { title?: string; maxLength?: number } = {};
  if (options.title !== undefined) out.title = options.title;
  if (options.maxLength !== undefined) out.maxLength = options.maxLength;
  return out;
}

function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function unknownFormat(format: never, known: readonly string[]): RangeError {
  return new RangeError(`unknown report format ${JSON.stringify(format)}: expected one of ${known.join(", ")}`);
}
