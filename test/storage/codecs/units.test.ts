// parseSize / formatSize / parseDuration / formatDuration (../shared/docs/storage-api.md §4.1–§4.3).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StorageCodecError, formatDuration, formatSize, parseDuration, parseSize } from "../../../src/storage/index.js";
import { propertyRuns } from "../../support/property-runs.js";

const RUNS = propertyRuns(2000);

function codecError(fn: () => unknown): StorageCodecError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StorageCodecError);
    return error as StorageCodecError;
  }
  throw new Error("expected a StorageCodecError");
}

describe("parseSize", () => {
  it.each([
    ["40M", 41943040],
    ["1g", 1073741824],
    ["1mb", 1048576],
    ["512B", 512],
    ["4096", 4096],
    ["0", 0],
    ["4k", 4096],
    ["4KB", 4096],
    ["2T", 2 * 1024 ** 4],
    ["3tb", 3 * 1024 ** 4],
    ["7P", 7881299347898368],
    ["1pb", 1024 ** 5],
    ["10b", 10],
    ["0040M", 41943040],
  ])("%s → %d", (input, bytes) => {
    expect(parseSize(input)).toBe(bytes);
  });

  it("accepts integer numbers up to MAX_SAFE_INTEGER", () => {
    expect(parseSize(0)).toBe(0);
    expect(parseSize(41943040)).toBe(41943040);
    expect(parseSize(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(Object.is(parseSize(-0), 0)).toBe(true);
  });

  it.each([
    ["8P", "2^53 is above MAX_SAFE_INTEGER"],
    [String(2 ** 53), "digits above MAX_SAFE_INTEGER"],
    ["1.5G", "decimal"],
    ["10KiB", "IEC"],
    ["10X", "unknown suffix"],
    ["1E", "exa is not a suffix"],
    ["G", "suffix without digits"],
    ["B", "bare B"],
    ["", "empty"],
    [" 40M", "leading whitespace"],
    ["40M ", "trailing whitespace"],
    ["40 M", "inner whitespace"],
    ["1_000", "underscore"],
    ["+40", "plus sign"],
    ["-40", "minus sign"],
    ["-1", "the quota sentinel is not a Size"],
    ["40BB", "double B"],
    ["0x10", "hex"],
    ["1e3", "exponent"],
  ])("rejects %j (%s)", (input) => {
    const error = codecError(() => parseSize(input, "space.size"));
    expect(error.path).toBe("space.size");
    expect(error.message).toContain("space.size");
    expect(error.message).toContain(JSON.stringify(input));
  });

  it.each([12.5, -1, -4096, Number.NaN, Infinity, 2 ** 53, true, false, null, undefined, {}, [], 10n])(
    "rejects the non-size value %s",
    (input) => {
      const error = codecError(() => parseSize(input, "reserve_size"));
      expect(error.path).toBe("reserve_size");
    },
  );

  it("gives the path '' by default", () => {
    expect(codecError(() => parseSize("x")).path).toBe("");
  });
});

describe("formatSize", () => {
  it.each([
    [0, "0"],
    [1, "1"],
    [1023, "1023"],
    [1024, "1K"],
    [4096, "4K"],
    [41943040, "40M"],
    [1073741824, "1G"],
    [1536, "1536"],
    [3 * 512 * 1024, "1536K"],
    [1024 ** 4, "1T"],
    [7 * 1024 ** 5, "7P"],
    [Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)],
  ])("%d → %s", (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])("rejects %d", (bytes) => {
    codecError(() => formatSize(bytes));
  });

  it("round-trips through parseSize for every safe non-negative integer", () => {
    const bytes = fc.oneof(
      fc.maxSafeNat(),
      fc.nat({ max: 1 << 20 }),
      // multiples of every suffix, so each branch is exercised
      fc
        .tuple(fc.nat({ max: 8191 }), fc.constantFrom(1, 1024, 1024 ** 2, 1024 ** 3, 1024 ** 4, 1024 ** 5))
        .map(([n, m]) => n * m)
        .filter((n) => Number.isSafeInteger(n)),
    );
    fc.assert(
      fc.property(bytes, (n) => {
        const text = formatSize(n);
        expect(parseSize(text)).toBe(n);
        // canonical: no larger suffix would also be exact, digits never have leading zeros
        expect(text).toMatch(/^(0|[1-9][0-9]*)[KMGTP]?$/);
      }),
      { numRuns: RUNS },
    );
  });

  it("parseSize of any accepted spelling agrees with a BigInt oracle", () => {
    const suffixes: Array<[string, bigint]> = [
      ["", 1n],
      ["b", 1n],
      ["B", 1n],
      ["k", 1024n],
      ["KB", 1024n],
      ["m", 1024n ** 2n],
      ["Mb", 1024n ** 2n],
      ["g", 1024n ** 3n],
      ["GB", 1024n ** 3n],
      ["T", 1024n ** 4n],
      ["tb", 1024n ** 4n],
      ["P", 1024n ** 5n],
      ["pB", 1024n ** 5n],
    ];
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,18}$/), fc.constantFrom(...suffixes), (digits, [suffix, mult]) => {
        const exact = BigInt(digits) * mult;
        const text = digits + suffix;
        if (exact > BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(() => parseSize(text)).toThrow(StorageCodecError);
        } else {
          expect(parseSize(text)).toBe(Number(exact));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("parseSize never throws anything but StorageCodecError on arbitrary input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (value) => {
        try {
          const n = parseSize(value);
          expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(StorageCodecError);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("parseDuration", () => {
  it.each([
    ["PT1H10M", 4200],
    ["PT90M", 5400],
    ["PT60S", 60],
    ["P1D", 86400],
    ["P2DT3H4M5S", 2 * 86400 + 3 * 3600 + 4 * 60 + 5],
    ["PT0S", 0],
    ["P0D", 0],
    ["PT15S", 15],
    ["PT4M", 240],
    ["PT2H", 7200],
    ["PT3600S", 3600],
    ["P1DT1S", 86401],
  ])("%s → %d", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each([
    ["P", "no component"],
    ["PT", "T without a component"],
    ["P1DT", "T without a component"],
    ["T1H", "no P"],
    ["1H10M", "no P"],
    ["P1M", "months"],
    ["P1Y", "years"],
    ["P1Y2M", "years and months"],
    ["P1W", "weeks"],
    ["PT1.5S", "fraction"],
    ["PT1,5S", "fraction with comma"],
    ["pt1h", "lower case"],
    ["PT1M1H", "wrong order"],
    ["P1H", "H before T"],
    ["-PT1S", "sign"],
    ["PT-1S", "negative"],
    [" PT1S", "whitespace"],
    ["", "empty"],
    ["60", "bare seconds"],
  ])("rejects %j (%s)", (text) => {
    const error = codecError(() => parseDuration(text, "expiry_time.limit"));
    expect(error.path).toBe("expiry_time.limit");
  });

  it("names months and years in the error", () => {
    expect(codecError(() => parseDuration("P1M")).reason).toMatch(/months and years/);
    expect(codecError(() => parseDuration("P1Y")).reason).toMatch(/months and years/);
  });

  it.each([60, null, undefined, {}])("rejects the non-string %s", (value) => {
    codecError(() => parseDuration(value));
  });

  it("rejects durations above MAX_SAFE_INTEGER seconds", () => {
    codecError(() => parseDuration(`PT${"9".repeat(20)}S`));
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "PT0S"],
    [60, "PT1M"],
    [4200, "PT1H10M"],
    [5400, "PT1H30M"],
    [86400, "P1D"],
    [90061, "P1DT1H1M1S"],
    [86401, "P1DT1S"],
    [59, "PT59S"],
  ])("%d → %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])("rejects %d", (seconds) => {
    codecError(() => formatDuration(seconds));
  });

  it("round-trips through parseDuration", () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeNat(), fc.nat({ max: 10 * 86400 })), (s) => {
        expect(parseDuration(formatDuration(s))).toBe(s);
      }),
      { numRuns: RUNS },
    );
  });

  it("parseDuration agrees with an oracle on generated unnormalised durations", () => {
    const part = fc.option(fc.nat({ max: 100000 }), { nil: undefined });
    fc.assert(
      fc.property(part, part, part, part, (d, h, m, s) => {
        const time =
          (h === undefined ? "" : `${h}H`) + (m === undefined ? "" : `${m}M`) + (s === undefined ? "" : `${s}S`);
        const text = `P${d === undefined ? "" : `${d}D`}${time === "" ? "" : `T${time}`}`;
        if (text === "P") {
          expect(() => parseDuration(text)).toThrow(StorageCodecError);
        } else {
          expect(parseDuration(text)).toBe((d ?? 0) * 86400 + (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0));
        }
      }),
      { numRuns: RUNS },
    );
  });
});
