import { EncodeError } from "./errors.js";

/*
 * The served kinds by name only, without their descriptors, so that code
 * which only needs to tell kinds apart (validation) does not load the
 * generated schemas and what decoding them needs.
 */

/**
 * The group/version every networking kind is served under.
 *
 * @example
 * ```ts
 * import { NETWORKING_API_VERSION, fromJson } from "clusterwire/networking";
 *
 * const nginx = fromJson({ apiVersion: NETWORKING_API_VERSION, kind: "IngressClass", metadata: { name: "nginx" } });
 * ```
 */
export const NETWORKING_API_VERSION = "networking.k8s.io/v1";

/** A top-level kind by name: enough to validate, not to encode. */
export interface KindName {
  readonly apiVersion: string;
  readonly kind: string;
  /** The protobuf-es `$typeName` of its messages. */
  readonly typeName: string;
  /** True for the `...List` kinds. */
  readonly list: boolean;
  /** Namespaced kinds are Ingress and NetworkPolicy. */
  readonly namespaced: boolean;
}

const NET = "k8s.io.api.networking.v1.";

/** Every kind clusterwire decodes and encodes, in registration order (as KINDS). */
export const KIND_NAMES: readonly KindName[] = [
  n("Ingress", false, true),
  n("IngressList", true, true),
  n("IngressClass", false, false),
  n("IngressClassList", true, false),
  n("NetworkPolicy", false, true),
  n("NetworkPolicyList", true, true),
  n("IPAddress", false, false),
  n("IPAddressList", true, false),
  n("ServiceCIDR", false, false),
  n("ServiceCIDRList", true, false),
  // Error responses and ERROR watch events carry a core-group Status.
  {
    apiVersion: "v1",
    kind: "Status",
    typeName: "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
    list: false,
    namespaced: false,
  },
];

function n(kind: string, list: boolean, namespaced: boolean): KindName {
  return { apiVersion: NETWORKING_API_VERSION, kind, typeName: NET + kind, list, namespaced };
}

let byTypeName: ReadonlyMap<string, KindName> | undefined;

/**
 * The kind of an object by its `$typeName`. Throws {@link EncodeError} for
 * anything that is not a top-level kind, with the message `kindOf` gives.
 */
export function kindNameOf(obj: unknown): KindName {
  byTypeName ??= new Map(KIND_NAMES.map((i) => [i.typeName, i]));
  const typeName = (obj as { $typeName?: unknown } | null | undefined)?.$typeName;
  const info = typeof typeName === "string" ? byTypeName.get(typeName) : undefined;
  if (info === undefined) throw notAKind(obj);
  return info;
}

/** The error for an object that is not of a served kind. */
export function notAKind(obj: unknown): EncodeError {
  const typeName = (obj as { $typeName?: unknown } | null | undefined)?.$typeName;
  return new EncodeError(
    `not a top-level object of a supported kind (got ${typeof typeName === "string" ? typeName : describeType(obj)}); supported: ${supportedKinds()}`,
    "",
  );
}

/** A readable list of the supported kinds, for error messages. */
export function supportedKinds(): string {
  return KIND_NAMES.map((i) => `${i.apiVersion}/${i.kind}`).join(", ");
}

/** The JavaScript type of a value that is not a message, for error messages. */
export function describeType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return (v as object).constructor?.name ?? "an object";
  return typeof v;
}
