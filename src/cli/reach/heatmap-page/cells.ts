// The cells as the page reads them from the embedded data: each cell's code
// (bit 0 egress denied, bit 1 ingress denied) and what it says in words, on
// hover and in the status line (with the engine's reasons when the writer
// embedded them).

import type { HeatmapData } from "../heatmap-data.js";
import { unpack } from "./unpack.js";

export interface Cells {
  /** Pods per side: row r is a source, column c a destination, both in display order. */
  readonly n: number;
  /** The cell's code: 0 allowed, 1 denied by egress, 2 by ingress, 3 by both. */
  code(r: number, c: number): number;
  /** The cell in words: the two pods, the verdict, the denying direction and the reasons. */
  describe(r: number, c: number): string;
}

/** Unpacks the cells (and the reasons, if any); rejects when the cell data has the wrong length. */
export async function readCells(data: HeatmapData): Promise<Cells> {
  const n = data.pods.length;
  const cells = await unpack(data.cells);
  if (cells.length !== Math.ceil((n * n) / 4))
    throw new Error(`cell data has ${cells.length} bytes, expected ${Math.ceil((n * n) / 4)}`);
  let reason: ((i: number) => string) | null = null;
  if (data.explain !== null) {
    const { texts, width } = data.explain;
    const bytes = await unpack(data.explain);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    reason = width === 2 ? (i) => texts[view.getUint16(i * 2, true)]! : (i) => texts[view.getUint32(i * 4, true)]!;
  }

  const code = (r: number, c: number): number => {
    const i = r * n + c;
    return (cells[i >> 2]! >> ((i & 3) * 2)) & 3;
  };

  const describe = (r: number, c: number): string => {
    const v = code(r, c);
    let out = `${data.pods[r]} → ${data.pods[c]}: ${v === 0 ? "allow" : "deny"}`;
    if (v === 1) out += "\ndenied by egress (at the source)";
    if (v === 2) out += "\ndenied by ingress (at the destination)";
    if (v === 3) out += "\ndenied by egress (at the source) and ingress (at the destination)";
    if (reason !== null) {
      const i = 2 * (r * n + c);
      out += `\negress: ${reason(i)}\ningress: ${reason(i + 1)}`;
    }
    return out;
  };

  return { n, code, describe };
}
