import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError, splitYamlDocuments } from "../../../src/networking/index.js";

const texts = (s: string): string[] => splitYamlDocuments(s).map((d) => d.text);

describe("splitYamlDocuments: kubectl's YAMLReader rules", () => {
  it("cuts at a line that is --- and keeps each document's text, line and offset", () => {
    const s = "a: 1\nb: 2\n---\nc: 3\n---\nd: 4\n";
    expect(splitYamlDocuments(s)).toEqual([
      { text: "a: 1\nb: 2\n", line: 1, offset: 0 },
      { text: "c: 3\n", line: 4, offset: 14 },
      { text: "d: 4\n", line: 6, offset: 23 },
    ]);
    expect(s.slice(14, 18)).toBe("c: 3");
  });

  it("takes --- only at the start of a line", () => {
    expect(texts("a: ---\n ---\nb: |\n  ---x\n")).toEqual(["a: ---\n ---\nb: |\n  ---x\n"]);
    expect(texts("a: 1\n  ---\nb: 2\n")).toHaveLength(1);
  });

  it("allows spaces and a # comment after the dashes", () => {
    for (const sep of ["---", "---   ", "--- # next", "---# next", "---\t#x"]) {
      expect(splitYamlDocuments(`a: 1\n${sep}\nb: 2\n`), JSON.stringify(sep)).toEqual([
        { text: "a: 1\n", line: 1, offset: 0 },
        { text: "b: 2\n", line: 3, offset: 6 + sep.length },
      ]);
    }
  });

  it("flags anything else after the dashes as kubectl does, with the separator's line, and reads on", () => {
    const [first, second, ...rest] = splitYamlDocuments("a: 1\nb: 2\n--- foo\nc: 3\n");
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ text: "a: 1\nb: 2\n", line: 1, offset: 0 });
    expect(first?.separatorError).toBeInstanceOf(DecodeError);
    expect(first?.separatorError).toMatchObject({
      reason: "invalid Yaml document separator: foo",
      line: 3,
      column: 1,
      offset: 10,
    });
    expect(second).toEqual({ text: "c: 3\n", line: 4, offset: 18 });
    // ---foo and ---- are the same mistake (the dashes need not be followed by a space).
    expect(splitYamlDocuments("---foo\n")[0]?.separatorError?.reason).toBe("invalid Yaml document separator: foo");
    expect(splitYamlDocuments("a\n----\n")[0]?.separatorError?.reason).toBe("invalid Yaml document separator: -");
  });

  it("reports a bad separator with no document before it as an empty document", () => {
    const [first, second] = splitYamlDocuments("--- x\na: 1\n");
    expect(first).toMatchObject({ text: "", line: 1, offset: 0 });
    expect(first?.separatorError?.line).toBe(1);
    expect(second).toEqual({ text: "a: 1\n", line: 2, offset: 6 });
  });

  it("drops empty documents: a leading separator, separators in a row, a trailing one", () => {
    expect(splitYamlDocuments("---\na: 1\n---\n---\nb: 2\n---\n")).toEqual([
      { text: "a: 1\n", line: 2, offset: 4 },
      { text: "b: 2\n", line: 5, offset: 17 },
    ]);
    expect(splitYamlDocuments("")).toEqual([]);
    expect(splitYamlDocuments("---\n---")).toEqual([]);
    // A document of blank lines or comments is not empty to the splitter: the reader decides.
    expect(texts("---\n\n# c\n---\n")).toEqual(["\n# c\n"]);
  });

  it("takes CRLF line breaks, the \\r belonging to the break", () => {
    expect(splitYamlDocuments("a: 1\r\n--- \r\nb: 2\r\n")).toEqual([
      { text: "a: 1\r\n", line: 1, offset: 0 },
      { text: "b: 2\r\n", line: 3, offset: 12 },
    ]);
    const bad = splitYamlDocuments("a: 1\r\n--- foo\r\nb: 2\r\n");
    expect(bad[0]?.separatorError?.reason).toBe("invalid Yaml document separator: foo");
  });

  it("keeps a last document with no final line break", () => {
    expect(splitYamlDocuments("a: 1\n---\nb: 2")).toEqual([
      { text: "a: 1\n", line: 1, offset: 0 },
      { text: "b: 2", line: 3, offset: 9 },
    ]);
  });
});

// A stream of lines, each a separator (good or bad) or content that does not start with ---.
const contentLine = fc
  .string({ unit: fc.constantFrom("a", ":", " ", "-", "#", "x", "\t", "é"), maxLength: 12 })
  .filter((l) => !l.startsWith("---") && !l.includes("\r"));
const separatorLine = fc.constantFrom("---", "--- ", "--- # c", "---#", "--- x", "---x", "----");
const streamArb = fc
  .array(fc.oneof({ arbitrary: contentLine, weight: 3 }, { arbitrary: separatorLine, weight: 1 }), { maxLength: 30 })
  .chain((ls) =>
    fc.tuple(
      fc.constant(ls),
      fc.array(fc.constantFrom("\n", "\r\n"), { minLength: ls.length, maxLength: ls.length }),
      fc.boolean(),
    ),
  )
  .map(([ls, breaks, finalBreak]) =>
    ls.map((l, i) => l + (i < ls.length - 1 || finalBreak ? (breaks[i] as string) : "")).join(""),
  );

const isSeparator = (line: string): boolean => line.startsWith("---");
const isBadSeparator = (line: string): boolean => {
  const rest = line
    .replace(/\r?\n$/, "")
    .slice(3)
    .trim();
  return rest !== "" && !rest.startsWith("#");
};

describe("splitYamlDocuments: properties", () => {
  it("the documents, joined with the separator lines between them, are the input", () => {
    fc.assert(
      fc.property(streamArb, (input) => {
        const docs = splitYamlDocuments(input);
        let at = 0;
        for (const d of docs) {
          // What lies between two documents is separator lines only.
          const gap = input.slice(at, d.offset);
          for (const l of gap.split(/(?<=\n)/).filter((x) => x !== ""))
            expect(isSeparator(l), JSON.stringify(l)).toBe(true);
          expect(input.slice(d.offset, d.offset + d.text.length)).toBe(d.text);
          expect(d.line).toBe(input.slice(0, d.offset).split("\n").length);
          at = d.offset + d.text.length;
        }
        const tail = input.slice(at);
        for (const l of tail.split(/(?<=\n)/).filter((x) => x !== ""))
          expect(isSeparator(l), JSON.stringify(l)).toBe(true);
      }),
    );
  });

  it("every document but a bad separator's placeholder holds text, none holds a separator line", () => {
    fc.assert(
      fc.property(streamArb, (input) => {
        for (const d of splitYamlDocuments(input)) {
          if (d.text === "") expect(d.separatorError).toBeDefined();
          for (const l of d.text.split(/(?<=\n)/)) expect(isSeparator(l)).toBe(false);
        }
      }),
    );
  });

  it("a separator error is raised for exactly the bad separator lines, at their line numbers", () => {
    fc.assert(
      fc.property(streamArb, (input) => {
        const expected = input.split(/(?<=\n)/).flatMap((l, i) => (isSeparator(l) && isBadSeparator(l) ? [i + 1] : []));
        const found = splitYamlDocuments(input).flatMap((d) =>
          d.separatorError !== undefined ? [d.separatorError.line] : [],
        );
        expect(found).toEqual(expected);
      }),
    );
  });
});
