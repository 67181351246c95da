import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareUtf8, utf8OrUndefined } from "../../../src/networking/model/utf8.js";
import { propertyRuns } from "../../support/property-runs.js";
import { wellFormedString } from "../../support/unicode.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

/** The reference: a strict decoder, or undefined where it refuses. */
function reference(b: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(b);
  } catch {
    return undefined;
  }
}

/** Go's sort.Strings order: bytewise on the UTF-8, then shorter first. */
function byteOrder(a: string, b: string): number {
  return Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
}

describe("utf8OrUndefined", () => {
  it("decodes valid UTF-8, short (the ASCII path) and long, whole or in part", () => {
    expect(utf8OrUndefined(enc(""))).toBe("");
    expect(utf8OrUndefined(enc("nginx"))).toBe("nginx");
    expect(utf8OrUndefined(enc("héllo"))).toBe("héllo");
    expect(utf8OrUndefined(enc("a".repeat(32)))).toBe("a".repeat(32));
    expect(utf8OrUndefined(enc("a".repeat(33)))).toBe("a".repeat(33));
    expect(utf8OrUndefined(enc("😀 and 中文, 253 bytes later".repeat(10)))).toBe(
      "😀 and 中文, 253 bytes later".repeat(10),
    );
    expect(utf8OrUndefined(enc("xxhelloyy"), 2, 7)).toBe("hello");
    expect(utf8OrUndefined(enc("a😀b"), 1, 5)).toBe("😀");
    expect(utf8OrUndefined(enc("abc"), 1, 1)).toBe("");
  });

  it("keeps a byte order mark and NUL, as Go's string would", () => {
    expect(utf8OrUndefined(bytes(0xef, 0xbb, 0xbf, 0x61))).toBe("\ufeffa");
    expect(utf8OrUndefined(bytes(0x00, 0x61, 0x00))).toBe("\u0000a\u0000");
  });

  it("refuses what is not UTF-8, in short and in long input", () => {
    const bad = [
      bytes(0x80), // a lone continuation byte
      bytes(0xc3), // a truncated two-byte sequence
      bytes(0xc0, 0xaf), // an overlong "/"
      bytes(0xe0, 0x80, 0xaf), // an overlong three-byte "/"
      bytes(0xed, 0xa0, 0x80), // a UTF-16 surrogate, encoded
      bytes(0xf4, 0x90, 0x80, 0x80), // above U+10FFFF
      bytes(0xff),
      bytes(0x61, 0xe2, 0x82), // truncated at the end
    ];
    for (const b of bad) {
      expect(utf8OrUndefined(b), String(b)).toBeUndefined();
      const long = Uint8Array.from([...enc("x".repeat(40)), ...b]);
      expect(utf8OrUndefined(long), `long ${b}`).toBeUndefined();
    }
    // Only the range asked for counts: the bad byte outside it does not.
    expect(utf8OrUndefined(bytes(0x61, 0x62, 0xff), 0, 2)).toBe("ab");
    // A range that cuts a character in two is not UTF-8.
    expect(utf8OrUndefined(enc("é"), 0, 1)).toBeUndefined();
  });

  it("agrees with a strict TextDecoder on any bytes and any range", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 80 }),
          wellFormedString(40).map(enc),
          fc.uint8Array({ min: 0, max: 0x7f, maxLength: 70 }),
        ),
        fc.nat(),
        fc.nat(),
        (b, x, y) => {
          const start = b.length === 0 ? 0 : x % (b.length + 1);
          const stop = start + (b.length === 0 ? 0 : y % (b.length - start + 1));
          return utf8OrUndefined(b, start, stop) === reference(b.subarray(start, stop));
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });
});

describe("compareUtf8 (Go's string order: by UTF-8 bytes)", () => {
  it("puts astral characters after U+E000-U+FFFF, unlike UTF-16 order", () => {
    expect("\ud83d\ude00" < "\uffff").toBe(true); // UTF-16 order
    expect(compareUtf8("\ud83d\ude00", "\uffff")).toBeGreaterThan(0);
    expect(compareUtf8("\uffff", "\ud83d\ude00")).toBeLessThan(0);
    expect(compareUtf8("\ue000", "\u{10000}")).toBeLessThan(0);
    expect(compareUtf8("\ud7ff", "\u{10000}")).toBeLessThan(0);
  });

  it("orders prefixes first and equal strings as equal", () => {
    expect(compareUtf8("", "")).toBe(0);
    expect(compareUtf8("", "a")).toBeLessThan(0);
    expect(compareUtf8("app", "app.kubernetes.io/name")).toBeLessThan(0);
    expect(compareUtf8("b", "a")).toBeGreaterThan(0);
    expect(compareUtf8("Z", "a")).toBeLessThan(0);
    expect(compareUtf8("10", "9")).toBeLessThan(0);
    expect(compareUtf8("é", "z")).toBeGreaterThan(0);
    expect(compareUtf8("😀", "😀")).toBe(0);
  });

  it("sorts as the bytes sort, for any well-formed strings", () => {
    fc.assert(
      fc.property(wellFormedString(8), wellFormedString(8), (a, b) => {
        return Math.sign(compareUtf8(a, b)) === byteOrder(a, b);
      }),
      { numRuns: propertyRuns(500) },
    );
    // Shared prefixes are where the order is decided late: draw those too.
    fc.assert(
      fc.property(
        wellFormedString(4),
        fc.constantFrom(
          "\u007f",
          "\u0080",
          "\u07ff",
          "\u0800",
          "\ud7ff",
          "\ue000",
          "\uffff",
          "\u{10000}",
          "\u{10ffff}",
        ),
        fc.constantFrom(
          "\u007f",
          "\u0080",
          "\u07ff",
          "\u0800",
          "\ud7ff",
          "\ue000",
          "\uffff",
          "\u{10000}",
          "\u{10ffff}",
        ),
        (prefix, x, y) => {
          return Math.sign(compareUtf8(prefix + x, prefix + y)) === byteOrder(prefix + x, prefix + y);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it("as a sort comparator gives the byte order", () => {
    const keys = ["b", "a", "\uffff", "😀", "é", "", "aa", "A", "\ue000", "𐀀"];
    expect([...keys].sort(compareUtf8)).toEqual([...keys].sort(byteOrder));
  });
});
