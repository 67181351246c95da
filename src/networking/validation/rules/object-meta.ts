// ObjectMeta checks on create and update (apimachinery api/validation plus
// the core wrapper's finalizer rule).

import type { ObjectMeta, OwnerReference, Time } from "../../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { FieldPath } from "../../model/path.js";
import { formatRfc3339 } from "../../model/time.js";
import {
  forbidden,
  goJson,
  goJsonStrings,
  goStringSlice,
  invalid,
  required,
  tooLong,
  type FieldError,
} from "../field-error.js";
import { validateLabelName, validateLabels } from "./label-selector.js";
import {
  dns1123LabelIsValid,
  dns1123SubdomainIsValid,
  isLabelKey,
  isPathSegmentName,
  isPathSegmentPrefix,
  labelKeyIsValid,
  nameIsDnsLabel,
  nameIsDnsSubdomain,
  utf8Length,
} from "./names.js";

/** A name rule: returns upstream's messages; `prefix` is true for generateName. */
export type NameValidator = (name: string, prefix: boolean) => readonly string[];

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
export const FIELD_IMMUTABLE = "field is immutable";

const STANDARD_FINALIZERS = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/**
 * ValidateObjectMeta: the create-time metadata rules. `core` adds the core
 * wrapper's finalizer rule, which the generic registry's own check lacks.
 * `namespace`, when given, stands for `metadata.namespace`: the value the
 * registry's preparation gives it, without copying the object to set it.
 */
export function validateObjectMeta(
  meta: ObjectMeta | undefined,
  namespaced: boolean,
  nameFn: NameValidator,
  at: FieldPath,
  out: FieldError[],
  core = true,
  namespace?: string,
): void {
  const m = meta ?? EMPTY_META;
  const ns = namespace ?? m.namespace;
  // The common create: a valid name, no generateName, a valid namespace (or
  // none on a cluster-scoped kind). Checked with the boolean forms, which
  // build no message arrays; anything else takes the reporting path below.
  if (
    m.generateName.length === 0 &&
    m.generation >= 0n &&
    (namespaced ? ns.length > 0 && dns1123LabelIsValid(ns) : ns.length === 0) &&
    m.name.length > 0 &&
    (nameFn === nameIsDnsSubdomain ? dns1123SubdomainIsValid(m.name) : nameFn(m.name, false).length === 0)
  ) {
    validateCommon(m, at, out, core);
    return;
  }
  if (m.generateName.length > 0) {
    for (const msg of nameFn(m.generateName, true)) out.push(invalid(at.child("generateName"), m.generateName, msg));
  }
  if (m.name.length === 0) out.push(required(at.child("name"), "name or generateName is required"));
  else for (const msg of nameFn(m.name, false)) out.push(invalid(at.child("name"), m.name, msg));
  if (namespaced) {
    if (ns.length === 0) out.push(required(at.child("namespace")));
    else for (const msg of nameIsDnsLabel(ns, false)) out.push(invalid(at.child("namespace"), ns, msg));
  } else if (ns.length > 0) {
    out.push(forbidden(at.child("namespace"), "not allowed on this type"));
  }
  if (m.generation < 0n) out.push(invalid(at.child("generation"), m.generation, "must be greater than or equal to 0"));
  validateCommon(m, at, out, core);
}

