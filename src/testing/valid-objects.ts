// Valid-by-construction objects of the five validated kinds, as Kubernetes
// JSON values (`arb*Json`) and as decoded messages (`arbValidObject`): every
// one validates with no errors under the default feature gates, on create and
// as an update of itself.

import fc from "fast-check";
import {
  DEFAULT_KUBERNETES_VERSION,
  INGRESS_CLASS_ANNOTATION,
  NETWORKING_API_VERSION,
  fromJson,
  type KubernetesVersion,
  type JsonObject,
  type JsonValue,
  type NetworkingObject,
} from "../networking/index.js";
import { arbCanonicalCidr, arbCanonicalIP, arbIPBlock, type IPBlockOptions } from "./building-blocks/ip.js";
import { arbAnnotations, arbLabels, arbLabelSelector } from "./building-blocks/labels.js";
import {
  arbControllerName,
  arbDns1035Label,
  arbDns1123Label,
  arbDns1123Subdomain,
  arbDnsHost,
  arbIngressHost,
  arbWildcardHost,
} from "./building-blocks/names.js";
import { arbAbsolutePath, arbImplementationSpecificPath, arbPathSegmentName } from "./building-blocks/paths.js";
import { arbPortName, arbPortNumber, arbPortRange } from "./building-blocks/ports.js";

/**
 * The five validated kinds.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { VALIDATED_KINDS, arbValidJson } from "clusterwire/testing";
 *
 * for (const kind of VALIDATED_KINDS) console.log(fc.sample(arbValidJson(kind), 1));
 * ```
 */
export const VALIDATED_KINDS = ["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"] as const;
/**
 * A kind clusterwire validates: one of {@link VALIDATED_KINDS}.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { type ValidatedKind, arbValidJson } from "clusterwire/testing";
 *
 * const kind: ValidatedKind = "NetworkPolicy";
 * console.log(fc.sample(arbValidJson(kind), 1));
 * ```
 */
export type ValidatedKind = (typeof VALIDATED_KINDS)[number];

// ------------------------------------------------------------ ObjectMeta

/**
 * Options of {@link arbObjectMeta}.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbObjectMeta } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbObjectMeta({ namespaced: false }), 3));
 * ```
 */
export interface MetaOptions {
  /** Namespaced kinds may carry metadata.namespace (a DNS-1123 label) or leave it to the request. */
  readonly namespaced: boolean;
  /** metadata.name; default a DNS-1123 subdomain. */
  readonly name?: fc.Arbitrary<string>;
}

/**
 * Valid object metadata (names, labels, annotations) as Kubernetes JSON.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbObjectMeta } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbObjectMeta({ namespaced: true, name: fc.constant("shop") }), 3));
 * ```
 */
export function arbObjectMeta(options: MetaOptions): fc.Arbitrary<JsonObject> {
  const model: Record<string, fc.Arbitrary<unknown>> = {
    name: options.name ?? arbDns1123Subdomain(),
    labels: arbLabels(),
    annotations: arbAnnotations(),
  };
  if (options.namespaced) model["namespace"] = arbDns1123Label();
  return fc.record(model, { requiredKeys: ["name"] }).map((m) => m as JsonObject);
}

function object(
  kind: ValidatedKind,
  metadata: JsonObject,
  spec: JsonObject | undefined,
  extra: JsonObject = {},
): JsonObject {
  const out: JsonObject = { apiVersion: NETWORKING_API_VERSION, kind, metadata };
  if (spec !== undefined) out["spec"] = spec;
  return { ...out, ...extra };
}

/** Drops undefined values so the object is a JSON value. */
function compact(o: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

// ------------------------------------------------------------ Ingress

export function arbServiceBackend(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(
      arbDns1035Label(),
      fc.oneof(
        arbPortNumber().map((number) => ({ number })),
        arbPortName().map((name) => ({ name })),
      ),
    )
    .map(([name, port]) => ({ service: { name, port } }));
}

export function arbResourceBackend(): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      { apiGroup: arbDns1123Subdomain(), kind: arbPathSegmentName(), name: arbPathSegmentName() },
      { requiredKeys: ["kind", "name"] },
    )
    .map((resource) => ({ resource: resource as JsonObject }));
}

/**
 * A valid IngressBackend: a Service (port by number or name) or a typed resource.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbIngressBackend } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbIngressBackend(), 3));
 * ```
 */
export function arbIngressBackend(): fc.Arbitrary<JsonObject> {
  return fc.oneof({ weight: 3, arbitrary: arbServiceBackend() }, { weight: 1, arbitrary: arbResourceBackend() });
}

