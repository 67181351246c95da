import { INT64_MAX, UINT64_MAX } from "./resolve.js";

// Go number formatting.

/** strconv.FormatFloat(x, 'g', -1, bits) with go-yaml's names for NaN and infinities. */
export function goFormatFloat(x: number, bits: 32 | 64): string {
  // Narrowed first, as strconv.FormatFloat(x, 'g', -1, 32) does: 1e40 is +Inf as a float32.
  const v = bits === 32 ? Math.fround(x) : x;
  if (Number.isNaN(v)) return ".nan";
  if (v === Number.POSITIVE_INFINITY) return ".inf";
  if (v === Number.NEGATIVE_INFINITY) return "-.inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const a = Math.abs(v);
  let sci = a.toExponential(); // shortest digits that round-trip a float64
  if (bits === 32) {
    for (let p = 0; p <= 8; p++) {
      let s = a.toExponential(p);
      if (Math.fround(Number(s)) === a) {
        // toExponential breaks an exact tie upwards; Go's shortest formatting
        // (Ryu) breaks it to the even digit. A tie: the exact value's digits
        // past the p+1 kept are a 5 and then zeros.
        const [mant = "0", exp = "0"] = a.toExponential(p + 60).split("e");
        const digits = mant.replace(".", "");
        const kept = digits.slice(0, p + 1);
        if (/^50*$/.test(digits.slice(p + 1)) && Number(kept[kept.length - 1]) % 2 === 0) {
          s = `${kept[0]}${p > 0 ? `.${kept.slice(1)}` : ""}e${exp}`;
        }
        sci = s;
        break;
      }
    }
  }
  const [mant = "0", e = "0"] = sci.split("e");
  const digits = mant.replace(".", "");
  const exp = Number(e);
  const sign = v < 0 ? "-" : "";
  // Shortest 'g' switches to %e when the exponent is < -4 or >= 6.
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? "." + digits.slice(1) : "";
    const ae = Math.abs(exp);
    return `${sign}${digits[0] ?? "0"}${frac}e${exp < 0 ? "-" : "+"}${ae < 10 ? "0" : ""}${ae}`;
  }
  const dp = exp + 1; // digits before the decimal point
  if (dp <= 0) return `${sign}0.${"0".repeat(-dp)}${digits}`;
  if (dp >= digits.length) return sign + digits + "0".repeat(dp - digits.length);
  return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

/**
 * The YAML text of a JSON number after go-yaml read it from JSON: integers in
 * int64/uint64 range print in decimal, everything else as a Go float64.
 */
export function formatNumber(n: number | bigint): string {
  if (typeof n === "bigint") {
    if (n >= -(INT64_MAX + 1n) && n <= UINT64_MAX) return n.toString();
    return goFormatFloat(Number(n), 64);
  }
  if (Number.isInteger(n)) {
    const b = BigInt(n);
    if (b >= -(INT64_MAX + 1n) && b <= UINT64_MAX) return b.toString();
  }
  return goFormatFloat(n, 64);
}
