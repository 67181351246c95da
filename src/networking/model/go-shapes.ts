import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";

/*
 * The Go facts the .proto files cannot carry, and nothing else: this module
 * imports no generated code, so the run time (shapes.ts) and the buf plugin
 * that generates the binary codecs (plugin/) both build from it.
 */

/**
 * The Go struct behind each message: what the gogo marshaller always writes,
 * and how encoding/json names, orders and omits each field. The .proto files
 * cannot say this (upstream's generated.proto carries no gogoproto options),
 * so it is stated here once, per message, in Go struct declaration order.
 *
 * Token syntax: `protoName[=jsonKey][:flag,flag]` with flags
 *   ptr    Go pointer: protobuf writes it only when set; JSON null when unset
 *   omit   `omitempty`
 *   zero   `omitzero` (creationTimestamp since 1.34)
 *   inline embedded struct: its fields sit in the parent JSON object
 *   nonempty  protobuf writes it only when non-empty (FieldsV1.Raw)
 *   noJson field has no JSON form (envelope-only messages)
 *   go=T   the Go type is the named type T (of the element, for a list), as
 *          reflect prints it: `v1.Protocol`, not the `string` it is made of.
 *          Without it the Go type follows from the descriptor: string, bool,
 *          int32, int64, a message's package and name (`v1.IngressSpec`),
 *          `[]` of a list's element, `map[string]string`. encoding/json names
 *          it in its type errors.
 */
