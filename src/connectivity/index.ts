/**
 * Connectivity for repositories of manifests: the workloads, namespaces, Services, Ingresses and
 * NetworkPolicies of a directory of YAML or JSON (Deployments, StatefulSets, DaemonSets, Jobs,
 * CronJobs, Pods, ...), which of them may connect to which and to which addresses outside the
 * cluster, what a change to the repository opens or closes, expectations that fail CI, lint for
 * policies, and reports (text, JSON, Markdown, SARIF, DOT). Runs in Node and in the browser.
 *
 * The analysis itself, over namespaces, workloads and policies given as values, is
 * `analyzeConnectivity` and `diffConnectivity` of clusterwire/networking.
 *
 * @example
 * ```ts
 * import { connectivityDiffMarkdown } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const web = { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } };
 * const api = { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } };
 * const diff = diffConnectivity({ namespaces, workloads: [web], policies: [] }, { namespaces, workloads: [web, api], policies: [] });
 * console.log(connectivityDiffMarkdown(diff)); // a pull-request comment
 * ```
 *
 * @packageDocumentation
 */
// The reports of a connectivity list and of a diff: text, JSON, Markdown, SARIF and DOT.
export { connectivityDiffDot, connectivityListDot, dotQuote, type DotOptions } from "./report/dot.js";
export {
  describeExplanation,
  explainConnectivityChange,
  type ChangeExplanation,
  type SnapshotExplanation,
} from "./report/explain.js";
export {
  connectivityDiffJson,
  connectivityListJson,
  type ConnectionsJson,
  type ConnectivityChangeJson,
  type ConnectivityDiffJson,
  type ConnectivityLineJson,
  type ConnectivityListJson,
  type ConnectivityListJsonOptions,
  type DirectionJson,
  type PeerJson,
  type WhyJson,
} from "./report/json.js";
export {
  connectivityDiffMarkdown,
  connectivityListMarkdown,
  escapeMarkdown,
  GITHUB_COMMENT_LIMIT,
  type MarkdownOptions,
} from "./report/markdown.js";
export {
  DIFF_REPORT_FORMATS,
  LIST_REPORT_FORMATS,
  renderConnectivityDiff,
  renderConnectivityList,
  type DiffReportFormat,
  type ListReportFormat,
  type ReportOptions,
} from "./report/render.js";
export {
  CONNECTIVITY_CHANGE_RULES,
  connectivityDiffSarifRun,
  sarifArtifactLocation,
  sarifLog,
  SARIF_SCHEMA_URI,
  SARIF_SRCROOT,
  type DiffSarifOptions,
  type LocateObject,
  type SarifLevel,
  type SarifLog,
  type SarifPlace,
  type SarifResult,
  type SarifRule,
  type SarifRun,
} from "./report/sarif.js";
export { connectivityDiffText, connectivityListText } from "./report/text.js";
