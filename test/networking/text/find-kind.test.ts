// Which top-level keys the API server's first look at a body reads as kind or apiVersion.
import { describe, expect, it } from "vitest";
import { findKindField } from "../../../src/networking/text/find-kind.js";

describe("findKindField", () => {
  it("matches the two names in any case, and through the two non-ASCII letters that fold onto ASCII", () => {
    for (const k of ["kind", "Kind", "KIND", "kInD", "\u212aind"]) expect(findKindField(k), k).toBe("kind");
    for (const k of ["apiVersion", "apiversion", "APIVERSION", "apiVer\u017fion"])
      expect(findKindField(k), k).toBe("apiVersion");
  });

  it("matches nothing else: other letters, dotted I, longer or shorter keys", () => {
    for (const k of ["kinds", "kin", "k\u0130nd", "k\u0131nd", "api_version", "", "metadata"])
      expect(findKindField(k), k).toBeUndefined();
  });
});