/** ValidateObjectMetaUpdate: immutability and the rules that still apply on update; `core` as above. */
export function validateObjectMetaUpdate(
  meta: ObjectMeta | undefined,
  oldMeta: ObjectMeta | undefined,
  at: FieldPath,
  out: FieldError[],
  core = true,
): void {
  const m = meta ?? EMPTY_META;
  const o = oldMeta ?? EMPTY_META;
  if (o.deletionTimestamp !== undefined) {
    const old = new Set(o.finalizers);
    const extra = [...new Set(m.finalizers)].filter((f) => !old.has(f)).sort();
    if (extra.length > 0) {
      out.push(
        forbidden(
          at.child("finalizers"),
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice("[]string", extra)}`,
        ),
      );
    }
  }
  if (m.resourceVersion.length === 0) {
    out.push(invalid(at.child("resourceVersion"), m.resourceVersion, "must be specified for an update"));
  }
  if (m.generation < o.generation) out.push(invalid(at.child("generation"), m.generation, "must not be decremented"));
  if (m.name !== o.name) out.push(invalid(at.child("name"), m.name, FIELD_IMMUTABLE));
  if (m.namespace !== o.namespace) out.push(invalid(at.child("namespace"), m.namespace, FIELD_IMMUTABLE));
  if (m.uid !== o.uid) out.push(invalid(at.child("uid"), m.uid, FIELD_IMMUTABLE));
  if (!sameTime(m.creationTimestamp, o.creationTimestamp)) {
    out.push(
      invalid(
        at.child("creationTimestamp"),
        timeValue(m.creationTimestamp),
        FIELD_IMMUTABLE,
        goTime(m.creationTimestamp),
      ),
    );
  }
  if (!sameTime(m.deletionTimestamp, o.deletionTimestamp)) {
    out.push(
      invalid(
        at.child("deletionTimestamp"),
        timeValue(m.deletionTimestamp),
        FIELD_IMMUTABLE,
        goTime(m.deletionTimestamp),
      ),
    );
  }
  const grace = gracePeriod(m);
  if (grace !== gracePeriod(o)) {
    out.push(invalid(at.child("deletionGracePeriodSeconds"), grace ?? null, FIELD_IMMUTABLE));
  }
  // Update re-checks labels, annotations and owners, but finalizers only by the core rule.
  validateLabelsAnnotationsOwners(m, at, out);
  if (core) validateKubeFinalizerNames(m.finalizers, at.child("finalizers"), out);
}

/**
 * The generic registry's validateCommonFields, which runs on every update
 * before the kind's own update rules: the create-time metadata rules with
 * path-segment names, then the update rules, neither with the core
 * finalizer rule. So metadata errors are reported more than once on update,
 * as the API server does.
 */
export function validateCommonFieldsForUpdate(
  meta: ObjectMeta | undefined,
  oldMeta: ObjectMeta | undefined,
  namespaced: boolean,
  out: FieldError[],
): void {
  const at = FieldPath.root("metadata");
  validateObjectMeta(meta, namespaced, pathSegmentName, at, out, false);
  validateObjectMetaUpdate(meta, oldMeta, at, out, false);
}

// path.ValidatePathSegmentName: generateName is checked as a prefix.
function pathSegmentName(name: string, prefix: boolean): readonly string[] {
  return prefix ? isPathSegmentPrefix(name) : isPathSegmentName(name);
}

/**
 * What the generic registry does to metadata before update validation:
 * generation, creationTimestamp and the deletion fields come from storage, an
 * empty uid takes the stored one, and an unconditional update (no
 * resourceVersion) is given the stored version.
 */
export function prepareMetaForUpdate(meta: ObjectMeta, old: ObjectMeta): void {
  meta.generation = old.generation;
  if (meta.uid.length === 0) meta.uid = old.uid;
  if (meta.resourceVersion.length === 0) meta.resourceVersion = old.resourceVersion;
  if (old.creationTimestamp !== undefined) meta.creationTimestamp = old.creationTimestamp;
  if (old.deletionTimestamp !== undefined) meta.deletionTimestamp = old.deletionTimestamp;
  if (Object.hasOwn(old, "deletionGracePeriodSeconds") && !Object.hasOwn(meta, "deletionGracePeriodSeconds")) {
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  }
}

/** metav1.ResetObjectMetaForStatus: a status update cannot change these. */
export function resetMetaForStatus(meta: ObjectMeta, old: ObjectMeta): void {
  meta.deletionTimestamp = old.deletionTimestamp;
  meta.generation = old.generation;
  meta.selfLink = old.selfLink;
  meta.labels = old.labels;
  meta.annotations = old.annotations;
  meta.finalizers = old.finalizers;
  meta.ownerReferences = old.ownerReferences;
}

/** What the generic registry does to metadata before create validation. */
export function prepareMetaForCreate(meta: ObjectMeta): void {
  meta.deletionTimestamp = undefined;
  delete (meta as { deletionGracePeriodSeconds?: bigint }).deletionGracePeriodSeconds;
}

// The rules shared by create and update: labels, annotations, owners, finalizers.
// managedFields are owned by the server's field manager, which discards
// entries it cannot decode, so they are not checked here.
function validateCommon(m: ObjectMeta, at: FieldPath, out: FieldError[], core: boolean): void {
  validateLabelsAnnotationsOwners(m, at, out);
  if (m.finalizers.length > 0) validateFinalizers(m.finalizers, at.child("finalizers"), out, core);
}

function validateLabelsAnnotationsOwners(m: ObjectMeta, at: FieldPath, out: FieldError[]): void {
  validateLabels(m.labels, at, "labels", out);
  validateAnnotations(m.annotations, at, "annotations", out);
  if (m.ownerReferences.length > 0) validateOwnerReferences(m.ownerReferences, at.child("ownerReferences"), out);
}

/** Annotations at `parent.child(field)`, a path built only for an error. */
export function validateAnnotations(
  annotations: { readonly [k: string]: string },
  parent: FieldPath,
  field: string,
  out: FieldError[],
): void {
  let units = 0;
  for (const k in annotations) {
    // Annotation keys are label keys, except that case does not matter. A
    // key valid as written stays valid lower-cased, so only a failing key
    // pays for the lower-casing.
    if (!labelKeyIsValid(k)) {
      const at = parent.child(field);
      for (const msg of isLabelKey(k.toLowerCase())) out.push(invalid(at, k, msg));
    }
    units += k.length + annotations[k]!.length;
  }
  // A UTF-16 unit is at most three UTF-8 bytes: only count bytes when it could matter.
  if (units * 3 <= TOTAL_ANNOTATION_SIZE_LIMIT) return;
  let total = 0;
  for (const k in annotations) total += utf8Length(k) + utf8Length(annotations[k]!);
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) out.push(tooLong(parent.child(field), TOTAL_ANNOTATION_SIZE_LIMIT));
}

function validateOwnerReferences(refs: readonly OwnerReference[], at: FieldPath, out: FieldError[]): void {
  let firstController = "";
  for (const ref of refs) {
    const gv = parseGroupVersion(ref.apiVersion);
    if (gv === undefined || gv.version.length === 0) {
      out.push(invalid(at.child("apiVersion"), ref.apiVersion, "version must not be empty"));
    }
    if (ref.kind.length === 0) out.push(invalid(at.child("kind"), ref.kind, "must not be empty"));
    if (ref.name.length === 0) out.push(invalid(at.child("name"), ref.name, "must not be empty"));
    if (ref.uid.length === 0) out.push(invalid(at.child("uid"), ref.uid, "must not be empty"));
    if (gv !== undefined && gv.group === "" && gv.version === "v1" && ref.kind === "Event") {
      out.push(
        invalid(at, ownerJson(ref), "/v1, Kind=Event is disallowed from being an owner", goJson(ownerJson(ref))),
      );
    }
    if (Object.hasOwn(ref, "controller") && ref.controller) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController !== "") {
        out.push(
          invalid(
            at,
            refs.map(ownerJson),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
            goJson(refs.map(ownerJson)),
          ),
        );
      } else firstController = current;
    }
  }
}

function validateFinalizers(finalizers: readonly string[], at: FieldPath, out: FieldError[], core: boolean): void {
  let orphan = false;
  let foreground = false;
  for (const f of finalizers) {
    validateLabelName(f, at, out);
    if (f === "orphan") orphan = true;
    if (f === "foregroundDeletion") foreground = true;
  }
  if (orphan && foreground) {
    out.push(
      invalid(
        at,
        [...finalizers],
        "finalizer orphan and foregroundDeletion cannot be both set",
        goJsonStrings(finalizers),
      ),
    );
  }
  if (core) validateKubeFinalizerNames(finalizers, at, out);
}

// The core wrapper's extra rule: an unqualified name must be a standard one.
function validateKubeFinalizerNames(finalizers: readonly string[], at: FieldPath, out: FieldError[]): void {
  for (let i = 0; i < finalizers.length; i++) {
    const f = finalizers[i]!;
    if (!f.includes("/") && !STANDARD_FINALIZERS.has(f)) {
      out.push(invalid(at.index(i), f, "name is neither a standard finalizer name nor is it fully qualified"));
    }
  }
}

function parseGroupVersion(s: string): { group: string; version: string } | undefined {
  if (s.length === 0) return { group: "", version: "" };
  const slash = s.indexOf("/");
  if (slash < 0) return { group: "", version: s };
  if (s.indexOf("/", slash + 1) >= 0) return undefined;
  return { group: s.slice(0, slash), version: s.slice(slash + 1) };
}

function ownerJson(r: OwnerReference): { readonly [k: string]: string | boolean } {
  const o: { [k: string]: string | boolean } = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid };
  if (Object.hasOwn(r, "controller")) o["controller"] = r.controller;
  if (Object.hasOwn(r, "blockOwnerDeletion")) o["blockOwnerDeletion"] = r.blockOwnerDeletion;
  return o;
}

function sameTime(a: Time | undefined, b: Time | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.seconds === b.seconds && a.nanos === b.nanos;
}

function timeValue(t: Time | undefined): string | null {
  if (t === undefined) return null;
  return formatRfc3339(t.seconds);
}

// metav1.Time marshals as RFC 3339 in whole seconds (UTC), and a zero or nil time as null.
function goTime(t: Time | undefined): string {
  const v = timeValue(t);
  return v === null ? "null" : goJson(v);
}

function gracePeriod(m: ObjectMeta): bigint | undefined {
  return Object.hasOwn(m, "deletionGracePeriodSeconds") ? m.deletionGracePeriodSeconds : undefined;
}

const EMPTY_META: ObjectMeta = Object.freeze({
  $typeName: "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
  name: "",
  generateName: "",
  namespace: "",
  selfLink: "",
  uid: "",
  resourceVersion: "",
  generation: 0n,
  deletionGracePeriodSeconds: 0n,
  labels: {},
  annotations: {},
  ownerReferences: [],
  finalizers: [],
  managedFields: [],
}) as ObjectMeta;

const META_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta";

// What protobuf-es puts on a proto2 ObjectMeta's prototype: the scalar zero
// values, so that unset fields read as zero but are not own properties.
// Not frozen: assigning to a frozen prototype's property throws.
const META_ZERO = {
  name: "",
  generateName: "",
  namespace: "",
  selfLink: "",
  uid: "",
  resourceVersion: "",
  generation: 0n,
  deletionGracePeriodSeconds: 0n,
};

/**
 * A fresh, empty ObjectMeta shaped as `create(ObjectMetaSchema)` shapes one
 * (lists and maps own, scalars inherited), built without the generated
 * schema so that validation does not load the descriptors.
 */
export function emptyObjectMeta(): ObjectMeta {
  const m = Object.create(META_ZERO) as Record<string, unknown>;
  m["$typeName"] = META_TYPE;
  m["labels"] = {};
  m["annotations"] = {};
  m["ownerReferences"] = [];
  m["finalizers"] = [];
  m["managedFields"] = [];
  return m as unknown as ObjectMeta;
}

// names.SimpleNameGenerator: the prefix cut to 58 bytes, then five random
// characters. The characters are all valid in any name, so a fixed choice from
// the same alphabet gives the same verdict; it is deterministic on purpose.
const GENERATED_SUFFIX = "xxxxx";
export function generateName(base: string): string {
  const max = 63 - GENERATED_SUFFIX.length;
  return (base.length > max ? base.slice(0, max) : base) + GENERATED_SUFFIX;
}
