import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GoldenCase } from "../../../../bench/yaml-differential/golden.js";
import { DecodeError, splitYamlDocuments } from "../../../../src/networking/index.js";
import { kubectlDocumentBody } from "../../../../src/networking/text/yaml/split.js";

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

  it("keeps a separator line with nothing before it at the start of the next document, and drops the others", () => {
    // apimachinery's YAMLReader: a separator line returns what it gathered when that is not empty; when it
    // is empty (the stream's first line, or a separator right after another) the line is gathered instead.
    expect(splitYamlDocuments("---\na: 1\n---\n---\nb: 2\n---\n")).toEqual([
      { text: "---\na: 1\n", line: 1, offset: 0 },
      { text: "---\nb: 2\n", line: 4, offset: 13 },
    ]);
    expect(splitYamlDocuments("")).toEqual([]);
    // A kept separator ends at the next one: "---\n" is a document the YAML reader finds empty.
    expect(texts("---\n---")).toEqual(["---\n"]);
    expect(texts("---\n---\n---\n---\n")).toEqual(["---\n", "---\n"]);
    expect(texts("--- # c\n")).toEqual(["--- # c\n"]);
    // A document of blank lines or comments is not empty to the splitter: the reader decides.
    expect(texts("---\n\n# c\n---\n")).toEqual(["---\n\n# c\n"]);
    expect(texts("a: 1\n---\n\n---\nb: 2\n")).toEqual(["a: 1\n", "\n", "b: 2\n"]);
  });

  it("keeps the separator before a byte-order mark, which is then content, not the stream's mark", () => {
    expect(texts("---\n\ufeffa: 1\n")).toEqual(["---\n\ufeffa: 1\n"]);
    expect(texts("a: 1\n---\n---\n\ufeffb: 1\n")).toEqual(["a: 1\n", "---\n\ufeffb: 1\n"]);
    // After a separator that ends a document, the mark starts the next piece: the stream's mark again.
    expect(texts("a: 1\n---\n\ufeffb: 1\n")).toEqual(["a: 1\n", "\ufeffb: 1\n"]);
    // A mark before the dashes makes the line no separator.
    expect(texts("\ufeff---\na: 1\n")).toEqual(["\ufeff---\na: 1\n"]);
  });

  it("reads a lone CR as no line end: a kept separator line runs on to the next LF", () => {
    expect(splitYamlDocuments("--- # c\ra: 1\rb: 2")).toEqual([{ text: "--- # c\ra: 1\rb: 2", line: 1, offset: 0 }]);
    // The same line after a document ends it, and all it holds after the CRs is dropped with it.
    expect(texts("x: 1\n--- # c\ra: 1\r")).toEqual(["x: 1\n"]);
    // Content after the dashes, past a CR, is what Go's TrimSpace leaves: a bad separator.
    expect(splitYamlDocuments("---\ra: 1")[0]?.separatorError?.reason).toBe("invalid Yaml document separator: a: 1");
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

  it("every document but a bad separator's placeholder holds text; a separator line only as its first, kept line", () => {
    fc.assert(
      fc.property(streamArb, (input) => {
        let previousEnd = 0;
        for (const d of splitYamlDocuments(input)) {
          if (d.text === "") expect(d.separatorError).toBeDefined();
          const lines = d.text.split(/(?<=\n)/);
          for (const l of lines.slice(1)) expect(isSeparator(l)).toBe(false);
          if (isSeparator(lines[0] as string)) {
            // Kept only when nothing was gathered since the last cut: right at the start of the
            // stream, or right after the separator line that ended the previous document.
            const before = input.slice(previousEnd, d.offset);
            expect(before.split(/(?<=\n)/).filter((x) => x !== "").length, JSON.stringify(input)).toBeLessThanOrEqual(
              1,
            );
            expect(isBadSeparator(lines[0] as string)).toBe(false);
          }
          previousEnd = d.offset + d.text.length;
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

describe("splitYamlDocuments against apimachinery's YAMLReader (golden answers)", () => {
  // Every text of the differential's golden corpus, with the pieces apimachinery's own reader
  // (Kubernetes v1.35.4's modules) cut it into: `npm run yaml-golden` asked the Go oracle.
  const golden = JSON.parse(
    readFileSync(new URL("../../../support/golden/yaml-differential.json", import.meta.url), "utf8"),
  ) as { readonly cases: readonly GoldenCase[] };

  it("cuts every golden text into Go's pieces, handed on as kubectl's reader hands them", () => {
    const wrong: string[] = [];
    for (const c of golden.cases) {
      const docs = splitYamlDocuments(c.text);
      const failed = docs.find((d) => d.separatorError !== undefined)?.separatorError?.reason;
      const ours = failed !== undefined ? { error: failed } : { pieces: docs.map((d) => kubectlDocumentBody(d.text)) };
      const go =
        c.answer.splitError !== undefined
          ? { error: c.answer.splitError }
          : { pieces: c.answer.docs.map((d) => d.text) };
      if (JSON.stringify(ours) !== JSON.stringify(go))
        wrong.push(
          `${c.name}: ${JSON.stringify(c.text).slice(0, 120)}\n  ours ${JSON.stringify(ours)}\n  go   ${JSON.stringify(go)}`,
        );
    }
    expect(wrong).toEqual([]);
    expect(golden.cases.length).toBeGreaterThan(2000);
  });

  it("holds the kept-separator cases: a BOM after the first separator, CR-only lines", () => {
    const byName = new Map(golden.cases.map((c) => [c.name, c]));
    const pieces = (name: string): readonly string[] | undefined => byName.get(name)?.answer.docs.map((d) => d.text);
    const head = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: edge\n";
    // Go keeps the first separator, so the mark is content: sigs.k8s.io/yaml reads the key "\ufeffapiVersion".
    expect(pieces("edge kept separator: BOM after the first separator")).toEqual([`---\n\ufeff${head}`]);
    expect(byName.get("edge kept separator: BOM after the first separator")?.answer.docs[0]?.json).toContain(
      '"\ufeffapiVersion"',
    );
    expect(pieces("edge kept separator: BOM after a separator that ends a document")).toEqual([
      head,
      `\ufeffx: 1\n${head}`,
    ]);
    // One line to Go's line reader, kept whole: go-yaml then reads the CRs as line breaks.
    expect(pieces("edge kept separator: first separator and CR-only lines")).toEqual([
      `--- # c\r${head.replace(/\n/g, "\r")}\n`,
    ]);
    expect(pieces("edge kept separator: separator that ends a document, CR-only lines after it")).toEqual([head]);
  });
});
