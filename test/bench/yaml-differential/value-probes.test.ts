import { describe, expect, it } from "vitest";
import { PROBE_AREAS, renderValueProbe, type ProbeArea } from "../../../bench/yaml-differential/value-probes.js";
import { DecodeError, parseYamlDocuments } from "../../../src/networking/index.js";

const SEEDS = Array.from({ length: 3000 }, (_, i) => 7_000_000 + i);

describe("renderValueProbe", () => {
  it("is deterministic in its seed and varies with it", () => {
    expect(renderValueProbe(42)).toEqual(renderValueProbe(42));
    const texts = new Set(SEEDS.slice(0, 200).map((s) => renderValueProbe(s).text));
    expect(texts.size).toBeGreaterThan(190);
  });

  it("covers every area, and the spellings each area is for", () => {
    const seen = new Set<ProbeArea>();
    const all = SEEDS.map((s) => {
      const p = renderValueProbe(s);
      for (const a of p.areas) seen.add(a);
      return p.text;
    }).join("\n");
    expect([...seen].sort()).toEqual([...PROBE_AREAS].sort());
    for (const needle of ["!!binary", "!!timestamp", "<<: ", "!!merge", "0x", "0b", "0o", "e-4", "e+3", ": {"])
      expect(all, needle).toContain(needle);
    expect(all).toMatch(/\b9223372036854775\d{3}\b/);
    expect(all).toMatch(/\b1844674407370955\d{4}\b/);
  });

  it("never tags a timestamp with more than 9 fraction digits, and still writes untagged ones", () => {
    const all = SEEDS.map((s) => renderValueProbe(s).text).join("\n");
    expect(all).not.toMatch(/!!timestamp [^\n,}]*\.\d{10}/);
    expect(all).toMatch(/!!timestamp [^\n,}]*\.\d{9}/);
    expect(all).toMatch(/(?<!!!timestamp )\b\d{4}-\d{1,2}-\d{1,2}[tT ]+21:59:43\.\d{10}/);
  });

  it("writes top-level keys k0, k1, ... once each, a replaced entry's twice and adjacent", () => {
    let replaced = 0;
    for (const s of SEEDS.slice(0, 500)) {
      const { text, areas } = renderValueProbe(s);
      const top = text.split("\n").filter((l) => /^\S/.test(l));
      const keys = top.map((l) => l.slice(0, l.indexOf(":")));
      for (const k of keys) expect(k, text).toMatch(/^(k\d+|out)$/);
      const repeats = keys.filter((k, i) => keys.indexOf(k) !== i);
      for (const k of repeats) expect(keys[keys.indexOf(k) + 1], text).toBe(k);
      expect(new Set(repeats).size, text).toBe(repeats.length);
      if (repeats.length > 0) {
        expect(areas, text).toContain("replaced");
        replaced++;
      }
    }
    expect(replaced).toBeGreaterThan(10);
  });

  it("mostly renders texts clusterwire reads, and never makes it throw anything but a DecodeError", () => {
    let read = 0;
    for (const s of SEEDS) {
      const { text } = renderValueProbe(s);
      try {
        parseYamlDocuments(text, { uniqueKeys: false, reading: "server" });
        read++;
      } catch (e) {
        expect(e, text).toBeInstanceOf(DecodeError);
      }
    }
    // Some probes are refused on purpose (NaN, a null key, an !!int float); most must still read.
    expect(read).toBeGreaterThan(SEEDS.length * 0.5);
  });
});
