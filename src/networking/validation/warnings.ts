// The warnings the API server sends with an accepted networking.k8s.io/v1
// object, as its registry strategies produce them (WarningsOnCreate and
// WarningsOnUpdate), in its own words and field paths.
//
// Facts, read for behaviour and messages only (Kubernetes 1.35 and 1.37, the
// releases validate() follows; checked against both servers):
//   - pkg/registry/networking/ingress/strategy.go: on create, the
//     kubernetes.io/ingress.class annotation without spec.ingressClassName;
//     none on an update of the main resource; on an update of the status
//     subresource, each non-empty status.loadBalancer.ingress[i].ip through
//     GetWarningsForIP, with the entry's path `status.loadBalancer.ingress[i]`
//     (no `.ip`), as the Service status strategy does;
//   - pkg/registry/networking/networkpolicy/strategy.go (networkPolicyWarnings,
//     1.33+, KEP-4858): on create and on every update, each ipBlock cidr and
//     except of the object (not only the changed ones) through
//     GetWarningsForCIDR;
//   - the IngressClass, IPAddress and ServiceCIDR strategies: none (the last
//     two validate IPs and CIDRs strictly, so a non-canonical value is an
//     error there, not a warning);
//   - apimachinery pkg/util/validation/ip.go GetWarningsForIP and
//     GetWarningsForCIDR, and their tests (ip_test.go), for the messages;
//   - apiserver pkg/registry/rest/create.go (BeforeCreate) and update.go
//     (BeforeUpdate): the strategy's warnings are added only after validation
//     passed, so an object the API server refuses with 422 gets none;
//   - apiserver pkg/endpoints/filters/warning.go: the API server drops a
//     warning whose text it already sent for the same request.
// Read from kubernetes/kubernetes (strategy.go, rest/create.go), kubernetes
// apimachinery (ip.go, ip_test.go), the KEP-4858 text (kubernetes/enhancements)
// and a port of the 1.34 registry that cites the strategy line numbers.

import type { Ingress, NetworkPolicy, NetworkPolicyPeer } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { INGRESS_CLASS_ANNOTATION } from "../model/constants.js";
import { kindNameOf } from "../model/kind-names.js";
import type { NetworkingObject } from "../model/kinds.js";
import { FieldPath, renderPath } from "../model/path.js";
import {
  cidrForLegacyField,
  formatCIDR,
  formatIP,
  ipForLegacyField,
  ipMessages,
  parseCIDRSloppy,
  parseIPSloppy,
} from "./rules/ip.js";
import { isSet } from "./rules/presence.js";
import type { ValidateOptions } from "./validate.js";

/**
 * What decides the warnings: the stored object for an update, and the status subresource.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, warnings } from "clusterwire/networking";
 *
 * const old = create(IngressSchema, { metadata: { name: "shop" } });
 * console.log(warnings(create(IngressSchema, { metadata: { name: "shop" } }), { old }));
 * ```
 */
export type WarningOptions = Pick<ValidateOptions, "old" | "subresource">;

/**
 * One warning, with the field it is about (for a Status cause) and its text as the API server sends it.
 *
 * @example
 * ```ts
 * import { INGRESS_CLASS_ANNOTATION, IngressSchema, apiWarnings, create } from "clusterwire/networking";
 *
 * const ingress = create(IngressSchema, { metadata: { name: "shop", annotations: { [INGRESS_CLASS_ANNOTATION]: "nginx" } } });
 * for (const w of apiWarnings(ingress)) console.log(w.field, w.text);
 * ```
 */
export interface ApiWarning {
  /**
   * The field path the warning is about. The deprecated-annotation warning
   * names none in its text; its field here is `metadata.annotations`.
   */
  readonly field: string;
  /** `<path>: <message>` where the API server names a path, else the message alone. */
  readonly text: string;
}

const ANNOTATION_WARNING = `annotation ${JSON.stringify(INGRESS_CLASS_ANNOTATION)} is deprecated, please use 'spec.ingressClassName' instead`;

