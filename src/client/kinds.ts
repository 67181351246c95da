// The REST facts of each kind the client serves: where it lives under
// /apis/networking.k8s.io/v1, whether it is namespaced, whether it has a status subresource, and
// the message types of an object and of its list. Namespacing and type names come from
// clusterwire/networking's KINDS, so they are stated once.

import { lookupKind, NETWORKING_API_VERSION } from "../networking/index.js";
import type { ClientKind } from "./types.js";

/** What the client needs to know of one kind. */
export interface KindFacts {
  readonly kind: ClientKind;
  /** The resource name in paths: `ingresses`. */
  readonly plural: string;
  readonly namespaced: boolean;
  /** Whether `.../NAME/status` exists (updateStatus). */
  readonly hasStatus: boolean;
  /** The protobuf-es `$typeName` of an object. */
  readonly typeName: string;
  /** The `$typeName` of its list. */
  readonly listTypeName: string;
}

/** The resource name and status subresource of each kind, as the API server serves them. */
const REST: Readonly<Record<ClientKind, { readonly plural: string; readonly hasStatus: boolean }>> = {
  Ingress: { plural: "ingresses", hasStatus: true },
  IngressClass: { plural: "ingressclasses", hasStatus: false },
  NetworkPolicy: { plural: "networkpolicies", hasStatus: false },
  IPAddress: { plural: "ipaddresses", hasStatus: false },
  ServiceCIDR: { plural: "servicecidrs", hasStatus: true },
};

/** The client's kinds, in the order above. */
export const CLIENT_KINDS = Object.keys(REST) as readonly ClientKind[];

/** The API group and version every path starts with. */
export const API_PREFIX = `/apis/${NETWORKING_API_VERSION}`;

const FACTS = new Map<string, KindFacts>(
  CLIENT_KINDS.map((kind) => {
    const info = lookupKind(NETWORKING_API_VERSION, kind);
    const list = lookupKind(NETWORKING_API_VERSION, `${kind}List`);
    // Both exist for every kind the client serves; the kinds test holds this table to KINDS.
    return [
      kind,
      {
        kind,
        ...REST[kind],
        namespaced: info?.namespaced ?? false,
        typeName: info?.desc.typeName ?? "",
        listTypeName: list?.desc.typeName ?? "",
      },
    ];
  }),
);

/** The facts of `kind`; a RangeError for a kind the client does not serve. */
export function kindFacts(kind: string): KindFacts {
  const facts = FACTS.get(kind);
  if (facts === undefined) {
    throw new RangeError(`the client serves ${CLIENT_KINDS.join(", ")}, not ${JSON.stringify(kind)}`);
  }
  return facts;
}
