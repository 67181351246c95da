// The canvas: one pixel block per cell in its kind's colour, hatched in its
// kind's ink when a cell is 3 canvas pixels or more; past SHADED_ABOVE pods one
// pixel per block of cells, shaded from the allowed colour to the ingress-denied
// one by the share of the block denied.

import { type HeatmapData, SHADED_ABOVE } from "../heatmap-data.js";
import type { Cells } from "./cells.js";

/** The width of the fitted view, in CSS pixels: the zoom's Fit, and about the widest the canvas is drawn. */
export const FIT_WIDTH = 900;

export interface Geometry {
  /** Cells per canvas pixel along each side: 1 up to SHADED_ABOVE pods, more past it. */
  readonly block: number;
  /** Canvas pixels per cell along each side (1 when blocks are shaded). */
  readonly cellPx: number;
  /** The canvas's width and height in pixels. */
  readonly width: number;
}

/**
 * The canvas for `n` pods: up to SHADED_ABOVE pods every cell gets at least one
 * canvas pixel; beyond that a pixel covers block x block cells. The canvas is at
 * most about as wide as the fitted view (FIT_WIDTH), so the hatching is not
 * scaled down into a blur.
 */
export function geometry(n: number): Geometry {
  const block = n > SHADED_ABOVE ? Math.ceil(n / SHADED_ABOVE) : 1;
  const cellPx = block > 1 ? 1 : Math.max(1, Math.min(24, Math.floor(FIT_WIDTH / Math.max(n, 1))));
  return { block, cellPx, width: block > 1 ? Math.ceil(n / block) : n * cellPx };
}

/** A #rrggbb colour as an opaque ImageData pixel: RGBA in memory, which a little-endian Uint32 view reads as ABGR. */
function rgba(hex: string): number {
  const v = Number.parseInt(hex.slice(1), 16);
  return (0xff000000 | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

/** The opaque pixel `t` of the way from `a` to `b`. */
function mix(a: number, b: number, t: number): number {
  let out = 0xff000000;
  for (let s = 0; s < 24; s += 8) {
    const x = (a >> s) & 0xff;
    const y = (b >> s) & 0xff;
    out |= Math.round(x + (y - x) * t) << s;
  }
  return out >>> 0;
}

/**
 * The hatch of each kind of cell (by code), as offsets into a cell of `p`
 * canvas pixels (row * width + column) to paint in its ink: stripes s canvas
 * pixels apart, t wide, none below 3 pixels (an empty list) and none on
 * allowed cells (null). The cell's centre keeps its plain colour.
 */
function hatchMasks(data: HeatmapData, p: number, width: number): (number[] | null)[] {
  if (p < 3) return [];
  const s = Math.max(3, Math.floor(p / 3));
  const t = Math.max(1, Math.floor(s / 4));
  return data.kinds.map((kind) => {
    const h = data.hatch[kind];
    const out: number[] = [];
    if (!h) return null;
    for (let y = 0; y < p; y++) {
      for (let x = 0; x < p; x++) {
        const fall = (((x - y) % s) + s) % s >= s - t;
        const rise = (x + y) % s >= s - t;
        if ((h === "\\" && fall) || (h === "/" && rise) || (h === "X" && (fall || rise))) out.push(y * width + x);
      }
    }
    return out;
  });
}

/** Sizes the canvas to `shape` and paints every cell. */
export function drawCells(canvas: HTMLCanvasElement, data: HeatmapData, cells: Cells, shape: Geometry): void {
  const { n } = cells;
  const { block, cellPx, width: W } = shape;
  canvas.width = W;
  canvas.height = W;
  if (n === 0) return;
  const ctx = canvas.getContext("2d");
  if (ctx === null) throw new Error("the browser gave no 2D canvas context");
  const img = ctx.createImageData(W, W);
  const px = new Uint32Array(img.data.buffer);
  const pal = data.kinds.map((kind) => rgba(data.colours[kind]));
  const ink = data.kinds.map((kind) => rgba(data.ink[kind]));
  if (block === 1) {
    const masks = hatchMasks(data, cellPx, W);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const v = cells.code(r, c);
        const colour = pal[v]!;
        const at = r * cellPx * W + c * cellPx;
        for (let dy = 0; dy < cellPx; dy++) px.fill(colour, at + dy * W, at + dy * W + cellPx);
        const mask = masks[v];
        if (!mask) continue;
        for (const offset of mask) px[at + offset] = ink[v]!;
      }
    }
  } else {
    const denied = new Uint32Array(W * W);
    const total = new Uint32Array(W * W);
    for (let r = 0; r < n; r++) {
      const row = ((r / block) | 0) * W;
      for (let c = 0; c < n; c++) {
        const p = row + ((c / block) | 0);
        total[p]!++;
        if (cells.code(r, c) !== 0) denied[p]!++;
      }
    }
    for (let q = 0; q < px.length; q++) px[q] = mix(pal[0]!, pal[2]!, denied[q]! / total[q]!);
  }
  ctx.putImageData(img, 0, 0);
}