export const SHAPES: Readonly<Record<string, string>> = {
  // runtime (envelope only; never rendered as JSON)
  "k8s.io.apimachinery.pkg.runtime.TypeMeta": "apiVersion kind",
  "k8s.io.apimachinery.pkg.runtime.Unknown": "typeMeta raw:ptr contentEncoding contentType",
  "k8s.io.apimachinery.pkg.runtime.RawExtension": "raw:ptr",
  // intstr: marshalled to a bare number or string in JSON (see json-mapping.ts)
  "k8s.io.apimachinery.pkg.util.intstr.IntOrString": "type intVal strVal",
  // core/v1
  "k8s.io.api.core.v1.TypedLocalObjectReference": "apiGroup:ptr kind name",
  // meta/v1
  "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta":
    "name:omit generateName:omit namespace:omit selfLink:omit uid:omit,go=types.UID resourceVersion:omit " +
    "generation:omit creationTimestamp:omit,zero deletionTimestamp:ptr,omit " +
    "deletionGracePeriodSeconds:ptr,omit labels:omit annotations:omit ownerReferences:omit " +
    "finalizers:omit managedFields:omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta":
    "selfLink:omit resourceVersion:omit continue:omit remainingItemCount:ptr,omit shardInfo:ptr,omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.ShardInfo": "selector",
  "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector": "matchLabels:omit matchExpressions:omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement":
    "key operator:go=v1.LabelSelectorOperator values:omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time": "seconds nanos",
  "k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference":
    "apiVersion kind name uid:go=types.UID controller:ptr,omit blockOwnerDeletion:ptr,omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry":
    "manager:omit operation:omit,go=v1.ManagedFieldsOperationType apiVersion:omit time:ptr,omit fieldsType:omit fieldsV1:ptr,omit subresource:omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1": "Raw:nonempty",
  "k8s.io.apimachinery.pkg.apis.meta.v1.Condition":
    "type status:go=v1.ConditionStatus observedGeneration:omit lastTransitionTime reason message",
  "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent": "type object",
  "k8s.io.apimachinery.pkg.apis.meta.v1.Status":
    "metadata:omit status:omit message:omit reason:omit,go=v1.StatusReason details:ptr,omit code:omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.StatusDetails":
    "name:omit group:omit kind:omit uid:omit,go=types.UID causes:omit retryAfterSeconds:omit",
  "k8s.io.apimachinery.pkg.apis.meta.v1.StatusCause": "reason:omit,go=v1.CauseType message:omit field:omit",
  // networking/v1
  "k8s.io.api.networking.v1.Ingress": "metadata:omit spec:omit status:omit",
  "k8s.io.api.networking.v1.IngressList": "metadata:omit items",
  "k8s.io.api.networking.v1.IngressSpec": "ingressClassName:ptr,omit defaultBackend:ptr,omit tls:omit rules:omit",
  "k8s.io.api.networking.v1.IngressStatus": "loadBalancer:omit",
  "k8s.io.api.networking.v1.IngressLoadBalancerStatus": "ingress:omit",
  "k8s.io.api.networking.v1.IngressLoadBalancerIngress": "ip:omit hostname:omit ports:omit",
  "k8s.io.api.networking.v1.IngressPortStatus": "port protocol:go=v1.Protocol error:ptr,omit",
  "k8s.io.api.networking.v1.IngressRule": "host:omit ingressRuleValue:inline",
  "k8s.io.api.networking.v1.IngressRuleValue": "http:ptr,omit",
  "k8s.io.api.networking.v1.HTTPIngressRuleValue": "paths",
  "k8s.io.api.networking.v1.HTTPIngressPath": "path:omit pathType:ptr,go=v1.PathType backend",
  "k8s.io.api.networking.v1.IngressBackend": "service:ptr,omit resource:ptr,omit",
  "k8s.io.api.networking.v1.IngressServiceBackend": "name port:omit",
  "k8s.io.api.networking.v1.ServiceBackendPort": "name:omit number:omit",
  "k8s.io.api.networking.v1.IngressTLS": "hosts:omit secretName:omit",
  "k8s.io.api.networking.v1.IngressClass": "metadata:omit spec:omit",
  "k8s.io.api.networking.v1.IngressClassList": "metadata:omit items",
  "k8s.io.api.networking.v1.IngressClassSpec": "controller:omit parameters:ptr,omit",
  "k8s.io.api.networking.v1.IngressClassParametersReference":
    "aPIGroup=apiGroup:ptr,omit kind name scope:ptr namespace:ptr,omit",
  "k8s.io.api.networking.v1.NetworkPolicy": "metadata:omit spec:omit",
  "k8s.io.api.networking.v1.NetworkPolicyList": "metadata:omit items",
  "k8s.io.api.networking.v1.NetworkPolicySpec":
    "podSelector ingress:omit egress:omit policyTypes:omit,go=v1.PolicyType",
  "k8s.io.api.networking.v1.NetworkPolicyIngressRule": "ports:omit from:omit",
  "k8s.io.api.networking.v1.NetworkPolicyEgressRule": "ports:omit to:omit",
  "k8s.io.api.networking.v1.NetworkPolicyPeer": "podSelector:ptr,omit namespaceSelector:ptr,omit ipBlock:ptr,omit",
  "k8s.io.api.networking.v1.NetworkPolicyPort": "protocol:ptr,omit,go=v1.Protocol port:ptr,omit endPort:ptr,omit",
  "k8s.io.api.networking.v1.IPBlock": "cidr except:omit",
  "k8s.io.api.networking.v1.IPAddress": "metadata:omit spec:omit",
  "k8s.io.api.networking.v1.IPAddressList": "metadata:omit items",
  "k8s.io.api.networking.v1.IPAddressSpec": "parentRef:ptr,omit",
  "k8s.io.api.networking.v1.ParentReference": "group:omit resource:omit namespace:omit name:omit",
  "k8s.io.api.networking.v1.ServiceCIDR": "metadata:omit spec:omit status:omit",
  "k8s.io.api.networking.v1.ServiceCIDRList": "metadata:omit items",
  "k8s.io.api.networking.v1.ServiceCIDRSpec": "cidrs:omit",
  "k8s.io.api.networking.v1.ServiceCIDRStatus": "conditions:omit",
};

/** One field of a Go struct, joined with its protobuf descriptor. */
export interface FieldShape {
  readonly field: DescField;
  /** Property name on the protobuf-es message. */
  readonly localName: string;
  /** JSON key; undefined for an inlined embedded struct. */
  readonly jsonKey: string | undefined;
  /** Go pointer (`*T`): written to protobuf only when set, JSON `null` when unset. */
  readonly pointer: boolean;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
  readonly inline: boolean;
  /** Written to protobuf only when non-empty (FieldsV1.Raw's custom marshaller). */
  readonly nonEmpty: boolean;
  /** The Go type of the value, past a pointer, as reflect prints it: `string`, `[]v1.IngressRule`, `map[string]string`. */
  readonly goType: string;
  /** For a list the Go type of an element, for a map of a value; otherwise goType. */
  readonly goElement: string;
}

export interface MessageShape {
  readonly desc: DescMessage;
  /** Fields in Go struct declaration order (JSON key order). */
  readonly goOrder: readonly FieldShape[];
  /** Fields in ascending field number (protobuf write order). */
  readonly wireOrder: readonly FieldShape[];
  /** Field number -> shape, for decoding. */
  readonly byNumber: ReadonlyMap<number, FieldShape>;
  /** JSON key -> shape, for JSON decoding (inline fields are resolved by the caller). */
  readonly byJsonKey: ReadonlyMap<string, FieldShape>;
}

