// Ingress rules as the API server checks them (networking validation for
// Ingress), with the update ratchets computed from the stored object.

import type { TypedLocalObjectReference } from "../../../gen/k8s/io/api/core/v1/core_pb.js";
import type {
  HTTPIngressPath,
  HTTPIngressRuleValue,
  Ingress,
  IngressBackend,
  IngressLoadBalancerStatus,
  IngressSpec,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { FieldPath } from "../model/path.js";
import { METADATA, SPEC } from "./paths.js";
import { goJson, invalid, notSupported, required, type FieldError } from "./field-error.js";
import { ipForLegacyField, parseIPSloppy } from "./rules/ip.js";
import {
  isPathSegmentName,
  DNS1035_LABEL_MAX,
  DNS1123_LABEL_MAX,
  isDns1123Subdomain,
  matchers,
  isValidPortName,
  isValidPortNum,
  isWildcardDns1123Subdomain,
  nameIsDns1035Label,
  nameIsDnsLabel,
  nameIsDnsSubdomain,
} from "./rules/names.js";
import { validateObjectMeta, validateObjectMetaUpdate } from "./rules/object-meta.js";
import { isSet } from "./rules/presence.js";
import { validateApiGroup, validateRequiredSegment } from "./rules/references.js";
import { INGRESS_CLASS_ANNOTATION } from "../model/constants.js";

export const PATH_TYPES = ["Exact", "ImplementationSpecific", "Prefix"] as const;
const INVALID_PATH_SEQUENCES = ["//", "/./", "/../", "%2f", "%2F"];
const INVALID_PATH_SUFFIXES = ["/..", "/."];
// Every invalid sequence and suffix contains "//", "/." or "%2".
export const SUSPICIOUS_PATH = /\/[/.]|%2/;

/**
 * SUSPICIOUS_PATH.test(path) as a scan: a regex call has a fixed cost that
 * a scan of a typical short path ("/", "/api") does not. The tests hold it
 * to the regex.
 */
export function hasSuspiciousSequence(path: string): boolean {
  const n = path.length - 1;
  for (let i = 0; i < n; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x2f) {
      const d = path.charCodeAt(i + 1);
      if (d === 0x2f || d === 0x2e) return true;
    } else if (c === 0x25 && path.charCodeAt(i + 1) === 0x32) return true;
  }
  return false;
}

export interface IngressValidationOptions {
  readonly allowInvalidSecretName: boolean;
  readonly allowInvalidWildcardHostRule: boolean;
  readonly allowRelaxedServiceNameValidation: boolean;
}

export interface IngressGates {
  readonly relaxedServiceNameValidation: boolean;
  readonly strictIPCIDRValidation: boolean;
}

const CREATE_STRICT_NAMES: IngressValidationOptions = Object.freeze({
  allowInvalidSecretName: false,
  allowInvalidWildcardHostRule: false,
  allowRelaxedServiceNameValidation: false,
});
const CREATE_RELAXED_NAMES: IngressValidationOptions = Object.freeze({
  ...CREATE_STRICT_NAMES,
  allowRelaxedServiceNameValidation: true,
});
const CREATE_OPTIONS = (gates: IngressGates): IngressValidationOptions =>
  gates.relaxedServiceNameValidation ? CREATE_RELAXED_NAMES : CREATE_STRICT_NAMES;

/** ValidateIngressCreate; `namespace` as validateObjectMeta takes it. */
export function validateIngressCreate(ing: Ingress, gates: IngressGates, out: FieldError[], namespace?: string): void {
  validateIngress(ing, CREATE_OPTIONS(gates), out, namespace);
  const annotations = ing.metadata?.annotations;
  const spec = ing.spec;
  if (annotations !== undefined && Object.hasOwn(annotations, INGRESS_CLASS_ANNOTATION) && spec !== undefined) {
    const value = annotations[INGRESS_CLASS_ANNOTATION]!;
    const className = spec.ingressClassName;
    if (isSet(spec, "ingressClassName", className, "") && value !== className) {
      out.push(
        invalid(
          FieldPath.root("annotations").child(INGRESS_CLASS_ANNOTATION),
          value,
          "must match `ingressClassName` when both are specified",
        ),
      );
    }
  }
}

