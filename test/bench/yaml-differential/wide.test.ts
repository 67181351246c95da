import { describe, expect, it } from "vitest";
import { Choices } from "../../../bench/yaml-differential/generator.js";
import {
  WIDE_FEATURES,
  deepField,
  oddEntry,
  wideInt,
  wideString,
  type WideFeature,
} from "../../../bench/yaml-differential/wide.js";

function collect(): { notes: WideFeature[]; note: (f: WideFeature) => void } {
  const notes: WideFeature[] = [];
  return { notes, note: (f) => notes.push(f) };
}

/** The integer a YAML 1.1 int spelling means, by the spec's regular expressions, written plainly; undefined if not an int. */
function yaml11Int(s: string): number | undefined {
  const t = s.replaceAll("_", "");
  let m = /^([-+]?)0b([01]+)$/.exec(t);
  if (m) return (m[1] === "-" ? -1 : 1) * Number.parseInt(m[2] as string, 2);
  m = /^([-+]?)0x([0-9a-fA-F]+)$/.exec(t);
  if (m) return (m[1] === "-" ? -1 : 1) * Number.parseInt(m[2] as string, 16);
  m = /^([-+]?)0([0-7]+)$/.exec(t);
  if (m) return (m[1] === "-" ? -1 : 1) * Number.parseInt(m[2] as string, 8);
  m = /^([-+]?)([1-9][0-9]*(?::[0-5]?[0-9])+)$/.exec(t);
  if (m) {
    const n = (m[2] as string).split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
    return (m[1] === "-" ? -1 : 1) * n;
  }
  m = /^[-+]?(0|[1-9][0-9]*)$/.exec(t);
  if (m) return Number(t);
  return undefined;
}

describe("wideInt", () => {
  it("writes spellings whose YAML 1.1 integer reading is the value, or something deliberately else", () => {
    const c = new Choices(11);
    let ints = 0;
    for (let i = 0; i < 2000; i++) {
      const v = c.int(70000);
      const { notes, note } = collect();
      const s = wideInt(v, c, note);
      expect(notes).toHaveLength(1);
      if (notes[0] === "tag") {
        expect(s).toMatch(/^!/);
        continue;
      }
      const n = yaml11Int(s);
      if (n === undefined) continue; // floats, nulls, booleans, quoted: deliberately not this int
      ints++;
      if (s === `0${v}`) continue; // a leading zero: octal in YAML 1.1, deliberately not v
      expect({ s, n }).toEqual({ s, n: s.startsWith("-0x") ? -v : v });
    }
    expect(ints).toBeGreaterThan(300); // 454 of 2,000 when written
  });
});

describe("oddEntry", () => {
  it("writes long keys around go-yaml's 1,024-character limit for simple keys", () => {
    const c = new Choices(3);
    let long = 0;
    for (let i = 0; i < 500; i++) {
      const { notes, note } = collect();
      const line = oddEntry(c, note, "  ");
      expect(line.startsWith("  ")).toBe(true);
      expect(line.endsWith(": v")).toBe(true);
      if (notes[0] !== "long-key") continue;
      long++;
      const key = line.slice(2, -3).replaceAll('"', "");
      const chars = [...key].length;
      const bytes = new TextEncoder().encode(key).length;
      expect(Math.max(chars, bytes)).toBeGreaterThanOrEqual(1000);
      expect(Math.min(chars, bytes)).toBeLessThanOrEqual(1100);
    }
    expect(long).toBeGreaterThan(50);
  });
});

describe("deepField", () => {
  it("nests 94 to 105 levels", () => {
    const c = new Choices(5);
    for (let i = 0; i < 200; i++) {
      const text = deepField(c, () => undefined);
      const depth = Math.max(
        (text.match(/\[/g) ?? []).length,
        (text.match(/\{/g) ?? []).length,
        (text.match(/- /g) ?? []).length,
        text.includes("{") ? 0 : (text.match(/a:/g) ?? []).length + 1,
      );
      expect(depth).toBeGreaterThanOrEqual(94);
      expect(depth).toBeLessThanOrEqual(105);
    }
  });
});

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("wideString", () => {
  it("notes one feature of the list and writes a well-formed string", () => {
    const c = new Choices(9);
    const seen = new Set<WideFeature>();
    for (let i = 0; i < 3000; i++) {
      const { notes, note } = collect();
      const s = wideString(
        c.pick(["web", "web allow", "10.0.0.0/8", "é\u2028😀"]),
        c,
        note,
        4,
        c.chance(0.5),
        c.chance(0.5),
      );
      expect(notes).toHaveLength(1);
      expect(WIDE_FEATURES).toContain(notes[0]);
      seen.add(notes[0] as WideFeature);
      expect(LONE_SURROGATE.test(s)).toBe(false);
    }
    expect(seen.size).toBe(10);
  });
});
