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
 * @example
 * ```ts
 * import { analyzeConnectivity, type ConnectivityInput } from "clusterwire/networking";
 * import { checkExpectations, formatExpectationResults, junitXml, parseExpectations } from "clusterwire/connectivity";
 *
 * const input: ConnectivityInput = {
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
 *     { namespace: "shop", kind: "StatefulSet", name: "db", labels: { app: "db" } },
 *   ],
 *   policies: [],
 * };
 * const expectations = parseExpectations("expectations:\n  - deny: {from: shop/web, to: shop/db, port: 5432}\n", "expect.yaml");
 * const results = checkExpectations(analyzeConnectivity(input), expectations, { input });
 * console.log(formatExpectationResults(results)); // FAIL  deny shop/web => shop/db on TCP 5432 (1 of 1 pair failed) ...
 * const report = junitXml(results, { suiteName: "shop" }); // for the CI dashboard
 * ```
 *
 * @packageDocumentation
 */
// The policy lint: warnings CW1001-CW1006, how to silence them, and their text.
export { formatLintWarnings } from "./lint/format.js";
export { lintPolicies } from "./lint/lint.js";
export {
  LINT_IGNORE_ANNOTATION,
  LINT_RULES,
  lintRule,
  parseLintIgnore,
  type LintId,
  type LintOptions,
  type LintRule,
  type LintRuleRef,
  type LintWarning,
} from "./lint/rules.js";
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
export { readTopology } from "./topology/read-topology.js";
export type {
  IgnoredKind,
  ManifestFile,
  SkippedFile,
  SourcePlace,
  Topology,
  TopologyIngress,
  TopologyOptions,
  TopologyProblem,
  TopologyService,
  TopologyServicePort,
} from "./topology/types.js";
export { exposedWorkloads } from "./exposure/exposure.js";
export type { Exposure, ExposureTarget, IngressExposure, ServiceExposure } from "./exposure/types.js";
export {
  INGRESS_CONTROLLER_KEY,
  INGRESS_CONTROLLER_KIND,
  INGRESS_CONTROLLER_NAME,
  INGRESS_CONTROLLER_NAMESPACE,
  ingressControllerKey,
  withIngressController,
  type IngressControllerOptions,
} from "./exposure/ingress-controller.js";
// Expectations that fail CI: the file, its judgement, and the text and JUnit reports.
export { parseExpectations } from "./expect/parse.js";
export { checkExpectations } from "./expect/judge.js";
export { formatExpectationResults } from "./expect/format.js";
export { junitXml, type JunitOptions } from "./expect/junit.js";
export { ExpectationFileError } from "./expect/errors.js";
export type {
  CheckExpectationsOptions,
  Expectation,
  ExpectationFailure,
  ExpectationPosition,
  ExpectationProblem,
  ExpectationResult,
  ExpectedPort,
  IsolationExpectation,
  NamespaceReference,
  PeerPattern,
  ReachExpectation,
} from "./expect/types.js";
