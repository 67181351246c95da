// validate(): the API server's pipeline in front of its strategy validation
// (defaulting, namespace handling, name generation, create/update/status
// preparation), then the per-kind rules.

import type {
  IPAddress,
  Ingress,
  IngressClass,
  NetworkPolicy,
  ServiceCIDR,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { ObjectMeta } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { declarativeMerge, type FieldError } from "./field-error.js";
import { validateIngressClass, validateIngressClassUpdate } from "./ingress-class.js";
import { validateIngressCreate, validateIngressStatusUpdate, validateIngressUpdate } from "./ingress.js";
import { kindNameOf, type KindName } from "../model/kind-names.js";
import type { NetworkingObject } from "../model/kinds.js";
import { sameValue } from "../model/same-value.js";
import { renderPath } from "../model/path.js";
import { validateNetworkPolicy, networkPolicyOptions, validateNetworkPolicyUpdate } from "./network-policy.js";
import {
  emptyObjectMeta,
  generateName,
  prepareMetaForCreate,
  prepareMetaForUpdate,
  resetMetaForStatus,
  validateCommonFieldsForUpdate,
} from "./rules/object-meta.js";
import {
  validateIPAddress,
  validateIPAddressUpdate,
  validateServiceCIDR,
  validateServiceCIDRStatusUpdate,
  validateServiceCIDRUpdate,
} from "./service-ip.js";
import { DEFAULT_NAMESPACE } from "../model/constants.js";
import {
  DEFAULT_KUBERNETES_VERSION,
  isKubernetesVersion,
  KUBERNETES_VERSIONS,
  type KubernetesVersion,
} from "../model/kubernetes-version.js";

/**
 * The feature gates that change networking validation.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, validate } from "clusterwire/networking";
 *
 * const errors = validate(create(IngressSchema, { metadata: { name: "shop" } }), {
 *   featureGates: { RelaxedServiceNameValidation: true },
 * });
 * ```
 */
export interface FeatureGates {
  /** KEP-4858: reject leading zeros, IPv4-mapped IPv6 and host bits in legacy IP/CIDR fields. Alpha, off. */
  readonly StrictIPCIDRValidation?: boolean;
  /** Allow DNS-1123 (not only DNS-1035) Service names in Ingress backends. Alpha, off. */
  readonly RelaxedServiceNameValidation?: boolean;
}

/**
 * The gates as a default kube-apiserver 1.35 has them (1.37 turns both on: see
 * {@link defaultFeatureGates}).
 *
 * @example
 * ```ts
 * import { DEFAULT_FEATURE_GATES, IngressSchema, create, validate } from "clusterwire/networking";
 *
 * const errors = validate(create(IngressSchema, { metadata: { name: "shop" } }), {
 *   featureGates: { ...DEFAULT_FEATURE_GATES, StrictIPCIDRValidation: true },
 * });
 * ```
 */
export const DEFAULT_FEATURE_GATES: Readonly<Required<FeatureGates>> = Object.freeze({
  StrictIPCIDRValidation: false,
  RelaxedServiceNameValidation: false,
});

/**
 * Options of {@link validate}: what kind of request is validated.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, validate } from "clusterwire/networking";
 *
 * const old = create(IngressClassSchema, { metadata: { name: "nginx", resourceVersion: "1" }, spec: { controller: "a.io/x" } });
 * const next = create(IngressClassSchema, { metadata: { name: "nginx", resourceVersion: "1" }, spec: { controller: "b.io/y" } });
 * console.log(validate(next, { old })); // spec.controller: field is immutable
 * ```
 */
export interface ValidateOptions {
  /** The stored object: switches to update validation, with immutability and the ratchets. */
  readonly old?: NetworkingObject;
  /** `"status"` validates an update of the status subresource (needs `old`). */
  readonly subresource?: "status";
  /** Feature gates that change validation; each left out is as in {@link DEFAULT_FEATURE_GATES}. */
  readonly featureGates?: FeatureGates;
  /**
   * The request's namespace, which fills an empty `metadata.namespace` of
   * Ingress and NetworkPolicy as the API server does. Default `"default"`.
   */
  readonly namespace?: string;
  /**
   * The Kubernetes release to validate as: its messages, and the feature gates
   * it turns on by default. Default {@link DEFAULT_KUBERNETES_VERSION}.
   */
  readonly version?: KubernetesVersion;
}

const GATES_1_37: Readonly<Required<FeatureGates>> = Object.freeze({
  // Beta and on by default from 1.36.
  StrictIPCIDRValidation: true,
  // GA (and locked on) in 1.37.
  RelaxedServiceNameValidation: true,
});

/**
 * The feature gates a default kube-apiserver of `version` has.
 *
 * @example
 * ```ts
 * import { defaultFeatureGates } from "clusterwire/networking";
 *
 * console.log(defaultFeatureGates("1.37").StrictIPCIDRValidation); // true
 * ```
 */
export function defaultFeatureGates(
  version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION,
): Readonly<Required<FeatureGates>> {
  return version === "1.35" ? DEFAULT_FEATURE_GATES : GATES_1_37;
}

// The four gate combinations, built once: validate() runs in hot loops.
const INGRESS_GATES = [0, 1, 2, 3].map((bits) =>
  Object.freeze({ strictIPCIDRValidation: (bits & 1) !== 0, relaxedServiceNameValidation: (bits & 2) !== 0 }),
);

/**
 * Validates an object the way the API server does before admitting it, and
 * returns the field errors it would report (empty when the object is valid).
 * The input is never modified. List kinds are validated item by item, with
 * paths under `items[i]`; kinds without rules (v1 Status) give no errors.
 *
 * Throws a TypeError only for inconsistent options (an `old` of another kind,
 * or a subresource the kind does not have); never for the object itself.
 *
 * @example
 * ```ts
 * import { fromYaml, formatFieldError, validate } from "clusterwire/networking";
 *
 * const [ingress] = fromYaml(`apiVersion: networking.k8s.io/v1
 * kind: Ingress
 * metadata: {name: shop, namespace: web}
 * spec:
 *   rules:
 *   - host: "*"
 * `);
 * for (const error of validate(ingress!)) console.log(formatFieldError(error));
 * ```
 */
export function validate(obj: NetworkingObject, options?: ValidateOptions): FieldError[] {
  const info = kindNameOf(obj);
  // A create with the defaults, the common call, skips the option handling.
  if (options === undefined) {
    if (info.list) return validateList(obj as NetworkingObject & { items: NetworkingObject[] }, info, NO_OPTIONS);
    if (info.kind === "Status") return [];
    return create(obj, info, false, INGRESS_GATES[0]!, DEFAULT_NAMESPACE, DEFAULT_KUBERNETES_VERSION);
  }
  if (info.list) return validateList(obj as NetworkingObject & { items: NetworkingObject[] }, info, options);
  if (info.kind === "Status") return [];
  const old = options.old;
  if (old !== undefined && kindNameOf(old) !== info) {
    throw new TypeError(`validate: options.old is a ${kindNameOf(old).kind}, not a ${info.kind}`);
  }
  if (options.subresource !== undefined && options.subresource !== "status") {
    throw new TypeError(`validate: unknown subresource ${JSON.stringify(options.subresource)}`);
  }
  const status = options.subresource === "status";
  if (status && info.kind !== "Ingress" && info.kind !== "ServiceCIDR") {
    throw new TypeError(`validate: ${info.kind} has no status subresource`);
  }
  if (status && old === undefined) throw new TypeError("validate: a status update needs options.old");
  const gates = options.featureGates;
  const version = options.version ?? DEFAULT_KUBERNETES_VERSION;
  if (!isKubernetesVersion(version)) {
    throw new TypeError(
      `validate: unknown Kubernetes version ${JSON.stringify(version)}; known: ${KUBERNETES_VERSIONS.join(", ")}`,
    );
  }
  const defaults = defaultFeatureGates(version);
  const strict = gates?.StrictIPCIDRValidation ?? defaults.StrictIPCIDRValidation;
  const relaxed = gates?.RelaxedServiceNameValidation ?? defaults.RelaxedServiceNameValidation;
  const ingressGates = INGRESS_GATES[(strict ? 1 : 0) + (relaxed ? 2 : 0)]!;
  const requestNamespace = options.namespace ?? DEFAULT_NAMESPACE;
  if (old === undefined) {
    const errors = create(obj, info, strict, ingressGates, requestNamespace, version);
    return version === "1.35" ? errors : declarativeMerge(errors, true);
  }
  const out: FieldError[] = [];
  const o = prepare(obj, old, info, requestNamespace, status);
  // rest.BeforeUpdate checks the common metadata before the kind's rules.
  validateCommonFieldsForUpdate(
    (o as { metadata?: ObjectMeta }).metadata,
    (old as { metadata?: ObjectMeta }).metadata,
    info.namespaced,
    out,
  );
  switch (info.kind) {
    case "Ingress":
      if (status) validateIngressStatusUpdate(o as Ingress, old as Ingress, ingressGates, out);
      else validateIngressUpdate(o as Ingress, old as Ingress, ingressGates, out);
      break;
    case "IngressClass":
      validateIngressClassUpdate(o as IngressClass, old as IngressClass, out);
      break;
    case "NetworkPolicy":
      validateNetworkPolicyUpdate(o as NetworkPolicy, old as NetworkPolicy, strict, version, out);
      break;
    case "IPAddress":
      validateIPAddressUpdate(o as IPAddress, old as IPAddress, out);
      break;
    case "ServiceCIDR":
      if (status) validateServiceCIDRStatusUpdate(o as ServiceCIDR, old as ServiceCIDR, out);
      else validateServiceCIDRUpdate(o as ServiceCIDR, old as ServiceCIDR, out);
      break;
  }
  // Declarative validation does not look again at a spec the update leaves as it was.
  return version === "1.35" ? out : declarativeMerge(out, !sameSpec(o, old));
}

function sameSpec(a: NetworkingObject, b: NetworkingObject): boolean {
  return sameValue((a as { spec?: unknown }).spec, (b as { spec?: unknown }).spec);
}

const NO_OPTIONS: ValidateOptions = Object.freeze({});

// Create: most objects need no copy, only the namespace the registry would give them.
function create(
  obj: NetworkingObject,
  info: KindName,
  strict: boolean,
  ingressGates: (typeof INGRESS_GATES)[number],
  requestNamespace: string,
  version: KubernetesVersion,
): FieldError[] {
  const out: FieldError[] = [];
  const src = (obj as { metadata?: ObjectMeta }).metadata;
  if (src !== undefined && !createRewritesMeta(src, info)) {
    const namespace = info.namespaced ? (src.namespace === "" ? requestNamespace : src.namespace) : "";
    validateCreate(obj, info, strict, ingressGates, namespace, version, out);
  } else {
    const prepared = prepare(obj, undefined, info, requestNamespace, false);
    validateCreate(prepared, info, strict, ingressGates, undefined, version, out);
  }
  return out;
}

/**
 * The kind's create rules. `namespace` is metadata.namespace as the registry's
 * preparation leaves it, when that was not written into a copy.
 */
function validateCreate(
  o: NetworkingObject,
  info: KindName,
  strict: boolean,
  ingressGates: (typeof INGRESS_GATES)[number],
  namespace: string | undefined,
  version: KubernetesVersion,
  out: FieldError[],
): void {
  switch (info.kind) {
    case "Ingress":
      validateIngressCreate(o as Ingress, ingressGates, out, namespace);
      break;
    case "IngressClass":
      validateIngressClass(o as IngressClass, out, namespace);
      break;
    case "NetworkPolicy":
      validateNetworkPolicy(o as NetworkPolicy, networkPolicyOptions(undefined, strict, version), out, namespace);
      break;
    case "IPAddress":
      validateIPAddress(o as IPAddress, out, namespace);
      break;
    case "ServiceCIDR":
      validateServiceCIDR(o as ServiceCIDR, out, namespace);
      break;
  }
}

function validateList(
  list: NetworkingObject & { items: NetworkingObject[] },
  info: KindName,
  options: ValidateOptions,
): FieldError[] {
  if (options.old !== undefined)
    throw new TypeError(`validate: update validation takes single objects, not a ${info.kind}`);
  const out: FieldError[] = [];
  for (let i = 0; i < list.items.length; i++) {
    for (const e of validate(list.items[i]!, options)) out.push(prefixed(e, i));
  }
  return out;
}

function prefixed(e: FieldError, i: number): FieldError {
  const path = ["items", i, ...e.path];
  const copy: FieldError = { ...e, path, field: renderPath(path) };
  // Keep the Go rendering of the value, which lives on a non-enumerable key.
  for (const sym of Object.getOwnPropertySymbols(e)) {
    Object.defineProperty(copy, sym, { value: (e as unknown as Record<symbol, unknown>)[sym], enumerable: false });
  }
  return copy;
}

/**
 * The registry's preparation, on a shallow copy: only metadata is changed, so
 * only metadata is copied. Status wiping (create) and spec/status copying
 * (updates) need no copy, because the rules that run never read those parts.
 * Most creates skip this (see createRewritesMeta).
 */
function prepare(
  obj: NetworkingObject,
  old: NetworkingObject | undefined,
  info: KindName,
  namespace: string,
  status: boolean,
): NetworkingObject {
  const src = (obj as { metadata?: ObjectMeta }).metadata;
  const meta: ObjectMeta = src === undefined ? emptyObjectMeta() : shallowCopy(src);
  if (info.namespaced) {
    if (meta.namespace === "") meta.namespace = namespace;
  } else {
    // A cluster-scoped kind: the API server drops any namespace in the body.
    meta.namespace = "";
  }
  if (old === undefined) {
    prepareMetaForCreate(meta);
    if (meta.name === "" && meta.generateName !== "") meta.name = generateName(meta.generateName);
    if (SETS_GENERATION.has(info.kind)) meta.generation = 1n;
  } else {
    const oldMeta = (old as { metadata?: ObjectMeta }).metadata;
    if (oldMeta !== undefined) {
      // The ServiceCIDR status strategy keeps the stored labels, annotations and so on.
      if (status && RESETS_META_FOR_STATUS.has(info.kind)) resetMetaForStatus(meta, oldMeta);
      prepareMetaForUpdate(meta, oldMeta);
    }
  }
  const copy = shallowCopy(obj) as NetworkingObject & { metadata?: ObjectMeta };
  copy.metadata = meta;
  return copy;
}

// The status strategies that call metav1.ResetObjectMetaForStatus.
const RESETS_META_FOR_STATUS = new Set(["ServiceCIDR"]);

// The strategies whose PrepareForCreate sets metadata.generation to 1.
const SETS_GENERATION = new Set(["Ingress", "IngressClass", "NetworkPolicy"]);

// Whether create preparation would change anything the create rules read
// besides the namespace, which validate() hands to the rules instead: most
// objects need no copy at all. Preparation also clears the deletion fields,
// but only update rules read those.
function createRewritesMeta(m: ObjectMeta, info: KindName): boolean {
  if (m.name === "" && m.generateName !== "") return true;
  return m.generation < 0n && SETS_GENERATION.has(info.kind);
}

// proto2 defaults live on the message prototype, so a copy must keep it.
function shallowCopy<T extends object>(o: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(o) as object) as T, o);
}
