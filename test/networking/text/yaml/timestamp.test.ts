// isGoTimestamp is go-yaml v2's timestamp check: Go's time.Parse with go-yaml's four layouts
// (2006-1-2T15:4:5.999999999Z07:00, the same with a lower-case t, 2006-1-2 15:4:5.999999999
// and 2006-1-2). GO_TIMESTAMPS holds whether time.Parse accepts each text with one of them
// (Go 1.26; the layouts' reading is the same since Go 1.20, which the API server's Go is past).

import { describe, expect, it } from "vitest";
import { isGoTimestamp } from "../../../../src/networking/text/yaml/timestamp.js";

const GO_TIMESTAMPS: readonly (readonly [string, boolean])[] = [
  ["2001-12-14", true],
  ["2001-1-2", true],
  ["2001-01-02", true],
  ["2001-1-02", true],
  ["2001-13-01", false],
  ["2001-12-32", false],
  ["2001-02-29", false],
  ["2000-02-29", true],
  ["1900-02-29", false],
  ["2001-12-14t21:59:43.10-05:00", true],
  ["2001-12-14T21:59:43.10-05:00", true],
  ["2001-12-14 21:59:43.10", true],
  ["2001-12-14  21:59:43.10", true],
  ["2001-12-14 21:59:43", true],
  ["2001-12-14 1:2:3", true],
  ["2001-12-14T21:59:43Z", true],
  ["2001-12-14T21:59:43z", false],
  ["2001-12-14T21:59:43", false],
  ["2001-12-14T24:00:00Z", false],
  ["2001-12-14T23:60:00Z", false],
  ["2001-12-14T23:59:60Z", false],
  ["2001-12-14T21:59:43.1234567891234Z", true],
  ["2001-12-14T21:59:43,5Z", true],
  ["2001-12-14T21:59:43.Z", false],
  ["2001-12-14T21:59:43+24:00", true],
  ["2001-12-14T21:59:43+25:00", false],
  ["2001-12-14T21:59:43+05:60", true],
  ["2001-12-14T21:59:43+05:61", false],
  ["2001-12-14T21:59:43+0500", false],
  ["2001-12-14T21:59:43+5:00", false],
  ["2001-12-14 ", false],
  ["2001-12-14 21:59", false],
  ["20011-12-14", false],
  ["201-12-14", false],
  ["2001-012-14", false],
  ["2001-12-014", false],
  ["2001-12-14T1:2:3Z", true],
  ["0000-01-01", true],
  ["2001-12-14 21:59:43.10 ", false],
  ["2001-2-30", false],
  ["2001-04-31", false],
  ["2001-00-10", false],
  ["2001-10-00", false],
];

describe("isGoTimestamp", () => {
  it.each(GO_TIMESTAMPS)("%j: %s", (text, go) => {
    expect(isGoTimestamp(text)).toBe(go);
  });

  it("needs exactly four digits and a dash first (go-yaml's quick check)", () => {
    expect(isGoTimestamp("2001-1-1")).toBe(true);
    expect(isGoTimestamp("02001-1-1")).toBe(false);
    expect(isGoTimestamp("2001/1/1")).toBe(false);
    expect(isGoTimestamp("")).toBe(false);
    expect(isGoTimestamp("2001")).toBe(false);
  });

  it("February 29th only in leap years, by the Gregorian rule", () => {
    for (const [year, leap] of [
      [1600, true],
      [1700, false],
      [2000, true],
      [2023, false],
      [2024, true],
      [2100, false],
    ] as const) {
      expect(isGoTimestamp(`${year}-02-29`), String(year)).toBe(leap);
      expect(isGoTimestamp(`${year}-02-28`)).toBe(true);
    }
  });

  it("the last day of each month, and the day after", () => {
    const last = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    last.forEach((d, i) => {
      expect(isGoTimestamp(`2023-${i + 1}-${d}`)).toBe(true);
      expect(isGoTimestamp(`2023-${i + 1}-${d + 1}`)).toBe(false);
    });
  });
});
