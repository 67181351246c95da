// IngressClass rules as the API server checks them.

import type {
  IngressClass,
  IngressClassParametersReference,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { effectiveParametersScope } from "./default-values.js";
import type { FieldPath } from "../model/path.js";
import { METADATA, SPEC } from "./paths.js";
import { forbidden, invalid, notSupported, required, tooLong, type FieldError } from "./field-error.js";
import {
  dns1123LabelIsValid,
  domainPrefixedPathIsValid,
  exceedsBytes,
  isDomainPrefixedPath,
  nameIsDnsLabel,
  nameIsDnsSubdomain,
} from "./rules/names.js";
import { isSet } from "./rules/presence.js";
import { validateApiGroup, validateRequiredSegment } from "./rules/references.js";
import { FIELD_IMMUTABLE, validateObjectMeta, validateObjectMetaUpdate } from "./rules/object-meta.js";

export const MAX_CONTROLLER_LENGTH = 250;
export const PARAMETER_SCOPES = ["Cluster", "Namespace"] as const;

/** ValidateIngressClass (create); `namespace` as validateObjectMeta takes it. */
export function validateIngressClass(ic: IngressClass, out: FieldError[], namespace?: string): void {
  validateObjectMeta(ic.metadata, false, nameIsDnsSubdomain, METADATA, out, true, namespace);
  const at = SPEC;
  const controller = ic.spec?.controller ?? "";
  if (controller.length === 0) {
    out.push(required(at.child("controller")));
  } else if (controller.length > MAX_CONTROLLER_LENGTH || !domainPrefixedPathIsValid(controller)) {
    // A valid path is ASCII, so a short enough one is within the byte limit.
    if (exceedsBytes(controller, MAX_CONTROLLER_LENGTH))
      out.push(tooLong(at.child("controller"), MAX_CONTROLLER_LENGTH));
    for (const e of isDomainPrefixedPath(controller)) out.push(invalid(at.child("controller"), e.value, e.detail));
  }
  const params = ic.spec?.parameters;
  if (params !== undefined) validateParameters(params, at.child("parameters"), out);
}

/** ValidateIngressClassUpdate: metadata update, immutable controller, then the create rules again. */
export function validateIngressClassUpdate(ic: IngressClass, old: IngressClass, out: FieldError[]): void {
  validateObjectMetaUpdate(ic.metadata, old.metadata, METADATA, out);
  const controller = ic.spec?.controller ?? "";
  if (controller !== (old.spec?.controller ?? "")) {
    out.push(invalid(SPEC.child("controller"), controller, FIELD_IMMUTABLE));
  }
  validateIngressClass(ic, out);
}

function validateParameters(p: IngressClassParametersReference, at: FieldPath, out: FieldError[]): void {
  if (isSet(p, "aPIGroup", p.aPIGroup, "")) validateApiGroup(p.aPIGroup, at, "apiGroup", out);
  validateRequiredSegment(p.kind, at, "kind", out, true);
  validateRequiredSegment(p.name, at, "name", out, true);
  // v1 defaulting sets a missing scope before validation runs.
  const scope = effectiveParametersScope(p);
  if (scope !== "Cluster" && scope !== "Namespace") {
    out.push(notSupported(at.child("scope"), scope, PARAMETER_SCOPES));
    return;
  }
  const hasNamespace = isSet(p, "namespace", p.namespace, "");
  if (scope === "Namespace") {
    if (!hasNamespace) out.push(required(at.child("namespace"), "`parameters.scope` is set to 'Namespace'"));
    else if (!dns1123LabelIsValid(p.namespace))
      for (const m of nameIsDnsLabel(p.namespace, false)) out.push(invalid(at.child("namespace"), p.namespace, m));
  }
  if (scope === "Cluster" && hasNamespace)
    out.push(forbidden(at.child("namespace"), "`parameters.scope` is set to 'Cluster'"));
}
