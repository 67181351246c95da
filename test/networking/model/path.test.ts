import { describe, expect, it } from "vitest";
import { FieldPath, renderPath } from "../../../src/networking/model/path.js";

describe("FieldPath", () => {
  it("collects its segments from the root down", () => {
    const p = FieldPath.root("spec").child("rules").index(0).child("http").child("paths").index(12).child("backend");
    expect(p.segments()).toEqual(["spec", "rules", 0, "http", "paths", 12, "backend"]);
    expect(p.segment).toBe("backend");
    expect(p.parent?.segment).toBe(12);
    expect(FieldPath.root("metadata").segments()).toEqual(["metadata"]);
    expect(FieldPath.root("metadata").parent).toBeUndefined();
  });

  it("never changes: children share their parent, siblings do not see each other", () => {
    const spec = FieldPath.root("spec");
    const a = spec.child("a");
    const b = spec.child("b").index(3);
    expect(a.parent).toBe(spec);
    expect(spec.segments()).toEqual(["spec"]);
    expect(a.segments()).toEqual(["spec", "a"]);
    expect(b.segments()).toEqual(["spec", "b", 3]);
    // segments() returns a fresh array each time.
    const s = a.segments();
    s.push("x");
    expect(a.segments()).toEqual(["spec", "a"]);
  });
});

describe("renderPath (field.Path.String())", () => {
  it("joins names with dots and writes indexes in brackets", () => {
    expect(renderPath(["spec", "rules", 0, "host"])).toBe("spec.rules[0].host");
    expect(renderPath(["spec", "ingress", 0, "from", 1, "ipBlock", "except", 2])).toBe(
      "spec.ingress[0].from[1].ipBlock.except[2]",
    );
    expect(renderPath(["items", 3, "metadata", "name"])).toBe("items[3].metadata.name");
    expect(renderPath(["a", 0, 1])).toBe("a[0][1]");
  });

  it("handles the edges: nothing, a lone index, keys with dots or brackets (written as they are)", () => {
    expect(renderPath([])).toBe("");
    expect(renderPath([7])).toBe("[7]");
    expect(renderPath([0, "a"])).toBe("[0].a");
    expect(renderPath(["metadata", "labels", "app.kubernetes.io/name"])).toBe("metadata.labels.app.kubernetes.io/name");
    expect(renderPath(["x", "[1]"])).toBe("x.[1]");
  });

  it("renders what FieldPath.segments() collects", () => {
    const p = FieldPath.root("spec").child("rules").index(1).child("host");
    expect(renderPath(p.segments())).toBe("spec.rules[1].host");
  });
});
