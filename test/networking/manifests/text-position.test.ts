// Places in a manifest text (src/networking/manifests/text-position.ts): an offset's line and
// column (UTF-16 units, as editors count), the line a document's content starts at, and a YAML
// error of one document placed in the whole text.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "../../../src/networking/index.js";
import { propertyRuns } from "../../support/property-runs.js";
import { firstContentLine, lineStarts, positionIn, shifted } from "../../../src/networking/manifests/text-position.js";

describe("lineStarts and positionIn", () => {
  it("the offset each line starts at, and an offset's 1-based line and column", () => {
    const text = "a: 1\n\nb: 日本\nc";
    const starts = lineStarts(text);
    expect(starts).toEqual([0, 5, 6, 12]);
    expect(positionIn(starts, 0)).toEqual({ line: 1, column: 1 });
    expect(positionIn(starts, 4)).toEqual({ line: 1, column: 5 });
    expect(positionIn(starts, 5)).toEqual({ line: 2, column: 1 });
    expect(positionIn(starts, text.indexOf("本"))).toEqual({ line: 3, column: 5 });
    expect(positionIn(starts, text.length)).toEqual({ line: 4, column: 2 });
    // Every offset agrees with a count from the start.
    for (let offset = 0; offset <= text.length; offset++) {
      const before = text.slice(0, offset).split("\n");
      expect(positionIn(starts, offset)).toEqual({ line: before.length, column: before.at(-1)!.length + 1 });
    }
  });
});

describe("firstContentLine", () => {
  it("skips blank lines, comments, directives and a leading --- line, counting from the document's line", () => {
    expect(firstContentLine("\n# c\n%YAML 1.1\n---\n  \nkind: Ingress\n", 10)).toBe(15);
    expect(firstContentLine("kind: Ingress\n", 3)).toBe(3);
    // A --- line that runs on past a lone CR holds content after it.
    expect(firstContentLine("--- \rkind: x\n", 1)).toBe(1);
    expect(firstContentLine("# only a comment\n", 7)).toBe(7);
    // Only the first 200 lines are looked at.
    expect(firstContentLine(`${"\n".repeat(199)}kind: x\n`, 1)).toBe(200);
    expect(firstContentLine(`${"\n".repeat(200)}kind: x\n`, 1)).toBe(1);
  });

  it("property: the line a reading of the first 200 lines split at LF finds", () => {
    // The reference: the lines cut by split, as firstContentLine read them before it was hand-written for speed.
    const reference = (text: string, line: number): number => {
      let n = line;
      for (const l of text.split("\n", 200)) {
        const separator = l.startsWith("---") && !/\r./.test(l);
        if (!/^\s*(#.*)?\r?$/.test(l) && !l.startsWith("%") && !separator) return n;
        n++;
      }
      return line;
    };
    const piece = fc.constantFrom(
      "",
      "\n",
      "\r",
      "\r\n",
      " ",
      "\t",
      "#",
      "# c",
      "---",
      "--- x",
      "%YAML 1.1",
      "kind: x",
      "a",
      "\u2028",
    );
    const text = fc.oneof(
      fc.array(piece, { maxLength: 30 }).map((p) => p.join("")),
      fc.integer({ min: 195, max: 205 }).map((n) => `${"# c\n".repeat(n)}kind: x\n`),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 50 }), (t, line) => {
        expect(firstContentLine(t, line)).toBe(reference(t, line));
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});

describe("shifted", () => {
  it("moves a document's YAML error to its place in the whole text, keeping reason, path and column", () => {
    const e = new DecodeError("yaml", "bad", { line: 2, column: 4, offset: 9, path: "spec", segments: ["spec"] });
    const moved = shifted(e, 11, 100, 3);
    expect([moved.format, moved.reason, moved.line, moved.column, moved.offset, moved.path, moved.document]).toEqual([
      "yaml",
      "bad",
      12,
      4,
      109,
      "spec",
      3,
    ]);
    expect(moved.segments).toEqual(["spec"]);
    const bare = shifted(new DecodeError("yaml", "bad"), 11, 100, undefined);
    expect([bare.line, bare.offset, bare.document]).toEqual([undefined, undefined, undefined]);
  });
});
