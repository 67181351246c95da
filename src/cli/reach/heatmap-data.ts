// What the heatmap's writer (heatmap.ts, in Node) and its page script
// (heatmap-page/, in the browser) agree on: the data the writer embeds as
// `<script type="application/json" id="heatmap-data">` and the page reads, and
// the pod count past which the page shades blocks of cells. Types and one
// constant, no Node and no DOM, so both sides compile against the same shape.
//
//   pods       pod keys in display order (namespaces sorted, then pod names)
//   index      for each display position, the pod's index in `matrix.pods`
//   namespaces [name, first display position, pod count], in display order
//   kinds, colours, ink, hatch   the palette (heatmap-palette.ts) the canvas draws with
//   cells      {encoding: "gzip" | "raw", base64}: 2 bits per cell, row-major
//              over display positions (row = source, column = destination),
//              cell i in byte i >> 2 at bit (i & 3) * 2; bit 0 = egress denied,
//              bit 1 = ingress denied. A cell is allowed iff both bits are 0
//              (E4); the writer checks the matrix agrees.
//   explain    null, or {texts, width, encoding, base64}: per cell two
//              little-endian `width`-byte indexes into `texts` (egress, ingress).

import type { HeatmapKind } from "./heatmap-palette.js";

/** Bytes as the page carries them: gzip when that is smaller, else raw; base64 either way. */
export interface PackedBytes {
  readonly encoding: "gzip" | "raw";
  readonly base64: string;
}

/** The reason of each cell's two directions: indexes into `texts`, `width` bytes each. */
export interface PackedExplain extends PackedBytes {
  readonly texts: readonly string[];
  readonly width: 2 | 4;
}

/** The embedded data, in the order the writer serialises it. */
export interface HeatmapData {
  readonly pods: readonly string[];
  readonly index: readonly number[];
  readonly namespaces: readonly (readonly [name: string, start: number, count: number])[];
  readonly protocol: string;
  readonly port: number;
  readonly kinds: readonly HeatmapKind[];
  readonly colours: Readonly<Record<HeatmapKind, string>>;
  readonly ink: Readonly<Record<HeatmapKind, string>>;
  readonly hatch: Readonly<Record<HeatmapKind, string>>;
  readonly cells: PackedBytes;
  readonly explain: PackedExplain | null;
}

/**
 * Up to this many pods every cell gets at least one canvas pixel; past it one
 * pixel covers a block of cells, shaded by the share denied, without hatching
 * (the legend says so).
 */
export const SHADED_ABOVE = 2048;
