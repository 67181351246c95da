import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codePoints,
  isBlank,
  isBlankZ,
  isBreak,
  isPrintable,
  LF,
  SP,
  utf8Length,
  wellFormed,
} from "../../../../src/networking/text/yaml/chars.js";
import { propertyRuns } from "../../../support/property-runs.js";
import { codeUnitString, wellFormedString } from "../../../support/unicode.js";

/** The UTF-8 bytes of a code point. */
function utf8(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

/**
 * libyaml's (and go-yaml's) printable test, as it is written: on the UTF-8 bytes of the
 * character, not on code points. A reference to hold the code-point ranges of isPrintable to.
 */
function printableByBytes(cp: number): boolean {
  const [b0 = 0, b1 = 0, b2 = 0] = utf8(cp);
  return (
    b0 === 0x0a ||
    (b0 >= 0x20 && b0 <= 0x7e) ||
    (b0 === 0xc2 && b1 >= 0xa0) ||
    (b0 > 0xc2 && b0 < 0xed) ||
    (b0 === 0xed && b1 < 0xa0) ||
    b0 === 0xee ||
    (b0 === 0xef && !(b1 === 0xbb && b2 === 0xbf) && !(b1 === 0xbf && (b2 === 0xbe || b2 === 0xbf)))
  );
}

describe("character classes (libyaml's, on code points)", () => {
  it("breaks: LF, CR, NEL, LS and PS", () => {
    const breaks = [];
    for (let c = 0; c <= 0xffff; c++) if (isBreak(c)) breaks.push(c);
    expect(breaks).toEqual([0x0a, 0x0d, 0x85, 0x2028, 0x2029]);
    expect(LF).toBe(0x0a);
  });

  it("blanks: space and tab; blank-or-end adds the breaks and NUL", () => {
    const blanks = [];
    const blankZ = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (isBlank(c)) blanks.push(c);
      if (isBlankZ(c)) blankZ.push(c);
    }
    expect(blanks).toEqual([0x09, SP]);
    expect(SP).toBe(0x20);
    expect(blankZ).toEqual([0x00, 0x09, 0x0a, 0x0d, 0x20, 0x85, 0x2028, 0x2029]);
  });

  it("printable: equal to libyaml's byte-level test", () => {
    const differ: number[] = [];
    // Every BMP character, and every 97th astral one (their lead bytes, 0xF0 to 0xF4, are never printable).
    for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x10000 ? 1 : 97) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue; // no UTF-8 for these
      if (isPrintable(cp) !== printableByBytes(cp)) differ.push(cp);
    }
    expect(differ).toEqual([]);
    // The notable exclusions: tab, DEL, NEL, the byte order mark, the two non-characters, anything astral.
    for (const cp of [0x09, 0x7f, 0x85, 0xfeff, 0xfffe, 0xffff, 0x10000, 0x1f600]) expect(isPrintable(cp)).toBe(false);
    for (const cp of [0x0a, 0x20, 0x7e, 0xa0, 0xd7ff, 0xe000, 0xfffd]) expect(isPrintable(cp)).toBe(true);
  });
});

describe("utf8Length and codePoints", () => {
  it("utf8Length counts the UTF-8 bytes of code points", () => {
    expect(utf8Length([])).toBe(0);
    expect(utf8Length([0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff])).toBe(1 + 1 + 2 + 2 + 3 + 3 + 4 + 4);
    fc.assert(
      fc.property(wellFormedString(), (s) => utf8Length(codePoints(s)) === Buffer.byteLength(s, "utf8")),
      { numRuns: propertyRuns(200) },
    );
  });

  it("codePoints splits pairs into one code point and keeps a lone surrogate as it is", () => {
    expect(codePoints("a😀é")).toEqual([0x61, 0x1f600, 0xe9]);
    expect(codePoints("")).toEqual([]);
    expect(codePoints("\ud800x\udc00")).toEqual([0xd800, 0x78, 0xdc00]);
    fc.assert(
      fc.property(codeUnitString(), (s) => String.fromCodePoint(...codePoints(s)) === s),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe("wellFormed", () => {
  const toWellFormed = (s: string): string => (s as unknown as { toWellFormed(): string }).toWellFormed();

  it("replaces each lone surrogate with U+FFFD and keeps pairs", () => {
    expect(wellFormed("a\ud800b")).toBe("a\ufffdb");
    expect(wellFormed("\udc00\ud800")).toBe("\ufffd\ufffd");
    expect(wellFormed("😀")).toBe("😀");
    expect(wellFormed("\ud83d\ud83d\ude00")).toBe("\ufffd😀");
    expect(wellFormed("")).toBe("");
  });

  it("equals String.prototype.toWellFormed on any string", () => {
    fc.assert(
      fc.property(codeUnitString(), (s) => wellFormed(s) === toWellFormed(s)),
      { numRuns: propertyRuns(300) },
    );
  });
});
