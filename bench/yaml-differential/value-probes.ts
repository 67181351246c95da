/**
 * Value probes for the raw modes: seeded texts that reach what the object
 * generator never does at value level, because its texts are valid
 * networking objects (issue 17): float keys and values of every magnitude
 * (sigs.k8s.io/yaml writes float keys at 32-bit precision), integers at the
 * int64/uint64 edges in every YAML 1.1 base, `!!binary` of arbitrary bytes
 * (invalid UTF-8 included), timestamps tagged and untagged, and `<<` merge
 * precedence, and a key JSON cannot hold (null, uint64) inside a value that
 * a later repeat of its key replaces. One probe is a mapping of top-level
 * keys `k0`, `k1`, ..., each written once (twice, on adjacent entries, for a
 * `replaced` entry); any key that is not a plain string sits alone in its
 * own one-key mapping,
 * so that no two keys stringify alike (when they do, Go's answer follows its
 * randomised map order and no answer is the right one).
 */
import { Choices } from "./generator.js";
import type { Chooser } from "./wide.js";

export type ProbeArea = "float" | "float-key" | "int" | "int-key" | "binary" | "timestamp" | "merge" | "replaced";

export const PROBE_AREAS: readonly ProbeArea[] = [
  "float",
  "float-key",
  "int",
  "int-key",
  "binary",
  "timestamp",
  "merge",
  "replaced",
];

const EXPONENTS = [
  -324, -50, -46, -45, -44, -39, -38, -37, -8, -7, -6, -5, 0, 1, 6, 7, 8, 15, 16, 17, 20, 21, 22, 38, 39, 300, 308, 309,
];

/** A double from random bits (finite), a decimal near an interesting exponent, or a float32 neighbour. */
function floatText(c: Chooser): string {
  switch (c.int(4)) {
    case 0: {
      const view = new DataView(new ArrayBuffer(8));
      view.setUint32(0, c.int(2 ** 32));
      view.setUint32(4, c.int(2 ** 32));
      const x = view.getFloat64(0);
      return Number.isFinite(x) ? String(x) : "1.5";
    }
    case 1: {
      const mantissa = (c.int(100_000) / 10_000).toFixed(c.int(12));
      return `${c.pick(["", "-", "+"])}${mantissa}${c.pick(["e", "E"])}${c.pick(["", "+"])}${c.pick(EXPONENTS)}`;
    }
    case 2: {
      const f = Math.fround((c.int(2 ** 24) + 1) * 2 ** (c.int(80) - 60));
      return String(f * c.pick([1, 1 + 2 ** -30, 1 - 2 ** -30]));
    }
    default:
      return c.pick([
        ".5",
        "-.5",
        "+.5",
        "1.",
        "-1.e3",
        "1_000.5",
        "685.230_15e+03",
        "0.0",
        "-0.0",
        "1e21",
        "1e20",
        "3.4028235e38",
        "3.4028236e38",
        "1.4e-45",
        "7e-46",
        "16777217.0",
        "9007199254740993.0",
        "!!float 1",
        "!!float 9007199254740993",
        "!!float '2.5'",
        ".inf",
        "-.Inf",
        ".NaN",
      ]);
  }
}

function digits(c: Chooser, n: number): string {
  let s = String(1 + c.int(9));
  for (let i = 1; i < n; i++) s += String(c.int(10));
  return s;
}

/** Integers around 2^53, 2^63 and 2^64, in decimal, hex, octal (0o and 0) and binary, with signs and underscores. */
function intText(c: Chooser): string {
  const edge = c.pick([2n ** 53n, 2n ** 63n, 2n ** 64n, 10n ** 18n]);
  const n = c.chance(0.5) ? edge + BigInt(c.int(5)) - 2n : BigInt(digits(c, 1 + c.int(22)));
  const sign = c.pick(["", "", "-", "+"]);
  switch (c.int(6)) {
    case 0:
      return `${sign}0x${n.toString(16)}`;
    case 1:
      return `${sign}0o${n.toString(8)}`;
    case 2:
      return `${sign}0${n.toString(8)}`;
    case 3:
      return `${sign}0b${n.toString(2)}`;
    case 4:
      return `${sign}${n.toString().replace(/(\d)(?=(\d{3})+$)/g, "$1_")}`;
    default:
      return c.chance(0.2) ? `!!int ${sign}${n}` : `${sign}${n}`;
  }
}

/** Bytes that make UTF-8 interesting: ASCII, continuation bytes, overlongs, surrogates, beyond U+10FFFF. */
const BYTE_POOL = [
  0x00, 0x09, 0x0a, 0x22, 0x3c, 0x41, 0x5c, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xa9, 0xe0, 0xa0, 0xed, 0xf0, 0x9f,
  0x98, 0xf4, 0x8f, 0x90, 0xf5, 0xfe, 0xff, 0xef, 0xbb, 0xe2, 0xa8,
];

function binaryText(c: Chooser): string {
  const bytes = Array.from({ length: c.int(12) }, () => (c.chance(0.7) ? c.pick(BYTE_POOL) : c.int(256)));
  let b64 = Buffer.from(bytes).toString("base64");
  if (c.chance(0.1)) b64 = b64.replace(/=+$/, "");
  if (c.chance(0.1) && b64.length > 2) b64 = `${b64.slice(0, 2)}${c.pick([" ", "\\n", "\\t"])}${b64.slice(2)}`;
  return `!!binary "${b64}"`;
}

