// The building blocks for Ingress HTTP paths and path segment names
// (src/testing/building-blocks/paths.ts), held to fast-check's quality checks (../quality.ts)
// against the contracts of ../contracts.ts.

import { describe, it } from "vitest";
import * as paths from "../../../src/testing/building-blocks/paths.js";
import { checkEntries, entry, expectCatalogued } from "../catalogue.js";
import { checkArbitraryQuality } from "../quality.js";
import { isExactOrPrefixPath } from "../contracts.js";

const ENTRIES = [
  entry("arbAbsolutePath", paths.arbAbsolutePath(), isExactOrPrefixPath),
  entry(
    "arbPathSegmentName",
    paths.arbPathSegmentName(),
    (s) => s !== "" && s !== "." && s !== ".." && !s.includes("/") && !s.includes("%"),
  ),
  entry("arbImplementationSpecificPath", paths.arbImplementationSpecificPath(), (s) => s === "" || s.startsWith("/")),
];

describe("building blocks: Ingress HTTP paths and path segment names", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of paths.ts is in the catalogue above", () => {
    expectCatalogued(paths, ENTRIES);
  });

  it("arbPathSegment (the segments of arbAbsolutePath): never . or .., no slash, no %2f in any case", () => {
    checkArbitraryQuality(paths.arbPathSegment(), {
      contract: (s) => s.length >= 1 && s.length <= 9 && s !== "." && s !== ".." && !s.includes("/") && !/%2f/i.test(s),
    });
  });
});
