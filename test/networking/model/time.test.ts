// formatRfc3339 and parseRfc3339 against Go: GO_FORMAT is time.Unix(s, 0).UTC().Format(time.RFC3339)
// and GO_PARSE is time.Parse(time.RFC3339, text) (what metav1.Time's JSON reading calls), both
// produced once with Go 1.26; Date and a round trip are the references for everything else.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRfc3339, parseRfc3339 } from "../../../src/networking/model/time.js";
import { propertyRuns } from "../../support/property-runs.js";

/**
 * [Unix seconds, Go's text]. Go keeps times as seconds since year 1 in an int64, so below
 * -2^63 + 62135596800 its arithmetic wraps; the table stays above that, where Go means what
 * it prints (years of twelve digits and negative years included).
 */
const GO_FORMAT: readonly (readonly [bigint, string])[] = [
  [0n, "1970-01-01T00:00:00Z"],
  [1n, "1970-01-01T00:00:01Z"],
  [-1n, "1969-12-31T23:59:59Z"],
  [59n, "1970-01-01T00:00:59Z"],
  [60n, "1970-01-01T00:01:00Z"],
  [3599n, "1970-01-01T00:59:59Z"],
  [3600n, "1970-01-01T01:00:00Z"],
  [86399n, "1970-01-01T23:59:59Z"],
  [86400n, "1970-01-02T00:00:00Z"],
  [-86400n, "1969-12-31T00:00:00Z"],
  [-86401n, "1969-12-30T23:59:59Z"],
  [951782400n, "2000-02-29T00:00:00Z"],
  [951868800n, "2000-03-01T00:00:00Z"],
  [4102444800n, "2100-01-01T00:00:00Z"],
  [4107542399n, "2100-02-28T23:59:59Z"],
  [4107542400n, "2100-03-01T00:00:00Z"],
  [13569465600n, "2400-01-01T00:00:00Z"],
  [-2208988800n, "1900-01-01T00:00:00Z"],
  [1714557600n, "2024-05-01T10:00:00Z"],
  [253402300799n, "9999-12-31T23:59:59Z"],
  [253402300800n, "10000-01-01T00:00:00Z"],
  [-62135596800n, "0001-01-01T00:00:00Z"],
  [-62135596801n, "0000-12-31T23:59:59Z"],
  [-62167219200n, "0000-01-01T00:00:00Z"],
  [-62167219201n, "-0001-12-31T23:59:59Z"],
  [1000000000000n, "33658-09-27T01:46:40Z"],
  [-1000000000000n, "-29719-04-05T22:13:20Z"],
  [1000000000000000n, "31690708-07-05T01:46:40Z"],
  [-1000000000000000n, "-31686769-06-29T22:13:20Z"],
  [9223372036854775807n, "292277026596-12-04T15:30:07Z"],
  [9223371974719179007n, "292277024627-12-06T15:30:07Z"],
  [-9223371974719179008n, "-292277020688-01-27T08:29:52Z"],
];

/** [text, Unix seconds, or undefined where Go refuses it]. */
const GO_PARSE: readonly (readonly [string, bigint | undefined])[] = [
  ["2024-05-01T12:00:00+02:00", 1714557600n],
  ["1970-01-01T00:00:00Z", 0n],
  ["2000-02-29T23:59:59Z", 951868799n],
  ["2001-02-29T00:00:00Z", undefined],
  ["2024-02-30T00:00:00Z", undefined],
  ["2024-04-31T00:00:00Z", undefined],
  ["2024-13-01T00:00:00Z", undefined],
  ["2024-00-01T00:00:00Z", undefined],
  ["2024-01-00T00:00:00Z", undefined],
  ["2024-01-01T24:00:00Z", undefined],
  ["2024-01-01T23:60:00Z", undefined],
  ["2024-01-01T23:59:60Z", undefined],
  ["2024-01-01T00:00:00.123Z", 1704067200n],
  ["2024-01-01T00:00:00,5Z", 1704067200n],
  ["2024-01-01T00:00:00.123456789123Z", 1704067200n],
  ["2024-01-01T00:00:00.Z", undefined],
  ["2024-01-01t00:00:00Z", undefined],
  ["2024-01-01T00:00:00z", undefined],
  ["2024-01-01 00:00:00Z", undefined],
  ["2024-01-01T00:00:00", undefined],
  ["2024-01-01T00:00:00+24:00", 1703980800n],
  ["2024-01-01T00:00:00+23:59", 1703980860n],
  ["2024-01-01T00:00:00-23:59", 1704153540n],
  ["2024-01-01T00:00:00+00:60", 1704063600n],
  ["2024-01-01T00:00:00-00:00", 1704067200n],
  ["2024-01-01T00:00:00+0100", undefined],
  ["2024-01-01T00:00:00+01", undefined],
  ["0000-01-01T00:00:00Z", -62167219200n],
  ["9999-12-31T23:59:59Z", 253402300799n],
  ["9999-12-31T23:59:59-23:59", 253402387139n],
  ["0000-01-01T00:00:00+23:59", -62167305540n],
  ["1900-02-29T00:00:00Z", undefined],
  ["2000-02-29T00:00:00Z", 951782400n],
  ["24-01-01T00:00:00Z", undefined],
  ["12024-01-01T00:00:00Z", undefined],
  ["2024-1-01T00:00:00Z", undefined],
  ["2024-01-01T0:00:00Z", 1704067200n],
  [" 2024-01-01T00:00:00Z", undefined],
  ["2024-01-01T00:00:00Z ", undefined],
  ["", undefined],
  ["2024-01-01T00:00:00.5+05:30", 1704047400n],
  ["1969-12-31T23:59:59.999Z", -1n],
  ["2024-01-01T00:00:00+05:3", undefined],
  ["\uff12\uff10\uff12\uff14-01-01T00:00:00Z", undefined],
  ["2024-01-01T00:00:00Z\n", undefined],
  // A one-digit hour is read ("15" in the layout), no other field may drop its zero.
  ["2024-01-01T9:00:00Z", 1704099600n],
  ["2024-01-01T1:00:00+01:00", 1704067200n],
  ["2024-01-01T9:5:00Z", undefined],
  ["2024-01-01T09:5:00Z", undefined],
  ["2024-01-01T09:05:5Z", undefined],
  ["2024-01-01T000:00:00Z", undefined],
  // Zone offsets up to 24 hours and 60 minutes.
  ["2024-01-01T00:00:00+24:60", 1703977200n],
  ["2024-01-01T00:00:00-24:60", 1704157200n],
  ["2024-02-29T00:00:00+24:00", 1709078400n],
  ["2024-01-01T00:00:00+25:00", undefined],
  ["2024-01-01T00:00:00+00:61", undefined],
  ["2024-01-01T00:00:00+1:00", undefined],
  ["2024-01-01T00:00:00Z07:00", undefined],
  ["2024-01-01T00:00:00+01:00:00", undefined],
  // Fractions: any number of digits, dropped; nothing else after the seconds.
  ["2024-01-01T00:00:00.999999999999Z", 1704067200n],
  ["2024-01-01T00:00:00.0000000009Z", 1704067200n],
  ["2024-01-01T00:00:00.1,2Z", undefined],
  ["2024-01-01T00:00:00,Z", undefined],
  ["2024-01-01T00:00:00.\u0663Z", undefined],
  // A sign before the year is not RFC 3339.
  ["+2024-01-01T00:00:00Z", undefined],
  ["-0001-01-01T00:00:00Z", undefined],
];