/**
 * A valid HTTPIngressPath for each pathType.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbHttpIngressPath } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbHttpIngressPath(), 3));
 * ```
 */
export function arbHttpIngressPath(): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    fc
      .tuple(fc.constantFrom("Prefix", "Exact"), arbAbsolutePath(), arbIngressBackend())
      .map(([pathType, path, backend]) => ({ path, pathType, backend })),
    fc
      .tuple(fc.option(arbImplementationSpecificPath(), { nil: undefined }), arbIngressBackend())
      .map(([path, backend]) => compact({ path, pathType: "ImplementationSpecific", backend })),
  );
}

/**
 * A valid IngressRule; `{}` and host-only rules included.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbIngressRule } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbIngressRule(), 3));
 * ```
 */
export function arbIngressRule(): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      { host: arbIngressHost(), paths: fc.array(arbHttpIngressPath(), { minLength: 1, maxLength: 3 }) },
      { requiredKeys: [] },
    )
    .map((r) => compact({ host: r.host, http: r.paths === undefined ? undefined : { paths: r.paths } }));
}

/**
 * A valid IngressTLS; hosts may be IPv4 literals (no IP check in TLS).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbIngressTLS } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbIngressTLS(), 3));
 * ```
 */
export function arbIngressTLS(): fc.Arbitrary<JsonObject> {
  const host = fc.oneof(
    { weight: 4, arbitrary: arbDns1123Subdomain() },
    { weight: 2, arbitrary: arbWildcardHost() },
    { weight: 1, arbitrary: arbCanonicalIP(4) },
  );
  return fc
    .record({ hosts: fc.array(host, { maxLength: 3 }), secretName: arbDns1123Subdomain() }, { requiredKeys: [] })
    .map((t) => t as unknown as JsonObject);
}

/**
 * Options of the valid-object generators.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbValidJson, type ValidObjectOptions } from "clusterwire/testing";
 *
 * const options: ValidObjectOptions = { version: "1.37" };
 * fc.assert(fc.property(arbValidJson("NetworkPolicy", options), (json) => validate(fromJson(json), options).length === 0));
 * ```
 */
export interface ValidObjectOptions {
  /**
   * The Kubernetes release the objects must be valid for. Default 1.35, whose
   * legacy IP and CIDR fields also take non-canonical spellings; 1.37 refuses
   * them (StrictIPCIDRValidation is on by default from 1.36), so its objects
   * use canonical ones only.
   */
  readonly version?: KubernetesVersion;
}

/** Whether `options` ask for objects that pass with StrictIPCIDRValidation on. */
function strictIPs(options: ValidObjectOptions): boolean {
  return (options.version ?? DEFAULT_KUBERNETES_VERSION) !== "1.35";
}

