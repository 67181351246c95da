/*
 * meta.v1.Time in Kubernetes JSON: RFC 3339 in UTC, whole seconds. Computed
 * with bigint day arithmetic so every int64 second count formats without
 * Date's ±8.64e15 ms range limit.
 */

const SECONDS_PER_DAY = 86400n;

/** Days since 1970-01-01 -> civil date (proleptic Gregorian). */
function civilFromDays(days: bigint): { y: bigint; m: number; d: number } {
  const z = days + 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = Number(doy - (153n * mp + 2n) / 5n + 1n);
  const m = Number(mp < 10n ? mp + 3n : mp - 9n);
  const y = yoe + era * 400n + (m <= 2 ? 1n : 0n);
  return { y, m, d };
}

/** Civil date -> days since 1970-01-01. */
function daysFromCivil(y: number, m: number, d: number): bigint {
  const yy = BigInt(m <= 2 ? y - 1 : y);
  const era = (yy >= 0n ? yy : yy - 399n) / 400n;
  const yoe = yy - era * 400n;
  const mm = BigInt(m);
  const doy = (153n * (mm > 2n ? mm - 3n : mm + 9n) + 2n) / 5n + BigInt(d) - 1n;
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/**
 * Formats Unix seconds as Go's `t.UTC().Format(time.RFC3339)`.
 *
 * @example
 * ```ts
 * import { formatRfc3339 } from "clusterwire/networking";
 *
 * console.log(formatRfc3339(0n)); // "1970-01-01T00:00:00Z"
 * ```
 */
export function formatRfc3339(seconds: bigint): string {
  const days = floorDiv(seconds, SECONDS_PER_DAY);
  const secOfDay = Number(seconds - days * SECONDS_PER_DAY);
  const { y, m, d } = civilFromDays(days);
  // Go pads the year to four digits and prefixes a minus sign for negative years.
  const year = y < 0n ? `-${(-y).toString().padStart(4, "0")}` : y.toString().padStart(4, "0");
  const hh = Math.floor(secOfDay / 3600);
  const mi = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  return `${year}-${pad2(m)}-${pad2(d)}T${pad2(hh)}:${pad2(mi)}:${pad2(ss)}Z`;
}

// Go reads the layout's hour ("15") as one or two digits, every other field as exactly
// the digits written, and a zone offset of up to 24 hours and 60 minutes.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 date-time as Go's time.Parse(time.RFC3339) accepts it and
 * returns whole Unix seconds (fractions are dropped, as Kubernetes drops them).
 * Returns a reason string when the text is not valid.
 *
 * @example
 * ```ts
 * import { parseRfc3339 } from "clusterwire/networking";
 *
 * const seconds = parseRfc3339("2024-05-01T12:00:00+02:00");
 * if (typeof seconds === "string") throw new Error(seconds);
 * console.log(seconds); // 1714557600n
 * ```
 */
export function parseRfc3339(text: string): bigint | string {
  const m = RFC3339.exec(text);
  if (m === null) return `cannot parse ${JSON.stringify(text)} as RFC 3339 (want e.g. "2006-01-02T15:04:05Z")`;
  const [year, month, day, hour, min, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12) return `month out of range in ${JSON.stringify(text)}`;
  if (day < 1 || day > daysIn(year, month)) return `day out of range in ${JSON.stringify(text)}`;
  if (hour > 23) return `hour out of range in ${JSON.stringify(text)}`;
  if (min > 59) return `minute out of range in ${JSON.stringify(text)}`;
  if (sec > 59) return `second out of range in ${JSON.stringify(text)}`;
  let offset = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 24 || om > 60) return `time zone offset out of range in ${JSON.stringify(text)}`;
    offset = (oh * 3600 + om * 60) * (m[9] === "-" ? -1 : 1);
  }
  return daysFromCivil(year, month, day) * SECONDS_PER_DAY + BigInt(hour * 3600 + min * 60 + sec - offset);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
