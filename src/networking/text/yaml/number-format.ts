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
    const interval = float32Interval(a);
    for (let p = 0; p <= 8; p++) {
      let s = a.toExponential(p);
      if (roundsToFloat32(s, interval)) {
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

/** The decimals that strconv.ParseFloat(s, 32) reads as one float32: between two midpoints, ties to even. */
interface Float32Interval {
  readonly lowMid: number;
  readonly highMid: number;
  readonly even: boolean;
}

/** The rounding interval of `a`, a positive finite float32. Float32 midpoints are exact doubles. */
function float32Interval(a: number): Float32Interval {
  const bits = new Uint32Array(new Float32Array([a]).buffer)[0] as number;
  const below = bits === 1 ? 0 : float32FromBits(bits - 1);
  // Past the largest float32 the next step is 2^128, where ParseFloat overflows.
  const above = bits === 0x7f7fffff ? 2 ** 128 : float32FromBits(bits + 1);
  return { lowMid: (below + a) / 2, highMid: (a + above) / 2, even: (bits & 1) === 0 };
}

/**
 * Whether strconv.ParseFloat(s, 32) gives the float32 of `interval`, decided
 * exactly: `Math.fround(Number(s))` rounds twice (to a double, then to a
 * float32), which can land on the other neighbour.
 */
function roundsToFloat32(s: string, { lowMid, highMid, even }: Float32Interval): boolean {
  // Rounding to a double keeps order, so only a double that lands on a
  // midpoint leaves the side of the decimal open.
  const d = Number(s);
  if (d !== lowMid && d !== highMid) return d > lowMid && d < highMid;
  const low = compareDecimal(s, lowMid);
  const high = compareDecimal(s, highMid);
  return (low > 0 || (low === 0 && even)) && (high < 0 || (high === 0 && even));
}

function float32FromBits(bits: number): number {
  return new Float32Array(new Uint32Array([bits]).buffer)[0] as number;
}

/** The sign of (decimal `s`, as toExponential writes it) - (finite double `x` > 0), exactly. */
function compareDecimal(s: string, x: number): number {
  const [mant = "0", e = "0"] = s.split("e");
  const frac = mant.split(".")[1] ?? "";
  let n = BigInt(mant.replace(".", ""));
  let k = Number(e) - frac.length; // s = n * 10^k
  // x = m * 2^j, with m an integer.
  const word = new BigUint64Array(new Float64Array([x]).buffer)[0] as bigint;
  const biased = Number(word >> 52n);
  let m = word & ((1n << 52n) - 1n);
  let j: number;
  if (biased === 0) j = -1074;
  else {
    m |= 1n << 52n;
    j = biased - 1075;
  }
  if (k < 0) {
    m *= 10n ** BigInt(-k);
    k = 0;
  }
  if (j < 0) {
    n <<= BigInt(-j);
    j = 0;
  }
  const left = n * 10n ** BigInt(k);
  const right = m << BigInt(j);
  return left === right ? 0 : left < right ? -1 : 1;
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
