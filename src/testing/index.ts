/**
 * fast-check arbitraries and ready-made properties for code that handles networking.k8s.io/v1
 * objects and the storage API. fast-check 4 is a peer dependency.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbIngressJson, propValidateNeverThrows } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbIngressJson(), (json) => validate(fromJson(json)).length === 0));
 * await fc.assert(propValidateNeverThrows(), { numRuns: 50 });
 * ```
 *
 * @packageDocumentation
 */
// Public API of clusterwire/testing: fast-check arbitraries and ready-made
// properties for testing code that handles networking.k8s.io/v1 objects and
// the storage API. fast-check (4.x) is a peer dependency.

// Any shape that is valid on the wire, for every message and List.
export {
  arbFieldsV1Text,
  arbInt32,
  arbInt64,
  arbMessage,
  arbObject,
  arbObjectOf,
  arbString,
  NETWORKING_KINDS,
  TRICKY_STRINGS,
  type ArbOptions,
} from "./any-shape.js";

// Building blocks that shrink well.
export {
  arbCanonicalCidr,
  arbCanonicalIP,
  arbIPBlock,
  arbIPNet,
  arbIPValue,
  arbLegacyOnlyCidr,
  type IPBlockOptions,
  type LegacyCidrStyle,
} from "./building-blocks/ip.js";
export {
  arbAnnotationKey,
  arbAnnotations,
  arbAnnotationValue,
  arbLabelKey,
  arbLabelName,
  arbLabels,
  arbLabelSelector,
  arbLabelSelectorRequirement,
  arbLabelValue,
  SELECTOR_OPERATORS,
} from "./building-blocks/labels.js";
export {
  arbControllerName,
  arbDns1035Label,
  arbDns1123Label,
  arbDns1123Subdomain,
  arbDnsHost,
  arbIngressHost,
  arbWildcardHost,
} from "./building-blocks/names.js";
export { arbAbsolutePath, arbImplementationSpecificPath, arbPathSegmentName } from "./building-blocks/paths.js";
export { arbPortName, arbPortNumber, arbPortRange } from "./building-blocks/ports.js";
export { formatCidr, formatIP, type IPFamily, type IPNet } from "./addresses.js";

// Valid by construction, and targeted invalid.
export {
  arbAnyValidJson,
  arbHttpIngressPath,
  arbIngressBackend,
  arbIngressClassJson,
  arbIngressJson,
  arbIngressRule,
  arbIngressTLS,
  arbIPAddressJson,
  arbNetworkPolicyJson,
  arbNetworkPolicyPeer,
  arbNetworkPolicyPort,
  arbObjectMeta,
  arbServiceCIDRJson,
  arbValidJson,
  arbValidObject,
  VALIDATED_KINDS,
  type MetaOptions,
  type ValidatedKind,
  type ValidObjectOptions,
} from "./valid-objects.js";
export {
  arbTargetedInvalid,
  expectedOnSelfUpdate,
  targetedMutations,
  type ExpectedError,
  type ExpectedErrorType,
  type Mutation,
  type TargetedInvalid,
  type TargetedInvalidOptions,
} from "./targeted-invalid/index.js";

// Evaluator inputs.
export {
  arbCluster,
  arbClusterPair,
  type ClusterOptions,
  type GeneratedCluster,
  type GeneratedClusterPair,
} from "./clusters/cluster.js";
export { arbConnection, type ConnectionTarget } from "./clusters/connections.js";
export {
  arbRouteRequest,
  arbRouterInput,
  arbRoutingInputJson,
  LARGE_ROUTING,
  ROUTING_CONTROLLER,
  SMALL_ROUTING,
  toRouterInput,
  type RoutingInput,
  type RoutingInputJson,
  type RoutingSizes,
} from "./routing.js";

// The storage API: building blocks, decoded models and request bodies.
export * from "./storage/index.js";

// Ready-made properties.
export {
  arbAdmissionCase,
  propAdmissionAgreesWithValidate,
  propNeverThrows,
  propPolicyEngineAgrees,
  propRoundTrip,
  propRouterAgrees,
  propValidateNeverThrows,
  type AdmissionCase,
  type AdmissionOptions,
  type AdmissionVerdict,
  type NeverThrowsOptions,
  type PolicyAgreementOptions,
  type RoundTripOptions,
  type RoundTripStages,
  type RouteAnswer,
  type RouterAgreementOptions,
} from "./properties.js";

// The real API server's answers: recorded admission cases, and a checker for an admission
// function or a running webhook against them (or against a live API server).
export {
  AdmissionCheckError,
  RECORDED_SERVERS,
  recordedAdmissionCases,
  type ExpectedAdmission,
  type RecordedAdmissionCase,
  type RecordedCasesOptions,
  type RecordedStatus,
} from "./recorded-admission.js";
export {
  checkAdmission,
  type AdmissionCheckReport,
  type AdmissionDisagreement,
  type AdmissionFunction,
  type CheckAdmissionOptions,
  type GotAdmission,
  type LiveApiServer,
  type WebhookTarget,
} from "./check-admission.js";