/** Times of day; the last has 10 fraction digits, one more than a nanosecond holds. */
const TIMES = ["", "21:59:43", "1:2:3", "21:59:43.10", "21:59:43.123456789", "25:00:00", "21:59:43.1234567891"];

/**
 * A timestamp-like scalar, tagged `!!timestamp` or not. A tagged one never
 * has more than 9 fraction digits: go-yaml parses it with time.Parse, which
 * refuses the extra digits in the oracle's Go 1.19 but, since Go 1.20,
 * ignores sub-nanosecond digits, and the API server's Go is newer than 1.20;
 * clusterwire follows the API server, so the oracle cannot judge those.
 * Untagged, a failed parse leaves a string in every Go, so they stay.
 */
function timestampText(c: Chooser): string {
  const tagged = c.chance(0.3);
  const t = [
    c.pick(["2001", "1999", "0001", "9999", "20011"]),
    "-",
    c.pick(["1", "01", "12", "13", "00"]),
    "-",
    c.pick(["1", "01", "29", "31", "32"]),
    c.pick(["", "t", "T", " ", "  "]),
    c.pick(tagged ? TIMES.slice(0, -1) : TIMES),
    c.pick(["", "Z", "z", "-5", "-05:00", "+5:30", " -5", " Z"]),
  ].join("");
  return tagged ? `!!timestamp ${t}` : t;
}

/** A flow mapping over string keys a-d, with merges of earlier anchors, nested up to three levels. */
function mergeMap(c: Chooser, anchors: readonly string[], depth: number): string {
  const parts: string[] = [];
  for (let i = c.int(4); i > 0; i--) {
    if (depth < 3 && c.chance(0.3))
      parts.push(`${c.pick(["<<", "<<", "!!merge <<", "'<<'"])}: ${mergeValue(c, anchors, depth + 1)}`);
    else
      parts.push(
        `${c.pick(["a", "b", "c", "d"])}: ${depth < 3 && c.chance(0.2) ? mergeMap(c, anchors, depth + 1) : c.int(10)}`,
      );
  }
  return `{${parts.join(", ")}}`;
}

function mergeValue(c: Chooser, anchors: readonly string[], depth: number): string {
  const r = c.int(10);
  if (anchors.length > 0 && r < 4) return `*${c.pick(anchors)}`;
  if (anchors.length > 0 && r < 7)
    return `[${Array.from({ length: 1 + c.int(3) }, () => (c.chance(0.8) ? `*${c.pick(anchors)}` : mergeMap(c, anchors, depth + 1))).join(", ")}]`;
  if (r < 8) return c.pick(["~", "[]", "{}", "1", "[1]"]);
  return mergeMap(c, anchors, depth + 1);
}

/** One entry (`kN: ...`, possibly several lines) of a probe in the given area. */
function entry(c: Chooser, area: ProbeArea, key: string, anchors: string[]): string {
  switch (area) {
    case "float":
      return `${key}: ${c.chance(0.5) ? floatText(c) : `[${floatText(c)}]`}`;
    case "float-key":
      return c.chance(0.5) ? `${key}: {${floatText(c)}: v}` : `${key}:\n  ? ${floatText(c)}\n  : v`;
    case "int":
      return `${key}: ${intText(c)}`;
    case "int-key":
      return `${key}: {${intText(c)}: v}`;
    case "binary":
      return c.chance(0.7) ? `${key}: ${binaryText(c)}` : `${key}:\n  ? ${binaryText(c)}\n  : v`;
    case "timestamp":
      return c.chance(0.7) ? `${key}: ${timestampText(c)}` : `${key}: {${timestampText(c)}: v}`;
    case "replaced": {
      // The same key twice: non-strict readings keep the second value only, strict ones refuse.
      const odd = c.pick(["~", "null", "9223372036854775808", "18446744073709551615", "[1]", "{a: 1}", "1.5", "true"]);
      const first = c.chance(0.5) ? `{${odd}: 1}` : `[{${odd}: 1}]`;
      return `${key}: ${first}\n${key}: ${c.pick(["2", "{b: 1}", "~"])}`;
    }
    default: {
      const anchor = `m${anchors.length}`;
      const text = `${key}: &${anchor} ${mergeMap(c, anchors, 0)}`;
      anchors.push(anchor);
      return text;
    }
  }
}

/** The probe text for a seed: one to six entries, each from one area (most probes stay in one area). */
export function renderValueProbe(seed: number): { readonly text: string; readonly areas: readonly ProbeArea[] } {
  const c = new Choices(seed);
  const main = c.pick(PROBE_AREAS);
  const areas = new Set<ProbeArea>();
  const anchors: string[] = [];
  const lines: string[] = [];
  const n = 1 + c.int(6);
  for (let i = 0; i < n; i++) {
    const area = c.chance(0.8) ? main : c.pick(PROBE_AREAS);
    areas.add(area);
    lines.push(entry(c, area, `k${i}`, anchors));
  }
  if (anchors.length > 0 && c.chance(0.8)) {
    // A mapping that merges the anchored ones and overrides some keys, before or after.
    const merged = [`out:`];
    for (let i = c.int(4); i >= 0; i--)
      merged.push(
        c.chance(0.5)
          ? `  ${c.pick(["<<", "!!merge <<"])}: ${mergeValue(c, anchors, 0)}`
          : `  ${c.pick(["a", "b", "c", "d"])}: ${c.pick(["1", "x", "~", `*${c.pick(anchors)}`])}`,
      );
    lines.push(merged.join("\n"));
  }
  return { text: `${lines.join("\n")}\n`, areas: [...areas] };
}
