// Checks shared by the fields that name another object: an Ingress resource
// backend, IngressClass parameters, an IPAddress parent.

import type { FieldPath } from "../../model/path.js";
import { invalid, required, type FieldError } from "../field-error.js";
import { isDns1123Subdomain, isPathSegmentName } from "./names.js";

/** A kind, resource or name that must be set and usable as a REST path segment. */
export function validateRequiredSegment(value: string, at: FieldPath, out: FieldError[]): void {
  if (value === "") out.push(required(at));
  else for (const m of isPathSegmentName(value)) out.push(invalid(at, value, m));
}

/** An API group, checked when present: a DNS-1123 subdomain ("" fails). */
export function validateApiGroup(value: string, at: FieldPath, out: FieldError[]): void {
  for (const m of isDns1123Subdomain(value)) out.push(invalid(at, value, m));
}
