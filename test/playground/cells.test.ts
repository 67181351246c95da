// The Reach grid's kinds of cell: one per pair of direction verdicts, each with its own glyph and
// words. Their colours against the heatmap's are in colours.test.ts.
import { describe, expect, it } from "vitest";
import { CELL_KINDS, cellKind, type CellKind } from "../../src/playground/cells.js";

describe("cellKind and CELL_KINDS", () => {
  it("names each cell's kind from its two directions", () => {
    expect(cellKind(true, true)).toBe("allow");
    expect(cellKind(false, true)).toBe("deny-egress");
    expect(cellKind(true, false)).toBe("deny-ingress");
    expect(cellKind(false, false)).toBe("deny-both");
    expect(new Set(Object.values(CELL_KINDS).map((k) => k.words)).size).toBe(4);
  });

  it("has one look per kind, in the legend's order, each glyph and its words its own, and cannot be changed", () => {
    const kinds: CellKind[] = ["allow", "deny-egress", "deny-ingress", "deny-both"];
    expect(Object.keys(CELL_KINDS)).toEqual(kinds);
    const glyphs = Object.values(CELL_KINDS).map((k) => k.glyph);
    expect(new Set(glyphs).size).toBe(kinds.length);
    expect(glyphs.every((g) => g.trim() !== "")).toBe(true);
    expect(Object.isFrozen(CELL_KINDS)).toBe(true);
    // Every kind is reached from some pair of verdicts, and each pair names a kind that has a look.
    const reached = [true, false].flatMap((e) => [true, false].map((i) => cellKind(e, i)));
    expect(new Set(reached)).toEqual(new Set(kinds));
  });
});
