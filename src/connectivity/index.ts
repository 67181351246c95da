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
