// The building blocks for label and annotation keys, values and maps, and label selectors
// (src/testing/building-blocks/labels.ts), held to fast-check's quality checks (../quality.ts)
// against the contracts of ../contracts.ts.

import { describe, it } from "vitest";
import * as labels from "../../../src/testing/building-blocks/labels.js";
import { checkEntries, entry, expectCatalogued } from "../catalogue.js";
import { QUALIFIED_NAME, isQualifiedName, isLabelValue, validInside, policyWith } from "../contracts.js";

const ENTRIES = [
  entry("arbLabelName", labels.arbLabelName(), (s) => s.length <= 63 && QUALIFIED_NAME.test(s)),
  entry("arbLabelKey", labels.arbLabelKey(), isQualifiedName),
  entry("arbLabelValue", labels.arbLabelValue(), isLabelValue),
  entry("arbAnnotationValue", labels.arbAnnotationValue(), (s) => typeof s === "string"),
  entry("arbAnnotations", labels.arbAnnotations(), (m) =>
    Object.keys(m).every((k) => isQualifiedName(k.toLowerCase())),
  ),
  entry("arbAnnotationKey", labels.arbAnnotationKey(), (s) => isQualifiedName(s.toLowerCase())),
  entry("arbLabels", labels.arbLabels(), (m) =>
    Object.entries(m).every(([k, v]) => isQualifiedName(k) && isLabelValue(v)),
  ),
  entry(
    "arbLabelSelector",
    labels.arbLabelSelector(),
    validInside((s) => policyWith({ podSelector: s })),
  ),
  entry(
    "arbLabelSelectorRequirement",
    labels.arbLabelSelectorRequirement(),
    validInside((r) => policyWith({ podSelector: { matchExpressions: [r] } })),
  ),
];

describe("building blocks: label and annotation keys, values and maps, and label selectors", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of labels.ts is in the catalogue above", () => {
    expectCatalogued(labels, ENTRIES);
  });
});
