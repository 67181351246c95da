// The colours of the reach heatmap (`clusterwire reach --output html`) and of
// the playground's Reach grid: apart for red-green colour blindness, legible
// text on every cell, and a glyph besides the colour. The browser tests check
// the pages draw them (test/cli/reach/heatmap.test.ts, main.test.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  HEATMAP_COLOURS,
  HEATMAP_GLYPHS,
  HEATMAP_HATCH,
  HEATMAP_INK,
  HEATMAP_KINDS,
  HEATMAP_TEXT,
} from "../../src/cli/reach/heatmap-palette.js";
import { CELL_KINDS, type CellKind } from "../../src/playground/cells.js";
import { VISIONS, contrast, difference, type Vision } from "../support/colour-vision.js";

const root = new URL("../../", import.meta.url);
const read = (p: string) => readFileSync(new URL(p, root), "utf8");

/** The playground's class for each of the heatmap's kinds of cell. */
const PLAYGROUND_KIND: Record<(typeof HEATMAP_KINDS)[number], CellKind> = {
  allowed: "allow",
  egressDenied: "deny-egress",
  ingressDenied: "deny-ingress",
  bothDenied: "deny-both",
};

/** The smallest difference between allowed and any denied colour, and between two denied ones, for `vision`. */
function margins(colours: readonly string[], vision: Vision): { allowedDenied: number; denied: number } {
  const [allowed, ...denied] = colours;
  const allowedDenied = Math.min(...denied.map((d) => difference(allowed!, d, vision)));
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < denied.length; i++)
    for (let j = i + 1; j < denied.length; j++) least = Math.min(least, difference(denied[i]!, denied[j]!, vision));
  return { allowedDenied, denied: least };
}

/** Allowed against denied must be plain at a glance; the denying directions also have their glyph and hatch. */
const ALLOWED_DENIED_MIN = 50;
const DENIED_MIN = 25;

describe("the reach palette", () => {
  const palette = HEATMAP_KINDS.map((k) => HEATMAP_COLOURS[k]);

  it.each(VISIONS)("keeps allowed and denied apart for %s", (vision) => {
    const m = margins(palette, vision);
    expect(m.allowedDenied, `allowed against denied, ${vision}`).toBeGreaterThanOrEqual(ALLOWED_DENIED_MIN);
    expect(m.denied, `denied kinds among themselves, ${vision}`).toBeGreaterThanOrEqual(DENIED_MIN);
  });

  it("would fail with the red and green it replaced (the check can fail)", () => {
    const redGreen = ["#2ca25f", "#f28e2b", "#d62728", "#5b0a16"];
    expect(margins(redGreen, "normal").allowedDenied).toBeGreaterThanOrEqual(ALLOWED_DENIED_MIN);
    expect(margins(redGreen, "deuteranopia").allowedDenied).toBeLessThan(ALLOWED_DENIED_MIN);
    expect(margins(redGreen, "protanopia").allowedDenied).toBeLessThan(ALLOWED_DENIED_MIN);
    // The simulation moves colours at all: red and green draw together for a deuteranope.
    expect(difference("#ff0000", "#00ff00", "deuteranopia")).toBeLessThan(
      difference("#ff0000", "#00ff00", "normal") / 2,
    );
  });

  it("has text of at least 4.5:1 on every cell (WCAG AA), and hatching of at least 3:1", () => {
    for (const kind of HEATMAP_KINDS) {
      expect(contrast(HEATMAP_TEXT[kind], HEATMAP_COLOURS[kind]), kind).toBeGreaterThanOrEqual(4.5);
      if (HEATMAP_HATCH[kind] !== "")
        expect(contrast(HEATMAP_INK[kind], HEATMAP_COLOURS[kind]), kind).toBeGreaterThanOrEqual(3);
    }
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });

  it("gives each kind its own glyph and hatch, and only allowed cells none", () => {
    const glyphs = HEATMAP_KINDS.map((k) => HEATMAP_GLYPHS[k]);
    expect(new Set(glyphs).size).toBe(4);
    expect(glyphs.every((g) => g.trim() !== "")).toBe(true);
    const hatches = HEATMAP_KINDS.map((k) => HEATMAP_HATCH[k]);
    expect(hatches).toEqual(["", "\\", "/", "X"]);
  });
});

describe("the playground's Reach grid", () => {
  /** The background and text colours style.css gives a cell class. */
  function cssFor(kind: CellKind): { background: string; color: string } {
    const css = read("src/playground/style.css");
    const rule = new RegExp(`#reach-table button\\.${kind}[^{]*\\{([^}]*)\\}`).exec(css)?.[1] ?? "";
    return {
      background: /background:\s*(#[0-9a-f]{6})/i.exec(rule)?.[1] ?? `no background for ${kind}`,
      color: /(?:^|;)\s*color:\s*(#[0-9a-f]{6})/i.exec(rule)?.[1] ?? `no colour for ${kind}`,
    };
  }

  it("uses the heatmap's colours and glyphs, kind for kind", () => {
    for (const kind of HEATMAP_KINDS) {
      const cell = PLAYGROUND_KIND[kind];
      expect(cssFor(cell)).toEqual({ background: HEATMAP_COLOURS[kind], color: HEATMAP_TEXT[kind] });
      expect(CELL_KINDS[cell].glyph).toBe(HEATMAP_GLYPHS[kind]);
    }
    expect(read("src/playground/style.css")).not.toMatch(/#2e8b57|#c0504d|#7a1f1d/);
  });

  it("has a legend with each glyph on its colour, in the grid's order", () => {
    const html = read("src/playground/index.html");
    const legend = /<p class="hint legend"[^>]*>(.*?)<\/p>/s.exec(html)?.[1] ?? "";
    const swatches = [...legend.matchAll(/<span class="swatch ([a-z-]+)">([^<]*)<\/span>/g)].map((m) => [m[1], m[2]]);
    expect(swatches).toEqual(Object.entries(CELL_KINDS).map(([kind, look]) => [kind, look.glyph]));
  });
});
