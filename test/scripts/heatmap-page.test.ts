// scripts/heatmap-page.mjs: the committed bundle of the heatmap page
// (src/cli/reach/heatmap-page-bundle.ts) is what the sources bundle to now,
// and the bundle is a classic script and a style sheet an inline page can carry.
// test/cli/reach/heatmap.test.ts drives the page itself in Chromium.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUNDLE_FILE, bundleHeatmapPage } from "../../scripts/heatmap-page.mjs";
import { HEATMAP_SCRIPT, HEATMAP_STYLE } from "../../src/cli/reach/heatmap-page-bundle.js";

describe("scripts/heatmap-page.mjs", () => {
  it("gives, run again, the committed heatmap-page-bundle.ts byte for byte (npm run heatmap-page rewrites it)", async () => {
    const fresh = await bundleHeatmapPage();
    expect(readFileSync(BUNDLE_FILE, "utf8") === fresh.module, "npm run heatmap-page, then commit the bundle").toBe(
      true,
    );
    expect([HEATMAP_SCRIPT, HEATMAP_STYLE]).toEqual([fresh.script, fresh.style]);
  });

  it("bundles one minified classic script with no module syntax, eval or markup, and a minified style", () => {
    expect(HEATMAP_SCRIPT).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(HEATMAP_SCRIPT).toMatch(/\}\)\(\);$/);
    expect(HEATMAP_SCRIPT).not.toMatch(/^\s*(import|export)\s|\beval\s*\(|\bnew Function\s*\(|<\/script|<!--/im);
    expect(HEATMAP_SCRIPT).not.toContain("\n");
    // The script reads the page's data and elements by the ids the writer gives them.
    for (const id of ["heatmap-data", "cells", "overlay", "top", "left", "tooltip", "status", "zoom-level", "error"])
      expect(HEATMAP_SCRIPT, id).toContain(`"${id}"`);
    expect(HEATMAP_STYLE).toContain("#cells{display:block;");
    expect(HEATMAP_STYLE).not.toMatch(/<\/style|\/\*/i);
  });
});
