// NetworkPolicy rules as the API server checks them, with the update
// ratchets (selector values, unchanged CIDRs) computed from the stored object.

import type {
  IPBlock,
  NetworkPolicy,
  NetworkPolicyPeer,
  NetworkPolicyPort,
  NetworkPolicySpec,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { effectivePolicyTypes } from "./default-values.js";
import type { FieldPath } from "../model/path.js";
import { METADATA, SPEC } from "./paths.js";
import type { KubernetesVersion } from "../model/kubernetes-version.js";
import {
  coveredByDeclarative,
  forbidden,
  goJson,
  invalid,
  notSupported,
  required,
  type FieldError,
} from "./field-error.js";
import { cidrForLegacyField, exceptIsStrictSubset, ipMessages, parseCIDRSloppy } from "./rules/ip.js";
import { labelSelectorHasErrors, labelSelectorIsValid, validateLabelSelector } from "./rules/label-selector.js";
import { isValidPortName, isValidPortNum, nameIsDnsSubdomain } from "./rules/names.js";
import { validateObjectMeta, validateObjectMetaUpdate } from "./rules/object-meta.js";
import { isSet } from "./rules/presence.js";
import { PROTOCOLS, isProtocol } from "../model/protocols.js";

export const POLICY_TYPES = ["Ingress", "Egress"] as const;

export interface NetworkPolicyValidationOptions {
  readonly allowInvalidLabelValueInSelector: boolean;
  /** CIDR strings from the stored object, accepted without re-checking their format. */
  readonly allowCIDRs: readonly string[];
  readonly strictIPCIDRValidation: boolean;
  /**
   * The bad value of "endPort must be greater than or equal to `port`": 1.35 reports the port,
   * 1.37 the endPort.
   */
  readonly endPortErrorShowsEndPort: boolean;
}

/** ValidationOptionsForNetworking: the selector-value ratchet looks only at the old top-level podSelector. */
export function networkPolicyOptions(
  old: NetworkPolicy | undefined,
  strict: boolean,
  version: KubernetesVersion,
): NetworkPolicyValidationOptions {
  const endPortErrorShowsEndPort = version !== "1.35";
  if (old === undefined) return CREATE_OPTIONS[(strict ? 1 : 0) + (endPortErrorShowsEndPort ? 2 : 0)]!;
  const allowInvalidLabelValueInSelector = labelSelectorHasErrors(old.spec?.podSelector, SPEC, "podSelector");
  return { allowInvalidLabelValueInSelector, allowCIDRs: [], strictIPCIDRValidation: strict, endPortErrorShowsEndPort };
}

// The four create option sets, built once: validate() runs in hot loops.
const CREATE_OPTIONS: readonly NetworkPolicyValidationOptions[] = [0, 1, 2, 3].map((bits) =>
  Object.freeze({
    allowInvalidLabelValueInSelector: false,
    allowCIDRs: [],
    strictIPCIDRValidation: (bits & 1) !== 0,
    endPortErrorShowsEndPort: (bits & 2) !== 0,
  }),
);

/** ValidateNetworkPolicy; `namespace` as validateObjectMeta takes it. */
export function validateNetworkPolicy(
  np: NetworkPolicy,
  options: NetworkPolicyValidationOptions,
  out: FieldError[],
  namespace?: string,
): void {
  validateObjectMeta(np.metadata, true, nameIsDnsSubdomain, METADATA, out, true, namespace);
  validateSpec(np.spec, options, SPEC, out);
}

/**
 * The strategy's update validation: upstream runs ValidateNetworkPolicy and then
 * ValidateNetworkPolicyUpdate, so spec errors are reported twice on update.
 */
export function validateNetworkPolicyUpdate(
  np: NetworkPolicy,
  old: NetworkPolicy,
  strict: boolean,
  version: KubernetesVersion,
  out: FieldError[],
): void {
  const options = networkPolicyOptions(old, strict, version);
  // 1.35's strategy also runs the create validation first, so spec errors come twice; 1.37's does not.
  if (version === "1.35") validateNetworkPolicy(np, options, out);
  validateObjectMetaUpdate(np.metadata, old.metadata, METADATA, out);
  validateSpec(np.spec, { ...options, allowCIDRs: existingCIDRs(old) }, SPEC, out);
}

function existingCIDRs(old: NetworkPolicy): string[] {
  const out: string[] = [];
  const add = (peers: readonly NetworkPolicyPeer[]) => {
    for (const p of peers) if (p.ipBlock !== undefined) out.push(p.ipBlock.cidr, ...p.ipBlock.except);
  };
  for (const r of old.spec?.ingress ?? []) add(r.from);
  for (const r of old.spec?.egress ?? []) add(r.to);
  return out;
}

function validateSpec(
  spec: NetworkPolicySpec | undefined,
  options: NetworkPolicyValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  if (spec === undefined) return;
  if (!labelSelectorIsValid(spec.podSelector, options))
    validateLabelSelector(spec.podSelector, options, at, "podSelector", out);
  // Each list's path is built once, and only for a rule that reports an error.
  let rules: FieldPath | undefined;
  for (let i = 0; i < spec.ingress.length; i++) {
    const rule = spec.ingress[i]!;
    if (ruleIsValid(rule.ports, rule.from, options)) continue;
    rules ??= at.child("ingress");
    validateRule(rule.ports, rule.from, "from", options, rules.index(i), out);
  }
  rules = undefined;
  for (let i = 0; i < spec.egress.length; i++) {
    const rule = spec.egress[i]!;
    if (ruleIsValid(rule.ports, rule.to, options)) continue;
    rules ??= at.child("egress");
    validateRule(rule.ports, rule.to, "to", options, rules.index(i), out);
  }
  const types = effectivePolicyTypes(spec);
  if (types.length > POLICY_TYPES.length) {
    out.push(invalid(at.child("policyTypes"), [...types], "may not specify more than two policyTypes", goJson(types)));
    return;
  }
  for (let k = 0; k < types.length; k++) {
    const t = types[k]!;
    if (t !== "Ingress" && t !== "Egress")
      out.push(notSupported(at.child("policyTypes").index(k), t, POLICY_TYPES, goJson(t)));
  }
}

/**
 * Whether validateRule would report nothing, without building a path: false
 * for anything it does not plainly accept (any ipBlock under the strict
 * gate, say), which then goes to validateRule. The tests hold the two to each other.
 */
export function ruleIsValid(
  ports: readonly NetworkPolicyPort[],
  peers: readonly NetworkPolicyPeer[],
  options: NetworkPolicyValidationOptions,
): boolean {
  for (let k = 0; k < ports.length; k++) if (!portIsValid(ports[k]!)) return false;
  for (let j = 0; j < peers.length; j++) {
    const peer = peers[j]!;
    const pod = peer.podSelector;
    const ns = peer.namespaceSelector;
    if (peer.ipBlock !== undefined) {
      if (pod !== undefined || ns !== undefined || !ipBlockIsValid(peer.ipBlock, options)) return false;
      continue;
    }
    if (pod === undefined && ns === undefined) return false;
    if (!labelSelectorIsValid(pod, options) || !labelSelectorIsValid(ns, options)) return false;
  }
  return true;
}

// An ipBlock validateIPBlock accepts without the strict gate (with it: let it decide).
function ipBlockIsValid(block: IPBlock, options: NetworkPolicyValidationOptions): boolean {
  if (options.strictIPCIDRValidation || block.cidr === "") return false;
  const cidr = parseCIDRSloppy(block.cidr);
  if (cidr === null) return false;
  for (let k = 0; k < block.except.length; k++) {
    const except = parseCIDRSloppy(block.except[k]!);
    if (except === null || !exceptIsStrictSubset(cidr, except)) return false;
  }
  return true;
}

// A port validatePort accepts.
function portIsValid(port: NetworkPolicyPort): boolean {
  const p = port.protocol;
  if (!isProtocol(p) && isSet(port, "protocol", p, "")) return false;
  const hasEndPort = isSet(port, "endPort", port.endPort, 0);
  const value = port.port;
  if (value === undefined) return !hasEndPort;
  if (value.type === 0n) {
    const n = value.intVal;
    if (!(n >= 1 && n <= 65535)) return false;
    // endPort >= port >= 1, so only its upper bound is left to check.
    return !hasEndPort || (port.endPort >= n && port.endPort <= 65535);
  }
  return !hasEndPort && isValidPortName(value.strVal).length === 0;
}

/** Exported for the tests, which hold ruleIsValid to it. */
export function validateRule(
  ports: readonly NetworkPolicyPort[],
  peers: readonly NetworkPolicyPeer[],
  peersField: "from" | "to",
  options: NetworkPolicyValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  if (ports.length > 0) {
    const pp = at.child("ports");
    for (let k = 0; k < ports.length; k++) validatePort(ports[k]!, options, pp.index(k), out);
  }
  if (peers.length > 0) {
    const pp = at.child(peersField);
    for (let j = 0; j < peers.length; j++) validatePeer(peers[j]!, options, pp.index(j), out);
  }
}

function validatePort(
  port: NetworkPolicyPort,
  options: NetworkPolicyValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  // An absent protocol is defaulted to TCP; an explicit "" is not.
  const p = port.protocol;
  if (isSet(port, "protocol", p, "")) {
    if (!isProtocol(p)) out.push(notSupported(at.child("protocol"), p, PROTOCOLS, goJson(p)));
  }
  const hasEndPort = isSet(port, "endPort", port.endPort, 0);
  const value = port.port;
  if (value === undefined) {
    if (hasEndPort)
      out.push(invalid(at.child("endPort"), port.endPort, "may not be specified when `port` is not specified"));
    return;
  }
  if (value.type === 0n) {
    const n = value.intVal;
    for (const m of isValidPortNum(n)) out.push(invalid(at.child("port"), n, m));
    if (hasEndPort) {
      if (port.endPort < n) {
        const shown = options.endPortErrorShowsEndPort ? port.endPort : n;
        out.push(invalid(at.child("endPort"), shown, "must be greater than or equal to `port`"));
      }
      for (const m of isValidPortNum(port.endPort)) out.push(invalid(at.child("endPort"), port.endPort, m));
    }
  } else {
    if (hasEndPort)
      out.push(invalid(at.child("endPort"), port.endPort, "may not be specified when `port` is non-numeric"));
    for (const m of isValidPortName(value.strVal)) out.push(invalid(at.child("port"), value.strVal, m));
  }
}

function validatePeer(
  peer: NetworkPolicyPeer,
  options: NetworkPolicyValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  const selectorOptions = options;
  let members = 0;
  if (peer.podSelector !== undefined) {
    members++;
    validateLabelSelector(peer.podSelector, selectorOptions, at, "podSelector", out);
  }
  if (peer.namespaceSelector !== undefined) {
    members++;
    validateLabelSelector(peer.namespaceSelector, selectorOptions, at, "namespaceSelector", out);
  }
  if (peer.ipBlock !== undefined) {
    members++;
    validateIPBlock(peer.ipBlock, options, at.child("ipBlock"), out);
  }
  if (members === 0) out.push(required(at, "must specify a peer"));
  else if (members > 1 && peer.ipBlock !== undefined)
    out.push(forbidden(at, "may not specify both ipBlock and another peer"));
}

function validateIPBlock(
  block: IPBlock,
  options: NetworkPolicyValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  if (block.cidr === "") {
    out.push(coveredByDeclarative(required(at.child("cidr"))));
    return;
  }
  const cidr = parseCIDRSloppy(block.cidr);
  legacyCIDRErrors(block.cidr, cidr === null, options, at.child("cidr"), out);
  if (cidr === null) return;
  for (let k = 0; k < block.except.length; k++) {
    const s = block.except[k]!;
    const except = parseCIDRSloppy(s);
    if (except !== null && !options.strictIPCIDRValidation && exceptIsStrictSubset(cidr, except)) continue;
    const ep = at.child("except").index(k);
    legacyCIDRErrors(s, except === null, options, ep, out);
    if (except === null) continue;
    if (!exceptIsStrictSubset(cidr, except)) out.push(invalid(ep, s, "must be a strict subset of `cidr`"));
  }
}

// IsValidCIDRForLegacyField. Without the strict gate it only asks whether the
// text parses, which the caller already knows, so the text is scanned once.
function legacyCIDRErrors(
  value: string,
  unparsable: boolean,
  options: NetworkPolicyValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  if (options.strictIPCIDRValidation) {
    for (const m of cidrForLegacyField(value, { strict: true, allowed: options.allowCIDRs }))
      out.push(invalid(at, value, m));
  } else if (unparsable && !options.allowCIDRs.includes(value)) {
    out.push(invalid(at, value, ipMessages.invalidCIDR));
  }
}
