// Label maps and label selectors as the API server checks them (apimachinery
// meta/v1 validation). The evaluators reuse this module for matching.

import type {
  LabelSelector,
  LabelSelectorRequirement,
} from "../../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import type { FieldPath } from "../../model/path.js";
import { goJson, forbidden, invalid, required, type FieldError } from "../field-error.js";
import { isLabelKey, isLabelValue, labelKeyIsValid, labelValueIsValid } from "./names.js";

export const SELECTOR_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;
export type SelectorOperator = (typeof SELECTOR_OPERATORS)[number];

export interface LabelSelectorValidationOptions {
  /** The update ratchet: skip matchExpressions value checks (old object already had bad values). */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

/** A label key, reported at `at` (ValidateLabelName). */
export function validateLabelName(key: string, at: FieldPath, out: FieldError[]): void {
  if (labelKeyIsValid(key)) return;
  const msgs = isLabelKey(key);
  for (const m of msgs) out.push(invalid(at, key, m));
}

/**
 * A label map at `parent.child(field)`; errors are reported on the map's own
 * path, not the key's, which is built only when there is one.
 */
export function validateLabels(
  labels: { readonly [k: string]: string },
  parent: FieldPath,
  field: string,
  out: FieldError[],
): void {
  let at: FieldPath | undefined;
  for (const k in labels) {
    const v = labels[k]!;
    if (labelKeyIsValid(k) && labelValueIsValid(v)) continue;
    at ??= parent.child(field);
    validateLabelName(k, at, out);
    for (const m of isLabelValue(v)) out.push(invalid(at, v, m));
  }
}

/** A selector at `parent.child(field)`, a path built only when the selector has something to check. */
export function validateLabelSelector(
  selector: LabelSelector | undefined,
  options: LabelSelectorValidationOptions,
  parent: FieldPath,
  field: string,
  out: FieldError[],
): void {
  if (selector === undefined) return;
  const exprs = selector.matchExpressions;
  const labels = hasKeys(selector.matchLabels);
  if (!labels && exprs.length === 0) return;
  const at = parent.child(field);
  if (labels) validateLabels(selector.matchLabels, at, "matchLabels", out);
  if (exprs.length === 0) return;
  const base = at.child("matchExpressions");
  for (let i = 0; i < exprs.length; i++) validateRequirement(exprs[i]!, options, base.index(i), out);
}

function validateRequirement(
  r: LabelSelectorRequirement,
  options: LabelSelectorValidationOptions,
  at: FieldPath,
  out: FieldError[],
): void {
  switch (r.operator) {
    case "In":
    case "NotIn":
      if (r.values.length === 0)
        out.push(required(at.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case "Exists":
    case "DoesNotExist":
      if (r.values.length > 0) {
        out.push(forbidden(at.child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      break;
    default:
      // A LabelSelectorOperator, a named string type: printed through encoding/json, not %q.
      out.push(invalid(at.child("operator"), r.operator, "not a valid selector operator", goJson(r.operator)));
  }
  validateLabelName(r.key, at.child("key"), out);
  if (options.allowInvalidLabelValueInSelector === true) return;
  for (let i = 0; i < r.values.length; i++) {
    const v = r.values[i]!;
    if (labelValueIsValid(v)) continue;
    const msgs = isLabelValue(v);
    if (msgs.length === 0) continue;
    const vp = at.child("values").index(i);
    for (const m of msgs) out.push(invalid(vp, v, m));
  }
}

/**
 * Whether validateLabelSelector would report nothing, without building a
 * path: a valid selector, the common case, skips it. The tests hold the two
 * to each other.
 */
export function labelSelectorIsValid(
  selector: LabelSelector | undefined,
  options: LabelSelectorValidationOptions,
): boolean {
  if (selector === undefined) return true;
  const labels = selector.matchLabels;
  for (const k in labels) if (!labelKeyIsValid(k) || !labelValueIsValid(labels[k]!)) return false;
  const exprs = selector.matchExpressions;
  for (let i = 0; i < exprs.length; i++) {
    const r = exprs[i]!;
    const values = r.values;
    switch (r.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) return false;
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) return false;
        break;
      default:
        return false;
    }
    if (!labelKeyIsValid(r.key)) return false;
    if (options.allowInvalidLabelValueInSelector === true) continue;
    for (let j = 0; j < values.length; j++) if (!labelValueIsValid(values[j]!)) return false;
  }
  return true;
}

/** Whether a selector has any validation errors (used by the update ratchet). */
export function labelSelectorHasErrors(selector: LabelSelector | undefined, parent: FieldPath, field: string): boolean {
  const out: FieldError[] = [];
  validateLabelSelector(selector, {}, parent, field, out);
  return out.length > 0;
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

// ------------------------------------------------------------------ matching

/** Labels as the evaluators see them: a plain string map. */
export type Labels = Readonly<Record<string, string>>;

/** A compiled selector: true when the labels satisfy it. */
export type LabelMatcher = (labels: Labels) => boolean;

const MATCH_ALL: LabelMatcher = () => true;
const MATCH_NONE: LabelMatcher = () => false;

/**
 * Compiles a label selector for matching (E10 of docs/network-policy.md): matchLabels and every
 * requirement are ANDed; an empty selector matches everything. NotIn and
 * DoesNotExist hold when the key is missing. Only own properties of `labels`
 * count, so a label map can never match through Object.prototype.
 *
 * The selector is assumed valid; an operator validation would reject matches
 * nothing, so an invalid selector can never widen a match.
 */
export function compileLabelSelector(selector: LabelSelector): LabelMatcher {
  const checks: LabelMatcher[] = [];
  for (const key of Object.keys(selector.matchLabels)) {
    const want = selector.matchLabels[key]!;
    checks.push((l) => Object.hasOwn(l, key) && l[key] === want);
  }
  for (const r of selector.matchExpressions) checks.push(compileRequirement(r));
  if (checks.length === 0) return MATCH_ALL;
  if (checks.length === 1) return checks[0]!;
  return (l) => {
    for (const c of checks) if (!c(l)) return false;
    return true;
  };
}

function compileRequirement(r: LabelSelectorRequirement): LabelMatcher {
  const key = r.key;
  switch (r.operator) {
    case "In": {
      const values = new Set(r.values);
      return (l) => Object.hasOwn(l, key) && values.has(l[key]!);
    }
    case "NotIn": {
      const values = new Set(r.values);
      return (l) => !Object.hasOwn(l, key) || !values.has(l[key]!);
    }
    case "Exists":
      return (l) => Object.hasOwn(l, key);
    case "DoesNotExist":
      return (l) => !Object.hasOwn(l, key);
    default:
      return MATCH_NONE;
  }
}

/** Whether a selector is empty, i.e. matches everything in its scope. */
export function labelSelectorIsEmpty(selector: LabelSelector): boolean {
  return selector.matchExpressions.length === 0 && !hasKeys(selector.matchLabels);
}
