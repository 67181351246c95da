// The valid-object generators for a release: objects valid for 1.37 pass 1.37's validation, where
// StrictIPCIDRValidation refuses the legacy spellings 1.35 takes; the default stays 1.35's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatFieldError, fromJson, validate } from "../../src/networking/index.js";
import { arbValidJson, VALIDATED_KINDS } from "../../src/testing/index.js";

describe("arbValidJson with a version", () => {
  for (const kind of VALIDATED_KINDS) {
    it(`${kind}: valid for 1.37 as 1.37 validates`, () => {
      for (const json of fc.sample(arbValidJson(kind, { version: "1.37" }), { numRuns: 300, seed: 37 })) {
        expect(validate(fromJson(json), { version: "1.37" }).map(formatFieldError)).toEqual([]);
      }
    });
  }

  it("the default (1.35) draws legacy CIDR spellings that 1.37 refuses, so the option matters", () => {
    const refused = fc
      .sample(arbValidJson("NetworkPolicy"), { numRuns: 500, seed: 35 })
      .filter((json) => validate(fromJson(json), { version: "1.37" }).length > 0);
    expect(refused.length).toBeGreaterThan(0);
    for (const json of fc.sample(arbValidJson("NetworkPolicy"), { numRuns: 300, seed: 35 })) {
      expect(validate(fromJson(json)).map(formatFieldError)).toEqual([]);
    }
  });
});
