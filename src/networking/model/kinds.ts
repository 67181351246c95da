import type { DescMessage, Message } from "@bufbuild/protobuf";
import * as net from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import * as meta from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { KIND_NAMES, notAKind } from "./kind-names.js";

/**
 * A top-level kind: what the envelope's apiVersion/kind and JSON's
 * kind/apiVersion name. Printed with console.log or JSON.stringify it shows
 * only its kind, apiVersion and namespaced (and `list: true` for a List
 * kind), not its schema.
 *
 * @example
 * import { kindOf, fromYaml } from "clusterwire/networking";
 * const [ing] = fromYaml("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n");
 * console.log(kindOf(ing!));
 * // KindInfo { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', namespaced: true }
 */
export interface KindInfo {
  /** The group/version, e.g. `networking.k8s.io/v1` (`v1` for Status). */
  readonly apiVersion: string;
  /** The kind, e.g. `Ingress` or `IngressList`. */
  readonly kind: string;
  /** The generated message schema, for `create()` and protobuf-es reflection. */
  readonly desc: DescMessage;
  /** True for the `...List` kinds. */
  readonly list: boolean;
  /** Namespaced kinds are Ingress and NetworkPolicy. */
  readonly namespaced: boolean;
}

/** The generated schema of each kind in KIND_NAMES. */
const SCHEMAS: Readonly<Record<string, DescMessage>> = {
  Ingress: net.IngressSchema,
  IngressList: net.IngressListSchema,
  IngressClass: net.IngressClassSchema,
  IngressClassList: net.IngressClassListSchema,
  NetworkPolicy: net.NetworkPolicySchema,
  NetworkPolicyList: net.NetworkPolicyListSchema,
  IPAddress: net.IPAddressSchema,
  IPAddressList: net.IPAddressListSchema,
  ServiceCIDR: net.ServiceCIDRSchema,
  ServiceCIDRList: net.ServiceCIDRListSchema,
  Status: meta.StatusSchema,
};

/**
 * The key Node's util.inspect (console.log) looks for, reached through the
 * global symbol registry so this module needs no Node import and runs in the
 * browser as it is.
 */
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** The facts a KindInfo shows when printed or serialised; the schema (`desc`) is left out, as it is large. */
interface KindFacts {
  readonly kind: string;
  readonly apiVersion: string;
  readonly namespaced: boolean;
  readonly list?: true;
}

/** The compact form: `list` only for the List kinds. */
function factsOf(info: KindInfo): KindFacts {
  return {
    kind: info.kind,
    apiVersion: info.apiVersion,
    namespaced: info.namespaced,
    ...(info.list ? { list: true as const } : {}),
  };
}

/**
 * KindInfo's methods, shared by every kind through the prototype chain so
 * that the fields stay the object's only own enumerable properties.
 */
const KIND_INFO_PROTOTYPE = {
  /** `{ kind, apiVersion, namespaced }` (and `list: true` for a List kind), for JSON.stringify. */
  toJSON(this: KindInfo): KindFacts {
    return factsOf(this);
  },
  /** What console.log shows: `KindInfo { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', namespaced: true }`. */
  [INSPECT](this: KindInfo, _depth: number, options: unknown, inspect?: (value: unknown, options: unknown) => string) {
    const facts = factsOf(this);
    // Node passes its inspect function (since v16.14); without it, the facts are plain enough to print.
    if (typeof inspect !== "function") return facts;
    return `KindInfo ${inspect(facts, { ...(options as object), breakLength: Number.POSITIVE_INFINITY })}`;
  },
};

/**
 * Every kind clusterwire decodes and encodes, in registration order: KIND_NAMES
 * (where the names, list and namespace facts are stated once) with their schemas.
 * Printed (console.log) or serialised (JSON.stringify), a kind shows its
 * facts without its large schema.
 *
 * @example
 * ```ts
 * import { KINDS } from "clusterwire/networking";
 *
 * console.log(KINDS.filter((k) => !k.list).map((k) => k.kind));
 * ```
 */
export const KINDS: readonly KindInfo[] = KIND_NAMES.map(({ apiVersion, kind, list, namespaced }) =>
  Object.freeze(
    Object.assign(Object.create(KIND_INFO_PROTOTYPE) as object, {
      apiVersion,
      kind,
      desc: SCHEMAS[kind] as DescMessage,
      list,
      namespaced,
    }) as KindInfo,
  ),
);

let byTypeName: ReadonlyMap<string, KindInfo> | undefined;
let byGvk: ReadonlyMap<string, ReadonlyMap<string, KindInfo>> | undefined;

/** The kind of a message type, or undefined for messages that are not top-level kinds. */
export function kindOfTypeName(typeName: string): KindInfo | undefined {
  byTypeName ??= new Map(KINDS.map((i) => [i.desc.typeName, i]));
  return byTypeName.get(typeName);
}

/**
 * Looks up a kind by its apiVersion and kind strings. Two lookups, not one
 * on a joined key: joining cost 4-5% of decoding a small object.
 *
 * @example
 * ```ts
 * import { lookupKind } from "clusterwire/networking";
 *
 * console.log(lookupKind("networking.k8s.io/v1", "Ingress")?.kind); // "Ingress"
 * console.log(lookupKind("extensions/v1beta1", "Ingress")); // undefined
 * ```
 */
export function lookupKind(apiVersion: string, kind: string): KindInfo | undefined {
  if (byGvk === undefined) {
    const outer = new Map<string, Map<string, KindInfo>>();
    for (const i of KINDS) {
      const inner = outer.get(i.apiVersion) ?? new Map<string, KindInfo>();
      outer.set(i.apiVersion, inner);
      inner.set(i.kind, i);
    }
    byGvk = outer;
  }
  return byGvk.get(apiVersion)?.get(kind);
}

/**
 * The kind of an object (from its protobuf-es `$typeName`). Throws
 * {@link EncodeError} for anything that is not a top-level kind.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, kindOf } from "clusterwire/networking";
 *
 * const info = kindOf(create(IngressSchema));
 * console.log(`${info.apiVersion} ${info.kind}`); // "networking.k8s.io/v1 Ingress"
 * ```
 */
export function kindOf(obj: NetworkingObject | Message): KindInfo {
  const typeName = (obj as { $typeName?: unknown } | null | undefined)?.$typeName;
  const info = typeof typeName === "string" ? kindOfTypeName(typeName) : undefined;
  if (info === undefined) throw notAKind(obj);
  return info;
}

/**
 * Any object clusterwire decodes: a networking.k8s.io/v1 kind, its List, or a Status.
 *
 * @example
 * ```ts
 * import { type NetworkingObject, fromYaml } from "clusterwire/networking";
 *
 * const objects: NetworkingObject[] = fromYaml("apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\n");
 * for (const o of objects) if (o.$typeName === "k8s.io.api.networking.v1.IngressClass") console.log(o.metadata?.name);
 * ```
 */
export type NetworkingObject =
  | net.Ingress
  | net.IngressList
  | net.IngressClass
  | net.IngressClassList
  | net.NetworkPolicy
  | net.NetworkPolicyList
  | net.IPAddress
  | net.IPAddressList
  | net.ServiceCIDR
  | net.ServiceCIDRList
  | meta.Status;
