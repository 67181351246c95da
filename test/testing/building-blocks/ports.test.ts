// The building blocks for port numbers, ranges and names (src/testing/building-blocks/ports.ts),
// held to fast-check's quality checks (../quality.ts) against the contracts of ../contracts.ts.

import { describe, it } from "vitest";
import * as ports from "../../../src/testing/building-blocks/ports.js";
import { checkEntries, entry, expectCatalogued } from "../catalogue.js";
import { isPortName } from "../contracts.js";

const ENTRIES = [
  entry("arbPortNumber", ports.arbPortNumber(), (n) => Number.isInteger(n) && n >= 1 && n <= 65535, { size: (n) => n }),
  entry(
    "arbPortRange",
    ports.arbPortRange(),
    ([a, b]) => Number.isInteger(a) && Number.isInteger(b) && a >= 1 && a <= b && b <= 65535,
    { size: ([a, b]) => a + b },
  ),
  entry("arbPortName", ports.arbPortName(), isPortName),
];

describe("building blocks: port numbers, ranges and names", () => {
  checkEntries(ENTRIES);

  it("every arbitrary of ports.ts is in the catalogue above", () => {
    expectCatalogued(ports, ENTRIES);
  });
});