/** ValidateIngressUpdate: metadata update rules, then the full rules with the ratchets. */
export function validateIngressUpdate(ing: Ingress, old: Ingress, gates: IngressGates, out: FieldError[]): void {
  validateObjectMetaUpdate(ing.metadata, old.metadata, METADATA, out);
  const options: IngressValidationOptions = {
    allowInvalidSecretName: allowInvalidSecretName(old),
    allowInvalidWildcardHostRule: allowInvalidWildcardHostRule(old),
    allowRelaxedServiceNameValidation: gates.relaxedServiceNameValidation || allowRelaxedServiceName(old),
  };
  validateIngress(ing, options, out);
}

/** ValidateIngressStatusUpdate. */
export function validateIngressStatusUpdate(ing: Ingress, old: Ingress, gates: IngressGates, out: FieldError[]): void {
  validateObjectMetaUpdate(ing.metadata, old.metadata, METADATA, out);
  validateLoadBalancerStatus(
    ing.status?.loadBalancer,
    old.status?.loadBalancer,
    gates,
    FieldPath.root("status").child("loadBalancer"),
    out,
  );
}

function validateIngress(ing: Ingress, options: IngressValidationOptions, out: FieldError[], namespace?: string): void {
  validateObjectMeta(ing.metadata, true, nameIsDnsSubdomain, METADATA, out, true, namespace);
  validateIngressSpec(ing.spec, options, SPEC, out);
}

function validateIngressSpec(
  spec: IngressSpec | undefined,
  options: IngressValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  const rules = spec?.rules ?? [];
  const defaultBackend = spec?.defaultBackend;
  if (rules.length === 0 && defaultBackend === undefined) {
    out.push(invalid(at, null, "either `defaultBackend` or `rules` must be specified", "null"));
  }
  if (spec === undefined) return;
  if (defaultBackend !== undefined && !backendIsValid(defaultBackend, options))
    validateBackend(defaultBackend, options, at.child("defaultBackend"), out);
  if (rules.length > 0) {
    // Paths are built only for a rule that reports an error.
    let rulesPath: FieldPath | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      let wildcard = false;
      const host = rule.host;
      if (host.length > 0) {
        if (parseIPSloppy(host) !== null) {
          rulesPath ??= at.child("rules");
          out.push(invalid(rulesPath.index(i).child("host"), host, "must be a DNS name, not an IP address"));
        }
        wildcard = host.includes("*");
        const msgs = wildcard ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host);
        if (msgs.length > 0) {
          rulesPath ??= at.child("rules");
          const hp = rulesPath.index(i).child("host");
          for (const m of msgs) out.push(invalid(hp, host, m));
        }
      }
      if (!wildcard || !options.allowInvalidWildcardHostRule) {
        const http = rule.ingressRuleValue?.http;
        if (http !== undefined) {
          const paths = http.paths;
          if (paths.length === 0) {
            rulesPath ??= at.child("rules");
            validateHttpRule(http, options, rulesPath.index(i).child("http"), out);
          }
          // Each path alone: one that is not plainly valid goes to the reporting rule.
          let pathsAt: FieldPath | undefined;
          for (let j = 0; j < paths.length; j++) {
            const p = paths[j]!;
            if (httpPathIsValid(p, options)) continue;
            rulesPath ??= at.child("rules");
            pathsAt ??= rulesPath.index(i).child("http").child("paths");
            validateHttpPath(p, options, pathsAt.index(j), out);
          }
        }
      }
    }
  }
  const tls = spec.tls;
  if (tls.length > 0) {
    const tlsPath = at.child("tls");
    for (let i = 0; i < tls.length; i++) {
      const t = tls[i]!;
      const tp = tlsPath.index(i);
      for (let j = 0; j < t.hosts.length; j++) {
        const h = t.hosts[j]!;
        const msgs = h.includes("*") ? isWildcardDns1123Subdomain(h) : isDns1123Subdomain(h);
        for (const m of msgs) out.push(invalid(tp.child("hosts").index(j), h, m));
      }
      if (!options.allowInvalidSecretName) {
        for (const m of tlsSecretNameErrors(t.secretName)) out.push(invalid(tp.child("secretName"), t.secretName, m));
      }
    }
  }
  if (isSet(spec, "ingressClassName", spec.ingressClassName, "")) {
    for (const m of nameIsDnsSubdomain(spec.ingressClassName, false)) {
      out.push(invalid(at.child("ingressClassName"), spec.ingressClassName, m));
    }
  }
}

