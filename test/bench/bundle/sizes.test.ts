// Sizes are bytes of deterministic esbuild output (same source tree and
// lockfile, same bytes), so these are not timing tests.
import { describe, expect, it } from "vitest";
import { SIZE_ENTRIES, bundleNetworking, entrySource, measure } from "../../../bench/bundle/sizes.js";

describe("browser bundle sizes of clusterwire/networking", () => {
  const measured = SIZE_ENTRIES.map(measure);

  for (const m of measured) {
    it(`${m.entry.name}: ${m.gzipped} B gzipped is within its budget`, () => {
      expect(m.gzipped, `${m.entry.name} is over budget: ${m.gzipped} B > ${m.entry.budget} B`).toBeLessThanOrEqual(
        m.entry.budget,
      );
    });
  }

  it("measures the minified bundle itself, the same bytes each time", () => {
    const entry = SIZE_ENTRIES[0]!;
    const text = bundleNetworking(entry.imports).text;
    const m = measure(entry);
    expect(m.minified).toBe(Buffer.byteLength(text));
    expect(m.gzipped).toBeLessThan(m.minified);
    expect(measure(entry)).toEqual(m);
  });

  it("the full surface is the largest bundle, and every single part is smaller", () => {
    const full = measured.find((m) => m.entry.imports === "*")!;
    for (const m of measured) if (m !== full) expect(m.gzipped).toBeLessThan(full.gzipped);
  });

  it("the entries import real exports", () => {
    expect(entrySource(["validate"])).toBe('export { validate } from "./src/networking/index.ts";');
    // esbuild drops a re-export it cannot find (it may be a type), so a
    // misspelt name would measure an empty bundle: each name must be exported.
    for (const entry of SIZE_ENTRIES) {
      if (entry.imports === "*") continue;
      const text = bundleNetworking(entry.imports).text;
      const exported = /export\{([^}]*)\}/
        .exec(text)?.[1]
        ?.split(",")
        .map((p) => p.split(" as ").pop());
      expect(exported?.sort()).toEqual([...entry.imports].sort());
    }
    expect(/export\{([^}]*)\}/.exec(bundleNetworking(["noSuchExport"]).text)).toBeNull();
  });
});
