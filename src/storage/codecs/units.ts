// Sizes and ISO 8601 durations of the storage API.
//
// Sizes are JS numbers holding a whole count of bytes; anything above
// Number.MAX_SAFE_INTEGER is refused, never rounded. Durations are
// `P[nD][T[nH][nM][nS]]` with integer parts, read as whole seconds.

import { StorageCodecError } from "./errors.js";

const SIZE_SUFFIXES: Readonly<Record<string, bigint>> = {
  "": 1n,
  b: 1n,
  k: 1024n,
  kb: 1024n,
  m: 1024n ** 2n,
  mb: 1024n ** 2n,
  g: 1024n ** 3n,
  gb: 1024n ** 3n,
  t: 1024n ** 4n,
  tb: 1024n ** 4n,
  p: 1024n ** 5n,
  pb: 1024n ** 5n,
};

const SIZE_PATTERN = /^([0-9]+)(b|kb?|mb?|gb?|tb?|pb?)?$/i;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A short, printable rendering of a rejected value for error messages. */
export function showValue(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = JSON.stringify(value);
  else if (typeof value === "number" || typeof value === "boolean" || value === null) text = String(value);
  else if (typeof value === "bigint") text = `${value}n`;
  else if (Array.isArray(value)) text = "an array";
  else if (value === undefined) text = "undefined";
  else text = `a ${typeof value}`;
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}

/**
 * Reads a Size: a non-negative safe integer, or a string of decimal digits with an
 * optional case-insensitive binary suffix K/KB, M/MB, G/GB, T/TB, P/PB (1024^1…1024^5)
 * or B (bytes). `"40M"` → 41943040, `"1g"` → 1073741824, `"512B"` → 512, `"4096"` → 4096.
 * Decimals, IEC spellings (`"10KiB"`), unknown suffixes, signs, whitespace, `_`,
 * booleans and values above 2^53 − 1 throw a StorageCodecError at `path`.
 *
 * @example
 * ```ts
 * import { parseSize } from "clusterwire/storage";
 *
 * console.log(parseSize("40M"), parseSize("1g"), parseSize(4096)); // 41943040 1073741824 4096
 * ```
 */
export function parseSize(value: unknown, path = ""): number {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || !Number.isInteger(value)) {
      throw new StorageCodecError(path, `invalid size ${showValue(value)}: must be a whole number of bytes`);
    }
    if (value < 0) {
      throw new StorageCodecError(path, `invalid size ${showValue(value)}: must not be negative`);
    }
    if (value > Number.MAX_SAFE_INTEGER) {
      throw new StorageCodecError(
        path,
        `invalid size ${showValue(value)}: larger than ${Number.MAX_SAFE_INTEGER} bytes`,
      );
    }
    return value === 0 ? 0 : value; // no -0
  }
  if (typeof value !== "string") {
    throw new StorageCodecError(path, `invalid size ${showValue(value)}: must be an integer or a string such as "40M"`);
  }
  const match = SIZE_PATTERN.exec(value);
  if (match === null) {
    throw new StorageCodecError(
      path,
      `invalid size ${showValue(value)}: expected decimal digits with an optional suffix K, KB, M, MB, G, GB, T, TB, P, PB or B`,
    );
  }
  const digits = match[1] ?? "";
  const multiplier = SIZE_SUFFIXES[(match[2] ?? "").toLowerCase()] ?? 1n;
  const bytes = BigInt(digits) * multiplier;
  if (bytes > MAX_SAFE) {
    throw new StorageCodecError(path, `invalid size ${showValue(value)}: larger than ${Number.MAX_SAFE_INTEGER} bytes`);
  }
  return Number(bytes);
}

const FORMAT_SUFFIXES: ReadonlyArray<readonly [string, number]> = [
  ["P", 1024 ** 5],
  ["T", 1024 ** 4],
  ["G", 1024 ** 3],
  ["M", 1024 ** 2],
  ["K", 1024],
];