function validateHttpRule(
  http: HTTPIngressRuleValue,
  options: IngressValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  const paths = http.paths;
  const pathsAt = at.child("paths");
  if (paths.length === 0) out.push(required(pathsAt));
  for (let j = 0; j < paths.length; j++) validateHttpPath(paths[j]!, options, pathsAt.index(j), out);
}

/**
 * Whether validateHttpPath would report nothing, without building a path or
 * an array: a valid path, the common case, skips it. False may still mean
 * valid (a path with a suspicious sequence); then the full rule decides. The
 * tests hold the two to each other.
 */
export function httpPathIsValid(p: HTTPIngressPath, options: IngressValidationOptions): boolean {
  const path = p.path;
  switch (p.pathType) {
    case "Exact":
    case "Prefix":
      if (path.charCodeAt(0) !== 0x2f || hasSuspiciousSequence(path)) return false;
      break;
    case "ImplementationSpecific":
      if (path.length > 0 && path.charCodeAt(0) !== 0x2f) return false;
      break;
    default:
      return false;
  }
  const b = p.backend;
  return b !== undefined && backendIsValid(b, options);
}

/** Whether validateBackend would report nothing; exported for the tests. */
export function backendIsValid(b: IngressBackend, options: IngressValidationOptions): boolean {
  const service = b.service;
  const r = b.resource;
  if (r !== undefined) {
    if (service !== undefined) return false;
    if (isSet(r, "apiGroup", r.apiGroup, "") && isDns1123Subdomain(r.apiGroup).length > 0) return false;
    return segmentIsValid(r.kind) && segmentIsValid(r.name);
  }
  if (service === undefined) return false;
  const name = service.name;
  if (name.length > (options.allowRelaxedServiceNameValidation ? DNS1123_LABEL_MAX : DNS1035_LABEL_MAX)) return false;
  if (!(options.allowRelaxedServiceNameValidation ? matchers.dns1123Label(name) : matchers.dns1035Label(name)))
    return false;
  const port = service.port;
  if (port === undefined) return false;
  const portName = port.name;
  const portNumber = port.number;
  if (portName.length > 0) return portNumber === 0 && isValidPortName(portName).length === 0;
  return portNumber >= 1 && portNumber <= 65535;
}

// What validateRequiredSegment accepts.
function segmentIsValid(v: string): boolean {
  return v !== "" && isPathSegmentName(v).length === 0;
}

/** Exported for the tests, which hold httpPathIsValid to it. */
export function validateHttpPath(
  p: HTTPIngressPath,
  options: IngressValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  if (!isSet(p, "pathType", p.pathType, "")) {
    out.push(required(at.child("pathType"), "pathType must be specified"));
    return;
  }
  const path = p.path;
  switch (p.pathType) {
    case "Exact":
    case "Prefix":
      if (!path.startsWith("/")) out.push(invalid(at.child("path"), path, "must be an absolute path"));
      // One scan rules out every sequence and suffix below for most paths.
      if (hasSuspiciousSequence(path)) {
        for (const seq of INVALID_PATH_SEQUENCES) {
          if (path.includes(seq)) out.push(invalid(at.child("path"), path, `must not contain '${seq}'`));
        }
        for (const suffix of INVALID_PATH_SUFFIXES) {
          if (path.endsWith(suffix)) out.push(invalid(at.child("path"), path, `cannot end with '${suffix}'`));
        }
      }
      break;
    case "ImplementationSpecific":
      if (path.length > 0 && !path.startsWith("/"))
        out.push(invalid(at.child("path"), path, "must be an absolute path"));
      break;
    default:
      out.push(notSupported(at.child("pathType"), p.pathType, PATH_TYPES, goJson(p.pathType)));
  }
  // A non-pointer struct in Go: an absent backend is an empty one.
  validateBackend(p.backend ?? EMPTY_BACKEND, options, at.child("backend"), out);
}

