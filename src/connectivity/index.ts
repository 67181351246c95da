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
 * @packageDocumentation
 */
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