/**
 * The canonical spelling of a byte count: the largest single-letter binary suffix
 * that divides it exactly (`41943040` → `"40M"`, `4096` → `"4K"`), otherwise the
 * plain digits (`1023` → `"1023"`, `0` → `"0"`). `parseSize(formatSize(n)) === n`.
 * Throws a StorageCodecError for a negative, fractional or unsafe number.
 *
 * @example
 * ```ts
 * import { formatSize } from "clusterwire/storage";
 *
 * console.log(formatSize(41943040)); // "40M"
 * ```
 */
export function formatSize(bytes: number, path = ""): string {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new StorageCodecError(path, `invalid size ${showValue(bytes)}: must be a non-negative safe integer`);
  }
  if (bytes === 0) return "0";
  for (const [suffix, multiplier] of FORMAT_SUFFIXES) {
    if (bytes % multiplier === 0) return `${bytes / multiplier}${suffix}`;
  }
  return String(bytes);
}

const DURATION_PATTERN = /^P(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?$/;

/**
 * Reads an ISO 8601 duration `P[nD][T[nH][nM][nS]]` with integer parts to whole
 * seconds (a day is 86400 s; `PT90M` → 5400). At least one component is required
 * and `T` must precede H/M/S; months, years, weeks, fractions and lower case are
 * refused with a StorageCodecError at `path`.
 *
 * @example
 * ```ts
 * import { parseDuration } from "clusterwire/storage";
 *
 * console.log(parseDuration("PT1H30M")); // 5400
 * ```
 */
export function parseDuration(value: unknown, path = ""): number {
  if (typeof value !== "string") {
    throw new StorageCodecError(path, `invalid duration ${showValue(value)}: must be an ISO 8601 duration string`);
  }
  const match = DURATION_PATTERN.exec(value);
  const bad = (why: string): StorageCodecError =>
    new StorageCodecError(path, `invalid duration ${showValue(value)}: ${why}`);
  if (match === null) {
    if (/^P(?:[0-9]+Y)|^P(?:[0-9]+Y)?[0-9]+M/.test(value)) {
      throw bad("months and years have no fixed length and are not accepted");
    }
    throw bad("expected P[nD][T[nH][nM][nS]] with integer parts, e.g. PT1H10M");
  }
  const [, d, h, m, s] = match;
  if (d === undefined && h === undefined && m === undefined && s === undefined) {
    throw bad("at least one component is required");
  }
  if (value.includes("T") && h === undefined && m === undefined && s === undefined) {
    throw bad("T must be followed by hours, minutes or seconds");
  }
  const total = BigInt(d ?? "0") * 86400n + BigInt(h ?? "0") * 3600n + BigInt(m ?? "0") * 60n + BigInt(s ?? "0");
  if (total > MAX_SAFE) throw bad("too long");
  return Number(total);
}

/**
 * The canonical ISO 8601 spelling of a whole number of seconds, normalised to
 * days, hours, minutes and seconds: `4200` → `"PT1H10M"`, `86400` → `"P1D"`,
 * `90061` → `"P1DT1H1M1S"`, `0` → `"PT0S"`. `parseDuration(formatDuration(s)) === s`.
 *
 * @example
 * ```ts
 * import { formatDuration } from "clusterwire/storage";
 *
 * console.log(formatDuration(5400)); // "PT1H30M"
 * ```
 */
export function formatDuration(seconds: number, path = ""): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new StorageCodecError(
      path,
      `invalid duration ${showValue(seconds)}: must be a non-negative whole number of seconds`,
    );
  }
  if (seconds === 0) return "PT0S";
  const days = Math.floor(seconds / 86400);
  let rest = seconds % 86400;
  const hours = Math.floor(rest / 3600);
  rest %= 3600;
  const minutes = Math.floor(rest / 60);
  const secs = rest % 60;
  let out = "P";
  if (days > 0) out += `${days}D`;
  if (hours > 0 || minutes > 0 || secs > 0) {
    out += "T";
    if (hours > 0) out += `${hours}H`;
    if (minutes > 0) out += `${minutes}M`;
    if (secs > 0) out += `${secs}S`;
  }
  return out;
}