/** Exported for the tests, which hold backendIsValid to it. */
export function validateBackend(
  b: IngressBackend,
  options: IngressValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  const resource = b.resource;
  const service = b.service;
  if (resource !== undefined && service !== undefined) {
    out.push(invalid(at, "", "cannot set both resource and service backends"));
    return;
  }
  if (resource !== undefined) {
    validateTypedLocalObjectReference(resource, at.child("resource"), out);
    return;
  }
  if (service === undefined) {
    out.push(invalid(at, "", "resource or service backend is required"));
    return;
  }
  const name = service.name;
  if (name.length === 0) out.push(required(at.child("service").child("name")));
  else {
    const rule = options.allowRelaxedServiceNameValidation ? nameIsDnsLabel : nameIsDns1035Label;
    for (const m of rule(name, false)) out.push(invalid(at.child("service").child("name"), name, m));
  }
  const portName = service.port?.name ?? "";
  const portNumber = service.port?.number ?? 0;
  if (portName.length > 0 && portNumber !== 0) {
    out.push(invalid(at, "", "cannot set both port name & port number"));
  } else if (portName.length > 0) {
    const msgs = isValidPortName(portName);
    if (msgs.length > 0) {
      const pp = at.child("service").child("port").child("name");
      for (const m of msgs) out.push(invalid(pp, portName, m));
    }
  } else if (portNumber !== 0) {
    if (portNumber < 1 || portNumber > 65535) {
      const pp = at.child("service").child("port").child("number");
      for (const m of isValidPortNum(portNumber)) out.push(invalid(pp, portNumber, m));
    }
  } else {
    out.push(required(at, "port name or number is required"));
  }
}

function validateTypedLocalObjectReference(r: TypedLocalObjectReference, at: FieldPath, out: FieldError[]): void {
  if (isSet(r, "apiGroup", r.apiGroup, "")) validateApiGroup(r.apiGroup, at, "apiGroup", out);
  validateRequiredSegment(r.kind, at, "kind", out);
  validateRequiredSegment(r.name, at, "name", out);
}

function validateLoadBalancerStatus(
  status: IngressLoadBalancerStatus | undefined,
  old: IngressLoadBalancerStatus | undefined,
  gates: IngressGates,
  at: FieldPath,
  out: FieldError[],
): void {
  if (status === undefined || status.ingress.length === 0) return;
  const existing = (old?.ingress ?? []).map((i) => i.ip).filter((ip) => ip.length > 0);
  for (let i = 0; i < status.ingress.length; i++) {
    const lb = status.ingress[i]!;
    const ip = at.child("ingress").index(i);
    if (lb.ip.length > 0) {
      for (const m of ipForLegacyField(lb.ip, { strict: gates.strictIPCIDRValidation, allowed: existing })) {
        out.push(invalid(ip.child("ip"), lb.ip, m));
      }
    }
    if (lb.hostname.length > 0) {
      for (const m of isDns1123Subdomain(lb.hostname)) out.push(invalid(ip.child("hostname"), lb.hostname, m));
      if (parseIPSloppy(lb.hostname) !== null) {
        out.push(invalid(ip.child("hostname"), lb.hostname, "must be a DNS name, not an IP address"));
      }
    }
  }
}

function tlsSecretNameErrors(name: string): readonly string[] {
  return name.length === 0 ? [] : nameIsDnsSubdomain(name, false);
}

function allowInvalidSecretName(old: Ingress): boolean {
  for (const t of old.spec?.tls ?? []) if (tlsSecretNameErrors(t.secretName).length > 0) return true;
  return false;
}

function allowInvalidWildcardHostRule(old: Ingress): boolean {
  const strictOptions: IngressValidationOptions = {
    allowInvalidSecretName: false,
    allowInvalidWildcardHostRule: false,
    allowRelaxedServiceNameValidation: false,
  };
  for (const rule of old.spec?.rules ?? []) {
    if (!rule.host.includes("*")) continue;
    const http = rule.ingressRuleValue?.http;
    if (http === undefined) continue;
    const errs: FieldError[] = [];
    validateHttpRule(http, strictOptions, FieldPath.root("http"), errs);
    if (errs.length > 0) return true;
  }
  return false;
}

// An old object that already holds a DNS-1123 (but not DNS-1035) service name may keep using the relaxed rule.
function allowRelaxedServiceName(old: Ingress): boolean {
  const relaxedOnly = (name: string) =>
    nameIsDnsLabel(name, false).length === 0 && nameIsDns1035Label(name, false).length > 0;
  const db = old.spec?.defaultBackend?.service;
  if (db !== undefined && relaxedOnly(db.name)) return true;
  for (const rule of old.spec?.rules ?? []) {
    for (const p of rule.ingressRuleValue?.http?.paths ?? []) {
      const svc = p.backend?.service;
      if (svc !== undefined && relaxedOnly(svc.name)) return true;
    }
  }
  return false;
}

const EMPTY_BACKEND = Object.freeze({ $typeName: "k8s.io.api.networking.v1.IngressBackend" }) as IngressBackend;
