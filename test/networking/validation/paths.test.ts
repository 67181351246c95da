import { describe, expect, it } from "vitest";
import { FieldPath } from "../../../src/networking/model/path.js";
import { METADATA, SPEC } from "../../../src/networking/validation/paths.js";

describe("the validators' root paths", () => {
  it("are the roots metadata and spec", () => {
    expect(METADATA).toBeInstanceOf(FieldPath);
    expect(SPEC).toBeInstanceOf(FieldPath);
    expect(METADATA.segments()).toEqual(["metadata"]);
    expect(SPEC.segments()).toEqual(["spec"]);
    expect(METADATA.parent).toBeUndefined();
    expect(SPEC.parent).toBeUndefined();
  });

  it("stay roots when validators descend from them", () => {
    const name = METADATA.child("name");
    const rule = SPEC.child("rules").index(3);
    expect(name.segments()).toEqual(["metadata", "name"]);
    expect(rule.segments()).toEqual(["spec", "rules", 3]);
    expect(METADATA.segments()).toEqual(["metadata"]);
    expect(name.parent).toBe(METADATA);
  });
});
