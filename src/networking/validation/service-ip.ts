// IPAddress and ServiceCIDR rules as the API server checks them: the two
// kinds behind the Service IP allocator.

import type { IPAddress, ParentReference, ServiceCIDR } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { METADATA, SPEC } from "./paths.js";
import { coveredByDeclarative, goJson, goJsonStrings, invalid, required, type FieldError } from "./field-error.js";
import { ipFamilyOfCIDRString, isValidCIDR, isValidIP } from "./rules/ip.js";
import { isPathSegmentName, nameIsDnsSubdomain } from "./rules/names.js";
import { validateApiGroup, validateRequiredSegment } from "./rules/references.js";
import { FIELD_IMMUTABLE, validateObjectMeta, validateObjectMetaUpdate } from "./rules/object-meta.js";

// An IPAddress is named after its address, in canonical form; there is no generateName for it.
const ipAddressName = (name: string): readonly string[] => isValidIP(name);

/** ValidateIPAddress (create); `namespace` as validateObjectMeta takes it. */
export function validateIPAddress(ip: IPAddress, out: FieldError[], namespace?: string): void {
  validateObjectMeta(ip.metadata, false, ipAddressName, METADATA, out, true, namespace);
  const at = SPEC;
  const ref = ip.spec?.parentRef;
  if (ref === undefined) {
    out.push(coveredByDeclarative(required(at.child("parentRef"))));
    return;
  }
  const rp = at.child("parentRef");
  // The core group of Services is "", so group cannot be required.
  if (ref.group !== "") validateApiGroup(ref.group, rp, "group", out);
  validateRequiredSegment(ref.resource, rp, "resource", out, true);
  validateRequiredSegment(ref.name, rp, "name", out, true);
  if (ref.namespace !== "") {
    for (const m of isPathSegmentName(ref.namespace)) out.push(invalid(rp.child("namespace"), ref.namespace, m));
  }
}

/** The strategy's update validation: the create rules, then metadata update and the immutable parentRef. */
export function validateIPAddressUpdate(ip: IPAddress, old: IPAddress, out: FieldError[]): void {
  validateIPAddress(ip, out);
  validateObjectMetaUpdate(ip.metadata, old.metadata, METADATA, out);
  const ref = ip.spec?.parentRef;
  if (!sameParentRef(ref, old.spec?.parentRef)) {
    const e = invalid(SPEC.child("parentRef"), parentRefJson(ref), FIELD_IMMUTABLE, goParentRef(ref));
    // Declarative validation checks immutability only of a parentRef that is set, and prints no value.
    out.push(ref === undefined ? e : coveredByDeclarative(e, "null"));
  }
}

/** ValidateServiceCIDR (create); `namespace` as validateObjectMeta takes it. */
export function validateServiceCIDR(sc: ServiceCIDR, out: FieldError[], namespace?: string): void {
  validateObjectMeta(sc.metadata, false, nameIsDnsSubdomain, METADATA, out, true, namespace);
  validateServiceCIDRSpec(sc.spec?.cidrs ?? [], out);
}

function validateServiceCIDRSpec(cidrs: readonly string[], out: FieldError[]): void {
  const at = SPEC.child("cidrs");
  if (cidrs.length === 0) {
    out.push(required(at, "at least one CIDR required"));
    return;
  }
  if (cidrs.length > 2) {
    out.push(invalid(at, { cidrs: [...cidrs] }, "may only hold up to 2 values", goJson({ CIDRs: cidrs })));
    return;
  }
  for (let i = 0; i < cidrs.length; i++)
    for (const m of isValidCIDR(cidrs[i]!)) out.push(invalid(at.index(i), cidrs[i]!, m));
  if (cidrs.length === 2) {
    const a = ipFamilyOfCIDRString(cidrs[0]!);
    if (a !== undefined && a === ipFamilyOfCIDRString(cidrs[1]!)) {
      out.push(
        invalid(
          at,
          [...cidrs],
          "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
          goJson(cidrs),
        ),
      );
    }
  }
}

/** The strategy's update validation: ValidateServiceCIDRUpdate alone (the create rules do not run again). */
export function validateServiceCIDRUpdate(sc: ServiceCIDR, old: ServiceCIDR, out: FieldError[]): void {
  validateObjectMetaUpdate(sc.metadata, old.metadata, METADATA, out);
  const now = sc.spec?.cidrs ?? [];
  const before = old.spec?.cidrs ?? [];
  const at = SPEC.child("cidrs");
  if (before.length === now.length) {
    for (let i = 0; i < before.length; i++)
      if (before[i] !== now[i]) out.push(invalid(at.index(i), now[i]!, FIELD_IMMUTABLE));
  } else if (before.length === 1 && now.length === 2) {
    // Going dual-stack: the existing CIDR stays, the added one is checked.
    if (now[0] !== before[0]) out.push(invalid(at.index(0), now[0]!, FIELD_IMMUTABLE));
    validateServiceCIDRSpec(now, out);
  } else {
    out.push(invalid(at, [...now], FIELD_IMMUTABLE, goJsonStrings(now)));
  }
}

/** ValidateServiceCIDRStatusUpdate: only the metadata rules. */
export function validateServiceCIDRStatusUpdate(sc: ServiceCIDR, old: ServiceCIDR, out: FieldError[]): void {
  validateObjectMetaUpdate(sc.metadata, old.metadata, METADATA, out);
}

function sameParentRef(a: ParentReference | undefined, b: ParentReference | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.group === b.group && a.resource === b.resource && a.namespace === b.namespace && a.name === b.name;
}

function parentRefJson(r: ParentReference | undefined): { readonly [k: string]: string } | null {
  if (r === undefined) return null;
  const o: { [k: string]: string } = {};
  if (r.group !== "") o["group"] = r.group;
  o["resource"] = r.resource;
  if (r.namespace !== "") o["namespace"] = r.namespace;
  o["name"] = r.name;
  return o;
}

// The internal networking.ParentReference, as json.Marshal writes it (no json tags: Go's field names).
function goParentRef(r: ParentReference | undefined): string {
  if (r === undefined) return "null";
  return goJson({ Group: r.group, Resource: r.resource, Namespace: r.namespace, Name: r.name });
}
