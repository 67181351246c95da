import type { DescMessage, Message } from "@bufbuild/protobuf";
import * as net from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import * as meta from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { KIND_NAMES, notAKind } from "./kind-names.js";

/** A top-level kind: what the envelope's apiVersion/kind and JSON's kind/apiVersion name. */
export interface KindInfo {
  readonly apiVersion: string;
  readonly kind: string;
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
 * Every kind clusterwire decodes and encodes, in registration order: KIND_NAMES
 * (where the names, list and namespace facts are stated once) with their schemas.
 */
export const KINDS: readonly KindInfo[] = KIND_NAMES.map(({ apiVersion, kind, list, namespaced }) => ({
  apiVersion,
  kind,
  desc: SCHEMAS[kind] as DescMessage,
  list,
  namespaced,
}));

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
 */
export function kindOf(obj: NetworkingObject | Message): KindInfo {
  const typeName = (obj as { $typeName?: unknown } | null | undefined)?.$typeName;
  const info = typeof typeName === "string" ? kindOfTypeName(typeName) : undefined;
  if (info === undefined) throw notAKind(obj);
  return info;
}

/** Any object clusterwire decodes: a networking.k8s.io/v1 kind, its List, or a Status. */
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
