// The heatmap's look, one home for it: the colour, text colour, glyph, hatch and
// hatch ink of each kind of cell. The writer (heatmap.ts) puts them in the page's
// CSS, legend and cell table and hands them to the page's script in the embedded
// data (heatmap-data.ts); the playground's Reach grid uses the same colours and
// glyphs (test/playground/colours.test.ts holds the two together). Plain data,
// no Node and no DOM: the browser page imports its types.

/**
 * Cell colours by code (bit 0 egress denied, bit 1 ingress denied), shared by
 * the CSS and the canvas. Blue against a ramp of oranges and browns, after
 * Okabe and Ito's palette: allowed and denied stay far apart for red-green
 * colour blindness (deuteranopia, protanopia) and for tritanopia, which red
 * against green does not. Colour is never the only signal: denied cells are
 * hatched (HEATMAP_HATCH), and the cell table, the legend and the playground's
 * grid carry HEATMAP_GLYPHS.
 */
export const HEATMAP_COLOURS = Object.freeze({
  allowed: "#0072b2",
  egressDenied: "#e69f00",
  ingressDenied: "#9b3b00",
  bothDenied: "#2b0a00",
});

/** The text colour on each cell colour: a contrast of at least 4.5:1 (WCAG AA for text). */
export const HEATMAP_TEXT = Object.freeze({
  allowed: "#ffffff",
  egressDenied: "#000000",
  ingressDenied: "#ffffff",
  bothDenied: "#ffffff",
});

/** The glyph of each kind of cell, read without colour: ✓ allowed, E and I the denying direction, ✗ both. */
export const HEATMAP_GLYPHS = Object.freeze({
  allowed: "\u2713",
  egressDenied: "E",
  ingressDenied: "I",
  bothDenied: "\u2717",
});

/**
 * The hatch over each kind of cell on the canvas (cells of 3 canvas pixels
 * and more): none on allowed cells, stripes falling to the right (a backslash) where
 * egress denies, rising (/) where ingress denies, crossed (X) where both do.
 * Drawn in HEATMAP_INK.
 */
export const HEATMAP_HATCH = Object.freeze({
  allowed: "",
  egressDenied: "\\",
  ingressDenied: "/",
  bothDenied: "X",
});

/** The hatch's stripes on each cell colour: at least 3:1 against it (WCAG's contrast for graphics). */
export const HEATMAP_INK = Object.freeze({
  allowed: "#0072b2",
  egressDenied: "#5c3f00",
  ingressDenied: "#f2c9a6",
  bothDenied: "#c98b6b",
});

/** The kinds of cell by code, in the order of the bits. */
export const HEATMAP_KINDS = Object.freeze(["allowed", "egressDenied", "ingressDenied", "bothDenied"] as const);

/** A kind of cell: `allowed`, `egressDenied`, `ingressDenied` or `bothDenied`. */
export type HeatmapKind = (typeof HEATMAP_KINDS)[number];
