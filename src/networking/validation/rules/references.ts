// Checks shared by the fields that name another object: an Ingress resource
// backend, IngressClass parameters, an IPAddress parent.

import type { FieldPath } from "../../model/path.js";
import { coveredByDeclarative, invalid, required, type FieldError } from "../field-error.js";
import { dns1123SubdomainIsValid, isDns1123Subdomain, isPathSegmentName, pathSegmentNameIsValid } from "./names.js";

// Each check takes the parent path and the field's name, and builds the
// field's path only when it reports an error: valid objects allocate none.

/**
 * A kind, resource or name that must be set and usable as a REST path segment.
 * `declarative`: from 1.36 its Required error comes from declarative validation.
 */
export function validateRequiredSegment(
  value: string,
  parent: FieldPath,
  field: string,
  out: FieldError[],
  declarative = false,
): void {
  if (value === "") {
    const e = required(parent.child(field));
    out.push(declarative ? coveredByDeclarative(e) : e);
    return;
  }
  if (pathSegmentNameIsValid(value)) return;
  const msgs = isPathSegmentName(value);
  const at = parent.child(field);
  for (const m of msgs) out.push(invalid(at, value, m));
}

/** An API group, checked when present: a DNS-1123 subdomain ("" fails). */
export function validateApiGroup(value: string, parent: FieldPath, field: string, out: FieldError[]): void {
  if (dns1123SubdomainIsValid(value)) return;
  const msgs = isDns1123Subdomain(value);
  const at = parent.child(field);
  for (const m of msgs) out.push(invalid(at, value, m));
}