/** A valid Ingress status (only read by the status subresource). */
export function arbIngressStatus(options: ValidObjectOptions = {}): fc.Arbitrary<JsonObject> {
  const entry = fc
    .record(
      {
        // A legacy IP field: leading zeros, IPv4-mapped and non-canonical IPv6 are accepted by default.
        ip: strictIPs(options)
          ? arbCanonicalIP()
          : fc.oneof(
              { weight: 4, arbitrary: arbCanonicalIP() },
              { weight: 1, arbitrary: arbCanonicalIP(4).map((ip) => `0${ip}`) },
              { weight: 1, arbitrary: arbCanonicalIP(4).map((ip) => `::ffff:${ip}`) },
              { weight: 1, arbitrary: arbCanonicalIP(6).map((ip) => ip.toUpperCase()) },
            ),
        hostname: arbDnsHost(),
        // Ports, protocols and errors are not validated by the API server.
        ports: fc.array(
          fc.record(
            {
              port: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
              protocol: fc.string({ maxLength: 6 }),
              error: fc.string({ maxLength: 400 }),
            },
            { requiredKeys: ["port", "protocol"] },
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    )
    .map((e) => e as unknown as JsonObject);
  return fc.array(entry, { maxLength: 3 }).map((ingress) => ({ loadBalancer: { ingress } }));
}

/**
 * A valid Ingress as Kubernetes JSON: rules with DNS or wildcard hosts and
 * http paths of all three types, Service and resource backends, an optional
 * defaultBackend (always present when there are no rules), TLS entries,
 * ingressClassName, and sometimes the class annotation (equal to
 * ingressClassName when that is set).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbIngressJson } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbIngressJson(), (json) => validate(fromJson(json)).length === 0));
 * ```
 */
export function arbIngressJson(options: ValidObjectOptions = {}): fc.Arbitrary<JsonObject> {
  return fc
    .record({
      metadata: arbObjectMeta({ namespaced: true }),
      defaultBackend: arbIngressBackend(),
      useDefault: fc.boolean(),
      rules: fc.array(arbIngressRule(), { maxLength: 3 }),
      tls: fc.option(fc.array(arbIngressTLS(), { maxLength: 2 }), { nil: undefined }),
      className: fc.option(arbDns1123Subdomain(), { nil: undefined, freq: 2 }),
      annotation: fc.option(fc.string({ maxLength: 10 }), { nil: undefined, freq: 2 }),
      status: fc.option(arbIngressStatus(options), { nil: undefined, freq: 4 }),
    })
    .map((r) => {
      const metadata: JsonObject = { ...r.metadata };
      if (r.annotation !== undefined) {
        // With ingressClassName set, the annotation (create-only check) must equal it.
        const value = r.className ?? r.annotation;
        metadata["annotations"] = {
          ...((metadata["annotations"] as JsonObject | undefined) ?? {}),
          [INGRESS_CLASS_ANNOTATION]: value,
        };
      }
      const spec = compact({
        defaultBackend: r.useDefault || r.rules.length === 0 ? r.defaultBackend : undefined,
        rules: r.rules.length > 0 ? r.rules : undefined,
        tls: r.tls,
        ingressClassName: r.className,
      });
      return object("Ingress", metadata, spec, r.status === undefined ? {} : { status: r.status });
    });
}

// ------------------------------------------------------------ IngressClass

/** Valid parameters: scope absent (defaulted to Cluster), Cluster, or Namespace with a namespace. */
export function arbIngressClassParameters(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(
      fc.option(arbDns1123Subdomain(), { nil: undefined }),
      arbPathSegmentName(),
      arbPathSegmentName(),
      fc.constantFrom("default", "Cluster", "Namespace"),
      arbDns1123Label(),
    )
    .map(([apiGroup, kind, name, scope, namespace]) =>
      compact({
        apiGroup,
        kind,
        name,
        scope: scope === "default" ? undefined : scope,
        namespace: scope === "Namespace" ? namespace : undefined,
      }),
    );
}

/**
 * Valid IngressClass objects, as Kubernetes JSON.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbIngressClassJson } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbIngressClassJson(), (json) => validate(fromJson(json)).length === 0));
 * ```
 */
export function arbIngressClassJson(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(
      arbObjectMeta({ namespaced: false }),
      arbControllerName(),
      fc.option(arbIngressClassParameters(), { nil: undefined }),
    )
    .map(([metadata, controller, parameters]) => object("IngressClass", metadata, compact({ controller, parameters })));
}

// ------------------------------------------------------------ NetworkPolicy

/**
 * A valid NetworkPolicyPort: protocol TCP/UDP/SCTP or absent; numeric port (maybe with endPort) or named port or none.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNetworkPolicyPort } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbNetworkPolicyPort(), 3));
 * ```
 */
export function arbNetworkPolicyPort(): fc.Arbitrary<JsonObject> {
  const protocol = fc.option(fc.constantFrom("TCP", "UDP", "SCTP"), { nil: undefined });
  const port = fc.oneof(
    arbPortNumber().map((p): [JsonValue | undefined, number | undefined] => [p, undefined]),
    arbPortRange().map(([p, e]): [JsonValue | undefined, number | undefined] => [p, e]),
    arbPortName().map((n): [JsonValue | undefined, number | undefined] => [n, undefined]),
    fc.constant<[JsonValue | undefined, number | undefined]>([undefined, undefined]),
  );
  return fc.tuple(protocol, port).map(([protocol, [p, endPort]]) => compact({ protocol, port: p, endPort }));
}

/**
 * A valid peer: podSelector, namespaceSelector, both, or an ipBlock alone.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbNetworkPolicyPeer } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbNetworkPolicyPeer(), 3));
 * ```
 */
export function arbNetworkPolicyPeer(options: IPBlockOptions = {}): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    arbLabelSelector().map((podSelector) => ({ podSelector })),
    arbLabelSelector().map((namespaceSelector) => ({ namespaceSelector })),
    fc
      .tuple(arbLabelSelector(), arbLabelSelector())
      .map(([podSelector, namespaceSelector]) => ({ podSelector, namespaceSelector })),
    arbIPBlock(options).map((ipBlock) => ({ ipBlock })),
  );
}

function arbPolicyRule(peerKey: "from" | "to", options: IPBlockOptions): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      {
        ports: fc.array(arbNetworkPolicyPort(), { maxLength: 3 }),
        peers: fc.array(arbNetworkPolicyPeer(options), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    )
    .map((r) => compact({ ports: r.ports, [peerKey]: r.peers }));
}

/**
 * Valid NetworkPolicy objects, as Kubernetes JSON.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbNetworkPolicyJson } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbNetworkPolicyJson({ legacy: false }), (json) => validate(fromJson(json)).length === 0));
 * ```
 */
export function arbNetworkPolicyJson(options: IPBlockOptions = {}): fc.Arbitrary<JsonObject> {
  const spec = fc.record(
    {
      podSelector: arbLabelSelector(),
      policyTypes: fc.array(fc.constantFrom("Ingress", "Egress"), { maxLength: 2 }),
      ingress: fc.array(arbPolicyRule("from", options), { maxLength: 3 }),
      egress: fc.array(arbPolicyRule("to", options), { maxLength: 3 }),
    },
    { requiredKeys: ["podSelector"] },
  );
  return fc
    .tuple(arbObjectMeta({ namespaced: true }), spec)
    .map(([metadata, s]) => object("NetworkPolicy", metadata, s as unknown as JsonObject));
}

// ------------------------------------------------------------ IPAddress

export function arbParentReference(): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      {
        group: fc.oneof(fc.constant(""), arbDns1123Subdomain()),
        resource: arbPathSegmentName(),
        // A DNS-1123 label satisfies both upstream variants (path segment / namespace name).
        namespace: arbDns1123Label(),
        name: arbPathSegmentName(),
      },
      { requiredKeys: ["resource", "name"] },
    )
    .map((r) => r as unknown as JsonObject);
}

