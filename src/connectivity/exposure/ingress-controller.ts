// The Ingress controller as one more workload of the analysis input, so that what the
// NetworkPolicies let it open to the workloads Ingresses expose can be judged like any other
// connection. Reports name it `{ingress-controller}`.

import {
  type ClusterNamespace,
  type ClusterWorkload,
  type ConnectivityInput,
  EvaluatorInputError,
} from "../../networking/index.js";

/**
 * The Ingress controller workload's namespace unless {@link withIngressController} is told another.
 *
 * @example
 * ```ts
 * import { INGRESS_CONTROLLER_NAMESPACE } from "clusterwire/connectivity";
 *
 * console.log(INGRESS_CONTROLLER_NAMESPACE); // "ingress-controller"
 * ```
 */
export const INGRESS_CONTROLLER_NAMESPACE = "ingress-controller";

/**
 * The kind of the Ingress controller workload.
 *
 * @example
 * ```ts
 * import { INGRESS_CONTROLLER_KIND } from "clusterwire/connectivity";
 *
 * const isController = (kind: string) => kind === INGRESS_CONTROLLER_KIND;
 * ```
 */
export const INGRESS_CONTROLLER_KIND = "IngressController";

/**
 * The name of the Ingress controller workload.
 *
 * @example
 * ```ts
 * import { INGRESS_CONTROLLER_NAME } from "clusterwire/connectivity";
 *
 * console.log(INGRESS_CONTROLLER_NAME); // "ingress-controller"
 * ```
 */
export const INGRESS_CONTROLLER_NAME = "ingress-controller";

/**
 * The Ingress controller workload's key (`namespace/kind/name`) in its default namespace.
 * With another namespace it is {@link ingressControllerKey}`(namespace)`.
 *
 * @example
 * ```ts
 * import { INGRESS_CONTROLLER_KEY } from "clusterwire/connectivity";
 *
 * console.log(INGRESS_CONTROLLER_KEY); // "ingress-controller/IngressController/ingress-controller"
 * ```
 */
export const INGRESS_CONTROLLER_KEY = `${INGRESS_CONTROLLER_NAMESPACE}/${INGRESS_CONTROLLER_KIND}/${INGRESS_CONTROLLER_NAME}`;

/**
 * The Ingress controller workload's key when it runs in `namespace`.
 *
 * @example
 * ```ts
 * import { ingressControllerKey } from "clusterwire/connectivity";
 *
 * console.log(ingressControllerKey("ingress-nginx")); // "ingress-nginx/IngressController/ingress-controller"
 * ```
 */
export function ingressControllerKey(namespace: string = INGRESS_CONTROLLER_NAMESPACE): string {
  return `${namespace}/${INGRESS_CONTROLLER_KIND}/${INGRESS_CONTROLLER_NAME}`;
}

/**
 * Where the Ingress controller runs and what labels its pods carry, for policies that admit it.
 *
 * @example
 * ```ts
 * import type { IngressControllerOptions } from "clusterwire/connectivity";
 *
 * const nginx: IngressControllerOptions = { namespace: "ingress-nginx", labels: { "app.kubernetes.io/name": "ingress-nginx" } };
 * ```
 */
export interface IngressControllerOptions {
  /** Its namespace; default {@link INGRESS_CONTROLLER_NAMESPACE}. */
  readonly namespace?: string;
  /** Its pods' labels; default none. */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * A new analysis input with the Ingress controller added as one more workload (kind
 * `IngressController`, name `ingress-controller`, at the end of the workloads), and its namespace
 * when the input does not have it (namespaces kept sorted by name). The analysis then says what
 * the controller may open to each workload an Ingress exposes. The input is not changed.
 *
 * Throws an EvaluatorInputError when the namespace is not a non-empty string, a label is not a
 * string, or the input already has a workload with the controller's key.
 *
 * @example
 * ```ts
 * import { ingressControllerKey, withIngressController } from "clusterwire/connectivity";
 *
 * const input = withIngressController(
 *   { namespaces: [{ name: "shop" }], workloads: [{ namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } }], policies: [] },
 *   { namespace: "ingress-nginx", labels: { "app.kubernetes.io/name": "ingress-nginx" } },
 * );
 * console.log(input.namespaces.map((n) => n.name), input.workloads.at(-1)?.kind, ingressControllerKey("ingress-nginx"));
 * // [ "ingress-nginx", "shop" ] "IngressController" "ingress-nginx/IngressController/ingress-controller"
 * ```
 */
export function withIngressController(
  input: ConnectivityInput,
  controller: IngressControllerOptions = {},
): ConnectivityInput {
  if (input === null || typeof input !== "object") throw new EvaluatorInputError("", "the input must be an object");
  if (controller === null || typeof controller !== "object") {
    throw new EvaluatorInputError("controller", "must be an object");
  }
  const namespace = controller.namespace ?? INGRESS_CONTROLLER_NAMESPACE;
  if (typeof namespace !== "string" || namespace === "") {
    throw new EvaluatorInputError("controller.namespace", "must be a non-empty string");
  }
  const labels: Record<string, string> = {};
  const given = controller.labels ?? {};
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    throw new EvaluatorInputError("controller.labels", "must be a map of strings");
  }
  for (const [k, v] of Object.entries(given)) {
    if (typeof v !== "string")
      throw new EvaluatorInputError(`controller.labels[${JSON.stringify(k)}]`, "must be a string");
    // defineProperty: a "__proto__" label stays a label.
    Object.defineProperty(labels, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const key = ingressControllerKey(namespace);
  if (input.workloads.some((w) => `${w.namespace}/${w.kind}/${w.name}` === key)) {
    throw new EvaluatorInputError("workloads", `already has a workload ${key}`);
  }
  const workload: ClusterWorkload = {
    namespace,
    kind: INGRESS_CONTROLLER_KIND,
    name: INGRESS_CONTROLLER_NAME,
    labels,
    ports: [],
  };
  const namespaces: ClusterNamespace[] = input.namespaces.some((n) => n.name === namespace)
    ? [...input.namespaces]
    : [...input.namespaces, { name: namespace }].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { namespaces, workloads: [...input.workloads, workload], policies: input.policies };
}
