// Names and values that more than one layer uses, each stated once.

/** The legacy annotation naming an Ingress's class (before `spec.ingressClassName`). */
export const INGRESS_CLASS_ANNOTATION = "kubernetes.io/ingress.class";

/** The annotation marking an IngressClass as the cluster default. */
export const DEFAULT_CLASS_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";

/** The label the API server puts on every namespace, holding its name. */
export const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/** The namespace an object without one is created in (kubectl's and the API server's rule). */
export const DEFAULT_NAMESPACE = "default";

/** protobuf-es type names of the kinds the evaluators accept. */
export const INGRESS_TYPE = "k8s.io.api.networking.v1.Ingress";
export const INGRESS_CLASS_TYPE = "k8s.io.api.networking.v1.IngressClass";
export const NETWORK_POLICY_TYPE = "k8s.io.api.networking.v1.NetworkPolicy";

/** Media type of the enveloped protobuf encoding. */
export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

/** Media type of a protobuf watch response body. */
export const PROTOBUF_WATCH_MEDIA_TYPE = "application/vnd.kubernetes.protobuf;stream=watch";

/** Media type of a JSON watch response body. */
export const JSON_WATCH_MEDIA_TYPE = "application/json;stream=watch";
