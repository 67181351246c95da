// go-yaml's timestamp check is Go's time.Parse with these layouts, as the API
// server's Go has it (1.20 and later): a fraction of a second may have more
// than 9 digits, those past nanoseconds being ignored. Go 1.19 (Debian's, which
// the YAML oracle was built with until it moved to Go modules) refuses them,
// so an explicit `!!timestamp` with 10 fractional digits was an error there
// and is read here.
type TimeField = "year" | "month" | "day" | "hour" | "minute" | "second" | "frac" | "tz";
type TimeLayout = readonly (TimeField | { readonly lit: string })[];
const DATE: TimeLayout = ["year", { lit: "-" }, "month", { lit: "-" }, "day"];
const CLOCK: TimeLayout = ["hour", { lit: ":" }, "minute", { lit: ":" }, "second", "frac"];
const TIMESTAMP_LAYOUTS: readonly TimeLayout[] = [
  [...DATE, { lit: "T" }, ...CLOCK, "tz"], // 2006-1-2T15:4:5.999999999Z07:00
  [...DATE, { lit: "t" }, ...CLOCK, "tz"], // 2006-1-2t15:4:5.999999999Z07:00
  [...DATE, { lit: " " }, ...CLOCK], // 2006-1-2 15:4:5.999999999
  DATE, // 2006-1-2
];

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  const d0 = s.charCodeAt(0) - 0x30;
  if (!isDigitAt(s, 1)) return fixed ? undefined : [d0, s.slice(1)];
  return [d0 * 10 + s.charCodeAt(1) - 0x30, s.slice(2)];
}

/** Go's time.skip: a space in the layout matches a run of spaces. */
function skipLiteral(value: string, lit: string): string | undefined {
  let v = value;
  let p = lit;
  while (p.length > 0) {
    if (p[0] === " ") {
      if (v.length > 0 && v[0] !== " ") return undefined;
      p = p.replace(/^ +/, "");
      v = v.replace(/^ +/, "");
      continue;
    }
    if (v.length === 0 || v[0] !== p[0]) return undefined;
    p = p.slice(1);
    v = v.slice(1);
  }
  return v;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function goTimeParses(layout: TimeLayout, value: string): boolean {
  let v = value;
  let year = 0;
  let month = 0;
  let day = 0;
  let inRange = true;
  for (const field of layout) {
    if (typeof field !== "string") {
      const rest = skipLiteral(v, field.lit);
      if (rest === undefined) return false;
      v = rest;
      continue;
    }
    if (field === "year") {
      if (!/^[0-9]{4}/.test(v)) return false;
      year = Number(v.slice(0, 4));
      v = v.slice(4);
    } else if (field === "frac") {
      if (v.length >= 2 && (v[0] === "." || v[0] === ",") && isDigitAt(v, 1)) {
        // Any number of digits: Go 1.20+ time.Parse ignores those past nanoseconds (see the header).
        let i = 1;
        while (isDigitAt(v, i + 1)) i++;
        v = v.slice(i + 1);
      }
    } else if (field === "tz") {
      if (v[0] === "Z") {
        v = v.slice(1);
        continue;
      }
      if (v.length < 6 || v[3] !== ":") return false;
      const hh = getnum(v.slice(1, 3), true);
      const mm = getnum(v.slice(4, 6), true);
      if (hh === undefined || mm === undefined || (v[0] !== "+" && v[0] !== "-")) return false;
      if (hh[0] > 24 || mm[0] > 60) inRange = false;
      v = v.slice(6);
    } else {
      const got = getnum(v, false);
      if (got === undefined) return false;
      const [n, rest] = got;
      v = rest;
      if (field === "month") {
        month = n;
        if (n < 1 || n > 12) inRange = false;
      } else if (field === "day") day = n;
      else if (n >= (field === "hour" ? 24 : 60)) inRange = false;
    }
  }
  return v === "" && inRange && day >= 1 && day <= daysIn(month, year);
}

export function isGoTimestamp(s: string): boolean {
  // Quick check as in go-yaml: exactly four digits, then '-'.
  if (!/^[0-9]{4}-/.test(s)) return false;
  return TIMESTAMP_LAYOUTS.some((layout) => goTimeParses(layout, s));
}