/**
 * A valid IPAddress: metadata.name a canonical IP (strict IsValidIP), spec.parentRef with resource and name.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbIPAddressJson } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbIPAddressJson(), (json) => validate(fromJson(json)).length === 0));
 * ```
 */
export function arbIPAddressJson(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(arbObjectMeta({ namespaced: false, name: arbCanonicalIP() }), arbParentReference())
    .map(([metadata, parentRef]) => object("IPAddress", metadata, { parentRef }));
}

// ------------------------------------------------------------ ServiceCIDR

/** spec.cidrs: one canonical CIDR, or one of each family in either order. */
export function arbServiceCidrs(): fc.Arbitrary<string[]> {
  return fc
    .tuple(arbCanonicalCidr(4), arbCanonicalCidr(6), fc.constantFrom("4", "6", "46", "64"))
    .map(([v4, v6, shape]) => {
      switch (shape) {
        case "4":
          return [v4];
        case "6":
          return [v6];
        case "46":
          return [v4, v6];
        default:
          return [v6, v4];
      }
    });
}

/**
 * Valid ServiceCIDR objects, as Kubernetes JSON.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbServiceCIDRJson } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbServiceCIDRJson(), (json) => validate(fromJson(json)).length === 0));
 * ```
 */
export function arbServiceCIDRJson(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(arbObjectMeta({ namespaced: false }), arbServiceCidrs())
    .map(([metadata, cidrs]) => object("ServiceCIDR", metadata, { cidrs }));
}

// ------------------------------------------------------------ valid objects by kind

const VALID_JSON: Record<ValidatedKind, (options: ValidObjectOptions) => fc.Arbitrary<JsonObject>> = {
  Ingress: arbIngressJson,
  IngressClass: arbIngressClassJson,
  NetworkPolicy: (options) => arbNetworkPolicyJson(strictIPs(options) ? { legacy: false } : {}),
  IPAddress: arbIPAddressJson,
  ServiceCIDR: arbServiceCIDRJson,
};

/**
 * A valid object of `kind` as Kubernetes JSON (valid for `options.version`, default 1.35).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbValidJson } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbValidJson("IPAddress"), (json) => validate(fromJson(json)).length === 0));
 * ```
 */
export function arbValidJson(kind: ValidatedKind, options: ValidObjectOptions = {}): fc.Arbitrary<JsonObject> {
  return VALID_JSON[kind](options);
}

/**
 * A valid object of `kind`, decoded.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbValidObject } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbValidObject("Ingress"), (ingress) => validate(ingress).length === 0));
 * ```
 */
export function arbValidObject(kind: ValidatedKind, options: ValidObjectOptions = {}): fc.Arbitrary<NetworkingObject> {
  return arbValidJson(kind, options).map((j) => fromJson(j));
}

/**
 * A valid object of any of the five kinds, as JSON.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { fromJson, validate } from "clusterwire/networking";
 * import { arbAnyValidJson } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbAnyValidJson(), (json) => validate(fromJson(json)).length === 0));
 * ```
 */
export function arbAnyValidJson(options: ValidObjectOptions = {}): fc.Arbitrary<JsonObject> {
  return fc.oneof(...VALIDATED_KINDS.map((k) => arbValidJson(k, options)));
}