/**
 * The warnings the API server would send with this object once it accepted
 * it, in order, as text (`<path>: <message>` where it names a path). Empty
 * when it would send none. The API server sends them only for an object its
 * validation accepts; call validate() first, as admission does. A value
 * validation would refuse gives no warning here either (it cannot be read).
 *
 * Throws a TypeError for a list kind or inconsistent options, as validate() does.
 *
 * @example
 * ```ts
 * import { INGRESS_CLASS_ANNOTATION, IngressSchema, create, warnings } from "clusterwire/networking";
 *
 * const ingress = create(IngressSchema, { metadata: { name: "shop", annotations: { [INGRESS_CLASS_ANNOTATION]: "nginx" } } });
 * console.log(warnings(ingress)); // the deprecated-annotation warning
 * ```
 */
export function warnings(obj: NetworkingObject, options?: WarningOptions): string[] {
  return apiWarnings(obj, options).map((w) => w.text);
}

/**
 * {@link warnings}, each with the field it is about.
 *
 * @example
 * ```ts
 * import { INGRESS_CLASS_ANNOTATION, IngressSchema, apiWarnings, create } from "clusterwire/networking";
 *
 * const ingress = create(IngressSchema, { metadata: { name: "shop", annotations: { [INGRESS_CLASS_ANNOTATION]: "nginx" } } });
 * console.log(apiWarnings(ingress)); // [ { field: "metadata.annotations", text: "..." } ]
 * ```
 */
export function apiWarnings(obj: NetworkingObject, options: WarningOptions = {}): ApiWarning[] {
  const info = kindNameOf(obj);
  if (info.list) throw new TypeError(`warnings: takes one object; call it on each item of a ${info.kind}`);
  const old = options.old;
  if (old !== undefined && kindNameOf(old) !== info) {
    throw new TypeError(`warnings: options.old is a ${kindNameOf(old).kind}, not a ${info.kind}`);
  }
  if (options.subresource !== undefined && options.subresource !== "status") {
    throw new TypeError(`warnings: unknown subresource ${JSON.stringify(options.subresource)}`);
  }
  const status = options.subresource === "status";
  if (status && info.kind !== "Ingress" && info.kind !== "ServiceCIDR") {
    throw new TypeError(`warnings: ${info.kind} has no status subresource`);
  }
  if (status && old === undefined) throw new TypeError("warnings: a status update needs options.old");
  const out: ApiWarning[] = [];
  switch (info.kind) {
    case "Ingress":
      if (status) ingressStatusWarnings(obj as Ingress, out);
      else if (old === undefined) ingressCreateWarnings(obj as Ingress, out);
      break;
    case "NetworkPolicy":
      networkPolicyWarnings(obj as NetworkPolicy, out);
      break;
  }
  return out;
}

function ingressCreateWarnings(ing: Ingress, out: ApiWarning[]): void {
  const annotations = ing.metadata?.annotations;
  if (annotations === undefined || !Object.hasOwn(annotations, INGRESS_CLASS_ANNOTATION)) return;
  const spec = ing.spec;
  // Go's nil *string: absent; an explicit "" is set.
  if (spec !== undefined && isSet(spec, "ingressClassName", spec.ingressClassName, "")) return;
  out.push({ field: "metadata.annotations", text: ANNOTATION_WARNING });
}

function ingressStatusWarnings(ing: Ingress, out: ApiWarning[]): void {
  const points = ing.status?.loadBalancer?.ingress ?? [];
  for (let i = 0; i < points.length; i++) {
    const ip = points[i]!.ip;
    if (ip !== "") ipWarnings(renderPath(["status", "loadBalancer", "ingress", i]), ip, out);
  }
}

function networkPolicyWarnings(np: NetworkPolicy, out: ApiWarning[]): void {
  const spec = np.spec;
  if (spec === undefined) return;
  for (let i = 0; i < spec.ingress.length; i++) {
    peerWarnings(spec.ingress[i]!.from, FieldPath.root("spec").child("ingress").index(i).child("from"), out);
  }
  for (let i = 0; i < spec.egress.length; i++) {
    peerWarnings(spec.egress[i]!.to, FieldPath.root("spec").child("egress").index(i).child("to"), out);
  }
}

