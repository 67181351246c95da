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
