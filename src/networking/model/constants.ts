// Names and values that more than one layer uses, each stated once.

/**
 * The legacy annotation naming an Ingress's class (before `spec.ingressClassName`).
 *
 * @example
 * ```ts
 * import { INGRESS_CLASS_ANNOTATION, IngressSchema, create } from "clusterwire/networking";
 *
 * const legacy = create(IngressSchema, { metadata: { name: "shop", annotations: { [INGRESS_CLASS_ANNOTATION]: "nginx" } } });
 * ```
 */
export const INGRESS_CLASS_ANNOTATION = "kubernetes.io/ingress.class";

/**
 * The annotation marking an IngressClass as the cluster default.
 *
 * @example
 * ```ts
 * import { DEFAULT_CLASS_ANNOTATION, IngressClassSchema, create } from "clusterwire/networking";
 *
 * const nginx = create(IngressClassSchema, {
 *   metadata: { name: "nginx", annotations: { [DEFAULT_CLASS_ANNOTATION]: "true" } },
 *   spec: { controller: "k8s.io/ingress-nginx" },
 * });
 * ```
 */
export const DEFAULT_CLASS_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";

/**
 * The label the API server puts on every namespace, holding its name.
 *
 * @example
 * ```ts
 * import { NAMESPACE_NAME_LABEL } from "clusterwire/networking";
 *
 * // A namespaceSelector that picks the namespace "web" by name.
 * const selector = { matchLabels: { [NAMESPACE_NAME_LABEL]: "web" } };
 * ```
 */
export const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/**
 * The namespace an object without one is created in (kubectl's and the API server's rule).
 *
 * @example
 * ```ts
 * import { DEFAULT_NAMESPACE } from "clusterwire/networking";
 *
 * const namespaceOf = (meta: { namespace?: string }): string => meta.namespace || DEFAULT_NAMESPACE;
 * ```
 */
export const DEFAULT_NAMESPACE = "default";

/** protobuf-es type names of the kinds the evaluators accept. */
export const INGRESS_TYPE = "k8s.io.api.networking.v1.Ingress";
export const INGRESS_CLASS_TYPE = "k8s.io.api.networking.v1.IngressClass";
export const NETWORK_POLICY_TYPE = "k8s.io.api.networking.v1.NetworkPolicy";

/**
 * Media type of the enveloped protobuf encoding.
 *
 * @example
 * ```ts
 * import { PROTOBUF_MEDIA_TYPE, decode } from "clusterwire/networking";
 *
 * const response = await fetch("https://127.0.0.1:6443/apis/networking.k8s.io/v1/ingresses", {
 *   headers: { accept: PROTOBUF_MEDIA_TYPE },
 * });
 * const list = decode(new Uint8Array(await response.arrayBuffer()));
 * ```
 */
export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

/**
 * Media type of a protobuf watch response body.
 *
 * @example
 * ```ts
 * import { PROTOBUF_WATCH_MEDIA_TYPE } from "clusterwire/networking";
 *
 * const headers = { accept: PROTOBUF_WATCH_MEDIA_TYPE }; // for a ?watch=1 request, read with decodeWatchStream
 * ```
 */
export const PROTOBUF_WATCH_MEDIA_TYPE = "application/vnd.kubernetes.protobuf;stream=watch";

/**
 * Media type of a JSON watch response body.
 *
 * @example
 * ```ts
 * import { JSON_WATCH_MEDIA_TYPE } from "clusterwire/networking";
 *
 * const headers = { accept: JSON_WATCH_MEDIA_TYPE }; // for a ?watch=1 request, read with decodeJsonWatchStream
 * ```
 */
export const JSON_WATCH_MEDIA_TYPE = "application/json;stream=watch";