function peerWarnings(peers: readonly NetworkPolicyPeer[], at: FieldPath, out: ApiWarning[]): void {
  for (let j = 0; j < peers.length; j++) {
    const block = peers[j]!.ipBlock;
    if (block === undefined) continue;
    const path = at.index(j).child("ipBlock");
    cidrWarnings(path.child("cidr"), block.cidr, out);
    for (let k = 0; k < block.except.length; k++) cidrWarnings(path.child("except").index(k), block.except[k]!, out);
  }
}

// Go's %q of a value that parsed as an IP or CIDR: printable ASCII without
// quotes or backslashes, which JSON quotes the same way.
const quote = JSON.stringify;

/**
 * GetWarningsForIP: nothing for a value ParseIPSloppy refuses; "non-standard"
 * for leading zeros or IPv4-mapped IPv6 (net/netip refuses the text, or it is
 * 4in6), offering Go's net.IP text; else "RFC 5952" for IPv6 not in netip's
 * text (for IPv6 that is not 4in6, net.IP and netip print the same).
 */
function ipWarnings(path: string, value: string, out: ApiWarning[]): void {
  const ip = parseIPSloppy(value);
  if (ip === null) return;
  const text = formatIP(ip);
  // Go's own text has none of the forms warned about.
  if (text === value) return;
  if (ipForLegacyField(value, { strict: true }).length !== 0) {
    out.push({
      field: path,
      text: `${path}: non-standard IP address ${quote(value)} will be considered invalid in a future Kubernetes release: use ${quote(text)}`,
    });
  } else if (ip.family === 6) {
    out.push({
      field: path,
      text: `${path}: IPv6 address ${quote(value)} should be in RFC 5952 canonical format (${quote(text)})`,
    });
  }
}

/**
 * GetWarningsForCIDR: nothing for a value ParseCIDRSloppy refuses; then
 * "ambiguous" when bits are set past the prefix length, "non-standard" for
 * leading zeros (address or prefix length) or an IPv4-mapped address, and,
 * only when neither applies, "RFC 5952" for IPv6 not in canonical text.
 */
function cidrWarnings(at: FieldPath, value: string, out: ApiWarning[]): void {
  const net = parseCIDRSloppy(value);
  if (net === null) return;
  const network = formatCIDR(net);
  // Go's own text of the network has none of the forms warned about.
  if (network === value) return;
  // Rendered only here: the common, canonical value costs no path string.
  const path = renderPath(at.segments());
  const ip = parseIPSloppy(value.slice(0, value.indexOf("/")))!;
  let warned = false;
  if (ip.w0 !== net.w0 || ip.w1 !== net.w1 || ip.w2 !== net.w2 || ip.w3 !== net.w3) {
    // The address as a single-address CIDR of the mask's own size (32 or 128 bits).
    const single = `${formatIP(ip)}/${net.bits}`;
    out.push({
      field: path,
      text: `${path}: CIDR value ${quote(value)} is ambiguous in this context (should be ${quote(network)} or ${quote(single)}?)`,
    });
    warned = true;
  }
  // The strict rules stop at the first of: netip.ParsePrefix refuses the text, the address is 4in6, host bits.
  const strict = cidrForLegacyField(value, { strict: true })[0];
  if (strict === ipMessages.cidrLeadingZeros || strict === ipMessages.cidrMapped) {
    out.push({
      field: path,
      text: `${path}: non-standard CIDR value ${quote(value)} will be considered invalid in a future Kubernetes release: use ${quote(network)}`,
    });
    warned = true;
  }
  if (!warned && ip.family === 6) {
    // No host bits, so netip's prefix text is the network's.
    out.push({
      field: path,
      text: `${path}: IPv6 CIDR value ${quote(value)} should be in RFC 5952 canonical format (${quote(network)})`,
    });
  }
}
