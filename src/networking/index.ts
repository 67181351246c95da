// Public API of clusterwire/networking.
export { DecodeError, EncodeError, type DecodeErrorLocation, type DecodeFormat } from "./errors.js";
export {
  decode,
  encode,
  kindOf,
  readEnvelope,
  MAGIC,
  PROTOBUF_MEDIA_TYPE,
  type DecodeOptions,
  type EncodeOptions,
  type Envelope,
} from "./envelope.js";
export {
  decodeWatchStream,
  decodeWatchEvent,
  encodeWatchEvent,
  DEFAULT_MAX_FRAME_SIZE,
  PROTOBUF_WATCH_MEDIA_TYPE,
  type WatchEvent,
  type WatchEventType,
  type WatchDecodeOptions,
} from "./watch.js";
export { fromJson, toJson, toJsonString, type FromJsonOptions } from "./json.js";
export {
  decodeJsonWatchStream,
  decodeJsonWatchEvent,
  encodeJsonWatchEvent,
  JSON_WATCH_MEDIA_TYPE,
  type JsonWatchDecodeOptions,
} from "./json-watch.js";
export { fromYaml, toYaml } from "./yaml.js";
export type { JsonObject, JsonValue } from "./json-value.js";
export { KINDS, NETWORKING_API_VERSION, lookupKind, type KindInfo, type NetworkingObject } from "./kinds.js";
export { formatRfc3339, parseRfc3339 } from "./time.js";
export {
  validate,
  toStatus,
  DEFAULT_FEATURE_GATES,
  type FeatureGates,
  type ValidateOptions,
} from "./validate.js";
export { applyDefaults } from "./defaults.js";
export {
  formatFieldError,
  formatFieldErrorBody,
  type BadValue,
  type FieldError,
  type FieldErrorType,
} from "./field-error.js";
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
export { EvaluatorInputError } from "./errors.js";
export { createPolicyEngine, type PolicyEngineInput } from "./policy-engine.js";
export { createRouter, type RouterInput } from "./router.js";
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
  HostTier,
  OutOfScope,
  PolicyDiff,
  PolicyEngine,
  PolicyRuleMatch,
  PortQuery,
  Protocol,
  Route,
  RouteRequest,
  Router,
  SkippedObject,
  TruthMatrix,
  TruthTable,
  Verdict,
} from "./evaluator-types.js";