const FLAGS = new Set(["ptr", "omit", "zero", "inline", "nonempty"]);
const GO_FLAG = "go=";

/**
 * The Go type of a message as reflect prints it: its package's name (the last
 * segment of the proto package, as Kubernetes' Go import paths end in it) and
 * its name, e.g. `v1.IngressSpec`, `intstr.IntOrString`.
 */
export function goTypeName(desc: DescMessage): string {
  return `${desc.file.proto.package.slice(desc.file.proto.package.lastIndexOf(".") + 1)}.${desc.name}`;
}

const GO_SCALARS: Partial<Record<ScalarType, string>> = {
  [ScalarType.STRING]: "string",
  [ScalarType.BOOL]: "bool",
  [ScalarType.INT32]: "int32",
  [ScalarType.INT64]: "int64",
  [ScalarType.BYTES]: "[]byte",
};

function goScalar(t: ScalarType, where: string): string {
  const name = GO_SCALARS[t];
  if (name === undefined) throw new Error(`shapes: no Go type for ${ScalarType[t]} (${where})`);
  return name;
}

/** The Go types of a field: its own, and its element's (list) or value's (map); `named` overrides the element's. */
function goTypesOf(field: DescField, named: string | undefined): { goType: string; goElement: string } {
  const where = `${field.parent.typeName}.${field.name}`;
  switch (field.fieldKind) {
    case "scalar": {
      const t = named ?? goScalar(field.scalar, where);
      return { goType: t, goElement: t };
    }
    case "message": {
      const t = named ?? goTypeName(field.message);
      return { goType: t, goElement: t };
    }
    case "list": {
      const e =
        named ??
        (field.listKind === "message" ? goTypeName(field.message) : goScalar(field.scalar as ScalarType, where));
      return { goType: `[]${e}`, goElement: e };
    }
    case "map": {
      const v =
        named ??
        (field.mapKind === "message" ? goTypeName(field.message) : goScalar(field.scalar as ScalarType, where));
      return { goType: `map[${goScalar(field.mapKey, where)}]${v}`, goElement: v };
    }
    default:
      throw new Error(`shapes: no Go type for ${where}`);
  }
}

/**
 * Joins a message's Go shape spec with its descriptor. Pure: the run time
 * passes the descriptors of gen/, the buf plugin (plugin/) those of its
 * CodeGeneratorRequest, so both read the one table above.
 */
export function buildShape(desc: DescMessage, spec: string): MessageShape {
  const goOrder: FieldShape[] = [];
  const seen = new Set<string>();
  for (const token of spec.split(/\s+/).filter((t) => t !== "")) {
    const [head = "", flagText = ""] = token.split(":");
    const [protoName = "", jsonName] = head.split("=");
    const flags = new Set(flagText === "" ? [] : flagText.split(","));
    let named: string | undefined;
    for (const f of flags) {
      if (f.startsWith(GO_FLAG) && f.length > GO_FLAG.length && named === undefined) named = f.slice(GO_FLAG.length);
      else if (!FLAGS.has(f)) throw new Error(`shapes: unknown flag ${f} in ${desc.typeName}`);
    }
    const field = desc.fields.find((f) => f.name === protoName);
    if (field === undefined) throw new Error(`shapes: ${desc.typeName} has no field ${protoName}`);
    seen.add(protoName);
    const inline = flags.has("inline");
    goOrder.push({
      field,
      localName: field.localName,
      jsonKey: inline ? undefined : (jsonName ?? protoName),
      pointer: flags.has("ptr"),
      omitEmpty: flags.has("omit"),
      omitZero: flags.has("zero"),
      inline,
      nonEmpty: flags.has("nonempty"),
      ...goTypesOf(field, named),
    });
  }
  const missing = desc.fields.filter((f) => !seen.has(f.name));
  if (missing.length > 0) {
    throw new Error(`shapes: ${desc.typeName} does not describe ${missing.map((f) => f.name).join(", ")}`);
  }
  const wireOrder = [...goOrder].sort((a, b) => a.field.number - b.field.number);
  return {
    desc,
    goOrder,
    wireOrder,
    byNumber: new Map(goOrder.map((s) => [s.field.number, s])),
    byJsonKey: new Map(goOrder.filter((s) => s.jsonKey !== undefined).map((s) => [s.jsonKey as string, s])),
  };
}

export const TIME_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.Time";
export const INT_OR_STRING_TYPE = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
export const FIELDS_V1_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1";

/** Unix seconds of Go's zero time.Time (year 1); Go treats it as "no time". */
export const GO_ZERO_TIME_SECONDS = -62135596800n;
