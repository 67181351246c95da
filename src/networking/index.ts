/**
 * Kubernetes networking.k8s.io/v1 objects as the API server sees them: the protobuf wire and
 * watch streams, JSON and YAML in both readings, validation with the API server's errors and
 * warnings, a reader for files of mixed kinds, and the Ingress router and NetworkPolicy engine.
 *
 * The generated message types (`Ingress`, `IngressSpec`, ...) are documented by their proto
 * comments; build them with `create()` and their schema (`IngressSchema`, ...).
 *
 * @example
 * ```ts
 * import { IngressSchema, checkManifests, create, decode, encode, formatVerdict, validate } from "clusterwire/networking";
 *
 * const ingress = create(IngressSchema, {
 *   metadata: { name: "shop", namespace: "web" },
 *   spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 * });
 * console.log(validate(ingress).length, decode(encode(ingress)).$typeName); // 0 "k8s.io.api.networking.v1.Ingress"
 *
 * const text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\napiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: Bad_Name}\nspec: {controller: example.com/lb}\n";
 * for (const verdict of checkManifests(text)) console.log(verdict.status, formatVerdict(verdict));
 * ```
 *
 * @packageDocumentation
 */
// Public API of clusterwire/networking.
export { DecodeError, EncodeError, type DecodeErrorLocation, type DecodeFormat } from "./model/errors.js";
export { decode, type DecodeOptions } from "./protobuf/decode.js";
export { encode, encodeInto, encodedSize, type EncodeOptions } from "./protobuf/encode.js";
export { readEnvelope, MAGIC, type Envelope } from "./protobuf/envelope.js";
export {
  annotateWire,
  renderWirePath,
  type WireAnnotation,
  type WirePathSegment,
  type WireScalar,
  type WireSpan,
  type WireSpanKind,
} from "./protobuf/annotate.js";
export { formatWireAnnotation, type FormatWireOptions } from "./protobuf/annotate-text.js";
export {
  PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE,
  JSON_WATCH_MEDIA_TYPE,
  INGRESS_CLASS_ANNOTATION,
  DEFAULT_CLASS_ANNOTATION,
  NAMESPACE_NAME_LABEL,
  DEFAULT_NAMESPACE,
} from "./model/constants.js";
export { DEFAULT_MAX_FRAME_SIZE, type WatchEvent, type WatchEventType } from "./model/watch-event.js";
export { decodeWatchStream, decodeWatchEvent, encodeWatchEvent, type WatchDecodeOptions } from "./protobuf/watch.js";
export { fromJson, type FromJsonOptions } from "./text/json/from-json.js";
export { toJson, toJsonString } from "./text/json/to-json.js";
export {
  decodeJsonWatchStream,
  decodeJsonWatchEvent,
  encodeJsonWatchEvent,
  type JsonWatchDecodeOptions,
} from "./text/json/watch.js";
export { fromYaml, toYaml, type FromYamlOptions } from "./text/yaml/yaml.js";
export { splitYamlDocuments, type YamlDocumentText } from "./text/yaml/split.js";
export {
  locateYamlPath,
  locateYamlRange,
  parseYamlDocuments,
  type LocateYamlOptions,
  type ParseYamlOptions,
  type YamlReading,
} from "./text/yaml/parse.js";
export type { JsonObject, JsonValue } from "./model/json-value.js";
export { NETWORKING_API_VERSION } from "./model/kind-names.js";
export { KINDS, kindOf, lookupKind, type KindInfo, type NetworkingObject } from "./model/kinds.js";
export { formatRfc3339, parseRfc3339 } from "./model/time.js";
export {
  validate,
  defaultFeatureGates,
  DEFAULT_FEATURE_GATES,
  type FeatureGates,
  type ValidateOptions,
} from "./validation/validate.js";
export { toStatus } from "./validation/status.js";
export {
  DEFAULT_KUBERNETES_VERSION,
  isKubernetesVersion,
  KUBERNETES_VERSIONS,
  type KubernetesVersion,
} from "./model/kubernetes-version.js";
export { apiWarnings, warnings, type ApiWarning, type WarningOptions } from "./validation/warnings.js";
export { applyDefaults } from "./validation/defaults.js";
export {
  formatFieldError,
  formatFieldErrorBody,
  type BadValue,
  type FieldError,
  type FieldErrorType,
} from "./validation/field-error.js";
// The generated message types and schemas, for building objects with create().
export * from "../../gen/k8s/io/api/networking/v1/networking_pb.js";
export type {
  ObjectMeta,
  ListMeta,
  LabelSelector,
  LabelSelectorRequirement,
  Time,
  OwnerReference,
  ManagedFieldsEntry,
  FieldsV1,
  Condition,
  Status,
  StatusDetails,
  StatusCause,
} from "../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
export {
  ObjectMetaSchema,
  ListMetaSchema,
  LabelSelectorSchema,
  LabelSelectorRequirementSchema,
  TimeSchema,
  OwnerReferenceSchema,
  ManagedFieldsEntrySchema,
  FieldsV1Schema,
  ConditionSchema,
  StatusSchema,
} from "../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
export type { IntOrString } from "../../gen/k8s/io/apimachinery/pkg/util/intstr/intstr_pb.js";
export { IntOrStringSchema } from "../../gen/k8s/io/apimachinery/pkg/util/intstr/intstr_pb.js";
export type { TypedLocalObjectReference } from "../../gen/k8s/io/api/core/v1/core_pb.js";
export { TypedLocalObjectReferenceSchema } from "../../gen/k8s/io/api/core/v1/core_pb.js";
export { create } from "@bufbuild/protobuf";
export { EvaluatorInputError } from "./model/errors.js";
export { readManifests } from "./manifests/read-manifests.js";
export { notManifestReason } from "./manifests/not-manifest.js";
export type {
  FieldValidation,
  ManifestEntry,
  ManifestError,
  ManifestObject,
  ManifestSkipped,
  ReadManifestsOptions,
} from "./manifests/entries.js";
export { checkManifests, type CheckManifestsOptions } from "./manifests/check-manifests.js";
export {
  describeVerdict,
  formatVerdict,
  objectLabel,
  type FormatVerdictOptions,
} from "./manifests/format-verdict.js";
export type {
  ManifestVerdict,
  ManifestWarning,
  TextPosition,
  VerdictFailure,
  VerdictFieldError,
  VerdictRefusal,
  VerdictStatus,
} from "./manifests/verdict.js";
export { createPolicyEngine, type PolicyEngineInput } from "./evaluate/policy/engine.js";
export { createRouter, normaliseRequest, type RouterInput } from "./evaluate/router/router.js";
export { PROTOCOLS } from "./evaluate/policy/types.js";
export type {
  Cell,
  ClusterNamespace,
  ClusterPod,
  ClusterPodPort,
  Connection,
  ConnectionChange,
  Decision,
  DiffOptions,
  DirectionDecision,
  Endpoint,
  PolicyDiff,
  PolicyEngine,
  PolicyRuleMatch,
  PortQuery,
  Protocol,
  TableQuery,
  TruthMatrix,
  TruthTable,
  TruthTableResult,
  Verdict,
} from "./evaluate/policy/types.js";
export type {
  HostTier,
  NormalisedRequest,
  OutOfScope,
  Route,
  RouteRequest,
  RouteResult,
  Router,
} from "./evaluate/router/types.js";
export type { SkippedObject } from "./evaluate/types.js";
export { analyzeConnectivity } from "./evaluate/connectivity/analyze.js";
export { diffConnectivity } from "./evaluate/connectivity/diff.js";
export {
  ALL_CONNECTIONS,
  NO_CONNECTIONS,
  connectionSetIncludes,
  formatConnectionSet,
  intersectConnectionSets,
  isEmptyConnectionSet,
  parseConnectionSet,
  sameConnectionSet,
  subtractConnectionSets,
  unionConnectionSets,
} from "./evaluate/connectivity/connection-set.js";
export type {
  AddressRange,
  AnalyzedPolicy,
  AnalyzedRule,
  ClusterWorkload,
  ConnectionExplanation,
  ConnectionSet,
  ConnectivityAnalysis,
  ConnectivityChange,
  ConnectivityChangeKind,
  ConnectivityDiff,
  ConnectivityInput,
  ConnectivityLine,
  ConnectivityOptions,
  ConnectivityPeer,
  DirectionExplanation,
  PortRange,
} from "./evaluate/connectivity/types.js";