/** The RFC 3339 text of Date for whole seconds in years 0000 to 9999. */
function viaDate(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z");
}

const YEAR_0 = -62167219200n;
const YEAR_9999_END = 253402300799n;

describe("formatRfc3339", () => {
  it.each(GO_FORMAT)("%s is written as Go writes it", (seconds, go) => {
    expect(formatRfc3339(seconds)).toBe(go);
  });

  it("equals Date's ISO text for every second of years 0000 to 9999", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: YEAR_0, max: YEAR_9999_END }), (s) => {
        expect(formatRfc3339(s)).toBe(viaDate(s));
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it("the last second of every day of a leap and a non-leap year", () => {
    for (const year of [2023, 2024, 1900, 2000]) {
      const start = BigInt(Date.UTC(year, 0, 1) / 1000);
      const days = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 366 : 365;
      for (let d = 1; d <= days; d++) {
        const s = start + BigInt(d) * 86400n - 1n;
        expect(formatRfc3339(s)).toBe(viaDate(s));
      }
    }
  });
});

describe("parseRfc3339 (time.Parse(time.RFC3339, text))", () => {
  it.each(GO_PARSE)("%j", (text, go) => {
    const got = parseRfc3339(text);
    if (go === undefined) {
      expect(typeof got, `Go refuses ${JSON.stringify(text)}`).toBe("string");
      expect(got).toContain(JSON.stringify(text));
    } else {
      expect(got).toBe(go);
    }
  });

  it("says which part is out of range", () => {
    expect(parseRfc3339("2024-13-01T00:00:00Z")).toMatch(/^month out of range/);
    expect(parseRfc3339("2024-02-30T00:00:00Z")).toMatch(/^day out of range/);
    expect(parseRfc3339("2024-01-01T24:00:00Z")).toMatch(/^hour out of range/);
    expect(parseRfc3339("2024-01-01T00:60:00Z")).toMatch(/^minute out of range/);
    expect(parseRfc3339("2024-01-01T00:00:60Z")).toMatch(/^second out of range/);
    expect(parseRfc3339("2024-01-01T00:00:00+25:00")).toMatch(/^time zone offset out of range/);
    expect(parseRfc3339("yesterday")).toMatch(/^cannot parse "yesterday" as RFC 3339/);
  });

  it("reads back what formatRfc3339 writes, for every second of years 0000 to 9999", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: YEAR_0, max: YEAR_9999_END }), (s) => {
        expect(parseRfc3339(formatRfc3339(s))).toBe(s);
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it("an offset moves the instant by exactly its size; a fraction moves it not at all", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: YEAR_0 + 86400n * 2n, max: YEAR_9999_END - 86400n * 2n }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.boolean(),
        fc.stringMatching(/^[0-9]{1,12}$/),
        (s, oh, om, minus, frac) => {
          const utc = formatRfc3339(s).slice(0, -1);
          const offset = `${minus ? "-" : "+"}${String(oh).padStart(2, "0")}:${String(om).padStart(2, "0")}`;
          const shift = BigInt((oh * 3600 + om * 60) * (minus ? -1 : 1));
          expect(parseRfc3339(`${utc}${offset}`)).toBe(s - shift);
          expect(parseRfc3339(`${utc}.${frac}Z`)).toBe(s);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
