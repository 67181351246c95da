// Labels, annotations and label selectors valid for the API server (as
// src/networking/validation implements its rules): qualified names and keys, label values,
// annotation keys (in any case) and values, maps of them, and selectors with all four operators.

import fc from "fast-check";
import type { JsonObject } from "../../networking/index.js";
import { arbDns1123Subdomain } from "./names.js";
import { DIGIT, LOWER, UPPER, lengthMix } from "./text.js";

const LABEL_NAME_SET = LOWER + UPPER + DIGIT + "-_.";

/**
 * Qualified-name part / label value body: `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, <= 63.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelName } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabelName(), 3));
 * ```
 */
export function arbLabelName(): fc.Arbitrary<string> {
  return lengthMix(LABEL_NAME_SET, 1, 63).map((s) => s.replace(/^[-_.]/, "a").replace(/[-_.]$/, "z"));
}

/**
 * Label key: a name, or a DNS-1123 subdomain prefix, `/` and a name.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelKey } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabelKey(), 3));
 * ```
 */
export function arbLabelKey(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: arbLabelName() },
    { weight: 1, arbitrary: fc.tuple(arbDns1123Subdomain(), arbLabelName()).map(([p, n]) => `${p}/${n}`) },
  );
}

/**
 * Label value: empty, or a label name (<= 63).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelValue } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabelValue(), 3));
 * ```
 */
export function arbLabelValue(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant("") }, { weight: 4, arbitrary: arbLabelName() });
}

/**
 * Annotation key: a label key, sometimes upper-cased (the API server lower-cases keys before checking).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAnnotationKey } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbAnnotationKey(), 3));
 * ```
 */
export function arbAnnotationKey(): fc.Arbitrary<string> {
  return fc.tuple(arbLabelKey(), fc.nat(3)).map(([k, n]) => (n === 0 ? k.toUpperCase() : k));
}

/**
 * Any annotation value: values are not validated (only the total size).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAnnotationValue } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbAnnotationValue(), 3));
 * ```
 */
export function arbAnnotationValue(): fc.Arbitrary<string> {
  return fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 8 }));
}

function arbMap(
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<string>,
  maxSize: number,
): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(fc.tuple(key, value), { maxLength: maxSize, selector: ([k]) => k })
    .map((entries) => Object.fromEntries(entries) as Record<string, string>);
}

/**
 * Label maps of up to `maxSize` entries, with keys and values the API server accepts.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabels } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbLabels(5), 3));
 * ```
 */
export function arbLabels(maxSize = 3): fc.Arbitrary<Record<string, string>> {
  return arbMap(arbLabelKey(), arbLabelValue(), maxSize);
}

/**
 * Annotations; keys are unique after lower-casing, as a Go map would need for the JSON key set to matter.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAnnotations } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbAnnotations(5), 3));
 * ```
 */
export function arbAnnotations(maxSize = 3): fc.Arbitrary<Record<string, string>> {
  return fc
    .uniqueArray(fc.tuple(arbAnnotationKey(), arbAnnotationValue()), { maxLength: maxSize, selector: ([k]) => k })
    .map((entries) => Object.fromEntries(entries) as Record<string, string>);
}

/**
 * The operators of a label selector requirement.
 *
 * @example
 * ```ts
 * import { SELECTOR_OPERATORS } from "clusterwire/testing";
 *
 * console.log(SELECTOR_OPERATORS); // [ "In", "NotIn", "Exists", "DoesNotExist" ]
 * ```
 */
export const SELECTOR_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;

/**
 * A valid matchExpressions entry, all four operators used correctly.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelSelectorRequirement, SELECTOR_OPERATORS } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbLabelSelectorRequirement(), (r) => SELECTOR_OPERATORS.includes(r["operator"] as never)));
 * ```
 */
export function arbLabelSelectorRequirement(): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    fc
      .record({
        key: arbLabelKey(),
        operator: fc.constantFrom("In", "NotIn"),
        values: fc.array(arbLabelValue(), { minLength: 1, maxLength: 3 }),
      })
      .map((r) => r as unknown as JsonObject),
    fc
      .tuple(arbLabelKey(), fc.constantFrom("Exists", "DoesNotExist"), fc.boolean())
      .map(([key, operator, emptyValues]) => (emptyValues ? { key, operator, values: [] } : { key, operator })),
  );
}

/**
 * A valid label selector; `{}` (select everything) included.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLabelSelector } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbLabelSelector(), (selector) => "matchLabels" in selector || "matchExpressions" in selector || Object.keys(selector).length === 0));
 * ```
 */
export function arbLabelSelector(): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      { matchLabels: arbLabels(3), matchExpressions: fc.array(arbLabelSelectorRequirement(), { maxLength: 3 }) },
      { requiredKeys: [] },
    )
    .map((r) => r as unknown as JsonObject);
}
